// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_loop - call getppid() (as a real syscall) in a tight loop for
 * SECONDS seconds of elapsed time, then print the number of calls.
 * The clock is checked once every 1000 calls.
 *
 * usage: kpe_loop SECONDS
 *
 * KPE_LOOP_TIMER_US=N (environment): meanwhile an interval timer of this
 * process fires every N microseconds (ITIMER_REAL, an hrtimer of the CPU
 * the loop runs on; SIGALRM is caught and does nothing), so that timer
 * interrupts come in the middle of the loop's system calls.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static void on_alarm(int sig)
{
}

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
	p = getenv("KPE_LOOP_TIMER_US");
	if (p) {
		struct itimerval it = { 0 };
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sa.sa_flags = SA_RESTART;
		sigaction(SIGALRM, &sa, NULL);
		it.it_interval.tv_usec = atol(p);
		it.it_value.tv_usec = atol(p);
		if (setitimer(ITIMER_REAL, &it, NULL)) {
			perror("kpe_loop: setitimer");
			return 1;
		}
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
