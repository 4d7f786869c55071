#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: $duration in a return probe records the nanoseconds since
# the function's entry, as a u64 field a histogram can sum
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_refused EINVAL "p:nodur vfs_read \$duration"
expect_ok "r:dur hrtimer_nanosleep \$duration"
listing_has "r:kprobes/dur hrtimer_nanosleep duration=\$duration" ||
	fail "unnamed \$duration is not listed as duration=\$duration"
grep -qF "field:u64 duration;" "$(ev_dir dur)/format" ||
	fail "no 'u64 duration' field in the format"
quiet_write "hist:keys=common_pid:vals=duration" "$(ev_dir dur)/trigger" ||
	fail "cannot set a histogram on duration"
enable_ev dur
sleep 1
disable_ev dur
d=$(grep -E '^ *sleep-[0-9]+ .* dur: \(' "$T/trace" | head -n 1 |
	sed -n 's/.* duration=\([0-9]*\)$/\1/p')
log "sleep 1 took $d ns in hrtimer_nanosleep"
[ -n "$d" ] || rfail dur "no decimal duration for sleep 1"
[ "$d" -ge 900000000 ] && [ "$d" -le 3000000000 ] ||
	fail "sleep 1 took $d ns?"
grep -qE 'duration: +[0-9]{9,}' "$(ev_dir dur)/hist" || {
	dump "$(ev_dir dur)/hist"
	fail "the histogram does not sum the duration"
}
quiet_write "!hist:keys=common_pid:vals=duration" "$(ev_dir dur)/trigger"
reset || fail "cleanup failed"
pass
