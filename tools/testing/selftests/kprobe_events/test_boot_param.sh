#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a probe given as kprobe_event= on the kernel command line records from boot
. "$(dirname "$0")/lib.sh"

# The guest's init saved kprobe_events and the probe's first records
# before any test ran (make check boots with
# kprobe_event=p:kpe_boot,do_sys_openat2,fn=+0(%si):ustring).
grep -q 'kprobe_event=' /proc/cmdline || skip "no kprobe_event= on the kernel command line"
[ -f /tmp/kpe-boot-events ] || skip "no boot-time snapshot (not run by make check)"
dump /tmp/kpe-boot-events
grep -qxF 'p:kprobes/kpe_boot do_sys_openat2 fn=+0('"$KPE_ARG2_REG"'):ustring' /tmp/kpe-boot-events ||
	fail "the boot probe is not listed as defined"
dump /tmp/kpe-boot-trace
[ -s /tmp/kpe-boot-trace ] || fail "the boot probe recorded nothing"
grep -q ' kpe_boot: (do_sys_openat2+0x0/0x[0-9a-f]*) fn="/' /tmp/kpe-boot-trace ||
	fail "boot records do not show the opened file names"
# init (pid 1) opened files before any test could have enabled anything.
grep -q -- '-1 *\[' /tmp/kpe-boot-trace || fail "no record from init (pid 1)"
pass
