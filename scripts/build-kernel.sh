#!/bin/bash
# build-kernel.sh VARIANT: bzImage and modules, modules installed into
# build/VARIANT/modroot for the initramfs.
. "$(dirname "$0")/common.sh"

variant=${1:-linux}
obj=$(obj_dir "$variant")
src=$(src_dir "$variant")
vdir=$(variant_dir "$variant")
start=$(date +%s)

# Only our overlay and the .config ever change in the extracted tree: when
# neither did since the last build, there is nothing for make to do.
stamp=$(cat "$obj/.config" "$src"/kernel/trace/trace_kprobe*.[ch] \
	"$TOP"/kernel/trace/prep/*.patch \
	"$src/kernel/trace/Kconfig" "$src/kernel/trace/Makefile" | md5sum)
if [ -f "$obj/arch/x86/boot/bzImage" ] && [ -d "$vdir/modroot" ] &&
   [ "$(cat "$vdir/.kpe-build-sum" 2>/dev/null)" = "$stamp" ]; then
	log "$variant kernel is up to date"
	exit 0
fi
rm -f "$vdir/.kpe-build-sum"
log "building $variant kernel (-j$JOBS)"
kmake "$variant" bzImage modules
rm -rf "$(variant_dir "$variant")/modroot"
kmake "$variant" INSTALL_MOD_PATH="$(variant_dir "$variant")/modroot" \
	INSTALL_MOD_STRIP=1 modules_install >/dev/null
echo "$stamp" > "$vdir/.kpe-build-sum"
log "built $obj/arch/x86/boot/bzImage in $(( $(date +%s) - start )) s"
