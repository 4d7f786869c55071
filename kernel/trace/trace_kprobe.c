// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe-based event tracer: the tracefs "kprobe_events" interface, the
 * trace events it makes, and the in-kernel API (perf's kprobe PMU, BPF,
 * the dynevent command builder, kprobe_event= at boot).
 *
 * A line written to kprobe_events goes through these steps, each of which
 * either succeeds or leaves the kernel exactly as it was:
 *
 *   1. tkp_parse()        - the words of the line become a struct tkp_spec:
 *                           place, names, and the argument table with its
 *                           record layout.  Changes nothing in the kernel
 *                           (trace_kprobe_parse.c).
 *   2. tkp_alloc_probe()  - the place becomes a struct tkp_probe.
 *   3. tkp_register()     - under event_mutex: find the struct tkp_event
 *                           of that name and check the place may join it,
 *                           or build a new one; make the place live,
 *                           disarmed (trace_kprobe_place.c: on ftrace, or
 *                           as a kprobe, which the kprobes core judges);
 *                           add the trace event; publish the probe on the
 *                           dynamic event list.
 *
 * The event's first user (a trace instance enabling it, or perf) arms its
 * places, its last disarms them.  A hit (trace_kprobe_hit.c) runs with
 * preemption disabled, takes no lock and allocates nothing: it reads the
 * set of trace files the event is enabled in through one RCU-protected
 * pointer and writes one exact-size record into each (and hands the hit
 * to perf/BPF).
 *
 * Removal runs the other way: refuse if the event is in use, unregister
 * the place (waiting for its running handlers), and only with the
 * event's last place remove the trace event, whose files a handler may
 * have been writing to, and free it.  Clearing everything unregisters all
 * the kprobes in two batches (entry, return), so it waits for two grace
 * periods, not one per probe.
 *
 * The one lock of the control path is event_mutex, which the trace event
 * core already requires for adding, removing, enabling and disabling
 * events; it also protects the dynamic event list our probes live on.
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/bpf.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <asm/setup.h>

#include "trace_kprobe.h"
#include "trace_kprobe_selftest.h"
#include "trace_output.h"

static int tkp_dyn_create(const char *raw_command);
static int tkp_dyn_show(struct seq_file *m, struct dyn_event *ev);
static bool tkp_dyn_is_busy(struct dyn_event *ev);
static int tkp_dyn_free(struct dyn_event *ev);
static bool tkp_dyn_match(const char *system, const char *event,
			  int argc, const char **argv, struct dyn_event *ev);
static bool tkp_match_one(const char *system, const char *event,
			  int argc, const char **argv, struct dyn_event *ev);

struct dyn_event_operations tkp_dyn_ops = {
	.create		= tkp_dyn_create,
	.show		= tkp_dyn_show,
	.is_busy	= tkp_dyn_is_busy,
	.free		= tkp_dyn_free,
	.match		= tkp_dyn_match,
};

/*
 * The message for a symbol that names @n functions, which tells how many
 * and the ways out.  error_log keeps a pointer to its message, so each
 * count up to TKP_UNIQ_COUNTED gets one string for good (more share one).
 */
#define TKP_UNIQ_COUNTED	16
static const char *tkp_uniq_text[TKP_UNIQ_COUNTED + 1];

/* Likewise the note on a pattern's functions that cannot be probed. */
static const char *tkp_skip_text[TKP_UNIQ_COUNTED + 1];

/*
 * The message in @texts for a count of @n: "@head@sep[more than ]N@tail",
 * made the first time it is needed and kept.
 */
static int tkp_count_msg(const char **texts, unsigned int n,
			 const char *head, const char *sep, const char *tail)
{
	int i = min(n, TKP_UNIQ_COUNTED + 0U);
	char *msg;

	if (texts[i])
		return i;
	msg = kasprintf(GFP_KERNEL, "%s%s%s%d%s", head, sep,
			n > TKP_UNIQ_COUNTED ? "more than " : "", i, tail);
	if (!msg)
		return -ENOMEM;
	if (cmpxchg(&texts[i], NULL, msg))
		kfree(msg);
	return i;
}

static int tkp_skip_msg(unsigned int n)
{
	return tkp_count_msg(tkp_skip_text, n, "Note:", " ",
			     " matching functions cannot be probed; skipped");
}

static int tkp_uniq_msg(unsigned int n)
{
	return tkp_count_msg(tkp_uniq_text, n,
			     tkp_err_text[TKP_ERR_NON_UNIQ_SYMBOL], " (",
			     " functions): give MOD:SYM or an address");
}

/*
 * Log a refused line to error_log.  The command is shown as its words
 * joined by single spaces, and the caret goes under character @off of
 * word @word.
 */
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

static void tkp_log_err(int argc, const char **argv, int word, int off,
			enum tkp_err err)
{
	tkp_log_text(argc, argv, word, off, tkp_err_text, err);
}

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
		size = (a->kind == TKP_K_STRING ? sizeof(u32) : a->size) *
		       (a->count ?: 1);
		ret = trace_define_field(call, a->ftype, a->name, a->offset,
					 size, tkp_types[a->type].sign,
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
	tkp_types[a->type].print(s, tkp_get(p, a->size), a->size);
}

/*
 * A line of trace output must fit in a trace_seq's page: one that does
 * not is lost, or shown without its newline.  An event of long strings
 * and arrays can print more than that: from where its text starts, it
 * gets a page less TKP_SEQ_PREFIX (for the context the core prints before
 * it: task, CPU, flags, time) and TKP_SEQ_END (for the end of the line),
 * and is cut, ending " ...".  A line that fits but not in what is left of
 * the page (trace_pipe fills it with several) is printed again in the
 * next, by the core.  @end is where the arguments must stop.
 */
#define TKP_SEQ_PREFIX	256
#define TKP_SEQ_END	16

static int tkp_seq_room(struct trace_seq *s, int end)
{
	return end - (int)trace_seq_used(s);
}

/*
 * The string whose __data_loc word is at @loc_p.  Empty with no room in
 * the record left for it (the record's strings are cut at TKP_MAX_RECORD:
 * its offset says so); empty with room, a fault.
 */
static void tkp_print_str(struct trace_seq *s, const u8 *rec,
			  const u8 *loc_p, int end)
{
	u32 loc = *(const u32 *)loc_p;

	/* Never past the string's own bytes, whatever they hold. */
	if (loc >> 16)
		trace_seq_printf(s, "\"%.*s\"",
				 min_t(int, loc >> 16,
				       max(tkp_seq_room(s, end) - 2, 0)),
				 (const char *)rec + (loc & 0xffff));
	else if ((loc & 0xffff) >= TKP_MAX_RECORD)
		trace_seq_puts(s, "\"\"");
	else
		trace_seq_puts(s, "(fault)");
}

/* One element of @a, the @j-th of its array. */
static void tkp_print_elem(struct trace_seq *s, const struct tkp_arg *a,
			   const u8 *rec, unsigned int j, int end)
{
	if (a->kind == TKP_K_STRING)
		tkp_print_str(s, rec, rec + a->offset + sizeof(u32) * j, end);
	else
		tkp_print_value(s, a, rec + a->offset + a->size * j);
}

static void tkp_print_args(struct trace_seq *s, const struct tkp_event *ev,
			   const u8 *rec, int end)
{
	u64 faults = ev->fault_off >= 0 ? *(u64 *)(rec + ev->fault_off) : 0;
	const struct tkp_arg *a;
	int i, j;

	for (i = 0; i < ev->nargs; i++) {
		a = &ev->args[i];
		if (tkp_seq_room(s, end) < TKP_MAX_ARG_NAME + 8)
			goto cut;
		trace_seq_printf(s, " %s=", a->name);
		if (a->fault_bit != 0xff && (faults & BIT_ULL(a->fault_bit))) {
			trace_seq_puts(s, "(fault)");
			continue;
		}
		if (!a->count) {
			tkp_print_elem(s, a, rec, 0, end);
			continue;
		}
		trace_seq_putc(s, '{');
		for (j = 0; j < a->count; j++) {
			if (tkp_seq_room(s, end) < 32)
				goto cut;
			if (j)
				trace_seq_putc(s, ',');
			tkp_print_elem(s, a, rec, j, end);
		}
		trace_seq_putc(s, '}');
	}
	return;
cut:
	trace_seq_puts(s, " ...");
}

static enum print_line_t tkp_print(struct trace_iterator *iter, int flags,
				   struct trace_event *event)
{
	struct trace_event_call *call =
		container_of(event, struct trace_event_call, event);
	struct tkp_event *ev = call->data;
	struct trace_seq *s = &iter->seq;
	int end = trace_seq_used(s) + sizeof(s->buffer) - TKP_SEQ_PREFIX -
		  TKP_SEQ_END;

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
	tkp_print_args(s, ev, (const u8 *)iter->ent, end);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static struct trace_event_functions tkp_event_funcs = {
	.trace		= tkp_print,
};

/*
 * The event lost its last user: remember when, see tkp_forget().  The
 * grace period is started now, not when tkp_forget() asks for it: by
 * then it has often passed (a disable and a clear one after the other,
 * as bench row allclr does, or "echo > kprobe_events" after
 * "echo 0 > events/.../enable").
 */
static void tkp_quiet(struct tkp_event *ev)
{
	if (!rcu_access_pointer(ev->files) && !ev->perf_on)
		ev->quiet_gp = start_poll_synchronize_rcu();
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
	bool last = false;

	old = rcu_dereference_protected(ev->files,
					lockdep_is_held(&event_mutex));
	if (!old)
		return -ENOENT;
	for (i = 0; i < old->nr && old->file[i] != file; i++)
		;
	if (i == old->nr)
		return -ENOENT;

	if (tkp_files_live(old) == 1) {
		last = true;
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
	/* Unhooked once unused: the grace period runs meanwhile. */
	if (last && !ev->perf_on)
		tkp_arm(ev, false);
	return 0;
}

/* perf's first user arrives or its last leaves; under event_mutex. */
static int tkp_perf_attach(struct tkp_event *ev, bool on)
{
	int ret;

	/* Set first: it decides which ftrace_ops serves the places. */
	WRITE_ONCE(ev->perf_on, on);
	/* Before the unhooking, as in tkp_file_del(). */
	if (!on)
		tkp_quiet(ev);
	if (!rcu_access_pointer(ev->files)) {
		ret = tkp_arm(ev, on);
	} else {
		/* Armed already: its sites move to (or from) all registers. */
		ret = tkp_rehook(ev);
		if (ret && !on)
			ret = 0;	/* they stay where they are, served */
	}
	if (ret)
		WRITE_ONCE(ev->perf_on, false);
	tkp_fast_update(ev);
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
	tkp_place_free(tp);
	if (tp->own_args)
		tkp_free_args(tp->args, tp->nargs);
	free_percpu(tp->hits);
	kfree(tp->symbol);
	kfree(tp);
}

/*
 * Events come from a cache of their own: at 280 bytes (6.1; 256 on 6.12),
 * a kmalloc() would round each up to 512 on 6.1.
 */
static struct kmem_cache *tkp_event_cache;

static void tkp_free_event(struct tkp_event *ev)
{
	if (!ev)
		return;
	tkp_free_args(ev->args, ev->nargs);
	kfree(ev->call.print_fmt);
	kfree(ev->call.name);
	kfree(ev->class.system);
	kmem_cache_free(tkp_event_cache, ev);
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
	return tkp_types[a->type].conv[a->size == 8];
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
		/*
		 * A string array's first string: __get_str() reads the first
		 * of its __data_loc words, and the format has no way to name
		 * the others.  Trace output shows them all.
		 */
		if (!a->count || a->kind == TKP_K_STRING) {
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
	struct tkp_probe *tp;

	tp = kzalloc(sizeof(*tp), GFP_KERNEL);
	if (!tp)
		return NULL;
	tp->hits = alloc_percpu(unsigned long);
	if (spec->symbol[0])
		tp->symbol = kstrdup(spec->symbol, GFP_KERNEL);
	if (!tp->hits || (spec->symbol[0] && !tp->symbol)) {
		tkp_free_probe(tp);
		return NULL;
	}

	tp->offset = spec->offset;
	if (!tp->symbol)
		tp->place = spec->addr;
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
	tp->own_args = own;
	for (i = 0; i < nargs; i++) {
		tp->full_regs |= !tkp_arg_partial_ok(&args[i]);
		tp->duration |= args[i].src == TKP_SRC_DURATION;
		tkp_entry_layout(tp, &args[i]);
	}
	tp->one_str = nargs == 1 && (args[0].op == TKP_OP_MSTR ||
				     args[0].op == TKP_OP_STR) &&
		      args[0].offset == ev->hdr_size &&
		      ev->rec_size == ev->hdr_size + sizeof(u32);
	tp->ret_only = ev->is_return && !tp->entry_size;
}

/*
 * The event of @spec; its arguments move from @spec to the event, whose
 * first place shares them (tkp_set_args()).
 */
static struct tkp_event *tkp_alloc_event(struct tkp_spec *spec)
{
	struct tkp_event *ev;
	int i;

	ev = kmem_cache_zalloc(tkp_event_cache, GFP_KERNEL);
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
	ev->has_body = ev->rec_size > ev->hdr_size;
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
	if (strcmp(a->name, b->name) || a->type != b->type)
		return false;
	if (a->kind == TKP_K_STRING)
		return a->count == b->count;
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
	/* Only fentry places can be patterns: refuse them where there are none. */
	if (!tkp_fentry_possible(tp) && tkp_is_pattern(tp->symbol)) {
		*err = TKP_ERR_NO_PATTERN;
		ret = -EOPNOTSUPP;
		goto free_event;
	}
	/*
	 * A place in a module not loaded yet waits for the module, which
	 * makes it live then; under lockdown it is refused now, as
	 * tkp_place_register() would refuse it.
	 */
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
	tkp_place_abandon(tp);
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
	struct tkp_probe *tp = container_of(head, struct tkp_probe, rcu);
	struct tkp_event *ev = tp->last ? tp->ev : NULL;

	tkp_free_probe(tp);
	if (ev)
		tkp_free_event(ev);
}

/*
 * Forget @tp, whose place is unregistered; with the event's last place
 * goes the event.  A kprobe's unregistration waited for its handlers; a
 * fentry place's handlers are done with the event's files and perf one
 * grace period after the event lost its last user, and only that makes
 * it safe to remove the trace event, whose files a handler may have been
 * writing to.  A hit may still be on a hook then (the hooks are unlinked
 * after that period began): the pool of a return place waits for its
 * own (tkp_place_release()).  Most of the time both are long past.
 * Return handlers may run until the pool is gone, so the memory goes
 * after one more (call_rcu, not waited for).
 */
static void tkp_forget(struct tkp_probe *tp)
{
	struct tkp_event *ev = tp->ev;

	dyn_event_remove(&tp->devent);
	list_del(&tp->sibling);
	if (ev->used)
		cond_synchronize_rcu(ev->quiet_gp);
	tkp_place_release(tp);
	if (list_empty(&ev->probes)) {
		WARN_ON(trace_remove_event_call(&ev->call));
		tp->last = true;
	}
	call_rcu(&tp->rcu, tkp_free_probe_rcu);
}

static int tkp_remove(struct tkp_probe *tp)
{
	lockdep_assert_held(&event_mutex);

	if (tkp_busy(tp->ev))
		return -EBUSY;
	tkp_place_unregister(tp);
	tkp_forget(tp);
	return 0;
}

/*
 * Remove every probe, or none if one is in use.  The kprobes go in two
 * batches (entry, return), each waiting for a single grace period.
 */
static int tkp_remove_all(void)
{
	struct tkp_probe **tps = NULL;
	struct dyn_event *pos, *n;
	unsigned int nr = 0;
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

	tps = kcalloc(nr, sizeof(*tps), GFP_KERNEL);
	nr = 0;
	if (tps)
		for_each_dyn_event(pos)
			if (is_tkp(pos))
				tps[nr++] = to_tkp(pos);
	if (!tps || tkp_places_unregister(tps, nr)) {
		/* Slow but sure: one probe, one grace period, at a time. */
		for_each_dyn_event_safe(pos, n)
			if (is_tkp(pos))
				tkp_remove(to_tkp(pos));
		goto reset;
	}
	for_each_dyn_event_safe(pos, n)
		if (is_tkp(pos))
			tkp_forget(to_tkp(pos));
reset:
	if (used)
		tracing_reset_all_online_cpus();
out:
	mutex_unlock(&event_mutex);
	kfree(tps);
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
		sum += *per_cpu_ptr(tp->hits, cpu);
	return sum;
}

/* A place's misses by cause, summed over the CPUs. */
struct tkp_misses {
	unsigned long	core;		/* counted by the kprobes core */
	unsigned long	reentered;
	unsigned long	ret_refused;
	unsigned long	no_instance;
	unsigned long	idle;
};

static unsigned long tkp_sum_misses(struct tkp_probe *tp,
				    struct tkp_misses *m)
{
	m->core = tkp_place_missed(tp);
	m->reentered = (unsigned int)atomic_read(&tp->reentered);
	m->ret_refused = (unsigned int)atomic_read(&tp->ret_refused);
	tkp_place_misses(tp, &m->no_instance, &m->idle);
	return m->core + m->reentered + m->ret_refused + m->no_instance +
	       m->idle;
}

/*
 * The third column is the kernel's "missed": hits not recorded because
 * the probe was reentered (a hit while another was being recorded on the
 * CPU; for a return probe, the return of a call made while recording)
 * or because no return instance was free.  kprobe_misses has them apart.
 */
static int tkp_profile_show(struct seq_file *m, void *v)
{
	struct dyn_event *ev = v;
	struct tkp_misses mi;
	struct tkp_probe *tp;

	if (!is_tkp(ev))
		return 0;
	tp = to_tkp(ev);
	seq_printf(m, "  %-44s %15lu %15lu\n", tkp_event(tp), tkp_hits(tp),
		   tkp_sum_misses(tp, &mi));
	return 0;
}

/*
 * kprobe_misses: a place's misses by cause, a header line first (so its
 * own seq start: the list head stands for the header).
 */
static void *tkp_misses_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&event_mutex);
	return seq_list_start_head(&dyn_event_list, *pos);
}

static void *tkp_misses_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &dyn_event_list, pos);
}

static int tkp_misses_show(struct seq_file *m, void *v)
{
	struct tkp_misses mi;
	struct tkp_probe *tp;

	if (v == &dyn_event_list) {
		seq_printf(m, "# %-44s %11s %11s %11s %11s %11s\n", "event",
			   "kprobes", "reentered", "ret_refused",
			   "no_instance", "idle");
		return 0;
	}
	if (!is_tkp(v))
		return 0;
	tp = to_tkp(v);
	tkp_sum_misses(tp, &mi);
	seq_printf(m, "  %-44s %11lu %11lu %11lu %11lu %11lu\n",
		   tkp_event(tp), mi.core, mi.reentered, mi.ret_refused,
		   mi.no_instance, mi.idle);
	return 0;
}

static const struct seq_operations tkp_misses_seq_ops = {
	.start	= tkp_misses_start,
	.next	= tkp_misses_next,
	.stop	= dyn_event_seq_stop,
	.show	= tkp_misses_show,
};

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
	return seq_open(file, inode->i_private ?: &tkp_profile_seq_ops);
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

	if (!tp || !tkp_place_live(tp) ||
	    !list_is_singular(&tp->ev->probes) ||
	    !tkp_place_single(tp))
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

	return tp && tkp_place_on_entry(tp);
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
	/* No arguments: what the place needs follows from that too. */
	tkp_set_args(tp, NULL, 0, false);
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
	tkp_place_abandon(tp);
	tkp_free_probe(tp);
	tkp_free_event(ev);
}

/**
 * tkp_bpf_info - bpf_get_kprobe_info(): describe the kprobe behind a perf event
 * @event: the perf event
 * @fd_type: out: BPF_FD_TYPE_KPROBE or BPF_FD_TYPE_KRETPROBE
 * @symbol: out: probed symbol, NULL for an address probe
 * @probe_offset: out: offset from @symbol
 * @probe_addr: out: address of an address probe, and on 6.12 the address
 *	a symbol's probe is at (TKP_BPF_INFO_SYMBOL_ADDR), if the caller may
 *	see it
 * @missed: out, if not NULL (6.12's BPF asks): the probe's misses, as
 *	kprobe_profile counts them
 * @perf_type_tracepoint: whether @event was opened as a tracepoint
 *
 * The kernel's prototype (which has @missed on 6.12 only) is defined
 * around this by TKP_DEFINE_BPF_GET_KPROBE_INFO().  The perf event keeps
 * the probe; its misses are summed under event_mutex, which no caller
 * (a bpf() syscall) holds.
 *
 * Return: 0, or -EINVAL if @event is not one of our probes.
 */
static int tkp_bpf_info(const struct perf_event *event, u32 *fd_type,
			const char **symbol, u64 *probe_offset,
			u64 *probe_addr, unsigned long *missed,
			bool perf_type_tracepoint)
{
	struct tkp_probe *tp = tkp_of_call(event->tp_event);
	struct tkp_misses mi;

	if (!tp)
		return -EINVAL;
	*fd_type = tp->ev->is_return ? BPF_FD_TYPE_KRETPROBE :
				       BPF_FD_TYPE_KPROBE;
	*symbol = tp->symbol;
	*probe_offset = tp->symbol ? tp->offset : 0;
	*probe_addr = 0;
	if ((!tp->symbol || TKP_BPF_INFO_SYMBOL_ADDR) &&
	    kallsyms_show_value(current_cred()))
		*probe_addr = tp->symbol ? READ_ONCE(tp->addr) : tp->place;
	if (missed) {
		mutex_lock(&event_mutex);
		*missed = tkp_sum_misses(tp, &mi);
		mutex_unlock(&event_mutex);
	}
	return 0;
}
TKP_DEFINE_BPF_GET_KPROBE_INFO(tkp_bpf_info)
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
 * Places in a module come and go with it: registered when it loads
 * (armed if their event is in use), unregistered before it goes, so that
 * a later load finds them again.
 */
static void tkp_module_change(struct module *mod, unsigned long val)
{
	size_t len = strlen(mod->name);
	struct dyn_event *pos;
	struct tkp_probe *tp;
	bool gone = false;

	mutex_lock(&event_mutex);
	for_each_dyn_event(pos) {
		if (!is_tkp(pos))
			continue;
		tp = to_tkp(pos);
		/* Its init code is freed now: ftrace forgets it right after. */
		if (val == MODULE_STATE_LIVE) {
			gone |= tkp_place_module_going(tp, mod, true);
			continue;
		}
		if (!tp->symbol || strncmp(tp->symbol, mod->name, len) ||
		    tp->symbol[len] != ':') {
			if (val == MODULE_STATE_GOING)
				gone |= tkp_place_module_going(tp, mod, false);
			continue;
		}
		if (val == MODULE_STATE_GOING) {
			gone |= tkp_place_unregister(tp);
			continue;
		}
		if (tkp_place_live(tp))
			continue;
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
	if (tkp_places_sync())
		pr_warn("cannot hook the places of module %s\n", mod->name);
	mutex_unlock(&event_mutex);
	/* Its places may come back elsewhere: let their handlers finish. */
	if (gone)
		synchronize_rcu();
}

/*
 * A module going, or its init code: before the kprobes core's notifier,
 * while the module's text is still there.
 */
static int tkp_module_notify(struct notifier_block *nb, unsigned long val,
			     void *data)
{
	if (val == MODULE_STATE_LIVE || val == MODULE_STATE_GOING)
		tkp_module_change(data, val);
	return NOTIFY_DONE;
}

static struct notifier_block tkp_module_nb = {
	.notifier_call	= tkp_module_notify,
	.priority	= 1,	/* before the kprobes core's notifier */
};

/*
 * A module coming: after the kprobes core's notifier, which puts the
 * module's own blacklist in place then, for its places to be refused
 * there as they would be once it is loaded (test_module_blacklist.sh).
 */
static int tkp_module_notify_coming(struct notifier_block *nb,
				    unsigned long val, void *data)
{
	if (val == MODULE_STATE_COMING)
		tkp_module_change(data, val);
	return NOTIFY_DONE;
}

static struct notifier_block tkp_module_coming_nb = {
	.notifier_call	= tkp_module_notify_coming,
	.priority	= -1,	/* after the kprobes core's notifier */
};

/* ---------------------------------------------------------------------
 * Start-up.
 */

/* Early, so that dynamic_events knows us before anyone writes to it. */
static __init int tkp_init_early(void)
{
	int ret;

	/* struct tkp_event keeps record sizes and offsets in 16 bits. */
	BUILD_BUG_ON(sizeof(struct tkp_return_rec) + sizeof(u64) +
		     TKP_MAX_FIXED > S16_MAX);
	BUILD_BUG_ON(TKP_MAX_ARGS > U16_MAX);
	tkp_event_cache = KMEM_CACHE(tkp_event, 0);
	if (!tkp_event_cache)
		return -ENOMEM;
	ret = tkp_hit_init();
	if (!ret)
		ret = dyn_event_register(&tkp_dyn_ops);
	if (!ret && IS_ENABLED(CONFIG_MODULES))
		ret = register_module_notifier(&tkp_module_nb);
	if (!ret && IS_ENABLED(CONFIG_MODULES))
		ret = register_module_notifier(&tkp_module_coming_nb);
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
	trace_create_file("kprobe_misses", TRACE_MODE_READ, NULL,
			  (void *)&tkp_misses_seq_ops, &tkp_profile_fops);
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

#ifdef CONFIG_FTRACE_STARTUP_TEST
/*
 * The boot-time self-test (CONFIG_FTRACE_STARTUP_TEST), as the kernel's
 * tracers have theirs: an entry probe with arguments and a return probe
 * with its value, on a function made for it, enabled in the top trace
 * instance; one call must hit each once and write two records; then
 * both go, whatever the outcome.  It says "Testing kprobe tracing: OK",
 * why it was skipped, or, with a warning, why it failed.  kprobe_event=
 * on the command line disables it, as it does the other tracers'
 * self-tests (its probes could fire in theirs).
 */
#define TKP_ST_GROUP	"kprobes"

/*
 * The probed function is the kernel's kprobe_trace_selftest_target() (it
 * returns the sum of its six arguments): kernel/trace is built notrace,
 * and its file is not.
 */
static const char * const tkp_selftest_defs[] __initconst = {
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
	"p:" TKP_ST_GROUP "/tkp_selftest_entry kprobe_trace_selftest_target a1=$arg1:s32 a6=$arg6:s32",
#else
	"p:" TKP_ST_GROUP "/tkp_selftest_entry kprobe_trace_selftest_target",
#endif
	"r:" TKP_ST_GROUP "/tkp_selftest_return kprobe_trace_selftest_target ret=$retval:s32",
};

/* Their events, in the order of tkp_selftest_defs[]. */
static const char * const tkp_selftest_names[] __initconst = {
	"tkp_selftest_entry", "tkp_selftest_return",
};

/* The probe of event @name, or NULL; under event_mutex. */
static __init struct tkp_probe *tkp_selftest_probe(const char *name)
{
	struct dyn_event *pos;

	for_each_dyn_event(pos)
		if (is_tkp(pos) && !strcmp(tkp_event(to_tkp(pos)), name))
			return to_tkp(pos);
	return NULL;
}

/*
 * Enable or disable both events in the top instance, each that exists;
 * returns the first error.
 */
static __init int tkp_selftest_enable(int enable)
{
	struct trace_event_file *file;
	int i, err, ret = 0;

	mutex_lock(&event_mutex);
	for (i = 0; i < ARRAY_SIZE(tkp_selftest_names); i++) {
		file = find_event_file(top_trace_array(), TKP_ST_GROUP,
				       tkp_selftest_names[i]);
		err = file ? trace_event_enable_disable(file, enable, 0) :
			     -ENOENT;
		ret = ret ?: err;
	}
	mutex_unlock(&event_mutex);
	return ret;
}

static __init const char *tkp_selftest_run(struct trace_buffer *buf)
{
	int (*volatile target)(int, int, int, int, int, int) =
		kprobe_trace_selftest_target;
	unsigned long before, hits[2];
	struct tkp_probe *tp;
	int i;

	for (i = 0; i < ARRAY_SIZE(tkp_selftest_defs); i++)
		if (tkp_run_command(tkp_selftest_defs[i]))
			return "a definition was refused";
	if (tkp_selftest_enable(1))
		return "an event could not be enabled";
	before = ring_buffer_entries(buf);
	if (target(1, 2, 3, 4, 5, 6) != 21)
		return "the probed function returned a wrong value";
	if (tkp_selftest_enable(0))
		return "an event could not be disabled";
	mutex_lock(&event_mutex);
	for (i = 0; i < ARRAY_SIZE(hits); i++) {
		tp = tkp_selftest_probe(tkp_selftest_names[i]);
		hits[i] = tp ? tkp_hits(tp) : 0;
	}
	mutex_unlock(&event_mutex);
	if (hits[0] != 1 || hits[1] != 1)
		return "a probe did not fire exactly once";
	if (ring_buffer_entries(buf) < before + 2)
		return "no record was written";
	return NULL;
}

/*
 * Whatever tkp_selftest_run() left: both events disabled, both probes
 * removed (an enabled event's probe cannot be).  Returns 0 or an error.
 */
static __init int tkp_selftest_cleanup(void)
{
	int ret = 0, i;

	tkp_selftest_enable(0);
	for (i = 0; i < ARRAY_SIZE(tkp_selftest_names); i++) {
		const char *name = tkp_selftest_names[i];
		bool there;
		char cmd[64];

		mutex_lock(&event_mutex);
		there = tkp_selftest_probe(name);
		mutex_unlock(&event_mutex);
		snprintf(cmd, sizeof(cmd), "-:%s/%s", TKP_ST_GROUP, name);
		if (there && tkp_run_command(cmd))
			ret = -EBUSY;
	}
	return ret;
}

static __init int tkp_selftest(void)
{
	struct trace_array *tr = top_trace_array();
	const char *why;

	if (tracing_selftest_disabled) {
		pr_info("Testing kprobe tracing: skipped (the tracers' self-tests are disabled)\n");
		return 0;
	}
	/* tracefs is not there when locked down, or failed to come up. */
	if (!tr || tracing_init_dentry()) {
		pr_info("Testing kprobe tracing: skipped (no tracefs)\n");
		return 0;
	}
	/* Off (traceoff_on_warning after a warning, say): nothing records. */
	if (!tracer_tracing_is_on(tr)) {
		pr_info("Testing kprobe tracing: skipped (tracing is off)\n");
		return 0;
	}
	why = tkp_selftest_run(tr->array_buffer.buffer);
	if (tkp_selftest_cleanup() && !why)
		why = "a probe could not be removed";
	if (why) {
		WARN(1, "Testing kprobe tracing: FAILED: %s\n", why);
		return 0;
	}
	pr_info("Testing kprobe tracing: OK\n");
	return 0;
}
late_initcall_sync(tkp_selftest);
#endif /* CONFIG_FTRACE_STARTUP_TEST */

