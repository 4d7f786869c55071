#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: hist triggers work on kprobe event fields
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:hi vfs_read cnt=$KPE_ARG3_REG:u64 cm=\$comm"
[ -f "$T/events/kprobes/hi/hist" ] || skip "no hist triggers (CONFIG_HIST_TRIGGERS)"
echo 'hist:keys=cm:vals=hitcount,cnt' > "$T/events/kprobes/hi/trigger" ||
	fail "cannot set a hist trigger on kprobe fields"
fire hi
dump "$T/events/kprobes/hi/hist"
grep -q '{ cm: head' "$T/events/kprobes/hi/hist" || fail "no hist entry for head"
grep -E '^\{ cm: head' "$T/events/kprobes/hi/hist" | grep -qE 'hitcount: +[1-9].*cnt: +[1-9]' ||
	fail "hist entry for head has no hits or no cnt sum"
echo '!hist:keys=cm:vals=hitcount,cnt' > "$T/events/kprobes/hi/trigger" ||
	fail "cannot remove the hist trigger"

reset || fail "cleanup failed"
pass
