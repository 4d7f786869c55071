#!/bin/bash
# check.sh [TEST...]: boot our kernel, run the kselftests in the guest and
# print "N passed, N failed" as the last line.  A kernel splat or a guest
# timeout counts as one more failure.
. "$(dirname "$0")/common.sh"

variant=${VARIANT:-linux}
log=$(variant_dir "$variant")/check.log
set +e
# A probe from the kernel command line, for test_boot_param.sh.
boot_probe='kprobe_event=p:kpe_boot,do_sys_openat2,fn=+0(%si):ustring'
KPE_QUIET=1 "$TOP/scripts/qemu-run.sh" --variant "$variant" --mode check \
	--append "$boot_probe" \
	--tests "$*" --log "$log" --timeout "${CHECK_TIMEOUT:-900}" ${QEMU_ARGS:-}
rc=$?
set -e

passed=$(grep -Ec '^ok [0-9]+ ' "$log" || true)
failed=$(grep -Ec '^not ok [0-9]+ ' "$log" || true)
skipped=$(grep -Ec '^ok [0-9]+ .*# SKIP' "$log" || true)
passed=$((passed - skipped))
total=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -n1)
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
	failed=1	# splat, timeout or a guest that never finished
fi
if [ -n "$total" ] && [ $((passed + failed + skipped)) -lt "$total" ]; then
	echo "kpe: only $((passed + failed + skipped)) of $total tests reported" >&2
	failed=$((failed + total - passed - failed - skipped))
fi
[ -n "$total" ] || { echo "kpe: no test ran" >&2; failed=$((failed > 0 ? failed : 1)); }
echo "console log: $log"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
