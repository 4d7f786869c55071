// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_perf: count probe hits through perf_event_open(), for the tests of
 * the kprobe PMU and of perf on kprobe events.
 *
 *   kpe_perf kprobe SYMBOL [ret]   a kprobe PMU event (perf's own probe)
 *   kpe_perf tracepoint ID         the trace event with that id
 *
 * Environment:
 *   KPE_PERF_SHOW=FILE[:FILE...]  copy each FILE to stderr while the
 *			 event is open (e.g. tracefs enabled_functions and
 *			 kprobes/list, to see how it is hooked)
 *   KPE_PERF_PERIOD=N	 the event's sample_period: 1 (the default), a
 *			 sampling event, for which the tracer builds the
 *			 hit's record; 0, an event that only counts (perf
 *			 stat), for which it need not
 *   KPE_PERF_FILTER=F	 give the event filter F (PERF_EVENT_IOC_SET_FILTER;
 *			 a tracepoint's fields)
 *   KPE_PERF_USER_ONLY=1 set exclude_kernel: count only hits in user mode
 *			 (none, for a kprobe)
 *   KPE_PERF_PAIR=1	 open a second event like the first but for its
 *			 period (1 if the first's is 0, else 0), and print
 *			 both counts, the first's first
 *
 * Opens a counter for this process, calls read() on /proc/version
 * READS times (each goes through vfs_read), prints the counter value and
 * exits 0; on an error prints the errno name to stdout and exits 1.
 * The counter itself is read with read() (vfs_read too), READS calls
 * later: an entry probe on vfs_read counts READS + 1 hits, and a
 * return probe READS (the counter is read before that read returns).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kpe_sysfs.h"

#define READS 10

static int fail(const char *what)
{
	int err = errno;

	printf("%s\n", err == ENOENT ? "ENOENT" : err == EINVAL ? "EINVAL" :
	       err == EOPNOTSUPP ? "EOPNOTSUPP" : err == EBUSY ? "EBUSY" :
	       err == EACCES ? "EACCES" : err == EPERM ? "EPERM" : "ERROR");
	fprintf(stderr, "kpe_perf: %s: %s\n", what, strerror(err));
	return 1;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	char buf[256];
	const char *env;
	char *show, *name;
	uint64_t count, count2;
	int fd, fd2 = -1, vfd, i;

	if (argc < 3) {
		fprintf(stderr, "usage: %s kprobe SYMBOL [ret] | tracepoint ID\n",
			"kpe_perf");
		return 2;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	env = getenv("KPE_PERF_USER_ONLY");
	attr.exclude_kernel = env && !strcmp(env, "1");
	env = getenv("KPE_PERF_PERIOD");
	attr.sample_period = env ? strtoull(env, NULL, 0) : 1;
	if (!strcmp(argv[1], "kprobe")) {
		attr.type = read_number("/sys/bus/event_source/devices/kprobe/type",
					NULL);
		if ((int)attr.type < 0)
			return fail("kprobe PMU type");
		if (argc > 3 && !strcmp(argv[3], "ret")) {
			long bit = read_number("/sys/bus/event_source/devices/kprobe/format/retprobe",
					       "config:");

			if (bit < 0)
				return fail("retprobe format");
			attr.config |= 1ULL << bit;
		}
		attr.kprobe_func = (uint64_t)(uintptr_t)argv[2];
		attr.probe_offset = 0;
	} else {
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = strtoull(argv[2], NULL, 0);
	}

	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return fail("perf_event_open");
	env = getenv("KPE_PERF_FILTER");
	if (env && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, env))
		return fail("PERF_EVENT_IOC_SET_FILTER");
	env = getenv("KPE_PERF_PAIR");
	if (env && !strcmp(env, "1")) {
		attr.sample_period = !attr.sample_period;
		fd2 = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
		if (fd2 < 0)
			return fail("perf_event_open (second)");
	}
	env = getenv("KPE_PERF_SHOW");
	show = env ? strdup(env) : NULL;
	for (name = show ? strtok(show, ":") : NULL; name;
	     name = strtok(NULL, ":")) {
		FILE *f = fopen(name, "r");

		while (f && fgets(buf, sizeof(buf), f))
			fputs(buf, stderr);
		if (f)
			fclose(f);
	}
	free(show);
	for (i = 0; i < READS; i++) {
		vfd = open("/proc/version", O_RDONLY);
		if (vfd < 0 || read(vfd, buf, sizeof(buf)) < 0)
			return fail("/proc/version");
		close(vfd);
	}
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return fail("read counter");
	if (fd2 >= 0) {
		/* (Its own read adds a hit that the first read did not see.) */
		if (read(fd2, &count2, sizeof(count2)) != sizeof(count2))
			return fail("read second counter");
		printf("%llu %llu\n", (unsigned long long)count,
		       (unsigned long long)count2);
		close(fd2);
	} else {
		printf("%llu\n", (unsigned long long)count);
	}
	close(fd);
	return 0;
}
