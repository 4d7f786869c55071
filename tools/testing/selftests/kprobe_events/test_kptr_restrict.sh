#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: no kernel address in our files for a reader kptr_restrict hides them from
#
# Probes defined on a raw address (named and auto-named, entry and return,
# with symbol arguments) are listed, profiled, formatted and recorded.
# Then, for each reader from whom the kernel's own rule hides addresses
# in /proc/kallsyms (root with kptr_restrict=2; root without CAP_SYSLOG
# with kptr_restrict=1), nothing it can read of ours (kprobe_events,
# dynamic_events, kprobe_profile, format files, trace, the event
# directory names) may contain a kernel address.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

USER_HELPER=$DIR/kpe_user
[ -x "$USER_HELPER" ] || fail "$USER_HELPER missing (build with make)"
KR=/proc/sys/kernel/kptr_restrict
[ -w $KR ] || skip "no $KR"
CAP_SYSLOG=34
saved=$(cat $KR)
restore() { echo "$saved" > $KR; }

echo 0 > $KR
addr=$(awk '$3 == "vfs_read" { print $1; exit }' /proc/kallsyms)
case "$addr" in
*[!0]*) ;;
*) restore; skip "kallsyms shows no address even to root" ;;
esac
log "vfs_read at 0x$addr"

expect_ok "p 0x$addr"
expect_ok "r 0x$addr"
# caller: the return address, on top of the stack on x86_64, in the link
# register on arm64
caller='+0(%sp)'
[ "$KPE_ARCH" = arm64 ] && caller=%lr
expect_ok "p:kpa 0x$addr ip=$KPE_IP_REG:symbol caller=$caller:symbol"
for e in $(ls "$T/events/kprobes"); do
	[ -f "$T/events/kprobes/$e/enable" ] && enable_ev "$e"
done
trigger
for e in $(ls "$T/events/kprobes"); do
	[ -f "$T/events/kprobes/$e/enable" ] && disable_ev "$e"
done
[ "$(count_trace " kpa: (vfs_read+0x0/")" -gt 0 ] || { restore; fail "no kpa record"; }

# An allowed reader sees the address in the listing (documented).
listing_has "p:kprobes/kpa 0x$addr ip=$KPE_IP_REG:symbol caller=$caller:symbol" ||
	{ restore; fail "root with kptr_restrict=0 does not see kpa's address"; }

# as_reader MODE CMD...: run CMD as the restricted reader of MODE
as_reader() {
	_m=$1
	shift
	case $_m in
	2) "$@" ;;
	1) "$USER_HELPER" -c $CAP_SYSLOG "$@" ;;
	esac
}

# Any 16-digit hex word starting fff is a kernel address (see lib.sh's
# KADDR_RE: ffff with 48-bit virtual addresses, fff0 and up with 52).
KADDR='fff[0-9a-fA-F]{13}'
bad=
for mode in 2 1; do
	echo $mode > $KR
	k=$(as_reader $mode awk '$3 == "vfs_read" { print $1; exit }' /proc/kallsyms)
	case "$k" in
	*[!0]*) restore; fail "kptr_restrict=$mode: kallsyms shows this reader $k" ;;
	esac
	for f in kprobe_events dynamic_events kprobe_profile trace \
		 $(cd "$T" && ls events/kprobes/*/format); do
		hits=$(as_reader $mode cat "$T/$f" | grep -Eo "$KADDR" | sort -u | tr '\n' ' ')
		if [ -n "$hits" ]; then
			log "kptr_restrict=$mode reader: $f shows $hits"
			as_reader $mode cat "$T/$f" | grep -E "$KADDR" | head -n 3 | sed 's/^/#     /'
			bad="$bad $mode:$f"
		fi
	done
	names=$(as_reader $mode ls "$T/events/kprobes" | grep -E "$KADDR" | tr '\n' ' ')
	if [ -n "$names" ]; then
		log "kptr_restrict=$mode reader: event directories named $names"
		bad="$bad $mode:events/kprobes/"
	fi
done
restore
[ -z "$bad" ] || fail "kernel addresses shown to restricted readers (kptr_restrict:file):$bad"

reset || fail "cleanup failed"
pass
