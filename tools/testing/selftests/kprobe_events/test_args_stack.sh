#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: $stack is %sp, $stackN the Nth word there (N=0: return address)
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# rs: the return address, $stack0 on x86_64 (KPE_RA_ARG: %lr on arm64)
def='vfs_read sp=%sp st=$stack s0=$stack0 m0=+0($stack) s1=$stack1 m1=+8(%sp) rs='"$KPE_RA_ARG"':symbol'
expect_ok "p:st $def"
listing_has "p:kprobes/st $def" || fail "listing lacks 'p:kprobes/st $def'"

fire st

total=$(count_trace " st: (")
log "st records: $total"
[ "$total" -gt 0 ] || fail "no 'st: (' record in trace"
X='0x(0|[1-9a-f][0-9a-f]*)'
good=$(grep -cE " st: \(vfs_read\+0x0/0x[0-9a-f]+\) sp=$KADDR_RE st=$X s0=$X m0=$X s1=$X m1=$X rs=[A-Za-z0-9_.]+\+0x[1-9a-f][0-9a-f]*/0x[0-9a-f]+\$" "$T/trace")
log "well-formed: $good"
[ "$good" = "$total" ] ||
	rfail st "malformed st records (want kernel sp and rs=CALLER+0xOFF/0xSIZE, OFF > 0)"
bad=$(sed -n 's/^.* st: (.*) sp=\([^ ]*\) st=\([^ ]*\) s0=\([^ ]*\) m0=\([^ ]*\) s1=\([^ ]*\) m1=\([^ ]*\) rs=.*$/\1 \2 \3 \4 \5 \6/p' "$T/trace" |
	awk '$1 != $2 || $3 != $4 || $5 != $6' | head -n 3)
[ -z "$bad" ] || {
	echo "$bad" | sed 's/^/#   sp st s0 m0 s1 m1: /'
	fail "\$stack != %sp or \$stackN != +8N(\$stack)"
}
callers=$(sed -n 's/^.* st: .* rs=\([^+]*\)+.*$/\1/p' "$T/trace" | sort -u | tr '\n' ' ')
log "return addresses in: $callers"

reset || fail "cleanup failed"
pass
