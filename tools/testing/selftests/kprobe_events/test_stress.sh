#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: probes fire on every CPU while others add, remove, clear, enable, filter, trigger, read and reload a module
#
# KPE_STRESS_SECS seconds (default 20; make check-debug: 60; longer, up to
# four times that or a minute more, until every kind of control operation
# was tried) of kpe_stress:
# callers on every CPU against entry, return, mid-function and module
# probes (string, deref, $comm, $stack arguments), while other threads
# add/remove/clear the probes, enable/disable them, set filters and hist
# triggers, enable them in a trace instance they create and remove, read
# the listings, load/unload the module, and read trace_pipe, checking
# that every record parses.  Afterwards the probes must clear and the
# tracer must still work.  Opening event files does not overlap removing
# events, unless KPE_STRESS_RACE=1: see kpe_stress.c (a use-after-free
# in Linux 6.1's tracing_open_file_tr(), not in the tracer).
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

STRESS=$DIR/kpe_stress
[ -x "$STRESS" ] || fail "$STRESS missing (build with make)"
secs=${KPE_STRESS_SECS:-20}
log "nproc: $(nproc)"

# A mid-function place: the first instruction boundary inside vfs_read.
find_offset vfs_read ok
[ -n "$OFFSET" ] || fail "no probeable offset in vfs_read+1..16"
log "mid-function probe at vfs_read+$OFFSET"

mod=$(find /lib/modules -name trace-printk.ko 2>/dev/null | head -n 1)
rmmod trace-printk 2>/dev/null
[ -n "$mod" ] || log "trace-printk.ko not found: no module churn"

out=/tmp/kpe_stress.$$
# Shown as it goes (a hang shows how far it got); its status is its
# last line, "kpe_stress: exit N".
race=
[ -n "${KPE_STRESS_RACE:-}" ] && race=-R
"$STRESS" -d "$secs" -m "$OFFSET" ${mod:+-k "$mod"} -t "$T" $race 2>&1 | tee "$out"
rc=$(sed -n 's/^kpe_stress: exit //p' "$out")
rec() { sed -n "s/^kpe_stress-records: $1 //p" "$out"; }
opsv() { sed -n "s/^kpe_stress-ops: .*$1=\([0-9]*\).*/\1/p" "$out"; }
# tried KIND: how often kpe_stress tried that kind of operation
tried() { sed -n "s/^kpe_stress-tried:.* $1=\([0-9]*\).*/\1/p" "$out"; }
r_open=$(rec st_open)
r_rret=$(rec st_rret)
r_mid=$(rec st_mid)
r_mod=$(rec st_mod)
n_add=$(opsv add)
n_rm=$(opsv remove)
n_clear=$(opsv clear)
n_load=$(opsv modload)
n_unload=$(opsv modunload)
untried=
for k in add remove clear enable disable trunc-trace filter trigger untrigger \
	 mkinstance inst-enable rminstance read-lists; do
	n=$(tried "$k")
	[ "${n:-0}" -gt 0 ] || untried="$untried $k"
done
rm -f "$out"
[ -n "$rc" ] || fail "kpe_stress did not finish"
[ "$rc" -eq 0 ] || fail "kpe_stress reported unexpected results or malformed records (rc=$rc)"

# Everything was exercised: records of the entry, return and mid-function
# probes, successful adds, removals and clears, module reloads.
for v in "$r_open" "$r_rret" "$r_mid" "$n_add" "$n_rm" "$n_clear"; do
	case "$v" in '' | *[!0-9]*) fail "kpe_stress printed no counts" ;; esac
done
[ "$r_open" -gt 0 ] || fail "no st_open (entry, string) record"
[ "$r_rret" -gt 0 ] || fail "no st_rret (return) record"
[ "$r_mid" -gt 0 ] || fail "no st_mid (mid-function) record"
[ "$n_add" -gt 0 ] && [ "$n_rm" -gt 0 ] || fail "no successful add or remove"
[ "$n_clear" -gt 0 ] || log "no clear succeeded (every try met an enabled event)"
[ -z "$untried" ] || fail "kinds of control operation never tried:$untried"
if [ -n "$mod" ]; then
	[ "$n_load" -gt 0 ] && [ "$n_unload" -gt 0 ] ||
		fail "the module was never loaded and unloaded ($n_load/$n_unload)"
	log "module loads: $n_load, st_mod records: $r_mod"
fi

# Afterwards: nothing enabled, no triggers, then clearing must work.
for d in "$T"/events/kprobes/* "$T"/events/stg/*; do
	[ -d "$d" ] || continue
	quiet_write '!hist:keys=common_pid' "$d/trigger"
	quiet_write 0 "$d/filter"
	quiet_write 0 "$d/enable"
done
rmdir "$T/instances/kpe_stress" 2>/dev/null
{ echo > "$T/kprobe_events"; } 2>/dev/null || fail "clearing after the stress failed"
[ -z "$(listing)" ] || fail "kprobe_events not empty after clearing"
[ -z "$(ls "$T/events/kprobes" "$T/events/stg" 2>/dev/null)" ] ||
	fail "event directories left after clearing: $(ls "$T/events/kprobes" "$T/events/stg" 2>/dev/null)"
rmmod trace-printk 2>/dev/null

# The kernel and the tracer still work.
expect_ok "p:after_stress vfs_read"
fire after_stress
[ "$(count_trace " after_stress: (")" -gt 0 ] || fail "no record after the stress"

reset || fail "cleanup failed"
pass
