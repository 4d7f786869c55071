#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the boot-time self-test of kprobe events
# (CONFIG_FTRACE_STARTUP_TEST, as the kernel's other tracers have): on a
# kernel built with it, the boot log says "Testing kprobe tracing: OK"
# (an entry probe with arguments and a return probe fired once each and
# wrote their records), and its probes are gone; a failure names why.
. "$(dirname "$0")/lib.sh"

# The boot log first: a locked-down kernel has no tracefs to reset.
line=$(dmesg | grep -F 'Testing kprobe tracing:' | tail -n 1)
if [ -z "$line" ]; then
	# The ftrace self-tests announce themselves; without them, skip.
	dmesg | grep -qE 'Testing (tracer|dynamic ftrace)' &&
		fail "the tracers' self-tests ran, ours did not say anything"
	skip "kernel built without CONFIG_FTRACE_STARTUP_TEST"
fi
case $line in
*'Testing kprobe tracing: skipped'*)
	# kprobe_event= on the command line (make check's boots) disables
	# every tracer's self-test; lockdown takes tracefs away.
	skip "${line#*] }" ;;
esac
reset || fail "initial reset failed"
log "${line#*] }"
case $line in
*'Testing kprobe tracing: OK') ;;
*) fail "boot-time self-test: ${line#*] }" ;;
esac
! grep -q tkp_selftest "$T/kprobe_events" ||
	fail "the self-test's probes are still there: $(listing)"
[ ! -d "$T/events/kprobes/tkp_selftest_entry" ] ||
	fail "the self-test left events/kprobes/tkp_selftest_entry"
pass
