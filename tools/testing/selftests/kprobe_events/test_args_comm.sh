#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: $comm records the current task's comm as a string
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

def='vfs_read c=$comm c2=$comm:string'
expect_ok "p:cm $def"
listing_has "p:kprobes/cm $def" || fail "listing lacks 'p:kprobes/cm $def'"
fmt=$T/events/kprobes/cm/format
for fld in "field:__data_loc char[] c;" "field:__data_loc char[] c2;"; do
	grep -qF "$fld" "$fmt" || { dump "$fmt"; fail "cm format lacks '$fld'"; }
done

mycomm=$(cat /proc/$$/comm)
log "shell pid $$, comm '$mycomm'"
fire cm

total=$(count_trace " cm: (")
log "cm records: $total"
[ "$total" -gt 0 ] || fail "no 'cm: (' record in trace"
parsed=0
mine=0
heads=0
bad=0
while IFS='|' read -r pid c c2; do
	[ -n "$pid" ] || continue
	parsed=$((parsed + 1))
	[ "$c" = "$c2" ] || { bad=$((bad + 1)); log "pid $pid: c=\"$c\" c2=\"$c2\""; }
	[ "$c" = head ] && heads=$((heads + 1))
	if [ "$pid" = $$ ]; then
		mine=$((mine + 1))
		[ "$c" = "$mycomm" ] ||
			{ bad=$((bad + 1)); log "pid $pid (this shell): c=\"$c\", want \"$mycomm\""; }
	fi
done <<EOT
$(sed -n 's/^.*-\([0-9][0-9]*\) *\[[0-9][0-9]*\].* cm: (vfs_read+0x0\/0x[0-9a-f]*) c="\([^"]*\)" c2="\([^"]*\)"$/\1|\2|\3/p' "$T/trace")
EOT
log "parsed $parsed records: $mine from this shell, $heads with c=\"head\", $bad wrong"
[ "$parsed" = "$total" ] || rfail cm "malformed cm records (want 'c=\"COMM\" c2=\"COMM\"')"
[ "$bad" = 0 ] || rfail cm "$bad records with a wrong comm"
[ "$mine" -gt 0 ] || rfail cm "no record from this shell (pid $$)"
[ "$heads" -gt 0 ] || rfail cm "no record with c=\"head\" (trigger runs head)"

expect_refused EINVAL 'p:cmu vfs_read c=$comm:u32'

reset || fail "cleanup failed"
pass
