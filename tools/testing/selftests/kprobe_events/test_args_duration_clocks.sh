#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a return probe with $duration on the clock functions
# $duration could read itself (local_clock() and those under it): its
# entry stamp must not call what it probes, where no recursion bit is
# held yet (6.12's local_clock() is out of line and traced: a pattern of
# every return once recursed there until the IRQ stack overflowed)
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
AFF=$T/available_filter_functions
[ -r "$AFF" ] || skip "no available_filter_functions"
n=0
for f in local_clock local_clock_noinstr sched_clock_cpu sched_clock \
	 native_sched_clock trace_clock trace_clock_local; do
	grep -qx "$f" "$AFF" || continue
	out=$("$KPE_WRITE" -a "$T/kprobe_events" "r:kpe_clk/c$n $f d=\$duration")
	if [ -z "$out" ]; then
		log "r:kpe_clk/c$n $f d=\$duration"
		n=$((n + 1))
	fi
done
[ "$n" -gt 0 ] || skip "no clock function ftrace can hook and kprobes take"
# What reads local_clock(): printk's timestamps, and trace clock "perf"
# in a trace instance of its own, written to through its trace_marker.
I=$T/instances/kpe_clk
rmdir "$I" 2>/dev/null
mkdir "$I" || skip "cannot create a trace instance"
echo perf > "$I/trace_clock" || fail "no trace clock perf"
echo 1 > "$T/events/kpe_clk/enable" || fail "cannot enable kpe_clk"
i=0
while [ $i -lt 20 ]; do
	echo "kpe_clk $i" > "$I/trace_marker"
	i=$((i + 1))
done
echo "kpe: test_args_duration_clocks.sh" > /dev/kmsg
sleep 0.2
echo 0 > "$T/events/kpe_clk/enable"
rmdir "$I" || fail "cannot remove the instance"
recs=$(grep -c ' c[0-9]*: (' "$T/trace")
log "$recs records of $n return probes"
[ "$recs" -gt 0 ] || fail "no record of a clock function's return"
# Every duration a short call's: no wrap below zero, nothing of seconds.
bad=$(grep ' c[0-9]*: (' "$T/trace" |
	sed -n 's/.* d=\([0-9]*\)$/\1/p' | awk '$1 > 1000000000' | head -n 3)
[ -z "$bad" ] || fail "durations of a clock read over a second: $bad"
reset || fail "cleanup failed"
pass
