#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: probes on a function the idle loop runs while RCU is not
# watching (arch_cpu_idle, between ct_idle_enter() and ct_idle_exit()):
# the entry records, with RCU made to watch (no "suspicious RCU usage" on
# the debug kernel); the return is not hooked there and counted missed
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

AFF=$T/available_filter_functions
for f in arch_cpu_idle default_idle_call; do
	grep -qx "$f" "$AFF" || skip "$f is not traceable here"
done

expect_ok "p:kprobes/idl arch_cpu_idle"
expect_ok "r:kprobes/idlr arch_cpu_idle"
expect_ok "p:kprobes/idlc default_idle_call"
# Making RCU watch calls ct_irq_enter_irqson(), which ftrace can hook: a
# probe there must not bring the idle hit back to itself (no recursion).
grep -qx ct_irq_enter_irqson "$AFF" &&
	expect_ok "p:kprobes/idlct ct_irq_enter_irqson"
echo 1 > "$T/events/kprobes/enable" || fail "cannot enable"
sleep 1
echo 0 > "$T/events/kprobes/enable"

n_idl=$(count_trace " idl: (arch_cpu_idle+0x0/")
n_idlr=$(count_trace " idlr: (")
n_idlc=$(count_trace " idlc: (default_idle_call+0x0/")
miss_idlr=$(awk '$1 == "idlr" || $1 == "kprobes/idlr" { print $3; exit }' "$T/kprobe_profile")
log "records: arch_cpu_idle $n_idl, its return $n_idlr (missed $miss_idlr), default_idle_call $n_idlc"
[ "$n_idlc" -gt 0 ] || rfail idlc "the idle loop did not run default_idle_call"
[ "$n_idl" -gt 0 ] || rfail idl "no record of arch_cpu_idle, where RCU is not watching"
[ "$n_idlr" = 0 ] || rfail idlr "returns hooked where RCU is not watching"
[ "$miss_idlr" -gt 0 ] || fail "returns not hooked, and not counted missed either"
reset || fail "cleanup failed"
pass
