#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a pattern as the place makes one event with a probe on
# every matching function; the listing shows the pattern
. "$(dirname "$0")/lib.sh"
need_fentry
reset || fail "initial reset failed"

expect_ok "p:wild/w vfs_rea*"
listing_has "p:wild/w vfs_rea*" || fail "listing does not show the pattern"
[ "$(nr_probes)" = 1 ] || fail "a pattern listed as $(nr_probes) probes"
# Return probes are patterns where they are fentry places (rethook);
# elsewhere (arm64) a pattern of them is refused, with error_log's line.
if has_fentry_return; then
	RET=1
	expect_ok "r:wild/wr ksys_rea*"
else
	RET=
	quiet_write "" "$T/error_log"
	expect_refused EOPNOTSUPP "r:wild/wr ksys_rea*"
	grep -qF "Wildcard places need ftrace with registers and rethook" "$T/error_log" ||
		{ dump "$T/error_log"; fail "no error_log line for a return pattern"; }
	[ "$(nr_probes)" = 1 ] || fail "the refused return pattern left a probe"
fi
# A set's '-' is a range, not the sign of an offset.
expect_ok "p:wild/rng vfs_[q-r]ead"
listing_has "p:wild/rng vfs_[q-r]ead" || fail "listing does not show vfs_[q-r]ead"
quiet_write 1 "$T/events/wild/enable" || fail "cannot enable group wild"
trigger
quiet_write 0 "$T/events/wild/enable" || fail "cannot disable group wild"
n=$(count_trace " w: (vfs_read+0x0/")
r=$(grep -cE ' wr: \([A-Za-z0-9_.]+\+0x[0-9a-f]+/0x[0-9a-f]+ <- ksys_read\)' "$T/trace")
other=$(grep -F " w: (" "$T/trace" | grep -vcF " w: (vfs_rea")
rng=$(count_trace " rng: (vfs_read+0x0/")
rngother=$(grep -F " rng: (" "$T/trace" | grep -vcF " rng: (vfs_read+0x0/")
log "vfs_[q-r]ead: $rng records of vfs_read, $rngother of other functions"
[ "$rng" -gt 0 ] || rfail rng "no record of vfs_read from the pattern vfs_[q-r]ead"
[ "$rngother" = 0 ] || rfail rng "records of functions vfs_[q-r]ead does not match"
log "vfs_read records: $n; ksys_read returns: $r; records of other functions: $other"
[ "$n" -gt 0 ] || rfail w "no record of vfs_read from the pattern vfs_rea*"
[ -z "$RET" ] || [ "$r" -gt 0 ] || rfail wr "no return record of ksys_read from ksys_rea*"
[ "$other" = 0 ] || rfail w "records of functions the pattern does not match"
hits=$(profile_hits w)
[ "$hits" -ge "$n" ] || fail "kprobe_profile counts $hits hits for $n records"

expect_refused ENOENT "p:wild/none kpe_no_such_function_*"

# Functions kprobes refuse (the kprobes core's own, blacklisted) are
# skipped, with a note in error_log.
quiet_write "" "$T/error_log"
expect_ok "p:wild/kp kprobe*"
grep -qE 'Note: [0-9]+ matching functions cannot be probed; skipped' "$T/error_log" || {
	dump "$T/error_log"
	fail "no note of the skipped functions in error_log"
}
log "$(grep -o 'Note: .*' "$T/error_log")"
expect_refused EINVAL "p:wild/off vfs_rea*+4"
expect_refused EINVAL "p:wild/off vfs_[q-r]ead-4"
reset || fail "cleanup failed"
pass
