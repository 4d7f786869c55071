#!/bin/bash
# check-debug.sh: the checks on the debug kernel (build/debug: KASAN,
# lockdep, kmemleak, UBSAN, ...), in two boots:
#   1. 4 vCPUs, 2 GiB: every kselftest (with KPE_STRESS_SECS=60 and
#      KPE_FUZZ_LINES=10000 unless set; make check writes 100000 lines,
#      in a third of the time), ftracetest's kprobe suites, then a
#      kmemleak scan (two scans; any suspected leak fails);
#   2. lockdown=confidentiality, 3. lockdown=integrity (raised to
#      confidentiality by the test): test_lockdown.sh, which must pass (not
#      skip) there.
# Boot 1 takes about 37 minutes on an idle 2-core machine; its time limit
# (CHECK_TIMEOUT, 3600 s) leaves a hung run room to report within CI's 90
# minutes.  A splat in any console fails the run.  The last line sums the three
# boots: "N passed, N failed[, N skipped]".
. "$(dirname "$0")/common.sh"

vdir=$(variant_dir debug)
t0=$(date +%s)

# summary_of FILE: "passed failed skipped" from check.sh's last line
summary_of() {
	tail -n1 "$1" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed\(, \([0-9]*\) skipped\)\{0,1\}$/\1 \2 \4/p'
}

set +e
log "check-debug boot 1: kselftests, ftracetest, kmemleak (4 vCPUs)"
VARIANT=debug CHECK_LOG=$vdir/check.log \
	KPE_STRESS_SECS=${KPE_STRESS_SECS:-60} KPE_FUZZ_LINES=${KPE_FUZZ_LINES:-10000} \
	KPE_TIMEOUT=${KPE_TIMEOUT:-1500} KPE_KMEMLEAK=1 \
	CHECK_TIMEOUT=${CHECK_TIMEOUT:-3600} QEMU_ARGS="--smp 4 --mem 2G" \
	"$TOP/scripts/check.sh" | tee "$vdir/check1.out"
t1=$(date +%s)

# lockdown_boot N MODE: boot N, locked down in MODE from the command
# line, runs test_lockdown.sh, which must pass (not skip) there.
lockdown_boot() {
	log "check-debug boot $1: lockdown=$2"
	VARIANT=debug CHECK_LOG=$vdir/lockdown-$2.log CHECK_APPEND=lockdown=$2 \
		KPE_KMEMLEAK= CHECK_TIMEOUT=900 QEMU_ARGS="--smp 2 --mem 2G" \
		"$TOP/scripts/check.sh" test_lockdown.sh | tee "$vdir/check-$2.out"
	read -r p f s <<< "$(summary_of "$vdir/check-$2.out")"
	[ -n "$p" ] || { echo "boot $1 gave no result" >&2; p=0 f=1 s=0; }
	if ! grep -q '^ok 1 test_lockdown.sh$' "$vdir/lockdown-$2.log"; then
		echo "test_lockdown.sh did not pass with lockdown=$2" >&2
		[ "${f:-0}" -gt 0 ] || f=1
		if [ "${s:-0}" -gt 0 ]; then s=$((s - 1)); fi
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
}

read -r p1 f1 s1 <<< "$(summary_of "$vdir/check1.out")"
[ -n "$p1" ] || { echo "boot 1 gave no result" >&2; p1=0 f1=1; }
passed=$p1 failed=$f1 skipped=${s1:-0}
lockdown_boot 2 confidentiality
lockdown_boot 3 integrity
t3=$(date +%s)
set -e

echo "check-debug: boot 1 $((t1 - t0)) s, boots 2-3 $((t3 - t1)) s, total $((t3 - t0)) s"
echo "console logs: $vdir/check.log $vdir/lockdown-confidentiality.log $vdir/lockdown-integrity.log"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
