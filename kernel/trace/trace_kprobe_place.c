// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe-based event tracer: places.
 *
 * A place is where a probe is hooked.  On the entry of a function ftrace
 * can patch, where the kernel has ftrace with registers, it is a
 * "fentry" place (trace_kprobe_fentry.c), and so is a return probe's
 * where there is rethook too.  Anywhere else it is a kprobe or
 * kretprobe, the kind this file has.  Each kind is a struct
 * tkp_place_ops; the rest of the tracer sees one interface, the
 * non-static functions below, and does not ask which kind a place is.
 * Everything here runs under event_mutex.
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/security.h>
#include <linux/slab.h>

#include "trace_kprobe.h"

/**
 * tkp_is_pattern - is a place a glob over functions
 * @sym: "SYM" or "MOD:SYM", or NULL
 *
 * Return: true if @sym is a pattern.
 */
bool tkp_is_pattern(const char *sym)
{
	return sym && strpbrk(sym, "*?[");
}

/* Disarm @tp's place, whichever kind; a place not live is left as it is. */
static void tkp_disarm_place(struct tkp_probe *tp)
{
	if (tkp_place_live(tp))
		tp->ops->disarm(tp);
}

/* Arm @tp's place, whichever kind; the caller commits. */
static int tkp_arm_place(struct tkp_probe *tp)
{
	return tkp_place_live(tp) ? tp->ops->arm(tp) : 0;
}

/**
 * tkp_arm - arm or disarm every place of an event
 * @ev: the event
 * @on: arm (its first user came) or disarm (its last went)
 *
 * A place in a module not loaded now is armed on its load; one whose
 * text is gone (module init code) stays off.  Caller holds event_mutex.
 *
 * Return: 0, or an error with nothing of @ev left armed.
 */
int tkp_arm(struct tkp_event *ev, bool on)
{
	struct tkp_probe *tp;
	int ret = 0;

	list_for_each_entry(tp, &ev->probes, sibling) {
		if (!on)
			tkp_disarm_place(tp);
		else
			ret = tkp_arm_place(tp);
		if (ret)
			break;
	}
	if (!ret)
		ret = tkp_places_commit();
	if (ret && on) {
		/* Nothing of it stays armed, on ftrace or in a kprobe. */
		list_for_each_entry(tp, &ev->probes, sibling)
			tkp_disarm_place(tp);
		tkp_places_sync();
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

/* The kprobe kind: tp->kp, a kprobe or kretprobe, while live. */
static struct kprobe *tkp_kprobe_of(const struct tkp_probe *tp)
{
	return &tp->kp->rp.kp;
}

static int tkp_kprobe_arm(struct tkp_probe *tp)
{
	/* A kprobe whose text is gone (module init code) stays off. */
	return kprobe_gone(tkp_kprobe_of(tp)) ? 0 :
	       enable_kprobe(tkp_kprobe_of(tp));
}

/* The kprobes core waits for a handler where that matters: never linked. */
static bool tkp_kprobe_disarm(struct tkp_probe *tp)
{
	if (!kprobe_gone(tkp_kprobe_of(tp)))
		disable_kprobe(tkp_kprobe_of(tp));
	return false;
}

static void tkp_kprobe_forget(struct tkp_probe *tp)
{
	kfree(tp->kp);
	tp->kp = NULL;
	tp->addr = 0;
}

static bool tkp_kprobe_unregister(struct tkp_probe *tp)
{
	if (tp->ev->is_return)
		unregister_kretprobe(&tp->kp->rp);
	else
		unregister_kprobe(tkp_kprobe_of(tp));
	tkp_kprobe_forget(tp);
	return false;
}

static bool tkp_kprobe_on_entry(const struct tkp_probe *tp)
{
	return !kprobe_on_func_entry((kprobe_opcode_t *)tp->addr, NULL, 0);
}

static unsigned int tkp_kprobe_nr_funcs(const struct tkp_probe *tp)
{
	return 1;
}

static unsigned long tkp_kprobe_missed(const struct tkp_probe *tp)
{
	return tkp_kprobe_of(tp)->nmissed +
	       (tp->ev->is_return ? tp->kp->rp.nmissed : 0);
}

static const struct tkp_place_ops tkp_kprobe_place = {
	.arm		= tkp_kprobe_arm,
	.disarm		= tkp_kprobe_disarm,
	.unregister	= tkp_kprobe_unregister,
	.on_entry	= tkp_kprobe_on_entry,
	.nr_funcs	= tkp_kprobe_nr_funcs,
	.missed		= tkp_kprobe_missed,
};

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
	tp->on_ftrace = false;
	WRITE_ONCE(tp->ops, &tkp_kprobe_place);
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

/**
 * tkp_place_register - make a place live, disarmed
 * @tp: the place, with its event set
 *
 * On ftrace if it can be, else as a kprobe or kretprobe.
 *
 * Return: 0, or an error (with @tp->in_notrace set if that is why).
 */
int tkp_place_register(struct tkp_probe *tp)
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

/**
 * __tkp_place_arm - arm one more place of an event in use, not committed
 * @tp: the place
 *
 * For a caller arming several at once: tkp_places_sync() applies them.
 *
 * Return: 0, or an error.
 */
int __tkp_place_arm(struct tkp_probe *tp)
{
	return tkp_arm_place(tp);
}

/**
 * tkp_place_arm - arm one more place of an event in use
 * @tp: the place
 *
 * Return: 0, or an error with @tp left disarmed.
 */
int tkp_place_arm(struct tkp_probe *tp)
{
	int ret;

	if (!tkp_place_live(tp) || !tp->ops->commits)
		return tkp_arm_place(tp);
	ret = tkp_arm_place(tp);
	if (!ret)
		ret = tkp_places_commit();
	if (ret && tp->ops->disarm(tp)) {
		tkp_places_sync();
		synchronize_rcu();
	}
	return ret;
}

/**
 * tkp_place_unregister - disarm and unregister a place
 * @tp: the place
 *
 * A fentry place keeps its pool, for its module's next load.
 *
 * Return: whether its hooks were linked until now: a handler may still
 * be running on them, until a grace period has passed.
 */
bool tkp_place_unregister(struct tkp_probe *tp)
{
	bool linked;

	if (!tkp_place_live(tp))
		return false;
	linked = tp->ops->unregister(tp);
	WRITE_ONCE(tp->ops, NULL);
	return linked;
}

/**
 * tkp_place_abandon - unregister a place that is to be freed at once
 * @tp: the place
 *
 * Its hooks may have been linked for a while (its event was in use):
 * handlers may be on them, and on the returns they hooked, until a grace
 * period after the pool stops taking them.
 */
void tkp_place_abandon(struct tkp_probe *tp)
{
	tkp_place_unregister(tp);
	tkp_fentry_abandon(tp);
}

/**
 * tkp_places_unregister - unregister many places at once
 * @tps: the places
 * @n: how many
 *
 * Kprobes in two batches (entry, return), each waiting for a single
 * grace period.
 *
 * Return: 0, or -ENOMEM with nothing done.
 */
int tkp_places_unregister(struct tkp_probe **tps, unsigned int n)
{
	struct kretprobe **rps;
	struct kprobe **kps;
	unsigned int i, nk = 0, nrp = 0;
	struct tkp_probe *tp;

	kps = kcalloc(n, sizeof(*kps), GFP_KERNEL);
	rps = kcalloc(n, sizeof(*rps), GFP_KERNEL);
	if (!kps || !rps) {
		kfree(kps);
		kfree(rps);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		tp = tps[i];
		if (tp->ops != &tkp_kprobe_place)
			tkp_place_unregister(tp);	/* no waiting */
		else if (tp->ev->is_return)
			rps[nrp++] = &tp->kp->rp;
		else
			kps[nk++] = tkp_kprobe_of(tp);
	}
	if (nk)
		unregister_kprobes(kps, nk);
	if (nrp)
		unregister_kretprobes(rps, nrp);
	for (i = 0; i < n; i++) {
		if (tps[i]->ops != &tkp_kprobe_place)
			continue;
		tkp_kprobe_forget(tps[i]);
		WRITE_ONCE(tps[i]->ops, NULL);
	}
	kfree(kps);
	kfree(rps);
	return 0;
}

/**
 * tkp_place_release - free what a place's handlers use, once they are done
 * @tp: the place, unregistered
 *
 * A return handler may run until a fentry place's pool is gone; its
 * memory goes one grace period later.  The caller waits for that, or
 * frees @tp after it (call_rcu()).
 */
void tkp_place_release(struct tkp_probe *tp)
{
	tkp_fentry_release(tp);
}

/**
 * tkp_place_free - free what a place holds
 * @tp: the place, unregistered, its handlers done
 */
void tkp_place_free(struct tkp_probe *tp)
{
	kfree(tp->kp);
	tp->kp = NULL;
	tkp_fentry_free(tp);
}

/**
 * tkp_place_module_going - a module, or its init code, goes from under a place
 * @tp: the place
 * @mod: the module
 * @init: only its init code goes (the module is live now)
 *
 * Return: whether a hook was linked (a handler may still be running on it).
 */
bool tkp_place_module_going(struct tkp_probe *tp, struct module *mod,
			    bool init)
{
	if (!tkp_place_live(tp) || !tp->ops->module_going)
		return false;
	return tp->ops->module_going(tp, mod, init);
}

/**
 * tkp_place_single - is a place on one function
 * @tp: the place
 *
 * Return: false for a pattern's place on several functions.
 */
bool tkp_place_single(const struct tkp_probe *tp)
{
	const struct tkp_place_ops *ops = READ_ONCE(tp->ops);

	return !ops || ops->nr_funcs(tp) == 1;
}

/**
 * tkp_place_on_entry - is a live place on the entry of a function
 * @tp: the place
 *
 * Return: true if so.
 */
bool tkp_place_on_entry(const struct tkp_probe *tp)
{
	const struct tkp_place_ops *ops = READ_ONCE(tp->ops);

	return ops && ops->on_entry(tp);
}

/**
 * tkp_place_missed - misses the kprobes core counted for a place
 * @tp: the place
 *
 * Return: the kprobe's (and kretprobe's) missed count, 0 on ftrace.
 */
unsigned long tkp_place_missed(const struct tkp_probe *tp)
{
	if (!tkp_place_live(tp) || !tp->ops->missed)
		return 0;
	return tp->ops->missed(tp);
}

/**
 * tkp_place_misses - misses of a place's return instances
 * @tp: the place
 * @no_instance: set to the hits that found no instance free
 * @idle: set to those in the idle task, where none is taken
 *
 * Counted by a fentry place's pools, which outlive its registrations;
 * a kretprobe's are the kprobes core's (tkp_place_missed()).
 */
void tkp_place_misses(const struct tkp_probe *tp, unsigned long *no_instance,
		      unsigned long *idle)
{
	tkp_fentry_misses(tp, no_instance, idle);
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

static int tkp_count_mod(void *data, const char *name, unsigned long addr)
{
	struct tkp_count *c = data;

	if (!strcmp(name, c->sym))
		c->n++;
	return 0;
}

/**
 * tkp_count_symbols - how many functions of the kernel and modules go by a name
 * @sym: the name
 *
 * Return: the count.
 */
unsigned int tkp_count_symbols(const char *sym)
{
	struct tkp_count c = { .sym = sym };

	kallsyms_on_each_match_symbol(tkp_count_one, sym, &c);
	tkp_module_kallsyms_walk(NULL, tkp_count_mod, &c);
	return c.n;
}

/**
 * tkp_module_absent - is a place in a module that is not loaded
 * @tp: the place
 *
 * Return: true if @tp is on "MOD:SYM" and MOD is not loaded (or going).
 */
bool tkp_module_absent(struct tkp_probe *tp)
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

