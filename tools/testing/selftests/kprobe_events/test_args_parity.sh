#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: syntax the kernel's tracer takes as it does: maxactive in any base but 0, "r SYM%return", field names every record has are refused
#
# The kernel reads a return probe's maxactive with base 0 (r0x10: is 16,
# r010: is 8) and refuses 0; takes "r SYM%return" as the same return
# probe as "r SYM"; and refuses an argument named like a field every
# record of the event already has (common_pid, __probe_ip, ...) with
# "This argument name is already used".
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
trap 'reset >/dev/null 2>&1' EXIT

expect_ok 'r0x10:kprobes/mx16 vfs_read'
listing_has 'r16:kprobes/mx16 vfs_read' || fail "r0x10: listing: $(listing)"
expect_ok 'r010:kprobes/mx8 vfs_read'
listing_has 'r8:kprobes/mx8 vfs_read' || fail "r010: listing: $(listing)"
expect_refused EINVAL 'r0:kprobes/mx0 vfs_read'
grep -q 'Invalid maxactive number' "$T/error_log" ||
	fail "r0: error_log: $(cat "$T/error_log")"

expect_ok 'r:kprobes/rr vfs_read%return'
listing_has 'r:kprobes/rr vfs_read' || fail "r SYM%return: listing: $(listing)"

for name in common_pid common_type __probe_ip __probe_ret_ip __probe_func; do
	expect_refused EINVAL "p:kprobes/cf vfs_read $name=$KPE_ARG1_REG"
	grep -q 'This argument name is already used' "$T/error_log" ||
		fail "$name: error_log: $(cat "$T/error_log")"
done
expect_refused EINVAL "r:kprobes/cf vfs_read __probe_func=\$retval"
pass
