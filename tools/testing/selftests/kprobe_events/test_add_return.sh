#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: add a return probe with an auto-generated name
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "r vfs_read"
listing_has "r:kprobes/r_vfs_read_0 vfs_read" ||
	fail "listing lacks 'r:kprobes/r_vfs_read_0 vfs_read'"
[ "$(nr_probes)" = 1 ] || fail "expected exactly 1 probe, got $(nr_probes)"
check_event_files r_vfs_read_0

# an entry and a return probe on the same symbol coexist
expect_ok "p vfs_read"
listing_has "p:kprobes/p_vfs_read_0 vfs_read" || fail "entry probe not listed"
listing_has "r:kprobes/r_vfs_read_0 vfs_read" || fail "return probe vanished"
[ "$(cat "$T/events/kprobes/r_vfs_read_0/id")" != \
  "$(cat "$T/events/kprobes/p_vfs_read_0/id")" ] || fail "both events share one id"

reset || fail "cleanup failed"
[ ! -d "$T/events/kprobes/r_vfs_read_0" ] || fail "event dir left after clear"
pass
