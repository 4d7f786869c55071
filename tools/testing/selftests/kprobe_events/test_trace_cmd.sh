#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: trace-cmd (Debian's binary) records one of our events and its report decodes the fields by name
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
command -v trace-cmd >/dev/null || skip "no trace-cmd in the guest"

W=/tmp/kpe-tc
rm -rf "$W"
mkdir -p "$W" || fail "cannot make $W"
expect_ok 'p:kpe_tc do_sys_openat2 dfd='"$KPE_ARG1_REG"':s32 fn=+0('"$KPE_ARG2_REG"'):ustring'
expect_ok 'r:kpe_tcr do_sys_openat2 ret=$retval:s32'
cd "$W" || fail "cannot cd to $W"
# start/stop/extract rather than record: record's per-CPU readers may be
# stopped before they drain a CPU's buffer, under TCG's timing.
trace-cmd start -e kprobes:kpe_tc -e kprobes:kpe_tcr > "$W/record.out" 2>&1 ||
	{ dump "$W/record.out"; fail "trace-cmd start failed"; }
head -n1 /proc/version > /dev/null
trace-cmd stop >> "$W/record.out" 2>&1 || { dump "$W/record.out"; fail "trace-cmd stop failed"; }
trace-cmd extract -o "$W/trace.dat" >> "$W/record.out" 2>&1 ||
	{ dump "$W/record.out"; fail "trace-cmd extract failed"; }
# trace-cmd start leaves the events enabled and tracing stopped.
echo 0 > "$T/events/kprobes/kpe_tc/enable"
echo 0 > "$T/events/kprobes/kpe_tcr/enable"
echo 1 > "$T/tracing_on"
trace-cmd report -i "$W/trace.dat" > "$W/report.txt" 2> "$W/report.err" ||
	{ dump "$W/report.err"; fail "trace-cmd report failed"; }
# The probed address as trace-cmd prints it: a symbol, or hexadecimal.
grep -E 'kpe_tc: +\([^ )]+\) dfd=-100 fn="/proc/version"' "$W/report.txt" |
	grep -q 'head' || { dump "$W/report.txt"; fail "no kpe_tc record of head opening /proc/version"; }
grep -E 'kpe_tcr: +\([^ ]+ <- [^ )]+\) ret=[0-9]+$' "$W/report.txt" | grep -q 'head' ||
	{ dump "$W/report.txt"; fail "no kpe_tcr record of head with a file descriptor"; }
log "$(grep -m1 'kpe_tc:' "$W/report.txt")"
log "$(grep -m1 'kpe_tcr:' "$W/report.txt")"
# The events can be removed after trace-cmd used them.
cd / && rm -rf "$W"
reset || fail "cleanup failed"
[ "$(nr_probes)" -eq 0 ] || fail "probes left behind"
pass
