#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: removing a probe whose event was never enabled leaves the
# trace as it was; removing one that was enabled clears the trace
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:kept vfs_read"
expect_ok "p:idle ksys_read"
fire kept
n=$(count_trace " kept: (")
[ "$n" -gt 0 ] || fail "no kept record to begin with"
{ echo "-:idle" >> "$T/kprobe_events"; } 2>/dev/null || fail "cannot remove idle"
m=$(count_trace " kept: (")
log "kept records: $n before removing the unused probe, $m after"
[ "$m" = "$n" ] || fail "removing an unused probe changed the trace"
{ echo "-:kept" >> "$T/kprobe_events"; } 2>/dev/null || fail "cannot remove kept"
m=$(count_trace " kept: (")
log "kept records after removing kept itself: $m"
[ "$m" = 0 ] || fail "records of a removed event are still in the trace"
reset || fail "cleanup failed"
pass
