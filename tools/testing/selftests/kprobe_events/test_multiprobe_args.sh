#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: places of one event that agree in argument names, count and
# types but fetch them differently (perf probe on an inlined function):
# each place records what its own fetch reads; places that disagree are
# refused with the caret under the argument
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

DIFF_MSG='Argument type or name is different from existing probe'
WFILE=/tmp/kpe_mpa.$$

# check_place EVENT PAREN ARGS: EVENT has records whose "(...)" matches the
# extended regex PAREN, and each of them ends with " ARGS" (a regex).
check_place() {
	_all=$(grep -cE " $1: \($2\)" "$T/trace")
	_good=$(grep -cE " $1: \($2\) $3\$" "$T/trace")
	log "$1 ($2): $_all records, $_good with '$3'"
	[ "$_all" -gt 0 ] || rfail "$1" "no $1 record from ($2)"
	[ "$_good" = "$_all" ] || {
		grep -E " $1: \($2\)" "$T/trace" | grep -vE " $3\$" |
			head -n 3 | sed 's/^/#   /'
		fail "$1 records from ($2) without '$3'"
	}
}

# write_trigger: a write (vfs_write) by the shell
write_trigger() {
	echo x > "$WFILE"
	rm -f "$WFILE"
}

# expect_join_refused WORD LINE: LINE (single spaces between words) names
# an existing event but its arguments differ: EEXIST, nothing changes,
# error_log says why with the caret under word WORD (0 = the first; one
# past the last word: just past the end of the line).
expect_join_refused() {
	expect_refused EEXIST "$2"
	grep -qF "$DIFF_MSG" "$T/error_log" || {
		dump "$T/error_log"
		fail "'$2': error_log does not say '$DIFF_MSG'"
	}
	_caret=$(awk -v w="$1" '
		/Command: / {
			c = index($0, "Command: ") + 8
			cmd = substr($0, c + 1)
			getline nxt
			caret = index(nxt, "^") - 1 - c
		}
		END {
			n = split(cmd, ws, " ")
			pos = 0
			for (i = 1; i <= w && i <= n; i++)
				pos += length(ws[i]) + 1
			print (caret == pos) ? "ok" : "at " caret ", want " pos
		}' "$T/error_log")
	[ "$_caret" = ok ] || {
		dump "$T/error_log"
		fail "'$2': caret $_caret"
	}
}

# 1. Immediates: exactly what each place must record.
expect_ok 'p:mp vfs_read v=\1:u32'
id=$(cat "$(ev_dir mp)/id")
fmt=$(cat "$(ev_dir mp)/format")
expect_ok 'p:mp vfs_write v=\2:u32'
[ "$(cat "$(ev_dir mp)/id")" = "$id" ] || fail "the second place made a new event"
[ "$(cat "$(ev_dir mp)/format")" = "$fmt" ] || fail "joining changed the format"
listing_has 'p:kprobes/mp vfs_read v=\1:u32' || fail "vfs_read place not listed with v=\\1:u32"
listing_has 'p:kprobes/mp vfs_write v=\2:u32' || fail "vfs_write place not listed with v=\\2:u32"

enable_ev mp
trigger
write_trigger
disable_ev mp
check_place mp 'vfs_read\+0x0/0x[0-9a-f]+' 'v=1'
check_place mp 'vfs_write\+0x0/0x[0-9a-f]+' 'v=2'

# The same through the trace event core's path (a filter on the field).
quiet_write "" "$T/trace"
quiet_write 'v == 2' "$(ev_dir mp)/filter" || fail "cannot set a filter on v"
enable_ev mp
trigger
write_trigger
disable_ev mp
quiet_write 0 "$(ev_dir mp)/filter"
[ "$(count_trace " mp: (vfs_read+")" = 0 ] ||
	rfail mp "filter v == 2 let vfs_read records (v=1) through"
check_place mp 'vfs_write\+0x0/0x[0-9a-f]+' 'v=2'

# 2. Places that disagree are refused, the caret under the argument.
expect_join_refused 2 'p:mp do_sys_openat2 w=\3:u32'
expect_join_refused 2 'p:mp do_sys_openat2 v=\3:u64'
expect_join_refused 2 'p:mp do_sys_openat2 v=\3:s32'
expect_join_refused 2 'p:mp do_sys_openat2 v=\3:x32'
expect_join_refused 2 'p:mp do_sys_openat2 v=\3'
expect_join_refused 2 'p:mp do_sys_openat2 v=$comm'
expect_join_refused 2 'p:mp do_sys_openat2 v=+0('"$KPE_ARG2_REG"'):u32[2]'
expect_join_refused 2 'p:mp do_sys_openat2 v=+0('"$KPE_ARG2_REG"'):b4@0/32'
expect_join_refused 3 'p:mp do_sys_openat2 v=\3:u32 w=\4:u32'
expect_join_refused 2 'p:mp do_sys_openat2'
expect_refused EEXIST 'r:mp do_sys_openat2 v=\3:u32'
grep -qF 'Probe type is different from existing probe' "$T/error_log" ||
	fail "a return place joining an entry event: wrong message"
# The same place twice, even with other fetches.
expect_refused EEXIST 'p:mp vfs_write v=\3:u32'
grep -qF 'There is already the exact same probe event' "$T/error_log" ||
	fail "the same place twice: wrong message"
[ "$(cat "$(ev_dir mp)/id")" = "$id" ] || fail "a refused place re-created mp"
[ "$(cat "$(ev_dir mp)/format")" = "$fmt" ] || fail "a refused place changed the format"
[ "$(nr_probes)" = 2 ] || fail "refused places changed the listing"

# Removing one place names it by its own arguments.
expect_errno ENOENT '-:mp vfs_write v=\1:u32'
[ "$(nr_probes)" = 2 ] || fail "-:mp vfs_write v=\\1:u32 removed something"
expect_ok '-:mp vfs_write v=\2:u32'
listing_has 'p:kprobes/mp vfs_read v=\1:u32' || fail "vfs_read place went too"
[ "$(nr_probes)" = 1 ] || fail "expected one place left"
[ "$(cat "$(ev_dir mp)/id")" = "$id" ] || fail "removing a place re-created mp"
expect_ok '-:mp vfs_read v=\1:u32'
[ -d "$(ev_dir mp)" ] && fail "event mp left after its last place"

# More types that must agree: bitfields, arrays, string against ustring.
expect_ok 'p:mb vfs_read b=\255:b4@0/8'
expect_join_refused 2 'p:mb vfs_write b=\255:b4@4/8'
expect_join_refused 2 'p:mb vfs_write b=\255:b3@0/8'
expect_ok 'p:mb vfs_write b=\-1:b4@0/8'
expect_ok 'p:ma vfs_read a=+0(%sp):u8[2]'
expect_join_refused 2 'p:ma vfs_write a=+0(%sp):u8[3]'
expect_ok 'p:ma vfs_write a=+8(%sp):u8[2]'
expect_ok 'p:mu vfs_read s=+0('"$KPE_ARG2_REG"'):ustring'
expect_join_refused 2 'p:mu vfs_write s=+0('"$KPE_ARG2_REG"'):string'
expect_join_refused 2 'p:mu vfs_write s=+0('"$KPE_ARG2_REG"'):u64'
expect_ok 'p:mu vfs_write s=+0('"$KPE_ARG2_REG"'):ustring'
reset || fail "reset failed"

# 3. Registers, strings, a kprobe place (an offset) and a fentry place on
# one event; a dereference in one place only (the event's fault field is
# the first place's).
# An offset past the function's ftrace call (a breakpoint, not ftrace):
# the first instruction boundary from +9 on.
OFFSET=
n=9
while [ $n -le 32 ] && [ -z "$OFFSET" ]; do
	out=$("$KPE_WRITE" -a "$T/kprobe_events" "p:kpe_scan vfs_read+$n")
	if [ -z "$out" ]; then
		OFFSET=$n
		expect_ok "-:kpe_scan"
	elif [ "$out" != EILSEQ ] &&
	     ! { [ "$KPE_ARCH" = arm64 ] && [ "$out" = EINVAL ]; }; then
		# (arm64's kprobes refuse a misaligned offset with EINVAL)
		fail "p vfs_read+$n: expected success or EILSEQ, got $out"
	fi
	n=$((n + 1))
done
[ -n "$OFFSET" ] || fail "no offset in vfs_read+9..32 was accepted"
hex=$(printf '%x' "$OFFSET")
expect_ok 'p:mk vfs_read n='"$KPE_ARG3_REG"':u64 s=$comm k=\1:u8'
expect_ok "p:mk vfs_read+$OFFSET n=\\7:u64 s=\\\"off\" k=\\2:u8"
expect_ok 'p:mk vfs_write n=+0(\0):u64 s=\"w" k=\3:u8'
listing_has "p:kprobes/mk vfs_read+$OFFSET n=\\7:u64 s=\\\"off\" k=\\2:u8" ||
	fail "offset place not listed with its own arguments"
grep -q __probe_faults "$(ev_dir mk)/format" &&
	fail "the first place has no dereference: no __probe_faults field"
enable_ev mk
trigger
write_trigger
disable_ev mk
check_place mk 'vfs_read\+0x0/0x[0-9a-f]+' 'n=[1-9][0-9]* s="[^"]*" k=1'
grep -E " mk: \(vfs_read\+0x0/" "$T/trace" | grep -qE ' s="(off|w)" ' &&
	rfail mk "the fentry place recorded another place's string"
check_place mk "vfs_read\\+0x$hex/0x[0-9a-f]+" 'n=7 s="off" k=2'
# Its fault is not flagged (no field for it): the value reads 0.
check_place mk 'vfs_write\+0x0/0x[0-9a-f]+' 'n=0 s="w" k=3'

# The other way round: the first place dereferences, the second does not.
expect_ok 'p:mf vfs_read v=+0(\0):u64 c=\1:u8'
expect_ok 'p:mf vfs_write v=\5:u64 c=\2:u8'
grep -q "field:u64 __probe_faults" "$(ev_dir mf)/format" ||
	fail "mf: no __probe_faults field"
enable_ev mf
trigger
write_trigger
disable_ev mf
check_place mf 'vfs_read\+0x0/0x[0-9a-f]+' 'v=\(fault\) c=1'
check_place mf 'vfs_write\+0x0/0x[0-9a-f]+' 'v=5 c=2'
reset || fail "reset failed"

# 4. Return probes: $retval in one place, a register or an immediate in
# others; $argN (taken at the entry) and $duration only where asked.
expect_ok 'r:mr vfs_read rv=$retval:s64 n=$arg3:u64 k=\1:u8'
expect_ok 'r:mr vfs_write rv='"$KPE_RET_REG"':s64 n=\9:u64 k=\2:u8'
expect_ok 'r:mr hrtimer_nanosleep rv=\-5:s64 n=$duration:u64 k=\3:u8'
listing_has 'r:kprobes/mr vfs_read rv=$retval:s64 n=$arg3:u64 k=\1:u8' ||
	fail "vfs_read return place not listed with its own arguments"
listing_has 'r:kprobes/mr hrtimer_nanosleep rv=\-5:s64 n=$duration:u64 k=\3:u8' ||
	fail "hrtimer_nanosleep return place not listed with its own arguments"
expect_join_refused 2 'r:mr do_sys_openat2 rv=$retval:s32 n=$arg3:u64 k=\1:u8'
expect_join_refused 3 'r:mr do_sys_openat2 rv=$retval:s64 n=$arg3:x64 k=\1:u8'
enable_ev mr
trigger
write_trigger
sleep 1
disable_ev mr
check_place mr '[^ ]+ <- vfs_read' 'rv=-?[0-9]+ n=[1-9][0-9]* k=1'
check_place mr '[^ ]+ <- vfs_write' 'rv=-?[0-9]+ n=9 k=2'
grep -qE ' mr: \([^ ]+ <- vfs_write\) rv=2 n=9 k=2$' "$T/trace" ||
	rfail mr "no vfs_write return of 2 (echo x)"
# The sleeps here are of 0.1 s (run_tests.sh's watch) and 1 s, by
# CLOCK_MONOTONIC; $duration is in the trace buffer's clock, which under
# TCG may run a little slower (99.4 ms for a 0.1 s sleep on the debug
# kernel): at least half of 0.1 s, as test_args_duration.sh allows half.
check_place mr '[^ ]+ <- hrtimer_nanosleep' \
	'rv=-5 n=([5-9][0-9]{7}|[1-9][0-9]{8,}) k=3'

# A string taken at the entry in one place, $comm at the return in another.
expect_ok 'r:ms do_sys_openat2 s=+0($arg2):string'
expect_ok 'r:ms vfs_write s=$comm'
enable_ev ms
cat /proc/version > /dev/null
write_trigger
disable_ev ms
check_place ms '[^ ]+ <- do_sys_openat2' 's="[^"]*"'
grep -qE ' ms: \([^ ]+ <- do_sys_openat2\) s="/proc/version"$' "$T/trace" ||
	rfail ms "no open of /proc/version with its name"
check_place ms '[^ ]+ <- vfs_write' 's="[^/"][^"]*"'

reset || fail "cleanup failed"
pass
