#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: function-entry probes take our ftrace hook on every config (IBT's endbr64 too), from tracefs and from perf's kprobe PMU, and records still read SYM+0x0
. "$(dirname "$0")/lib.sh"
need_fentry
reset || fail "initial reset failed"
EF=$T/enabled_functions
[ -r "$EF" ] || skip "no enabled_functions (no dynamic ftrace)"
KPE_PERF=$DIR/kpe_perf

L=/sys/kernel/debug/kprobes/list

expect_ok "p:kprobes/fe vfs_read"
expect_ok "r:kprobes/fr vfs_read"
listing_has "p:kprobes/fe vfs_read" || fail "listing of fe changed"
listing_has "r:kprobes/fr vfs_read" || fail "listing of fr changed"
echo 1 > "$T/events/kprobes/enable" || fail "enable failed"
head -n1 /proc/version > /dev/null
by=$(ftrace_hook vfs_read)
log "vfs_read hooked by: ${by:-nothing}"
echo 0 > "$T/events/kprobes/enable"
case $by in
tkp_fentry*) ;;
*) dump "$EF"; fail "vfs_read's entry is not on our ftrace hook (got '${by:-none}')" ;;
esac
# The record names the function's first byte, as written ("vfs_read"),
# even where the hook sits past a landing pad.
grep -q ' fe: (vfs_read+0x0/0x' "$T/trace" ||
	{ dump "$T/trace"; fail "no fe record reading (vfs_read+0x0/...)"; }
grep -q ' fr: (.* <- vfs_read)' "$T/trace" ||
	{ dump "$T/trace"; fail "no fr record reading (... <- vfs_read)"; }
# The preempt depth (4th flag) of a record from task context is that of
# the probed context, 0, as the kernel's tracer writes it: not one more
# for the ring buffer's own preempt_disable() (a preemptible kernel's
# count shows it).  Where the return probe is a kretprobe (arm64), its
# records have the context of the kprobes core's return handler.
evs=fe
has_fentry_return && evs='fe|fr'
bad=$(grep -E " ($evs): " "$T/trace" | grep -E '^ *head-[0-9]+ +\[[0-9]+\] ...[^.]' | head -n3)
[ -z "$bad" ] || { log "$bad"; fail "records from task context show a preempt depth"; }
reset || fail "reset failed"

# perf's kprobe PMU (perf, bpftrace): the same hook while the event is open.
if [ -x "$KPE_PERF" ] && [ -f /sys/bus/event_source/devices/kprobe/type ]; then
	kinds=entry
	has_fentry_return && kinds="entry ret"	# else a kretprobe (arm64)
	for kind in $kinds; do
		arg=; [ $kind = ret ] && arg=ret
		n=$(KPE_PERF_SHOW=$EF:$L "$KPE_PERF" kprobe vfs_read $arg 2>/tmp/kpe-ef) ||
			fail "kprobe PMU $kind probe on vfs_read: $n"
		by=$(ftrace_hook vfs_read /tmp/kpe-ef)
		log "PMU $kind probe: $n hits, hooked by ${by:-nothing}"
		case $by in
		tkp_fentry*) ;;
		*) dump /tmp/kpe-ef; fail "PMU $kind probe is not on our ftrace hook (got '${by:-none}')" ;;
		esac
		[ "$n" -ge 10 ] || fail "PMU $kind probe counted $n hits, expected 10 or more"
	done
	rm -f /tmp/kpe-ef
	# In a module the PMU's probe stays a kprobe: perf's probes are not
	# on the list the module notifier unhooks places from when it goes.
	if modprobe trace-printk 2>/dev/null; then
		n=$(KPE_PERF_SHOW=$EF:$L "$KPE_PERF" kprobe trace_printk_irq_work 2>/tmp/kpe-ef) ||
			fail "kprobe PMU probe on a module function: $n"
		by=$(ftrace_hook trace_printk_irq_work /tmp/kpe-ef)
		log "PMU probe on trace_printk_irq_work (module): hooked by ${by:-nothing}"
		rmmod trace-printk
		# arm64 has no kprobes on ftrace: a BRK kprobe, on no hook.
		want=kprobe_ftrace_handler
		[ "$KPE_ARCH" = arm64 ] && want=
		[ "$by" = "$want" ] ||
			{ dump /tmp/kpe-ef; fail "PMU probe in a module is on our ftrace hook (got '${by:-none}')"; }
		rm -f /tmp/kpe-ef
	else
		log "no trace-printk module: the module case is not checked"
	fi
fi
reset || fail "cleanup failed"
pass
