#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: adding an event whose name already exists fails with EEXIST
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:dup vfs_read"
expect_ok "p vfs_read"
expect_ok "p:grp1/dup2 vfs_write"
id=$(cat "$T/events/kprobes/dup/id")

expect_refused EEXIST "p:dup vfs_read"
expect_refused EEXIST "p:dup vfs_write"
expect_refused EEXIST "r:dup vfs_read"
expect_refused EEXIST "p:kprobes/dup vfs_read"
expect_refused EEXIST "p vfs_read"
expect_refused EEXIST "p:grp1/dup2 vfs_read"

[ "$(nr_probes)" = 3 ] || fail "expected 3 probes, got $(nr_probes)"
listing_has "p:kprobes/dup vfs_read" || fail "original dup changed"
[ "$(cat "$T/events/kprobes/dup/id")" = "$id" ] || fail "dup was re-created (id changed)"

reset || fail "cleanup failed"
pass
