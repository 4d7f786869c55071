// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_loop - call getppid() (as a real syscall) in a tight loop for
 * SECONDS seconds of elapsed time, then print the number of calls.
 * The clock is checked once every 1000 calls.
 *
 * usage: kpe_loop SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long long count = 0;
	double end;
	char *p;
	long secs;
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: kpe_loop SECONDS\n");
		return 2;
	}
	secs = strtol(argv[1], &p, 10);
	if (*argv[1] == '\0' || *p != '\0' || secs < 0) {
		fprintf(stderr, "kpe_loop: bad SECONDS '%s'\n", argv[1]);
		return 2;
	}
	end = now() + secs;
	do {
		for (i = 0; i < 1000; i++)
			syscall(SYS_getppid);
		count += 1000;
	} while (now() < end);
	printf("%llu\n", count);
	return 0;
}
