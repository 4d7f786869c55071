// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_fuzz - write generated and mutated probe definitions to
 * kprobe_events and dynamic_events, one line per write(), and check after
 * every write that
 *   - write() either wrote the whole line or failed with an errno from
 *     the set a definition may fail with (EINVAL, ENOENT, ...);
 *   - after a failure, kprobe_events (and dynamic_events, for a write to
 *     it) reads back exactly as before the write.
 * Events of probes on a few known functions are enabled for a while now
 * and then (and those functions called), so that refused removals and
 * definitions also meet enabled events.  The kernel console is checked
 * for splats by the host.
 *
 * usage: kpe_fuzz [-n LINES] [-s SEED] [-t TRACEFS] [-e PERMILLE] [-v]
 *   -n  number of lines to write (default 100000)
 *   -s  seed (default: from the clock); printed first, so a run can be
 *       repeated exactly on the same kernel
 *   -e  chance per line, in thousandths, that an enable phase starts
 *       (default 10): the hot events are enabled for 5 to 45 lines
 *   -v  print every line written, with its result
 *
 * Prints "seed=N" first and a summary line at the end:
 *   kpe_fuzz: lines=N accepted=N refused=N clears=N enables=N
 * then the refusals by errno.  A broken invariant prints "FAIL:", the
 * offending line (C-escaped) and the listing lines it lost or gained; the
 * run goes on (up to 10 of them) and exits 1.  Exit 2 is a usage or
 * set-up error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_LINE	12000	/* longer than a tracefs write buffer (4 KiB) */
#define MAX_WORDS	400
#define MAX_WORD	5000
#define MAX_LISTED	24	/* clear everything beyond this many probes */
#define MAX_FAILURES	10	/* stop after reporting this many */

static const char *tracefs = "/sys/kernel/tracing";
static int verbose;
static unsigned int enable_permille = 10;

/* ------------------------------------------------------------------ */
/* Random numbers: xorshift64*, so a seed gives the same lines anywhere. */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

/* 0 .. n-1 */
static unsigned int rn(unsigned int n)
{
	return n ? (unsigned int)(rnd() >> 11) % n : 0;
}

/* true with a probability of pct percent */
static int chance(unsigned int pct)
{
	return rn(100) < pct;
}

#define PICK(arr) ((arr)[rn(ARRAY_SIZE(arr))])

/* ------------------------------------------------------------------ */
/* Small string builder. */

struct sb {
	char *buf;
	size_t len, cap;
};

static void sb_addn(struct sb *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->buf = realloc(b->buf, b->cap);
		if (!b->buf) {
			perror("kpe_fuzz: realloc");
			exit(2);
		}
	}
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

static void sb_add(struct sb *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

static void sb_printf(struct sb *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(tmp))
		n = sizeof(tmp) - 1;
	sb_addn(b, tmp, n);
}

/* ------------------------------------------------------------------ */
/* Files. */

static char *path(const char *rel)
{
	static char bufs[4][1024];
	static int i;

	i = (i + 1) % 4;
	snprintf(bufs[i], sizeof(bufs[i]), "%s/%s", tracefs, rel);
	return bufs[i];
}

/* Read a whole file into @b (emptied first); -errno on failure. */
static int read_file(const char *file, struct sb *b)
{
	char tmp[4096];
	ssize_t n;
	int fd;

	b->len = 0;
	sb_add(b, "");
	fd = open(file, O_RDONLY);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, tmp, sizeof(tmp))) > 0)
		sb_addn(b, tmp, n);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	return 0;
}

/*
 * One write() of @len bytes of @s to @file.  Returns 0 when all was
 * written, the errno on failure, -1 on a short or empty write.
 */
static int write_file(const char *file, const char *s, size_t len, int flags)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(file, O_WRONLY | flags);
	if (fd < 0)
		return errno;
	n = write(fd, s, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = -1;
	if (close(fd) < 0 && !err)
		err = errno;
	return err;
}

/* ------------------------------------------------------------------ */
/* What the generator draws from. */

/* Functions the enable phases may fire (called by trigger() below). */
static const char *const hot_syms[] = {
	"vfs_read", "vfs_write", "do_sys_openat2", "ksys_read",
	"__x64_sys_getppid", "do_sys_poll", "kernel_clone",
};

/* Any kernel text symbol, only ever registered (never enabled). */
static char **ksyms;
static unsigned long *kaddrs;
static size_t nksyms;
static unsigned long vfs_read_addr;

static void load_kallsyms(void)
{
	char line[512], name[256], type;
	unsigned long addr;
	size_t cap = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T')
			continue;
		if (strchr(line, '['))	/* module symbols come and go */
			continue;
		if (!strcmp(name, "vfs_read"))
			vfs_read_addr = addr;
		if (nksyms == cap) {
			cap = cap ? cap * 2 : 4096;
			ksyms = realloc(ksyms, cap * sizeof(*ksyms));
			kaddrs = realloc(kaddrs, cap * sizeof(*kaddrs));
			if (!ksyms || !kaddrs) {
				perror("kpe_fuzz: realloc");
				exit(2);
			}
		}
		ksyms[nksyms] = strdup(name);
		kaddrs[nksyms++] = addr;
	}
	fclose(f);
}

static const char *const regs[] = {
	"%ax", "%bx", "%cx", "%dx", "%si", "%di", "%bp", "%sp", "%r8", "%r9",
	"%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%ip", "%flags",
	"%cs", "%ss", "%orig_ax",
	/* not registers */
	"%", "%rax", "%xyz", "%di%si",
};

static const char *const base_types[] = {
	"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
	"x8", "x16", "x32", "x64", "string", "ustring", "symbol",
	/* not types */
	"u128", "x7", "s", "char", "symstr", "",
};

static const char *const huge_numbers[] = {
	"18446744073709551615", "18446744073709551616", "-1", "-0",
	"9223372036854775807", "-9223372036854775808", "0x7fffffffffffffff",
	"0xffffffffffffffff", "0x10000000000000000", "4294967296",
	"2147483648", "-2147483649", "99999999999999999999999999",
	"0x", "0b101", "1e9", "077777777777777777777777",
};

static const char *const names[] = {
	"fz0", "fz1", "fz2", "fz3", "fz4", "fz5", "fz6", "fz7",
};

static const char *const groups[] = {
	"kprobes", "fzg", "fzgrp2",
};

/* A decimal number: usually small, sometimes huge or negative. */
static void gen_number(struct sb *b, unsigned int small)
{
	if (chance(8))
		sb_add(b, PICK(huge_numbers));
	else if (chance(30))
		sb_printf(b, "0x%x", rn(small));
	else
		sb_printf(b, "%u", rn(small));
}

/* Some kernel text symbol (hot or any) or an unknown name. */
static const char *gen_symbol(int *hot)
{
	static char unknown[64];

	*hot = 0;
	if (chance(70) || !nksyms) {
		*hot = 1;
		return PICK(hot_syms);
	}
	if (chance(85))
		return ksyms[rn(nksyms)];
	snprintf(unknown, sizeof(unknown), "no_such_sym_%u", rn(1000));
	return unknown;
}

static void gen_fetch(struct sb *b, int depth);

/* +OFFS(FETCHARG), -OFFS(...), +uOFFS(...) */
static void gen_deref(struct sb *b, int depth)
{
	sb_add(b, chance(80) ? "+" : "-");
	if (chance(20))
		sb_add(b, "u");
	gen_number(b, 256);
	sb_add(b, "(");
	gen_fetch(b, depth + 1);
	if (!chance(3))
		sb_add(b, ")");
}

static void gen_fetch(struct sb *b, int depth)
{
	int hot;

	switch (depth > 3 ? rn(9) : rn(11)) {
	case 0:
	case 1:
		sb_add(b, PICK(regs));
		break;
	case 2:
		sb_add(b, "$stack");
		if (chance(80))
			gen_number(b, 40);
		break;
	case 3:
		sb_add(b, "$arg");
		gen_number(b, 12);
		break;
	case 4:
		sb_add(b, chance(90) ? "$retval" : "$retva");
		break;
	case 5:
		sb_add(b, chance(90) ? "$comm" : "$COMM");
		break;
	case 6:
		sb_add(b, "@");
		if (chance(30) && vfs_read_addr) {
			sb_printf(b, "0x%lx", vfs_read_addr + rn(64));
		} else {
			sb_add(b, chance(50) ? "jiffies" : gen_symbol(&hot));
			if (chance(40)) {
				sb_add(b, chance(80) ? "+" : "-");
				gen_number(b, 4096);
			}
		}
		break;
	case 7:
		sb_add(b, "\\");
		if (chance(30))
			sb_add(b, "-");
		gen_number(b, 100000);
		break;
	case 8:
		sb_add(b, "\\\"");
		sb_add(b, chance(50) ? "text" : "a_b-c.d");
		if (!chance(10))
			sb_add(b, "\"");
		break;
	default:
		gen_deref(b, depth);
		break;
	}
}

static void gen_type(struct sb *b)
{
	if (chance(8)) {
		/* bW@O/S */
		sb_add(b, "b");
		gen_number(b, 70);
		sb_add(b, "@");
		gen_number(b, 70);
		sb_add(b, "/");
		sb_add(b, PICK(((const char *const[]){ "8", "16", "32", "64", "7", "" })));
		return;
	}
	sb_add(b, PICK(base_types));
	if (chance(10)) {
		sb_add(b, "[");
		gen_number(b, 80);
		if (!chance(10))
			sb_add(b, "]");
	}
}

/* One argument: [NAME=]FETCHARG[:TYPE] */
static void gen_arg(struct sb *b, unsigned int i)
{
	if (chance(70)) {
		if (chance(90))
			sb_printf(b, "a%u=", chance(90) ? i : rn(4));
		else
			sb_add(b, PICK(((const char *const[]){ "=", "9x=", "a-b=", "common_pid=", "a.b=" })));
	}
	gen_fetch(b, 0);
	if (chance(60)) {
		sb_add(b, ":");
		gen_type(b);
	}
}

/* A name of @n characters, mostly identifier characters. */
static void gen_long_name(struct sb *b, unsigned int n)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyz_0123456789";

	while (n--)
		sb_addn(b, &ok[rn(sizeof(ok) - 1)], 1);
}

/*
 * The words of one definition, from the grammar:
 *   p[:[GRP/][EVENT]] [MOD:]SYM[+offs]|MEMADDR [FETCHARGS]
 *   r[MAXACTIVE][:[GRP/][EVENT]] [MOD:]SYM[+0] [FETCHARGS]
 *   p[:[GRP/][EVENT]] SYM%return [FETCHARGS]
 *   -:[GRP/]EVENT [PLACE [FETCHARGS]], -:GRP/
 */
static int gen_words(char words[][MAX_WORD], int max)
{
	struct sb b = { 0 };
	int n = 0, nargs, i, hot;
	int is_ret = chance(35), is_del = chance(8);

	/* head */
	if (is_del) {
		sb_add(&b, "-:");
	} else {
		sb_add(&b, is_ret ? "r" : "p");
		if (is_ret && chance(15))
			gen_number(&b, 5000);
		if (chance(80))
			sb_add(&b, ":");
	}
	if (b.buf[b.len - 1] == ':') {
		if (chance(40) || (is_del && chance(50)))
			sb_printf(&b, "%s/", PICK(groups));
		if (chance(3))
			gen_long_name(&b, 40 + rn(300));
		else if (!is_del || chance(85))
			sb_add(&b, PICK(names));
	}
	snprintf(words[n++], MAX_WORD, "%s", b.buf);
	if (is_del && chance(60))
		goto out;

	/* place */
	b.len = 0;
	sb_add(&b, "");
	if (chance(10) && vfs_read_addr) {
		sb_printf(&b, "0x%lx", vfs_read_addr + (chance(50) ? 0 : rn(40)));
	} else {
		if (chance(5))
			sb_add(&b, chance(50) ? "trace_printk:" : "no_mod:");
		if (b.len && chance(70))
			sb_add(&b, "trace_printk_irq_work");
		else
			sb_add(&b, gen_symbol(&hot));
		if (chance(25)) {
			sb_add(&b, chance(85) ? "+" : "-");
			gen_number(&b, 48);
		} else if (!is_ret && chance(8)) {
			sb_add(&b, "%return");
		}
	}
	snprintf(words[n++], MAX_WORD, "%s", b.buf);

	/* arguments: usually a few, sometimes very many */
	nargs = chance(3) ? 100 + rn(40) : rn(6);
	for (i = 1; i <= nargs && n < max; i++) {
		b.len = 0;
		sb_add(&b, "");
		gen_arg(&b, i);
		snprintf(words[n++], MAX_WORD, "%s", b.buf);
	}
out:
	free(b.buf);
	return n;
}

/* Deep nesting: +0(+0(...(%di)...)) of 1..40 levels. */
static void gen_deep(char *w)
{
	unsigned int depth = 1 + rn(40), i;
	struct sb b = { 0 };

	sb_add(&b, "d=");
	for (i = 0; i < depth; i++)
		sb_add(&b, chance(90) ? "+0(" : "+8(");
	sb_add(&b, "%di");
	for (i = 0; i < depth - (chance(10) ? 1 : 0); i++)
		sb_add(&b, ")");
	if (chance(50))
		sb_add(&b, ":string");
	snprintf(w, MAX_WORD, "%s", b.buf);
	free(b.buf);
}

/* Token-level mutations: swap, repeat, drop, replace numbers, nest. */
static int mutate_words(char words[][MAX_WORD], int n, int max)
{
	static char tmp[MAX_WORD];
	int i, j, k, times = 1 + rn(3);

	while (times--) {
		switch (rn(7)) {
		case 0:	/* swap two words */
			i = rn(n);
			j = rn(n);
			memcpy(tmp, words[i], MAX_WORD);
			memcpy(words[i], words[j], MAX_WORD);
			memcpy(words[j], tmp, MAX_WORD);
			break;
		case 1:	/* repeat a word */
			if (n < max) {
				i = rn(n);
				memcpy(words[n++], words[i], MAX_WORD);
			}
			break;
		case 2:	/* drop a word */
			if (n > 1) {
				i = rn(n);
				for (k = i; k < n - 1; k++)
					memcpy(words[k], words[k + 1], MAX_WORD);
				n--;
			}
			break;
		case 3:	/* a digit run becomes a huge or negative number */
			i = rn(n);
			for (k = 0; words[i][k]; k++)
				if (words[i][k] >= '0' && words[i][k] <= '9')
					break;
			if (words[i][k]) {
				j = k;
				while (words[i][j] >= '0' && words[i][j] <= '9')
					j++;
				snprintf(tmp, MAX_WORD, "%.*s%s%s", k, words[i],
					 PICK(huge_numbers), words[i] + j);
				memcpy(words[i], tmp, MAX_WORD);
			}
			break;
		case 4:	/* a deeply nested argument */
			if (n < max)
				gen_deep(words[n++]);
			break;
		case 5:	/* a word of one part moved into another */
			i = rn(n);
			j = rn(n);
			snprintf(tmp, MAX_WORD, "%s%s%s", words[i],
				 PICK(((const char *const[]){ ":", "=", "+", "(", "" })),
				 words[j]);
			memcpy(words[i], tmp, MAX_WORD);
			break;
		default:	/* a long name in place of a word */
			i = rn(n);
			k = snprintf(tmp, MAX_WORD, "%s", chance(50) ? "x=" : "");
			while (k < 60 + (int)rn(600) && k < MAX_WORD - 1)
				tmp[k++] = 'a' + rn(26);
			tmp[k] = '\0';
			memcpy(words[i], tmp, MAX_WORD);
			break;
		}
	}
	return n;
}

/* Byte-level mutations of the joined line: cut short, random bytes. */
static size_t mutate_bytes(char *line, size_t len)
{
	size_t pos, i, n;

	switch (rn(4)) {
	case 0:	/* cut short */
		return len ? rn(len) : 0;
	case 1:	/* overwrite a few bytes with random ones (never '\n') */
		n = 1 + rn(8);
		for (i = 0; i < n && len; i++) {
			pos = rn(len);
			do {
				line[pos] = (char)rn(256);
			} while (line[pos] == '\n' ||
				 (line[pos] == '\0' && !chance(5)));
		}
		return len;
	case 2:	/* insert random printable junk */
		n = 1 + rn(16);
		if (len + n >= MAX_LINE)
			return len;
		pos = rn(len + 1);
		memmove(line + pos + n, line + pos, len - pos);
		for (i = 0; i < n; i++)
			line[pos + i] = (char)(33 + rn(94));
		return len + n;
	default:	/* odd separators */
		for (i = 0; i < len; i++)
			if (line[i] == ' ' && chance(30))
				line[i] = chance(50) ? '\t' : ',';
		return len;
	}
}

/* ------------------------------------------------------------------ */
/* The probe list and the events. */

static struct sb listing, dlisting;

static void refresh(void)
{
	int err = read_file(path("kprobe_events"), &listing);

	if (!err)
		err = read_file(path("dynamic_events"), &dlisting);
	if (err) {
		fprintf(stderr, "kpe_fuzz: cannot read the listings: %s\n",
			strerror(-err));
		exit(2);
	}
}

static unsigned long nr_lines(const char *s)
{
	unsigned long n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/*
 * Write @val to the enable file of every listed event; with @only_hot,
 * only to those probing one of hot_syms.  Returns how many writes worked.
 */
static int set_enable(const char *val, int only_hot)
{
	char *copy = strdup(listing.buf ? listing.buf : ""), *line, *save = NULL;
	char ev[600], place[700];
	unsigned int i;
	int n = 0;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		int hot = 0;

		if (!colon || sscanf(colon + 1, "%599s %599s", ev, place) != 2)
			continue;
		for (i = 0; i < ARRAY_SIZE(hot_syms); i++) {
			size_t l = strlen(hot_syms[i]);

			if (!strncmp(place, hot_syms[i], l) &&
			    (place[l] == '\0' || place[l] == '+'))
				hot = 1;
		}
		if (only_hot && !hot)
			continue;
		if (strlen(ev) > 400)
			continue;
		snprintf(place, sizeof(place), "events/%s/enable", ev);
		if (!write_file(path(place), val, strlen(val), 0))
			n++;
	}
	free(copy);
	return n;
}

/* Call the hot functions. */
static void trigger(void)
{
	char buf[64];
	int fd, i;

	for (i = 0; i < 3; i++) {
		fd = open("/proc/version", O_RDONLY);
		if (fd >= 0) {
			if (read(fd, buf, sizeof(buf)) < 0)
				buf[0] = 0;
			close(fd);
		}
		syscall(SYS_getppid);
	}
}

static unsigned long n_clears;

/* Where the time goes, for tuning the line count to a time budget. */
enum { T_OK, T_REFUSED, T_CHECK, T_ENABLE, T_CLEAR, NR_T };
static double spent[NR_T];
static double errno_secs[4096];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Disable everything and remove every dynamic event. */
static void clear_all(void)
{
	int err;

	set_enable("0", 0);
	err = write_file(path("dynamic_events"), "", 0, O_TRUNC);
	if (!err)
		err = write_file(path("kprobe_events"), "", 0, O_TRUNC);
	write_file(path("trace"), "", 0, O_TRUNC);
	refresh();
	if (err || listing.len || dlisting.len) {
		fprintf(stderr, "kpe_fuzz: clearing every probe failed (%s); left:\n%s%s",
			err > 0 ? strerror(err) : "-", listing.buf, dlisting.buf);
		exit(1);
	}
	n_clears++;
}

/* ------------------------------------------------------------------ */

static void print_escaped(FILE *f, const char *s, size_t len)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c >= 32 && c < 127)
			fputc(c, f);
		else
			fprintf(f, "\\x%02x", c);
	}
	fputc('"', f);
}

/* The errnos a refused definition or removal may come back with. */
static int expected_errno(int err)
{
	switch (err) {
	case EINVAL: case ENOENT: case EEXIST: case EBUSY: case EILSEQ:
	case EADDRNOTAVAIL: case E2BIG: case ENOSPC: case ENAMETOOLONG:
	case EOPNOTSUPP: case ENODEV:
		return 1;
	}
	return 0;
}

/*
 * dynamic_events hands a line to every dynamic event type; a line that
 * starts with 'e', 'f', 's', 't' or 'u' is claimed by eprobes, fprobes,
 * synthetic or user events, whose errnos are not ours to check (6.12's
 * fprobe parser answers ERANGE for an offset out of range, for one).
 * That such a line leaves kprobe_events alone is still checked.
 */
static int other_tracers_line(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return *line && strchr("efstu", *line);
}

static const char *errname(int err)
{
	static char buf[32];

	switch (err) {
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EBUSY: return "EBUSY";
	case EILSEQ: return "EILSEQ";
	case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
	case E2BIG: return "E2BIG";
	case ENOSPC: return "ENOSPC";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENODEV: return "ENODEV";
	case ENOMEM: return "ENOMEM";
	case EFAULT: return "EFAULT";
	case -1: return "short write";
	}
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

/* Print the lines of @a that are not in @b, prefixed with @tag. */
static void print_missing(const char *tag, const struct sb *a,
			  const struct sb *b)
{
	char *copy = strdup(a->buf ? a->buf : ""), *l, *save = NULL;
	const char *hay = b->buf ? b->buf : "";

	for (l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *p = hay;
		size_t n = strlen(l);
		int found = 0;

		while ((p = strstr(p, l))) {
			if ((p == hay || p[-1] == '\n') &&
			    (p[n] == '\n' || p[n] == '\0')) {
				found = 1;
				break;
			}
			p += n;
		}
		if (!found)
			printf("  %s %s\n", tag, l);
	}
	free(copy);
}

/* A broken invariant: the line, the seed, what changed. */
static void report(uint64_t seed, unsigned long i, const char *what, int err,
		   int to_dyn, const char *line, size_t len,
		   const struct sb *before, struct sb *after)
{
	printf("FAIL: seed=%llu line %lu: write to %s %s (%s):\n  ",
	       (unsigned long long)seed, i,
	       to_dyn ? "dynamic_events" : "kprobe_events", what,
	       errname(err));
	print_escaped(stdout, line, len);
	printf("\n");
	if (read_file(path(to_dyn && strstr(what, "dynamic") ?
			   "dynamic_events" : "kprobe_events"), after))
		return;
	print_missing("lost:", before, after);
	print_missing("new: ", after, before);
	fflush(stdout);
}

static void usage(void)
{
	fprintf(stderr, "usage: kpe_fuzz [-n LINES] [-s SEED] [-t TRACEFS] [-e PERMILLE] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static char words[MAX_WORDS][MAX_WORD];
	static char line[MAX_LINE];
	static unsigned long by_errno[4096];
	unsigned long lines = 100000, i, accepted = 0, refused = 0;
	unsigned long enables = 0, enabled_until = 0, failures = 0;
	uint64_t seed = 0;
	int opt, n, k, err, to_dyn, mut, have_seed = 0;
	double t;
	struct sb before = { 0 }, dbefore = { 0 }, after = { 0 };
	size_t len;
	char *end;

	while ((opt = getopt(argc, argv, "n:s:t:ve:")) != -1) {
		switch (opt) {
		case 'n':
			lines = strtoul(optarg, &end, 0);
			if (*end)
				usage();
			break;
		case 's':
			seed = strtoull(optarg, &end, 0);
			if (*end)
				usage();
			have_seed = 1;
			break;
		case 't':
			tracefs = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'e':
			enable_permille = strtoul(optarg, &end, 0);
			if (*end)
				usage();
			break;
		default:
			usage();
		}
	}
	if (!have_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_sec * 1000003u ^ ts.tv_nsec ^ getpid();
	}
	printf("seed=%llu\n", (unsigned long long)seed);
	fflush(stdout);
	rng_state = seed ? seed : 1;

	load_kallsyms();
	printf("kpe_fuzz: %zu text symbols, vfs_read at %s\n", nksyms,
	       vfs_read_addr ? "a known address" : "an unknown address");
	clear_all();

	for (i = 0; i < lines; i++) {
		/*
		 * Grammar, then mutations: a quarter of the lines are left
		 * as generated, the rest get word or byte mutations or both.
		 */
		n = gen_words(words, MAX_WORDS);
		mut = rn(100);
		if (mut >= 25 && mut < 85)
			n = mutate_words(words, n, MAX_WORDS);
		/* Removals of what exists, now and then. */
		if (chance(5) && listing.len) {
			char *nl, *sp, *colon = listing.buf;

			/* the event of a random listed line */
			for (k = rn(nr_lines(listing.buf)); k > 0; k--)
				colon = strchr(colon, '\n') + 1;
			colon = strchr(colon, ':');

			if (colon) {
				sp = strchr(colon, ' ');
				nl = strchr(colon, '\n');
				if (sp && nl && sp < nl && sp - colon < MAX_WORD - 4) {
					snprintf(words[0], MAX_WORD, "-%.*s",
						 (int)(sp - colon), colon);
					n = 1;
				}
			}
		}
		len = 0;
		for (k = 0; k < n; k++) {
			size_t wl = strlen(words[k]);

			if (len + wl + 2 >= MAX_LINE)
				break;
			if (k)
				line[len++] = ' ';
			memcpy(line + len, words[k], wl);
			len += wl;
		}
		if (mut >= 65)
			len = mutate_bytes(line, len);
		if (len < MAX_LINE)
			line[len] = '\0';
		/* A trailing newline, as echo writes it, most of the time. */
		if (chance(70) && len + 1 < MAX_LINE)
			line[len++] = '\n';

		to_dyn = chance(30);
		before.len = 0;
		sb_addn(&before, listing.buf, listing.len);
		dbefore.len = 0;
		sb_addn(&dbefore, dlisting.buf, dlisting.len);

		t = now();
		err = write_file(path(to_dyn ? "dynamic_events" : "kprobe_events"),
				 line, len, O_APPEND);
		spent[err ? T_REFUSED : T_OK] += now() - t;
		if (err > 0 && err < 4096)
			errno_secs[err] += now() - t;
		t = now();
		if (verbose) {
			printf("%lu %s ", i, errname(err));
			print_escaped(stdout, line, len);
			putchar('\n');
		}
		if (!err) {
			accepted++;
			refresh();
		} else {
			const char *what = NULL;

			refused++;
			by_errno[err > 0 && err < 4096 ? err : 0]++;
			if (read_file(path("kprobe_events"), &after) ||
			    after.len != before.len ||
			    memcmp(after.buf, before.buf, after.len))
				what = "changed kprobe_events";
			else if (to_dyn &&
				 (read_file(path("dynamic_events"), &after) ||
				  after.len != dbefore.len ||
				  memcmp(after.buf, dbefore.buf, after.len)))
				what = "changed dynamic_events";
			else if (!expected_errno(err) &&
				 !(to_dyn && other_tracers_line(line)))
				what = "failed with an unexpected errno";
			if (what) {
				report(seed, i, what, err, to_dyn, line, len,
				       strstr(what, "dynamic") ? &dbefore : &before,
				       &after);
				if (++failures >= MAX_FAILURES)
					break;
				refresh();
			}
		}

		spent[T_CHECK] += now() - t;

		/*
		 * Now and then enable the hot events for a few lines (a fifth
		 * of the time), calling them on every other line; then
		 * disable them.
		 */
		t = now();
		if (enabled_until && i >= enabled_until) {
			set_enable("0", 0);
			enabled_until = 0;
		} else if (!enabled_until && rn(1000) < enable_permille) {
			enables += set_enable("1", 1);
			enabled_until = i + 5 + rn(40);
		}
		if (enabled_until && i % 2)
			trigger();
		spent[T_ENABLE] += now() - t;
		if (nr_lines(listing.buf) > MAX_LISTED ||
		    nr_lines(dlisting.buf) > 2 * MAX_LISTED) {
			t = now();
			clear_all();
			enabled_until = 0;
			spent[T_CLEAR] += now() - t;
		}
		if ((i + 1) % 10000 == 0) {
			printf("kpe_fuzz: %lu lines, %lu accepted, %lu refused\n",
			       i + 1, accepted, refused);
			fflush(stdout);
		}
	}
	clear_all();
	printf("kpe_fuzz: lines=%lu accepted=%lu refused=%lu clears=%lu enables=%lu\n",
	       accepted + refused, accepted, refused, n_clears, enables);
	printf("kpe_fuzz: refused by errno (count, ms per write):");
	for (k = 0; k < 4096; k++)
		if (by_errno[k])
			printf(" %s=%lu,%.1f", k ? errname(k) : "other", by_errno[k],
			       1000 * errno_secs[k] / by_errno[k]);
	printf("\n");
	printf("kpe_fuzz: seconds in accepted writes %.1f, refused writes %.1f, "
	       "read-backs %.1f, enable/disable/calls %.1f, clears %.1f\n",
	       spent[T_OK], spent[T_REFUSED], spent[T_CHECK], spent[T_ENABLE],
	       spent[T_CLEAR]);
	if (failures)
		printf("kpe_fuzz: %lu broken invariants (seed=%llu)%s\n", failures,
		       (unsigned long long)seed,
		       failures >= MAX_FAILURES ? ", stopped there" : "");
	return failures ? 1 : 0;
}
