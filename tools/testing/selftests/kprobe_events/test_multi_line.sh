#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: one write with several lines and comments adds all probes
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

s="p:ml1 vfs_read${NL}# a comment line${NL}"
s="${s}r:ml2 vfs_read   # trailing comment${NL}p:ml3 vfs_write${NL}"
expect_ok "$s"
listing_has "p:kprobes/ml1 vfs_read" || fail "ml1 not listed"
listing_has "r:kprobes/ml2 vfs_read" || fail "ml2 not listed (or comment kept)"
listing_has "p:kprobes/ml3 vfs_write" || fail "ml3 not listed"
[ "$(nr_probes)" = 3 ] || fail "expected 3 probes, got $(nr_probes)"
for e in ml1 ml2 ml3; do
	check_event_files $e
done

# a write that is only a comment / blank lines changes nothing
before=$(snapshot)
expect_ok "# just a comment${NL}${NL}"
[ "$(snapshot)" = "$before" ] || fail "comment-only write changed the listing"

reset || fail "cleanup failed"
pass
