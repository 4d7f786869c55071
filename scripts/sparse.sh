#!/bin/bash
# sparse.sh: run sparse (make C=2) and the W=1 warnings over our tracer
# objects (one per kernel/trace/trace_kprobe*.c); fails on any diagnostic.
. "$(dirname "$0")/common.sh"

command -v sparse >/dev/null || {
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	${SUDO:-} apt-get install -y -qq sparse >/dev/null
}
objs=$(cd "$TOP" && ls kernel/trace/trace_kprobe*.c | sed 's/\.c$/.o/')
# shellcheck disable=SC2086
out=$(kmake linux C=2 W=1 $objs 2>&1 | grep -v '^  ' || true)
if [ -n "$out" ]; then
	echo "$out"
	die "sparse/W=1 reported the above"
fi
log "sparse and W=1: clean"
