#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: allocation failures while an event is armed (fail-nth):
# the enable of one event either fails with an errno and leaves nothing
# armed, or the event fires; never enabled and silent (error_log's
# "could not be hooked" is only for a group's later events, applied as
# the write returns).  The same for the in-kernel API, which must fail or
# record; and a pattern joining an event in use fails or joins, cleanly.
# Needs CONFIG_FAILSLAB and /proc/PID/fail-nth (the debug kernel).
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

FS=/sys/kernel/debug/failslab
[ -w /proc/self/fail-nth ] || skip "no fail-nth (CONFIG_FAULT_INJECTION)"
[ -d "$FS" ] || skip "no $FS (CONFIG_FAILSLAB)"
old_wait=$(cat "$FS/ignore-gfp-wait")
old_verbose=$(cat "$FS/verbose")
old_rcmd=$(cat "$T/options/record-cmd")
echo N > "$FS/ignore-gfp-wait"	# GFP_KERNEL allocations may fail too
echo 0 > "$FS/verbose"
# Enabling an event starts the comm recorder, whose tracepoint probe
# allocates; the trace event core ignores that failing, and warns when
# it later stops the recorder (Linux 6.1.192, the kernel's own events
# too).  Keep it out of the way: the failures are to land in ours.
echo 0 > "$T/options/record-cmd"
restore() {
	echo "$old_wait" > "$FS/ignore-gfp-wait"
	echo "$old_verbose" > "$FS/verbose"
	echo "$old_rcmd" > "$T/options/record-cmd"
	rmmod kpe_kmod 2>/dev/null
}
trap restore EXIT
MAX=${KPE_FAULT_MAX:-60}

# nth N CMD: run CMD in a shell whose Nth allocation fails
nth() {
	_n=$1
	shift
	sh -c "echo $_n > /proc/thread-self/fail-nth; $*" 2>/dev/null
}
unarmed() {
	grep -c 'could not be hooked' "$T/error_log"
}

# A. Through tracefs: one event's update is made in the write, whose
# errno says if it failed.
expect_ok "p:kprobes/fa vfs_read"
E=$(ev_dir fa)/enable
n=1
failed=0 fired=0
while [ $n -le "$MAX" ]; do
	quiet_write "" "$T/error_log"
	h0=$(profile_hits fa)
	nth $n "echo 1 > $E"
	if [ "$(cat "$E")" = 1 ]; then
		trigger
		if [ "$(profile_hits fa)" -gt "$h0" ]; then
			fired=$((fired + 1))
		elif [ "$(unarmed)" -gt 0 ]; then
			fail "fail-nth $n: fa enabled and not firing: the write succeeded, error_log says it could not be hooked"
		else
			fail "fail-nth $n: fa enabled, not firing, and nothing in error_log"
		fi
		disable_ev fa
	else
		failed=$((failed + 1))
		h0=$(profile_hits fa)
		trigger
		[ "$(profile_hits fa)" = "$h0" ] ||
			fail "fail-nth $n: the enable failed, yet fa fires"
	fi
	n=$((n + 1))
done
log "tracefs enable: $failed failed, $fired fired (of $MAX)"
[ $failed -gt 0 ] ||
	fail "no allocation failure reached the enable: the test tests nothing"
# Sites left dirty by a failure are hooked by the next update.
quiet_write "" "$T/error_log"
enable_ev fa
h0=$(profile_hits fa)
trigger
[ "$(profile_hits fa)" -gt "$h0" ] || fail "fa does not fire after the failures"
disable_ev fa
expect_ok "-:kprobes/fa"

# B. The in-kernel API (kpe_kmod's "api"): armed before it returns.
if modprobe kpe_kmod 2>/dev/null && [ -f /sys/kernel/debug/kpe_kmod/api ]; then
	A=/sys/kernel/debug/kpe_kmod/api
	n=1
	ok=0 bad=0
	while [ $n -le "$MAX" ]; do
		echo > "$T/trace"
		if nth $n "echo 1 > $A"; then
			r=$(count_trace " kpe_api: (")
			[ "$r" = 1 ] || fail "fail-nth $n: the API said armed, $r records of its call"
			ok=$((ok + 1))
		else
			bad=$((bad + 1))
		fi
		quiet_write 0 "$A"
		grep -q kpe_api "$T/kprobe_events" &&
			fail "fail-nth $n: kpe_api left behind"
		n=$((n + 1))
	done
	log "in-kernel API: $bad failed, $ok armed and recorded (of $MAX)"
	rmmod kpe_kmod
fi

# C. A pattern joins an event in use while reads go on.
expect_ok "p:kprobes/fj vfs_read"
enable_ev fj
(while :; do cat /proc/version > /dev/null; done) &
BG_PIDS=$!
n=1
joined=0
while [ $n -le "$MAX" ]; do
	before=$(snapshot)
	if nth $n "echo 'p:kprobes/fj ksys_rea*' >> $T/kprobe_events"; then
		joined=$((joined + 1))
		disable_ev fj
		expect_ok "-:kprobes/fj ksys_rea*"
		enable_ev fj
	else
		[ "$(snapshot)" = "$before" ] || fail "fail-nth $n: a refused join changed the listing"
	fi
	n=$((n + 1))
done
kill_bg
log "pattern join: $joined joined, $((MAX - joined)) refused"
disable_ev fj
reset || fail "cleanup failed"

# D. A pattern of thousands of functions, whose array of sites grows
# while kallsyms is walked: defined whole, or refused leaving nothing.
n=1
made=0
while [ $n -le "${KPE_FAULT_WILD_MAX:-30}" ]; do
	if nth $n "echo 'p:kprobes/fw [a-c]*' >> $T/kprobe_events"; then
		made=$((made + 1))
		expect_ok "-:kprobes/fw"
	else
		[ -z "$(listing)" ] || fail "fail-nth $n: a refused pattern left $(listing)"
		[ ! -d "$T/events/kprobes/fw" ] ||
			fail "fail-nth $n: a refused pattern left its event directory"
	fi
	n=$((n + 1))
done
log "large pattern: $made defined, $((n - 1 - made)) refused"
reset || fail "cleanup failed"
pass
