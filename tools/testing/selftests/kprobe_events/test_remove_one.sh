#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: "-:[GRP/]EVENT" removes exactly one probe
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p vfs_read"
expect_ok "r vfs_read"
expect_ok "p:myev vfs_write"
[ "$(nr_probes)" = 3 ] || fail "expected 3 probes, got $(nr_probes)"

# GRP/EVENT form
expect_ok "-:kprobes/p_vfs_read_0"
listing_has "p:kprobes/p_vfs_read_0 vfs_read" && fail "p_vfs_read_0 still listed"
[ -d "$T/events/kprobes/p_vfs_read_0" ] && fail "p_vfs_read_0 dir still exists"
listing_has "r:kprobes/r_vfs_read_0 vfs_read" || fail "r_vfs_read_0 was removed too"
listing_has "p:kprobes/myev vfs_write" || fail "myev was removed too"
[ -d "$T/events/kprobes/r_vfs_read_0" ] || fail "r_vfs_read_0 dir vanished"
[ -d "$T/events/kprobes/myev" ] || fail "myev dir vanished"
[ "$(nr_probes)" = 2 ] || fail "expected 2 probes, got $(nr_probes)"

# EVENT-only form (default group)
expect_ok "-:myev"
listing_has "p:kprobes/myev vfs_write" && fail "myev still listed"
[ -d "$T/events/kprobes/myev" ] && fail "myev dir still exists"
listing_has "r:kprobes/r_vfs_read_0 vfs_read" || fail "r_vfs_read_0 was removed too"
[ "$(nr_probes)" = 1 ] || fail "expected 1 probe, got $(nr_probes)"

# the removed name can be reused
expect_ok "p:myev vfs_read"
listing_has "p:kprobes/myev vfs_read" || fail "re-added myev not listed"

reset || fail "cleanup failed"
pass
