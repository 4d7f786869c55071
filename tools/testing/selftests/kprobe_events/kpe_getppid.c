// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_getppid: call getppid() through syscall(SYS_getppid) and print what
 * it returned, for test_bpf_semantics.sh (bpf_override_return()).
 *
 *   kpe_getppid N [fork]
 *
 * Makes N calls and prints one line per call:
 *
 *   kpe-getppid pid=PID ret=RET errno=ERRNO
 *
 * RET is syscall()'s raw return value (-1 on an error) and ERRNO the errno
 * it left (0 when it succeeded).  With "fork", a child then makes N calls
 * of its own (its lines carry its pid; its parent is this process) and
 * the parent waits for it.  Exits 0, or 1 on a usage or fork error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void calls(long n)
{
	long i, ret;
	int err;

	for (i = 0; i < n; i++) {
		errno = 0;
		ret = syscall(SYS_getppid);
		err = ret == -1 ? errno : 0;
		printf("kpe-getppid pid=%d ret=%ld errno=%d\n", (int)getpid(),
		       ret, err);
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 0;
	pid_t child;
	int status;

	if (argc < 2 || argc > 3 || n < 1 ||
	    (argc == 3 && strcmp(argv[2], "fork"))) {
		fprintf(stderr, "usage: kpe_getppid N [fork]\n");
		return 1;
	}
	calls(n);
	if (argc < 3)
		return 0;
	child = fork();
	if (child < 0) {
		perror("kpe_getppid: fork");
		return 1;
	}
	if (child == 0) {
		calls(n);
		_exit(0);
	}
	if (waitpid(child, &status, 0) != child) {
		perror("kpe_getppid: waitpid");
		return 1;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
