#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: an enabled entry probe records hits in trace and kprobe_profile
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:ent vfs_read"
h0=$(profile_hits ent)
[ "$h0" = 0 ] || fail "new probe 'ent' should have 0 hits in kprobe_profile, got '$h0'"

enable_ev ent
[ "$(cat "$T/events/kprobes/ent/enable")" = 1 ] || fail "enable does not read back 1"
trigger
disable_ev ent

total=$(count_trace " ent: (")
good=$(grep -cE ' ent: \(vfs_read\+0x0/0x[0-9a-f]+\)' "$T/trace")
log "ent records: $total (well-formed: $good)"
[ "$total" -gt 0 ] || fail "no 'ent: (' record in trace"
[ "$good" = "$total" ] || {
	grep -F " ent: (" "$T/trace" | head -n 3 | sed 's/^/#   /'
	fail "malformed ent records (want 'ent: (vfs_read+0x0/0xSIZE)')"
}

hits=$(profile_hits ent)
log "kprobe_profile hits for ent: $hits"
case "$hits" in
'' | *[!0-9]*) fail "no numeric hit count for ent in kprobe_profile" ;;
esac
[ "$hits" -gt 0 ] || fail "kprobe_profile shows 0 hits for ent"
[ "$hits" -ge "$total" ] || fail "fewer hits ($hits) than trace records ($total)"

# disabled: no new records
echo > "$T/trace"
trigger
[ "$(count_trace " ent: (")" = 0 ] || fail "records written while disabled"

reset || fail "cleanup failed"
pass
