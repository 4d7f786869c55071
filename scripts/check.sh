#!/bin/bash
# check.sh [TEST...]: boot our kernel, run the kselftests in the guest and
# print "N passed, N failed" as the last line.  A kernel splat or a guest
# timeout counts as one more failure.  A full run (no TEST given) on a
# kernel with the lockdown LSM boots twice more, with lockdown=
# confidentiality and lockdown=integrity on the command line, to run
# test_lockdown.sh, which must pass (not skip) there; NO_LOCKDOWN=1 leaves
# those boots out.  With ARCH=arm64 the arm64 variant (VARIANT=upstream:
# upstream-arm64) boots in qemu-system-aarch64.
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
# Test settings from our environment, passed on to the guest.
guest_env=
for v in KPE_STRESS_SECS KPE_STRESS_RACE KPE_FUZZ_LINES KPE_FUZZ_SEED KPE_TIMEOUT KPE_KMEMLEAK; do
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
KPE_QUIET=1 "$TOP/scripts/qemu-run.sh" --variant "$variant" --mode check \
	--append "$boot_probe ${CHECK_APPEND:-}" --conformance "$conf" \
	--tests "$*" --log "$log" --timeout "${CHECK_TIMEOUT:-900}" \
	--env "$guest_env" ${QEMU_ARGS:-}
rc=$?
set -e

passed=$(grep -Ec '^ok [0-9]+ ' "$log" || true)
failed=$(grep -Ec '^not ok [0-9]+ ' "$log" || true)
skipped=$(grep -Ec '^ok [0-9]+ .*# SKIP' "$log" || true)
passed=$((passed - skipped))
total=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -n1)
if [ -n "$total" ] && [ $((passed + failed + skipped)) -lt "$total" ]; then
	echo "kpe: only $((passed + failed + skipped)) of $total tests reported" >&2
	failed=$((failed + total - passed - failed - skipped))
fi
[ -n "$total" ] || { echo "kpe: no test ran" >&2; failed=$((failed > 0 ? failed : 1)); }
if [ -n "$conf" ]; then
	# ftracetest's results: passes count as passed, cases the config
	# cannot run as skipped, anything else (FAIL, UNRESOLVED, missing)
	# as failed.
	n_conf=$(echo $conf | wc -w)
	c_pass=$(grep -Ec '^kpe-case: [0-9]+ PASS ' "$log" || true)
	c_skip=$(grep -Ec '^kpe-case: [0-9]+ (UNSUPPORTED|UNTESTED|XFAIL) ' "$log" || true)
	c_fail=$((n_conf - c_pass - c_skip))
	echo "ftracetest kprobe conformance: $c_pass passed, $c_fail failed, $c_skip unsupported"
	grep -E '^kpe-case: [0-9]+ ' "$log" | grep -vE ' (PASS|UNSUPPORTED|UNTESTED|XFAIL) ' || true
	passed=$((passed + c_pass))
	skipped=$((skipped + c_skip))
	failed=$((failed + c_fail))
fi
if [ -n "${KPE_KMEMLEAK:-}" ]; then
	# The guest's kmemleak scan after all tests: one more check.
	leaks=$(sed -n 's/^kpe-kmemleak: \([0-9]*\) suspected leaks$/\1/p' "$log" | tail -n1)
	if [ -n "$leaks" ]; then
		echo "kmemleak: $leaks suspected leaks"
	else
		echo "kmemleak: no scan result"
	fi
	if [ "${leaks:-x}" = 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
fi
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
	failed=1	# splat, timeout or a guest that never finished
fi
echo "console log: $log"

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
if [ $# -eq 0 ] && [ -z "${NO_LOCKDOWN:-}" ] &&
   grep -q '^CONFIG_SECURITY_LOCKDOWN_LSM=y' "$(obj_dir "$variant")/.config"; then
	for mode in confidentiality integrity; do
		llog=$(dirname "$log")/lockdown-$mode.log
		set +e
		KPE_QUIET=1 "$TOP/scripts/qemu-run.sh" --variant "$variant" --mode check \
			--append "lockdown=$mode" --tests test_lockdown.sh --log "$llog" \
			--timeout 900 ${QEMU_ARGS:-} >/dev/null
		lrc=$?
		set -e
		if [ "$lrc" -eq 0 ] && grep -q '^ok 1 test_lockdown.sh$' "$llog"; then
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
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
