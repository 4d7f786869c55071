#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: MOD:PATTERN places: the module's matching functions only, now and when the module loads later
#
# "p:GRP/EVENT MOD:PATTERN" hooks the functions of module MOD whose names
# match PATTERN, and nothing of the kernel's or another module's.  With
# MOD not loaded the definition waits, and its functions are hooked when
# MOD loads.  The functions are kpe_kmod's (kmod/): kpe_traced_fn, and
# kpe_notrace_fn, which is notrace and so not a candidate; a write to its
# debugfs file "notrace" calls each once.  On a kernel without fentry
# places (no pattern at all) the definition is refused with EOPNOTSUPP.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

D=/sys/kernel/debug/kpe_kmod
cleanup() {
	reset >/dev/null 2>&1
	rmmod kpe_kmod 2>/dev/null
}
trap cleanup EXIT

need_kmod
if ! has_fentry; then
	expect_refused EOPNOTSUPP 'p:wm/loaded kpe_kmod:kpe_*_fn'
	grep -q 'Wildcard places need ftrace' "$T/error_log" ||
		fail "error_log does not say why: $(cat "$T/error_log")"
	pass
fi

fire() {
	out=$("$KPE_WRITE" -a "$D/notrace" 1)
	[ -z "$out" ] || fail "writing to $D/notrace: $out"
}

# 1. The module loaded: only its matching, traceable function is hooked.
modprobe kpe_kmod || fail "modprobe kpe_kmod failed"
expect_ok 'p:wm/loaded kpe_kmod:kpe_*_fn'
listing_has 'p:wm/loaded kpe_kmod:kpe_*_fn' || fail "listing: $(listing)"
enable_ev wm/loaded
fire
fire
disable_ev wm/loaded
dump "$T/trace"
n=$(count_trace ' loaded: (kpe_traced_fn+0x0/')
[ "$n" -eq 2 ] || fail "loaded: $n records from kpe_traced_fn, expected 2"
other=$(grep ' loaded: (' "$T/trace" | grep -vc ' loaded: (kpe_traced_fn+0x0/')
[ "$other" -eq 0 ] || fail "loaded: $other records from other functions"

# 2. Defined before the module loads: hooked on the load.
reset || fail "reset failed"
rmmod kpe_kmod || fail "rmmod kpe_kmod failed"
expect_ok 'p:wm/later kpe_kmod:kpe_traced*'
enable_ev wm/later
modprobe kpe_kmod || fail "modprobe kpe_kmod (2) failed"
fire
disable_ev wm/later
n=$(count_trace ' later: (kpe_traced_fn+0x0/')
[ "$n" -eq 1 ] || fail "later: $n records from kpe_traced_fn, expected 1"

# 3. A pattern no function of the loaded module matches.
expect_refused ENOENT 'p:wm/none kpe_kmod:no_such_fn*'
pass
