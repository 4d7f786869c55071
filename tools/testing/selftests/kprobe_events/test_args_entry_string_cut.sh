#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a string a return probe took at the entry, cut short
# where the record is full, still ends with a NUL inside its bytes (a
# filter comparing it whole matches the cut string, and reading trace
# stays within the record)
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# The record holds TKP_MAX_RECORD (4000) bytes.  Strings fetched at the
# return fill it up to ROOM bytes before the last field, fn, the
# 120-character file name do_sys_openat2() was called with, taken at the
# entry: it is cut to ROOM bytes, the last of them the NUL.  The fillers:
# K copies of linux_banner (/proc/version's text: B bytes with its NUL),
# which cost few characters of the definition each, and M immediate
# strings that make up the rest.
ROOM=40
LIMIT=4000
Q=$(printf "%115s" | tr " " q)
P=/tmp/$Q		# 5 + 115 = 120 characters
[ ${#P} = 120 ] || fail "path is ${#P} characters, not 120"
B=$(($(wc -c < /proc/version) + 1))

# define K LENGTHS...: the probe with K banners and immediate strings of
# the given lengths
define() {
	_args=
	_i=0
	while [ $_i -lt "$1" ]; do
		_args="$_args b$_i=@linux_banner:string"
		_i=$((_i + 1))
	done
	shift
	_i=0
	for _l in "$@"; do
		_args="$_args g$_i=\\\"$(printf "%${_l}s" | tr ' ' g)\""
		_i=$((_i + 1))
	done
	echo "r:kprobes/cut do_sys_openat2$_args fn=+0(\$arg2):ustring"
}
# The fixed part of the record: the end of the last field in format.
rec_size() {
	sed -n 's/.*offset:\([0-9]*\);[[:space:]]*size:\([0-9]*\);.*/\1 \2/p' \
		"$(ev_dir cut)/format" | awk '{ e = $1 + $2; if (e > m) m = e } END { print m }'
}
# plan R: "K LENGTHS..." filling the record to ROOM bytes before fn, if
# the fixed part is R with fn alone (each string field adds 4 bytes)
plan() {
	awk -v r="$1" -v b="$B" -v lim=$LIMIT -v room=$ROOM 'BEGIN {
		for (k = int((lim - r) / b); k >= 0; k--)
			for (m = 1; m <= 12; m++) {
				need = lim - room - r - 4 * (k + m) - k * b
				if (need < 2 * m || need > 59 * m)
					continue
				printf "%d", k
				for (i = 0; i < m; i++) {
					l = int(need / (m - i))
					need -= l
					printf " %d", l - 1
				}
				print ""
				exit
			}
		exit 1
	}'
}

expect_ok "$(define 0)"
R1=$(rec_size)
expect_ok "-:kprobes/cut"
# shellcheck disable=SC2046
set -- $(plan "$R1") || fail "no filling for a fixed part of $R1"
expect_ok "$(define "$@")"
R=$(rec_size)
log "banner $B bytes, fixed part $R1 alone, $R with $1 banners and immediate strings of $(shift; echo "$@")"
# Each string field adds 4 bytes (its __data_loc word), and no padding.
[ "$R" = $((R1 + 4 * ($1 + $# - 1))) ] ||
	fail "the fixed part is $R bytes, not $R1 + 4 per field"

cut=$(echo "$P" | cut -c1-$((ROOM - 1)))
E=$(ev_dir cut)
open_it() {
	cat "$P" 2>/dev/null
	cat "$P" 2>/dev/null
}

# Without a filter: the event fires on the open.
enable_ev cut
open_it
disable_ev cut
n=$(count_trace " cut: (")
log "records: $n"
[ "$n" -gt 0 ] || fail "no cut record"

# The filter compares the field's bytes to the cut name with its NUL.
quiet_write "fn == \"$cut\"" "$E/filter" || fail "cannot set the filter"
echo > "$T/trace"
enable_ev cut
open_it
disable_ev cut
n=$(count_trace " cut: (")
log "records matching fn == the first $((ROOM - 1)) characters: $n"
quiet_write 0 "$E/filter"
[ "$n" -gt 0 ] || fail "the cut string is not the name's first $((ROOM - 1)) characters and a NUL"
# Reading the records (each line is cut by the trace_seq) stays sane.
cat "$T/trace" > /dev/null || fail "cannot read trace"
reset || fail "cleanup failed"
pass
