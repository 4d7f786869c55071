#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a record's context flags (irqs-off, NMI/hardirq, preempt depth, migrate-disable) are those of the probed context, on the ftrace, return and int3 kprobe paths
. "$(dirname "$0")/lib.sh"
need_x86 "an entry probe on the ftrace call and an int3 past __fentry__ (arm64 probes a function's entry with BRK, in its debug-exception context)"
reset || fail "initial reset failed"
OPT=/proc/sys/debug/kprobes-optimization
opt=$(cat $OPT 2>/dev/null)

# flags EVENT: the flags field (5 characters) of EVENT's records from
# head, the task that the trigger runs (preempt depth 0 there), told by
# its pid: the core may not have kept its name (a trylock of the
# saved_cmdlines lock lost to another CPU's shows it as "<...>").
flags() {
	grep -E "^ *[^ ]+-$HEAD_PID +\\[[0-9]+\\] [^ ]{5} .* $1: " "$T/trace" |
		sed -E 's/^ *[^ ]+-[0-9]+ +\[[0-9]+\] ([^ ]{5}) .*/\1/' | sort -u
}

# trigger_head: head reads /proc/version; HEAD_PID is its pid.
trigger_head() {
	head -n1 /proc/version > /dev/null &
	HEAD_PID=$!
	wait $HEAD_PID
}

# An int3 kprobe (optimization off): the first offset in vfs_read after
# ftrace's call that kprobes accept (+9 with IBT, +5 without).
past_entry ctx_kp vfs_read
off=$OFFSET
[ -w $OPT ] && echo 0 > $OPT
expect_ok "p:ctx_fe vfs_read"
expect_ok "r:ctx_rt vfs_read"
echo 1 > "$T/events/kprobes/enable" || fail "enable failed"
trigger_head
echo 0 > "$T/events/kprobes/enable"
[ -n "$opt" ] && echo "$opt" > $OPT
grep -q "vfs_read+0x$(printf %x "$off")" /sys/kernel/debug/kprobes/list 2>/dev/null &&
	log "kprobe: $(grep "vfs_read+0x$(printf %x "$off")" /sys/kernel/debug/kprobes/list)"

# want EVENT REGEX: every flags field of EVENT's records matches REGEX.
# Preempt depth and migrate-disable (the last two) are those of the task
# (0, "."); the need-resched flag (2nd) may be anything.  The int3
# handler runs with interrupts off ("d") in the NMI-like context x86
# gives a kernel breakpoint ("Z"); the ftrace entry and the return in
# the task's own context.
want() {
	f=$(flags "$1")
	log "$1: flags '$(echo $f)'"
	[ -n "$f" ] || { dump "$T/trace"; fail "no $1 record from head"; }
	echo "$f" | grep -qvE "$2" &&
		{ dump "$T/trace"; fail "$1 records' flags '$(echo $f)' do not all match $2"; }
	return 0
}
want ctx_fe '^\..\.\.\.$'
want ctx_rt '^\..\.\.\.$'
want ctx_kp '^d.Z\.\.$'

# Where preemption is disabled (enqueue_task_fair() runs with the run
# queue's lock held), an int3 kprobe's records show the same preempt
# depths as an entry probe of the same function: the depth of the
# probed context, not one less.
reset || fail "reset failed"
F=enqueue_task_fair
past_entry dp_kp $F
doff=$OFFSET
[ -w $OPT ] && echo 0 > $OPT
expect_ok "p:dp_fe $F"
echo 1 > "$T/events/kprobes/enable" || fail "enable failed"
for i in 1 2 3 4 5; do head -n1 /proc/version > /dev/null; done
echo 0 > "$T/events/kprobes/enable"
[ -n "$opt" ] && echo "$opt" > $OPT
# Pairs: a dp_fe record and the next record on its CPU, dp_kp, are one
# call's (a call in an interrupt between them pairs its own).  Prints
# "pairs mismatches depths-seen".
pairs=$(awk '
	match($0, / \[[0-9]+\] [^ ]+ /) {
		f = substr($0, RSTART + 1, RLENGTH - 2); split(f, w, " ")
		cpu = w[1]; d = substr(w[2], 4, 1)
		if ($0 ~ / dp_fe: \(/) { fe[cpu] = d; next }
		if ($0 ~ / dp_kp: \(/ && (cpu in fe)) {
			n++; if (fe[cpu] != d) bad++; seen[d] = 1; delete fe[cpu]
		}
	}
	END { s = ""; for (d in seen) s = s d; printf "%d %d %s\n", n, bad, s }' "$T/trace")
set -- $pairs
np=$1 nbad=$2 dseen=${3:-}
log "$F: $np calls with a record at the entry and at +$doff (int3), $nbad with different preempt depths; depths seen '$dseen'"
[ "$np" -gt 0 ] || { dump "$T/trace"; fail "no call recorded by both dp_fe and dp_kp"; }
echo "$dseen" | grep -q '[1-9a-f]' || fail "no record with preemption disabled ('$dseen')"
[ "$nbad" = 0 ] || fail "$nbad calls recorded with another preempt depth at the int3 than at the entry"
reset || fail "cleanup failed"
pass
