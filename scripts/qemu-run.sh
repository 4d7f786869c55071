#!/bin/bash
# qemu-run.sh [options]: boot a built kernel with the test initramfs.
#
#   --variant V     linux (ours, default) or upstream; with ARCH=arm64 the
#                   arm64 variant of that name (arm64, upstream-arm64), booted
#                   in qemu-system-aarch64 -M virt -cpu max
#   --mode M        shell (default with a terminal), demo (default without),
#                   cmd (with --cmd), check (run the kselftests)
#   --cmd 'CMD'     shell command to run in the guest (implies --mode cmd)
#   --tests 'T...'  with --mode check: only these tests
#   --conformance 'CASES'  with --mode check: then run ftracetest on CASES
#   --smp N  --mem SIZE  --timeout SECONDS  --append 'KERNEL ARGS'
#   --env 'NAME=VALUE ...'  environment for the guest's tests (e.g.
#                   KPE_STRESS_SECS=60), exported by the guest's init
#   --log FILE      console log (default build/VARIANT/console.log)
#   --file PATH     copy a host file into the guest as /kpe/files/NAME (repeatable)
#   --cpio PATH     append this newc cpio archive to the initramfs (repeatable;
#                   a large payload such as scripts/suites.sh's)
#   --icount        exact instruction-count time (-icount shift=0,sleep=off);
#                   with --smp 1 only: under icount QEMU 7.2 hangs at
#                   "x86: Booting SMP configuration" with 2 vCPUs
#   --kvm           use KVM (opt-in only: on these machines /dev/kvm exists
#                   but hangs QEMU)
#   KPE_QEMU_MONITOR=SOCKET (environment): the QEMU monitor on that unix
#                   socket, e.g. to read the vCPUs' registers of a stuck
#                   guest ("info registers -a")
#
# Exit status: the guest's own status, or 1 on timeout or on any kernel
# splat in the console (BUG, WARNING, Oops, KASAN, UBSAN, lockdep, RCU,
# a kmemleak report, panic).
. "$(dirname "$0")/common.sh"

variant=linux mode= cmd= tests= conformance= smp=2 mem=1G timeout=600 append= log= icount= kvm= env=
files=() cpios=()
while [ $# -gt 0 ]; do
	case $1 in
	--variant) variant=$2; shift ;;
	--mode) mode=$2; shift ;;
	--cmd) cmd=$2; mode=${mode:-cmd}; shift ;;
	--tests) tests=$2; shift ;;
	--conformance) conformance=$2; shift ;;
	--smp) smp=$2; shift ;;
	--mem) mem=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--append) append=$2; shift ;;
	--env) env=$2; shift ;;
	--log) log=$2; shift ;;
	--file) files+=("$2"); shift ;;
	--cpio) cpios+=("$2"); shift ;;
	--icount) icount=1 ;;
	--kvm) kvm=1 ;;
	*) die "unknown option $1" ;;
	esac
	shift
done
if [ -z "$mode" ]; then
	if [ -t 0 ] && [ -t 1 ] && [ "${CI:-}" != true ]; then mode=shell; else mode=demo; fi
fi

variant=$(arch_variant "$variant")
arch=$(variant_arch "$variant")
vdir=$(variant_dir "$variant")
kernel=$(kernel_image "$variant")
[ -f "$kernel" ] || die "$kernel not built"
[ -f "$vdir/initramfs.cpio" ] || die "$vdir/initramfs.cpio not built"
log=${log:-$vdir/console.log}

# The run-specific part of the initramfs, appended to the base archive.
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
mkdir -p "$run/kpe"
echo "$mode" > "$run/kpe/mode"
printf '%s\n' "$cmd" > "$run/kpe/cmd"
printf '%s\n' "$tests" > "$run/kpe/tests"
printf '%s' "$conformance" > "$run/kpe/conformance"
: > "$run/kpe/env"
for kv in $env; do
	case $kv in
	[A-Za-z_]*=*) printf "export %s='%s'\n" "${kv%%=*}" "${kv#*=}" >> "$run/kpe/env" ;;
	*) die "--env: '$kv' is not NAME=VALUE" ;;
	esac
done
if [ ${#files[@]} -gt 0 ]; then
	mkdir -p "$run/kpe/files"
	cp "${files[@]}" "$run/kpe/files/"
fi
(cd "$run" && find kpe | cpio -o -H newc --quiet) > "$run/run.cpio"
cat "$vdir/initramfs.cpio" "$run/run.cpio" ${cpios[@]+"${cpios[@]}"} > "$run/boot.cpio"

# Single-threaded TCG by default: under multi-threaded TCG (QEMU 7.2) a
# vCPU can execute kernel text while another patches it, and even the
# plain function tracer, toggled on a function another vCPU is calling,
# dies in do_int3 (kernel and upstream alike).  One host thread still
# interleaves the vCPUs, so the guest's SMP races remain real.
accel=(-accel "tcg,thread=${TCG_THREAD:-single}")
[ -n "$kvm" ] && accel=(-accel kvm -cpu host)
[ -n "$icount" ] && accel=(-accel tcg -icount shift=0,sleep=off)

if [ "$arch" = arm64 ]; then
	# The virt board, booted by device tree, PL011 console.  -cpu max
	# (every feature TCG emulates: pointer authentication, BTI, ...) with
	# the implementation-defined pointer-authentication algorithm, much
	# cheaper under TCG than the architected QARMA5.
	[ -z "$kvm" ] || die "--kvm: x86 guests only"
	qemu=(qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on "${accel[@]}"
	      -m "$mem" -smp "$smp" -kernel "$kernel" -initrd "$run/boot.cpio"
	      -nic none -no-reboot -append "console=ttyAMA0 panic=-1 $append")
else
	qemu=(qemu-system-x86_64 "${accel[@]}" -m "$mem" -smp "$smp"
	      -kernel "$kernel" -initrd "$run/boot.cpio" -nic none -no-reboot
	      -append "console=ttyS0 panic=-1 $append")
fi
# Extra QEMU options for one-off investigations, e.g. QEMU_EXTRA=-s for
# a gdb stub on port 1234.
# shellcheck disable=SC2206
[ -n "${QEMU_EXTRA:-}" ] && qemu+=(${QEMU_EXTRA})

if [ "$mode" = shell ]; then
	"${qemu[@]}" -nographic 2>&1 | tee "$log"
	exit "${PIPESTATUS[0]}"
fi

set +e
monitor=none
[ -n "${KPE_QEMU_MONITOR:-}" ] && monitor=unix:$KPE_QEMU_MONITOR,server,nowait
timeout -k 10 "$timeout" "${qemu[@]}" -display none -serial stdio -monitor "$monitor" \
	</dev/null 2>&1 | stdbuf -oL tr -d '\r' | tee "$log" | {
	if [ -n "${KPE_QUIET:-}" ]; then grep --line-buffered -E '^(TAP|ok|not ok|#|kpe:|kpe-kmemleak:|1\.\.)'; else cat; fi
}
qrc=${PIPESTATUS[0]}
set -e

rc=$(sed -n 's/^kpe: done rc=\([0-9]*\).*/\1/p' "$log" | tail -n1)
# kmemleak's reports, not its boot banner ("kmemleak: Kernel memory leak
# detector initialized"): "N new suspected memory leaks" and the objects.
# Hangs too: the soft/hard-lockup, hung-task, RCU-stall and workqueue
# detectors' reports.
splat='BUG:|WARNING:|Oops|KASAN|UBSAN|possible recursive locking|circular locking|inconsistent lock state|suspicious RCU usage|kmemleak: [0-9]+ new suspected|unreferenced object 0x|Kernel panic|general protection fault|Call Trace:|soft lockup|hard LOCKUP|blocked for more than|self-detected stall|detected stalls on CPUs|workqueue lockup'
if grep -Eq "$splat" "$log"; then
	echo "kpe: kernel splat in the console ($log):" >&2
	grep -En "$splat" "$log" | head -20 >&2
	exit 1
fi
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	echo "kpe: guest timed out after ${timeout}s ($log)" >&2
	exit 1
fi
[ -n "$rc" ] || { echo "kpe: guest ended without a result ($log)" >&2; exit 1; }
exit "$rc"
