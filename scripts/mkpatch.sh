#!/bin/bash
# mkpatch.sh: our change as a git format-patch series (with cover letter)
# against the pristine kernel (KERNEL, common.sh), in out/ (6.1) or
# out-6.12/, then checkpatch --strict over it.  Fails if checkpatch
# reports any error.
. "$(dirname "$0")/common.sh"

src=$(src_dir linux)
[ -d "$src" ] || die "run 'make prepare' first"
repo=$BUILD/patch-repo$KSUFFIX
out=$TOP/out$KSUFFIX
version=$(make -s -C "$src" kernelversion)

# The kernel-tree paths we touch, per patch of the series.
tracer=($(cd "$TOP" && ls kernel/trace/trace_kprobe*.[ch]) kernel/trace/Kconfig kernel/trace/Makefile)
docs=(Documentation/trace/kprobetrace.txt)
tests=(tools/testing/selftests/Makefile)
for f in $(cd "$TOP" && git ls-files tools/testing/selftests/kprobe_events); do
	tests+=("$f")
done

rm -rf "$repo" "$out"
mkdir -p "$repo" "$out"
git -C "$repo" init -q
git -C "$repo" config user.name "kprobe_events developers"
git -C "$repo" config user.email "kpe@localhost"

# Base: the pristine versions of the files we change, those of the prep
# patches (the kernel's series, $PREP_DIR/*.patch) included.
prep=("$PREP_DIR"/*.patch)
[ -f "${prep[0]}" ] || prep=()
prep_files=()
for f in $(cat "${prep[@]}" /dev/null | sed -n 's#^+++ b/\([^[:space:]]*\).*#\1#p' | sort -u); do
	prep_files+=("$KSRC_TOP/$f")
done
# trace.c for the README commit, when no prep patch brought it.
case " ${prep_files[*]} " in
*" $KSRC_TOP/kernel/trace/trace.c "*) ;;
*) prep_files+=("$KSRC_TOP/kernel/trace/trace.c") ;;
esac
tar -xJf "$TARBALL" -C "$repo" --strip-components=1 \
	"$KSRC_TOP/kernel/trace/trace_kprobe.c" \
	"$KSRC_TOP/kernel/trace/Kconfig" \
	"$KSRC_TOP/kernel/trace/Makefile" \
	"$KSRC_TOP/tools/testing/selftests/Makefile" "${prep_files[@]}"
git -C "$repo" add -A
git -C "$repo" commit -qm "Linux $version (pristine files touched by the series)"
base=$(git -C "$repo" rev-parse HEAD)

commit() {
	local subject=$1 body=$2; shift 2
	local f
	for f in "$@"; do
		mkdir -p "$repo/$(dirname "$f")"
		cp "$src/$f" "$repo/$f"
		git -C "$repo" add "$f"
	done
	git -C "$repo" commit -q -s -m "$subject" -m "$body"
}

# The prep patches to the core come first, each its own commit, with the
# subject and message its file carries.
for p in "${prep[@]}"; do
	git -C "$repo" apply "$p" || die "prep patch ${p##*/} does not apply"
	git -C "$repo" add -A
	subject=$(sed -n 's/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//p' "$p" | head -n1)
	body=$(awk '/^Subject:/ { s = 1; next } s && /^---$/ { exit }
		s && /^Signed-off-by:/ { next } s { print }' "$p" | sed -e '/./,$!d')
	git -C "$repo" commit -q -s -m "$subject" -m "$body"
done

commit "tracing/kprobes: Rewrite the kprobe-based event tracer" \
"Replace trace_kprobe.c with a new implementation of kprobe_events.
A definition line is parsed into a plain description first, so a refused
line changes nothing; then the kprobe is registered disarmed, the trace
event added and the probe published.  The probe hit path reads the set of
enabled trace files through one RCU pointer and takes no lock.  Removal
unregisters the kprobes (all of them as one batch when clearing) before
the trace event, whose files a running handler may be using, is freed." \
	"${tracer[@]}"
# The tracefs README's kprobe lines (our part of trace.c, spliced in by
# prepare.sh over the prep-patched file): on their own, after the tracer.
commit "tracing: Make the README describe the kprobe_events grammar" \
"The README file of tracefs is where tools and test suites look for
what kprobe_events takes: perf probe and ftracetest grep it for fetch
types and syntax.  List exactly what the new tracer accepts, with the
words later kernels use for the same features (char, symstr, %pd/%pD,
BTF argument names, entry arguments in return probes), and the two it
adds: wildcard places and \$duration in return probes." \
	kernel/trace/trace.c
commit "Documentation: tracing: Describe the kprobe_events interface" \
"Document the syntax, output and errors of kprobe_events as implemented." \
	"${docs[@]}"
commit "selftests: kprobe_events: Add tests of the kprobe event tracer" \
"One behaviour per test: defining, listing, removing and clearing probes,
entry and return probes recording, every refusal leaving the state as it
was, and removal racing with a probe that fires." \
	"${tests[@]}"

git -C "$repo" format-patch -q --cover-letter -o "$out" "$base..HEAD"
cover=$(ls "$out"/0000-*.patch)
sed -i -e 's/\*\*\* SUBJECT HERE \*\*\*/tracing\/kprobes: A new kprobe-based event tracer/' \
	-e "s/\*\*\* BLURB HERE \*\*\*/A rewrite of kprobe_events for Linux $version: same interface,\nnew implementation.  The series applies with 'patch -p1' to a pristine tree./" \
	"$cover"
ls "$out"

log "checkpatch --strict"
# Every patch of the series but the cover letter (0000).
report=$(cd "$src" && ./scripts/checkpatch.pl --strict --no-signoff \
	$(ls "$out"/[0-9][0-9][0-9][0-9]-*.patch | grep -v '/0000-') 2>&1 || true)
echo "$report" | grep -E '^(ERROR|WARNING|CHECK)|^total:|^#' | head -60
errors=$(echo "$report" | sed -n 's/^total: \([0-9]*\) errors.*/\1/p' | awk '{s += $1} END {print s + 0}')
[ "$errors" -eq 0 ] || die "checkpatch: $errors errors"
log "checkpatch: 0 errors"
