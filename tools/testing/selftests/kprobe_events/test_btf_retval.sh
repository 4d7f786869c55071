#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: $retval with no type takes the function's return type from
# BTF (ssize_t: signed decimal; a pointer: hex); a type written wins; a
# function returning void has no $retval
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
trap 'reset >/dev/null 2>&1' EXIT
[ -e /sys/kernel/btf/vmlinux ] || skip "no BTF in this kernel"


expect_ok 'r:rv vfs_read $retval x=$retval:x32'
listing_has 'r:kprobes/rv vfs_read arg1=$retval x=$retval:x32' || fail "listing: $(listing)"
fmt_has rv "field:s64 arg1;"
fmt_has rv "field:u32 x;"
fmt_has rv 'arg1=%lld x=0x%x'
fire rv
n=$(grep -cE ' rv: \(.* <- vfs_read\) arg1=[0-9]+ x=0x[0-9a-f]+$' "$T/trace")
[ "$n" -gt 0 ] || rfail rv "no 'arg1=DECIMAL x=0xHEX' record"
# A failed read returns a negative errno, shown signed: read(2) of a
# directory is EISDIR (-21).
expect_ok 'r:rn vfs_read ret=$retval'
enable_ev rn
read -r _x < / 2>/dev/null
disable_ev rn
n=$(grep -cE ' rn: \(.* <- vfs_read\) ret=-21$' "$T/trace")
[ "$n" -gt 0 ] || rfail rn "no 'ret=-21' record of reading a directory"

# A pointer is hexadecimal.
expect_ok 'r:rp getname_flags $retval'
fmt_has rp "field:u64 arg1;"
fmt_has rp 'arg1=0x%llx'

# void: refused, with the reason, the caret under $retval; nothing
# changes.
before=$(listing)
echo > "$T/error_log"
expect_refused EINVAL 'r:rk kfree a=$retval'
grep -qF 'kfree returns void: it has no $retval' "$T/error_log" ||
	fail "error_log: $(cat "$T/error_log")"
[ "$(tail -n 1 "$T/error_log" | wc -c)" = $((13 + 13)) ] ||
	fail "caret not under \$retval: $(cat "$T/error_log")"
[ "$(listing)" = "$before" ] || fail "listing changed"
reset || fail "cleanup failed"
pass
