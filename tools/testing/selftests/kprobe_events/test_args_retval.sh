#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: $retval in a return probe; refused in an entry probe
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

def='vfs_read ret=$retval:s64 raw=$retval:x64'
expect_ok "r:rv $def"
listing_has "r:kprobes/rv $def" || fail "listing lacks 'r:kprobes/rv $def'"
fmt=$T/events/kprobes/rv/format
for fld in "field:s64 ret;" "field:u64 raw;"; do
	grep -qF "$fld" "$fmt" || { dump "$fmt"; fail "rv format lacks '$fld'"; }
done

fire rv

total=$(count_trace " rv: (")
log "rv records: $total"
[ "$total" -gt 0 ] || fail "no 'rv: (' record in trace"
parsed=0
pos=0
bad=0
while read -r ret raw; do
	[ -n "$ret" ] || continue
	parsed=$((parsed + 1))
	[ "$ret" -gt 0 ] && pos=$((pos + 1))
	# x64 of a negative value is its 64-bit two's complement
	[ "$raw" = "$(printf '0x%x' "$ret")" ] ||
		{ bad=$((bad + 1)); log "ret=$ret but raw=$raw"; }
done <<EOT
$(sed -n 's/^.* rv: ([^ ]* <- vfs_read) ret=\(-\{0,1\}[0-9][0-9]*\) raw=\(0x[0-9a-f]*\)$/\1 \2/p' "$T/trace")
EOT
log "parsed $parsed records: $pos positive, $bad inconsistent"
[ "$parsed" = "$total" ] ||
	rfail rv "malformed rv records (want '(CALLER <- vfs_read) ret=SDEC raw=0xHEX')"
[ "$bad" = 0 ] || rfail rv "ret (s64) and raw (x64) disagree in $bad records"
[ "$pos" -gt 0 ] || rfail rv "no record with a positive return value (bytes read)"

expect_refused EINVAL 'p:rvp vfs_read x=$retval'
listing_has "r:kprobes/rv $def" || fail "rv changed after the refused write"

reset || fail "cleanup failed"
pass
