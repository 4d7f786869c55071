#!/bin/bash
# suites.sh [linux|upstream|both]: the kprobe test suites other projects
# keep, run unchanged in the guest against our kernel ("linux"), the
# pristine one ("upstream") or both (default), with a table of each
# case's result on upstream beside ours (issue 25):
#
#   perf  perf's shell tests, every case whose description names probes
#         or vfs_getname, run by `perf test` with Debian's perf (6.1's,
#         the one this Debian ships): suite "perf" is the set that perf
#         ships (/usr/lib/perf-core/tests/shell); on 6.12, suite
#         "perf-6.12" is the kernel tree's own tools/perf/tests/shell,
#         with the newer base_probe tests, run as from a kernel tree.
#         They run on a Debian system's tools: dash as /bin/sh, GNU
#         coreutils, grep, sed, bash and perl come along (busybox lacks
#         mktemp's short templates and readlink -e, and its sh runs its
#         own applets whatever PATH says).  perf probe finds the running
#         kernel's DWARF in the vmlinux put at /boot/vmlinux-RELEASE.
#   bpf   test_progs from the tree's tools/testing/selftests/bpf, its
#         kprobe cases, built here by scripts/bpf-selftests.sh into
#         build/bpfsel (build/bpfsel-6.12 on 6.12) when the kernel has
#         network namespaces (CONFIG_NET_NS), without which test_progs
#         stops at its start; otherwise left out with a note, as with
#         KPE_BPF_SUITE=0.
#
# What the guest gets on top of the test initramfs is one more cpio
# archive, build/VARIANT/suites.cpio (qemu-run.sh --cpio); the guest half
# is scripts/guest/suites.sh; console logs build/VARIANT/suites.log.
#
# Exit status is non-zero if a case passes on upstream and not on ours, if
# a case of ours fails that SUITE_KNOWN does not list (a case that fails
# on the pristine kernel alike, for the guest's sake, with the reason),
# or on a splat or timeout on either kernel.  x86_64 only: the suites run
# Debian's amd64 tools.
. "$(dirname "$0")/common.sh"

which=${1:-both}
pick_variants "$which"
[ "$KARCH" = x86 ] || die "suites: x86_64 only (they run Debian's amd64 perf)"
timeout=${SUITES_TIMEOUT:-1800}
bpfsel=$BUILD/bpfsel$KSUFFIX

# Cases that fail on the pristine kernel too, for the guest's sake or the
# tools', each with the reason.  Such a case failing on ours counts as
# known, as long as it does not pass on upstream.
declare -A SUITE_KNOWN=(
	["perf/probe_libc's_inet_pton_&_backtrace_it_with_ping"]="a uprobe case: it wants binutils' nm and a ping linked to libc.so.6 with a network to ping; the guest has busybox's static ping and no network"
	["perf-6.12/probe_libc's_inet_pton_&_backtrace_it_with_ping"]="the same case in 6.12's tree"
	["bpf/bpf_cookie"]="its skeleton has an LSM program (file_mprotect), which needs CONFIG_BPF_LSM (and the LSM framework, CONFIG_SECURITY) that the configs leave out; the whole skeleton fails to load"
	["bpf/kprobe_multi_test/attach_override"]="it attaches to should_fail_bio, a block layer function: the configs have no CONFIG_BLOCK"
	["bpf/kprobe_multi_test"]="its subtest attach_override (see there)"
)

# test_progs's tests and subtests left out, each for its reason (-d);
# none today.  bpf_testmod.ko, which module_attach, kprobe_multi_testmod_test
# and missed/* load, is built against each kernel (testmod below).
BPF_DESELECT=${BPF_DESELECT:-}

# testmod VARIANT DIR: the BPF selftests' test module (bpf_testmod.ko),
# built from VARIANT's tree against VARIANT's build (its BTF against
# that vmlinux) into DIR; test_progs loads it from its directory.
testmod() {
	local v=$1 dir=$2 m
	m=$(variant_dir "$v")/bpf_testmod
	rm -rf "$m"
	cp -a "$(src_dir "$v")/tools/testing/selftests/bpf/bpf_testmod" "$m"
	kmake "$v" M="$m" modules >&2 ||
		die "bpf_testmod does not build against the $v kernel"
	cp "$m/bpf_testmod.ko" "$dir/"
}

# payload VARIANT: build/VARIANT/suites.cpio.
payload() {
	local v=$1 vdir root obj release t
	vdir=$(variant_dir "$v")
	obj=$(obj_dir "$v")
	root=$vdir/suites
	release=$(cat "$obj/include/config/kernel.release")
	rm -rf "$root"
	mkdir -p "$root/usr/lib/perf-core/tests" "$root/boot" "$root/usr/local/bin" \
		"$root/suites"
	cp -a /usr/lib/perf-core/tests/shell "$root/usr/lib/perf-core/tests/"
	if [ "$KERNEL" != 6.1 ]; then
		mkdir -p "$root/suites/perf-$KERNEL/tests"
		cp -a "$(src_dir upstream)/tools/perf/tests/shell" \
			"$root/suites/perf-$KERNEL/tests/"
	fi
	cp "$TOP/scripts/guest/suites.sh" "$root/suites/run.sh"
	# The tests' tools, as on Debian: base_probe runs under bash and
	# checks output with perl scripts that use no module.
	copy_with_libs "$root" /bin/bash
	copy_with_libs "$root" /bin/dash
	copy_with_libs "$root" /usr/bin/perl
	for t in mktemp readlink realpath dirname basename grep egrep sed \
		head tail wc cut sort uniq tr seq timeout stat xargs find touch; do
		t=$(command -v "$t")
		copy_with_libs "$root" "$t"
		mv "$root$t" "$root/usr/local/bin/"
	done
	ln -s vmlinux-"$release" "$root/boot/vmlinux" 2>/dev/null || true
	cp "$obj/vmlinux" "$root/boot/vmlinux-$release"
	# Where a Debian system keeps its kernel's config, and libbpf reads
	# it for a program's __kconfig externs (get_func_ip_test's
	# CONFIG_X86_KERNEL_IBT, ...): without it those objects fail to load.
	cp "$obj/.config" "$root/boot/config-$release"
	if [ "${KPE_BPF_SUITE:-1}" != 0 ] && [ -x "$bpfsel/test_progs" ]; then
		mkdir -p "$root/suites/bpf"
		find "$bpfsel" -maxdepth 1 -type f -exec cp -a {} "$root/suites/bpf/" \;
		cp -a "$bpfsel/root/." "$root/"
		printf '%s\n' "$BPF_DESELECT" > "$root/suites/bpf/deselect"
		testmod "$v" "$root/suites/bpf"
	fi
	(cd "$root" && find . | cpio -o -H newc --quiet) > "$vdir/suites.cpio"
	rm -rf "$root"
}

declare -A res_linux=() res_upstream=()
status_linux= status_upstream=
cases=()

# boot_variant VARIANT: one boot with the suites; its status in rc.VARIANT.
boot_variant() {
	local v=$1 vdir rc
	vdir=$(variant_dir "$v")
	KPE_QUIET= "$TOP/scripts/qemu-run.sh" --variant "$v" --mem 2G \
		--timeout "$timeout" --cpio "$vdir/suites.cpio" \
		--cmd 'sh /suites/run.sh' --log "$vdir/suites.log" |
		grep --line-buffered -E '^kpe-suite' | sed -u "s/^/$v: /" >&2
	rc=${PIPESTATUS[0]}
	echo "$rc" > "$vdir/suites.rc"
}

# results VARIANT: its cases' results into res_VARIANT, its status.
results() {
	local v=$1 vdir log rc line suite name r1
	vdir=$(variant_dir "$v")
	log=$vdir/suites.log
	rc=$(cat "$vdir/suites.rc" 2>/dev/null || echo 1)
	local -n res=res_$v
	while read -r line suite name r1; do
		res["$suite/$name"]=$r1
	done < <(grep -E '^kpe-suite: ' "$log")
	# The guest's own status is 0 unless a suite could not run at all;
	# qemu-run.sh's is 1 on a splat in the console or a timeout too.
	if ! grep -q '^kpe-suite-done:' "$log"; then
		printf -v "status_$v" 'timeout or crash'
	elif [ "$rc" -ne 0 ]; then
		printf -v "status_$v" 'failed (a splat, or a suite that could not run)'
	else
		printf -v "status_$v" ok
	fi
}

# test_progs, when it can run on this kernel.
if [ "${KPE_BPF_SUITE:-1}" != 0 ] &&
	grep -q '^CONFIG_NET_NS=y' "$(obj_dir linux)/.config"; then
	BPF_LINK=dynamic "$TOP/scripts/bpf-selftests.sh" "$(src_dir upstream)" \
		"$(obj_dir linux)/vmlinux" "$bpfsel" >&2
elif [ "${KPE_BPF_SUITE:-1}" != 0 ]; then
	log "suites: no BPF test_progs: this kernel has no CONFIG_NET_NS"
	KPE_BPF_SUITE=0
fi

# The initramfs and payload of each kernel first, then the boots side by
# side (each guest is one host thread).
cd "$TOP"
for v in "${variants[@]}"; do
	[ -f "$(kernel_image "$v")" ] ||
		die "$v not built (make $([ "$v" = linux ] && echo build || echo upstream))"
	scripts/initramfs.sh "$v" >&2
	payload "$v"
	rm -f "$(variant_dir "$v")/suites.rc"
	log "suites on $v ($KERNEL): console $(variant_dir "$v")/suites.log"
done
for v in "${variants[@]}"; do
	boot_variant "$v" &
done
wait
for v in "${variants[@]}"; do
	results "$v"
done

# The table: every case either kernel reported.
mapfile -t cases < <(for v in "${variants[@]}"; do
	declare -n r=res_$v
	printf '%s\n' "${!r[@]}"
	unset -n r
done | sort -u)
fail=0 npass=0 nfail=0 nskip=0 nknown=0
printf '%-64s %-9s %-9s\n' case upstream ours
for c in "${cases[@]}"; do
	u=${res_upstream[$c]:--} o=${res_linux[$c]:--}
	note=
	if [ "$which" = upstream ]; then o=$u; fi
	case $o in
	pass) npass=$((npass + 1)) ;;
	skip) nskip=$((nskip + 1)) ;;
	*)
		if [ "$u" != pass ] && [ -n "${SUITE_KNOWN[$c]:-}" ]; then
			nknown=$((nknown + 1)) note="known: ${SUITE_KNOWN[$c]}"
		else
			nfail=$((nfail + 1)) fail=1 note=FAIL
			[ "$u" = pass ] && note="FAIL (passes upstream)"
		fi
		;;
	esac
	printf '%-64s %-9s %-9s %s\n' "$c" "$u" "$o" "$note"
done
[ ${#cases[@]} -gt 0 ] || { echo "no case reported"; fail=1; }
for v in "${variants[@]}"; do
	s=status_$v
	if [ "${!s}" != ok ]; then
		echo "$v: ${!s} (see $(variant_dir "$v")/suites.log)"
		fail=1
	fi
done
echo "other projects' kprobe suites: $npass passed, $nfail failed, $nskip skipped, $nknown known"
echo "console logs: $(for v in "${variants[@]}"; do printf '%s ' "$(variant_dir "$v")/suites.log"; done)"
# The closing line CI sums (known cases count as skipped).
echo "$npass passed, $nfail failed, $((nskip + nknown)) skipped"
exit $fail
