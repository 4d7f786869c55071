// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe-based event tracer: argument names and types from BTF.
 *
 * At a function's entry (and in its return probes, taken at the entry)
 * an argument may be named as the source does, "p vfs_read file count",
 * members reached through it, "file->f_path.dentry", and "$arg*" stands
 * for every argument, named.  $argN and $retval, given no type, get the
 * one BTF gives them.  All of it is resolved while the line is parsed:
 *
 *   name        -> $argN, N from the function's BTF prototype
 *   ->member    -> one more dereference, at the member's offset
 *   .member     -> the member's offset, added to the last dereference
 *   the type    -> a row of tkp_types[]: integers by width and sign,
 *                  pointers in hexadecimal, char arrays as strings; with
 *                  ":string", a char pointer gains the dereference that
 *                  reads the string
 *
 * so a named argument is a plain struct tkp_arg, fetched exactly as its
 * "%reg" / "+off()" spelling would be: the hit path never sees BTF.  The
 * function's BTF (vmlinux's, or a loaded module's) is held only while
 * its line is parsed (struct tkp_btf, released by tkp_parse()).
 *
 * A refusal says what exists: the function's arguments, or the members
 * of the struct, in a message made for the line (tkp_btf_fail()).
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_kprobe.h"

/* What the parse of one line knows of its function. */
struct tkp_btf {
	int			state;	/* 0: not looked up, 1: found, -errno */
	struct btf		*btf;	/* a reference, while found */
	const struct btf_type	*proto;	/* BTF_KIND_FUNC_PROTO */
	const char		*func;	/* its name, without "MOD:" */
	/*
	 * What the last name, member, $argN or $retval left for
	 * tkp_btf_type(): the argument, the BTF type of its value, how
	 * many dereferences it had then (an enclosing "+OFFS()" adds
	 * one, and the type is then the user's), and, for a bitfield,
	 * its width, bit offset and container bytes.
	 */
	struct tkp_arg		*arg;
	const struct btf	*tbtf;	/* the BTF type_id is of */
	u32			type_id;
	u8			ndrf;
	u8			bf_width;
	u8			bf_off;
	u8			bf_size;
	const char		*what;	/* the name, for messages */
	int			what_len;
};

/*
 * Messages naming what exists ("No argument 'hoge' in vfs_read(file,
 * buf, count, pos)") are made for the line that failed.  error_log does
 * not copy a message: tracing_log_err() keeps the table (tkp_err_text)
 * and an index, and shows the text while the entry is among the last
 * few (8 in 6.1, 16 later).  So each message takes the next of these
 * 17 slots, rows TKP_ERR_BTF_MSG.. of tkp_err_text: a refused line logs
 * one entry, so when a slot comes round again at least 16 entries have
 * been logged since it was last written, and error_log shows none that
 * points at it.  The rows stay valid for good (static buffers).
 */
#define TKP_BTF_MSGS	(TKP_ERR_BTF_MSG_LAST - TKP_ERR_BTF_MSG + 1)
#define TKP_BTF_MSG_LEN	400

static char tkp_btf_msg[TKP_BTF_MSGS][TKP_BTF_MSG_LEN];
static atomic_t tkp_btf_next = ATOMIC_INIT(-1);

static int tkp_btf_err(struct tkp_argctx *c, const char *at, enum tkp_err e)
{
	c->spec->err_word = c->word;
	c->spec->err_off = at - c->w;
	c->spec->err = e;
	return -EINVAL;
}

/* Refuse with a message made here; the caret goes under @at. */
static __printf(3, 4) int tkp_btf_fail(struct tkp_argctx *c, const char *at,
				       const char *fmt, ...)
{
	unsigned int i = (unsigned int)atomic_inc_return(&tkp_btf_next) %
			 TKP_BTF_MSGS;
	va_list args;

	va_start(args, fmt);
	vsnprintf(tkp_btf_msg[i], TKP_BTF_MSG_LEN, fmt, args);
	va_end(args);
	WRITE_ONCE(tkp_err_text[TKP_ERR_BTF_MSG + i], tkp_btf_msg[i]);
	return tkp_btf_err(c, at, TKP_ERR_BTF_MSG + i);
}

/* A list being written into a buffer, "..." where it does not fit. */
struct tkp_list {
	char	*buf;
	size_t	size;
	size_t	len;
	bool	more;	/* an item did not fit */
};

static void tkp_list_add(struct tkp_list *l, const char *sep, const char *s)
{
	size_t need = strlen(sep) + strlen(s);

	if (l->more)
		return;
	/* Keep room for ", ..." should a later item not fit. */
	if (l->len + need + 6 > l->size) {
		l->more = true;
		l->len += scnprintf(l->buf + l->len, l->size - l->len, "%s...",
				    sep);
		return;
	}
	l->len += scnprintf(l->buf + l->len, l->size - l->len, "%s%s", sep, s);
}

static const struct btf_type *tkp_btf_skip(const struct btf *btf, u32 id)
{
	return btf_type_skip_modifiers(btf, id, NULL);
}

static bool tkp_btf_is_void(const struct btf_type *t)
{
	return !t || BTF_INFO_KIND(t->info) == BTF_KIND_UNKN;
}

/* Can @t be a value's type: an integer, enum or pointer of a word or less? */
static bool tkp_btf_is_scalar(const struct btf_type *t)
{
	if (tkp_btf_is_void(t))
		return false;
	if (btf_type_is_ptr(t))
		return true;
	return (btf_is_any_enum(t) || btf_type_is_int(t)) &&
	       (t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8);
}

/* Is @t a one-byte integer of the char family? */
static bool tkp_btf_is_char(const struct btf *btf, const struct btf_type *t)
{
	return t && btf_type_is_int(t) && t->size == 1 &&
	       strstr(btf_name_by_offset(btf, t->name_off), "char");
}

/*
 * Is type @id text: a char type written as such, not through a typedef
 * (u8, __u8: bytes, a UUID or an address, where a NUL is no end)?
 */
static bool tkp_btf_is_text(const struct btf *btf, u32 id)
{
	const struct btf_type *t = btf_type_by_id(btf, id);

	while (t && (BTF_INFO_KIND(t->info) == BTF_KIND_CONST ||
		     BTF_INFO_KIND(t->info) == BTF_KIND_VOLATILE ||
		     BTF_INFO_KIND(t->info) == BTF_KIND_RESTRICT))
		t = btf_type_by_id(btf, t->type);
	return tkp_btf_is_char(btf, t);
}

/*
 * Is parameter @i where its number says, $arg<i + 1>?  Not after a
 * struct or union passed by value that is wider than a register: it
 * takes two, or goes on the stack, and shifts those that follow.  Nor,
 * where regs_get_kernel_argument() reads registers only, past them.
 * Returns 0, or -EINVAL with a message saying why.
 */
static int tkp_btf_slot_why(const struct tkp_btf *ctx, unsigned int i,
			    unsigned int *k)
{
	const struct btf_param *params = btf_params(ctx->proto);
	const struct btf_type *t;

	for (*k = 0; *k < i; (*k)++) {
		t = tkp_btf_skip(ctx->btf, params[*k].type);
		if (t && btf_type_is_struct(t) && t->size > sizeof(long))
			return 1;
	}
	return TKP_ARGS_IN_REGS && i >= TKP_ARGS_IN_REGS ? 2 : 0;
}

static int tkp_btf_slot(struct tkp_argctx *c, const char *at,
			const struct tkp_btf *ctx, unsigned int i)
{
	const struct btf_param *params = btf_params(ctx->proto);
	unsigned int k;

	switch (tkp_btf_slot_why(ctx, i, &k)) {
	case 1:
		return tkp_btf_fail(c, at,
				    "%s takes %s by value in more than a register: the arguments after it are not where BTF numbers them",
				    ctx->func,
				    btf_name_by_offset(ctx->btf,
						       params[k].name_off));
	case 2:
		return tkp_btf_fail(c, at,
				    "Argument %u of %s is on the stack, which this architecture's $argN does not read",
				    i + 1, ctx->func);
	}
	return 0;
}

/* How C would write the type @id, in short: "struct file *", "size_t". */
static void tkp_btf_tname(const struct btf *btf, u32 id, char *buf,
			  size_t size)
{
	const struct btf_type *t;
	const char *kind = "", *name = "void";
	char stars[8] = "";
	int n = 0, i;

	for (i = 0; i < 16; i++) {
		t = btf_type_by_id(btf, id);
		if (tkp_btf_is_void(t))
			break;
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_PTR:
			if (n < sizeof(stars) - 1)
				stars[n++] = '*';
			id = t->type;
			continue;
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			continue;
		case BTF_KIND_STRUCT:
			kind = "struct ";
			break;
		case BTF_KIND_UNION:
			kind = "union ";
			break;
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			kind = "enum ";
			break;
		case BTF_KIND_ARRAY:
			kind = "an array of ";
			id = btf_array(t)->type;
			continue;
		case BTF_KIND_FUNC_PROTO:
			name = "a function";
			goto out;
		}
		name = btf_name_by_offset(btf, t->name_off);
		if (!*name)
			name = "(anonymous)";
		break;
	}
out:
	snprintf(buf, size, "%s%s%s%s", kind, name, n ? " " : "", stars);
}

/* "vfs_read(file, buf, count, pos)" */
static void tkp_btf_signature(const struct tkp_btf *ctx, char *buf,
			      size_t size)
{
	const struct btf_param *p = btf_params(ctx->proto);
	struct tkp_list l = { .buf = buf, .size = size };
	unsigned int i, n = btf_type_vlen(ctx->proto);
	const char *name;

	tkp_list_add(&l, "", ctx->func);
	tkp_list_add(&l, "", "(");
	for (i = 0; i < n; i++) {
		name = btf_name_by_offset(ctx->btf, p[i].name_off);
		if (!p[i].type && !*name)
			name = "...";
		tkp_list_add(&l, i ? ", " : "", *name ? name : "?");
	}
	l.more = false;
	tkp_list_add(&l, "", ")");
}

/* The members of @t, those of anonymous ones among them as C sees them. */
static void tkp_btf_members(const struct btf *btf, const struct btf_type *t,
			    struct tkp_list *l, int depth)
{
	const struct btf_member *m;
	const struct btf_type *mt;
	const char *name;
	u32 i;

	for_each_member(i, t, m) {
		name = btf_name_by_offset(btf, m->name_off);
		mt = tkp_btf_skip(btf, m->type);
		if (!*name && depth < 8 && mt && btf_type_is_struct(mt))
			tkp_btf_members(btf, mt, l, depth + 1);
		else if (*name)
			tkp_list_add(l, l->len ? ", " : "", name);
	}
}

/*
 * The member @name of the struct or union @t, looked for in anonymous
 * members too, as C does: its bit offset in @t and bitfield width (0 if
 * it is not one).
 */
static const struct btf_member *tkp_btf_member(const struct btf *btf,
					       const struct btf_type *t,
					       const char *name, size_t len,
					       u32 *bits, u32 *width, int depth)
{
	const struct btf_member *m, *found;
	const struct btf_type *mt;
	const char *mname;
	u32 i;

	for_each_member(i, t, m) {
		mname = btf_name_by_offset(btf, m->name_off);
		if (!*mname) {
			mt = tkp_btf_skip(btf, m->type);
			if (depth >= 8 || !mt || !btf_type_is_struct(mt))
				continue;
			found = tkp_btf_member(btf, mt, name, len, bits,
					       width, depth + 1);
			if (found) {
				*bits += __btf_member_bit_offset(t, m);
				return found;
			}
			continue;
		}
		if (strlen(mname) == len && !strncmp(mname, name, len)) {
			*bits = __btf_member_bit_offset(t, m);
			*width = __btf_member_bitfield_size(t, m);
			return m;
		}
	}
	return NULL;
}

/*
 * Find the function's BTF, once per line.  @at is where the caret goes
 * if there is none, or NULL to look quietly ($argN and $retval then stay
 * as they always were: untyped).
 */
static int tkp_btf_func(struct tkp_argctx *c, const char *at)
{
	struct tkp_spec *spec = c->spec;
	struct tkp_btf *ctx = spec->btf;
	const struct btf_type *t;
	struct btf *vmlinux;
	const char *name;
	s32 id;

	if (!ctx) {
		ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
		if (!ctx)
			return -ENOMEM;
		spec->btf = ctx;
	}
	if (ctx->state > 0)
		return 0;
	/*
	 * Arguments are where the callee just got them: not elsewhere.  A
	 * return probe's place is an entry, however written (the parser
	 * made sure).
	 */
	if (!spec->symbol[0] || (spec->offset && !spec->is_return) ||
	    strpbrk(spec->symbol, "*?["))
		return at ? tkp_btf_err(c, at, TKP_ERR_NOFENTRY_ARGS) : -ENOENT;

	name = strchr(spec->symbol, ':');
	name = name ? name + 1 : spec->symbol;
	if (!ctx->state) {
		vmlinux = bpf_get_btf_vmlinux();
		if (IS_ERR_OR_NULL(vmlinux)) {
			ctx->state = -ENODEV;
		} else if (strchr(name, '.')) {
			/* A compiler's copy may have dropped arguments. */
			ctx->state = -EINVAL;
		} else {
			ctx->state = -ENOENT;
			id = bpf_find_btf_id(name, BTF_KIND_FUNC, &ctx->btf);
			if (id > 0) {
				t = btf_type_by_id(ctx->btf, id);
				ctx->proto = t ? btf_type_by_id(ctx->btf,
								t->type) : NULL;
				if (ctx->proto &&
				    btf_type_is_func_proto(ctx->proto)) {
					ctx->func = name;
					ctx->state = 1;
					return 0;
				}
				btf_put(ctx->btf);
				ctx->btf = NULL;
			}
		}
	}
	if (!at)
		return ctx->state;
	if (ctx->state == -ENODEV)
		return tkp_btf_err(c, at, TKP_ERR_NO_BTF);
	if (ctx->state == -EINVAL)
		return tkp_btf_fail(c, at,
				    "%s is a compiler's copy of a function, whose arguments BTF does not describe: name them as $argN or registers",
				    name);
	return tkp_btf_fail(c, at,
			    "No function %s in BTF (vmlinux or a loaded module): name its arguments as $argN or registers",
			    name);
}

/*
 * One more dereference for "->": onto the address this_cpu_ptr() left
 * as the value (see struct tkp_arg), or a new one.
 */
static int tkp_btf_deref(struct tkp_argctx *c, struct tkp_arg *a,
			 const char *at)
{
	if (a->addr_only) {
		a->addr_only = false;
		return 0;
	}
	if (a->ndrf >= TKP_MAX_DEREF)
		return tkp_btf_err(c, at, TKP_ERR_TOO_MANY_OPS);
	a->drf[a->ndrf++] = 0;
	return 0;
}

/*
 * Follow "->member" and ".member" from @p to @end, from a value of type
 * @id held by @a (the register, or the last dereference's address):
 * "->" dereferences the pointer the value is, "." moves within the
 * struct the value is.  @what (@wlen) names the value, for messages.
 * What it ends at is left for tkp_btf_type().
 * With @cast, from a value taken as a pointer to the struct or union @id,
 * whose start is @bias bytes before where it points (a typecast).
 */
static int tkp_btf_walk_from(struct tkp_argctx *c, struct tkp_arg *a,
			     const struct btf *btf, u32 id, bool cast,
			     u32 bias, const char *p, const char *end,
			     const char *what, int wlen)
{
	struct tkp_btf *ctx = c->spec->btf;
	const struct btf_member *m;
	const struct btf_type *t, *st;
	char tname[64], list[TKP_BTF_MSG_LEN - 80];
	struct tkp_list l = { .buf = list, .size = sizeof(list) };
	u32 bits, width = 0, cbits, byte, sid = 0;
	const char *name, *op;
	bool arrow;
	int ret;

	ctx->bf_width = 0;
	while (p < end) {
		op = p;
		if (width)
			return tkp_btf_fail(c, op,
					    "'%.*s' is a bitfield: no member is after it",
					    wlen, what);
		if (end - p >= 2 && p[0] == '-' && p[1] == '>') {
			arrow = true;
			p += 2;
		} else if (*p == '.') {
			arrow = false;
			p++;
		} else {
			return tkp_btf_fail(c, p,
					    "Expected '->' or '.' and a member name after '%.*s'",
					    wlen, what);
		}
		name = p;
		while (p < end && (isalnum(*p) || *p == '_'))
			p++;
		if (p == name || isdigit(*name))
			return tkp_btf_fail(c, name,
					    "A member name must follow '%s'",
					    arrow ? "->" : ".");

		t = tkp_btf_skip(btf, id);
		tkp_btf_tname(btf, id, tname, sizeof(tname));
		if (cast) {
			/* The parser saw to the "->". */
			sid = id;
			st = t;
			ret = tkp_btf_deref(c, a, op);
			if (ret)
				return ret;
			a->drf[a->ndrf - 1] -= bias;
			cast = false;
		} else if (arrow) {
			if (tkp_btf_is_void(t) || !btf_type_is_ptr(t))
				return tkp_btf_fail(c, op,
						    "'%.*s' is %s, not a pointer: '->' needs one ('.' reaches a member in place)",
						    wlen, what, tname);
			sid = t->type;
			st = tkp_btf_skip(btf, sid);
			if (tkp_btf_is_void(st) || !btf_type_is_struct(st))
				return tkp_btf_fail(c, op,
						    "'%.*s' is %s, not a pointer to a struct or union: '->' needs one (+OFFS(...):TYPE reads any address)",
						    wlen, what, tname);
			ret = tkp_btf_deref(c, a, op);
			if (ret)
				return ret;
		} else {
			st = t;
			if (tkp_btf_is_void(st) || !btf_type_is_struct(st))
				return tkp_btf_fail(c, op,
						    "'%.*s' is %s, not a struct or union: '.' needs one%s",
						    wlen, what, tname,
						    !tkp_btf_is_void(st) &&
						    btf_type_is_ptr(st) ?
						    " (through a pointer: '->')" : "");
			/* Only a member is in memory; an argument is not. */
			if (!a->ndrf)
				return tkp_btf_fail(c, op,
						    "'%.*s' is %s, passed by value: its members are not reachable",
						    wlen, what, tname);
		}

		m = tkp_btf_member(btf, st, name, p - name, &bits, &width, 0);
		if (!m) {
			tkp_btf_members(btf, st, &l, 0);
			/* The struct's own name, not its pointer's. */
			if (arrow)
				tkp_btf_tname(btf, sid, tname, sizeof(tname));
			return tkp_btf_fail(c, name, "No member '%.*s' in %s: %s",
					    (int)(p - name), name, tname, list);
		}
		id = m->type;
		what = name;
		wlen = p - name;
		if (!width) {
			a->drf[a->ndrf - 1] += bits / 8;
			continue;
		}
		/*
		 * A bitfield is read in a container the size of its type
		 * (or of a u64 if it straddles that), and shifted out.
		 */
		t = tkp_btf_skip(btf, id);
		cbits = t && t->size <= 8 ? t->size * 8 : 64;
		if (bits % cbits + width > cbits)
			cbits = 64;
		if (bits % cbits + width > cbits)
			return tkp_btf_fail(c, name,
					    "'%.*s' is a bitfield across 8-byte words: read it with +OFFS(...) and a type",
					    wlen, what);
		byte = bits / cbits * (cbits / 8);
		a->drf[a->ndrf - 1] += byte;
		ctx->bf_width = width;
		ctx->bf_off = bits - byte * 8;
		ctx->bf_size = cbits / 8;
	}
	ctx->arg = a;
	ctx->tbtf = btf;
	ctx->type_id = id;
	ctx->ndrf = a->ndrf;
	ctx->what = what;
	ctx->what_len = wlen;
	return 0;
}

static int tkp_btf_walk(struct tkp_argctx *c, struct tkp_arg *a,
			const struct btf *btf, u32 id, const char *p,
			const char *end, const char *what, int wlen)
{
	return tkp_btf_walk_from(c, a, btf, id, false, 0, p, end, what, wlen);
}

/*
 * The BTF to find a struct by name in: the function's (a module's reaches
 * vmlinux's too), or vmlinux's where the place is not a function's entry.
 */
static int tkp_btf_types(struct tkp_argctx *c, const char *at,
			 const struct btf **btf)
{
	struct btf *vmlinux;
	int ret;

	ret = tkp_btf_func(c, NULL);
	if (ret == -ENOMEM)
		return ret;
	if (!ret) {
		*btf = c->spec->btf->btf;
		return 0;
	}
	/* Built in and never freed: no reference is needed. */
	vmlinux = bpf_get_btf_vmlinux();
	if (IS_ERR_OR_NULL(vmlinux))
		return tkp_btf_err(c, at, TKP_ERR_NO_BTF);
	*btf = vmlinux;
	return 0;
}

/**
 * tkp_btf_cast - a typecast: members from a value taken as a struct pointer
 * @c: the word, for error positions
 * @a: the argument, holding the cast's target when called
 * @at: where a refusal to find the struct points
 * @sname: the struct (or union) name, "file"
 * @slen: its length
 * @field: for "(STRUCT,FIELD)", the member (maybe "a.b") the target points
 *	   at, or NULL
 * @flen: its length
 * @p: the members, from the first "->"
 * @end: their end
 *
 * Return: 0, -EINVAL with the error in @c's spec, or -ENOMEM.
 */
int tkp_btf_cast(struct tkp_argctx *c, struct tkp_arg *a, const char *at,
		 const char *sname, size_t slen, const char *field,
		 size_t flen, const char *p, const char *end)
{
	const char *f = field, *fend = field + flen, *name;
	const struct btf_member *m;
	const struct btf_type *st;
	const struct btf *btf;
	char sbuf[TKP_MAX_ARG_TEXT + 1];
	u32 bits, width, bias = 0;
	s32 id;
	int ret;

	ret = tkp_btf_types(c, at, &btf);
	if (ret)
		return ret;
	if (slen >= sizeof(sbuf))
		return tkp_btf_fail(c, at, "No struct or union '%.*s' in BTF",
				    (int)slen, sname);
	memcpy(sbuf, sname, slen);
	sbuf[slen] = '\0';
	id = btf_find_by_name_kind(btf, sbuf, BTF_KIND_STRUCT);
	if (id < 0)
		id = btf_find_by_name_kind(btf, sbuf, BTF_KIND_UNION);
	if (id < 0)
		return tkp_btf_fail(c, at, "No struct or union '%s' in BTF",
				    sbuf);

	/* container_of(): FIELD's offset in the struct, through "." too. */
	if (field && !flen)
		return tkp_btf_fail(c, field,
				    "A member of struct %s must follow ','", sbuf);
	st = btf_type_by_id(btf, id);
	while (field && f < fend) {
		name = f;
		while (f < fend && *f != '.')
			f++;
		width = 0;
		m = NULL;
		if (f > name && st && btf_type_is_struct(st))
			m = tkp_btf_member(btf, st, name, f - name, &bits,
					   &width, 0);
		if (!m)
			return tkp_btf_fail(c, name,
					    "No member '%.*s' in struct %s%s",
					    (int)(f - name), name, sbuf,
					    name == field ? "" : " at that path");
		if (width || bits % 8)
			return tkp_btf_fail(c, name,
					    "'%.*s' is a bitfield: a typecast's field must start on a byte",
					    (int)(f - name), name);
		bias += bits / 8;
		st = tkp_btf_skip(btf, m->type);
		if (f < fend && ++f == fend)
			return tkp_btf_fail(c, f, "A member name must follow '.'");
	}
	return tkp_btf_walk_from(c, a, btf, id, true, bias, p, end, sname,
				 slen);
}

/**
 * tkp_btf_percpu - carry a BTF type through this_cpu_ptr() or _read()
 * @c: the word
 * @a: the argument, its per-CPU access added
 * @read: this_cpu_read(): the type is what the pointer points at
 * @was: the number of dereferences before it was added
 *
 * A per-CPU pointer typed by BTF ("int __percpu *counter") keeps its
 * type, and what this_cpu_read() reads has the pointed-at type; anything
 * else has the default type.
 */
void tkp_btf_percpu(struct tkp_argctx *c, struct tkp_arg *a, bool read,
		    unsigned int was)
{
	struct tkp_btf *ctx = c->spec->btf;
	const struct btf_type *t, *pt;

	if (!ctx || ctx->arg != a)
		return;
	t = tkp_btf_skip(ctx->tbtf, ctx->type_id);
	if (ctx->ndrf != was || ctx->bf_width || tkp_btf_is_void(t) ||
	    !btf_type_is_ptr(t)) {
		ctx->arg = NULL;
		return;
	}
	if (read) {
		/* What BTF cannot type as a value keeps the default type. */
		pt = tkp_btf_skip(ctx->tbtf, t->type);
		if (!tkp_btf_is_scalar(pt)) {
			ctx->arg = NULL;
			return;
		}
		ctx->type_id = t->type;
	}
	ctx->ndrf = a->ndrf;
}

/**
 * tkp_btf_forget - the argument's value is no longer what BTF typed
 * @c: the word
 * @a: the argument
 */
void tkp_btf_forget(struct tkp_argctx *c, struct tkp_arg *a)
{
	if (c->spec->btf && c->spec->btf->arg == a)
		c->spec->btf->arg = NULL;
}

/**
 * tkp_btf_fetch - an argument by name, and members through it
 * @c: the word, for error positions
 * @b: the name, "file" or "file->f_path.dentry"
 * @len: its length (to the type, if one is given)
 * @a: the argument: a $argN with dereferences, when this succeeds
 *
 * Return: 0, -EINVAL with the error in @c's spec, or -ENOMEM.
 */
int tkp_btf_fetch(struct tkp_argctx *c, const char *b, size_t len,
		  struct tkp_arg *a)
{
	const struct btf_param *params;
	const char *end = b + len, *p = b;
	struct tkp_btf *ctx;
	char sig[TKP_BTF_MSG_LEN - 40];
	unsigned int i, n;
	const char *name;
	int ret;

	ret = tkp_btf_func(c, b);
	if (ret)
		return ret;
	ctx = c->spec->btf;
	while (p < end && (isalnum(*p) || *p == '_'))
		p++;
	params = btf_params(ctx->proto);
	n = btf_type_vlen(ctx->proto);
	for (i = 0; i < n; i++) {
		name = btf_name_by_offset(ctx->btf, params[i].name_off);
		if (strlen(name) == p - b && !strncmp(name, b, p - b))
			break;
	}
	if (i == n) {
		tkp_btf_signature(ctx, sig, sizeof(sig));
		return tkp_btf_fail(c, b, "No argument '%.*s' in %s",
				    (int)(p - b), b, sig);
	}
	ret = tkp_btf_slot(c, b, ctx, i);
	if (ret)
		return ret;
	a->src = TKP_SRC_ARG;
	a->param = i;
	a->at_entry = c->spec->is_return;
	return tkp_btf_walk(c, a, ctx->btf, params[i].type, p, end, b, p - b);
}

/**
 * tkp_btf_var - type $argN or $retval, and follow "->" from it
 * @c: the word, for error positions
 * @b: the variable, "$arg1" or "$retval->name"
 * @len: its length
 * @arrow: where "->" starts in it, or NULL
 * @a: the argument, its source already set
 *
 * Where BTF does not know the function, $argN and $retval stay untyped,
 * as they always were; "->" needs it.
 *
 * Return: 0, -EINVAL with the error in @c's spec, or -ENOMEM.
 */
int tkp_btf_var(struct tkp_argctx *c, const char *b, size_t len,
		const char *arrow, struct tkp_arg *a)
{
	const char *end = b + len, *vend = arrow ?: end;
	const struct btf_param *params;
	char sig[TKP_BTF_MSG_LEN - 40];
	struct tkp_btf *ctx;
	unsigned int n, k;
	bool varargs;
	int ret;
	u32 id;

	/* $current is the task's struct task_struct, at any place. */
	if (a->src == TKP_SRC_CURRENT)
		return arrow ? tkp_btf_cast(c, a, b, "task_struct", 11, NULL,
					    0, arrow, end) : 0;
	if (a->src != TKP_SRC_ARG && a->src != TKP_SRC_RETVAL) {
		if (!arrow)
			return 0;
		return tkp_btf_fail(c, arrow,
				    "'->' follows an argument's name, $argN, $retval or $current");
	}
	ret = tkp_btf_func(c, arrow ? b : NULL);
	if (ret == -ENOMEM || (ret && arrow))
		return ret;
	if (ret)
		return 0;

	ctx = c->spec->btf;
	if (a->src == TKP_SRC_RETVAL) {
		id = ctx->proto->type;
		if (!id)
			return tkp_btf_fail(c, b, "%s returns void: it has no $retval",
					    ctx->func);
	} else {
		params = btf_params(ctx->proto);
		n = btf_type_vlen(ctx->proto);
		varargs = n && !params[n - 1].type && !params[n - 1].name_off;
		n -= varargs;
		/*
		 * $argN is the N-th register as ever; BTF types it if it
		 * can, not past a wide struct passed by value, which shifts
		 * the registers.
		 */
		if (!arrow && tkp_btf_slot_why(ctx, min_t(unsigned int,
							  a->param, n), &k))
			return 0;
		if (a->param >= n) {
			/* What "..." passes has no type. */
			if (varargs && !arrow)
				return 0;
			tkp_btf_signature(ctx, sig, sizeof(sig));
			return tkp_btf_fail(c, b, "%s has %u argument%s: %s",
					    ctx->func, n, n == 1 ? "" : "s",
					    sig);
		}
		ret = tkp_btf_slot(c, b, ctx, a->param);
		if (ret)
			return ret;
		id = params[a->param].type;
	}
	return tkp_btf_walk(c, a, ctx->btf, id, vend, end, b, vend - b);
}

static void tkp_btf_set(struct tkp_arg *a, enum tkp_type_id id,
			unsigned int size)
{
	a->type = id;
	a->kind = tkp_types[id].kind;
	a->size = size ?: tkp_types[id].size;
}

/* An integer, enum or pointer of @t's width and sign; false if not one. */
static bool tkp_btf_scalar(const struct btf *btf, const struct btf_type *t,
			   struct tkp_arg *a)
{
	if (!tkp_btf_is_scalar(t))
		return false;
	if (btf_type_is_ptr(t)) {
		tkp_btf_set(a, TKP_T_X, sizeof(long));
		return true;
	}
	if (btf_is_any_enum(t)) {
		tkp_btf_set(a, btf_type_kflag(t) ? TKP_T_S : TKP_T_U, t->size);
		return true;
	}
	if (btf_int_encoding(t) & BTF_INT_BOOL)
		tkp_btf_set(a, TKP_T_U, t->size);
	else if (!strcmp(btf_name_by_offset(btf, t->name_off), "char"))
		tkp_btf_set(a, TKP_T_CHAR, 0);
	else
		tkp_btf_set(a, btf_int_encoding(t) & BTF_INT_SIGNED ?
			       TKP_T_S : TKP_T_U, t->size);
	return true;
}

/**
 * tkp_btf_type - the type of a name, member, $argN or $retval, from BTF
 * @c: the word, for error positions
 * @a: the argument, parsed, with its default type
 * @type: the type written after ':', or NULL
 *
 * Given no type, the argument gets BTF's; given ":string" or ":ustring",
 * a char pointer gets the dereference that reads the string, and
 * anything but a char pointer or array is refused.  Other types written
 * are the user's to choose.
 *
 * Return: 0, or -EINVAL with the error in @c's spec.
 */
int tkp_btf_type(struct tkp_argctx *c, struct tkp_arg *a, const char *type)
{
	struct tkp_btf *ctx = c->spec->btf;
	char tname[64], list[TKP_BTF_MSG_LEN - 120];
	struct tkp_list l = { .buf = list, .size = sizeof(list) };
	const struct btf_type *t, *elem = NULL;
	const struct btf *btf;
	size_t tlen;

	if (!ctx || ctx->arg != a)
		return 0;
	ctx->arg = NULL;
	/* Dereferenced further ("+8(file)"): what is there is unknown. */
	if (a->ndrf != ctx->ndrf)
		return 0;
	btf = ctx->tbtf;
	t = tkp_btf_skip(btf, ctx->type_id);
	if (!tkp_btf_is_void(t) && btf_is_array(t))
		elem = tkp_btf_skip(btf, btf_array(t)->type);
	tkp_btf_tname(btf, ctx->type_id, tname, sizeof(tname));

	if (type) {
		tlen = strcspn(type, "[");
		if (!(tlen == 6 && !strncmp(type, "string", 6)) &&
		    !(tlen == 7 && !strncmp(type, "ustring", 7))) {
			/* A type for a bitfield would read its container. */
			if (ctx->bf_width)
				return tkp_btf_fail(c, type,
						    "'%.*s' is a bitfield: leave its type to BTF",
						    ctx->what_len, ctx->what);
			return 0;
		}
		if (type[tlen])
			return tkp_btf_fail(c, type,
					    "'%.*s' is %s: string arrays are not taken from BTF",
					    ctx->what_len, ctx->what, tname);
		if (ctx->bf_width)
			goto not_string;
		if (!tkp_btf_is_void(t) && btf_type_is_ptr(t) &&
		    tkp_btf_is_char(btf, tkp_btf_skip(btf, t->type))) {
			if (a->ndrf >= TKP_MAX_DEREF)
				return tkp_btf_err(c, type,
						   TKP_ERR_TOO_MANY_OPS);
			a->drf[a->ndrf++] = 0;
			return 0;
		}
		/* An array is where the struct is: kernel memory. */
		if (elem && tkp_btf_is_char(btf, elem))
			return tlen == 6 ? 0 :
			       tkp_btf_fail(c, type,
					    "'%.*s' is %s, in kernel memory: string, not ustring",
					    ctx->what_len, ctx->what, tname);
not_string:
		return tkp_btf_fail(c, type,
				    "'%.*s' is %s: a string needs char * or char[]",
				    ctx->what_len, ctx->what, tname);
	}

	if (ctx->bf_width) {
		tkp_btf_set(a, TKP_T_BITFIELD, ctx->bf_size);
		a->bf_lshift = 64 - (ctx->bf_width + ctx->bf_off);
		a->bf_rshift = 64 - ctx->bf_width;
		return 0;
	}
	if (tkp_btf_scalar(btf, t, a))
		return 0;
	/* Arrays are in memory: only members are arrays. */
	if (elem && a->ndrf) {
		if (tkp_btf_is_text(btf, btf_array(t)->type)) {
			tkp_btf_set(a, TKP_T_STRING, 0);
			return 0;
		}
		if (btf_array(t)->nelems >= 1 &&
		    btf_array(t)->nelems <= TKP_MAX_ARRAY &&
		    tkp_btf_scalar(btf, elem, a)) {
			a->count = btf_array(t)->nelems;
			return 0;
		}
	}
	/*
	 * $argN and $retval untyped were x64 before BTF typed them: what BTF
	 * cannot type (a small struct by value, say) stays so.
	 */
	if (!a->ndrf && ctx->what[0] == '$')
		return 0;
	if (!tkp_btf_is_void(t) && btf_type_is_struct(t)) {
		tkp_btf_members(btf, t, &l, 0);
		return tkp_btf_fail(c, ctx->what,
				    "'%.*s' is %s: name a member (%s) or give a type",
				    ctx->what_len, ctx->what, tname, list);
	}
	return tkp_btf_fail(c, ctx->what, "'%.*s' is %s: give it a type",
			    ctx->what_len, ctx->what, tname);
}

/**
 * tkp_btf_star - find "$arg*" among the arguments
 * @spec: the line's spec
 * @argc: number of words
 * @argv: the words
 * @word: set to the word "$arg*" is, or 0
 *
 * Return: how many arguments the function has (0 without "$arg*"), or
 * -EINVAL with the error in @spec (a second "$arg*", a place that is not
 * a function's entry, no BTF for it), or -ENOMEM.
 */
int tkp_btf_star(struct tkp_spec *spec, int argc, const char **argv,
		 int *word)
{
	struct tkp_argctx c = { .spec = spec };
	const struct btf_param *params;
	unsigned int n;
	int i, ret;

	*word = 0;
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "$arg*"))
			continue;
		c.word = i;
		c.w = argv[i];
		if (*word)
			return tkp_btf_err(&c, argv[i], TKP_ERR_DOUBLE_ARGS);
		*word = i;
	}
	if (!*word)
		return 0;
	c.word = *word;
	c.w = argv[*word];
	ret = tkp_btf_func(&c, c.w);
	if (ret)
		return ret;
	params = btf_params(spec->btf->proto);
	n = btf_type_vlen(spec->btf->proto);
	/* Not the "..." of a variadic function. */
	if (n && !params[n - 1].type && !params[n - 1].name_off)
		n--;
	return n;
}

/**
 * tkp_btf_star_word - the word "$arg*" stands for as its argument @k
 * @spec: the line's spec, its function found by tkp_btf_star()
 * @k: which argument, from 0
 * @buf: room for a word made up, for an argument without a name
 * @size: its size
 *
 * Return: the argument's name (a word the parser takes as written), or
 * NULL past the last argument.
 */
const char *tkp_btf_star_word(struct tkp_spec *spec, int k, char *buf,
			      size_t size)
{
	const struct tkp_btf *ctx = spec->btf;
	const struct btf_param *params = btf_params(ctx->proto);
	unsigned int n = btf_type_vlen(ctx->proto);
	const char *name;

	if (n && !params[n - 1].type && !params[n - 1].name_off)
		n--;
	if (k >= n)
		return NULL;
	name = btf_name_by_offset(ctx->btf, params[k].name_off);
	if (*name)
		return name;
	snprintf(buf, size, "arg%d=$arg%d", k + 1, k + 1);
	return buf;
}

/**
 * tkp_btf_auto_name - the field name of an unnamed BTF argument
 * @w: the word, "file", "file->f_path.dentry:x64", "$retval->name"
 * @name: set to the last name in it: "file", "dentry", "name"
 * @size: room in @name
 *
 * Return: true if @w is a name or reaches a member and @name is set;
 * false for any other fetch (it keeps its "argN").
 */
bool tkp_btf_auto_name(const char *w, char *name, size_t size)
{
	size_t len = strcspn(w, ":");
	const char *end = w + len, *s = end;

	if (!len || memchr(w, '(', len))
		return false;
	if (!isalpha(w[0]) && w[0] != '_' &&
	    !(w[0] == '$' && strnstr(w, "->", len)))
		return false;
	while (s > w && (isalnum(s[-1]) || s[-1] == '_'))
		s--;
	if (s == end || end - s >= size || isdigit(*s))
		return false;
	if (s != w && s[-1] != '.' && s[-1] != '>')
		return false;
	memcpy(name, s, end - s);
	name[end - s] = '\0';
	return true;
}

/**
 * tkp_btf_release - drop what the parse of a line held of BTF
 * @spec: the line's spec
 */
void tkp_btf_release(struct tkp_spec *spec)
{
	if (!spec->btf)
		return;
	if (spec->btf->btf)
		btf_put(spec->btf->btf);
	kfree(spec->btf);
	spec->btf = NULL;
}
