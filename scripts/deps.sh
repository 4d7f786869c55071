#!/bin/bash
# deps.sh [PACKAGE...]: install the Debian packages the build, boot and
# tests need, and the extra PACKAGEs (e.g. make bench's gnuplot-nox), when
# missing.
. "$(dirname "$0")/common.sh"

pkgs=(linux-source-6.1 qemu-system-x86 busybox-static ccache gcc make
      flex bison bc libelf-dev libssl-dev cpio xz-utils kmod rsync perl
      python3 git libc6-dev linux-perf bpftrace dwarves trace-cmd "$@")
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

log "installing: ${missing[*]}"
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
${SUDO:-} apt-get update -qq
${SUDO:-} apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
