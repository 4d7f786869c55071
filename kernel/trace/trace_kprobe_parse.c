// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe-based event tracer: the parser.
 *
 * A definition line, as written to kprobe_events, becomes a struct
 * tkp_spec: kind, names, place and the table of fetch arguments, each
 * with the way the hit path fetches it and its field in the record.
 * Nothing here touches kernel state; a refusal says which word and
 * which character of it are at fault, and why (tkp_err_text).
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_kprobe.h"

/*
 * Messages for error_log; the texts are the kernel's documented ones.
 * tracing_log_err() takes a "const char **", hence no second const.
 */
const char *tkp_err_text[] = {
	[TKP_ERR_BAD_CMD]	  = "Probe type must be 'p', 'r' or '-'",
	[TKP_ERR_BAD_MAXACT]	  = "Invalid maxactive number",
	[TKP_ERR_MAXACT_TOO_BIG]  = "Maxactive is too big",
	[TKP_ERR_MAXACT_ON_PROBE] = "Maxactive is not for kprobe",
	[TKP_ERR_NO_GROUP_NAME]	  = "Group name is not specified",
	[TKP_ERR_GROUP_TOO_LONG]  = "Group name is too long",
	[TKP_ERR_BAD_GROUP_NAME]  = "Group name must follow the same rules as C identifiers",
	[TKP_ERR_NO_EVENT_NAME]	  = "Event name is not specified",
	[TKP_ERR_EVENT_TOO_LONG]  = "Event name is too long",
	[TKP_ERR_BAD_EVENT_NAME]  = "Event name must follow the same rules as C identifiers",
	[TKP_ERR_EVENT_EXIST]	  = "Given group/event name is already used by another event",
	[TKP_ERR_NO_PLACE]	  = "Probe point is not specified",
	[TKP_ERR_BAD_PROBE_ADDR]  = "Invalid probed address or symbol",
	[TKP_ERR_BAD_RETPROBE]	  = "Retprobe address must be an function entry",
	[TKP_ERR_BAD_INSN_BNDRY]  = "Probe point is not an instruction boundary",
	[TKP_ERR_FAIL_REG_PROBE]  = "Failed to register probe event",
	[TKP_ERR_NOTRACE]	  = "The function is notrace (see KPROBE_EVENTS_ON_NOTRACE)",
	[TKP_ERR_NO_PATTERN]	  = "Wildcard places need ftrace with registers and rethook",
	[TKP_ERR_UNARMED]	  = "Enabled, but its functions could not be hooked: not firing",
	[TKP_ERR_BPF_ATTACHED]	  = "perf or BPF has the event open: no place can join it",
	[TKP_ERR_NON_UNIQ_SYMBOL] = "The symbol is not unique",
	[TKP_ERR_DIFF_PROBE_TYPE] = "Probe type is different from existing probe",
	[TKP_ERR_DIFF_ARG_TYPE]	  = "Argument type or name is different from existing probe",
	[TKP_ERR_SAME_PROBE]	  = "There is already the exact same probe event",
	[TKP_ERR_BAD_ADDR_SUFFIX] = "Invalid probed address suffix",
	[TKP_ERR_TOO_MANY_ARGS]	  = "Too many arguments are specified",
	[TKP_ERR_ARG_NAME_TOO_LONG] = "Argument name is too long",
	[TKP_ERR_NO_ARG_NAME]	  = "Argument name is not specified",
	[TKP_ERR_BAD_ARG_NAME]	  = "Argument name must follow the same rules as C identifiers",
	[TKP_ERR_USED_ARG_NAME]	  = "This argument name is already used",
	[TKP_ERR_NO_ARG_BODY]	  = "No argument expression",
	[TKP_ERR_ARG_TOO_LONG]	  = "Argument expression is too long",
	[TKP_ERR_BAD_FETCH_ARG]	  = "Invalid fetch argument",
	[TKP_ERR_BAD_REG_NAME]	  = "Invalid register name",
	[TKP_ERR_BAD_MEM_ADDR]	  = "Invalid memory address",
	[TKP_ERR_BAD_STACK_NUM]	  = "Invalid stack number",
	[TKP_ERR_BAD_ARG_NUM]	  = "Invalid argument number",
	[TKP_ERR_RETVAL_ON_PROBE] = "$retval is not available on probe",
	[TKP_ERR_BAD_VAR]	  = "Invalid $-variable specified",
	[TKP_ERR_BAD_IMM]	  = "Invalid immediate value",
	[TKP_ERR_IMMSTR_NO_CLOSE] = "String is not closed with '\"'",
	[TKP_ERR_DEREF_NEED_BRACE] = "Dereference needs a brace",
	[TKP_ERR_BAD_DEREF_OFFS]  = "Invalid dereference offset",
	[TKP_ERR_DEREF_OPEN_BRACE] = "Dereference brace is not closed",
	[TKP_ERR_TOO_MANY_OPS]	  = "Dereference is too much nested",
	[TKP_ERR_COMM_CANT_DEREF] = "$comm can not be dereferenced",
	[TKP_ERR_BAD_TYPE]	  = "Unknown type is specified",
	[TKP_ERR_BAD_STRING]	  = "String accepts only memory argument",
	[TKP_ERR_BAD_BITFIELD]	  = "Invalid bitfield",
	[TKP_ERR_ARRAY_NO_CLOSE]  = "Array is not closed",
	[TKP_ERR_BAD_ARRAY_SUFFIX] = "Array has wrong suffix",
	[TKP_ERR_BAD_ARRAY_NUM]	  = "Invalid array size",
	[TKP_ERR_ARRAY_TOO_BIG]	  = "Array number is too big",
	[TKP_ERR_ARRAY_NOT_MEM]	  = "Array is available only for memory fetches",
	[TKP_ERR_ARGS_TOO_BIG]	  = "Event too big (too many fields?)",
	[TKP_ERR_BAD_TYPE_ARRAY]  = "This type has no arrays",
	[TKP_ERR_ENTRY_STR_ARRAY] = "String arrays are not taken at function entry",
	[TKP_ERR_NO_BTF] =
		"Argument names need BTF (CONFIG_DEBUG_INFO_BTF): none in this kernel",
	[TKP_ERR_NOFENTRY_ARGS] =
		"Argument names and $arg* are only for a function's entry or return: not at an offset, an address or a wildcard",
	[TKP_ERR_BAD_VAR_ARGS]	  = "$arg* stands alone: no name, type or dereference",
	[TKP_ERR_DOUBLE_ARGS]	  = "$arg* can be used only once",
	[TKP_ERR_TYPECAST_REQ_FIELD] = "Typecast requires a field access",
	[TKP_ERR_TYPECAST_BAD_ARROW] =
		"Typecast field option does not support -> operator",
	[TKP_ERR_TYPECAST_SYM_OFFSET] =
		"@SYM+/-OFFSET with typecast needs parentheses",
	[TKP_ERR_TOO_MANY_NESTED] = "Too many nested typecasts/dereferences",
	[TKP_ERR_NOT_PERCPU]	  = "Not a per-CPU variable",
	/* Filled in by trace_kprobe_btf.c before use. */
	[TKP_ERR_BTF_MSG ... TKP_ERR_BTF_MSG_LAST] = "",
};

/* ---------------------------------------------------------------------
 * Step 1: parsing.  Nothing here touches kernel state.
 */

static int tkp_fail(struct tkp_spec *spec, int word, int off,
		    enum tkp_err err)
{
	spec->err_word = word;
	spec->err_off = off;
	spec->err = err;
	return -EINVAL;
}

/* A name usable as a tracefs directory and a C identifier. */
static bool tkp_name_ok(const char *name, size_t len)
{
	size_t i;

	if (!len || !(isalpha(name[0]) || name[0] == '_'))
		return false;
	for (i = 1; i < len; i++)
		if (!(isalnum(name[i]) || name[i] == '_'))
			return false;
	return true;
}

/*
 * Copy the name that starts word @word at @off and is @len long into
 * @dst, or describe why it cannot be one.  @what selects the group or
 * the event messages.
 */
static int tkp_take_name(struct tkp_spec *spec, char *dst, const char *src,
			 size_t len, int word, int off, bool group)
{
	if (!len)
		return tkp_fail(spec, word, off, group ? TKP_ERR_NO_GROUP_NAME :
							 TKP_ERR_NO_EVENT_NAME);
	if (len >= MAX_EVENT_NAME_LEN)
		return tkp_fail(spec, word, off, group ? TKP_ERR_GROUP_TOO_LONG :
							 TKP_ERR_EVENT_TOO_LONG);
	if (!tkp_name_ok(src, len))
		return tkp_fail(spec, word, off, group ? TKP_ERR_BAD_GROUP_NAME :
							 TKP_ERR_BAD_EVENT_NAME);
	memcpy(dst, src, len);
	dst[len] = '\0';
	return 0;
}

/*
 * The first word: "p" or "r[MAXACTIVE]", then optionally ":[GROUP/][EVENT]".
 * Anything else between the letter and the colon is refused, including
 * what the kernel's own parser lets through ("r-1", "rfoo").
 */
static int tkp_parse_head(const char *w, struct tkp_spec *spec)
{
	const char *colon = strchr(w, ':');
	const char *slash, *name;
	size_t mlen = colon ? colon - w - 1 : strlen(w) - 1;
	unsigned long maxact;
	char num[16];
	int ret;

	if (w[0] != 'p' && w[0] != 'r')
		return tkp_fail(spec, 0, 0, TKP_ERR_BAD_CMD);
	spec->is_return = w[0] == 'r';

	if (mlen) {
		if (!spec->is_return)
			return tkp_fail(spec, 0, 1, TKP_ERR_MAXACT_ON_PROBE);
		if (mlen >= sizeof(num) || !isdigit(w[1]))
			return tkp_fail(spec, 0, 1, TKP_ERR_BAD_MAXACT);
		memcpy(num, w + 1, mlen);
		num[mlen] = '\0';
		/* As the kernel has always read it: 0x10 and 010 too; not 0. */
		if (kstrtoul(num, 0, &maxact) || !maxact)
			return tkp_fail(spec, 0, 1, TKP_ERR_BAD_MAXACT);
		if (maxact > TKP_MAXACTIVE_LIMIT)
			return tkp_fail(spec, 0, 1, TKP_ERR_MAXACT_TOO_BIG);
		spec->maxactive = maxact;
	}

	strscpy(spec->group, TKP_DEFAULT_GROUP, sizeof(spec->group));
	if (!colon)
		return 0;

	name = colon + 1;
	slash = strchr(name, '/');
	if (slash) {
		ret = tkp_take_name(spec, spec->group, name, slash - name, 0,
				    name - w, true);
		if (ret)
			return ret;
		name = slash + 1;
		/* "GROUP/" alone: the event name is made up. */
		if (!*name)
			return 0;
	}
	return tkp_take_name(spec, spec->event, name, strlen(name), 0,
			     name - w, false);
}

/* Parse a decimal or 0x number that must fill @len characters of @s. */
static bool tkp_num(const char *s, size_t len, bool sign, long *val)
{
	char buf[24];

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (sign)
		return !kstrtol(buf, 0, val);
	/* Full unsigned range (addresses); small counts check for < 0. */
	return !kstrtoul(buf, 0, (unsigned long *)val);
}

/*
 * Kernel symbols: identifier characters, and '.' for compiler clones;
 * "MOD:SYM" names a symbol of a module (whose name may have '-').
 */
bool tkp_symbol_ok(const char *sym)
{
	const char *colon = strchr(sym, ':');
	const char *c = sym;
	bool in_set = false;

	if (colon) {
		if (colon == sym || colon - sym >= MODULE_NAME_LEN ||
		    strchr(colon + 1, ':'))
			return false;
		for (; c < colon; c++)
			if (!isalnum(*c) && *c != '_' && *c != '-')
				return false;
		c++;
	}
	if (!*c)
		return false;
	for (; *c; c++) {
		if (*c == '[')
			in_set = true;
		else if (*c == ']')
			in_set = false;
		else if (*c == '-' && in_set)
			continue;	/* a range, as in "[a-f]" */
		if (!isalnum(*c) && !strchr("_.*?[]!", *c))
			return false;
	}
	return true;
}

/*
 * The '+' or '-' that starts the offset in @w's first @wlen bytes, or
 * NULL.  Not one in a module's name ("MOD:SYM") nor in a glob's set: the
 * '-' of "vfs_[a-r]*" is a range.
 */
static const char *tkp_offset_sign(const char *w, size_t wlen)
{
	const char *end = w + wlen;
	const char *c = memchr(w, ':', wlen);
	bool in_set = false;

	for (c = c ? c + 1 : w; c < end; c++) {
		if (*c == '[')
			in_set = true;
		else if (*c == ']')
			in_set = false;
		else if (!in_set && (*c == '+' || *c == '-'))
			return c;
	}
	return NULL;
}

/* The second word: SYMBOL[+offs|-offs][%return] or a kernel address. */
static int tkp_parse_place(const char *w, struct tkp_spec *spec)
{
	const char *pct = strchr(w, '%');
	size_t wlen = pct ? pct - w : strlen(w);
	const char *sign;
	size_t len;
	long offs;

	/* "SYM%return" is the other way to ask for a return probe. */
	if (pct) {
		if (strcmp(pct, "%return"))
			return tkp_fail(spec, 1, pct - w,
					TKP_ERR_BAD_ADDR_SUFFIX);
		spec->is_return = true;
	}

	if (isdigit(w[0])) {
		if (!tkp_num(w, wlen, false, (long *)&spec->addr) ||
		    !spec->addr)
			return tkp_fail(spec, 1, 0, TKP_ERR_BAD_PROBE_ADDR);
		return 0;
	}

	sign = tkp_offset_sign(w, wlen);
	len = sign ? sign - w : wlen;
	if (!len || len >= KSYM_NAME_LEN)
		return tkp_fail(spec, 1, 0, TKP_ERR_BAD_PROBE_ADDR);
	memcpy(spec->symbol, w, len);
	spec->symbol[len] = '\0';
	if (!tkp_symbol_ok(spec->symbol))
		return tkp_fail(spec, 1, 0, TKP_ERR_BAD_PROBE_ADDR);

	if (sign) {
		/* As the kernel's: a place is at or after its symbol. */
		if (*sign == '-')
			return tkp_fail(spec, 1, 0, TKP_ERR_BAD_PROBE_ADDR);
		if (!isdigit(sign[1]) ||
		    !tkp_num(sign + 1, w + wlen - sign - 1, false, &offs) ||
		    offs < 0 || offs > INT_MAX)
			return tkp_fail(spec, 1, 0, TKP_ERR_BAD_PROBE_ADDR);
		spec->offset = offs;
	}
	/*
	 * A return probe is on a function's entry, however written: SYM+4
	 * past an endbr64, or _text+OFFS as perf probe writes one.  A symbol
	 * not there yet (a module to come) is judged when it is placed.
	 */
	if (spec->is_return && spec->offset &&
	    kprobe_on_func_entry(NULL, spec->symbol, spec->offset) == -EINVAL)
		return tkp_fail(spec, 1, 0, TKP_ERR_BAD_RETPROBE);
	/* A pattern names function entries: no offset. */
	if (spec->offset && strpbrk(spec->symbol, "*?["))
		return tkp_fail(spec, 1, len, TKP_ERR_BAD_PROBE_ADDR);
	return 0;
}

static int tkp_arg_fail(struct tkp_argctx *c, const char *at, enum tkp_err e)
{
	return tkp_fail(c->spec, c->word, at - c->w, e);
}

/* "@ADDR" or "@SYM[+|-offs]": the value stored at that kernel address. */
static int tkp_parse_mem(struct tkp_argctx *c, const char *b, size_t len,
			 struct tkp_arg *a)
{
	char sym[KSYM_NAME_LEN];
	const char *sign;
	long offs = 0;
	size_t slen;

	if (isdigit(b[1])) {
		if (!tkp_num(b + 1, len - 1, false, (long *)&a->param))
			return tkp_arg_fail(c, b, TKP_ERR_BAD_MEM_ADDR);
	} else {
		sign = strpbrk(b + 1, "+-");
		slen = (sign && sign < b + len ? sign : b + len) - (b + 1);
		if (!slen || slen >= sizeof(sym))
			return tkp_arg_fail(c, b, TKP_ERR_BAD_MEM_ADDR);
		memcpy(sym, b + 1, slen);
		sym[slen] = '\0';
		if (b + 1 + slen < b + len &&
		    !tkp_num(b + 1 + slen, len - 1 - slen, true, &offs))
			return tkp_arg_fail(c, b + 1 + slen,
					    TKP_ERR_BAD_MEM_ADDR);
		a->param = kallsyms_lookup_name(sym);
		if (!a->param)
			return tkp_arg_fail(c, b, TKP_ERR_BAD_MEM_ADDR);
		a->param += offs;
	}
	a->src = TKP_SRC_IMM;
	a->drf[a->ndrf++] = 0;
	return 0;
}

/*
 * "$stackN", "$stack", "$retval", "$comm", "$current", "$argN";
 * "$argN->member", "$retval->member" and "$current->member" through BTF.
 */
static int tkp_parse_var(struct tkp_argctx *c, const char *b, size_t len,
			 struct tkp_arg *a)
{
	const char *arrow = strnstr(b, "->", len);
	const char *v = b + 1;
	size_t vlen = (arrow ? arrow - b : len) - 1;
	long n;

	if (vlen == 6 && !strncmp(v, "retval", 6)) {
		if (!c->spec->is_return)
			return tkp_arg_fail(c, b, TKP_ERR_RETVAL_ON_PROBE);
		a->src = TKP_SRC_RETVAL;
	} else if (vlen == 8 && !strncmp(v, "duration", 8)) {
		if (!c->spec->is_return)
			return tkp_arg_fail(c, b, TKP_ERR_BAD_VAR);
		a->src = TKP_SRC_DURATION;
	} else if (vlen == 4 && !strncmp(v, "comm", 4)) {
		a->src = TKP_SRC_COMM;
	} else if (vlen == 7 && !strncmp(v, "current", 7)) {
		a->src = TKP_SRC_CURRENT;
	} else if (vlen == 5 && !strncmp(v, "stack", 5)) {
		a->src = TKP_SRC_STACKP;
	} else if (vlen > 5 && !strncmp(v, "stack", 5)) {
		if (!isdigit(v[5]) || !tkp_num(v + 5, vlen - 5, false, &n) ||
		    n < 0 || n > PAGE_SIZE / sizeof(long))
			return tkp_arg_fail(c, b, TKP_ERR_BAD_STACK_NUM);
		a->src = TKP_SRC_STACK;
		a->param = n;
	} else if (vlen == 4 && !strncmp(v, "arg*", 4)) {
		/* Alone, it is every argument: see tkp_parse(). */
		return tkp_arg_fail(c, b, TKP_ERR_BAD_VAR_ARGS);
	} else if (vlen > 3 && !strncmp(v, "arg", 3)) {
		if (!isdigit(v[3]) || !tkp_num(v + 3, vlen - 3, false, &n) ||
		    n < 1 || n > TKP_MAX_ARGS)
			return tkp_arg_fail(c, b, TKP_ERR_BAD_ARG_NUM);
		/*
		 * Arguments are only where the callee just got them: not
		 * inside the function.  A return probe takes the whole
		 * argument (dereferences and all) at the entry.
		 */
		if (c->spec->offset)
			return tkp_arg_fail(c, b, TKP_ERR_BAD_VAR);
		a->src = TKP_SRC_ARG;
		a->param = n - 1;
		a->at_entry = c->spec->is_return;
	} else {
		return tkp_arg_fail(c, b, TKP_ERR_BAD_VAR);
	}
	/* Typed from BTF where it knows the function; "->" needs it. */
	return tkp_btf_var(c, b, len, arrow, a);
}

/* "\IMM" or "\"STRING\"". */
static int tkp_parse_imm(struct tkp_argctx *c, const char *b, size_t len,
			 struct tkp_arg *a)
{
	if (len > 1 && b[1] == '"') {
		if (len < 3 || b[len - 1] != '"')
			return tkp_arg_fail(c, b + len, TKP_ERR_IMMSTR_NO_CLOSE);
		a->imm = kmemdup_nul(b + 2, len - 3, GFP_KERNEL);
		if (!a->imm)
			return -ENOMEM;
		a->src = TKP_SRC_IMMSTR;
		return 0;
	}
	if (!tkp_num(b + 1, len - 1, b[1] == '-', (long *)&a->param))
		return tkp_arg_fail(c, b + 1, TKP_ERR_BAD_IMM);
	a->src = TKP_SRC_IMM;
	return 0;
}

static int tkp_parse_fetch(struct tkp_argctx *c, const char *b, size_t len,
			   struct tkp_arg *a);

/* One more typecast or this_cpu_*() around @b's fetch, if allowed. */
static int tkp_parse_nested(struct tkp_argctx *c, const char *at,
			    const char *b, size_t len, struct tkp_arg *a)
{
	int ret;

	if (c->nest >= TKP_MAX_NEST)
		return tkp_arg_fail(c, at, TKP_ERR_TOO_MANY_NESTED);
	if (!len)
		return tkp_arg_fail(c, b, TKP_ERR_NO_ARG_BODY);
	c->nest++;
	ret = tkp_parse_fetch(c, b, len, a);
	c->nest--;
	if (ret)
		return ret;
	if (a->src == TKP_SRC_COMM || a->src == TKP_SRC_IMMSTR)
		return tkp_arg_fail(c, b, TKP_ERR_COMM_CANT_DEREF);
	return 0;
}

/*
 * "(STRUCT)TARGET->member..." and "(STRUCT,FIELD)TARGET->member...": the
 * value of TARGET, any fetch argument, taken as a pointer to a STRUCT
 * (or union), or with FIELD ("a.b" reaches into members) as a pointer to
 * that member of a STRUCT, whose start is then FIELD's offset before it,
 * as container_of() has it.  The members after it are the STRUCT's,
 * through BTF.  TARGET runs to the first "->" outside parentheses; a
 * parenthesised TARGET may hold "->" and casts of its own.
 */
static int tkp_parse_cast(struct tkp_argctx *c, const char *b, size_t len,
			  struct tkp_arg *a)
{
	const char *end = b + len, *close, *comma, *t, *q;
	size_t slen, flen = 0;
	int depth = 0, ret;

	close = strnchr(b, len, ')');
	if (!close)
		return tkp_arg_fail(c, end, TKP_ERR_DEREF_OPEN_BRACE);
	comma = strnchr(b, close - b, ',');
	slen = (comma ?: close) - (b + 1);
	if (!slen || !tkp_name_ok(b + 1, slen))
		return tkp_arg_fail(c, b + 1, TKP_ERR_BAD_FETCH_ARG);
	if (comma) {
		flen = close - (comma + 1);
		q = strnstr(comma + 1, "->", flen);
		if (q)
			return tkp_arg_fail(c, q, TKP_ERR_TYPECAST_BAD_ARROW);
	}

	/* TARGET: to its closing parenthesis, or to the first "->". */
	t = close + 1;
	if (*t == '(') {
		for (q = t; q < end; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')' && !--depth)
				break;
		}
		if (q == end)
			return tkp_arg_fail(c, end, TKP_ERR_DEREF_OPEN_BRACE);
		ret = tkp_parse_nested(c, b, t + 1, q - (t + 1), a);
		q++;
	} else {
		for (q = t; q < end; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')')
				depth--;
			else if (!depth && end - q >= 2 && !strncmp(q, "->", 2))
				break;
		}
		if (*t == '@' && strcspn(t, "+-") < q - t)
			return tkp_arg_fail(c, t, TKP_ERR_TYPECAST_SYM_OFFSET);
		ret = tkp_parse_nested(c, b, t, q - t, a);
	}
	if (ret)
		return ret;
	/* A cast is for reaching members: a bare one would read nothing. */
	if (end - q < 2 || q[0] != '-' || q[1] != '>')
		return tkp_arg_fail(c, q, TKP_ERR_TYPECAST_REQ_FIELD);
	return tkp_btf_cast(c, a, b + 1, b + 1, slen, comma ? comma + 1 : NULL,
			    flen, q, end);
}

/*
 * Is @addr, what kallsyms gives for a symbol (plus an offset), in the
 * kernel's or a module's per-CPU variables?  Anything else has no
 * per-CPU copies for this_cpu_*() to find.
 */
static bool tkp_percpu_sym(unsigned long addr)
{
#ifdef CONFIG_SMP
	void __percpu *p = (void __percpu *)addr;
	unsigned long here = (unsigned long)per_cpu_ptr(p,
							raw_smp_processor_id());

	return is_kernel_percpu_address(here) ||
	       is_module_percpu_address(here);
#else
	return true;	/* a per-CPU variable is a plain one */
#endif
}

/*
 * "this_cpu_ptr(FETCHARG)": this CPU's address for the per-CPU pointer
 * that FETCHARG is (for "@SYM", the per-CPU variable SYM itself), as
 * this_cpu_ptr() gives it; "this_cpu_read(FETCHARG)": what is there.
 * Kept as a dereference whose address is taken on this CPU, its value the
 * address itself for this_cpu_ptr().
 */
static int tkp_parse_percpu(struct tkp_argctx *c, const char *b, size_t len,
			    struct tkp_arg *a, bool read)
{
	const char *in = strnchr(b, len, '(') + 1, *end = b + len;
	unsigned int was;
	int ret;

	if (end[-1] != ')')
		return tkp_arg_fail(c, end, TKP_ERR_DEREF_OPEN_BRACE);
	ret = tkp_parse_nested(c, b, in, end - 1 - in, a);
	if (ret)
		return ret;
	was = a->ndrf;
	/* "@SYM" reads the variable: here it is the variable's address. */
	if (*in == '@') {
		if (!tkp_percpu_sym(a->param))
			return tkp_arg_fail(c, in, TKP_ERR_NOT_PERCPU);
		a->addr_only = true;
	}
	if (a->addr_only) {
		if (a->pcpu & BIT(a->ndrf - 1))
			return tkp_arg_fail(c, b, TKP_ERR_TOO_MANY_OPS);
		a->pcpu |= BIT(a->ndrf - 1);
	} else {
		if (a->ndrf >= TKP_MAX_DEREF)
			return tkp_arg_fail(c, b, TKP_ERR_TOO_MANY_OPS);
		a->pcpu |= BIT(a->ndrf);
		a->drf[a->ndrf++] = 0;
		a->addr_only = true;
	}
	if (read)
		a->addr_only = false;
	tkp_btf_percpu(c, a, read, was);
	return 0;
}

/* The fetch expression in @b (@len characters), innermost part first. */
static int tkp_parse_fetch(struct tkp_argctx *c, const char *b, size_t len,
			   struct tkp_arg *a)
{
	const char *p, *open;
	bool user = false;
	long offs;
	int ret, reg;
	char name[16];

	if (!len)
		return tkp_arg_fail(c, b, TKP_ERR_NO_ARG_BODY);

	switch (b[0]) {
	case '%':
		if (len - 1 >= sizeof(name))
			return tkp_arg_fail(c, b, TKP_ERR_BAD_REG_NAME);
		memcpy(name, b + 1, len - 1);
		name[len - 1] = '\0';
		reg = regs_query_register_offset(name);
		if (reg < 0)
			return tkp_arg_fail(c, b, TKP_ERR_BAD_REG_NAME);
		a->src = TKP_SRC_REG;
		a->param = reg;
		return 0;
	case '@':
		return tkp_parse_mem(c, b, len, a);
	case '$':
		return tkp_parse_var(c, b, len, a);
	case '\\':
		return tkp_parse_imm(c, b, len, a);
	case '(':
		return tkp_parse_cast(c, b, len, a);
	case '+':
	case '-':
		break;
	default:
		if (len > 13 && !strncmp(b, "this_cpu_ptr(", 13))
			return tkp_parse_percpu(c, b, len, a, false);
		if (len > 14 && !strncmp(b, "this_cpu_read(", 14))
			return tkp_parse_percpu(c, b, len, a, true);
		/* A name: an argument of the function, from BTF. */
		if (isalpha(b[0]) || b[0] == '_')
			return tkp_btf_fetch(c, b, len, a);
		return tkp_arg_fail(c, b, TKP_ERR_BAD_FETCH_ARG);
	}

	/* +|-[u]OFFS(FETCHARG); the word's length bounds the depth. */
	p = b + 1;
	if (*p == 'u') {
		user = true;
		p++;
	}
	open = strnchr(p, b + len - p, '(');
	if (!open)
		return tkp_arg_fail(c, b, TKP_ERR_DEREF_NEED_BRACE);
	if (!tkp_num(p, open - p, false, &offs) || offs < 0)
		return tkp_arg_fail(c, b, TKP_ERR_BAD_DEREF_OFFS);
	if (b[len - 1] != ')')
		return tkp_arg_fail(c, b + len, TKP_ERR_DEREF_OPEN_BRACE);
	ret = tkp_parse_fetch(c, open + 1, b + len - 1 - (open + 1), a);
	if (ret)
		return ret;
	if (a->src == TKP_SRC_COMM || a->src == TKP_SRC_IMMSTR)
		return tkp_arg_fail(c, open + 1, TKP_ERR_COMM_CANT_DEREF);
	if (a->addr_only) {
		/* An address (this_cpu_ptr()): read at it, plus OFFS. */
		a->addr_only = false;
		if (user)
			a->user |= BIT(a->ndrf - 1);
		a->drf[a->ndrf - 1] += b[0] == '-' ? -offs : offs;
		tkp_btf_forget(c, a);
		return 0;
	}
	if (a->ndrf >= TKP_MAX_DEREF)
		return tkp_arg_fail(c, b, TKP_ERR_TOO_MANY_OPS);
	if (user)
		a->user |= BIT(a->ndrf);
	a->drf[a->ndrf++] = b[0] == '-' ? -offs : offs;
	return 0;
}

/* Printers of tkp_types[]: one element of a field, widened to u64. */
static void tkp_print_u(struct trace_seq *s, u64 v, unsigned int size)
{
	trace_seq_printf(s, "%llu", v);
}

static void tkp_print_s(struct trace_seq *s, u64 v, unsigned int size)
{
	/* Sign-extend from the field's width. */
	trace_seq_printf(s, "%lld",
			 (s64)(v << (64 - 8 * size)) >> (64 - 8 * size));
}

static void tkp_print_x(struct trace_seq *s, u64 v, unsigned int size)
{
	trace_seq_printf(s, "0x%llx", v);
}

static void tkp_print_sym(struct trace_seq *s, u64 v, unsigned int size)
{
	trace_seq_printf(s, "%pS", (void *)(unsigned long)v);
}

static void tkp_print_char(struct trace_seq *s, u64 v, unsigned int size)
{
	trace_seq_printf(s, "'%c'", (char)v);
}

#define TKP_STR_CONV	{ "\\\"%s\\\"", "\\\"%s\\\"" }

const struct tkp_type tkp_types[TKP_NR_TYPES] = {
	[TKP_T_U] = {
		.name = "u", .kind = TKP_K_U,
		.conv = { "%u", "%llu" }, .print = tkp_print_u,
	},
	[TKP_T_S] = {
		.name = "s", .kind = TKP_K_S, .sign = true,
		.conv = { "%d", "%lld" }, .print = tkp_print_s,
	},
	[TKP_T_X] = {
		.name = "x", .kind = TKP_K_X,
		.conv = { "0x%x", "0x%llx" }, .print = tkp_print_x,
	},
	[TKP_T_SYMBOL] = {
		.name = "symbol", .kind = TKP_K_SYMBOL, .size = sizeof(long),
		.conv = { "%pS", "%pS" }, .print = tkp_print_sym,
	},
	[TKP_T_BITFIELD] = {
		.name = "b", .kind = TKP_K_BITFIELD,
		.conv = { "%u", "%llu" }, .print = tkp_print_u,
	},
	[TKP_T_STRING] = {
		.name = "string", .kind = TKP_K_STRING, .conv = TKP_STR_CONV,
	},
	[TKP_T_USTRING] = {
		.name = "ustring", .kind = TKP_K_STRING, .user = true,
		.conv = TKP_STR_CONV,
	},
	/*
	 * The print fmt shows a char in hexadecimal: libtraceevent (perf,
	 * trace-cmd) has no %c and would shift every later argument.
	 */
	[TKP_T_CHAR] = {
		.name = "char", .kind = TKP_K_U, .size = 1,
		.conv = { "0x%x", "0x%x" }, .ftype = "char",
		.print = tkp_print_char,
	},
	/* Strings made at the hit from a value; see tkp_parse_type(). */
	[TKP_T_SYMSTR] = {
		.name = "symstr", .kind = TKP_K_STRING, .conv = TKP_STR_CONV,
	},
	[TKP_T_PD] = {
		.name = "%pd", .kind = TKP_K_STRING, .conv = TKP_STR_CONV,
	},
	[TKP_T_PFILE] = {
		.name = "%pD", .kind = TKP_K_STRING, .conv = TKP_STR_CONV,
	},
};

/*
 * %pd and %pD are strings at the end of a path of pointers from the
 * value: the dentry's name, or the name of the dentry of the file.  They
 * are those dereferences, added to the argument's own; @a's last one, if
 * any, now reads the pointer.  False if that is too many.
 */
static bool tkp_name_derefs(struct tkp_arg *a, bool file)
{
	if (a->ndrf + 2 + file > TKP_MAX_DEREF)
		return false;
	if (file)
		a->drf[a->ndrf++] = offsetof(struct file, f_path.dentry);
	a->drf[a->ndrf++] = offsetof(struct dentry, d_name.name);
	a->drf[a->ndrf++] = 0;
	return true;
}

/* Give @a type @id; @size in bytes, or 0 for the type's own. */
static void tkp_set_type(struct tkp_arg *a, enum tkp_type_id id,
			 unsigned int size)
{
	a->type = id;
	a->kind = tkp_types[id].kind;
	a->size = size ?: tkp_types[id].size;
}

/* "bWIDTH@OFFSET/CONTAINER", e.g. "b4@4/32". */
static int tkp_parse_bitfield(struct tkp_argctx *c, const char *t,
			      size_t len, struct tkp_arg *a)
{
	const char *at = strnchr(t, len, '@');
	const char *sl = strnchr(t, len, '/');
	long w, o, bits;

	if (!at || !sl || sl < at ||
	    !tkp_num(t + 1, at - t - 1, false, &w) ||
	    !tkp_num(at + 1, sl - at - 1, false, &o) ||
	    !tkp_num(sl + 1, t + len - sl - 1, false, &bits) ||
	    (bits != 8 && bits != 16 && bits != 32 && bits != 64) ||
	    w < 1 || o < 0 || w > bits || o > bits || w + o > bits)
		return tkp_arg_fail(c, t, TKP_ERR_BAD_BITFIELD);
	tkp_set_type(a, TKP_T_BITFIELD, bits / 8);
	a->bf_lshift = 64 - (w + o);
	a->bf_rshift = 64 - w;
	return 0;
}

/* TYPE[N]: a type of tkp_types[], with an array size. */
static int tkp_parse_type(struct tkp_argctx *c, const char *t, size_t len,
			  struct tkp_arg *a)
{
	const char *br = strnchr(t, len, '[');
	size_t blen = br ? br - t : len;
	const struct tkp_type *ty;
	unsigned int id;
	long n, bits;

	if (br) {
		const char *close = strnchr(br, t + len - br, ']');

		if (!close)
			return tkp_arg_fail(c, t + len, TKP_ERR_ARRAY_NO_CLOSE);
		if (close != t + len - 1)
			return tkp_arg_fail(c, close + 1,
					    TKP_ERR_BAD_ARRAY_SUFFIX);
		if (!tkp_num(br + 1, t + len - 1 - (br + 1), false, &n) ||
		    n < 1)
			return tkp_arg_fail(c, br + 1, TKP_ERR_BAD_ARRAY_NUM);
		if (n > TKP_MAX_ARRAY)
			return tkp_arg_fail(c, br + 1, TKP_ERR_ARRAY_TOO_BIG);
		a->count = n;
	}

	for (id = 0; id < TKP_NR_TYPES; id++) {
		ty = &tkp_types[id];
		/* Those written with a width: u8 .. u64, and bW@O/S. */
		if (!ty->size && ty->kind != TKP_K_STRING) {
			if (blen < 2 || t[0] != ty->name[0] || !isdigit(t[1]))
				continue;
			if (id == TKP_T_BITFIELD)
				return br ? tkp_arg_fail(c, br,
						TKP_ERR_BAD_ARRAY_SUFFIX) :
					    tkp_parse_bitfield(c, t, blen, a);
			if (!tkp_num(t + 1, blen - 1, false, &bits) ||
			    (bits != 8 && bits != 16 && bits != 32 &&
			     bits != 64))
				continue;
			tkp_set_type(a, id, bits / 8);
			break;
		}
		if (strlen(ty->name) == blen && !strncmp(t, ty->name, blen)) {
			tkp_set_type(a, id, 0);
			break;
		}
	}
	if (id == TKP_NR_TYPES)
		return tkp_arg_fail(c, t, TKP_ERR_BAD_TYPE);
	if (ty->user) {
		if (!a->ndrf)
			return tkp_arg_fail(c, t, TKP_ERR_BAD_STRING);
		a->user |= BIT(a->ndrf - 1);
	}
	/*
	 * string[N] and ustring[N] read N pointers at the address, and a
	 * string at each: "+0(%di):string[1]" is "+0(+0(%di)):string".
	 * Strings made from a value come one at a time.
	 */
	if (br && (id == TKP_T_SYMSTR || id == TKP_T_PD || id == TKP_T_PFILE))
		return tkp_arg_fail(c, br, TKP_ERR_BAD_TYPE_ARRAY);
	if ((id == TKP_T_PD || id == TKP_T_PFILE) &&
	    !tkp_name_derefs(a, id == TKP_T_PFILE))
		return tkp_arg_fail(c, t, TKP_ERR_TOO_MANY_OPS);
	return 0;
}

/* Where ':' separates the fetch from its type: outside quotes and braces. */
static const char *tkp_type_sep(const char *b)
{
	bool quoted = false;
	int depth = 0;

	for (; *b; b++) {
		if (*b == '"')
			quoted = !quoted;
		else if (quoted)
			continue;
		else if (*b == '(')
			depth++;
		else if (*b == ')')
			depth--;
		else if (*b == ':' && !depth)
			return b;
	}
	return NULL;
}

/* The fields of struct trace_entry and of our records' headers. */
static const char * const tkp_reserved_names[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	"common_tgid", "__probe_ip", "__probe_ret_ip", "__probe_func",
	"__probe_faults",
};

/* One word "[NAME=]FETCHARG[:TYPE]" into @a; @idx counts from 0. */
static int tkp_parse_arg(struct tkp_spec *spec, int word, const char *w,
			 int idx)
{
	struct tkp_argctx c = { .spec = spec, .word = word, .w = w };
	struct tkp_arg *a = &spec->args[idx];
	const char *body = w, *eq, *sep;
	size_t nlen;
	int i, ret;

	a->fault_bit = 0xff;
	eq = strchr(w, '=');
	if (eq && eq < w + strcspn(w, "(:\\\"")) {
		nlen = eq - w;
		if (!nlen)
			return tkp_fail(spec, word, 0, TKP_ERR_NO_ARG_NAME);
		if (nlen >= TKP_MAX_ARG_NAME)
			return tkp_fail(spec, word, 0, TKP_ERR_ARG_NAME_TOO_LONG);
		if (!tkp_name_ok(w, nlen))
			return tkp_fail(spec, word, 0, TKP_ERR_BAD_ARG_NAME);
		memcpy(a->name, w, nlen);
		a->name[nlen] = '\0';
		body = eq + 1;
	} else if (!strcmp(w, "$duration") || !strncmp(w, "$duration:", 10)) {
		/* So that "hist:...:vals=duration" works without a name. */
		strscpy(a->name, "duration", sizeof(a->name));
	} else if (!tkp_btf_auto_name(w, a->name, sizeof(a->name))) {
		/* (a BTF name or member names its field itself) */
		snprintf(a->name, sizeof(a->name), "arg%d", idx + 1);
	}
	for (i = 0; i < idx; i++)
		if (!strcmp(spec->args[i].name, a->name))
			return tkp_fail(spec, word, 0, TKP_ERR_USED_ARG_NAME);
	/* Nor may it be a field every record of the event has. */
	if (match_string(tkp_reserved_names, ARRAY_SIZE(tkp_reserved_names),
			 a->name) >= 0)
		return tkp_fail(spec, word, 0, TKP_ERR_USED_ARG_NAME);

	if (strlen(body) > TKP_MAX_ARG_TEXT)
		return tkp_fail(spec, word, body - w, TKP_ERR_ARG_TOO_LONG);
	a->text = kstrdup(body, GFP_KERNEL);
	if (!a->text)
		return -ENOMEM;

	sep = tkp_type_sep(body);
	ret = tkp_parse_fetch(&c, body, sep ? sep - body : strlen(body), a);
	if (ret)
		return ret;

	/*
	 * Defaults: strings for $comm and "...", nanoseconds in decimal for
	 * $duration, x64 for the rest.
	 */
	if (a->src == TKP_SRC_COMM || a->src == TKP_SRC_IMMSTR)
		tkp_set_type(a, TKP_T_STRING, 0);
	else if (a->src == TKP_SRC_DURATION)
		tkp_set_type(a, TKP_T_U, sizeof(u64));
	else
		tkp_set_type(a, TKP_T_X, sizeof(long));
	/* A name, or $argN or $retval, has the type BTF gives it. */
	ret = tkp_btf_type(&c, a, sep ? sep + 1 : NULL);
	if (ret)
		return ret;
	if (sep) {
		ret = tkp_parse_type(&c, sep + 1, strlen(sep + 1), a);
		if (ret)
			return ret;
	}

	if ((a->src == TKP_SRC_COMM || a->src == TKP_SRC_IMMSTR) &&
	    a->type != TKP_T_STRING)
		return tkp_arg_fail(&c, sep + 1, TKP_ERR_BAD_TYPE);
	if (a->kind == TKP_K_STRING && !a->ndrf && a->type != TKP_T_SYMSTR &&
	    a->src != TKP_SRC_COMM && a->src != TKP_SRC_IMMSTR)
		return tkp_arg_fail(&c, sep + 1, TKP_ERR_BAD_STRING);
	if (a->count && (!a->ndrf || a->addr_only))
		return tkp_arg_fail(&c, sep ? sep + 1 : w,
				    TKP_ERR_ARRAY_NOT_MEM);
	/*
	 * A string is read where an address points: not at this_cpu_ptr()'s
	 * value itself, nor (for now) from string arrays of per-CPU memory.
	 */
	if (a->kind == TKP_K_STRING && (a->addr_only || (a->pcpu && a->count)))
		return tkp_arg_fail(&c, sep ? sep + 1 : w, TKP_ERR_BAD_STRING);
	/* An entry keeps one string per argument for its return. */
	if (a->at_entry && a->kind == TKP_K_STRING && a->count)
		return tkp_arg_fail(&c, sep + 1, TKP_ERR_ENTRY_STR_ARRAY);
	return 0;
}

void tkp_free_args(struct tkp_arg *args, int nargs)
{
	int i;

	if (!args)
		return;
	for (i = 0; i < nargs; i++) {
		kfree(args[i].text);
		kfree(args[i].imm);
	}
	kfree(args);
}

/*
 * The C type of an argument's field as the format file shows it.  Kept
 * in the argument: the trace event core holds on to the pointer.
 */
static void tkp_set_ftype(struct tkp_arg *a)
{
	const char *fixed = tkp_types[a->type].ftype;
	int n;

	/*
	 * A string array too: its N __data_loc words make a field of N * 4
	 * bytes.  libtraceevent cannot parse a "char[][N]" type, and reads
	 * this one as its first string.
	 */
	if (a->kind == TKP_K_STRING) {
		strscpy(a->ftype, "__data_loc char[]", sizeof(a->ftype));
		return;
	}
	if (fixed)
		n = strscpy(a->ftype, fixed, sizeof(a->ftype));
	else
		n = snprintf(a->ftype, sizeof(a->ftype), "%c%d",
			     tkp_types[a->type].sign ? 's' : 'u', a->size * 8);
	if (a->count)
		snprintf(a->ftype + n, sizeof(a->ftype) - n, "[%d]", a->count);
}

/*
 * Where in struct pt_regs the source of an argument is, if it is one
 * register, so that the hit path reads it without a switch on the kind
 * of source; TKP_NO_REG otherwise.
 */
static u16 tkp_src_off(const struct tkp_arg *a)
{
#ifdef TKP_ARG_REGS
	static const u16 arg_off[] = TKP_ARG_REGS;

	if (a->src == TKP_SRC_RETVAL)
		return TKP_RET_REG;
	if (a->src == TKP_SRC_STACKP)
		return TKP_SP_REG;
	if (a->src == TKP_SRC_ARG && a->param < ARRAY_SIZE(arg_off))
		return arg_off[a->param];
#endif
	if (a->src == TKP_SRC_REG)
		return a->param;
	return TKP_NO_REG;
}

/*
 * Likewise for a plain register argument, copied into its field without
 * interpreting the argument; TKP_NO_REG if it needs more than that.
 */
static u16 tkp_reg_off(const struct tkp_arg *a)
{
	if (a->ndrf || a->count || a->kind == TKP_K_BITFIELD ||
	    a->kind == TKP_K_STRING || a->at_entry)
		return TKP_NO_REG;
	return tkp_src_off(a);
}

/*
 * Can @a be fetched from the registers ftrace saves for every callback
 * (the argument registers, ax, bp, sp), without SAVE_REGS?
 */
bool tkp_arg_partial_ok(const struct tkp_arg *a)
{
#if TKP_HAVE_ARGS_OPS
	static const u16 saved[] = TKP_FTRACE_REGS;
	unsigned int i;

	if (a->src != TKP_SRC_REG)
		return true;
	for (i = 0; i < ARRAY_SIZE(saved); i++)
		if (a->param == saved[i])
			return true;
	/* %ip too: it reads as a kprobe's only in the full set. */
#endif
	return false;
}

static u8 tkp_op(const struct tkp_arg *a)
{
	if (a->at_entry)
		return TKP_OP_ENTRY;
	if (a->pcpu)
		return a->kind == TKP_K_STRING ? TKP_OP_PCPU_STR : TKP_OP_PCPU;
	if (a->reg_off != TKP_NO_REG)
		return TKP_OP_REG;
	if (a->kind != TKP_K_STRING)
		return TKP_OP_VALUE;
	if (a->src == TKP_SRC_COMM || a->src == TKP_SRC_IMMSTR)
		return TKP_OP_STR;
	if (a->type == TKP_T_SYMSTR)
		return TKP_OP_SYMSTR;
	if (a->count)
		return TKP_OP_STRARRAY;
	return TKP_OP_MSTR;
}

/* Lay the fields out after the header; false if they do not fit. */
static bool tkp_layout(struct tkp_arg *args, int nargs, unsigned int hdr,
		       unsigned int *fixed_end, int *fault_off)
{
	unsigned int off = hdr, nfault = 0, size, align;
	int i;

	for (i = 0; i < nargs; i++)
		if (args[i].ndrf && args[i].kind != TKP_K_STRING &&
		    nfault < 64)
			args[i].fault_bit = nfault++;
	*fault_off = -1;
	if (nfault) {
		*fault_off = off;
		off += sizeof(u64);
	}
	for (i = 0; i < nargs; i++) {
		tkp_set_ftype(&args[i]);
		args[i].reg_off = tkp_reg_off(&args[i]);
		args[i].src_off = tkp_src_off(&args[i]);
		args[i].op = tkp_op(&args[i]);
		args[i].last_user = args[i].ndrf &&
				    (args[i].user & BIT(args[i].ndrf - 1));
		if (args[i].kind == TKP_K_STRING) {
			align = sizeof(u32);
			size = sizeof(u32) * (args[i].count ?: 1);
		} else {
			align = args[i].size;
			size = args[i].size * (args[i].count ?: 1);
		}
		off = ALIGN(off, align);
		args[i].offset = off;
		off += size;
		if (off - hdr > TKP_MAX_FIXED)
			return false;
	}
	*fixed_end = off;
	return true;
}

/* "$arg*", word @word: an argument for each of the function's. */
static int tkp_parse_star(struct tkp_spec *spec, int word, int *idx)
{
	const char *w;
	char buf[24];
	int k, ret;

	for (k = 0; (w = tkp_btf_star_word(spec, k, buf, sizeof(buf))); k++) {
		ret = tkp_parse_arg(spec, word, w, (*idx)++);
		if (ret)
			return ret;
	}
	return 0;
}

static int tkp_parse_line(int argc, const char **argv, struct tkp_spec *spec)
{
	int i, n, ret, star;

	memset(spec, 0, sizeof(*spec));
	ret = tkp_parse_head(argv[0], spec);
	if (ret)
		return ret;
	if (argc < 2)
		return tkp_fail(spec, 0, strlen(argv[0]), TKP_ERR_NO_PLACE);
	ret = tkp_parse_place(argv[1], spec);
	if (ret)
		return ret;

	spec->fault_off = -1;
	spec->rec_size = spec->is_return ? sizeof(struct tkp_return_rec) :
					   sizeof(struct tkp_entry_rec);
	/* "$arg*" stands for the function's n arguments. */
	n = tkp_btf_star(spec, argc, argv, &star);
	if (n < 0)
		return n;
	spec->nargs = argc - 2 + (star ? n - 1 : 0);
	if (!spec->nargs)
		return 0;
	if (spec->nargs > TKP_MAX_ARGS)
		return tkp_fail(spec, 2 + TKP_MAX_ARGS, 0,
				TKP_ERR_TOO_MANY_ARGS);
	spec->args = kcalloc(spec->nargs, sizeof(*spec->args), GFP_KERNEL);
	if (!spec->args)
		return -ENOMEM;
	for (i = 2, n = 0; i < argc; i++) {
		if (i == star)
			ret = tkp_parse_star(spec, i, &n);
		else
			ret = tkp_parse_arg(spec, i, argv[i], n++);
		if (ret)
			return ret;
	}
	if (!tkp_layout(spec->args, spec->nargs, spec->rec_size,
			&spec->rec_size, &spec->fault_off))
		return tkp_fail(spec, 2, 0, TKP_ERR_ARGS_TOO_BIG);
	return 0;
}

/**
 * tkp_parse - turn the words of a definition line into a spec
 * @argc: number of words
 * @argv: the words; argv[0] is "p..." or "r..."
 * @spec: filled in; on failure, its err fields say where and why
 *
 * Return: 0; -EINVAL with @spec describing the fault; -ENOMEM.  Either
 * way the caller frees @spec->args with tkp_free_args().
 */
int tkp_parse(int argc, const char **argv, struct tkp_spec *spec)
{
	int ret = tkp_parse_line(argc, argv, spec);

	/* The function's BTF served the parse only. */
	tkp_btf_release(spec);
	return ret;
}
