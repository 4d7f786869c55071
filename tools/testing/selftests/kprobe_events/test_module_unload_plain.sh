#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: entry probes on a module's function not written MOD:SYM die with the module; a reload is not credited to them
#
# Places on the trace-printk sample module's trace_printk_irq_work (its
# init calls it) written without MOD: -- a plain symbol (m) and, where
# the tracer takes patterns, a pattern (mw) -- die with the module.
# Round 1: defined while the module is loaded, enabled once it is gone
# (that may fail, cleanly); round 2: enabled while it goes; round 3:
# enabled in one write with another event while it is gone, and removed
# before it comes back; round 4: enabled while it goes, disabled and
# removed before it comes back.  Each time the module is loaded again:
# its new code is not what the events were defined on and, as with the
# kernel's tracer, they record none of it.  They must disable and be
# removed normally, and another entry probe must still arm, record and
# go.  No kernel warning (nor "cannot hook") throughout.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

[ -n "$(find /lib/modules -name trace-printk.ko 2>/dev/null)" ] ||
	skip "trace-printk sample module not available"
FUNC=trace_printk_irq_work
MARK="kpe: test_module_unload_plain.sh start $$"

cleanup() {
	reset >/dev/null 2>&1
	if [ -n "$(listing 2>/dev/null)" ]; then
		# Removal may need the module back at the address the
		# events kept; try both ways so later tests start clean.
		modprobe trace-printk 2>/dev/null
		reset >/dev/null 2>&1
		rmmod trace-printk 2>/dev/null
		reset >/dev/null 2>&1
		[ -n "$(listing 2>/dev/null)" ] &&
			echo "# cleanup: cannot remove $(listing | tr '\n' ' ')"
	fi
	rmmod trace-printk 2>/dev/null
}
trap cleanup EXIT

FAILS=0
# bad MSG: a failed check; the test goes on to show the rest
bad() {
	echo "# FAIL: $*"
	FAILS=$((FAILS + 1))
}

# addr: the kallsyms address of FUNC, empty if there is none
addr() {
	awk -v f="$FUNC" '$3 == f && $4 == "[trace_printk]" { print $1; exit }' /proc/kallsyms
}

# write_ev VALUE EVENT: write VALUE to EVENT's enable file, print the errno
write_ev() {
	"$KPE_WRITE" -a "$(ev_dir "$2")/enable" "$1"
}

# no_records ROUND EVENT...: none of the EVENTs recorded anything
no_records() {
	_r=$1
	shift
	for _ev in "$@"; do
		_n=$(count_trace " $_ev: (")
		log "$_r: $_ev: $_n records of the reloaded module's $FUNC"
		[ "$_n" = 0 ] || {
			grep -F " $_ev: (" "$T/trace" | head -n 3 | sed 's/^/#   /'
			bad "$_r: $_ev recorded $_n calls of the reloaded module"
		}
	done
}

# reload ROUND: load trace-printk again (its init calls FUNC), trace cleared
reload() {
	quiet_write "" "$T/trace"
	modprobe trace-printk || fail "$1: modprobe trace-printk failed"
	_a=$(addr)
	if [ "$_a" = "$A1" ]; then
		log "$1: reloaded at the same address ($_a)"
	else
		log "$1: reloaded elsewhere ($A1 before, $_a now)"
	fi
	log "$1: kprobe_profile:"
	sed 's/^/#   /' "$T/kprobe_profile"
}

# disable_remove ROUND EVENT...: each EVENT disables and is removed
disable_remove() {
	_r=$1
	shift
	for _ev in "$@"; do
		_out=$(write_ev 0 "$_ev")
		[ -z "$_out" ] || bad "$_r: disabling $_ev: $_out"
	done
	for _ev in "$@"; do
		_out=$("$KPE_WRITE" -a "$T/kprobe_events" "-:kprobes/$_ev")
		[ -z "$_out" ] || bad "$_r: removing $_ev: $_out"
		grep -q "^p:kprobes/$_ev " "$T/kprobe_events" && bad "$_r: $_ev still listed"
	done
}

# check_other ROUND: another entry probe arms, records and goes
check_other() {
	# Whatever the round left, this check needs a clean slate.
	reset >/dev/null 2>&1 || dump "$T/kprobe_events"
	quiet_write "" "$T/trace"
	_out=$("$KPE_WRITE" -a "$T/kprobe_events" "p:kprobes/other vfs_read")
	[ -z "$_out" ] || { bad "$1: p:kprobes/other vfs_read refused: $_out"; return; }
	_out=$(write_ev 1 other)
	[ -z "$_out" ] || bad "$1: enabling other: $_out"
	trigger
	_out=$(write_ev 0 other)
	[ -z "$_out" ] || bad "$1: disabling other: $_out"
	_n=$(count_trace " other: (vfs_read+")
	log "$1: other: $_n records of vfs_read"
	[ "$_n" -gt 0 ] || bad "$1: other (vfs_read) recorded nothing"
	_out=$("$KPE_WRITE" -a "$T/kprobe_events" "-:kprobes/other")
	[ -z "$_out" ] || bad "$1: removing other: $_out"
}

# define_places N: define mN (a plain symbol) and, where the tracer takes
# patterns, mwN (a pattern); EVS: the events defined
define_places() {
	expect_ok "p:kprobes/m$1 $FUNC"
	EVS=m$1
	[ -n "$PATTERNS" ] || return 0
	_out=$("$KPE_WRITE" -a "$T/kprobe_events" "p:kprobes/mw$1 trace_printk_irq*")
	if [ -z "$_out" ]; then
		EVS="$EVS mw$1"
	else
		log "a pattern is refused here ($_out): plain symbols only"
		PATTERNS=
	fi
}
PATTERNS=1

echo "$MARK" > /dev/kmsg 2>/dev/null
rmmod trace-printk 2>/dev/null
modprobe trace-printk || fail "modprobe trace-printk failed"
A1=$(addr)
[ -n "$A1" ] || fail "$FUNC not in /proc/kallsyms with trace-printk loaded"

# Round 1: defined while the module is there, enabled once it is gone.
R=defined-then-unloaded
define_places ""
dump "$T/kprobe_events"
rmmod trace-printk || fail "$R: rmmod trace-printk failed"
[ -z "$(addr)" ] || fail "$FUNC still in /proc/kallsyms after rmmod"
# Enabling a place whose code is gone: succeeds or fails, cleanly.
for ev in $EVS; do
	out=$(write_ev 1 $ev)
	log "$R: enable $ev with the module gone: ${out:-ok}; enable reads $(cat "$(ev_dir $ev)/enable")"
done
reload $R
no_records $R $EVS
disable_remove $R $EVS
rmmod trace-printk || bad "$R: rmmod trace-printk failed"
check_other $R

# Round 2: enabled (armed) while the module goes.
R=enabled-across-unload
modprobe trace-printk || fail "$R: modprobe trace-printk failed"
A1=$(addr)
define_places 2
for ev in $EVS; do
	out=$(write_ev 1 $ev)
	[ -z "$out" ] || bad "$R: enabling $ev with the module loaded: $out"
done
rmmod trace-printk || fail "$R: rmmod trace-printk failed"
reload $R
no_records $R $EVS
disable_remove $R $EVS
rmmod trace-printk || bad "$R: rmmod trace-printk failed"
check_other $R

# Round 3: the module gone, its events enabled in one write with another
# entry probe's, then removed while it is still gone.
R=gone-with-others
modprobe trace-printk || fail "$R: modprobe trace-printk failed"
A1=$(addr)
define_places 3
rmmod trace-printk || fail "$R: rmmod trace-printk failed"
expect_ok "p:kprobes/other3 vfs_read"
quiet_write "" "$T/trace"
out=$("$KPE_WRITE" -a "$T/events/kprobes/enable" 1)
log "$R: enable the group ($EVS other3): ${out:-ok}"
[ "$(cat "$(ev_dir other3)/enable")" = 1 ] || bad "$R: other3 not enabled"
trigger
out=$("$KPE_WRITE" -a "$T/events/kprobes/enable" 0)
[ -z "$out" ] || bad "$R: disabling the group: $out"
n=$(count_trace " other3: (vfs_read+")
log "$R: other3: $n records of vfs_read"
[ "$n" -gt 0 ] || bad "$R: other3 (vfs_read) recorded nothing beside the gone places"
disable_remove $R $EVS other3
reload $R
no_records $R $EVS
rmmod trace-printk || bad "$R: rmmod trace-printk failed"
check_other $R

# Round 4: enabled (armed) while the module goes, disabled and removed
# while it is gone.
R=armed-removed-while-gone
modprobe trace-printk || fail "$R: modprobe trace-printk failed"
A1=$(addr)
define_places 4
for ev in $EVS; do
	out=$(write_ev 1 $ev)
	[ -z "$out" ] || bad "$R: enabling $ev with the module loaded: $out"
done
rmmod trace-printk || fail "$R: rmmod trace-printk failed"
disable_remove $R $EVS
check_other $R
reload $R
no_records $R $EVS
rmmod trace-printk || bad "$R: rmmod trace-printk failed"

# What the kernel said meanwhile.
klog=$(dmesg 2>/dev/null | sed -n "/$MARK/,\$p" | sed -e 1d -e '/^[[:space:]]*$/d')
if [ -n "$klog" ]; then
	echo "# --- kernel log during the test:"
	echo "$klog" | tail -n 20 | defang
fi
echo "$klog" | grep -qE 'WARNING:|BUG:|cannot hook|Oops' &&
	bad "the kernel complained (see the log above)"

[ "$FAILS" = 0 ] || fail "$FAILS checks failed"
reset || fail "cleanup failed"
pass
