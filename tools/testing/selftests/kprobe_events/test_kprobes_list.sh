#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: debugfs kprobes/list shows probes on function entries (on
# ftrace) as the kernel's tracer does: "k" or "r", SYM+OFF of the ftrace
# site, [DISABLED] until the event is enabled, [FTRACE]; one line per
# function of a pattern; nothing once removed.  And the step of the newer
# upstream case kprobe_opt_types.tc that greps it under "set -e".
. "$(dirname "$0")/lib.sh"
L=/sys/kernel/debug/kprobes/list
[ -r "$L" ] || skip "no $L (debugfs or kprobes missing)"
# Without fentry places every place is a kprobe: the core lists them.
need_fentry
# Without rethook (arm64) a return probe is a kretprobe, the core's own
# line: only the entry probes are ours to list.
if has_fentry_return; then R=1; else R=0; fi
reset || fail "initial reset failed"

# lines SYM: the lines of kprobes/list for SYM's ftrace site
lines() {
	grep -E "^[0-9a-f]+  [kr]  $1\+0x[0-9a-f]+  " "$L"
}

# expect_lines SYM N TYPE FLAGS: N lines for SYM, each of TYPE (k or r)
# with exactly FLAGS after the symbol (spaces as the kernel prints them)
expect_lines() {
	_got=$(lines "$1" | grep -c .)
	[ "$_got" -eq "$2" ] || { dump "$L"; fail "$2 line(s) for $1 expected, got $_got"; }
	[ "$2" -eq 0 ] && return 0
	_bad=$(lines "$1" | grep -vE "^[0-9a-f]{8,16}  $3  $1\+0x[0-9a-f]+    $4\$")
	[ -z "$_bad" ] || { dump "$L"; fail "malformed line for $1: '$_bad'"; }
}

expect_lines vfs_read 0
expect_ok "p:kl_e vfs_read"
if [ $R = 0 ]; then
	expect_ok "r:kl_k vfs_read"
	grep -qE "^[0-9a-f]+  r  vfs_read\+0x0    \[DISABLED\]\$" "$L" ||
		{ dump "$L"; fail "no kretprobe line for kl_k"; }
	expect_ok "-:kl_k"
fi
[ $R = 1 ] && expect_ok "r:kl_r vfs_read"
# Defined, not enabled: listed, disabled, as kprobes registered disabled.
expect_lines vfs_read $((1 + R)) '[kr]' '\[DISABLED\]\[FTRACE\]'
lines vfs_read | grep -q '  k  ' || fail "no k line for the entry probe"
[ $R = 0 ] || lines vfs_read | grep -q '  r  ' || fail "no r line for the return probe"

# The address is the ftrace site, where the kernel's kprobe for "p
# vfs_read" is too (past endbr64 with IBT).
site=$(lines vfs_read | head -n 1 | cut -d' ' -f1)
off=$(lines vfs_read | head -n 1 | sed 's/.*vfs_read+\(0x[0-9a-f]*\) .*/\1/')
base=$(grep -m1 ' [Tt] vfs_read$' /proc/kallsyms | cut -d' ' -f1)
[ $((0x$site)) -eq $((0x$base + off)) ] ||
	fail "address $site is not vfs_read ($base) + $off"

enable_ev kl_e
expect_lines vfs_read $((1 + R)) '[kr]' '(\[DISABLED\])?\[FTRACE\]'
lines vfs_read | grep '  k  ' | grep -q DISABLED && fail "enabled entry probe listed [DISABLED]"
[ $R = 0 ] || lines vfs_read | grep '  r  ' | grep -q DISABLED ||
	fail "return probe not enabled, not listed [DISABLED]"
if [ -r "$T/enabled_functions" ]; then
	grep -q "^vfs_read " "$T/enabled_functions" ||
		fail "vfs_read not hooked while its entry probe is enabled"
fi
[ $R = 1 ] && enable_ev kl_r
[ $R = 1 ] && expect_lines vfs_read 2 '[kr]' '\[FTRACE\]'
disable_ev kl_e
[ $R = 1 ] && disable_ev kl_r
expect_lines vfs_read $((1 + R)) '[kr]' '\[DISABLED\]\[FTRACE\]'

# An offset past the ftrace site is a kprobe: the core's own line,
# without [FTRACE].
past_entry kl_o vfs_read
grep -qE "  k  vfs_read\+0x$(printf %x $OFFSET)    (\[DISABLED\])?\$" "$L" ||
	{ dump "$L"; fail "no plain kprobe line for vfs_read+$OFFSET"; }
expect_ok "-:kl_o"

# A pattern: one line per function (two places of one event here).
expect_ok "p:kl_w/w vfs_rea[d]"
expect_ok "p:kl_w/w ksys_rea[d]"
expect_lines vfs_read $((2 + R)) '[kr]' '\[DISABLED\]\[FTRACE\]'
expect_lines ksys_read 1 k '\[DISABLED\]\[FTRACE\]'
enable_ev kl_w/w
expect_lines ksys_read 1 k '\[FTRACE\]'
disable_ev kl_w/w

# A module's function: the module's name after the symbol.
if [ -n "$(find /lib/modules -name trace-printk.ko 2>/dev/null)" ]; then
	rmmod trace-printk 2>/dev/null
	modprobe trace-printk || fail "modprobe trace-printk failed"
	expect_ok "p:kl_m trace_printk:trace_printk_irq_work"
	grep -qE "^[0-9a-f]+  k  trace_printk_irq_work\+0x[0-9a-f]+  trace_printk \[DISABLED\]\[FTRACE\]\$" "$L" ||
		{ dump "$L"; fail "no line naming the module for kl_m"; }
	log "$(grep ' trace_printk_irq_work+' "$L")"
	expect_ok "-:kl_m"
	rmmod trace-printk || fail "rmmod trace-printk failed"
fi

# Addresses hidden as /proc/kallsyms hides them (kptr_restrict=2).
K=/proc/sys/kernel/kptr_restrict
if [ -w "$K" ]; then
	kr=$(cat "$K")
	echo 2 > "$K"
	hidden=$(lines vfs_read | head -n 1)
	echo "$kr" > "$K"
	case $hidden in
	0000000000000000\ *|00000000\ *) ;;
	*) fail "address shown with kptr_restrict=2: '$hidden'" ;;
	esac
fi

# Removed: gone from the list.
reset || fail "reset failed"
expect_lines vfs_read 0
expect_lines ksys_read 0

# kprobe_opt_types.tc (6.12) under ftracetest's "set -e": a probe on
# FUNC+0 enabled, "PROBE=$(grep FUNC kprobes/list)" must find a line.
grep -qw kernel_clone /proc/kallsyms && fork=kernel_clone || fork=_do_fork
out=$(
	set -e
	cd "$T"
	echo "p:testprobe $fork+0" > kprobe_events
	echo 1 > events/kprobes/enable
	(echo forked) > /dev/null
	PROBE=$(grep "$fork" "$L")
	echo 0 > events/kprobes/enable
	echo > kprobe_events
	echo "reached: $PROBE"
) 2>&1
case $out in
reached:*"$fork"*) log "$out" ;;
*) reset; fail "kprobe_opt_types.tc's step stopped: '$out'" ;;
esac
reset || fail "cleanup failed"
pass
