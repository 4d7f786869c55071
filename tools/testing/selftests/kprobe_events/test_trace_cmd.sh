#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: trace-cmd (Debian's binary) records one of our events and its report decodes the fields by name
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
command -v trace-cmd >/dev/null || skip "no trace-cmd in the guest"

W=/tmp/kpe-tc
rm -rf "$W"
mkdir -p "$W" || fail "cannot make $W"
expect_ok 'p:kpe_tc do_sys_openat2 dfd=%di:s32 fn=+0(%si):ustring'
expect_ok 'r:kpe_tcr do_sys_openat2 ret=$retval:s32'
cd "$W" || fail "cannot cd to $W"
trace-cmd record -q -o "$W/trace.dat" -e kprobes:kpe_tc -e kprobes:kpe_tcr \
	head -n1 /proc/version > "$W/record.out" 2>&1 ||
	{ dump "$W/record.out"; fail "trace-cmd record failed"; }
trace-cmd report -i "$W/trace.dat" > "$W/report.txt" 2> "$W/report.err" ||
	{ dump "$W/report.err"; fail "trace-cmd report failed"; }
# The probed address as trace-cmd prints it: a symbol, or hexadecimal.
grep -E 'kpe_tc: +\([^ )]+\) dfd=-100 fn="/proc/version"' "$W/report.txt" |
	grep -q 'head' || { dump "$W/report.txt"; fail "no kpe_tc record of head opening /proc/version"; }
grep -E 'kpe_tcr: +\([^ ]+ <- [^ )]+\) ret=[0-9]+$' "$W/report.txt" | grep -q 'head' ||
	{ dump "$W/report.txt"; fail "no kpe_tcr record of head with a file descriptor"; }
log "$(grep -m1 'kpe_tc:' "$W/report.txt")"
log "$(grep -m1 'kpe_tcr:' "$W/report.txt")"
# trace-cmd leaves the events as it found them, and they can be removed.
[ "$(cat "$T/events/kprobes/kpe_tc/enable")" = 0 ] || fail "kpe_tc left enabled"
[ "$(cat "$T/events/kprobes/kpe_tcr/enable")" = 0 ] || fail "kpe_tcr left enabled"
cd / && rm -rf "$W"
reset || fail "cleanup failed"
[ "$(nr_probes)" -eq 0 ] || fail "probes left behind"
pass
