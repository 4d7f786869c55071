// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_override: may a BPF program that calls bpf_override_return() attach
 * to a kprobe event defined in tracefs?  For test_bpf_override_places.sh.
 * No libbpf: the program is four raw instructions.
 *
 *   kpe_override EVENT_ID [COMMAND | --fire | --query]
 *
 * Opens the event (tracefs events/GRP/EVENT/id) as a tracepoint perf
 * event on CPU 0, loads a BPF_PROG_TYPE_KPROBE program that overrides the
 * return with -EPERM (never called: the event stays disabled), attaches
 * it with PERF_EVENT_IOC_SET_BPF and prints "attached", or the errno name
 * of the step that failed (the verifier's log to stderr).  While attached
 * it runs COMMAND (with sh -c), if given, and prints "command: STATUS".
 * With --fire instead, the event being getppid's, it calls getppid() on
 * CPU 0 and prints "getppid: -EPERM" when the program overrode the call,
 * else "getppid: RESULT": the override takes effect on the probe's path.
 * With --query, it prints what BPF_TASK_FD_QUERY tells of the attached
 * event: "query: TYPE OFFSET ADDR NAME" (bpf_get_kprobe_info()).
 * Then detaches and exits: 0 when it printed "attached", else 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kpe_bpf.h"


static int fail(const char *what)
{
	int err = errno;

	printf("%s\n", err == ENOENT ? "ENOENT" : err == EINVAL ? "EINVAL" :
	       err == EBUSY ? "EBUSY" : err == EPERM ? "EPERM" :
	       err == EACCES ? "EACCES" : "ERROR");
	fprintf(stderr, "kpe_override: %s: %s\n", what, strerror(err));
	return 1;
}

int main(int argc, char **argv)
{
	struct perf_event_attr pattr;
	int prog, ev;
	char *end;
	long id;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: kpe_override EVENT_ID [COMMAND | --fire | --query]\n");
		return 2;
	}
	id = strtol(argv[1], &end, 10);
	if (*argv[1] == '\0' || *end != '\0' || id < 0) {
		fprintf(stderr, "kpe_override: bad EVENT_ID '%s'\n", argv[1]);
		return 2;
	}

	struct bpf_insn insns[] = {
		/* bpf_override_return(ctx, -EPERM); return 0; */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, -EPERM),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_override_return),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	prog = kpe_prog_load(insns, sizeof(insns) / sizeof(insns[0]));
	if (prog < 0)
		return fail("BPF_PROG_LOAD");

	memset(&pattr, 0, sizeof(pattr));
	pattr.size = sizeof(pattr);
	pattr.type = PERF_TYPE_TRACEPOINT;
	pattr.config = id;
	pattr.sample_period = 1;
	pattr.wakeup_events = 1;
	ev = syscall(__NR_perf_event_open, &pattr, -1, 0, -1, 0);
	if (ev < 0)
		return fail("perf_event_open");
	if (ioctl(ev, PERF_EVENT_IOC_SET_BPF, prog))
		return fail("PERF_EVENT_IOC_SET_BPF");
	printf("attached\n");
	if (argc == 3 && !strcmp(argv[2], "--fire")) {
		cpu_set_t cpus;
		long r;

		CPU_ZERO(&cpus);
		CPU_SET(0, &cpus);
		if (sched_setaffinity(0, sizeof(cpus), &cpus))
			return fail("sched_setaffinity");
		r = syscall(__NR_getppid);
		if (r == -1 && errno == EPERM)
			printf("getppid: -EPERM\n");
		else
			printf("getppid: %ld\n", r);
	} else if (argc == 3 && !strcmp(argv[2], "--query")) {
		union bpf_attr q;
		char name[256] = "";

		memset(&q, 0, sizeof(q));
		q.task_fd_query.pid = getpid();
		q.task_fd_query.fd = ev;
		q.task_fd_query.buf = (uint64_t)(unsigned long)name;
		q.task_fd_query.buf_len = sizeof(name);
		if (sys_bpf(BPF_TASK_FD_QUERY, &q))
			return fail("BPF_TASK_FD_QUERY");
		printf("query: %u %llu 0x%llx %s\n", q.task_fd_query.fd_type,
		       (unsigned long long)q.task_fd_query.probe_offset,
		       (unsigned long long)q.task_fd_query.probe_addr, name);
	} else if (argc == 3) {
		fflush(stdout);
		printf("command: %d\n", WEXITSTATUS(system(argv[2])));
	}
	close(ev);
	close(prog);
	return 0;
}
