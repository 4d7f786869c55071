#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the kernel's kprobe_event_gen_test module builds, enables and deletes its events
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

[ -n "$(find /lib/modules -name kprobe_event_gen_test.ko 2>/dev/null)" ] ||
	skip "kprobe_event_gen_test module not available"
modprobe kprobe_event_gen_test || fail "modprobe kprobe_event_gen_test failed"
dump "$T/kprobe_events"
grep -q '^p:kprobes/gen_kprobe_test ' "$T/kprobe_events" ||
	{ rmmod kprobe_event_gen_test; fail "gen_kprobe_test not listed"; }
grep -q '^r:kprobes/gen_kretprobe_test ' "$T/kprobe_events" ||
	{ rmmod kprobe_event_gen_test; fail "gen_kretprobe_test not listed"; }
[ "$(cat "$T/events/kprobes/gen_kprobe_test/enable")" = 1 ] ||
	{ rmmod kprobe_event_gen_test; fail "gen_kprobe_test not enabled by the module"; }
grep -q 'field:u64 dfd;' "$T/events/kprobes/gen_kprobe_test/format" ||
	{ rmmod kprobe_event_gen_test; fail "gen_kprobe_test has no dfd field"; }

rmmod kprobe_event_gen_test || fail "rmmod kprobe_event_gen_test failed"
grep -q gen_k "$T/kprobe_events" && fail "events left after rmmod"
[ -d "$T/events/kprobes/gen_kprobe_test" ] && fail "event dir left after rmmod"

reset || fail "cleanup failed"
pass
