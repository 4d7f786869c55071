#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a removal refused with EBUSY removes none of the probes it names
#
# "-:EVENT" without a group names that event in every group, "-:GRP/"
# every event of a group.  When one of them is enabled the write fails
# with EBUSY, and, like any refused write, it must leave every probe as
# it was: also the ones not in use.  (Found by kpe_fuzz.)
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:kprobes/twin vfs_read"
expect_ok "p:kpeother/twin vfs_write"
expect_ok "p:kprobes/solo vfs_read"
enable_ev kpeother/twin
before=$(snapshot)

expect_errno EBUSY "-:twin"
[ "$(snapshot)" = "$before" ] || {
	log "before:"; echo "$before" | sed 's/^/#   /'
	fail "refused '-:twin' (EBUSY) removed probes"
}
[ -d "$(ev_dir twin)" ] || fail "kprobes/twin's event directory is gone"

# The same through dynamic_events.
out=$("$KPE_WRITE" -a "$T/dynamic_events" "-:twin")
[ "$out" = EBUSY ] || fail "'-:twin' to dynamic_events: got '${out:-success}', want EBUSY"
[ "$(snapshot)" = "$before" ] || fail "refused '-:twin' via dynamic_events removed probes"

# A whole group, one of whose events is enabled.
expect_ok "p:kpegrp/first vfs_read"
expect_ok "p:kpegrp/second vfs_write"
enable_ev kpegrp/second
before=$(snapshot)
expect_errno EBUSY "-:kpegrp/"
[ "$(snapshot)" = "$before" ] || fail "refused '-:kpegrp/' (EBUSY) removed probes"
[ -d "$(ev_dir kpegrp/first)" ] || fail "kpegrp/first's event directory is gone"
disable_ev kpegrp/second
expect_ok "-:kpegrp/"

# Once nothing is in use, the same line removes both.
disable_ev kpeother/twin
expect_ok "-:twin"
[ "$(listing)" = "p:kprobes/solo vfs_read" ] || fail "'-:twin' did not remove both twins"

reset || fail "cleanup failed"
pass
