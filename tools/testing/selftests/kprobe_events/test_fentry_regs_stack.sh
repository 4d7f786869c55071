#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the stacktrace option unwinds an ftrace place's hit from that hit's own registers
#
# With options/stacktrace on, each record of an event is followed by a
# stack trace the trace event core takes from the hit's registers.  An
# event with no arguments on do_sys_openat2, an ftrace place of ours,
# must show the open's call chain, from do_sys_openat2 up, never another
# hit's: beside it, an event on vfs_read takes its first argument, so
# that where the tracer copies a hit's registers into a struct pt_regs
# of its own, per CPU, only when something reads them (6.12's arm64),
# the copy last made there is a read's.  The plain record of an event
# with no arguments reads no register; the stack trace must.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
need_fentry
OPT=$T/options/stacktrace
[ -f "$OPT" ] || skip "no $OPT"
cleanup() {
	quiet_write 0 "$OPT"
	reset >/dev/null 2>&1
}
trap cleanup EXIT

expect_ok "p:kpe_stk/o do_sys_openat2"
expect_ok "p:kpe_stk/v vfs_read f=$KPE_ARG1_REG"
enable_ev kpe_stk/v
enable_ev kpe_stk/o
hook=$(ftrace_hook do_sys_openat2)
case "$hook" in
tkp_fentry*) ;;
*) skip "do_sys_openat2 is not an ftrace place of ours here (${hook:-not hooked})" ;;
esac
echo 1 > "$OPT" || fail "cannot set $OPT"
echo > "$T/trace"
i=0
while [ $i -lt 10 ]; do
	cat /proc/version > /dev/null
	i=$((i + 1))
done
echo 0 > "$OPT"
disable_ev kpe_stk/o
disable_ev kpe_stk/v

# Per record of o by cat: the stack lines (" => ...") that follow it, in
# its CPU's buffer (the merged trace may put another CPU's event between).
for f in "$T"/per_cpu/cpu*/trace; do
	awk '
		/ o: \(/ { inrec = ($0 ~ /^ *cat-/); if (inrec) n++; next }
		/^ *=> / { if (inrec) { s[n] = s[n] " " $2 } ; next }
		/<stack trace>/ { next }
		{ inrec = 0 }
		END { for (i = 1; i <= n; i++) print i ":" s[i] }' "$f"
done > /tmp/kpe_stk.$$
recs=$(wc -l < /tmp/kpe_stk.$$)
log "$recs records of o by cat with stacks; first: $(head -n 1 /tmp/kpe_stk.$$)"
[ "$recs" -ge 10 ] || { rm -f /tmp/kpe_stk.$$; fail "$recs records of o by cat, want 10 or more"; }
# The stack starts at the probed function and goes up the open's chain:
# nothing of a read's.
bad=$(grep -vc '^[0-9]*: do_sys_openat2 ' /tmp/kpe_stk.$$)
read_ones=$(grep -c 'read' /tmp/kpe_stk.$$)
ex=$(grep -v '^[0-9]*: do_sys_openat2 ' /tmp/kpe_stk.$$ | head -n 1)
ex2=$(grep 'read' /tmp/kpe_stk.$$ | head -n 1)
rm -f /tmp/kpe_stk.$$
[ "$bad" = 0 ] || fail "$bad of $recs stacks of o do not go from do_sys_openat2 up to its callers, e.g. $ex"
[ "$read_ones" = 0 ] || fail "$read_ones of $recs stacks of o show a read's call chain, e.g. $ex2"
pass
