#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: probing a kprobes-blacklisted function fails with EINVAL
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

BL=/sys/kernel/debug/kprobes/blacklist
[ -f "$BL" ] || BL=/debug/kprobes/blacklist
[ -f "$BL" ] || skip "no kprobes blacklist file"

# first blacklisted symbol (lines: "0xSTART-0xEND<TAB>SYM") that is a
# unique, non-module text symbol in kallsyms
sym=$(awk 'NR == FNR { if (NF == 2 && !($2 in pos)) { pos[$2] = ++n; name[n] = $2 }; next }
	   NF == 3 && ($2 == "t" || $2 == "T") && ($3 in pos) { cnt[$3]++ }
	   END { for (i = 1; i <= n; i++) if (cnt[name[i]] == 1) { print name[i]; exit } }' \
	"$BL" /proc/kallsyms)
[ -n "$sym" ] || fail "no usable symbol found in $BL"
log "blacklisted symbol: $sym ($(grep -m1 "	$sym\$" "$BL"))"

expect_ok "p:keep vfs_read"
expect_refused EINVAL "p $sym"
expect_refused EINVAL "p:bl $sym"
expect_refused EINVAL "r $sym"
listing_has "p:kprobes/keep vfs_read" || fail "pre-existing probe lost"

reset || fail "cleanup failed"
pass
