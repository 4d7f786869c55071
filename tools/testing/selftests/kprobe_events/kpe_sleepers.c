// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_sleepers - N threads enter nanosleep() for MS milliseconds at the
 * same moment: more returns to hook at once than a small pool of return
 * instances has, before it can grow.
 *
 * usage: kpe_sleepers N MS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_barrier_t start;
static struct timespec nap;

static void *sleeper(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start);
	nanosleep(&nap, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t *t;
	long n, ms, i;

	if (argc != 3) {
		fprintf(stderr, "usage: kpe_sleepers N MS\n");
		return 2;
	}
	n = strtol(argv[1], NULL, 10);
	ms = strtol(argv[2], NULL, 10);
	if (n < 1 || n > 4096 || ms < 0) {
		fprintf(stderr, "kpe_sleepers: bad N or MS\n");
		return 2;
	}
	nap.tv_sec = ms / 1000;
	nap.tv_nsec = ms % 1000 * 1000000L;
	t = calloc(n, sizeof(*t));
	if (!t || pthread_barrier_init(&start, NULL, n)) {
		perror("kpe_sleepers");
		return 1;
	}
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, sleeper, NULL)) {
			perror("pthread_create");
			return 1;
		}
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
