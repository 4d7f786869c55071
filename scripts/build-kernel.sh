#!/bin/bash
# build-kernel.sh VARIANT: bzImage (arm64: Image) and modules, modules
# installed into build/VARIANT/modroot for the initramfs, the selftests'
# test module (tools/testing/selftests/kprobe_events/kmod) with them.
# With ARCH=arm64 VARIANT names the arm64 variant (cross-built).
. "$(dirname "$0")/common.sh"

variant=$(arch_variant "${1:-linux}")
obj=$(obj_dir "$variant")
src=$(src_dir "$variant")
vdir=$(variant_dir "$variant")
start=$(date +%s)

# The selftests' test module (kpe_kmod), built against this kernel.
kmod_src=$SELFTESTS/kmod
kmod_files=("$kmod_src"/Kbuild "$kmod_src"/*.c)

# Only our overlay, the .config and the test module ever change: when
# none did since the last build, there is nothing for make to do.
# (trace.c: the README lines prepare.sh splices in)
stamp=$(cat "$obj/.config" "$src"/kernel/trace/trace_kprobe*.[ch] \
	"$src/kernel/trace/trace.c" "$PREP_DIR"/*.patch \
	"$src/kernel/trace/Kconfig" "$src/kernel/trace/Makefile" \
	"${kmod_files[@]}" | md5sum)
image=$(kernel_image "$variant")
if [ -f "$image" ] && [ -d "$vdir/modroot" ] &&
   [ -n "$(find "$vdir/modroot" -name kpe_kmod.ko 2>/dev/null)" ] &&
   [ "$(cat "$vdir/.kpe-build-sum" 2>/dev/null)" = "$stamp" ]; then
	log "$variant kernel is up to date"
	exit 0
fi
rm -f "$vdir/.kpe-build-sum"
log "building $variant kernel (-j$JOBS)"
kmake "$variant" "$(kernel_image_target "$variant")" modules
rm -rf "$(variant_dir "$variant")/modroot"
kmake "$variant" INSTALL_MOD_PATH="$(variant_dir "$variant")/modroot" \
	INSTALL_MOD_STRIP=1 modules_install >/dev/null

# kpe_kmod: built from a copy outside git (kbuild writes its objects
# beside the sources), installed into the same modroot, where depmod
# makes "modprobe kpe_kmod" work in the guest.
rm -rf "$vdir/kmod"
mkdir -p "$vdir/kmod"
cp "${kmod_files[@]}" "$vdir/kmod/"
kmake "$variant" M="$vdir/kmod" modules ||
	die "the test module $kmod_src does not build against the $variant kernel"
kmake "$variant" M="$vdir/kmod" INSTALL_MOD_PATH="$vdir/modroot" \
	INSTALL_MOD_STRIP=1 modules_install >/dev/null ||
	die "cannot install the test module into $vdir/modroot"
[ -n "$(find "$vdir/modroot" -name kpe_kmod.ko)" ] ||
	die "kpe_kmod.ko missing from $vdir/modroot after modules_install"
echo "$stamp" > "$vdir/.kpe-build-sum"
log "built $image in $(( $(date +%s) - start )) s"
