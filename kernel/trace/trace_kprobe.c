// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe-based event tracer: the tracefs "kprobe_events" interface.
 *
 * A line written to kprobe_events goes through these steps, each of which
 * either succeeds or leaves the kernel exactly as it was:
 *
 *   1. tkp_parse()        - the words of the line become a struct tkp_spec:
 *                           place, names, and the argument table with its
 *                           record layout.  Changes nothing in the kernel.
 *   2. tkp_alloc_probe()  - the place becomes a struct tkp_probe (one
 *                           kprobe or kretprobe).
 *   3. tkp_register()     - under event_mutex: find the struct tkp_event
 *                           of that name and check the place may join it,
 *                           or build a new one; register the kprobe
 *                           disarmed (the kprobes core judges the place);
 *                           add the trace event; publish the probe on the
 *                           dynamic event list.
 *
 * A probe fires in tkp_entry_hit() or tkp_return_hit().  Those run with
 * preemption disabled, take no lock and allocate nothing: they fetch the
 * arguments once into a per-CPU staging buffer, read the set of trace
 * files the event is enabled in through one RCU-protected pointer, and
 * copy one exact-size record into each (and hand the hit to perf/BPF).
 *
 * Removal runs the other way: refuse if the event is in use, unregister
 * the kprobe (which waits for every running handler to finish), and only
 * with the event's last place remove the trace event, whose files a
 * handler may have been writing to, and free it.  Clearing everything
 * unregisters all the kprobes in two batches (entry, return), so it waits
 * for two grace periods, not one per probe.
 *
 * The one lock of the control path is event_mutex, which the trace event
 * core already requires for adding, removing, enabling and disabling
 * events; it also protects the dynamic event list our probes live on.
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/bpf.h>
#include <linux/compat.h>
#include <linux/context_tracking_irq.h>
#include <linux/error-injection.h>
#include <linux/file.h>
#include <linux/ftrace.h>
#include <linux/hashtable.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/magic.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/rethook.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/task_work.h>
#include <linux/trace_events.h>
#include <linux/workqueue.h>

#include <asm/setup.h>
#include <asm/syscall.h>
#include <asm/tlb.h>
#include <asm/unaligned.h>
#ifdef CONFIG_X86_64
#include <asm/vsyscall.h>
#endif
#include <asm/word-at-a-time.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "trace_output.h"
#include "trace_probe.h"	/* prototypes of the in-kernel API below */

#define TKP_DEFAULT_GROUP	"kprobes"
#define TKP_MAXACTIVE_LIMIT	4096
#define TKP_MAX_ARGS		128
#define TKP_MAX_ARG_NAME	32
#define TKP_MAX_ARG_TEXT	63
/* Dereferences per argument, @SYM and @ADDR counting as one. */
#define TKP_MAX_DEREF		13
#define TKP_MAX_ARRAY		64
/*
 * Everything a hit fetches for its arguments is gathered in a per-CPU
 * buffer of this size first, so that one exact-size record can be
 * reserved per trace instance; a ring-buffer record is smaller anyway.
 */
#define TKP_SCRATCH_SIZE	4096
/*
 * A record must fit in a ring-buffer page (about 4 KiB less headers):
 * strings are cut short rather than losing the whole record.
 */
#define TKP_MAX_RECORD		4000
/* Fixed-size argument fields may take at most this much of it. */
#define TKP_MAX_FIXED		2048
/* A string a return probe takes at entry ($argN) keeps this much. */
#define TKP_ENTRY_STR		128

/*
 * Messages for error_log; the texts are the kernel's documented ones.
 * tracing_log_err() takes a "const char **", hence no second const on
 * the table below.
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
};

static const char *tkp_err_text[] = {
	[TKP_ERR_BAD_CMD]	  = "Probe type must be 'p', 'r' or '-'",
	[TKP_ERR_BAD_MAXACT]	  = "Invalid maxactive number",
	[TKP_ERR_MAXACT_TOO_BIG]  = "Maxactive is too big",
	[TKP_ERR_MAXACT_ON_PROBE] = "Maxactive is not for kprobe",
	[TKP_ERR_NO_GROUP_NAME]	  = "Group name is not specified",
	[TKP_ERR_GROUP_TOO_LONG]  = "Group name is too long",
	[TKP_ERR_BAD_GROUP_NAME]  = "Group name must follow the same rules as C identifiers",
	[TKP_ERR_NO_EVENT_NAME]	  = "Event name is not specified",
	[TKP_ERR_EVENT_TOO_LONG]  = "Event name is too long",
	[TKP_ERR_BAD_EVENT_NAME]  = "Event name must follow the same rules as C identifiers",
	[TKP_ERR_EVENT_EXIST]	  = "Given group/event name is already used by another event",
	[TKP_ERR_NO_PLACE]	  = "Probe point is not specified",
	[TKP_ERR_BAD_PROBE_ADDR]  = "Invalid probed address or symbol",
	[TKP_ERR_BAD_RETPROBE]	  = "Retprobe address must be an function entry",
	[TKP_ERR_BAD_INSN_BNDRY]  = "Probe point is not an instruction boundary",
	[TKP_ERR_FAIL_REG_PROBE]  = "Failed to register probe event",
	[TKP_ERR_NOTRACE]	  = "The function is notrace (see KPROBE_EVENTS_ON_NOTRACE)",
	[TKP_ERR_UNARMED]	  = "Enabled, but its functions could not be hooked: not firing",
	[TKP_ERR_BPF_ATTACHED]	  = "perf or BPF has the event open: no place can join it",
	[TKP_ERR_NON_UNIQ_SYMBOL] = "The symbol is not unique",
	[TKP_ERR_DIFF_PROBE_TYPE] = "Probe type is different from existing probe",
	[TKP_ERR_DIFF_ARG_TYPE]	  = "Argument type or name is different from existing probe",
	[TKP_ERR_SAME_PROBE]	  = "There is already the exact same probe event",
	[TKP_ERR_BAD_ADDR_SUFFIX] = "Invalid probed address suffix",
	[TKP_ERR_TOO_MANY_ARGS]	  = "Too many arguments are specified",
	[TKP_ERR_ARG_NAME_TOO_LONG] = "Argument name is too long",
	[TKP_ERR_NO_ARG_NAME]	  = "Argument name is not specified",
	[TKP_ERR_BAD_ARG_NAME]	  = "Argument name must follow the same rules as C identifiers",
	[TKP_ERR_USED_ARG_NAME]	  = "This argument name is already used",
	[TKP_ERR_NO_ARG_BODY]	  = "No argument expression",
	[TKP_ERR_ARG_TOO_LONG]	  = "Argument expression is too long",
	[TKP_ERR_BAD_FETCH_ARG]	  = "Invalid fetch argument",
	[TKP_ERR_BAD_REG_NAME]	  = "Invalid register name",
	[TKP_ERR_BAD_MEM_ADDR]	  = "Invalid memory address",
	[TKP_ERR_BAD_STACK_NUM]	  = "Invalid stack number",
	[TKP_ERR_BAD_ARG_NUM]	  = "Invalid argument number",
	[TKP_ERR_RETVAL_ON_PROBE] = "$retval is not available on probe",
	[TKP_ERR_BAD_VAR]	  = "Invalid $-variable specified",
	[TKP_ERR_BAD_IMM]	  = "Invalid immediate value",
	[TKP_ERR_IMMSTR_NO_CLOSE] = "String is not closed with '\"'",
	[TKP_ERR_DEREF_NEED_BRACE] = "Dereference needs a brace",
	[TKP_ERR_BAD_DEREF_OFFS]  = "Invalid dereference offset",
	[TKP_ERR_DEREF_OPEN_BRACE] = "Dereference brace is not closed",
	[TKP_ERR_TOO_MANY_OPS]	  = "Dereference is too much nested",
	[TKP_ERR_COMM_CANT_DEREF] = "$comm can not be dereferenced",
	[TKP_ERR_BAD_TYPE]	  = "Unknown type is specified",
	[TKP_ERR_BAD_STRING]	  = "String accepts only memory argument",
	[TKP_ERR_BAD_BITFIELD]	  = "Invalid bitfield",
	[TKP_ERR_ARRAY_NO_CLOSE]  = "Array is not closed",
	[TKP_ERR_BAD_ARRAY_SUFFIX] = "Array has wrong suffix",
	[TKP_ERR_BAD_ARRAY_NUM]	  = "Invalid array size",
	[TKP_ERR_ARRAY_TOO_BIG]	  = "Array number is too big",
	[TKP_ERR_ARRAY_NOT_MEM]	  = "Array is available only for memory fetches",
	[TKP_ERR_ARGS_TOO_BIG]	  = "Event too big (too many fields?)",
};

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
 * What the hit path does for an argument, decided once at definition so
 * that each hit takes one branch instead of a chain of tests.
 */
enum tkp_op {
	TKP_OP_REG,		/* a register as is: reg_off */
	TKP_OP_VALUE,		/* scalar, array or bitfield */
	TKP_OP_MSTR,		/* string in memory, through dereferences */
	TKP_OP_STR,		/* $comm, or an immediate string */
	TKP_OP_ENTRY,		/* taken at entry by a return probe */
};

/*
 * One fetch argument: a source, a chain of dereferences, a type.
 * "+8(+0(%di)):u32" is source %di, then dereferences at offsets 0 and 8;
 * the last dereference gives the address the value (or string) is read
 * from, each earlier one reads a pointer.
 */
struct tkp_arg {
	char		name[TKP_MAX_ARG_NAME];
	char		ftype[20];	/* C type in the format file */
	char		*text;		/* as written after "NAME=" */
	char		*imm;		/* TKP_SRC_IMMSTR */
	u8		src;		/* enum tkp_src */
	u8		kind;		/* enum tkp_kind */
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
	bool		ustring;	/* typed ustring, not string */
	u16		entry_off;	/* where in the entry data */
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
 * site stays, empty; tkp_fentry_sync() brings the filter up to date.
 */
struct tkp_site {
	struct hlist_node		hnode;		/* in tkp_sites */
	unsigned long			ip;
	struct list_head		probes;		/* tkp_hook.site_link */
	struct list_head		dirty;		/* on tkp_dirty_sites */
	bool				full;		/* served with all regs */
	bool				in[2];		/* in tkp_fops[i]'s filter */
	struct rcu_head			rcu;
};

/*
 * Return instances.  A pool starts with MAXACTIVE instances (or
 * TKP_POOL_DEFAULT) and, when three quarters are out (tasks sleeping in
 * the function, say), grows fourfold from a workqueue, up to
 * TKP_POOL_MAX.  Only a return that finds the pool empty is missed.
 */
#define TKP_POOL_DEFAULT	64
#define TKP_NOTE_SIZE		(KSYM_NAME_LEN + 2 * MAX_EVENT_NAME_LEN + 64)
#define TKP_POOL_MAX		16384

/* A return instance: the function it hooked the return of. */
struct tkp_rnode {
	struct rethook_node		node;
	unsigned long			func;
	u64				entry_ns;	/* for $duration */
	u8				data[];		/* args taken at entry */
};

/*
 * Return instances of a fentry return probe: a rethook whose pool grows
 * (from a workqueue, never from the hit path) when most of it is in use.
 */
struct tkp_pool {
	struct rethook			*rh;
	struct tkp_probe		*tp;
	atomic_t			busy;		/* instances out */
	atomic_t			lost;		/* misses not yet told */
	unsigned int			size;		/* instances made */
	unsigned int			grow_at;	/* busy count asking more */
	unsigned int			node_size;
	bool				duration;	/* time the entries */
	bool				ctx;		/* time or args at entry */
	atomic_t			telling;	/* note[] in use */
	struct irq_work			irq;
	struct work_struct		grow;
	struct rcu_head			rcu;
	/*
	 * The missed-returns note, formatted here rather than on the stack
	 * of a handler that may run on a small NMI or IRQ stack.
	 */
	char				note[TKP_NOTE_SIZE];
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
	unsigned long			quiet_gp;	/* RCU cookie: users gone */
	unsigned int			hdr_size;	/* entry + probe fields */
	unsigned int			rec_size;	/* ... + fixed arg fields */
	int				fault_off;	/* __probe_faults, or -1 */
	/*
	 * The fields: names, types, offsets, fault bits.  The fetches in it
	 * are those of the place that made the event, which shares it.
	 */
	int				nargs;
	struct tkp_arg			*args;
	struct trace_event_class	class;
	struct trace_event_call		call;
	struct rcu_head			rcu;
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

/* The kprobe or kretprobe of a place that is not on ftrace. */
struct tkp_kp {
	struct kretprobe		rp;	/* rp.kp alone for entry probes */
	struct tkp_probe		*tp;
	unsigned long			ip;	/* as tkp_hook.ip */
};

/* Hits and misses of one place, per CPU: the columns of kprobe_profile. */
struct tkp_stat {
	unsigned long			hit;
	unsigned long			miss;
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
	bool				registered;	/* place is live */
	bool				fentry;		/* on ftrace, see above */
	bool				armed;		/* fentry hooks linked */
	bool				unlinked;	/* ... and unlinked since */
	bool				in_notrace;	/* refused: see tkp_notrace() */
	unsigned long			unlink_gp;	/* RCU cookie of that */
	int				maxactive;	/* as written, 0: default */
	char				*symbol;	/* NULL: address probe */
	long				offset;
	struct tkp_stat __percpu	*stat;
	/*
	 * What a hit here fetches: this place's own arguments, in the
	 * event's layout (same names, types, offsets and fault bits as
	 * ev->args).  The event's array for the place that made the event,
	 * else @own_args.
	 */
	const struct tkp_arg		*args;
	struct tkp_arg			*own_args;
	int				nargs;
	unsigned int			entry_size;	/* args taken at entry */
	bool				one_str;	/* one arg, a string */
	bool				full_regs;	/* args need every register */
	bool				duration;	/* has $duration */
	unsigned long			place;	/* address as written, or 0 */
	unsigned long			addr;	/* where it is, while live */

	/* fentry places only: one hook per function (many for a pattern). */
	struct tkp_hook			*hooks;
	unsigned int			nr_hooks;
	unsigned int			skipped;	/* by the pattern */
	struct tkp_hook			hook1;		/* when only one */
	struct tkp_pool			*pool;		/* return probes */
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

static int tkp_dyn_create(const char *raw_command);
static int tkp_dyn_show(struct seq_file *m, struct dyn_event *ev);
static bool tkp_dyn_is_busy(struct dyn_event *ev);
static int tkp_dyn_free(struct dyn_event *ev);
static bool tkp_dyn_match(const char *system, const char *event,
			  int argc, const char **argv, struct dyn_event *ev);
static bool tkp_match_one(const char *system, const char *event,
			  int argc, const char **argv, struct dyn_event *ev);

static struct dyn_event_operations tkp_dyn_ops = {
	.create		= tkp_dyn_create,
	.show		= tkp_dyn_show,
	.is_busy	= tkp_dyn_is_busy,
	.free		= tkp_dyn_free,
	.match		= tkp_dyn_match,
};

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

/* ---------------------------------------------------------------------
 * Step 1: parsing.  Nothing here touches kernel state.
 */

static int tkp_fail(struct tkp_spec *spec, int word, int off,
		    enum tkp_err err)
{
	spec->err_word = word;
	spec->err_off = off;
	spec->err = err;
	return -EINVAL;
}

/* A name usable as a tracefs directory and a C identifier. */
static bool tkp_name_ok(const char *name, size_t len)
{
	size_t i;

	if (!len || !(isalpha(name[0]) || name[0] == '_'))
		return false;
	for (i = 1; i < len; i++)
		if (!(isalnum(name[i]) || name[i] == '_'))
			return false;
	return true;
}

/*
 * Copy the name that starts word @word at @off and is @len long into
 * @dst, or describe why it cannot be one.  @what selects the group or
 * the event messages.
 */
static int tkp_take_name(struct tkp_spec *spec, char *dst, const char *src,
			 size_t len, int word, int off, bool group)
{
	if (!len)
		return tkp_fail(spec, word, off, group ? TKP_ERR_NO_GROUP_NAME :
							 TKP_ERR_NO_EVENT_NAME);
	if (len >= MAX_EVENT_NAME_LEN)
		return tkp_fail(spec, word, off, group ? TKP_ERR_GROUP_TOO_LONG :
							 TKP_ERR_EVENT_TOO_LONG);
	if (!tkp_name_ok(src, len))
		return tkp_fail(spec, word, off, group ? TKP_ERR_BAD_GROUP_NAME :
							 TKP_ERR_BAD_EVENT_NAME);
	memcpy(dst, src, len);
	dst[len] = '\0';
	return 0;
}

/*
 * The first word: "p" or "r[MAXACTIVE]", then optionally ":[GROUP/][EVENT]".
 * Anything else between the letter and the colon is refused, including
 * what the kernel's own parser lets through ("r-1", "rfoo").
 */
static int tkp_parse_head(const char *w, struct tkp_spec *spec)
{
	const char *colon = strchr(w, ':');
	const char *slash, *name;
	size_t mlen = colon ? colon - w - 1 : strlen(w) - 1;
	unsigned long maxact;
	char num[16];
	int ret;

	if (w[0] != 'p' && w[0] != 'r')
		return tkp_fail(spec, 0, 0, TKP_ERR_BAD_CMD);
	spec->is_return = w[0] == 'r';

	if (mlen) {
		if (!spec->is_return)
			return tkp_fail(spec, 0, 1, TKP_ERR_MAXACT_ON_PROBE);
		if (mlen >= sizeof(num) || !isdigit(w[1]))
			return tkp_fail(spec, 0, 1, TKP_ERR_BAD_MAXACT);
		memcpy(num, w + 1, mlen);
		num[mlen] = '\0';
		if (kstrtoul(num, 10, &maxact))
			return tkp_fail(spec, 0, 1, TKP_ERR_BAD_MAXACT);
		if (maxact > TKP_MAXACTIVE_LIMIT)
			return tkp_fail(spec, 0, 1, TKP_ERR_MAXACT_TOO_BIG);
		spec->maxactive = maxact;
	}

	strscpy(spec->group, TKP_DEFAULT_GROUP, sizeof(spec->group));
	if (!colon)
		return 0;

	name = colon + 1;
	slash = strchr(name, '/');
	if (slash) {
		ret = tkp_take_name(spec, spec->group, name, slash - name, 0,
				    name - w, true);
		if (ret)
			return ret;
		name = slash + 1;
		/* "GROUP/" alone: the event name is made up. */
		if (!*name)
			return 0;
	}
	return tkp_take_name(spec, spec->event, name, strlen(name), 0,
			     name - w, false);
}

/* Parse a decimal or 0x number that must fill @len characters of @s. */
static bool tkp_num(const char *s, size_t len, bool sign, long *val)
{
	char buf[24];

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (sign)
		return !kstrtol(buf, 0, val);
	/* Full unsigned range (addresses); small counts check for < 0. */
	return !kstrtoul(buf, 0, (unsigned long *)val);
}

/*
 * Kernel symbols: identifier characters, and '.' for compiler clones;
 * "MOD:SYM" names a symbol of a module (whose name may have '-').
 */
static bool tkp_symbol_ok(const char *sym)
{
	const char *colon = strchr(sym, ':');
	const char *c = sym;
	bool in_set = false;

	if (colon) {
		if (colon == sym || colon - sym >= MODULE_NAME_LEN ||
		    strchr(colon + 1, ':'))
			return false;
		for (; c < colon; c++)
			if (!isalnum(*c) && *c != '_' && *c != '-')
				return false;
		c++;
	}
	if (!*c)
		return false;
	for (; *c; c++) {
		if (*c == '[')
			in_set = true;
		else if (*c == ']')
			in_set = false;
		else if (*c == '-' && in_set)
			continue;	/* a range, as in "[a-f]" */
		if (!isalnum(*c) && !strchr("_.*?[]!", *c))
			return false;
	}
	return true;
}

/*
 * The '+' or '-' that starts the offset in @w's first @wlen bytes, or
 * NULL.  Not one in a module's name ("MOD:SYM") nor in a glob's set: the
 * '-' of "vfs_[a-r]*" is a range.
 */
static const char *tkp_offset_sign(const char *w, size_t wlen)
{
	const char *end = w + wlen;
	const char *c = memchr(w, ':', wlen);
	bool in_set = false;

	for (c = c ? c + 1 : w; c < end; c++) {
		if (*c == '[')
			in_set = true;
		else if (*c == ']')
			in_set = false;
		else if (!in_set && (*c == '+' || *c == '-'))
			return c;
	}
	return NULL;
}

/* The second word: SYMBOL[+offs|-offs][%return] or a kernel address. */
static int tkp_parse_place(const char *w, struct tkp_spec *spec)
{
	const char *pct = strchr(w, '%');
	size_t wlen = pct ? pct - w : strlen(w);
	const char *sign;
	size_t len;
	long offs;

	/* "SYM%return" is the other way to ask for a return probe. */
	if (pct) {
		if (strcmp(pct, "%return") || spec->is_return)
			return tkp_fail(spec, 1, pct - w,
					TKP_ERR_BAD_ADDR_SUFFIX);
		spec->is_return = true;
	}

	if (isdigit(w[0])) {
		if (!tkp_num(w, wlen, false, (long *)&spec->addr) ||
		    !spec->addr)
			return tkp_fail(spec, 1, 0, TKP_ERR_BAD_PROBE_ADDR);
		return 0;
	}

	sign = tkp_offset_sign(w, wlen);
	len = sign ? sign - w : wlen;
	if (!len || len >= KSYM_NAME_LEN)
		return tkp_fail(spec, 1, 0, TKP_ERR_BAD_PROBE_ADDR);
	memcpy(spec->symbol, w, len);
	spec->symbol[len] = '\0';
	if (!tkp_symbol_ok(spec->symbol))
		return tkp_fail(spec, 1, 0, TKP_ERR_BAD_PROBE_ADDR);

	if (sign) {
		if (!isdigit(sign[1]) ||
		    !tkp_num(sign + 1, w + wlen - sign - 1, false, &offs) ||
		    offs < 0 || offs > INT_MAX)
			return tkp_fail(spec, 1, 0, TKP_ERR_BAD_PROBE_ADDR);
		spec->offset = *sign == '-' ? -offs : offs;
	}
	if (spec->is_return && spec->offset)
		return tkp_fail(spec, 1, 0, TKP_ERR_BAD_RETPROBE);
	/* A pattern names function entries: no offset. */
	if (spec->offset && strpbrk(spec->symbol, "*?["))
		return tkp_fail(spec, 1, len, TKP_ERR_BAD_PROBE_ADDR);
	return 0;
}

struct tkp_argctx {
	struct tkp_spec	*spec;
	int		word;	/* argv index, for error positions */
	const char	*w;	/* the whole word */
};

static int tkp_arg_fail(struct tkp_argctx *c, const char *at, enum tkp_err e)
{
	return tkp_fail(c->spec, c->word, at - c->w, e);
}

/* "@ADDR" or "@SYM[+|-offs]": the value stored at that kernel address. */
static int tkp_parse_mem(struct tkp_argctx *c, const char *b, size_t len,
			 struct tkp_arg *a)
{
	char sym[KSYM_NAME_LEN];
	const char *sign;
	long offs = 0;
	size_t slen;

	if (isdigit(b[1])) {
		if (!tkp_num(b + 1, len - 1, false, (long *)&a->param))
			return tkp_arg_fail(c, b, TKP_ERR_BAD_MEM_ADDR);
	} else {
		sign = strpbrk(b + 1, "+-");
		slen = (sign && sign < b + len ? sign : b + len) - (b + 1);
		if (!slen || slen >= sizeof(sym))
			return tkp_arg_fail(c, b, TKP_ERR_BAD_MEM_ADDR);
		memcpy(sym, b + 1, slen);
		sym[slen] = '\0';
		if (b + 1 + slen < b + len &&
		    !tkp_num(b + 1 + slen, len - 1 - slen, true, &offs))
			return tkp_arg_fail(c, b + 1 + slen,
					    TKP_ERR_BAD_MEM_ADDR);
		a->param = kallsyms_lookup_name(sym);
		if (!a->param)
			return tkp_arg_fail(c, b, TKP_ERR_BAD_MEM_ADDR);
		a->param += offs;
	}
	a->src = TKP_SRC_IMM;
	a->drf[a->ndrf++] = 0;
	return 0;
}

/* "$stackN", "$stack", "$retval", "$comm", "$argN". */
static int tkp_parse_var(struct tkp_argctx *c, const char *b, size_t len,
			 struct tkp_arg *a)
{
	const char *v = b + 1;
	size_t vlen = len - 1;
	long n;

	if (vlen == 6 && !strncmp(v, "retval", 6)) {
		if (!c->spec->is_return)
			return tkp_arg_fail(c, b, TKP_ERR_RETVAL_ON_PROBE);
		a->src = TKP_SRC_RETVAL;
	} else if (vlen == 8 && !strncmp(v, "duration", 8)) {
		if (!c->spec->is_return)
			return tkp_arg_fail(c, b, TKP_ERR_BAD_VAR);
		a->src = TKP_SRC_DURATION;
	} else if (vlen == 4 && !strncmp(v, "comm", 4)) {
		a->src = TKP_SRC_COMM;
	} else if (vlen == 5 && !strncmp(v, "stack", 5)) {
		a->src = TKP_SRC_STACKP;
	} else if (vlen > 5 && !strncmp(v, "stack", 5)) {
		if (!isdigit(v[5]) || !tkp_num(v + 5, vlen - 5, false, &n) ||
		    n < 0 || n > PAGE_SIZE / sizeof(long))
			return tkp_arg_fail(c, b, TKP_ERR_BAD_STACK_NUM);
		a->src = TKP_SRC_STACK;
		a->param = n;
	} else if (vlen > 3 && !strncmp(v, "arg", 3)) {
		if (!isdigit(v[3]) || !tkp_num(v + 3, vlen - 3, false, &n) ||
		    n < 1 || n > TKP_MAX_ARGS)
			return tkp_arg_fail(c, b, TKP_ERR_BAD_ARG_NUM);
		/*
		 * Arguments are only where the callee just got them: not
		 * inside the function.  A return probe takes the whole
		 * argument (dereferences and all) at the entry.
		 */
		if (c->spec->offset)
			return tkp_arg_fail(c, b, TKP_ERR_BAD_VAR);
		a->src = TKP_SRC_ARG;
		a->param = n - 1;
		a->at_entry = c->spec->is_return;
	} else {
		return tkp_arg_fail(c, b, TKP_ERR_BAD_VAR);
	}
	return 0;
}

/* "\IMM" or "\"STRING\"". */
static int tkp_parse_imm(struct tkp_argctx *c, const char *b, size_t len,
			 struct tkp_arg *a)
{
	if (len > 1 && b[1] == '"') {
		if (len < 3 || b[len - 1] != '"')
			return tkp_arg_fail(c, b + len, TKP_ERR_IMMSTR_NO_CLOSE);
		a->imm = kmemdup_nul(b + 2, len - 3, GFP_KERNEL);
		if (!a->imm)
			return -ENOMEM;
		a->src = TKP_SRC_IMMSTR;
		return 0;
	}
	if (!tkp_num(b + 1, len - 1, b[1] == '-', (long *)&a->param))
		return tkp_arg_fail(c, b + 1, TKP_ERR_BAD_IMM);
	a->src = TKP_SRC_IMM;
	return 0;
}

/* The fetch expression in @b (@len characters), innermost part first. */
static int tkp_parse_fetch(struct tkp_argctx *c, const char *b, size_t len,
			   struct tkp_arg *a)
{
	const char *p, *open;
	bool user = false;
	long offs;
	int ret, reg;
	char name[16];

	if (!len)
		return tkp_arg_fail(c, b, TKP_ERR_NO_ARG_BODY);

	switch (b[0]) {
	case '%':
		if (len - 1 >= sizeof(name))
			return tkp_arg_fail(c, b, TKP_ERR_BAD_REG_NAME);
		memcpy(name, b + 1, len - 1);
		name[len - 1] = '\0';
		reg = regs_query_register_offset(name);
		if (reg < 0)
			return tkp_arg_fail(c, b, TKP_ERR_BAD_REG_NAME);
		a->src = TKP_SRC_REG;
		a->param = reg;
		return 0;
	case '@':
		return tkp_parse_mem(c, b, len, a);
	case '$':
		return tkp_parse_var(c, b, len, a);
	case '\\':
		return tkp_parse_imm(c, b, len, a);
	case '+':
	case '-':
		break;
	default:
		return tkp_arg_fail(c, b, TKP_ERR_BAD_FETCH_ARG);
	}

	/* +|-[u]OFFS(FETCHARG); the word's length bounds the depth. */
	p = b + 1;
	if (*p == 'u') {
		user = true;
		p++;
	}
	open = strnchr(p, b + len - p, '(');
	if (!open)
		return tkp_arg_fail(c, b, TKP_ERR_DEREF_NEED_BRACE);
	if (!tkp_num(p, open - p, false, &offs) || offs < 0)
		return tkp_arg_fail(c, b, TKP_ERR_BAD_DEREF_OFFS);
	if (b[len - 1] != ')')
		return tkp_arg_fail(c, b + len, TKP_ERR_DEREF_OPEN_BRACE);
	ret = tkp_parse_fetch(c, open + 1, b + len - 1 - (open + 1), a);
	if (ret)
		return ret;
	if (a->src == TKP_SRC_COMM || a->src == TKP_SRC_IMMSTR)
		return tkp_arg_fail(c, open + 1, TKP_ERR_COMM_CANT_DEREF);
	if (a->ndrf >= TKP_MAX_DEREF)
		return tkp_arg_fail(c, b, TKP_ERR_TOO_MANY_OPS);
	if (user)
		a->user |= BIT(a->ndrf);
	a->drf[a->ndrf++] = b[0] == '-' ? -offs : offs;
	return 0;
}

/* "bWIDTH@OFFSET/CONTAINER", e.g. "b4@4/32". */
static int tkp_parse_bitfield(struct tkp_argctx *c, const char *t,
			      size_t len, struct tkp_arg *a)
{
	const char *at = strnchr(t, len, '@');
	const char *sl = strnchr(t, len, '/');
	long w, o, bits;

	if (!at || !sl || sl < at ||
	    !tkp_num(t + 1, at - t - 1, false, &w) ||
	    !tkp_num(at + 1, sl - at - 1, false, &o) ||
	    !tkp_num(sl + 1, t + len - sl - 1, false, &bits) ||
	    (bits != 8 && bits != 16 && bits != 32 && bits != 64) ||
	    w < 1 || o < 0 || w > bits || o > bits || w + o > bits)
		return tkp_arg_fail(c, t, TKP_ERR_BAD_BITFIELD);
	a->kind = TKP_K_BITFIELD;
	a->size = bits / 8;
	a->bf_lshift = 64 - (w + o);
	a->bf_rshift = 64 - w;
	return 0;
}

/* TYPE[N]: u8..u64, s8..s64, x8..x64, string, ustring, symbol, bW@O/S. */
static int tkp_parse_type(struct tkp_argctx *c, const char *t, size_t len,
			  struct tkp_arg *a)
{
	const char *br = strnchr(t, len, '[');
	size_t blen = br ? br - t : len;
	long n, bits;

	if (br) {
		const char *close = strnchr(br, t + len - br, ']');

		if (!close)
			return tkp_arg_fail(c, t + len, TKP_ERR_ARRAY_NO_CLOSE);
		if (close != t + len - 1)
			return tkp_arg_fail(c, close + 1,
					    TKP_ERR_BAD_ARRAY_SUFFIX);
		if (!tkp_num(br + 1, t + len - 1 - (br + 1), false, &n) ||
		    n < 1)
			return tkp_arg_fail(c, br + 1, TKP_ERR_BAD_ARRAY_NUM);
		if (n > TKP_MAX_ARRAY)
			return tkp_arg_fail(c, br + 1, TKP_ERR_ARRAY_TOO_BIG);
		a->count = n;
	}

	if (blen == 6 && !strncmp(t, "string", 6)) {
		a->kind = TKP_K_STRING;
	} else if (blen == 7 && !strncmp(t, "ustring", 7)) {
		a->kind = TKP_K_STRING;
		if (!a->ndrf)
			return tkp_arg_fail(c, t, TKP_ERR_BAD_STRING);
		a->user |= BIT(a->ndrf - 1);
		a->ustring = true;
	} else if (blen == 6 && !strncmp(t, "symbol", 6)) {
		a->kind = TKP_K_SYMBOL;
		a->size = sizeof(long);
	} else if (t[0] == 'b' && blen > 1 && isdigit(t[1])) {
		return br ? tkp_arg_fail(c, br, TKP_ERR_BAD_ARRAY_SUFFIX) :
			    tkp_parse_bitfield(c, t, blen, a);
	} else if (blen >= 2 && strchr("usx", t[0]) &&
		   tkp_num(t + 1, blen - 1, false, &bits) &&
		   (bits == 8 || bits == 16 || bits == 32 || bits == 64) &&
		   isdigit(t[1])) {
		a->kind = t[0] == 'u' ? TKP_K_U : t[0] == 's' ? TKP_K_S :
					       TKP_K_X;
		a->size = bits / 8;
	} else {
		return tkp_arg_fail(c, t, TKP_ERR_BAD_TYPE);
	}
	if (a->kind == TKP_K_STRING && br)
		return tkp_arg_fail(c, br, TKP_ERR_BAD_ARRAY_SUFFIX);
	return 0;
}

/* Where ':' separates the fetch from its type: outside quotes and braces. */
static const char *tkp_type_sep(const char *b)
{
	bool quoted = false;
	int depth = 0;

	for (; *b; b++) {
		if (*b == '"')
			quoted = !quoted;
		else if (quoted)
			continue;
		else if (*b == '(')
			depth++;
		else if (*b == ')')
			depth--;
		else if (*b == ':' && !depth)
			return b;
	}
	return NULL;
}

/* One word "[NAME=]FETCHARG[:TYPE]" into @a; @idx counts from 0. */
static int tkp_parse_arg(struct tkp_spec *spec, int word, const char *w,
			 int idx)
{
	struct tkp_argctx c = { .spec = spec, .word = word, .w = w };
	struct tkp_arg *a = &spec->args[idx];
	const char *body = w, *eq, *sep;
	size_t nlen;
	int i, ret;

	a->fault_bit = 0xff;
	eq = strchr(w, '=');
	if (eq && eq < w + strcspn(w, "(:\\\"")) {
		nlen = eq - w;
		if (!nlen)
			return tkp_fail(spec, word, 0, TKP_ERR_NO_ARG_NAME);
		if (nlen >= TKP_MAX_ARG_NAME)
			return tkp_fail(spec, word, 0, TKP_ERR_ARG_NAME_TOO_LONG);
		if (!tkp_name_ok(w, nlen))
			return tkp_fail(spec, word, 0, TKP_ERR_BAD_ARG_NAME);
		memcpy(a->name, w, nlen);
		a->name[nlen] = '\0';
		body = eq + 1;
	} else if (!strcmp(w, "$duration") || !strncmp(w, "$duration:", 10)) {
		/* So that "hist:...:vals=duration" works without a name. */
		strscpy(a->name, "duration", sizeof(a->name));
	} else {
		snprintf(a->name, sizeof(a->name), "arg%d", idx + 1);
	}
	for (i = 0; i < idx; i++)
		if (!strcmp(spec->args[i].name, a->name))
			return tkp_fail(spec, word, 0, TKP_ERR_USED_ARG_NAME);

	if (strlen(body) > TKP_MAX_ARG_TEXT)
		return tkp_fail(spec, word, body - w, TKP_ERR_ARG_TOO_LONG);
	a->text = kstrdup(body, GFP_KERNEL);
	if (!a->text)
		return -ENOMEM;

	sep = tkp_type_sep(body);
	ret = tkp_parse_fetch(&c, body, sep ? sep - body : strlen(body), a);
	if (ret)
		return ret;

	/*
	 * Defaults: strings for $comm and "...", nanoseconds in decimal for
	 * $duration, x64 for the rest.
	 */
	if (a->src == TKP_SRC_COMM || a->src == TKP_SRC_IMMSTR) {
		a->kind = TKP_K_STRING;
	} else if (a->src == TKP_SRC_DURATION) {
		a->kind = TKP_K_U;
		a->size = sizeof(u64);
	} else {
		a->kind = TKP_K_X;
		a->size = sizeof(long);
	}
	if (sep) {
		ret = tkp_parse_type(&c, sep + 1, strlen(sep + 1), a);
		if (ret)
			return ret;
	}

	if ((a->src == TKP_SRC_COMM || a->src == TKP_SRC_IMMSTR) &&
	    a->kind != TKP_K_STRING)
		return tkp_arg_fail(&c, sep + 1, TKP_ERR_BAD_TYPE);
	if (a->kind == TKP_K_STRING && !a->ndrf &&
	    a->src != TKP_SRC_COMM && a->src != TKP_SRC_IMMSTR)
		return tkp_arg_fail(&c, sep + 1, TKP_ERR_BAD_STRING);
	if (a->count && !a->ndrf)
		return tkp_arg_fail(&c, sep + 1, TKP_ERR_ARRAY_NOT_MEM);
	return 0;
}

static void tkp_free_args(struct tkp_arg *args, int nargs)
{
	int i;

	if (!args)
		return;
	for (i = 0; i < nargs; i++) {
		kfree(args[i].text);
		kfree(args[i].imm);
	}
	kfree(args);
}

/*
 * The C type of an argument's field as the format file shows it.  Kept
 * in the argument: the trace event core holds on to the pointer.
 */
static void tkp_set_ftype(struct tkp_arg *a)
{
	int n;

	if (a->kind == TKP_K_STRING) {
		strscpy(a->ftype, "__data_loc char[]", sizeof(a->ftype));
		return;
	}
	n = snprintf(a->ftype, sizeof(a->ftype), "%c%d",
		     a->kind == TKP_K_S ? 's' : 'u', a->size * 8);
	if (a->count)
		snprintf(a->ftype + n, sizeof(a->ftype) - n, "[%d]", a->count);
}

/* Lay the fields out after the header; false if they do not fit. */
#define TKP_NO_REG	0xffff

/*
 * Where in struct pt_regs the source of an argument is, if it is one
 * register, so that the hit path reads it without a switch on the kind
 * of source; TKP_NO_REG otherwise.
 */
static u16 tkp_src_off(const struct tkp_arg *a)
{
#ifdef CONFIG_X86_64
	static const u16 arg_off[] = {
		offsetof(struct pt_regs, di), offsetof(struct pt_regs, si),
		offsetof(struct pt_regs, dx), offsetof(struct pt_regs, cx),
		offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
	};

	if (a->src == TKP_SRC_REG)
		return a->param;
	if (a->src == TKP_SRC_RETVAL)
		return offsetof(struct pt_regs, ax);
	if (a->src == TKP_SRC_STACKP)
		return offsetof(struct pt_regs, sp);
	if (a->src == TKP_SRC_ARG && a->param < ARRAY_SIZE(arg_off))
		return arg_off[a->param];
#endif
	return TKP_NO_REG;
}

/*
 * Likewise for a plain register argument, copied into its field without
 * interpreting the argument; TKP_NO_REG if it needs more than that.
 */
static u16 tkp_reg_off(const struct tkp_arg *a)
{
	if (a->ndrf || a->count || a->kind == TKP_K_BITFIELD ||
	    a->kind == TKP_K_STRING || a->at_entry)
		return TKP_NO_REG;
	return tkp_src_off(a);
}

/*
 * Can @a be fetched from the registers ftrace saves for every callback
 * (the argument registers, ax, bp, sp), without SAVE_REGS?
 */
static bool tkp_arg_partial_ok(const struct tkp_arg *a)
{
#if defined(CONFIG_X86_64) && defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS)
	switch (a->src) {
	case TKP_SRC_REG:
		switch (a->param) {
		case offsetof(struct pt_regs, ax):
		case offsetof(struct pt_regs, cx):
		case offsetof(struct pt_regs, dx):
		case offsetof(struct pt_regs, si):
		case offsetof(struct pt_regs, di):
		case offsetof(struct pt_regs, r8):
		case offsetof(struct pt_regs, r9):
		case offsetof(struct pt_regs, bp):
		case offsetof(struct pt_regs, sp):
			return true;
		}
		/* %ip too: it reads as a kprobe's only in the full set. */
		return false;
	default:
		return true;
	}
#else
	return false;
#endif
}

static u8 tkp_op(const struct tkp_arg *a)
{
	if (a->at_entry)
		return TKP_OP_ENTRY;
	if (a->reg_off != TKP_NO_REG)
		return TKP_OP_REG;
	if (a->kind != TKP_K_STRING)
		return TKP_OP_VALUE;
	if (a->src == TKP_SRC_COMM || a->src == TKP_SRC_IMMSTR)
		return TKP_OP_STR;
	return TKP_OP_MSTR;
}

static bool tkp_layout(struct tkp_arg *args, int nargs, unsigned int hdr,
		       unsigned int *fixed_end, int *fault_off)
{
	unsigned int off = hdr, nfault = 0, size, align;
	int i;

	for (i = 0; i < nargs; i++)
		if (args[i].ndrf && args[i].kind != TKP_K_STRING &&
		    nfault < 64)
			args[i].fault_bit = nfault++;
	*fault_off = -1;
	if (nfault) {
		*fault_off = off;
		off += sizeof(u64);
	}
	for (i = 0; i < nargs; i++) {
		tkp_set_ftype(&args[i]);
		args[i].reg_off = tkp_reg_off(&args[i]);
		args[i].src_off = tkp_src_off(&args[i]);
		args[i].op = tkp_op(&args[i]);
		args[i].last_user = args[i].ndrf &&
				    (args[i].user & BIT(args[i].ndrf - 1));
		if (args[i].kind == TKP_K_STRING) {
			size = sizeof(u32);
			align = size;
		} else {
			align = args[i].size;
			size = args[i].size * (args[i].count ?: 1);
		}
		off = ALIGN(off, align);
		args[i].offset = off;
		off += size;
		if (off - hdr > TKP_MAX_FIXED)
			return false;
	}
	*fixed_end = off;
	return true;
}

/**
 * tkp_parse - turn the words of a definition line into a spec
 * @argc: number of words
 * @argv: the words; argv[0] is "p..." or "r..."
 * @spec: filled in; on failure, its err fields say where and why
 *
 * Return: 0; -EINVAL with @spec describing the fault; -ENOMEM.  Either
 * way the caller frees @spec->args with tkp_free_args().
 */
static int tkp_parse(int argc, const char **argv, struct tkp_spec *spec)
{
	int i, ret;

	memset(spec, 0, sizeof(*spec));
	ret = tkp_parse_head(argv[0], spec);
	if (ret)
		return ret;
	if (argc < 2)
		return tkp_fail(spec, 0, strlen(argv[0]), TKP_ERR_NO_PLACE);
	ret = tkp_parse_place(argv[1], spec);
	if (ret)
		return ret;

	spec->fault_off = -1;
	spec->rec_size = spec->is_return ? sizeof(struct tkp_return_rec) :
					   sizeof(struct tkp_entry_rec);
	spec->nargs = argc - 2;
	if (!spec->nargs)
		return 0;
	if (spec->nargs > TKP_MAX_ARGS)
		return tkp_fail(spec, 2 + TKP_MAX_ARGS, 0,
				TKP_ERR_TOO_MANY_ARGS);
	spec->args = kcalloc(spec->nargs, sizeof(*spec->args), GFP_KERNEL);
	if (!spec->args)
		return -ENOMEM;
	for (i = 0; i < spec->nargs; i++) {
		ret = tkp_parse_arg(spec, i + 2, argv[i + 2], i);
		if (ret)
			return ret;
	}
	if (!tkp_layout(spec->args, spec->nargs, spec->rec_size,
			&spec->rec_size, &spec->fault_off))
		return tkp_fail(spec, 2, 0, TKP_ERR_ARGS_TOO_BIG);
	return 0;
}

/*
 * Log a refused line to error_log.  The command is shown as its words
 * joined by single spaces, and the caret goes under character @off of
 * word @word.
 */
/*
 * The message for a symbol that names @n functions, which tells how many
 * and the ways out.  error_log keeps a pointer to its message, so each
 * count up to TKP_UNIQ_COUNTED gets one string for good (more share one).
 */
#define TKP_UNIQ_COUNTED	16
static const char *tkp_uniq_text[TKP_UNIQ_COUNTED + 1];

/* Likewise the note on a pattern's functions that cannot be probed. */
static const char *tkp_skip_text[TKP_UNIQ_COUNTED + 1];

static int tkp_skip_msg(unsigned int n)
{
	int i = min(n, TKP_UNIQ_COUNTED + 0U);
	char *msg;

	if (tkp_skip_text[i])
		return i;
	if (n > TKP_UNIQ_COUNTED)
		msg = kasprintf(GFP_KERNEL, "Note: more than %u %s",
				TKP_UNIQ_COUNTED,
				"matching functions cannot be probed; skipped");
	else
		msg = kasprintf(GFP_KERNEL, "Note: %u %s", n,
				"matching functions cannot be probed; skipped");
	if (!msg)
		return -ENOMEM;
	if (cmpxchg(&tkp_skip_text[i], NULL, msg))
		kfree(msg);
	return i;
}

static int tkp_uniq_msg(unsigned int n)
{
	int i = min(n, TKP_UNIQ_COUNTED + 0U);
	char *msg;

	if (tkp_uniq_text[i])
		return i;
	if (n > TKP_UNIQ_COUNTED)
		msg = kasprintf(GFP_KERNEL, "%s (more than %u functions): %s",
				tkp_err_text[TKP_ERR_NON_UNIQ_SYMBOL],
				TKP_UNIQ_COUNTED, "give MOD:SYM or an address");
	else
		msg = kasprintf(GFP_KERNEL, "%s (%u functions): %s",
				tkp_err_text[TKP_ERR_NON_UNIQ_SYMBOL], n,
				"give MOD:SYM or an address");
	if (!msg)
		return -ENOMEM;
	if (cmpxchg(&tkp_uniq_text[i], NULL, msg))
		kfree(msg);
	return i;
}

static void tkp_log_text(int argc, const char **argv, int word, int off,
			 const char **texts, int idx);

static void tkp_log_err(int argc, const char **argv, int word, int off,
			enum tkp_err err)
{
	tkp_log_text(argc, argv, word, off, tkp_err_text, err);
}

static void tkp_log_text(int argc, const char **argv, int word, int off,
			 const char **texts, int idx)
{
	size_t len = 0;
	int i, pos = -1;
	char *cmd;

	for (i = 0; i < argc; i++) {
		if (i == word)
			pos = len;
		len += strlen(argv[i]) + 1;
	}
	/* A word past the last (an argument missing): just past the line. */
	if (pos < 0)
		pos = len;
	cmd = kmalloc(len, GFP_KERNEL);
	if (!cmd)
		return;
	cmd[0] = '\0';
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(cmd, " ");
		strcat(cmd, argv[i]);
	}
	tracing_log_err(NULL, "trace_kprobe", cmd, texts, idx, pos + off);
	kfree(cmd);
}

/* ---------------------------------------------------------------------
 * The hit path.  Runs in kprobe context: preemption (and often
 * interrupts) disabled.  No locks, no allocation.
 */

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
/*
 * The entry time (trace_clock_local()) of the return being recorded on
 * this CPU, for $duration; saved and restored around each return handler,
 * so that one nested in another's recording leaves it as it was.
 */
static DEFINE_PER_CPU(u64, tkp_entry_ns);
/* Likewise the arguments its entry took ($argN in return probes). */
static DEFINE_PER_CPU(const u8 *, tkp_entry_data);

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

#ifdef CONFIG_X86_64
/*
 * The lowest canonical kernel address (set at init; until then nothing
 * is allowed): above TASK_SIZE_MAX and its guard page, canonical means
 * at or above this.
 */
static unsigned long tkp_kaddr_min __ro_after_init = ULONG_MAX;
#endif

/*
 * copy_from_kernel_nofault_allowed(), in line where it is simple enough
 * (x86-64): every dereference of a kernel address asks it.
 */
static nokprobe_inline bool tkp_kaddr_ok(unsigned long addr, size_t size)
{
#ifdef CONFIG_X86_64
	return addr >= tkp_kaddr_min && !is_vsyscall_vaddr(addr);
#else
	return copy_from_kernel_nofault_allowed((void *)addr, size);
#endif
}

/*
 * copy_from_kernel_nofault() of one word, in line: a dereference in a
 * fetch argument is mostly that.
 */
static nokprobe_inline bool tkp_kload_word(unsigned long *dst,
					   unsigned long addr)
{
	if (!tkp_kaddr_ok(addr, sizeof(*dst)))
		return false;
	/* pagefault_disable(), which the compiler may not inline. */
	pagefault_disabled_inc();
	barrier();
	__get_kernel_nofault(dst, (void *)addr, unsigned long, fault);
	barrier();
	pagefault_disabled_dec();
	return true;
fault:
	barrier();
	pagefault_disabled_dec();
	return false;
}

/* Read @size bytes at @addr of kernel or user memory; false on a fault. */
static nokprobe_inline bool tkp_load(void *dst, unsigned long addr,
				     size_t size, bool user)
{
	if (tkp_is_user(addr, user))
		return !copy_from_user_nofault(dst, (void __user *)addr, size);
	if (size == sizeof(unsigned long))
		return tkp_kload_word(dst, addr);
	return !copy_from_kernel_nofault(dst, (void *)addr, size);
}

/*
 * strncpy_from_kernel_nofault() a word at a time once @src is aligned:
 * an aligned word never straddles a page, so reading the bytes after the
 * NUL in its word is safe.  @room is positive.  Returns the length with
 * the NUL (@room if cut short, which ends with a NUL too), 0 on a fault.
 */
static nokprobe_inline long tkp_kstrncpy(char *dst, unsigned long src,
					 long room)
{
#ifdef CONFIG_DCACHE_WORD_ACCESS
	const struct word_at_a_time zero = WORD_AT_A_TIME_CONSTANTS;
	unsigned long w, bits;
	long n = 0;

	if (!tkp_kaddr_ok(src, room))
		return 0;
	pagefault_disabled_inc();
	barrier();
	for (; n < room && ((src + n) & (sizeof(w) - 1)); n++) {
		__get_kernel_nofault(dst + n, (void *)(src + n), u8, fault);
		if (!dst[n])
			goto done;
	}
	for (; n + (long)sizeof(w) <= room; n += sizeof(w)) {
		__get_kernel_nofault(&w, (void *)(src + n), unsigned long,
				     fault);
		*(unsigned long *)(dst + n) = w;
		if (has_zero(w, &bits, &zero)) {
			bits = create_zero_mask(prep_zero_mask(w, bits, &zero));
			n += find_zero(bits);
			goto done;
		}
	}
	for (; n < room; n++) {
		__get_kernel_nofault(dst + n, (void *)(src + n), u8, fault);
		if (!dst[n])
			goto done;
	}
	n = room - 1;
done:
	barrier();
	pagefault_disabled_dec();
	dst[n] = '\0';
	return n + 1;
fault:
	barrier();
	pagefault_disabled_dec();
	dst[0] = '\0';
	return 0;
#else
	return max(strncpy_from_kernel_nofault(dst, (void *)src, room), 0L);
#endif
}

/*
 * user_read_access_begin(), less what the caller has checked already on
 * x86: that the range is below TASK_SIZE_MAX, all access_ok() asks there.
 */
static __always_inline bool tkp_uaccess_begin(const char __user *u, long len)
{
#ifdef CONFIG_X86
	__uaccess_begin_nospec();
	return true;
#else
	return user_read_access_begin(u, len);
#endif
}

/*
 * strncpy_from_user_nofault() in line, with the contract of
 * tkp_kstrncpy().  A word at a time, aligned or not (x86 does not mind);
 * a word that faults may straddle into a page past the string's end, so
 * it is read again a byte at a time.  The string may not run past the
 * end of user space.
 */
static nokprobe_inline long tkp_ustrncpy(char *dst, unsigned long src,
					 long room)
{
#ifdef CONFIG_X86_64
	const char __user *u;
	unsigned long w, bits;
	long n = 0, lim;

	src = untagged_addr(src);
	if (src >= TASK_SIZE_MAX)
		return 0;
	/* In an NMI the current mm may not be the one loaded. */
	if (in_nmi() && !nmi_uaccess_okay())
		return 0;
	lim = min_t(unsigned long, room, TASK_SIZE_MAX - src);
	u = (const char __user *)src;
	/* Before access_ok(), whose debug check wants it in interrupts. */
	pagefault_disabled_inc();
	barrier();
	if (!tkp_uaccess_begin(u, lim))
		goto out;
	for (; n <= lim - (long)sizeof(w); n += sizeof(w)) {
		unsafe_get_user(w, (const unsigned long __user *)(u + n),
				bytes);
		put_unaligned(w, (unsigned long *)(dst + n));
		/*
		 * Open-coded has_zero(): no calls while user access is
		 * open.  The lowest high bit it sets marks the first NUL.
		 */
		bits = (w - REPEAT_BYTE(0x01)) & ~w & REPEAT_BYTE(0x80);
		if (bits) {
			n += __ffs(bits) / BITS_PER_BYTE;
			goto done;
		}
	}
bytes:
	for (; n < lim; n++) {
		unsafe_get_user(dst[n], u + n, fault);
		if (!dst[n])
			goto done;
	}
	/* Cut short at @room; at the end of user space, a fault. */
	if (lim < room)
		goto fault;
	n = room - 1;
done:
	user_read_access_end();
	barrier();
	pagefault_disabled_dec();
	dst[n] = '\0';
	return n + 1;
fault:
	user_read_access_end();
out:
	barrier();
	pagefault_disabled_dec();
	dst[0] = '\0';
	return 0;
#else
	return max(strncpy_from_user_nofault(dst, (const void __user *)src,
					     room), 0L);
#endif
}

static nokprobe_inline unsigned long tkp_source(const struct tkp_arg *a,
						struct pt_regs *regs)
{
	if (a->src_off != TKP_NO_REG)
		return *(unsigned long *)((u8 *)regs + a->src_off);
	switch (a->src) {
	case TKP_SRC_REG:
		return regs_get_register(regs, a->param);
	case TKP_SRC_STACK:
		return regs_get_kernel_stack_nth(regs, a->param);
	case TKP_SRC_STACKP:
		return kernel_stack_pointer(regs);
	case TKP_SRC_RETVAL:
		return regs_return_value(regs);
	case TKP_SRC_ARG:
		return regs_get_kernel_argument(regs, a->param);
	case TKP_SRC_DURATION:
		return trace_clock_local() - __this_cpu_read(tkp_entry_ns);
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
		for (v += *d; d < last; v += *++d, user >>= 1) {
			if (tkp_is_user(v, user & 1)) {
				/*
				 * Not into v, nor a variable of the whole
				 * function: either would live in memory.
				 */
				unsigned long p;

				if (copy_from_user_nofault(&p, (void __user *)v,
							   sizeof(p)))
					return false;
				v = p;
			} else if (!tkp_kload_word(&v, v)) {
				return false;
			}
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

/*
 * memcpy() for the staged arguments of one record: a few dozen bytes
 * mostly, where the string instruction the kernel's memcpy() uses costs
 * one step per byte.  @dst, in the ring buffer, is only 4-byte aligned.
 */
static __always_inline void tkp_copy(u8 *dst, const u8 *src, unsigned int n)
{
	if (n >= sizeof(u64)) {
		unsigned long s = (unsigned long)src, d = (unsigned long)dst;
		unsigned long last = s + n - sizeof(u64);

		/*
		 * Whole words, then the one ending at @n (they may overlap);
		 * one index for both sides.
		 */
		d -= s;
		do {
			put_unaligned(get_unaligned((const u64 *)s),
				      (u64 *)(s + d));
			s += sizeof(u64);
		} while (s < last);
		put_unaligned(get_unaligned((const u64 *)last),
			      (u64 *)(last + d));
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

/* A scalar or array argument into its field; false on a fault. */
static nokprobe_inline bool tkp_fetch_value(const struct tkp_arg *a,
					    struct pt_regs *regs, u8 *dst)
{
	unsigned int n = a->count ?: 1;
	unsigned long v;

	if (!tkp_walk(a, regs, &v))
		goto fault;
	if (!a->ndrf)
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

/*
 * A string in memory (TKP_OP_MSTR) into @dst, at most @room bytes; its
 * length with the NUL, 0 on a fault.
 */
static nokprobe_inline int tkp_fetch_mstr(const struct tkp_arg *a,
					  struct pt_regs *regs, char *dst,
					  int room)
{
	unsigned long addr;

	if (!tkp_walk(a, regs, &addr))
		return 0;
	if (tkp_is_user(addr, a->last_user))
		return tkp_ustrncpy(dst, addr, room);
	return tkp_kstrncpy(dst, addr, room);
}

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
		if (len)
			memcpy(buf + dyn, d + a->entry_off + sizeof(u16), len);
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
	const struct tkp_arg *a = args, *end = a + ev->nargs;
	unsigned int hdr = ev->hdr_size, pos = ev->rec_size;
	u64 faults = 0;
	int len;

	/* @pos: where in the record the next string goes. */
	for (; a < end; a++) {
		u8 *field = buf + a->offset - hdr;

		switch (a->op) {
		case TKP_OP_REG:
			tkp_put(field, *(unsigned long *)((u8 *)regs +
							  a->reg_off), a->size);
			continue;
		case TKP_OP_VALUE:
			if (!tkp_fetch_value(a, regs, field) &&
			    a->fault_bit != 0xff)
				faults |= BIT_ULL(a->fault_bit);
			continue;
		case TKP_OP_ENTRY:
			pos += tkp_from_entry(ev, a, buf, field, pos - hdr,
					      &faults);
			continue;
		case TKP_OP_MSTR:
			len = 0;
			if (pos < TKP_MAX_RECORD)
				len = tkp_fetch_mstr(a, regs, buf + pos - hdr,
						     TKP_MAX_RECORD - pos);
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
 * The probed address (entry) or function (return) of the hit whose BPF
 * programs run on this CPU; 0 when none does.  Saved and restored around
 * each run, so an NMI's hit in between leaves it as it was.
 */
static DEFINE_PER_CPU(unsigned long, tkp_func_ip);

/**
 * trace_kprobe_func_ip - what bpf_get_func_ip() returns for a probe on ftrace
 *
 * A kprobe event hooked through ftrace runs its BPF programs with no
 * kprobe running, so the BPF helper cannot ask the kprobes core which
 * function was hit; it asks here instead.
 *
 * Return: the address the running BPF program's kprobe event was hit at
 * (an entry probe) or whose return it is (a return probe), or 0 when no
 * BPF program of ours runs on this CPU.
 */
unsigned long trace_kprobe_func_ip(void)
{
	return __this_cpu_read(tkp_func_ip);
}

/*
 * Hand the hit to BPF and perf.  Returns 1 when a BPF program moved the
 * instruction pointer (bpf_override_return): execution must then resume
 * there instead of going on in the probed function.
 */
static nokprobe_inline int tkp_perf(struct tkp_event *ev,
				    struct pt_regs *regs, unsigned long a,
				    unsigned long b, const u8 *args,
				    unsigned int body)
{
	struct trace_event_call *call = &ev->call;
	unsigned long ip = instruction_pointer(regs);
	struct hlist_head *head;
	int size, rctx;
	void *rec;

	if (bpf_prog_array_valid(call)) {
		unsigned long outer = __this_cpu_read(tkp_func_ip);
		int keep;

		/* For bpf_get_func_ip(), see trace_kprobe_func_ip(). */
		__this_cpu_write(tkp_func_ip, a);
		keep = trace_call_bpf(call, regs);
		__this_cpu_write(tkp_func_ip, outer);
		if (!ev->is_return && ip != instruction_pointer(regs))
			return 1;
		if (!keep)
			return 0;
	}

	head = this_cpu_ptr(call->perf_events);
	if (hlist_empty(head))
		return 0;
	/* perf wants the raw record plus its u32 size to be u64 aligned. */
	size = ALIGN(ev->hdr_size + body + sizeof(u32), sizeof(u64)) -
	       sizeof(u32);
	rec = perf_trace_buf_alloc(size, NULL, &rctx);
	if (!rec)
		return 0;
	tkp_fill_hdr(ev, rec, a, b);
	if (body)
		memcpy(rec + ev->hdr_size, args, body);
	perf_trace_buf_submit(rec, size, rctx, call->event.type, 1, regs,
			      head, NULL);
	return 0;
}
#else
static nokprobe_inline int tkp_perf(struct tkp_event *ev,
				    struct pt_regs *regs, unsigned long a,
				    unsigned long b, const u8 *args,
				    unsigned int body)
{
	return 0;
}
#endif

/*
 * File flags that need the trace event core's full path: pid filtering,
 * soft-disable, triggers, filters.  Without them, the stacktrace options,
 * tp_printk and ftrace exports, a record goes straight into the ring
 * buffer (comm saving still applies, in the commit).
 */
#define TKP_FILE_SLOW	(EVENT_FILE_FL_PID_FILTER | EVENT_FILE_FL_SOFT_DISABLED | \
			 EVENT_FILE_FL_TRIGGER_MODE | EVENT_FILE_FL_TRIGGER_COND | \
			 EVENT_FILE_FL_FILTERED)
#define TKP_TR_SLOW	(TRACE_ITER_STACKTRACE | TRACE_ITER_USERSTACKTRACE)

static nokprobe_inline bool tkp_file_slow(struct trace_event_file *file)
{
	/* ftrace exports have no public test; this is their one user. */
	return IS_ENABLED(CONFIG_STM_SOURCE_FTRACE) ||
	       (READ_ONCE(file->flags) & TKP_FILE_SLOW) ||
	       (READ_ONCE(file->tr->trace_flags) & TKP_TR_SLOW) ||
	       READ_ONCE(tracepoint_printk);
}

/* One record of place @tp into @file the trace event core's way. */
static noinline void tkp_record_slow(struct tkp_probe *tp,
				     struct trace_event_file *file,
				     struct pt_regs *regs,
				     unsigned long a, unsigned long b,
				     const u8 *args, unsigned int body)
{
	struct tkp_event *ev = tp->ev;
	struct trace_event_buffer fbuf;
	void *rec;

	if (trace_trigger_soft_disabled(file))
		return;
	rec = trace_event_buffer_reserve(&fbuf, file, ev->hdr_size + body);
	if (!rec)
		return;
	fbuf.regs = regs;
	tkp_fill_hdr(ev, rec, a, b);
	if (args)
		memcpy(rec + ev->hdr_size, args, body);
	else if (body)
		tkp_fetch_args(ev, tp->args, regs, rec + ev->hdr_size);
	trace_event_buffer_commit(&fbuf);
}
NOKPROBE_SYMBOL(tkp_record_slow);

/*
 * The flags and counts of struct trace_entry exactly as
 * tracing_gen_ctx_dec() gives them before a reservation, computed in
 * line: this is on every hit's path, and the usual case (task context)
 * is tested first.  Called once the ring buffer has reserved the record,
 * which keeps preemption disabled until the commit, so that the values
 * need not be kept across the call: that one count is taken off again.
 */
static nokprobe_inline unsigned int tkp_trace_ctx(void)
{
#if defined(CONFIG_TRACE_IRQFLAGS_SUPPORT) && defined(CONFIG_X86)
	/*
	 * x86 keeps PREEMPT_NEED_RESCHED, inverted, in the word of the
	 * preempt count: one read gives both.
	 */
	unsigned int raw = raw_cpu_read_4(__preempt_count);
	unsigned int pc = (raw & ~PREEMPT_NEED_RESCHED) -
			  IS_ENABLED(CONFIG_PREEMPT_COUNT), fl = 0, migr = 0;

	if (irqs_disabled())
		fl |= TRACE_FLAG_IRQS_OFF;
	if (unlikely(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_MASK))) {
		if (pc & NMI_MASK)
			fl |= TRACE_FLAG_NMI;
		if (pc & HARDIRQ_MASK)
			fl |= TRACE_FLAG_HARDIRQ;
		if (in_serving_softirq())
			fl |= TRACE_FLAG_SOFTIRQ;
		if (softirq_count() >> (SOFTIRQ_SHIFT + 1))
			fl |= TRACE_FLAG_BH_OFF;
	}
	if (READ_ONCE(current_thread_info()->flags) & _TIF_NEED_RESCHED)
		fl |= TRACE_FLAG_NEED_RESCHED;
	if (!(raw & PREEMPT_NEED_RESCHED))
		fl |= TRACE_FLAG_PREEMPT_RESCHED;
#ifdef CONFIG_SMP
	migr = min_t(unsigned int, current->migration_disabled, 0xf);
#endif
	/*
	 * Less our own caller's preempt_disable(), as the core does, but
	 * never below 0: an int3 kprobe's handler runs with no
	 * preempt_disable() of its own (x86), where the core's count
	 * borrows into the other fields.
	 */
	pc = min_t(unsigned int, pc & 0xff, 0xf);
	if (IS_ENABLED(CONFIG_PREEMPTION) && pc)
		pc--;
	return fl << 16 | migr << 4 | pc;
#else
	return tracing_gen_ctx_dec() - IS_ENABLED(CONFIG_PREEMPT_COUNT);
#endif
}

/*
 * ring_buffer_event_data(), in line, for an event just reserved: the
 * reservation may begin with a time extend (8 bytes, as
 * include/linux/ring_buffer.h describes RINGBUF_TYPE_TIME_EXTEND and
 * _TIME_STAMP), then the data event, whose length is in type_len or,
 * when that is 0, in the word before the data.
 */
static nokprobe_inline void *tkp_event_data(struct ring_buffer_event *event)
{
	if (unlikely(event->type_len >= RINGBUF_TYPE_TIME_EXTEND))
		event = (void *)event + 8;
	return event->type_len ? &event->array[0] : &event->array[1];
}

/*
 * One record of @ev straight into @file's ring buffer: its arguments
 * from @args, or fetched right into it by the place's fetch program
 * @prog when @args is NULL.
 */
static nokprobe_inline void tkp_record_fast(struct tkp_event *ev,
					    const struct tkp_arg *prog,
					    struct trace_event_file *file,
					    struct pt_regs *regs,
					    unsigned long a, unsigned long b,
					    const u8 *args, unsigned int body)
{
	struct trace_buffer *buffer = file->tr->array_buffer.buffer;
	struct ring_buffer_event *event;
	struct trace_entry *ent;

	event = ring_buffer_lock_reserve(buffer, ev->hdr_size + body);
	if (!event)
		return;
	ent = tkp_event_data(event);
	tracing_generic_entry_update(ent, ev->call.event.type,
				     tkp_trace_ctx());
	tkp_fill_hdr(ev, ent, a, b);
	if (args)
		tkp_copy((u8 *)ent + ev->hdr_size, args, body);
	else if (body)
		tkp_fetch_args(ev, prog, regs, (u8 *)ent + ev->hdr_size);
	trace_buffer_unlock_commit_nostack(buffer, event);
}

static nokprobe_inline u8 *tkp_scratch_of(unsigned int slot)
{
	return this_cpu_ptr(tkp_scratch) + slot * TKP_SCRATCH_SIZE;
}

/*
 * The arguments of a record with strings, whose size is known only once
 * they are fetched, into staging buffer @buf; returns the size of the
 * record's body.  Out of line: in line, the fetch would cost the callers'
 * fixed-size case more than the call costs here.  The usual event of one
 * string has its own, lighter than the general one.
 */
static noinline unsigned int tkp_fetch_str1(const struct tkp_probe *tp,
					    struct pt_regs *regs, u8 *buf)
{
	return tkp_fetch_one_str(tp, regs, buf);
}
NOKPROBE_SYMBOL(tkp_fetch_str1);

static noinline unsigned int tkp_fetch_dyn(const struct tkp_probe *tp,
					   struct pt_regs *regs, u8 *buf)
{
	return tkp_fetch_args(tp->ev, tp->args, regs, buf);
}
NOKPROBE_SYMBOL(tkp_fetch_dyn);

/* tkp_record_fast() for a record with strings, staged in buffer @slot. */
static nokprobe_inline void tkp_record_dyn(struct tkp_probe *tp,
					   struct trace_event_file *file,
					   struct pt_regs *regs,
					   unsigned long a, unsigned long b,
					   unsigned int slot)
{
	u8 *args = tkp_scratch_of(slot);

	tkp_record_fast(tp->ev, tp->args, file, regs, a, b, args,
			tp->one_str ? tkp_fetch_str1(tp, regs, args) :
				      tkp_fetch_dyn(tp, regs, args));
}

/* The same out of line, for kprobes and returns (see __tkp_emit()). */
static noinline void tkp_record_dyn_call(struct tkp_probe *tp,
					 struct trace_event_file *file,
					 struct pt_regs *regs, unsigned long a,
					 unsigned long b, unsigned int slot)
{
	tkp_record_dyn(tp, file, regs, a, b, slot);
}
NOKPROBE_SYMBOL(tkp_record_dyn_call);

/*
 * tkp_emit() for all but the common case: several trace instances, perf,
 * strings, filters and triggers.  The arguments are fetched once, into
 * staging buffer @slot, however many consumers there are.
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
	if (body) {
		args = tkp_scratch_of(slot);
		body = tkp_fetch_args(ev, tp->args, regs, args);
	}
	for (i = 0; files && i < files->nr; i++) {
		file = READ_ONCE(files->file[i]);
		if (!file)
			continue;
		if (unlikely(tkp_file_slow(file)))
			tkp_record_slow(tp, file, regs, a, b, args, body);
		else
			tkp_record_fast(ev, tp->args, file, regs, a, b, args,
					body);
	}
	return perf ? tkp_perf(ev, regs, a, b, args, body) : 0;
}
NOKPROBE_SYMBOL(tkp_emit_general);

/*
 * Write one record per trace instance the event is enabled in, and pass
 * the hit to perf/BPF when attached.  @a and @b are the probe's fields:
 * the probed address, or the function and the return address.  The
 * caller holds ftrace's recursion bit, whose number is @slot.  Returns 1
 * when BPF moved the instruction pointer (see tkp_perf()).  @dyn_inline:
 * whether a record with strings is fetched in line, or by a call that
 * spares the caller's fixed-size case.
 */
static nokprobe_inline int __tkp_emit(struct tkp_probe *tp,
				      struct pt_regs *regs, unsigned long a,
				      unsigned long b, unsigned int slot,
				      bool dyn_inline)
{
	struct tkp_event *ev = tp->ev;
	struct trace_event_file *file = rcu_dereference_sched(ev->fast);

	raw_cpu_inc(tp->stat->hit);
	/*
	 * The common case: one trace instance, and a fixed-size record,
	 * whose arguments are fetched right into it, or one with strings.
	 */
	if (likely(file && !tkp_file_slow(file))) {
		if (!ev->dyn)
			tkp_record_fast(ev, tp->args, file, regs, a, b, NULL,
					ev->rec_size - ev->hdr_size);
		else if (dyn_inline)
			tkp_record_dyn(tp, file, regs, a, b, slot);
		else
			tkp_record_dyn_call(tp, file, regs, a, b, slot);
		return 0;
	}
	return tkp_emit_general(tp, regs, a, b, slot);
}

static nokprobe_inline int tkp_emit(struct tkp_probe *tp,
				    struct pt_regs *regs, unsigned long a,
				    unsigned long b, unsigned int slot)
{
	return __tkp_emit(tp, regs, a, b, slot, true);
}

/*
 * Take ftrace's recursion bit of this context (task, softirq, hardirq,
 * NMI) for a hit about to be recorded; the caller has preemption off.
 * Held, it means a recording (ours, or another ftrace callback's) is in
 * progress in this context, which this hit was reached from: it is
 * refused, and counted as a miss.  Unlike ftrace_test_recursion_trylock()
 * this grants no second "transition" bit to a nested call (meant for an
 * interrupt that comes before preempt_count() says so): for us a nested
 * call is one our own recording made, a function the ring buffer or a
 * fetch calls.  Returns the bit, or -1.
 */
static nokprobe_inline int tkp_recursion_lock(void)
{
	struct task_struct *task = current;
	unsigned int val = READ_ONCE(task->trace_recursion);
	int bit = TRACE_FTRACE_START + TRACE_CTX_NORMAL;

	/* Task context, the usual one, costs a test and a constant bit. */
	if (likely(!(preempt_count() &
		     (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET)))) {
		if (unlikely(val & BIT(bit)))
			return -1;
		WRITE_ONCE(task->trace_recursion, val | BIT(bit));
		barrier();
		return bit;
	}
	bit = TRACE_FTRACE_START + trace_get_context_bit();
	if (val & BIT(bit))
		return -1;
	WRITE_ONCE(task->trace_recursion, val | BIT(bit));
	barrier();
	return bit;
}

static nokprobe_inline void tkp_recursion_unlock(int bit)
{
	barrier();
	current->trace_recursion &= ~BIT(bit);
}

/*
 * Is a recording in progress in the context a breakpoint interrupted?
 * x86 enters a kernel int3 as an NMI, so a kprobe that one of our
 * recordings reaches (the ring buffer's functions are not traceable,
 * but kprobes may probe them) runs in a context of its own, one whose
 * recursion bit is free.  Look one level down instead: the preempt count
 * less the NMI and hardirq counts nmi_enter() added.  Asked before the
 * hit takes its own bit: an int3 inside a real NMI looks down at that
 * NMI's bit, the one the hit is about to take.  An optimised kprobe in a
 * real NMI cannot be told from an int3 and looks below the NMI: it is
 * counted as a miss when the NMI came in the middle of a recording.
 */
static nokprobe_inline bool tkp_recording_below(void)
{
	unsigned long pc = preempt_count();
	unsigned int level = 0;

	if (likely(!(pc & NMI_MASK)))
		return false;	/* an optimised kprobe: no int3 */
	pc -= NMI_OFFSET + HARDIRQ_OFFSET;
	level += !!(pc & NMI_MASK);
	level += !!(pc & (NMI_MASK | HARDIRQ_MASK));
	level += !!(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET));
	return READ_ONCE(current->trace_recursion) &
	       BIT(TRACE_FTRACE_START + TRACE_CTX_NORMAL - level);
}

/*
 * The recursion bit for the handler of kprobe @kp.  A kprobe on a
 * function's ftrace call site is run from the kprobes core's ftrace
 * handler, which holds the bit already, for this hit: then the bit is
 * ours to use but not to release.  That handler grants ftrace's
 * transition bit to a call nested in a recording: refused here, as
 * tkp_recursion_lock() refuses it.  Returns the bit, or -1 for a miss.
 */
static nokprobe_inline int tkp_kprobe_lock(struct kprobe *kp, bool *release)
{
	*release = !kprobe_ftrace(kp);
	if (*release)
		return tkp_recursion_lock();
	if (READ_ONCE(current->trace_recursion) &
	    BIT(TRACE_FTRACE_START + TRACE_CTX_TRANSITION))
		return -1;
	return TRACE_FTRACE_START + trace_get_context_bit();
}

/*
 * tkp_emit() for a kprobe or a fentry return, whose callers hold no
 * recursion bit: take it, or count a miss.
 */
static nokprobe_inline int tkp_emit_locked(struct tkp_probe *tp,
					   struct pt_regs *regs,
					   unsigned long a, unsigned long b)
{
	int bit, ret;

	bit = tkp_recursion_lock();
	if (unlikely(bit < 0)) {
		raw_cpu_inc(tp->stat->miss);
		return 0;
	}
	ret = __tkp_emit(tp, regs, a, b, bit - TRACE_FTRACE_START, false);
	tkp_recursion_unlock(bit);
	return ret;
}

static int tkp_entry_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct tkp_kp *k = container_of(kp, struct tkp_kp, rp.kp);
	struct tkp_probe *tp = k->tp;
	bool release;
	int bit, ret;

	if (unlikely(!kprobe_ftrace(kp) && tkp_recording_below())) {
		raw_cpu_inc(tp->stat->miss);
		return 0;
	}
	bit = tkp_kprobe_lock(kp, &release);
	if (unlikely(bit < 0)) {
		raw_cpu_inc(tp->stat->miss);
		return 0;
	}
	ret = __tkp_emit(tp, regs, k->ip, 0, bit - TRACE_FTRACE_START, false);
	if (release)
		tkp_recursion_unlock(bit);
	if (!ret)
		return 0;
	/* BPF redirected execution: resume there, do not single-step. */
	reset_current_kprobe();
	return 1;
}
NOKPROBE_SYMBOL(tkp_entry_hit);

/* A kretprobe's entry: the time, for $duration. */
static int tkp_return_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct tkp_probe *tp;
	bool release;
	int bit;

	*(u64 *)ri->data = trace_clock_local();
	if (!rp)
		return 0;
	tp = container_of(rp, struct tkp_kp, rp)->tp;
	/* The return of a call our recording made is not to be recorded. */
	if (unlikely(!kprobe_ftrace(&rp->kp) && tkp_recording_below())) {
		raw_cpu_inc(tp->stat->miss);
		return 1;
	}
	if (!tp->entry_size)
		return 0;
	/* Fetching may reach probes, as recording does; no return hook. */
	bit = tkp_kprobe_lock(&rp->kp, &release);
	if (bit < 0) {
		raw_cpu_inc(tp->stat->miss);
		return 1;
	}
	tkp_entry_capture(tp, regs, ri->data + sizeof(u64));
	if (release)
		tkp_recursion_unlock(bit);
	return 0;
}
NOKPROBE_SYMBOL(tkp_return_entry);

static int tkp_return_hit(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	const u8 *outer_data;
	u64 outer;

	if (unlikely(!rp))
		return 0;
	if (rp->entry_handler) {
		outer = __this_cpu_read(tkp_entry_ns);
		outer_data = __this_cpu_read(tkp_entry_data);
		__this_cpu_write(tkp_entry_ns, *(u64 *)ri->data);
		__this_cpu_write(tkp_entry_data, ri->data + sizeof(u64));
		tkp_emit_locked(container_of(rp, struct tkp_kp, rp)->tp,
				  regs, (unsigned long)rp->kp.addr,
				  get_kretprobe_retaddr(ri));
		__this_cpu_write(tkp_entry_ns, outer);
		__this_cpu_write(tkp_entry_data, outer_data);
		return 0;
	}
	tkp_emit_locked(container_of(rp, struct tkp_kp, rp)->tp, regs,
			  (unsigned long)rp->kp.addr, get_kretprobe_retaddr(ri));
	return 0;
}
NOKPROBE_SYMBOL(tkp_return_hit);

/*
 * fentry places.  All of them share one ftrace_ops whose filter holds the
 * functions with an armed place; its callback finds the site by address.
 */
#define TKP_SITE_BITS	10
static DEFINE_HASHTABLE(tkp_sites, TKP_SITE_BITS);

static nokprobe_inline struct tkp_site *tkp_site_find(unsigned long ip)
{
	struct tkp_site *site;

	hash_for_each_possible_rcu_notrace(tkp_sites, site, hnode, ip)
		if (site->ip == ip)
			return site;
	return NULL;
}

/* How many instances out make the pool grow. */
static nokprobe_inline unsigned int tkp_pool_threshold(struct tkp_pool *pool)
{
	unsigned int size = READ_ONCE(pool->size);

	return size < TKP_POOL_MAX ? size / 4 * 3 : UINT_MAX;
}

/*
 * Returns were missed since the pool last had an instance: say how many,
 * in the trace, as soon as it has one again.
 */
static void tkp_pool_tell(struct tkp_probe *tp, struct tkp_pool *pool,
			  unsigned long func)
{
	struct trace_event_file *file;
	struct tkp_files *files;
	unsigned int i;
	int n, len;

	/*
	 * Told in the trace instances the event records to; perf and BPF
	 * users have the count of misses, and nobody else is told.
	 */
	n = atomic_xchg(&pool->lost, 0);
	if (n <= 0)
		return;
	files = rcu_dereference_sched(tp->ev->files);
	if (!files)
		return;
	/* Another CPU is telling: this count waits for the next one. */
	if (atomic_xchg(&pool->telling, 1)) {
		atomic_add(n, &pool->lost);
		return;
	}
	len = scnprintf(pool->note, sizeof(pool->note),
			"%s/%s: %d returns of %ps missed (no free instance)\n",
			tp->ev->class.system, tp->ev->call.name, n,
			(void *)func);
	for (i = 0; i < files->nr; i++) {
		file = READ_ONCE(files->file[i]);
		if (file)
			__trace_array_puts(file->tr, func, pool->note, len);
	}
	atomic_set_release(&pool->telling, 0);
}
NOKPROBE_SYMBOL(tkp_pool_tell);

/*
 * The pool is three quarters in use, or returns were missed: tell of
 * those, and have it grow.
 */
static noinline void tkp_pool_low(struct tkp_probe *tp, struct tkp_pool *pool,
				  unsigned long func)
{
	if (atomic_read(&pool->lost)) {
		tkp_pool_tell(tp, pool, func);
		WRITE_ONCE(pool->grow_at, tkp_pool_threshold(pool));
	}
	irq_work_queue(&pool->irq);
}
NOKPROBE_SYMBOL(tkp_pool_low);

/*
 * A return probe's entry half: take an instance and hook the return.  An
 * empty pool is a miss; a pool three quarters in use asks for more.
 */
static nokprobe_inline void tkp_pool_hook(struct tkp_probe *tp,
					  struct pt_regs *regs,
					  unsigned long func)
{
	struct tkp_pool *pool = tp->pool;
	struct freelist_node *fn;
	struct rethook_node *node;
	struct tkp_rnode *rn;

	/*
	 * rethook_try_get() less its checks for a rethook being freed (a
	 * pool goes only a grace period after its place was disarmed) and
	 * for RCU watching (it does in ftrace callbacks).
	 */
	fn = freelist_try_get(&pool->rh->pool);
	node = fn ? container_of(fn, struct rethook_node, freelist) : NULL;
	if (unlikely(!node)) {
		raw_cpu_inc(tp->stat->miss);
		atomic_inc(&pool->lost);
		/* The next entry takes the slow way, and tells. */
		WRITE_ONCE(pool->grow_at, 0);
		irq_work_queue(&pool->irq);
		return;
	}
	container_of(node, struct tkp_rnode, node)->func = func;
	if (unlikely(pool->ctx)) {
		rn = container_of(node, struct tkp_rnode, node);
		if (tp->entry_size)
			tkp_entry_capture(tp, regs, rn->data);
		if (pool->duration)
			rn->entry_ns = trace_clock_local();
	}
	rethook_hook(node, regs, true);
	if (unlikely(atomic_inc_return(&pool->busy) > READ_ONCE(pool->grow_at)))
		tkp_pool_low(tp, pool, func);
}

/*
 * Does @tp need every register (pt_regs as a kprobe gives it)?  Its
 * arguments may say so, and so does perf/BPF, whose programs may read any
 * register or move the instruction pointer (bpf_override_return).
 */
static nokprobe_inline bool tkp_needs_full(const struct tkp_probe *tp)
{
	/* A return is recorded from the rethook's registers, all of them. */
	return !tp->ev->is_return &&
	       (tp->full_regs || READ_ONCE(tp->ev->perf_on));
}

/*
 * The ftrace callback of both our ftrace_ops: @full says whether @regs
 * has every register or only those ftrace saves for any callback.  While
 * a site moves from one ops to the other both call here for a moment;
 * the one the site is not served by yet, or any more, stands aside.
 */
/* tkp_fentry_common()'s recursion bit before it first needs one. */
#define TKP_BIT_UNTRIED	(-2)

static nokprobe_inline void __tkp_fentry_common(unsigned long ip,
						struct pt_regs *regs,
						bool full, int held)
{
	bool idle = held != TKP_BIT_UNTRIED;	/* tkp_fentry_idle() */
	struct tkp_site *site;
	struct tkp_probe *tp;
	struct tkp_hook *hk;
	unsigned long saved;
	int bit = held;

	/*
	 * Hooking a return records nothing and calls nothing traced: only
	 * an entry probe, or a return probe that takes arguments at the
	 * entry, needs the recursion bit, taken when first needed.  A
	 * return hooked from inside a recording is refused when it comes.
	 */
	preempt_disable_notrace();
	site = tkp_site_find(ip);
	if (!site || !regs || READ_ONCE(site->full) != full)
		goto out;
	/*
	 * perf and BPF (only ever served with all registers) see them as a
	 * kprobe on this function would show them: just past the int3.
	 */
	if (full) {
		saved = instruction_pointer(regs);
		instruction_pointer_set(regs, ip + INT3_INSN_SIZE);
	}
	list_for_each_entry_rcu(hk, &site->probes, site_link) {
		tp = hk->tp;
		if (idle && tp->ev->is_return) {
			raw_cpu_inc(tp->stat->miss);
			continue;
		}
		if (tp->ev->is_return && likely(!tp->entry_size)) {
			tkp_pool_hook(tp, regs, hk->ip);
			continue;
		}
		if (!full && unlikely(tkp_needs_full(tp)))
			continue;	/* until its site moves to all regs */
		if (bit == TKP_BIT_UNTRIED)
			bit = tkp_recursion_lock();
		if (unlikely(bit < 0)) {
			raw_cpu_inc(tp->stat->miss);
			continue;
		}
		if (tp->ev->is_return) {
			tkp_pool_hook(tp, regs, hk->ip);
			continue;
		}
		if (tkp_emit(tp, regs, hk->ip, 0, bit - TRACE_FTRACE_START)) {
			saved = instruction_pointer(regs);	/* BPF's */
			break;
		}
	}
	if (full)
		instruction_pointer_set(regs, saved);
	if (bit >= 0 && !idle)
		tkp_recursion_unlock(bit);
out:
	preempt_enable_notrace();
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
static noinline void tkp_fentry_idle(unsigned long ip, struct pt_regs *regs,
				     bool full)
{
	int bit = tkp_recursion_lock();
	unsigned long flags;
	bool lockdep_on;

	if (bit < 0)
		return;
	raw_local_irq_save(flags);
	lockdep_on = lockdep_hardirqs_enabled();
	lockdep_hardirqs_off(CALLER_ADDR0);
	ct_nmi_enter();
	__tkp_fentry_common(ip, regs, full, bit);
	if (lockdep_on)
		lockdep_hardirqs_on_prepare();
	ct_nmi_exit();
	if (lockdep_on)
		lockdep_hardirqs_on(CALLER_ADDR0);
	raw_local_irq_restore(flags);
	tkp_recursion_unlock(bit);
}
NOKPROBE_SYMBOL(tkp_fentry_idle);

static nokprobe_inline void tkp_fentry_common(unsigned long ip,
					      unsigned long parent_ip,
					      struct pt_regs *regs, bool full)
{
	/* Only the idle task pays for the question. */
	if (unlikely(is_idle_task(current)) && !rcu_is_watching())
		tkp_fentry_idle(ip, regs, full);
	else
		__tkp_fentry_common(ip, regs, full, TKP_BIT_UNTRIED);
}

static void tkp_fentry_hit(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	tkp_fentry_common(ip, parent_ip, ftrace_get_regs(fregs), true);
}
NOKPROBE_SYMBOL(tkp_fentry_hit);

#if defined(CONFIG_X86_64) && defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS)
/*
 * Without SAVE_REGS ftrace still saves the registers that pass arguments,
 * ax, bp, ip and sp, in place in a struct pt_regs; the rest of it is not
 * to be read (tkp_arg_partial_ok()).  Saving less costs less per hit.
 */
static void tkp_fentry_hit_args(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *ops,
				struct ftrace_regs *fregs)
{
	tkp_fentry_common(ip, parent_ip, &fregs->regs, false);
}
NOKPROBE_SYMBOL(tkp_fentry_hit_args);
#define TKP_HAVE_ARGS_OPS	1
#else
#define TKP_HAVE_ARGS_OPS	0
#endif

/*
 * tkp_fentry_ret() for a return that uses what its entry took ($duration,
 * $argN): that is made visible to the fetch while it records.  Apart,
 * so that the usual return keeps nothing across its recording.
 */
static noinline void tkp_fentry_ret_ctx(struct tkp_pool *pool,
					struct tkp_rnode *rn,
					struct pt_regs *regs)
{
	u64 outer = __this_cpu_read(tkp_entry_ns);
	const u8 *outer_data = __this_cpu_read(tkp_entry_data);

	__this_cpu_write(tkp_entry_ns, rn->entry_ns);
	__this_cpu_write(tkp_entry_data, rn->data);
	tkp_emit_locked(pool->tp, regs, rn->func, rn->node.ret_addr);
	__this_cpu_write(tkp_entry_ns, outer);
	__this_cpu_write(tkp_entry_data, outer_data);
}
NOKPROBE_SYMBOL(tkp_fentry_ret_ctx);

static void tkp_fentry_ret(struct rethook_node *node, void *data,
			   struct pt_regs *regs)
{
	struct tkp_rnode *rn = container_of(node, struct tkp_rnode, node);
	struct tkp_pool *pool = data;

	atomic_dec(&pool->busy);
	if (unlikely(pool->ctx))
		tkp_fentry_ret_ctx(pool, rn, regs);
	else
		tkp_emit_locked(pool->tp, regs, rn->func, node->ret_addr);
}
NOKPROBE_SYMBOL(tkp_fentry_ret);

/* Our two ftrace_ops: [0] with only argument registers, [1] with all. */
struct tkp_fops {
	struct ftrace_ops	ops;
	unsigned int		nr;	/* sites in its filter */
	bool			on;	/* registered with ftrace */
};

static struct tkp_fops tkp_fops[2] = {
#if TKP_HAVE_ARGS_OPS
	{ .ops = {
		.func	= tkp_fentry_hit_args,
	} },
#else
	{ },
#endif
	{ .ops = {
		.func	= tkp_fentry_hit,
		.flags	= FTRACE_OPS_FL_SAVE_REGS,
	} },
};

/* ---------------------------------------------------------------------
 * The trace event: fields, text output, enable/disable.
 */

static int tkp_ulong_field(struct trace_event_call *call, const char *name,
			   int offset)
{
	return trace_define_field(call, "unsigned long", name, offset,
				  sizeof(unsigned long), 0, FILTER_OTHER);
}

static int tkp_define_fields(struct trace_event_call *call)
{
	struct tkp_event *ev = call->data;
	const struct tkp_arg *a;
	unsigned int size;
	int i, ret;

	if (ev->is_return)
		ret = tkp_ulong_field(call, "__probe_func",
				      offsetof(struct tkp_return_rec, func)) ?:
		      tkp_ulong_field(call, "__probe_ret_ip",
				      offsetof(struct tkp_return_rec, ret_ip));
	else
		ret = tkp_ulong_field(call, "__probe_ip",
				      offsetof(struct tkp_entry_rec, ip));
	if (!ret && ev->fault_off >= 0)
		ret = trace_define_field(call, "u64", "__probe_faults",
					 ev->fault_off, sizeof(u64), 0,
					 FILTER_OTHER);
	for (i = 0; i < ev->nargs && !ret; i++) {
		a = &ev->args[i];
		size = a->kind == TKP_K_STRING ? sizeof(u32) :
						 a->size * (a->count ?: 1);
		ret = trace_define_field(call, a->ftype, a->name, a->offset,
					 size, a->kind == TKP_K_S,
					 FILTER_OTHER);
	}
	return ret;
}

static struct trace_event_fields tkp_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = tkp_define_fields },
	{}
};

static void tkp_print_value(struct trace_seq *s, const struct tkp_arg *a,
			    const u8 *p)
{
	u64 v = tkp_get(p, a->size);

	switch (a->kind) {
	case TKP_K_S:
		/* Sign-extend from the field's width. */
		trace_seq_printf(s, "%lld",
				 (s64)(v << (64 - 8 * a->size)) >>
				 (64 - 8 * a->size));
		break;
	case TKP_K_X:
		trace_seq_printf(s, "0x%llx", v);
		break;
	case TKP_K_SYMBOL:
		trace_seq_printf(s, "%pS", (void *)(unsigned long)v);
		break;
	default:
		trace_seq_printf(s, "%llu", v);
	}
}

static void tkp_print_args(struct trace_seq *s, const struct tkp_event *ev,
			   const u8 *rec)
{
	u64 faults = ev->fault_off >= 0 ? *(u64 *)(rec + ev->fault_off) : 0;
	const struct tkp_arg *a;
	u32 loc;
	int i, j;

	for (i = 0; i < ev->nargs; i++) {
		a = &ev->args[i];
		trace_seq_printf(s, " %s=", a->name);
		if (a->kind == TKP_K_STRING) {
			loc = *(u32 *)(rec + a->offset);
			if (loc >> 16)
				trace_seq_printf(s, "\"%s\"",
						 (const char *)rec + (loc & 0xffff));
			else
				trace_seq_puts(s, "(fault)");
		} else if (a->fault_bit != 0xff &&
			   (faults & BIT_ULL(a->fault_bit))) {
			trace_seq_puts(s, "(fault)");
		} else if (!a->count) {
			tkp_print_value(s, a, rec + a->offset);
		} else {
			trace_seq_putc(s, '{');
			for (j = 0; j < a->count; j++) {
				if (j)
					trace_seq_putc(s, ',');
				tkp_print_value(s, a,
						rec + a->offset + j * a->size);
			}
			trace_seq_putc(s, '}');
		}
	}
}

static enum print_line_t tkp_print(struct trace_iterator *iter, int flags,
				   struct trace_event *event)
{
	struct trace_event_call *call =
		container_of(event, struct trace_event_call, event);
	struct tkp_event *ev = call->data;
	struct trace_seq *s = &iter->seq;

	trace_seq_printf(s, "%s: (", trace_event_name(call));
	if (ev->is_return) {
		struct tkp_return_rec *rec = (struct tkp_return_rec *)iter->ent;

		seq_print_ip_sym(s, rec->ret_ip, flags | TRACE_ITER_SYM_OFFSET);
		trace_seq_puts(s, " <- ");
		seq_print_ip_sym(s, rec->func, flags & ~TRACE_ITER_SYM_OFFSET);
	} else {
		struct tkp_entry_rec *rec = (struct tkp_entry_rec *)iter->ent;

		seq_print_ip_sym(s, rec->ip, flags | TRACE_ITER_SYM_OFFSET);
	}
	trace_seq_putc(s, ')');
	tkp_print_args(s, ev, (const u8 *)iter->ent);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static struct trace_event_functions tkp_event_funcs = {
	.trace		= tkp_print,
};

/* ---------------------------------------------------------------------
 * fentry places: arming, ftrace's filter, pools of return instances.
 * All under event_mutex.
 */

static LIST_HEAD(tkp_dirty_sites);
static struct task_struct *tkp_sync_task;	/* has tkp_sync_cb queued */

static void tkp_site_dirty(struct tkp_site *site)
{
	if (list_empty(&site->dirty))
		list_add_tail(&site->dirty, &tkp_dirty_sites);
}

static bool tkp_armed(const struct tkp_probe *tp)
{
	return tp->armed;
}

/*
 * Take @hk off its site's list.  A handler may be on it still, and go on
 * from it to the next: the hook may be linked again only after a grace
 * period (tkp_site_arm() waits for it, if it has not passed by then).
 */
static void tkp_hook_unlink(struct tkp_probe *tp, struct tkp_hook *hk)
{
	list_del_rcu(&hk->site_link);
	tkp_site_dirty(hk->site);
	hk->site = NULL;
	tp->unlinked = true;
	tp->unlink_gp = get_state_synchronize_rcu();
}

static void tkp_site_disarm(struct tkp_probe *tp)
{
	unsigned int i;

	for (i = 0; i < tp->nr_hooks; i++)
		if (tp->hooks[i].site)
			tkp_hook_unlink(tp, &tp->hooks[i]);
	tp->armed = false;
}

static int tkp_site_arm(struct tkp_probe *tp)
{
	struct tkp_site *site;
	struct tkp_hook *hk;
	unsigned int i;

	if (tp->unlinked)
		cond_synchronize_rcu(tp->unlink_gp);
	tp->unlinked = false;
	for (i = 0; i < tp->nr_hooks; i++) {
		hk = &tp->hooks[i];
		if (!hk->addr)
			continue;	/* its module went */
		site = tkp_site_find(hk->addr);
		if (!site) {
			site = kzalloc(sizeof(*site), GFP_KERNEL);
			if (!site) {
				tkp_site_disarm(tp);
				return -ENOMEM;
			}
			site->ip = hk->addr;
			INIT_LIST_HEAD(&site->probes);
			INIT_LIST_HEAD(&site->dirty);
			hash_add_rcu(tkp_sites, &site->hnode, site->ip);
		}
		list_add_tail_rcu(&hk->site_link, &site->probes);
		hk->site = site;
		tkp_site_dirty(site);
	}
	tp->armed = true;
	return 0;
}

/* Is @site wanted at all, and by which ops (the index in tkp_fops)? */
static int tkp_site_want(struct tkp_site *site)
{
	struct tkp_hook *hk;
	int want = -1;

	list_for_each_entry(hk, &site->probes, site_link) {
		if (tkp_needs_full(hk->tp) || !TKP_HAVE_ARGS_OPS)
			return 1;
		want = 0;
	}
	return want;
}

/*
 * Is @site to leave tkp_fops[@i]'s filter now: in it, not wanted there,
 * and not served by it (a site moving to the other ops switched already).
 */
static bool tkp_site_leaves(struct tkp_site *site, int i)
{
	int want = tkp_site_want(site);

	return site->in[i] && want != i && (want < 0 || site->full != i);
}

static int tkp_filter_add(struct tkp_fops *f, unsigned long *ips,
			  unsigned int nr)
{
	int ret = ftrace_set_filter_ips(&f->ops, ips, nr, 0, 0);

	if (!ret && !f->on) {
		ret = register_ftrace_function(&f->ops);
		if (ret)
			ftrace_set_filter_ips(&f->ops, ips, nr, 1, 0);
		else
			f->on = true;
	}
	if (!ret)
		f->nr += nr;
	return ret;
}

static int tkp_filter_del(struct tkp_fops *f, unsigned long *ips,
			  unsigned int nr)
{
	int ret;

	if (nr == f->nr && f->on) {
		/* An empty filter would mean every function: stop first. */
		if (unregister_ftrace_function(&f->ops))
			return -EBUSY;
		f->on = false;
	}
	ret = ftrace_set_filter_ips(&f->ops, ips, nr, 1, 0);
	/* ftrace forgets the functions of a module that went (-ENOENT). */
	if (!ret || (ret == -ENOENT && nr == 1))
		f->nr -= nr;
	return ret == -ENOENT && nr == 1 ? 0 : ret;
}

/*
 * Bring our ops' filters in line with the armed sites: one ftrace update
 * (a walk over every function of the kernel) per ops for all additions,
 * and one for all removals.  A site that changes ops is added to the new
 * one before it leaves the old, and switches in between, so that it is
 * served all along, once.  What fails stays on the dirty list.
 */
static int tkp_fentry_sync(void)
{
	struct tkp_site *site, *n;
	unsigned int nr = 0, cnt;
	unsigned long *ips;
	int i, want, ret, err = 0;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(site, &tkp_dirty_sites, dirty)
		nr++;
	if (!nr)
		return 0;
	ips = kmalloc_array(nr, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;

	for (i = 0; i < 2; i++) {
		cnt = 0;
		list_for_each_entry(site, &tkp_dirty_sites, dirty)
			if (tkp_site_want(site) == i && !site->in[i])
				ips[cnt++] = site->ip;
		if (!cnt)
			continue;
		ret = tkp_filter_add(&tkp_fops[i], ips, cnt);
		list_for_each_entry(site, &tkp_dirty_sites, dirty) {
			if (tkp_site_want(site) != i || site->in[i])
				continue;
			/*
			 * One at a time if the batch failed: a site that cannot
			 * be hooked is not to keep the others unhooked.
			 */
			if (ret && tkp_filter_add(&tkp_fops[i], &site->ip, 1)) {
				err = err ?: ret;
				continue;
			}
			site->in[i] = true;
		}
	}

	list_for_each_entry(site, &tkp_dirty_sites, dirty) {
		want = tkp_site_want(site);
		if (want >= 0 && site->in[want])
			WRITE_ONCE(site->full, want);
	}

	for (i = 0; i < 2; i++) {
		cnt = 0;
		list_for_each_entry(site, &tkp_dirty_sites, dirty)
			if (tkp_site_leaves(site, i))
				ips[cnt++] = site->ip;
		if (!cnt)
			continue;
		ret = tkp_filter_del(&tkp_fops[i], ips, cnt);
		list_for_each_entry(site, &tkp_dirty_sites, dirty) {
			if (!tkp_site_leaves(site, i))
				continue;
			/* One at a time if the batch failed. */
			if (ret && tkp_filter_del(&tkp_fops[i], &site->ip, 1))
				continue;
			site->in[i] = false;
		}
	}
	kfree(ips);

	list_for_each_entry_safe(site, n, &tkp_dirty_sites, dirty) {
		want = tkp_site_want(site);
		if (site->in[0] != !want || site->in[1] != (want > 0))
			continue;
		list_del_init(&site->dirty);
		if (want < 0) {
			hash_del_rcu(&site->hnode);
			kfree_rcu(site, rcu);
		}
	}
	return err;
}

/*
 * A deferred update could not hook some functions: their events are
 * enabled, and do not fire.  Say so where the writer looks, error_log,
 * naming one of them; the sites stay dirty, tried again by every update.
 */
static void tkp_tell_unarmed(int err)
{
	struct tkp_site *site;
	struct tkp_hook *hk;
	char *cmd = NULL;
	int want;

	list_for_each_entry(site, &tkp_dirty_sites, dirty) {
		want = tkp_site_want(site);
		if (want < 0 || site->in[want])
			continue;
		hk = list_first_entry(&site->probes, struct tkp_hook, site_link);
		cmd = kasprintf(GFP_KERNEL, "%s/%s",
				hk->tp->ev->class.system, hk->tp->ev->call.name);
		break;
	}
	pr_warn("enabled events left unarmed: cannot hook their functions (%d)\n",
		err);
	if (!cmd)
		return;
	tracing_log_err(NULL, "trace_kprobe", cmd, tkp_err_text,
			TKP_ERR_UNARMED, 0);
	kfree(cmd);
}

static void tkp_sync_cb(struct callback_head *cb)
{
	int ret;

	kfree(cb);
	mutex_lock(&event_mutex);
	if (tkp_sync_task == current)
		tkp_sync_task = NULL;
	ret = tkp_fentry_sync();
	if (ret)
		tkp_tell_unarmed(ret);
	mutex_unlock(&event_mutex);
}

/*
 * May the ftrace update wait for the caller's return to user space?  Only
 * when the caller is a write to a tracefs file (an events' enable file,
 * set_event, kprobe_events): the writer cannot see the result before the
 * write returns, and a write that enables a whole group of events pays
 * for one update.  Any other caller gets its update at once, and its
 * errno: kernel code (a module's init, bootconfig, a driver's own file)
 * calls a function next and expects it traced, perf and BPF attach one
 * event per call anyway.
 */
static bool tkp_may_defer(void)
{
	unsigned long args[6];
	struct pt_regs *regs;
	bool ret = false;
	struct fd f;

	if (system_state != SYSTEM_RUNNING || !current->mm ||
	    (current->flags & (PF_KTHREAD | PF_IO_WORKER | PF_EXITING)) ||
	    in_compat_syscall())
		return false;
	regs = task_pt_regs(current);
	switch (syscall_get_nr(current, regs)) {
	case __NR_write:
	case __NR_writev:
	case __NR_pwrite64:
	case __NR_pwritev:
	case __NR_pwritev2:
		break;
	default:
		return false;
	}
	syscall_get_arguments(current, regs, args);
	f = fdget(args[0]);
	if (f.file)
		ret = file_inode(f.file)->i_sb->s_magic == TRACEFS_MAGIC;
	fdput(f);
	return ret;
}

/*
 * Apply the arming and disarming done so far.  An ftrace update costs a
 * walk over every function of the kernel, so the changes one write to
 * tracefs makes (enabling a whole group of events, say) are applied
 * together, as the writer returns to user space: before it can see the
 * write's result.  A failure then is told in error_log.  Other callers
 * get them at once.  Returns 0, or the error of an update made now.
 */
static int tkp_fentry_commit(void)
{
	struct callback_head *cb;

	lockdep_assert_held(&event_mutex);
	if (list_empty(&tkp_dirty_sites) || tkp_sync_task == current)
		return 0;
	if (tkp_may_defer()) {
		cb = kmalloc(sizeof(*cb), GFP_KERNEL);
		if (cb) {
			init_task_work(cb, tkp_sync_cb);
			if (!task_work_add(current, cb, TWA_RESUME)) {
				tkp_sync_task = current;
				return 0;
			}
			kfree(cb);
		}
	}
	return tkp_fentry_sync();
}


static void tkp_pool_grow(struct work_struct *work)
{
	struct tkp_pool *pool = container_of(work, struct tkp_pool, grow);
	unsigned int i, n = min(pool->size * 3, TKP_POOL_MAX - pool->size);
	struct tkp_rnode *rn;

	for (i = 0; i < n; i++) {
		rn = kzalloc(pool->node_size, GFP_KERNEL);
		if (!rn)
			break;
		rethook_add_node(pool->rh, &rn->node);
	}
	WRITE_ONCE(pool->size, pool->size + i);
	/* Missed returns not told yet keep the entries on the slow way. */
	WRITE_ONCE(pool->grow_at, atomic_read(&pool->lost) ? 0 :
				  tkp_pool_threshold(pool));
}

static void tkp_pool_irq(struct irq_work *irq)
{
	schedule_work(&container_of(irq, struct tkp_pool, irq)->grow);
}

static struct tkp_pool *tkp_pool_alloc(struct tkp_probe *tp, unsigned int nr)
{
	struct tkp_pool *pool;
	struct tkp_rnode *rn;
	unsigned int i;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	pool->rh = rethook_alloc(pool, tkp_fentry_ret);
	if (!pool->rh) {
		kfree(pool);
		return NULL;
	}
	pool->tp = tp;
	pool->duration = tp->duration;
	pool->ctx = tp->duration || tp->entry_size;
	pool->node_size = sizeof(*rn) + tp->entry_size;
	init_irq_work(&pool->irq, tkp_pool_irq);
	INIT_WORK(&pool->grow, tkp_pool_grow);
	for (i = 0; i < nr; i++) {
		rn = kzalloc(pool->node_size, GFP_KERNEL);
		if (!rn) {
			rethook_free(pool->rh);
			kfree(pool);
			return NULL;
		}
		rethook_add_node(pool->rh, &rn->node);
	}
	pool->size = nr;
	pool->grow_at = tkp_pool_threshold(pool);
	return pool;
}

/*
 * No entry hook may run any more (disarmed, and a grace period since).
 * Instances still out come back to a rethook without a handler and are
 * freed; a return handler still running is done after a grace period.
 */
static void tkp_pool_free(struct tkp_pool *pool)
{
	if (!pool)
		return;
	irq_work_sync(&pool->irq);
	cancel_work_sync(&pool->grow);
	rethook_free(pool->rh);
	kfree_rcu(pool, rcu);
}

/* Is @sym ("SYM" or "MOD:SYM") a pattern: a glob over functions? */
static bool tkp_is_pattern(const char *sym)
{
	return sym && strpbrk(sym, "*?[");
}

/*
 * The ftrace site a kprobe on @base + @offset would be placed at, or 0 if
 * that is not an ftrace site.  The kprobes core moves a probe on a
 * function's first byte past its landing pad (endbr64 with IBT, BTI on
 * arm64), to where ftrace's call is: so does this.
 */
static unsigned long tkp_site_of(unsigned long base, long offset)
{
	unsigned long site;
	bool entry;

	if (!base || offset < 0)
		return 0;
	site = (unsigned long)arch_adjust_kprobe_addr(base, offset, &entry);
	return site && ftrace_location(site) == site ? site : 0;
}

/*
 * What a record says was probed at ftrace site @site of a pattern's
 * function: the function, when the site is where "p FUNC" would hook.
 */
static unsigned long tkp_entry_of_site(unsigned long site)
{
	unsigned long size, off;

	if (kallsyms_lookup_size_offset(site, &size, &off) && off &&
	    tkp_site_of(site - off, 0) == site)
		return site - off;
	return site;
}

/*
 * Is @addr in module code on its way out: a module going, or its init
 * code once it is live (our notifier may be done with them, ftrace still
 * knows them for a while)?  The kprobes core refuses those too.
 */
static bool tkp_in_going_module(unsigned long addr)
{
	struct module *mod;
	bool going;

	preempt_disable();
	mod = __module_text_address(addr);
	going = mod && (mod->state == MODULE_STATE_GOING ||
			(mod->state != MODULE_STATE_COMING &&
			 within_module_init(addr, mod)));
	preempt_enable();
	return going;
}

/*
 * A pattern's functions: those ftrace can hook whose names match (ftrace
 * matches the glob, so notrace and inlined-away functions are not among
 * them), less the ones kprobes refuse.  One hook each, at most
 * TKP_WILD_MAX.  Returns 0, or -ENOENT when none is left.
 */
#define TKP_WILD_MAX	4096

static int tkp_wild_register(struct tkp_probe *tp)
{
	const char *colon = strchr(tp->symbol, ':');
	unsigned int i, n = 0, skipped = 0;
	struct ftrace_func_entry *e;
	struct tkp_hook *hooks = NULL;
	struct ftrace_hash *hash;
	struct ftrace_ops *ops;
	char *glob;
	int ret;

	/* ftrace spells "MOD:PATTERN" as "PATTERN:mod:MOD". */
	if (colon)
		glob = kasprintf(GFP_KERNEL, "%s:mod:%.*s", colon + 1,
				 (int)(colon - tp->symbol), tp->symbol);
	else
		glob = kstrdup(tp->symbol, GFP_KERNEL);
	ops = kzalloc(sizeof(*ops), GFP_KERNEL);
	ret = -ENOMEM;
	if (!glob || !ops)
		goto out;
	ret = ftrace_set_filter(ops, glob, strlen(glob), 1);
	if (ret) {
		ret = ret == -ENOMEM ? ret : -ENOENT;
		goto out;
	}
	/* A private ops nobody else sees, never registered. */
	hash = rcu_dereference_protected(ops->func_hash->filter_hash, true);
	ret = -E2BIG;
	if (!hash || hash->count > TKP_WILD_MAX)
		goto out_free;
	ret = -ENOMEM;
	hooks = kcalloc(hash->count, sizeof(*hooks), GFP_KERNEL);
	if (!hooks)
		goto out_free;
	for (i = 0; i < BIT(hash->size_bits); i++) {
		hlist_for_each_entry(e, &hash->buckets[i], hlist) {
			if (within_kprobe_blacklist(e->ip) ||
			    tkp_in_going_module(e->ip)) {
				skipped++;
				continue;
			}
			hooks[n].tp = tp;
			hooks[n].ip = tkp_entry_of_site(e->ip);
			hooks[n++].addr = e->ip;
		}
	}
	ret = -ENOENT;
	if (!n)
		goto out_free;
	if (tp->ev->is_return && !tp->pool) {
		tp->pool = tkp_pool_alloc(tp, tp->maxactive ?: TKP_POOL_DEFAULT);
		ret = -ENOMEM;
		if (!tp->pool)
			goto out_free;
	}
	tp->skipped = skipped;
	if (tp->hooks != &tp->hook1)
		kfree(tp->hooks);
	tp->hooks = hooks;
	tp->nr_hooks = n;
	tp->addr = hooks[0].addr;
	tp->fentry = true;
	tp->registered = true;
	hooks = NULL;
	ret = 0;
out_free:
	ftrace_free_filter(ops);
out:
	kfree(hooks);
	kfree(ops);
	kfree(glob);
	return ret;
}

/*
 * Put @tp on ftrace if its place is the entry of a function ftrace can
 * patch and kprobes would accept.  Returns 0 when it did, 1 when @tp
 * needs a kprobe instead, or an error.  perf's private probes go there
 * too: BPF gets the registers a kprobe would give (tkp_fentry_common()),
 * may move the instruction pointer, and bpf_get_func_ip() asks
 * trace_kprobe_func_ip() when no kprobe is running.
 */
static int tkp_fentry_register(struct tkp_probe *tp)
{
	unsigned long ip = tp->place, addr;

	if (tkp_is_pattern(tp->symbol))
		return tkp_wild_register(tp);
	if (!ip && tp->symbol) {
		ip = kallsyms_lookup_name(tp->symbol);
		addr = tkp_site_of(ip, tp->offset);
		ip += tp->offset;
	} else {
		addr = tkp_site_of(ip, 0);
	}
	if (!addr || within_kprobe_blacklist(addr))
		return 1;
	/*
	 * A module going away: our notifier may have cleaned its places
	 * already, ftrace still knows its functions.  As kprobes do, refuse.
	 */
	if (tkp_in_going_module(addr))
		return -ENOENT;
	/*
	 * perf's private probes are not on the dynamic event list, which
	 * the module notifier walks to unhook a module's places: in a
	 * module they stay kprobes, which the kprobes core marks gone.
	 */
	if (tp->ev->local && !core_kernel_text(addr))
		return 1;
	if (tp->ev->is_return && !tp->pool) {
		tp->pool = tkp_pool_alloc(tp, tp->maxactive ?: TKP_POOL_DEFAULT);
		if (!tp->pool)
			return -ENOMEM;
	}
	if (tp->hooks != &tp->hook1)
		kfree(tp->hooks);
	tp->hook1.tp = tp;
	tp->hook1.addr = addr;
	tp->hook1.ip = ip;
	tp->hooks = &tp->hook1;
	tp->nr_hooks = 1;
	tp->addr = addr;
	tp->fentry = true;
	tp->registered = true;
	return 0;
}

/* Disarm @tp's place, whichever kind; a place not live is left as it is. */
static void tkp_disarm_place(struct tkp_probe *tp)
{
	if (!tp->registered)
		return;
	if (tp->fentry)
		tkp_site_disarm(tp);
	else if (!kprobe_gone(&tp->kp->rp.kp))
		disable_kprobe(&tp->kp->rp.kp);
}

/*
 * Arm the places when the event gets its first user, disarm them after
 * the last.  Callers hold event_mutex.
 */
static int tkp_arm(struct tkp_event *ev, bool on)
{
	struct tkp_probe *tp;
	int ret = 0;

	list_for_each_entry(tp, &ev->probes, sibling) {
		/*
		 * A place in a module not loaded now is armed on its load;
		 * one whose text is gone (module init code) stays off.
		 */
		if (!tp->registered)
			continue;
		if (!on)
			tkp_disarm_place(tp);
		else if (tp->fentry)
			ret = tkp_armed(tp) ? 0 : tkp_site_arm(tp);
		else if (!kprobe_gone(&tp->kp->rp.kp))
			ret = enable_kprobe(&tp->kp->rp.kp);
		if (ret)
			break;
	}
	if (!ret)
		ret = tkp_fentry_commit();
	if (ret && on) {
		/* Nothing of it stays armed, on ftrace or in a kprobe. */
		list_for_each_entry(tp, &ev->probes, sibling)
			tkp_disarm_place(tp);
		tkp_fentry_sync();
		/*
		 * On a site shared with another event its hooks may have run:
		 * the caller frees what they use (perf's per-CPU lists) next.
		 */
		synchronize_rcu();
	}
	if (on && !ret)
		ev->used = true;
	return ret;
}

/* The event lost its last user: remember when, see tkp_forget(). */
static void tkp_quiet(struct tkp_event *ev)
{
	if (!rcu_access_pointer(ev->files) && !ev->perf_on)
		ev->quiet_gp = get_state_synchronize_rcu();
}

static unsigned int tkp_files_live(const struct tkp_files *files)
{
	unsigned int i, n = 0;

	for (i = 0; files && i < files->nr; i++)
		n += !!files->file[i];
	return n;
}

/*
 * The hit path's shortcut: the event's only file, if it has exactly one
 * live file and no perf user.  Under event_mutex,
 * after every change of those; a file stays valid as long as in files.
 */
static void tkp_fast_update(struct tkp_event *ev)
{
	struct trace_event_file *fast = NULL;
	struct tkp_files *files;
	unsigned int i;

	files = rcu_dereference_protected(ev->files,
					  lockdep_is_held(&event_mutex));
	if (!ev->perf_on && tkp_files_live(files) == 1)
		for (i = 0; i < files->nr && !fast; i++)
			fast = files->file[i];
	rcu_assign_pointer(ev->fast, fast);
}

static int tkp_file_add(struct tkp_event *ev, struct trace_event_file *file)
{
	struct tkp_files *old, *new;
	unsigned int i, n;
	int ret;

	old = rcu_dereference_protected(ev->files,
					lockdep_is_held(&event_mutex));
	n = tkp_files_live(old);
	new = kmalloc(struct_size(new, file, n + 1), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	for (i = 0, n = 0; old && i < old->nr; i++)
		if (old->file[i])
			new->file[n++] = old->file[i];
	new->file[n] = file;
	new->nr = n + 1;

	if (!n && !ev->perf_on) {
		ret = tkp_arm(ev, true);
		if (ret) {
			kfree(new);
			return ret;
		}
	}
	rcu_assign_pointer(ev->files, new);
	tkp_fast_update(ev);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/*
 * The trace event core goes on whatever this returns, so removal cannot
 * fail: without memory for a smaller array the slot is emptied in place
 * (the hit path skips empty slots).  A handler may still be writing to
 * @file through the old array; the file outlives that because the core
 * waits for running probes before it frees the files of an instance.
 */
static int tkp_file_del(struct tkp_event *ev, struct trace_event_file *file)
{
	struct tkp_files *old, *new = NULL;
	unsigned int i, j;

	old = rcu_dereference_protected(ev->files,
					lockdep_is_held(&event_mutex));
	if (!old)
		return -ENOENT;
	for (i = 0; i < old->nr && old->file[i] != file; i++)
		;
	if (i == old->nr)
		return -ENOENT;

	if (tkp_files_live(old) == 1) {
		if (!ev->perf_on)
			tkp_arm(ev, false);
	} else {
		new = kmalloc(struct_size(new, file, old->nr - 1), GFP_KERNEL);
		if (!new) {
			WRITE_ONCE(old->file[i], NULL);
			tkp_fast_update(ev);
			return 0;
		}
		for (i = 0, j = 0; i < old->nr; i++)
			if (old->file[i] && old->file[i] != file)
				new->file[j++] = old->file[i];
		new->nr = j;
	}
	rcu_assign_pointer(ev->files, new);
	tkp_fast_update(ev);
	kfree_rcu(old, rcu);
	tkp_quiet(ev);
	return 0;
}

/* perf's first user arrives or its last leaves; under event_mutex. */
static int tkp_perf_attach(struct tkp_event *ev, bool on)
{
	struct tkp_probe *tp;
	unsigned int i;
	int ret = 0;

	/* Set first: it decides which ftrace_ops serves the places. */
	WRITE_ONCE(ev->perf_on, on);
	if (!rcu_access_pointer(ev->files)) {
		ret = tkp_arm(ev, on);
	} else {
		/* Armed already: its sites move to (or from) all registers. */
		list_for_each_entry(tp, &ev->probes, sibling)
			for (i = 0; tkp_armed(tp) && i < tp->nr_hooks; i++)
				if (tp->hooks[i].site)
					tkp_site_dirty(tp->hooks[i].site);
		ret = tkp_fentry_commit();
		if (ret && !on)
			ret = 0;	/* they stay where they are, served */
	}
	if (ret)
		WRITE_ONCE(ev->perf_on, false);
	tkp_fast_update(ev);
	if (!on)
		tkp_quiet(ev);
	return ret;
}

static int tkp_reg(struct trace_event_call *call, enum trace_reg type,
		   void *data)
{
	struct tkp_event *ev = call->data;

	if (type == TRACE_REG_REGISTER)
		return tkp_file_add(ev, data);
	if (type == TRACE_REG_UNREGISTER)
		return tkp_file_del(ev, data);
#ifdef CONFIG_PERF_EVENTS
	if (type == TRACE_REG_PERF_REGISTER ||
	    type == TRACE_REG_PERF_UNREGISTER)
		return tkp_perf_attach(ev, type == TRACE_REG_PERF_REGISTER);
#endif
	/* perf's open, close, add and del of an event need nothing here. */
	return 0;
}

/* ---------------------------------------------------------------------
 * Step 2: a probe built from a spec, not yet visible to anyone.
 */

static void tkp_free_probe(struct tkp_probe *tp)
{
	if (!tp)
		return;
	tkp_pool_free(tp->pool);
	tkp_free_args(tp->own_args, tp->nargs);
	kfree(tp->kp);
	if (tp->hooks != &tp->hook1)
		kfree(tp->hooks);
	free_percpu(tp->stat);
	kfree(tp->symbol);
	kfree(tp);
}

static void tkp_free_event(struct tkp_event *ev)
{
	if (!ev)
		return;
	tkp_free_args(ev->args, ev->nargs);
	kfree(ev->call.print_fmt);
	kfree(ev->call.name);
	kfree(ev->class.system);
	kfree(ev);
}

/*
 * "p_vfs_read_0", or for an address "p_0x" and the address hashed as %p
 * hashes it: every reader of the event's name (trace, kprobe_profile,
 * the events directory) sees it, and kptr_restrict may forbid them the
 * address.  Before the hash key is ready (early boot), the symbol and
 * offset of the address stand in for it.
 */
static char *tkp_auto_name(const struct tkp_spec *spec)
{
	char kind = spec->is_return ? 'r' : 'p';
	unsigned long hash;
	char *name, *c;

	if (spec->symbol[0])
		name = kasprintf(GFP_KERNEL, "%c_%s_%ld", kind, spec->symbol,
				 spec->offset);
	else if (!ptr_to_hashval((void *)spec->addr, &hash))
		name = kasprintf(GFP_KERNEL, "%c_0x%016lx", kind, hash);
	else
		name = kasprintf(GFP_KERNEL, "%c_%pS", kind,
				 (void *)spec->addr);
	if (!name)
		return NULL;
	/* "foo.isra.0" and negative offsets must still make a valid name. */
	for (c = name; *c; c++)
		if (!isalnum(*c) && *c != '_')
			*c = '_';
	if (strlen(name) >= MAX_EVENT_NAME_LEN)
		name[MAX_EVENT_NAME_LEN - 1] = '\0';
	return name;
}

/* The printf conversion of one element of @a in print_fmt. */
static const char *tkp_conv(const struct tkp_arg *a)
{
	bool wide = a->size == 8;

	switch (a->kind) {
	case TKP_K_S:
		return wide ? "%lld" : "%d";
	case TKP_K_X:
		return wide ? "0x%llx" : "0x%x";
	case TKP_K_SYMBOL:
		return "%pS";
	case TKP_K_STRING:
		return "\\\"%s\\\"";
	default:
		return wide ? "%llu" : "%u";
	}
}

/*
 * The "print fmt" of the format file, which perf and trace-cmd decode
 * records with.  Called twice: with @buf NULL to size it, then to fill.
 */
static int tkp_fmt(const struct tkp_event *ev, char *buf, int len)
{
	const struct tkp_arg *a;
	int pos = 0, i, j;

#define TKP_FMT(...)							\
	(pos += snprintf(buf ? buf + pos : NULL, buf ? len - pos : 0,	\
			 __VA_ARGS__))

	TKP_FMT("\"(%s)", ev->is_return ? "%lx <- %lx" : "%lx");
	for (i = 0; i < ev->nargs; i++) {
		a = &ev->args[i];
		TKP_FMT(" %s=", a->name);
		if (!a->count) {
			TKP_FMT("%s", tkp_conv(a));
			continue;
		}
		TKP_FMT("{");
		for (j = 0; j < a->count; j++)
			TKP_FMT("%s%s", j ? "," : "", tkp_conv(a));
		TKP_FMT("}");
	}
	TKP_FMT("\", %s", ev->is_return ?
		"REC->__probe_func, REC->__probe_ret_ip" : "REC->__probe_ip");
	for (i = 0; i < ev->nargs; i++) {
		a = &ev->args[i];
		if (a->kind == TKP_K_STRING)
			TKP_FMT(", __get_str(%s)", a->name);
		else if (!a->count)
			TKP_FMT(", REC->%s", a->name);
		else
			for (j = 0; j < a->count; j++)
				TKP_FMT(", REC->%s[%d]", a->name, j);
	}
#undef TKP_FMT
	return pos;
}

static char *tkp_build_fmt(const struct tkp_event *ev)
{
	int len = tkp_fmt(ev, NULL, 0) + 1;
	char *buf = kmalloc(len, GFP_KERNEL);

	if (buf)
		tkp_fmt(ev, buf, len);
	return buf;
}

/* The place of @spec as a probe, not yet attached to an event. */
static struct tkp_probe *tkp_alloc_probe(const struct tkp_spec *spec)
{
	unsigned long base;
	struct tkp_probe *tp;

	tp = kzalloc(sizeof(*tp), GFP_KERNEL);
	if (!tp)
		return NULL;
	tp->stat = alloc_percpu(struct tkp_stat);
	if (spec->symbol[0])
		tp->symbol = kstrdup(spec->symbol, GFP_KERNEL);
	if (!tp->stat || (spec->symbol[0] && !tp->symbol)) {
		tkp_free_probe(tp);
		return NULL;
	}

	tp->offset = spec->offset;
	if (!tp->symbol) {
		tp->place = spec->addr;
	} else if (spec->offset < 0) {
		/* kprobes takes no negative offset: give it the address. */
		base = kallsyms_lookup_name(tp->symbol);
		if (base)
			tp->place = base + spec->offset;
	}
	tp->maxactive = spec->maxactive;
	dyn_event_init(&tp->devent, &tkp_dyn_ops);
	INIT_LIST_HEAD(&tp->sibling);
	return tp;
}

/*
 * Room in a return instance for an argument taken at entry: a value and
 * a byte saying it was read, or a string's length and its bytes.
 */

static void tkp_entry_layout(struct tkp_probe *tp, struct tkp_arg *a)
{
	if (!a->at_entry)
		return;
	if (a->kind == TKP_K_STRING) {
		a->entry_off = ALIGN(tp->entry_size, sizeof(u16));
		tp->entry_size = a->entry_off + sizeof(u16) + TKP_ENTRY_STR;
	} else {
		a->entry_off = ALIGN(tp->entry_size, sizeof(u64));
		tp->entry_size = a->entry_off + a->size * (a->count ?: 1) + 1;
	}
}

/*
 * Give place @tp, whose event is set, its fetch program: @nargs
 * arguments laid out as the event's fields; @tp frees them if @own.  What
 * the place needs follows from them: all registers or not, what its
 * entry takes.
 */
static void tkp_set_args(struct tkp_probe *tp, struct tkp_arg *args,
			 int nargs, bool own)
{
	const struct tkp_event *ev = tp->ev;
	int i;

	tp->args = args;
	tp->nargs = nargs;
	tp->own_args = own ? args : NULL;
	for (i = 0; i < nargs; i++) {
		tp->full_regs |= !tkp_arg_partial_ok(&args[i]);
		tp->duration |= args[i].src == TKP_SRC_DURATION;
		tkp_entry_layout(tp, &args[i]);
	}
	tp->one_str = nargs == 1 && (args[0].op == TKP_OP_MSTR ||
				     args[0].op == TKP_OP_STR) &&
		      args[0].offset == ev->hdr_size &&
		      ev->rec_size == ev->hdr_size + sizeof(u32);
}

/*
 * The event of @spec; its arguments move from @spec to the event, whose
 * first place shares them (tkp_set_args()).
 */
static struct tkp_event *tkp_alloc_event(struct tkp_spec *spec)
{
	struct tkp_event *ev;
	int i;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return NULL;
	INIT_LIST_HEAD(&ev->probes);
	ev->is_return = spec->is_return;
	ev->nargs = spec->nargs;
	ev->args = spec->args;
	spec->args = NULL;
	ev->hdr_size = spec->is_return ? sizeof(struct tkp_return_rec) :
					 sizeof(struct tkp_entry_rec);
	ev->rec_size = spec->rec_size;
	ev->fault_off = spec->fault_off;
	for (i = 0; i < ev->nargs; i++)
		ev->dyn |= ev->args[i].kind == TKP_K_STRING;
	ev->class.system = kstrdup(spec->group, GFP_KERNEL);
	ev->call.name = spec->event[0] ? kstrdup(spec->event, GFP_KERNEL) :
					 tkp_auto_name(spec);
	ev->call.print_fmt = tkp_build_fmt(ev);
	if (!ev->class.system || !ev->call.name || !ev->call.print_fmt) {
		tkp_free_event(ev);
		return NULL;
	}

	INIT_LIST_HEAD(&ev->class.fields);
	ev->class.fields_array = tkp_fields_array;
	ev->class.reg = tkp_reg;
	ev->call.class = &ev->class;
	ev->call.event.funcs = &tkp_event_funcs;
	ev->call.flags = TRACE_EVENT_FL_KPROBE;
	ev->call.data = ev;
	return ev;
}

/* ---------------------------------------------------------------------
 * Step 3: registration.  All under event_mutex.
 */

static struct tkp_event *tkp_find(const char *group, const char *event)
{
	struct dyn_event *pos;
	struct tkp_event *ev;

	for_each_dyn_event(pos) {
		if (!is_tkp(pos))
			continue;
		ev = to_tkp(pos)->ev;
		if (!strcmp(ev->call.name, event) &&
		    !strcmp(ev->class.system, group))
			return ev;
	}
	return NULL;
}

/* Which message explains a refusal by the kprobes core. */
static enum tkp_err tkp_reg_err(int err)
{
	switch (err) {
	case -ENOENT:
		return TKP_ERR_BAD_PROBE_ADDR;
	case -EILSEQ:
		return TKP_ERR_BAD_INSN_BNDRY;
	default:
		return TKP_ERR_FAIL_REG_PROBE;
	}
}

static int tkp_kprobe_register(struct tkp_probe *tp, bool is_return)
{
	unsigned long size, off;
	struct tkp_kp *k;
	bool entry;
	int ret;

	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	k->tp = tp;
	if (tp->place) {
		k->rp.kp.addr = (kprobe_opcode_t *)tp->place;
	} else {
		k->rp.kp.symbol_name = tp->symbol;
		k->rp.kp.offset = tp->offset;
	}
	/* Registered disarmed; the event's first user arms it. */
	k->rp.kp.flags = KPROBE_FLAG_DISABLED;
	if (is_return) {
		k->rp.handler = tkp_return_hit;
		k->rp.maxactive = tp->maxactive;
		if (tp->duration || tp->entry_size) {
			k->rp.entry_handler = tkp_return_entry;
			k->rp.data_size = sizeof(u64) + tp->entry_size;
		}
		ret = register_kretprobe(&k->rp);
	} else {
		k->rp.kp.pre_handler = tkp_entry_hit;
		ret = register_kprobe(&k->rp.kp);
	}
	if (ret) {
		kfree(k);
		return ret;
	}
	tp->kp = k;
	tp->addr = (unsigned long)k->rp.kp.addr;
	/* Moved past a landing pad from the place as written? */
	k->ip = tp->addr;
	if (!(tp->symbol ? tp->offset : 0) &&
	    kallsyms_lookup_size_offset(tp->addr, &size, &off) && off &&
	    (unsigned long)arch_adjust_kprobe_addr(tp->addr - off, 0,
						   &entry) == tp->addr &&
	    (!tp->place || tp->place == tp->addr - off))
		k->ip = tp->addr - off;
	tp->registered = true;
	return 0;
}

#if defined(CONFIG_KPROBES_ON_FTRACE) && !defined(CONFIG_KPROBE_EVENTS_ON_NOTRACE)
/* Does the function @addr is in have no ftrace site: is it notrace? */
static bool tkp_func_notrace(unsigned long addr)
{
	unsigned long size, off;

	if (!kallsyms_lookup_size_offset(addr, &size, &off))
		return false;	/* not in a function: for kprobes to judge */
	return !ftrace_location_range(addr - off, addr - off + size - 1);
}

/*
 * Is @tp's place in a function marked notrace?  Those are kept from
 * kprobe events as from ftrace (the tracer's own helpers, code that runs
 * before tracing may: KPROBE_EVENTS_ON_NOTRACE lifts that).  A part the
 * compiler split off a function ("FUNC.cold", "FUNC.part.0") has no
 * ftrace site of its own: it is judged by FUNC.
 */
static bool tkp_notrace(struct tkp_probe *tp)
{
	unsigned long addr = tp->place;
	char *name, *dot;
	bool ret;

	if (!addr && tp->symbol)
		addr = kallsyms_lookup_name(tp->symbol);
	if (!addr)
		return false;	/* kprobes say why */
	addr += tp->place ? 0 : tp->offset;
	if (!tkp_func_notrace(addr))
		return false;
	name = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	if (!name || lookup_symbol_name(addr, name)) {
		kfree(name);
		return true;
	}
	dot = strchr(name, '.');
	ret = true;
	if (dot) {
		*dot = '\0';
		addr = kallsyms_lookup_name(name);
		ret = !addr || tkp_func_notrace(addr);
	}
	kfree(name);
	return ret;
}
#else
static bool tkp_notrace(struct tkp_probe *tp)
{
	return false;
}
#endif

/* Make @tp's place live, on ftrace if it can be, else as a kprobe. */
static int tkp_place_register(struct tkp_probe *tp)
{
	int ret;

	/*
	 * Every way a place becomes live comes here: tracefs, perf's kprobe
	 * PMU, the in-kernel API, boot-time probes and modules loading.
	 * Under lockdown=confidentiality none may, as with kprobes alone.
	 */
	ret = security_locked_down(LOCKDOWN_KPROBES);
	if (ret)
		return ret;
	ret = tkp_fentry_register(tp);
	if (ret <= 0)
		return ret;
	tp->in_notrace = tkp_notrace(tp);
	if (tp->in_notrace)
		return -EINVAL;
	return tkp_kprobe_register(tp, tp->ev->is_return);
}

/* Arm one more place of an event already in use; the caller commits. */
static int __tkp_place_arm(struct tkp_probe *tp)
{
	if (!tp->registered)
		return 0;
	if (tp->fentry)
		return tkp_armed(tp) ? 0 : tkp_site_arm(tp);
	return kprobe_gone(&tp->kp->rp.kp) ? 0 : enable_kprobe(&tp->kp->rp.kp);
}

/* Arm one more place of an event already in use. */
static int tkp_place_arm(struct tkp_probe *tp)
{
	int ret;

	if (!tp->registered)
		return 0;
	if (tp->fentry) {
		ret = tkp_armed(tp) ? 0 : tkp_site_arm(tp);
		if (!ret)
			ret = tkp_fentry_commit();
		if (ret) {
			tkp_site_disarm(tp);
			tkp_fentry_sync();
			synchronize_rcu();
		}
		return ret;
	}
	return kprobe_gone(&tp->kp->rp.kp) ? 0 : enable_kprobe(&tp->kp->rp.kp);
}

/*
 * Disarm and unregister @tp's place.  A fentry place keeps its pool, for
 * its module's next load; a handler may still be running on it.
 */
static void tkp_kprobe_unregister(struct tkp_probe *tp)
{
	if (!tp->registered)
		return;
	if (tp->fentry) {
		tkp_site_disarm(tp);
		tp->registered = false;
		return;
	}
	if (tp->ev->is_return)
		unregister_kretprobe(&tp->kp->rp);
	else
		unregister_kprobe(&tp->kp->rp.kp);
	kfree(tp->kp);
	tp->kp = NULL;
	tp->addr = 0;
	tp->registered = false;
}

struct tkp_count {
	const char	*sym;
	unsigned int	n;
};

static int tkp_count_one(void *data, unsigned long addr)
{
	((struct tkp_count *)data)->n++;
	return 0;
}

static int tkp_count_mod(void *data, const char *name, struct module *mod,
			 unsigned long addr)
{
	struct tkp_count *c = data;

	if (!strcmp(name, c->sym))
		c->n++;
	return 0;
}

/* How many functions of the kernel and its modules go by @sym. */
static unsigned int tkp_count_symbols(const char *sym)
{
	struct tkp_count c = { .sym = sym };

	kallsyms_on_each_match_symbol(tkp_count_one, sym, &c);
	module_kallsyms_on_each_symbol(tkp_count_mod, &c);
	return c.n;
}

/* Is @tp on "MOD:SYM" with MOD not loaded? */
static bool tkp_module_absent(struct tkp_probe *tp)
{
	const char *colon = tp->symbol ? strchr(tp->symbol, ':') : NULL;
	char name[MODULE_NAME_LEN];
	struct module *mod;
	bool absent;

	if (!colon)
		return false;
	strscpy(name, tp->symbol, min_t(size_t, colon - tp->symbol + 1,
					sizeof(name)));
	preempt_disable();
	mod = find_module(name);
	absent = !mod || !module_is_live(mod);
	preempt_enable();
	return absent;
}

static bool tkp_busy(struct tkp_event *ev)
{
	if (rcu_access_pointer(ev->files) || ev->perf_on)
		return true;
#ifdef CONFIG_PERF_EVENTS
	if (ev->call.perf_refcount)
		return true;
#endif
	return trace_event_dyn_busy(&ev->call);
}

/* Is @tp's place the one @spec names? */
static bool tkp_same_place(const struct tkp_probe *tp,
			   const struct tkp_spec *spec)
{
	if (!tp->symbol)
		return !spec->symbol[0] &&
		       tp->place == spec->addr;
	return !strcmp(tp->symbol, spec->symbol) && tp->offset == spec->offset;
}

/*
 * Do @a and @b make the same field: the same name and type?  Where each
 * fetches its value from does not matter.  Every string is a
 * "__data_loc char[]", but string and ustring are two types.
 */
static bool tkp_same_field(const struct tkp_arg *a, const struct tkp_arg *b)
{
	if (strcmp(a->name, b->name) || a->kind != b->kind)
		return false;
	if (a->kind == TKP_K_STRING)
		return a->ustring == b->ustring;
	return a->size == b->size && a->count == b->count &&
	       a->bf_lshift == b->bf_lshift && a->bf_rshift == b->bf_rshift;
}

/*
 * May @spec's place join @ev?  Only with the same kind of probe and
 * arguments of the same names and types, in the same order (fetched as
 * the place likes), and not twice at one place.  If so, @spec's
 * arguments take the event's layout: the offsets of its fields, and its
 * fault bits (an argument the event has none for records 0 when its
 * fetch faults).
 */
static int tkp_check_join(struct tkp_event *ev, struct tkp_spec *spec,
			  enum tkp_err *err, int *word)
{
	struct tkp_probe *tp;
	int i;

	*word = 0;
	if (ev->is_return != spec->is_return) {
		*err = TKP_ERR_DIFF_PROBE_TYPE;
		return -EEXIST;
	}
	for (i = 0; i < max(ev->nargs, spec->nargs); i++) {
		if (i >= ev->nargs || i >= spec->nargs ||
		    !tkp_same_field(&ev->args[i], &spec->args[i])) {
			*err = TKP_ERR_DIFF_ARG_TYPE;
			*word = 2 + i;
			return -EEXIST;
		}
	}
	list_for_each_entry(tp, &ev->probes, sibling) {
		if (tkp_same_place(tp, spec)) {
			*err = TKP_ERR_SAME_PROBE;
			return -EEXIST;
		}
	}
#ifdef CONFIG_PERF_EVENTS
	/*
	 * A BPF program may override the returns of the one place the event
	 * had when it was attached (trace_kprobe_error_injectable()), and
	 * attaches without event_mutex, through a perf event already open:
	 * no place joins an event perf has open.
	 */
	if (ev->call.perf_refcount) {
		*err = TKP_ERR_BPF_ATTACHED;
		return -EBUSY;
	}
#endif
	for (i = 0; i < spec->nargs; i++) {
		spec->args[i].offset = ev->args[i].offset;
		spec->args[i].fault_bit = ev->args[i].fault_bit;
	}
	spec->rec_size = ev->rec_size;
	spec->fault_off = ev->fault_off;
	return 0;
}

/*
 * Register @tp as @spec asks: on its own new event, or as one more place
 * of an existing event with that name.  On failure nothing of it is left
 * in the kernel, and @err and @word say what to log.
 */
static int tkp_register(struct tkp_probe *tp, struct tkp_spec *spec,
			enum tkp_err *err, int *word)
{
	const char *group = spec->group, *name;
	struct tkp_event *ev;
	bool fresh = false;
	char *auto_name = NULL;
	int ret;

	lockdep_assert_held(&event_mutex);

	*word = 0;
	name = spec->event;
	if (!name[0]) {
		auto_name = tkp_auto_name(spec);
		if (!auto_name)
			return -ENOMEM;
		name = auto_name;
	}
	ev = tkp_find(group, name);
	if (ev) {
		ret = tkp_check_join(ev, spec, err, word);
		if (ret)
			goto out;
	} else {
		*err = TKP_ERR_EVENT_EXIST;
		ret = -EEXIST;
		if (find_event_file(top_trace_array(), group, name))
			goto out;
		ret = -ENOMEM;
		*err = TKP_ERR_FAIL_REG_PROBE;
		ev = tkp_alloc_event(spec);
		if (!ev)
			goto out;
		fresh = true;
	}

	tp->ev = ev;
	/* Before the place registers: what it needs depends on them. */
	if (fresh) {
		tkp_set_args(tp, ev->args, ev->nargs, false);
	} else {
		tkp_set_args(tp, spec->args, spec->nargs, true);
		spec->args = NULL;
	}
	*word = 1;
	if (spec->symbol[0] && !strchr(spec->symbol, ':'))
		spec->cands = tkp_count_symbols(spec->symbol);
	if (spec->cands > 1) {
		*err = TKP_ERR_NON_UNIQ_SYMBOL;
		ret = -EADDRNOTAVAIL;
		goto free_event;
	}
	/* On a module not loaded yet, the place waits for the module. */
	/* A place waiting for its module is made live later: refuse now. */
	ret = security_locked_down(LOCKDOWN_KPROBES);
	if (!ret)
		ret = tkp_module_absent(tp) ? 0 : tkp_place_register(tp);
	if (ret) {
		*err = tp->in_notrace ? TKP_ERR_NOTRACE : tkp_reg_err(ret);
		goto free_event;
	}
	*err = TKP_ERR_FAIL_REG_PROBE;
	if (fresh) {
		ret = -ENODEV;
		if (!register_trace_event(&ev->call.event))
			goto unreg_kprobe;
		dyn_event_add(&tp->devent, &ev->call);
		ret = trace_add_event_call(&ev->call);
		if (ret) {
			dyn_event_remove(&tp->devent);
			unregister_trace_event(&ev->call.event);
			goto unreg_kprobe;
		}
	} else {
		/* Joining an event in use: this place fires at once too. */
		if (rcu_access_pointer(ev->files) || ev->perf_on) {
			ret = tkp_place_arm(tp);
			if (ret)
				goto unreg_kprobe;
		}
		dyn_event_add(&tp->devent, &ev->call);
	}
	list_add_tail(&tp->sibling, &ev->probes);
	ret = 0;
	goto out;

unreg_kprobe:
	tkp_kprobe_unregister(tp);
	if (tp->unlinked) {
		/*
		 * Its hooks were linked for a while: handlers may be on them,
		 * and on the returns they hooked, until a grace period after
		 * the pool stops taking them.
		 */
		cond_synchronize_rcu(tp->unlink_gp);
		tkp_pool_free(tp->pool);
		tp->pool = NULL;
		synchronize_rcu();
	}
free_event:
	tp->ev = NULL;
	if (fresh)
		tkp_free_event(ev);
out:
	kfree(auto_name);
	return ret;
}

/* ---------------------------------------------------------------------
 * Removal.
 */

static void tkp_free_probe_rcu(struct rcu_head *head)
{
	tkp_free_probe(container_of(head, struct tkp_probe, rcu));
}

static void tkp_free_event_rcu(struct rcu_head *head)
{
	tkp_free_event(container_of(head, struct tkp_event, rcu));
}

/*
 * Forget @tp, whose place is unregistered; with the event's last place
 * goes the event.  A kprobe's unregistration waited for its handlers; a
 * fentry place's handlers are done one grace period after the event lost
 * its last user, and only that makes it safe to remove the trace event,
 * whose files a handler may have been writing to.  Most of the time that
 * grace period is long past.  Return handlers may run until the pool is
 * gone, so the memory goes after one more (call_rcu, not waited for).
 */
static void tkp_forget(struct tkp_probe *tp)
{
	struct tkp_event *ev = tp->ev;

	dyn_event_remove(&tp->devent);
	list_del(&tp->sibling);
	if (ev->used)
		cond_synchronize_rcu(ev->quiet_gp);
	tkp_pool_free(tp->pool);
	tp->pool = NULL;
	call_rcu(&tp->rcu, tkp_free_probe_rcu);
	if (list_empty(&ev->probes)) {
		WARN_ON(trace_remove_event_call(&ev->call));
		call_rcu(&ev->rcu, tkp_free_event_rcu);
	}
}

static int tkp_remove(struct tkp_probe *tp)
{
	lockdep_assert_held(&event_mutex);

	if (tkp_busy(tp->ev))
		return -EBUSY;
	tkp_kprobe_unregister(tp);
	tkp_forget(tp);
	return 0;
}

/*
 * Remove every probe, or none if one is in use.  The kprobes go in two
 * batches (entry, return), each waiting for a single grace period.
 */
static int tkp_remove_all(void)
{
	struct kretprobe **rps = NULL;
	struct kprobe **kps = NULL;
	struct dyn_event *pos, *n;
	struct tkp_probe *tp;
	int nr = 0, nk = 0, nrp = 0;
	bool used = false;
	int ret = 0;

	mutex_lock(&event_mutex);
	for_each_dyn_event(pos) {
		if (!is_tkp(pos))
			continue;
		if (tkp_busy(to_tkp(pos)->ev)) {
			ret = -EBUSY;
			goto out;
		}
		used |= to_tkp(pos)->ev->used;	/* see tkp_delete() */
		nr++;
	}
	if (!nr)
		goto out;

	kps = kcalloc(nr, sizeof(*kps), GFP_KERNEL);
	rps = kcalloc(nr, sizeof(*rps), GFP_KERNEL);
	if (!kps || !rps) {
		/* Slow but sure: one probe, one grace period, at a time. */
		for_each_dyn_event_safe(pos, n)
			if (is_tkp(pos))
				tkp_remove(to_tkp(pos));
		goto reset;
	}

	for_each_dyn_event(pos) {
		if (!is_tkp(pos) || !to_tkp(pos)->registered)
			continue;
		tp = to_tkp(pos);
		if (tp->fentry)
			tkp_kprobe_unregister(tp);	/* no waiting */
		else if (tp->ev->is_return)
			rps[nrp++] = &tp->kp->rp;
		else
			kps[nk++] = &tp->kp->rp.kp;
		tp->registered = false;
	}
	if (nk)
		unregister_kprobes(kps, nk);
	if (nrp)
		unregister_kretprobes(rps, nrp);
	for_each_dyn_event_safe(pos, n)
		if (is_tkp(pos))
			tkp_forget(to_tkp(pos));
reset:
	if (used)
		tracing_reset_all_online_cpus();
out:
	mutex_unlock(&event_mutex);
	kfree(kps);
	kfree(rps);
	return ret;
}

/* ---------------------------------------------------------------------
 * Commands: what a line written to kprobe_events or dynamic_events does.
 */

static int tkp_create(int argc, const char **argv)
{
	struct tkp_spec *spec;
	struct tkp_probe *tp;
	enum tkp_err err;
	unsigned int skipped;
	int ret, word;

	spec = kmalloc(sizeof(*spec), GFP_KERNEL);
	if (!spec)
		return -ENOMEM;

	ret = tkp_parse(argc, argv, spec);
	if (ret) {
		tkp_log_err(argc, argv, spec->err_word, spec->err_off,
			    spec->err);
		goto out;
	}

	ret = -ENOMEM;
	tp = tkp_alloc_probe(spec);
	if (!tp)
		goto out;

	mutex_lock(&event_mutex);
	ret = tkp_register(tp, spec, &err, &word);
	/* Once the lock is dropped the probe may go: read it before. */
	skipped = ret ? 0 : tp->skipped;
	mutex_unlock(&event_mutex);
	if (ret) {
		if (ret == -EADDRNOTAVAIL && err == TKP_ERR_NON_UNIQ_SYMBOL &&
		    tkp_uniq_msg(spec->cands) >= 0)
			tkp_log_text(argc, argv, word, 0, tkp_uniq_text,
				     tkp_uniq_msg(spec->cands));
		else if (ret != -ENOMEM)
			tkp_log_err(argc, argv, word, 0, err);
		tkp_free_probe(tp);
	} else if (skipped && tkp_skip_msg(skipped) >= 0) {
		/* Defined, but not on every function the pattern names. */
		tkp_log_text(argc, argv, 1, 0, tkp_skip_text,
			     tkp_skip_msg(skipped));
	}
out:
	tkp_free_args(spec->args, spec->nargs);
	kfree(spec);
	return ret;
}

/* "-:[GROUP/]EVENT": remove one probe; "-:GROUP/" all of a group. */
static int tkp_delete(const char *raw_command)
{
	char *group = NULL, *event, *slash, **argv;
	struct dyn_event *pos, *n;
	bool reset = false;
	int argc, ret = -ENOENT;

	argv = argv_split(GFP_KERNEL, raw_command, &argc);
	if (!argv)
		return -ENOMEM;
	if (argv[0][1] != ':') {
		ret = -EINVAL;
		goto out;
	}
	event = argv[0] + 2;
	slash = strchr(event, '/');
	if (slash) {
		*slash = '\0';
		group = event;
		event = slash + 1;
	}
	if (!group && !*event) {
		ret = -EINVAL;
		goto out;
	}

	mutex_lock(&event_mutex);
	/* All that match, or none: refuse before removing any. */
	for_each_dyn_event(pos) {
		if (is_tkp(pos) &&
		    tkp_match_one(group, event, argc - 1,
				  (const char **)argv + 1, pos) &&
		    tkp_busy(to_tkp(pos)->ev)) {
			ret = -EBUSY;
			goto unlock;
		}
	}
	for_each_dyn_event_safe(pos, n) {
		if (!is_tkp(pos) ||
		    !tkp_match_one(group, event, argc - 1,
				   (const char **)argv + 1, pos))
			continue;
		/*
		 * Records of an event that never had a user cannot be in
		 * any ring buffer: only for one that had are the buffers
		 * cleared, lest a later event reusing its type number be
		 * shown with its records.
		 */
		reset |= to_tkp(pos)->ev->used;
		ret = tkp_remove(to_tkp(pos));
		if (ret)
			break;
	}
	if (reset)
		tracing_reset_all_online_cpus();
unlock:
	mutex_unlock(&event_mutex);
out:
	argv_free(argv);
	return ret;
}

static int tkp_run_command(const char *raw_command)
{
	const char **argv;
	int argc, ret;

	if (raw_command[0] == '-')
		return tkp_delete(raw_command);

	argv = (const char **)argv_split(GFP_KERNEL, raw_command, &argc);
	if (!argv)
		return -ENOMEM;
	if (!argc) {
		ret = 0;
	} else if (argv[0][0] != 'p' && argv[0][0] != 'r') {
		tkp_log_err(argc, argv, 0, 0, TKP_ERR_BAD_CMD);
		ret = -EINVAL;
	} else {
		ret = tkp_create(argc, argv);
	}
	argv_free((char **)argv);
	return ret;
}

/* dynamic_events hands every line to every dynamic event type. */
static int tkp_dyn_create(const char *raw_command)
{
	const char *place = strchr(raw_command, ' ');

	if (raw_command[0] != 'p' && raw_command[0] != 'r')
		return -ECANCELED;
	/*
	 * "PATH:OFFSET" is a uprobe's place; no kernel symbol has a '/'.
	 * Leave such lines to the uprobe tracer.
	 */
	if (place) {
		place = skip_spaces(place);
		if (strchr(place, '/') &&
		    strchr(place, '/') < place + strcspn(place, " \t"))
			return -ECANCELED;
	}
	return tkp_run_command(raw_command);
}

/* Addresses are shown to whoever may read them in /proc/kallsyms. */
static void tkp_show_addr(struct seq_file *m, void *addr)
{
	if (!kallsyms_show_value(m->file->f_cred))
		addr = NULL;
	seq_printf(m, "0x%0*lx", (int)(2 * sizeof(long)), (unsigned long)addr);
}

static int tkp_dyn_show(struct seq_file *m, struct dyn_event *ev)
{
	struct tkp_probe *tp = to_tkp(ev);
	int i;

	seq_putc(m, tp->ev->is_return ? 'r' : 'p');
	if (tp->maxactive)
		seq_printf(m, "%d", tp->maxactive);
	seq_printf(m, ":%s/%s ", tkp_group(tp), tkp_event(tp));
	if (!tp->symbol)
		tkp_show_addr(m, (void *)tp->place);
	else if (tp->offset)
		seq_printf(m, "%s%+ld", tp->symbol, tp->offset);
	else
		seq_puts(m, tp->symbol);
	for (i = 0; i < tp->nargs; i++)
		seq_printf(m, " %s=%s", tp->args[i].name, tp->args[i].text);
	seq_putc(m, '\n');
	return 0;
}

static bool tkp_dyn_is_busy(struct dyn_event *ev)
{
	return tkp_busy(to_tkp(ev)->ev);
}

static int tkp_dyn_free(struct dyn_event *ev)
{
	return tkp_remove(to_tkp(ev));
}

/* Does @place ("SYM", "SYM+OFFS", "0xADDR") name where @tp sits? */
static bool tkp_place_is(struct tkp_probe *tp, const char *place)
{
	unsigned long addr;
	size_t len;
	long offs = 0;

	if (!tp->symbol)
		return !kstrtoul(place, 0, &addr) &&
		       addr == tp->place;
	len = strlen(tp->symbol);
	if (strncmp(place, tp->symbol, len))
		return false;
	if (place[len] && kstrtol(place + len, 0, &offs))
		return false;
	return offs == tp->offset;
}

/* Does @word ("NAME=FETCHARG[:TYPE]" or "FETCHARG[:TYPE]") name @a? */
static bool tkp_arg_is(const struct tkp_arg *a, const char *word)
{
	size_t n = strlen(a->name);

	if (!strncmp(word, a->name, n) && word[n] == '=')
		word += n + 1;
	return !strcmp(word, a->text);
}

static bool tkp_match_one(const char *system, const char *event,
			  int argc, const char **argv, struct dyn_event *ev)
{
	struct tkp_probe *tp = to_tkp(ev);
	int i;

	if (system && strcmp(system, tkp_group(tp)))
		return false;
	/* "-:GROUP/" names the whole group. */
	if (event[0] && strcmp(event, tkp_event(tp)))
		return false;
	/* Further words must name the place, then the arguments as listed. */
	if (!argc)
		return true;
	if (!tkp_place_is(tp, argv[0]) || argc - 1 > tp->nargs)
		return false;
	for (i = 1; i < argc; i++)
		if (!tkp_arg_is(&tp->args[i - 1], argv[i]))
			return false;
	return argc - 1 == tp->nargs;
}

/*
 * The match of "-:..." lines written to dynamic_events, whose removal
 * (dyn_event_release()) stops at the first probe it cannot free.  So that
 * a refused removal removes nothing, while any probe it names is in use
 * only those in use match: the first one then fails with EBUSY.
 */
static bool tkp_dyn_match(const char *system, const char *event,
			  int argc, const char **argv, struct dyn_event *ev)
{
	struct dyn_event *pos;

	if (!tkp_match_one(system, event, argc, argv, ev))
		return false;
	if (tkp_busy(to_tkp(ev)->ev))
		return true;
	for_each_dyn_event(pos)
		if (is_tkp(pos) &&
		    tkp_match_one(system, event, argc, argv, pos) &&
		    tkp_busy(to_tkp(pos)->ev))
			return false;
	return true;
}

/* ---------------------------------------------------------------------
 * tracefs: kprobe_events and kprobe_profile.
 */

static int tkp_events_show(struct seq_file *m, void *v)
{
	struct dyn_event *ev = v;

	if (!is_tkp(ev))
		return 0;
	return tkp_dyn_show(m, ev);
}

static const struct seq_operations tkp_events_seq_ops = {
	.start	= dyn_event_seq_start,
	.next	= dyn_event_seq_next,
	.stop	= dyn_event_seq_stop,
	.show	= tkp_events_show,
};

static int tkp_events_open(struct inode *inode, struct file *file)
{
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		ret = tkp_remove_all();
		if (ret)
			return ret;
	}
	return seq_open(file, &tkp_events_seq_ops);
}

/* Lines written are commands; trace_parse_run_command() splits them. */
static ssize_t tkp_events_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *pos)
{
	return trace_parse_run_command(file, ubuf, len, pos, tkp_run_command);
}

static const struct file_operations tkp_events_fops = {
	.open		= tkp_events_open,
	.write		= tkp_events_write,
	.read		= seq_read,
	.release	= seq_release,
	.llseek		= seq_lseek,
};

static unsigned long tkp_hits(struct tkp_probe *tp)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(tp->stat, cpu)->hit;
	return sum;
}

static int tkp_profile_show(struct seq_file *m, void *v)
{
	struct dyn_event *ev = v;
	struct tkp_probe *tp;
	unsigned long missed;
	int cpu;

	if (!is_tkp(ev))
		return 0;
	tp = to_tkp(ev);
	missed = 0;
	if (tp->kp)
		missed = tp->kp->rp.kp.nmissed +
			 (tp->ev->is_return ? tp->kp->rp.nmissed : 0);
	for_each_possible_cpu(cpu)
		missed += per_cpu_ptr(tp->stat, cpu)->miss;
	seq_printf(m, "  %-44s %15lu %15lu\n", tkp_event(tp), tkp_hits(tp),
		   missed);
	return 0;
}

static const struct seq_operations tkp_profile_seq_ops = {
	.start	= dyn_event_seq_start,
	.next	= dyn_event_seq_next,
	.stop	= dyn_event_seq_stop,
	.show	= tkp_profile_show,
};

static int tkp_profile_open(struct inode *inode, struct file *file)
{
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;
	return seq_open(file, &tkp_profile_seq_ops);
}

static const struct file_operations tkp_profile_fops = {
	.open		= tkp_profile_open,
	.read		= seq_read,
	.release	= seq_release,
	.llseek		= seq_lseek,
};

/* ---------------------------------------------------------------------
 * The in-kernel API: perf's kprobe PMU, BPF, the dynevent command builder.
 */

/* The first place of @call, if @call is one of our events. */
static struct tkp_probe *tkp_of_call(struct trace_event_call *call)
{
	struct tkp_event *ev;

	if (!(call->flags & TRACE_EVENT_FL_KPROBE) ||
	    call->class->reg != tkp_reg)
		return NULL;
	ev = call->data;
	return list_first_entry_or_null(&ev->probes, struct tkp_probe,
					sibling);
}

/*
 * The place of @call if it has only one, on one function: the returns BPF
 * may override must be those of that function alone (a pattern, or a
 * place joined, may name functions that are not error-injectable; see
 * tkp_check_join() for joins after BPF attached).
 */
static struct tkp_probe *tkp_only_place(struct trace_event_call *call)
{
	struct tkp_probe *tp = tkp_of_call(call);

	if (!tp || !tp->registered ||
	    !list_is_singular(&tp->ev->probes) ||
	    (tp->fentry && tp->nr_hooks != 1))
		return NULL;
	return tp;
}

/**
 * trace_kprobe_on_func_entry - is a kprobe event placed on a function entry
 * @call: the event
 *
 * Return: true if @call is one of our events and its kprobe sits on the
 * entry of a function.
 */
bool trace_kprobe_on_func_entry(struct trace_event_call *call)
{
	struct tkp_probe *tp = tkp_only_place(call);

	if (!tp)
		return false;
	if (tp->fentry)
		return true;
	return !kprobe_on_func_entry((kprobe_opcode_t *)tp->addr, NULL, 0);
}

/**
 * trace_kprobe_error_injectable - may a BPF program override this function
 * @call: the event
 *
 * Return: true if @call is one of our events and its place is in the
 * kernel's error injection list.
 */
bool trace_kprobe_error_injectable(struct trace_event_call *call)
{
	struct tkp_probe *tp = tkp_only_place(call);

	if (!tp)
		return false;
	return within_error_injection_list(tp->addr);
}

#ifdef CONFIG_PERF_EVENTS
/**
 * create_local_trace_kprobe - make a probe private to one perf event
 * @func: symbol, or NULL when @addr is given
 * @addr: address, when @func is NULL
 * @offs: offset from @func
 * @is_return: true for a return probe
 *
 * The probe is not listed in kprobe_events and has no tracefs files; perf
 * (perf_event_open() with the kprobe PMU) is its only user.
 *
 * Return: the probe's event, or an ERR_PTR().
 */
struct trace_event_call *
create_local_trace_kprobe(char *func, void *addr, unsigned long offs,
			  bool is_return)
{
	struct tkp_event *ev = NULL;
	struct tkp_probe *tp = NULL;
	struct tkp_spec *spec;
	int ret;

	spec = kzalloc(sizeof(*spec), GFP_KERNEL);
	if (!spec)
		return ERR_PTR(-ENOMEM);
	spec->is_return = is_return;
	spec->fault_off = -1;
	spec->rec_size = is_return ? sizeof(struct tkp_return_rec) :
				     sizeof(struct tkp_entry_rec);
	strscpy(spec->group, TKP_DEFAULT_GROUP, sizeof(spec->group));
	ret = -EINVAL;
	if (func) {
		/* One function per perf event: no pattern. */
		if (strscpy(spec->symbol, func, sizeof(spec->symbol)) < 0 ||
		    !tkp_symbol_ok(spec->symbol) ||
		    tkp_is_pattern(spec->symbol) || offs > INT_MAX)
			goto out;
		spec->offset = offs;
	} else {
		if (!addr)
			goto out;
		spec->addr = (unsigned long)addr;
	}

	ret = -ENOMEM;
	tp = tkp_alloc_probe(spec);
	if (tp)
		ev = tkp_alloc_event(spec);
	if (!ev)
		goto out;
	ev->local = true;
	tp->ev = ev;
	ret = tkp_place_register(tp);
	if (ret)
		goto out;
	list_add(&tp->sibling, &ev->probes);
	kfree(spec);
	return &ev->call;
out:
	tkp_free_event(ev);
	tkp_free_probe(tp);
	kfree(spec);
	return ERR_PTR(ret);
}

/**
 * destroy_local_trace_kprobe - undo create_local_trace_kprobe()
 * @event_call: what create_local_trace_kprobe() returned
 *
 * perf has detached by now, which disarmed the place and waited a grace
 * period (so this needs no event_mutex); unregistering a kprobe waits
 * for running handlers.
 */
void destroy_local_trace_kprobe(struct trace_event_call *event_call)
{
	struct tkp_probe *tp = tkp_of_call(event_call);
	struct tkp_event *ev;

	if (WARN_ON_ONCE(!tp || !tp->ev->local))
		return;
	ev = tp->ev;
	tkp_kprobe_unregister(tp);
	if (tp->pool) {
		/*
		 * Returns hooked before the disarm keep coming until their
		 * rethook is stopped, and one may be in tkp_fentry_ret()
		 * right now: stop it, and let such handlers finish.
		 */
		tkp_pool_free(tp->pool);
		tp->pool = NULL;
		synchronize_rcu();
	}
	tkp_free_probe(tp);
	tkp_free_event(ev);
}

/**
 * bpf_get_kprobe_info - describe the kprobe behind a perf event
 * @event: the perf event
 * @fd_type: out: BPF_FD_TYPE_KPROBE or BPF_FD_TYPE_KRETPROBE
 * @symbol: out: probed symbol, NULL for an address probe
 * @probe_offset: out: offset from @symbol
 * @probe_addr: out: address of an address probe, if the caller may see it
 * @perf_type_tracepoint: whether @event was opened as a tracepoint
 *
 * Return: 0, or -EINVAL if @event is not one of our probes.
 */
int bpf_get_kprobe_info(const struct perf_event *event, u32 *fd_type,
			const char **symbol, u64 *probe_offset,
			u64 *probe_addr, bool perf_type_tracepoint)
{
	struct tkp_probe *tp = tkp_of_call(event->tp_event);

	if (!tp)
		return -EINVAL;
	*fd_type = tp->ev->is_return ? BPF_FD_TYPE_KRETPROBE :
				       BPF_FD_TYPE_KPROBE;
	*symbol = tp->symbol;
	*probe_offset = tp->symbol ? tp->offset : 0;
	*probe_addr = 0;
	if (!tp->symbol && kallsyms_show_value(current_cred()))
		*probe_addr = tp->place;
	return 0;
}
#endif /* CONFIG_PERF_EVENTS */

static int tkp_gen_run(struct dynevent_cmd *cmd)
{
	return tkp_run_command(cmd->seq.buffer);
}

/* Append " @word" to the command; -E2BIG when it does not fit. */
static int tkp_gen_add(struct dynevent_cmd *cmd, const char *word)
{
	return seq_buf_printf(&cmd->seq, " %s", word) ? -E2BIG : 0;
}

/* Append the NULL-terminated list of fetch arguments in @args. */
static int tkp_gen_add_list(struct dynevent_cmd *cmd, va_list args)
{
	const char *field;
	int ret;

	while ((field = va_arg(args, const char *))) {
		if (++cmd->n_fields > TKP_MAX_ARGS)
			return -EINVAL;
		ret = tkp_gen_add(cmd, field);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * kprobe_event_cmd_init - prepare a command for building a kprobe event
 * @cmd: the command to set up
 * @buf: buffer the command text is built in
 * @maxlen: size of @buf
 *
 * Build the command with kprobe_event_gen_cmd_start() (or the kretprobe
 * variant) and kprobe_event_add_fields(), then create the event with
 * kprobe_event_gen_cmd_end().
 */
void kprobe_event_cmd_init(struct dynevent_cmd *cmd, char *buf, int maxlen)
{
	dynevent_cmd_init(cmd, buf, maxlen, DYNEVENT_TYPE_KPROBE, tkp_gen_run);
}
EXPORT_SYMBOL_GPL(kprobe_event_cmd_init);

/**
 * __kprobe_event_gen_cmd_start - start building a kprobe event command
 * @cmd: the command, set up by kprobe_event_cmd_init()
 * @kretprobe: true for a return probe
 * @name: event name, in the default group
 * @loc: probe place, as in kprobe_events
 *
 * Further arguments: fetch arguments as in kprobe_events, then NULL.
 *
 * Return: 0, -EINVAL on a bad argument, -E2BIG if the buffer is full.
 */
int __kprobe_event_gen_cmd_start(struct dynevent_cmd *cmd, bool kretprobe,
				 const char *name, const char *loc, ...)
{
	char head[MAX_EVENT_NAME_LEN + sizeof(TKP_DEFAULT_GROUP) + 4];
	va_list args;
	int ret;

	if (cmd->type != DYNEVENT_TYPE_KPROBE || !name || !loc)
		return -EINVAL;
	if (snprintf(head, sizeof(head), "%c:%s/%s", kretprobe ? 'r' : 'p',
		     TKP_DEFAULT_GROUP, name) >= sizeof(head))
		return -EINVAL;
	ret = tkp_gen_add(cmd, head);
	if (!ret)
		ret = tkp_gen_add(cmd, loc);
	if (ret)
		return ret;
	va_start(args, loc);
	ret = tkp_gen_add_list(cmd, args);
	va_end(args);
	return ret;
}
EXPORT_SYMBOL_GPL(__kprobe_event_gen_cmd_start);

/**
 * __kprobe_event_add_fields - add fetch arguments to a kprobe event command
 * @cmd: the command
 *
 * Further arguments: fetch arguments as in kprobe_events, then NULL.
 *
 * Return: 0, -EINVAL on a bad argument, -E2BIG if the buffer is full.
 */
int __kprobe_event_add_fields(struct dynevent_cmd *cmd, ...)
{
	va_list args;
	int ret;

	if (cmd->type != DYNEVENT_TYPE_KPROBE)
		return -EINVAL;
	va_start(args, cmd);
	ret = tkp_gen_add_list(cmd, args);
	va_end(args);
	return ret;
}
EXPORT_SYMBOL_GPL(__kprobe_event_add_fields);

/**
 * kprobe_event_delete - remove a kprobe event by name
 * @name: event name, in the default group
 *
 * Return: 0, -ENOENT if there is no such event, -EBUSY if it is in use.
 */
int kprobe_event_delete(const char *name)
{
	struct tkp_probe *tp, *n;
	struct tkp_event *ev;
	int ret = -ENOENT;

	mutex_lock(&event_mutex);
	ev = tkp_find(TKP_DEFAULT_GROUP, name);
	if (ev) {
		ret = 0;
		/* The last tkp_remove() frees @ev: stop looking at it then. */
		list_for_each_entry_safe(tp, n, &ev->probes, sibling) {
			bool last = list_is_last(&tp->sibling, &ev->probes);

			ret = tkp_remove(tp);
			if (ret || last)
				break;
		}
		tracing_reset_all_online_cpus();
	}
	mutex_unlock(&event_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(kprobe_event_delete);

/*
 * kprobe_event=DEF[;DEF...] on the kernel command line, with ',' for ' '
 * in each DEF: probes defined and enabled at boot, before user space.
 */
static char tkp_boot_cmds[COMMAND_LINE_SIZE] __initdata;

static __init int tkp_boot_param(char *str)
{
	strscpy(tkp_boot_cmds, str, sizeof(tkp_boot_cmds));
	disable_tracing_selftest("running kprobe events");
	return 1;
}
__setup("kprobe_event=", tkp_boot_param);

static __init void tkp_boot_setup(void)
{
	struct trace_event_file *file;
	char *cmd, *p = tkp_boot_cmds;
	struct dyn_event *pos;
	struct tkp_probe *tp;
	int ret;

	while ((cmd = strsep(&p, ";"))) {
		if (!*cmd)
			continue;
		strreplace(cmd, ',', ' ');
		ret = tkp_run_command(cmd);
		if (ret)
			pr_warn("kprobe_event=%s: error %d\n", cmd, ret);
	}

	mutex_lock(&event_mutex);
	for_each_dyn_event(pos) {
		if (!is_tkp(pos))
			continue;
		tp = to_tkp(pos);
		file = find_event_file(top_trace_array(), tkp_group(tp),
				       tkp_event(tp));
		if (!file || trace_event_enable_disable(file, 1, 0))
			pr_warn("kprobe_event: cannot enable %s\n",
				tkp_event(tp));
	}
	mutex_unlock(&event_mutex);
}

/*
 * Module @mod goes, and @tp's place was not written as "MOD:SYM": its
 * hooks into the module go for good, as a kprobe there is marked gone
 * for good; a module loaded later at the same address is not hooked.
 * With the last hook the place stops being live, and stays removable.
 * With @init, the module's init code goes (it is live now), for places
 * however written.  Kprobes are the kprobes core's business.  Returns
 * whether a hook was linked (a handler may still be running on it).
 */
static bool tkp_module_going(struct tkp_probe *tp, struct module *mod,
			     bool init)
{
	unsigned int i, left = 0;
	struct tkp_hook *hk;
	bool linked = false;

	if (!tp->registered || !tp->fentry)
		return false;
	for (i = 0; i < tp->nr_hooks; i++) {
		hk = &tp->hooks[i];
		if (!hk->addr)
			continue;
		if (init ? !within_module_init(hk->addr, mod) :
			   !within_module(hk->addr, mod)) {
			left++;
			continue;
		}
		if (hk->site) {
			tkp_hook_unlink(tp, hk);
			linked = true;
		}
		hk->addr = 0;
	}
	if (!left) {
		tp->armed = false;
		tp->registered = false;
	}
	return linked;
}

/*
 * Places in a module come and go with it: registered when it loads
 * (armed if their event is in use), unregistered before it goes, so that
 * a later load finds them again.  Runs before the kprobes core's own
 * notifier, while the module's text is still there.
 */
static int tkp_module_notify(struct notifier_block *nb, unsigned long val,
			     void *data)
{
	struct module *mod = data;
	size_t len = strlen(mod->name);
	struct dyn_event *pos;
	struct tkp_probe *tp;
	bool gone = false;

	if (val != MODULE_STATE_COMING && val != MODULE_STATE_LIVE &&
	    val != MODULE_STATE_GOING)
		return NOTIFY_DONE;

	mutex_lock(&event_mutex);
	for_each_dyn_event(pos) {
		if (!is_tkp(pos))
			continue;
		tp = to_tkp(pos);
		/* Its init code is freed now: ftrace forgets it right after. */
		if (val == MODULE_STATE_LIVE) {
			gone |= tkp_module_going(tp, mod, true);
			continue;
		}
		if (!tp->symbol || strncmp(tp->symbol, mod->name, len) ||
		    tp->symbol[len] != ':') {
			if (val == MODULE_STATE_GOING)
				gone |= tkp_module_going(tp, mod, false);
			continue;
		}
		if (val == MODULE_STATE_GOING) {
			gone |= tp->fentry && tkp_armed(tp);
			tkp_kprobe_unregister(tp);
			continue;
		}
		if (tp->registered)
			continue;
		tp->fentry = false;
		if (tkp_place_register(tp))
			pr_warn("cannot probe %s in module %s\n", tp->symbol,
				mod->name);
		else if (rcu_access_pointer(tp->ev->files) || tp->ev->perf_on)
			__tkp_place_arm(tp);
	}
	/*
	 * The module's code runs from now on, or is about to go: every
	 * change in one update, now.
	 */
	if (tkp_fentry_sync())
		pr_warn("cannot hook the places of module %s\n", mod->name);
	mutex_unlock(&event_mutex);
	/* Its places may come back elsewhere: let their handlers finish. */
	if (gone)
		synchronize_rcu();
	return NOTIFY_DONE;
}

static struct notifier_block tkp_module_nb = {
	.notifier_call	= tkp_module_notify,
	.priority	= 1,	/* before the kprobes core's notifier */
};

/* ---------------------------------------------------------------------
 * Start-up.
 */

/* Early, so that dynamic_events knows us before anyone writes to it. */
static __init int tkp_init_early(void)
{
	int ret;

	tkp_scratch = __alloc_percpu(TKP_SLOTS * TKP_SCRATCH_SIZE,
				     sizeof(u64));
	if (!tkp_scratch)
		return -ENOMEM;
#ifdef CONFIG_X86_64
	/* 0 only before the CPU is identified, long before this. */
	if (boot_cpu_data.x86_virt_bits)
		tkp_kaddr_min = -(1UL << (boot_cpu_data.x86_virt_bits - 1));
#endif
	ret = dyn_event_register(&tkp_dyn_ops);
	if (!ret && IS_ENABLED(CONFIG_MODULES))
		ret = register_module_notifier(&tkp_module_nb);
	return ret;
}
core_initcall(tkp_init_early);

static __init int tkp_init_files(void)
{
	if (tracing_init_dentry())
		return 0;
	trace_create_file("kprobe_events", TRACE_MODE_WRITE, NULL, NULL,
			  &tkp_events_fops);
	trace_create_file("kprobe_profile", TRACE_MODE_READ, NULL, NULL,
			  &tkp_profile_fops);
	return 0;
}
fs_initcall(tkp_init_files);

/*
 * Boot-time probes wait until tracefs has its event directories: it
 * makes them from a workqueue started at fs_initcall time, and an event
 * added while that work runs, after it walked the events and before it
 * says the directories exist, would never get one (a kprobe_event= probe
 * listed and enabled, with no events/GROUP/EVENT/).  trace.c flushes
 * that work in its late_initcall_sync, which runs before ours (link
 * order); user space starts after both.
 */
static __init int tkp_init_boot(void)
{
	if (tkp_boot_cmds[0] && !tracing_init_dentry())
		tkp_boot_setup();
	return 0;
}
late_initcall_sync(tkp_init_boot);
