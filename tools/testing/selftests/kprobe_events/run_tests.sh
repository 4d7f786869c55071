#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: run the kprobe_events selftests, print TAP and a summary
#
# usage: run_tests.sh [test_name ...]   (default: every test_*.sh, sorted)

DIR=$(cd "$(dirname "$0")" && pwd)
cd "$DIR" || exit 1

TIMEOUT=$(sed -n 's/^timeout=\([0-9][0-9]*\).*/\1/p' settings 2>/dev/null | tail -n 1)
[ -n "$TIMEOUT" ] || TIMEOUT=45

if [ $# -gt 0 ]; then
	TESTS=$*
else
	TESTS=$(ls test_*.sh 2>/dev/null | sort)
fi
N=0
for t in $TESTS; do N=$((N + 1)); done

# busybox >= 1.30 / coreutils: "timeout SECS PROG"; older busybox: "-t SECS"
if timeout 5 true 2>/dev/null; then
	TO="timeout $TIMEOUT"
elif timeout -t 5 true 2>/dev/null; then
	TO="timeout -t $TIMEOUT"
else
	TO=
fi

if [ -d /tmp ] && [ -w /tmp ]; then
	RCF=/tmp/kpe_rc.$$
else
	RCF=$DIR/.kpe_rc.$$
fi

echo "TAP version 13"
echo "1..$N"
[ -n "$TO" ] || echo "# no usable timeout command, running without a time limit"

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
		echo "not ok $i $t"
		failed=$((failed + 1))
		continue
	fi
	rm -f "$RCF"
	{
		$TO sh "./$t" 2>&1
		echo $? > "$RCF"
	} | sed -e '/^#/!s/^/# /'
	rc=$(cat "$RCF" 2>/dev/null)
	rm -f "$RCF"
	case "$rc" in
	0)
		echo "ok $i $t"
		passed=$((passed + 1))
		;;
	4)
		echo "ok $i $t # SKIP"
		skipped=$((skipped + 1))
		;;
	*)
		case "$rc" in
		124 | 137 | 143) echo "# $t: timed out after $TIMEOUT s (rc=$rc)" ;;
		*) echo "# $t: exit code ${rc:-unknown}" ;;
		esac
		echo "not ok $i $t"
		failed=$((failed + 1))
		;;
	esac
done

echo "# kpe-summary: passed=$passed failed=$failed skipped=$skipped"
[ $failed -eq 0 ]
