#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a return probe with default settings loses no return when
# many tasks sleep in the probed function at once (KPE_SLEEPERS, 200)
. "$(dirname "$0")/lib.sh"
need_fentry_return
reset || fail "initial reset failed"
N=${KPE_SLEEPERS:-200}

expect_ok "r:nsret hrtimer_nanosleep ret=\$retval"
# Records name their task by the saved comm of its pid: keep them all.
cmdlines=$(cat "$T/saved_cmdlines_size")
[ "$cmdlines" -ge $((N + 100)) ] ||
	quiet_write $((N + 100)) "$T/saved_cmdlines_size" ||
	fail "cannot keep the comms of $N tasks"
expect_ok "p:nsent hrtimer_nanosleep"
enable_ev nsret
enable_ev nsent
i=0
pids=
while [ $i -lt "$N" ]; do
	sleep 3 &
	pids="$pids $!"
	i=$((i + 1))
done
for p in $pids; do
	wait "$p"
done
disable_ev nsret
disable_ev nsent
miss=$(awk '$1 == "nsret" || $1 == "kprobes/nsret" { print $3; exit }' "$T/kprobe_profile")
# The sleepers' own records, known by pid (other tasks may sleep there
# too; a comm may be evicted from saved_cmdlines by other tasks').
# ours EVENT: how many EVENT records are of a sleeper
ours() {
	echo "$pids" | awk -v ev=" $1: (" '
	NR == 1 { for (i = 1; i <= NF; i++) mine[$i] = 1; next }
	index($0, ev) {
		k = split($1, t, "-")
		if (t[k] in mine)
			n++
	}
	END { print n + 0 }' - "$T/trace"
}
ent=$(ours nsent)
sret=$(ours nsret)
log "$N sleepers: $ent entries and $sret returns of theirs; $miss missed in all"
dump "$T/kprobe_profile"
[ "$ent" = "$N" ] || fail "$ent entries recorded for $N sleepers"
[ "$miss" = 0 ] || fail "$miss returns missed"
[ "$sret" = "$N" ] || fail "$sret returns recorded for $N sleepers"
quiet_write "$cmdlines" "$T/saved_cmdlines_size"
reset || fail "cleanup failed"
pass
