#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: returns missed for want of an instance are counted in
# kprobe_profile and told in the trace, with how many, never silently
. "$(dirname "$0")/lib.sh"
need_fentry_return
reset || fail "initial reset failed"

# One instance to begin with: the pool grows, but not before some of
# the sleepers started at once find it empty.
expect_ok "r1:lost hrtimer_nanosleep"
enable_ev lost
"$DIR/kpe_sleepers" 200 300 || fail "kpe_sleepers failed"
# The pool's worker tells what the last entries missed (within 100 ms).
counts() {
	miss=$(awk '$1 == "lost" || $1 == "kprobes/lost" { print $3; exit }' "$T/kprobe_profile")
	told=$(sed -n 's/.* kprobes\/lost: \([0-9]*\) returns of hrtimer_nanosleep missed (no free instance)$/\1/p' "$T/trace" |
		awk '{ n += $1 } END { print n + 0 }')
	[ "$told" = "$miss" ]
}
poll 5 counts
disable_ev lost
counts
log "missed: $miss in kprobe_profile, $told told in the trace"
[ "$miss" -gt 0 ] || skip "no return was missed (the pool grew in time)"
[ "$told" = "$miss" ] || {
	grep -F "returns of" "$T/trace" | sed 's/^/#   /'
	fail "$miss returns missed but $told told in the trace"
}
reset || fail "cleanup failed"
pass
