# Shared settings for the build/boot/test scripts.  Sourced, not run.
# BUILD_DIR (environment) moves the whole build outside the checkout.

set -eu

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$TOP/build}
JOBS=${JOBS:-3}

# The kernel built: KERNEL (environment, or make KERNEL=...) 6.12 (the
# default) or 6.1, each from Debian's linux-source-$KERNEL package
# (KERNEL_TARBALL names another tarball of that kernel).  Each kernel has
# its own trees, so that both stay built side by side: 6.1's are the
# variant names themselves (build/linux, build/upstream, build/debug,
# build/arm64, ...), 6.12's have KSUFFIX after them (build/linux-6.12,
# build/upstream-6.12, build/debug-6.12, build/arm64-6.12, ...).  What
# differs by kernel besides: the prep series (kernel/trace/prep/$KERNEL),
# the README anchors (prepare.sh), the config layers (configure.sh).
KERNEL=${KERNEL:-6.12}
case $KERNEL in
6.1) KSUFFIX= ;;
6.12) KSUFFIX=-6.12 ;;
*) echo "ERROR: KERNEL=$KERNEL: only 6.1 and 6.12 are supported" >&2; exit 1 ;;
esac
KSRC_PKG=linux-source-$KERNEL
KSRC_TOP=linux-source-$KERNEL		# the tarball's top directory
TARBALL=${KERNEL_TARBALL:-/usr/src/$KSRC_PKG.tar.xz}
PREP_DIR=$TOP/kernel/trace/prep/$KERNEL
SELFTESTS=$TOP/tools/testing/selftests/kprobe_events

# The target architecture: ARCH (environment, or make ARCH=...) x86_64
# (default) or arm64.  KARCH is the kernel's name for it (x86, arm64).
case ${ARCH:-} in
'' | x86 | x86_64) KARCH=x86 ;;
arm64 | aarch64) KARCH=arm64 ;;
*) echo "ERROR: ARCH=$ARCH: only x86_64 and arm64 are supported" >&2; exit 1 ;;
esac
CROSS_ARM64=aarch64-linux-gnu-

# Variant trees: "linux" carries our overlay, "upstream" stays pristine,
# "debug" is our kernel again with the debug fragment (config.debug): it
# builds from build/linux/src (the same extract and overlay) into its own
# build/debug/obj.  The arm64 variants (ARCH=arm64) are "arm64" (ours),
# "upstream-arm64" and "debug-arm64": the same source trees (build/linux/src,
# build/upstream/src), their own build/VARIANT/obj.  With KERNEL=6.12 every
# directory name ends in KSUFFIX (build/linux-6.12/src, ...).
variant_dir() { echo "$BUILD/$1$KSUFFIX"; }
src_tree() {
	case $1 in
	debug | arm64 | debug-arm64) echo linux ;;
	upstream-arm64) echo upstream ;;
	*) echo "$1" ;;
	esac
}
src_dir() { echo "$(variant_dir "$(src_tree "$1")")/src"; }
obj_dir() { echo "$(variant_dir "$1")/obj"; }

# arch_variant VARIANT: the variant of that name for ARCH: itself on x86;
# on arm64 linux -> arm64, upstream -> upstream-arm64, debug ->
# debug-arm64 (an arm64 name is kept).
arch_variant() {
	if [ "$KARCH" = arm64 ]; then
		case $1 in
		arm64 | *-arm64) echo "$1" ;;
		linux) echo arm64 ;;
		*) echo "$1-arm64" ;;
		esac
	else
		echo "$1"
	fi
}

# variant_arch VARIANT: the kernel architecture a variant is built for.
variant_arch() {
	case $1 in arm64 | *-arm64) echo arm64 ;; *) echo x86 ;; esac
}

# kernel_image VARIANT: the image QEMU boots.
kernel_image() {
	case $(variant_arch "$1") in
	arm64) echo "$(obj_dir "$1")/arch/arm64/boot/Image" ;;
	*) echo "$(obj_dir "$1")/arch/x86/boot/bzImage" ;;
	esac
}

# kernel_image_target VARIANT: the make target that builds it.
kernel_image_target() {
	case $(variant_arch "$1") in arm64) echo Image ;; *) echo bzImage ;; esac
}

# Both variants share one layout (build/X/src, build/X/obj), so with paths
# made relative to BUILD the upstream and our builds share ccache entries.
export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=true CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}

# The kprobe cases of the kernel's ftracetest outside test.d/kprobe (whose
# every case is run): those of test.d/dynevent that exercise kprobes.
FTRACETEST_DYNEVENT_CASES=(
	test.d/dynevent/add_remove_kprobe.tc
	test.d/dynevent/clear_select_events.tc
	test.d/dynevent/generic_clear_event.tc
	test.d/dynevent/test_duplicates.tc
)
# On 6.12 the kernel's own suites are 6.12's, and all of test.d/dynevent
# runs (issue 24): its fprobe, tprobe, eprobe, synthetic and uprobe
# events share the kernel's trace_probe.c, not ours, and must keep
# working beside our tracer.  The extra 6.12 suite (/ftrace-6.12, below)
# would run the same cases again: it is off (KPE_FT612=0).
if [ "$KERNEL" = 6.12 ]; then
	FTRACETEST_DYNEVENT_CASES=(
		test.d/dynevent/add_remove_btfarg.tc
		test.d/dynevent/add_remove_eprobe.tc
		test.d/dynevent/add_remove_fprobe.tc
		test.d/dynevent/add_remove_kprobe.tc
		test.d/dynevent/add_remove_synth.tc
		test.d/dynevent/add_remove_tprobe.tc
		test.d/dynevent/add_remove_tprobe_module.tc
		test.d/dynevent/add_remove_uprobe.tc
		test.d/dynevent/clear_select_events.tc
		test.d/dynevent/eprobes_syntax_errors.tc
		test.d/dynevent/fprobe_args_vfs.tc
		test.d/dynevent/fprobe_entry_arg.tc
		test.d/dynevent/fprobe_syntax_errors.tc
		test.d/dynevent/generic_clear_event.tc
		test.d/dynevent/test_duplicates.tc
		test.d/dynevent/tprobe_syntax_errors.tc
	)
	KPE_FT612=${KPE_FT612:-0}
fi

# ftracetest_cases FTRACE_DIR: the conformance cases, one per line.
ftracetest_cases() {
	local f
	for f in "$1"/test.d/kprobe/*.tc; do echo "test.d/kprobe/${f##*/}"; done
	for f in "${FTRACETEST_DYNEVENT_CASES[@]}"; do
		[ -f "$1/$f" ] && echo "$f"
	done
}

# The newer upstream ftracetest (DESIGN §5.2, issue 14): Linux 6.12's, from
# Debian's linux-source-6.12 (extracted by initramfs.sh into
# $BUILD/ftracetest-6.12, never kept in the repo), at /ftrace-6.12 in the
# guest.  Its cases are named "6.12:test.d/DIR/FILE.tc" on the way to the
# guest and "6.12/DIR/FILE.tc" in the results.
FT612_TARBALL=${KERNEL_TARBALL_612:-/usr/src/linux-source-6.12.tar.xz}
# The kprobe cases of its test.d/dynevent (every test.d/kprobe case runs):
#   add_remove_kprobe.tc    p/r events through dynamic_events
#   add_remove_btfarg.tc    BTF argument names and $arg* (kprobe part;
#                           requires "<argname>" in the README)
#   clear_select_events.tc  kprobe and synthetic events, cleared apart
#   generic_clear_event.tc  "!p:..." / "!r:..." removal
#   test_duplicates.tc      duplicate kprobe/eprobe names
# Left out: the fprobe_*, tprobe_*, *_eprobe, *_synth and *_uprobe cases
# (6.12's fprobe/tracepoint-probe events, eprobes, synthetic events and
# uprobes: not kprobe_events).
FT612_DYNEVENT_CASES=(
	test.d/dynevent/add_remove_kprobe.tc
	test.d/dynevent/add_remove_btfarg.tc
	test.d/dynevent/clear_select_events.tc
	test.d/dynevent/generic_clear_event.tc
	test.d/dynevent/test_duplicates.tc
)

# ft612_cases FTRACE612_DIR: the 6.12 cases, one per line, as the guest
# takes them ("6.12:test.d/...").
ft612_cases() {
	local f
	for f in "$1"/test.d/kprobe/*.tc; do echo "6.12:test.d/kprobe/${f##*/}"; done
	for f in "${FT612_DYNEVENT_CASES[@]}"; do
		[ -f "$1/$f" ] && echo "6.12:$f"
	done
}

# 6.12 cases that fail on upstream 6.1 too, because 6.1's core (not the
# kprobe event tracer) lacks what they exercise: "NAME REASON" per line,
# NAME as in the results ("6.12/DIR/FILE.tc").  Such a case failing on
# ours is reported as known, not as a failure; one that fails for
# something our tracer lacks does not belong here.
FT612_KNOWN=(
	# The uprobe parser is 6.1's trace_probe.c, not ours: it takes
	# "$stack0:symstr" on a uprobe, which 6.12 refuses (the case checks
	# that refusal when the README lists symstr).
	"6.12/kprobe/uprobe_syntax_errors.tc 6.1's uprobe parser accepts symstr on uprobes"
)
# With KERNEL=6.12, cases of test.d/dynevent that fail on the pristine
# 6.12 the same way, for the guest's sake: none of them is a kprobe event.
if [ "$KERNEL" = 6.12 ]; then
	FT612_KNOWN+=(
		"dynevent/add_remove_eprobe.tc fails on the pristine 6.12 too: events/eprobes/eprobe_chdir is not there when the case writes its enable file (run under dash on ours, it fails the same way)"
		"dynevent/add_remove_uprobe.tc fails on the pristine 6.12 too: the case wants a shell mapped from a file ending in 'sh', the guest's is /bin/busybox"
		"dynevent/add_remove_tprobe_module.tc unresolved on the pristine 6.12 too: no trace-events-sample module (CONFIG_SAMPLE_TRACE_EVENTS) in the guest"
	)
fi

# ft612_known NAME: the reason NAME is known to fail, or nothing.
ft612_known() {
	local k
	for k in "${FT612_KNOWN[@]}"; do
		[ "${k%% *}" = "$1" ] && { echo "${k#* }"; return 0; }
	done
	return 1
}

# copy_with_libs ROOT BINARY: BINARY and the shared libraries ldd lists
# for it, each at the same path under ROOT (a library already there is
# kept): Debian's tools, as they are, in the guest's initramfs.
copy_with_libs() {
	local root=$1 lib
	mkdir -p "$root$(dirname "$2")"
	cp "$2" "$root$2"
	for lib in $(ldd "$2" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

# pick_variants WHICH: the kernels a side-by-side run boots, into
# variants: linux (ours), upstream or both (upstream first).
pick_variants() {
	case $1 in
	linux) variants=(linux) ;;
	upstream) variants=(upstream) ;;
	both) variants=(upstream linux) ;;
	*) die "usage: $0 [linux|upstream|both]" ;;
	esac
}

log() { printf '%s\n' "== $*" >&2; }
die() { printf '%s\n' "ERROR: $*" >&2; exit 1; }

# kmake VARIANT MAKE-ARGS...: the kernel's make for VARIANT (O= its
# object dir); an arm64 variant is cross-built (ARCH=arm64,
# CROSS_COMPILE=aarch64-linux-gnu-), host tools with the host's gcc.
kmake() {
	local variant=$1; shift
	local cc=gcc hostcc=gcc cross=()
	if [ "$(variant_arch "$variant")" = arm64 ]; then
		cc=${CROSS_ARM64}gcc
		cross=(ARCH=arm64 CROSS_COMPILE="$CROSS_ARM64")
	fi
	if command -v ccache >/dev/null 2>&1; then
		cc="ccache $cc"
		hostcc="ccache $hostcc"
	fi
	make -s -C "$(src_dir "$variant")" O="$(obj_dir "$variant")" \
		"${cross[@]}" CC="$cc" HOSTCC="$hostcc" -j"$JOBS" "$@"
}
