#!/bin/bash
# deps.sh [PACKAGE...]: install the Debian packages the build, boot and
# tests need (the kernel's sources: linux-source-$KERNEL, see common.sh),
# and the extra PACKAGEs (e.g. make bench's gnuplot-nox), when missing.  With ARCH=arm64 (environment) also the arm64 cross tool chain,
# qemu-system-arm and the arm64 package architecture (dpkg multiarch),
# through which initramfs.sh fetches Debian's arm64 busybox-static.
. "$(dirname "$0")/common.sh"

pkgs=("$KSRC_PKG" qemu-system-x86 busybox-static ccache gcc make
      flex bison bc libelf-dev libssl-dev cpio xz-utils kmod rsync perl
      python3 git libc6-dev linux-perf bpftrace dwarves trace-cmd "$@")
[ "$KARCH" = arm64 ] &&
	pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
foreign=
if [ "$KARCH" = arm64 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	foreign=arm64
fi
[ ${#missing[@]} -eq 0 ] && [ -z "$foreign" ] && exit 0

[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
if [ -n "$foreign" ]; then
	log "adding the dpkg architecture $foreign"
	${SUDO:-} dpkg --add-architecture "$foreign"
fi
log "installing: ${missing[*]}"
${SUDO:-} apt-get update -qq
[ ${#missing[@]} -eq 0 ] ||
	${SUDO:-} apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
