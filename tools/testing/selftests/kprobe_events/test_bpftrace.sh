#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: bpftrace (Debian's binary) on our tracer: kprobe and
# kretprobe with arguments and retval through the kprobe PMU, a wildcard
# attach with func, a tracepoint on a kprobe event with typed fields;
# exit status and nothing left behind
# timeout: 300
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
command -v bpftrace >/dev/null || skip "no bpftrace in the guest"
[ -f /sys/bus/event_source/devices/kprobe/type ] || skip "no kprobe PMU"
[ -f /sys/kernel/btf/vmlinux ] || skip "no BTF (/sys/kernel/btf/vmlinux)"

W=/tmp/kpe-bt
rm -rf "$W"
mkdir -p "$W" || fail "cannot make $W"
# The file the traced commands read: one line, its length known only here.
DATA=$W/kpe-bt-data
echo "kpe bpftrace $(cut -d' ' -f1 /proc/uptime) $$ $(date +%s)" > "$DATA"
SIZE=$(wc -c < "$DATA" | tr -d ' ')
# What must be the same after every run as before it: the kprobes
# registered and the ftrace hooks (baseline takes them).
KPLIST=/sys/kernel/debug/kprobes/list
baseline() {
	cat "$KPLIST" > "$W/kprobes.before" 2>/dev/null
	cat "$T/enabled_functions" > "$W/ftrace.before" 2>/dev/null
}
baseline
cp "$W/kprobes.before" "$W/kprobes.start"
cp "$W/ftrace.before" "$W/ftrace.start"

# bt_ok NAME PROGRAM CMD: bt, which must exit 0 and must have run CMD
bt_ok() {
	bt "$@"
	[ "$BT_RC" = 0 ] || btfail "$1" "$1: bpftrace exited with $BT_RC"
	grep -qxF "$(cat "$DATA")" "$W/$1.log" ||
		btfail "$1" "$1: the output of the traced command is missing"
}

# clean_after NAME: bpftrace left no probe, enabled event, kprobe or ftrace
# hook behind: kprobe_events as expected ($W/expect.listing), every
# kprobe event disabled, the kprobes and ftrace hooks as before the test.
clean_after() {
	listing > "$W/$1.listing"
	same "$W/expect.listing" "$W/$1.listing" \
		"kprobe_events changed after bpftrace exited" "$1"
	for _f in "$T"/events/kprobes/*/enable; do
		[ -f "$_f" ] || continue
		[ "$(cat "$_f")" = 0 ] || btfail "$1" "$1: $_f is '$(cat "$_f")' afterwards"
	done
	if [ -f "$KPLIST" ]; then
		cat "$KPLIST" > "$W/$1.kprobes"
		same "$W/kprobes.before" "$W/$1.kprobes" \
			"kprobes left registered after bpftrace exited ($KPLIST)" "$1"
	fi
	if [ -f "$T/enabled_functions" ]; then
		cat "$T/enabled_functions" > "$W/$1.ftrace"
		same "$W/ftrace.before" "$W/$1.ftrace" \
			"ftrace hooks left after bpftrace exited (enabled_functions)" "$1"
	fi
}
: > "$W/expect.listing"

# hooked_during: the functions hooked while bpftrace was attached, one a
# line: those with a kprobe (the kprobes list) or an ftrace hook
# (enabled_functions), whichever way the tracer places a probe there.
hooked_during() {
	{
		sed -n 's/^[0-9a-f]*  *[kr]  *\([A-Za-z0-9_.]*\)+.*/\1/p' "$W/during.kprobes"
		sed -n 's/^\([A-Za-z0-9_.]*\) .*/\1/p' "$W/during.ftrace"
	} 2>/dev/null | sort -u
}

# hooked NAME FUNC: FUNC was hooked while bpftrace was attached
hooked() {
	hooked_during | grep -qx "$2" && return 0
	btdump "$W/during.kprobes"
	btdump "$W/during.ftrace"
	btfail "$1" "$1: $2 was not hooked (kprobes list, enabled_functions) while bpftrace was attached"
}

# The command bpftrace starts (-c, which wants an ELF binary: sh runs
# it): it notes kprobe_events and the registered kprobes while bpftrace is
# attached, then reads $DATA with head, whose read() is a vfs_read.
cat > "$W/cmd.sh" <<EOS
sed -e '/^#/d' -e '/^\$/d' $T/kprobe_events > $W/during.listing
cat $KPLIST > $W/during.kprobes 2>/dev/null
cat $T/enabled_functions > $W/during.ftrace 2>/dev/null
exec head -n1 $DATA
EOS
CMD="/bin/sh $W/cmd.sh"

# a. kprobe:vfs_read through the kprobe PMU: head's read of $DATA, its
# file (arg0, as a struct file * through BTF) by name and the count
# (arg2, cast in printf).
bt_ok entry 'kprobe:vfs_read /comm == "head"/ {
	printf("kpe-entry count=%d file=%s\n", (int32)arg2,
	       str(((struct file *)arg0)->f_path.dentry->d_name.name));
}' "$CMD"
btdump "$W/entry.out"
# The PMU's probes are private: none in kprobe_events while attached (bcc
# writes p:kprobes/p_vfs_read_bcc_PID there when the PMU fails), but
# vfs_read hooked.
same "$W/expect.listing" "$W/during.listing" \
	"kprobe_events changed while bpftrace was attached" entry
hooked entry vfs_read
n=$(grep -c '^kpe-entry count=[0-9]* file=kpe-bt-data$' "$W/entry.out")
[ "$n" -ge 1 ] || btfail entry "no vfs_read entry on $DATA (arg0 as struct file *)"
# Every read of $DATA asks for at least its $SIZE bytes, and no more than
# a plausible buffer.
for c in $(sed -n 's/^kpe-entry count=\([0-9]*\) file=kpe-bt-data$/\1/p' "$W/entry.out"); do
	[ "$c" -ge "$SIZE" ] && [ "$c" -le 1048576 ] ||
		btfail entry "vfs_read count (arg2) $c: expected $SIZE..1048576"
done
log "a. kprobe:vfs_read: $n entries on $DATA, count >= its $SIZE bytes"
clean_after entry

# b. kretprobe:vfs_read: head's read of $DATA returns its $SIZE bytes;
# none of head's reads fails.
bt_ok ret 'kretprobe:vfs_read /comm == "head"/ {
	printf("kpe-return ret=%d\n", (int64)retval);
}' "$CMD"
btdump "$W/ret.out"
same "$W/expect.listing" "$W/during.listing" \
	"kprobe_events changed while bpftrace was attached" ret
hooked ret vfs_read
grep -q '^kpe-return ret=-' "$W/ret.out" &&
	btfail ret "a vfs_read of head failed (negative retval)"
grep -qx "kpe-return ret=$SIZE" "$W/ret.out" ||
	btfail ret "no vfs_read return of $SIZE bytes (the size of $DATA)"
log "b. kretprobe:vfs_read: returned the $SIZE bytes of $DATA"
clean_after ret

# c. A wildcard over the ksys_* functions, one PMU probe on each function
# it matches: bpftrace 0.17 expands a wildcard into probes of its own
# when the program uses the probe builtin (else it attaches one
# kprobe_multi link, fprobe's, which our tracer has no part in).  func
# and probe name each function hit; head calls at least ksys_read and
# ksys_write.
nglob=$(grep -c '^ksys_[^ ]*$' "$T/available_filter_functions")
[ "$nglob" -ge 2 ] || skip "only $nglob ksys_* functions to trace"
bt_ok wild 'kprobe:ksys_* /comm == "head"/ { printf("kpe-func %s %s\n", func, probe); }' "$CMD"
na=$(cat "$W/wild.log" "$W/wild.out" | sed -n 's/^Attaching \([0-9]*\) probes*\.*$/\1/p' | head -n1)
log "c. ksys_*: $nglob traceable functions, bpftrace attached ${na:-?} probes"
[ -n "$na" ] && [ "$na" -ge 2 ] || btfail wild "attached ${na:-no} probes for ksys_*"
# Each probe hooked its function, and no probe went through kprobe_events.
same "$W/expect.listing" "$W/during.listing" \
	"kprobe_events changed while bpftrace was attached" wild
nk=$(hooked_during | grep -c '^ksys_')
[ "$nk" = "$na" ] || {
	btdump "$W/during.kprobes"
	btdump "$W/during.ftrace"
	btfail wild "$nk ksys_* functions hooked while attached, for $na probes"
}
sed -n 's/^kpe-func //p' "$W/wild.out" | sort | uniq -c | sed 's/^/#   hits: /'
grep '^kpe-func ' "$W/wild.out" | while read -r _ f p; do
	[ "$p" = "kprobe:$f" ] || btfail wild "func '$f' hit in probe '$p'"
done || exit 1
funcs=$(sed -n 's/^kpe-func \([^ ]*\) .*/\1/p' "$W/wild.out" | sort -u)
nf=$(echo "$funcs" | grep -c .)
[ "$nf" -ge 2 ] || btfail wild "func named $nf functions, expected 2 or more"
for f in $funcs; do
	case $f in
	ksys_*) ;;
	*) btfail wild "func '$f' does not match ksys_*" ;;
	esac
	grep -qE "^[0-9a-f]+ [tT] $f\$" /proc/kallsyms ||
		btfail wild "func '$f' is not a function in /proc/kallsyms"
	grep -qx "$f" "$T/available_filter_functions" ||
		btfail wild "func '$f' is not in available_filter_functions"
done
echo "$funcs" | grep -qx ksys_read || btfail wild "func never named ksys_read"
echo "$funcs" | grep -qx ksys_write || btfail wild "func never named ksys_write"
clean_after wild

# d. One of our kprobe events, with typed fields.
expect_ok "p:kprobes/kpe_bt do_sys_openat2 dfd=%di:s32 fn=+0(%si):ustring"
listing > "$W/expect.listing"
# (A tracer may register the disabled event's kprobe already.)
baseline
# d1. bpftrace reads its fields and types from the event's format.
timeout 60 bpftrace -lv 'tracepoint:kprobes:kpe_bt' > "$W/fields.log" 2>&1 ||
	btfail fields "bpftrace -lv tracepoint:kprobes:kpe_bt failed"
btdump "$W/fields.log"
grep -qx 'tracepoint:kprobes:kpe_bt' "$W/fields.log" ||
	btfail fields "bpftrace does not list tracepoint:kprobes:kpe_bt"
grep -qE '^[[:space:]]+s32 dfd;?$' "$W/fields.log" ||
	btfail fields "bpftrace does not see the field s32 dfd"
grep -qE '^[[:space:]]+__data_loc char\[\] fn;?$' "$W/fields.log" ||
	btfail fields "bpftrace does not see the string field fn"
# d2. tracepoint:kprobes:kpe_bt, its fields by name.  Linux 6.1 lets only
# a kprobe program attach to a kprobe event (perf_event_set_bpf_prog():
# EINVAL for bpftrace's tracepoint program; upstream's kprobe events the
# same, bpftrace issue #3447), so the attach may fail with exactly that;
# if it attaches, head's open of $DATA must show up.
h0=$(profile_hits kpe_bt)
bt tp 'tracepoint:kprobes:kpe_bt /comm == "head"/ {
	printf("kpe-open dfd=%d fn=%s\n", args->dfd, str(args->fn));
}' "$CMD"
btdump "$W/tp.log"
if [ "$BT_RC" = 0 ]; then
	btdump "$W/tp.out"
	grep -qx "kpe-open dfd=-100 fn=$DATA" "$W/tp.out" ||
		btfail tp "no kpe_bt record of head opening $DATA at AT_FDCWD (-100)"
	h1=$(profile_hits kpe_bt)
	[ "$h1" -gt "$h0" ] || btfail tp "kprobe_profile counts no hit of kpe_bt"
	log "d2. tracepoint:kprobes:kpe_bt: dfd and fn of head's open of $DATA"
else
	grep -q 'ioctl(PERF_EVENT_IOC_SET_BPF): Invalid argument' "$W/tp.log" &&
		grep -q "Error attaching probe: tracepoint:kprobes:kpe_bt" "$W/tp.log" ||
		btfail tp "tracepoint:kprobes:kpe_bt failed otherwise than the kernel's EINVAL for a tracepoint program"
	log "d2. tracepoint:kprobes:kpe_bt: refused by perf_event_set_bpf_prog() (EINVAL), as on upstream"
fi
[ "$(count_trace " kpe_bt: (")" = 0 ] ||
	btfail tp "kpe_bt records in the trace buffer: only bpftrace used it"
clean_after tp
# d3. The event enabled in ftrace and bpftrace's PMU kprobe on the same
# function: both see head open $DATA, at AT_FDCWD.
enable_ev kpe_bt
bt_ok both 'kprobe:do_sys_openat2 /comm == "head"/ {
	printf("kpe-open dfd=%d fn=%s\n", (int32)arg0, str(uptr(arg1)));
}' "$CMD"
disable_ev kpe_bt
btdump "$W/both.out"
grep -qx "kpe-open dfd=-100 fn=$DATA" "$W/both.out" ||
	btfail both "bpftrace saw no open of $DATA at AT_FDCWD (-100)"
grep -qE "^ *head-[0-9]+ .* kpe_bt: \(do_sys_openat2\+0x0/0x[0-9a-f]+\) dfd=-100 fn=\"$DATA\"\$" "$T/trace" || {
	grep -F ' kpe_bt: ' "$T/trace" | tail -n 5 | sed 's/^/#   /'
	btfail both "no kpe_bt record of head opening $DATA while bpftrace probed the function"
}
log "d3. kpe_bt in ftrace and bpftrace's kprobe on do_sys_openat2 both saw $DATA"
clean_after both
# No reference left on the event: it can go.
expect_ok "-:kprobes/kpe_bt"
: > "$W/expect.listing"
# From here on as at the start.
cp "$W/kprobes.start" "$W/kprobes.before"
cp "$W/ftrace.start" "$W/ftrace.before"

# e. An attach our tracer refuses: the PMU fails, bcc's fallback line in
# kprobe_events is refused (error_log says so), bpftrace exits non-zero
# and leaves nothing.
quiet_write "" "$T/error_log"
bt bad 'kprobe:kpe_no_such_function_xyz { printf("never\n"); }' "$CMD"
btdump "$W/bad.log"
[ "$BT_RC" != 0 ] || btfail bad "bpftrace on an unknown function exited 0"
[ "$BT_RC" -lt 124 ] || [ "$BT_RC" = 255 ] ||
	btfail bad "bpftrace on an unknown function was killed (exit status $BT_RC)"
grep -q "Error attaching probe: 'kprobe:kpe_no_such_function_xyz'" "$W/bad.log" ||
	btfail bad "bpftrace did not report the failed attach"
grep -q never "$W/bad.out" 2>/dev/null && btfail bad "a probe on no function fired"
grep -q 'Command: .* kpe_no_such_function_xyz' "$T/error_log" || {
	dump "$T/error_log"
	btfail bad "error_log does not show the refused fallback probe"
}
clean_after bad

reset || fail "cleanup failed"
rm -rf "$W"
pass
