#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: perf's kprobe PMU (perf_event_open) counts hits of its own private probe
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

KPE_PERF=$DIR/kpe_perf
[ -x "$KPE_PERF" ] || fail "$KPE_PERF missing"
[ -f /sys/bus/event_source/devices/kprobe/type ] || skip "no kprobe PMU"

n=$("$KPE_PERF" kprobe vfs_read) || fail "kprobe PMU on vfs_read: $n"
log "entry probe counted $n hits"
[ "$n" -ge 10 ] || fail "expected at least 10 hits, got $n"

n=$("$KPE_PERF" kprobe vfs_read ret) || fail "kprobe PMU return probe: $n"
log "return probe counted $n hits"
[ "$n" -ge 10 ] || fail "expected at least 10 returns, got $n"

out=$("$KPE_PERF" kprobe no_such_symbol_xyz)
[ "$out" = ENOENT ] || [ "$out" = EINVAL ] ||
	fail "kprobe PMU on an unknown symbol: expected ENOENT/EINVAL, got '$out'"

# perf's private probes never show in kprobe_events.
[ -z "$(listing)" ] || fail "perf's probe is listed in kprobe_events"

reset || fail "cleanup failed"
pass
