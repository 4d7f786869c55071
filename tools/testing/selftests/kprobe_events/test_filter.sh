#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: an event filter suppresses records until it is cleared
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# pids of "filt" records in the trace ("COMM-PID [CPU] ...: filt: (")
filt_pids() {
	sed -n 's/^.*-\([0-9][0-9]*\) *\[[0-9][0-9]*\].* filt: (.*$/\1/p' "$T/trace"
}

expect_ok "p:filt vfs_read"
F=$T/events/kprobes/filt/filter
quiet_write "common_pid == 1" "$F" || fail "cannot set filter 'common_pid == 1'"
grep -qF "common_pid == 1" "$F" || fail "filter does not read back: '$(cat "$F")'"
log "shell pid $$"

fire filt
n=$(count_trace " filt: (")
[ "$(filt_pids | wc -l | tr -d ' ')" = "$n" ] || fail "cannot parse the pids of filt records"
others=$(filt_pids | grep -cvx 1)
log "filtered: $n records, $others from pids other than 1"
[ "$others" = 0 ] || fail "records from pids other than 1 despite the filter"

quiet_write 0 "$F" || fail "cannot clear the filter"
grep -qF "common_pid" "$F" && fail "filter still set after clearing: '$(cat "$F")'"
echo > "$T/trace"
fire filt
n=$(count_trace " filt: (")
[ "$(filt_pids | wc -l | tr -d ' ')" = "$n" ] || fail "cannot parse the pids of filt records"
others=$(filt_pids | grep -cvx 1)
log "unfiltered: $n records, $others from pids other than 1"
[ "$others" -gt 0 ] || fail "no records after clearing the filter"

reset || fail "cleanup failed"
pass
