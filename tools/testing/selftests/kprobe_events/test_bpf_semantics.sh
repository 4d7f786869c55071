#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: what BPF programs rely on at a kprobe, on the probes perf's
# kprobe PMU makes (bpftrace's kprobe:/kretprobe:), which our tracer hooks
# through ftrace at a function's entry: bpf_override_return() on an
# error-injectable function and its refusal elsewhere, func and
# bpf_get_func_ip() naming the probed function, reg("ip") inside it, the
# arguments in arg0..arg2; nothing left behind
# timeout: 300
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
command -v bpftrace >/dev/null || skip "no bpftrace in the guest"
[ -f /sys/bus/event_source/devices/kprobe/type ] || skip "no kprobe PMU"
[ -f /sys/kernel/btf/vmlinux ] || skip "no BTF (/sys/kernel/btf/vmlinux)"
GETPPID=$DIR/kpe_getppid
FUNCIP=$DIR/kpe_funcip
[ -x "$GETPPID" ] || fail "$GETPPID missing (build with make)"
[ -x "$FUNCIP" ] || fail "$FUNCIP missing (build with make)"
W=/tmp/kpe-sem
rm -rf "$W"
mkdir -p "$W" || fail "cannot make $W"
# What the test asks of kallsyms about the functions it probes, from one
# read of it (a read of /proc/kallsyms, and awk over all of it, takes
# most of a second under TCG: once per question they were a third of
# the test's time).  A line per function: NAME COUNT ADDR NEXT ALIAS...,
# COUNT the text symbols of that name, ADDR the last one's address, NEXT
# that of the next text symbol above it, ALIAS... every text symbol at
# ADDR (NAME among them).
NEED="__x64_sys_getppid vfs_read ksys_read ksys_write do_sys_openat2"
KSYMS=$W/kallsyms
# (Sorted by address, the next symbol above one is on a line below it.)
awk '$2 ~ /^[tT]$/' /proc/kallsyms | sort > "$KSYMS" ||
	fail "cannot read /proc/kallsyms"
SYMS=$W/syms
awk -v need="$NEED" 'BEGIN { n = split(need, w, " "); for (i = 1; i <= n; i++) want[w[i]] = 1 }
	NR == FNR {
		if ($3 in want) { cnt[$3]++; a[$3] = $1; at[$1] = 1 }
		next
	}
	last in at && $1 != last && !(last in h) { h[last] = $1 }
	$1 in at { al[$1] = al[$1] " " $3 }
	{ last = $1 }
	END { for (f in want) print f, cnt[f] + 0, a[f], h[a[f]], al[a[f]] }' \
	"$KSYMS" "$KSYMS" > "$SYMS" || fail "cannot index /proc/kallsyms"
# sym FUNC FIELD: FIELD (2 COUNT, 3 ADDR, 4 NEXT, 5- ALIAS...) of FUNC
sym() {
	awk -v f="$1" -v k="$2" '$1 == f {
		if (k == 5) { for (i = 5; i <= NF; i++) print $i } else print $k
	}' "$SYMS"
}
EI=/sys/kernel/debug/error_injection/list
[ -f "$EI" ] || skip "no $EI (CONFIG_FUNCTION_ERROR_INJECTION)"
# injectable FUNC: FUNC is in the error injection list, under its name or
# that of an alias at its address (the list says __do_sys_getppid for
# __x64_sys_getppid)
injectable() {
	_a=$(sym "$1" 3)
	case $_a in *[!0]*) ;; *) return 2 ;; esac	# none, or hidden
	for _s in $(sym "$1" 5); do
		awk -v s="$_s" '$1 == s { f = 1 } END { exit !f }' "$EI" && return 0
	done
	return 1
}
injectable __x64_sys_getppid ||
	skip "__x64_sys_getppid is not error-injectable ($EI)"
injectable vfs_read &&
	fail "vfs_read is error-injectable ($EI): part a2 needs one that is not"

# The file the traced commands read (one line) and the one they create.
DATA=$W/kpe-sem-data
NEWF=$W/kpe-sem-created
echo "kpe bpf semantics $(cut -d' ' -f1 /proc/uptime) $$" > "$DATA"
KPLIST=/sys/kernel/debug/kprobes/list
cat "$KPLIST" > "$W/kprobes.before" 2>/dev/null
cat "$T/enabled_functions" > "$W/ftrace.before" 2>/dev/null
: > "$W/expect.listing"

# bt_ok NAME PROGRAM CMD: bt, which must exit 0
bt_ok() {
	bt "$@"
	[ "$BT_RC" = 0 ] || btfail "$1" "$1: bpftrace exited with $BT_RC"
}

# clean_after NAME: nothing left behind: kprobe_events as expected, the
# kprobes and the ftrace hooks as before the test.
clean_after() {
	listing > "$W/$1.listing"
	same "$W/expect.listing" "$W/$1.listing" \
		"kprobe_events changed after the BPF user exited" "$1"
	if [ -f "$KPLIST" ]; then
		cat "$KPLIST" > "$W/$1.kprobes"
		same "$W/kprobes.before" "$W/$1.kprobes" \
			"kprobes left registered after the BPF user exited ($KPLIST)" "$1"
	fi
	if [ -f "$T/enabled_functions" ]; then
		cat "$T/enabled_functions" > "$W/$1.ftrace"
		same "$W/ftrace.before" "$W/$1.ftrace" \
			"ftrace hooks left after the BPF user exited (enabled_functions)" "$1"
	fi
}

# hooked NAME FUNC [KPROBES FTRACE]: FUNC was hooked (a kprobe on it in
# the kprobes list, or an ftrace hook in enabled_functions) while the BPF
# user was attached, as recorded in $W/during.kprobes and during.ftrace
# (or the two files given); says which.
# Either may name the function by an alias at its address
# (__do_sys_getppid for __x64_sys_getppid).
hooked() {
	_k=${3:-$W/during.kprobes}
	_f=${4:-$W/during.ftrace}
	for _a in $(aliases "$2"); do
		if grep -qE "^[0-9a-f]+ +[kr] +$_a\+0x" "$_k" 2>/dev/null; then
			log "$1: $2 hooked by a kprobe ($(grep -E " $_a\+0x" "$_k" | head -n1))"
			return 0
		elif grep -q "^$_a " "$_f" 2>/dev/null; then
			log "$1: $2 hooked through ftrace ($(grep "^$_a " "$_f" | head -n1))"
			return 0
		fi
	done
	btdump "$_k"
	btdump "$_f"
	btfail "$1" "$1: $2 was not hooked (kprobes list, enabled_functions) while attached"
}

# aliases FUNC: FUNC and the other text symbols at its address
aliases() {
	sym "$1" 5 | sort -u
}

# sym_range NAME: LO and HI, 16 hex digits each: the address of the
# function NAME (it must be the only symbol of that name) and that of the
# next text symbol above it in /proc/kallsyms.
sym_range() {
	_r="$(sym "$1" 2) $(sym "$1" 3) $(sym "$1" 4)"
	# shellcheck disable=SC2086
	set -- "$1" $_r
	[ "$2" = 1 ] || fail "$1: $2 text symbols of that name in /proc/kallsyms"
	case "$3" in
	0000000000000000 | '') fail "$1: no address in /proc/kallsyms (kptr_restrict?)" ;;
	esac
	[ -n "$4" ] || fail "$1: no symbol after it in /proc/kallsyms"
	LO=$3
	HI=$4
}

# inside ADDR LO HI: LO <= ADDR < HI (16 hex digits each)
inside() {
	awk -v a="$1" -v l="$2" -v h="$3" 'BEGIN {
		exit !(length(a) == 16 && (a "") >= (l "") && (a "") < (h ""))
	}'
}

# offset ADDR BASE: ADDR - BASE in hex (for the log; from the low 32
# bits, which the shell's arithmetic takes without overflow)
offset() {
	printf '0x%x' $(((0x${1#????????} - 0x${2#????????}) & 0xffffffff))
}

# What bpftrace -c starts (an ELF binary, so sh runs the scripts): each
# notes kprobe_events, the kprobes and the ftrace hooks while bpftrace is
# attached, then does its part.
during() {
	cat <<EOS
sed -e '/^#/d' -e '/^\$/d' $T/kprobe_events > $W/during.listing
cat $KPLIST > $W/during.kprobes 2>/dev/null
cat $T/enabled_functions > $W/during.ftrace 2>/dev/null
EOS
}
# cmd-read.sh: the shell creates $NEWF (an open with O_WRONLY|O_CREAT|
# O_TRUNC, mode 0666), head opens and reads $DATA (read(): ksys_read,
# vfs_read) and writes it out (write(): ksys_write).
{ during; echo "echo created > $NEWF"; echo "exec head -n1 $DATA"; } > "$W/cmd-read.sh"
CMD="/bin/sh $W/cmd-read.sh"
# cmd-getppid.sh: kpe_getppid calls getppid() 5 times, forks a child
# which calls it 5 times.
{ during; echo "exec $GETPPID 5 fork"; } > "$W/cmd-getppid.sh"

# ---------------------------------------------------------------------
# a1. bpf_override_return() on an error-injectable function, the syscall
# __x64_sys_getppid: kpe_getppid's getppid() fails with ENOSYS while the
# program overrides it; its child, whose calls the program does not
# override, gets its real parent (the function ran on as usual); after
# bpftrace exits, getppid() works again.
"$GETPPID" 3 > "$W/pre.out" || fail "kpe_getppid failed before bpftrace"
n=$(grep -cx "kpe-getppid pid=[0-9]* ret=$$ errno=0" "$W/pre.out")
[ "$n" = 3 ] || { dump "$W/pre.out"; fail "getppid() before bpftrace: expected 3 times $$"; }
BT_OPTS=--unsafe
bt_ok override 'kprobe:__x64_sys_getppid /pid == cpid && comm == "kpe_getppid"/ {
	printf("kpe-override pid=%d\n", pid);
	override(-38);
}' "/bin/sh $W/cmd-getppid.sh"
BT_OPTS=
same "$W/expect.listing" "$W/during.listing" \
	"kprobe_events changed while bpftrace was attached" override
hooked override __x64_sys_getppid
grep '^kpe-getppid ' "$W/override.log" > "$W/override.calls"
[ "$(wc -l < "$W/override.calls")" = 10 ] ||
	btfail override "expected 10 getppid() results from kpe_getppid and its child"
P=$(sed -n '1s/^kpe-getppid pid=\([0-9]*\) .*/\1/p' "$W/override.calls")
[ -n "$P" ] || btfail override "no pid in kpe_getppid's first line"
n=$(grep -cx "kpe-getppid pid=$P ret=-1 errno=38" "$W/override.calls")
[ "$n" = 5 ] ||
	btfail override "getppid() in the traced process: $n of 5 calls returned -1/ENOSYS (38)"
n=$(grep -c "^kpe-override pid=$P\$" "$W/override.out")
[ "$n" = 5 ] || btfail override "the program ran $n times for 5 calls"
grep -v "^kpe-getppid pid=$P " "$W/override.calls" > "$W/override.child"
n=$(grep -cx "kpe-getppid pid=[0-9]* ret=$P errno=0" "$W/override.child")
[ "$n" = 5 ] ||
	btfail override "getppid() in the child (not overridden): $n of 5 calls returned its parent $P"
log "a1. override(-38) on __x64_sys_getppid: 5 calls -1/ENOSYS, the child's 5 calls $P"
"$GETPPID" 3 > "$W/post.out" || fail "kpe_getppid failed after bpftrace"
n=$(grep -cx "kpe-getppid pid=[0-9]* ret=$$ errno=0" "$W/post.out")
[ "$n" = 3 ] || { dump "$W/post.out"; fail "getppid() after bpftrace exited: expected 3 times $$"; }
clean_after override

# a2. override() on vfs_read, which is not error-injectable: the kernel
# refuses the program (PERF_EVENT_IOC_SET_BPF), bpftrace fails the attach
# and exits non-zero, nothing is left behind.
BT_OPTS=--unsafe
bt noinj 'kprobe:vfs_read /pid == cpid/ { override(-5); }' "$CMD"
BT_OPTS=
btdump "$W/noinj.log"
[ "$BT_RC" != 0 ] || btfail noinj "override() on vfs_read: bpftrace exited 0"
[ "$BT_RC" -lt 124 ] || [ "$BT_RC" = 255 ] ||
	btfail noinj "override() on vfs_read: bpftrace was killed (exit status $BT_RC)"
grep -q "Error attaching probe: 'kprobe:vfs_read'" "$W/noinj.log" ||
	btfail noinj "bpftrace did not report the failed attach of kprobe:vfs_read"
grep -q 'ioctl(PERF_EVENT_IOC_SET_BPF): Invalid argument' "$W/noinj.log" ||
	btfail noinj "the attach did not fail with the kernel's EINVAL (PERF_EVENT_IOC_SET_BPF)"
grep -q "read error" "$W/noinj.log" &&
	btfail noinj "a read failed: the override took effect"
log "a2. override() on vfs_read refused (EINVAL)"
clean_after noinj

# ---------------------------------------------------------------------
# b1. kprobe:vfs_read: func names vfs_read and reg("ip") lies inside it,
# the same at every hit (just past the entry, as for a kprobe's int3);
# kretprobe:vfs_read on the same function at once: func names the probed
# function if bpftrace takes it from bpf_get_func_ip(), else (bpftrace
# 0.17 reads the ip register there too) the caller it returns to,
# ksys_read for read(), with reg("ip") inside it.
sym_range vfs_read
R_LO=$LO
R_HI=$HI
sym_range ksys_read
K_LO=$LO
K_HI=$HI
_t0=$(cut -d' ' -f1 /proc/uptime)
timeout 60 bpftrace -d -e 'kretprobe:vfs_read { printf("%s\n", func); }' \
	> "$W/dry.log" 2>&1 || btfail dry "bpftrace -d (dry run) failed"
_t1=$(cut -d' ' -f1 /proc/uptime)
log "dry run: $(echo "$_t0 $_t1" | awk '{ printf "%.1f", $2 - $1 }') s"
if grep -q 'inttoptr (i64 173 to' "$W/dry.log"; then
	RET_FUNC=helper
else
	RET_FUNC=ip
fi
log "b1. bpftrace's func in a kretprobe: $RET_FUNC"
bt_ok func 'kprobe:vfs_read /pid == cpid/ { printf("kpe-entry %s %016lx\n", func, reg("ip")); }
kretprobe:vfs_read /pid == cpid/ { printf("kpe-return %s %016lx\n", func, reg("ip")); }' "$CMD"
btdump "$W/func.out"
same "$W/expect.listing" "$W/during.listing" \
	"kprobe_events changed while bpftrace was attached" func
hooked func vfs_read
grep -qxF "$(cat "$DATA")" "$W/func.log" ||
	btfail func "the output of the traced command is missing"
ne=$(grep -c '^kpe-entry ' "$W/func.out")
nr=$(grep -c '^kpe-return ' "$W/func.out")
[ "$ne" -ge 1 ] || btfail func "no kprobe:vfs_read hit in the traced command"
[ "$nr" -ge 1 ] || btfail func "no kretprobe:vfs_read hit in the traced command"
grep '^kpe-entry ' "$W/func.out" | while read -r _ f ip; do
	[ "$f" = vfs_read ] || btfail func "kprobe:vfs_read: func is '$f'"
	inside "$ip" "$R_LO" "$R_HI" ||
		btfail func "kprobe:vfs_read: reg(\"ip\") $ip is not inside vfs_read ($R_LO..$R_HI)"
done || exit 1
IP=$(sed -n 's/^kpe-entry [^ ]* //p' "$W/func.out" | sort -u)
[ "$(echo "$IP" | wc -l)" = 1 ] ||
	btfail func "kprobe:vfs_read: reg(\"ip\") differs between hits"
log "b1. kprobe:vfs_read: $ne hits, func vfs_read, reg(\"ip\") vfs_read+$(offset "$IP" "$R_LO")"
grep '^kpe-return ' "$W/func.out" | while read -r _ f ip; do
	if [ "$RET_FUNC" = helper ]; then
		[ "$f" = vfs_read ] || btfail func "kretprobe:vfs_read: func is '$f'"
	else
		[ "$f" = ksys_read ] ||
			btfail func "kretprobe:vfs_read: func (the ip register) is '$f', not the caller ksys_read"
		inside "$ip" "$K_LO" "$K_HI" ||
			btfail func "kretprobe:vfs_read: reg(\"ip\") $ip is not inside ksys_read ($K_LO..$K_HI)"
	fi
done || exit 1
log "b1. kretprobe:vfs_read: $nr hits, func $(sed -n 's/^kpe-return \([^ ]*\) .*/\1/p' "$W/func.out" | sort -u | paste -sd' ')"
clean_after func

# b2. bpf_get_func_ip() itself (kpe_funcip: a raw BPF kprobe program on
# a kprobe PMU probe): the address of the probed function, at every hit,
# at its entry and at its return; regs->ip at the entry the same as
# bpftrace saw, at the return inside the caller.
funcip() {
	_n=$1
	shift
	KPE_FUNCIP_SHOW="$KPLIST:$T/enabled_functions" "$FUNCIP" "$@" \
		> "$W/$_n.out" 2> "$W/$_n.err" ||
		btfail "$_n" "kpe_funcip $*: $(cat "$W/$_n.out")"
	# What it showed while attached: the kprobes list, then
	# enabled_functions.
	funcip_shown "$KPLIST" "$W/$_n.err" > "$W/during.kprobes"
	funcip_shown "$T/enabled_functions" "$W/$_n.err" > "$W/during.ftrace"
	hooked "$_n" "$1"
	# shellcheck disable=SC2046
	set -- $(sed -n 's/^hits=\([0-9]*\) func_ip=\([0-9a-f]*\) func_ip_and=\([0-9a-f]*\) ip=\([0-9a-f]*\) ip_and=\([0-9a-f]*\)$/\1 \2 \3 \4 \5/p' "$W/$_n.out")
	[ $# = 5 ] || btfail "$_n" "kpe_funcip printed no result"
	HITS=$1
	FIP=$2
	RIP=$4
	[ "$HITS" -ge 10 ] || btfail "$_n" "$HITS hits for 10 calls"
	[ "$2" = "$3" ] || btfail "$_n" "bpf_get_func_ip() differs between hits"
	[ "$4" = "$5" ] || btfail "$_n" "regs->ip differs between hits"
	clean_after "$_n"
}
funcip fip-entry vfs_read
[ "$FIP" = "$R_LO" ] ||
	btfail fip-entry "kprobe vfs_read: bpf_get_func_ip() $FIP, vfs_read is at $R_LO"
[ "$RIP" = "$IP" ] ||
	btfail fip-entry "kprobe vfs_read: regs->ip $RIP, bpftrace's reg(\"ip\") was $IP"
log "b2. kprobe vfs_read: $HITS hits, bpf_get_func_ip() vfs_read, regs->ip vfs_read+$(offset "$RIP" "$R_LO")"
funcip fip-return vfs_read ret
[ "$FIP" = "$R_LO" ] ||
	btfail fip-return "kretprobe vfs_read: bpf_get_func_ip() $FIP, vfs_read is at $R_LO"
inside "$RIP" "$K_LO" "$K_HI" ||
	btfail fip-return "kretprobe vfs_read: regs->ip $RIP is not inside the caller ksys_read ($K_LO..$K_HI)"
log "b2. kretprobe vfs_read: $HITS hits, bpf_get_func_ip() vfs_read, regs->ip ksys_read+$(offset "$RIP" "$K_LO")"
sym_range ksys_write
funcip fip-write ksys_write
[ "$FIP" = "$LO" ] ||
	btfail fip-write "kprobe ksys_write: bpf_get_func_ip() $FIP, ksys_write is at $LO"
inside "$RIP" "$LO" "$HI" ||
	btfail fip-write "kprobe ksys_write: regs->ip $RIP is not inside ksys_write"
log "b2. kprobe ksys_write: $HITS hits, bpf_get_func_ip() ksys_write"

# b3. Two functions in one program: probe and func name the same
# function at every hit; head calls both.
bt_ok multi 'kprobe:ksys_read,kprobe:ksys_write /pid == cpid/ { printf("kpe-multi %s %s\n", probe, func); }' "$CMD"
same "$W/expect.listing" "$W/during.listing" \
	"kprobe_events changed while bpftrace was attached" multi
hooked multi ksys_read
hooked multi ksys_write
grep '^kpe-multi ' "$W/multi.out" | sort | uniq -c | sed 's/^/#   hits: /'
grep '^kpe-multi ' "$W/multi.out" | while read -r _ p f; do
	case "$f" in
	ksys_read | ksys_write) ;;
	*) btfail multi "func '$f' in probe '$p'" ;;
	esac
	[ "$p" = "kprobe:$f" ] || btfail multi "func '$f' in probe '$p'"
done || exit 1
grep -qx 'kpe-multi kprobe:ksys_read ksys_read' "$W/multi.out" ||
	btfail multi "no ksys_read hit"
grep -qx 'kpe-multi kprobe:ksys_write ksys_write' "$W/multi.out" ||
	btfail multi "no ksys_write hit"
log "b3. kprobe:ksys_read,kprobe:ksys_write: probe and func agree"
clean_after multi

# ---------------------------------------------------------------------
# c. Arguments: do_sys_openat2(dfd, filename, how): the shell's open of
# $NEWF (O_WRONLY|O_CREAT|O_TRUNC, mode 0666) and head's of $DATA
# (O_RDONLY), both at AT_FDCWD.
rm -f "$NEWF"
bt_ok args 'kprobe:do_sys_openat2 /pid == cpid/ {
	printf("kpe-open dfd=%d fn=%s flags=%d mode=%d\n", (int32)arg0,
	       str(uptr(arg1)), ((struct open_how *)arg2)->flags,
	       ((struct open_how *)arg2)->mode);
}' "$CMD"
btdump "$W/args.out"
same "$W/expect.listing" "$W/during.listing" \
	"kprobe_events changed while bpftrace was attached" args
hooked args do_sys_openat2
[ -f "$NEWF" ] || btfail args "the traced command did not create $NEWF"
# shellcheck disable=SC2046
set -- $(sed -n "s#^kpe-open dfd=-100 fn=$NEWF flags=\([0-9]*\) mode=\([0-9]*\)\$#\1 \2#p" "$W/args.out")
[ $# = 2 ] || btfail args "no single open of $NEWF at AT_FDCWD (-100) (arg0, arg1)"
[ $(($1 & 0x243)) = $((0x241)) ] ||
	btfail args "open of $NEWF: flags $1, expected O_WRONLY|O_CREAT|O_TRUNC (arg2)"
[ "$2" = 438 ] || btfail args "open of $NEWF: mode $2, expected 0666 (438) (arg2)"
# shellcheck disable=SC2046
set -- $(sed -n "s#^kpe-open dfd=-100 fn=$DATA flags=\([0-9]*\) mode=\([0-9]*\)\$#\1 \2#p" "$W/args.out")
[ $# = 2 ] || btfail args "no single open of $DATA at AT_FDCWD (-100) (arg0, arg1)"
[ $(($1 & 0x243)) = 0 ] || btfail args "open of $DATA: flags $1, expected O_RDONLY (arg2)"
[ "$2" = 0 ] || btfail args "open of $DATA: mode $2, expected 0 (arg2)"
log "c. kprobe:do_sys_openat2: dfd, file name and open_how of both opens"
clean_after args

reset || fail "cleanup failed"
rm -rf "$W"
pass
