#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: u/s/x types of one register truncate and print consistently
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# %dx is vfs_read's count; "full" is the reference value
types="u8 u16 u32 s8 s16 s32 s64 x8 x16 x32 x64"
def="vfs_read full=$KPE_ARG3_REG:u64"
for t in $types; do
	def="$def v$t=$KPE_ARG3_REG:$t"
done
expect_ok "p:ty $def"
listing_has "p:kprobes/ty $def" || fail "listing lacks 'p:kprobes/ty $def'"
fmt=$T/events/kprobes/ty/format
for t in $types; do
	case $t in
	x*) ft=u${t#x} ;;
	*) ft=$t ;;
	esac
	grep -qF "field:$ft v$t;" "$fmt" || { dump "$fmt"; fail "ty format lacks 'field:$ft v$t;'"; }
done

fire ty

total=$(count_trace " ty: (")
log "ty records: $total"
[ "$total" -gt 0 ] || fail "no 'ty: (' record in trace"

# expect BITS SIGNED|HEX|DEC VALUE: the printed form of VALUE as that type
expect() {
	_v=$(($3 & ((1 << $1) - 1)))
	[ "$1" = 64 ] && _v=$3
	case $2 in
	s)
		[ "$1" != 64 ] && [ $_v -ge $((1 << ($1 - 1))) ] && _v=$((_v - (1 << $1)))
		echo "$_v"
		;;
	x) printf '0x%x\n' "$_v" ;;
	*) echo "$_v" ;;
	esac
}

# records: "FULL vu8=.. vu16=.. ..." per well-formed record
RE='s/^.* ty: (vfs_read+0x0\/0x[0-9a-f]*) full=\([0-9][0-9]*\)\( .*\)$/\1\2/p'
parsed=$(sed -n "$RE" "$T/trace" | wc -l | tr -d ' ')
[ "$parsed" = "$total" ] || rfail ty "malformed ty records (want '(vfs_read+0x0/0xSIZE) full=DEC ...')"

# a correct record is determined by its count: check each distinct record once
checked=0
bad=0
while read -r full rest; do
	[ -n "$full" ] || continue
	# shell arithmetic is signed 64-bit: skip counts of 19+ digits
	[ ${#full} -le 18 ] || continue
	checked=$((checked + 1))
	set -- $rest
	for t in $types; do
		want=v$t=$(expect "${t#?}" "${t%%[0-9]*}" "$full")
		if [ "$1" != "$want" ]; then
			bad=$((bad + 1))
			[ $bad -le 10 ] && log "count $full: got '$1', want '$want'"
		fi
		[ $# -gt 0 ] && shift
	done
	[ $# = 0 ] || { bad=$((bad + 1)); log "count $full: extra fields '$*'"; }
done <<EOT
$(sed -n "$RE" "$T/trace" | sort -u)
EOT
log "$checked distinct records checked, $bad wrong values"
[ "$checked" -gt 0 ] || fail "no record with a count small enough to check"
[ "$bad" = 0 ] || rfail ty "$bad values inconsistent with the u64 count"

reset || fail "cleanup failed"
pass
