#!/bin/bash
# prepare.sh VARIANT: extract the kernel (KERNEL, common.sh) into
# build/VARIANT/src (once) and, for the "linux" variant, lay our overlay
# over it.  "debug" prepares the
# "linux" tree, which it builds from.  Files are only
# rewritten when their content changes, so make rebuilds only what we touched.
. "$(dirname "$0")/common.sh"

variant=$(src_tree "${1:-linux}")
vdir=$(variant_dir "$variant")
src=$(src_dir "$variant")

[ -f "$TARBALL" ] || die "$TARBALL missing (apt-get install $KSRC_PKG)"

if [ ! -f "$vdir/.extracted" ]; then
	log "extracting $TARBALL into $src"
	rm -rf "$src" "$vdir/orig"
	mkdir -p "$src"
	tar -xJf "$TARBALL" -C "$src" --strip-components=1
	# Keep the pristine copies of the files we amend.
	mkdir -p "$vdir/orig/kernel/trace"
	cp "$src/kernel/trace/Kconfig" "$src/kernel/trace/Makefile" \
		"$vdir/orig/kernel/trace/"
	touch "$vdir/.extracted"
fi
v=$(make -s -C "$src" kernelversion)
log "kernel $v ($variant)"

[ "$variant" = linux ] || exit 0

# install_if_changed SRC DST: copy unless identical (keeps mtimes stable).
install_if_changed() {
	mkdir -p "$(dirname "$2")"
	cmp -s "$1" "$2" 2>/dev/null || cp "$1" "$2"
}

# Our whole files.
for f in "$TOP"/kernel/trace/trace_kprobe*.[ch]; do
	install_if_changed "$f" "$src/kernel/trace/$(basename "$f")"
done
install_if_changed "$TOP/Documentation/trace/kprobetrace.txt" \
	"$src/Documentation/trace/kprobetrace.txt"
mkdir -p "$src/tools/testing/selftests/kprobe_events"
for f in "$SELFTESTS"/*; do
	case "$f" in *.o|*/kpe_write|*/kpe_loop|*/kpe_perf|*/kpe_fuzz|*/kpe_stress|*/kpe_user|*/kpe_badptr|*/kpe_getppid|*/kpe_funcip|*/kpe_sleepers|*/kpe_override) continue ;; esac
	[ -d "$f" ] && continue		# kmod/: its sources are below
	install_if_changed "$f" "$src/tools/testing/selftests/kprobe_events/$(basename "$f")"
done
# A file gone from our tests goes from the tree's copy too.
for f in "$src/tools/testing/selftests/kprobe_events"/*; do
	[ -f "$f" ] && [ ! -e "$SELFTESTS/$(basename "$f")" ] && rm -f "$f"
done
# The test module's sources (build-kernel.sh builds it from a copy).
for f in "$SELFTESTS"/kmod/Kbuild "$SELFTESTS"/kmod/*.c; do
	install_if_changed "$f" "$src/tools/testing/selftests/kprobe_events/kmod/$(basename "$f")"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Prep patches to core files (the kernel's series, $PREP_DIR/*.patch:
# kernel/trace/prep/6.1 or 6.12, in order): each
# patched file is rebuilt from its pristine copy (kept in $vdir/orig the
# first time a patch names it) with every patch applied, so editing or
# dropping a patch takes effect on the next prepare.  A patch that does
# not apply fails loudly.
[ -d "$PREP_DIR" ] || die "no prep series for Linux $KERNEL ($PREP_DIR)"
prep_files=$(cat "$PREP_DIR"/*.patch 2>/dev/null |
	sed -n 's#^+++ b/\([^[:space:]]*\).*#\1#p' | sort -u)
# (trace.c too, for its README lines below, patched or not)
for f in $prep_files kernel/trace/trace.c; do
	[ -f "$vdir/orig/$f" ] && continue
	mkdir -p "$(dirname "$vdir/orig/$f")"
	cp "$src/$f" "$vdir/orig/$f"
done
mkdir -p "$tmp/prep"
(cd "$vdir/orig" && find . -type f ! -path ./kernel/trace/Kconfig \
	! -path ./kernel/trace/Makefile \
	! -path ./tools/testing/selftests/Makefile) | while read -r f; do
	mkdir -p "$(dirname "$tmp/prep/$f")"
	cp "$vdir/orig/$f" "$tmp/prep/$f"
done
for p in "$PREP_DIR"/*.patch; do
	[ -f "$p" ] || continue
	patch -s -p1 -d "$tmp/prep" --no-backup-if-mismatch < "$p" ||
		die "prep patch ${p##*/} does not apply"
done

# The tracefs README (readme_msg[] in kernel/trace/trace.c) must describe
# our grammar: our lines (kernel/trace/trace.c in the repo, without its
# comment lines: "#" then a blank, or a lone "#"; its C preprocessor
# lines are kept) replace the kernel's from its kprobe "place:" line
# through its type list's last line (6.12's lists %pd/%pD there too), on
# the prep-patched file, before it is installed.  Fails loudly when an
# anchor is gone or not unique.
readme_first=$'\t"\\t    place: [<module>:]<symbol>[+<offset>]|<memaddr>\\n"'
case $KERNEL in
6.1) readme_last=$'\t"\\t           symstr, <type>\\\\[<array-size>\\\\]\\n"' ;;
*) readme_last=$'\t"\\t           symstr, %pd/%pD, <type>\\\\[<array-size>\\\\]\\n"' ;;
esac
f=kernel/trace/trace.c
for a in "$readme_first" "$readme_last"; do
	[ "$(grep -cxF -- "$a" "$tmp/prep/$f")" = 1 ] ||
		die "README anchor '$a' not found once in $f"
done
RF=$readme_first RL=$readme_last awk -v ours="$TOP/$f" '
	$0 == ENVIRON["RF"] {
		while ((getline l < ours) > 0)
			if (l !~ /^#([ \t]|$)/) print l
		skip = 1
	}
	!skip { print }
	skip && $0 == ENVIRON["RL"] { skip = 0 }
' "$tmp/prep/$f" > "$tmp/readme"
mv "$tmp/readme" "$tmp/prep/$f"

(cd "$tmp/prep" && find . -type f) | while read -r f; do
	install_if_changed "$tmp/prep/$f" "$src/$f"
done

# Kconfig: our KPROBE_EVENTS entry replaces the kernel's, from its
# "config KPROBE_EVENTS" line up to the next "config" line.
orig=$vdir/orig/kernel/trace/Kconfig
grep -q '^config KPROBE_EVENTS$' "$orig" ||
	die "anchor 'config KPROBE_EVENTS' not found in kernel/trace/Kconfig"
awk -v ours="$TOP/kernel/trace/Kconfig" '
	/^config KPROBE_EVENTS$/ {
		while ((getline l < ours) > 0)
			if (l !~ /^#/) print l
		print ""
		skip = 1; next
	}
	skip && /^(config|menuconfig|endmenu|if|endif|source) / { skip = 0 }
	!skip { print }
' "$orig" > "$tmp/Kconfig"
install_if_changed "$tmp/Kconfig" "$src/kernel/trace/Kconfig"

# splice FILE ANCHOR replace|before: our part of FILE (its lines not
# starting with '#') in place of, or before, the line ANCHOR of the
# pristine FILE (kept in $vdir/orig the first time); fails loudly when the
# anchor is gone.
splice() {
	local f=$1 anchor=$2 how=$3
	if [ ! -f "$vdir/orig/$f" ]; then
		mkdir -p "$(dirname "$vdir/orig/$f")"
		cp "$src/$f" "$vdir/orig/$f"
	fi
	grep -qxF "$anchor" "$vdir/orig/$f" ||
		die "anchor '$anchor' not found in $f"
	awk -v ours="$TOP/$f" -v anchor="$anchor" -v how="$how" '
		$0 == anchor {
			while ((getline l < ours) > 0)
				if (l !~ /^#/) print l
			if (how == "replace")
				next
		}
		{ print }
	' "$vdir/orig/$f" > "$tmp/splice"
	install_if_changed "$tmp/splice" "$src/$f"
}

# Makefile: our lines replace the kernel's trace_kprobe.o line.
splice kernel/trace/Makefile 'obj-$(CONFIG_KPROBE_EVENTS) += trace_kprobe.o' replace
# tools/testing/selftests/Makefile: our TARGETS line goes before the
# kernel's "TARGETS += kvm", keeping the list sorted.
splice tools/testing/selftests/Makefile 'TARGETS += kvm' before
