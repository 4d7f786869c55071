#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a pattern skips exactly the functions kprobes refuse,
# a suffixed clone (foo.part.0) of a blacklisted foo among them
. "$(dirname "$0")/lib.sh"
need_fentry
reset || fail "initial reset failed"

BL=/sys/kernel/debug/kprobes/blacklist
[ -f "$BL" ] || BL=/debug/kprobes/blacklist
[ -f "$BL" ] || skip "no kprobes blacklist file"
W=$(mktemp -d)
LOADED=
trap 'rm -rf "$W"; [ -z "$LOADED" ] || rmmod kpe_kmod 2>/dev/null' EXIT

# The names kprobes refuse: blacklisted, or cut at their first '.' so
# (vmlinux's: a module's lines name the module too).
awk 'NF == 2 { print $2 }' "$BL" | sort -u > "$W/bl"
# vmlinux's functions ftrace can hook, once per record; modules' apart.
awk 'NF == 1' "$T/available_filter_functions" > "$W/aff"
awk 'NF == 2 { print $1 }' "$T/available_filter_functions" > "$W/modaff"
# Names two text symbols share, where a name does not tell the function.
awk '$2 ~ /^[tT]$/ && NF == 3 { print $3 }' /proc/kallsyms | sort | uniq -d > "$W/dup"
# NAME REFUSED(0/1) for every function whose name, and name up to its
# first '.', is one function's (LTO's .llvm. names aside: 6.12 shows them
# as they are, a pattern matches them cut)
awk 'FILENAME == ARGV[1] { bl[$1] = 1; next }
     FILENAME == ARGV[2] { dup[$1] = 1; next }
     index($1, ".llvm.") { next }
     { b = $1; sub(/\..*/, "", b) }
     !($1 in dup) && !(b in dup) { print $1, ($1 in bl || b in bl) }' \
	"$W/bl" "$W/dup" "$W/aff" > "$W/names"

# A glob matching NAME alone, yet a pattern: its last character as a set.
one_glob() {
	printf '%s[%s]' "${1%?}" "${1#"${1%?}"}"
}

# Every function ftrace can hook that kprobes refuse (up to 64): a
# pattern matching it alone is refused, no function left.  Among them a
# clone of a blacklisted function, not itself on the list, is refused
# only by kprobes' suffix rule, which the pattern is to follow too.
# GROUP names the pass: a pattern's walk of vmlinux answers the suffix
# rule from the names it saw on the blacklist, unless the blacklist has
# ranges the walk did not see (a module's), when it looks each name up.
refused_pass() {
	n=0 clones=0
	for s in $(awk '$2 == 1 { print $1 }' "$W/names"); do
		# A module's function of that name would match too.
		grep -qxF "$s" "$W/modaff" && continue
		n=$((n + 1))
		[ $n -le 64 ] || break
		if ! grep -qxF "$s" "$W/bl"; then
			clones=$((clones + 1))
			log "$1: $s: blacklisted as ${s%%.*}"
		fi
		expect_refused ENOENT "p:$1/r$n $(one_glob "$s")"
	done
	[ $clones -gt 0 ] ||
		log "no clone of a blacklisted function here (suffix rule untested)"

	# A clone of a function kprobes take is taken.
	s=$(awk '$2 == 0 && index($1, ".") { print $1; exit }' "$W/names")
	if [ -n "$s" ]; then
		g=$(one_glob "$s")
		expect_ok "p:$1/ok $g"
		listing_has "p:$1/ok $g" || fail "listing does not show $g"
		"$KPE_WRITE" -a "$T/kprobe_events" "-:$1/ok" >/dev/null ||
			fail "cannot remove $1/ok"
		log "$1: $s: taken"
	fi
}
refused_pass wbl
checked=$n

# A clone whose cut name is no function of vmlinux's: kprobes look the
# name up in modules then, and kpe_kmod has one by that name on its
# blacklist (kmod/kpe_kmod.c).
CUT=__bpf_lru_list_shrink
clone=$(awk -v c="$CUT" 'index($1, c ".") == 1 { print $1; exit }' "$W/aff")
grep -qE "^[0-9a-f]+ [tT] $CUT\$" /proc/kallsyms && clone=
if [ -n "$clone" ] && ! grep -qxF "$clone" "$W/bl"; then
	expect_ok "p:wbx/c $(one_glob "$clone")"
	"$KPE_WRITE" -a "$T/kprobe_events" "-:wbx/c" >/dev/null ||
		fail "cannot remove wbx/c"
else
	clone=
	log "no clone of a function vmlinux lacks ($CUT.*) here"
fi

# Again with a module on the blacklist (kpe_kmod's kpe_nokprobe_fn).
if [ -n "$(find /lib/modules -name kpe_kmod.ko 2>/dev/null)" ] &&
   ! lsmod | grep -q '^kpe_kmod '; then
	modprobe kpe_kmod || fail "modprobe kpe_kmod failed"
	LOADED=1
	grep -q "kpe_nokprobe_fn" "$BL" ||
		fail "kpe_nokprobe_fn is not on the kprobe blacklist"
	refused_pass wbm
	if [ -n "$clone" ]; then
		grep -qE "	$CUT \[kpe_kmod\]" "$BL" ||
			{ dump "$BL"; fail "kpe_kmod's $CUT is not on the blacklist"; }
		# The probe of the clone alone and the pattern agree.
		expect_refused EINVAL "p:wbm/k $clone"
		expect_refused ENOENT "p:wbm/c $(one_glob "$clone")"
		log "$clone: refused while kpe_kmod's $CUT is on the blacklist"
		checked=$((checked + 1))
	fi
	rmmod kpe_kmod || fail "rmmod kpe_kmod failed"
	LOADED=
else
	log "kpe_kmod not at hand: no pass with a module on the blacklist"
fi

# Over a prefix: the note counts the refused ones, no more, no fewer.
# Not a prefix of a name two functions share (one may be refused and
# the other not), or of a module's function; the note counts up to 16.
for pre in kprobe nmi_ notifier_ oops_ perf_; do
	want=$(awk -v p="$pre" 'index($1, p) == 1 && $2 == 1' "$W/names" | wc -l)
	[ "$want" -gt 0 ] && [ "$want" -le 16 ] || continue
	grep -q "^$pre" "$W/dup" "$W/modaff" && continue
	awk -v p="$pre" 'index($1, p) == 1 && index($1, ".llvm.") { f = 1 }
		END { exit !f }' "$W/aff" && continue
	quiet_write "" "$T/error_log"
	expect_ok "p:wbl/pre $pre*"
	got=$(sed -n 's/.*Note: \([0-9]*\) matching functions cannot be probed; skipped.*/\1/p' \
		"$T/error_log")
	log "$pre*: $want refused functions by the blacklist, note says ${got:-none}"
	[ "$got" = "$want" ] || {
		dump "$T/error_log"
		fail "$pre*: note counts ${got:-no} skipped functions, the blacklist $want"
	}
	"$KPE_WRITE" -a "$T/kprobe_events" "-:wbl/pre" >/dev/null ||
		fail "cannot remove wbl/pre"
	checked=$((checked + 1))
	break
done
[ "$checked" -gt 0 ] ||
	skip "no blacklisted function here that a pattern can be checked on"

reset || fail "cleanup failed"
pass
