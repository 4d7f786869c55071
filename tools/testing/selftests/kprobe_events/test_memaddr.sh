#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a probe given by raw address fires and resolves to the symbol
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

addr=$(awk '$3 == "vfs_read" && ($2 == "T" || $2 == "t") { print $1; exit }' /proc/kallsyms)
[ -n "$addr" ] || fail "vfs_read not found in /proc/kallsyms"
case "$addr" in
*[!0]*) ;;
*) skip "kallsyms addresses are hidden (kptr_restrict)" ;;
esac
log "vfs_read at 0x$addr"

expect_ok "p:byaddr 0x$addr"
line=$(listing | grep '^p:kprobes/byaddr ')
[ -n "$line" ] || fail "byaddr not listed"
log "listed as: $line"
set -- $line
[ $# -eq 2 ] || fail "unexpected listing line '$line'"
case "$2" in
0x* | vfs_read*) ;;
*) fail "listing '$line': location is neither an address nor vfs_read" ;;
esac
check_event_files byaddr

fire byaddr
n=$(count_trace " byaddr: (vfs_read+0x0/")
log "byaddr records: $n"
[ "$n" -gt 0 ] || fail "no 'byaddr: (vfs_read+0x0/' record in trace"

reset || fail "cleanup failed"
pass
