#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a place on a module's init function records the init, is
# let go when the init code is freed, and comes back with the next load;
# nothing is left hooked at the freed address (re-enabling is clean).
# (A record of init code reads the bare address once that code is freed,
# as with the kernel's own tracer: it is named when the trace is read.)
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

need_kmod
trap 'rmmod kpe_kmod 2>/dev/null' EXIT

# unarmed: error_log entries saying an enabled event could not be hooked
unarmed() {
	grep -c 'could not be hooked' "$T/error_log"
}

expect_ok "p:kprobes/ki kpe_kmod:kpe_kmod_init"
enable_ev ki
modprobe kpe_kmod || fail "modprobe kpe_kmod failed"
n=$(count_trace " ki: (")
[ "$n" = 1 ] || rfail ki "$n records of kpe_kmod_init for one load"

# The init code is gone: toggling the event neither fails nor leaves an
# address ftrace no longer knows in our filter.
disable_ev ki
enable_ev ki
disable_ev ki
[ "$(unarmed)" = 0 ] || { dump "$T/error_log"; fail "ki left unarmed after the init code went"; }
# An in-kernel caller, armed at once, is not failed by a stale site.
echo 1 > /sys/kernel/debug/kpe_kmod/api || fail "the in-kernel API failed"
n=$(count_trace " kpe_api: (")
echo 0 > /sys/kernel/debug/kpe_kmod/api || fail "the in-kernel API cleanup failed"
[ "$n" = 1 ] || fail "$n kpe_api records for one call"

# The next load hooks the init again.  (Removing kpe_api, used, emptied
# the buffer already, as removing a used event does.)
echo > "$T/trace"
enable_ev ki
rmmod kpe_kmod || fail "rmmod failed"
modprobe kpe_kmod || fail "second modprobe failed"
n=$(count_trace " ki: (")
[ "$n" = 1 ] || rfail ki "$n records of kpe_kmod_init for the second load"
disable_ev ki
rmmod kpe_kmod || fail "last rmmod failed"
[ "$(unarmed)" = 0 ] || { dump "$T/error_log"; fail "an event was left unarmed"; }
expect_ok "-:kprobes/ki"

# Once the module is live its init code is on its way out, though still
# known for a while (here: while the load waits for the init's async
# work): a place there is refused (ENOENT), as the kprobes core refuses
# one, however it is written.
modprobe kpe_kmod init_async_ms=3000 &
BG_PIDS=$!
i=0
while [ $i -lt 50 ] && ! grep -q '^kpe_kmod .* Live ' /proc/modules; do
	usleep 100000
	i=$((i + 1))
done
grep -q '^kpe_kmod .* Live ' /proc/modules || fail "kpe_kmod never went live"
grep -q ' kpe_kmod_init	\[kpe_kmod\]$' /proc/kallsyms ||
	log "kpe_kmod_init no longer in kallsyms: the window closed early"
expect_errno ENOENT "p:kprobes/late kpe_kmod_init"
expect_errno ENOENT "p:kprobes/late2 kpe_kmod:kpe_kmod_init"
wait $BG_PIDS
BG_PIDS=
rmmod kpe_kmod || fail "rmmod after the async load failed"
[ "$(unarmed)" = 0 ] || { dump "$T/error_log"; fail "an event was left unarmed"; }
reset || fail "cleanup failed"
pass
