#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: several places under one event name record into that one event
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:mp vfs_read c=$KPE_ARG3_REG:u64"
id=$(cat "$T/events/kprobes/mp/id")
expect_ok "p:mp vfs_write c=$KPE_ARG3_REG:u64"
[ "$(cat "$T/events/kprobes/mp/id")" = "$id" ] || fail "the second place made a new event"
listing_has "p:kprobes/mp vfs_read c=$KPE_ARG3_REG:u64" || fail "first place not listed"
listing_has "p:kprobes/mp vfs_write c=$KPE_ARG3_REG:u64" || fail "second place not listed"

enable_ev mp
trigger
echo x > /tmp/kpe_mp.$$
disable_ev mp
rm -f /tmp/kpe_mp.$$
r=$(count_trace " mp: (vfs_read+0x0/")
w=$(count_trace " mp: (vfs_write+0x0/")
log "vfs_read records: $r, vfs_write records: $w"
[ "$r" -gt 0 ] || fail "no record from the vfs_read place"
[ "$w" -gt 0 ] || fail "no record from the vfs_write place"

# A place joining an enabled event fires at once.
enable_ev mp
expect_ok "p:mp do_sys_openat2 c=$KPE_ARG3_REG:u64"
trigger
disable_ev mp
[ "$(count_trace " mp: (do_sys_openat2+0x0/")" -gt 0 ] ||
	fail "a place added to an enabled event did not fire"

# Removing the event by name removes every place; one place can go alone.
expect_ok "-:mp vfs_write c=$KPE_ARG3_REG:u64"
listing_has "p:kprobes/mp vfs_write c=$KPE_ARG3_REG:u64" && fail "vfs_write place not removed"
[ "$(nr_probes)" = 2 ] || fail "expected 2 places left, got $(nr_probes)"
expect_ok "-:mp"
[ -z "$(listing)" ] || fail "places left after -:mp"
[ -d "$T/events/kprobes/mp" ] && fail "event dir left"

reset || fail "cleanup failed"
pass
