#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: fuzz kprobe_events and dynamic_events; a refused write changes nothing
#
# KPE_FUZZ_LINES lines (default 100000; make check-debug: 10000) from
# kpe_fuzz's grammar and mutations, seeded by KPE_FUZZ_SEED (default: the
# clock; the seed is printed).  Repeat a run exactly with
#   make check TESTS=test_fuzz.sh KPE_FUZZ_SEED=N KPE_FUZZ_LINES=N
# timeout: 900
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

FUZZ=$DIR/kpe_fuzz
[ -x "$FUZZ" ] || fail "$FUZZ missing (build with make)"
lines=${KPE_FUZZ_LINES:-100000}
seed=${KPE_FUZZ_SEED:-$(( $(date +%s) % 1000000 ))}

# The module the MOD:SYM lines name stays out: waiting probes are fuzzed.
rmmod trace-printk 2>/dev/null

out=/tmp/kpe_fuzz.$$
# Its output (progress every 10000 lines) is kept in $out, its status in $out.rc.
{ "$FUZZ" -n "$lines" -s "$seed" -t "$T" 2>&1; echo $? > "$out.rc"; } |
	cut -c 1-600 | tee "$out" | sed 's/^/# /'
rc=$(cat "$out.rc" 2>/dev/null)
summary=$(grep '^kpe_fuzz: lines=' "$out")
rm -f "$out" "$out.rc"
[ "$rc" = 0 ] || fail "kpe_fuzz failed (rc=${rc:-none}, seed $seed)"

# The counts add up and the run did both: accept and refuse lines.
set -- $(echo "$summary" | sed 's/[a-z]*=//g; s/kpe_fuzz://')
[ $# -ge 3 ] || fail "no summary line from kpe_fuzz"
[ "$1" = "$lines" ] || fail "kpe_fuzz wrote $1 lines, expected $lines"
[ $(($2 + $3)) -eq "$lines" ] || fail "accepted $2 + refused $3 != $lines"
[ "$2" -gt 0 ] || fail "no line was accepted: the grammar is off"
[ "$3" -gt 0 ] || fail "no line was refused: the mutations are off"

# The tracer still works after the fuzzing.
[ -z "$(listing)" ] || fail "probes left after kpe_fuzz's final clear"
expect_ok "p:after_fuzz vfs_read"
fire after_fuzz
[ "$(count_trace " after_fuzz: (")" -gt 0 ] || fail "no record after the fuzzing"

reset || fail "cleanup failed"
pass
