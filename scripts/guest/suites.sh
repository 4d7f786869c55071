#!/bin/sh
# The guest half of scripts/suites.sh: other projects' kprobe test suites,
# run as those projects run them, each case reported on one line
#
#   kpe-suite: SUITE CASE RESULT
#
# (RESULT: pass, fail or skip) for the host to compare with the pristine
# kernel's.  The payload (suites.cpio) brings /suites/perf/tests/shell
# (the kernel tree's perf shell tests), /suites/bpf (test_progs built
# from the tree's BPF selftests, when built), bash, perl, and the
# kernel's vmlinux with its DWARF at /boot/vmlinux-RELEASE, where perf
# probe looks for the running kernel's debug info.

rc=0
t=/sys/kernel/tracing

# reset_tracing: no probe or event left from the case before.
reset_tracing() {
	echo 0 > $t/tracing_on 2>/dev/null
	echo > $t/kprobe_events 2>/dev/null
	echo > $t/uprobe_events 2>/dev/null
	echo > $t/trace 2>/dev/null
	echo 1 > $t/tracing_on 2>/dev/null
}

# perf_suite SUITE DIR: perf's shell tests as `perf test` runs them from
# DIR (from / it takes the set installed with perf,
# /usr/lib/perf-core/tests/shell; from a directory with tests/shell, as
# from a kernel tree's tools/perf, that one).  perf test lists each by
# the description on its second line.  The cases: every one whose
# description names probes or vfs_getname (perf probe on kernel
# functions and lines, and the uprobe ones beside them).
perf_suite() {
	local suite=$1 list num desc out res
	command -v perf > /dev/null || {
		echo "kpe-suite-note: $suite: no perf in the guest"
		return 0
	}
	cd "$2" || return 1
	list=$(perf test list 2>&1 | grep -iE '^ *[0-9]+: .*(probe|vfs_getname)')
	[ -n "$list" ] || {
		echo "kpe-suite: $suite no-cases fail"
		cd /
		return 1
	}
	echo "$list" | while read -r num desc; do
		num=${num%:}
		reset_tracing
		echo "kpe-suite-run: $suite $num $desc"
		out=$(perf test -v "$num" 2>&1)
		echo "$out" | sed 's/^/  | /'
		# perf test -v ends with "DESCRIPTION: Ok" (or FAILED!, Skip).
		case $(echo "$out" | grep -E ': (Ok|FAILED!|Skip)' | tail -n 1) in
		*': Ok') res=pass ;;
		*': Skip'*) res=skip ;;
		*) res=fail ;;
		esac
		# CASE is the description, spaces made underscores.
		desc=$(echo "$desc" | tr ' ' '_')
		echo "kpe-suite: $suite $desc $res"
		# The perftool-testsuite scripts (base_probe) report each
		# check as "-- [ PASS ] -- . :: test_x :: what :: how": each is
		# a case too, named DESCRIPTION/test_x::what::how.
		echo "$out" | sed -n 's/^-- \[ \(PASS\|FAIL\|SKIP\) \] -- [^:]*:: \(.*\)$/\1 \2/p' |
			while read -r r1 rest; do
				rest=$(echo "$rest" | sed 's/ *$//; s/ :: /::/g' | tr ' ' '_')
				case $r1 in
				PASS) r1=pass ;;
				SKIP) r1=skip ;;
				*) r1=fail ;;
				esac
				echo "kpe-suite: $suite $desc/$rest $r1"
			done
	done
	cd /
}

# BPF's test_progs, the kprobe cases (scripts/bpf-selftests.sh chose and
# built them); each test and subtest is a case.
bpf_suite() {
	[ -x /suites/bpf/test_progs ] || {
		echo "kpe-suite-note: bpf: test_progs not built"
		return 0
	}
	# test_progs keeps /proc/self/ns/net open to restore each test's
	# network namespace, and stops without it.
	[ -e /proc/self/ns/net ] || {
		echo "kpe-suite-note: bpf: not run: test_progs needs network namespaces (CONFIG_NET_NS), which this kernel's config has not"
		return 0
	}
	cd /suites/bpf || return 1
	reset_tracing
	set -- $(sed 's/^./-d &/' deselect)
	./test_progs "$@" > /tmp/test_progs.out 2>&1
	sed 's/^/  | /' /tmp/test_progs.out
	# "#12     attach_probe:OK", "#12/3   attach_probe/uprobe-ref_ctr:FAIL",
	# "...:SKIP".
	sed -n 's/^#[0-9/]*[[:space:]]*\([^:[:space:]]*\):\(OK\|FAIL\|SKIP\).*/\1 \2/p' \
		/tmp/test_progs.out | while read -r name res; do
		case $res in
		OK) res=pass ;;
		SKIP) res=skip ;;
		*) res=fail ;;
		esac
		echo "kpe-suite: bpf $name $res"
	done
	cd /
}

mount | grep -q ' /sys/kernel/debug ' || mount -t debugfs none /sys/kernel/debug
ulimit -l unlimited 2> /dev/null
# A Debian system's /bin/sh (dash) and GNU tools, as the tests expect:
# busybox's sh would run its own applets (mktemp, readlink) whatever
# PATH says.  Busybox comes back as /bin/sh afterwards.
export PATH=/usr/local/bin:$PATH
sh_was=$(readlink /bin/sh)
ln -sf dash /bin/sh
perf_suite perf / || rc=1
for d in /suites/perf-*; do
	[ -d "$d/tests/shell" ] && { perf_suite "${d##*/}" "$d" || rc=1; }
done
ln -sf "$sh_was" /bin/sh
bpf_suite || rc=1
echo "kpe-suite-done: rc=$rc"
exit $rc
