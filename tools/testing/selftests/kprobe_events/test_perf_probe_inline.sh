#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: what perf probe defines for a function inlined in several
# places (one event whose places fetch the variable from different
# registers or the stack), made on the host from vmlinux's DWARF with
# "perf probe -k vmlinux -D 'file_start_write file'", is taken, listed as
# written, and each place records the file its own fetch reads
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

DEFS=$DIR/perf_probe_inline.txt
WFILE=/tmp/kpe_ppi.$$
[ -s "$DEFS" ] ||
	skip "no $DEFS (perf or the kernel's vmlinux missing when the initramfs was made)"

log "perf probe's definitions:"
sed 's/^/#   /' "$DEFS"
# perf may write a place whose variable DWARF gives as a constant as an
# immediate that is no number (Debian 12's perf on Linux 6.12's vmlinux:
# "file=\deade12d"): the kernel's syntax has \IMM start with a digit or
# a sign, and the kernel's own tracer refuses it too.  Such a place must
# be refused the same way; the others make the test.
ALL=$DEFS
DEFS=/tmp/kpe_ppi_defs.$$
grep -v '=\\[^0-9+"-]' "$ALL" > "$DEFS"
grep '=\\[^0-9+"-]' "$ALL" > "$DEFS.bad"
while read -r line; do
	expect_refused EINVAL "$line"
	grep -q "trace_kprobe: error: " "$T/error_log" ||
		fail "no error_log entry for '$line'"
done < "$DEFS.bad"
rm -f "$DEFS.bad"
lines=$(grep -c '^[pr]' "$DEFS")
event=$(sed -n '1s/^[pr][0-9]*:\([^ ]*\) .*/\1/p' "$DEFS")
[ -n "$event" ] || fail "no GROUP/EVENT in the first definition"
[ "$(sed -n 's/^[pr][0-9]*:\([^ ]*\) .*/\1/p' "$DEFS" | sort -u)" = "$event" ] ||
	fail "the definitions are not all of $event"
# At least two places fetch differently, or this proves no more than
# test_multiprobe.sh does.
fetches=$(cut -d' ' -f3- "$DEFS" | sort -u | wc -l)
log "$lines places of $event, $fetches different argument texts"
[ "$lines" -ge 2 ] || fail "perf probe gave one place only"
[ "$fetches" -ge 2 ] || fail "every place fetches alike"

while read -r line; do
	expect_ok "$line"
done < "$DEFS"
while read -r line; do
	listing_has "$line" || fail "not listed as written: $line"
done < "$DEFS"
[ "$(nr_probes)" = "$lines" ] || fail "expected $lines places, $(nr_probes) listed"
name=${event#*/}

# What each place must record: the file being written to, which the
# callers of the places below get as an argument.  write() goes through
# vfs_write(), busybox cat's sendfile() through do_splice_direct(),
# busybox fallocate through vfs_fallocate() (on 6.12 the splice's place
# is the one refused above: fallocate's fetches differently from write's).
expect_ok 'p:kpe_ref/w vfs_write file='"$KPE_ARG1_REG"':x64'
expect_ok 'p:kpe_ref/s do_splice_direct file='"$KPE_ARG3_REG"':x64'
expect_ok 'p:kpe_ref/f vfs_fallocate file='"$KPE_ARG1_REG"':x64'
# References first on, last off: every record of the event has its own.
enable_ev kpe_ref/w
enable_ev kpe_ref/s
enable_ev kpe_ref/f
enable_ev "$event"
echo x > "$WFILE"
cat /proc/version > "$WFILE"
fallocate -l 8192 "$WFILE" 2>/dev/null
disable_ev "$event"
disable_ev kpe_ref/f
disable_ev kpe_ref/s
disable_ev kpe_ref/w
rm -f "$WFILE"

# file=VALUE of a record of EVENT from functions matching FUNC_RE
values() {
	grep -E " $1: \($2\+0x[0-9a-f]+/0x[0-9a-f]+\) file=0x[0-9a-f]+\$" "$T/trace" |
		sed 's/.* file=//' | sort -u
}
refs=$( (values w 'vfs_write'; values s 'do_splice_direct'
	 values f 'vfs_fallocate') | sort -u)
log "files the references saw: $(echo $refs)"
[ -n "$refs" ] || fail "the reference probes recorded nothing"

total=$(count_trace " $name: (")
log "$name records: $total"
[ "$total" -gt 0 ] || fail "no $name record"
grep -F " $name: (" "$T/trace" | grep -vqE " file=0x[0-9a-f]+\$" &&
	rfail "$name" "$name records without file=0x..."
# Place by place: every file recorded is one the references saw.
hit_texts=
for func in $(grep -F " $name: (" "$T/trace" |
	sed -n 's/.* (\([a-zA-Z_0-9.]*\)+0x.*/\1/p' | sort -u); do
	odd=
	for v in $(values "$name" "$func"); do
		echo "$refs" | grep -qxF "$v" || odd="$odd $v"
	done
	text=$(grep -E "^[pr][0-9]*:$event $func\\+" "$DEFS" | cut -d' ' -f3- | sort -u)
	log "place $func ($text): $(values "$name" "$func" | wc -l) files"
	[ -z "$odd" ] ||
		fail "$func ($text) recorded files no reference saw:$odd"
	hit_texts="$hit_texts$NL$text"
done
n=$(echo "$hit_texts" | sed '/^$/d' | sort -u | wc -l)
log "records came from places with $n different argument texts"
[ "$n" -ge 2 ] || fail "no records from two places that fetch differently"

reset || fail "cleanup failed"
rm -f "$DEFS"
pass
