#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: unnamed args are named argN after their position
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:an vfs_read $KPE_ARG1_REG $KPE_ARG2_REG"
listing_has "p:kprobes/an vfs_read arg1=$KPE_ARG1_REG arg2=$KPE_ARG2_REG" ||
	fail "listing lacks 'p:kprobes/an vfs_read arg1=$KPE_ARG1_REG arg2=$KPE_ARG2_REG'"
# position counts named args too
expect_ok 'p:an2 vfs_read x='"$KPE_ARG1_REG"' '"$KPE_ARG2_REG"':u32 $comm'
listing_has 'p:kprobes/an2 vfs_read x='"$KPE_ARG1_REG"' arg2='"$KPE_ARG2_REG"':u32 arg3=$comm' ||
	fail "listing lacks 'p:kprobes/an2 vfs_read x=$KPE_ARG1_REG arg2=$KPE_ARG2_REG:u32 arg3=\$comm'"
for fld in "an field:u64 arg1;" "an field:u64 arg2;" "an2 field:u64 x;" \
	"an2 field:u32 arg2;" "an2 field:__data_loc char[] arg3;"; do
	f=$T/events/kprobes/${fld%% *}/format
	grep -qF "${fld#* }" "$f" || { dump "$f"; fail "${fld%% *} format lacks '${fld#* }'"; }
done
grep -qF "arg1" "$T/events/kprobes/an2/format" && {
	dump "$T/events/kprobes/an2/format"
	fail "an2 format has an arg1 field (the first arg is named x)"
}

enable_ev an
enable_ev an2
trigger
disable_ev an
disable_ev an2

X='0x(0|[1-9a-f][0-9a-f]*)'
for ev in an an2; do
	case $ev in
	an) pat=" an: \(vfs_read\+0x0/0x[0-9a-f]+\) arg1=$X arg2=$X\$" ;;
	an2) pat=" an2: \(vfs_read\+0x0/0x[0-9a-f]+\) x=$X arg2=(0|[1-9][0-9]*) arg3=\"[^\"]*\"\$" ;;
	esac
	total=$(count_trace " $ev: (")
	good=$(grep -cE "$pat" "$T/trace")
	log "$ev records: $total (well-formed: $good)"
	[ "$total" -gt 0 ] || fail "no '$ev: (' record in trace"
	[ "$good" = "$total" ] || rfail $ev "malformed $ev records (want '$pat')"
done

reset || fail "cleanup failed"
pass
