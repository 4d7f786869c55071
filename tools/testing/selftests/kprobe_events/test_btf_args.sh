#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: BTF argument names: "p vfs_read file count" records file
# and count with BTF's types (pointer in hex, size_t unsigned, int
# signed), the same values as the registers; NAME= renames; $arg*
# expands to every argument, named; return probes take names at entry
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
trap 'reset >/dev/null 2>&1' EXIT
[ -e /sys/kernel/btf/vmlinux ] || skip "no BTF in this kernel (test_btf_refuse.sh checks the refusal)"


# 1. Names, typed from BTF, beside the registers they are passed in.
expect_ok "p:grp/bn vfs_read file count di=$KPE_ARG1_REG dx=$KPE_ARG3_REG:u64"
listing_has "p:grp/bn vfs_read file=file count=count di=$KPE_ARG1_REG dx=$KPE_ARG3_REG:u64" ||
	fail "listing: $(listing)"
fmt_has grp/bn "field:u64 file;"
fmt_has grp/bn "field:u64 count;"
fmt_has grp/bn 'file=0x%llx count=%llu'
fire grp/bn
total=$(count_trace " bn: (")
same=$(sed -n 's/^.* bn: (vfs_read+0x0\/0x[0-9a-f]*) file=\(0x[0-9a-f]*\) count=\([0-9][0-9]*\) di=\(0x[0-9a-f]*\) dx=\([0-9][0-9]*\)$/\1 \2 \3 \4/p' "$T/trace" |
	awk '$1 == $3 && $2 == $4' | wc -l)
log "bn: $total records, $same with file == di and count == dx"
[ "$total" -gt 0 ] || fail "no bn record"
[ "$same" = "$total" ] || rfail bn "file/count differ from the registers (or malformed records)"
reset || fail "reset failed"

# 2. NAME= renames; a signed int shows signed (AT_FDCWD is -100).
expect_ok "p:bo do_sys_openat2 d=dfd how"
listing_has "p:kprobes/bo do_sys_openat2 d=dfd how=how" || fail "listing: $(listing)"
fmt_has bo "field:s32 d;"
fmt_has bo "field:u64 how;"
fire bo
n=$(grep -cE ' bo: \(do_sys_openat2\+0x0/0x[0-9a-f]+\) d=-100 how=0x[0-9a-f]+$' "$T/trace")
[ "$n" -gt 0 ] || rfail bo "no 'd=-100 how=0x...' record"
reset || fail "reset failed"

# 3. $arg* is every argument, named, as if written out.
expect_ok 'p:bs vfs_read $arg*'
listing_has "p:kprobes/bs vfs_read file=file buf=buf count=count pos=pos" ||
	fail "\$arg* listing: $(listing)"
fmt_has bs 'file=0x%llx buf=0x%llx count=%llu pos=0x%llx'
fire bs
n=$(grep -cE ' bs: \(vfs_read\+0x0/0x[0-9a-f]+\) file=0x[0-9a-f]+ buf=0x[0-9a-f]+ count=[0-9]+ pos=0x[0-9a-f]+$' "$T/trace")
[ "$n" -gt 0 ] || rfail bs "no \$arg* record"
# ... and with other arguments around it
expect_ok 'p:bs2 vfs_read $comm $arg* x=$arg1'
listing_has 'p:kprobes/bs2 vfs_read arg1=$comm file=file buf=buf count=count pos=pos x=$arg1' ||
	fail "\$arg* among others: $(listing)"
reset || fail "reset failed"

# 4. A return probe takes names at the entry, as $argN.
expect_ok 'r:br vfs_read file count a1=$arg1:x64 $retval'
listing_has 'r:kprobes/br vfs_read file=file count=count a1=$arg1:x64 arg4=$retval' ||
	fail "listing: $(listing)"
fire br
total=$(count_trace " br: (")
same=$(sed -n 's/^.* br: (.* <- vfs_read) file=\(0x[0-9a-f]*\) count=\([0-9]*\) a1=\(0x[0-9a-f]*\) arg4=\(-*[0-9]*\)$/\1 \3/p' "$T/trace" |
	awk '$1 == $2' | wc -l)
log "br: $total records, $same with file == \$arg1"
[ "$total" -gt 0 ] || fail "no br record"
[ "$same" = "$total" ] || rfail br "file differs from \$arg1 at entry (or malformed records)"
expect_ok 'r:bs3 vfs_read $arg*'
listing_has 'r:kprobes/bs3 vfs_read file=file buf=buf count=count pos=pos' ||
	fail "r \$arg*: $(listing)"

# 5. Untyped $argN takes BTF's type; a type written wins.
expect_ok 'p:ba vfs_read $arg3 c=$arg3:x32'
fmt_has ba "field:u64 arg1;"
fmt_has ba "field:u32 c;"
fmt_has ba 'arg1=%llu c=0x%x'
reset || fail "reset failed"

# 6. A module's function, from the module's BTF (the tests' kpe_kmod:
# int kpe_traced_fn(int v)), if it is installed.
ko=$(find /lib/modules -name kpe_kmod.ko 2>/dev/null | head -n 1)
if [ -n "$ko" ]; then
	lsmod | grep -q '^kpe_kmod ' || insmod "$ko" || fail "cannot load kpe_kmod"
	expect_ok 'p:bk kpe_kmod:kpe_traced_fn v'
	listing_has 'p:kprobes/bk kpe_kmod:kpe_traced_fn v=v' || fail "listing: $(listing)"
	fmt_has bk "field:s32 v;"
	reset || fail "reset failed"
	rmmod kpe_kmod || fail "cannot unload kpe_kmod"
else
	log "kpe_kmod not installed: a module's BTF not checked"
fi
pass
