// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_bench - the timed parts of make bench (scripts/guest/bench.sh), so
 * that no fork or shell work falls inside a timed region.  Times are
 * CLOCK_MONOTONIC nanoseconds; under qemu -icount shift=0,sleep=off one
 * guest nanosecond is one guest instruction.  Every result line starts
 * with "kpe-bench: " and is read by scripts/bench.sh on the host.
 *
 * usage:
 *   kpe_bench loop ROW CALLS
 *	Pinned to CPU 0: settle, 1000 warm-up calls, then CALLS getppid()
 *	syscalls, timed.  Each call passes a pointer to a user string in
 *	the first argument register (getppid ignores it), so a probe can
 *	fetch a ustring through the saved pt_regs.
 *	Prints "kpe-bench: hit ROW CALLS NS".
 *   kpe_bench readloop ROW CALLS
 *	The same with read() of one byte of /dev/zero instead of getppid():
 *	for probes on vfs_read (BTF argument names against registers).
 *   kpe_bench pmu ROW CALLS FUNC [ret]
 *	The loop above with a probe on FUNC (its return with "ret") made
 *	through the kprobe PMU, as perf and bpftrace make theirs: a
 *	counting perf event of this process, opened before the settle.
 *	Prints the hit line as "loop" does, after checking that the event
 *	counted every call.
 *   kpe_bench bpf ROW CALLS FUNC KIND PROG
 *	The loop above with BPF program PROG on FUNC, attached as KIND:
 *	kprobe or kretprobe, a probe made through the kprobe PMU with the
 *	program attached to it by PERF_EVENT_IOC_SET_BPF, as bpftrace
 *	attaches its kprobes (a sampling event, period 1, that the program
 *	keeps from perf by returning 0); fentry or fexit, the same program
 *	on a BPF trampoline (FUNC found by name in /sys/kernel/btf/vmlinux,
 *	or by a name /proc/kallsyms gives its address: BTF may have
 *	another function merged with it, as __do_sys_getppid for
 *	__x64_sys_getppid; "kpe-bench: bpf-func ROW NAME" says which).
 *	PROG: empty (returns 0), or map (adds one to a per-CPU array's slot
 *	0, as bpftrace's count() does; the run fails unless it counted every
 *	call).  Prints the hit line as "loop" does.
 *   With KPE_BENCH_MARK=1 in the environment, "loop", "pmu", "bpf" and "put" call
 *	getpgid(0) right before and right after their timed region (outside
 *	it): marks for scripts/profile.sh, whose QEMU plugin
 *	(tools/profile/kpe_prof.c) counts the instructions executed between
 *	two executions of __x64_sys_getpgid; then they print the symbols of
 *	/proc/kallsyms outside vmlinux ("kpe-prof: sym ROW ...": kprobe
 *	slots, ftrace trampolines) while the probe is still there.  Without
 *	it nothing changes.
 *   kpe_bench bulk TRACEDIR GROUP FUNCFILE N
 *	On the first N functions of FUNCFILE (one name a line), events
 *	GROUP/e0 ... GROUP/e<N-1>, timed: add one per write, enable all
 *	(events/GROUP/enable), disable all, clear (open kprobe_events with
 *	O_TRUNC), add all in one write, remove one by one (-:GROUP/eI).
 *	Prints "kpe-bench: bulk OP N NS" per operation and
 *	"kpe-bench: mem N KERNEL_BYTES MEMFREE_BYTES": what the N probes
 *	added to Slab+Percpu+VmallocUsed, and what they took from MemFree.
 *   kpe_bench wild TRACEDIR GROUP PATTERN
 *	Timed: define p:GROUP/w PATTERN and enable it.
 *	Prints "kpe-bench: bulk wild 1 NS", or "kpe-bench: na wild ERRNO"
 *	(exit 0) when the tracer refuses the line.
 *   kpe_bench put ROW append|trunc FILE STRING [append|trunc FILE STRING]...
 *	After a settle, timed: for each triple (at most 8) open FILE
 *	(appending, or truncating as "echo > FILE" does), write STRING and
 *	a newline, close it.
 *	Prints "kpe-bench: bulk ROW 1 NS" (for the all-functions rows: the
 *	function tracer switched on and off, an event defined, enabled,
 *	disabled, cleared).
 *   kpe_bench wildlist TRACEDIR GROUP FUNCFILE N
 *	The same row done with N separate events GROUP/eI, one per
 *	function: timed define (one write) and enable (events/GROUP/enable).
 *	Prints "kpe-bench: bulk wild N NS".
 *
 * Exit status: 0 when every row was measured, 1 on a failed operation
 * ("kpe-bench: error ..." names it), 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/btf.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kpe_bpf.h"
#include "kpe_sysfs.h"

#define WARMUP_CALLS	1000
#define SETTLE_MS	200
#define LINE_MAX_LEN	256

static const char ustr[] = "kpe_bench user string";
static const char *tracedir;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Sleep in guest time.  Under -icount sleep=off the guest clock jumps to
 * the next timer, so this costs the host next to nothing; it lets
 * deferred work of the previous step (kprobe optimizer, RCU callbacks,
 * workqueues) finish outside the next timed region.
 */
static void settle(void)
{
	struct timespec ts = { 0, SETTLE_MS * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("kpe_bench: sched_setaffinity");
}

/*
 * The profiler's window mark (KPE_BENCH_MARK=1): a syscall nothing else
 * in the guest makes, whose kernel entry the plugin watches.  Returns
 * whether marks are on.
 */
static int mark(void)
{
	static int on = -1;

	if (on < 0) {
		const char *e = getenv("KPE_BENCH_MARK");

		on = e && !strcmp(e, "1");
	}
	if (on)
		syscall(SYS_getpgid, 0);
	return on;
}

/*
 * After the closing mark, while the probe is still there: the kernel's
 * symbols outside vmlinux (kprobe slots, ftrace trampolines, modules) as
 * "kpe-prof: sym ROW ADDR TYPE NAME [MODULE]", for the profiler to name
 * the addresses it counted there.
 */
static void mark_syms(const char *row)
{
	char line[LINE_MAX_LEN];
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strchr(line, '['))
			printf("kpe-prof: sym %s %s", row, line);
	fclose(f);
	fflush(stdout);
}

static int fail(const char *what, const char *arg, int err)
{
	printf("kpe-bench: error %s %s: %s\n", what, arg, strerror(err));
	fflush(stdout);
	return 1;
}

static const char *tpath(const char *rel)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s/%s", tracedir, rel);
	return buf;
}

/* Write all of buf to fd; returns 0 or an errno, and the write count. */
static int write_all(int fd, const char *buf, size_t len, unsigned int *nwrites)
{
	ssize_t ret;

	while (len) {
		ret = write(fd, buf, len);
		if (nwrites)
			(*nwrites)++;
		if (ret < 0)
			return errno;
		if (ret == 0)
			return EIO;
		buf += ret;
		len -= ret;
	}
	return 0;
}

/* One write of str to file path; returns 0 or an errno. */
static int put_file(const char *path, const char *str)
{
	int fd, err;

	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0)
		return errno;
	err = write_all(fd, str, strlen(str), NULL);
	close(fd);
	return err;
}

/* The same for tracefs file rel. */
static int put(const char *rel, const char *str)
{
	return put_file(tpath(rel), str);
}

static int clear_events(void)
{
	int fd = open(tpath("kprobe_events"), O_WRONLY | O_TRUNC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* The call a loop times: getppid(), or read() of one byte from @fd. */
static inline void one_call(int fd)
{
	char c;

	if (fd < 0)
		syscall(SYS_getppid, ustr);
	else if (read(fd, &c, 1) != 1)
		abort();
}

/*
 * Settle, warm up, then @calls getppid() calls (or reads from @fd, if
 * not -1) between two marks (for profile.sh, which names the row's
 * symbols after them).  Returns the guest ns of the timed calls.
 */
static unsigned long long timed_calls(const char *row, unsigned long calls,
				      int fd)
{
	unsigned long long start, end;
	unsigned long i;

	settle();
	for (i = 0; i < WARMUP_CALLS; i++)
		one_call(fd);
	mark();
	start = now_ns();
	for (i = 0; i < calls; i++)
		one_call(fd);
	end = now_ns();
	if (mark())
		mark_syms(row);
	return end - start;
}

static unsigned long long timed_loop(const char *row, unsigned long calls)
{
	return timed_calls(row, calls, -1);
}

/* "loop" and "readloop" (@rd): the same but for the call. */
static int cmd_loop(int argc, char **argv, bool rd)
{
	unsigned long long ns;
	unsigned long calls;
	int fd = -1;
	char *p;

	if (argc != 4)
		return 2;
	calls = strtoul(argv[3], &p, 10);
	if (*p || !calls)
		return 2;
	if (rd) {
		fd = open("/dev/zero", O_RDONLY);
		if (fd < 0)
			return fail("open", "/dev/zero", errno);
	}
	pin_cpu0();
	ns = timed_calls(argv[2], calls, fd);
	if (fd >= 0)
		close(fd);
	printf("kpe-bench: hit %s %lu %llu\n", argv[2], calls, ns);
	return 0;
}

/* The kprobe PMU's event on @func (its return with @ret), or -errno. */
static int pmu_open(const char *func, bool ret, uint64_t period)
{
	const char *pmu = "/sys/bus/event_source/devices/kprobe";
	struct perf_event_attr attr;
	char path[128];
	long bit;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	snprintf(path, sizeof(path), "%s/type", pmu);
	attr.type = read_number(path, NULL);
	if ((int)attr.type < 0)
		return -(errno ?: ENOENT);
	if (ret) {
		snprintf(path, sizeof(path), "%s/format/retprobe", pmu);
		bit = read_number(path, "config:");
		if (bit < 0)
			return -(errno ?: ENOENT);
		attr.config = 1ULL << bit;
	}
	attr.kprobe_func = (uint64_t)(uintptr_t)func;
	attr.exclude_hv = 1;
	attr.sample_period = period;
	attr.wakeup_events = period ? 1 : 0;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	return fd < 0 ? -errno : fd;
}

/*
 * The id of function @name in the kernel's BTF, or 0 (errno set).  The
 * types follow the header, each a struct btf_type and what its kind
 * appends (include/uapi/linux/btf.h).
 */
static uint32_t btf_func_id(const char *name)
{
	static unsigned char buf[32 << 20];
	const struct btf_header *h = (const void *)buf;
	const unsigned char *p, *end;
	const char *strs;
	uint32_t id = 1, kind, vlen;
	ssize_t len = 0, got;
	int fd;

	fd = open("/sys/kernel/btf/vmlinux", O_RDONLY);
	if (fd < 0)
		return 0;
	while ((got = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += got;
	close(fd);
	if (len < (ssize_t)sizeof(*h) || h->magic != BTF_MAGIC ||
	    h->hdr_len + h->str_off + h->str_len > (size_t)len ||
	    h->hdr_len + h->type_off + h->type_len > (size_t)len) {
		errno = EINVAL;
		return 0;
	}
	strs = (const char *)buf + h->hdr_len + h->str_off;
	p = buf + h->hdr_len + h->type_off;
	end = p + h->type_len;
	while (p + sizeof(struct btf_type) <= end) {
		const struct btf_type *t = (const void *)p;

		kind = BTF_INFO_KIND(t->info);
		vlen = BTF_INFO_VLEN(t->info);
		if (kind == BTF_KIND_FUNC && t->name_off < h->str_len &&
		    !strcmp(strs + t->name_off, name))
			return id;
		p += sizeof(*t);
		switch (kind) {
		case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
			p += 4;
			break;
		case BTF_KIND_ARRAY:
			p += sizeof(struct btf_array);
			break;
		case BTF_KIND_STRUCT: case BTF_KIND_UNION:
			p += vlen * sizeof(struct btf_member);
			break;
		case BTF_KIND_ENUM:
			p += vlen * sizeof(struct btf_enum);
			break;
		case BTF_KIND_ENUM64:
			p += vlen * 12;
			break;
		case BTF_KIND_FUNC_PROTO:
			p += vlen * sizeof(struct btf_param);
			break;
		case BTF_KIND_DATASEC:
			p += vlen * sizeof(struct btf_var_secinfo);
			break;
		}
		id++;
	}
	errno = ENOENT;
	return 0;
}

/*
 * The BTF id of @func, or of a name /proc/kallsyms gives its address
 * (the compiler may have merged it with another function, whose name
 * BTF has instead); 0 if none.  The name used is reported.
 */
static uint32_t btf_func_or_alias(const char *row, const char *func)
{
	char line[LINE_MAX_LEN], name[LINE_MAX_LEN], type;
	unsigned long long addr, want = 0;
	uint32_t id = btf_func_id(func);
	FILE *f;
	int pass;

	if (id) {
		printf("kpe-bench: bpf-func %s %s\n", row, func);
		return id;
	}
	f = fopen("/proc/kallsyms", "r");
	for (pass = 0; f && pass < 2 && !id; pass++) {
		rewind(f);
		while (!id && fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
				continue;
			if (!pass && !strcmp(name, func))
				want = addr;
			else if (pass && addr == want && want)
				id = btf_func_id(name);
		}
	}
	if (f)
		fclose(f);
	if (id)
		printf("kpe-bench: bpf-func %s %s\n", row, name);
	else
		errno = ENOENT;
	return id;
}

/* How many CPUs a per-CPU map has a value for. */
static unsigned int possible_cpus(void)
{
	char line[64], *p;
	unsigned int n = 1;
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");

	if (f && fgets(line, sizeof(line), f)) {
		p = strrchr(line, '-');
		n = strtoul(p ? p + 1 : line, NULL, 10) + 1;
	}
	if (f)
		fclose(f);
	return n;
}

/* The sum of a per-CPU u64 array's slot 0 over every CPU, or -1. */
static long long map_sum(int map, unsigned int ncpus)
{
	uint64_t *vals = calloc(ncpus, sizeof(*vals));
	union bpf_attr attr;
	uint32_t key = 0;
	long long sum = 0;
	unsigned int i;

	if (!vals)
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map;
	attr.key = (uint64_t)(uintptr_t)&key;
	attr.value = (uint64_t)(uintptr_t)vals;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
		sum = -1;
	for (i = 0; sum >= 0 && i < ncpus; i++)
		sum += vals[i];
	free(vals);
	return sum;
}

static int cmd_bpf(int argc, char **argv)
{
	bool trampoline, ret, count;
	unsigned int ncpus = possible_cpus();
	unsigned long long ns;
	union bpf_attr attr;
	unsigned long calls;
	int fd, prog, map = -1, n;
	uint32_t btf_id = 0;
	long long counted;
	char *p;
	struct bpf_insn insns[16];

	if (argc != 7)
		return 2;
	calls = strtoul(argv[3], &p, 10);
	if (*p || !calls)
		return 2;
	trampoline = !strcmp(argv[5], "fentry") || !strcmp(argv[5], "fexit");
	ret = !strcmp(argv[5], "kretprobe") || !strcmp(argv[5], "fexit");
	if (!trampoline && !ret && strcmp(argv[5], "kprobe"))
		return 2;
	count = !strcmp(argv[6], "map");
	if (!count && strcmp(argv[6], "empty"))
		return 2;

	n = 0;
	if (count) {
		memset(&attr, 0, sizeof(attr));
		attr.map_type = BPF_MAP_TYPE_PERCPU_ARRAY;
		attr.key_size = 4;
		attr.value_size = 8;
		attr.max_entries = 1;
		map = sys_bpf(BPF_MAP_CREATE, &attr);
		if (map < 0)
			return fail("bpf map", argv[2], errno);
		/* u32 key = 0; v = lookup(map, &key); if (v) *v += 1; */
		insns[n++] = INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0);
		insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
		insns[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4);
		insns[n++] = INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1,
				  BPF_PSEUDO_MAP_FD, 0, map);
		insns[n++] = INSN(0, 0, 0, 0, 0);
		insns[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
		insns[n++] = INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 3, 0);
		insns[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_0, 0, 0);
		insns[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, 1);
		insns[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_0, BPF_REG_1, 0, 0);
	}
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	insns[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);

	if (trampoline) {
		btf_id = btf_func_or_alias(argv[2], argv[4]);
		if (!btf_id)
			return fail("btf", argv[4], errno);
		prog = kpe_prog_load_as(BPF_PROG_TYPE_TRACING,
					ret ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY,
					btf_id, insns, n);
	} else {
		prog = kpe_prog_load(insns, n);
	}
	if (prog < 0)
		return fail("bpf load", argv[2], errno);
	pin_cpu0();
	if (trampoline) {
		memset(&attr, 0, sizeof(attr));
		attr.raw_tracepoint.prog_fd = prog;
		fd = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
		if (fd < 0)
			return fail("bpf attach", argv[4], errno);
	} else {
		fd = pmu_open(argv[4], ret, 1);
		if (fd < 0)
			return fail("perf_event_open", argv[4], -fd);
		if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog) ||
		    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
			return fail("PERF_EVENT_IOC_SET_BPF", argv[4], errno);
	}
	ns = timed_loop(argv[2], calls);
	close(fd);
	if (count) {
		counted = map_sum(map, ncpus);
		if (counted < (long long)(calls + WARMUP_CALLS)) {
			printf("kpe-bench: error %s counted %lld of %lu calls\n",
			       argv[2], counted, calls + WARMUP_CALLS);
			return 1;
		}
		close(map);
	}
	close(prog);
	printf("kpe-bench: hit %s %lu %llu\n", argv[2], calls, ns);
	return 0;
}

static int cmd_pmu(int argc, char **argv)
{
	unsigned long long ns;
	unsigned long calls;
	uint64_t count;
	char *p;
	int fd;

	if (argc != 5 && !(argc == 6 && !strcmp(argv[5], "ret")))
		return 2;
	calls = strtoul(argv[3], &p, 10);
	if (*p || !calls)
		return 2;
	pin_cpu0();
	fd = pmu_open(argv[4], argc == 6, 0);
	if (fd < 0)
		return fail("perf_event_open", argv[4], -fd);
	ns = timed_loop(argv[2], calls);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return fail("read", "perf counter", errno);
	close(fd);
	if (count < calls + WARMUP_CALLS) {
		printf("kpe-bench: error %s counted %llu of %lu calls\n", argv[2],
		       (unsigned long long)count, calls + WARMUP_CALLS);
		return 1;
	}
	printf("kpe-bench: hit %s %lu %llu\n", argv[2], calls, ns);
	return 0;
}

/* The first n names of file, or NULL (message printed). */
static char **read_funcs(const char *file, unsigned int n)
{
	char line[LINE_MAX_LEN];
	unsigned int got = 0;
	char **names;
	FILE *f;

	names = calloc(n, sizeof(*names));
	f = fopen(file, "r");
	if (!names || !f) {
		fail("open", file, errno);
		return NULL;
	}
	while (got < n && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		names[got] = strdup(line);
		if (!names[got++]) {
			fail("read", file, ENOMEM);
			return NULL;
		}
	}
	fclose(f);
	if (got < n) {
		printf("kpe-bench: error %s has %u functions, %u wanted\n",
		       file, got, n);
		return NULL;
	}
	return names;
}

/* The definition lines "p:GROUP/eI FUNC\n" in one buffer, and its offsets. */
static char *def_lines(const char *group, char **names, unsigned int n,
		       size_t *off)
{
	size_t len = 0, cap = (size_t)n * (LINE_MAX_LEN + 32) + 1;
	char *buf = malloc(cap);
	unsigned int i;

	if (!buf)
		return NULL;
	for (i = 0; i < n; i++) {
		off[i] = len;
		len += snprintf(buf + len, cap - len, "p:%s/e%u %s\n",
				group, i, names[i]);
	}
	off[n] = len;
	return buf;
}

struct meminfo {
	unsigned long long kernel;	/* Slab + Percpu + VmallocUsed, bytes */
	unsigned long long memfree;	/* bytes */
};

/* After a settle, so RCU-deferred frees of earlier steps are done. */
static int read_meminfo(struct meminfo *m)
{
	char line[128], key[64];
	unsigned long long kb;
	FILE *f;

	sync();
	put_file("/proc/sys/vm/drop_caches", "3\n");
	settle();
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return errno;
	memset(m, 0, sizeof(*m));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63[^:]: %llu", key, &kb) != 2)
			continue;
		if (!strcmp(key, "Slab") || !strcmp(key, "Percpu") ||
		    !strcmp(key, "VmallocUsed"))
			m->kernel += kb * 1024;
		else if (!strcmp(key, "MemFree"))
			m->memfree = kb * 1024;
	}
	fclose(f);
	return 0;
}

static void report(const char *op, unsigned int n, unsigned long long ns)
{
	printf("kpe-bench: bulk %s %u %llu\n", op, n, ns);
	fflush(stdout);
}

/* Timed: one write of "VAL\n" to events/GROUP/enable. */
static int timed_enable(const char *group, const char *val,
			unsigned long long *ns)
{
	char rel[128], str[4];
	unsigned long long t0;
	int fd, err;

	snprintf(rel, sizeof(rel), "events/%s/enable", group);
	snprintf(str, sizeof(str), "%s\n", val);
	fd = open(tpath(rel), O_WRONLY);
	if (fd < 0)
		return errno;
	t0 = now_ns();
	err = write_all(fd, str, strlen(str), NULL);
	*ns = now_ns() - t0;
	close(fd);
	return err;
}

/*
 * The arguments of the bulk commands (TRACEFS GROUP FUNCS N): the group,
 * N functions read from FUNCS and their definition lines (@off: where
 * each starts in @defs).  Returns 0, or the command's exit status.
 */
static int bulk_setup(int argc, char **argv, const char **group,
		      unsigned int *n, char ***names, size_t **off,
		      char **defs)
{
	char *p;

	if (argc != 6)
		return 2;
	tracedir = argv[2];
	*group = argv[3];
	*n = strtoul(argv[5], &p, 10);
	if (*p || !*n)
		return 2;
	*names = read_funcs(argv[4], *n);
	*off = calloc(*n + 1, sizeof(**off));
	if (!*names || !*off)
		return 1;
	*defs = def_lines(*group, *names, *n, *off);
	if (!*defs)
		return fail("alloc", "definitions", ENOMEM);
	return 0;
}

static int cmd_bulk(int argc, char **argv)
{
	unsigned long long t0, ns;
	struct meminfo m0, m1;
	const char *group;
	unsigned int n, i, nw;
	char line[LINE_MAX_LEN + 32];
	char **names;
	size_t *off;
	char *defs;
	int fd, err;

	err = bulk_setup(argc, argv, &group, &n, &names, &off, &defs);
	if (err)
		return err;
	pin_cpu0();
	err = clear_events();
	if (err)
		return fail("clear", "kprobe_events", err);

	/* add, one definition per write */
	err = read_meminfo(&m0);
	if (err)
		return fail("read", "/proc/meminfo", err);
	fd = open(tpath("kprobe_events"), O_WRONLY | O_APPEND);
	if (fd < 0)
		return fail("open", "kprobe_events", errno);
	settle();
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		err = write_all(fd, defs + off[i], off[i + 1] - off[i], NULL);
		if (err)
			break;
	}
	ns = now_ns() - t0;
	close(fd);
	if (err)
		return fail("add", names[i], err);
	report("add1", n, ns);

	err = read_meminfo(&m1);
	if (err)
		return fail("read", "/proc/meminfo", err);
	printf("kpe-bench: mem %u %lld %lld\n", n,
	       (long long)(m1.kernel - m0.kernel),
	       (long long)(m0.memfree - m1.memfree));

	settle();
	err = timed_enable(group, "1", &ns);
	if (err)
		return fail("enable", group, err);
	report("enable", n, ns);

	settle();
	err = timed_enable(group, "0", &ns);
	if (err)
		return fail("disable", group, err);
	report("disable", n, ns);

	/* clear: what "echo > kprobe_events" does, without the shell */
	settle();
	t0 = now_ns();
	fd = open(tpath("kprobe_events"), O_WRONLY | O_TRUNC);
	if (fd >= 0)
		err = write_all(fd, "\n", 1, NULL);
	ns = now_ns() - t0;
	if (fd < 0)
		return fail("clear", "kprobe_events", errno);
	close(fd);
	if (err)
		return fail("clear", "kprobe_events", err);
	report("clear", n, ns);

	/* add, all definitions in one write */
	fd = open(tpath("kprobe_events"), O_WRONLY | O_APPEND);
	if (fd < 0)
		return fail("open", "kprobe_events", errno);
	settle();
	nw = 0;
	t0 = now_ns();
	err = write_all(fd, defs, off[n], &nw);
	ns = now_ns() - t0;
	close(fd);
	if (err)
		return fail("addall", "kprobe_events", err);
	if (nw != 1)
		printf("kpe-bench: note addall took %u writes\n", nw);
	report("addall", n, ns);

	/* remove, one -:GROUP/eI per write */
	fd = open(tpath("kprobe_events"), O_WRONLY | O_APPEND);
	if (fd < 0)
		return fail("open", "kprobe_events", errno);
	settle();
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "-:%s/e%u\n", group, i);
		err = write_all(fd, line, strlen(line), NULL);
		if (err)
			break;
	}
	ns = now_ns() - t0;
	close(fd);
	if (err)
		return fail("remove", names[i], err);
	report("remove", n, ns);
	return 0;
}

static int cmd_put(int argc, char **argv)
{
	unsigned long long t0, ns;
	int i, fd, bad = 0, err = 0;
	char *line[8];
	bool trunc;

	if (argc < 6 || (argc - 3) % 3 || (argc - 3) / 3 > 8)
		return 2;
	for (i = 3; i < argc; i += 3) {
		if (strcmp(argv[i], "trunc") && strcmp(argv[i], "append"))
			return 2;
		if (asprintf(&line[i / 3 - 1], "%s\n", argv[i + 2]) < 0)
			return fail("put", argv[2], ENOMEM);
	}
	pin_cpu0();
	settle();
	mark();
	t0 = now_ns();
	for (i = 3; i < argc && !err; i += 3) {
		bad = i + 1;
		trunc = !strcmp(argv[i], "trunc");
		fd = open(argv[i + 1], O_WRONLY | (trunc ? O_TRUNC : O_APPEND));
		err = fd < 0 ? errno : write_all(fd, line[i / 3 - 1],
						 strlen(line[i / 3 - 1]), NULL);
		if (fd >= 0)
			close(fd);
	}
	ns = now_ns() - t0;
	mark();
	for (i = 3; i < argc; i += 3)
		free(line[i / 3 - 1]);
	if (err)
		return fail("put", argv[bad], err);
	report(argv[2], 1, ns);
	return 0;
}

static int cmd_wild(int argc, char **argv)
{
	unsigned long long t0, ns;
	char def[LINE_MAX_LEN + 32], rel[128];
	int fd, err;

	if (argc != 5)
		return 2;
	tracedir = argv[2];
	snprintf(def, sizeof(def), "p:%s/w %s\n", argv[3], argv[4]);
	snprintf(rel, sizeof(rel), "events/%s/w/enable", argv[3]);
	pin_cpu0();
	err = clear_events();
	if (err)
		return fail("clear", "kprobe_events", err);
	fd = open(tpath("kprobe_events"), O_WRONLY | O_APPEND);
	if (fd < 0)
		return fail("open", "kprobe_events", errno);
	settle();
	t0 = now_ns();
	err = write_all(fd, def, strlen(def), NULL);
	if (!err)
		err = put(rel, "1\n");
	ns = now_ns() - t0;
	close(fd);
	if (err) {
		/* The tracer does not take wildcard places (yet). */
		printf("kpe-bench: na wild %s\n", strerror(err));
		return 0;
	}
	report("wild", 1, ns);
	err = put(rel, "0\n");
	if (!err)
		err = clear_events();
	return err ? fail("clear", "kprobe_events", err) : 0;
}

static int cmd_wildlist(int argc, char **argv)
{
	unsigned long long t0, ns;
	char rel[128];
	const char *group;
	unsigned int n;
	char **names;
	size_t *off;
	char *defs;
	int fd, err;

	err = bulk_setup(argc, argv, &group, &n, &names, &off, &defs);
	if (err)
		return err;
	snprintf(rel, sizeof(rel), "events/%s/enable", group);
	pin_cpu0();
	err = clear_events();
	if (err)
		return fail("clear", "kprobe_events", err);
	fd = open(tpath("kprobe_events"), O_WRONLY | O_APPEND);
	if (fd < 0)
		return fail("open", "kprobe_events", errno);
	settle();
	t0 = now_ns();
	err = write_all(fd, defs, off[n], NULL);
	if (!err)
		err = put(rel, "1\n");
	ns = now_ns() - t0;
	close(fd);
	if (err)
		return fail("wild", group, err);
	report("wild", n, ns);
	err = put(rel, "0\n");
	if (!err)
		err = clear_events();
	return err ? fail("clear", "kprobe_events", err) : 0;
}

int main(int argc, char **argv)
{
	int ret = 2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "loop"))
		ret = cmd_loop(argc, argv, false);
	else if (argc > 1 && !strcmp(argv[1], "readloop"))
		ret = cmd_loop(argc, argv, true);
	else if (argc > 1 && !strcmp(argv[1], "pmu"))
		ret = cmd_pmu(argc, argv);
	else if (argc > 1 && !strcmp(argv[1], "bpf"))
		ret = cmd_bpf(argc, argv);
	else if (argc > 1 && !strcmp(argv[1], "bulk"))
		ret = cmd_bulk(argc, argv);
	else if (argc > 1 && !strcmp(argv[1], "wild"))
		ret = cmd_wild(argc, argv);
	else if (argc > 1 && !strcmp(argv[1], "put"))
		ret = cmd_put(argc, argv);
	else if (argc > 1 && !strcmp(argv[1], "wildlist"))
		ret = cmd_wildlist(argc, argv);
	if (ret == 2)
		fprintf(stderr,
			"usage: kpe_bench loop ROW CALLS\n"
			"       kpe_bench readloop ROW CALLS\n"
			"       kpe_bench pmu ROW CALLS FUNC [ret]\n"
			"       kpe_bench bpf ROW CALLS FUNC KIND PROG\n"
			"       kpe_bench bulk TRACEDIR GROUP FUNCFILE N\n"
			"       kpe_bench wild TRACEDIR GROUP PATTERN\n"
			"       kpe_bench put ROW append|trunc FILE STRING...\n"
			"       kpe_bench wildlist TRACEDIR GROUP FUNCFILE N\n");
	return ret;
}
