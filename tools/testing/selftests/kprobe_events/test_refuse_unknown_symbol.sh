#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: probing an unknown symbol fails with ENOENT and changes nothing
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:keep vfs_read"
expect_refused ENOENT "p no_such_symbol_xyz"
expect_refused ENOENT "p:named no_such_symbol_xyz"
expect_refused ENOENT "r no_such_symbol_xyz"
[ ! -d "$T/events/kprobes/named" ] || fail "events/kprobes/named was created"
log "error_log after the last refusal:"
dump "$T/error_log"
listing_has "p:kprobes/keep vfs_read" || fail "pre-existing probe lost"

reset || fail "cleanup failed"
pass
