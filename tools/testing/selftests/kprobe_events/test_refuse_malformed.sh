#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: malformed lines fail with EINVAL; existing probes untouched
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:keep vfs_read"
id=$(cat "$T/events/kprobes/keep/id")

expect_refused EINVAL "x vfs_read"
expect_refused EINVAL "p"
expect_refused EINVAL "p:bad-name vfs_read"
expect_refused EINVAL "p:9bad vfs_read"
expect_refused EINVAL "r vfs_read+8"
expect_refused EINVAL "p vfs_read+xyz"

[ "$(listing)" = "p:kprobes/keep vfs_read" ] || fail "listing changed"
[ "$(cat "$T/events/kprobes/keep/id")" = "$id" ] || fail "keep was re-created (id changed)"
check_event_files keep

reset || fail "cleanup failed"
pass
