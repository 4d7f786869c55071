#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: missed returns of an event enabled only in a trace instance
# are told in that instance, and the top-level buffer gets no note
. "$(dirname "$0")/lib.sh"
need_fentry_return
reset || fail "initial reset failed"
I=$T/instances/kpe_lost
rmdir "$I" 2>/dev/null
mkdir "$I" || skip "cannot create a trace instance"
echo > "$I/trace"

expect_ok "r1:lostin hrtimer_nanosleep"
echo 1 > "$I/events/kprobes/lostin/enable" || fail "cannot enable in the instance"
"$DIR/kpe_sleepers" 200 300 || fail "kpe_sleepers failed"
# The pool's worker tells what the last entries missed (within 100 ms).
note='s/.* kprobes\/lostin: \([0-9]*\) returns of hrtimer_nanosleep missed (no free instance)$/\1/p'
counts() {
	miss=$(awk '$1 == "lostin" || $1 == "kprobes/lostin" { print $3; exit }' "$T/kprobe_profile")
	told=$(sed -n "$note" "$I/trace" | awk '{ n += $1 } END { print n + 0 }')
	[ "$told" = "$miss" ]
}
poll 5 counts
echo 0 > "$I/events/kprobes/lostin/enable"
counts
top=$(grep -c 'returns of .* missed' "$T/trace")
log "missed: $miss in kprobe_profile, $told told in the instance, $top notes in the top-level buffer"
[ "$miss" -gt 0 ] || skip "no return was missed (the pool grew in time)"
[ "$top" = 0 ] || {
	grep -F "returns of" "$T/trace" | sed 's/^/#   /'
	fail "the top-level buffer, where the event is not enabled, got $top notes"
}
[ "$told" = "$miss" ] || {
	grep -F "returns of" "$I/trace" | sed 's/^/#   /'
	fail "$miss returns missed but $told told in the instance"
}
rmdir "$I" || fail "cannot remove the instance"
reset || fail "cleanup failed"
pass
