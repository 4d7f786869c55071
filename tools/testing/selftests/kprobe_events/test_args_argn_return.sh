#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: $argN in a return probe is taken at the function's entry,
# dereferences and strings included: the file name an open was given,
# next to what it returned
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

expect_ok 'r:opr do_sys_openat2 fn=+0($arg2):ustring dfd=$arg1:s32 ret=$retval:s32'
enable_ev opr
cat /proc/version > /dev/null
cat /kpe-no-such-file > /dev/null 2>&1
disable_ev opr
ok=$(grep -cE ' opr: \(.* <- do_sys_openat2\) fn="/proc/version" dfd=-100 ret=[0-9]+$' "$T/trace")
enoent=$(grep -cE ' opr: \(.* <- do_sys_openat2\) fn="/kpe-no-such-file" dfd=-100 ret=-2$' "$T/trace")
log "open of /proc/version: $ok records; of a missing file (ENOENT): $enoent"
[ "$ok" -gt 0 ] || rfail opr "no record of the open of /proc/version with its name"
[ "$enoent" -gt 0 ] || rfail opr "no record of the failed open with its name and -2"
reset || fail "cleanup failed"
pass
