#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: an enabled return probe records "CALLER+off/size <- SYM"
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "r:ret vfs_read"
fire ret

total=$(count_trace " ret: (")
good=$(grep -cE ' ret: \([A-Za-z0-9_.$]+\+0x[0-9a-f]+/0x[0-9a-f]+ <- vfs_read\)' "$T/trace")
log "ret records: $total (well-formed: $good)"
[ "$total" -gt 0 ] || fail "no 'ret: (' record in trace"
[ "$good" = "$total" ] || {
	grep -F " ret: (" "$T/trace" | head -n 3 | sed 's/^/#   /'
	fail "malformed ret records (want 'ret: (SYM+0xOFF/0xSIZE <- vfs_read)')"
}
if grep -qF " ret: (ksys_read+0x" "$T/trace"; then
	log "caller ksys_read seen"
else
	log "caller ksys_read not seen (other callers only)"
fi
hits=$(profile_hits ret)
log "kprobe_profile hits for ret: $hits"
[ -n "$hits" ] && [ "$hits" -gt 0 ] || fail "kprobe_profile shows no hits for ret"

reset || fail "cleanup failed"
pass
