#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a symbol that names several functions is refused (EADDRNOTAVAIL), not silently the first
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

sym=$(awk '$2 == "t" || $2 == "T" { print $3 }' /proc/kallsyms | sort | uniq -d |
	grep -E '^[a-z_][a-z0-9_]*$' | head -n 1)
[ -n "$sym" ] || skip "no duplicated function name in kallsyms"
log "non-unique symbol: $sym ($(grep -c " [tT] $sym\$" /proc/kallsyms) functions)"
expect_refused EADDRNOTAVAIL "p:nu $sym"
grep -q "The symbol is not unique" "$T/error_log" || fail "error_log does not say why"

# One of them by address is fine.
addr=$(grep " [tT] $sym\$" /proc/kallsyms | head -n 1 | cut -d' ' -f1)
case "$addr" in
0000000000000000) log "addresses hidden; not probing by address" ;;
*) expect_ok "p:nu 0x$addr" ;;
esac

reset || fail "cleanup failed"
pass
