#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a return probe on a function some calls never return from
# (do_exit): the instances of tasks that exited inside it come back to
# the pool, which does not grow for them
. "$(dirname "$0")/lib.sh"
need_fentry_return
reset || fail "initial reset failed"

# 60 strings taken at the entry make each instance about 8 KiB.  The pool
# starts with 64 and grows fourfold when three quarters are out: were
# the exits counted as out for good, 400 of them (after the first 100)
# would grow it to 1024 instances, 8 MiB.
expect_ok "r:kprobes/ex do_exit$(nargs s 0 59 '+0($arg1):string')"
expect_ok "p:kprobes/exe do_exit"	# counts the entries
# The instances: about 8 KiB each, objects of kmalloc-8k (whose count
# /proc/slabinfo gives, free objects in KASAN's quarantine aside); where
# there is no slabinfo, all of Slab in kB.
if grep -q '^kmalloc-8k ' /proc/slabinfo 2>/dev/null; then
	UNIT="kmalloc-8k objects" LIMIT=512
	slab() {
		awk '$1 == "kmalloc-8k" { print $2 }' /proc/slabinfo
	}
else
	UNIT="kB of Slab" LIMIT=4096
	slab() {
		awk '$1 == "Slab:" { print $2 }' /proc/meminfo
	}
fi
exits() {
	_i=0
	while [ $_i -lt "$1" ]; do
		(exit 0)
		_i=$((_i + 1))
	done
}
enable_ev ex
enable_ev exe
exits 100	# the pool's first growth, if any, and the caches warm
sleep 1
s0=$(slab)
exits 400
sleep 1		# rethook recycles an exited task's instances after a grace period
s1=$(slab)
disable_ev ex
disable_ev exe
n=$(profile_hits exe)
log "do_exit hits: $n; $s0 $UNIT before 400 exits, $s1 after"
[ "$n" -ge 400 ] || fail "only $n hits of do_exit: the test tests nothing"
[ $((s1 - s0)) -lt $LIMIT ] ||
	fail "$((s1 - s0)) more $UNIT over 400 exits: the pool grows for instances that came back"
reset || fail "cleanup failed"
pass
