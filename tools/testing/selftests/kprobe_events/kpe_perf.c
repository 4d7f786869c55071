// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_perf: count probe hits through perf_event_open(), for the tests of
 * the kprobe PMU and of perf on kprobe events.
 *
 *   kpe_perf kprobe SYMBOL [ret]   a kprobe PMU event (perf's own probe)
 *   kpe_perf tracepoint ID         the trace event with that id
 *
 * KPE_PERF_SHOW=FILE (environment): copy FILE to stderr while the event
 * is open (e.g. tracefs enabled_functions, to see how it is hooked).
 *
 * Opens a counter for this process, calls read() on /proc/version
 * READS times (each goes through vfs_read), prints the counter value and
 * exits 0; on an error prints the errno name to stdout and exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	const char *show;
	uint64_t count;
	int fd, vfd, i;

	if (argc < 3) {
		fprintf(stderr, "usage: %s kprobe SYMBOL [ret] | tracepoint ID\n",
			"kpe_perf");
		return 2;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sample_period = 1;
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
	show = getenv("KPE_PERF_SHOW");
	if (show) {
		FILE *f = fopen(show, "r");

		while (f && fgets(buf, sizeof(buf), f))
			fputs(buf, stderr);
		if (f)
			fclose(f);
	}
	for (i = 0; i < READS; i++) {
		vfd = open("/proc/version", O_RDONLY);
		if (vfd < 0 || read(vfd, buf, sizeof(buf)) < 0)
			return fail("/proc/version");
		close(vfd);
	}
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return fail("read counter");
	printf("%llu\n", (unsigned long long)count);
	close(fd);
	return 0;
}
