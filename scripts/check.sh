#!/bin/bash
# check.sh [TEST...]: boot our kernel, run the kselftests in the guest and
# print "N passed, N failed" as the last line.  A kernel splat or a guest
# timeout counts as one more failure.  A full run (no TEST given) on a
# kernel with the lockdown LSM boots twice more, with lockdown=
# confidentiality and lockdown=integrity on the command line, to run
# test_lockdown.sh, which must pass (not skip) there; NO_LOCKDOWN=1 leaves
# those boots out.  On a kernel built with CONFIG_FTRACE_STARTUP_TEST (the
# debug one) the lockdown=integrity boot, the only one without
# kprobe_event= (which disables the tracers' boot self-tests), runs
# test_startup_selftest.sh first: ours must have said "OK" at boot.  A
# full run splits the kselftests over KPE_GUESTS guests (3) that run side
# by side (the first runs ftracetest after its share), and the two locked-down
# guests boot beside them; KPE_SERIAL=1 runs it all
# in one guest, as a run of named tests always does.  The fuzzer and the
# stress and race tests run short (KPE_FUZZ_LINES=5000, KPE_STRESS_SECS=3,
# KPE_RACE_SECS=4) unless KPE_LONG=1 (the default under CI=true: 100000
# lines, 20 s, 10 s).  With
# ARCH=arm64 the arm64 variant (VARIANT=upstream: upstream-arm64) boots in
# qemu-system-aarch64.
. "$(dirname "$0")/common.sh"

variant=$(arch_variant "${VARIANT:-linux}")
# CHECK_LOG: where the console log goes; CHECK_APPEND: more kernel
# arguments (check-debug's lockdown boot).
log=${CHECK_LOG:-$(variant_dir "$variant")/check.log}
set +e
# The kernel's own ftracetest kprobe suites run in the same boot, after
# ours (NO_CONFORMANCE=1 skips them).
ftdir=$(variant_dir "$variant")/initramfs/ftrace
conf=
if [ -z "${NO_CONFORMANCE:-}" ] && [ $# -eq 0 ] && [ -x "$ftdir/ftracetest" ]; then
	conf=$(ftracetest_cases "$ftdir" | tr '\n' ' ')
fi
# Linux 6.12's ftracetest kprobe suites too, on our x86_64 kernel only
# (make conformance runs them on upstream beside; the debug and arm64
# checks leave them out for CI's time; KPE_FT612=0 does too): in the
# second guest, beside the first's 6.1 suites.
conf612=
if [ -n "$conf" ] && [ "$variant" = linux ] && [ "${KPE_FT612:-1}" != 0 ] &&
   [ -x "$ftdir-6.12/ftracetest" ]; then
	conf612=$(ft612_cases "$ftdir-6.12" | tr '\n' ' ')
fi
if [ -n "${KPE_LONG:-}" ] || [ "${CI:-}" = true ]; then
	: "${KPE_FUZZ_LINES:=100000}" "${KPE_STRESS_SECS:=20}" "${KPE_RACE_SECS:=10}"
else
	: "${KPE_FUZZ_LINES:=5000}" "${KPE_STRESS_SECS:=3}" "${KPE_RACE_SECS:=4}"
fi
# Test settings from our environment, passed on to the guest.
guest_env=
for v in KPE_STRESS_SECS KPE_STRESS_RACE KPE_FUZZ_LINES KPE_FUZZ_SEED KPE_RACE_SECS \
	KPE_TIMEOUT KPE_KMEMLEAK; do
	eval "val=\${$v:-}"
	[ -n "$val" ] && guest_env="$guest_env $v=$val"
done
# A probe from the kernel command line, for test_boot_param.sh: the
# file name, do_sys_openat2()'s second argument (x86_64 %si, arm64 %x1).
if [ "$(variant_arch "$variant")" = arm64 ]; then
	boot_probe='kprobe_event=p:kpe_boot,do_sys_openat2,fn=+0(%x1):ustring'
else
	boot_probe='kprobe_event=p:kpe_boot,do_sys_openat2,fn=+0(%si):ustring'
fi
# guest LOG TESTS CONFORMANCE: one guest running TESTS (all if empty)
# and then the CONFORMANCE cases, console into LOG.
guest() {
	KPE_QUIET=1 "$TOP/scripts/qemu-run.sh" --variant "$variant" --mode check \
		--append "$boot_probe ${CHECK_APPEND:-}" --conformance "$3" \
		--tests "$2" --log "$1" --timeout "${CHECK_TIMEOUT:-900}" \
		--env "$guest_env" ${QEMU_ARGS:-}
}
# The locked-down boots (see the end) start now, beside the others.
lockdown=
selftest=
grep -q '^CONFIG_FTRACE_STARTUP_TEST=y' "$(obj_dir "$variant")/.config" && selftest=1
if [ $# -eq 0 ] && [ -z "${NO_LOCKDOWN:-}" ] &&
   grep -q '^CONFIG_SECURITY_LOCKDOWN_LSM=y' "$(obj_dir "$variant")/.config"; then
	lockdown=1
	for mode in confidentiality integrity; do
		llog=$(dirname "$log")/lockdown-$mode.log
		# The boot self-tests run in the integrity boot (tracefs is
		# there) and are spared the other, by kprobe_event=.
		ltests=test_lockdown.sh lappend="lockdown=$mode" lqemu=
		if [ -z "$selftest" ]; then
			:
		elif [ "$mode" = integrity ]; then
			# The self-tests trace every function for a while of
			# guest time: with the guest's clock on the host's, a
			# guest that shares the host with others gets ever
			# more timer ticks to trace (its function_graph test
			# ran past 24 minutes beside check-debug's two
			# guests).  On one vCPU under -icount guest time is
			# instructions: 6 minutes there, as alone.
			ltests="test_startup_selftest.sh test_lockdown.sh"
			lqemu="--icount --smp 1 --timeout 1800"
		else
			lappend="$lappend $boot_probe"
		fi
		KPE_QUIET=1 "$TOP/scripts/qemu-run.sh" --variant "$variant" --mode check \
			--append "$lappend" --tests "$ltests" --log "$llog" \
			--timeout 900 ${QEMU_ARGS:-} $lqemu >/dev/null &
		eval "lpid_$mode=\$!"
	done
fi
# A hang fails a run, with the detector's report: a boot whose guest
# spins 8 s in the kernel with preemption off (kpe_kmod's spin) must
# end as a failure whose console has the soft-lockup or RCU stall
# detector's report (one test; NO_HANG_CHECK=1 leaves it out).  Its
# detectors are set short on the command line (soft lockup after 2 s,
# RCU stall after 3 s, the least it takes; 20 and 21 s by default), so
# that the spin, which takes a host CPU from the other guests all along,
# need not last the default 20 s and more.
hang=
if [ $# -eq 0 ] && [ -z "${NO_HANG_CHECK:-}" ] &&
   grep -q '^CONFIG_SOFTLOCKUP_DETECTOR=y' "$(obj_dir "$variant")/.config"; then
	hang=1
	hlog=$(dirname "$log")/hang.log
	# (kprobe_event= spares it the boot self-tests.)
	KPE_QUIET=1 "$TOP/scripts/qemu-run.sh" --variant "$variant" --mode cmd \
		--cmd 'modprobe kpe_kmod && echo 8 > /sys/kernel/debug/kpe_kmod/spin' \
		--append "watchdog_thresh=1 rcupdate.rcu_cpu_stall_timeout=3 ${selftest:+$boot_probe}" \
		--log "$hlog" --timeout 900 ${QEMU_ARGS:-} >/dev/null 2>&1 &
	hpid=$!
fi
logs=$log
if [ $# -eq 0 ] && [ -z "${KPE_SERIAL:-}" ]; then
	# KPE_GUESTS guests (3; check-debug: 2) share the kselftests:
	# longest first, each to the guest with less so far, by the times
	# the last run's logs give (1 s for a test they do not name); the
	# first guest starts with ftracetest's share, the second with the
	# 6.12 one's, as long as they took in the last run's logs (45 and
	# 40 s if they do not say).  More guests than the host's two CPUs
	# still pay: a guest often waits (sleeps, timers, workers), and a
	# run is as long as its longest guest.
	ng=${KPE_GUESTS:-3}
	[ "$ng" -ge 2 ] 2>/dev/null || ng=2
	glog() { # I: guest I's console log
		if [ "$1" = 1 ]; then echo "$log"; else echo "${log%.log}.$1.log"; fi
	}
	ft_secs() { # LOG: seconds from the kselftests' end to ftracetest's
		sed -n 's/^kpe-phase: \(kselftests\|ftracetest\) done at \([0-9]*\)\..*/\2/p' \
			"$1" 2>/dev/null | awk 'NR == 1 { k = $1 } NR == 2 { print $1 - k }'
	}
	declare -a share gt gconf
	for ((i = 1; i <= ng; i++)); do
		share[i]= gt[i]=0 gconf[i]=
	done
	if [ -n "$conf" ]; then
		gconf[1]=$conf
		gt[1]=$(ft_secs "$(glog 1)")
		gt[1]=${gt[1]:-45}
	fi
	if [ -n "$conf612" ]; then
		gconf[2]=$conf612
		gt[2]=$(ft_secs "$(glog 2)")
		gt[2]=${gt[2]:-40}
	fi
	oldlogs=
	for ((i = 1; i <= ng + 1; i++)); do
		oldlogs="$oldlogs $(glog "$i")"
	done
	while read -r secs t; do
		m=1
		for ((i = 2; i <= ng; i++)); do
			[ "${gt[i]}" -lt "${gt[m]}" ] && m=$i
		done
		share[m]="${share[m]} $t" gt[m]=$((gt[m] + secs))
	done < <(cd "$SELFTESTS" && for t in test_*.sh; do
		# shellcheck disable=SC2086
		secs=$(cat $oldlogs 2>/dev/null |
			sed -n "s/^# $t: \([0-9]*\)\.[0-9] s\$/\1/p" | tail -n1)
		echo "$((${secs:-0} + 1)) $t"
	done | sort -rn)
	declare -a gpid
	logs=
	for ((i = 1; i <= ng; i++)); do
		guest "$(glog "$i")" "${share[i]}" "${gconf[i]}" > "$(glog "$i").out" 2>&1 &
		gpid[i]=$!
		logs="$logs $(glog "$i")"
	done
	logs=${logs# }
	rc=0
	for ((i = 1; i <= ng; i++)); do
		wait "${gpid[i]}" || rc=$?
	done
	for ((i = 1; i <= ng; i++)); do
		cat "$(glog "$i").out"
		rm -f "$(glog "$i").out"
	done
	full=1
else
	guest "$log" "$*" "$conf $conf612"
	rc=$?
	[ $# -gt 0 ] || full=1
fi
set -e

passed=0 failed=0 skipped=0
for l in $logs; do
	p=$(grep -Ec '^ok [0-9]+ ' "$l" || true)
	f=$(grep -Ec '^not ok [0-9]+ ' "$l" || true)
	s=$(grep -Ec '^ok [0-9]+ .*# SKIP' "$l" || true)
	p=$((p - s))
	total=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$l" | head -n1)
	if [ -n "$total" ] && [ $((p + f + s)) -lt "$total" ]; then
		echo "kpe: only $((p + f + s)) of $total tests reported in $l" >&2
		f=$((f + total - p - f - s))
	fi
	[ -n "$total" ] || { echo "kpe: no test ran in $l" >&2; f=$((f > 0 ? f : 1)); }
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
done
# ft_count TITLE NCASES GREP-OPT: ftracetest's results for one suite, from
# its kpe-case lines in the logs (GREP-OPT -v: the kernel's own suite;
# -e: Linux 6.12's, whose cases are named 6.12/...).  Passes count as
# passed, cases the config cannot run as skipped, a case common.sh's
# FT612_KNOWN lists (one that fails on the pristine kernel alike, or on
# 6.1's core) as skipped with its reason, anything else (FAIL,
# UNRESOLVED, a case that never reported) as failed.
ft_count() {
	local title=$1 n=$2 r name why c_pass=0 c_skip=0 c_known=0
	while read -r _ _ r name; do
		case $r in
		PASS) c_pass=$((c_pass + 1)) ;;
		UNSUPPORTED | UNTESTED | XFAIL) c_skip=$((c_skip + 1)) ;;
		*)
			if why=$(ft612_known "$name"); then
				c_known=$((c_known + 1))
				echo "  $name: $r (known: $why)"
			else
				echo "  $name: $r"
			fi
			;;
		esac
	done < <(cat $logs | grep -E '^kpe-case: [0-9]+ [A-Z]+ ' |
		grep "$3" ' 6\.12/' || true)
	echo "$title: $c_pass passed, $((n - c_pass - c_skip - c_known)) failed, $c_skip unsupported, $c_known known"
	passed=$((passed + c_pass))
	skipped=$((skipped + c_skip + c_known))
	failed=$((failed + n - c_pass - c_skip - c_known))
}
[ -z "$conf" ] || ft_count "ftracetest kprobe conformance" "$(echo $conf | wc -w)" -v
[ -z "$conf612" ] || ft_count "ftracetest 6.12 kprobe suites" "$(echo $conf612 | wc -w)" -e
if [ -n "${KPE_KMEMLEAK:-}" ]; then
	# The guest's kmemleak scan after all tests: one more check.
	# (each guest scans; every one must have, and found nothing)
	leaks=0
	for l in $logs; do
		n=$(sed -n 's/^kpe-kmemleak: \([0-9]*\) suspected leaks$/\1/p' "$l" | tail -n1)
		if [ -n "$n" ]; then
			echo "kmemleak: $n suspected leaks ($l)"
			leaks=$((leaks + n))
		else
			echo "kmemleak: no scan result ($l)"
			leaks=x
			break
		fi
	done
	if [ "$leaks" = 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
fi
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
	failed=1	# splat, timeout or a guest that never finished
fi
echo "console log: $logs"

# The hit path's stack frames, read off the object: one more test (not
# on the debug kernel, whose KASAN redzones make every frame larger; not
# on arm64, stackcheck.sh reads x86-64 objects: a skip there).
if [ $# -eq 0 ] && [ "$(variant_arch "$variant")" = arm64 ]; then
	echo "stack frames: not checked (scripts/stackcheck.sh reads x86-64 objects)"
	skipped=$((skipped + 1))
elif [ $# -eq 0 ] && [ "$variant" != debug ]; then
	if "$TOP/scripts/stackcheck.sh" "$variant"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
fi

# The locked-down boots: each counts one test, passed only if
# test_lockdown.sh passed there (a skip means lockdown was not in force).
if [ -n "$lockdown" ]; then
	for mode in confidentiality integrity; do
		llog=$(dirname "$log")/lockdown-$mode.log
		set +e
		eval "wait \$lpid_$mode"
		lrc=$?
		set -e
		if [ -n "$selftest" ] && [ "$mode" = integrity ]; then
			# One more test: the boot self-test, which must pass,
			# not skip, there.
			if grep -q '^ok [0-9]* selftests: kprobe_events: test_startup_selftest.sh$' "$llog"; then
				passed=$((passed + 1))
				echo "lockdown=$mode: the boot self-test passed ($(grep -m1 -o 'Testing kprobe tracing: .*' "$llog" | tr -d '\r'))"
			else
				failed=$((failed + 1))
				echo "lockdown=$mode: the boot self-test FAILED or did not run ($llog):"
				grep -E 'Testing kprobe tracing|test_startup_selftest' "$llog" | head -5 || true
			fi
		fi
		if [ "$lrc" -eq 0 ] && grep -q '^ok [0-9]* selftests: kprobe_events: test_lockdown.sh$' "$llog"; then
			passed=$((passed + 1))
			echo "lockdown=$mode: test_lockdown.sh passed"
		else
			failed=$((failed + 1))
			echo "lockdown=$mode: test_lockdown.sh FAILED (rc $lrc, $llog):"
			grep -E '^# |^(not )?ok ' "$llog" | head -30
		fi
		echo "console log: $llog"
	done
fi
if [ -n "$hang" ]; then
	set +e
	wait "$hpid"
	hrc=$?
	set -e
	# The RCU stall detector and the soft-lockup one both see it;
	# either report will do.  RCU's comes from the stuck
	# CPU ("self-detected stall") or, as often on a loaded host, from
	# another CPU first ("detected stalls on CPUs/tasks").
	hre='BUG: soft lockup|self-detected stall|detected stalls on CPUs'
	if [ "$hrc" -ne 0 ] && grep -qE "$hre" "$hlog"; then
		passed=$((passed + 1))
		echo "hang: a CPU stuck 8 s failed the run with the detectors' report ($(grep -m1 -oE "$hre" "$hlog"))"
	else
		failed=$((failed + 1))
		echo "hang: a CPU stuck 8 s did not fail the run with a detector's report (rc $hrc, $hlog)"
	fi
	echo "console log: $hlog"
fi
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
