#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: under lockdown=confidentiality defining a probe is refused (EPERM, logged)
#
# Skipped unless the kernel runs locked down: make check-debug boots the
# debug kernel a second time with lockdown=confidentiality for it.
. "$(dirname "$0")/lib.sh"

SEC=/sys/kernel/security
[ -f $SEC/lockdown ] || mount -t securityfs securityfs $SEC 2>/dev/null
[ -f $SEC/lockdown ] || skip "no lockdown LSM ($SEC/lockdown)"
mode=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' $SEC/lockdown)
log "lockdown: $(cat $SEC/lockdown)"
[ "$mode" = confidentiality ] ||
	skip "not locked down (boot with lockdown=confidentiality)"

# Defining, removing and clearing, through both files: EPERM.
for f in kprobe_events dynamic_events; do
	for line in "p:ld_$f vfs_read" "r:ld_r$f vfs_read \$retval" "-:kprobes/"; do
		dmesg -c > /dev/null
		out=$("$KPE_WRITE" -a "$T/$f" "$line")
		[ "$out" = EPERM ] ||
			fail "writing '$line' to $f: got '${out:-success}', want EPERM"
		# The clear error: the lockdown LSM names the reason (its
		# messages are rate-limited: checked for definitions only).
		case "$line" in -*) continue ;; esac
		msg=$(dmesg | grep -m1 'Lockdown: .*tracefs is restricted')
		[ -n "$msg" ] || fail "no lockdown message in the kernel log for '$line'"
	done
	out=$("$KPE_WRITE" -t "$T/$f" "")
	[ "$out" = EPERM ] || fail "truncating $f: got '${out:-success}', want EPERM"
done
log "kernel log: $msg"

# Nor can the list or the profile be read, and no event exists.
for f in kprobe_events dynamic_events kprobe_profile; do
	cat "$T/$f" > /dev/null 2>&1 && fail "$f is readable under lockdown"
done
[ ! -d "$T/events/kprobes" ] || fail "events/kprobes exists: a probe was created"
pass
