# Shared settings for the build/boot/test scripts.  Sourced, not run.
# BUILD_DIR (environment) moves the whole build outside the checkout.

set -eu

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$TOP/build}
TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
JOBS=${JOBS:-3}
SELFTESTS=$TOP/tools/testing/selftests/kprobe_events

# Variant trees: "linux" carries our overlay, "upstream" stays pristine.
variant_dir() { echo "$BUILD/$1"; }
src_dir() { echo "$BUILD/$1/src"; }
obj_dir() { echo "$BUILD/$1/obj"; }

# Both variants share one layout (build/X/src, build/X/obj), so with paths
# made relative to BUILD the upstream and our builds share ccache entries.
export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=true CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}

log() { printf '%s\n' "== $*" >&2; }
die() { printf '%s\n' "ERROR: $*" >&2; exit 1; }

kmake() {
	local variant=$1; shift
	local cc=gcc
	command -v ccache >/dev/null 2>&1 && cc="ccache gcc"
	make -s -C "$(src_dir "$variant")" O="$(obj_dir "$variant")" \
		CC="$cc" HOSTCC="$cc" -j"$JOBS" "$@"
}
