/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kprobe-based event tracer: what differs between the two kernels it is
 * built for, Linux 6.1 and 6.12, and only that.  This is the one file
 * that asks which kernel it is on; the others use what it defines, or
 * what both kernels have.  A feature test where the kernel offers one (a
 * macro), the version where it does not (a header, a prototype).
 *
 *   unaligned access      <linux/unaligned.h> (6.12), <asm/unaligned.h>
 *   tkp_fregs_pt_regs()   the pt_regs in a struct ftrace_regs
 *   TKP_RETHOOK_ARGS()    a rethook handler's parameter list
 *   tkp_rethook_alloc()   a rethook with its instances, or NULL
 *   tkp_kallsyms_walk(),  symbol walks with 6.12's callback (no module)
 *   tkp_module_kallsyms_walk()
 *   TKP_DEFINE_BPF_GET_KPROBE_INFO()  bpf_get_kprobe_info() as the
 *                         kernel declares it, around one implementation
 *   bpf_find_btf_id()     declared here on 6.1 (prep patch 0008)
 *
 * checkpatch's warnings here are this file's job: LINUX_VERSION_CODE
 * (in one place, TKP_API_6_12), and the two macros that define
 * bpf_get_kprobe_info() (a function's body, so a return).
 */
#ifndef _TRACE_KPROBE_COMPAT_H
#define _TRACE_KPROBE_COMPAT_H

#include <linux/err.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/rethook.h>
#include <linux/slab.h>
#include <linux/version.h>

/*
 * Changes made between 6.1 and 6.12 that no macro shows (a header that
 * moved, prototypes that changed): the kernel's version tells, 6.1.y
 * from 6.12.y (the only two built for).
 */
#define TKP_API_6_12	(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))

/*
 * Count a recursion miss for each BPF program of @array (bpf_prog_info's
 * recursion_misses), as trace_call_bpf() does for a program it may not
 * run.  6.1's trace_call_bpf() counts none for kprobes: nor do we there.
 */
#if TKP_API_6_12
#define tkp_bpf_count_missed(array)	bpf_prog_inc_misses_counters(array)
#else
struct bpf_prog_array;
static inline void tkp_bpf_count_missed(const struct bpf_prog_array *array)
{
}
#endif

/*
 * The name kprobes check an address's blacklisting with
 * (lookup_symbol_name()): 6.1's cleans a clang LTO symbol of its
 * ".llvm.N" suffix, as ftrace's names are; 6.12's does not.
 */
#define TKP_BLACKLIST_NAME_CLEANED	(!TKP_API_6_12)

/* The unaligned accessors left asm/ for linux/ in 6.12. */
#if TKP_API_6_12
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * The struct pt_regs an ftrace callback's registers are saved in.  6.12.y
 * keeps struct ftrace_regs opaque, the arch's layout behind
 * arch_ftrace_regs(); 6.1's x86 one has the pt_regs as its member.  Only
 * for an arch whose ftrace_regs holds a pt_regs (x86), as fentry places
 * need anyway.
 */
#ifdef arch_ftrace_regs
#define tkp_fregs_pt_regs(fregs)	(&arch_ftrace_regs(fregs)->regs)
#else
#define tkp_fregs_pt_regs(fregs)	(&(fregs)->regs)
#endif

/*
 * A rethook handler's parameter list, for its definition and prototype:
 * 6.12 passes the return address too, which we do not need (the
 * registers' instruction pointer holds it as well).
 */
#if TKP_API_6_12
#define TKP_RETHOOK_ARGS(node, data, regs)				\
	struct rethook_node *node, void *data,				\
	unsigned long __maybe_unused tkp_ret_addr, struct pt_regs *regs
#else
#define TKP_RETHOOK_ARGS(node, data, regs)				\
	struct rethook_node *node, void *data, struct pt_regs *regs
#endif

#ifdef CONFIG_KPROBE_EVENTS_FENTRY
/**
 * tkp_rethook_alloc - a rethook and all its instances
 * @data: what its handler is passed
 * @handler: its handler
 * @size: the size of an instance (a struct rethook_node and more)
 * @num: how many instances
 *
 * 6.12's rethook keeps its instances in an objpool sized here, for good;
 * 6.1's takes them one by one, which we do here and nowhere else, so
 * that both are used alike: one allocation, never added to.  Instances
 * start zeroed on both.
 *
 * Return: the rethook, or NULL (6.12's rethook_alloc() returns an
 * ERR_PTR(), 6.1's NULL).
 */
static inline struct rethook *tkp_rethook_alloc(void *data,
						rethook_handler_t handler,
						unsigned int size,
						unsigned int num)
{
#if TKP_API_6_12
	struct rethook *rh = rethook_alloc(data, handler, size, num);

	return IS_ERR(rh) ? NULL : rh;
#else
	struct rethook_node *node;
	struct rethook *rh;

	rh = rethook_alloc(data, handler);
	if (!rh)
		return NULL;
	while (num--) {
		node = kzalloc(size, GFP_KERNEL);
		if (!node) {
			rethook_free(rh);	/* and the instances added */
			return NULL;
		}
		rethook_add_node(rh, node);
	}
	return rh;
#endif
}
#endif /* CONFIG_KPROBE_EVENTS_FENTRY */

/*
 * Walks over the symbols with 6.12's callback, which no longer gets the
 * symbol's module.  tkp_kallsyms_walk(): vmlinux's symbols;
 * tkp_module_kallsyms_walk(): those of module @mod, or of every module
 * when @mod is NULL.  A non-zero return of @fn stops the walk and is
 * returned.
 */
typedef int (*tkp_sym_fn)(void *data, const char *name, unsigned long addr);

#if TKP_API_6_12
static inline int tkp_kallsyms_walk(tkp_sym_fn fn, void *data)
{
	return kallsyms_on_each_symbol(fn, data);
}

static inline int tkp_module_kallsyms_walk(const char *mod, tkp_sym_fn fn,
					   void *data)
{
	return module_kallsyms_on_each_symbol(mod, fn, data);
}
#else
/* 6.1: the walk's callback, with the module, in front of @fn. */
struct tkp_sym_walk {
	tkp_sym_fn	fn;
	void		*data;
	const char	*mod;	/* only this module's, or NULL */
};

static inline int tkp_sym_walk_cb(void *arg, const char *name,
				  struct module *mod, unsigned long addr)
{
	struct tkp_sym_walk *w = arg;

	if (w->mod && (!mod || strcmp(w->mod, mod->name)))
		return 0;
	return w->fn(w->data, name, addr);
}

static inline int tkp_kallsyms_walk(tkp_sym_fn fn, void *data)
{
	struct tkp_sym_walk w = { .fn = fn, .data = data };

	return kallsyms_on_each_symbol(tkp_sym_walk_cb, &w);
}

static inline int tkp_module_kallsyms_walk(const char *mod, tkp_sym_fn fn,
					   void *data)
{
	struct tkp_sym_walk w = { .fn = fn, .data = data, .mod = mod };

	return module_kallsyms_on_each_symbol(tkp_sym_walk_cb, &w);
}
#endif

/*
 * bpf_get_kprobe_info() with the prototype of the kernel's
 * <linux/trace_events.h>, calling @impl, which takes every argument 6.12
 * has: 6.12 asks for the misses too (for bpf_link_info; @missed may be
 * NULL), 6.1 never does.  TKP_BPF_INFO_SYMBOL_ADDR: whether the address
 * a symbol's probe resolved to is shown (6.12), or only an address
 * probe's (6.1).
 */
#if TKP_API_6_12
#define TKP_DEFINE_BPF_GET_KPROBE_INFO(impl)				\
int bpf_get_kprobe_info(const struct perf_event *event, u32 *fd_type,	\
			const char **symbol, u64 *probe_offset,		\
			u64 *probe_addr, unsigned long *missed,		\
			bool perf_type_tracepoint)			\
{									\
	return impl(event, fd_type, symbol, probe_offset, probe_addr,	\
		    missed, perf_type_tracepoint);			\
}

#define TKP_BPF_INFO_SYMBOL_ADDR	true
#else
#define TKP_DEFINE_BPF_GET_KPROBE_INFO(impl)				\
int bpf_get_kprobe_info(const struct perf_event *event, u32 *fd_type,	\
			const char **symbol, u64 *probe_offset,		\
			u64 *probe_addr, bool perf_type_tracepoint)	\
{									\
	return impl(event, fd_type, symbol, probe_offset, probe_addr,	\
		    NULL, perf_type_tracepoint);			\
}

#define TKP_BPF_INFO_SYMBOL_ADDR	false
#endif

/*
 * bpf_find_btf_id(): declared by <linux/btf.h> on 6.12; on 6.1 static
 * in kernel/bpf/btf.c, which prep patch 0008 changes, and declared here.
 */
#if !TKP_API_6_12 && defined(CONFIG_DEBUG_INFO_BTF)
struct btf;
s32 bpf_find_btf_id(const char *name, u32 kind, struct btf **btf_p);
#endif

#endif /* _TRACE_KPROBE_COMPAT_H */
