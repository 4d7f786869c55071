#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: under lockdown=confidentiality no probe can be defined, removed or listed, through tracefs or perf's kprobe PMU
#
# Runs in make check-debug's locked-down boots, skips elsewhere:
#  - lockdown=confidentiality on the command line: tracing is refused from
#    boot on (no tracefs files are created); defining a probe through
#    either file fails and the kernel log says why;
#  - lockdown=integrity on the command line: tracing works; a probe is
#    defined, then the test raises lockdown to confidentiality, after
#    which every write, truncation and read of our files fails with
#    EPERM and the kernel log says why.
# In both, perf_event_open() with the kprobe PMU (as perf and bpftrace
# make their probes) is refused with EPERM, for entry and return probes.
LIB_NO_TRACEFS_CHECK=1
. "$(dirname "$0")/lib.sh"

SEC=/sys/kernel/security
[ -f $SEC/lockdown ] || mount -t securityfs securityfs $SEC 2>/dev/null
[ -f $SEC/lockdown ] || skip "no lockdown LSM ($SEC/lockdown)"
mode=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' $SEC/lockdown)
log "lockdown: $(cat $SEC/lockdown)"
grep -qw "lockdown=$mode" /proc/cmdline ||
	skip "not booted with lockdown=integrity or lockdown=confidentiality"

# pmu_refused: the kprobe PMU makes no probe (entry, return) under lockdown.
pmu_refused() {
	[ -f /sys/bus/event_source/devices/kprobe/type ] ||
		{ log "no kprobe PMU: not checked"; return 0; }
	out=$("$DIR/kpe_perf" kprobe vfs_write 2>/dev/null)
	refused "a kprobe PMU entry probe" "$out" EPERM
	out=$("$DIR/kpe_perf" kprobe vfs_write ret 2>/dev/null)
	refused "a kprobe PMU return probe" "$out" EPERM
}

# refused WHAT OUT ALLOWED...: OUT (kpe_write's) must be one of ALLOWED
refused() {
	_what=$1 _out=$2
	shift 2
	for _e in "$@"; do
		[ "$_out" = "$_e" ] && { log "$_what: $_out"; return 0; }
	done
	fail "$_what: got '${_out:-success}', want one of: $*"
}

case $mode in
confidentiality)
	# Tracing never started: the clear error is in the kernel log.
	dmesg | grep -q 'Tracing disabled due to lockdown' ||
		fail "no 'Tracing disabled due to lockdown' in the kernel log"
	log "kernel log: $(dmesg | grep -m1 'Lockdown: .*tracefs')"
	for f in kprobe_events dynamic_events; do
		out=$("$KPE_WRITE" -a "$T/$f" "p:ld_$f vfs_read")
		refused "defining a probe through $f" "$out" ENOENT EPERM
	done
	[ ! -d "$T/events/kprobes" ] || fail "events/kprobes exists under lockdown"
	pmu_refused
	;;
integrity)
	[ -f "$T/kprobe_events" ] || fail "no kprobe_events under lockdown=integrity"
	reset || fail "initial reset failed"
	expect_ok "p:ld_keep vfs_read"
	echo confidentiality > $SEC/lockdown ||
		fail "cannot raise lockdown to confidentiality"
	grep -q '\[confidentiality\]' $SEC/lockdown || fail "lockdown not raised"
	dmesg -c > /dev/null
	for f in kprobe_events dynamic_events; do
		out=$("$KPE_WRITE" -a "$T/$f" "p:ld_$f vfs_read")
		refused "defining a probe through $f" "$out" EPERM
		out=$("$KPE_WRITE" -a "$T/$f" "-:ld_keep")
		refused "removing a probe through $f" "$out" EPERM
		out=$("$KPE_WRITE" -t "$T/$f" "")
		refused "truncating $f" "$out" EPERM
	done
	out=$("$KPE_WRITE" -a "$T/events/kprobes/ld_keep/enable" 1)
	refused "enabling a probe" "$out" EPERM
	pmu_refused
	for f in kprobe_events dynamic_events kprobe_profile kprobe_misses; do
		cat "$T/$f" > /dev/null 2>&1 && fail "$f is readable under lockdown"
	done
	# The clear error: the lockdown LSM names the reason (its messages
	# are rate-limited; the first ones are enough).
	msg=$(dmesg | grep -m1 'Lockdown: .*use of tracefs is restricted')
	[ -n "$msg" ] || fail "no lockdown message in the kernel log"
	log "kernel log: $msg"
	;;
*)
	skip "lockdown mode '$mode' is not tested"
	;;
esac
pass
