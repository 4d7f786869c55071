#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: perf record -e kprobes:EVENT records samples with the event's fields
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
command -v perf >/dev/null || skip "no perf in the guest"

expect_ok "p:perfev do_sys_openat2 fn=+0($KPE_ARG2_REG):ustring"
cd /tmp || fail "no /tmp"
perf record -q -e kprobes:perfev -o /tmp/kpe-perf.data -- head -n1 /proc/version \
	> /tmp/kpe-perf.out 2>&1 || { dump /tmp/kpe-perf.out; fail "perf record failed"; }
perf script -i /tmp/kpe-perf.data > /tmp/kpe-perf.txt 2>&1 ||
	{ dump /tmp/kpe-perf.txt; fail "perf script failed"; }
dump /tmp/kpe-perf.txt
grep -q 'kprobes:perfev:.*fn="/proc/version"' /tmp/kpe-perf.txt ||
	fail "perf script shows no perfev sample with the file name"
rm -f /tmp/kpe-perf.data /tmp/kpe-perf.out /tmp/kpe-perf.txt
[ "$(cat "$T/events/kprobes/perfev/enable")" = 0 ] || fail "perfev left enabled"

reset || fail "cleanup failed"
pass
