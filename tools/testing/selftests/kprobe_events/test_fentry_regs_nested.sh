#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a hit nested in another's recording leaves the outer hit's registers as they were
#
# Event "outer" on do_sys_openat2 takes a user value through the
# function's second argument, a fetch that calls copy_from_user_nofault,
# and then its first argument.  Event "inner" on copy_from_user_nofault,
# an ftrace place too, is hit from inside outer's recording: refused (a
# miss), but its ftrace callback runs there.  Where the tracer copies a
# hooked function's registers into a struct pt_regs of its own (6.12's
# arm64, whose ftrace saves only an ftrace_regs), the nested callback has
# one of its own, which it leaves uncopied (a refused hit reads no
# register).  The argument outer fetches after that must still be
# outer's: dfd AT_FDCWD (-100) for every open cat makes of a path, not
# copy_from_user_nofault's first argument (a kernel address).  Hits that
# are recorded while another is (an interrupt's) and take a copy of
# their own: test_fentry_regs_irq.sh.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
need_fentry
N=20

grep -q " [tT] copy_from_user_nofault\$" /proc/kallsyms ||
	skip "no copy_from_user_nofault"
expect_ok "p:kpe_nest/inner copy_from_user_nofault"
expect_ok "p:kpe_nest/outer do_sys_openat2 u=+u0($KPE_ARG2_REG):u64 dfd=$KPE_ARG1_REG:s32"
enable_ev kpe_nest/inner
enable_ev kpe_nest/outer
by=$(ftrace_hook copy_from_user_nofault)
case "$by" in
tkp_fentry*) ;;
*)
	reset
	skip "copy_from_user_nofault is not an ftrace place of ours here (${by:-not hooked})"
	;;
esac
# outer must be one too, else its registers are the kprobes core's
outer_by=$(ftrace_hook do_sys_openat2)
case "$outer_by" in
tkp_fentry*) ;;
*) fail "do_sys_openat2 is not an ftrace place of ours (${outer_by:-not hooked}), where copy_from_user_nofault is" ;;
esac
[ "$outer_by" = tkp_fentry_hit_args ] && [ "$KPE_ARCH" = arm64 ] ||
	log "here the hit's registers are ftrace's own, not a copy ($outer_by)"
i=0
while [ $i -lt $N ]; do
	cat /kpe-nest-$i 2>/dev/null
	i=$((i + 1))
done
disable_ev kpe_nest/outer
disable_ev kpe_nest/inner

misses=$(awk '$1 == "inner" || $1 == "kpe_nest/inner" { print $3; exit }' "$T/kprobe_profile")
recs=$(grep -F ' outer: (' "$T/trace" | grep -c '^ *cat-')
log "outer records of cat $recs, inner missed ${misses:-?}"
[ "$recs" -ge $N ] || fail "outer recorded $recs of cat's $N opens"
# Every outer record fetched through copy_from_user_nofault: an inner
# hit nested in it, refused.
[ -n "$misses" ] && [ "$misses" -ge "$recs" ] ||
	fail "inner missed ${misses:-?} times for $recs outer records: not the nesting this test needs"
bad=$(grep -F ' outer: (' "$T/trace" | grep '^ *cat-' | grep -vc ' dfd=-100$')
[ "$bad" = 0 ] ||
	fail "$bad of $recs outer records took another dfd than AT_FDCWD, e.g. $(grep -F ' outer: (' "$T/trace" | grep '^ *cat-' | grep -v ' dfd=-100$' | head -n 1)"

reset || fail "cleanup failed"
pass
