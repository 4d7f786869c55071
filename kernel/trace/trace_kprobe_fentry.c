// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe-based event tracer: fentry places.
 *
 * A probe on the entry of a function ftrace can patch is hooked through
 * ftrace rather than a kprobe: a hook on a site of our ftrace_ops (three
 * ops: one saving only the argument registers, one saving all, one that
 * only hooks returns; see TKP_OPS_ARGS), many
 * functions armed in one ftrace update, and for a return probe a pool of
 * rethook instances that grows on demand.  Built where the architecture
 * has ftrace with registers and rethook (CONFIG_KPROBE_EVENTS_FENTRY);
 * elsewhere every place is a kprobe.  The kprobes core, which does not
 * know these places, asks about them through a notifier: they show in
 * debugfs kprobes/list and follow kprobes/enabled, leaving our ops'
 * filters while it is 0.  The hit side is in trace_kprobe_hit.c;
 * everything here runs under event_mutex, but for the pools' work (a
 * workqueue, asked for through an irq_work: tkp_pool_work()).
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/compat.h>
#include <linux/file.h>
#include <linux/glob.h>
#include <linux/kallsyms.h>
#include <linux/magic.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/task_work.h>

#include <asm/syscall.h>

#include "trace_kprobe.h"

DEFINE_HASHTABLE(tkp_sites, TKP_SITE_BITS);

static LIST_HEAD(tkp_dirty_sites);
static struct task_struct *tkp_sync_task;	/* has tkp_sync_cb queued */
/*
 * kprobes/enabled reads 0: every site is kept out of our ops' filters,
 * armed places and all, as the kprobes core keeps its kprobes disarmed.
 * Set from tkp_kprobes_follow(); read under event_mutex only, so the hit
 * path pays nothing for it.
 */
static bool tkp_all_off;

static void tkp_site_dirty(struct tkp_site *site)
{
	if (list_empty(&site->dirty))
		list_add_tail(&site->dirty, &tkp_dirty_sites);
}

static bool tkp_armed(const struct tkp_probe *tp)
{
	return tp->fe.armed;
}

/*
 * Take @hk off its site's list.  A handler may be on it still, and go on
 * from it to the next: the hook may be linked again only after a grace
 * period (tkp_site_arm() waits for it, if it has not passed by then),
 * which the caller starts once it has unlinked what it unlinks
 * (tkp_hooks_unlinked()).
 */
static void tkp_hook_unlink(struct tkp_probe *tp, struct tkp_hook *hk)
{
	list_del_rcu(&hk->site_link);
	WRITE_ONCE(hk->site->single, list_is_singular(&hk->site->probes));
	tkp_site_dirty(hk->site);
	hk->site = NULL;
	tp->fe.unlinked = true;
}

/*
 * The grace period after @tp's last unlink, started now, before ftrace
 * unhooks the sites: it has often passed when a wait for it comes
 * (tkp_site_arm(), tkp_fentry_release()).
 */
static void tkp_hooks_unlinked(struct tkp_probe *tp)
{
	tp->fe.unlink_gp = start_poll_synchronize_rcu();
}

static void tkp_site_disarm(struct tkp_probe *tp)
{
	unsigned int i;
	bool any = false;

	for (i = 0; i < tp->fe.nr_hooks; i++) {
		if (tp->fe.hooks[i].site) {
			tkp_hook_unlink(tp, &tp->fe.hooks[i]);
			any = true;
		}
	}
	if (any)
		tkp_hooks_unlinked(tp);
	tp->fe.armed = false;
}

static int tkp_site_arm(struct tkp_probe *tp)
{
	struct tkp_site *site;
	struct tkp_hook *hk;
	unsigned int i;

	if (tp->fe.unlinked)
		cond_synchronize_rcu(tp->fe.unlink_gp);
	tp->fe.unlinked = false;
	for (i = 0; i < tp->fe.nr_hooks; i++) {
		hk = &tp->fe.hooks[i];
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
			site->served = TKP_OPS_NONE;
			INIT_LIST_HEAD(&site->probes);
			INIT_LIST_HEAD(&site->dirty);
			hlist_add_head_rcu(&site->hnode,
					   tkp_site_bucket(site->ip));
		}
		list_add_tail_rcu(&hk->site_link, &site->probes);
		WRITE_ONCE(site->single, list_is_singular(&site->probes));
		hk->site = site;
		tkp_site_dirty(site);
		cond_resched();	/* a pattern may have every function */
	}
	tp->fe.armed = true;
	return 0;
}

/*
 * Is @site wanted at all, and by which ops (the index in tkp_fops)?  Not
 * while kprobes are disarmed through debugfs.
 */
static int tkp_site_want(struct tkp_site *site)
{
	struct tkp_hook *hk;
	int want = -1;

	if (tkp_all_off)
		return -1;
	list_for_each_entry(hk, &site->probes, site_link) {
		if (tkp_needs_full(hk->tp) || !TKP_HAVE_ARGS_OPS)
			return TKP_OPS_FULL;
		if (!tkp_hooks_return_only(hk->tp))
			want = TKP_OPS_ARGS;
		else if (want < 0)
			want = TKP_OPS_RET;
	}
	return want;
}

static bool tkp_ops_is(int i, int want)
{
	return i == want;
}

/*
 * Is @site to leave tkp_fops[@i]'s filter now: in it, not wanted there,
 * and not served by it (a site moving to the other ops switched already).
 */
static bool tkp_site_leaves(struct tkp_site *site, int i)
{
	int want = site->want;	/* tkp_places_sync()'s */

	return site->in[i] && want != i && (want < 0 || site->served != i);
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

	if (nr == f->nr) {
		/*
		 * An empty filter would mean every function: stop first.
		 * Then empty it whole, dropping too what a failed removal
		 * of a gone module's address left in it.
		 */
		if (f->on && unregister_ftrace_function(&f->ops))
			return -EBUSY;
		f->on = false;
		ret = ftrace_set_filter_ips(&f->ops, NULL, 0, 0, 1);
	} else {
		ret = ftrace_set_filter_ips(&f->ops, ips, nr, 1, 0);
		/*
		 * The address of a module's code that went (its init code,
		 * or the module) is one ftrace no longer knows (-EINVAL), or
		 * has dropped from the filter (-ENOENT): it hooks nothing
		 * any more, so it is out.  The next reset drops the entry.
		 */
		if (ret && nr == 1 &&
		    (ret == -ENOENT || !ftrace_location(ips[0])))
			ret = 0;
	}
	if (!ret)
		f->nr -= nr;
	return ret;
}

/*
 * Site @site is served by ops @ops (TKP_OPS_NONE: none) from now, and
 * each ops' count of the sites it serves follows (tkp_fops_idle()).  The
 * count of the ops it moves to is raised before, that of the one it
 * leaves lowered after: on x86_64, the only kernel where a site moves
 * from one ops to another, a hit sees them in that order (a site of
 * arm64's only ops comes and goes).  Elsewhere a hit racing with the
 * switch may find the ops idle: it is one that may go unrecorded anyway.
 */
static void tkp_site_serve(struct tkp_site *site, int ops)
{
	struct tkp_fops *to = ops != TKP_OPS_NONE ? &tkp_fops[ops] : NULL;
	int old = site->served;
	struct tkp_fops *from = old != TKP_OPS_NONE ? &tkp_fops[old] : NULL;

	if (old == ops)
		return;
	if (to && !to->nr_served++)
		WRITE_ONCE(to->serving, true);
	WRITE_ONCE(site->served, ops);
	if (from && !--from->nr_served)
		WRITE_ONCE(from->serving, false);
}

/**
 * tkp_places_sync - apply the arming and disarming done so far, now
 *
 * Brings our ops' filters in line with the armed sites: one ftrace update
 * (a walk over every function of the kernel) per ops for all additions,
 * and one for all removals.  A site that changes ops is added to the new
 * one before it leaves the old, and switches in between, so that it is
 * served all along.  A call that comes as it switches runs both ops'
 * callbacks, each of which reads the switch on its own: it may be served
 * by both, or neither.  What fails stays on the dirty list.
 *
 * Return: 0, or the first error of an ftrace update.
 */
int tkp_places_sync(void)
{
	struct tkp_site *site, *n;
	unsigned int nr = 0, cnt;
	unsigned long *ips;
	int i, want, ret, err = 0;

	lockdep_assert_held(&event_mutex);
	/* What each site wants, asked once (a pattern's are thousands). */
	list_for_each_entry(site, &tkp_dirty_sites, dirty) {
		site->want = tkp_site_want(site);
		nr++;
	}
	if (!nr)
		return 0;
	ips = kvmalloc_array(nr, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;

	for (i = 0; i < TKP_NR_OPS; i++) {
		cnt = 0;
		list_for_each_entry(site, &tkp_dirty_sites, dirty)
			if (site->want == i && !site->in[i])
				ips[cnt++] = site->ip;
		if (!cnt)
			continue;
		ret = tkp_filter_add(&tkp_fops[i], ips, cnt);
		list_for_each_entry(site, &tkp_dirty_sites, dirty) {
			if (site->want != i || site->in[i])
				continue;
			/*
			 * One at a time if the batch failed: a site that cannot
			 * be hooked is not to keep the others unhooked.  Not
			 * without memory: each try would copy the whole filter
			 * (every function, for a pattern of them all).
			 */
			if (ret && (ret == -ENOMEM ||
				    tkp_filter_add(&tkp_fops[i], &site->ip, 1))) {
				err = err ?: ret;
				continue;
			}
			site->in[i] = true;
		}
	}

	/*
	 * A site no ops wants is served by none from now: the hits ftrace
	 * delivers while it unhooks it (and every other function of a
	 * pattern, many of them called by the patching) stop at the site
	 * (bench row allclr).  Nothing there is armed to record them.
	 */
	list_for_each_entry(site, &tkp_dirty_sites, dirty) {
		want = site->want;
		if (want < 0)
			tkp_site_serve(site, TKP_OPS_NONE);
		else if (site->in[want])
			tkp_site_serve(site, want);
	}

	for (i = 0; i < TKP_NR_OPS; i++) {
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
			if (ret && (ret == -ENOMEM ||
				    tkp_filter_del(&tkp_fops[i], &site->ip, 1)))
				continue;
			site->in[i] = false;
		}
	}
	kvfree(ips);

	list_for_each_entry_safe(site, n, &tkp_dirty_sites, dirty) {
		want = site->want;
		/* In the filter of the ops it wants, and only there? */
		for (i = 0; i < TKP_NR_OPS; i++)
			if (site->in[i] != tkp_ops_is(i, want))
				break;
		if (i < TKP_NR_OPS)
			continue;
		list_del_init(&site->dirty);
		/* Kept while places are armed on it, kprobes/enabled or not. */
		if (list_empty(&site->probes)) {
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
	ret = tkp_places_sync();
	if (ret)
		tkp_tell_unarmed(ret);
	mutex_unlock(&event_mutex);
}

/*
 * May the ftrace update of a write's later changes wait for the caller's
 * return to user space?  Only when the caller is a write to a tracefs
 * file (an events' enable file, set_event, kprobe_events): the writer
 * cannot see the result before the write returns, and a write that
 * enables a whole group of events pays for two updates (its first
 * change's and the others').  Any other caller gets its update at once, and its
 * errno: kernel code (a module's init, bootconfig, a driver's own file)
 * calls a function next and expects it traced, perf and BPF attach one
 * event per call anyway.
 */
static bool tkp_may_defer(void)
{
	unsigned long args[6];
	struct pt_regs *regs;
	struct file *file;
	bool ret = false;

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
	file = fget(args[0]);
	if (file) {
		ret = file_inode(file)->i_sb->s_magic == TRACEFS_MAGIC;
		fput(file);
	}
	return ret;
}

/**
 * tkp_places_commit - apply the arming and disarming done so far
 *
 * An ftrace update costs a walk over every function of the kernel.  The
 * first change a write to tracefs makes is applied at once, so that its
 * failure fails the write, as the kernel's own tracer's would; those the
 * same write makes after it (the other events of a group being enabled,
 * say) are applied together as the writer returns to user space, before
 * it can see the write's result, and a failure then can only be told in
 * error_log.  Other callers get every change at once.
 *
 * Return: 0, or the error of an update made now.
 */
int tkp_places_commit(void)
{
	struct callback_head *cb;
	int ret;

	lockdep_assert_held(&event_mutex);
	if (list_empty(&tkp_dirty_sites) || tkp_sync_task == current)
		return 0;
	ret = tkp_places_sync();
	if (ret || !tkp_may_defer())
		return ret;
	cb = kmalloc(sizeof(*cb), GFP_KERNEL);
	if (!cb)
		return 0;	/* the write's next changes are applied at once */
	init_task_work(cb, tkp_sync_cb);
	if (task_work_add(current, cb, TWA_RESUME)) {
		kfree(cb);
		return 0;
	}
	tkp_sync_task = current;
	return 0;
}

#if TKP_FENTRY_RETURNS
/*
 * Returns were missed: say how many, in the trace instances the event
 * records to (perf and BPF users have the count of misses in
 * kprobe_profile).  From the pool's work, not the hit path: %ps reaches
 * kallsyms functions a return probe may be on, whose pools may be empty
 * too, and a hit there only queues this work again.
 */
static void tkp_pool_tell(struct tkp_pool *pool, int n)
{
	struct trace_event_file *file;
	struct tkp_files *files;
	unsigned long func;
	unsigned int i;
	int len;

	func = READ_ONCE(pool->lost_func);
	len = scnprintf(pool->note, sizeof(pool->note),
			"%s/%s: %d returns of %ps missed (no free instance)\n",
			pool->ev->class.system, pool->ev->call.name, n,
			(void *)func);
	rcu_read_lock_sched();
	files = rcu_dereference_sched(pool->ev->files);
	for (i = 0; files && i < files->nr; i++) {
		file = READ_ONCE(files->file[i]);
		if (file)
			__trace_array_puts(file->tr, func, pool->note, len);
	}
	rcu_read_unlock_sched();
}

/* The current generation, for the pool's work, allocation and freeing. */
static struct tkp_gen *tkp_pool_cur(struct tkp_pool *pool)
{
	/* Only they change it, and they never run at once. */
	return rcu_dereference_protected(pool->cur, true);
}

/* How many instances out of a generation of @size ask for a bigger one. */
static unsigned int tkp_gen_grow_at(unsigned int size)
{
	return size < TKP_POOL_MAX ? size / 4 * 3 : UINT_MAX;
}

/* A generation of @size instances for @pool, or NULL. */
static struct tkp_gen *tkp_gen_alloc(struct tkp_pool *pool, unsigned int size)
{
	struct tkp_gen *gen;

	gen = kzalloc(sizeof(*gen), GFP_KERNEL);
	if (!gen)
		return NULL;
	gen->rh = tkp_rethook_alloc(gen, tkp_ret_handler, pool->node_size,
				    size);
	if (!gen->rh) {
		kfree(gen);
		return NULL;
	}
	gen->size = size;
	gen->grow_at = tkp_gen_grow_at(size);
	gen->tp = pool->tp;
	gen->ev = pool->tp->ev;
	gen->ctx = pool->tp->duration || pool->tp->entry_size;
	gen->duration = pool->tp->duration;
	gen->pool = pool;
	INIT_LIST_HEAD(&gen->link);
	return gen;
}

/*
 * Free @gen, from which no instance is taken any more.  Those the pool's
 * work took back go back to its rethook first, to be freed with the
 * others; those still out are freed by rethook as they come back, their
 * handler no longer called.  A handler running may still read @gen: it
 * goes a grace period later.
 */
static void tkp_gen_free(struct tkp_gen *gen)
{
	struct tkp_rnode *rn;

	while ((rn = gen->held)) {
		gen->held = rn->next;
		preempt_disable();	/* as rethook_recycle() wants */
		rethook_recycle(&rn->node);
		preempt_enable();
	}
	rethook_free(gen->rh);
	kfree_rcu(gen, rcu);
}

/*
 * Take back the instances that have come home to retired generation
 * @gen.  Only this takes from it, once a grace period has passed since
 * it was replaced (tkp_pool_turn()), so what is taken has come home for
 * good.  An instance taken with @out still set came back without its
 * handler, recycled by rethook_flush_task() as its task exited in the
 * function: those are counted in @flushed.
 *
 * Return: whether every instance of @gen is home.
 */
static bool tkp_gen_reap(struct tkp_gen *gen, unsigned int *flushed)
{
	struct rethook_node *node;
	struct tkp_rnode *rn;

	while (gen->home < gen->size) {
		preempt_disable();	/* as rethook_try_get() wants */
		node = rethook_try_get(gen->rh);
		preempt_enable();
		if (!node)
			break;
		rn = container_of(node, struct tkp_rnode, node);
		if (rn->out) {
			rn->out = false;
			atomic_dec(&gen->busy);
			(*flushed)++;
		}
		rn->next = gen->held;
		gen->held = rn;
		gen->home++;
		cond_resched();
	}
	return gen->home == gen->size;
}

/*
 * Make a new generation of @size instances the one the hit path takes
 * from, and retire the one before; return once no hit can take from
 * that one any more (they run with preemption off: a grace period).
 *
 * Return: false if the new generation could not be allocated (nothing
 * changed), else true.
 */
static bool tkp_pool_turn(struct tkp_pool *pool, unsigned int size)
{
	struct tkp_gen *old = tkp_pool_cur(pool), *gen;

	gen = tkp_gen_alloc(pool, size);
	if (!gen)
		return false;
	rcu_assign_pointer(pool->cur, gen);
	list_add(&old->link, &pool->retired);
	pool->nr_retired++;
	pool->reap_shift = 0;
	synchronize_rcu();
	return true;
}

/*
 * Free the retired generations of @pool whose instances are all home.
 * @just is the generation the work has just retired, or NULL: what it
 * was asking for decides @inflated (see tkp_pool_work()).
 */
static void tkp_pool_reap(struct tkp_pool *pool, struct tkp_gen *just)
{
	struct tkp_gen *gen, *tmp;
	unsigned int flushed;
	bool home;

	list_for_each_entry_safe(gen, tmp, &pool->retired, link) {
		flushed = 0;
		home = tkp_gen_reap(gen, &flushed);
		if (gen == just)
			pool->inflated = flushed &&
					 gen->size - gen->home < gen->grow_at;
		if (home) {
			list_del(&gen->link);
			pool->nr_retired--;
			tkp_gen_free(gen);
		}
	}
}

/* Is the pool's current generation to ask for more again? */
static bool tkp_pool_retry(struct tkp_pool *pool, struct tkp_gen *cur)
{
	return READ_ONCE(cur->grow_at) == UINT_MAX &&
	       cur->size < TKP_POOL_MAX &&
	       pool->nr_retired < TKP_POOL_GENS &&
	       !time_before(jiffies, pool->retry_at);
}

/*
 * The pool's work: grow the pool if it is low, free the retired
 * generations whose instances are all home, tell of missed returns.
 *
 * Growing is asked for by the hit path, when three quarters of the
 * current generation are out or when it was found empty (a miss): a
 * generation four times the size takes over (tkp_pool_turn()).
 *
 * The busy count a generation asks by counts an instance recycled
 * unreturned (by rethook_flush_task(): a task exiting in the function)
 * as out, until the instance is taken again: its @out flag tells the hit
 * path not to count it twice.  6.1's rethook takes its instances last
 * recycled first, the same few over and over, so exits barely move the
 * count; 6.12's objpool takes each CPU's in turn, all of them before one
 * is taken again, so exits alone would bring the count to the threshold
 * and grow the pool, again and again, up to TKP_POOL_MAX.  Retiring a
 * generation shows which it was: it is drained (tkp_gen_reap()), and
 * instances home with @out still set were such exits.  When those made
 * the count (fewer than the threshold really out), the pool is
 * @inflated: its next call for more, if not a miss, gets a generation
 * of the same size instead, which counts from zero again and is measured
 * in turn.  At most TKP_POOL_GENS retired generations are kept for that;
 * past them, the current generation stops asking (a miss still grows)
 * until one of them is freed.
 *
 * A turn that cannot allocate its generation tries half the size, then
 * stops asking for a second (tkp_pool_retry()): each hit above the
 * threshold, and each miss, would otherwise call for the same large
 * allocation again at once, under the memory pressure that failed it.
 *
 * A retired generation is freed once all its instances are home, the
 * flushed ones too: no return announces those, so while retired
 * generations are left the work looks again, after 1 s, then 2, 4, up
 * to 64 s.  With the pool go those still waiting for a return.
 *
 * The hit path calls the work once per generation for its misses and
 * once per look of the work for more (tkp_pool_hook()): while misses
 * are told, the work looks again every 100 ms for those that followed,
 * and a pool at its largest is called again by its next miss.
 */
static void tkp_pool_work(struct work_struct *work)
{
	struct tkp_pool *pool = container_of(to_delayed_work(work),
					     struct tkp_pool, work);
	struct tkp_gen *cur = tkp_pool_cur(pool);
	/* A miss of a retired generation's (a hit racing a turn) is not. */
	bool missed = READ_ONCE(cur->missed);
	unsigned int size = cur->size, want = 0;
	unsigned long delay = 0;
	bool turned = false, waits;
	int lost;

	/* Seen: a hit past the threshold from now on asks again. */
	WRITE_ONCE(cur->asked, false);

	/* Those all home first: they count against TKP_POOL_GENS. */
	tkp_pool_reap(pool, NULL);
	if (tkp_pool_retry(pool, cur))
		WRITE_ONCE(cur->grow_at, tkp_gen_grow_at(size));
	/*
	 * Pairs with atomic_fetch_inc() in tkp_pool_hook(): of a hit taking
	 * an instance and this look, either the hit sees @asked clear and
	 * @grow_at as just set, or this sees the hit in @busy.
	 */
	smp_mb();
	waits = time_before(jiffies, pool->retry_at);
	if (!waits && (atomic_read(&cur->busy) >= READ_ONCE(cur->grow_at) ||
		       (missed && size < TKP_POOL_MAX))) {
		if (missed || !pool->inflated)
			want = min(size * 4, TKP_POOL_MAX);
		else if (pool->nr_retired < TKP_POOL_GENS)
			want = size;
		else
			WRITE_ONCE(cur->grow_at, UINT_MAX);
	}
	if (want) {
		turned = tkp_pool_turn(pool, want) ||
			 (want > size && tkp_pool_turn(pool, max(want / 2, size)));
		if (!turned) {
			pool->retry_at = jiffies + HZ;
			WRITE_ONCE(cur->grow_at, UINT_MAX);
			waits = true;
		}
	}
	if (turned)
		tkp_pool_reap(pool, cur);
	if (!list_empty(&pool->retired)) {
		delay = HZ << pool->reap_shift;
		if (pool->reap_shift < 6)
			pool->reap_shift++;
	} else if (waits) {
		delay = HZ;
	}
	/*
	 * A pool at its largest never turns (@cur is still the current
	 * generation): its next miss calls again.  atomic_xchg() is fully
	 * ordered, pairing with smp_mb__after_atomic() in tkp_pool_hook():
	 * a miss is counted in what is taken here or sees @missed clear.
	 */
	if (!turned && size >= TKP_POOL_MAX)
		WRITE_ONCE(cur->missed, false);
	lost = atomic_xchg(&pool->lost, 0);
	if (lost > 0) {
		tkp_pool_tell(pool, lost);
		/* A smaller pool's later misses do not call: look for them. */
		delay = HZ / 10;
	}
	if (delay)
		queue_delayed_work(system_wq, &pool->work, delay);
}

static void tkp_pool_irq(struct irq_work *irq)
{
	struct tkp_pool *pool = container_of(irq, struct tkp_pool, irq);

	mod_delayed_work(system_wq, &pool->work, 0);
}

static struct tkp_pool *tkp_pool_alloc(struct tkp_probe *tp, unsigned int nr)
{
	struct tkp_pool *pool;
	struct tkp_gen *gen;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	pool->tp = tp;
	pool->ev = tp->ev;
	pool->node_size = sizeof(struct tkp_rnode) + tp->entry_size;
	INIT_LIST_HEAD(&pool->retired);
	init_irq_work(&pool->irq, tkp_pool_irq);
	INIT_DELAYED_WORK(&pool->work, tkp_pool_work);
	gen = tkp_gen_alloc(pool, nr);
	if (!gen) {
		kfree(pool);
		return NULL;
	}
	RCU_INIT_POINTER(pool->cur, gen);
	return pool;
}

/*
 * tkp_pool_free - free a return probe's pool of instances
 * @pool: the pool, or NULL
 *
 * No entry hook may run any more (disarmed, and a grace period since).
 * Instances still out, of any generation, come back to a rethook without
 * a handler and are freed; a return handler still running is done after
 * a grace period.
 */
static void tkp_pool_free(struct tkp_pool *pool)
{
	struct tkp_gen *gen, *tmp;

	if (!pool)
		return;
	/* Its misses stay the place's (event_mutex held). */
	pool->tp->fe.no_instance += atomic_read(&pool->no_instance);
	pool->tp->fe.idle += atomic_read(&pool->idle);
	irq_work_sync(&pool->irq);
	cancel_delayed_work_sync(&pool->work);
	tkp_gen_free(tkp_pool_cur(pool));
	list_for_each_entry_safe(gen, tmp, &pool->retired, link)
		tkp_gen_free(gen);
	kfree_rcu(pool, rcu);
}
#else
/* No rethook: tkp_fentry_register() leaves return probes to kretprobes. */
static struct tkp_pool *tkp_pool_alloc(struct tkp_probe *tp, unsigned int nr)
{
	return NULL;
}

static void tkp_pool_free(struct tkp_pool *pool)
{
}
#endif /* TKP_FENTRY_RETURNS */

/*
 * The ftrace site in (@base, @base + TKP_SITE_PAST_ENTRY], or at @base, or
 * 0.  One lookup: two sites are never that close, as every function with
 * one is longer than TKP_SITE_PAST_ENTRY (its patchable entry and a
 * return), so the one found is the one nearest @base.  Whether it is in
 * @base's function, the caller checks.
 */
static unsigned long tkp_site_near(unsigned long base)
{
	return ftrace_location_range(base, base + TKP_SITE_PAST_ENTRY);
}

/*
 * The ftrace site that serves a kprobe on @base + @offset, or 0 if none
 * does.  The kprobes core moves a probe on a function's first byte past
 * x86's endbr64, to where ftrace's call is: so does this, and only a
 * site at that very address will do, which ftrace_location_range()
 * answers alone; ftrace_location() would first look a non-site up in
 * kallsyms, the most of what a pattern's walk over every symbol cost
 * (bench row alldef).  Where ftrace's call comes an instruction or two
 * after the entry a kprobe stays on (TKP_SITE_PAST_ENTRY: arm64), the
 * entry is served by the site there, in the function: not by any site
 * in the function's kallsyms range, as ftrace_location() would answer,
 * which on 6.1's arm64 may be that of an overridden __weak function's
 * body left behind it, never called.  A pattern's walk knows where each
 * function ends without kallsyms' lookup of its size (tkp_wild_one()).
 */
static unsigned long tkp_site_of(unsigned long base, long offset)
{
	unsigned long site, size, off;
	bool entry;

	if (!base || offset < 0)
		return 0;
	site = (unsigned long)arch_adjust_kprobe_addr(base, offset, &entry);
	if (!TKP_SITE_PAST_ENTRY || site != base || !entry)
		return site && ftrace_location_range(site, site) == site ?
		       site : 0;
	site = tkp_site_near(base);
	if (site == base)
		return site;
	if (!site || !kallsyms_lookup_size_offset(base, &size, &off) || off ||
	    site - base >= size)
		return 0;
	return site;
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
 * A function whose return the kprobes core refuses to hook
 * (kretprobe_blacklist[]: x86's __switch_to, which returns on the next
 * task's stack), which ftrace can hook on a kernel without the function
 * graph tracer.  @func is the function's start.
 */
static bool tkp_ret_refused(unsigned long func)
{
	int i;

	if (!kretprobe_blacklist_size)
		return false;
	for (i = 0; kretprobe_blacklist[i].name; i++)
		if ((unsigned long)kretprobe_blacklist[i].addr == func)
			return true;
	return false;
}

/*
 * A pattern's functions: those ftrace can hook whose names match (so not
 * notrace or inlined-away functions), less the ones kprobes refuse.  One
 * hook each, as many as there are: "*" is every function ftrace can hook.
 */

/*
 * A matching function's ftrace site and its start, as a record names it,
 * and whether kprobes refuse it (asked in tkp_wild_one()), or, where
 * that waits for the end of the walk, what the blacklist needs to say
 * (@cut, tkp_wild_settle()).
 */
struct tkp_wsite {
	unsigned long		site;
	unsigned long		func;
	bool			refused;
	bool			pending;
	bool			module;		/* a module's function */
	u32			cut;
};

/* tkp_wild_one()'s return that ends the walk of vmlinux, not an error */
#define TKP_WALK_END	1

struct tkp_wild {
	const char		*glob;
	const char		*mod;		/* "MOD:PATTERN": MOD, else NULL */
	char			mod_name[MODULE_NAME_LEN];	/* @mod's */
	struct tkp_wsite	*sites;
	unsigned int		max;		/* room in @sites */
	unsigned int		n;
	unsigned long		last;		/* the walk's last address */
	bool			modules;	/* walking modules' symbols */
	struct kprobe_blacklist_walk bl;	/* the blacklist along vmlinux */
	char			name[KSYM_NAME_LEN];
};

/* Room for twice as many sites (walks may sleep). */
static int tkp_wild_grow(struct tkp_wild *w)
{
	unsigned int max = w->max ? 2 * w->max : 1024;
	struct tkp_wsite *sites;

	sites = kvmalloc_array(max, sizeof(*sites), GFP_KERNEL);
	if (!sites)
		return -ENOMEM;
	if (w->n)
		memcpy(sites, w->sites, w->n * sizeof(*sites));
	kvfree(w->sites);
	w->sites = sites;
	w->max = max;
	return 0;
}

/*
 * The site of the function at @addr, a symbol of @w's walk.  Where a
 * site may lie past the entry (TKP_SITE_PAST_ENTRY), the walk of vmlinux
 * takes the one near the entry, and drops it once the next symbol shows
 * that it lies past the function's end (tkp_wild_ends()): kallsyms'
 * symbols come in address order, and the next address is where
 * kallsyms' lookup of the function's size would end it.  That lookup,
 * with ftrace's for each instruction past the entry, was a third of
 * what defining every function cost on arm64 (bench row alldef).
 * arm64 moves no entry (arch_adjust_kprobe_addr()): the site near a
 * symbol's entry is that tkp_site_of() gives, if it lies in the
 * function.
 */
static unsigned long tkp_wild_site(struct tkp_wild *w, unsigned long addr)
{
	if (!TKP_SITE_PAST_ENTRY || w->modules)
		return tkp_site_of(addr, 0);
	return tkp_site_near(addr);
}

/*
 * The function at the walk's last address ends at @end: a site taken
 * for it past that (tkp_wild_site()) is not in it.  Its names are the
 * last sites noted, all with the one site.
 */
static void tkp_wild_ends(struct tkp_wild *w, unsigned long end)
{
	while (TKP_SITE_PAST_ENTRY && w->n &&
	       w->sites[w->n - 1].func == w->last &&
	       w->sites[w->n - 1].site >= end)
		w->n--;
}

/*
 * A symbol whose name matches: its ftrace site, if it has one, noted
 * with the symbol's address (one walk; aliases give the same site twice,
 * sorted out later), and the kprobe blacklist's answer for it.  That
 * depends on the name kprobes look up for the address, vmlinux's first
 * at it in kallsyms' order, the walk's: for that name, the answer is
 * asked with the name in hand (looking each function's name up again
 * was most of what a pattern of every function cost to define, bench
 * row alldef); for another alias, or a module's symbol, the usual way.
 * Modules on their way out are asked later, once per function.
 */
static int tkp_wild_one(void *data, const char *name, unsigned long addr)
{
	struct tkp_wild *w = data;
	const char *raw = name, *llvm;
	unsigned long site;
	bool first;
	int ret;

	/*
	 * kallsyms walks vmlinux's symbols in address order (its lookups
	 * search them so).  Once init text is freed, core kernel text is
	 * [_stext, _etext) and the gate area, which has no symbols: none
	 * past _etext is a function to hook, wherever init text lay.  With
	 * CONFIG_KALLSYMS_ALL, read-only data, data and bss are a third of
	 * kallsyms, or half, and the walk's cost is mostly each name's
	 * expansion (bench row alldef).
	 */
	first = !w->modules && addr != w->last;
	if (first)
		tkp_wild_ends(w, addr);
	if (!w->modules && addr >= (unsigned long)_etext &&
	    system_state >= SYSTEM_FREEING_INITMEM)
		return TKP_WALK_END;
	w->last = addr;

	/*
	 * Neither vmlinux's data nor the padding the compiler puts before
	 * a function (a symbol of its own, "__pfx_" or kCFI's "__cfi_" and
	 * the function's name) has an ftrace site: with CONFIG_KALLSYMS_ALL
	 * and CONFIG_CALL_PADDING they are most of kallsyms, each costing
	 * a site lookup (bench row alldef).  memcmp() may read past the
	 * end of a shorter name: kallsyms' walk of vmlinux passes its
	 * names in a buffer of KSYM_NAME_LEN bytes.  A module's name, in
	 * its string table, is not compared: it is not core kernel text.
	 */
	if (!w->modules &&
	    (!core_kernel_text(addr) || !memcmp(name, "__pfx_", 6) ||
	     !memcmp(name, "__cfi_", 6)))
		return 0;

	/* ftrace matches names as kallsyms_lookup() cleans them up. */
	llvm = IS_ENABLED(CONFIG_LTO_CLANG) ? strstr(name, ".llvm.") : NULL;
	if (llvm) {
		strscpy(w->name, name, min_t(size_t, llvm - name + 1,
					     sizeof(w->name)));
		name = w->name;
	}
	/*
	 * Every function's name is one a suffixed function's may be cut
	 * to; padding's (skipped above) is none a pattern's function has.
	 */
	if (!w->modules)
		kprobe_blacklist_walk_note(&w->bl, addr,
				TKP_BLACKLIST_NAME_CLEANED ? name : raw);
	if (!glob_match(w->glob, name))
		return 0;
	site = tkp_wild_site(w, addr);
	if (!site)
		return 0;
	if (w->n == w->max) {
		ret = tkp_wild_grow(w);
		if (ret)
			return ret;	/* stops the walk */
	}
	w->sites[w->n].site = site;
	w->sites[w->n].func = addr;
	w->sites[w->n].pending = false;
	w->sites[w->n].module = w->modules;
	if (first) {
		ret = kprobe_blacklist_walk_sym(&w->bl, site,
				TKP_BLACKLIST_NAME_CLEANED ? name : raw,
				&w->sites[w->n].cut);
		w->sites[w->n].pending = ret == -EAGAIN;
		w->sites[w->n].refused = ret > 0;
	} else {
		w->sites[w->n].refused = within_kprobe_blacklist(site);
		cond_resched();	/* a module's walk does not */
	}
	w->n++;
	return 0;
}

/*
 * The blacklist's answers that waited for the end of vmlinux's walk: a
 * suffixed function's, which hangs on the function its name is cut to.
 * Asked along the walk, each looked that name up in kallsyms, a quarter
 * of what defining every function cost on x86_64 and a third on arm64
 * (bench row alldef); once the walk has seen every name on the
 * blacklist, only a function whose cut name is among them is asked the
 * usual way.
 */
static void tkp_wild_settle(struct tkp_wild *w)
{
	unsigned int i;

	for (i = 0; i < w->n; i++) {
		if (!w->sites[i].pending)
			continue;
		w->sites[i].refused = kprobe_blacklist_walk_cut(&w->bl,
					w->sites[i].site, w->sites[i].cut);
		w->sites[i].pending = false;
		cond_resched();
	}
}

/* By site, then function: which alias is kept does not hang on sort(). */
static int tkp_wsite_cmp(const void *a, const void *b)
{
	const struct tkp_wsite *x = a, *y = b;

	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return x->func < y->func ? -1 : x->func > y->func;
}

/*
 * kallsyms walks vmlinux's symbols in address order: a walk without
 * modules' functions comes sorted already, and sort() would take its
 * n log n steps all the same (bench row alldef).
 */
static void tkp_wsites_sort(struct tkp_wsite *sites, unsigned int n)
{
	unsigned int i;

	for (i = 1; i < n; i++)
		if (tkp_wsite_cmp(&sites[i - 1], &sites[i]) > 0)
			break;
	if (i < n)
		sort(sites, n, sizeof(*sites), tkp_wsite_cmp, NULL);
}

/*
 * Walk the kernel's and the modules' functions for @w's pattern.
 * Returns 0 or -ENOMEM.
 */
static int tkp_wild_walk(struct tkp_wild *w)
{
	int ret = 0;

	if (!w->mod) {
		kprobe_blacklist_walk_begin(&w->bl);
		ret = tkp_kallsyms_walk(tkp_wild_one, w);
		if (ret >= 0)
			tkp_wild_settle(w);
		kprobe_blacklist_walk_end(&w->bl);
	}
	if (ret < 0)
		return ret;
	/* A walk to the last symbol: its function's end is kallsyms' say. */
	if (TKP_SITE_PAST_ENTRY && ret != TKP_WALK_END &&
	    !tkp_site_of(w->last, 0))
		tkp_wild_ends(w, w->last);
	w->modules = true;
	return tkp_module_kallsyms_walk(w->mod, tkp_wild_one, w);
}

/* Returns 0, -ENOENT when no function is left, -ENOMEM. */
static int tkp_wild_register(struct tkp_probe *tp)
{
	const char *colon = strchr(tp->symbol, ':');
	unsigned int i, n = 0, skipped = 0;
	struct tkp_hook *hooks = NULL;
	struct tkp_wild *w;
	unsigned long site;
	int ret;

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->glob = tp->symbol;
	ret = -ENOENT;
	if (colon) {
		/* A name too long for a module's is no module's. */
		if (colon - tp->symbol >= sizeof(w->mod_name))
			goto out;
		strscpy(w->mod_name, tp->symbol, colon - tp->symbol + 1);
		w->mod = w->mod_name;
		w->glob = colon + 1;
	}
	ret = tkp_wild_walk(w);
	if (ret)
		goto out;
	ret = -ENOENT;
	if (!w->n)
		goto out;	/* no function ftrace can hook by such a name */
	/* One hook per function, however many names it goes by. */
	tkp_wsites_sort(w->sites, w->n);
	for (i = 0; i < w->n; i++) {
		site = w->sites[i].site;
		/* Each name got the kprobes core's one answer for the site. */
		if (i && site == w->sites[i - 1].site)
			continue;
		/* vmlinux's need no module lookup (bench row alldef). */
		if (w->sites[i].refused ||
		    (w->sites[i].module && tkp_in_going_module(site)) ||
		    (tp->ev->is_return &&
		     tkp_ret_refused(w->sites[i].func))) {
			skipped++;
			continue;
		}
		w->sites[n++] = w->sites[i];
		cond_resched();
	}
	if (!n)
		goto out;
	ret = -ENOMEM;
	hooks = kvcalloc(n, sizeof(*hooks), GFP_KERNEL);
	if (!hooks)
		goto out;
	for (i = 0; i < n; i++) {
		hooks[i].tp = tp;
		hooks[i].addr = w->sites[i].site;
		hooks[i].ip = w->sites[i].func;
	}
	if (tp->ev->is_return && !tp->fe.pool) {
		tp->fe.pool = tkp_pool_alloc(tp, tp->maxactive ?:
					     TKP_POOL_DEFAULT);
		if (!tp->fe.pool)
			goto out;
	}
	tp->skipped = skipped;
	if (tp->fe.hooks != &tp->fe.hook1)
		kvfree(tp->fe.hooks);
	tp->fe.hooks = hooks;
	tp->fe.nr_hooks = n;
	tp->addr = tkp_fentry_kaddr(hooks[0].addr, hooks[0].ip);
	tp->on_ftrace = true;
	WRITE_ONCE(tp->ops, &tkp_fentry_place);
	hooks = NULL;
	ret = 0;
out:
	kvfree(hooks);
	kvfree(w->sites);
	kfree(w);
	return ret;
}

/**
 * tkp_fentry_register - put a place on ftrace if it can be
 * @tp: the place
 *
 * If its place is the entry of a function ftrace can patch and kprobes
 * would accept.  perf's private probes go there
 * too: BPF gets the registers a kprobe would give (tkp_fentry_common()),
 * may move the instruction pointer, and bpf_get_func_ip() is told the
 * function in the programs' run context (tkp_perf()).
 *
 * Return: 0 when it did, 1 when @tp needs a kprobe instead, or an error.
 */
int tkp_fentry_register(struct tkp_probe *tp)
{
	unsigned long ip = tp->place, addr;

	if (!tkp_fentry_possible(tp))	/* as without fentry places */
		return tkp_is_pattern(tp->symbol) ? -EOPNOTSUPP : 1;
	if (tkp_is_pattern(tp->symbol))
		return tkp_wild_register(tp);
	if (!ip && tp->symbol) {
		ip = kallsyms_lookup_name(tp->symbol);
		addr = tkp_site_of(ip, tp->offset);
		ip += tp->offset;
	} else {
		addr = tkp_site_of(ip, 0);
	}
	if (!addr || within_kprobe_blacklist(addr) ||
	    (tp->ev->is_return && tkp_ret_refused(tkp_entry_of_site(addr))))
		return 1;	/* the kprobes core says why */
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
	if (tp->ev->is_return && !tp->fe.pool) {
		tp->fe.pool = tkp_pool_alloc(tp, tp->maxactive ?:
					     TKP_POOL_DEFAULT);
		if (!tp->fe.pool)
			return -ENOMEM;
	}
	if (tp->fe.hooks != &tp->fe.hook1)
		kvfree(tp->fe.hooks);
	tp->fe.hook1.tp = tp;
	tp->fe.hook1.addr = addr;
	tp->fe.hook1.ip = ip;
	tp->fe.hooks = &tp->fe.hook1;
	tp->fe.nr_hooks = 1;
	tp->addr = tkp_fentry_kaddr(addr, ip);
	tp->on_ftrace = true;
	WRITE_ONCE(tp->ops, &tkp_fentry_place);
	return 0;
}

/* Link a fentry place's hooks on their sites; the caller commits. */
static int tkp_fentry_arm(struct tkp_probe *tp)
{
	return tkp_armed(tp) ? 0 : tkp_site_arm(tp);
}

/* Unlink them; were they linked (a handler may be running on them)? */
static bool tkp_fentry_disarm(struct tkp_probe *tp)
{
	bool linked = tkp_armed(tp);

	tkp_site_disarm(tp);
	return linked;
}

/**
 * tkp_rehook - an event's armed places need other registers saved
 * @ev: the event, whose perf_on just changed
 *
 * Its sites move to the ftrace_ops that saves them all, or back.
 *
 * Return: 0, or the error of an ftrace update made now.
 */
int tkp_rehook(struct tkp_event *ev)
{
	struct tkp_probe *tp;
	unsigned int i;

	list_for_each_entry(tp, &ev->probes, sibling)
		for (i = 0; tkp_armed(tp) && i < tp->fe.nr_hooks; i++)
			if (tp->fe.hooks[i].site)
				tkp_site_dirty(tp->fe.hooks[i].site);
	return tkp_places_commit();
}

/*
 * @mod goes, and @tp's place was not written as "MOD:SYM": its
 * hooks into the module go for good, as a kprobe there is marked gone
 * for good; a module loaded later at the same address is not hooked.
 * With the last hook the place stops being live, and stays removable.
 * With @init, the module's init code goes (it is live now), for places
 * however written.  Kprobes are the kprobes core's business.
 */
static bool tkp_fentry_module_going(struct tkp_probe *tp, struct module *mod,
				    bool init)
{
	unsigned int i, left = 0;
	struct tkp_hook *hk;
	bool linked = false;

	for (i = 0; i < tp->fe.nr_hooks; i++) {
		hk = &tp->fe.hooks[i];
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
	if (linked)
		tkp_hooks_unlinked(tp);
	if (!left) {
		tp->fe.armed = false;
		WRITE_ONCE(tp->ops, NULL);
	}
	return linked;
}

static bool tkp_fentry_on_entry(const struct tkp_probe *tp)
{
	return true;
}

static unsigned int tkp_fentry_nr_funcs(const struct tkp_probe *tp)
{
	return tp->fe.nr_hooks;
}

const struct tkp_place_ops tkp_fentry_place = {
	.arm		= tkp_fentry_arm,
	.disarm		= tkp_fentry_disarm,
	.unregister	= tkp_fentry_disarm,	/* the hooks stay, for a reload */
	.module_going	= tkp_fentry_module_going,
	.on_entry	= tkp_fentry_on_entry,
	.nr_funcs	= tkp_fentry_nr_funcs,
	.commits	= true,
};

/**
 * tkp_fentry_release - free a place's pool of return instances now
 * @tp: the place, unregistered
 *
 * A hit may be on its hooks, about to take an instance, until a grace
 * period after they were unlinked: waited for here, if it has not passed
 * (the event's own quiet period may have begun before the unlinking).
 * Return handlers may run until a grace period after; @tp goes after one.
 */
void tkp_fentry_release(struct tkp_probe *tp)
{
	if (tp->fe.pool && tp->fe.unlinked)
		cond_synchronize_rcu(tp->fe.unlink_gp);
	tkp_pool_free(tp->fe.pool);
	tp->fe.pool = NULL;
}

/**
 * tkp_fentry_abandon - wait for a place's handlers, to free it at once
 * @tp: the place, just unregistered
 *
 * Its hooks may have been linked for a while: handlers may be on them,
 * and on the returns they hooked, until a grace period after the pool
 * stops taking them.
 */
void tkp_fentry_abandon(struct tkp_probe *tp)
{
	if (!tp->fe.unlinked)
		return;
	cond_synchronize_rcu(tp->fe.unlink_gp);
	tkp_fentry_release(tp);
	synchronize_rcu();
}

/**
 * tkp_fentry_free - free a place's hooks and pool
 * @tp: the place, unregistered, its handlers done
 */
void tkp_fentry_free(struct tkp_probe *tp)
{
	tkp_fentry_release(tp);
	if (tp->fe.hooks != &tp->fe.hook1)
		kvfree(tp->fe.hooks);
	tp->fe.hooks = NULL;
}

/**
 * tkp_fentry_misses - misses of a place's return instances
 * @tp: the place
 * @no_instance: set to the hits that found none free
 * @idle: set to those in the idle task, which takes none
 *
 * Those of its pools freed and of the one it has (under event_mutex, it
 * is not freed meanwhile).
 */
void tkp_fentry_misses(const struct tkp_probe *tp, unsigned long *no_instance,
		       unsigned long *idle)
{
	*no_instance = tp->fe.no_instance;
	*idle = tp->fe.idle;
	if (tp->fe.pool) {
		*no_instance += atomic_read(&tp->fe.pool->no_instance);
		*idle += atomic_read(&tp->fe.pool->idle);
	}
}

/*
 * One line of debugfs kprobes/list for @hk, as the kprobes core shows a
 * kprobe on an ftrace site: address (hidden as kallsyms hides it),
 * "k" or "r", symbol+offset, module, flags.  @name: KSYM_NAME_LEN bytes.
 */
static void tkp_list_hook(struct seq_file *m, const struct tkp_hook *hk,
			  char *name)
{
	unsigned long off = 0;
	const char *sym;
	char *mod = NULL;

	sym = kallsyms_lookup(hk->addr, NULL, &off, &mod, name);
	/* Zeros, as %px of NULL, for those kallsyms shows no address to */
	seq_printf(m, "%0*lx  %s  ", (int)(2 * sizeof(void *)),
		   kallsyms_show_value(m->file->f_cred) ? hk->addr : 0,
		   hk->tp->ev->is_return ? "r" : "k");
	if (sym)
		seq_printf(m, "%s+0x%lx  %s ", sym, off, mod ?: " ");
	else
		seq_printf(m, "%pS ", (void *)hk->addr);
	seq_printf(m, "%s[FTRACE]\n", hk->site ? "" : "[DISABLED]");
}

/*
 * debugfs kprobes/list: a line per function of each fentry place, armed
 * or not; [DISABLED] when its event has no user.  The places on
 * dyn_event_list, then perf's own (only while armed, which is while
 * their perf event is on).  A pattern's place can list every function
 * of the kernel: the walk stops once the seq_file's buffer is full (it
 * is called again with one twice the size), and lets others run between
 * lines, as a CPU that gives no quiescent state for the whole walk
 * stalls RCU when every function it calls is probed.
 */
static void tkp_list(struct seq_file *m)
{
	struct dyn_event *pos;
	struct tkp_site *site;
	struct tkp_probe *tp;
	struct tkp_hook *hk;
	unsigned int i, bkt;
	char *name;

	name = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	if (!name)
		return;
	for_each_dyn_event(pos) {
		if (!is_tkp(pos))
			continue;
		tp = to_tkp(pos);
		if (tp->ops != &tkp_fentry_place)
			continue;
		for (i = 0; i < tp->fe.nr_hooks; i++) {
			if (!tp->fe.hooks[i].addr)
				continue;
			tkp_list_hook(m, &tp->fe.hooks[i], name);
			if (seq_has_overflowed(m))
				goto out;
			cond_resched();
		}
	}
	hash_for_each(tkp_sites, bkt, site, hnode)
		list_for_each_entry(hk, &site->probes, site_link)
			if (hk->tp->ev->local)
				tkp_list_hook(m, hk, name);
out:
	kfree(name);
}

/*
 * kprobes/enabled was written: take every site out of our ops' filters
 * if kprobes are now disarmed, put those with armed places back if they
 * are armed.  Asked of the core, not told, so that of two writes racing
 * the last to get here has the last word.  A site that fails stays dirty
 * (tried again by every update) and fails the write.
 */
static int tkp_kprobes_follow(void)
{
	struct tkp_site *site;
	unsigned int bkt;

	tkp_all_off = kprobes_globally_disarmed();
	hash_for_each(tkp_sites, bkt, site, hnode)
		tkp_site_dirty(site);
	return tkp_places_sync();
}

static int tkp_kprobes_notify(struct notifier_block *nb, unsigned long what,
			      void *data)
{
	int ret = 0;

	mutex_lock(&event_mutex);
	if (what == KPROBES_FOREIGN_SWITCH)
		ret = tkp_kprobes_follow();
	else if (what == KPROBES_FOREIGN_LIST)
		tkp_list(data);
	mutex_unlock(&event_mutex);
	return notifier_from_errno(ret);
}

static struct notifier_block tkp_kprobes_nb = {
	.notifier_call	= tkp_kprobes_notify,
};

/* Before user space can write kprobes/enabled: nothing to follow yet. */
static int __init tkp_fentry_init(void)
{
	tkp_all_off = kprobes_globally_disarmed();
	return register_kprobes_foreign_notifier(&tkp_kprobes_nb);
}
core_initcall(tkp_fentry_init);
