#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: event filters on fetch-arg fields (numeric and string)
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# set_filter EXPR: write EXPR to fl's filter, check it reads back
set_filter() {
	quiet_write "$1" "$F" || fail "cannot set filter '$1'"
	grep -qF "$1" "$F" || fail "filter '$1' does not read back: '$(cat "$F")'"
}

# run: clear trace, enable fl, trigger, disable fl
run() {
	echo > "$T/trace"
	fire fl
}

expect_ok 'p:fl vfs_read c='"$KPE_ARG3_REG"':u64 cm=$comm'
F=$T/events/kprobes/fl/filter

set_filter "c > 0"
run
n=$(count_trace " fl: (")
good=$(grep -cE ' fl: \(vfs_read\+0x0/0x[0-9a-f]+\) c=[1-9][0-9]* cm="[^"]*"$' "$T/trace")
log "filter 'c > 0': $n records ($good with c > 0)"
[ "$n" -gt 0 ] || fail "no record passes 'c > 0' (read counts are positive)"
[ "$good" = "$n" ] || rfail fl "records with c = 0 or malformed despite 'c > 0'"

set_filter "c == 0"
h0=$(profile_hits fl)
run
h1=$(profile_hits fl)
n=$(count_trace " fl: (")
log "filter 'c == 0': $n records, hits $h0 -> $h1"
[ "$h1" -gt "$h0" ] || fail "the probe did not fire under 'c == 0' (hits $h0 -> $h1)"
[ "$n" = 0 ] || rfail fl "$n records pass 'c == 0'"

set_filter 'cm == "head"'
run
n=$(count_trace " fl: (")
good=$(count_trace ' cm="head"')
log "filter 'cm == \"head\"': $n records ($good from head)"
[ "$n" -gt 0 ] || fail "no record passes 'cm == \"head\"' (trigger runs head)"
[ "$good" = "$n" ] || rfail fl "records from other tasks despite 'cm == \"head\"'"

quiet_write 0 "$F" || fail "cannot clear the filter"
run
n=$(count_trace " fl: (")
good=$(count_trace ' cm="head"')
log "no filter: $n records ($good from head)"
[ "$n" -gt "$good" ] || fail "no record from other tasks after clearing the filter"

reset || fail "cleanup failed"
pass
