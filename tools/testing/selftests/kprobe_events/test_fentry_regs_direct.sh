#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the registers an ftrace place reads (every one ftrace saves) are those a probe of another kind reads on the same call
#
# An entry probe reading only the registers ftrace saves for every
# callback is an ftrace place on the lighter ops; where those are not
# in a struct pt_regs (6.12's arm64) it reads the argument registers,
# the stack and frame pointers through ftrace's accessors, and the rest
# (x8, the link register) from a copy it makes then: read in that order
# here, so that every accessor is taken before the copy.  Beside it on the
# same function, a probe that also reads a register ftrace does not save
# is of another kind (a BRK kprobe on 6.12's arm64, the ops that saves
# every register on x86_64).  Both are hit by each call of vfs_read, one
# right after the other in the same task: every register the first
# reads must have the value the second reads, call by call.
. "$(dirname "$0")/lib.sh"
need_fentry
reset || fail "initial reset failed"
trap 'reset >/dev/null 2>&1' EXIT

if [ "$KPE_ARCH" = arm64 ]; then
	# those ftrace's accessors give first (x8 and lr make the copy)
	saved="sp x29 x0 x1 x2 x3 x4 x5 x6 x7 x8 x30" other=x9
else
	saved="di si dx cx r8 r9 ax bp sp" other=r10
fi
args=
for r in $saved; do
	args="$args $r=%$r"
done
expect_ok "p:kpe_rd/f vfs_read$args"
expect_ok "p:kpe_rd/k vfs_read$args $other=%$other"
enable_ev kpe_rd/f
hook=$(ftrace_hook vfs_read)
case "$hook" in
tkp_fentry*) ;;
*) fail "vfs_read's entry is not on our ftrace hook (got '${hook:-none}')" ;;
esac
enable_ev kpe_rd/k
echo > "$T/trace"
i=0
while [ $i -lt 5 ]; do
	trigger
	i=$((i + 1))
done
disable_ev kpe_rd/k
disable_ev kpe_rd/f

# PID EVENT ARGS per record, k's own register cut off; then per task,
# each record against the one before when they are one of each event.
res=$(sed -n 's/^.*-\([0-9][0-9]*\) *\[[0-9]*\].* \([fk]\): ([^)]*) \(.*\)$/\1 \2 \3/p' \
	"$T/trace" | sed "s/ $other=[^ ]*\$//" | awk '
	{
		pid = $1; ev = $2; $1 = ""; $2 = ""
		if (pid in last && lastev[pid] != ev) {
			pairs++
			if (last[pid] != $0) {
				bad++
				if (bad <= 3)
					printf "#   %s: %s\n#   %s: %s\n", lastev[pid], last[pid], ev, $0 > "/dev/stderr"
			}
			delete last[pid]
			next
		}
		last[pid] = $0; lastev[pid] = ev
	}
	END { printf "%d %d\n", pairs, bad }')
pairs=${res% *} bad=${res#* }
log "calls seen by both probes: $pairs, registers differing in: $bad"
[ "$pairs" -ge 5 ] || { dump "$T/trace"; fail "too few calls recorded by both probes ($pairs)"; }
[ "$bad" = 0 ] || fail "the ftrace place read other register values than the $other probe on $bad calls"
pass
