// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe-based event tracer: the hit path.
 *
 * Everything that runs when a place is hit: the kprobe and kretprobe
 * handlers, the ftrace callbacks of fentry places and their rethook
 * return handler, fetching the arguments and writing one record into
 * each trace instance the event is enabled in (and handing the hit to
 * perf and BPF).  It runs in kprobe or ftrace context, with preemption
 * (and often interrupts) disabled: no locks, no allocation, no sleeping,
 * bounded work, under RCU.  Kept in one file so that the compiler sees
 * the whole path and keeps it in line.
 *
 * Reading it from the top: reading memory and the fetch of arguments
 * (tkp_fetch_args(), one case per TKP_OP_*); the record (tkp_record(),
 * the one way a record is written, through the trace event core) and
 * what hands a hit to every consumer (tkp_emit()); the recursion gate
 * (tkp_gate_enter()); then each kind of place's entry points: kprobes
 * and kretprobes (tkp_entry_hit(), tkp_return_hit()), and fentry places
 * (the ftrace callbacks, the return pool's hook and rethook handler).
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/context_tracking_irq.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/trace_recursion.h>
#include <linux/uaccess.h>

#include <asm/tlb.h>

#include "trace_kprobe.h"

/*
 * Recording a hit holds ftrace's recursion bit of its context (task,
 * softirq, hardirq, NMI, or the one "transition" nesting ftrace allows):
 * a probe that fires again in that context is one the recording itself
 * reached (a function the ring buffer or a fetch calls), and is counted
 * as a miss instead of recursing.  The same bit, with preemption off,
 * picks the recording's per-CPU staging buffer for argument values (see
 * TKP_SCRATCH_SIZE): a probe firing in an interrupt of another's
 * recording uses its own.
 */
#define TKP_SLOTS	(TRACE_CTX_TRANSITION + 1)
static void __percpu *tkp_scratch;
/* Each slot's address, per CPU, set once at init (tkp_hit_init()). */
static DEFINE_PER_CPU_READ_MOSTLY(u8 *, tkp_scratch_slot[TKP_SLOTS]);

static nokprobe_inline u8 *tkp_scratch_of(unsigned int slot)
{
	return __this_cpu_read(tkp_scratch_slot[slot]);
}

/*
 * Room for one symbol as sprint_symbol() writes it, for a hit holding
 * the recursion bit of its context: past the record's room in that
 * context's staging buffer, whose record part may be in use.
 */
static nokprobe_inline char *tkp_symbuf(void)
{
	return tkp_scratch_of(TRACE_CTX_NORMAL - interrupt_context_level()) +
	       TKP_MAX_RECORD;
}

/*
 * The entry time (tkp_clock()) of the return being recorded on this CPU,
 * for $duration; saved and restored around each return handler, so that
 * one nested in another's recording leaves it as it was.
 */
static DEFINE_PER_CPU(u64, tkp_entry_ns);

/* Likewise the arguments its entry took ($argN in return probes). */
static DEFINE_PER_CPU(const u8 *, tkp_entry_data);

/*
 * $duration's clock: the scheduler's clock of this CPU (what
 * local_clock() and trace clocks "perf" and "global" read), not
 * trace_clock_local() (sched_clock()).  A function's call may sleep and
 * resume on another CPU, and the raw clock holds for neither where the
 * kernel finds it unstable (the TSC under QEMU's TCG, for one; the trace
 * buffers then default to clock "global"): it jumped seconds ahead of the
 * records' own timestamps inside one "sleep 1" (test_args_duration.sh).
 * sched_clock_cpu() is the raw clock where that is stable, and otherwise
 * kept within a tick of the kernel's time.  Not through trace_clock():
 * 6.12's local_clock() is out of line and not notrace, and a return probe
 * on it hooks its return before any recursion bit is held
 * (test_args_duration_clocks.sh).  Every caller has preemption off.
 */
static nokprobe_inline u64 tkp_clock(void)
{
	return sched_clock_cpu(raw_smp_processor_id());
}

/*
 * The nanoseconds since @entry.  Two CPUs' clocks may differ by up to a
 * tick where the raw clock is unstable: a call that moved to another
 * CPU may end "before" it began, which is no duration at all.
 */
static nokprobe_inline u64 tkp_since(u64 entry)
{
	s64 d = tkp_clock() - entry;

	return d > 0 ? d : 0;
}

/*
 * Is @addr to be read as user memory?  Where user and kernel addresses
 * cannot overlap, a plain dereference of a user address reads user
 * memory too, as users of kprobe_events have always been able to rely on.
 */
static nokprobe_inline bool tkp_is_user(unsigned long addr, bool user)
{
	return user ||
	       (IS_ENABLED(CONFIG_ARCH_HAS_NON_OVERLAPPING_ADDRESS_SPACE) &&
		addr < TASK_SIZE_MAX);
}

/*
 * Is the word at @addr an aligned word inside the current task's stack?
 * A read there cannot fault (the stack is mapped all along; its guard
 * pages lie outside it) and reads no user memory, so it needs neither
 * the arch's check nor an exception table entry.  Syscall wrappers take
 * their arguments in a struct pt_regs there (+0x70(%di) on x86_64), and
 * $stackN and +N(%sp) read there too.  Aligned only: READ_ONCE_NOCHECK()
 * may be a load-acquire (arm64 with LTO), which faults on a misaligned
 * address, and nothing would fix that fault up; the others take the
 * nofault copy.
 */
static nokprobe_inline bool tkp_on_stack(unsigned long addr)
{
	return IS_ALIGNED(addr, sizeof(unsigned long)) &&
	       addr - (unsigned long)task_stack_page(current) <=
	       THREAD_SIZE - sizeof(unsigned long);
}

/*
 * A word of memory, returned in registers.  The nofault copies are out
 * of line, so that the buffer they need is not a local of the hit path:
 * an addressable local there costs every hit the stack protector's
 * canary, though only a dereference off the stack uses it.
 */
struct tkp_word {
	unsigned long val;
	bool ok;
};

static noinline struct tkp_word tkp_uload_word(unsigned long addr)
{
	struct tkp_word w = { .ok = true };

	if (copy_from_user_nofault(&w.val, (void __user *)addr, sizeof(w.val)))
		w.ok = false;
	return w;
}
NOKPROBE_SYMBOL(tkp_uload_word);

static noinline struct tkp_word tkp_kload_nofault(unsigned long addr)
{
	struct tkp_word w = { .ok = true };

	if (copy_from_kernel_nofault(&w.val, (void *)addr, sizeof(w.val)))
		w.ok = false;
	return w;
}
NOKPROBE_SYMBOL(tkp_kload_nofault);

/* A word tkp_on_stack() vouches for. */
static nokprobe_inline unsigned long tkp_stack_word(unsigned long addr)
{
	/* Unchecked: KASAN's stack redzones may lie there. */
	return READ_ONCE_NOCHECK(*(unsigned long *)addr);
}

/*
 * One word of kernel memory: a dereference in a fetch argument is mostly
 * that, and mostly on the stack.
 */
static nokprobe_inline struct tkp_word tkp_kload_word(unsigned long addr)
{
	struct tkp_word w = { .ok = true };

	if (!tkp_on_stack(addr))
		return tkp_kload_nofault(addr);
	w.val = tkp_stack_word(addr);
	return w;
}

/* Read @size bytes at @addr of kernel or user memory; false on a fault. */
static nokprobe_inline bool tkp_load(void *dst, unsigned long addr,
				     size_t size, bool user)
{
	if (tkp_is_user(addr, user))
		return !copy_from_user_nofault(dst, (void __user *)addr, size);
	if (size == sizeof(unsigned long) && tkp_on_stack(addr)) {
		*(unsigned long *)dst = tkp_stack_word(addr);
		return true;
	}
	return !copy_from_kernel_nofault(dst, (void *)addr, size);
}

/*
 * A string of kernel or user memory at @src into @dst, at most @room
 * bytes (positive), through the kernel's nofault copies.  Returns the
 * length with the NUL (@room if cut short, which ends with a NUL too),
 * 0 on a fault.
 */
static nokprobe_inline long tkp_kstrncpy(char *dst, unsigned long src,
					 long room)
{
	return max(strncpy_from_kernel_nofault(dst, (void *)src, room), 0L);
}

static nokprobe_inline long tkp_ustrncpy(char *dst, unsigned long src,
					 long room)
{
	long len;

	/*
	 * In an NMI (an int3 on x86) the mm loaded may not be current's:
	 * copy_from_user_nofault() asks, strncpy_from_user_nofault() not.
	 */
	if (in_nmi() && !nmi_uaccess_okay())
		return 0;
	len = strncpy_from_user_nofault(dst, (const void __user *)src, room);
	/* It counts no NUL for the empty string, whose NUL is there. */
	return len < 0 ? 0 : len ?: 1;
}

/*
 * 6.12's arm64: a hit's struct pt_regs, where the registers ftrace saved
 * (@fregs) are copied only once something needs them all: a record the
 * core's full way (a stack trace), perf, BPF, an argument read through
 * the arch's pt_regs helpers ($stackN).  A record with no arguments in
 * one plain trace instance reads none (bench rows entry and allhit), and
 * an argument that is an argument register, the stack or the frame
 * pointer is read from @fregs through ftrace's accessors (tkp_reg_at():
 * bench rows ustring, entry3args, regread).  Until copied, @regs is zero
 * but for the instruction pointer the hook sets (tkp_fentry_pc()) and
 * whatever the previous hit left in the fields the copy writes, never
 * read; its pstate is 0, which a copy's never is (ftrace_partial_regs()
 * gives the kernel mode).  Nor is the pstate of any other struct pt_regs
 * a hit gets there: those of a kprobe and of a kretprobe (whose
 * trampoline is a BRK on 6.12's arm64) are an exception's in the kernel.
 * A return hooked some other way (rethook) would have to hold to that,
 * and tkp_fentry_hit_args(), which takes the copies, refuses to build
 * beside fentry returns.
 */
#if defined(CONFIG_KPROBE_EVENTS_FENTRY) && TKP_HAVE_ARGS_OPS && \
	TKP_FTRACE_REGS_COPY
#define TKP_LAZY_REGS	1
#else
#define TKP_LAZY_REGS	0
#endif

#if TKP_LAZY_REGS
struct tkp_regs_slot {
	struct pt_regs regs;
	struct ftrace_regs *fregs;
};

static noinline void tkp_regs_fill(struct pt_regs *regs)
{
	struct tkp_regs_slot *rs = container_of(regs, struct tkp_regs_slot,
						regs);
	unsigned long pc = instruction_pointer(regs);

	ftrace_partial_regs(rs->fregs, regs);
	instruction_pointer_set(regs, pc);
}
NOKPROBE_SYMBOL(tkp_regs_fill);

/* @regs made readable, where @lazy says they may not be yet. */
static nokprobe_inline void tkp_regs_ready(struct pt_regs *regs, bool lazy)
{
	if (lazy && unlikely(!regs->pstate))
		tkp_regs_fill(regs);
}

/*
 * The register at offset @off of struct pt_regs, of registers @regs not
 * copied yet: from ftrace's where it has an accessor for it, from the copy
 * made now otherwise (x8 and the link register, which ftrace saves too).
 */
static noinline unsigned long tkp_fregs_at(struct pt_regs *regs, u16 off)
{
	struct ftrace_regs *fregs = container_of(regs, struct tkp_regs_slot,
						 regs)->fregs;

	if (off == offsetof(struct pt_regs, sp))
		return ftrace_regs_get_stack_pointer(fregs);
	if (off == offsetof(struct pt_regs, regs[29]))
		return ftrace_regs_get_frame_pointer(fregs);
	tkp_regs_fill(regs);
	return *(unsigned long *)((u8 *)regs + off);
}
NOKPROBE_SYMBOL(tkp_fregs_at);

static nokprobe_inline unsigned long tkp_reg_at(struct pt_regs *regs, u16 off)
{
	struct tkp_regs_slot *rs;

	if (regs->pstate)
		return *(unsigned long *)((u8 *)regs + off);
	/* x0-x7, the usual argument (bench row ustring) */
	if (off < offsetof(struct pt_regs, regs[8])) {
		rs = container_of(regs, struct tkp_regs_slot, regs);
		off -= offsetof(struct pt_regs, regs[0]);
		return ftrace_regs_get_argument(rs->fregs,
						off / sizeof(unsigned long));
	}
	return tkp_fregs_at(regs, off);
}
#else
static nokprobe_inline void tkp_regs_ready(struct pt_regs *regs, bool lazy)
{
}

static nokprobe_inline unsigned long tkp_reg_at(struct pt_regs *regs, u16 off)
{
	return *(unsigned long *)((u8 *)regs + off);
}
#endif

/*
 * $stackN and the arguments past the registers: out of line, for the
 * same reason as tkp_uload_word(), as the arch reads the stack into a
 * local of its own.
 */
static noinline unsigned long tkp_stack_nth(struct pt_regs *regs,
					    unsigned int n)
{
	return regs_get_kernel_stack_nth(regs, n);
}
NOKPROBE_SYMBOL(tkp_stack_nth);

static noinline unsigned long tkp_kernel_arg(struct pt_regs *regs,
					     unsigned int n)
{
	return regs_get_kernel_argument(regs, n);
}
NOKPROBE_SYMBOL(tkp_kernel_arg);

/* @regs, all of them readable: for the arch's pt_regs helpers. */
static nokprobe_inline struct pt_regs *tkp_regs_all(struct pt_regs *regs)
{
	tkp_regs_ready(regs, true);
	return regs;
}

static nokprobe_inline unsigned long tkp_source(const struct tkp_arg *a,
						struct pt_regs *regs)
{
	if (a->src_off != TKP_NO_REG)
		return tkp_reg_at(regs, a->src_off);
	switch (a->src) {
	case TKP_SRC_REG:
		return regs_get_register(tkp_regs_all(regs), a->param);
	case TKP_SRC_STACK:
		return tkp_stack_nth(tkp_regs_all(regs), a->param);
	case TKP_SRC_STACKP:
		return kernel_stack_pointer(tkp_regs_all(regs));
	case TKP_SRC_RETVAL:
		return regs_return_value(tkp_regs_all(regs));
	case TKP_SRC_ARG:
		return tkp_kernel_arg(tkp_regs_all(regs), a->param);
	case TKP_SRC_DURATION:
		return tkp_since(__this_cpu_read(tkp_entry_ns));
	case TKP_SRC_CURRENT:
		return (unsigned long)current;
	default:
		return a->param;
	}
}

/*
 * The source, then every dereference but the last, which is left as an
 * address for the caller: *@val gets the value itself when there is no
 * dereference, the address to read from otherwise.
 */
static nokprobe_inline bool tkp_walk(const struct tkp_arg *a,
				     struct pt_regs *regs, unsigned long *val)
{
	unsigned long v = tkp_source(a, regs);
	const long *d = a->drf, *last;
	unsigned int user = a->user;

	/* Rotated so that one dereference costs no loop. */
	if (a->ndrf) {
		last = d + a->ndrf - 1;
		v += *d;
		/*
		 * A first load from an aligned word of the task's stack (a
		 * syscall wrapper's pt_regs, say) is read in place, ahead of
		 * the loop and its nofault copies: bench rows deref2 and
		 * ustring.
		 */
		if (d < last && !(user & 1) && tkp_on_stack(v)) {
			v = tkp_stack_word(v) + *++d;
			user >>= 1;
		}
		for (; d < last; v += *++d, user >>= 1) {
			struct tkp_word w = tkp_is_user(v, user & 1) ?
					    tkp_uload_word(v) :
					    tkp_kload_word(v);

			if (!w.ok)
				return false;
			v = w.val;
		}
	}
	*val = v;
	return true;
}

static nokprobe_inline void tkp_put(void *dst, u64 v, unsigned int size)
{
	if (size == sizeof(u64))
		*(u64 *)dst = v;
	else if (size == sizeof(u32))
		*(u32 *)dst = v;
	else if (size == sizeof(u16))
		*(u16 *)dst = v;
	else
		*(u8 *)dst = v;
}

/*
 * memcpy() for the staged arguments of one record: a few dozen bytes
 * mostly, where the string instruction the kernel's memcpy() uses costs
 * one step per byte.  @dst, in the ring buffer, is only 4-byte aligned.
 */
static __always_inline void tkp_copy(u8 *dst, const u8 *src, unsigned int n)
{
	if (n >= 2 * sizeof(u64)) {
		unsigned long s = (unsigned long)src, d = (unsigned long)dst;
		unsigned long last = s + n - 2 * sizeof(u64);

		/*
		 * Pairs of words, then the pair ending at @n (they may
		 * overlap); one index for both sides.
		 */
		d -= s;
		for (; s < last; s += 2 * sizeof(u64)) {
			put_unaligned(get_unaligned((const u64 *)s),
				      (u64 *)(s + d));
			put_unaligned(get_unaligned((const u64 *)s + 1),
				      (u64 *)(s + d) + 1);
		}
		put_unaligned(get_unaligned((const u64 *)last),
			      (u64 *)(last + d));
		put_unaligned(get_unaligned((const u64 *)last + 1),
			      (u64 *)(last + d) + 1);
		return;
	}
	if (n >= sizeof(u64)) {
		/* A word, and the one ending at @n. */
		put_unaligned(get_unaligned((const u64 *)src), (u64 *)dst);
		put_unaligned(get_unaligned((const u64 *)(src + n) - 1),
			      (u64 *)(dst + n) - 1);
		return;
	}
	if (n & sizeof(u32)) {
		put_unaligned(get_unaligned((const u32 *)src), (u32 *)dst);
		dst += sizeof(u32);
		src += sizeof(u32);
	}
	if (n & sizeof(u16)) {
		put_unaligned(get_unaligned((const u16 *)src), (u16 *)dst);
		dst += sizeof(u16);
		src += sizeof(u16);
	}
	if (n & 1)
		*dst = *src;
}

/*
 * The end of a scalar or array argument's fetch, into its field: @v, as
 * walked (@ok: without a fault), is the value itself when @is_value, the
 * address to read it at otherwise.  False on a fault.
 */
static nokprobe_inline bool tkp_fetch_from(const struct tkp_arg *a, bool ok,
					   unsigned long v, bool is_value,
					   u8 *dst)
{
	unsigned int n = a->count ?: 1;

	if (!ok)
		goto fault;
	if (is_value)
		tkp_put(dst, v, a->size);
	else if (!tkp_load(dst, v, a->size * n, a->last_user))
		goto fault;
	if (a->kind == TKP_K_BITFIELD)
		tkp_put(dst, (tkp_get(dst, a->size) << a->bf_lshift) >>
			a->bf_rshift, a->size);
	return true;
fault:
	memset(dst, 0, a->size * n);
	return false;
}

/* A scalar or array argument into its field; false on a fault. */
static nokprobe_inline bool tkp_fetch_value(const struct tkp_arg *a,
					    struct pt_regs *regs, u8 *dst)
{
	unsigned long v = 0;
	bool ok = tkp_walk(a, regs, &v);

	return tkp_fetch_from(a, ok, v, !a->ndrf, dst);
}

/*
 * tkp_walk() for an argument with this_cpu_ptr() or this_cpu_read(): a
 * dereference's address may be a per-CPU one, taken on this CPU (the
 * caller keeps preemption off).  Returns the last dereference's address
 * (the value itself where the argument is an address: addr_only).  Out
 * of line: nothing else pays for the tests.
 */
static noinline struct tkp_word tkp_walk_pcpu(const struct tkp_arg *a,
					      struct pt_regs *regs)
{
	struct tkp_word w = { .val = tkp_source(a, regs), .ok = true };
	unsigned int i;

	/* The parser gives every per-CPU argument a dereference. */
	for (i = 0; i < a->ndrf; i++) {
		w.val += a->drf[i];
		if (a->pcpu & BIT(i))
			w.val = (unsigned long)
				this_cpu_ptr((void __percpu __force *)w.val);
		if (i == a->ndrf - 1)
			break;
		w = tkp_is_user(w.val, a->user & BIT(i)) ?
		    tkp_uload_word(w.val) : tkp_kload_word(w.val);
		if (!w.ok)
			break;
	}
	return w;
}
NOKPROBE_SYMBOL(tkp_walk_pcpu);

/* tkp_fetch_value() for a per-CPU argument (TKP_OP_PCPU). */
static noinline bool tkp_fetch_pcpu(const struct tkp_arg *a,
				    struct pt_regs *regs, u8 *dst)
{
	struct tkp_word w = tkp_walk_pcpu(a, regs);

	return tkp_fetch_from(a, w.ok, w.val, a->addr_only, dst);
}
NOKPROBE_SYMBOL(tkp_fetch_pcpu);

/*
 * The end of a string's fetch: the string at @addr, as walked (@ok:
 * without a fault), into @dst, at most @room bytes; its length with the
 * NUL, 0 on a fault.
 */
static nokprobe_inline int tkp_mstr_from(const struct tkp_arg *a, bool ok,
					 unsigned long addr, char *dst,
					 int room)
{
	if (!ok)
		return 0;
	if (tkp_is_user(addr, a->last_user))
		return tkp_ustrncpy(dst, addr, room);
	return tkp_kstrncpy(dst, addr, room);
}

/* A string in memory (TKP_OP_MSTR), likewise. */
static nokprobe_inline int tkp_fetch_mstr(const struct tkp_arg *a,
					  struct pt_regs *regs, char *dst,
					  int room)
{
	unsigned long addr = 0;
	bool ok = tkp_walk(a, regs, &addr);

	return tkp_mstr_from(a, ok, addr, dst, room);
}

/*
 * The end of a symstr's fetch: the value walked to (@v, or the word at
 * @v after a dereference) as "sym+off/size [mod]", likewise.  kallsyms'
 * lookups take no lock: fine in any context.
 */
static nokprobe_inline int tkp_symstr_from(const struct tkp_arg *a, bool ok,
					   unsigned long v, char *dst,
					   int room)
{
	char *sym;
	int len;

	if (room <= 0 || !ok)
		return 0;
	if (a->ndrf) {
		struct tkp_word w = tkp_is_user(v, a->last_user) ?
				    tkp_uload_word(v) : tkp_kload_word(v);

		if (!w.ok)
			return 0;
		v = w.val;
	}
	sym = tkp_symbuf();
	len = min(sprint_symbol(sym, v) + 1, room);
	memcpy(dst, sym, len);
	dst[len - 1] = '\0';
	return len;
}

/* symstr (TKP_OP_SYMSTR), likewise. */
static nokprobe_inline int tkp_fetch_symstr(const struct tkp_arg *a,
					    struct pt_regs *regs, char *dst,
					    int room)
{
	unsigned long v = 0;
	bool ok = tkp_walk(a, regs, &v);

	return tkp_symstr_from(a, ok, v, dst, room);
}

/*
 * A string or symstr through this_cpu_ptr() or this_cpu_read()
 * (TKP_OP_PCPU_STR), likewise.  Out of line, as tkp_fetch_pcpu().
 */
static noinline int tkp_fetch_pcpu_str(const struct tkp_arg *a,
				       struct pt_regs *regs, char *dst,
				       int room)
{
	struct tkp_word w = tkp_walk_pcpu(a, regs);

	if (a->type == TKP_T_SYMSTR)
		return tkp_symstr_from(a, w.ok, w.val, dst, room);
	return room > 0 ? tkp_mstr_from(a, w.ok, w.val, dst, room) : 0;
}
NOKPROBE_SYMBOL(tkp_fetch_pcpu_str);

/*
 * string[N] and ustring[N] (TKP_OP_STRARRAY): N pointers at the address
 * the argument gives, each to a string, which go into the record at @pos
 * on; their __data_loc words into @field.  Returns the bytes they take.
 */
static noinline unsigned int tkp_fetch_strarray(const struct tkp_arg *a,
						struct pt_regs *regs, u8 *buf,
						u8 *field, unsigned int pos,
						unsigned int hdr)
{
	bool user = tkp_types[a->type].user;
	unsigned int i, start = pos;
	unsigned long base, p;
	bool ok;
	int len;

	ok = tkp_walk(a, regs, &base);
	for (i = 0; i < a->count; i++, pos += len) {
		len = 0;
		if (ok && pos < TKP_MAX_RECORD &&
		    tkp_load(&p, base + i * sizeof(p), sizeof(p), a->last_user))
			len = tkp_is_user(p, user) ?
			      tkp_ustrncpy(buf + pos - hdr, p,
					   TKP_MAX_RECORD - pos) :
			      tkp_kstrncpy(buf + pos - hdr, p,
					   TKP_MAX_RECORD - pos);
		((u32 *)field)[i] = len << 16 | pos;
	}
	return pos - start;
}
NOKPROBE_SYMBOL(tkp_fetch_strarray);

/* $comm or an immediate string (TKP_OP_STR), likewise. */
static nokprobe_inline int tkp_fetch_cstr(const struct tkp_arg *a, char *dst,
					  int room)
{
	long len;

	if (room <= 0)
		return 0;
	len = strscpy(dst, a->src == TKP_SRC_COMM ? current->comm : a->imm,
		      room);
	return len < 0 ? room : len + 1;
}

/* Any string argument into @dst, likewise. */
static nokprobe_inline int tkp_fetch_string(const struct tkp_arg *a,
					    struct pt_regs *regs, char *dst,
					    int room)
{
	if (a->src == TKP_SRC_COMM || a->src == TKP_SRC_IMMSTR)
		return tkp_fetch_cstr(a, dst, room);
	if (a->pcpu)
		return tkp_fetch_pcpu_str(a, regs, dst, room);
	if (a->type == TKP_T_SYMSTR)
		return tkp_fetch_symstr(a, regs, dst, room);
	return room > 0 ? tkp_fetch_mstr(a, regs, dst, room) : 0;
}

/*
 * An argument its entry took, from the return instance into the record
 * (see tkp_entry_layout()).  Returns the bytes it adds after the fixed
 * fields.
 */
static nokprobe_inline unsigned int tkp_from_entry(const struct tkp_event *ev,
						   const struct tkp_arg *a,
						   u8 *buf, u8 *field,
						   unsigned int dyn,
						   u64 *faults)
{
	const u8 *d = __this_cpu_read(tkp_entry_data);
	unsigned int hdr = ev->hdr_size, n = a->size * (a->count ?: 1);
	unsigned int len;

	if (a->kind == TKP_K_STRING) {
		len = d ? *(const u16 *)(d + a->entry_off) : 0;
		len = min(len, TKP_MAX_RECORD - hdr - dyn);
		if (len) {
			memcpy(buf + dyn, d + a->entry_off + sizeof(u16), len);
			/* Cut at the record's end, it still ends with a NUL. */
			buf[dyn + len - 1] = '\0';
		}
		*(u32 *)field = len << 16 | (hdr + dyn);
		return len;
	}
	if (d && d[a->entry_off + n]) {
		memcpy(field, d + a->entry_off, n);
	} else {
		memset(field, 0, n);
		if (a->fault_bit != 0xff)
			*faults |= BIT_ULL(a->fault_bit);
	}
	return 0;
}

/*
 * At a return probe's entry: take the arguments that are taken there.
 * Out of line: only return probes with $argN come here, and in line it
 * would weigh on the entry path of every fentry place.
 */
static noinline void tkp_entry_capture(const struct tkp_probe *tp,
				       struct pt_regs *regs, u8 *data)
{
	const struct tkp_arg *a;
	int i, len;

	for (i = 0; i < tp->nargs; i++) {
		a = &tp->args[i];
		if (!a->at_entry)
			continue;
		if (a->kind == TKP_K_STRING) {
			len = tkp_fetch_string(a, regs,
					       data + a->entry_off + sizeof(u16),
					       TKP_ENTRY_STR);
			*(u16 *)(data + a->entry_off) = len;
		} else {
			data[a->entry_off + a->size * (a->count ?: 1)] =
				a->pcpu ?
				tkp_fetch_pcpu(a, regs, data + a->entry_off) :
				tkp_fetch_value(a, regs, data + a->entry_off);
		}
	}
}
NOKPROBE_SYMBOL(tkp_entry_capture);

/*
 * Fetch every argument of a place of @ev, whose fetch program is @args,
 * into the scratch buffer, laid out as the record from the end of its
 * header on.  Returns the number of bytes used.
 */
static nokprobe_inline unsigned int tkp_fetch_args(const struct tkp_event *ev,
						   const struct tkp_arg *args,
						   struct pt_regs *regs,
						   u8 *buf)
{
	const struct tkp_arg *a = args;
	unsigned int n = ev->nargs, hdr = ev->hdr_size, pos = ev->rec_size;
	u64 faults = 0;
	int len;

	/* @pos: where in the record the next string goes. */
	for (; n; n--, a++) {
		u8 *field = buf + a->offset - hdr;

		/*
		 * A register as it is, the most usual argument, ahead of the
		 * switch's chain of tests (bench row retval).
		 */
		if (likely(a->op == TKP_OP_REG)) {
			tkp_put(field, tkp_reg_at(regs, a->reg_off), a->size);
			continue;
		}
		switch (a->op) {
		case TKP_OP_VALUE:
			if (!tkp_fetch_value(a, regs, field) &&
			    a->fault_bit != 0xff)
				faults |= BIT_ULL(a->fault_bit);
			continue;
		case TKP_OP_ENTRY:
			pos += tkp_from_entry(ev, a, buf, field, pos - hdr,
					      &faults);
			continue;
		case TKP_OP_PCPU:
			if (!tkp_fetch_pcpu(a, regs, field) &&
			    a->fault_bit != 0xff)
				faults |= BIT_ULL(a->fault_bit);
			continue;
		case TKP_OP_MSTR:
		case TKP_OP_SYMSTR:
			len = 0;
			if (pos >= TKP_MAX_RECORD)
				break;
			len = a->op == TKP_OP_MSTR ?
			      tkp_fetch_mstr(a, regs, buf + pos - hdr,
					     TKP_MAX_RECORD - pos) :
			      tkp_fetch_symstr(a, regs, buf + pos - hdr,
					       TKP_MAX_RECORD - pos);
			break;
		case TKP_OP_STRARRAY:
			pos += tkp_fetch_strarray(a, regs, buf, field, pos,
						  hdr);
			continue;
		case TKP_OP_PCPU_STR:
			len = pos < TKP_MAX_RECORD ?
			      tkp_fetch_pcpu_str(a, regs, buf + pos - hdr,
						 TKP_MAX_RECORD - pos) : 0;
			break;
		default:
			len = tkp_fetch_cstr(a, buf + pos - hdr,
					     TKP_MAX_RECORD - pos);
			break;
		}
		/* __data_loc: length high, offset in record low. */
		*(u32 *)field = len << 16 | pos;
		pos += len;
	}
	if (ev->fault_off >= 0)
		*(u64 *)(buf + ev->fault_off - hdr) = faults;
	return pos - hdr;
}

/*
 * tkp_fetch_args() for an event whose one argument is a string, the
 * usual shape of string probes: no loop, no test of other kinds.
 */
static nokprobe_inline unsigned int tkp_fetch_one_str(const struct tkp_probe *tp,
						      struct pt_regs *regs,
						      u8 *buf)
{
	const struct tkp_arg *a = tp->args;
	unsigned int pos = tp->ev->rec_size;
	char *dst = buf + sizeof(u32);
	int len;

	/* Its field is the first and only one (see tkp_set_args()). */
	if (a->op == TKP_OP_MSTR)
		len = tkp_fetch_mstr(a, regs, dst, TKP_MAX_RECORD - pos);
	else
		len = tkp_fetch_cstr(a, dst, TKP_MAX_RECORD - pos);
	*(u32 *)buf = len << 16 | pos;
	return sizeof(u32) + len;
}

/* The probe's own fields, which follow struct trace_entry. */
static nokprobe_inline void tkp_fill_hdr(const struct tkp_event *ev,
					 void *rec, unsigned long a,
					 unsigned long b)
{
	if (ev->is_return) {
		((struct tkp_return_rec *)rec)->func = a;
		((struct tkp_return_rec *)rec)->ret_ip = b;
	} else {
		((struct tkp_entry_rec *)rec)->ip = a;
	}
}

#ifdef CONFIG_PERF_EVENTS
/*
 * What bpf_get_func_ip() names for a hit of @tp at @a, handed to BPF in
 * the programs' run context rather than left to the kprobes core: a probe
 * of ours hooked through ftrace runs with no kprobe of its own running,
 * and maybe with another one active on this CPU (whose handler, or an NMI
 * in it, called the function), which the helper would name instead.  @a
 * is on a function's entry at a fentry place (where it was hooked), and
 * is the function at a return probe; the helper maps it to the function's
 * start as it maps a kprobe's address.  A kprobe gives 0: the helper then
 * asks the kprobes core, where ours is the one running, and names nothing
 * at an offset into a function, as for the kernel's own kprobe events.
 */
static nokprobe_inline unsigned long tkp_bpf_func_ip(const struct tkp_probe *tp,
						     unsigned long a)
{
	return tkp_on_ftrace(tp) || tp->ev->is_return ? a : 0;
}

/*
 * perf's record of a hit of @tp, for perf events on @head that sample it
 * or filter it.  @args holds its arguments (@body bytes) if a trace
 * instance took them already; when NULL they are fetched into staging
 * buffer @slot (and @body is ignored).
 */
static noinline void tkp_perf_record(struct tkp_probe *tp,
				     struct pt_regs *regs, unsigned long a,
				     unsigned long b, u8 *args,
				     unsigned int body, unsigned int slot,
				     struct hlist_head *head)
{
	struct tkp_event *ev = tp->ev;
	int size, rctx;
	void *rec;

	if (!args) {
		body = ev->rec_size - ev->hdr_size;
		if (body) {
			args = tkp_scratch_of(slot);
			body = tkp_fetch_args(ev, tp->args, regs, args);
		}
	}
	/* perf wants the raw record plus its u32 size to be u64 aligned. */
	size = ALIGN(ev->hdr_size + body + sizeof(u32), sizeof(u64)) -
	       sizeof(u32);
	rec = perf_trace_buf_alloc(size, NULL, &rctx);
	if (!rec)
		return;
	tkp_fill_hdr(ev, rec, a, b);
	if (body)
		memcpy(rec + ev->hdr_size, args, body);
	perf_trace_buf_submit(rec, size, rctx, ev->call.event.type, 1, regs,
			      head, NULL);
}
NOKPROBE_SYMBOL(tkp_perf_record);

/*
 * The hit of place @tp for perf events (@args, @body and @slot as for
 * tkp_perf_record()).
 */
static noinline void tkp_perf_events(struct tkp_probe *tp,
				     struct pt_regs *regs, unsigned long a,
				     unsigned long b, u8 *args,
				     unsigned int body, unsigned int slot)
{
	struct hlist_head *head = this_cpu_ptr(tp->ev->call.perf_events);

	if (hlist_empty(head))
		return;
	/* Events that only count (perf stat) need no record: row pmu. */
	if (!perf_tp_event_count(head, 1, regs))
		tkp_perf_record(tp, regs, a, b, args, body, slot, head);
}
NOKPROBE_SYMBOL(tkp_perf_events);

/*
 * Hand the hit of place @tp to BPF and perf; @args, @body and @slot as
 * for tkp_perf_record().  Returns 1 when a BPF program moved the
 * instruction pointer (bpf_override_return): execution must then resume
 * there instead of going on in the probed function.  The BPF programs
 * are run from here, in line (rows bpf, bpfmap and bpfret of make
 * bench), perf's events apart.
 */
static nokprobe_inline int tkp_perf(struct tkp_probe *tp,
				    struct pt_regs *regs, unsigned long a,
				    unsigned long b, u8 *args,
				    unsigned int body, unsigned int slot)
{
	struct tkp_event *ev = tp->ev;
	struct trace_event_call *call = &ev->call;
	unsigned long ip = instruction_pointer(regs);
	int keep;

	if (bpf_prog_array_valid(call)) {
		keep = trace_call_bpf_func_ip(call, regs, tkp_bpf_func_ip(tp, a));
		if (!ev->is_return && ip != instruction_pointer(regs))
			return 1;
		if (!keep)
			return 0;
	}
	tkp_perf_events(tp, regs, a, b, args, body, slot);
	return 0;
}

/*
 * A hit of @tp the recursion gate refused never reached BPF: its
 * programs count it as trace_call_bpf() counts one it may not run (their
 * recursion_misses; BPF's selftest missed/kprobe_recursion reads them).
 */
static nokprobe_inline void tkp_bpf_missed(struct tkp_probe *tp)
{
	struct trace_event_call *call = &tp->ev->call;

	if (bpf_prog_array_valid(call)) {
		rcu_read_lock();
		tkp_bpf_count_missed(rcu_dereference(call->prog_array));
		rcu_read_unlock();
	}
}
#else
static nokprobe_inline int tkp_perf(struct tkp_probe *tp,
				    struct pt_regs *regs, unsigned long a,
				    unsigned long b, u8 *args,
				    unsigned int body, unsigned int slot)
{
	return 0;
}

static nokprobe_inline void tkp_bpf_missed(struct tkp_probe *tp)
{
}
#endif

/*
 * What follows struct trace_entry in a reserved record @rec of @ev: the
 * probe's own fields, then the arguments, from @args (@body bytes,
 * staged) or, when @args is NULL, fetched right into the record by the
 * place's fetch program @prog.
 */
static nokprobe_inline void tkp_fill_rec(const struct tkp_event *ev,
					 const struct tkp_arg *prog, u8 *rec,
					 struct pt_regs *regs,
					 unsigned long a, unsigned long b,
					 const u8 *args, unsigned int body)
{
	tkp_fill_hdr(ev, rec, a, b);
	if (args)
		tkp_copy(rec + ev->hdr_size, args, body);
	else if (body)
		tkp_fetch_args(ev, prog, regs, rec + ev->hdr_size);
}

/*
 * One record of place @tp's hit into trace instance @file the trace event
 * core's full way, when it has more to do than a reservation and a
 * commit (see tkp_record()).
 */
static noinline void tkp_record_full(struct tkp_probe *tp,
				     struct trace_event_file *file,
				     struct pt_regs *regs,
				     unsigned long a, unsigned long b,
				     const u8 *args, unsigned int body)
{
	struct tkp_event *ev = tp->ev;
	struct trace_event_buffer fbuf;
	u8 *rec;

	if (trace_trigger_soft_disabled(file))
		return;
	rec = trace_event_buffer_reserve(&fbuf, file, ev->hdr_size + body);
	if (!rec)
		return;
	fbuf.regs = regs;
	tkp_fill_rec(ev, tp->args, rec, regs, a, b, args, body);
	trace_event_buffer_commit(&fbuf);
}
NOKPROBE_SYMBOL(tkp_record_full);

/*
 * One record of place @tp's hit into trace instance @file.  Its
 * arguments come from @args (@body bytes, staged), or when @args is NULL
 * are fetched by the place's program right into the reserved record.
 * The trace event core says when the record needs no more than a
 * reservation and a commit (no filter, trigger, pid filter, stack trace,
 * ...), and makes its trace context word; the core's full way takes the
 * rest.  Either takes one off the preempt depth for the caller's
 * preempt_disable(): every caller has one (see tkp_entry_hit()).  @lazy:
 * @regs may still be to copy (tkp_regs_ready()).
 */
static nokprobe_inline void tkp_record(struct tkp_probe *tp,
				       struct trace_event_file *file,
				       struct pt_regs *regs,
				       unsigned long a, unsigned long b,
				       const u8 *args, unsigned int body,
				       bool lazy)
{
	struct tkp_event *ev = tp->ev;
	struct ring_buffer_event *event;
	struct trace_buffer *buffer;
	unsigned int ctx;
	u8 *rec;

	if (unlikely(!trace_event_file_plain(file))) {
		tkp_regs_ready(regs, lazy);
		tkp_record_full(tp, file, regs, a, b, args, body);
		return;
	}
	ctx = __tracing_gen_ctx_dec();
	buffer = file->tr->array_buffer.buffer;
	event = ring_buffer_lock_reserve(buffer, ev->hdr_size + body);
	if (!event)
		return;
	rec = ring_buffer_event_data(event);
	tracing_generic_entry_update((struct trace_entry *)rec,
				     ev->call.event.type, ctx);
	tkp_fill_rec(ev, tp->args, rec, regs, a, b, args, body);
	trace_buffer_unlock_commit_nostack(buffer, event);
}

/*
 * The arguments of a record with strings, whose size is known only once
 * they are fetched, into staging buffer @buf; returns the size of the
 * record's body.  The usual event of one string has a lighter fetch of
 * its own.
 */
static noinline unsigned int tkp_fetch_dyn(const struct tkp_probe *tp,
					   struct pt_regs *regs, u8 *buf)
{
	if (tp->one_str)
		return tkp_fetch_one_str(tp, regs, buf);
	return tkp_fetch_args(tp->ev, tp->args, regs, buf);
}
NOKPROBE_SYMBOL(tkp_fetch_dyn);

/*
 * tkp_emit() for all but the common case: several trace instances, perf
 * or BPF.  The arguments are fetched once, into staging buffer @slot,
 * however many consumers there are; for perf alone, only if it wants a
 * record (see tkp_perf()).
 */
static noinline int tkp_emit_general(struct tkp_probe *tp,
				     struct pt_regs *regs, unsigned long a,
				     unsigned long b, unsigned int slot)
{
	struct tkp_event *ev = tp->ev;
	struct tkp_files *files = rcu_dereference_sched(ev->files);
	bool perf = READ_ONCE(ev->perf_on);
	unsigned int i, body = ev->rec_size - ev->hdr_size;
	struct trace_event_file *file;
	u8 *args = NULL;

	if (!files && !perf)
		return 0;
	if (files && body) {
		args = tkp_scratch_of(slot);
		body = tkp_fetch_args(ev, tp->args, regs, args);
	}
	for (i = 0; files && i < files->nr; i++) {
		file = READ_ONCE(files->file[i]);
		if (file)
			tkp_record(tp, file, regs, a, b, args, body, false);
	}
	return perf ? tkp_perf(tp, regs, a, b, args, body, slot) : 0;
}
NOKPROBE_SYMBOL(tkp_emit_general);

/* tkp_perf() for perf or BPF alone, @regs made readable first. */
static nokprobe_inline int tkp_perf_ready(struct tkp_probe *tp,
					  struct pt_regs *regs,
					  unsigned long a, unsigned long b,
					  unsigned int slot, bool lazy)
{
	tkp_regs_ready(regs, lazy);
	return tkp_perf(tp, regs, a, b, NULL, 0, slot);
}

/*
 * Write one record per trace instance the event is enabled in, and pass
 * the hit to perf/BPF when attached.  @a and @b are the probe's fields:
 * the probed address, or the function and the return address.  The
 * caller holds ftrace's recursion bit, whose number is @slot.  Returns 1
 * when BPF moved the instruction pointer (see tkp_perf()).  @lazy: @regs
 * may still be to copy (tkp_regs_ready()).
 */
static nokprobe_inline int tkp_emit(struct tkp_probe *tp,
				    struct pt_regs *regs, unsigned long a,
				    unsigned long b, unsigned int slot,
				    bool lazy)
{
	struct tkp_event *ev = tp->ev;
	struct trace_event_file *file = rcu_dereference_sched(ev->fast);
	u8 *args;

	raw_cpu_inc(*tp->hits);
	/* The common case: one trace instance, no perf, no BPF. */
	if (unlikely(!file)) {
		/* perf or BPF alone (rows pmu and pmuret) */
		if (!rcu_access_pointer(ev->files))
			return READ_ONCE(ev->perf_on) ?
			       tkp_perf_ready(tp, regs, a, b, slot, lazy) : 0;
		tkp_regs_ready(regs, lazy);
		return tkp_emit_general(tp, regs, a, b, slot);
	}
	/* The fetch copies @regs itself if it needs them all (tkp_reg_at()). */
	if (!ev->dyn) {
		/* Fixed size: fetched right into the record. */
		tkp_record(tp, file, regs, a, b, NULL,
			   ev->rec_size - ev->hdr_size, lazy);
	} else {
		args = tkp_scratch_of(slot);
		tkp_record(tp, file, regs, a, b, args,
			   tkp_fetch_dyn(tp, regs, args), lazy);
	}
	return 0;
}
/*
 * Where a hit comes from, which is all the recursion gate needs to know.
 */
enum tkp_gate {
	TKP_GATE_OWN,	/* an ftrace callback of ours, a return handler */
	TKP_GATE_BREAK,	/* a kprobe's breakpoint (or its optimised jump) */
	TKP_GATE_HELD,	/* a kprobe on an ftrace site: see below */
};

static nokprobe_inline enum tkp_gate tkp_kprobe_gate(struct kprobe *kp)
{
	return kprobe_ftrace(kp) ? TKP_GATE_HELD : TKP_GATE_BREAK;
}

/*
 * The hit path's recursion gate: ftrace's recursion bit of this context
 * (task, softirq, hardirq, NMI), taken for a hit about to be recorded
 * (preemption is off).  Held, it means a recording (ours, or another
 * ftrace callback's) is in progress in this context, which this hit was
 * reached from: the hit is refused, and counted as a miss.  Unlike
 * ftrace_test_recursion_trylock() it grants no "transition" bit to a
 * nested call (meant for an interrupt that comes before preempt_count()
 * says so): for us a nested call is one our own recording made, a
 * function the ring buffer or a fetch calls.
 *
 * TKP_GATE_HELD: the kprobes core's ftrace handler, which runs a kprobe
 * on a function's ftrace site, holds the bit for this hit already; it is
 * ours to use but not to release.  That handler grants the transition
 * bit to a call nested in a recording, which is refused here.
 *
 * TKP_GATE_BREAK: x86 enters a kernel breakpoint as an NMI, so a kprobe
 * that one of our recordings reaches (kprobes may probe the ring buffer's
 * functions, which ftrace does not trace) runs in a context of its own,
 * whose bit is free.  Such a hit also tests the bit one level down, that
 * of the context nmi_enter() came from.  Other arches (arm64's BRK)
 * handle a breakpoint in the context it interrupted, whose bit the plain
 * test finds taken.  An optimised kprobe in a real NMI cannot be told
 * from an int3 and looks below the NMI: it is counted as a miss when the
 * NMI came in the middle of a recording.
 *
 * Returns the bit, or -1.
 */
static nokprobe_inline int tkp_gate_enter(enum tkp_gate from)
{
	unsigned long pc = preempt_count();
	int bit = TRACE_FTRACE_START + TRACE_CTX_NORMAL;
	unsigned long below = 0;

	if (from == TKP_GATE_HELD) {
		if (trace_recursion_test(TRACE_FTRACE_START +
					 TRACE_CTX_TRANSITION))
			return -1;
		return TRACE_FTRACE_START + trace_get_context_bit();
	}
	if (from == TKP_GATE_BREAK && TKP_BREAK_IS_NMI &&
	    unlikely(pc & NMI_MASK)) {
		/* The masks nest, each above the next: a level is a test. */
		pc = (pc - (NMI_OFFSET + HARDIRQ_OFFSET)) &
		     (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET);
		below = BIT(bit - (pc >= NMI_OFFSET) - (pc >= HARDIRQ_OFFSET) -
			    (pc >= SOFTIRQ_OFFSET));
		bit = TRACE_FTRACE_START + TRACE_CTX_NMI;
	} else if (unlikely(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET))) {
		bit = TRACE_FTRACE_START + trace_get_context_bit();
	}
	if (unlikely(READ_ONCE(current->trace_recursion) & (BIT(bit) | below)))
		return -1;
	trace_recursion_set(bit);
	barrier();
	return bit;
}

static nokprobe_inline void tkp_gate_exit(int bit, enum tkp_gate from)
{
	if (from == TKP_GATE_HELD)
		return;
	barrier();
	trace_recursion_clear(bit);
}

/*
 * A hit of @tp the gate refused: a miss, counted where the kprobes core
 * counts a reentered kprobe's (@counter: the place's reentered, or its
 * ret_refused for a return) and by its BPF programs.
 */
static nokprobe_inline void tkp_refused(struct tkp_probe *tp,
					atomic_t *counter)
{
	atomic_inc(counter);
	tkp_bpf_missed(tp);
}

/*
 * tkp_emit() behind the gate, for a return handler; a miss is counted
 * as a return refused.
 */
static nokprobe_inline int tkp_emit_gated(struct tkp_probe *tp,
					  struct pt_regs *regs,
					  unsigned long a, unsigned long b)
{
	int bit, ret;

	bit = tkp_gate_enter(TKP_GATE_OWN);
	if (unlikely(bit < 0)) {
		tkp_refused(tp, &tp->ret_refused);
		return 0;
	}
	ret = tkp_emit(tp, regs, a, b, bit - TRACE_FTRACE_START, false);
	tkp_gate_exit(bit, TKP_GATE_OWN);
	return ret;
}

/*
 * Does a kprobe's handler, hit from @from, run with no preempt_disable()
 * of its own?  The trace event core takes one off the preempt depth for
 * its caller's (with CONFIG_PREEMPTION); a breakpoint's handler, entered
 * as an exception, has none, and is given one, so that the record shows
 * the probed context's depth.  An optimised kprobe's handler has one;
 * where a breakpoint is entered as an NMI (x86) it is told apart by
 * that, but for an optimised kprobe hit inside a real NMI, whose records
 * then show one more.
 */
static nokprobe_inline bool tkp_kprobe_pin(enum tkp_gate from)
{
	return IS_ENABLED(CONFIG_PREEMPTION) && from == TKP_GATE_BREAK &&
	       (!TKP_BREAK_IS_NMI || in_nmi());
}

/* An entry kprobe's hit. */
int tkp_entry_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct tkp_kp *k = container_of(kp, struct tkp_kp, rp.kp);
	enum tkp_gate from = tkp_kprobe_gate(kp);
	bool pin = tkp_kprobe_pin(from);
	struct tkp_probe *tp = k->tp;
	int bit, ret;

	bit = tkp_gate_enter(from);
	if (unlikely(bit < 0)) {
		tkp_refused(tp, &tp->reentered);
		return 0;
	}
	if (pin)
		preempt_disable_notrace();
	ret = tkp_emit(tp, regs, k->ip, 0, bit - TRACE_FTRACE_START, false);
	if (pin)
		preempt_enable_notrace();
	tkp_gate_exit(bit, from);
	/*
	 * Non-zero: BPF redirected execution, to be resumed there, not
	 * single-stepped; the kprobes core then lets go of the kprobe.
	 */
	return ret;
}
NOKPROBE_SYMBOL(tkp_entry_hit);

/*
 * A kretprobe's entry: the time, for $duration, and the arguments taken
 * at entry.  The return of a call a recording made is not hooked.
 */
int tkp_return_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct tkp_probe *tp;
	enum tkp_gate from;
	int bit;

	*(u64 *)ri->data = tkp_clock();
	if (!rp)
		return 0;
	tp = container_of(rp, struct tkp_kp, rp)->tp;
	from = tkp_kprobe_gate(&rp->kp);
	bit = tkp_gate_enter(from);
	if (bit < 0) {
		tkp_refused(tp, &tp->reentered);
		return 1;
	}
	if (tp->entry_size)
		tkp_entry_capture(tp, regs, ri->data + sizeof(u64));
	tkp_gate_exit(bit, from);
	return 0;
}
NOKPROBE_SYMBOL(tkp_return_entry);

/*
 * Where the function returns to.  Not the instance's own return address:
 * a return hooked after another one of the same call (two return probes
 * on a function) found the first one's trampoline there.  The core puts
 * the real one in the registers it hands every handler.
 */
static nokprobe_inline unsigned long tkp_ret_ip(struct pt_regs *regs)
{
	return instruction_pointer(regs);
}

int tkp_return_hit(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	const u8 *outer_data;
	struct tkp_probe *tp;
	unsigned long func;
	u64 outer;

	if (unlikely(!rp))
		return 0;
	tp = container_of(rp, struct tkp_kp, rp)->tp;
	func = (unsigned long)rp->kp.addr;
	if (rp->entry_handler) {
		outer = __this_cpu_read(tkp_entry_ns);
		outer_data = __this_cpu_read(tkp_entry_data);
		__this_cpu_write(tkp_entry_ns, *(u64 *)ri->data);
		__this_cpu_write(tkp_entry_data, ri->data + sizeof(u64));
		tkp_emit_gated(tp, regs, func, tkp_ret_ip(regs));
		__this_cpu_write(tkp_entry_ns, outer);
		__this_cpu_write(tkp_entry_data, outer_data);
		return 0;
	}
	tkp_emit_gated(tp, regs, func, tkp_ret_ip(regs));
	return 0;
}
NOKPROBE_SYMBOL(tkp_return_hit);

#ifdef CONFIG_KPROBE_EVENTS_FENTRY
/*
 * The entry half of hook @hk's return probe: take an instance of the
 * pool's current generation and hook the return.  An empty pool is a
 * miss; a generation three quarters in use asks for more.  Either is
 * handed to the pool's work (tkp_pool_work()), which grows the pool and
 * tells of the misses in the trace: nothing here calls what a probe could
 * be on (kallsyms, through %ps), so neither nests in another pool's.
 * What comes after the calls in here is read again through @gen and @hk
 * rather than kept.
 *
 * A generation raises the irq_work once for its first miss and once per
 * look of the work for more: a pattern's return probe is hit inside the
 * irq_work interrupt too, and raising it again from there would
 * interrupt the CPU again on its way out, and again, until the work got
 * to run (test_wildcard_all_ret.sh).  Two CPUs racing both raise it,
 * which is harmless.
 */
#if TKP_FENTRY_RETURNS
static nokprobe_inline void tkp_pool_hook(struct tkp_hook *hk,
					  struct pt_regs *regs)
{
	struct tkp_gen *gen = rcu_dereference_sched(hk->tp->fe.pool->cur);
	struct rethook_node *node;
	struct tkp_pool *pool;
	struct tkp_rnode *rn;
	unsigned int busy;

	/* RCU watches: tkp_fentry_common() hooks no return in idle. */
	node = __rethook_try_get(gen->rh);
	if (unlikely(!node)) {
		pool = gen->pool;
		atomic_inc(&pool->no_instance);
		WRITE_ONCE(pool->lost_func, READ_ONCE(hk->ip));
		atomic_inc(&pool->lost);
		smp_mb__after_atomic();	/* pairs with tkp_pool_work()'s xchg */
		if (!READ_ONCE(gen->missed)) {
			WRITE_ONCE(gen->missed, true);
			irq_work_queue(&pool->irq);
		}
		return;
	}
	rn = container_of(node, struct tkp_rnode, node);
	rn->func = READ_ONCE(hk->ip);
	if (unlikely(gen->ctx)) {
		if (gen->tp->entry_size)
			tkp_entry_capture(gen->tp, regs, rn->data);
		if (gen->duration)
			rn->entry_ns = tkp_clock();
	}
	__rethook_hook(node, regs, true);
	/*
	 * An instance still marked out came back without its handler (its
	 * task exited inside the function, and rethook_flush_task()
	 * recycled it): it is counted in busy already.
	 */
	if (unlikely(rn->out))
		return;
	rn->out = true;
	/* Fully ordered: @grow_at and @asked are read after it. */
	busy = atomic_fetch_inc(&gen->busy);
	if (unlikely(busy >= READ_ONCE(gen->grow_at)) &&
	    !READ_ONCE(gen->asked)) {
		WRITE_ONCE(gen->asked, true);
		irq_work_queue(&gen->pool->irq);
	}
}
#else
/* Without rethook no return probe is a fentry place (arm64). */
static nokprobe_inline void tkp_pool_hook(struct tkp_hook *hk,
					  struct pt_regs *regs)
{
}
#endif

/* The hooks of @site, for tkp_fentry_hit_ret(). */
static noinline void tkp_pool_hook_all(struct tkp_site *site,
				       struct pt_regs *regs)
{
	struct tkp_hook *hk;

	list_for_each_entry_rcu(hk, &site->probes, site_link)
		if (likely(tkp_hooks_return_only(hk->tp)))
			tkp_pool_hook(hk, regs);
}
NOKPROBE_SYMBOL(tkp_pool_hook_all);

/*
 * Where a function resumes once a BPF program on its fentry place called
 * bpf_override_return().  arm64's override sets pc to the link register:
 * a return from ftrace straight there would skip what ftrace's later
 * callbacks made of the link register (the graph tracer's return hook,
 * whose return stack would then go out of step, a BPF trampoline's
 * "original function").  A return of ours instead returns through the
 * link register ftrace restores, as x86's just_return_func does through
 * the stack (test_bpf_override_places.sh, under the graph tracer).
 */
#if TKP_OVERRIDE_STUB
/*
 * noinstr: nothing but the return, whatever else instruments the kernel
 * (KCOV's or gcov's code here could change x0, the value BPF set), and
 * in a section kprobes refuse.
 */
static noinstr void tkp_override_ret(void)
{
}
#endif

static nokprobe_inline unsigned long tkp_override_pc(struct pt_regs *regs)
{
#if TKP_OVERRIDE_STUB
	return (unsigned long)tkp_override_ret;
#else
	return instruction_pointer(regs);
#endif
}

/* tkp_fentry_common()'s recursion bit before it first needs one. */
#define TKP_BIT_UNTRIED	(-2)

/*
 * The ftrace callback of our ftrace_ops that record (TKP_OPS_ARGS and
 * TKP_OPS_FULL, @ops): TKP_OPS_FULL's @regs (never NULL) has every
 * register, the other's only those ftrace saves for any callback.  While
 * a site moves from one ops to another both call for a moment; the one
 * the site is not served by yet, or any more, stands aside.  Preemption
 * is turned off here unless the caller did (@preempt_off), once either
 * way: the record's trace context word takes that one off (tkp_record()).
 *
 * @site: the site of @ip, found served by @ops already, or NULL.
 *
 * Returns where a BPF program moved execution to, for a caller whose
 * @regs are a copy (TKP_FTRACE_REGS_COPY, copied when read: see
 * tkp_regs_ready()); 0 if none did.  Elsewhere @regs are ftrace's own,
 * and moved in place.
 */
static nokprobe_inline unsigned long __tkp_fentry_common(unsigned long ip,
							 struct pt_regs *regs,
							 int ops, int held,
							 bool preempt_off,
							 struct tkp_site *site)
{
	bool idle = held != TKP_BIT_UNTRIED;	/* tkp_fentry_idle() */
	bool full = ops == TKP_OPS_FULL;
	/* Are @regs ours to show perf and BPF as a kprobe's would be? */
	bool own = full || TKP_FTRACE_REGS_COPY;
	unsigned long saved, moved = 0;
	struct tkp_probe *tp;
	struct tkp_hook *hk;
	int bit = held;

	/*
	 * Hooking a return records nothing and calls nothing traced but
	 * irq_work_queue() when a pool runs short, flagged first so that a
	 * hook nested in it does not call it again (tkp_pool_hook()): only
	 * an entry probe, or a return probe that takes arguments at the
	 * entry, needs the recursion bit, taken when first needed.  A
	 * return hooked from inside a recording is refused when it comes.
	 */
	if (!preempt_off)
		preempt_disable_notrace();
	if (!site) {
		site = tkp_site_find(ip);
		if (!site || READ_ONCE(site->served) != ops)
			goto out;
	}
	/*
	 * perf and BPF (served with all registers, or on 6.12's arm64 with
	 * a copy of those ftrace saves) see the instruction pointer as a
	 * kprobe on the probed address would show it (tkp_fentry_pc()).
	 */
	if (own) {
		/* A copy has no ftrace state to keep, and is filled later. */
		if (!TKP_FTRACE_REGS_COPY) {
			saved = instruction_pointer(regs);
			tkp_fentry_regs_fill(regs);
		}
		/* The same for every hook: set once (bench rows pmu, bpf). */
		if (TKP_PC_AT_SITE)
			instruction_pointer_set(regs, tkp_fentry_pc(ip, 0));
	}
	list_for_each_entry_rcu(hk, &site->probes, site_link) {
		tp = hk->tp;
		if (idle && tp->ev->is_return) {
			atomic_inc(&tp->fe.pool->idle);
			continue;
		}
		if (tp->ev->is_return && likely(!tp->entry_size)) {
			tkp_pool_hook(hk, regs);
			continue;
		}
		if (!full && unlikely(tkp_needs_full(tp)))
			continue;	/* until its site moves to all regs */
		if (bit == TKP_BIT_UNTRIED)
			bit = tkp_gate_enter(TKP_GATE_OWN);
		if (unlikely(bit < 0)) {
			tkp_refused(tp, &tp->reentered);
			continue;
		}
		if (tp->ev->is_return) {
			tkp_pool_hook(hk, regs);
			continue;
		}
		if (own && !TKP_PC_AT_SITE)
			instruction_pointer_set(regs, tkp_fentry_pc(ip, hk->ip));
		if (tkp_emit(tp, regs, hk->ip, 0, bit - TRACE_FTRACE_START,
			     TKP_FTRACE_REGS_COPY)) {
			/* BPF's */
			if (TKP_FTRACE_REGS_COPY)
				moved = tkp_override_pc(regs);
			else
				saved = tkp_override_pc(regs);
			break;
		}
	}
	if (own && !TKP_FTRACE_REGS_COPY)
		instruction_pointer_set(regs, saved);
	if (bit >= 0 && !idle)
		tkp_gate_exit(bit, TKP_GATE_OWN);
out:
	if (!preempt_off)
		preempt_enable_notrace();
	return moved;
}

/*
 * ftrace calls us from the idle loop too, where RCU may not be watching:
 * have it watch while we record, as an interrupt taken there would.  A
 * return is not hooked there (its handler would run where RCU may not
 * watch either); it is counted as missed, as a kretprobe's would be.
 * Asking ftrace for FTRACE_OPS_FL_RCU instead would drop such hits
 * unseen, and put its assist function, with a recursion test of its own,
 * in front of every hit.  RCU_NONIDLE() will not do: its
 * ct_irq_enter_irqson() can be hooked by ftrace (and would come back
 * here, RCU not watching yet), and asserts to lockdep that interrupts are
 * off, which the idle loop has told lockdep they are not.  So: the
 * recursion bit first, then the entry an NMI makes, interrupts off, and
 * lockdep told so for the while (what a lock taken in a BPF program
 * needs to be judged right).
 */
static noinline unsigned long tkp_fentry_idle(unsigned long ip,
					      struct pt_regs *regs, int ops,
					      bool preempt_off)
{
	int bit = tkp_gate_enter(TKP_GATE_OWN);
	unsigned long flags, moved;
	bool lockdep_on;

	if (bit < 0)
		return 0;
	raw_local_irq_save(flags);
	lockdep_on = lockdep_hardirqs_enabled();
	lockdep_hardirqs_off(CALLER_ADDR0);
	ct_nmi_enter();
	moved = __tkp_fentry_common(ip, regs, ops, bit, preempt_off, NULL);
	if (lockdep_on)
		lockdep_hardirqs_on_prepare();
	ct_nmi_exit();
	if (lockdep_on)
		lockdep_hardirqs_on(CALLER_ADDR0);
	raw_local_irq_restore(flags);
	tkp_gate_exit(bit, TKP_GATE_OWN);
	return moved;
}
NOKPROBE_SYMBOL(tkp_fentry_idle);

/* Only the idle task pays for the question. */
#define tkp_fentry_in_idle()	\
	(unlikely(is_idle_task(current)) && !rcu_is_watching())

static nokprobe_inline void tkp_fentry_common(unsigned long ip,
					      unsigned long parent_ip,
					      struct pt_regs *regs, int ops)
{
	if (tkp_fentry_in_idle())
		tkp_fentry_idle(ip, regs, ops, false);
	else
		__tkp_fentry_common(ip, regs, ops, TKP_BIT_UNTRIED, false,
				    NULL);
}

#if TKP_HAVE_FULL_OPS
static void tkp_fentry_hit(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);

	/*
	 * No registers: a call through a trampoline that saved the
	 * argument registers only (that of another ops).  The other ops
	 * always get the frame their trampoline saved.
	 */
	if (!regs || tkp_fops_idle(ops))
		return;
	tkp_fentry_common(ip, parent_ip, regs, TKP_OPS_FULL);
}
NOKPROBE_SYMBOL(tkp_fentry_hit);
#endif

#if TKP_LAZY_REGS
/*
 * 6.12's arm64: the registers ftrace saves (TKP_FTRACE_REGS) in a struct
 * pt_regs of our own, the rest of it zero, for the fetch and for perf and
 * BPF, copied when first read (tkp_regs_ready()).  A BPF program's
 * bpf_override_return() moves the copy's pc and x0: ftrace returns to
 * what its ftrace_regs say.
 *
 * The copies are per CPU, one per level of nesting, zeroed once, so that
 * a hit does not clear a struct pt_regs on the stack first (bench rows
 * entry and allhit).  A CPU's hits nest as its contexts do, each done
 * before the one it interrupted goes on: a hit takes the first level
 * free (@used: the bytes of @slot taken) and gives it back as it found
 * it, whatever came in between.  Only the fields ftrace_partial_regs()
 * writes ever change in a copy (pc and x0 too by bpf_override_return()),
 * and every copy writes them again: the rest stays zero.  Nesting deeper
 * than the copies (a hit traced from inside a recording, in an
 * interrupt, ...) takes one on the stack, as every hit once did.
 */
#define TKP_REGS_NEST	4

struct tkp_regs_copies {
	unsigned long used;	/* bytes of slot[], the levels taken */
	struct tkp_regs_slot slot[TKP_REGS_NEST];
};

static DEFINE_PER_CPU(struct tkp_regs_copies, tkp_regs_copies);

/*
 * A hit of @site (NULL in the idle loop, where it is looked up once RCU
 * watches) with copy @rs; preemption off (the @preempt_off of
 * __tkp_fentry_common()).
 */
static nokprobe_inline void tkp_fentry_args_in(unsigned long ip,
					       struct tkp_site *site,
					       struct ftrace_regs *fregs,
					       struct tkp_regs_slot *rs)
{
	unsigned long moved;

	rs->fregs = fregs;
	if (site)
		moved = __tkp_fentry_common(ip, &rs->regs, TKP_OPS_ARGS,
					    TKP_BIT_UNTRIED, true, site);
	else
		moved = tkp_fentry_idle(ip, &rs->regs, TKP_OPS_ARGS, true);
	if (unlikely(moved)) {
		ftrace_regs_set_instruction_pointer(fregs, moved);
		ftrace_regs_set_return_value(fregs,
					     regs_return_value(&rs->regs));
	}
	/* Not copied yet, for the next hit at this level. */
	rs->regs.pstate = 0;
}

static noinline void tkp_fentry_args_stack(unsigned long ip,
					   struct tkp_site *site,
					   struct ftrace_regs *fregs)
{
	struct tkp_regs_slot rs = {};

	tkp_fentry_args_in(ip, site, fregs, &rs);
}
NOKPROBE_SYMBOL(tkp_fentry_args_stack);

/* A hit with a copy of its own (see above); preemption off. */
static nokprobe_inline void tkp_fentry_args_copy(unsigned long ip,
						 struct tkp_site *site,
						 struct ftrace_regs *fregs)
{
	struct tkp_regs_copies *rc = this_cpu_ptr(&tkp_regs_copies);
	unsigned long used = READ_ONCE(rc->used);
	struct tkp_regs_slot *rs;

	if (unlikely(used >= sizeof(rc->slot))) {
		tkp_fentry_args_stack(ip, site, fregs);
		return;
	}
	rs = (void *)rc->slot + used;
	WRITE_ONCE(rc->used, used + sizeof(*rs));
	barrier();
	tkp_fentry_args_in(ip, site, fregs, rs);
	barrier();
	WRITE_ONCE(rc->used, used);
}

static void tkp_fentry_hit_args(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *ops,
				struct ftrace_regs *fregs)
{
	struct tkp_site *site;

	/*
	 * __tkp_fentry_common() copies the registers when read only for
	 * this ops: no other (all registers, returns) may be built beside.
	 */
	BUILD_BUG_ON(TKP_HAVE_FULL_OPS || TKP_FENTRY_RETURNS);
	if (tkp_fops_idle(ops))
		return;
	preempt_disable_notrace();
	if (unlikely(tkp_fentry_in_idle())) {
		tkp_fentry_args_copy(ip, NULL, fregs);
	} else {
		/*
		 * A hit of a site not served (yet, or any more: ftrace's
		 * patching of a pattern's functions calls many) takes no
		 * copy (bench rows alldef and allclr).
		 */
		site = tkp_site_find(ip);
		if (site && READ_ONCE(site->served) == TKP_OPS_ARGS)
			tkp_fentry_args_copy(ip, site, fregs);
	}
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(tkp_fentry_hit_args);
#elif TKP_HAVE_ARGS_OPS
/*
 * Without SAVE_REGS ftrace still saves the registers that pass arguments,
 * ax, bp, ip and sp, in place in a struct pt_regs; the rest of it is not
 * to be read (tkp_arg_partial_ok()).  Saving less costs less per hit.
 */
static noinline void tkp_fentry_args_hit(unsigned long ip,
					 unsigned long parent_ip,
					 struct ftrace_ops *ops,
					 struct ftrace_regs *fregs)
{
	tkp_fentry_common(ip, parent_ip, tkp_fregs_pt_regs(fregs),
			  TKP_OPS_ARGS);
}
NOKPROBE_SYMBOL(tkp_fentry_args_hit);

/*
 * The test of an idle ops stays apart from the hit it guards, which is
 * noinline (and NOKPROBE) and reached from here only: ftrace calls an
 * ops that serves no site yet for each function it has hooked while it
 * patches the rest in (some 600,000 calls for p:all/a *, bench rows
 * alldef and allclr), and such a call must cost no more than the test,
 * whatever frame the hit needs.
 */
static void tkp_fentry_hit_args(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *ops,
				struct ftrace_regs *fregs)
{
	if (tkp_fops_idle(ops))
		return;
	/* The same arguments, for the call to be a jump where it can. */
	tkp_fentry_args_hit(ip, parent_ip, ops, fregs);
}
NOKPROBE_SYMBOL(tkp_fentry_hit_args);
#endif

#if TKP_HAVE_ARGS_OPS && TKP_FENTRY_RETURNS

/*
 * The callback of a site with only return probes that take nothing at
 * entry: all it does is hook returns, so it is kept apart from the one
 * above, which records (bench row ret).  A probe of another kind, added
 * to the site, waits until the site has moved to the ops that serves it.
 */
static void tkp_fentry_hit_ret(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *ops,
			       struct ftrace_regs *fregs)
{
	struct tkp_site *site;
	struct tkp_hook *hk;

	if (tkp_fops_idle(ops))
		return;
	if (tkp_fentry_in_idle()) {
		tkp_fentry_idle(ip, tkp_fregs_pt_regs(fregs), TKP_OPS_RET, false);
		return;
	}
	preempt_disable_notrace();
	site = tkp_site_find(ip);
	if (unlikely(!site || READ_ONCE(site->served) != TKP_OPS_RET))
		goto out;
	/*
	 * The usual site, one return probe, in line; several by a call
	 * (bench row ret).  A hook added while this runs may be missed by
	 * this hit, as a hit racing with the addition may be.
	 */
	if (unlikely(!READ_ONCE(site->single))) {
		tkp_pool_hook_all(site, tkp_fregs_pt_regs(fregs));
		goto out;
	}
	hk = list_entry_rcu(site->probes.next, struct tkp_hook, site_link);
	if (&hk->site_link != &site->probes &&
	    likely(tkp_hooks_return_only(hk->tp)))
		tkp_pool_hook(hk, tkp_fregs_pt_regs(fregs));
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(tkp_fentry_hit_ret);
#endif

/*
 * tkp_fentry_ret() for a return that uses what its entry took ($duration,
 * $argN): that is made visible to the fetch while it records.  Apart,
 * so that the usual return keeps nothing across its recording.
 */
static noinline void tkp_fentry_ret_ctx(struct tkp_probe *tp,
					struct tkp_rnode *rn,
					struct pt_regs *regs)
{
	u64 outer = __this_cpu_read(tkp_entry_ns);
	const u8 *outer_data = __this_cpu_read(tkp_entry_data);

	__this_cpu_write(tkp_entry_ns, rn->entry_ns);
	__this_cpu_write(tkp_entry_data, rn->data);
	tkp_emit_gated(tp, regs, rn->func, tkp_ret_ip(regs));
	__this_cpu_write(tkp_entry_ns, outer);
	__this_cpu_write(tkp_entry_data, outer_data);
}
NOKPROBE_SYMBOL(tkp_fentry_ret_ctx);

/* The return handler of a pool's generation (@data), as rethook calls it. */
static void tkp_fentry_ret(TKP_RETHOOK_ARGS(node, data, regs))
{
	struct tkp_rnode *rn = container_of(node, struct tkp_rnode, node);
	struct tkp_gen *gen = data;

	rn->out = false;
	atomic_dec(&gen->busy);
	if (unlikely(gen->ctx))
		tkp_fentry_ret_ctx(gen->tp, rn, regs);
	else
		tkp_emit_gated(gen->tp, regs, rn->func, tkp_ret_ip(regs));
}
NOKPROBE_SYMBOL(tkp_fentry_ret);

const rethook_handler_t tkp_ret_handler = tkp_fentry_ret;

struct tkp_fops tkp_fops[TKP_NR_OPS] = {
#if TKP_HAVE_ARGS_OPS
	[TKP_OPS_ARGS] = { .ops = {
		.func	= tkp_fentry_hit_args,
	} },
#endif
#if TKP_HAVE_ARGS_OPS && TKP_FENTRY_RETURNS
	[TKP_OPS_RET] = { .ops = {
		.func	= tkp_fentry_hit_ret,
	} },
#endif
#if TKP_HAVE_FULL_OPS
	[TKP_OPS_FULL] = { .ops = {
		.func	= tkp_fentry_hit,
		.flags	= FTRACE_OPS_FL_SAVE_REGS,
	} },
#endif
};
#endif /* CONFIG_KPROBE_EVENTS_FENTRY */

/**
 * tkp_hit_init - set up what the hit path needs before the first probe
 *
 * Return: 0, or -ENOMEM.
 */
int __init tkp_hit_init(void)
{
	unsigned int cpu, i;

	tkp_scratch = __alloc_percpu(TKP_SLOTS * TKP_SCRATCH_SIZE,
				     sizeof(u64));
	if (!tkp_scratch)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		for (i = 0; i < TKP_SLOTS; i++)
			per_cpu(tkp_scratch_slot[i], cpu) =
				per_cpu_ptr(tkp_scratch, cpu) +
				i * TKP_SCRATCH_SIZE;
	return 0;
}
