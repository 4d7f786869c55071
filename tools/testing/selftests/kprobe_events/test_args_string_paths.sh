#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a string is recorded alike on every hit path, faults too
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# How a record with strings is made depends on the place (function entry
# on ftrace, an offset with a kprobe, a return) and on the arguments (a
# string alone, or with others); address 16 is never mapped.
find_offset vfs_read ok
[ -n "$OFFSET" ] || fail "no offset in vfs_read+1..16 was accepted"
expect_ok 'p:s1 vfs_read c=$comm'
expect_ok 'p:s2 vfs_read c=$comm n='"$KPE_ARG3_REG"':u64'
expect_ok "p:s3 vfs_read+$OFFSET c=\$comm"
expect_ok 'r:s4 vfs_read c=$comm'
expect_ok 'p:s5 vfs_read f=+0(\16):string'
expect_ok 'p:s6 vfs_read f=+0(\16):ustring'
expect_ok 'p:u1 do_sys_openat2 fn=+0('"$KPE_ARG2_REG"'):ustring'
expect_ok 'p:u2 do_sys_openat2 fn=+0('"$KPE_ARG2_REG"'):ustring d='"$KPE_ARG1_REG"':s32'

mycomm=$(cat /proc/$$/comm)
log "shell pid $$, comm '$mycomm'"
for e in s1 s2 s3 s4 s5 s6 u1 u2; do
	enable_ev $e
done
trigger
for e in s1 s2 s3 s4 s5 s6 u1 u2; do
	disable_ev $e
done

# Every $comm record is well-formed; this shell's carry its comm.
for e in s1 s2 s3 s4; do
	total=$(count_trace " $e: (")
	good=$(grep -cE " $e: \\([^)]*\\) c=\"[^\"]+\"( n=[0-9]+)?\$" "$T/trace")
	mine=$(grep -E "^ *[^ ].*-$$ +\\[" "$T/trace" | grep -cF " $e: (")
	right=$(grep -E "^ *[^ ].*-$$ +\\[" "$T/trace" | grep -F " $e: (" |
		grep -cF " c=\"$mycomm\"")
	log "$e records: $total, well-formed $good, this shell's $mine ($right right)"
	[ "$total" -gt 0 ] || fail "no '$e: (' record in trace"
	[ "$good" = "$total" ] || rfail $e "malformed $e records (want 'c=\"COMM\"')"
	[ "$mine" -gt 0 ] || rfail $e "no $e record from this shell (pid $$)"
	[ "$right" = "$mine" ] || rfail $e "$e records of this shell without c=\"$mycomm\""
done

# A string that faults is recorded as such; the record is not lost.
for e in s5 s6; do
	total=$(count_trace " $e: (")
	good=$(grep -cE " $e: \\(vfs_read\\+0x0/0x[0-9a-f]+\\) f=\\(fault\\)\$" "$T/trace")
	log "$e records: $total, (fault) $good"
	[ "$total" -gt 0 ] || fail "no '$e: (' record in trace"
	[ "$good" = "$total" ] || rfail $e "$e records without f=(fault)"
done

# A user string, alone and with another argument: the same file names
# (both were enabled while trigger ran; the writes that enable and
# disable them open files too, seen by one and not the other).
v1=$(grep -F ' u1: (' "$T/trace" | grep -cE ' fn="/proc/version"$')
v2=$(grep -F ' u2: (' "$T/trace" | grep -cE ' fn="/proc/version" d=-?[0-9]+$')
log "u1 records of /proc/version: $v1, u2: $v2"
[ "$v1" -gt 0 ] || rfail u1 "no u1 record with fn=\"/proc/version\""
[ "$v1" = "$v2" ] || rfail u2 "u1 saw $v1 opens of /proc/version, u2 $v2"
bad=$(grep -E ' u[12]: \(' "$T/trace" | grep -cvE ' fn="[^"]*"( d=-?[0-9]+)?$')
[ "$bad" = 0 ] || rfail u1 "$bad malformed u1/u2 records"

reset || fail "cleanup failed"
pass
