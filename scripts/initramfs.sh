#!/bin/bash
# initramfs.sh VARIANT: the guest's base initramfs (uncompressed newc cpio):
# busybox, our init, the kselftests with their static helpers, the
# kernel's own ftracetest (at /ftrace), Linux 6.12's (at /ftrace-6.12) and
# the kernel's modules.  The
# run-specific part is appended by qemu-run.sh.
#
# An arm64 variant (ARCH=arm64) gets Debian's arm64 busybox-static
# (downloaded once with apt-get download and unpacked into
# build/busybox-arm64, not installed), helpers cross-built with
# aarch64-linux-gnu-gcc -static, and none of Debian's amd64 tools (perf,
# trace-cmd, bpftrace): the tests that use them skip.
. "$(dirname "$0")/common.sh"

variant=$(arch_variant "${1:-linux}")
arch=$(variant_arch "$variant")
vdir=$(variant_dir "$variant")
root=$vdir/initramfs
out=$vdir/initramfs.cpio

bb=/bin/busybox
[ -x "$bb" ] || die "$bb missing (apt-get install busybox-static)"
applets=$("$bb" --list-full)
if [ "$arch" = arm64 ]; then
	# The same Debian version as the host's amd64 busybox-static, built
	# from the same configuration: the host's applet list is its list.
	bbdir=$BUILD/busybox-arm64
	if [ ! -x "$bbdir/root/bin/busybox" ]; then
		log "fetching Debian's busybox-static:arm64 into $bbdir"
		rm -rf "$bbdir"
		mkdir -p "$bbdir"
		(cd "$bbdir" && apt-get download -q busybox-static:arm64 >/dev/null) ||
			die "apt-get download busybox-static:arm64 failed (dpkg --add-architecture arm64; apt-get update: scripts/deps.sh with ARCH=arm64)"
		dpkg-deb -x "$bbdir"/busybox-static_*_arm64.deb "$bbdir/root"
		[ -x "$bbdir/root/bin/busybox" ] || die "no bin/busybox in busybox-static:arm64"
	fi
	bb=$bbdir/root/bin/busybox
fi

# Nothing to do when nothing it is made of is newer than the archive:
# our scripts and tools, the prepared tree's kselftests, the kernel and
# its modules, the kernel tarballs (ftracetest) and the host's packages
# (busybox, perf, trace-cmd, bpftrace and their libraries).  A second
# make check spends its time in the guests, not here.
# KPE_INITRAMFS_FORCE=1 makes it anyway.
if [ -f "$out" ] && [ -z "${KPE_INITRAMFS_FORCE:-}" ]; then
	inputs=("$TOP/scripts" "$TOP/tools" /var/lib/dpkg/status "$bb")
	for f in "$(src_dir linux)/tools/testing/selftests" \
		 "$(obj_dir "$variant")/vmlinux" "$vdir/modroot" \
		 "$TARBALL" "$FT612_TARBALL"; do
		[ -e "$f" ] && inputs+=("$f")
	done
	if [ -z "$(find "${inputs[@]}" -newer "$out" -print -quit 2>/dev/null)" ]; then
		log "initramfs $out is up to date"
		exit 0
	fi
fi

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,root,kpe,lib}
cp "$bb" "$root/bin/busybox"
for applet in $applets; do
	[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
done
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"

install -m 755 "$TOP/scripts/guest/init" "$root/init"
install -m 644 "$TOP/scripts/guest/demo.sh" "$root/kpe/demo.sh"
install -m 644 "$TOP/scripts/guest/bench.sh" "$root/kpe/bench.sh"

# The kselftests, built and installed the kselftest way (../lib.mk) from
# the prepared tree, helpers static: the guest runs run_tests.sh in
# /kselftest/kprobe_events (the kselftest runner needs a timeout with
# --foreground, which busybox lacks).
# (our prepared tree's: the pristine one has no kprobe_events tests)
ksrc=$(src_dir linux)/tools/testing/selftests
[ -f "$ksrc/kprobe_events/Makefile" ] || die "$ksrc/kprobe_events missing: make prepare"
rm -rf "$vdir/kselftest-install"
kcross=()
[ "$arch" = arm64 ] && kcross=(ARCH=arm64 CROSS_COMPILE="$CROSS_ARM64")
make -s -C "$ksrc" O="$vdir/kselftest-build" TARGETS=kprobe_events \
	INSTALL_PATH="$vdir/kselftest-install" "${kcross[@]}" install >/dev/null ||
	die "kselftest install of kprobe_events failed"
mkdir -p "$root/kselftest"
cp -a "$vdir/kselftest-install/." "$root/kselftest/"
st=$root/kselftest/kprobe_events
# The bench's helper is the harness's, not a kselftest.
mkdir -p "$root/kpe"
bcc=gcc
[ "$arch" = arm64 ] && bcc=${CROSS_ARM64}gcc
$bcc -static -O2 -Wall -I"$SELFTESTS" -o "$root/kpe/kpe_bench" \
	"$TOP/tools/bench/kpe_bench.c" || die "cannot build tools/bench/kpe_bench.c"

# The kernel's own ftracetest (make conformance), from the pristine tree:
# build/upstream/src when that is extracted, else pulled out of the
# tarball once into $BUILD/ftracetest (6.12: $BUILD/ftracetest-own-6.12).
# Its scripts are #!/bin/sh and run under busybox sh as they are.  Lives
# only in the initramfs, at /ftrace.
ft=tools/testing/selftests/ftrace
ftsrc=$(src_dir upstream)/$ft
ftown=$BUILD/ftracetest${KSUFFIX:+-own$KSUFFIX}
if [ ! -f "$(variant_dir upstream)/.extracted" ] || [ ! -x "$ftsrc/ftracetest" ]; then
	ftsrc=$ftown/$ft
	if [ ! -x "$ftsrc/ftracetest" ]; then
		[ -f "$TARBALL" ] || die "$TARBALL missing (apt-get install $KSRC_PKG)"
		log "extracting $ft from $TARBALL"
		rm -rf "$ftown"
		mkdir -p "$ftown"
		tar -xJf "$TARBALL" -C "$ftown" --strip-components=1 \
			--wildcards "*/$ft/*"
		[ -x "$ftsrc/ftracetest" ] || die "no $ft/ftracetest in $TARBALL"
	fi
fi
cp -a "$ftsrc" "$root/ftrace"

# Linux 6.12's ftracetest (its newer kprobe cases, issue 14), pulled out
# of Debian's linux-source-6.12 once into $BUILD/ftracetest-6.12 (again
# when the tarball changes), at /ftrace-6.12 in the guest.  Its driver
# runs under busybox sh as it is; the guest's init provides what it
# needs besides (see scripts/guest/init).
# The package is installed here when missing (deps.sh, as for make
# bench's gnuplot), so a fresh CI machine needs nothing more.
ft612=$BUILD/ftracetest-6.12
if [ ! -f "$FT612_TARBALL" ] && [ -z "${KERNEL_TARBALL_612:-}" ]; then
	"$TOP/scripts/deps.sh" linux-source-6.12
fi
[ -f "$FT612_TARBALL" ] ||
	die "$FT612_TARBALL missing (apt-get install linux-source-6.12)"
stamp=$(stat -c '%s %Y' "$FT612_TARBALL")
if [ ! -x "$ft612/$ft/ftracetest" ] || [ "$(cat "$ft612/.stamp" 2>/dev/null)" != "$stamp" ]; then
	log "extracting $ft from $FT612_TARBALL"
	rm -rf "$ft612"
	mkdir -p "$ft612"
	tar -xJf "$FT612_TARBALL" -C "$ft612" --strip-components=1 \
		--wildcards "*/$ft/*"
	[ -x "$ft612/$ft/ftracetest" ] || die "no $ft/ftracetest in $FT612_TARBALL"
	echo "$stamp" > "$ft612/.stamp"
fi
cp -a "$ft612/$ft" "$root/ftrace-6.12"

# Debian's amd64 tools run only in an x86 guest: host_tool TOOL succeeds
# when TOOL is installed on the host and the guest is x86.
host_tool() {
	[ "$arch" = x86 ] && [ -x "$1" ]
}

# perf (for test_perf_tool.sh).
host_tool /usr/bin/perf && copy_with_libs "$root" /usr/bin/perf
# trace-cmd (for test_trace_cmd.sh).
host_tool /usr/bin/trace-cmd && copy_with_libs "$root" /usr/bin/trace-cmd

# What perf probe defines for file_start_write(), inlined in several
# places, from this kernel's vmlinux (DWARF), for
# test_perf_probe_inline.sh; it skips without them (no perf on the host,
# no vmlinux or no debug info).
defs=$st/perf_probe_inline.txt
rm -f "$defs"
if host_tool /usr/bin/perf && [ -f "$(obj_dir "$variant")/vmlinux" ]; then
	/usr/bin/perf probe -k "$(obj_dir "$variant")/vmlinux" \
		-D 'file_start_write file' 2>/dev/null | grep '^[pr]' > "$defs" ||
		rm -f "$defs"
	if [ -f "$defs" ]; then
		log "perf probe: $(wc -l < "$defs") places of file_start_write"
	fi
fi

# bpftrace (for test_bpftrace.sh), when installed: its libraries (LLVM and
# clang among them, about 200 MB), and what its clang parser reads at run
# time: the UAPI headers (linux, asm, asm-generic, at the host's paths,
# /usr/include/asm a link to the multiarch directory when the host has it
# there) and clang's resource include dir.  Without a clang binary in the
# guest, libclang does not find that dir under /usr/lib/llvm-*, so the
# host's /usr/include/clang/VER/include link to it is copied too (or made).
# Headers of other architectures and offload languages are left out of it
# (riscv_vector.h alone is 8 MB).
if host_tool /usr/bin/bpftrace; then
	copy_with_libs "$root" /usr/bin/bpftrace
	inc=/usr/include
	mkdir -p "$root$inc"
	cp -a "$inc/linux" "$inc/asm-generic" "$root$inc/"
	if [ -d "$inc/asm" ]; then
		cp -aL "$inc/asm" "$root$inc/"
	else
		masm=$inc/$(gcc -print-multiarch 2>/dev/null)/asm
		[ -d "$masm" ] || masm=$(ls -d "$inc"/*-linux-gnu/asm 2>/dev/null | head -n1)
		if [ -n "$masm" ]; then
			mkdir -p "$root$(dirname "$masm")"
			cp -a "$masm" "$root$masm"
			ln -s "${masm#"$inc"/}" "$root$inc/asm"
		fi
	fi
	# The resource dir of the LLVM whose libclang bpftrace links.
	llvm=$(ldd /usr/bin/bpftrace | sed -n 's/.*libclang-\([0-9][0-9]*\)\.so.*/\1/p' | head -n1)
	for cinc in /usr/lib/llvm-${llvm:-*}/lib/clang/*/include; do
		[ -d "$cinc" ] || continue
		mkdir -p "$root$cinc"
		(cd "$cinc" && tar -cf - --exclude='*_wrappers' --exclude='riscv_*' \
			--exclude='arm_*' --exclude='arm64intr.h' --exclude='armintr.h' \
			--exclude='altivec.h' --exclude='*hexagon*' --exclude='hvx_*' \
			--exclude='opencl-c*' --exclude='vecintrin.h' --exclude='msa.h' \
			--exclude='__clang_cuda_*' --exclude='__clang_hip_*' .) |
			tar -xf - -C "$root$cinc"
		ver=${cinc%/include}; ver=${ver##*/}
		mkdir -p "$root$inc/clang/$ver"
		[ -e "$root$inc/clang/$ver/include" ] ||
			ln -s "$cinc" "$root$inc/clang/$ver/include"
	done
fi

if [ -d "$vdir/modroot/lib/modules" ]; then
	cp -a "$vdir/modroot/lib/modules" "$root/lib/"
fi

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out"
log "initramfs $out ($(du -h "$out" | cut -f1))"
