// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_prof - a QEMU TCG plugin (QEMU 7.2 plugin API, version 1) that
 * counts the guest instructions executed at every guest address between
 * window marks, for scripts/profile.sh.
 *
 *   qemu-system-x86_64 -icount shift=0,sleep=off -smp 1 ... \
 *	-plugin kpe_prof.so,mark=0xADDR,out=FILE[,insn=1]
 *
 * mark=ADDR  guest virtual address whose execution marks a window edge
 *            (scripts/profile.sh: __x64_sys_getpgid, which kpe_bench calls
 *            right before and right after its timed loop when
 *            KPE_BENCH_MARK=1).  Odd marks open a window, even marks close
 *            it and write it out.
 * out=FILE   where the windows go (default: QEMU's log, qemu_plugin_outs).
 * insn=1     count every instruction with its own inline counter instead
 *            of one per block (slower; exact when a block stops early).
 *
 * By default every translated block gets an inline 64-bit counter
 * (incremented when the block starts, after icount's budget check, so a
 * block that icount exits before running is not counted); a block's count
 * is charged to each of its instructions.  A block cut short in its middle
 * is counted as if it had run to the end: a page fault, or icount's
 * restart of a block at an MMIO access that is not its last instruction
 * (APIC writes of the timer interrupt); int3, syscall and sysret end their
 * blocks.  With insn=1 each instruction has its own counter, incremented
 * just before it executes: exact in those cases too.  Blocks that are
 * retranslated (text patching, code buffer flush) keep their records; the
 * output sums them per address.  Single vCPU (-smp 1, icount): the
 * counters are not atomic.
 *
 * Output per closed window:
 *   window N insns TOTAL addrs M
 *   ADDR COUNT            (M lines, ADDR 16 hex digits, sorted)
 *   end N
 * and at exit "marks K windows W translations T".
 *
 * Build: gcc -shared -fPIC -O2 -o kpe_prof.so kpe_prof.c
 *
 * No qemu-plugin.h is installed: the few declarations used are below, as
 * in QEMU 7.2's include/qemu/qemu-plugin.h (API version 1).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the QEMU 7.2 plugin API, as much of it as used here ---- */
#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;	/* only passed by pointer */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op,
						void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
void qemu_plugin_outs(const char *string);

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv);
/* ---- end of the API ---- */

/*
 * One translation of a block (or, with insn=1, of one instruction): its
 * counter and its instructions.
 */
struct tbrec {
	uint64_t count;		/* executions (inline counter) */
	uint64_t base;		/* count when the window opened */
	uint32_t n;
	uint64_t insn[];	/* the instructions' vaddrs */
};

static struct tbrec **recs;
static size_t nrecs, caprecs;
static uint64_t mark_addr;
static bool have_mark;
static bool per_insn;
static FILE *out;
static unsigned long nmarks, nwindows;

struct addrcount {
	uint64_t addr, count;
};

static void die(const char *msg)
{
	fprintf(stderr, "kpe_prof: %s\n", msg);
	exit(1);
}

static void emit(const char *s)
{
	if (out)
		fputs(s, out);
	else
		qemu_plugin_outs(s);
}

static int cmp_addr(const void *a, const void *b)
{
	const struct addrcount *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Write the window that the current mark closes: count - base per address. */
static void write_window(void)
{
	struct addrcount *v;
	size_t nv = 0, cap = 0, i, m;
	uint64_t total = 0;
	char line[64];
	uint32_t j;

	for (i = 0; i < nrecs; i++) {
		struct tbrec *r = recs[i];
		uint64_t d = r->count - r->base;

		if (!d)
			continue;
		cap += r->n;
	}
	v = malloc((cap ? cap : 1) * sizeof(*v));
	if (!v)
		die("out of memory");
	for (i = 0; i < nrecs; i++) {
		struct tbrec *r = recs[i];
		uint64_t d = r->count - r->base;

		if (!d)
			continue;
		for (j = 0; j < r->n; j++) {
			v[nv].addr = r->insn[j];
			v[nv++].count = d;
		}
		total += d * r->n;
	}
	qsort(v, nv, sizeof(*v), cmp_addr);
	/* Merge the translations of one address. */
	for (i = 0, m = 0; i < nv; i++) {
		if (m && v[m - 1].addr == v[i].addr)
			v[m - 1].count += v[i].count;
		else
			v[m++] = v[i];
	}
	nwindows++;
	snprintf(line, sizeof(line), "window %lu insns %" PRIu64 " addrs %zu\n",
		 nwindows, total, m);
	emit(line);
	for (i = 0; i < m; i++) {
		snprintf(line, sizeof(line), "%016" PRIx64 " %" PRIu64 "\n",
			 v[i].addr, v[i].count);
		emit(line);
	}
	snprintf(line, sizeof(line), "end %lu\n", nwindows);
	emit(line);
	if (out)
		fflush(out);
	free(v);
}

static void mark_exec(unsigned int vcpu_index, void *udata)
{
	size_t i;

	(void)vcpu_index;
	(void)udata;
	nmarks++;
	if (nmarks & 1) {
		for (i = 0; i < nrecs; i++)
			recs[i]->base = recs[i]->count;
	} else {
		write_window();
	}
}

static struct tbrec *new_rec(size_t n)
{
	struct tbrec *r = calloc(1, sizeof(*r) + n * sizeof(r->insn[0]));

	if (!r)
		die("out of memory");
	r->n = n;
	if (nrecs == caprecs) {
		caprecs = caprecs ? 2 * caprecs : 65536;
		recs = realloc(recs, caprecs * sizeof(*recs));
		if (!recs)
			die("out of memory");
	}
	recs[nrecs++] = r;
	return r;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct tbrec *r = per_insn ? NULL : new_rec(n);

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);

		if (per_insn) {
			/* A record and a counter per instruction. */
			struct tbrec *ri = new_rec(1);

			ri->insn[0] = va;
			qemu_plugin_register_vcpu_insn_exec_inline(insn,
					QEMU_PLUGIN_INLINE_ADD_U64, &ri->count, 1);
		} else {
			r->insn[i] = va;
		}
		if (have_mark && va == mark_addr)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
	}
	/*
	 * QEMU 7.2 (x86) starts a new block at an instruction that crosses a
	 * page boundary unless it is the block's first, but the block it was
	 * dropped from still lists its first bytes as its last instruction
	 * (which so ends at the page's end) and counts it in its n_insns: a
	 * per-block count would charge that instruction twice.  Such a last
	 * instruction gets a counter of its own, which only counts if it
	 * really is in the block's code.
	 */
	if (!per_insn && n > 1 && !((r->insn[n - 1] +
	    qemu_plugin_insn_size(qemu_plugin_tb_get_insn(tb, n - 1))) & 0xfff)) {
		struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, n - 1);
		struct tbrec *rl = new_rec(1);

		rl->insn[0] = r->insn[n - 1];
		r->n = n - 1;
		qemu_plugin_register_vcpu_insn_exec_inline(last,
				QEMU_PLUGIN_INLINE_ADD_U64, &rl->count, 1);
	}
	if (!per_insn)
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 &r->count, 1);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	char line[96];

	(void)id;
	(void)udata;
	snprintf(line, sizeof(line), "marks %lu windows %lu translations %zu\n",
		 nmarks, nwindows, nrecs);
	emit(line);
	if (out)
		fclose(out);
	out = NULL;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		char *end;

		if (!strncmp(argv[i], "mark=", 5)) {
			mark_addr = strtoull(argv[i] + 5, &end, 0);
			if (*end || end == argv[i] + 5) {
				fprintf(stderr, "kpe_prof: bad %s\n", argv[i]);
				return -1;
			}
			have_mark = true;
		} else if (!strcmp(argv[i], "insn=1") || !strcmp(argv[i], "insn=on")) {
			per_insn = true;
		} else if (!strncmp(argv[i], "out=", 4)) {
			out = fopen(argv[i] + 4, "w");
			if (!out) {
				perror(argv[i] + 4);
				return -1;
			}
		} else {
			fprintf(stderr, "kpe_prof: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
