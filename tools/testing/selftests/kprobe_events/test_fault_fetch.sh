#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: fetches from bad kernel and user addresses record (fault), the kernel lives on
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

BADPTR=$DIR/kpe_badptr
[ -x "$BADPTR" ] || fail "$BADPTR missing (build with make)"

# Kernel memory: the null page, a non-canonical address, the unmapped
# guard hole below the direct map, the top of the address space, and a
# fault in the inner level of a nested dereference.  c=%dx is good.
kdef='vfs_read k1=+0(\16):u64 k2=+0(\0x8000000000000000):u64 k3=+0(\0xffff87fffffffff0):x32 k4=+0(\0xfffffffffffff000):u8 k5=+8(+0(\16)):u64 ks=+0(\0xffff87fffffffff0):string c='"$KPE_ARG3_REG"':u64'
expect_ok "p:fk $kdef"

# User memory: the file name pointer of openat() as the caller passed it,
# read as a user string and a user u64 (kpe_badptr passes a good one, 16,
# an unmapped page and a kernel address), and user reads of bad constants.
udef='do_sys_openat2 p='"$KPE_ARG2_REG"':x64 us=+0('"$KPE_ARG2_REG"'):ustring uv=+u0('"$KPE_ARG2_REG"'):u64 ul=+u0(\16):u64 uk=+u0(\0xffffffff81000000):u64'
expect_ok "p:fu $udef"

enable_ev fk
enable_ev fu
trigger
calls=$("$BADPTR") || { echo "$calls" | sed 's/^/#   /'; fail "kpe_badptr did not get the errors it expected"; }
disable_ev fk
disable_ev fu
echo "$calls" | sed 's/^/# kpe_badptr: /'

# Every fk record: all five kernel fetches faulted, c was still fetched.
total=$(count_trace " fk: (")
good=$(grep -cE ' fk: \(vfs_read\+0x0/0x[0-9a-f]+\) k1=\(fault\) k2=\(fault\) k3=\(fault\) k4=\(fault\) k5=\(fault\) ks=\(fault\) c=[0-9]+$' "$T/trace")
log "fk records: $total (all bad kernel fetches shown as (fault): $good)"
[ "$total" -gt 0 ] || fail "no fk record: a faulting fetch must not drop the event"
[ "$good" = "$total" ] || rfail fk "fk records with a bad kernel fetch not shown as (fault)"

# fu: for each pointer kpe_badptr passed, the record of that call.
for name in good low unmapped kernel; do
	ptr=$(echo "$calls" | awk -v n=$name '$1 == n { print $2 }')
	rec=$(grep -F " fu: (" "$T/trace" | grep -F " p=$ptr " | head -n 1)
	[ -n "$rec" ] || rfail fu "no fu record with p=$ptr ($name pointer)"
	log "$name: ${rec#* fu: }"
	case $name in
	good)
		pat=' us="/proc/version" uv=[0-9]+ ul=\(fault\) uk=\(fault\)$' ;;
	*)
		pat=' us=\(fault\) uv=\(fault\) ul=\(fault\) uk=\(fault\)$' ;;
	esac
	echo "$rec" | grep -qE "$pat" || fail "fu record of the $name pointer: want '$pat'"
done

# The kernel and the tracer are fine: a plain probe still records.
expect_ok "p:after_fault vfs_read"
fire after_fault
[ "$(count_trace " after_fault: (")" -gt 0 ] || fail "no record after the faults"

reset || fail "cleanup failed"
pass
