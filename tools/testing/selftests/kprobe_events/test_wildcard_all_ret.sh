#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a return event over every function ftrace can hook (r:allr/r * d=$duration): defined, enabled, hit with durations, a module unloaded while it is enabled, disabled, cleared
#
# The return side of test_wildcard_all.sh: every function's return is
# hooked at its entry, and each return records its caller and how long
# the call took.  Nothing reads trace while the event records: a reader
# whose every call records at entry and return is lapped by its own
# records without end (the function_graph tracer's alike), so the buffer
# stops first.  On a kernel with KASAN the pattern is "[a-m]*".
. "$(dirname "$0")/lib.sh"
all_setup allr/r
quiet_write "" "$T/error_log"
expect_ok "r:allr/r $PAT d=\$duration"
listing_has "r:allr/r $PAT d=\$duration" || fail "listing: $(listing)"
[ "$(nr_probes)" = 1 ] || fail "the pattern listed as $(nr_probes) probes"
fmt_has allr/r 'field:u64 d;'
enable_ev allr/r
all_hooked returns
all_kmod_hit ' r: \(kpe_notrace_write\+0x[0-9a-f]+/0x[0-9a-f]+ \[kpe_kmod\] <- kpe_traced_fn\) d=[0-9]+$' \
	"return record of kpe_kmod's kpe_traced_fn"
read -r _ < /proc/version
echo 0 > "$T/tracing_on"
disable_ev allr/r
echo 1 > "$T/tracing_on"
nfun=$(grep -oE ' r: \(.* <- [A-Za-z0-9_.]+\) d=' "$T/trace" |
	sed 's/.* <- //' | sort -u | wc -l)
log "return records of $nfun distinct functions"
[ "$nfun" -ge 50 ] || fail "return records of only $nfun functions"
# The shell's open of /proc/version returned through do_filp_open (in
# both patterns; called from another file, not inlined), after a while.
rec=$(grep -m1 -E ' r: \(.* <- do_filp_open\) d=' "$T/trace") ||
	fail "no return record of do_filp_open"
d=${rec##*d=}
case $d in '' | *[!0-9]*) fail "do_filp_open's duration is not a number: $rec" ;; esac
[ "$d" -gt 0 ] || fail "do_filp_open took no time: $rec"
hits=$(profile_hits r)
[ "$hits" -gt 0 ] || fail "kprobe_profile counts no hits"
reset || fail "cleanup failed"
[ "$(wc -l < "$KPLIST")" = 0 ] || fail "hooks left after clearing: $(head -n 3 "$KPLIST")"
pass
