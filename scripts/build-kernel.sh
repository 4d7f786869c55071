#!/bin/bash
# build-kernel.sh VARIANT: bzImage and modules, modules installed into
# build/VARIANT/modroot for the initramfs.
. "$(dirname "$0")/common.sh"

variant=${1:-linux}
obj=$(obj_dir "$variant")
start=$(date +%s)
log "building $variant kernel (-j$JOBS)"
kmake "$variant" bzImage modules
rm -rf "$(variant_dir "$variant")/modroot"
kmake "$variant" INSTALL_MOD_PATH="$(variant_dir "$variant")/modroot" \
	INSTALL_MOD_STRIP=1 modules_install >/dev/null
log "built $obj/arch/x86/boot/bzImage in $(( $(date +%s) - start )) s"
