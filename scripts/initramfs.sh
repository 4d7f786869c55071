#!/bin/bash
# initramfs.sh VARIANT: the guest's base initramfs (uncompressed newc cpio):
# busybox, our init, the kselftests with their static helpers, the
# kernel's own ftracetest (at /ftrace) and the kernel's modules.  The
# run-specific part is appended by qemu-run.sh.
. "$(dirname "$0")/common.sh"

variant=${1:-linux}
vdir=$(variant_dir "$variant")
root=$vdir/initramfs
out=$vdir/initramfs.cpio

bb=/bin/busybox
[ -x "$bb" ] || die "$bb missing (apt-get install busybox-static)"

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,root,kpe,lib}
cp "$bb" "$root/bin/busybox"
for applet in $("$bb" --list-full); do
	[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
done
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"

install -m 755 "$TOP/scripts/guest/init" "$root/init"
install -m 644 "$TOP/scripts/guest/demo.sh" "$root/kpe/demo.sh"
install -m 644 "$TOP/scripts/guest/bench.sh" "$root/kpe/bench.sh"

# The kselftests: scripts as they are, helpers built static on the host.
st=$root/kselftest/kprobe_events
mkdir -p "$st"
make -s -C "$SELFTESTS" OUTPUT="$vdir/selftests" >/dev/null
cp -a "$SELFTESTS"/*.sh "$SELFTESTS"/settings "$st/"
find "$vdir/selftests" -maxdepth 1 -type f -perm -u+x -exec cp {} "$st/" \;

# The kernel's own ftracetest (make conformance), from the pristine tree:
# build/upstream/src when that is extracted, else pulled out of the
# tarball once into $BUILD/ftracetest.  Its scripts are #!/bin/sh and run
# under busybox sh as they are.  Lives only in the initramfs, at /ftrace.
ft=tools/testing/selftests/ftrace
ftsrc=$(src_dir upstream)/$ft
if [ ! -f "$(variant_dir upstream)/.extracted" ] || [ ! -x "$ftsrc/ftracetest" ]; then
	ftsrc=$BUILD/ftracetest/$ft
	if [ ! -x "$ftsrc/ftracetest" ]; then
		[ -f "$TARBALL" ] || die "$TARBALL missing (apt-get install linux-source-6.1)"
		log "extracting $ft from $TARBALL"
		rm -rf "$BUILD/ftracetest"
		mkdir -p "$BUILD/ftracetest"
		tar -xJf "$TARBALL" -C "$BUILD/ftracetest" --strip-components=1 \
			--wildcards "*/$ft/*"
		[ -x "$ftsrc/ftracetest" ] || die "no $ft/ftracetest in $TARBALL"
	fi
fi
cp -a "$ftsrc" "$root/ftrace"

# perf, with the shared libraries it links (for test_perf_tool.sh).
if [ -x /usr/bin/perf ]; then
	cp /usr/bin/perf "$root/usr/bin/perf"
	for lib in $(ldd /usr/bin/perf | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
fi

if [ -d "$vdir/modroot/lib/modules" ]; then
	cp -a "$vdir/modroot/lib/modules" "$root/lib/"
fi

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out"
log "initramfs $out ($(du -h "$out" | cut -f1))"
