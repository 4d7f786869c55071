#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a return probe with a non-zero offset fails with EINVAL
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:keep vfs_read"
expect_refused EINVAL "r vfs_read+4"
expect_refused EINVAL "r:retoff vfs_read+4"
[ "$(listing)" = "p:kprobes/keep vfs_read" ] || fail "listing changed"

# +0 is allowed for return probes
expect_ok "r:ret0 vfs_read+0"
listing_has "r:kprobes/ret0 vfs_read" ||
	fail "'r:ret0 vfs_read+0' not listed as 'r:kprobes/ret0 vfs_read'"

reset || fail "cleanup failed"
pass
