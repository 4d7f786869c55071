#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: clearing or removing an enabled probe fails with EBUSY
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:busy vfs_read"
expect_ok "p:idle vfs_write"
enable_ev busy
before=$(snapshot)

out=$("$KPE_WRITE" -t "$T/kprobe_events" "$NL")
[ "$out" = EBUSY ] ||
	fail "O_TRUNC open/write with an enabled event: expected EBUSY, got '${out:-success}'"
if { echo > "$T/kprobe_events"; } 2>/dev/null; then
	fail "'echo > kprobe_events' succeeded with an enabled event"
fi
out=$("$KPE_WRITE" -t "$T/kprobe_events" "p:newone vfs_read")
[ "$out" = EBUSY ] || fail "O_TRUNC write of a new probe: expected EBUSY, got '${out:-success}'"
[ "$(snapshot)" = "$before" ] || fail "failed clear changed the listing"
[ -d "$T/events/kprobes/newone" ] && fail "newone was created by a refused write"

expect_errno EBUSY "-:busy"
expect_errno EBUSY "-:kprobes/busy"
listing_has "p:kprobes/busy vfs_read" || fail "busy probe no longer listed"
[ "$(cat "$T/events/kprobes/busy/enable")" = 1 ] || fail "busy probe no longer enabled"

# a disabled probe can still be removed while another one is enabled
expect_ok "-:idle"
listing_has "p:kprobes/idle vfs_write" && fail "idle probe still listed"

# the enabled probe still works.  (Not read from "trace" while a probe on
# vfs_read is enabled: every read would add a record, and the reader would
# never reach the end.)
echo > "$T/trace"
trigger
disable_ev busy
[ "$(count_trace " busy: (")" -gt 0 ] || fail "enabled probe stopped recording"

echo > "$T/kprobe_events" || fail "clear failed after disabling"
[ -z "$(listing)" ] || fail "listing not empty after clear"
[ -d "$T/events/kprobes/busy" ] && fail "busy dir left after clear"

reset || fail "cleanup failed"
pass
