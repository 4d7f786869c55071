#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: module unload disarms its probes, they stay listed; every reload re-arms them
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

[ -n "$(find /lib/modules -name trace-printk.ko 2>/dev/null)" ] ||
	skip "trace-printk sample module not available"
KL=/sys/kernel/debug/kprobes/list
EF=$T/enabled_functions
[ -f "$KL" ] || skip "no $KL"
rmmod trace-printk 2>/dev/null
MOD=trace_printk
FUNC=trace_printk_irq_work

# live_kprobes: kprobes the kprobes core has registered and not gone (a
# probe on unloaded module text is listed [GONE] or not at all)
live_kprobes() {
	grep -v '\[GONE\]' "$KL" | wc -l | tr -d ' '
}
# hooks_on_func: how many live kprobes and ftrace hooks (a function-entry
# probe may be either) sit on FUNC
hooks_on_func() {
	{ grep -v '\[GONE\]' "$KL"; cat "$EF" 2>/dev/null; } | grep -c "$FUNC"
}
# hits EVENT: its kprobe_profile hit count
hits() {
	v=$(profile_hits "$1")
	case "$v" in '' | *[!0-9]*) fail "no kprobe_profile count for $1" ;; esac
	echo "$v"
}

base=$(live_kprobes)
expect_ok "p:mr $MOD:$FUNC"
expect_ok "r:mrr $MOD:$FUNC"
want_list=$(snapshot)
enable_ev mr
enable_ev mrr
[ "$(live_kprobes)" = "$base" ] && [ "$(hooks_on_func)" = 0 ] ||
	fail "hooks in place before the module is loaded"

prev_mr=0
prev_mrr=0
round=1
while [ $round -le 3 ]; do
	modprobe trace-printk || fail "modprobe trace-printk failed (round $round)"
	[ "$(hooks_on_func)" -ge 1 ] ||
		{ sed 's/^/#   /' "$KL"; fail "round $round: loaded, but nothing hooks $FUNC"; }
	h_mr=$(hits mr)
	h_mrr=$(hits mrr)
	log "round $round loaded: mr hits $h_mr, mrr hits $h_mrr"
	[ "$h_mr" -gt "$prev_mr" ] || fail "round $round: mr not re-armed (hits $h_mr)"
	[ "$h_mrr" -gt "$prev_mrr" ] || fail "round $round: mrr not re-armed (hits $h_mrr)"
	# Recorded too (read while loaded: the address still has a name).
	n=$(count_trace " mr: ($FUNC+0x0/")
	[ "$n" -ge $round ] || rfail mr "round $round: $n mr records"

	rmmod trace-printk || fail "rmmod trace-printk failed (round $round)"
	[ "$(snapshot)" = "$want_list" ] || fail "round $round: listing changed by the unload"
	[ "$(live_kprobes)" = "$base" ] && [ "$(hooks_on_func)" = 0 ] ||
		{ sed 's/^/#   /' "$KL"; fail "round $round: probes still armed after the unload"; }
	[ "$(cat "$(ev_dir mr)/enable")" = 1 ] || fail "round $round: mr no longer enabled"
	# Nothing can hit while it is gone.
	trigger
	[ "$(hits mr)" = "$h_mr" ] || fail "round $round: mr hit while the module was gone"
	prev_mr=$h_mr
	prev_mrr=$h_mrr
	round=$((round + 1))
done

disable_ev mr
disable_ev mrr

# Loaded, removed, unloaded: nothing left behind in the kprobes core.
modprobe trace-printk || fail "last modprobe failed"
expect_ok "-:mr"
expect_ok "-:mrr"
rmmod trace-printk || fail "last rmmod failed"
[ "$(live_kprobes)" = "$base" ] && [ "$(hooks_on_func)" = 0 ] ||
	fail "hooks left after removing the probes"

reset || fail "cleanup failed"
pass
