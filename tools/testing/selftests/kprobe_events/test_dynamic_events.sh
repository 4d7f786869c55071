#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: kprobes are listed in dynamic_events and created and removed through it
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
D=$T/dynamic_events
[ -f "$D" ] || skip "no dynamic_events"

expect_ok "p:viake vfs_read c=$KPE_ARG3_REG:u64"
grep -qxF 'p:kprobes/viake vfs_read c='"$KPE_ARG3_REG"':u64' "$D" || fail "kprobe_events probe not in dynamic_events"

echo 'r:dyngrp/viadyn vfs_read ret=$retval' >> "$D" || fail "creating through dynamic_events failed"
listing_has 'r:dyngrp/viadyn vfs_read ret=$retval' || fail "dynamic_events probe not in kprobe_events"
[ -d "$T/events/dyngrp/viadyn" ] || fail "event dir of the dynamic_events probe missing"

out=$("$KPE_WRITE" -a "$D" "p:dyngrp/bad no_such_symbol_xyz")
[ "$out" = ENOENT ] || fail "bad probe through dynamic_events: expected ENOENT, got '${out:-success}'"

# A uprobe line is the uprobe tracer's, not refused as a bad kprobe.
if [ -f "$T/uprobe_events" ]; then
	echo 'p:kpeup/up /bin/busybox:0x1000' >> "$D" ||
		fail "a uprobe definition through dynamic_events was refused"
	grep -q 'kpeup/up' "$T/uprobe_events" || fail "the uprobe is not in uprobe_events"
	listing_has 'p:kpeup/up /bin/busybox:0x1000' && fail "the uprobe is listed as a kprobe"
	echo '-:kpeup/up' >> "$D" || fail "removing the uprobe failed"
fi

echo '-:dyngrp/viadyn' >> "$D" || fail "removing through dynamic_events failed"
listing_has 'r:dyngrp/viadyn vfs_read ret=$retval' && fail "viadyn still listed"
echo > "$D" || fail "clearing dynamic_events failed"
[ -z "$(listing)" ] || fail "probes left after clearing dynamic_events"

reset || fail "cleanup failed"
pass
