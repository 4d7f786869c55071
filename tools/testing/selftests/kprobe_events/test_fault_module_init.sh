#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a module's init place whose letting go failed (an
# allocation failure, fail-nth, in the update made as the module goes
# live) is out of our ftrace filter once ftrace has forgotten the init
# code: later updates neither fail nor warn about it.  Needs
# CONFIG_FAILSLAB and /proc/PID/fail-nth (the debug kernel).
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

FS=/sys/kernel/debug/failslab
[ -w /proc/self/fail-nth ] || skip "no fail-nth (CONFIG_FAULT_INJECTION)"
[ -d "$FS" ] || skip "no $FS (CONFIG_FAILSLAB)"
need_fentry
need_kmod
old_wait=$(cat "$FS/ignore-gfp-wait")
old_verbose=$(cat "$FS/verbose")
echo N > "$FS/ignore-gfp-wait"
echo 0 > "$FS/verbose"
restore() {
	echo "$old_wait" > "$FS/ignore-gfp-wait"
	echo "$old_verbose" > "$FS/verbose"
	rmmod kpe_kmod 2>/dev/null
}
trap restore EXIT

expect_ok "p:kprobes/fi kpe_kmod:kpe_kmod_init"
enable_ev fi
expect_ok "p:kprobes/fo vfs_read"

# Where is the update made as the module goes live, among the fault
# points (should_fail()) the loading task passes from the write of its
# fail-nth on?  Right after the module's init returns (nothing between
# allocates: our module notifier runs first), its first allocation is
# the one to fail.  The probes that count stay for the loads below,
# which then allocate the same.
expect_ok "p:kprobes/ff should_fail"
expect_ok "p:kprobes/fw proc_fail_nth_write"
expect_ok "r:kprobes/fy kpe_kmod:kpe_kmod_init"
for e in ff fw fy; do
	enable_ev $e
done
echo > "$T/trace"
sh -c "echo 100000 > /proc/thread-self/fail-nth; exec modprobe kpe_kmod" ||
	fail "modprobe kpe_kmod failed"
rmmod kpe_kmod || fail "rmmod failed"
# Records read "COMM-PID [CPU] ...": those of the task that wrote.
N=$(grep -E ' (ff|fw|fy): ' "$T/trace" | awk '
	/ fw: / && !pid { pid = $1; sub(/.*-/, "", pid); next }
	!pid { next }
	{ p = $1; sub(/.*-/, "", p) }
	p != pid { next }
	/ fy: / { print n + 1; exit }
	/ ff: / { n++ }')
[ -n "$N" ] || { dump "$T/trace"; fail "no return of kpe_kmod_init after the fail-nth write"; }
log "the live update's first allocation: the ${N}th fault point after the write"

# warned: the kernel's warnings that an update failed
warned() {
	dmesg | grep -cE 'left unarmed|cannot hook the places of module kpe_kmod'
}
hit=0
k=$((N - 3))
while [ $k -le $((N + 3)) ]; do
	w0=$(warned)
	sh -c "echo $k > /proc/thread-self/fail-nth; exec modprobe kpe_kmod" 2>/dev/null
	w1=$(warned)
	# Only the failed update warned so far, if it failed.
	[ "$w1" -gt "$w0" ] && hit=$((hit + 1))
	rmmod kpe_kmod 2>/dev/null
	quiet_write "" "$T/error_log"
	quiet_write 1 "$(ev_dir fo)/enable" ||
		fail "fail-nth $k: enabling an unrelated event failed after the load"
	quiet_write 0 "$(ev_dir fo)/enable" ||
		fail "fail-nth $k: disabling it failed"
	w2=$(warned)
	[ "$w2" = "$w1" ] || {
		dmesg | tail -n 5 | sed 's/^/#   /'
		fail "fail-nth $k: later updates warn: the init code's address is stuck in the filter"
	}
	k=$((k + 1))
done
log "loads whose live update failed: $hit"
for e in ff fw fy; do
	disable_ev $e
done
[ $hit -gt 0 ] || fail "no load's live update failed: the test tests nothing"
disable_ev fi
reset || fail "cleanup failed"
pass
