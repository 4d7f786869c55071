#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: writing 0 to debugfs kprobes/enabled disarms every probe,
# those on function entries (on ftrace) as well as kprobes: none records
# a hit, not even one defined or enabled while it is 0; writing 1 arms
# again those whose events are enabled, and only those.
. "$(dirname "$0")/lib.sh"
E=/sys/kernel/debug/kprobes/enabled
[ -w "$E" ] || skip "no $E (debugfs or kprobes missing)"
reset || fail "initial reset failed"
[ "$(cat "$E")" = 1 ] || fail "kprobes/enabled is not 1 at the start"
# Whatever happens, leave kprobes armed for the tests that follow.
trap 'echo 1 > "$E"' EXIT

# hits EVENT...: the sum of the events' kprobe_profile hits
hits() {
	_s=0
	for _e in "$@"; do
		_h=$(profile_hits "$_e")
		_s=$((_s + ${_h:-0}))
	done
	echo "$_s"
}

# switch 0|1: write kprobes/enabled, which must then read it back
switch() {
	quiet_write "$1" "$E" || fail "writing $1 to $E failed"
	[ "$(cat "$E")" = "$1" ] || fail "$E reads $(cat "$E") after writing $1"
}

# An entry and a return probe on ftrace, a pattern, and a kprobe (an
# offset past the ftrace site) for comparison.
# (has_fentry first: it clears kprobe_events)
fentry=
has_fentry && fentry=1
expect_ok "p:ks_e vfs_read"
expect_ok "r:ks_r vfs_read"
evs="ks_e ks_r"
if [ -n "$fentry" ]; then
	expect_ok "p:ks_w ksys_rea[d]"
	evs="$evs ks_w"
fi
past_entry ks_o vfs_read
evs="$evs ks_o"
for e in $evs; do
	enable_ev "$e"
done
trigger
for e in $evs; do
	[ "$(hits "$e")" -gt 0 ] || fail "$e recorded no hit while armed"
done

# Off: nothing fires.
switch 0
switch 0	# twice is the same
quiet_write "" "$T/trace"
before=$(hits $evs)
trigger
after=$(hits $evs)
[ "$after" -eq "$before" ] || fail "$((after - before)) hits while kprobes are disarmed"
[ "$(grep -c ': ks_' "$T/trace")" -eq 0 ] || rfail ks_e "records while kprobes are disarmed"

# Defined or enabled while off: does not fire either.  One on a new
# function, one on a function already hooked, one disabled and enabled
# again, one disabled for good.
expect_ok "p:ks_n ksys_read"
expect_ok "p:ks_s vfs_read"
enable_ev ks_n
enable_ev ks_s
disable_ev ks_e
enable_ev ks_e
disable_ev ks_r
r_before=$(hits ks_r)
before=$(hits $evs ks_n ks_s)
trigger
after=$(hits $evs ks_n ks_s)
[ "$after" -eq "$before" ] ||
	fail "$((after - before)) hits from probes defined or enabled while kprobes are disarmed"
if [ -r "$T/enabled_functions" ]; then
	grep -qE '^(vfs_read|ksys_read) ' "$T/enabled_functions" &&
		{ dump "$T/enabled_functions"; fail "functions hooked while kprobes are disarmed"; }
fi

# On again: those enabled fire, the one disabled does not.  Without
# fentry places ks_n is a kprobe alone on its function, which the kprobes
# core (6.1 and 6.12 alike) leaves disabled when enabled while kprobes
# are disarmed: not checked then.
on=$evs
[ -n "$fentry" ] && on="$on ks_n"
switch 1
switch 1
for e in $on ks_s; do
	[ "$e" = ks_r ] && continue
	eval "b_$e=$(hits "$e")"
done
trigger
for e in $on ks_s; do
	[ "$e" = ks_r ] && continue
	eval "b=\$b_$e"
	[ "$(hits "$e")" -gt "$b" ] || fail "$e does not fire once kprobes are armed again"
done
[ "$(hits ks_r)" -eq "$r_before" ] || fail "ks_r fires though its event was disabled"

# Clearing while off, then on: nothing is left hooked.
switch 0
reset || fail "reset while disarmed failed"
switch 1
if [ -r "$T/enabled_functions" ]; then
	grep -qE '^(vfs_read|ksys_read) ' "$T/enabled_functions" &&
		{ dump "$T/enabled_functions"; fail "functions still hooked after clearing"; }
fi
reset || fail "cleanup failed"
pass
