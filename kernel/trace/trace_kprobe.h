/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kprobe-based event tracer: what its files share.
 *
 *   trace_kprobe.c        the trace events, tracefs files, commands and
 *                         in-kernel API: a probe's life under event_mutex
 *   trace_kprobe_parse.c  a definition line into a struct tkp_spec: the
 *                         place, names, types and record layout (pure);
 *                         a new argument type is a row of tkp_types[]
 *                         there (and a fetch op in trace_kprobe_hit.c
 *                         only if no existing one fits)
 *   trace_kprobe_hit.c    the hit path: fetching the arguments and writing
 *                         the record, from every kind of place
 *   trace_kprobe_place.c  places: the interface the rest uses, and
 *                         kprobes and kretprobes
 *   trace_kprobe_fentry.c fentry places: hooks on ftrace sites, rethook
 *                         pools for returns, patterns
 *                         (CONFIG_KPROBE_EVENTS_FENTRY)
 *   trace_kprobe_compat.h what differs between Linux 6.1 and 6.12, the
 *                         only file that asks which one it is built on
 *
 * Nothing here is for use outside these files.
 */
#ifndef _TRACE_KPROBE_H
#define _TRACE_KPROBE_H

#include <linux/ftrace.h>
#include <linux/hashtable.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/rethook.h>
#include <linux/trace_events.h>
#include <linux/workqueue.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "trace_probe.h"	/* prototypes of the in-kernel API */
#include "trace_kprobe_compat.h"	/* what differs between 6.1 and 6.12 */

#define TKP_DEFAULT_GROUP	"kprobes"
#define TKP_MAXACTIVE_LIMIT	4096
#define TKP_MAX_ARGS		128
#define TKP_MAX_ARG_NAME	32
#define TKP_MAX_ARG_TEXT	63
/* Dereferences per argument, @SYM and @ADDR counting as one. */
#define TKP_MAX_DEREF		13
/* Typecasts and this_cpu_*() one inside another, at most */
#define TKP_MAX_NEST		8
#define TKP_MAX_ARRAY		64
/*
 * Does the arch run a kernel breakpoint's handler inside an NMI entry of
 * its own?  x86's int3 handler does, for kernel mode; the others (arm64's
 * BRK) run it in the context the breakpoint interrupted.
 */
#define TKP_BREAK_IS_NMI	IS_ENABLED(CONFIG_X86)
/*
 * Everything a hit fetches for its arguments is gathered in a per-CPU
 * buffer of this size first, so that one exact-size record can be
 * reserved per trace instance; a ring-buffer record is smaller anyway.
 */
/*
 * A record must fit in a ring-buffer page (about 4 KiB less headers):
 * strings are cut short rather than losing the whole record.
 */
#define TKP_MAX_RECORD		4000
/*
 * Past the record's room, the buffer has room for one symbol as
 * sprint_symbol() writes it (symstr), cut to size as it is copied in.
 */
#define TKP_SCRATCH_SIZE	ALIGN(TKP_MAX_RECORD + KSYM_SYMBOL_LEN, 64)
/* Fixed-size argument fields may take at most this much of it. */
#define TKP_MAX_FIXED		2048
/* A string a return probe takes at entry ($argN) keeps this much. */
#define TKP_ENTRY_STR		128

/*
 * What differs by architecture, in one place; elsewhere the generic
 * regs_get_*() helpers serve every argument, and every probe gets all
 * the registers.
 *
 * TKP_ARG_REGS       offsets in struct pt_regs of the registers that pass
 *                    the first arguments, so that $argN is one load
 * TKP_RET_REG        of the return value, for $retval
 * TKP_SP_REG         of the stack pointer, for $stack
 * TKP_FTRACE_REGS    those ftrace saves for every callback, without
 *                    SAVE_REGS: a fentry probe reading only these takes
 *                    the lighter ftrace_ops
 * TKP_FTRACE_REGS_COPY  1 where those are not in place in a struct
 *                    pt_regs (arm64's ftrace_regs): the callback copies
 *                    them into one of its own (ftrace_partial_regs())
 * TKP_ARGS_IN_REGS   how many arguments regs_get_kernel_argument() can
 *                    read, where it reads no stack (0: no limit)
 * TKP_KPROBE_IP_ADJ  where a kprobe handler finds the instruction pointer,
 *                    from the probed address
 * TKP_PC_AT_SITE     1 where a kprobe on a function's entry shows the
 *                    instruction pointer at ftrace's site, 0 where at the
 *                    probed address: see tkp_fentry_pc()
 * TKP_FILL_PSTATE    1 where ftrace's full registers lack the mode that
 *                    perf and BPF read: see tkp_fentry_regs_fill()
 * TKP_SITE_PAST_ENTRY  ftrace's call is not where a kprobe on a function's
 *                    entry goes, but at most this many bytes into it (in
 *                    steps of TKP_INSN_SIZE), after what cannot change
 *                    an argument: an entry probe is served by that site
 *                    (tkp_site_of())
 * TKP_OVERRIDE_STUB  1 where bpf_override_return() resumes at the link
 *                    register, which a fentry place must not do: see
 *                    tkp_override_pc()
 */
#if defined(CONFIG_X86_64)
#define TKP_ARG_REGS	{ offsetof(struct pt_regs, di),			\
			  offsetof(struct pt_regs, si),			\
			  offsetof(struct pt_regs, dx),			\
			  offsetof(struct pt_regs, cx),			\
			  offsetof(struct pt_regs, r8),			\
			  offsetof(struct pt_regs, r9) }
#define TKP_RET_REG	offsetof(struct pt_regs, ax)
#define TKP_SP_REG	offsetof(struct pt_regs, sp)
#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
#define TKP_FTRACE_REGS	{ offsetof(struct pt_regs, ax),			\
			  offsetof(struct pt_regs, cx),			\
			  offsetof(struct pt_regs, dx),			\
			  offsetof(struct pt_regs, si),			\
			  offsetof(struct pt_regs, di),			\
			  offsetof(struct pt_regs, r8),			\
			  offsetof(struct pt_regs, r9),			\
			  offsetof(struct pt_regs, bp),			\
			  offsetof(struct pt_regs, sp) }
#endif
#define TKP_KPROBE_IP_ADJ	INT3_INSN_SIZE		/* past the int3 */
/* The kprobes core puts an entry probe on the site (past endbr64). */
#define TKP_PC_AT_SITE		1
#elif defined(CONFIG_ARM64)
#define TKP_ARG_REGS	{ offsetof(struct pt_regs, regs[0]),		\
			  offsetof(struct pt_regs, regs[1]),		\
			  offsetof(struct pt_regs, regs[2]),		\
			  offsetof(struct pt_regs, regs[3]),		\
			  offsetof(struct pt_regs, regs[4]),		\
			  offsetof(struct pt_regs, regs[5]),		\
			  offsetof(struct pt_regs, regs[6]),		\
			  offsetof(struct pt_regs, regs[7]) }
#define TKP_RET_REG	offsetof(struct pt_regs, regs[0])
#define TKP_SP_REG	offsetof(struct pt_regs, sp)
#define TKP_ARGS_IN_REGS	8
/*
 * A function's entry is BTI's landing pad (with BTI), "mov x9, x30"
 * (saving the link register), then ftrace's call; a BRK kprobe stays on
 * the probed instruction.
 */
#define TKP_SITE_PAST_ENTRY	(2 * AARCH64_INSN_SIZE)
#define TKP_INSN_SIZE		AARCH64_INSN_SIZE
#define TKP_PC_AT_SITE		0
#define TKP_OVERRIDE_STUB	1
/*
 * 6.1's ftrace_regs_caller saves no pstate: perf's exclude_kernel and
 * user_mode() would read stack garbage.
 */
#define TKP_FILL_PSTATE		1
/* 6.12's arm64 has only ftrace_regs, and what ftrace_partial_regs() fills. */
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_ARGS
/* x0-x8 (x0-x7 as in TKP_ARG_REGS), fp, lr and sp */
#define TKP_FTRACE_REGS	{ offsetof(struct pt_regs, regs[0]),		\
			  offsetof(struct pt_regs, regs[1]),		\
			  offsetof(struct pt_regs, regs[2]),		\
			  offsetof(struct pt_regs, regs[3]),		\
			  offsetof(struct pt_regs, regs[4]),		\
			  offsetof(struct pt_regs, regs[5]),		\
			  offsetof(struct pt_regs, regs[6]),		\
			  offsetof(struct pt_regs, regs[7]),		\
			  offsetof(struct pt_regs, regs[8]),		\
			  offsetof(struct pt_regs, regs[29]),		\
			  offsetof(struct pt_regs, regs[30]),		\
			  offsetof(struct pt_regs, sp) }
#define TKP_FTRACE_REGS_COPY	1
#endif
#endif

#ifndef TKP_ARGS_IN_REGS
#define TKP_ARGS_IN_REGS	0
#endif

#ifndef TKP_KPROBE_IP_ADJ
#define TKP_KPROBE_IP_ADJ	0
#endif
#ifndef TKP_PC_AT_SITE
#define TKP_PC_AT_SITE		1
#endif
#ifndef TKP_FILL_PSTATE
#define TKP_FILL_PSTATE		0
#endif
#ifndef TKP_SITE_PAST_ENTRY
#define TKP_SITE_PAST_ENTRY	0
#define TKP_INSN_SIZE		1
#endif
#ifndef TKP_OVERRIDE_STUB
#define TKP_OVERRIDE_STUB	0
#endif
/*
 * Return probes are fentry places too where rethook hooks their returns;
 * without it (arm64) they stay kretprobes, and a pattern of them is
 * refused as every pattern is where there are no fentry places.
 */
#define TKP_FENTRY_RETURNS	IS_ENABLED(CONFIG_RETHOOK)
#ifdef TKP_FTRACE_REGS
#define TKP_HAVE_ARGS_OPS	1
#else
#define TKP_HAVE_ARGS_OPS	0
#endif
#ifndef TKP_FTRACE_REGS_COPY
#define TKP_FTRACE_REGS_COPY	0
#endif
/*
 * Can ftrace save every register for us (SAVE_REGS)?  Not on 6.12's
 * arm64: there a place whose arguments read other registers than
 * TKP_FTRACE_REGS is a kprobe, and perf and BPF get the registers
 * ftrace_partial_regs() fills, the others zero (x9-x28: what a BPF
 * fentry program has there, no more).
 */
#define TKP_HAVE_FULL_OPS	IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS)

/*
 * Which of our ftrace_ops serves a site: the one that saves only the
 * argument registers, the one that saves all, or, for a site with only
 * return probes that take nothing at entry, one that just hooks returns
 * (with the argument registers).  The last two need TKP_HAVE_ARGS_OPS.
 */
#define TKP_OPS_ARGS		0
#define TKP_OPS_FULL		1
#define TKP_OPS_RET		2
#define TKP_NR_OPS		3
/*
 * A new site, in no ops' filter yet: not served until tkp_places_sync()
 * has put it in one.  Its hits meanwhile (ftrace patching every function
 * of a pattern calls many of them) stop at the site (bench row alldef).
 */
#define TKP_OPS_NONE		TKP_NR_OPS

/*
 * Why a line was refused: an index into tkp_err_text, the messages
 * error_log shows.
 */
enum tkp_err {
	TKP_ERR_BAD_CMD,
	TKP_ERR_BAD_MAXACT,
	TKP_ERR_MAXACT_TOO_BIG,
	TKP_ERR_MAXACT_ON_PROBE,
	TKP_ERR_NO_GROUP_NAME,
	TKP_ERR_GROUP_TOO_LONG,
	TKP_ERR_BAD_GROUP_NAME,
	TKP_ERR_NO_EVENT_NAME,
	TKP_ERR_EVENT_TOO_LONG,
	TKP_ERR_BAD_EVENT_NAME,
	TKP_ERR_EVENT_EXIST,
	TKP_ERR_NO_PLACE,
	TKP_ERR_BAD_PROBE_ADDR,
	TKP_ERR_BAD_RETPROBE,
	TKP_ERR_BAD_INSN_BNDRY,
	TKP_ERR_FAIL_REG_PROBE,
	TKP_ERR_NOTRACE,
	TKP_ERR_NO_PATTERN,
	TKP_ERR_UNARMED,
	TKP_ERR_BPF_ATTACHED,
	TKP_ERR_DIFF_PROBE_TYPE,
	TKP_ERR_NON_UNIQ_SYMBOL,
	TKP_ERR_DIFF_ARG_TYPE,
	TKP_ERR_SAME_PROBE,
	TKP_ERR_BAD_ADDR_SUFFIX,
	TKP_ERR_TOO_MANY_ARGS,
	TKP_ERR_ARG_NAME_TOO_LONG,
	TKP_ERR_NO_ARG_NAME,
	TKP_ERR_BAD_ARG_NAME,
	TKP_ERR_USED_ARG_NAME,
	TKP_ERR_NO_ARG_BODY,
	TKP_ERR_ARG_TOO_LONG,
	TKP_ERR_BAD_FETCH_ARG,
	TKP_ERR_BAD_REG_NAME,
	TKP_ERR_BAD_MEM_ADDR,
	TKP_ERR_BAD_STACK_NUM,
	TKP_ERR_BAD_ARG_NUM,
	TKP_ERR_RETVAL_ON_PROBE,
	TKP_ERR_BAD_VAR,
	TKP_ERR_BAD_IMM,
	TKP_ERR_IMMSTR_NO_CLOSE,
	TKP_ERR_DEREF_NEED_BRACE,
	TKP_ERR_BAD_DEREF_OFFS,
	TKP_ERR_DEREF_OPEN_BRACE,
	TKP_ERR_TOO_MANY_OPS,
	TKP_ERR_COMM_CANT_DEREF,
	TKP_ERR_BAD_TYPE,
	TKP_ERR_BAD_STRING,
	TKP_ERR_BAD_BITFIELD,
	TKP_ERR_ARRAY_NO_CLOSE,
	TKP_ERR_BAD_ARRAY_SUFFIX,
	TKP_ERR_BAD_ARRAY_NUM,
	TKP_ERR_ARRAY_TOO_BIG,
	TKP_ERR_ARRAY_NOT_MEM,
	TKP_ERR_ARGS_TOO_BIG,
	TKP_ERR_BAD_TYPE_ARRAY,
	TKP_ERR_ENTRY_STR_ARRAY,
	/* Names and types from BTF (trace_kprobe_btf.c) */
	TKP_ERR_NO_BTF,
	TKP_ERR_NOFENTRY_ARGS,
	TKP_ERR_BAD_VAR_ARGS,
	TKP_ERR_DOUBLE_ARGS,
	/* Typecasts and per-CPU access */
	TKP_ERR_TYPECAST_REQ_FIELD,
	TKP_ERR_TYPECAST_BAD_ARROW,
	TKP_ERR_TYPECAST_SYM_OFFSET,
	TKP_ERR_TOO_MANY_NESTED,
	TKP_ERR_NOT_PERCPU,
	/* Messages made for the line, naming what exists: see tkp_btf_fail() */
	TKP_ERR_BTF_MSG,
	TKP_ERR_BTF_MSG_LAST = TKP_ERR_BTF_MSG + 16,
};

/* tkp_arg.reg_off and .src_off when the source is not one register. */
#define TKP_NO_REG	0xffff

/* Where an argument's value starts from. */
enum tkp_src {
	TKP_SRC_REG,		/* param: offset in struct pt_regs */
	TKP_SRC_STACK,		/* param: N of $stackN */
	TKP_SRC_STACKP,		/* $stack */
	TKP_SRC_RETVAL,
	TKP_SRC_ARG,		/* param: N - 1 of $argN */
	TKP_SRC_DURATION,	/* ns since the function's entry */
	TKP_SRC_COMM,
	TKP_SRC_IMM,		/* param: the value; also @ADDR and @SYM */
	TKP_SRC_IMMSTR,		/* imm: the string */
	TKP_SRC_CURRENT,	/* $current: the task's struct task_struct */
};

/* How an argument is stored and shown. */
enum tkp_kind {
	TKP_K_U,		/* unsigned decimal */
	TKP_K_S,		/* signed decimal */
	TKP_K_X,		/* hexadecimal */
	TKP_K_SYMBOL,		/* address shown as sym+off/size */
	TKP_K_BITFIELD,		/* unsigned decimal, bits of a container */
	TKP_K_STRING,		/* __data_loc char[] */
};

/*
 * The types an argument may have, one row each of tkp_types[]
 * (trace_kprobe_parse.c): how the type is written, how wide its field is,
 * whether the hit reads a string, how the format file declares it and
 * how trace output shows it.  A new type is a new row, and a printer if
 * none of those there fits.
 */
enum tkp_type_id {
	TKP_T_U,		/* u8 .. u64 */
	TKP_T_S,		/* s8 .. s64 */
	TKP_T_X,		/* x8 .. x64 */
	TKP_T_SYMBOL,
	TKP_T_BITFIELD,		/* bW@O/S */
	TKP_T_STRING,
	TKP_T_USTRING,
	TKP_T_CHAR,		/* one byte, shown as a character */
	TKP_T_SYMSTR,		/* an address as a "sym+off/size" string */
	TKP_T_PD,		/* %pd: a dentry's name */
	TKP_T_PFILE,		/* %pD: the name of a file's dentry */
	TKP_NR_TYPES
};

struct tkp_type {
	const char	*name;		/* as written after ':' */
	u8		kind;		/* enum tkp_kind */
	u8		size;		/* bytes; 0: from the width written */
	bool		sign;		/* a signed field, for filters */
	bool		user;		/* the string is in user memory */
	const char	*conv[2];	/* print fmt: up to 4 bytes, 8 bytes */
	const char	*ftype;		/* C type in the format file, if fixed */
	/* One element of a non-string field as trace output shows it. */
	void		(*print)(struct trace_seq *s, u64 v, unsigned int size);
};

extern const struct tkp_type tkp_types[TKP_NR_TYPES];

/*
 * What the hit path does for an argument, decided once at definition so
 * that each hit takes one branch instead of a chain of tests.
 */
enum tkp_op {
	TKP_OP_REG,		/* a register as is: reg_off */
	TKP_OP_VALUE,		/* scalar, array or bitfield */
	TKP_OP_MSTR,		/* string in memory, through dereferences */
	TKP_OP_STR,		/* $comm, or an immediate string */
	TKP_OP_ENTRY,		/* taken at entry by a return probe */
	TKP_OP_SYMSTR,		/* symstr: the symbol of a value */
	TKP_OP_STRARRAY,	/* string[N]: N pointers, N strings */
	TKP_OP_PCPU,		/* through this_cpu_read() or this_cpu_ptr() */
	TKP_OP_PCPU_STR,	/* a string or symstr through either of them */
};

/*
 * One fetch argument: a source, a chain of dereferences, a type.
 * "+8(+0(%di)):u32" is source %di, then dereferences at offsets 0 and 8;
 * the last dereference gives the address the value (or string) is read
 * from, each earlier one reads a pointer.
 */
struct tkp_arg {
	char		name[TKP_MAX_ARG_NAME];
	char		ftype[24];	/* C type in the format file */
	char		*text;		/* as written after "NAME=" */
	char		*imm;		/* TKP_SRC_IMMSTR */
	u8		src;		/* enum tkp_src */
	u8		kind;		/* enum tkp_kind */
	u8		type;		/* enum tkp_type_id */
	u8		size;		/* bytes of one element */
	u8		ndrf;		/* number of dereferences */
	u8		bf_lshift;	/* bitfield: shifts that isolate it */
	u8		bf_rshift;
	u8		fault_bit;	/* bit in __probe_faults, 0xff: none */
	u16		user;		/* bit i: dereference i is of user memory */
	u16		count;		/* array elements; 0 for a scalar */
	u16		offset;		/* of the field in the record */
	u8		op;		/* enum tkp_op: how the hit fetches it */
	bool		last_user;	/* last dereference is of user memory */
	u16		reg_off;	/* plain register: its pt_regs offset */
	u16		src_off;	/* source is a register: its offset */
	u8		at_entry;	/* $argN in a return probe: see below */
	u16		entry_off;	/* where in the entry data */
	/*
	 * this_cpu_ptr(): bit i, dereference i's address is a per-CPU one,
	 * taken on this CPU.  addr_only: the last dereference's address is
	 * the value, not what it points at.
	 */
	u16		pcpu;
	bool		addr_only;
	unsigned long	param;
	long		drf[TKP_MAX_DEREF];
};

/*
 * What one definition line asks for.  Filled by tkp_parse() from the
 * words of the line alone; the names are copies, so the spec outlives
 * the line it came from.
 */
struct tkp_spec {
	bool		is_return;
	int		maxactive;	/* 0: the kprobes core's default */
	char		group[MAX_EVENT_NAME_LEN];
	char		event[MAX_EVENT_NAME_LEN];	/* "": make one up */
	char		symbol[KSYM_NAME_LEN];		/* "": @addr is the place */
	unsigned long	addr;
	long		offset;
	int		nargs;
	struct tkp_arg	*args;		/* kcalloc'ed; owned by the spec */
	unsigned int	rec_size;	/* header and fixed argument fields */
	int		fault_off;	/* offset of __probe_faults, or -1 */

	/* Where parsing stopped, for error_log: word, offset in it, message. */
	int		err_word;
	int		err_off;
	enum tkp_err	err;
	unsigned int	cands;		/* functions a symbol names */
	/* The function's BTF, while the line is parsed: trace_kprobe_btf.c */
	struct tkp_btf	*btf;
};

/* Where an argument's words are, for error positions. */
struct tkp_argctx {
	struct tkp_spec	*spec;
	int		word;	/* argv index, for error positions */
	const char	*w;	/* the whole word */
	unsigned int	nest;	/* typecasts and this_cpu_*() around here */
};

/*
 * The trace files (one per trace instance) a probe's event is enabled in.
 * Replaced as a whole on every change, so the hit path reads one pointer
 * and walks a plain array; the old array is freed after a grace period.
 */
struct tkp_files {
	struct rcu_head			rcu;
	unsigned int			nr;
	struct trace_event_file		*file[];
};

/*
 * A function entry that ftrace calls us at, and the armed fentry places
 * on it.  Found by address from the ftrace callback, under RCU.  While
 * ftrace's filter still holds the address but no place is armed the
 * site stays, empty; tkp_places_sync() brings the filter up to date.
 * While kprobes are disarmed through debugfs (kprobes/enabled), a site
 * with armed places stays too, out of every filter.
 */
struct tkp_site {
	struct hlist_node		hnode;		/* in tkp_sites */
	unsigned long			ip;
	struct list_head		probes;		/* tkp_hook.site_link */
	struct list_head		dirty;		/* on tkp_dirty_sites */
	u8				served;		/* by tkp_fops[i], or TKP_OPS_NONE */
	s8				want;		/* tkp_site_want(), in a sync */
	bool				single;		/* one hook in probes */
	bool				in[TKP_NR_OPS];	/* in tkp_fops[i]'s filter */
	struct rcu_head			rcu;
};

/*
 * Return instances.  A pool starts with MAXACTIVE instances (or
 * TKP_POOL_DEFAULT) and, when three quarters are out (tasks sleeping in
 * the function, say), grows fourfold from a workqueue, up to
 * TKP_POOL_MAX.  Only a return that finds the pool empty is missed.
 *
 * A rethook's instances are made with it and never added to (6.12 keeps
 * them in an objpool of a size fixed at its allocation), so a pool grows
 * by a generation: a new rethook, with all its instances, becomes the
 * one instances are taken from, and the one before is retired.  Nothing
 * takes from a retired generation again; its instances out come back to
 * it as their calls return, and it is freed once they all have (see
 * tkp_pool_work()), or with the pool.
 */
#define TKP_POOL_DEFAULT	64
#define TKP_NOTE_SIZE		(KSYM_NAME_LEN + 2 * MAX_EVENT_NAME_LEN + 64)
#define TKP_POOL_MAX		16384
/* Retired generations past which none is renewed (tkp_pool_work()). */
#define TKP_POOL_GENS		8

/*
 * A return instance: the function it hooked the return of.  @out: it
 * is counted in its generation's busy; set when hooked, cleared by the
 * return handler, and still set on an instance rethook recycled
 * unreturned (its task exited in the function: rethook_flush_task()).
 * @next: in a retired generation, the instances the pool's work has
 * taken back (@func is no longer needed then).
 */
struct tkp_rnode {
	struct rethook_node		node;
	union {
		unsigned long		func;
		struct tkp_rnode	*next;
	};
	bool				out;
	u64				entry_ns;	/* for $duration */
	u8				data[];		/* args taken at entry */
};

/*
 * A generation of a pool's return instances: a rethook, the data its
 * handlers are passed.  The hit path, once it has it, and the handlers
 * find here all they need but on rare paths (its probe's @tp, and from
 * it @ev, @ctx, @duration), so that a hit keeps
 * one pointer and a return reads one struct.
 */
struct tkp_gen {
	struct rethook			*rh;
	atomic_t			busy;		/* instances out */
	unsigned int			grow_at;	/* busy count asking more */
	bool				missed;		/* found empty */
	bool				asked;		/* for more since last look */
	bool				ctx;		/* time or args at entry */
	bool				duration;	/* time the entries */
	struct tkp_probe		*tp;
	struct tkp_event		*ev;
	struct tkp_pool			*pool;
	/* The pool's work's: */
	unsigned int			size;		/* instances made */
	unsigned int			home;		/* retired: taken back */
	struct tkp_rnode		*held;		/* ... those */
	struct list_head		link;		/* in pool->retired */
	struct rcu_head			rcu;
};

/*
 * Return instances of a fentry return probe: generations of them, of
 * which the hit path takes from @cur.  The pool grows (from a workqueue,
 * never from the hit path) when most of @cur is in use.
 */
struct tkp_pool {
	struct tkp_gen __rcu		*cur;
	struct tkp_probe		*tp;
	struct tkp_event		*ev;		/* tp's, for the notes */
	atomic_t			lost;		/* misses not yet told */
	unsigned long			lost_func;	/* of the last miss */
	atomic_t			no_instance;	/* returns missed: empty */
	atomic_t			idle;		/* ... in the idle loop */
	unsigned int			node_size;
	/* The work's: */
	bool				inflated;	/* see tkp_pool_work() */
	unsigned int			nr_retired;
	unsigned int			reap_shift;	/* its next look: 1 s << */
	unsigned long			retry_at;	/* jiffies: after a failed turn */
	struct list_head		retired;	/* tkp_gen.link */
	struct irq_work			irq;
	/* Grows, tells, frees retired generations: tkp_pool_work(). */
	struct delayed_work		work;
	struct rcu_head			rcu;
	char				note[TKP_NOTE_SIZE];	/* the work's */
};

/*
 * A trace event: what is recorded and where to.  Several probes (places)
 * may feed one event, if they agree on the kind and on the arguments'
 * names and types; each place fetches them its own way (see struct
 * tkp_probe), into the fields laid out here.
 */
struct tkp_event {
	struct list_head		probes;	/* struct tkp_probe.sibling */
	struct tkp_files __rcu		*files;
	/* The one file, when that is all (no perf); or NULL. */
	struct trace_event_file __rcu	*fast;
	bool				is_return;
	bool				perf_on;	/* perf or BPF attached */
	bool				local;		/* perf's own, not listed */
	bool				used;		/* ever had a user */
	bool				dyn;		/* has string fields */
	bool				has_body;	/* rec_size > hdr_size */
	/*
	 * Sizes and offsets in a record fit 16 bits: its fixed part is at
	 * most TKP_MAX_FIXED past the header (see tkp_init_early()).  Kept small,
	 * an event takes 256 bytes on 6.12 (the mem row of make bench).
	 */
	u16				hdr_size;	/* entry + probe fields */
	unsigned long			quiet_gp;	/* RCU cookie: users gone */
	u16				rec_size;	/* ... + fixed arg fields */
	s16				fault_off;	/* __probe_faults, or -1 */
	/*
	 * The fields: names, types, offsets, fault bits.  The fetches in it
	 * are those of the place that made the event, which shares it.
	 */
	u16				nargs;
	struct tkp_arg			*args;
	struct trace_event_class	class;
	struct trace_event_call		call;
	/* Freed with its last place (tkp_probe.last), by RCU. */
};

/*
 * A fentry place's hold on one function, linked on its site while armed.
 * @addr is the ftrace site; @ip is what the records say was probed: the
 * place as written.  They differ where a function opens with a landing
 * pad (endbr64 with IBT): "p SYM" is hooked past it and still reads
 * SYM+0x0, the same with and without IBT.
 */
struct tkp_hook {
	struct list_head		site_link;	/* on site->probes */
	struct tkp_site			*site;
	struct tkp_probe		*tp;
	unsigned long			addr;
	unsigned long			ip;
};

/*
 * What a fentry place holds, for trace_kprobe_fentry.c (the fentry
 * callbacks in trace_kprobe_hit.c read @pool too): its hooks, one per function
 * (many for a pattern), and for a return probe its pool of instances,
 * which outlives the place's registration (its module's next load).
 */
struct tkp_fentry_place {
	/* First what a hit reads: the hook, when only one; the pool. */
	struct tkp_hook			hook1;
	struct tkp_pool			*pool;		/* return probes */
	struct tkp_hook			*hooks;
	unsigned long			unlink_gp;	/* RCU cookie of an unlink */
	/* Misses of the pools freed, kept under event_mutex. */
	unsigned long			no_instance;
	unsigned long			idle;
	unsigned int			nr_hooks;
	bool				armed;		/* hooks linked */
	bool				unlinked;	/* ... and unlinked since */
};

/*
 * A kind of place: how it is armed, disarmed and unregistered, and what
 * it tells of itself.  trace_kprobe_place.c has the kprobe kind (struct
 * tkp_kp), trace_kprobe_fentry.c the fentry kind (struct
 * tkp_fentry_place); everything else goes through tkp_place_*() and
 * never asks which kind a place is.  All run under event_mutex, but for
 * @on_entry and @nr_funcs, which perf's BPF attach asks without it.
 *
 * @arm:	link the place, to be committed by the caller
 *		(tkp_places_commit()); 0 or an error with nothing linked
 * @disarm:	unlink it; returns whether a handler may still run on it
 *		until a grace period has passed
 * @unregister:	disarm it and let it go; returns as @disarm
 * @module_going: a module (or its init code, @init) goes from under it;
 *		returns as @disarm.  NULL: the kprobes core sees to it
 * @on_entry:	is it on the entry of a function
 * @nr_funcs:	how many functions it is on
 * @missed:	misses the kprobes core counted
 * @commits:	@arm and @disarm take effect at tkp_places_commit()
 */
struct tkp_place_ops {
	int	(*arm)(struct tkp_probe *tp);
	bool	(*disarm)(struct tkp_probe *tp);
	bool	(*unregister)(struct tkp_probe *tp);
	bool	(*module_going)(struct tkp_probe *tp, struct module *mod,
				bool init);
	bool	(*on_entry)(const struct tkp_probe *tp);
	unsigned int (*nr_funcs)(const struct tkp_probe *tp);
	unsigned long (*missed)(const struct tkp_probe *tp);
	bool	commits;
};

/* The kprobe or kretprobe of a place that is not on ftrace. */
struct tkp_kp {
	struct kretprobe		rp;	/* rp.kp alone for entry probes */
	struct tkp_probe		*tp;
	unsigned long			ip;	/* as tkp_hook.ip */
};

/*
 * One place: a kprobe or kretprobe feeding its event, or, on the entry of
 * a function that ftrace can patch, a "fentry" place: a hook on our one
 * ftrace_ops (and for return probes a rethook), which costs less per hit
 * than a kprobe and is armed for many functions in one ftrace update.
 */
struct tkp_probe {
	struct dyn_event		devent;	/* on dyn_event_list */
	struct tkp_kp			*kp;	/* registered as a kprobe */
	struct tkp_event		*ev;
	struct list_head		sibling;	/* on ev->probes */
	/* The kind of place it is while live; NULL while it is not. */
	const struct tkp_place_ops	*ops;
	int				maxactive;	/* as written, 0: default */
	/* Its last registration: functions a pattern left out. */
	unsigned int			skipped;
	char				*symbol;	/* NULL: address probe */
	long				offset;
	/*
	 * Hits, per CPU: one word per CPU, as the kernel's own tracer has.
	 * kprobe_profile shows them and the sum of the misses, which are
	 * those the kernel counts for a kprobe (reentered) or kretprobe (no
	 * free instance); kprobe_misses shows them one by one.  The misses
	 * are @reentered and @ret_refused below, and a return pool's (struct
	 * tkp_pool).
	 */
	unsigned long __percpu		*hits;
	/*
	 * What a hit here fetches: this place's own arguments, in the
	 * event's layout (same names, types, offsets and fault bits as
	 * ev->args).  The event's array for the place that made the event,
	 * else its own (@own_args), which it frees.
	 */
	struct tkp_arg			*args;
	int				nargs;
	unsigned int			entry_size;	/* args taken at entry */
	bool				one_str;	/* one arg, a string */
	bool				full_regs;	/* args need every register */
	bool				duration;	/* has $duration */
	bool				ret_only;	/* hooks returns, no more */
	bool				in_notrace;	/* refused: see tkp_notrace() */
	/*
	 * Its last registration was on ftrace.  Unlike @ops, it stays set
	 * once the place is unregistered: a handler may still be running.
	 */
	bool				on_ftrace;
	bool				own_args;	/* see @args */
	bool				last;		/* frees its event */
	unsigned long			place;	/* address as written, or 0 */
	/* Where it is, while live (fentry: its kprobe's, tkp_fentry_kaddr()) */
	unsigned long			addr;
	struct tkp_fentry_place		fe;	/* trace_kprobe_fentry.c's */
	/*
	 * Misses: 32-bit counts that wrap, as a kretprobe's nmissed
	 * does.  Away from what every hit reads: a probe the recording path
	 * itself reaches may miss on every CPU at once.
	 */
	atomic_t			reentered;	/* a recording was on */
	atomic_t			ret_refused;	/* ... when it returned */
	struct rcu_head			rcu;
};

/* Ring-buffer records; the field names are the documented format ABI. */
struct tkp_entry_rec {
	struct trace_entry	ent;
	unsigned long		ip;
};

struct tkp_return_rec {
	struct trace_entry	ent;
	unsigned long		func;
	unsigned long		ret_ip;
};

extern struct dyn_event_operations tkp_dyn_ops;

static inline bool is_tkp(struct dyn_event *ev)
{
	return ev->ops == &tkp_dyn_ops;
}

static inline struct tkp_probe *to_tkp(struct dyn_event *ev)
{
	return container_of(ev, struct tkp_probe, devent);
}

static inline const char *tkp_group(struct tkp_probe *tp)
{
	return tp->ev->class.system;
}

static inline const char *tkp_event(struct tkp_probe *tp)
{
	return tp->ev->call.name;
}

/*
 * fentry places.  All of them share one ftrace_ops whose filter holds the
 * functions with an armed place; its callback finds the site by address.
 * 16384 buckets (128 KiB): with an event over every function ftrace can
 * hook ("p:GRP/EVENT *": some 19,000 on the distribution config of make
 * bench, three times as many with Debian's modules loaded) a hit still
 * walks a chain of one to three sites.
 */
#define TKP_SITE_BITS	14

#ifdef CONFIG_KPROBE_EVENTS_FENTRY
/* Our ftrace_ops, in tkp_fops[]: see there. */
struct tkp_fops {
	struct ftrace_ops	ops;
	unsigned int		nr;	/* sites in its filter */
	unsigned int		nr_served; /* sites it serves */
	bool			serving; /* any (tkp_fops_idle()) */
	bool			on;	/* registered with ftrace */
};

/*
 * Does the ops a callback was called for serve no site at all?  Then the
 * callback returns at once: no site of it would be found served.  While
 * an event over every function is enabled, ftrace's patching calls
 * thousands of them before tkp_places_sync() serves any (bench rows
 * alldef, and retdef for the returns' ops).  A count read stale as zero
 * while a site starts to be served loses what a hit racing with the
 * site's switch may lose anyway (see tkp_places_sync()); the site's own
 * served field still decides.  The test is a byte's, one compare in
 * memory on every hit (the bench's hit rows).
 */
static nokprobe_inline bool tkp_fops_idle(struct ftrace_ops *ops)
{
	/* A byte, read whole: plain, it is compared in memory. */
	return !data_race(container_of(ops, struct tkp_fops, ops)->serving);
}
#endif
extern struct hlist_head tkp_sites[1 << TKP_SITE_BITS];

/*
 * The bucket of the site at @ip.  Kernel and module text lies within a
 * few GiB, its addresses told apart by their low 32 bits: hashing those
 * takes a 32-bit multiplier, one instruction fewer on x86_64 and two on
 * arm64 than hash_long() on every hit (bench row entry).  The chain
 * compares whole addresses.
 */
static nokprobe_inline struct hlist_head *tkp_site_bucket(unsigned long ip)
{
	return &tkp_sites[hash_32((u32)ip, TKP_SITE_BITS)];
}

static nokprobe_inline struct tkp_site *tkp_site_find(unsigned long ip)
{
	struct tkp_site *site;

	hlist_for_each_entry_rcu_notrace(site, tkp_site_bucket(ip), hnode)
		if (site->ip == ip)
			return site;
	return NULL;
}

/*
 * Can @tp be a fentry place on this kernel at all, wherever it is?  Not
 * without fentry places; not a return probe without rethook (arm64);
 * not one whose arguments read registers ftrace cannot save (6.12's
 * arm64).  Such a probe is a kprobe, and a pattern of them is refused.
 */
static inline bool tkp_fentry_possible(const struct tkp_probe *tp)
{
	return IS_ENABLED(CONFIG_KPROBE_EVENTS_FENTRY) &&
	       (!tp->ev->is_return || TKP_FENTRY_RETURNS) &&
	       (!tp->full_regs || TKP_HAVE_FULL_OPS);
}

/*
 * Where a kprobe on probed address @ip would be, for a fentry place that
 * hooks it from ftrace site @site (TKP_PC_AT_SITE): the place's address
 * (tkp_probe.addr, what bpf_get_kprobe_info() tells), and whence the
 * instruction pointer perf and BPF see on it.
 */
static nokprobe_inline unsigned long tkp_fentry_kaddr(unsigned long site,
						      unsigned long ip)
{
	return TKP_PC_AT_SITE ? site : ip;
}

static nokprobe_inline unsigned long tkp_fentry_pc(unsigned long site,
						   unsigned long ip)
{
	return tkp_fentry_kaddr(site, ip) + TKP_KPROBE_IP_ADJ;
}

/* What ftrace's full registers lack that perf and BPF read. */
static nokprobe_inline void tkp_fentry_regs_fill(struct pt_regs *regs)
{
#if TKP_FILL_PSTATE
	/*
	 * A kernel mode, as arm64's perf_arch_fetch_caller_regs() and
	 * 6.12's ftrace_partial_regs() make.
	 */
	regs->pstate = PSR_MODE_EL1h;
#endif
}

/*
 * Does @tp need every register (pt_regs as a kprobe gives it)?  Its
 * arguments may say so, and so does perf/BPF, whose programs may read any
 * register or move the instruction pointer (bpf_override_return).
 */
static nokprobe_inline bool tkp_needs_full(const struct tkp_probe *tp)
{
	/* A return is recorded from the rethook's registers, all of them. */
	return TKP_HAVE_FULL_OPS && !tp->ev->is_return &&
	       (tp->full_regs || READ_ONCE(tp->ev->perf_on));
}

/*
 * Does @tp only hook returns at its sites, with nothing to take at entry
 * (what TKP_OPS_RET serves)?
 */
static nokprobe_inline bool tkp_hooks_return_only(const struct tkp_probe *tp)
{
	return tp->ret_only;	/* a return, no entry_size */
}

/* A field of @size bytes at @src, as the hit path wrote it. */
static nokprobe_inline u64 tkp_get(const void *src, unsigned int size)
{
	if (size == sizeof(u64))
		return *(const u64 *)src;
	if (size == sizeof(u32))
		return *(const u32 *)src;
	if (size == sizeof(u16))
		return *(const u16 *)src;
	return *(const u8 *)src;
}

/* trace_kprobe_parse.c */
extern const char *tkp_err_text[];
int tkp_parse(int argc, const char **argv, struct tkp_spec *spec);
void tkp_free_args(struct tkp_arg *args, int nargs);
bool tkp_symbol_ok(const char *sym);
bool tkp_arg_partial_ok(const struct tkp_arg *a);

/*
 * trace_kprobe_btf.c: argument names, members and types from BTF, at a
 * function's entry (and for return probes, taken there).  Used by the
 * parser only, at definition time; what they make is a plain struct
 * tkp_arg ($argN and dereferences), fetched as any other.
 */
#ifdef CONFIG_DEBUG_INFO_BTF
struct btf;

int tkp_btf_fetch(struct tkp_argctx *c, const char *b, size_t len,
		  struct tkp_arg *a);
int tkp_btf_var(struct tkp_argctx *c, const char *b, size_t len,
		const char *arrow, struct tkp_arg *a);
int tkp_btf_type(struct tkp_argctx *c, struct tkp_arg *a, const char *type);
int tkp_btf_star(struct tkp_spec *spec, int argc, const char **argv,
		 int *word);
const char *tkp_btf_star_word(struct tkp_spec *spec, int k, char *buf,
			      size_t size);
bool tkp_btf_auto_name(const char *w, char *name, size_t size);
void tkp_btf_release(struct tkp_spec *spec);
int tkp_btf_cast(struct tkp_argctx *c, struct tkp_arg *a, const char *at,
		 const char *sname, size_t slen, const char *field,
		 size_t flen, const char *p, const char *end);
void tkp_btf_percpu(struct tkp_argctx *c, struct tkp_arg *a, bool read,
		    unsigned int was);
void tkp_btf_forget(struct tkp_argctx *c, struct tkp_arg *a);
#else
/* Without BTF, a name is refused as such; $argN and $retval stay untyped. */
static inline int tkp_btf_fetch(struct tkp_argctx *c, const char *b,
				size_t len, struct tkp_arg *a)
{
	c->spec->err_word = c->word;
	c->spec->err_off = b - c->w;
	c->spec->err = TKP_ERR_NO_BTF;
	return -EINVAL;
}

static inline int tkp_btf_var(struct tkp_argctx *c, const char *b,
			      size_t len, const char *arrow, struct tkp_arg *a)
{
	return arrow ? tkp_btf_fetch(c, arrow, 0, a) : 0;
}

static inline int tkp_btf_type(struct tkp_argctx *c, struct tkp_arg *a,
			       const char *type)
{
	return 0;
}

static inline int tkp_btf_star(struct tkp_spec *spec, int argc,
			       const char **argv, int *word)
{
	int i;

	*word = 0;
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "$arg*"))
			continue;
		spec->err_word = i;
		spec->err_off = 0;
		spec->err = TKP_ERR_NO_BTF;
		return -EINVAL;
	}
	return 0;
}

static inline const char *tkp_btf_star_word(struct tkp_spec *spec, int k,
					    char *buf, size_t size)
{
	return NULL;
}

static inline bool tkp_btf_auto_name(const char *w, char *name, size_t size)
{
	return false;
}

static inline void tkp_btf_release(struct tkp_spec *spec)
{
}

static inline int tkp_btf_cast(struct tkp_argctx *c, struct tkp_arg *a,
			       const char *at, const char *sname, size_t slen,
			       const char *field, size_t flen, const char *p,
			       const char *end)
{
	return tkp_btf_fetch(c, at, 0, a);
}

static inline void tkp_btf_percpu(struct tkp_argctx *c, struct tkp_arg *a,
				  bool read, unsigned int was)
{
}

static inline void tkp_btf_forget(struct tkp_argctx *c, struct tkp_arg *a)
{
}
#endif

/* trace_kprobe_hit.c */
#ifdef CONFIG_KPROBE_EVENTS_FENTRY
extern struct tkp_fops tkp_fops[TKP_NR_OPS];
/* The return handler of a pool's generations. */
extern const rethook_handler_t tkp_ret_handler;
#endif
int tkp_hit_init(void);
int tkp_entry_hit(struct kprobe *kp, struct pt_regs *regs);
int tkp_return_entry(struct kretprobe_instance *ri, struct pt_regs *regs);
int tkp_return_hit(struct kretprobe_instance *ri, struct pt_regs *regs);

bool tkp_is_pattern(const char *sym);

/* trace_kprobe_fentry.c: fentry places, where the kernel can have them */
#ifdef CONFIG_KPROBE_EVENTS_FENTRY
extern const struct tkp_place_ops tkp_fentry_place;
int tkp_fentry_register(struct tkp_probe *tp);
int tkp_places_commit(void);
int tkp_places_sync(void);
int tkp_rehook(struct tkp_event *ev);
void tkp_fentry_release(struct tkp_probe *tp);
void tkp_fentry_abandon(struct tkp_probe *tp);
void tkp_fentry_free(struct tkp_probe *tp);
void tkp_fentry_misses(const struct tkp_probe *tp, unsigned long *no_instance,
		       unsigned long *idle);

/* Are @tp's hits our ftrace callbacks' (see tkp_probe.on_ftrace)? */
static nokprobe_inline bool tkp_on_ftrace(const struct tkp_probe *tp)
{
	return tp->on_ftrace;
}
#else
/* Every place is a kprobe; a pattern needs ftrace. */
static inline int tkp_fentry_register(struct tkp_probe *tp)
{
	return tkp_is_pattern(tp->symbol) ? -EOPNOTSUPP : 1;
}

static inline int tkp_places_commit(void)
{
	return 0;
}

static inline int tkp_places_sync(void)
{
	return 0;
}

static inline int tkp_rehook(struct tkp_event *ev)
{
	return 0;
}

static inline void tkp_fentry_release(struct tkp_probe *tp)
{
}

static inline void tkp_fentry_abandon(struct tkp_probe *tp)
{
}

static inline void tkp_fentry_free(struct tkp_probe *tp)
{
}

static inline void tkp_fentry_misses(const struct tkp_probe *tp,
				     unsigned long *no_instance,
				     unsigned long *idle)
{
	*no_instance = 0;
	*idle = 0;
}

static nokprobe_inline bool tkp_on_ftrace(const struct tkp_probe *tp)
{
	return false;
}
#endif

/* trace_kprobe_place.c (and tkp_is_pattern() above) */
unsigned int tkp_count_symbols(const char *sym);
bool tkp_module_absent(struct tkp_probe *tp);
int tkp_place_register(struct tkp_probe *tp);
bool tkp_place_unregister(struct tkp_probe *tp);
void tkp_place_abandon(struct tkp_probe *tp);
int tkp_places_unregister(struct tkp_probe **tps, unsigned int n);
void tkp_place_release(struct tkp_probe *tp);
void tkp_place_free(struct tkp_probe *tp);
int tkp_arm(struct tkp_event *ev, bool on);
int __tkp_place_arm(struct tkp_probe *tp);
int tkp_place_arm(struct tkp_probe *tp);
bool tkp_place_module_going(struct tkp_probe *tp, struct module *mod,
			    bool init);
bool tkp_place_single(const struct tkp_probe *tp);
bool tkp_place_on_entry(const struct tkp_probe *tp);
unsigned long tkp_place_missed(const struct tkp_probe *tp);
void tkp_place_misses(const struct tkp_probe *tp, unsigned long *no_instance,
		      unsigned long *idle);

/*
 * Is @tp's place live (registered, on ftrace or as a kprobe)?  Stores
 * of @tp->ops are WRITE_ONCE(): perf's BPF attach reads it without the
 * mutex (tkp_place_single(), tkp_place_on_entry()).
 */
static inline bool tkp_place_live(const struct tkp_probe *tp)
{
	return !!READ_ONCE(tp->ops);
}

#endif /* _TRACE_KPROBE_H */
