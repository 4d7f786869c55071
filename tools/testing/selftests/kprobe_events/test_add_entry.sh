#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: add an entry probe with an auto-generated name
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p vfs_read"
listing_has "p:kprobes/p_vfs_read_0 vfs_read" ||
	fail "listing lacks 'p:kprobes/p_vfs_read_0 vfs_read'"
[ "$(nr_probes)" = 1 ] || fail "expected exactly 1 probe, got $(nr_probes)"
check_event_files p_vfs_read_0
log "id of p_vfs_read_0: $(cat "$T/events/kprobes/p_vfs_read_0/id")"

reset || fail "cleanup failed"
[ ! -d "$T/events/kprobes/p_vfs_read_0" ] || fail "event dir left after clear"
pass
