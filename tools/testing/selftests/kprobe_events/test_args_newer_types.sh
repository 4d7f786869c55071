#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: char, symstr, %pd, %pD and string arrays: format, records, refusals
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# char: the directory of a new event "test" is made by a function whose
# first argument is its name: tracefs_create_dir() up to Linux 6.5,
# eventfs_create_dir() since (tracefs' eventfs).
dirfn=tracefs_create_dir
grep -q " eventfs_create_dir$" /proc/kallsyms && dirfn=eventfs_create_dir
cdef="$dirfn c=+0($KPE_ARG1_REG):char c4=+0($KPE_ARG1_REG):char[4]"
expect_ok "p:ch $cdef"
listing_has "p:kprobes/ch $cdef" || fail "listing lacks 'p:kprobes/ch $cdef'"
fmt_has ch "field:char c;"
fmt_has ch "field:char c4["
# hexadecimal in the print fmt: libtraceevent has no %c
fmt_has ch "c=0x%x c4={0x%x,0x%x,0x%x,0x%x}"
enable_ev ch
expect_ok "p:test vfs_read"
disable_ev ch
grep -qF " ch: ($dirfn+0x0/" "$T/trace" || rfail ch "no ch record"
grep -qF "c='t' c4={'t','e','s','t'}" "$T/trace" ||
	rfail ch "no record of \"test\" as c='t' c4={'t','e','s','t'}"
reset || fail "reset failed"

# symstr: the caller's address, as "sym+off/size"; a register value too
sdef="vfs_read s=$KPE_RA_ARG:symstr f=$KPE_IP_REG:symstr"
expect_ok "p:sy $sdef"
listing_has "p:kprobes/sy $sdef" || fail "listing lacks 'p:kprobes/sy $sdef'"
fmt_has sy "field:__data_loc char[] s;"
fmt_has sy 's=\"%s\"'
fire sy
total=$(count_trace " sy: (")
[ "$total" -gt 0 ] || fail "no sy record"
good=$(grep -cE ' sy: \(vfs_read\+0x0/0x[0-9a-f]+\) s="[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+" f="vfs_read\+0x[0-9a-f]+/0x[0-9a-f]+"$' "$T/trace")
[ "$good" = "$total" ] ||
	rfail sy "$((total - good)) of $total sy records not s=\"SYM+0xOFF/0xSIZE\" f=\"vfs_read+0x../0x..\""
# symstr is a string: filters match it by glob
echo 's ~ "ksys_read*"' > "$(ev_dir sy)/filter" || fail "cannot set a glob filter on symstr"
reset || fail "reset failed"

# %pD: vfs_read(struct file *file, ...); %pd: dput(struct dentry *)
expect_ok "p:pf vfs_read n=\$arg1:%pD"
expect_ok "p:pd dput n=\$arg1:%pd"
expect_ok "r:rf vfs_read n=\$arg1:%pD"
fmt_has pf "field:__data_loc char[] n;"
fmt_has pd "field:__data_loc char[] n;"
enable_ev pf
enable_ev pd
enable_ev rf
read -r _l < /proc/version
disable_ev pf
disable_ev pd
disable_ev rf
grep -qE ' pf: \(vfs_read\+0x0/0x[0-9a-f]+\) n="version"$' "$T/trace" ||
	rfail pf "no pf record of /proc/version as n=\"version\""
grep -qE ' pd: \(dput\+0x0/0x[0-9a-f]+\) n="version"$' "$T/trace" ||
	rfail pd "no pd record of /proc/version's dentry as n=\"version\""
grep -qE ' rf: \([a-z_0-9.]+\+0x[0-9a-f]+/0x[0-9a-f]+ <- vfs_read\) n="version"$' "$T/trace" ||
	rfail rf "no rf record (taken at entry) with n=\"version\""
reset || fail "reset failed"

# string[N]: N pointers at the address, a string at each.
# saved_command_line is a char *: @saved_command_line holds one pointer.
kdef="vfs_read a=@saved_command_line:string[1] b=+0(@saved_command_line):string"
expect_ok "p:sa $kdef"
fmt_has sa "field:__data_loc char[] a;"
grep -qE "field:__data_loc char\[\] a;.*size:4;" "$T/events/kprobes/sa/format" ||
	fail "sa: a string[1] is not one __data_loc word"
fire sa
total=$(count_trace " sa: (")
[ "$total" -gt 0 ] || fail "no sa record"
same=$(sed -n 's/^.* sa: (.*) a={\(".*"\)} b=\(".*"\)$/\1|\2/p' "$T/trace" |
	awk -F'|' '$1 == $2' | wc -l | tr -d ' ')
[ "$same" = "$total" ] ||
	rfail sa "string[1] of a pointer differs from +0(pointer):string"
reset || fail "reset failed"

# Events that print near or more than a page per line: three arrays of
# 64 strings (the record's room caps them: later elements are cut to
# ""), and hundreds of numbers in hexadecimal (cut, ending " ...").  Each record
# still makes one line, in trace and in trace_pipe.
expect_ok "p:big vfs_read a=@tkp_err_text:string[64] b=@tkp_err_text:string[64] c=@tkp_err_text:string[64]"
# A line is printed into a trace_seq: a page up to Linux 6.6, 8 KiB since.
# hex's numbers (kernel addresses, 19 characters each as x64) are more
# than that holds.
case $(uname -r) in
[1-5].* | 6.[0-6].*)
	seqmax=4096
	expect_ok "p:hex vfs_read a=@tkp_err_text:x64[64] b=@tkp_err_text:x64[64] c=@tkp_err_text:x64[64] d=@tkp_err_text:x64[63]" ;;
*)
	# 8 KiB: nearly the 2 KiB of fixed fields a record may have, as the
	# bytes of kernel addresses, nearly all printed in 5 characters
	# ("0xff,")
	seqmax=8192
	bytes=
	i=0
	while [ $i -lt 31 ]; do
		bytes="$bytes b$i=@tkp_err_text:x8[64]"
		i=$((i + 1))
	done
	expect_ok "p:hex vfs_read$bytes" ;;
esac
enable_ev big
enable_ev hex
read -r _l < /proc/version
disable_ev big
disable_ev hex
lost=$(cat "$T"/per_cpu/cpu*/stats | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
for ev in big hex; do
	hits=$(profile_hits $ev)
	lines=$(count_trace " $ev: (")
	whole=$(grep -cE " $ev: \(.*(}| \.\.\.)\$" "$T/trace")
	log "$ev: $hits hits, $lines lines, $whole ending '}' or ' ...'"
	[ "$hits" -gt 0 ] || fail "$ev was never hit"
	# (the ring buffer may have overwritten the oldest: counted as lost)
	[ $((lines + lost)) -ge "$hits" ] ||
		fail "$ev: $hits hits but $lines lines in trace ($lost lost)"
	[ "$whole" = "$lines" ] || fail "$ev: $((lines - whole)) lines cut short"
	[ "$(grep " $ev: (" "$T/trace" | awk -v max="$seqmax" '{ if (length($0) > max) n++ } END { print n + 0 }')" = 0 ] ||
		fail "$ev: a line longer than the kernel's trace_seq ($seqmax)"
done
grep -qE ' hex: \(.* \.\.\.$' "$T/trace" ||
	rfail hex "hex lines not cut with ' ...'"
grep -qE ' big: \(.* c=\{"",' "$T/trace" ||
	rfail big "big: c's strings not cut to \"\" for want of room"
# (It blocks once drained, a fraction of a second: 2 s are plenty.)
timeout 2 cat "$T/trace_pipe" > /tmp/kpe_big_pipe
[ "$(grep -cE ' (big|hex): \(.*(}| \.\.\.)$' /tmp/kpe_big_pipe)" = "$(grep -cE ' (big|hex): \(' /tmp/kpe_big_pipe)" ] ||
	fail "trace_pipe has big/hex lines cut short"
[ "$(grep -cE ' (big|hex): \(' /tmp/kpe_big_pipe)" -gt 0 ] ||
	fail "trace_pipe has no big/hex line"
rm -f /tmp/kpe_big_pipe
reset || fail "reset failed"

# ustring[N]: the argv of an execve(), a user array of user strings, read
# through the saved user registers (x86_64: regs->si at 104; arm64:
# regs->regs[1] at 8)
if [ "$KPE_ARCH" = x86_64 ]; then
	adef="${KPE_SYS}execve argv=+0(+104($KPE_ARG1_REG)):ustring[4]"
else
	adef="${KPE_SYS}execve argv=+0(+8($KPE_ARG1_REG)):ustring[4]"
fi
expect_ok "p:av $adef"
fmt_has av "field:__data_loc char[] argv;"
grep -qE "field:__data_loc char\[\] argv;.*size:16;" "$T/events/kprobes/av/format" ||
	fail "av: a ustring[4] is not four __data_loc words"
enable_ev av
/bin/busybox true kpe1 kpe2
disable_ev av
grep -qF 'argv={"/bin/busybox","true","kpe1","kpe2"}' "$T/trace" ||
	rfail av "no av record of argv {\"/bin/busybox\",\"true\",\"kpe1\",\"kpe2\"}"
reset || fail "reset failed"

# trace-cmd (libtraceevent) decodes these events, a field after each new
# type included: no "FAILED TO PARSE", no argument shifted.
if command -v trace-cmd >/dev/null; then
	W=/tmp/kpe-nt
	rm -rf "$W"
	mkdir -p "$W" || fail "cannot make $W"
	expect_ok "p:tn vfs_read c=@linux_banner:char a=@saved_command_line:string[2] s=\$arg1:%pD y=$KPE_RA_ARG:symstr k=\\4660"
	(cd "$W" && trace-cmd start -e kprobes:tn > "$W/tc.out" 2>&1 &&
		read -r _l < /proc/version &&
		trace-cmd stop >> "$W/tc.out" 2>&1 &&
		trace-cmd extract -o "$W/trace.dat" >> "$W/tc.out" 2>&1) ||
		{ dump "$W/tc.out"; fail "trace-cmd start/stop/extract failed"; }
	echo 0 > "$T/events/kprobes/tn/enable"
	echo 1 > "$T/tracing_on"
	trace-cmd report -i "$W/trace.dat" > "$W/report.txt" 2>&1 ||
		{ dump "$W/report.txt"; fail "trace-cmd report failed"; }
	grep -q "FAILED TO PARSE" "$W/report.txt" &&
		{ dump "$W/report.txt"; fail "trace-cmd could not parse tn"; }
	grep -qE ' tn: .* c=0x4c .*s="version" .*k=0x1234$' "$W/report.txt" ||
		{ dump "$W/report.txt"; fail "trace-cmd report lacks c=0x4c ... s=\"version\" ... k=0x1234"; }
	rm -rf "$W"
	reset || fail "reset failed"
fi

# refusals: EINVAL, nothing changed, an error_log entry
expect_ok "p:keep vfs_read"
expect_refused EINVAL 'p:bad vfs_read c=$comm:symstr'
expect_refused EINVAL "p:bad vfs_read s=+0($KPE_ARG1_REG):symstr[2]"
grep -qF "This type has no arrays" "$T/error_log" ||
	{ dump "$T/error_log"; fail "error_log lacks 'This type has no arrays'"; }
expect_refused EINVAL "p:bad vfs_read n=\$arg1:%pd[2]"
expect_refused EINVAL "r:bad vfs_read a=+0(\$arg2):string[2]"
grep -qF "String arrays are not taken at function entry" "$T/error_log" ||
	{ dump "$T/error_log"; fail "error_log lacks the entry string-array message"; }
expect_refused EINVAL "p:bad vfs_read a=$KPE_ARG1_REG:string[2]"
expect_refused EINVAL "p:bad vfs_read c=$KPE_ARG1_REG:chr"
listing_has "p:kprobes/keep vfs_read" || fail "refusals lost p:kprobes/keep"

reset || fail "cleanup failed"
pass
