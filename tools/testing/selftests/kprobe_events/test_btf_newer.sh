#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: BTF arguments as Linux 6.12's ftracetest checks them
# (dynevent/add_remove_btfarg.tc, the kprobe part; kprobe_syntax_errors.tc,
# "BTF arguments errors"), here whatever the README says: names and $arg*
# through dynamic_events, and the caret of each refusal
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
trap 'reset >/dev/null 2>&1' EXIT
[ -e /sys/kernel/btf/vmlinux ] || skip "no BTF in this kernel"
D=$T/dynamic_events

# add_remove_btfarg.tc: kfree(const void *object)
echo "p:kpevent kfree object" >> "$D" || fail "p:kpevent kfree object refused"
grep -q "kpevent.*object=object" "$D" || fail "dynamic_events: $(cat "$D")"
echo > "$D"
echo 'p:kpevent kfree $arg*' >> "$D" || fail 'p:kpevent kfree $arg* refused'
grep -q "kpevent.*object=object" "$D" || fail "dynamic_events: $(cat "$D")"
echo > "$D"

# kprobe_syntax_errors.tc: the position of each error, as its
# ftrace_errlog_check() measures it (the caret line's length).
check_error() {
	_pos=${1%%^*}
	_pos=${#_pos}
	_cmd=$(printf '%s' "$1" | tr -d '^')
	echo > "$T/error_log"
	! printf '%s' "$_cmd" >> "$T/kprobe_events" 2>/dev/null ||
		fail "'$_cmd' was accepted"
	grep -q 'trace_kprobe: error:' "$T/error_log" || fail "'$_cmd': error_log: $(cat "$T/error_log")"
	[ "$(tail -n 1 "$T/error_log" | wc -c)" = $((13 + _pos)) ] ||
		fail "'$_cmd': caret not at $_pos: $(cat "$T/error_log")"
	log "'$1': $(grep 'trace_kprobe: error:' "$T/error_log" | sed 's/.*error: //')"
}
check_error 'p vfs_read args=^$arg*'		# BAD_VAR_ARGS
check_error 'p vfs_read +0(^$arg*)'		# BAD_VAR_ARGS
check_error 'p vfs_read $arg* ^$arg*'		# DOUBLE_ARGS
check_error 'p vfs_read+20 ^$arg*'		# NOFENTRY_ARGS
check_error 'p vfs_read ^hoge'			# NO_BTFARG
check_error 'p kfree ^$arg10'			# NO_BTFARG
check_error 'r kfree ^$retval'			# NO_RETVAL
# 6.12 refuses "r vfs_read $arg*" only where return probes cannot take
# arguments at entry; here they can.
echo 'r:kpret vfs_read $arg*' >> "$T/kprobe_events" || fail 'r vfs_read $arg* refused'
[ "$(nr_probes)" = 1 ] || fail "listing: $(listing)"
reset || fail "cleanup failed"
pass
