#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a probe takes up to 128 args; 129 are refused
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

args=
want=
i=1
while [ $i -le 128 ]; do
	args="$args a$i=$KPE_ARG1_REG"
	want="$want a$i"
	i=$((i + 1))
done

expect_ok "p:many vfs_read$args"
listing_has "p:kprobes/many vfs_read$args" || fail "listing of many lacks some of its 128 args"
fmt=$T/events/kprobes/many/format
for fld in "field:u64 a1;" "field:u64 a64;" "field:u64 a128;"; do
	grep -qF "$fld" "$fmt" || { dump "$fmt"; fail "many format lacks '$fld'"; }
done

expect_refused EINVAL "p:many2 vfs_read$args a129=$KPE_ARG1_REG"
[ "$(nr_probes)" = 1 ] || fail "expected only 'many' listed, got $(nr_probes) probes"

fire many

total=$(count_trace " many: (")
log "many records: $total"
[ "$total" -gt 0 ] || fail "no 'many: (' record in trace"
# every record: a1..a128 in order, all the same (%di) value
line=$(grep -F " many: (" "$T/trace" | head -n 1)
words=$(echo "$line" | sed 's/^.* many: (vfs_read+0x0\/0x[0-9a-f]*)//' | tr ' ' '\n' | sed '/^$/d')
got=$(echo "$words" | sed 's/=.*//' | tr '\n' ' ')
[ " $got" = "$want " ] || {
	echo "#   $line" | cut -c 1-300
	fail "first record does not show exactly a1..a128 in order"
}
vals=$(echo "$words" | sed 's/^[^=]*=//' | sort -u)
case "$vals" in
0x*[!0-9a-f]* | *"$NL"*) fail "first record does not show one hex $KPE_ARG1_REG value 128 times: $vals" ;;
0x?*) ;;
*) fail "first record shows no hex value: '$vals'" ;;
esac
good=$(grep -cE ' many: \(vfs_read\+0x0/0x[0-9a-f]+\) a1=0x[0-9a-f]+ .* a128=0x[0-9a-f]+$' "$T/trace")
[ "$good" = "$total" ] || fail "$((total - good)) many records do not run from a1 to a128"

reset || fail "cleanup failed"
pass
