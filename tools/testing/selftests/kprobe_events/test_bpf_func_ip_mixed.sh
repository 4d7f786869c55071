#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: bpf_get_func_ip() names the probed function while another
# kprobe is active on the CPU
#
# kpe_funcip puts a raw BPF kprobe program on int_sqrt() through perf's
# kprobe PMU (our tracer hooks it through ftrace, a core kernel
# function's entry); the program ORs and ANDs what bpf_get_func_ip()
# returns at each hit of its process.  Its trigger writes N to kpe_kmod's
# "mixed": the module registers a raw kprobe on the entry of its
# kpe_mixed_outer() and calls that function N times.  The kprobe's
# handler calls int_sqrt() with that kprobe active on the CPU (what
# kprobe_running() says), the function's body calls it again with none.
# All 2N hits must name int_sqrt, at its /proc/kallsyms address: not the
# function of the kprobe that happens to be running.  Needs fentry places
# (x86_64 in 6.1): where int_sqrt() is hooked by a kprobe instead, no
# kprobe's handler reaches it (a nested kprobe is missed) and the test
# skips.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

D=/sys/kernel/debug/kpe_kmod
KPLIST=/sys/kernel/debug/kprobes/list
FUNCIP=$DIR/kpe_funcip
FUNC=int_sqrt
OUTER=kpe_mixed_outer
N=10		# kpe_funcip's READS: what its trigger writes
W=/tmp/kpe-fipmix
MOD_LOADED=

cleanup() {
	reset >/dev/null 2>&1
	[ -n "$MOD_LOADED" ] && rmmod kpe_kmod 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

[ -x "$FUNCIP" ] || fail "$FUNCIP missing (build with make)"
[ -f /sys/bus/event_source/devices/kprobe/type ] || skip "no kprobe PMU"
need_fentry
need_kmod
modprobe kpe_kmod || fail "modprobe kpe_kmod failed"
MOD_LOADED=1
[ -f "$D/mixed" ] || fail "$D/mixed missing (an older kpe_kmod?)"
rm -rf "$W"
mkdir -p "$W" || fail "cannot make $W"

# addr SYMBOL: set AT to its address in /proc/kallsyms (16 hex digits);
# the test fails unless there is exactly one text symbol of that name
addr() {
	AT=$(awk -v f="$1" '$2 ~ /^[tT]$/ && $3 == f { n++; a = $1 }
		END { if (n == 1) print a }' /proc/kallsyms)
	case "$AT" in
	'' | 0000000000000000) fail "$1: not one text symbol with an address in /proc/kallsyms" ;;
	esac
}
addr "$FUNC"
FUNC_AT=$AT
addr "$OUTER"
OUTER_AT=$AT


KPE_FUNCIP_TRIGGER=$D/mixed KPE_FUNCIP_SHOW="$KPLIST:$T/enabled_functions" \
	"$FUNCIP" "$FUNC" > "$W/out" 2> "$W/err"
rc=$?
if [ $rc -ne 0 ]; then
	dump "$W/err"
	fail "kpe_funcip $FUNC: $(cat "$W/out") (rc=$rc)"
fi

# How the probe was hooked while attached, by the callback ftrace calls
# there (kprobes/list shows our ftrace hooks as kprobes on ftrace): only
# ours is reached from another kprobe's handler, a kprobe's is missed.
by=$(funcip_shown "$T/enabled_functions" "$W/err" | grep "^$FUNC " |
	grep -o -e 'tkp_fentry[a-z_]*' -e 'kprobe_ftrace_handler' | head -n1)
case "$by" in
tkp_fentry*)
	log "$FUNC hooked through ftrace ($by)" ;;
'')
	funcip_shown "$KPLIST" "$W/err" | grep -qE "^[0-9a-f]+ +k +$FUNC\+0x" &&
		skip "$FUNC is hooked by a kprobe here, not through ftrace"
	dump "$W/err"
	fail "$FUNC was not hooked (kprobes list, enabled_functions) while attached" ;;
*)
	skip "$FUNC is hooked by a kprobe here ($by), not through ftrace" ;;
esac

# The kprobe handler ran N times.
in_kp=$(cat "$D/mixed")
[ "$in_kp" = $N ] ||
	fail "kpe_kmod: $in_kp of $N runs of the kprobe handler"
# The raw kprobe went with the write.
if [ -f "$KPLIST" ] && grep -q " $OUTER+" "$KPLIST"; then
	dump "$KPLIST"
	fail "the kprobe on $OUTER is still registered"
fi

# shellcheck disable=SC2046
set -- $(sed -n 's/^hits=\([0-9]*\) func_ip=\([0-9a-f]*\) func_ip_and=\([0-9a-f]*\) ip=.*$/\1 \2 \3/p' "$W/out")
[ $# = 3 ] || { dump "$W/out"; fail "kpe_funcip printed no result"; }
HITS=$1 FIP_OR=$2 FIP_AND=$3
# Fewer: the hits under the kprobe were not recorded, nothing tested.
[ "$HITS" -ge $((2 * N)) ] ||
	fail "$HITS hits of $FUNC for $((2 * N)) calls ($N of them from a kprobe's handler)"
[ "$FIP_OR" = "$FIP_AND" ] ||
	fail "bpf_get_func_ip() differs between hits (OR $FIP_OR, AND $FIP_AND): $FUNC is at $FUNC_AT, the running kprobe's $OUTER at $OUTER_AT"
[ "$FIP_OR" = "$FUNC_AT" ] ||
	fail "bpf_get_func_ip() $FIP_OR at every hit, $FUNC is at $FUNC_AT ($OUTER at $OUTER_AT)"
log "$HITS hits of $FUNC, $N from a kprobe's handler on $OUTER: bpf_get_func_ip() $FUNC at each"

reset || fail "cleanup failed"
pass
