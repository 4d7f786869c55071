#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: run the kprobe_events selftests, print TAP and a summary
#
# The kselftest runner's TAP ("ok N selftests: kprobe_events: TEST"), for
# where there is no make to run it (the busybox guest): per-test timeouts
# from settings or a "# timeout: N" line, each test in its own session.
#
# usage: run_tests.sh [test_name ...]   (default: every test_*.sh, sorted)

DIR=$(cd "$(dirname "$0")" && pwd)
cd "$DIR" || exit 1

TIMEOUT=$(sed -n 's/^timeout=\([0-9][0-9]*\).*/\1/p' settings 2>/dev/null | tail -n 1)
[ -n "$TIMEOUT" ] || TIMEOUT=45
# KPE_TIMEOUT (seconds per test) overrides settings, e.g. on a slow
# debug kernel or with a long stress run.
case "${KPE_TIMEOUT:-}" in
'' | *[!0-9]*) ;;
*) TIMEOUT=$KPE_TIMEOUT ;;
esac

if [ $# -gt 0 ]; then
	TESTS=$*
else
	TESTS=$(ls test_*.sh 2>/dev/null | sort)
fi
N=0
for t in $TESTS; do N=$((N + 1)); done

if [ -d /tmp ] && [ -w /tmp ]; then
	OUTF=/tmp/kpe_out.$$
else
	OUTF=$DIR/.kpe_out.$$
fi

# run_one TEST: run it in a session of its own, so that on a timeout the
# whole session (the test and anything it started) is killed, not just the
# shell; prints the exit status (124 on a timeout).
# A test may ask for more time than TIMEOUT with a "# timeout: N" line.
run_one() {
	_to=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$1" | head -n 1)
	[ -n "$_to" ] && [ "$_to" -gt "$TIMEOUT" ] || _to=$TIMEOUT
	setsid sh "./$1" > "$OUTF" 2>&1 &
	_pid=$!
	_left=$((_to * 10))
	while kill -0 "$_pid" 2>/dev/null; do
		if [ $_left -le 0 ]; then
			kill -KILL -- "-$_pid" 2>/dev/null
			wait "$_pid" 2>/dev/null
			echo 124
			return
		fi
		usleep 100000
		_left=$((_left - 1))
	done
	wait "$_pid"
	echo $?
}

echo "TAP version 13"
echo "1..$N"

i=0
passed=0
failed=0
skipped=0
for t in $TESTS; do
	i=$((i + 1))
	[ -f "$t" ] || [ ! -f "$t.sh" ] || t=$t.sh
	echo "# selftests: kprobe_events: $t"
	if [ ! -f "$t" ]; then
		echo "# no such test: $t"
		echo "not ok $i selftests: kprobe_events: $t # exit=127"
		failed=$((failed + 1))
		continue
	fi
	t0=$(cut -d' ' -f1 /proc/uptime)
	rc=$(run_one "$t")
	t1=$(cut -d' ' -f1 /proc/uptime)
	sed -e '/^#/!s/^/# /' "$OUTF"
	rm -f "$OUTF"
	echo "# $t: $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s"
	case "$rc" in
	0)
		echo "ok $i selftests: kprobe_events: $t"
		passed=$((passed + 1))
		;;
	4)
		echo "ok $i selftests: kprobe_events: $t # SKIP"
		skipped=$((skipped + 1))
		;;
	*)
		case "$rc" in
		124) echo "not ok $i selftests: kprobe_events: $t # TIMEOUT $TIMEOUT seconds" ;;
		*) echo "not ok $i selftests: kprobe_events: $t # exit=${rc:-unknown}" ;;
		esac
		failed=$((failed + 1))
		;;
	esac
done

echo "# kpe-summary: passed=$passed failed=$failed skipped=$skipped"
[ $failed -eq 0 ]
