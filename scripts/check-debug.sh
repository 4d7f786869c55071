#!/bin/bash
# check-debug.sh: the checks on the debug kernel (build/debug: KASAN,
# lockdep, kmemleak, UBSAN, ...), through scripts/check.sh:
#   1. 4 vCPUs, 2 GiB: every kselftest (with KPE_STRESS_SECS=60 and
#      KPE_FUZZ_LINES=10000 unless set; make check writes fewer lines, on
#      a faster kernel), ftracetest's kprobe suites, then a kmemleak scan
#      (two scans; any suspected leak fails);
#   2. lockdown=confidentiality, 3. lockdown=integrity (raised to
#      confidentiality by the test): test_lockdown.sh, which must pass (not
#      skip) there (check.sh's locked-down boots); on 6.12 the integrity
#      boot, under -icount, first runs test_startup_selftest.sh: the
#      boot-time self-test (CONFIG_FTRACE_STARTUP_TEST) must have passed; 4. the hang boot: a CPU
#      stuck 8 s must fail its run with a detector's report.
# Boot 1's time limit (CHECK_TIMEOUT, 3600 s) leaves a hung run room to
# report within CI's 90 minutes.  A splat in any console fails the run.
# KPE_DEBUG_FTRACETEST=0 leaves ftracetest out of boot 1 (about 15
# minutes on this kernel; CI does, for its time: make check runs both
# suites on both kernels).
# The last line sums the four boots: "N passed, N failed[, N skipped]".
. "$(dirname "$0")/common.sh"

vdir=$(variant_dir debug)
t0=$(date +%s)

# summary_of FILE: "passed failed skipped" from check.sh's last line
summary_of() {
	tail -n1 "$1" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed\(, \([0-9]*\) skipped\)\{0,1\}$/\1 \2 \4/p'
}

set +e
log "check-debug: kselftests, ftracetest, kmemleak (4 vCPUs), then the locked-down boots"
nocf=
[ "${KPE_DEBUG_FTRACETEST:-1}" = 0 ] && nocf=1
VARIANT=debug CHECK_LOG=$vdir/check.log NO_CONFORMANCE=$nocf KPE_GUESTS=${KPE_GUESTS:-2} \
	KPE_STRESS_SECS=${KPE_STRESS_SECS:-60} KPE_FUZZ_LINES=${KPE_FUZZ_LINES:-10000} \
	KPE_RACE_SECS=${KPE_RACE_SECS:-10} \
	KPE_TIMEOUT=${KPE_TIMEOUT:-1500} KPE_KMEMLEAK=1 \
	CHECK_TIMEOUT=${CHECK_TIMEOUT:-3600} QEMU_ARGS="--smp 4 --mem 2G" \
	"$TOP/scripts/check.sh" | tee "$vdir/check1.out"
t1=$(date +%s)

read -r p1 f1 s1 <<< "$(summary_of "$vdir/check1.out")"
[ -n "$p1" ] || { echo "boot 1 gave no result" >&2; p1=0 f1=1; }
passed=$p1 failed=$f1 skipped=${s1:-0}
set -e

echo "check-debug: $((t1 - t0)) s"
echo "console logs: $vdir/check.log $vdir/check.2.log $vdir/lockdown-confidentiality.log $vdir/lockdown-integrity.log"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
