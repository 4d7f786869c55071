#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: bitfield types bW@O/S extract bits of a memory container
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# do_filp_open(int dfd, struct filename *pathname, ...): +0(%si) is
# pathname->name.  For "/proc/version" the first u32 (little-endian) is
# 0x6f72702f, the first u16 0x702f and the first byte 0x2f; bit offsets
# count from the least significant bit.
N='+0(+0('"$KPE_ARG2_REG"'))'
def="do_filp_open name=$N:string f1=$N:b4@4/32 f2=$N:b4@0/32 f3=$N:b8@8/32"
def="$def f4=$N:b3@29/32 f5=$N:b8@8/16 f6=$N:b1@0/8 f7=$N:b32@0/32"
expect_ok "p:bf $def"
listing_has "p:kprobes/bf $def" || fail "listing lacks 'p:kprobes/bf $def'"

fire bf

total=$(count_trace " bf: (")
log "bf records: $total"
[ "$total" -gt 0 ] || fail "no 'bf: (' record in trace"
D='(0|[1-9][0-9]*)'
good=$(grep -cE " bf: \(do_filp_open\+0x0/0x[0-9a-f]+\) name=\"[^\"]*\" f1=$D f2=$D f3=$D f4=$D f5=$D f6=$D f7=$D\$" "$T/trace")
log "well-formed: $good"
[ "$good" = "$total" ] || rfail bf "malformed bf records (want unsigned decimals f1..f7)"
# value ranges for any file name
out=$(sed -n 's/^.* bf: (.*) name="[^"]*" f1=\([0-9]*\) f2=\([0-9]*\) f3=\([0-9]*\) f4=\([0-9]*\) f5=\([0-9]*\) f6=\([0-9]*\) f7=\([0-9]*\)$/\1 \2 \3 \4 \5 \6 \7/p' "$T/trace" |
	awk '$1 > 15 || $2 > 15 || $3 > 255 || $4 > 7 || $5 > 255 || $6 > 1 || $7 > 4294967295' | head -n 3)
[ -z "$out" ] || { echo "$out" | sed 's/^/#   /'; rfail bf "bitfield value wider than its width"; }
want=' name="/proc/version" f1=2 f2=15 f3=112 f4=3 f5=112 f6=1 f7=1869770799'
n=$(count_trace "$want")
log "records for /proc/version: $n"
[ "$n" -gt 0 ] || rfail bf "no bf record with '$want'"

reset || fail "cleanup failed"
pass
