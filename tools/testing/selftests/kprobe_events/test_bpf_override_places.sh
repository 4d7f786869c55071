#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a BPF program that overrides returns attaches to an event
# with one place on an error-injectable function, where it makes the
# call fail (bpf_override_return()), and not to an event
# with a place elsewhere too; no place joins an event while perf (and so
# BPF) has it open
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
KPE_OVERRIDE=$DIR/kpe_override
[ -x "$KPE_OVERRIDE" ] || fail "$KPE_OVERRIDE missing"
# getppid's entry point (__x64_sys_getppid on x86_64)
SYSF=${KPE_SYS}getppid
grep -q " $SYSF\$" /proc/kallsyms || skip "no $SYSF"
grep -Eq "^($SYSF|__do_sys_getppid)[[:space:]]" /sys/kernel/debug/error_injection/list 2>/dev/null ||
	skip "$SYSF is not error-injectable here"

id_of() {
	cat "$(ev_dir "$1")/id"
}

# One place, error-injectable: attaches (the control).
expect_ok "p:kprobes/ovr1 $SYSF"
out=$("$KPE_OVERRIDE" "$(id_of ovr1)" 2>/dev/null)
[ "$out" = attached ] || fail "override on $SYSF alone: $out"
# And it overrides: getppid() fails with EPERM while the program is
# attached, on whatever path the place took (ftrace with every register
# saved, arm64 6.12's copy of the argument registers, a kprobe), and
# returns the parent again once detached.
out=$("$KPE_OVERRIDE" "$(id_of ovr1)" --fire 2>&1)
log "override fired: $(echo $out)"
echo "$out" | grep -qx 'getppid: -EPERM' ||
	fail "getppid() not overridden on $SYSF: '$out'"
ppid=$(sh -c 'echo $PPID')
[ "$ppid" -gt 0 ] 2>/dev/null || fail "getppid() after the override: '$ppid'"

# A second place, on a function whose returns may not be overridden.
expect_ok "p:kprobes/ovr2 $SYSF"
expect_ok "p:kprobes/ovr2 vfs_read"
out=$("$KPE_OVERRIDE" "$(id_of ovr2)" 2>/dev/null)
[ "$out" = EINVAL ] ||
	fail "override on an event that also probes vfs_read: '$out', want EINVAL"

# A place may not join while the program is attached.
before=$(snapshot)
out=$("$KPE_OVERRIDE" "$(id_of ovr1)" \
	"echo 'p:kprobes/ovr1 vfs_read' >> $T/kprobe_events" 2>/dev/null)
echo "$out" | grep -qx attached || fail "override on ovr1: $out"
echo "$out" | grep -qx 'command: 0' &&
	fail "vfs_read joined ovr1 while an overriding program was attached"
[ "$(snapshot)" = "$before" ] || fail "the refused join changed the listing"
grep -q 'perf or BPF has the event open' "$T/error_log" ||
	{ dump "$T/error_log"; fail "error_log does not say why the join was refused"; }
# Detached, it may.
expect_ok "p:kprobes/ovr1 vfs_read"

reset || fail "cleanup failed"
pass
