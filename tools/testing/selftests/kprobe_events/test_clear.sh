#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: O_TRUNC clears all probes, O_APPEND adds
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p vfs_read"
expect_ok "r vfs_read"
expect_ok "p:c1 vfs_write"
[ "$(nr_probes)" = 3 ] || fail "expected 3 probes, got $(nr_probes)"

echo > "$T/kprobe_events" || fail "'echo > kprobe_events' failed"
[ -z "$(listing)" ] || fail "listing not empty after clear"
for e in p_vfs_read_0 r_vfs_read_0 c1; do
	[ -d "$T/events/kprobes/$e" ] && fail "event dir $e left after clear"
done

# O_TRUNC with a new line: replaces everything with that line
expect_ok "p:c2 vfs_read"
expect_ok "p:c3 vfs_read"
echo "p:only vfs_write" > "$T/kprobe_events" || fail "truncating write failed"
[ "$(listing)" = "p:kprobes/only vfs_write" ] ||
	fail "after O_TRUNC write expected only 'p:kprobes/only vfs_write'"
[ -d "$T/events/kprobes/c2" ] && fail "c2 dir left after O_TRUNC write"
check_event_files only

# O_APPEND (>>) keeps existing probes
echo "p:more vfs_read" >> "$T/kprobe_events" || fail "appending write failed"
listing_has "p:kprobes/only vfs_write" || fail "'only' lost by appending write"
listing_has "p:kprobes/more vfs_read" || fail "'more' not added"
[ "$(nr_probes)" = 2 ] || fail "expected 2 probes, got $(nr_probes)"

# kpe_write -t does the same as echo >
out=$("$KPE_WRITE" -t "$T/kprobe_events" "p:last vfs_read") ||
	fail "O_TRUNC write via kpe_write failed: $out"
[ "$(listing)" = "p:kprobes/last vfs_read" ] || fail "kpe_write -t did not replace all"

# clearing an empty list is fine
echo > "$T/kprobe_events" || fail "clear failed"
echo > "$T/kprobe_events" || fail "clearing an empty list failed"
[ -z "$(listing)" ] || fail "listing not empty"

reset || fail "cleanup failed"
pass
