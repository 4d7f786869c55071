#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: enabling a whole group in one write arms every probe of it
# before the write returns (the hooks are applied together)
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:grp/a vfs_read"
expect_ok "p:grp/b ksys_read"
expect_ok "r:grp/c vfs_read"
quiet_write 1 "$T/events/grp/enable" || fail "cannot enable group grp"
trigger
quiet_write 0 "$T/events/grp/enable" || fail "cannot disable group grp"
for e in a b c; do
	n=$(count_trace " $e: (")
	log "grp/$e records: $n"
	[ "$n" -gt 0 ] || fail "no record of grp/$e after enabling the group"
done
reset || fail "cleanup failed"
pass
