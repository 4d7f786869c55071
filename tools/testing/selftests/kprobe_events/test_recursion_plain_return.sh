#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the recording of a return event with no fields holds the recursion bit: a probe on a function its commit calls (arch_irq_work_raise, waking a trace_pipe reader; the reader itself opens nothing, so it waits) is a reentered miss, never a record nested in it
. "$(dirname "$0")/lib.sh"
need_fentry_return
reset || fail "initial reset failed"
F=arch_irq_work_raise
grep -qx "$F" "$T/available_filter_functions" 2>/dev/null ||
	grep -q "^$F " "$T/available_filter_functions" 2>/dev/null ||
	skip "$F cannot be hooked by ftrace here"

expect_ok "r:kprobes/drv do_sys_openat2"
expect_ok "p:kprobes/rec $F"
enable_ev rec
enable_ev drv
# A reader waiting on trace_pipe makes each commit wake it (irq_work).
cat "$T/trace_pipe" > /tmp/kpe-tp.out &
rd=$!
i=0
while [ $i -lt 300 ]; do
	read -r _l < /proc/version
	[ $((i % 20)) = 0 ] && sleep 0.05
	i=$((i + 1))
done
sleep 0.2
disable_ev drv
disable_ev rec
kill "$rd" 2>/dev/null
wait "$rd" 2>/dev/null

drv=$(profile_hits drv) rec=$(profile_hits rec)
re=$(awk '$1 == "rec" || $1 == "kprobes/rec" { print $3 }' "$T/kprobe_misses")
log "drv hits $drv, rec hits $rec, rec reentered $re"
[ "$drv" -gt 0 ] || fail "drv never hit"
[ $((rec + ${re:-0})) -gt 0 ] || fail "$F never ran (no reader woken?)"
# Most of rec's hits come from drv's commits waking the reader: refused.
[ "${re:-0}" -gt 0 ] || fail "rec was never refused as reentered: recorded inside drv's recording"
rm -f /tmp/kpe-tp.out
reset || fail "cleanup failed"
pass
