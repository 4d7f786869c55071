#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a function with only return probes is served by the returns-only ftrace callback; adding and removing an entry probe moves it between callbacks with every call recorded once per event, and under load nothing is lost or doubled; two return probes on one function both name the real caller
. "$(dirname "$0")/lib.sh"
need_fentry_return
reset || fail "initial reset failed"
EF=$T/enabled_functions
[ -r "$EF" ] || skip "no enabled_functions (no dynamic ftrace)"
F=vfs_read

hooked_by() {
	grep "^$1 " "$EF" | grep -o -e 'tkp_fentry[a-z_]*' -e 'kprobe_ftrace_handler' | head -n1
}

# want_hook NAME: F is served by our callback NAME (x86_64, where ftrace
# passes the argument registers alone), or at least by one of ours.
want_hook() {
	by=$(hooked_by $F)
	log "$F hooked by ${by:-nothing} (want $1)"
	case $by in
	tkp_fentry*) ;;
	*) dump "$EF"; fail "$F is not on our ftrace hook (got '${by:-none}')" ;;
	esac
	if [ "$KPE_ARCH" = x86_64 ] && [ "$by" != "$1" ]; then
		dump "$EF"
		fail "$F served by $by, not $1"
	fi
}

# work N: N reads of F's
work() {
	_i=0
	while [ $_i -lt "$1" ]; do
		read -r _l < /proc/version
		_i=$((_i + 1))
	done
}

# snap: the trace, read once per phase into $S (each read of trace
# walks the whole buffer: a second or so under TCG); n_rec PATTERN: the
# records of $S with PATTERN.
S=/tmp/kpe-ops-moves.trace
snap() {
	cat "$T/trace" > "$S" || fail "cannot read the trace"
}
n_rec() {
	grep -cF -- "$1" "$S"
}
trap 'rm -f "$S"' EXIT

# same_hits A B: the two events' hit counts agree but for calls in flight
# while the group was switched on and off, and are many.
same_hits() {
	a=$(profile_hits "$1") b=$(profile_hits "$2")
	log "hits: $1 $a, $2 $b"
	[ "$a" -ge 200 ] && [ "$b" -ge 200 ] || fail "too few hits: $1 $a, $2 $b"
	d=$((a - b))
	[ $d -lt 0 ] && d=$((-d))
	[ $d -le 8 ] || fail "$1 has $a hits, $2 $b: a call lost or doubled"
}

# Returns alone: the returns-only callback.
expect_ok "r:kprobes/mr $F"
expect_ok "r:kprobes/mr2 $F"
echo 1 > "$T/events/kprobes/enable" || fail "enable failed"
work 300
want_hook tkp_fentry_hit_ret
echo 0 > "$T/events/kprobes/enable"
same_hits mr mr2
snap
[ "$(n_rec ' mr: (')" -ge 200 ] || fail "mr recorded $(n_rec ' mr: (') returns"
# Each return hooked after the first finds the first's trampoline as its
# return address: both records still name the caller, and the same one.
bad=$(grep -E ' mr2?: ' "$S" | grep -v -E ' mr2?: \([a-z_0-9.]+\+0x[0-9a-f]+/0x[0-9a-f]+ <- vfs_read\)$' | head -n3)
[ -z "$bad" ] || { log "$bad"; fail "a return record does not name its caller"; }
c1=$(grep ' mr: ' "$S" | sed -n 's/.*(\(.*\) <- vfs_read)$/\1/p' | sort | uniq -c | sort -rn | head -n1 | awk '{print $2}')
c2=$(grep ' mr2: ' "$S" | sed -n 's/.*(\(.*\) <- vfs_read)$/\1/p' | sort | uniq -c | sort -rn | head -n1 | awk '{print $2}')
[ "$c1" = "$c2" ] || fail "mr's usual caller is $c1, mr2's $c2"

# An entry probe joins: the site moves to the callback that records.
echo > "$T/trace"
expect_ok "p:kprobes/me $F c=%dx"
echo 1 > "$T/events/kprobes/enable" || fail "enable failed"
work 300
want_hook tkp_fentry_hit_args
echo 0 > "$T/events/kprobes/enable"
# kprobe_profile counts since definition: compare what this phase added.
snap
mr0=$(n_rec ' mr: (')
me0=$(n_rec ' me: (')
log "records: mr $mr0, me $me0"
d=$((mr0 - me0)); [ $d -lt 0 ] && d=$((-d))
[ "$me0" -ge 200 ] && [ $d -le 8 ] || fail "records: mr $mr0, me $me0: a call lost or doubled"

# It leaves: back to the returns-only callback.
expect_ok "-:kprobes/me"
echo > "$T/trace"
echo 1 > "$T/events/kprobes/enable" || fail "enable failed"
work 300
want_hook tkp_fentry_hit_ret
echo 0 > "$T/events/kprobes/enable"
snap
mr0=$(n_rec ' mr: (') mr20=$(n_rec ' mr2: (')
log "records: mr $mr0, mr2 $mr20"
d=$((mr0 - mr20)); [ $d -lt 0 ] && d=$((-d))
[ "$mr0" -ge 200 ] && [ $d -le 8 ] || fail "records: mr $mr0, mr2 $mr20 after the entry probe left"

# Moves under load: entry probes come and go while F runs all along.
echo > "$T/trace"
echo 1 > "$T/events/kprobes/enable" || fail "enable failed"
( work 100000 ) &
bg=$!
n=0
while [ $n -lt 10 ]; do
	expect_ok "p:kprobes/mv $F"
	enable_ev mv
	disable_ev mv
	expect_ok "-:kprobes/mv"
	n=$((n + 1))
done
work 300
want_hook tkp_fentry_hit_ret
kill "$bg" 2>/dev/null
wait "$bg" 2>/dev/null
echo 0 > "$T/events/kprobes/enable"
snap
mr0=$(n_rec ' mr: (') mr20=$(n_rec ' mr2: (')
log "under moves: mr $mr0, mr2 $mr20 records"
d=$((mr0 - mr20)); [ $d -lt 0 ] && d=$((-d))
[ "$mr0" -gt 0 ] && [ $d -le 8 ] || fail "under moves: mr $mr0, mr2 $mr20 records"
reset || fail "cleanup failed"
pass
