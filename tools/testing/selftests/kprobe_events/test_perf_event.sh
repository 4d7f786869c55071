#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: perf counts a kprobe event as a tracepoint; the event is busy while perf holds it
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

KPE_PERF=$DIR/kpe_perf
[ -x "$KPE_PERF" ] || fail "$KPE_PERF missing"

expect_ok "p:pe vfs_read c=$KPE_ARG3_REG:u64"
id=$(cat "$T/events/kprobes/pe/id")
n=$("$KPE_PERF" tracepoint "$id") || fail "perf on kprobes/pe (id $id): $n"
log "perf counted $n hits of kprobes/pe"
[ "$n" -ge 10 ] || fail "expected at least 10 hits, got $n"

# After perf closed it, the event is idle again and can be removed.
[ "$(cat "$T/events/kprobes/pe/enable")" = 0 ] || fail "pe left enabled"
expect_ok "-:pe"
[ -z "$(listing)" ] || fail "pe still listed"

reset || fail "cleanup failed"
pass
