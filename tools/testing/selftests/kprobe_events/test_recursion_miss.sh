#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a probe on a function the tracer calls while recording counts misses, never recurses
#
# A probe "drv" is enabled; recording each of its hits calls function F
# from inside the tracer.  Probes "rec" (entry) and "recr" (return) on F,
# enabled too, are then hit while a hit is being recorded on that CPU:
# they must not record (that would recurse) but count a miss each, shown
# in the third column of kprobe_profile (as the kernel's tracer does, and
# as Documentation/trace/kprobetrace.txt says).  Two kinds of F:
#  - copy_from_user_nofault, which drv's fetch of a u64 from user memory
#    calls: a function ftrace can hook;
#  - ring_buffer_lock_reserve, which every record goes through: not
#    traceable by ftrace (the kernel's own tracer refuses it as notrace;
#    then that case is skipped).  Outside a handler (trace_marker writes)
#    it is hit normally, and recording that hit is one more miss.
# and a kprobe at an offset inside copy_from_user_nofault.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
# Are entry places on ftrace (x86_64), rather than kprobes (arm64)?
FENTRY=0
has_fentry && FENTRY=1

# prof EVENT COLUMN: a kprobe_profile column (2 hits, 3 misses)
prof() {
	_v=$(awk -v e="$1" -v c="$2" '$1 == e || $1 == "kprobes/" e { print $c; exit }' \
		"$T/kprobe_profile")
	case "$_v" in '' | *[!0-9]*) fail "kprobe_profile lacks a count for $1" ;; esac
	echo "$_v"
}

# miss EVENT COLUMN: a kprobe_misses column (2 kprobes core, 3 reentered,
# 4 ret_refused, 5 no_instance, 6 idle)
miss() {
	_v=$(awk -v e="$1" -v c="$2" '$1 == e || $1 == "kprobes/" e { print $c; exit }' \
		"$T/kprobe_misses")
	case "$_v" in '' | *[!0-9]*) fail "kprobe_misses lacks column $2 for $1" ;; esac
	echo "$_v"
}

# sum_ok EVENT: kprobe_profile's missed is the sum of kprobe_misses' causes
sum_ok() {
	_s=$(($(miss "$1" 2) + $(miss "$1" 3) + $(miss "$1" 4) + $(miss "$1" 5) + $(miss "$1" 6)))
	[ "$_s" = "$(prof "$1" 3)" ] ||
		fail "$1: kprobe_profile missed $(prof "$1" 3), kprobe_misses sums to $_s"
}

# recursion F DRV-DEFINITION MARKERS: the check above for function F;
# MARKERS trace_marker writes too.  Returns 4 if F cannot be probed.
recursion() {
	f=$1 drvdef=$2 markers=$3
	grep -q " [tT] $f\$" /proc/kallsyms || { log "no $f"; return 4; }
	out=$("$KPE_WRITE" -a "$T/kprobe_events" "p:rec $f")
	if [ -n "$out" ]; then
		log "p $f refused: $out"
		return 4
	fi
	expect_ok "r:recr $f"
	expect_ok "p:drv $drvdef"
	enable_ev rec
	enable_ev recr
	enable_ev drv
	trigger
	i=0
	while [ $i -lt "$markers" ]; do
		echo "kpe marker $i" > "$T/trace_marker"
		i=$((i + 1))
	done
	disable_ev drv
	disable_ev recr
	disable_ev rec

	log "$f: kprobe_profile:"
	sed 's/^/#   /' "$T/kprobe_profile"
	drv=$(prof drv 2)
	# Each drv record fetched through F: a hit of rec and recr inside
	# drv's handler.  (A drv hit racing with the disable, on the other
	# CPU, counts in its hits but fetches nothing.)
	drv_r=$(count_trace " drv: (")
	rec_h=$(prof rec 2)
	rec_m=$(prof rec 3)
	recr_m=$(prof recr 3)
	recs=$(count_trace " rec: (")
	log "$f: drv hits $drv, records $drv_r; rec hits $rec_h, missed $rec_m, records $recs; recr missed $recr_m"
	[ "$drv_r" -gt 0 ] || fail "$f: drv never recorded"
	[ "$rec_m" -ge "$drv_r" ] ||
		fail "$f: rec missed $rec_m times for $drv_r drv records (want >= drv records)"
	[ "$recr_m" -ge "$drv_r" ] ||
		fail "$f: recr missed $recr_m times for $drv_r drv records (want >= drv records)"
	# kprobe_misses tells the causes: rec was reentered, recr's returns
	# (of calls made while recording) were refused; where the places are
	# kprobes (arm64), the kprobes core counts them itself (column 2).
	sed 's/^/#   /' "$T/kprobe_misses"
	grep -q '^# *event  *kprobes  *reentered  *ret_refused  *no_instance  *idle$' \
		"$T/kprobe_misses" || fail "kprobe_misses has no header line"
	[ $(($(miss rec 2) + $(miss rec 3))) -ge "$drv_r" ] ||
		fail "$f: rec reentered $(miss rec 3) (core: $(miss rec 2)) times for $drv_r drv records"
	[ $(($(miss recr 2) + $(miss recr 4))) -ge "$drv_r" ] ||
		fail "$f: recr ret_refused $(miss recr 4) (core: $(miss recr 2)) times for $drv_r drv records"
	if [ "$FENTRY" = 1 ]; then
		[ "$(miss rec 3)" -ge "$drv_r" ] ||
			fail "$f: rec (on ftrace) reentered $(miss rec 3) times for $drv_r drv records"
		[ "$(miss recr 4)" -ge "$drv_r" ] ||
			fail "$f: recr (on ftrace) ret_refused $(miss recr 4) times for $drv_r drv records"
	fi
	sum_ok rec
	sum_ok recr
	sum_ok drv
	# Hits outside any handler (trace_marker) record; those reached from
	# drv's recording do not (they would be nested recordings).
	[ "$rec_h" -ge "$markers" ] ||
		fail "$f: rec hit $rec_h times for $markers trace_marker writes"
	[ "$recs" -le "$markers" ] ||
		fail "$f: $recs rec records for $markers hits outside handlers: hits reached from drv's recording were recorded, nested"
	reset || fail "cleanup after $f failed"
	return 0
}

ran=0
recursion copy_from_user_nofault 'do_sys_openat2 fn=+u0('"$KPE_ARG2_REG"'):u64' 0 && ran=$((ran + 1))
recursion ring_buffer_lock_reserve vfs_read 5 && ran=$((ran + 1))
[ $ran -gt 0 ] || skip "neither function can be probed"

# The same from a kprobe proper (an int3, or the jump it is optimised
# to) inside copy_from_user_nofault: reached from drv's recording, each
# hit is a miss, and nothing is recorded nested.
# The first instruction boundary past the call to __fentry__ (+4 with
# IBT's endbr64, +0 without).
OFFSET=5
while [ $OFFSET -le 24 ]; do
	[ -z "$("$KPE_WRITE" -a "$T/kprobe_events" "p:reck copy_from_user_nofault+$OFFSET")" ] &&
		break
	OFFSET=$((OFFSET + 1))
done
if [ $OFFSET -le 24 ]; then
	expect_ok 'p:drv do_sys_openat2 fn=+u0('"$KPE_ARG2_REG"'):u64'
	enable_ev reck
	enable_ev drv
	trigger
	disable_ev drv
	disable_ev reck
	drv=$(prof drv 2)
	# Each drv record fetched fn, through copy_from_user_nofault: a
	# reck hit.  (A drv hit racing with the disable, on the other CPU,
	# counts in its hits but fetches nothing.)
	drv_r=$(count_trace " drv: (")
	reck_m=$(prof reck 3)
	recs=$(count_trace " reck: (")
	log "copy_from_user_nofault+$OFFSET: drv hits $drv, records $drv_r; reck missed $reck_m, records $recs"
	[ "$drv_r" -gt 0 ] || fail "kprobe case: drv never recorded"
	[ "$reck_m" -ge "$drv_r" ] ||
		fail "kprobe case: reck missed $reck_m times for $drv_r drv records"
	[ "$recs" = 0 ] || fail "kprobe case: $recs records nested in drv's"
	reset || fail "cleanup after the kprobe case failed"
fi

# Still alive: the tracer records as before.
expect_ok "p:after_rec vfs_read"
fire after_rec
[ "$(count_trace " after_rec: (")" -gt 0 ] || fail "no record afterwards"

reset || fail "cleanup failed"
pass
