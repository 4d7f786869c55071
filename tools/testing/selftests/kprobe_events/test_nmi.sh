#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: probes on a function an NMI handler calls record every hit, none missed
#
# The test module kpe_kmod (kmod/) raises N NMIs on one CPU whose handler
# calls kpe_nmi_target().  Two events on that function: nmi_fentry on its
# entry (hooked through ftrace) and nmi_int3 at the first instruction
# after the ftrace call site (a kprobe: an int3 with kprobe optimisation
# off, a jump once the optimiser has had its turn).  Each must count N
# hits and 0 misses in kprobe_profile and leave N records in the trace,
# as the kernel's own tracer does.  Run twice: kprobes-optimization 0,
# then 1.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

D=/sys/kernel/debug/kpe_kmod
OPT=/proc/sys/debug/kprobes-optimization
KL=/sys/kernel/debug/kprobes/list
N=20
MOD_LOADED=
OPT_SAVED=

cleanup() {
	reset >/dev/null 2>&1
	[ -n "$OPT_SAVED" ] && quiet_write "$OPT_SAVED" "$OPT"
	[ -n "$MOD_LOADED" ] && rmmod kpe_kmod 2>/dev/null
}
trap cleanup EXIT

need_kmod
modprobe kpe_kmod || fail "modprobe kpe_kmod failed"
MOD_LOADED=1
[ -f "$D/nmi" ] || skip "$D/nmi missing"
out=$("$KPE_WRITE" -a "$D/nmi" 1)
case "$out" in
'') ;;
EOPNOTSUPP) skip "kpe_kmod cannot raise NMIs on this architecture" ;;
*) fail "writing 1 to $D/nmi: $out" ;;
esac
[ "$(cat "$D/nmi")" = 1 ] || fail "one NMI raised, module counts $(cat "$D/nmi") calls in NMI"
[ -f "$OPT" ] || skip "no $OPT"
OPT_SAVED=$(cat "$OPT")

FUNC=kpe_kmod:kpe_nmi_target

# prof EVENT COLUMN: a kprobe_profile column (2 hits, 3 misses)
prof() {
	_v=$(awk -v e="$1" -v c="$2" '$1 == e || $1 == "kprobes/" e { print $c; exit }' \
		"$T/kprobe_profile")
	case "$_v" in '' | *[!0-9]*) fail "kprobe_profile lacks a count for $1" ;; esac
	echo "$_v"
}

# The first offset past the ftrace call site (5 bytes, at +0, or at +4
# after an endbr64) that is an instruction boundary.  Mid-instruction
# offsets are refused with EILSEQ.
OFFSET=
n=5
while [ $n -le 24 ]; do
	out=$("$KPE_WRITE" -a "$T/kprobe_events" "p:kprobes/nmi_int3 $FUNC+$n")
	if [ -z "$out" ]; then
		OFFSET=$n
		break
	fi
	[ "$out" = EILSEQ ] || fail "p $FUNC+$n: expected success or EILSEQ, got $out"
	n=$((n + 1))
done
[ -n "$OFFSET" ] || fail "no instruction boundary in $FUNC+5..24"
expect_ok "-:kprobes/nmi_int3"
log "int3 probe at $FUNC+$OFFSET"
HEX=$(printf '0x%x' "$OFFSET")

FAILS=0
# bad MSG: a failed check; the test goes on to show the rest
bad() {
	echo "# FAIL: $*"
	FAILS=$((FAILS + 1))
}

# phase OPTIMISATION: define both events, enable them, raise N NMIs,
# disable, check, remove.
phase() {
	quiet_write "$1" "$OPT" || fail "cannot write $1 to $OPT"
	[ "$(cat "$OPT")" = "$1" ] || fail "$OPT reads $(cat "$OPT"), not $1"
	quiet_write "" "$T/trace"
	expect_ok "p:kprobes/nmi_int3 $FUNC+$OFFSET"
	expect_ok "p:kprobes/nmi_fentry $FUNC"
	enable_ev nmi_int3
	enable_ev nmi_fentry
	# Give the optimiser its turn (it waits a few ticks, then runs).
	[ "$1" = 1 ] && sleep 1
	if [ -f "$KL" ]; then
		kind=$(grep "kpe_nmi_target+$HEX " "$KL" | head -n 1)
	else
		kind="(no $KL)"
	fi
	log "optimisation $1: kprobes/list: ${kind:-(no kprobe at +$HEX)}"
	case "$kind" in
	*FTRACE*) fail "kpe_nmi_target+$HEX is an ftrace site, not an int3 kprobe" ;;
	'') fail "no kprobe at kpe_nmi_target+$HEX in $KL" ;;
	esac
	case "$1:$kind" in
	0:*OPTIMIZED*) fail "kpe_nmi_target+$HEX optimised with $OPT 0" ;;
	1:*OPTIMIZED*) ;;
	1:*) log "note: kpe_nmi_target+$HEX not optimised, an int3 again" ;;
	esac
	out=$("$KPE_WRITE" -a "$D/nmi" "$N")
	disable_ev nmi_fentry
	disable_ev nmi_int3
	[ -z "$out" ] || fail "writing $N to $D/nmi: $out"
	calls=$(cat "$D/nmi")
	[ "$calls" = "$N" ] ||
		bad "optimisation $1: $N NMIs raised, $calls calls of kpe_nmi_target in NMI"
	log "optimisation $1: kprobe_profile:"
	sed 's/^/#   /' "$T/kprobe_profile"
	for ev in nmi_int3 nmi_fentry; do
		hits=$(prof $ev 2)
		miss=$(prof $ev 3)
		recs=$(count_trace " $ev: (")
		log "optimisation $1: $ev: $hits hits, $miss misses, $recs records"
		[ "$hits" = "$N" ] ||
			bad "optimisation $1: $ev counts $hits hits for $N calls in NMI"
		[ "$miss" = 0 ] ||
			bad "optimisation $1: $ev missed $miss of $N hits in NMI"
		[ "$recs" = "$N" ] ||
			bad "optimisation $1: $ev left $recs records for $N calls in NMI"
	done
	n=$(count_trace " nmi_int3: (kpe_nmi_target+$HEX/")
	[ "$n" = "$(count_trace " nmi_int3: (")" ] ||
		bad "optimisation $1: nmi_int3 records not at kpe_nmi_target+$HEX"
	grep -F " nmi_int3: (" "$T/trace" | head -n 2 | sed 's/^/#   /'
	expect_ok "-:kprobes/nmi_int3"
	expect_ok "-:kprobes/nmi_fentry"
}

phase 0
phase 1

[ "$FAILS" = 0 ] || fail "$FAILS checks failed"
reset || fail "cleanup failed"
pass
