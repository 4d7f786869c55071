#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the tracefs README's kprobe grammar and the parser agree
#
# Tools and test suites learn what kprobe_events takes from the README
# file (perf probe and ftracetest grep it), so it must list exactly what
# the parser accepts.  From the README's "accepts:" section this test
# reads the fetch types ("type:"), the fetch arguments ("fetcharg:"),
# what return probes take ("kernel return probes support:"), BTF
# argument names ("<argname>"), the places ("place:", "place
# (kretprobe):", "pattern:") and the argument form ("args:"), and checks
# each against kprobe_events: accepted, and for types and fetch
# arguments a record with the value's expected form.  Every type a
# kernel has had that the README does not list must be refused, and so
# must a wildcard place without "pattern:", BTF names and $arg* without
# "<argname>", and entry arguments in a return probe without "kernel
# return probes support:".  An item the test does not know fails it:
# teach the test the new item.  Every disagreement is listed before the
# test fails.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

[ -r "$T/README" ] || skip "no $T/README"
# The probe-definition part of the README: "accepts:" up to "efield:".
sed -n '/accepts: event-definitions/,/efield:/p' "$T/README" > /tmp/kpe_readme
[ -s /tmp/kpe_readme ] || fail "no 'accepts: event-definitions' section in README"
dump /tmp/kpe_readme

# items LABEL: the comma-separated items of the README line "LABEL: ..."
# and its continuation lines (indented further than any label), one per
# line, into /tmp/kpe_items; empty if there is no such line.
items() {
	awk -v label="$1: " '
		on && /^\t {8,}[^ ]/ { print; next }
		on { exit }
		{ s = $0; sub(/^[ \t]*/, "", s) }
		index(s, label) == 1 { print substr(s, length(label) + 1); on = 1 }
	' /tmp/kpe_readme |
		# items are split at commas outside brackets and parentheses
		awk '{ n = length($0); d = 0; s = ""
			for (i = 1; i <= n; i++) {
				c = substr($0, i, 1)
				if (c == "[" || c == "(") d++
				else if (c == "]" || c == ")") d--
				if (c == "," && !d) { print s; s = "" } else s = s c
			}
			print s }' |
		sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' > /tmp/kpe_items
}

# has PATTERN: the section has a line containing the fixed string
has() {
	grep -qF -- "$1" /tmp/kpe_readme
}

BAD=
# bad MSG: one disagreement (the test goes on, and fails at the end)
bad() {
	echo "# MISMATCH: $*"
	BAD="$BAD$*$NL"
}

# try LINE: write LINE to kprobe_events, set OUT to the errno name (empty
# on success)
try() {
	OUT=$("$KPE_WRITE" -a "$T/kprobe_events" "$1")
}

# accepted WHAT LINE: LINE must be accepted (after a reset); true if so
accepted() {
	reset >/dev/null || fail "reset failed"
	try "$2"
	[ -z "$OUT" ] && return 0
	bad "$1: README lists it, '$2' refused ($OUT)"
	return 1
}

# refused WHAT LINE: LINE must be refused, with an error_log entry
refused() {
	reset >/dev/null || fail "reset failed"
	try "$2"
	if [ -z "$OUT" ]; then
		bad "$1: README does not list it, '$2' accepted"
	elif [ -z "$(cat "$T/error_log")" ]; then
		bad "$1: '$2' refused ($OUT) without an error_log entry"
	else
		log "$1: not listed, refused ($OUT): '$2'"
	fi
}

# record WHAT LINE FORM: LINE (event kpe_rg/t, one argument f) must be
# accepted and, fired, record f with a value matching the extended
# regular expression FORM (the whole value) in one record at least (the
# trigger's other reads and opens record other values)
record() {
	accepted "$1" "$2" || return 0
	fire kpe_rg/t
	grep -F ' t: (' "$T/trace" | sed 's/^.* f=//' > /tmp/kpe_vals
	if [ ! -s /tmp/kpe_vals ]; then
		bad "$1: '$2' accepted, no record"
	elif ! grep -qE "^($3)\$" /tmp/kpe_vals; then
		bad "$1: '$2' recorded f=$(head -n1 /tmp/kpe_vals), not /$3/"
	else
		log "$1: '$2' -> f=$(grep -m1 -E "^($3)\$" /tmp/kpe_vals)"
	fi
}

A1=$KPE_ARG1_REG A2=$KPE_ARG2_REG A3=$KPE_ARG3_REG

# --- types -----------------------------------------------------------
# For each type a kernel has had: the probe that fetches it and the form
# of the value.  vfs_read()'s third argument is the count (an integer);
# getname_flags() returns a struct filename whose first member points to
# the kernel's copy of the path the trigger opens (/proc/version);
# do_sys_openat2()'s second argument is that path in user memory;
# vfs_read()'s first argument is the struct file of /proc/version, and
# vfs_open()'s first a struct path, whose second member is the dentry.
PATHSTR='"/proc/version"'
probe_of() { # TYPE
	case $1 in
	[us]8 | [us]16 | [us]32 | [us]64 | x8 | x16 | x32 | x64 | b4@0/32)
		echo "p:kpe_rg/t vfs_read f=$A3:$1" ;;
	char | string) echo "r:kpe_rg/t getname_flags f=+0(+0(\$retval)):$1" ;;
	ustring) echo "p:kpe_rg/t do_sys_openat2 f=+0($A2):ustring" ;;
	symbol | symstr) echo "p:kpe_rg/t vfs_read f=$KPE_RA_ARG:$1" ;;
	%pD) echo "p:kpe_rg/t vfs_read f=$A1:%pD" ;;
	%pd) echo "p:kpe_rg/t vfs_open f=+8($A1):%pd" ;;
	esac
}
form_of() { # TYPE
	case $1 in
	char) echo "'/'" ;;
	string | ustring) echo "$PATHSTR" ;;
	symbol) echo '[A-Za-z_.][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+' ;;
	symstr) echo '"[A-Za-z_.][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+"' ;;
	%pD | %pd) echo '"version"' ;;
	u* | b*) echo '[0-9]+' ;;
	s*) echo '-?[0-9]+' ;;
	x*) echo '0x[0-9a-f]+' ;;
	esac
}
ALL_TYPES="u8 u16 u32 u64 s8 s16 s32 s64 x8 x16 x32 x64 char string ustring symbol symstr %pd %pD"

listed=
arrays=
items type
while read -r it; do
	case $it in
	[usx]8/16/32/64) p=${it%%8/*}; listed="$listed ${p}8 ${p}16 ${p}32 ${p}64" ;;
	char | string | ustring | symbol | symstr) listed="$listed $it" ;;
	%pd/%pD) listed="$listed %pd %pD" ;;
	'b<bit-width>@<bit-offset>/<container-size>') listed="$listed b4@0/32" ;;
	'<type>\[<array-size>\]') arrays=1 ;;
	*) bad "type: the test does not know the README's '$it'" ;;
	esac
done < /tmp/kpe_items
[ -n "$listed" ] || fail "README lists no types"
log "types listed:$listed${arrays:+ and arrays}"

for ty in $listed; do
	record "type $ty" "$(probe_of "$ty")" "$(form_of "$ty")"
done
for ty in $ALL_TYPES; do
	case " $listed " in *" $ty "*) continue ;; esac
	refused "type $ty" "$(probe_of "$ty")"
done
# Never a type anywhere.
for ty in u u128 int x s b4@4 %ps; do
	refused "type $ty" "p:kpe_rg/t vfs_read f=$A3:$ty"
done

# Arrays, of a listed integer type and of the listed string types.
if [ -n "$arrays" ]; then
	record "array u8[4]" "p:kpe_rg/t vfs_read f=+0($A1):u8[4]" '\{[0-9]+(,[0-9]+){3}\}'
	case " $listed " in *" char "*)
		record "array char[5]" "r:kpe_rg/t getname_flags f=+0(+0(\$retval)):char[5]" \
			"\\{'/','p','r','o','c'\\}" ;;
	esac
	# A string array reads the pointers at the address; struct
	# filename's first is the path.
	case " $listed " in *" string "*)
		record "array string[1]" "r:kpe_rg/t getname_flags f=+0(\$retval):string[1]" \
			"\\{$PATHSTR\\}" ;;
	esac
else
	refused "arrays" "p:kpe_rg/t vfs_read f=+0($A1):u8[4]"
fi

# --- fetch arguments -------------------------------------------------
jiffies=$(awk '$3 == "jiffies" { print $1; exit }' /proc/kallsyms)
items fetcharg
while read -r it; do
	case $it in
	'(%<register>|$<efield>)')
		# $<efield> is for event probes: the register part here.
		record "fetcharg %<register>" "p:kpe_rg/t vfs_read f=$A3" '0x[0-9a-f]+' ;;
	'@<address>')
		case $jiffies in
		*[!0]*) record "fetcharg @<address>" "p:kpe_rg/t vfs_read f=@0x$jiffies:u64" '[0-9]+' ;;
		*) log "kallsyms addresses hidden: @<address> not checked" ;;
		esac ;;
	'@<symbol>[+|-<offset>]')
		record "fetcharg @<symbol>" "p:kpe_rg/t vfs_read f=@jiffies:u64" '[0-9]+'
		record "fetcharg @<symbol>+<offset>" "p:kpe_rg/t vfs_read f=@jiffies+8" '0x[0-9a-f]+'
		record "fetcharg @<symbol>-<offset>" "p:kpe_rg/t vfs_read f=@jiffies-8" '0x[0-9a-f]+' ;;
	'$stack<index>') record "fetcharg \$stack<index>" "p:kpe_rg/t vfs_read f=\$stack1" '0x[0-9a-f]+' ;;
	'$stack') record "fetcharg \$stack" "p:kpe_rg/t vfs_read f=\$stack" '0x[0-9a-f]+' ;;
	# (x64 by default, or the function's return type through BTF)
	'$retval') record "fetcharg \$retval" "r:kpe_rg/t vfs_read f=\$retval" '0x[0-9a-f]+|-?[0-9]+' ;;
	'$comm') record "fetcharg \$comm" "p:kpe_rg/t vfs_read f=\$comm" '"[^"]+"' ;;
	'$arg<N>') record "fetcharg \$arg<N>" "p:kpe_rg/t do_sys_openat2 f=+0(\$arg2):ustring" "$PATHSTR" ;;
	'+|-[u]<offset>(<fetcharg>)')
		record "fetcharg +<offset>()" "r:kpe_rg/t getname_flags f=+0(+0(\$retval)):string" "$PATHSTR"
		record "fetcharg -<offset>()" "p:kpe_rg/t vfs_read f=-8($KPE_SP_REG)" '0x[0-9a-f]+'
		record "fetcharg +u<offset>()" "p:kpe_rg/t do_sys_openat2 f=+u0($A2):string" "$PATHSTR" ;;
	'\imm-value') record "fetcharg \\imm-value" "p:kpe_rg/t vfs_read f=\\42:u8" '42' ;;
	'\"imm-string"') record "fetcharg \\\"imm-string\"" "p:kpe_rg/t vfs_read f=\\\"kpe\"" '"kpe"' ;;
	'<argname>[->field[->field|.field...]]') ;;	# below
	'$current') record "fetcharg \$current" "p:kpe_rg/t vfs_read f=\$current" '0x[0-9a-f]+' ;;
	'[(structname[,field])]<argname>[->field[->field|.field...]]')
		record "fetcharg (structname)<argname>->field" "p:kpe_rg/t vfs_open f=(path)path->dentry:x64" '0x[0-9a-f]+'
		record "fetcharg (structname,field)<argname>->field" "p:kpe_rg/t vfs_open f=(path,dentry)path->mnt:x64" '0x[0-9a-f]+' ;;
	'[(structname[,field])](fetcharg)->field[->field|.field...]')
		record "fetcharg (structname)(fetcharg)->field" "p:kpe_rg/t vfs_open f=(path)($A1)->dentry:x64" '0x[0-9a-f]+' ;;
	'this_cpu_read(<fetcharg>)') record "fetcharg this_cpu_read()" "p:kpe_rg/t vfs_read f=this_cpu_read(@runqueues)" '0x[0-9a-f]+' ;;
	'this_cpu_ptr(<fetcharg>)') record "fetcharg this_cpu_ptr()" "p:kpe_rg/t vfs_read f=this_cpu_ptr(@runqueues)" '0x[0-9a-f]+' ;;
	*) bad "fetcharg: the test does not know the README's '$it'" ;;
	esac
done < /tmp/kpe_items

# What return probes take: "kernel return probes support:" (6.12's words:
# entry arguments at the return), or our "kernel return probes:".
label="kernel return probes support"
has "$label:" || label="kernel return probes"
items "$label"
while read -r it; do
	case $it in
	'$retval') record "return \$retval" "r:kpe_rg/t vfs_read f=\$retval:s64" '-?[0-9]+' ;;
	'$arg<N>') record "return \$arg<N>" "r:kpe_rg/t do_sys_openat2 f=+0(\$arg2):ustring" "$PATHSTR" ;;
	'$comm') record "return \$comm" "r:kpe_rg/t vfs_read f=\$comm" '"[^"]+"' ;;
	'$duration') record "return \$duration" "r:kpe_rg/t vfs_read f=\$duration" '[0-9]+' ;;
	*) bad "$label: the test does not know the README's '$it'" ;;
	esac
done < /tmp/kpe_items
if ! has "kernel return probes support:"; then
	refused "entry arguments at return" "r:kpe_rg/t do_sys_openat2 f=\$arg2"
fi

# BTF argument names, "$arg*" and "->field" (6.12's "<argname>" line)
if has "<argname>"; then
	record "fetcharg <argname>" "p:kpe_rg/t vfs_read f=count" '0x[0-9a-f]+|[0-9]+'
	accepted "fetcharg \$arg*" "p:kpe_rg/t vfs_read \$arg*"
	if has "<argname>[->field[->field|.field...]]"; then
		record "fetcharg <argname>->field" "p:kpe_rg/t vfs_open f=path->dentry:x64" '0x[0-9a-f]+'
	fi
else
	refused "fetcharg <argname>" "p:kpe_rg/t vfs_read f=count"
	refused "fetcharg \$arg*" "p:kpe_rg/t vfs_read \$arg*"
fi

# "args: <name>=fetcharg[:type]"
if has "args: <name>=fetcharg[:type]"; then
	record "args <name>=fetcharg:type" "p:kpe_rg/t vfs_read f=$A3:u32" '[0-9]+'
else
	bad "no 'args: <name>=fetcharg[:type]' line"
fi

# --- places ----------------------------------------------------------
# An address where a function starts, and the same as _text+OFFSET (how
# perf probe writes places when the README has "place (kretprobe): ").
addr=$(awk '$3 == "vfs_read" { print $1; exit }' /proc/kallsyms)
text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
case $addr$text in
*[!0]*) off=$(printf '0x%x' $((0x$addr - 0x$text))) ;;
*) off= ; log "kallsyms addresses hidden: <memaddr> places not checked" ;;
esac
if has "place: [<module>:]<symbol>[+<offset>]|<memaddr>"; then
	accepted "place <symbol>" "p:kpe_rg/t vfs_read"
	accepted "place <symbol>+<offset>" "p:kpe_rg/t vfs_read+0"
	accepted "place <module>:<symbol> (module not loaded)" "p:kpe_rg/t kpe_nomod:kpe_nofn"
	if [ -n "$off" ]; then
		accepted "place <memaddr>" "p:kpe_rg/t 0x$addr"
		accepted "place _text+<offset>" "p:kpe_rg/t _text+$off"
	fi
else
	bad "no 'place: [<module>:]<symbol>[+<offset>]|<memaddr>' line"
fi
if has "place (kretprobe): [<module>:]<symbol>[+<offset>]%return|<memaddr>"; then
	accepted "kretprobe place r <symbol>" "r:kpe_rg/t vfs_read"
	accepted "kretprobe place <symbol>%return" "p:kpe_rg/t vfs_read%return"
	accepted "kretprobe place <symbol>+<offset>%return" "p:kpe_rg/t vfs_read+0%return"
	if [ -n "$off" ]; then
		accepted "kretprobe place <memaddr>%return" "p:kpe_rg/t 0x$addr%return"
		# perf probe's form: a function's entry as _text+OFFSET
		accepted "kretprobe place _text+<offset>%return (perf probe)" "p:kpe_rg/t _text+$off%return"
		accepted "kretprobe place r _text+<offset> (perf probe)" "r:kpe_rg/t _text+$off"
	fi
fi
if has "pattern: [<module>:]<glob>"; then
	record "pattern place" "p:kpe_rg/t vfs_rea[d] f=$A3:u32" '[0-9]+'
	if has "one event on the entry (or return) of every function"; then
		accepted "pattern place, return" "r:kpe_rg/t vfs_rea[d]"
	else
		refused "pattern place, return" "r:kpe_rg/t vfs_rea[d]"
	fi
else
	refused "pattern place" "p:kpe_rg/t vfs_rea[d]"
fi
if has "r[maxactive][:[<group>/][<event>]] <place> [<args>]"; then
	accepted "r<maxactive>" "r8:kpe_rg/t vfs_read"
fi

reset || fail "cleanup failed"
if [ -n "$BAD" ]; then
	printf '%s' "$BAD" | sed 's/^/#   /'
	fail "the README and kprobe_events disagree on $(printf '%s' "$BAD" | wc -l) item(s)"
fi
pass
