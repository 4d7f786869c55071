#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a symbol that names several functions is refused (EADDRNOTAVAIL), not silently the first
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# name_show is defined in several files; otherwise look for any duplicate.
# (Each read of /proc/kallsyms is slow in the guest: read it once.)
sym=name_show
defs=$(grep " [tT] $sym\$" /proc/kallsyms)
if [ "$(echo "$defs" | grep -c .)" -le 1 ]; then
	sym=$(awk '$2 == "t" || $2 == "T" { print $3 }' /proc/kallsyms | sort |
		uniq -d | grep -E '^[a-z_][a-z0-9_]*$' | head -n 1)
	defs=$(grep " [tT] $sym\$" /proc/kallsyms)
fi
[ -n "$sym" ] || skip "no duplicated function name in kallsyms"
log "non-unique symbol: $sym ($(echo "$defs" | grep -c .) functions)"
expect_refused EADDRNOTAVAIL "p:nu $sym"
n=$(echo "$defs" | grep -c .)
[ "$n" -gt 16 ] && n="more than 16"
grep -qF "The symbol is not unique ($n functions): give MOD:SYM or an address" \
	"$T/error_log" || {
	dump "$T/error_log"
	fail "error_log does not say how many functions and the ways out"
}

# One of them by address is fine.
addr=$(echo "$defs" | head -n 1 | cut -d' ' -f1)
case "$addr" in
0000000000000000) log "addresses hidden; not probing by address" ;;
*) expect_ok "p:nu 0x$addr" ;;
esac

reset || fail "cleanup failed"
pass
