/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kpe_bpf.h - shared by the static helpers that load raw BPF programs
 * without libbpf (kpe_funcip, kpe_override): the bpf() call, an
 * instruction, and loading a kprobe program with its verifier log.
 */
#ifndef KPE_BPF_H
#define KPE_BPF_H

#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })

static inline long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/*
 * Load @n instructions as a GPL program of @type (@attach_type and
 * @btf_id: what a BPF_PROG_TYPE_TRACING program attaches to, else 0).
 * Returns its fd, or -1 with errno set and the verifier's log on stderr.
 */
static inline int kpe_prog_load_as(uint32_t type, uint32_t attach_type,
				   uint32_t btf_id,
				   const struct bpf_insn *insns, int n)
{
	static char log[65536];
	union bpf_attr attr;
	int prog, err;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.expected_attach_type = attach_type;
	attr.attach_btf_id = btf_id;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = n;
	attr.license = (uint64_t)(uintptr_t)"GPL";
	attr.log_buf = (uint64_t)(uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	prog = sys_bpf(BPF_PROG_LOAD, &attr);
	if (prog < 0) {
		err = errno;
		fprintf(stderr, "%s", log);
		errno = err;
	}
	return prog;
}

/* The same for a BPF_PROG_TYPE_KPROBE program. */
static inline int kpe_prog_load(const struct bpf_insn *insns, int n)
{
	return kpe_prog_load_as(BPF_PROG_TYPE_KPROBE, 0, 0, insns, n);
}

#endif /* KPE_BPF_H */
