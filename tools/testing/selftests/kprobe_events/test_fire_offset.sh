#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a probe at a non-zero instruction-boundary offset fires
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

find_offset vfs_read ok
[ -n "$OFFSET" ] || fail "no offset in vfs_read+1..16 was accepted"
hex=$(printf '%x' "$OFFSET")
log "first accepted offset: vfs_read+$OFFSET (0x$hex)"

expect_ok "p:off vfs_read+$OFFSET"
listing_has "p:kprobes/off vfs_read+$OFFSET" ||
	fail "listing lacks 'p:kprobes/off vfs_read+$OFFSET'"
expect_ok "p vfs_read+$OFFSET"
listing_has "p:kprobes/p_vfs_read_$OFFSET vfs_read+$OFFSET" ||
	fail "auto-named probe not listed as 'p:kprobes/p_vfs_read_$OFFSET vfs_read+$OFFSET'"
expect_ok "-:p_vfs_read_$OFFSET"

fire off

n=$(count_trace " off: (vfs_read+0x$hex/0x")
log "off records: $n"
[ "$n" -gt 0 ] || fail "no 'off: (vfs_read+0x$hex/' record in trace"

reset || fail "cleanup failed"
pass
