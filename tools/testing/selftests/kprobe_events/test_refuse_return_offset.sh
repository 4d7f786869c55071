#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a return probe must be on a function entry, however written; negative offsets are refused
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:keep vfs_read"
expect_refused EINVAL "r vfs_read+16"
grep -qF "Retprobe address must be an function entry" "$T/error_log" ||
	{ dump "$T/error_log"; fail "error_log lacks the retprobe message"; }
expect_refused EINVAL "r:retoff vfs_read+16"
expect_refused EINVAL "p:retoff vfs_read+16%return"
# As the kernel's tracer: no negative offsets
expect_refused EINVAL "p:neg vfs_read-8"
grep -qF "Invalid probed address or symbol" "$T/error_log" ||
	{ dump "$T/error_log"; fail "error_log lacks the bad address message"; }
[ "$(listing)" = "p:kprobes/keep vfs_read" ] || fail "listing changed"

# +0 is allowed for return probes
expect_ok "r:ret0 vfs_read+0"
listing_has "r:kprobes/ret0 vfs_read" ||
	fail "'r:ret0 vfs_read+0' not listed as 'r:kprobes/ret0 vfs_read'"

# perf probe writes a return probe as _text+OFFSET: the function's entry
text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
func=$(awk '$3 == "vfs_read" { print $1; exit }' /proc/kallsyms)
[ -n "$text" ] && [ -n "$func" ] || skip "no _text or vfs_read in /proc/kallsyms"
[ "$text" != 0000000000000000 ] || skip "kallsyms hides addresses"
off=$(( 0x$func - 0x$text ))
expect_ok "r:rt _text+$off"
expect_ok "p:rp _text+$off%return"
listing_has "r:kprobes/rt _text+$off" || fail "listing lacks 'r:kprobes/rt _text+$off'"
enable_ev rt
enable_ev rp
trigger
disable_ev rt
disable_ev rp
grep -qE ' rt: \(.* <- vfs_read\)$' "$T/trace" || rfail rt "no 'rt: (... <- vfs_read)' record"
grep -qE ' rp: \(.* <- vfs_read\)$' "$T/trace" || rfail rp "no 'rp: (... <- vfs_read)' record"
expect_refused EINVAL "r:rbad _text+$((off + 16))"

# Where a function opens with endbr64 (IBT), its entry probe sits at +4
# (kprobes/list says so): "r vfs_read+4" is that entry too.
L=/sys/kernel/debug/kprobes/list
if [ "$(uname -m)" = x86_64 ] && [ -r "$L" ] && grep -qE ' vfs_read\+0x4 ' "$L"; then
	expect_ok "r:r4 vfs_read+4"
	expect_ok "p:p4 vfs_read+4%return"
	log "vfs_read+4 is the entry past endbr64: accepted as a return place"
fi

reset || fail "cleanup failed"
pass
