#!/bin/bash
# bpf-selftests.sh SRC_TREE VMLINUX OUTDIR: a reduced BPF test_progs with
# only the kprobe-related tests, for the guest.
#
# The kernel's BPF selftests (tools/testing/selftests/bpf) attach kprobes
# through libbpf in every way libbpf knows: perf_event_open() on the
# kprobe PMU, the legacy tracefs kprobe_events, kprobe links and
# kprobe_multi (fprobe) links.  They exercise our trace_kprobe.c from the
# BPF side, which ftracetest does not.  Their full build ("make -C
# tools/testing/selftests/bpf") compiles some 900 BPF programs, several
# runner flavours, bpf_testmod.ko and many helpers: far too slow for CI,
# and 6.12's needs a newer clang than Debian 12's clang 14.  This script
# builds only what the kprobe tests need, from the unchanged sources of a
# pristine tree (SRC_TREE, 6.1 or 6.12), against VMLINUX's BTF (vmlinux.h),
# in one make run over the tree's selftests Makefile and ours (kpe.mk):
#
#  - by the tree's own rules, asked for just these targets: libbpf
#    (static, its headers installed into the build area), vmlinux.h, the
#    BPF objects the chosen tests need and their skeletons (the tree's
#    flags, per-file flags and skeleton rules), and the helper programs
#    the tests run (urandom_read), with BPFTOOL set to
#  - a bootstrap bpftool built from the tree (enough for "btf dump" and
#    "gen object/skeleton");
#  - by our rules: prog_tests/tests.h (DEFINE_TEST for the chosen tests
#    only), the chosen prog_tests/*.c, test_progs.c and the helper
#    sources the tree's Makefile lists for test_progs
#    (TRUNNER_EXTRA_SOURCES), compiled with the tree's own CFLAGS, and
#    test_progs, linked static.  JIT disassembly (LLVM) is left out: only
#    the verifier's __jited tests use it.
#
# OUTDIR gets test_progs, every *.bpf.o built (some tests open theirs by
# file name, relative to the current directory: run test_progs in OUTDIR's
# copy), the helper programs, the shared libraries built for them
# (liburandom_read.so, found through the rpath ".") and, under
# OUTDIR/root at their paths in /, the host's loader and libraries the
# dynamic programs need (urandom_read: glibc, libelf, libz).  OUTDIR/build
# is the build area (the selftests' OUTPUT), not for the guest.  Nothing
# is written into SRC_TREE.  bpf_testmod.ko is not built here: it is a
# module of one kernel, built against each by scripts/suites.sh (without
# it test_progs warns, and the tests that need it fail).  Reruns rebuild
# only what changed.
#
# Environment: CLANG (default clang-19, installed when missing), BPF_JOBS
# (make -j, default 2), BPF_TESTS (the prog_tests to build, default below;
# names not in the tree are dropped), BPF_LINK (static, the default, or
# dynamic: a dynamic test_progs, its libraries under OUTDIR/root too).
# A static test_progs fails the uprobes on libc.so.6's malloc/free (its
# own malloc is not libc.so.6's): attach_probe/uprobe-lib on 6.12, and on
# 6.1 attach_probe itself, which has no subtests.  With BPF_LINK=dynamic
# (and OUTDIR/root in the guest) malloc/free are libc.so.6's.
. "$(dirname "$0")/common.sh"

[ $# -eq 3 ] || die "usage: $0 SRC_TREE VMLINUX OUTDIR"
src=$(realpath "$1")
vmlinux=$(realpath "$2")
sel=$src/tools/testing/selftests/bpf
[ -f "$sel/test_progs.c" ] || die "$sel/test_progs.c missing: not a kernel tree"
[ -f "$vmlinux" ] || die "$vmlinux missing"
# The tree's test_progs.c includes <prog_tests/tests.h>: ours is generated
# into the build area, which -I finds only if the tree has none.
[ ! -e "$sel/prog_tests/tests.h" ] ||
	die "$sel/prog_tests/tests.h exists: the tree is not pristine"
link=${BPF_LINK:-static}
case $link in static | dynamic) ;; *) die "BPF_LINK=$link: static or dynamic" ;; esac

# The kprobe tests.  Asked for by name:
#   attach_probe             kprobe/kretprobe (perf PMU, legacy tracefs,
#                            link), ksyscall, sleepable kprobe; uprobes
#   get_func_ip_test         bpf_get_func_ip() in kprobes (and fentry,
#                            uprobes on 6.12)
#   bpf_cookie               BPF cookies on kprobe, kprobe_multi (and
#                            uprobe, tracepoint, perf_event, trampoline)
#   kprobe_multi_test        kprobe_multi links (and serial test
#                            kprobe_multi_bench_attach: every traceable
#                            function at once)
#   fill_link_info           (6.12) link info of kprobe/kprobe_multi links
#   perf_link, task_pt_regs  perf_event and uprobe links (no kprobe)
# Found by grep (progs with SEC("kprobe..."), tests calling
# bpf_program__attach_kprobe*() or opening the kprobe PMU/kprobe_events):
#   probe_user               kprobe on the connect syscall
#   test_bpf_syscall_macro   ksyscall/kprobe on prctl, PT_REGS_*_SYSCALL
#   test_overhead            kprobe/kretprobe on __set_task_comm
#   vmlinux                  kprobe on hrtimer_start_range_ns
#   stacktrace_build_id      kprobe on urandom_read_iter, build-id stacks
#   test_profiler            kprobes/kretprobes of three large programs
#   missed                   (6.12) kprobe missed counts, recursion
#   kprobe_multi_testmod_test (6.12) kprobe_multi on bpf_testmod functions
#   module_attach            kprobe (and others) on bpf_testmod functions
# Left out though grep finds "kprobe" in them: core_retro, perf_buffer,
# find_vma (tracepoint/raw_tp/perf_event programs), custom_sec_handlers
# (SEC("kprobe") loaded as another type), section_names (libbpf's section
# parser only), get_stackid_cannot_attach and stacktrace_build_id_nmi
# (a kprobe-type program on a hardware perf event), fexit_bpf2bpf.
# Need bpf_testmod.ko: module_attach, kprobe_multi_testmod_test,
# missed/perf_kprobe and missed/kprobe_recursion (its kfunc), and on 6.12
# whatever loads kprobe_multi.bpf.o, whose bpf_testmod_fentry_test*
# ksyms are strong externs: kprobe_multi_test/{skel_api,link_api_*,
# attach_api_*} and bpf_cookie/multi_kprobe_*.
BPF_TESTS=${BPF_TESTS:-attach_probe get_func_ip_test bpf_cookie kprobe_multi_test
	fill_link_info perf_link task_pt_regs probe_user test_bpf_syscall_macro
	test_overhead vmlinux stacktrace_build_id test_profiler missed
	kprobe_multi_testmod_test module_attach}

# Debian 12's clang 14 fails on 6.12's profiler1/profiler3 programs ("loop
# not unrolled"): clang-19, from Debian 12's own archive, by default; lld
# links urandom_read (the tree's rule, on x86).
CLANG=${CLANG:-clang-19}
pkgs=(gcc make binutils libelf-dev zlib1g-dev)
[ "$CLANG" = clang-19 ] && pkgs+=(clang-19 llvm-19 lld-19)
"$TOP/scripts/deps.sh" "${pkgs[@]}"
clang=$(command -v "$CLANG") || die "$CLANG missing"

mkdir -p "$3"
out=$(realpath "$3")
b=$out/build
mkdir -p "$b/kpe/bin"

# ccache through PATH (masquerading as the compilers): make passes CC and
# CLANG to sub-makes unquoted, so they cannot be "ccache gcc".
PATH=$(dirname "$clang"):$PATH
if command -v ccache >/dev/null; then
	for c in gcc cc "$(basename "$clang")"; do
		ln -sfn "$(command -v ccache)" "$b/kpe/bin/$c"
	done
	PATH=$b/kpe/bin:$PATH
fi
export PATH

# The chosen tests that this tree has, and what they need from progs/:
# skeletons (X.skel.h, X.lskel.h; a linked skeleton's parts come through
# its own rule) and objects they open by name (X.bpf.o).
tests=()
for t in $BPF_TESTS; do
	[ -f "$sel/prog_tests/$t.c" ] && tests+=("$t")
done
[ ${#tests[@]} -gt 0 ] || die "none of BPF_TESTS is in $sel/prog_tests"
# Functions a chosen test declares and another prog_tests file defines
# (bpf_cookie's LSM case calls test_lsm.c's stack_mprotect()): that file
# is linked in too, its test not listed in tests.h.
linkonly=()
for f in $(grep -hE '^(extern )?[A-Za-z_][A-Za-z0-9_ *]*[ *][A-Za-z_][A-Za-z0-9_]*\([^)]*\);' \
		$(printf "$sel/prog_tests/%s.c " "${tests[@]}") | grep -v '^static' |
		sed -E 's/^.*[ *]([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/' | sort -u); do
	for d in $(grep -lE "^[A-Za-z_][^;(]*[ *]$f\\([^;]*\$" "$sel"/prog_tests/*.c); do
		grep -qE "^static[^;(]*[ *]$f\\(" "$d" && continue
		d=$(basename "$d" .c)
		[[ " ${tests[*]} ${linkonly[*]} " = *" $d "* ]] || linkonly+=("$d")
	done
done
targets=()
for t in "${tests[@]}" "${linkonly[@]}"; do
	for x in $(grep -ohE '"[A-Za-z0-9_]+\.(skel|lskel)\.h"|[A-Za-z0-9_]+\.bpf\.o' \
			"$sel/prog_tests/$t.c" | tr -d '"' | sort -u); do
		case $x in
		*.skel.h) grep -q "^${x//./\\.}-deps :=" "$sel/Makefile" ||
				[ -f "$sel/progs/${x%.skel.h}.c" ] ||
				die "$t: no progs/${x%.skel.h}.c for $x" ;;
		*.lskel.h) [ -f "$sel/progs/${x%.lskel.h}.c" ] ||
				die "$t: no progs/${x%.lskel.h}.c for $x" ;;
		*.bpf.o) [ -f "$sel/progs/${x%.bpf.o}.c" ] || continue ;;
		esac
		targets+=("$x")
	done
done
targets=($(printf '%s\n' "${targets[@]}" | sort -u))
# Helper programs the chosen tests run from the current directory
# (stacktrace_build_id: system("./urandom_read")), by the tree's rules.
helpers=($(grep -ohE 'system\("\./[A-Za-z0-9_]+' \
	$(printf "$sel/prog_tests/%s.c " "${tests[@]}") | sed 's|.*/||' | sort -u))
# built NAME: where the build leaves NAME.  6.1's urandom_read rule links
# "liburandom_read.so" from the current directory, the tree's, not
# OUTPUT's (later trees link -lurandom_read -L$(OUTPUT)): the same recipe,
# run in OUTPUT, builds kpe/urandom_read (kpe.mk).
built() {
	if [ "$1" = test_progs ] || { [ "$1" = urandom_read ] &&
	   grep -qE '^[[:space:]]+liburandom_read\.so ' "$sel/Makefile"; }; then
		echo "$b/kpe/$1"
	else
		echo "$b/$1"
	fi
}

# The helpers test_progs links with: the tree Makefile's list for it (its
# first TRUNNER_EXTRA_SOURCES), .c files only.
extra=$(sed -n '/^TRUNNER_EXTRA_SOURCES[ \t]*:=/{
		:a
		/\\$/{N;ba}
		s/\\\n/ /g
		s/^[^=]*=//
		p
		q
	}' "$sel/Makefile" | tr -s ' \t' '\n' | grep '\.c$' | tr '\n' ' ')
[ -n "$extra" ] || die "no TRUNNER_EXTRA_SOURCES in $sel/Makefile"

if [ "$link" = static ]; then
	ldflags=-static
else
	ldflags=
fi

# Our rules, read after the tree's Makefile (its OUTPUT, CFLAGS, LDLIBS,
# BPFOBJ, BPFTOOLDIR, HOST_BUILD_DIR, LLD and skeleton rules), and the
# list of tests: each written only when it changes (test_progs depends on
# kpe.mk, tests.h on the list).
mk=$b/kpe.mk
cat > "$mk.tmp" <<EOF
# Generated by scripts/bpf-selftests.sh: the reduced test_progs.
KPE_DIR := \$(OUTPUT)/kpe
KPE_TESTS := ${tests[*]}
KPE_LINK_ONLY := ${linkonly[*]}
KPE_TARGETS := \$(addprefix \$(OUTPUT)/,${targets[*]})
KPE_HELPERS := $(for h in "${helpers[@]}"; do printf '%s ' "$(built "$h")"; done)
KPE_EXTRA := $extra
KPE_LDFLAGS := $ldflags
EOF
cat >> "$mk.tmp" <<'EOF'
KPE_TESTS_HDR := $(OUTPUT)/prog_tests/tests.h
KPE_TEST_OBJS := $(patsubst %,$(KPE_DIR)/%.test.o,$(KPE_TESTS) $(KPE_LINK_ONLY))
KPE_EXTRA_OBJS := $(patsubst %.c,$(KPE_DIR)/%.o,$(KPE_EXTRA))

.PHONY: kpe-all
kpe-all: $(KPE_DIR)/test_progs $(KPE_TARGETS) $(KPE_HELPERS)

# bpftool's bootstrap build, as BPFTOOL (set by the caller).
$(BPFTOOL): | $(HOST_BUILD_DIR)/bpftool
	$(Q)$(MAKE) $(submake_extras) -C $(BPFTOOLDIR) \
		OUTPUT=$(HOST_BUILD_DIR)/bpftool/ bootstrap

# As the tree's Makefile generates prog_tests/tests.h, for our tests.
$(KPE_TESTS_HDR): $(patsubst %,prog_tests/%.c,$(KPE_TESTS)) $(KPE_DIR)/tests.list
	$(call msg,TEST-HDR,test_progs,$@)
	$(Q)mkdir -p $(@D)
	$(Q)(echo '/* Generated header, do not edit */';		\
	     sed -n -E 's/^void (serial_)?test_([a-zA-Z0-9_]+)\((void)?\).*/DEFINE_TEST(\2)/p' \
		$(filter %.c,$^) | sort) > $@

$(KPE_TEST_OBJS): $(KPE_DIR)/%.test.o: prog_tests/%.c $(KPE_TARGETS) \
		  $(KPE_TESTS_HDR) | $(BPFOBJ)
	$(call msg,TEST-OBJ,test_progs,$@)
	$(Q)$(CC) -I$(OUTPUT) $(CFLAGS) -MMD -MP -MT $@ -c $< -o $@

$(KPE_EXTRA_OBJS): $(KPE_DIR)/%.o: %.c $(KPE_TESTS_HDR) | $(BPFOBJ)
	$(call msg,EXT-OBJ,test_progs,$@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -MT $@ -c $< -o $@

$(KPE_DIR)/test_progs: $(KPE_TEST_OBJS) $(KPE_EXTRA_OBJS) $(BPFOBJ) \
		       $(OUTPUT)/kpe.mk
	$(call msg,BINARY,,$@)
	$(Q)$(CC) $(CFLAGS) $(filter %.a %.o,$^) $(LDLIBS) $(LDFLAGS) \
		$(KPE_LDFLAGS) -o $@

$(KPE_DIR)/urandom_read: urandom_read.c urandom_read_aux.c \
			 $(OUTPUT)/liburandom_read.so
	$(call msg,BINARY,,$@)
	$(Q)cd $(OUTPUT) && $(CLANG) $(filter-out -static,$(CFLAGS) $(LDFLAGS)) \
		$(addprefix $(CURDIR)/,$(filter %.c,$^)) liburandom_read.so \
		$(filter-out -static,$(LDLIBS)) -fuse-ld=$(LLD) \
		-Wl,-znoseparate-code -Wl,--build-id=sha1 -Wl,-rpath=. -o $@

-include $(wildcard $(KPE_DIR)/*.d)
EOF
printf '%s\n' "${tests[@]}" > "$b/kpe/tests.list.tmp"
for f in "$mk" "$b/kpe/tests.list"; do
	if cmp -s "$f.tmp" "$f"; then
		rm "$f.tmp"
	else
		mv "$f.tmp" "$f"
	fi
done

log "bpf-selftests: ${#tests[@]} tests from $src ($("$clang" --version | head -1), $link)"
bpftool=$b/tools/build/bpftool/bootstrap/bpftool
make -C "$sel" -f Makefile -f "$mk" -j"${BPF_JOBS:-2}" \
	OUTPUT="$b" VMLINUX_BTF="$vmlinux" BPFTOOL="$bpftool" \
	CLANG="$(basename "$clang")" kpe-all

# OUTDIR: test_progs, the BPF objects (the skeletons' too: cheap, and
# some tests open objects by name), the helpers and the libraries built
# for them (liburandom_read.so); what a previous run put there goes first.
if [ -f "$b/installed" ]; then
	(cd "$out" && xargs rm -f < "$b/installed")
	rm -rf "$out/root"
fi
files=(test_progs "${helpers[@]}")
for f in "$b"/*.bpf.o "$b"/*.so; do
	[ -f "$f" ] && files+=("${f##*/}")
done
for f in "${files[@]}"; do
	cp "$(built "$f")" "$out/$f"
done
printf '%s\n' "${files[@]}" > "$b/installed"

# The dynamic programs' loader and libraries (glibc's, libelf's, ...) at
# their paths on the host, under OUTDIR/root, for the guest's root.
for f in test_progs "${helpers[@]}"; do
	readelf -l "$out/$f" | grep -q 'program interpreter' || continue
	(cd "$out" && ldd "./$f") | awk '
		$2 == "=>" && $3 ~ /^\// { print $3 }
		$1 ~ /^\// { print $1 }'
done | sort -u | while read -r so; do
	mkdir -p "$out/root${so%/*}"
	cp -L "$so" "$out/root$so"
done

"$out/test_progs" -l > "$b/tests.txt" || die "$out/test_progs -l failed"
log "bpf-selftests: $out:" $(cd "$out" && ls -d test_progs "${helpers[@]}" root 2>/dev/null) \
	"and $(ls "$out"/*.bpf.o | wc -l) BPF objects; $(wc -l < "$b/tests.txt") tests:" \
	$(cat "$b/tests.txt")
