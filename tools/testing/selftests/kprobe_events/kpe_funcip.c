// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_funcip: what a BPF kprobe program sees of bpf_get_func_ip() and of
 * the instruction pointer in its pt_regs, for test_bpf_semantics.sh
 * (bpftrace 0.17's func builtin reads the ip register and never calls
 * the helper).  No libbpf: the program is a handful of raw instructions.
 *
 *   kpe_funcip SYMBOL [ret]
 *
 * Opens a probe on SYMBOL through perf's kprobe PMU (a return probe with
 * "ret"), attaches a BPF_PROG_TYPE_KPROBE program that, on each hit in
 * this process, ORs and ANDs bpf_get_func_ip(ctx) and regs->ip into an
 * array map and counts the hit, then calls read() on /proc/version and
 * write() on /dev/null READS times each and prints
 *
 *   hits=N func_ip=OR func_ip_and=AND ip=OR ip_and=AND
 *
 * (16 hex digits each; OR == AND when every hit saw the same value).
 * KPE_FUNCIP_SHOW=FILE[:FILE...] (environment): copy each FILE to stderr
 * while the probe is attached (tracefs enabled_functions, the kprobes
 * list: to see how it is hooked).
 * KPE_FUNCIP_REGS=1 (environment): print a second line,
 *
 *   regs arg1=OR arg1_and=AND zero=OR
 *
 * of the first argument's register in the program's pt_regs (x86-64 di,
 * arm64 x0) and, on arm64, of x9-x28 ORed together: what a probe served
 * with only the registers ftrace saves must show as zero (0 elsewhere).
 * KPE_FUNCIP_TRIGGER=FILE (environment): instead of the reads and writes,
 * write READS (as text) to FILE once: kpe_kmod's "mixed", which makes
 * that many calls that reach SYMBOL (test_bpf_func_ip_mixed.sh).
 * On an error prints the errno name to stdout (the verifier's log to
 * stderr) and exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kpe_bpf.h"
#include "kpe_sysfs.h"

#define READS 10
/*
 * offsetof(struct pt_regs, ip) on x86-64 (the kernel's layout); on arm64
 * that of pc, after regs[31] and sp
 */
#if defined(__aarch64__)
#define PT_REGS_IP_OFF 256
#define PT_REGS_ARG1_OFF 0
/* x9 to x28: regs[9] to regs[28] */
#define PT_REGS_ZERO_FIRST 72
#define PT_REGS_ZERO_LAST 224
#else
#define PT_REGS_IP_OFF 128
#define PT_REGS_ARG1_OFF 112
#define PT_REGS_ZERO_FIRST 0
#define PT_REGS_ZERO_LAST (-8)
#endif
/* jump target placeholder: the program's exit (fixed up in main) */
#define TO_EXIT (-32768)

#define MOV_REG(d, s)	INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV_IMM(d, i)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ALU_IMM(op, d, i) INSN(BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define ALU_REG(op, d, s) INSN(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define LDX_DW(d, s, o)	INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define STX_DW(d, s, o)	INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define ST_W(d, o, i)	INSN(BPF_ST | BPF_MEM | BPF_W, d, 0, o, i)
#define JMP_IMM(op, d, i, o) INSN(BPF_JMP | (op) | BPF_K, d, 0, o, i)
#define CALL(f)		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* A 64-bit load takes two slots: the map's fd, then the upper half (0). */
#define LD_MAP_FD(d, fd) INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd)
#define LD_IMM64_HI()	INSN(0, 0, 0, 0, 0)

/* The map's one value: what the hits saw, see above. */
struct seen {
	uint64_t fip_or, fip_and, ip_or, ip_and, hits;
	uint64_t arg1_or, arg1_and, zero_or;
};

static char vlog[65536];

/*
 * Append to @insns[@n] the instructions that OR register @reg into the
 * map value's field at @or_off and AND it into the one at @and_off (r0
 * points to the value; r1 is scratch).  Returns the new count.
 */
static int or_and(struct bpf_insn *insns, int n, int reg, int or_off,
		  int and_off)
{
	insns[n++] = LDX_DW(BPF_REG_1, BPF_REG_0, or_off);
	insns[n++] = ALU_REG(BPF_OR, BPF_REG_1, reg);
	insns[n++] = STX_DW(BPF_REG_0, BPF_REG_1, or_off);
	insns[n++] = LDX_DW(BPF_REG_1, BPF_REG_0, and_off);
	insns[n++] = ALU_REG(BPF_AND, BPF_REG_1, reg);
	insns[n++] = STX_DW(BPF_REG_0, BPF_REG_1, and_off);
	return n;
}

static int fail(const char *what)
{
	int err = errno;

	printf("%s\n", err == ENOENT ? "ENOENT" : err == EINVAL ? "EINVAL" :
	       err == EOPNOTSUPP ? "EOPNOTSUPP" : err == EBUSY ? "EBUSY" :
	       err == EACCES ? "EACCES" : err == EPERM ? "EPERM" :
	       err == E2BIG ? "E2BIG" : "ERROR");
	fprintf(stderr, "kpe_funcip: %s: %s\n", what, strerror(err));
	return 1;
}

static void show(const char *list)
{
	char path[512], *p, *next;
	FILE *f;

	if (!list)
		return;
	snprintf(path, sizeof(path), "%s", list);
	for (p = path; p && *p; p = next) {
		next = strchr(p, ':');
		if (next)
			*next++ = '\0';
		fprintf(stderr, "kpe_funcip: --- %s:\n", p);
		f = fopen(p, "r");
		if (!f)
			continue;
		while (fgets(vlog, sizeof(vlog), f))
			fputs(vlog, stderr);
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	struct seen init = { 0, ~0ULL, 0, ~0ULL, 0, 0, ~0ULL, 0 }, seen;
	struct perf_event_attr pattr;
	union bpf_attr attr;
	uint32_t key = 0;
	const char *trigger = getenv("KPE_FUNCIP_TRIGGER");
	char buf[256];
	int map, prog, ev, fd, i, n;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "ret"))) {
		fprintf(stderr, "usage: kpe_funcip SYMBOL [ret]\n");
		return 2;
	}

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(key);
	attr.value_size = sizeof(struct seen);
	attr.max_entries = 1;
	map = sys_bpf(BPF_MAP_CREATE, &attr);
	if (map < 0)
		return fail("BPF_MAP_CREATE");
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map;
	attr.key = (uint64_t)(uintptr_t)&key;
	attr.value = (uint64_t)(uintptr_t)&init;
	if (sys_bpf(BPF_MAP_UPDATE_ELEM, &attr))
		return fail("BPF_MAP_UPDATE_ELEM");

	struct bpf_insn insns[128], head[] = {
		MOV_REG(BPF_REG_6, BPF_REG_1),
		/* only this process's hits */
		CALL(BPF_FUNC_get_current_pid_tgid),
		ALU_IMM(BPF_RSH, BPF_REG_0, 32),
		JMP_IMM(BPF_JNE, BPF_REG_0, getpid(), TO_EXIT),
		MOV_REG(BPF_REG_1, BPF_REG_6),
		CALL(BPF_FUNC_get_func_ip),
		MOV_REG(BPF_REG_7, BPF_REG_0),
		LDX_DW(BPF_REG_8, BPF_REG_6, PT_REGS_IP_OFF),
		ST_W(BPF_REG_10, -4, 0),
		LD_MAP_FD(BPF_REG_1, map),
		LD_IMM64_HI(),
		MOV_REG(BPF_REG_2, BPF_REG_10),
		ALU_IMM(BPF_ADD, BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JMP_IMM(BPF_JEQ, BPF_REG_0, 0, TO_EXIT),
		/* the hit counted */
		LDX_DW(BPF_REG_1, BPF_REG_0, offsetof(struct seen, hits)),
		ALU_IMM(BPF_ADD, BPF_REG_1, 1),
		STX_DW(BPF_REG_0, BPF_REG_1, offsetof(struct seen, hits)),
		/* the first argument's register */
		LDX_DW(BPF_REG_9, BPF_REG_6, PT_REGS_ARG1_OFF),
	};
	int off;

	n = sizeof(head) / sizeof(head[0]);
	memcpy(insns, head, sizeof(head));
	n = or_and(insns, n, BPF_REG_7, offsetof(struct seen, fip_or),
		   offsetof(struct seen, fip_and));
	n = or_and(insns, n, BPF_REG_8, offsetof(struct seen, ip_or),
		   offsetof(struct seen, ip_and));
	n = or_and(insns, n, BPF_REG_9, offsetof(struct seen, arg1_or),
		   offsetof(struct seen, arg1_and));
	/* x9-x28 ORed into r3 */
	insns[n++] = MOV_IMM(BPF_REG_3, 0);
	for (off = PT_REGS_ZERO_FIRST; off <= PT_REGS_ZERO_LAST; off += 8) {
		insns[n++] = LDX_DW(BPF_REG_2, BPF_REG_6, off);
		insns[n++] = ALU_REG(BPF_OR, BPF_REG_3, BPF_REG_2);
	}
	insns[n++] = LDX_DW(BPF_REG_1, BPF_REG_0, offsetof(struct seen, zero_or));
	insns[n++] = ALU_REG(BPF_OR, BPF_REG_1, BPF_REG_3);
	insns[n++] = STX_DW(BPF_REG_0, BPF_REG_1, offsetof(struct seen, zero_or));
	/* the exit */
	insns[n++] = MOV_IMM(BPF_REG_0, 0);
	insns[n++] = EXIT();
	for (i = 0; i < n; i++)
		if (insns[i].off == TO_EXIT)
			insns[i].off = n - 2 - (i + 1);

	prog = kpe_prog_load(insns, n);
	if (prog < 0)
		return fail("BPF_PROG_LOAD");

	/* The probe, as bpftrace opens it: kprobe PMU, all tasks, CPU 0. */
	memset(&pattr, 0, sizeof(pattr));
	pattr.size = sizeof(pattr);
	pattr.sample_period = 1;
	pattr.wakeup_events = 1;
	pattr.type = read_number("/sys/bus/event_source/devices/kprobe/type",
				 NULL);
	if ((int)pattr.type < 0)
		return fail("kprobe PMU type");
	if (argc > 2) {
		long bit = read_number("/sys/bus/event_source/devices/kprobe/format/retprobe",
				       "config:");

		if (bit < 0)
			return fail("retprobe format");
		pattr.config |= 1ULL << bit;
	}
	pattr.kprobe_func = (uint64_t)(uintptr_t)argv[1];
	pattr.probe_offset = 0;
	ev = syscall(__NR_perf_event_open, &pattr, -1, 0, -1,
		     PERF_FLAG_FD_CLOEXEC);
	if (ev < 0)
		return fail("perf_event_open");
	if (ioctl(ev, PERF_EVENT_IOC_SET_BPF, prog))
		return fail("PERF_EVENT_IOC_SET_BPF");
	if (ioctl(ev, PERF_EVENT_IOC_ENABLE, 0))
		return fail("PERF_EVENT_IOC_ENABLE");
	show(getenv("KPE_FUNCIP_SHOW"));

	if (trigger) {
		n = snprintf(buf, sizeof(buf), "%d\n", READS);
		fd = open(trigger, O_WRONLY);
		if (fd < 0 || write(fd, buf, n) != n)
			return fail(trigger);
		close(fd);
	}
	for (i = 0; !trigger && i < READS; i++) {
		fd = open("/proc/version", O_RDONLY);
		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
			return fail("/proc/version");
		close(fd);
		fd = open("/dev/null", O_WRONLY);
		if (fd < 0 || write(fd, buf, 1) != 1)
			return fail("/dev/null");
		close(fd);
	}
	close(ev);

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map;
	attr.key = (uint64_t)(uintptr_t)&key;
	attr.value = (uint64_t)(uintptr_t)&seen;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
		return fail("BPF_MAP_LOOKUP_ELEM");
	printf("hits=%llu func_ip=%016llx func_ip_and=%016llx ip=%016llx ip_and=%016llx\n",
	       (unsigned long long)seen.hits,
	       (unsigned long long)seen.fip_or,
	       (unsigned long long)seen.fip_and,
	       (unsigned long long)seen.ip_or,
	       (unsigned long long)seen.ip_and);
	if (getenv("KPE_FUNCIP_REGS"))
		printf("regs arg1=%016llx arg1_and=%016llx zero=%016llx\n",
		       (unsigned long long)seen.arg1_or,
		       (unsigned long long)seen.arg1_and,
		       (unsigned long long)seen.zero_or);
	close(prog);
	close(map);
	return 0;
}
