#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: one event over every function ftrace can hook (p:all/a *): defined, enabled, hit, disabled, cleared; a module unloaded while it is enabled
#
# "*" matches every function name: the event hooks every function ftrace
# can hook (available_filter_functions), less those kprobes refuse (a
# note in error_log says how many).  Every call then records.  kpe_kmod
# is loaded when the event is defined and unloaded while it is enabled:
# its hooks go with it, the rest keep firing.  On a kernel with KASAN
# (make check-debug) the pattern is "[a-m]*", about half of them, to keep
# the run's time in bounds; make check and make bench take "*".
. "$(dirname "$0")/lib.sh"
all_setup all/a
quiet_write "" "$T/error_log"
expect_ok "p:all/a $PAT"
listing_has "p:all/a $PAT" || fail "listing: $(listing)"
[ "$(nr_probes)" = 1 ] || fail "the pattern listed as $(nr_probes) probes"
grep -qE 'Note: (more than )?[0-9]+ matching functions cannot be probed; skipped' "$T/error_log" ||
	fail "no note of the functions kprobes refuse: $(cat "$T/error_log")"
log "$(grep -o 'Note: .*' "$T/error_log")"

enable_ev all/a
all_hooked functions
all_exact
all_kmod_hit ' a: \(kpe_traced_fn\+0x0/' "record of kpe_kmod's kpe_traced_fn"
# The shell's own open and read (no fork), then the buffer stops before
# the event is disabled: switching 20,000 hooks off records enough to
# wrap it.
read -r _ < /proc/version
echo 0 > "$T/tracing_on"
disable_ev all/a
echo 1 > "$T/tracing_on"
nfun=$(grep -oE ' a: \([A-Za-z0-9_.]+\+0x0/' "$T/trace" | sort -u | wc -l)
log "records of $nfun distinct functions"
[ "$nfun" -ge 50 ] || fail "records of only $nfun functions"
# (In both patterns, and called from another file: not inlined.)
grep -q ' a: (do_filp_open+0x0/' "$T/trace" ||
	fail "no record of do_filp_open (the shell opened /proc/version)"

hits=$(profile_hits a)
[ "$hits" -gt 0 ] || fail "kprobe_profile counts no hits"

# Cleared: every hook goes.
reset || fail "cleanup failed"
[ "$(wc -l < "$KPLIST")" = 0 ] || fail "hooks left after clearing: $(head -n 3 "$KPLIST")"
pass
