#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: $argN at a function entry equals the matching register
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# x86_64: arg1..arg3 are passed in %di, %si, %dx
def='vfs_read a1=$arg1 di='"$KPE_ARG1_REG"' a2=$arg2:x64 si='"$KPE_ARG2_REG"' a3=$arg3:u64 dx='"$KPE_ARG3_REG"':u64'
expect_ok "p:ag $def"
listing_has "p:kprobes/ag $def" || fail "listing lacks 'p:kprobes/ag $def'"
fmt=$T/events/kprobes/ag/format
for fld in "field:u64 a1;" "field:u64 a2;" "field:u64 a3;" "field:u64 dx;"; do
	grep -qF "$fld" "$fmt" || { dump "$fmt"; fail "ag format lacks '$fld'"; }
done

fire ag

total=$(count_trace " ag: (")
log "ag records: $total"
[ "$total" -gt 0 ] || fail "no 'ag: (' record in trace"
parsed=0
bad=0
while read -r a1 di a2 si a3 dx; do
	[ -n "$a1" ] || continue
	parsed=$((parsed + 1))
	if [ "$a1" != "$di" ] || [ "$a2" != "$si" ] || [ "$a3" != "$dx" ]; then
		bad=$((bad + 1))
		log "mismatch: a1=$a1 di=$di a2=$a2 si=$si a3=$a3 dx=$dx"
	fi
done <<EOT
$(sed -n 's/^.* ag: (vfs_read+0x0\/0x[0-9a-f]*) a1=\(0x[0-9a-f]*\) di=\(0x[0-9a-f]*\) a2=\(0x[0-9a-f]*\) si=\(0x[0-9a-f]*\) a3=\([0-9][0-9]*\) dx=\([0-9][0-9]*\)$/\1 \2 \3 \4 \5 \6/p' "$T/trace")
EOT
log "parsed $parsed records, $bad mismatches"
[ "$parsed" = "$total" ] ||
	rfail ag "malformed ag records (want 'a1=0xHEX di=0xHEX a2=0xHEX si=0xHEX a3=DEC dx=DEC')"
[ "$bad" = 0 ] || rfail ag "\$argN differs from its register in $bad records"

# $argN only at a function entry, not at an offset (a return probe takes
# it at the entry: test_args_argn_return.sh)
find_offset vfs_read ok
if [ -n "$OFFSET" ]; then
	expect_refused EINVAL "p:ago vfs_read+$OFFSET x=\$arg1"
else
	log "no probe-able offset in vfs_read+1..16, non-entry \$arg1 not checked"
fi

reset || fail "cleanup failed"
pass
