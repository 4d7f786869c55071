#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: immediate numbers and strings (\IMM, \"STR") are recorded
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# 1234 = 0x4d2; 65535 as s16 is -1; 255 as x8 is 0xff
def='vfs_read i=\1234:u32 d=\1234 n=\65535:s16 h=\255:x8 s=\"hello"'
expect_ok "p:im $def"
listing_has "p:kprobes/im $def" || fail "listing lacks 'p:kprobes/im $def'"
fmt=$T/events/kprobes/im/format
for fld in "field:u32 i;" "field:u64 d;" "field:s16 n;" "field:u8 h;" \
	"field:__data_loc char[] s;"; do
	grep -qF "$fld" "$fmt" || { dump "$fmt"; fail "im format lacks '$fld'"; }
done

fire im

total=$(count_trace " im: (")
good=$(grep -cE ' im: \(vfs_read\+0x0/0x[0-9a-f]+\) i=1234 d=0x4d2 n=-1 h=0xff s="hello"$' "$T/trace")
log "im records: $total (well-formed: $good)"
[ "$total" -gt 0 ] || fail "no 'im: (' record in trace"
[ "$good" = "$total" ] ||
	rfail im "malformed im records (want 'i=1234 d=0x4d2 n=-1 h=0xff s=\"hello\"')"

reset || fail "cleanup failed"
pass
