#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a BPF program on an ftrace place sees its hit's own registers, the unsaved ones zero
#
# kpe_funcip puts a raw BPF kprobe program on do_sys_openat2 through
# perf's kprobe PMU, an ftrace place of ours, and reads from its pt_regs
# the first argument (x86-64 di, arm64 x0) of every hit in its process:
# each is an openat(AT_FDCWD, ...), so its low 32 bits must be -100.
# Beside it a trace event on vfs_read with its first argument (a struct
# file pointer) is hit in between, on the same CPU: where the tracer
# copies a hit's registers into a struct pt_regs of its own, per CPU,
# and only when something reads them (6.12's arm64), a BPF program must
# never see what an earlier hit left there.  On arm64 x9-x28 must read
# as zero where the place is served with only the registers ftrace saves
# (tkp_fentry_hit_args), as a BPF fentry program's would.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
need_fentry
FUNCIP=$DIR/kpe_funcip
[ -x "$FUNCIP" ] || fail "no $FUNCIP"
[ -f /sys/bus/event_source/devices/kprobe/type ] || skip "no kprobe PMU"
W=$(mktemp -d)
cleanup() {
	reset >/dev/null 2>&1
	rm -rf "$W"
}
trap cleanup EXIT

expect_ok "p:kpe_breg/v vfs_read f=$KPE_ARG1_REG"
enable_ev kpe_breg/v
KPE_FUNCIP_REGS=1 KPE_FUNCIP_SHOW="$T/enabled_functions:/sys/kernel/debug/kprobes/list" \
	"$FUNCIP" do_sys_openat2 > "$W/out" 2> "$W/err"
rc=$?
disable_ev kpe_breg/v
# Only the probe itself may be missing here (a kernel without the
# function); the program's load, its attachment and the rest must work.
if [ $rc != 0 ] && grep -q '^kpe_funcip: perf_event_open: ' "$W/err"; then
	case "$(head -n 1 "$W/out")" in
	ENOENT | EOPNOTSUPP) skip "no kprobe PMU probe on do_sys_openat2 here: $(cat "$W/out")" ;;
	esac
fi
[ $rc = 0 ] || { dump "$W/err"; fail "kpe_funcip do_sys_openat2: $(cat "$W/out") (rc=$rc)"; }
# enabled_functions and the kprobes list while the program was on
funcip_shown "$T/enabled_functions" "$W/err" > "$W/ef"
funcip_shown /sys/kernel/debug/kprobes/list "$W/err" > "$W/kl"
hook=$(ftrace_hook do_sys_openat2 "$W/ef" "$W/kl")
log "do_sys_openat2 hooked by ${hook:-?}; $(cat "$W/out" | tr '\n' ' ')"
[ -n "$hook" ] || skip "do_sys_openat2 is not an ftrace place of ours here"
[ "$(count_trace " v: (")" -gt 0 ] || fail "vfs_read's event recorded nothing in between"

set -- $(sed -n 's/^hits=\([0-9]*\) .*$/\1/p' "$W/out") \
	$(sed -n 's/^regs arg1=\([0-9a-f]*\) arg1_and=\([0-9a-f]*\) zero=\([0-9a-f]*\)$/\1 \2 \3/p' "$W/out")
[ $# = 4 ] || fail "kpe_funcip printed no result: $(cat "$W/out")"
hits=$1 or=$2 and=$3 zero=$4
[ "$hits" -ge 20 ] || fail "the program saw $hits opens, want 20 or more"
# the low 32 bits (an int's register)
lo() { echo "$1" | cut -c9-16; }
[ "$(lo "$or")" = ffffff9c ] && [ "$(lo "$and")" = ffffff9c ] ||
	fail "first argument: OR $or AND $and over $hits hits, want the low half ffffff9c (AT_FDCWD) in every one"
if [ "$KPE_ARCH" = arm64 ] && [ "$hook" = tkp_fentry_hit_args ]; then
	[ "$zero" = 0000000000000000 ] ||
		fail "x9-x28 ORed over $hits hits: $zero, want zero"
else
	log "untested here: x9-x28 (only 6.12's arm64 copies a partial set of registers; hooked by $hook)"
fi
pass
