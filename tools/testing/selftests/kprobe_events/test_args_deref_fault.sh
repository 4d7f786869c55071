#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a faulting memory fetch prints (fault), the record stays
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# address 16 is never mapped: both fetches fault, c must still be fetched
def='vfs_read bad=+0(\16):u64 bs=+0(\16):string c='"$KPE_ARG3_REG"':u64'
expect_ok "p:df $def"
listing_has "p:kprobes/df $def" || fail "listing lacks 'p:kprobes/df $def'"
fmt=$T/events/kprobes/df/format
for fld in "field:u64 bad;" "field:__data_loc char[] bs;" "field:u64 c;"; do
	grep -qF "$fld" "$fmt" || { dump "$fmt"; fail "df format lacks '$fld'"; }
done

fire df

total=$(count_trace " df: (")
good=$(grep -cE ' df: \(vfs_read\+0x0/0x[0-9a-f]+\) bad=\(fault\) bs=\(fault\) c=[1-9][0-9]*$' "$T/trace")
log "df records: $total (well-formed: $good)"
[ "$total" -gt 0 ] || fail "no 'df: (' record in trace (a fault must not drop the event)"
[ "$good" = "$total" ] ||
	rfail df "malformed df records (want 'bad=(fault) bs=(fault) c=DEC')"

reset || fail "cleanup failed"
pass
