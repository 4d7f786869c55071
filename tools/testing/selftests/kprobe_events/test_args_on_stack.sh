#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: dereferences that land on the task's stack (a syscall wrapper's struct pt_regs, +N(%sp)) read what the registers of the call below hold, and a dereference just past a stack read stays a normal checked one
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

case $KPE_ARCH in
x86_64)	WRAP=__x64_sys_read FD='+112(%di)' SP='%sp' ;;
aarch64|arm64) WRAP=__arm64_sys_read FD='+0(%x0)' SP='%sp' ;;
*)	skip "no syscall wrapper layout known for $KPE_ARCH" ;;
esac
grep -q " [tT] $WRAP\$" /proc/kallsyms || skip "no $WRAP"
grep -q " [tT] ksys_read\$" /proc/kallsyms || skip "no ksys_read"

# The wrapper's fd from its pt_regs on the stack, ksys_read's from its
# first argument: the same for every read.
expect_ok "p:kprobes/sw $WRAP fd=$FD:s32 fd64=$FD:s64 ra=+0($SP):x64"
expect_ok "p:kprobes/sk ksys_read fd=\$arg1:s32"
echo 1 > "$T/events/kprobes/enable" || fail "enable failed"
i=0
while [ $i -lt 20 ]; do
	read -r _l < /proc/version
	i=$((i + 1))
done
echo 0 > "$T/events/kprobes/enable"

sw=$(grep -E ' sw: ' "$T/trace" | sed -n 's/.* fd=\(-*[0-9]*\) .*/\1/p')
sw64=$(grep -E ' sw: ' "$T/trace" | sed -n 's/.* fd64=\(-*[0-9]*\) .*/\1/p')
sk=$(grep -E ' sk: ' "$T/trace" | sed -n 's/.* fd=\(-*[0-9]*\)$/\1/p')
nsw=$(echo "$sw" | grep -c .) nsk=$(echo "$sk" | grep -c .)
log "records: sw $nsw, sk $nsk"
[ "$nsw" -ge 20 ] || { dump "$T/trace"; fail "only $nsw wrapper records"; }
# The whole word (the fast path reads whole words on the stack).
[ "$sw64" = "$sk" ] || fail "the fd read as a word through pt_regs differs from ksys_read's"
[ "$sw" = "$sk" ] || {
	log "sw: $(echo $sw | head -c 200)"
	log "sk: $(echo $sk | head -c 200)"
	fail "the fd read through the wrapper's pt_regs differs from ksys_read's"
}
# The word at the stack pointer is a return address into kernel text.
bad=$(grep -E ' sw: ' "$T/trace" | grep -v -E " ra=$KADDR_RE" | head -n2)
[ -z "$bad" ] || { log "$bad"; fail "+0($SP) did not read a kernel address"; }

# A word at a misaligned address on the stack reads the bytes there (on
# little-endian: the top five bytes of one word, the low three of the
# next), by the checked path: the direct one is for aligned words.
pad16() {
	echo "$1" | sed 's/^0x//' | awk '{ s = $0; while (length(s) < 16) s = "0" s; print s }'
}
reset || fail "reset failed"
expect_ok "p:kprobes/su $WRAP a=+0($SP):x64 b=+8($SP):x64 u=+3($SP):x64"
echo 1 > "$T/events/kprobes/enable" || fail "enable failed"
read -r _l < /proc/version
echo 0 > "$T/events/kprobes/enable"
rec=$(grep -m1 ' su: ' "$T/trace")
a=$(pad16 "$(echo "$rec" | sed -n 's/.* a=\(0x[0-9a-f]*\).*/\1/p')")
b=$(pad16 "$(echo "$rec" | sed -n 's/.* b=\(0x[0-9a-f]*\).*/\1/p')")
u=$(pad16 "$(echo "$rec" | sed -n 's/.* u=\(0x[0-9a-f]*\).*/\1/p')")
want=$(echo "$b" | cut -c11-16)$(echo "$a" | cut -c1-10)
log "+0: $a, +8: $b, +3: $u"
[ -n "$rec" ] || { dump "$T/trace"; fail "no su record"; }
[ "$u" = "$want" ] || fail "+3($SP) read $u, the bytes there are $want"

# The last word of the stack (x86_64: pt_regs->ss, 0x2b for user space)
# is read; one that straddles the stack's end takes the checked path and
# reads or faults, never oopses.
# one_read DEFINITION PATTERN WHAT: the probe alone, one read, and a
# record matching PATTERN, or fail saying WHAT.
one_read() {
	reset || fail "reset failed"
	expect_ok "$1"
	echo 1 > "$T/events/kprobes/enable" || fail "enable failed"
	read -r _l < /proc/version
	echo 0 > "$T/events/kprobes/enable"
	grep -q "$2" "$T/trace" || { dump "$T/trace"; fail "$3"; }
}
if [ "$KPE_ARCH" = x86_64 ]; then
	one_read "p:kprobes/se $WRAP ss=+160(%di):x64 over=+164(%di):x64" \
		' se: .* ss=0x2b over=' "pt_regs->ss did not read 0x2b"
fi

# A dereference that leaves the stack (the return address, into text)
# is the usual checked read, and a NULL one faults cleanly.
one_read "p:kprobes/sx $WRAP t=+0(+0($SP)):x8 z=+0(+0(+0($FD))):x64" \
	' sx: .* t=0x[0-9a-f]* z=' "no sx record"
reset || fail "cleanup failed"
pass
