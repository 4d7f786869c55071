#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a probe on a notrace function is refused with EINVAL and an error_log line, unless KPROBE_EVENTS_ON_NOTRACE
#
# As the kernel's tracer does: without CONFIG_KPROBE_EVENTS_ON_NOTRACE a
# kprobe event inside a function that has no ftrace call site (notrace)
# is refused, at its entry, at an offset into it, and as a return probe;
# error_log says why.  With the option such probes are made and record,
# as on an architecture without KPROBES_ON_FTRACE (arm64 in 6.1), where
# the kernel's tracer does not check either.
# The functions are kpe_kmod's (kmod/): kpe_notrace_fn (notrace) and
# kpe_traced_fn, the control, called once each per write to its
# debugfs file "notrace".
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

D=/sys/kernel/debug/kpe_kmod
MOD_LOADED=

cleanup() {
	reset >/dev/null 2>&1
	[ -n "$MOD_LOADED" ] && rmmod kpe_kmod 2>/dev/null
}
trap cleanup EXIT

need_kmod
modprobe kpe_kmod || fail "modprobe kpe_kmod failed"
MOD_LOADED=1
[ -f "$D/notrace" ] && [ -f "$D/notrace_on" ] || skip "$D/notrace missing"
grep -q ' kpe_notrace_fn	\[kpe_kmod\]$' /proc/kallsyms ||
	fail "kpe_notrace_fn not in /proc/kallsyms"
OFF=$(cat "$D/notrace_offset")
case "$OFF" in '' | *[!0-9]*) fail "no instruction boundary in kpe_notrace_fn: '$OFF'" ;; esac
log "first instruction boundary: kpe_notrace_fn+$OFF"
NT=kpe_kmod:kpe_notrace_fn

# fire_both: call kpe_notrace_fn and kpe_traced_fn once each
fire_both() {
	out=$("$KPE_WRITE" -a "$D/notrace" 1)
	[ -z "$out" ] || fail "writing to $D/notrace: $out"
}

if [ "$(cat "$D/notrace_on")" = 1 ]; then
	log "KPROBE_EVENTS_ON_NOTRACE=y or no KPROBES_ON_FTRACE: notrace functions may be probed"
	expect_ok "p:kprobes/nt $NT"
	expect_ok "p:kprobes/nto $NT+$OFF"
	expect_ok "r:kprobes/ntr $NT"
	for ev in nt nto ntr; do enable_ev $ev; done
	fire_both
	for ev in nt nto ntr; do disable_ev $ev; done
	for ev in nt nto ntr; do
		n=$(count_trace " $ev: (")
		[ "$n" = 1 ] || rfail $ev "$ev: $n records of one call"
	done
else
	log "CONFIG_KPROBE_EVENTS_ON_NOTRACE unset: notrace functions are refused"
	expect_ok "p:kprobes/keep vfs_read"
	for def in "p:kprobes/nt $NT" "r:kprobes/ntr $NT" "p:kprobes/nto $NT+$OFF" \
		   "p $NT"; do
		before=$(snapshot)
		expect_refused EINVAL "$def"
		[ "$(snapshot)" = "$before" ] || fail "'$def' changed the listing"
		# The message line, not the command (which names kpe_notrace_fn).
		grep -i 'error:' "$T/error_log" | grep -qi notrace || {
			dump "$T/error_log"
			fail "'$def': error_log does not say the function is notrace"
		}
		grep -qE '^[[:space:]]*\^[[:space:]]*$' "$T/error_log" || {
			dump "$T/error_log"
			fail "'$def': error_log has no caret line"
		}
		log "error_log: $(grep -i -m 1 'error:' "$T/error_log" | sed 's/^\[[^]]*\] //')"
	done
	[ "$(listing)" = "p:kprobes/keep vfs_read" ] || fail "listing changed"
	[ -d "$T/events/kprobes/nt" ] && fail "events/kprobes/nt left behind"
fi

# The control: a traceable function of the same module.
expect_ok "p:kprobes/tr kpe_kmod:kpe_traced_fn"
enable_ev tr
fire_both
disable_ev tr
n=$(count_trace " tr: (kpe_traced_fn+")
[ "$n" = 1 ] || rfail tr "kpe_traced_fn: $n records of one call"

reset || fail "cleanup failed"
pass
