#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a return probe on a function that hooking a return may call (lockdep's RCU checks) is recorded or missed, never recursed into
#
# A fentry return probe hooks the return before it takes ftrace's
# recursion bit (hooking records nothing): whatever it calls must not be
# traceable, or a return probe on that function comes back into the hook
# for ever (a stack overflow).  On a lockdep kernel rcu_dereference_check()
# calls rcu_read_lock_any_held(): the hook must not use it, and rethook's
# own return path, which does, must find it notrace (prep patch 0005): a
# return probe on it is then refused as on a notrace function, or, if a
# kernel lets it be probed, records without recursing.  Without lockdep
# the function does not exist and the test skips.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
trap 'reset >/dev/null 2>&1' EXIT

grep -q ' rcu_read_lock_any_held$' /proc/kallsyms ||
	skip "no rcu_read_lock_any_held (not a lockdep kernel)"
out=$("$KPE_WRITE" -a "$T/kprobe_events" 'r:rh/h rcu_read_lock_any_held')
if [ -n "$out" ]; then
	# notrace (as it should be: it is what rethook's return path calls)
	[ "$out" = EINVAL ] && grep -q 'notrace' "$T/error_log" ||
		fail "r rcu_read_lock_any_held: $out, error_log: $(cat "$T/error_log")"
	log "refused: $(cat "$T/error_log")"
	pass
fi
enable_ev rh/h
i=0
while [ $i -lt 20 ]; do
	cat /proc/version /proc/self/status > /dev/null
	i=$((i + 1))
done
disable_ev rh/h
n=$(count_trace ' h: (')
log "rh/h records: $n; $(grep ' h ' "$T/kprobe_profile")"
[ "$n" -gt 0 ] || fail "no return of rcu_read_lock_any_held recorded"
pass
