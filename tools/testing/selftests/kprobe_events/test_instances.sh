#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: one kprobe event enabled in two trace instances records into both, each on its own
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
I=$T/instances/kpe_inst
rmdir "$I" 2>/dev/null
mkdir "$I" || skip "cannot create a trace instance"

expect_ok "p:inst vfs_read c=$KPE_ARG3_REG:u64"
enable_ev inst
echo 1 > "$I/events/kprobes/inst/enable" || fail "cannot enable in the instance"
trigger
echo 0 > "$I/events/kprobes/inst/enable"
disable_ev inst
top=$(count_trace " inst: (vfs_read+0x0/")
sub=$(grep -cF " inst: (vfs_read+0x0/" "$I/trace")
log "records: top $top, instance $sub"
[ "$top" -gt 0 ] || fail "no record in the top-level buffer"
[ "$sub" -gt 0 ] || fail "no record in the instance"

# Enabled only in the instance: the top-level buffer gets nothing.
echo > "$T/trace"
echo > "$I/trace"
echo 1 > "$I/events/kprobes/inst/enable"
trigger
echo 0 > "$I/events/kprobes/inst/enable"
[ "$(count_trace " inst: (")" = 0 ] || fail "top-level buffer recorded while disabled there"
[ "$(grep -cF " inst: (" "$I/trace")" -gt 0 ] || fail "instance recorded nothing"

# Busy while enabled in an instance only.
echo 1 > "$I/events/kprobes/inst/enable"
expect_errno EBUSY "-:inst"
echo 0 > "$I/events/kprobes/inst/enable"
rmdir "$I" || fail "cannot remove the instance"
expect_ok "-:inst"

reset || fail "cleanup failed"
pass
