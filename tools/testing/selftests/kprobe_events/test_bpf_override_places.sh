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
# BPF_TASK_FD_QUERY names the place as the kernel's tracer does: the
# symbol, offset 0, and (6.12; 6.1 tells 0 for a symbol) the address of
# the kprobe "p SYM" would be: on x86_64 the ftrace site kprobes/list
# shows (past endbr64), on arm64 the function's first instruction, not
# the ftrace site two or three instructions in.
out=$("$KPE_OVERRIDE" "$(id_of ovr1)" --query 2>&1)
log "query: $(echo $out)"
q=$(echo "$out" | sed -n 's/^query: //p')
set -- $q
[ "$4" = "$SYSF" ] && [ "$2" = 0 ] || fail "BPF_TASK_FD_QUERY: '$q', want symbol $SYSF offset 0"
func=$(awk -v f="$SYSF" '$3 == f { print $1; exit }' /proc/kallsyms)
want=
if [ "$KPE_ARCH" = arm64 ]; then
	want=$func
else
	# (listed under the name ftrace knows it by: __do_sys_getppid)
	for a in $(grep -E '  k  .*\[FTRACE\]' /sys/kernel/debug/kprobes/list 2>/dev/null |
		   cut -d' ' -f1); do
		d=$((0x$a - 0x$func))
		[ $d -ge 0 ] && [ $d -le 8 ] && want=$a
	done
fi
case $(uname -r) in
6.1.*) [ "$3" = 0x0 ] || [ $(($3)) -eq $((0x${want:-0})) ] ||
	fail "BPF_TASK_FD_QUERY address $3, want 0 or 0x$want" ;;
*) [ -n "$want" ] && [ $(($3)) -eq $((0x$want)) ] ||
	fail "BPF_TASK_FD_QUERY address $3, want 0x$want" ;;
esac
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
# The same under the graph tracer on getppid, write and the syscall
# path around them (arm64's do_el0_svc): the overridden call must return
# through the graph tracer's return hook, or the task's return stack goes
# out of step and the next return through it, do_el0_svc's, finds the
# wrong frame ("Bad frame pointer", then a panic).  The graph tracer's
# ops goes in first, so that ours, added after, is called before it.
if grep -qw function_graph "$T/available_tracers"; then
	expect_ok "-:kprobes/ovr1"
	for f in "$SYSF" "${KPE_SYS}write" do_el0_svc; do
		grep -q "^$f\$" "$T/available_filter_functions" &&
			echo "$f" >> "$T/set_ftrace_filter"
	done
	log "graph tracer on: $(echo $(cat "$T/set_ftrace_filter"))"
	echo function_graph > "$T/current_tracer" || fail "cannot start the graph tracer"
	expect_ok "p:kprobes/ovr1 $SYSF"
	out=$("$KPE_OVERRIDE" "$(id_of ovr1)" --fire 2>&1)
	echo 0 > "$T/tracing_on"
	graph=$(grep -c "${KPE_SYS}write" "$T/trace")
	echo 1 > "$T/tracing_on"
	echo nop > "$T/current_tracer"
	echo > "$T/set_ftrace_filter"
	log "override fired under the graph tracer: $(echo $out)"
	echo "$out" | grep -qx 'getppid: -EPERM' ||
		fail "getppid() not overridden under the graph tracer: '$out'"
	[ "$graph" -gt 0 ] || fail "the graph tracer saw no ${KPE_SYS}write"
fi

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
