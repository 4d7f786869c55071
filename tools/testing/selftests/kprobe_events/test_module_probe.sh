#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: MOD:SYM probes wait for their module, are armed on load, survive unload and reload
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

[ -n "$(find /lib/modules -name trace-printk.ko 2>/dev/null)" ] ||
	skip "trace-printk sample module not available"
rmmod trace-printk 2>/dev/null
MOD=trace_printk
FUNC=trace_printk_irq_work

# Defined while the module is not loaded: accepted, listed, waiting.
expect_ok "p:modev $MOD:$FUNC"
listing_has "p:kprobes/modev $MOD:$FUNC" || fail "module probe not listed"
expect_ok "p $MOD:$FUNC"
[ -d "$T/events/kprobes/p_${MOD}_${FUNC}_0" ] || fail "auto-named module event missing"
enable_ev modev

# Loading the module arms it: the module's init calls the function.
modprobe trace-printk || fail "modprobe trace-printk failed"
disable_ev modev
n=$(count_trace " modev: ($FUNC+0x0/")
log "records while loaded: $n"
[ "$n" -gt 0 ] || fail "no record from the module function"

# Unload, reload: still there, armed again.
rmmod trace-printk || fail "rmmod failed"
listing_has "p:kprobes/modev $MOD:$FUNC" || fail "probe lost on unload"
echo > "$T/trace"
enable_ev modev
modprobe trace-printk || fail "second modprobe failed"
disable_ev modev
[ "$(count_trace " modev: ($FUNC+0x0/")" -gt 0 ] || fail "not re-armed on reload"
rmmod trace-printk

# Not a symbol of that module: refused once the module is there.
modprobe trace-printk
expect_refused ENOENT "p:bad $MOD:no_such_function_xyz"
rmmod trace-printk

reset || fail "cleanup failed"
pass
