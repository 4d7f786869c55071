// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_kmod: a test module for the kprobe_events selftests.  It reaches
 * what user space cannot: functions run in NMI context, a notrace
 * function, and the in-kernel event API called from a module.
 *
 * Files in /sys/kernel/debug/kpe_kmod/:
 *
 *   nmi          write N (1..1000): raise N NMIs on this CPU, one at a
 *                time, whose handler calls kpe_nmi_target(); read: how
 *                many of the last write's calls were made in NMI context.
 *                x86 only (-EOPNOTSUPP elsewhere).
 *   notrace      write anything: call kpe_notrace_fn() (notrace) and
 *                kpe_traced_fn() once each.
 *   notrace_on   read: 1 if kprobe events may probe notrace functions
 *                (CONFIG_KPROBE_EVENTS_ON_NOTRACE, or no KPROBES_ON_FTRACE,
 *                where the kernel's tracer does not tell them apart), else 0.
 *   notrace_offset
 *                read: the first offset N > 0 at which the kprobes core
 *                accepts a kprobe on kpe_notrace_fn+N (an instruction
 *                boundary), found with register_kprobe().
 *   api          write 1: create kprobes/kpe_api ("p kpe_api_target")
 *                with kprobe_event_gen_cmd_start()/_end(), enable it with
 *                trace_set_clr_event() and call kpe_api_target() once,
 *                all before the write returns; write 0: disable and
 *                delete it.  read: 1 if the module created it, else 0.
 *
 *   burst        write N (1..64): with preemption off, call
 *                kpe_burst_get_symbol_pos() N levels deep, N calls of it
 *                in flight at once, and no worker running on this CPU
 *                meanwhile.  Named so that one pattern (*get_symbol_pos)
 *                puts a return probe on it and on kallsyms'
 *                get_symbol_pos(), which %ps calls: a return probe with
 *                fewer instances misses returns (test_return_lost_nested.sh).
 *   spin         write N (1..60): spin N seconds in the kernel with
 *                preemption off, a hang the soft-lockup detector reports
 *                (make check's test that a hang fails the run).
 *
 *   mixed        write N (1..1000): register a kprobe on the entry of
 *                kpe_mixed_outer() (notrace: an int3 or a jump, not an
 *                ftrace hook), call that function N times, unregister it.
 *                The kprobe's handler calls int_sqrt() while the kprobe is
 *                active on the CPU, the function's body calls it again
 *                with none active (test_bpf_func_ip_mixed.sh).  read: how
 *                many times the last write's kprobe handler ran.
 *                -EOPNOTSUPP without kprobes.
 *
 * api_at_init=1 does what "echo 1 > api" does, from the module's init;
 * the module's exit deletes the event if it is there.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/async.h>
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>

#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/irq_vectors.h>
#include <asm/nmi.h>
#define KPE_HAVE_NMI 1
#else
#define KPE_HAVE_NMI 0
#endif

#define KPE_NMI_MAX		1000
#define KPE_NMI_WAIT_US		100000	/* per NMI */
#define KPE_API_EVENT		"kpe_api"

static bool api_at_init;
module_param(api_at_init, bool, 0444);
MODULE_PARM_DESC(api_at_init,
		 "create, enable and hit kprobes/kpe_api from the module's init");

/*
 * init_async_ms: the init queues async work that sleeps this long, and
 * the load waits for it after the module is live, before its init code
 * is freed (a window in which that code is still known to kallsyms and
 * ftrace, test_module_init_place.sh).
 */
static unsigned int init_async_ms;
module_param(init_async_ms, uint, 0444);
MODULE_PARM_DESC(init_async_ms,
		 "sleep this long in async work the load waits for, once live");

static void kpe_init_async(void *data, async_cookie_t cookie)
{
	msleep(init_async_ms);
}

static DEFINE_MUTEX(kpe_lock);
static struct dentry *kpe_dir;

/* ---------------------------------------------------------------------
 * The functions the tests probe.  noinline and noclone keep each one a
 * function of its own, under its own name; the counters it writes keep
 * it from being optimised away.
 */

static atomic_t kpe_nmi_target_calls = ATOMIC_INIT(0);
static atomic_t kpe_traced_calls = ATOMIC_INIT(0);
static atomic_t kpe_notrace_calls = ATOMIC_INIT(0);
static atomic_t kpe_api_calls = ATOMIC_INIT(0);
static int kpe_sink;

/*
 * Called from the NMI handler; traceable (it has an ftrace call site).
 * Plain moves come first, after the call site: a kprobe there can be
 * optimised into a jump (a locked instruction could not be).
 */
static noinline __noclone __used void kpe_nmi_target(void)
{
	WRITE_ONCE(kpe_sink, READ_ONCE(kpe_sink) + 1);
	barrier();
	atomic_inc(&kpe_nmi_target_calls);
}

/* No ftrace call site: the kernel refuses kprobe events on it. */
static notrace noinline __noclone __used int kpe_notrace_fn(int v)
{
	atomic_inc(&kpe_notrace_calls);
	WRITE_ONCE(kpe_sink, v);
	barrier();
	return v + 1;
}

/* The control: the same, traceable. */
static noinline __noclone __used int kpe_traced_fn(int v)
{
	atomic_inc(&kpe_traced_calls);
	WRITE_ONCE(kpe_sink, v);
	barrier();
	return v + 2;
}

/*
 * Traceable, but on the kprobe blacklist, which the kprobes core fills
 * with a module's entries as the module comes: never called, only
 * probed, or not (test_module_blacklist.sh).
 */
static noinline __noclone __used int kpe_nokprobe_fn(int v)
{
	WRITE_ONCE(kpe_sink, v);
	barrier();
	return v + 3;
}
NOKPROBE_SYMBOL(kpe_nokprobe_fn);

/*
 * On the blacklist under the name of a function vmlinux has only a
 * clone of (__bpf_lru_list_shrink.isra.0 on the kernels tested, no
 * __bpf_lru_list_shrink): kprobes look that name up for the clone, find
 * this one, vmlinux having none, and refuse the clone while this module
 * is in (test_wildcard_blacklist.sh).  Never called.
 */
static noinline __noclone __used int __bpf_lru_list_shrink(int v)
{
	WRITE_ONCE(kpe_sink, v);
	barrier();
	return v + 5;
}
NOKPROBE_SYMBOL(__bpf_lru_list_shrink);

/* What kprobes/kpe_api probes. */
static noinline __noclone __used void kpe_api_target(void)
{
	atomic_inc(&kpe_api_calls);
	WRITE_ONCE(kpe_sink, READ_ONCE(kpe_sink) + 1);
	barrier();
}

/*
 * What typecasts and this_cpu_read() are tested on: kpe_box_fn() gets a
 * pointer to a member of kpe_box, list_head node (and one to in.y), not
 * to the struct (the container_of() form finds the struct from it), and
 * the struct holds a per-CPU counter, incremented on this CPU before each
 * call, beside a per-CPU string pointer.  Each box write calls it once.
 */
struct kpe_box {
	unsigned long		magic;
	struct list_head	node;
	struct {
		int		x;
		int		y;
	} in;
	int __percpu		*counter;
};

static DEFINE_PER_CPU(int, kpe_box_count);
static DEFINE_PER_CPU(const char *, kpe_box_name);
static struct kpe_box kpe_box = {
	.magic		= 0x6b7065626f78UL,	/* "kpebox" */
	.in		= { .x = 7, .y = 11 },
	.counter	= &kpe_box_count,
};

static noinline __noclone __used int kpe_box_fn(struct list_head *node,
						int *y)
{
	WRITE_ONCE(kpe_sink, READ_ONCE(*y));
	barrier();
	return node == &kpe_box.node;
}

/* ---------------------------------------------------------------------
 * nmi
 */

#if KPE_HAVE_NMI
/* NMIs this CPU has been sent by us and not yet handled. */
static DEFINE_PER_CPU(unsigned int, kpe_nmi_pending);
/* Calls of kpe_nmi_target() made in NMI context since the last write. */
static atomic_t kpe_nmi_in_nmi = ATOMIC_INIT(0);
static bool kpe_nmi_registered;

static int kpe_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	/* Claim only the NMIs we sent: the others are someone else's. */
	if (!this_cpu_read(kpe_nmi_pending))
		return NMI_DONE;
	if (in_nmi())
		atomic_inc(&kpe_nmi_in_nmi);
	kpe_nmi_target();
	this_cpu_dec(kpe_nmi_pending);
	return NMI_HANDLED;
}

/* Send @n NMIs to this CPU, one at a time, each waited for. */
static int kpe_raise_nmis(unsigned int n)
{
	unsigned int i, us;
	int cpu, ret = 0;

	cpu = get_cpu();
	for (i = 0; i < n; i++) {
		this_cpu_inc(kpe_nmi_pending);
		/*
		 * Not ->send_IPI_self(): x2APIC's self-IPI register takes a
		 * fixed vector only, while an IPI to a mask of CPUs honours
		 * NMI_VECTOR on every APIC driver.
		 */
		apic->send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
		/* Busy-wait: this CPU must stay ours until it is handled. */
		for (us = 0; us < KPE_NMI_WAIT_US; us += 10) {
			if (!this_cpu_read(kpe_nmi_pending))
				break;
			udelay(10);
		}
		if (this_cpu_read(kpe_nmi_pending)) {
			pr_err("NMI %u of %u not handled within %u us\n",
			       i + 1, n, KPE_NMI_WAIT_US);
			this_cpu_write(kpe_nmi_pending, 0);
			ret = -ETIMEDOUT;
			break;
		}
	}
	put_cpu();
	return ret;
}

static ssize_t kpe_nmi_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	unsigned int n;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	if (!n || n > KPE_NMI_MAX)
		return -EINVAL;
	if (!kpe_nmi_registered)
		return -EOPNOTSUPP;
	mutex_lock(&kpe_lock);
	atomic_set(&kpe_nmi_in_nmi, 0);
	ret = kpe_raise_nmis(n);
	mutex_unlock(&kpe_lock);
	return ret ? ret : count;
}

static ssize_t kpe_nmi_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n", atomic_read(&kpe_nmi_in_nmi));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static int kpe_nmi_init(void)
{
	int ret;

	ret = register_nmi_handler(NMI_LOCAL, kpe_nmi_handler, 0, KBUILD_MODNAME);
	if (ret)
		return ret;
	kpe_nmi_registered = true;
	return 0;
}

static void kpe_nmi_exit(void)
{
	if (kpe_nmi_registered)
		unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
}
#else
static ssize_t kpe_nmi_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	kpe_nmi_target();	/* keep it referenced */
	return -EOPNOTSUPP;
}

static ssize_t kpe_nmi_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	return -EOPNOTSUPP;
}

static int kpe_nmi_init(void)
{
	return 0;
}

static void kpe_nmi_exit(void)
{
}
#endif

static const struct file_operations kpe_nmi_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= kpe_nmi_read,
	.write	= kpe_nmi_write,
	.llseek	= default_llseek,
};

/* ---------------------------------------------------------------------
 * notrace, notrace_on, notrace_offset
 */

static ssize_t kpe_notrace_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	int v = (int)count;

	v = kpe_notrace_fn(v);
	kpe_traced_fn(v);
	return count;
}

static ssize_t kpe_box_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	preempt_disable();
	this_cpu_inc(kpe_box_count);
	this_cpu_write(kpe_box_name, "kpebox");
	kpe_box_fn(&kpe_box.node, &kpe_box.in.y);
	preempt_enable();
	return count;
}

static const struct file_operations kpe_box_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= kpe_box_write,
	.llseek	= default_llseek,
};

static const struct file_operations kpe_notrace_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= kpe_notrace_write,
	.llseek	= default_llseek,
};

static ssize_t kpe_notrace_on_read(struct file *file, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char buf[4];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n",
			IS_ENABLED(CONFIG_KPROBE_EVENTS_ON_NOTRACE) ||
			!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE) ? 1 : 0);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations kpe_notrace_on_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= kpe_notrace_on_read,
	.llseek	= default_llseek,
};

/*
 * The first offset into kpe_notrace_fn() that is an instruction
 * boundary, as the kprobes core decides it: the tests need a valid offset
 * into a function a fixed tracer no longer lets them scan.
 */
#ifdef CONFIG_ARM64
/* fixed 4-byte instructions: kprobes refuse other offsets with -EINVAL */
#define KPE_INSN_STEP	4
#else
#define KPE_INSN_STEP	1
#endif

static int kpe_notrace_offset(void)
{
#ifdef CONFIG_KPROBES
	unsigned long fn = (unsigned long)kpe_notrace_fn;
	struct kprobe kp;
	int off, ret;

	/*
	 * Added at run time: a relocation the compiler folded the offset
	 * into would point into the function, past its ENDBR (objtool).
	 */
	OPTIMIZER_HIDE_VAR(fn);
	for (off = KPE_INSN_STEP; off <= 32; off += KPE_INSN_STEP) {
		memset(&kp, 0, sizeof(kp));
		kp.addr = (kprobe_opcode_t *)(fn + off);
		ret = register_kprobe(&kp);
		if (!ret) {
			unregister_kprobe(&kp);
			return off;
		}
		if (ret != -EILSEQ)
			return ret;
	}
	return -ENOENT;
#else
	return -EOPNOTSUPP;
#endif
}

static ssize_t kpe_notrace_offset_read(struct file *file, char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	char buf[16];
	int len, off;

	off = kpe_notrace_offset();
	if (off < 0)
		return off;
	len = scnprintf(buf, sizeof(buf), "%d\n", off);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations kpe_notrace_offset_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= kpe_notrace_offset_read,
	.llseek	= default_llseek,
};

/* ---------------------------------------------------------------------
 * api
 */

static bool kpe_api_made;	/* kprobes/kpe_api is ours; under kpe_lock */

/* Create and enable kprobes/kpe_api, then hit it once. */
static int kpe_api_start(void)
{
	struct dynevent_cmd cmd;
	char *buf;
	int ret;

	if (kpe_api_made)
		return -EEXIST;
	buf = kzalloc(MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	kprobe_event_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN);
	ret = kprobe_event_gen_cmd_start(&cmd, KPE_API_EVENT, "kpe_api_target");
	if (!ret)
		ret = kprobe_event_gen_cmd_end(&cmd);
	kfree(buf);
	if (ret) {
		pr_err("cannot create kprobes/%s: %d\n", KPE_API_EVENT, ret);
		return ret;
	}
	ret = trace_set_clr_event("kprobes", KPE_API_EVENT, 1);
	if (ret) {
		pr_err("cannot enable kprobes/%s: %d\n", KPE_API_EVENT, ret);
		kprobe_event_delete(KPE_API_EVENT);
		return ret;
	}
	kpe_api_made = true;
	/* Armed now, or the event says it is not: this call must record. */
	kpe_api_target();
	return 0;
}

static int kpe_api_stop(void)
{
	int ret;

	if (!kpe_api_made)
		return -ENOENT;
	trace_set_clr_event("kprobes", KPE_API_EVENT, 0);
	ret = kprobe_event_delete(KPE_API_EVENT);
	/* Someone (a test's cleanup) may have removed it already. */
	if (ret && ret != -ENOENT)
		pr_err("cannot delete kprobes/%s: %d\n", KPE_API_EVENT, ret);
	kpe_api_made = false;
	return ret;
}

static ssize_t kpe_api_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	bool on;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &on);
	if (ret)
		return ret;
	mutex_lock(&kpe_lock);
	ret = on ? kpe_api_start() : kpe_api_stop();
	mutex_unlock(&kpe_lock);
	return ret ? ret : count;
}

static ssize_t kpe_api_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[4];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n", READ_ONCE(kpe_api_made));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations kpe_api_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= kpe_api_read,
	.write	= kpe_api_write,
	.llseek	= default_llseek,
};

/* ---------------------------------------------------------------------
 * burst
 */

/*
 * Calls itself @depth levels deep: each level is one more call in
 * flight.  The store after the call keeps it a real call at every level.
 */
static noinline __noclone __used int kpe_burst_get_symbol_pos(int depth)
{
	int ret = 0;

	if (depth > 1)
		ret = kpe_burst_get_symbol_pos(depth - 1);
	WRITE_ONCE(kpe_sink, ret);
	return ret ^ depth;
}

static ssize_t kpe_burst_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	unsigned int depth;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &depth);
	if (ret)
		return ret;
	if (!depth || depth > 64)
		return -EINVAL;
	/* No worker runs on this CPU meanwhile: no pool grows. */
	preempt_disable();
	kpe_burst_get_symbol_pos(depth);
	preempt_enable();
	return count;
}

static const struct file_operations kpe_burst_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= kpe_burst_write,
	.llseek	= default_llseek,
};

/* ---------------------------------------------------------------------
 * spin
 */

static ssize_t kpe_spin_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	unsigned long end;
	unsigned int secs;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &secs);
	if (ret)
		return ret;
	if (!secs || secs > 60)
		return -EINVAL;
	end = jiffies + secs * HZ;
	preempt_disable();
	while (time_before(jiffies, end))
		cpu_relax();
	preempt_enable();
	return count;
}

static const struct file_operations kpe_spin_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= kpe_spin_write,
	.llseek	= default_llseek,
};

/* ---------------------------------------------------------------------
 * mixed
 */

#define KPE_MIXED_MAX	1000

/*
 * A kprobe's handler that calls a function the test probes: a core kernel
 * one, int_sqrt() (exported, cheap, safe wherever a handler runs), since
 * perf's kprobe PMU hooks only core kernel functions through ftrace.  On
 * a module's function its probe stays a kprobe, which no kprobe handler
 * reaches: a kprobe hit inside another one's handler is missed.
 */
static atomic_t kpe_mixed_in_kprobe = ATOMIC_INIT(0);

/* notrace: the kprobe on its entry is not one on ftrace (kpe_mixed_run()). */
static notrace noinline __noclone __used int kpe_mixed_outer(int v)
{
	WRITE_ONCE(kpe_sink, (int)int_sqrt((unsigned long)v));
	barrier();
	return v + 3;
}

#ifdef CONFIG_KPROBES
static struct kprobe kpe_mixed_kp;	/* under kpe_lock */

static int kpe_mixed_pre(struct kprobe *p, struct pt_regs *regs)
{
	/*
	 * A kprobe handler: its kprobe is the one running on this CPU (what
	 * kprobe_running() says, which modules cannot call).
	 */
	atomic_inc(&kpe_mixed_in_kprobe);
	WRITE_ONCE(kpe_sink, (int)int_sqrt(READ_ONCE(kpe_sink) & 0xffff));
	return 0;
}
NOKPROBE_SYMBOL(kpe_mixed_pre);

/*
 * The kprobe is not on an ftrace site: one there would hold ftrace's
 * recursion bit while its handler runs, and the tracer's ftrace hook on
 * int_sqrt() would refuse the nested hit.
 */
static int kpe_mixed_run(unsigned int n)
{
	unsigned int i;
	int ret;

	memset(&kpe_mixed_kp, 0, sizeof(kpe_mixed_kp));
	kpe_mixed_kp.addr = (kprobe_opcode_t *)(unsigned long)kpe_mixed_outer;
	kpe_mixed_kp.pre_handler = kpe_mixed_pre;
	atomic_set(&kpe_mixed_in_kprobe, 0);
	ret = register_kprobe(&kpe_mixed_kp);
	if (ret) {
		pr_err("cannot register a kprobe on kpe_mixed_outer: %d\n", ret);
		return ret;
	}
	for (i = 0; i < n; i++)
		kpe_mixed_outer(i + 2);
	unregister_kprobe(&kpe_mixed_kp);
	return 0;
}
#else
static int kpe_mixed_run(unsigned int n)
{
	kpe_mixed_outer(n);	/* keep it referenced */
	return -EOPNOTSUPP;
}
#endif

static ssize_t kpe_mixed_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	unsigned int n;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	if (!n || n > KPE_MIXED_MAX)
		return -EINVAL;
	mutex_lock(&kpe_lock);
	ret = kpe_mixed_run(n);
	mutex_unlock(&kpe_lock);
	return ret ? ret : count;
}

static ssize_t kpe_mixed_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n",
			atomic_read(&kpe_mixed_in_kprobe));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations kpe_mixed_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= kpe_mixed_read,
	.write	= kpe_mixed_write,
	.llseek	= default_llseek,
};

/* --------------------------------------------------------------------- */

static int __init kpe_kmod_init(void)
{
	int ret;

	ret = kpe_nmi_init();
	if (ret) {
		pr_err("cannot register the NMI handler: %d\n", ret);
		return ret;
	}
	kpe_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(kpe_dir)) {
		ret = PTR_ERR(kpe_dir);
		pr_err("cannot create debugfs directory: %d\n", ret);
		kpe_nmi_exit();
		return ret;
	}
	debugfs_create_file("nmi", 0600, kpe_dir, NULL, &kpe_nmi_fops);
	debugfs_create_file("notrace", 0200, kpe_dir, NULL, &kpe_notrace_fops);
	debugfs_create_file("box", 0200, kpe_dir, NULL, &kpe_box_fops);
	debugfs_create_file("notrace_on", 0400, kpe_dir, NULL,
			    &kpe_notrace_on_fops);
	debugfs_create_file("notrace_offset", 0400, kpe_dir, NULL,
			    &kpe_notrace_offset_fops);
	debugfs_create_file("api", 0600, kpe_dir, NULL, &kpe_api_fops);
	debugfs_create_file("mixed", 0600, kpe_dir, NULL, &kpe_mixed_fops);
	debugfs_create_file("burst", 0200, kpe_dir, NULL, &kpe_burst_fops);
	debugfs_create_file("spin", 0200, kpe_dir, NULL, &kpe_spin_fops);

	if (init_async_ms)
		async_schedule(kpe_init_async, NULL);
	if (api_at_init) {
		mutex_lock(&kpe_lock);
		ret = kpe_api_start();
		mutex_unlock(&kpe_lock);
		if (ret) {
			debugfs_remove_recursive(kpe_dir);
			kpe_nmi_exit();
			return ret;
		}
	}
	return 0;
}

static void __exit kpe_kmod_exit(void)
{
	debugfs_remove_recursive(kpe_dir);
	mutex_lock(&kpe_lock);
	if (kpe_api_made)
		kpe_api_stop();
	mutex_unlock(&kpe_lock);
	kpe_nmi_exit();
}

module_init(kpe_kmod_init);
module_exit(kpe_kmod_exit);

MODULE_DESCRIPTION("Test module for the kprobe_events selftests");
MODULE_LICENSE("GPL");
