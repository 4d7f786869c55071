#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a non-root user can neither define, remove, enable nor read probes
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

USER_HELPER=$DIR/kpe_user
[ -x "$USER_HELPER" ] || fail "$USER_HELPER missing (build with make)"
NOBODY=65534
"$USER_HELPER" -u $NOBODY sh -c '[ "$(id -u)" = 65534 ]' ||
	fail "kpe_user cannot become uid $NOBODY"

# as_nobody WRITE-ARGS...: kpe_write as uid 65534; prints the errno name
as_nobody() {
	"$USER_HELPER" -u $NOBODY "$KPE_WRITE" "$@"
}

expect_ok "p:keep vfs_read"
before=$(snapshot)

for f in kprobe_events dynamic_events; do
	for line in "p:nr_$f vfs_read" "-:keep" "-:kprobes/"; do
		out=$(as_nobody -a "$T/$f" "$line")
		case "$out" in
		EACCES | EPERM) log "nobody writing '$line' to $f: $out" ;;
		*) fail "nobody writing '$line' to $f: got '${out:-success}', want EACCES or EPERM" ;;
		esac
	done
	out=$(as_nobody -t "$T/$f" "")
	case "$out" in
	EACCES | EPERM) ;;
	*) fail "nobody truncating $f: got '${out:-success}', want EACCES or EPERM" ;;
	esac
done
out=$(as_nobody -a "$(ev_dir keep)/enable" 1)
case "$out" in
EACCES | EPERM) ;;
*) fail "nobody enabling keep: got '${out:-success}', want EACCES or EPERM" ;;
esac
[ "$(cat "$(ev_dir keep)/enable")" = 0 ] || fail "keep got enabled"
[ "$(snapshot)" = "$before" ] || fail "the probe list changed"

# Reading the probe list and the profile is refused too.
for f in kprobe_events dynamic_events kprobe_profile; do
	if "$USER_HELPER" -u $NOBODY cat "$T/$f" > /dev/null 2>&1; then
		fail "nobody can read $f"
	fi
done

# root still can.
expect_ok "-:keep"
[ -z "$(listing)" ] || fail "root could not remove keep"

reset || fail "cleanup failed"
pass
