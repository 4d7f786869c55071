#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: format files describe the probe fields of p and r events
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:fmtp vfs_read"
expect_ok "r:fmtr vfs_read"
fp=$T/events/kprobes/fmtp/format
fr=$T/events/kprobes/fmtr/format
[ -f "$fp" ] && [ -f "$fr" ] || fail "format files missing"

# on failure, show both format files
ffail() {
	dump "$fp"
	dump "$fr"
	fail "$*"
}

grep -q "^name: fmtp\$" "$fp" || ffail "fmtp format lacks 'name: fmtp'"
grep -q "^name: fmtr\$" "$fr" || ffail "fmtr format lacks 'name: fmtr'"
grep -q "^ID: $(cat "$T/events/kprobes/fmtp/id")\$" "$fp" ||
	ffail "fmtp format ID does not match the id file"
grep -qF "field:unsigned long __probe_ip;" "$fp" ||
	ffail "p format lacks 'field:unsigned long __probe_ip;'"
grep -qF "__probe_ret_ip" "$fp" && ffail "p format has __probe_ret_ip"
grep -qF "__probe_func" "$fr" || ffail "r format lacks __probe_func"
grep -qF "__probe_ret_ip" "$fr" || ffail "r format lacks __probe_ret_ip"
grep -qF "field:unsigned long __probe_ip;" "$fr" && ffail "r format has __probe_ip"
for f in "$fp" "$fr"; do
	grep -q "^print fmt: " "$f" || ffail "$f lacks a 'print fmt:' line"
	grep -qF "field:int common_pid;" "$f" || ffail "$f lacks the common_pid field"
done

reset || fail "cleanup failed"
pass
