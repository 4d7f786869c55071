#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: string/ustring fetch a user and a kernel file name
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

# do_sys_openat2(int dfd, const char __user *filename, struct open_how *how)
udef='do_sys_openat2 fn=+0('"$KPE_ARG2_REG"'):ustring fu=+u0('"$KPE_ARG2_REG"'):string'
# do_filp_open(int dfd, struct filename *pathname, ...); pathname->name
# (the first member) points to the kernel copy of the file name
kdef='do_filp_open name=+0(+0('"$KPE_ARG2_REG"')):string'
expect_ok "p:us $udef"
expect_ok "p:ks $kdef"
listing_has "p:kprobes/us $udef" || fail "listing lacks 'p:kprobes/us $udef'"
listing_has "p:kprobes/ks $kdef" || fail "listing lacks 'p:kprobes/ks $kdef'"
for fld in "us field:__data_loc char[] fn;" "us field:__data_loc char[] fu;" \
	"ks field:__data_loc char[] name;"; do
	f=$T/events/kprobes/${fld%% *}/format
	grep -qF "${fld#* }" "$f" || { dump "$f"; fail "${fld%% *} format lacks '${fld#* }'"; }
done

enable_ev us
enable_ev ks
trigger
disable_ev us
disable_ev ks

utotal=$(count_trace " us: (")
ktotal=$(count_trace " ks: (")
log "records: us $utotal, ks $ktotal"
[ "$utotal" -gt 0 ] || fail "no 'us: (' record in trace"
[ "$ktotal" -gt 0 ] || fail "no 'ks: (' record in trace"

# every us record has two equal strings
good=$(grep -cE ' us: \(do_sys_openat2\+0x0/0x[0-9a-f]+\) fn="[^"]*" fu="[^"]*"$' "$T/trace")
[ "$good" = "$utotal" ] || rfail us "malformed us records (want 'fn=\"NAME\" fu=\"NAME\"')"
diff=$(sed -n 's/^.* us: (.*) fn="\([^"]*\)" fu="\([^"]*\)"$/\1|\2/p' "$T/trace" |
	awk -F'|' '$1 != $2' | wc -l | tr -d ' ')
[ "$diff" = 0 ] || rfail us "$diff us records where ustring and +u0():string differ"
good=$(grep -cE ' ks: \(do_filp_open\+0x0/0x[0-9a-f]+\) name="[^"]*"$' "$T/trace")
[ "$good" = "$ktotal" ] || rfail ks "malformed ks records (want 'name=\"NAME\"')"

uver=$(count_trace ' fn="/proc/version" fu="/proc/version"')
kver=$(grep -F ' ks: (do_filp_open+0x0/' "$T/trace" | grep -cF ' name="/proc/version"')
log "opens of /proc/version: us $uver, ks $kver"
[ "$uver" -gt 0 ] || rfail us "no us record with fn=\"/proc/version\""
[ "$kver" -gt 0 ] || rfail ks "no ks record with name=\"/proc/version\""
# each open(2) of /proc/version reaches do_filp_open exactly once
[ "$uver" = "$kver" ] || fail "us saw $uver opens of /proc/version, ks $kver"

reset || fail "cleanup failed"
pass
