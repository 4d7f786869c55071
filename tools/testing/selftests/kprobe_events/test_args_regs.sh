#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: register fetch args print as x64 hex / u64 decimal in order
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# rfail EVENT MSG: show a few EVENT records, then fail with MSG
# vfs_read(struct file *file, char __user *buf, size_t count, loff_t *pos)
def="vfs_read f=$KPE_ARG1_REG d=$KPE_ARG2_REG:x64 c=$KPE_ARG3_REG:u64"
expect_ok "p:rg $def"
listing_has "p:kprobes/rg $def" || fail "listing lacks 'p:kprobes/rg $def'"
check_event_files rg
fmt=$T/events/kprobes/rg/format
for fld in "field:u64 f;" "field:u64 d;" "field:u64 c;"; do
	grep -qF "$fld" "$fmt" || { dump "$fmt"; fail "rg format lacks '$fld'"; }
done

fire rg

# hex: 0x, lowercase, no leading zeros
X='0x(0|[1-9a-f][0-9a-f]*)'
total=$(count_trace " rg: (")
good=$(grep -cE " rg: \(vfs_read\+0x0/0x[0-9a-f]+\) f=$X d=$X c=(0|[1-9][0-9]*)\$" "$T/trace")
log "rg records: $total (well-formed: $good)"
[ "$total" -gt 0 ] || fail "no 'rg: (' record in trace"
[ "$good" = "$total" ] ||
	rfail rg "malformed rg records (want '(vfs_read+0x0/0xSIZE) f=0xHEX d=0xHEX c=DEC')"
# f is a struct file * (kernel address), d a user buffer, c a count > 0
n=$(grep -cE " rg: .* f=$KADDR_RE " "$T/trace")
[ "$n" = "$total" ] || rfail rg "f ($KPE_ARG1_REG, struct file *) is not a kernel address in $((total - n)) records"
n=$(grep -cE " rg: .* d=0x[0-9a-f]{1,12} " "$T/trace")
[ "$n" = "$total" ] || rfail rg "d ($KPE_ARG2_REG, user buffer) is not a user address in $((total - n)) records"
n=$(grep -cE " rg: .* c=[1-9][0-9]*\$" "$T/trace")
[ "$n" = "$total" ] || rfail rg "c ($KPE_ARG3_REG, count) is not a positive decimal in $((total - n)) records"

# every register name of the architecture (x86_64: the 18 of pt_regs) is
# accepted and fetched
regs=$KPE_REGS
args=
for r in $regs; do
	args="$args $r=%$r"
done
expect_ok "p:allr vfs_read$args"
listing_has "p:kprobes/allr vfs_read$args" || fail "listing lacks 'p:kprobes/allr vfs_read$args'"
echo > "$T/trace"
fire allr
pat=" allr: \(vfs_read\+0x0/0x[0-9a-f]+\)"
for r in $regs; do
	pat="$pat $r=$X"
done
total=$(count_trace " allr: (")
good=$(grep -cE "$pat\$" "$T/trace")
log "allr records: $total (well-formed: $good)"
[ "$total" -gt 0 ] || fail "no 'allr: (' record in trace"
[ "$good" = "$total" ] || rfail allr "malformed allr records (want all $(echo $regs | wc -w) registers as hex)"

reset || fail "cleanup failed"
pass
