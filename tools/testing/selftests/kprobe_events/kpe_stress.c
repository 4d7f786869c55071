// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_stress - drive the tracer from every side at once for SECONDS:
 *
 *   callers   (one per CPU) open/read/close /proc/version, getppid(),
 *             write /dev/null: the probed functions
 *   churn     adds, removes and clears the probes below
 *   enable    enables and disables the events, truncates the trace
 *   filter    sets and clears filters and hist triggers
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
 * usage: kpe_stress -d SECONDS -m MIDOFFS [-k MODULE.ko] [-t TRACEFS]
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

static struct probe probes[] = {
	{ "kprobes/st_open",
	  "p:st_open do_sys_openat2 fn=+0(%si):ustring comm=$comm flags=%dx:x32",
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
	  "p:st_pid __x64_sys_getppid s0=$stack0:x64 regs=+0(%di):x64",
	  " st_pid: \\(__x64_sys_getppid\\+0x0/0x[0-9a-f]+\\) "
	  "s0=0x[0-9a-f]+ regs=(0x[0-9a-f]+|\\(fault\\))$" },
	{ "kprobes/st_mod",
	  "p:st_mod " MOD_NAME ":trace_printk_irq_work",
	  /* a record read after the unload shows the bare address */
	  " st_mod: \\((trace_printk_irq_work\\+0x0/0x[0-9a-f]+ \\[" MOD_NAME
	  "\\]|0x[0-9a-f]+)\\)$" },
	{ "stg/st_w",
	  "p:stg/st_w vfs_write cnt=%dx:u64 buf=+0(%si):u8",
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
static atomic_int reports;

static void report(const char *fmt, ...)
{
	va_list ap;

	if (atomic_fetch_add(&reports, 1) >= 20)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/*
 * Count the result @err (0 or an errno) of operation @op on @what: ok,
 * one of the errnos listed in @allowed (0-terminated), or unexpected.
 */
static void account(int op, int err, const char *what, const int *allowed)
{
	const int *a;

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
	report("UNEXPECTED: %s '%s': %s\n", ops[op].name, what,
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
	int fd = open(file, O_RDONLY);

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
		/*
		 * Sleep now and then: a task that never blocks holds up
		 * RCU-tasks grace periods, which the kprobes optimizer waits
		 * for with kprobe_mutex held, and every add/remove with it.
		 */
		pause_us(100);
	}
	return NULL;
}

static void *churn(void *arg)
{
	unsigned int seed = 1;
	char file[512], cmd[300];
	struct probe *p;
	int err;

	(void)arg;
	tpath(file, sizeof(file), "kprobe_events");
	while (!stop) {
		unsigned int r = rnd(&seed, 100);

		p = &probes[rnd(&seed, ARRAY_SIZE(probes))];
		if (r < 55) {
			err = write_str(file, p->def, O_APPEND);
			account(OP_ADD, err, p->def, ALLOW(EEXIST));
		} else if (r < 97) {
			snprintf(cmd, sizeof(cmd), "-:%s", p->event);
			err = write_str(file, cmd, O_APPEND);
			account(OP_REMOVE, err, cmd, ALLOW(ENOENT, EBUSY));
		} else {
			err = write_str(file, "", O_TRUNC);
			account(OP_CLEAR, err, "O_TRUNC", ALLOW(EBUSY));
		}
		pause_us(rnd(&seed, 3000));
	}
	return NULL;
}

static void *enabler(void *arg)
{
	unsigned int seed = 2;
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
		err = write_str(file, on ? "1" : "0", 0);
		account(on ? OP_ENABLE : OP_DISABLE, err, file,
			ALLOW(ENOENT, ENODEV));
		if (rnd(&seed, 50) == 0) {
			tpath(file, sizeof(file), "trace");
			err = write_str(file, "", O_TRUNC);
			account(OP_TRUNC, err, file, NULL);
		}
		pause_us(rnd(&seed, 4000));
	}
	return NULL;
}

static void *filterer(void *arg)
{
	static const char *const filters[] = {
		"common_pid > 0", "comm != \"nosuchtask\"", "0",
	};
	unsigned int seed = 3;
	char file[512];
	struct probe *p;
	int err;

	(void)arg;
	while (!stop) {
		p = &probes[rnd(&seed, ARRAY_SIZE(probes))];
		switch (rnd(&seed, 3)) {
		case 0: {
			/* only st_open, st_rret and st_mid have a comm field */
			const char *f = filters[rnd(&seed, 3)];

			if (strstr(f, "comm") && !strstr(p->def, "comm=") &&
			    !strstr(p->def, " c=$comm"))
				f = "common_pid > 0";
			if (strstr(f, "comm") && strstr(p->def, " c=$comm"))
				f = "c != \"nosuchtask\"";
			tpath(file, sizeof(file), "events/%s/filter", p->event);
			err = write_str(file, f, 0);
			account(OP_FILTER, err, f, ALLOW(ENOENT, ENODEV));
			break;
		}
		case 1:
			tpath(file, sizeof(file), "events/%s/trigger", p->event);
			err = write_str(file, "hist:keys=common_pid", 0);
			account(OP_TRIGGER, err, file, ALLOW(ENOENT, ENODEV, EEXIST));
			break;
		default:
			tpath(file, sizeof(file), "events/%s/trigger", p->event);
			err = write_str(file, "!hist:keys=common_pid", 0);
			account(OP_UNTRIGGER, err, file, ALLOW(ENOENT, ENODEV));
			break;
		}
		pause_us(rnd(&seed, 5000));
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
		err = mkdir(dir, 0755) ? errno : 0;
		account(OP_MKINST, err, dir, ALLOW(EEXIST));
		for (i = 0; i < 3; i++) {
			p = &probes[rnd(&seed, ARRAY_SIZE(probes))];
			snprintf(file, sizeof(file), "%s/events/%s/enable", dir,
				 p->event);
			err = write_str(file, "1", 0);
			account(OP_INSTEN, err, file, ALLOW(ENOENT, ENODEV));
		}
		pause_us(10000 + rnd(&seed, 40000));
		err = rmdir(dir) ? errno : 0;
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
		fd = open(module_path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			account(OP_LOAD, errno, module_path, NULL);
			break;
		}
		err = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
		close(fd);
		account(OP_LOAD, err, module_path, ALLOW(EEXIST));
		pause_us(rnd(&seed, 20000));
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
		err = slurp(file);
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
			report("MALFORMED record: %s\n", line);
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
		report("cannot open %s: %s\n", file, strerror(errno));
		atomic_fetch_add(&bad_lines, 1);
		return NULL;
	}
	/* drain after stop too, so that the last records are checked */
	for (;;) {
		n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n <= 0) {
			if (n < 0 && errno != EAGAIN && errno != EINTR) {
				report("trace_pipe read: %s\n", strerror(errno));
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
			report("trace_pipe line longer than %zu bytes\n", have);
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
	fprintf(stderr, "usage: kpe_stress -d SECONDS -m MIDOFFS [-k MODULE.ko] [-t TRACEFS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	pthread_t tids[64];
	int ntids = 0, opt, ncpu, i, secs = -1, midoff = -1;
	unsigned long unexpected = 0, total_ops = 0, hits = 0;
	time_t t0;

	while ((opt = getopt(argc, argv, "d:m:k:t:")) != -1) {
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
		default:
			usage();
		}
	}
	if (secs < 0 || midoff <= 0)
		usage();
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

	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	if (ncpu > 16)
		ncpu = 16;
	printf("kpe_stress: %d s, %d callers, module %s\n", secs, ncpu,
	       module_path ? module_path : "none");
	fflush(stdout);

	t0 = time(NULL);
	for (i = 0; i < ncpu; i++)
		pthread_create(&tids[ntids++], NULL, caller, NULL);
	pthread_create(&tids[ntids++], NULL, churn, NULL);
	pthread_create(&tids[ntids++], NULL, enabler, NULL);
	pthread_create(&tids[ntids++], NULL, filterer, NULL);
	pthread_create(&tids[ntids++], NULL, instancer, NULL);
	pthread_create(&tids[ntids++], NULL, lister, NULL);
	if (module_path)
		pthread_create(&tids[ntids++], NULL, moduler, NULL);
	pthread_t pipe_tid;
	pthread_create(&pipe_tid, NULL, piper, NULL);

	while (time(NULL) - t0 < secs) {
		sleep(1);
		if ((time(NULL) - t0) % 10 == 0)
			progress(t0);
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
	for (i = 0; i < (int)ARRAY_SIZE(probes); i++)
		printf("kpe_stress-records: %s %lu\n",
		       strchr(probes[i].event, '/') + 1,
		       (unsigned long)probes[i].records);
	printf("kpe_stress-ops: add=%lu remove=%lu clear=%lu modload=%lu modunload=%lu\n",
	       (unsigned long)ops[OP_ADD].ok, (unsigned long)ops[OP_REMOVE].ok,
	       (unsigned long)ops[OP_CLEAR].ok, (unsigned long)ops[OP_LOAD].ok,
	       (unsigned long)ops[OP_UNLOAD].ok);
	i = unexpected || bad_lines ? 1 : 0;
	printf("kpe_stress: exit %d\n", i);
	return i;
}
