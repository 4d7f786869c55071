#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: an empty user string is recorded as "", not as a fault:
# at an entry probe, and as $argN taken at entry by a return probe
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:ue do_sys_openat2 fn=+0($KPE_ARG2_REG):ustring"
expect_ok 'r:uer do_sys_openat2 fn=+0($arg2):ustring ret=$retval:s32'
for e in ue uer; do enable_ev "$e"; done
cat "" > /dev/null 2>&1		# open(""): ENOENT
cat /proc/version > /dev/null
for e in ue uer; do disable_ev "$e"; done

for e in ue uer; do
	empty=$(grep -E " $e: \\(" "$T/trace" | grep -cE ' fn=""( |$)')
	named=$(grep -E " $e: \\(" "$T/trace" | grep -cF 'fn=' | tr -d ' ')
	fault=$(grep -E " $e: \\(" "$T/trace" | grep -c 'fn=(fault)')
	log "$e: $named records, $empty with fn=\"\", $fault with fn=(fault)"
	[ "$empty" -gt 0 ] || rfail "$e" "$e: the open of \"\" not recorded with fn=\"\""
	[ "$fault" = 0 ] || rfail "$e" "$e: $fault records show fn=(fault)"
done
reset || fail "cleanup failed"
pass
