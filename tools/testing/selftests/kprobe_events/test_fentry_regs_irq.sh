#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: hits in interrupts amid a task's hits leave each hit's registers its own
#
# Event "g" on the getppid syscall function takes eight copies of the
# kernel command line, then its first argument (the syscall's struct
# pt_regs pointer: one value for all of a task's calls), while kpe_loop calls getppid() for a few seconds; event "t" on
# hrtimer_interrupt takes its first argument, in the timer interrupts that
# come meanwhile (the loop arms a timer every 200 us), some in the middle
# of a g hit.  Both are ftrace places.
# Where the tracer copies a hit's registers into a struct pt_regs of its
# own, one per CPU and level of nesting (6.12's arm64), an interrupt's
# hit must take a level of its own: every g record of the loop must show
# the one value, and every t record its CPU's clock event device, never
# g's value.  Elsewhere the hits' registers are ftrace's own, and the
# test holds all the same.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
need_fentry
[ -x "$KPE_LOOP" ] || fail "no $KPE_LOOP"
SECS=${KPE_REGS_IRQ_SECS:-3}
if [ "$KPE_ARCH" = arm64 ]; then
	G=__arm64_sys_getppid
else
	G=__x64_sys_getppid
fi
grep -q " [tT] hrtimer_interrupt\$" /proc/kallsyms || skip "no hrtimer_interrupt"

# Eight copies of the kernel command line first: the slow part of g's
# fetch, between the registers' copy and the read of the first argument.
expect_ok "p:kpe_irq/g $G$(nargs s 0 7 '+0(@saved_command_line):string') r=$KPE_ARG1_REG"
expect_ok "p:kpe_irq/t hrtimer_interrupt d=$KPE_ARG1_REG"
enable_ev kpe_irq/g
enable_ev kpe_irq/t
# hook FUNC: ftrace_hook of FUNC or of another name at its address
# (enabled_functions names one of them: __x64_sys_getppid can be
# __do_sys_getppid's alias)
hook() {
	_a=$(awk -v f="$1" '$3 == f { print $1; exit }' /proc/kallsyms)
	for _n in $1 $(awk -v a="$_a" '$1 == a && NF == 3 { print $3 }' /proc/kallsyms); do
		_by=$(ftrace_hook "$_n")
		[ -n "$_by" ] && break
	done
	echo "$_by"
}
for f in $G hrtimer_interrupt; do
	by=$(hook $f)
	case "$by" in
	tkp_fentry*) ;;
	*) skip "$f is not an ftrace place of ours here (${by:-not hooked})" ;;
	esac
done
echo > "$T/trace"
# A timer of the loop's own every 200 us: interrupts on its CPU.
KPE_LOOP_TIMER_US=200 "$KPE_LOOP" "$SECS" > /dev/null || fail "kpe_loop failed"
disable_ev kpe_irq/t
disable_ev kpe_irq/g

gs=$(grep -F ' g: (' "$T/trace" | grep '^ *kpe_loop-' | grep -o ' r=0x[0-9a-f]*$' | sort | uniq -c)
ts=$(count_trace ' t: (')
log "t records $ts; g records of kpe_loop by r: $(echo "$gs" | tr '\n' ' ')"
[ -n "$gs" ] || fail "no g record of kpe_loop"
[ "$ts" -ge 20 ] || fail "only $ts timer interrupts recorded in $SECS s"
[ "$(echo "$gs" | wc -l)" = 1 ] ||
	fail "g records of kpe_loop show several first arguments, some of an interrupt's hit: $(echo "$gs" | tr '\n' ' ')"
# hrtimer_interrupt's argument is its CPU's clock event device: one value
# per CPU, never the loop's (an interrupt's hit reading what the hit it
# interrupted had copied).
r=$(echo "$gs" | grep -o '0x[0-9a-f]*$')
tds=$(grep -F ' t: (' "$T/trace" | grep -o ' d=0x[0-9a-f]*$' | sort | uniq -c)
log "t records by d: $(echo "$tds" | tr '\n' ' ')"
ncpu=$(grep -c '^processor' /proc/cpuinfo)
[ "$(echo "$tds" | wc -l)" -le "$ncpu" ] ||
	fail "t records show more first arguments than there are CPUs ($ncpu): $(echo "$tds" | tr '\n' ' ')"
if echo "$tds" | grep -q " d=$r\$"; then
	fail "t records show g's argument $r: an interrupt's hit read the registers of the hit it interrupted"
fi
pass
