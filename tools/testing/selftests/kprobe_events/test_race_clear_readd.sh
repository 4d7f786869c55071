#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: repeatedly add/enable/disable/clear probes that fire on other CPUs
#
# For KPE_RACE_SECS seconds (default 10; make check: 4, CI: 10).
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

log "nproc: $(nproc 2>/dev/null || grep -c '^processor' /proc/cpuinfo)"
[ -x "$KPE_LOOP" ] || fail "$KPE_LOOP missing (build with make)"

sym=
for s in __x64_sys_getppid __arm64_sys_getppid sys_getppid; do
	if grep -q " [tT] $s\$" /proc/kallsyms; then
		sym=$s
		break
	fi
done
[ -n "$sym" ] || fail "no getppid syscall symbol in /proc/kallsyms"
log "getppid symbol: $sym"

if [ -d /tmp ] && [ -w /tmp ]; then
	LOOP_OUT=/tmp/kpe_loop.$$
else
	LOOP_OUT=$DIR/kpe_loop.$$
fi

EVS="race raceret race2"
secs=${KPE_RACE_SECS:-10}
start=$(date +%s)
"$KPE_LOOP" $((secs + 1)) > "$LOOP_OUT" &
loop_pid=$!
(
	e=$((start + secs + 1))
	while [ "$(date +%s)" -lt "$e" ]; do
		cat /proc/version > /dev/null
	done
) &
cat_pid=$!
BG_PIDS="$loop_pid $cat_pid"

iters=0
seen=0
h_race=0
h_ret=0
h_race2=0
while [ "$(date +%s)" -le $((start + secs)) ]; do
	if [ $((iters % 2)) -eq 0 ]; then
		expect_ok "p:race $sym${NL}r:raceret $sym${NL}p:race2 vfs_read"
	else
		expect_ok "p:race $sym"
		expect_ok "r:raceret $sym"
		expect_ok "p:race2 vfs_read"
	fi
	for e in $EVS; do enable_ev $e; done
	usleep 20000
	for e in $EVS; do disable_ev $e; done

	set -- $(awk '$1 == "race" { a = $2 } $1 == "raceret" { b = $2 }
		      $1 == "race2" { c = $2 } END { print a + 0, b + 0, c + 0 }' \
		"$T/kprobe_profile")
	h_race=$((h_race + $1))
	h_ret=$((h_ret + $2))
	h_race2=$((h_race2 + $3))
	if [ $seen -eq 0 ] && grep -qF " race: (" "$T/trace"; then
		seen=$((iters + 1))
	fi

	if [ $((iters % 3)) -eq 2 ]; then
		expect_ok "-:race"
		expect_ok "-:kprobes/raceret"
		expect_ok "-:race2"
	else
		{ echo > "$T/kprobe_events"; } 2>/dev/null ||
			fail "clearing disabled probes failed (iteration $iters)"
	fi
	[ -z "$(listing)" ] || fail "probes left after clearing (iteration $iters)"
	for e in $EVS; do
		[ -d "$T/events/kprobes/$e" ] && fail "$e dir left (iteration $iters)"
	done
	iters=$((iters + 1))
done
log "ran $iters iterations in $(($(date +%s) - start)) s"

wait "$loop_pid"
wait "$cat_pid"
BG_PIDS=
calls=$(cat "$LOOP_OUT" 2>/dev/null)
rm -f "$LOOP_OUT"
log "kpe_loop getppid calls: ${calls:-none}"
log "profile hits: race=$h_race raceret=$h_ret race2=$h_race2"
log "race first seen in trace at iteration $seen"

[ "$iters" -gt 0 ] || fail "no iterations"
case "$calls" in
'' | *[!0-9]*) fail "kpe_loop did not report a call count" ;;
esac
[ "$calls" -gt 0 ] || fail "kpe_loop made no calls"
[ "$h_race" -gt 0 ] || fail "race never hit"
[ "$h_ret" -gt 0 ] || fail "raceret never hit"
[ "$h_race2" -gt 0 ] || fail "race2 never hit"
[ "$seen" -gt 0 ] || fail "no race record ever reached the trace"

reset || fail "cleanup failed"
pass
