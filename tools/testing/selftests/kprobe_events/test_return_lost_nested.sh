#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: missed returns are told from a worker, never from the
# hit path: many empty return pools on a function that telling calls
# (kallsyms' get_symbol_pos(), through %ps) do not nest their notes on
# one stack, and every miss is told
. "$(dirname "$0")/lib.sh"
need_fentry_return
need_kmod
reset || fail "initial reset failed"
modprobe kpe_kmod || fail "cannot load kpe_kmod"
B=/sys/kernel/debug/kpe_kmod/burst
[ -f "$B" ] || fail "no $B"
grep -qw get_symbol_pos "$T/available_filter_functions" ||
	skip "get_symbol_pos() is not traceable here"

# N events, each one return probe with one instance on the pattern,
# which matches get_symbol_pos() and the module's burst function.  Were
# the misses told on the hit path, a note's %ps of one would hit the
# others, each with its own note to tell: N notes deep on one stack
# (about 1 KiB each), past its end.
N=${KPE_NEST_EVENTS:-24}
i=0
while [ $i -lt "$N" ]; do
	expect_ok "r1:nest/e$i *get_symbol_pos"
	i=$((i + 1))
done
quiet_write 1 "$T/events/nest/enable" || fail "cannot enable group nest"
trap 'rmmod kpe_kmod 2>/dev/null' EXIT

# Eight calls in flight, before any pool can grow: every pool misses.
echo 8 > "$B" || fail "cannot write $B"
sleep 1		# the pools grow
# Lookups of symbols: get_symbol_pos() returns, hooked by every pool.
head -n 200 "$T/available_filter_functions" > /dev/null
echo 8 > "$B" || fail "cannot write $B"
head -n 200 "$T/available_filter_functions" > /dev/null
sleep 1		# the workers tell what was missed
quiet_write 0 "$T/events/nest/enable" || fail "cannot disable group nest"

miss=$(awk '$1 ~ /^(nest\/)?e[0-9]+$/ { n += $3 } END { print n + 0 }' "$T/kprobe_profile")
told=$(sed -n 's/.* nest\/e[0-9]*: \([0-9]*\) returns of .*get_symbol_pos.* missed (no free instance)$/\1/p' "$T/trace" |
	awk '{ n += $1 } END { print n + 0 }')
log "$N events: $miss returns missed, $told told in the trace"
[ "$miss" -ge "$N" ] || fail "$miss returns missed, fewer than one per event: the test tests nothing"
[ "$told" = "$miss" ] || {
	grep -F "returns of" "$T/trace" | head -n 5 | sed 's/^/#   /'
	fail "$miss returns missed but $told told in the trace"
}
# The notes come from the pools' worker, not from the tasks that missed.
# A task whose name left trace's saved_cmdlines shows as "<...>-PID":
# its name is then asked of /proc (workers stay).
bad=0
for who in $(grep -E " returns of .*get_symbol_pos.* missed" "$T/trace" |
	     awk '{ print $1 }'); do
	name=${who%-*}
	[ "$name" = "<...>" ] && name=$(cat "/proc/${who##*-}/comm" 2>/dev/null)
	case $name in
	kworker*) ;;
	*) log "a note written by $who (${name:-gone})"; bad=$((bad + 1)) ;;
	esac
done
[ "$bad" = 0 ] || fail "$bad notes written outside the pools' worker"
reset || fail "cleanup failed"
pass
