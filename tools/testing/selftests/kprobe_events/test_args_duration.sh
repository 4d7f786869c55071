#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: $duration in a return probe records the nanoseconds since
# the function's entry, as a u64 field a histogram can sum
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_refused EINVAL "p:nodur vfs_read \$duration"
expect_ok "r:dur hrtimer_nanosleep \$duration"
listing_has "r:kprobes/dur hrtimer_nanosleep duration=\$duration" ||
	fail "unnamed \$duration is not listed as duration=\$duration"
grep -qF "field:u64 duration;" "$(ev_dir dur)/format" ||
	fail "no 'u64 duration' field in the format"
quiet_write "hist:keys=common_pid:vals=duration" "$(ev_dir dur)/trigger" ||
	fail "cannot set a histogram on duration"
# The entry's record, to compare the duration with the trace buffer's own
# timestamps: $duration is timed by sched_clock_cpu(), which keeps with the
# buffer's clock ("local" where the TSC is stable, "global" where the
# kernel marked it unstable, as under TCG, whose raw TSC once ran 7.7 s
# ahead within one "sleep 1" while trace_clock_local() timed $duration).
# "sleep 1" alone does not bound it closely: TCG stalls the guest.
expect_ok "p:durin hrtimer_nanosleep"
enable_ev durin
enable_ev dur
# Its records told by its pid: only this sleep's call is compared.
sleep 1 &
SPID=$!
wait $SPID
disable_ev dur
disable_ev durin
# ts EVENT: the timestamp (seconds) of the sleep's first EVENT record
ts() {
	grep -E "^ *[^ ]+-$SPID .* $1: \\(" "$T/trace" | head -n 1 |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			sub(":", "", $i); print $i; exit } }'
}
d=$(grep -E "^ *[^ ]+-$SPID .* dur: \\(" "$T/trace" | head -n 1 |
	sed -n 's/.* duration=\([0-9]*\)$/\1/p')
t0=$(ts durin) t1=$(ts dur)
log "sleep 1 took $d ns in hrtimer_nanosleep; its records are $t0 s to $t1 s"
[ -n "$d" ] || rfail dur "no decimal duration for sleep 1"
[ -n "$t0" ] && [ -n "$t1" ] || rfail durin "no timestamps of sleep's records"
[ "$d" -ge 500000000 ] && [ "$d" -le 10000000000 ] ||
	fail "sleep 1 took $d ns?"
# Nanoseconds, in the trace clock: within 20 ms of the records' distance
# (TCG may stall the guest a few ms between a hook and its record)
awk -v d="$d" -v a="$t0" -v b="$t1" 'BEGIN {
	x = d - (b - a) * 1e9; if (x < 0) x = -x; exit !(x <= 2e7) }' || {
	# The sleep's records with their CPUs, and each CPU buffer's clock
	# now: which entry time was off, should it fail again.
	grep -E "^ *[^ ]+-$SPID .* dur(in)?: \\(" "$T/trace"
	grep -H "now ts" "$T"/per_cpu/cpu*/stats
	fail "duration $d ns, but the records are $t0 s and $t1 s apart"
}
grep -qE 'duration: +[0-9]{9,}' "$(ev_dir dur)/hist" || {
	dump "$(ev_dir dur)/hist"
	fail "the histogram does not sum the duration"
}
quiet_write "!hist:keys=common_pid:vals=duration" "$(ev_dir dur)/trigger"
reset || fail "cleanup failed"
pass
