#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a probe on a function the tracer calls while recording counts misses, never recurses
#
# With "drv" on vfs_read enabled, every drv hit reserves ring-buffer space
# from inside the kprobe handler.  A probe "rec" on the reserve function
# (entry and return) is hit there while a kprobe is already running: the
# kprobes core must skip it and count a miss, which kprobe_profile shows
# in its third column.  Outside a handler (writes to trace_marker) rec
# fires normally, and recording it hits rec once more: another miss.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

BL=/sys/kernel/debug/kprobes/blacklist
# The first of these the kprobes core accepts: the ring-buffer reserve
# is what every record goes through.
sym=
for s in ring_buffer_lock_reserve trace_event_buffer_lock_reserve \
	 trace_event_buffer_reserve; do
	grep -q " [tT] $s\$" /proc/kallsyms || continue
	if [ -f "$BL" ] && grep -q "	$s\$" "$BL"; then
		log "$s is blacklisted for kprobes"
		continue
	fi
	out=$("$KPE_WRITE" -a "$T/kprobe_events" "p:rec $s")
	if [ -z "$out" ]; then
		sym=$s
		break
	fi
	log "p $s refused: $out"
done
[ -n "$sym" ] || skip "no ring-buffer reserve function can be probed"
log "probing $sym"
expect_ok "r:recr $sym"
expect_ok "p:drv vfs_read"

# prof EVENT COLUMN: a kprobe_profile column (2 hits, 3 misses)
prof() {
	awk -v e="$1" -v c="$2" '$1 == e || $1 == "kprobes/" e { print $c; exit }' \
		"$T/kprobe_profile"
}

enable_ev rec
enable_ev recr
enable_ev drv
trigger
i=0
while [ $i -lt 5 ]; do
	echo "kpe marker $i" > "$T/trace_marker"
	i=$((i + 1))
done
trigger
disable_ev drv
disable_ev recr
disable_ev rec

drv_hits=$(prof drv 2)
rec_hits=$(prof rec 2)
rec_miss=$(prof rec 3)
recr_hits=$(prof recr 2)
recr_miss=$(prof recr 3)
log "kprobe_profile:"
sed 's/^/#   /' "$T/kprobe_profile"
for v in "$drv_hits" "$rec_hits" "$rec_miss" "$recr_hits" "$recr_miss"; do
	case "$v" in '' | *[!0-9]*) fail "kprobe_profile lacks a count: '$v'" ;; esac
done

[ "$drv_hits" -gt 0 ] || fail "drv (vfs_read) never hit"
# Each drv record was reserved inside drv's handler: a miss of rec/recr.
[ "$rec_miss" -ge "$drv_hits" ] ||
	fail "rec: $rec_miss misses for $drv_hits drv records (want >= drv hits)"
[ "$recr_miss" -ge "$drv_hits" ] ||
	fail "recr: $recr_miss misses for $drv_hits drv records (want >= drv hits)"
# trace_marker writes reserve outside any handler: rec hit, recorded once.
[ "$rec_hits" -ge 5 ] || fail "rec hit $rec_hits times for 5 trace_marker writes"
recs=$(count_trace " rec: (")
log "rec records: $recs, drv records: $(count_trace " drv: (")"
[ "$recs" -gt 0 ] || fail "no rec record"
[ "$recs" -le "$rec_hits" ] || fail "$recs rec records for $rec_hits hits: recursion?"

# Still alive: the tracer records as before.
expect_ok "p:after_rec vfs_read"
fire after_rec
[ "$(count_trace " after_rec: (")" -gt 0 ] || fail "no record afterwards"

reset || fail "cleanup failed"
pass
