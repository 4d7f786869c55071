#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: an offset inside an instruction fails with EILSEQ (arm64: EINVAL, as its kprobes say of a misaligned one)
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

find_offset vfs_read EILSEQ
[ -n "$OFFSET" ] || skip "every offset in vfs_read+1..16 is an instruction boundary"
log "first mid-instruction offset: vfs_read+$OFFSET"
[ -z "$(listing)" ] || fail "offset scan left probes behind"

expect_ok "p:keep vfs_read"
MID=EILSEQ
[ "$KPE_ARCH" = arm64 ] && MID=EINVAL
expect_refused $MID "p vfs_read+$OFFSET"
expect_refused $MID "p:mid vfs_read+$OFFSET"
[ "$(listing)" = "p:kprobes/keep vfs_read" ] || fail "listing changed"

reset || fail "cleanup failed"
pass
