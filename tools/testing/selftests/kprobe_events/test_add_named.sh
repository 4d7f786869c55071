#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: add probes with explicit event and group names
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:mygrp/myev vfs_read"
expect_ok "p:myev2 vfs_read+0"
listing_has "p:mygrp/myev vfs_read" || fail "listing lacks 'p:mygrp/myev vfs_read'"
listing_has "p:kprobes/myev2 vfs_read" || fail "listing lacks 'p:kprobes/myev2 vfs_read'"
[ "$(nr_probes)" = 2 ] || fail "expected 2 probes, got $(nr_probes)"
check_event_files mygrp/myev
check_event_files myev2
[ ! -d "$T/events/kprobes/myev" ] || fail "myev created in the default group too"

reset || fail "cleanup failed"
[ ! -d "$T/events/mygrp/myev" ] || fail "mygrp/myev left after clear"
[ ! -d "$T/events/kprobes/myev2" ] || fail "myev2 left after clear"
pass
