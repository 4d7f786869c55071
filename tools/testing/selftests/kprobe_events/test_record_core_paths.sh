#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: what the trace event core decides for a record (stack trace option, pid filter, filter, trigger, soft disable) holds for kprobe events on every kind of place: entry on ftrace, return, int3 kprobe
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
OPT=/proc/sys/debug/kprobes-optimization
opt=$(cat $OPT 2>/dev/null)
restore() {
	echo 1 > "$T/tracing_on"
	echo 0 > "$T/options/stacktrace"
	echo > "$T/set_event_pid"
	[ -n "$opt" ] && [ -w $OPT ] && echo "$opt" > $OPT
	return 0
}

# The events: an entry and a return probe of vfs_read, and on x86_64 an
# int3 kprobe past its ftrace call (optimisation off).
expect_ok "p:cp_fe vfs_read"
expect_ok "r:cp_rt vfs_read"
EVS="cp_fe cp_rt"
if [ "$KPE_ARCH" = x86_64 ]; then
	past_entry cp_kp vfs_read
	[ -w $OPT ] && echo 0 > $OPT
	EVS="$EVS cp_kp"
fi

# run: clear the trace, enable EVS, make reads, disable them
run() {
	echo > "$T/trace"
	for e in $EVS; do enable_ev "$e"; done
	trigger
	for e in $EVS; do disable_ev "$e"; done
}

# records EVENT: how many records of EVENT the trace holds
records() {
	grep -c " $1: (" "$T/trace"
}

# 1. options/stacktrace: every record is followed by a stack trace.
echo 1 > "$T/options/stacktrace"
run
echo 0 > "$T/options/stacktrace"
for e in $EVS; do
	n=$(records "$e")
	# the line after each record of $e is a <stack trace>
	s=$(grep -A1 " $e: (" "$T/trace" | grep -c '<stack trace>')
	log "stacktrace option: $e: $n records, $s followed by a stack trace"
	[ "$n" -gt 0 ] || { restore; fail "$e: no record with the stacktrace option"; }
	[ "$s" = "$n" ] || { restore; dump "$T/trace"; fail "$e: $s of $n records followed by a stack trace"; }
done
run
s=$(grep -c '<stack trace>' "$T/trace")
[ "$s" = 0 ] || { restore; fail "$s stack traces with the option off"; }

# 2. set_event_pid: only the shell's own reads are recorded.
echo $$ > "$T/set_event_pid"
run
echo > "$T/set_event_pid"
for e in $EVS; do
	n=$(records "$e")
	own=$(grep -cE "^ *[^ ]+-$$ +\\[[0-9]+\\].* $e: \\(" "$T/trace")
	log "set_event_pid $$: $e: $n records, $own from the shell"
	[ "$n" -gt 0 ] || { restore; fail "$e: no record of the shell's reads under set_event_pid"; }
	[ "$own" = "$n" ] || { restore; rfail "$e" "$e: records of other tasks under set_event_pid"; }
done

# 3. a filter on common_pid, the same way.
for e in $EVS; do echo "common_pid == $$" > "$(ev_dir "$e")/filter"; done
run
for e in $EVS; do
	echo 0 > "$(ev_dir "$e")/filter"
	n=$(records "$e")
	own=$(grep -cE "^ *[^ ]+-$$ +\\[[0-9]+\\].* $e: \\(" "$T/trace")
	log "filter common_pid == $$: $e: $n records, $own from the shell"
	[ "$n" -gt 0 ] && [ "$own" = "$n" ] || { restore; rfail "$e" "$e: filter not applied ($own of $n)"; }
done

# 4. a stacktrace trigger: a stack trace with each hit.
for e in $EVS; do echo stacktrace > "$(ev_dir "$e")/trigger"; done
run
for e in $EVS; do echo '!stacktrace' > "$(ev_dir "$e")/trigger"; done
n=0
for e in $EVS; do n=$((n + $(records "$e"))); done
s=$(grep -c '<stack trace>' "$T/trace")
log "stacktrace trigger: $n records, $s stack traces"
[ "$n" -gt 0 ] && [ "$s" -ge "$n" ] || { restore; fail "stacktrace trigger: $s stack traces for $n records"; }

# 5. soft disable: an enable_event trigger on cp_gate keeps the others
# soft-disabled (armed, recording nothing) until cp_gate fires.
expect_ok "p:cp_gate ${KPE_SYS}sync"
for e in $EVS; do
	quiet_write "enable_event:kprobes:$e" "$(ev_dir cp_gate)/trigger" ||
		{ restore; fail "cannot set enable_event:kprobes:$e on cp_gate"; }
done
enable_ev cp_gate
echo > "$T/trace"
trigger
for e in $EVS; do
	n=$(records "$e")
	log "soft-disabled: $e: $n records, enable '$(cat "$(ev_dir "$e")/enable")'"
	[ "$n" = 0 ] || { restore; rfail "$e" "$e: $n records while soft-disabled"; }
done
sync			# the trigger enables them
trigger
# Recording off before "trace" is read: with a probe on vfs_read
# recording, every read of it would add a record, and the reader would
# never reach the end.
echo 0 > "$T/tracing_on"
disable_ev cp_gate
for e in $EVS; do
	echo "!enable_event:kprobes:$e" > "$(ev_dir cp_gate)/trigger"
	disable_ev "$e"		# the trigger left it enabled
done
for e in $EVS; do
	n=$(records "$e")
	log "after cp_gate fired: $e: $n records, enable '$(cat "$(ev_dir "$e")/enable")'"
	[ "$n" -gt 0 ] || { restore; fail "$e: no record once enable_event fired"; }
done

# 6. two trace instances, one with a filter: one hit, two ways (the
# instance's record through the core's full path, the top-level one not).
I=$T/instances/kpe_cp
rmdir "$I" 2>/dev/null
mkdir "$I" || { restore; fail "cannot make trace instance $I"; }
echo 1 > "$T/tracing_on"
echo > "$T/trace"
echo "common_pid == $$" > "$I/events/kprobes/cp_fe/filter"
echo 1 > "$I/events/kprobes/cp_fe/enable"
enable_ev cp_fe
trigger
disable_ev cp_fe
echo 0 > "$I/events/kprobes/cp_fe/enable"
top=$(records cp_fe)
in=$(grep -c " cp_fe: (" "$I/trace")
in_own=$(grep -cE "^ *[^ ]+-$$ +\[[0-9]+\].* cp_fe: \(" "$I/trace")
top_other=$(grep " cp_fe: (" "$T/trace" | grep -vcE "^ *[^ ]+-$$ +\[")
log "two instances: top $top records ($top_other of other tasks), filtered instance $in ($in_own of the shell)"
rmdir "$I" 2>/dev/null
[ "$in" -gt 0 ] && [ "$in_own" = "$in" ] || { restore; fail "the instance's filter not applied ($in_own of $in)"; }
[ "$top_other" -gt 0 ] || { restore; fail "the top level lost the records of other tasks"; }

restore
reset || fail "cleanup failed"
pass
