#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: an event the in-kernel API creates and enables records a call made before the caller returns
#
# The test module kpe_kmod (kmod/) creates kprobes/kpe_api on its
# function kpe_api_target with kprobe_event_gen_cmd_start()/_end(),
# enables it with trace_set_clr_event() and calls kpe_api_target() once,
# all inside one write to its debugfs file "api", or inside its init with
# api_at_init=1.  When trace_set_clr_event() returns 0 the event is armed:
# that one call must leave exactly one record.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

D=/sys/kernel/debug/kpe_kmod
MOD_LOADED=

cleanup() {
	[ -n "$MOD_LOADED" ] && [ -f "$D/api" ] && quiet_write 0 "$D/api"
	reset >/dev/null 2>&1
	[ -n "$MOD_LOADED" ] && rmmod kpe_kmod 2>/dev/null
}
trap cleanup EXIT

need_kmod
grep -q kpe_api "$T/kprobe_events" && fail "kpe_api defined before the test"

FAILS=0
# bad MSG: a failed check; the test goes on to show the rest
bad() {
	echo "# FAIL: $*"
	FAILS=$((FAILS + 1))
}

# check_one HOW: kpe_api is listed and enabled, with one record
check_one() {
	grep -q '^p:kprobes/kpe_api kpe_api_target' "$T/kprobe_events" ||
		fail "$1: kprobes/kpe_api not listed"
	[ "$(cat "$(ev_dir kpe_api)/enable")" = 1 ] ||
		fail "$1: kprobes/kpe_api not enabled"
	n=$(count_trace " kpe_api: (kpe_api_target+")
	log "$1: $n records, kprobe_profile: $(grep kpe_api "$T/kprobe_profile")"
	[ "$n" = 1 ] ||
		bad "$1: $n records of the one call made once the event was enabled"
}

# 1. From a write to debugfs.
modprobe kpe_kmod || fail "modprobe kpe_kmod failed"
MOD_LOADED=1
[ -f "$D/api" ] || skip "$D/api missing"
quiet_write "" "$T/trace"
out=$("$KPE_WRITE" -a "$D/api" 1)
[ -z "$out" ] || fail "echo 1 > $D/api: $out"
check_one "echo 1 > api"
out=$("$KPE_WRITE" -a "$D/api" 0)
[ -z "$out" ] || fail "echo 0 > api: $out"
grep -q kpe_api "$T/kprobe_events" && fail "kpe_api listed after echo 0 > api"
[ -d "$(ev_dir kpe_api)" ] && fail "events/kprobes/kpe_api left after echo 0 > api"
rmmod kpe_kmod || fail "rmmod kpe_kmod failed"
MOD_LOADED=

# 2. From the module's init.
quiet_write "" "$T/trace"
modprobe kpe_kmod api_at_init=1 || fail "modprobe kpe_kmod api_at_init=1 failed"
MOD_LOADED=1
check_one "api_at_init=1"
rmmod kpe_kmod || fail "rmmod kpe_kmod failed"
MOD_LOADED=
grep -q kpe_api "$T/kprobe_events" && fail "kpe_api listed after rmmod"
[ -d "$(ev_dir kpe_api)" ] && fail "events/kprobes/kpe_api left after rmmod"

[ "$FAILS" = 0 ] || fail "$FAILS checks failed"
reset || fail "cleanup failed"
pass
