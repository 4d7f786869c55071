# Shared settings for the build/boot/test scripts.  Sourced, not run.
# BUILD_DIR (environment) moves the whole build outside the checkout.

set -eu

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$TOP/build}
TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
JOBS=${JOBS:-3}
SELFTESTS=$TOP/tools/testing/selftests/kprobe_events

# Variant trees: "linux" carries our overlay, "upstream" stays pristine,
# "debug" is our kernel again with the debug fragment (config.debug): it
# builds from build/linux/src (the same extract and overlay) into its own
# build/debug/obj.
variant_dir() { echo "$BUILD/$1"; }
src_tree() { case $1 in debug) echo linux ;; *) echo "$1" ;; esac; }
src_dir() { echo "$BUILD/$(src_tree "$1")/src"; }
obj_dir() { echo "$BUILD/$1/obj"; }

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

# ftracetest_cases FTRACE_DIR: the conformance cases, one per line.
ftracetest_cases() {
	local f
	for f in "$1"/test.d/kprobe/*.tc; do echo "test.d/kprobe/${f##*/}"; done
	for f in "${FTRACETEST_DYNEVENT_CASES[@]}"; do
		[ -f "$1/$f" ] && echo "$f"
	done
}

log() { printf '%s\n' "== $*" >&2; }
die() { printf '%s\n' "ERROR: $*" >&2; exit 1; }

kmake() {
	local variant=$1; shift
	local cc=gcc
	command -v ccache >/dev/null 2>&1 && cc="ccache gcc"
	make -s -C "$(src_dir "$variant")" O="$(obj_dir "$variant")" \
		CC="$cc" HOSTCC="$cc" -j"$JOBS" "$@"
}
