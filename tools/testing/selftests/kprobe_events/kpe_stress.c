// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_stress - drive the tracer from every side at once for SECONDS:
 *
 *   callers   (one per CPU) open/read/close /proc/version, getppid(),
 *             write /dev/null: the probed functions
 *   owners    one per probe below: define, enable, let it fire, try to
 *             remove it enabled, disable, remove it or clear everything
 *   enable    enables and disables the events at random, truncates the
 *             trace every tenth round
 *   filter    sets filters, sets and clears hist triggers, in turn
 *   instance  creates a trace instance, enables events in it, removes it
 *   module    loads and unloads a module with a MOD:SYM probe on it
 *   lists     reads kprobe_events, dynamic_events, kprobe_profile, format
 *   pipe      reads trace_pipe and checks that every record of our
 *             events parses (not torn, fields as defined)
 *
 * Every control operation's result is checked against the results it may
 * legitimately have while the others race with it (e.g. removing an
 * enabled event: EBUSY); anything else is counted as unexpected.
 *
 * Opening an event's files (enable, filter, trigger, format, hist) never
 * overlaps the removal of an event (removing or clearing probes, removing
 * the instance): Linux 6.1.192's tracing_open_file_tr() reads the event
 * file before taking a reference, and an open racing with the removal is
 * a use-after-free there (KASAN shows it with the kernel's own uprobe
 * events as well).  -R lets them race.
 *
 * usage: kpe_stress -d SECONDS -m MIDOFFS [-k MODULE.ko] [-t TRACEFS] [-R]
 *                   [-c CALLERS] [-p PAUSE_US]
 *   -c  caller threads (default: one per CPU)
 *   -p  each caller sleeps PAUSE_US after each round of 7 calls (default
 *       1000): the callers leave CPU time to the control threads, and a
 *       task that never blocks would hold up RCU-tasks grace periods,
 *       which the kprobes optimizer waits for with kprobe_mutex held
 *
 * The run lasts SECONDS, and goes on (up to four times SECONDS, or SECONDS
 * and a minute if that is longer) until every
 * kind of control operation has been tried at least once: on a slow kernel
 * one operation can take most of a minute (creating a trace instance makes
 * files for every event of the kernel, with every allocation tracked by
 * kmemleak on the debug kernel), holding event_mutex, and the others wait.
 *
 * Prints the counts of calls, records (hits) per event and control
 * operations, and exits 0 if nothing unexpected happened, 1 otherwise,
 * 2 on a usage or set-up error.  Leaves probes defined: the caller checks
 * that clearing them works.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <regex.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MOD_NAME "trace_printk"

static const char *tracefs = "/sys/kernel/tracing";
static int open_remove_race;
static unsigned int caller_pause_us = 1000;
/* readers: opens of event files; writer: removals of events */
static pthread_rwlock_t evlock;

static void ev_open_begin(void)
{
	if (!open_remove_race)
		pthread_rwlock_rdlock(&evlock);
}

static void ev_remove_begin(void)
{
	if (!open_remove_race)
		pthread_rwlock_wrlock(&evlock);
}

static void ev_end(void)
{
	if (!open_remove_race)
		pthread_rwlock_unlock(&evlock);
}
static const char *module_path;
static atomic_int stop;
static volatile time_t drain_end;

/* ------------------------------------------------------------------ */
/* The probes: an entry, a return, a mid-function and a module probe,
 * string, deref, $comm and $stack arguments, two groups.
 */
struct probe {
	const char *event;	/* GROUP/EVENT */
	char def[256];
	const char *pattern;	/* what a record of it must look like */
	regex_t re;
	atomic_ulong records;
};

/* The registers of the first three arguments, and the syscalls' prefix. */
#if defined(__aarch64__)
#define ARG1	"%x0"
#define ARG2	"%x1"
#define ARG3	"%x2"
#define SYS	"__arm64_sys_"
#else
#define ARG1	"%di"
#define ARG2	"%si"
#define ARG3	"%dx"
#define SYS	"__x64_sys_"
#endif

static struct probe probes[] = {
	{ "kprobes/st_open",
	  "p:st_open do_sys_openat2 fn=+0(" ARG2 "):ustring comm=$comm "
	  "flags=" ARG3 ":x32",
	  " st_open: \\(do_sys_openat2\\+0x0/0x[0-9a-f]+\\) "
	  "fn=(\"[^\"]*\"|\\(fault\\)) comm=\"[^\"]*\" flags=0x[0-9a-f]+$" },
	{ "kprobes/st_rret",
	  "r:st_rret vfs_read ret=$retval:s64 comm=$comm",
	  " st_rret: \\([a-zA-Z0-9_.]+\\+0x[0-9a-f]+/0x[0-9a-f]+ <- vfs_read\\) "
	  "ret=-?[0-9]+ comm=\"[^\"]*\"$" },
	{ "kprobes/st_mid",
	  "",	/* p:st_mid vfs_read+MIDOFFS ..., filled in by main() */
	  " st_mid: \\(vfs_read\\+0x[0-9a-f]+/0x[0-9a-f]+\\) "
	  "sp=0x[0-9a-f]+ deref=(0x[0-9a-f]+|\\(fault\\)) c=\"[^\"]*\"$" },
	{ "kprobes/st_pid",
	  "p:st_pid " SYS "getppid s0=$stack0:x64 regs=+0(" ARG1 "):x64",
	  /* it may print as an alias (__do_sys_getppid), or __arm64_... */
	  " st_pid: \\([a-z0-9_]*sys_getppid\\+0x0/0x[0-9a-f]+\\) "
	  "s0=0x[0-9a-f]+ regs=(0x[0-9a-f]+|\\(fault\\))$" },
	{ "kprobes/st_mod",
	  "p:st_mod " MOD_NAME ":trace_printk_irq_work",
	  /* a record read after the unload shows the bare address */
	  " st_mod: \\((trace_printk_irq_work\\+0x0/0x[0-9a-f]+ \\[" MOD_NAME
	  "\\]|0x[0-9a-f]+)\\)$" },
	{ "stg/st_w",
	  "p:stg/st_w vfs_write cnt=" ARG3 ":u64 buf=+0(" ARG2 "):u8",
	  " st_w: \\(vfs_write\\+0x0/0x[0-9a-f]+\\) cnt=[0-9]+ "
	  "buf=([0-9]+|\\(fault\\))$" },
};

/* The common prefix of a trace line: comm-pid [cpu] flags time: */
static regex_t prefix_re;
static const char prefix_pattern[] =
	"^ *.+-[0-9]+ +\\[[0-9]{3}\\] [^ ]{4,5} +[0-9]+\\.[0-9]{6}: ";

/* ------------------------------------------------------------------ */
/* Counting. */

struct op {
	const char *name;
	atomic_ulong ok, expected, unexpected;
	atomic_ulong usecs, max_usecs;	/* time spent in it */
};

enum {
	OP_ADD, OP_REMOVE, OP_CLEAR, OP_ENABLE, OP_DISABLE, OP_TRUNC,
	OP_FILTER, OP_TRIGGER, OP_UNTRIGGER, OP_MKINST, OP_INSTEN, OP_RMINST,
	OP_LOAD, OP_UNLOAD, OP_READ, NR_OPS
};

static struct op ops[NR_OPS] = {
	[OP_ADD] = { "add" }, [OP_REMOVE] = { "remove" },
	[OP_CLEAR] = { "clear" }, [OP_ENABLE] = { "enable" },
	[OP_DISABLE] = { "disable" }, [OP_TRUNC] = { "trunc-trace" },
	[OP_FILTER] = { "filter" }, [OP_TRIGGER] = { "trigger" },
	[OP_UNTRIGGER] = { "untrigger" }, [OP_MKINST] = { "mkinstance" },
	[OP_INSTEN] = { "inst-enable" }, [OP_RMINST] = { "rminstance" },
	[OP_LOAD] = { "modload" }, [OP_UNLOAD] = { "modunload" },
	[OP_READ] = { "read-lists" },
};

static atomic_ulong calls, pipe_lines, other_lines, lost_lines, bad_lines;
static atomic_int reports[2];

/* Print a problem; the first 20 of each kind (@kind 0 or 1). */
static void report(int kind, const char *fmt, ...)
{
	va_list ap;

	if (atomic_fetch_add(&reports[kind], 1) >= 20)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/* The kinds of control operation not tried yet, 0 when all were. */
static int untried(void)
{
	int i, n = 0;

	for (i = 0; i < NR_OPS; i++) {
		if ((i == OP_LOAD || i == OP_UNLOAD) && !module_path)
			continue;
		if (!ops[i].ok && !ops[i].expected && !ops[i].unexpected)
			n++;
	}
	return n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* When this thread's current operation started (see account()). */
static __thread double op_start;

/*
 * Count the result @err (0 or an errno) of operation @op on @what: ok,
 * one of the errnos listed in @allowed (0-terminated), or unexpected.
 */
static void account(int op, int err, const char *what, const int *allowed)
{
	unsigned long us = (now() - op_start) * 1e6, max;
	const int *a;

	atomic_fetch_add(&ops[op].usecs, us);
	max = atomic_load(&ops[op].max_usecs);
	while (us > max && !atomic_compare_exchange_weak(&ops[op].max_usecs, &max, us))
		;
	if (!err) {
		atomic_fetch_add(&ops[op].ok, 1);
		return;
	}
	for (a = allowed; a && *a; a++) {
		if (*a == err) {
			atomic_fetch_add(&ops[op].expected, 1);
			return;
		}
	}
	atomic_fetch_add(&ops[op].unexpected, 1);
	report(0, "UNEXPECTED: %s '%s': %s\n", ops[op].name, what,
	       err < 0 ? "short write" : strerrorname_np(err));
}

#define ALLOW(...) ((const int[]){ __VA_ARGS__, 0 })

/* ------------------------------------------------------------------ */
/* Files. */

static void tpath(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(buf, len, "%s/", tracefs);

	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* One write() of @s to @file: 0, the errno, or -1 on a short write. */
static int write_str(const char *file, const char *s, int flags)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd, err = 0;

	op_start = now();
	fd = open(file, O_WRONLY | flags);
	if (fd < 0)
		return errno;
	n = write(fd, s, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = -1;
	close(fd);
	return err;
}

/* Read a file to its end and throw it away; 0 or the errno. */
static int slurp(const char *file)
{
	char buf[4096];
	ssize_t n;
	int fd;

	op_start = now();
	fd = open(file, O_RDONLY);
	if (fd < 0)
		return errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	n = n < 0 ? errno : 0;
	close(fd);
	return n;
}

static unsigned int rnd(unsigned int *seed, unsigned int n)
{
	return rand_r(seed) % n;
}

static void pause_us(unsigned int us)
{
	struct timespec ts = { 0, us * 1000L };

	nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------------ */
/* The threads. */

static void *caller(void *arg)
{
	char buf[128];
	int fd, i;

	(void)arg;
	while (!stop) {
		fd = open("/proc/version", O_RDONLY);
		if (fd >= 0) {
			if (read(fd, buf, sizeof(buf)) < 0)
				buf[0] = 0;
			close(fd);
		}
		/* a bad user pointer: the ustring fetch must record (fault) */
		fd = syscall(SYS_openat, AT_FDCWD, (const char *)16, O_RDONLY);
		if (fd >= 0)
			close(fd);
		for (i = 0; i < 4; i++)
			syscall(SYS_getppid);
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			if (write(fd, "x", 1) < 0)
				buf[0] = 0;
			close(fd);
		}
		atomic_fetch_add(&calls, 7);
		/* see -p in the usage above */
		pause_us(caller_pause_us);
	}
	return NULL;
}

/* Sleep up to @ms milliseconds, in steps, returning early on stop. */
static void hold(unsigned int ms)
{
	while (ms && !stop) {
		unsigned int step = ms < 50 ? ms : 50;

		pause_us(step * 1000);
		ms -= step;
	}
}

static int set_enable(struct probe *p, const char *val, int op)
{
	char file[512];
	int err;

	tpath(file, sizeof(file), "events/%s/enable", p->event);
	ev_open_begin();
	err = write_str(file, val, 0);
	ev_end();
	account(op, err, file, ALLOW(ENOENT, ENODEV));
	return err;
}

static int remove_probe(struct probe *p)
{
	char file[512], cmd[300];
	int err;

	tpath(file, sizeof(file), "kprobe_events");
	snprintf(cmd, sizeof(cmd), "-:%s", p->event);
	ev_remove_begin();
	err = write_str(file, cmd, O_APPEND);
	ev_end();
	/* EBUSY: enabled meanwhile by another thread, in an instance or by a trigger */
	account(OP_REMOVE, err, cmd, ALLOW(ENOENT, EBUSY));
	return err;
}

/*
 * The owner of one probe runs its life cycle again and again: define it,
 * enable it (mostly), let it fire for a while, now and then try to
 * remove it while enabled, disable and remove it, or clear everything.
 * Each probe thus lives, and records, a good part of the run, while the
 * owners and the other threads race with each other.
 */
static void *owner(void *arg)
{
	struct probe *p = arg;
	unsigned int seed = (unsigned int)(p - probes) * 7919 + 1;
	unsigned int round = 0;
	char file[512];
	int err, r;

	tpath(file, sizeof(file), "kprobe_events");
	while (!stop) {
		round++;
		err = write_str(file, p->def, O_APPEND);
		account(OP_ADD, err, p->def, ALLOW(EEXIST));
		if (rnd(&seed, 100) < 80)
			set_enable(p, "1", OP_ENABLE);
		hold(100 + rnd(&seed, 1500));
		r = rnd(&seed, 100);
		if (r < 15)
			remove_probe(p);	/* mostly EBUSY: still enabled */
		set_enable(p, "0", OP_DISABLE);
		/* Even a short run tries a clear: the first owner's first round. */
		if (r < 5 || (p == probes && round == 1)) {
			ev_remove_begin();
			err = write_str(file, "", O_TRUNC);
			ev_end();
			account(OP_CLEAR, err, "O_TRUNC", ALLOW(EBUSY));
		} else {
			remove_probe(p);
		}
		hold(rnd(&seed, 300));
	}
	return NULL;
}

static void *enabler(void *arg)
{
	unsigned int seed = 2, round = 0;
	char file[512];
	struct probe *p;
	int err, on;

	(void)arg;
	while (!stop) {
		p = &probes[rnd(&seed, ARRAY_SIZE(probes))];
		on = rnd(&seed, 100) < 60;
		if (rnd(&seed, 20) == 0) {
			/* the whole group at once */
			tpath(file, sizeof(file), "events/kprobes/enable");
		} else {
			tpath(file, sizeof(file), "events/%s/enable", p->event);
		}
		ev_open_begin();
		err = write_str(file, on ? "1" : "0", 0);
		ev_end();
		account(on ? OP_ENABLE : OP_DISABLE, err, file,
			ALLOW(ENOENT, ENODEV));
		if (++round % 10 == 3) {
			tpath(file, sizeof(file), "trace");
			err = write_str(file, "", O_TRUNC);
			account(OP_TRUNC, err, file, NULL);
		}
		pause_us(rnd(&seed, 50000));
	}
	return NULL;
}

static void *filterer(void *arg)
{
	static const char *const filters[] = {
		"common_pid > 0", "comm != \"nosuchtask\"", "0",
	};
	unsigned int seed = 3, round = 0;
	char file[512];
	struct probe *p;
	int err;

	(void)arg;
	while (!stop) {
		p = &probes[rnd(&seed, ARRAY_SIZE(probes))];
		/*
		 * In turn, not at random: on the debug kernel an operation
		 * can take seconds, and a short run still does each kind.
		 */
		switch (round++ % 3) {
		case 0: {
			/* only st_open, st_rret and st_mid have a comm field */
			const char *f = filters[rnd(&seed, 3)];

			if (strstr(f, "comm") && !strstr(p->def, "comm=") &&
			    !strstr(p->def, " c=$comm"))
				f = "common_pid > 0";
			if (strstr(f, "comm") && strstr(p->def, " c=$comm"))
				f = "c != \"nosuchtask\"";
			tpath(file, sizeof(file), "events/%s/filter", p->event);
			ev_open_begin();
			err = write_str(file, f, 0);
			ev_end();
			account(OP_FILTER, err, f, ALLOW(ENOENT, ENODEV));
			break;
		}
		case 1:
			tpath(file, sizeof(file), "events/%s/trigger", p->event);
			ev_open_begin();
			err = write_str(file, "hist:keys=common_pid", 0);
			ev_end();
			account(OP_TRIGGER, err, file, ALLOW(ENOENT, ENODEV, EEXIST));
			break;
		default:
			tpath(file, sizeof(file), "events/%s/trigger", p->event);
			ev_open_begin();
			err = write_str(file, "!hist:keys=common_pid", 0);
			ev_end();
			account(OP_UNTRIGGER, err, file, ALLOW(ENOENT, ENODEV));
			break;
		}
		pause_us(rnd(&seed, 50000));
	}
	return NULL;
}

static void *instancer(void *arg)
{
	unsigned int seed = 4;
	char dir[512], file[600];
	struct probe *p;
	int err, i;

	(void)arg;
	tpath(dir, sizeof(dir), "instances/kpe_stress");
	while (!stop) {
		op_start = now();
		err = mkdir(dir, 0755) ? errno : 0;
		account(OP_MKINST, err, dir, ALLOW(EEXIST));
		for (i = 0; i < 3; i++) {
			p = &probes[rnd(&seed, ARRAY_SIZE(probes))];
			snprintf(file, sizeof(file), "%s/events/%s/enable", dir,
				 p->event);
			ev_open_begin();
			err = write_str(file, "1", 0);
			ev_end();
			account(OP_INSTEN, err, file, ALLOW(ENOENT, ENODEV));
		}
		pause_us(10000 + rnd(&seed, 40000));
		op_start = now();
		ev_remove_begin();
		err = rmdir(dir) ? errno : 0;
		ev_end();
		account(OP_RMINST, err, dir, ALLOW(EBUSY));
		pause_us(rnd(&seed, 10000));
	}
	rmdir(dir);
	return NULL;
}

static void *moduler(void *arg)
{
	unsigned int seed = 5;
	int fd, err;

	(void)arg;
	while (!stop) {
		op_start = now();
		fd = open(module_path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			account(OP_LOAD, errno, module_path, NULL);
			break;
		}
		err = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
		close(fd);
		account(OP_LOAD, err, module_path, ALLOW(EEXIST));
		pause_us(rnd(&seed, 20000));
		op_start = now();
		err = syscall(SYS_delete_module, MOD_NAME, O_NONBLOCK) ? errno : 0;
		account(OP_UNLOAD, err, MOD_NAME, NULL);
		pause_us(rnd(&seed, 20000));
	}
	return NULL;
}

static void *lister(void *arg)
{
	static const char *const files[] = {
		"kprobe_events", "dynamic_events", "kprobe_profile",
		"events/kprobes/st_open/format", "events/stg/st_w/format",
		"events/kprobes/st_rret/hist",
	};
	unsigned int seed = 6;
	char file[512];
	int err;

	(void)arg;
	while (!stop) {
		const char *f = files[rnd(&seed, ARRAY_SIZE(files))];

		tpath(file, sizeof(file), "%s", f);
		ev_open_begin();
		err = slurp(file);
		ev_end();
		/* event files come and go; kprobe_events never does */
		account(OP_READ, err, f, strchr(f, '/') ? ALLOW(ENOENT, ENODEV) : NULL);
		pause_us(rnd(&seed, 3000));
	}
	return NULL;
}

/* Check one complete line read from trace_pipe. */
static void check_line(const char *line)
{
	size_t i;

	atomic_fetch_add(&pipe_lines, 1);
	if (strstr(line, "LOST") && strstr(line, "EVENTS")) {
		atomic_fetch_add(&lost_lines, 1);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		const char *name = strchr(probes[i].event, '/') + 1;
		char mark[64];

		snprintf(mark, sizeof(mark), " %s: ", name);
		if (!strstr(line, mark))
			continue;
		if (regexec(&prefix_re, line, 0, NULL, 0) ||
		    regexec(&probes[i].re, line, 0, NULL, 0)) {
			atomic_fetch_add(&bad_lines, 1);
			report(1, "MALFORMED record: %s\n", line);
		} else {
			atomic_fetch_add(&probes[i].records, 1);
		}
		return;
	}
	atomic_fetch_add(&other_lines, 1);
}

static void *piper(void *arg)
{
	static char buf[65536 + 1];
	char file[512];
	size_t have = 0;
	ssize_t n;
	char *nl, *start;
	int fd;

	(void)arg;
	tpath(file, sizeof(file), "trace_pipe");
	fd = open(file, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		report(1, "cannot open %s: %s\n", file, strerror(errno));
		atomic_fetch_add(&bad_lines, 1);
		return NULL;
	}
	/* drain after stop too, so that the last records are checked */
	for (;;) {
		n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n <= 0) {
			if (n < 0 && errno != EAGAIN && errno != EINTR) {
				report(1, "trace_pipe read: %s\n", strerror(errno));
				atomic_fetch_add(&bad_lines, 1);
				break;
			}
			if (stop == 2)
				break;	/* drained */
			pause_us(2000);
			continue;
		}
		/*
		 * Our own read()s fire st_rret (vfs_read) while it is
		 * enabled: after the stop, read for 5 s at most.
		 */
		if (stop == 2 && time(NULL) > drain_end)
			break;
		have += n;
		buf[have] = '\0';
		start = buf;
		while ((nl = strchr(start, '\n'))) {
			*nl = '\0';
			check_line(start);
			start = nl + 1;
		}
		have -= start - buf;
		memmove(buf, start, have);
		if (have == sizeof(buf) - 1) {
			report(1, "trace_pipe line longer than %zu bytes\n", have);
			atomic_fetch_add(&bad_lines, 1);
			have = 0;
		}
	}
	close(fd);
	return NULL;
}

/* ------------------------------------------------------------------ */

static void progress(time_t t0)
{
	unsigned long n = 0, hits = 0;
	int i;

	for (i = 0; i < NR_OPS; i++)
		n += ops[i].ok + ops[i].expected + ops[i].unexpected;
	for (i = 0; i < (int)ARRAY_SIZE(probes); i++)
		hits += probes[i].records;
	printf("kpe_stress: %lds: %lu calls, %lu records, %lu control operations\n",
	       (long)(time(NULL) - t0), (unsigned long)calls, hits, n);
	fflush(stdout);
}

static void usage(void)
{
	fprintf(stderr, "usage: kpe_stress -d SECONDS -m MIDOFFS [-k MODULE.ko] [-t TRACEFS] [-R] [-c CALLERS] [-p PAUSE_US]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	pthread_t tids[64];
	int ntids = 0, opt, ncpu, ncallers = 0, i, secs = -1, midoff = -1;
	int max_secs;
	unsigned long unexpected = 0, total_ops = 0, hits = 0;
	time_t t0;

	while ((opt = getopt(argc, argv, "d:m:k:t:Rc:p:")) != -1) {
		switch (opt) {
		case 'd':
			secs = atoi(optarg);
			break;
		case 'm':
			midoff = atoi(optarg);
			break;
		case 'k':
			module_path = optarg;
			break;
		case 't':
			tracefs = optarg;
			break;
		case 'R':
			open_remove_race = 1;
			break;
		case 'c':
			ncallers = atoi(optarg);
			break;
		case 'p':
			caller_pause_us = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (secs < 0 || midoff <= 0)
		usage();
	{
		pthread_rwlockattr_t attr;

		/* removals must not starve behind the stream of opens */
		pthread_rwlockattr_init(&attr);
		pthread_rwlockattr_setkind_np(&attr,
			PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
		pthread_rwlock_init(&evlock, &attr);
	}
	snprintf(probes[2].def, sizeof(probes[2].def),
		 "p:st_mid vfs_read+%d sp=%%sp:x64 deref=+8(%%sp):x64 c=$comm",
		 midoff);
	if (regcomp(&prefix_re, prefix_pattern, REG_EXTENDED | REG_NOSUB))
		usage();
	for (i = 0; i < (int)ARRAY_SIZE(probes); i++) {
		if (regcomp(&probes[i].re, probes[i].pattern,
			    REG_EXTENDED | REG_NOSUB)) {
			fprintf(stderr, "bad pattern %s\n", probes[i].pattern);
			return 2;
		}
	}

	ncpu = ncallers > 0 ? ncallers : sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	if (ncpu > 16)
		ncpu = 16;
	printf("kpe_stress: %d s, %d callers, module %s\n", secs, ncpu,
	       module_path ? module_path : "none");
	fflush(stdout);

	max_secs = secs + 60 > 4 * secs ? secs + 60 : 4 * secs;
	t0 = time(NULL);
	for (i = 0; i < ncpu; i++)
		pthread_create(&tids[ntids++], NULL, caller, NULL);
	for (i = 0; i < (int)ARRAY_SIZE(probes); i++)
		pthread_create(&tids[ntids++], NULL, owner, &probes[i]);
	pthread_create(&tids[ntids++], NULL, enabler, NULL);
	pthread_create(&tids[ntids++], NULL, filterer, NULL);
	pthread_create(&tids[ntids++], NULL, instancer, NULL);
	pthread_create(&tids[ntids++], NULL, lister, NULL);
	if (module_path)
		pthread_create(&tids[ntids++], NULL, moduler, NULL);
	pthread_t pipe_tid;
	pthread_create(&pipe_tid, NULL, piper, NULL);

	while (time(NULL) - t0 < secs ||
	       (untried() && time(NULL) - t0 < max_secs)) {
		sleep(1);
		if ((time(NULL) - t0) % 10 == 0)
			progress(t0);
		if (time(NULL) - t0 == secs && untried())
			printf("kpe_stress: %d kinds of control operation not tried yet: going on\n",
			       untried());
	}
	stop = 1;
	printf("kpe_stress: stopping\n");
	fflush(stdout);
	for (i = 0; i < ntids; i++)
		pthread_join(tids[i], NULL);
	/* let the reader drain what is left, then stop it */
	drain_end = time(NULL) + 5;
	stop = 2;
	pthread_join(pipe_tid, NULL);

	printf("kpe_stress: ran %ld s, %lu calls of probed functions\n",
	       (long)(time(NULL) - t0), (unsigned long)calls);
	printf("kpe_stress: records (hits) read from trace_pipe:");
	for (i = 0; i < (int)ARRAY_SIZE(probes); i++) {
		printf(" %s=%lu", strchr(probes[i].event, '/') + 1,
		       (unsigned long)probes[i].records);
		hits += probes[i].records;
	}
	printf(" total=%lu\n", hits);
	printf("kpe_stress: trace_pipe lines=%lu other=%lu lost-markers=%lu malformed=%lu\n",
	       (unsigned long)pipe_lines, (unsigned long)other_lines,
	       (unsigned long)lost_lines, (unsigned long)bad_lines);
	printf("kpe_stress: control operations (ok/refused as expected/unexpected):");
	for (i = 0; i < NR_OPS; i++) {
		printf(" %s=%lu/%lu/%lu", ops[i].name,
		       (unsigned long)ops[i].ok, (unsigned long)ops[i].expected,
		       (unsigned long)ops[i].unexpected);
		total_ops += ops[i].ok + ops[i].expected + ops[i].unexpected;
		unexpected += ops[i].unexpected;
	}
	printf("\nkpe_stress: total control operations=%lu unexpected=%lu\n",
	       total_ops, unexpected);
	printf("kpe_stress: ms per operation (mean/max):");
	for (i = 0; i < NR_OPS; i++) {
		unsigned long n = ops[i].ok + ops[i].expected + ops[i].unexpected;

		if (n)
			printf(" %s=%lu/%lu", ops[i].name,
			       (unsigned long)ops[i].usecs / n / 1000,
			       (unsigned long)ops[i].max_usecs / 1000);
	}
	printf("\n");
	for (i = 0; i < (int)ARRAY_SIZE(probes); i++)
		printf("kpe_stress-records: %s %lu\n",
		       strchr(probes[i].event, '/') + 1,
		       (unsigned long)probes[i].records);
	printf("kpe_stress-ops: add=%lu remove=%lu clear=%lu modload=%lu modunload=%lu\n",
	       (unsigned long)ops[OP_ADD].ok, (unsigned long)ops[OP_REMOVE].ok,
	       (unsigned long)ops[OP_CLEAR].ok, (unsigned long)ops[OP_LOAD].ok,
	       (unsigned long)ops[OP_UNLOAD].ok);
	/* Each kind tried, whatever its result: the caller checks all ran. */
	printf("kpe_stress-tried:");
	for (i = 0; i < NR_OPS; i++)
		printf(" %s=%lu", ops[i].name,
		       (unsigned long)(ops[i].ok + ops[i].expected +
				       ops[i].unexpected));
	printf("\n");
	i = unexpected || bad_lines ? 1 : 0;
	printf("kpe_stress: exit %d\n", i);
	return i;
}
