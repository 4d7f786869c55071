#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a probe on a function entry hooks the function only while
# its event is enabled (enabled_functions), and unhooks it on disable
. "$(dirname "$0")/lib.sh"
need_fentry
reset || fail "initial reset failed"
[ -r "$T/enabled_functions" ] || skip "no enabled_functions (no dynamic ftrace)"

hooked() {
	grep -q "^vfs_read " "$T/enabled_functions"
}

expect_ok "p:fu vfs_read"
hooked && fail "vfs_read hooked before the event is enabled"
enable_ev fu
hooked || { dump "$T/enabled_functions"; fail "vfs_read not hooked once enabled"; }
log "enabled: $(grep '^vfs_read ' "$T/enabled_functions")"
disable_ev fu
hooked && { dump "$T/enabled_functions"; fail "vfs_read still hooked after disable"; }

# A return probe too (where returns are ours: not on arm64, where it is
# a kretprobe), and clearing after use.
if has_fentry_return; then
	expect_ok "r:fr vfs_read"
	enable_ev fr
	hooked || fail "vfs_read not hooked for the return probe"
	disable_ev fr
else
	enable_ev fu
fi
reset || fail "cleanup failed"
hooked && { dump "$T/enabled_functions"; fail "vfs_read still hooked after clearing"; }
pass
