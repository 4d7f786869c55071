#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: our ftrace callbacks return at once while their ops serves no function; an event keeps recording through its function moving to the all-registers ops and back, and through a pattern's functions coming and going beside it
. "$(dirname "$0")/lib.sh"
need_fentry
reset || fail "initial reset failed"
F=vfs_read

# records EVENT BEFORE WHEN: two triggers (three reads each at least)
# hit EVENT 6 times or more since its kprobe_profile count was BEFORE;
# the count is kept for "last EVENT".
records() {
	trigger
	trigger
	_now=$(profile_hits "$1")
	log "$3: $1 hit $((_now - $2)) times"
	[ $((_now - $2)) -ge 6 ] || fail "$3: $1 was hit $((_now - $2)) times, not 6 or more"
	eval "last_$1=$_now"
}
last() {
	eval "echo \$last_$1"
}

# One event on F: its ops serves one function.
expect_ok "p:kprobes/e1 $F"
enable_ev e1
records e1 0 "alone"
by=$(ftrace_hook $F)
case $by in
tkp_fentry*) ;;
*) skip "$F is not hooked through ftrace here (got '${by:-none}')" ;;
esac

# A second event on F reading a register ftrace saves only with all of
# them (bx, arm64's x19): F moves to the all-registers ops where there is
# one (else the event is a kprobe), and back when it goes.  Both ops must
# count F as served on the way, or one returns at once.
R=%bx
[ "$KPE_ARCH" = arm64 ] && R=%x19
expect_ok "p:kprobes/e2 $F b=$R"
enable_ev e2
records e1 "$(last e1)" "with e2"
records e2 0 "with e1"
log "$F hooked by $(ftrace_hook $F) with e2"
disable_ev e2
expect_ok "-:kprobes/e2"
records e1 "$(last e1)" "after e2 left"
[ "$KPE_ARCH" != x86_64 ] || [ "$(ftrace_hook $F)" = tkp_fentry_hit_args ] ||
	fail "$F is served by '$(ftrace_hook $F)' after e2 left, not tkp_fentry_hit_args"

# A pattern's functions, F among them, come and go beside e1.
expect_ok "p:kprobes/w vfs_rea*"
enable_ev w
records w 0 "pattern enabled"
records e1 "$(last e1)" "beside the pattern"
disable_ev w
records e1 "$(last e1)" "after the pattern's disable"
expect_ok "-:kprobes/w"
records e1 "$(last e1)" "after the pattern went"

# Off and on again: the ops serves nothing, then F again.
disable_ev e1
n=$(profile_hits e1)
trigger
[ "$(profile_hits e1)" = "$n" ] || fail "e1 disabled was hit $(( $(profile_hits e1) - n )) times"
enable_ev e1
records e1 "$n" "enabled again"
disable_ev e1
reset || fail "cleanup failed"
pass
