#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: array types of a memory fetch print as {v1,v2,...}
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# do_filp_open(int dfd, struct filename *pathname, ...): +0(%si) is
# pathname->name, the kernel copy of the file name.  For "/proc/version"
# the bytes are 2f 70 72 6f ("/pro"), the little-endian u16s 0x702f 0x6f72.
N='+0(+0('"$KPE_ARG2_REG"'))'
def="do_filp_open name=$N:string a=$N:x8[4] b=$N:u8[2] c=$N:x16[2] d=$N:s8[1]"
expect_ok "p:ar $def"
listing_has "p:kprobes/ar $def" || fail "listing lacks 'p:kprobes/ar $def'"

fire ar

total=$(count_trace " ar: (")
log "ar records: $total"
[ "$total" -gt 0 ] || fail "no 'ar: (' record in trace"
# shape of every record (any file name)
X='0x(0|[1-9a-f][0-9a-f]*)'
D='-?[0-9]+'
good=$(grep -cE " ar: \(do_filp_open\+0x0/0x[0-9a-f]+\) name=\"[^\"]*\" a=\{$X,$X,$X,$X\} b=\{$D,$D\} c=\{$X,$X\} d=\{$D\}\$" "$T/trace")
log "well-formed: $good"
[ "$good" = "$total" ] ||
	rfail ar "malformed ar records (want 'a={0xH,0xH,0xH,0xH} b={D,D} c={0xH,0xH} d={D}')"
want=' name="/proc/version" a={0x2f,0x70,0x72,0x6f} b={47,112} c={0x702f,0x6f72} d={47}'
n=$(count_trace "$want")
log "records for /proc/version: $n"
[ "$n" -gt 0 ] || rfail ar "no ar record with '$want'"
# arrays of any length 1..64 on a memory fetch are accepted
expect_ok "p:ar64 vfs_read w=+0($KPE_ARG1_REG):x8[64] u=+8($KPE_ARG1_REG):u32[1]"

reset || fail "cleanup failed"
pass
