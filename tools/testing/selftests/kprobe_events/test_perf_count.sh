#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: perf counts every hit exactly, whether its event only counts (no record is built) or samples, and a filter still sees every record
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

KPE_PERF=$DIR/kpe_perf
[ -x "$KPE_PERF" ] || fail "$KPE_PERF missing"
[ -f /sys/bus/event_source/devices/kprobe/type ] || skip "no kprobe PMU"

# kpe_perf reads /proc/version READS times, then its counter, each
# through vfs_read: an entry probe sees READS + 1 calls, a return probe
# READS (see kpe_perf.c).
READS=10

# $1: what; $2: expected; $3: got
expect_count() {
	[ "$3" = "$2" ] || fail "$1: counted '$3', expected '$2'"
	log "$1: $3"
}

# Through the kprobe PMU (perf's private probe), counting (period 0:
# no record) and sampling (period 1: a record per hit).
for period in 0 1; do
	n=$(KPE_PERF_PERIOD=$period "$KPE_PERF" kprobe vfs_read) ||
		fail "kprobe PMU on vfs_read, period $period: $n"
	expect_count "entry, period $period" $((READS + 1)) "$n"
	n=$(KPE_PERF_PERIOD=$period "$KPE_PERF" kprobe vfs_read ret) ||
		fail "kprobe PMU on vfs_read's return, period $period: $n"
	expect_count "return, period $period" $READS "$n"
done

# Two events through the kprobe PMU are two probes of their own.
out=$(KPE_PERF_PERIOD=0 KPE_PERF_PAIR=1 "$KPE_PERF" kprobe vfs_read) ||
	fail "two events: $out"
expect_count "entry, counting and sampling" "$((READS + 1)) $((READS + 2))" "$out"
out=$(KPE_PERF_PERIOD=0 KPE_PERF_PAIR=1 "$KPE_PERF" kprobe vfs_read ret) ||
	fail "two return events: $out"
expect_count "return, counting and sampling" "$READS $((READS + 1))" "$out"

# Only kernel hits, and the event excludes the kernel: nothing counts.
n=$(KPE_PERF_PERIOD=0 KPE_PERF_USER_ONLY=1 "$KPE_PERF" kprobe vfs_read) ||
	fail "kprobe PMU with exclude_kernel: $n"
expect_count "entry, counting, exclude_kernel" 0 "$n"

# A kprobe event of kprobe_events through perf: a counting event with a
# filter still has every hit's record built and filtered.  kpe_perf
# reads /proc/version 256 bytes at a time, its counter 8 bytes.
expect_ok "p:pc vfs_read c=$KPE_ARG3_REG:u64"
id=$(cat "$T/events/kprobes/pc/id")
n=$(KPE_PERF_PERIOD=0 "$KPE_PERF" tracepoint "$id") ||
	fail "perf on kprobes/pc: $n"
expect_count "kprobes/pc, counting" $((READS + 1)) "$n"
n=$(KPE_PERF_PERIOD=0 KPE_PERF_FILTER='c == 256' "$KPE_PERF" tracepoint "$id") ||
	fail "perf on kprobes/pc with a filter: $n"
expect_count "kprobes/pc, counting, filter c == 256" $READS "$n"
n=$(KPE_PERF_PERIOD=0 KPE_PERF_FILTER='c == 7' "$KPE_PERF" tracepoint "$id") ||
	fail "perf on kprobes/pc with a filter: $n"
expect_count "kprobes/pc, counting, filter c == 7" 0 "$n"
n=$(KPE_PERF_PERIOD=1 KPE_PERF_FILTER='c == 8' "$KPE_PERF" tracepoint "$id") ||
	fail "perf on kprobes/pc with a filter: $n"
expect_count "kprobes/pc, sampling, filter c == 8" 1 "$n"

# One counting and one sampling event on the same probe, in either
# order on its list: the record is built for the one, and every hit is
# counted once on each.  (The second counter is read one vfs_read later.)
for period in 0 1; do
	out=$(KPE_PERF_PERIOD=$period KPE_PERF_PAIR=1 "$KPE_PERF" tracepoint "$id") ||
		fail "two events on kprobes/pc: $out"
	expect_count "kprobes/pc, period $period and $((1 - period))" \
		"$((READS + 1)) $((READS + 2))" "$out"
done

# What only the record has: a string fetched at the hit, and for a
# return what its entry took, both seen by a counting event's filter.
expect_ok "p:pcomm vfs_read comm=\$comm"
id2=$(cat "$T/events/kprobes/pcomm/id")
n=$(KPE_PERF_PERIOD=0 KPE_PERF_FILTER='comm == "kpe_perf"' "$KPE_PERF" tracepoint "$id2") ||
	fail "perf on kprobes/pcomm with a filter: $n"
expect_count "kprobes/pcomm, counting, filter comm == kpe_perf" $((READS + 1)) "$n"
n=$(KPE_PERF_PERIOD=0 KPE_PERF_FILTER='comm == "x"' "$KPE_PERF" tracepoint "$id2") ||
	fail "perf on kprobes/pcomm with a filter: $n"
expect_count "kprobes/pcomm, counting, filter comm == x" 0 "$n"
expect_ok "-:pcomm"
expect_ok "r:pr vfs_read c=\$arg3:u64"
id2=$(cat "$T/events/kprobes/pr/id")
n=$(KPE_PERF_PERIOD=0 KPE_PERF_FILTER='c == 256' "$KPE_PERF" tracepoint "$id2") ||
	fail "perf on kprobes/pr with a filter: $n"
expect_count "kprobes/pr, counting, filter c == 256" $READS "$n"
expect_ok "-:pr"

# The same event enabled in tracefs too: its records there are whole.
echo 1 > "$T/events/kprobes/pc/enable" || fail "enable pc"
: > "$T/trace"
n=$(KPE_PERF_PERIOD=0 "$KPE_PERF" tracepoint "$id") ||
	fail "perf on kprobes/pc, enabled in tracefs: $n"
expect_count "kprobes/pc, counting, enabled in tracefs" $((READS + 1)) "$n"
echo 0 > "$T/events/kprobes/pc/enable"
grep -q "kpe_perf-.* pc: (vfs_read+0x0/0x[0-9a-f]*) c=256" "$T/trace" ||
	fail "no record of pc with c=256 in trace: $(head -n 5 "$T/trace")"

expect_ok "-:pc"
reset || fail "cleanup failed"
pass
