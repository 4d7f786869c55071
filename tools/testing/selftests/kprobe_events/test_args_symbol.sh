#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: @SYM, @SYM+offs and @ADDR memory fetches; the symbol type
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# linux_banner starts with "Linux version": "Linu" as a little-endian u32
# is 0x756e694c = 1970170188, the bytes at +6 ("ve") as x16 are 0x6576.
for s in jiffies linux_banner; do
	grep -q " [A-Za-z] $s\$" /proc/kallsyms || skip "no data symbol $s in /proc/kallsyms"
done
def='vfs_read ip='"$KPE_IP_REG"':symbol j=@jiffies:u64 b=@linux_banner:u32 v=@linux_banner+6:x16'
addr=$(awk '$3 == "linux_banner" { print $1; exit }' /proc/kallsyms)
case "$addr" in
*[!0]*) def="$def a=@0x$addr:u32" ;;
*) log "kallsyms addresses are hidden, @ADDR not checked" ;;
esac
expect_ok "p:sy $def"
listing_has "p:kprobes/sy $def" || fail "listing lacks 'p:kprobes/sy $def'"

fire sy

total=$(count_trace " sy: (")
log "sy records: $total"
[ "$total" -gt 0 ] || fail "no 'sy: (' record in trace"
# %ip at the entry probe is vfs_read's address, or one past it (int3)
# %ip is where a kprobe on the entry would leave it: just past its int3,
# or the ftrace call, which sits after endbr64 (+4) on an IBT kernel.
pat=' sy: \(vfs_read\+0x0/0x[0-9a-f]+\) ip=vfs_read\+0x[0-9]/0x[0-9a-f]+ j=[1-9][0-9]* b=1970170188 v=0x6576'
case "$def" in
*" a=@"*) pat="$pat a=1970170188" ;;
esac
good=$(grep -cE "$pat\$" "$T/trace")
log "well-formed: $good"
[ "$good" = "$total" ] || rfail sy "malformed sy records (want '$pat')"

reset || fail "cleanup failed"
pass
