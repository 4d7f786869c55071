#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a used event name is refused with EEXIST unless the line can join that event
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok "p:dup vfs_read a=$KPE_ARG1_REG"
expect_ok "p vfs_read"
id=$(cat "$T/events/kprobes/dup/id")

# The same place twice, the other kind of probe, arguments of other names,
# types or number: refused.  (Another fetch of the same argument joins:
# test_multiprobe_args.sh.)
expect_refused EEXIST "p:dup vfs_read a=$KPE_ARG1_REG"
expect_refused EEXIST "p:kprobes/dup vfs_read a=$KPE_ARG1_REG"
expect_refused EEXIST "r:dup vfs_read a=$KPE_ARG1_REG"
expect_refused EEXIST "p:dup vfs_write b=$KPE_ARG1_REG"
expect_refused EEXIST "p:dup vfs_write a=$KPE_ARG2_REG:u32"
expect_refused EEXIST "p:dup vfs_write"
expect_refused EEXIST "p vfs_read"
# A name taken by an event that is not ours.
[ -d "$T/events/sched/sched_switch" ] &&
	expect_refused EEXIST "p:sched/sched_switch vfs_read"

[ "$(nr_probes)" = 2 ] || fail "expected 2 probes, got $(nr_probes)"
listing_has "p:kprobes/dup vfs_read a=$KPE_ARG1_REG" || fail "original dup changed"
[ "$(cat "$T/events/kprobes/dup/id")" = "$id" ] || fail "dup was re-created (id changed)"

reset || fail "cleanup failed"
pass
