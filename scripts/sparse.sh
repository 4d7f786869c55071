#!/bin/bash
# sparse.sh: run sparse (make C=2) and the W=1 warnings over our tracer
# objects (one per kernel/trace/trace_kprobe*.c); fails on any diagnostic.
# ARCH=arm64: over the arm64 build's objects (6.12's arm64 compiles code
# of ours that x86_64 does not: the lazy register copy).
. "$(dirname "$0")/common.sh"

command -v sparse >/dev/null || {
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	${SUDO:-} apt-get install -y -qq sparse >/dev/null
}
# Those the config builds (the arm64 config has no BTF: no trace_kprobe_btf.o).
variant=$(arch_variant linux)
obj=$(obj_dir "$variant")
objs=$(cd "$TOP" && ls kernel/trace/trace_kprobe*.c | sed 's/\.c$/.o/' |
	while read -r o; do [ ! -f "$obj/kernel/trace/built-in.a" ] ||
		[ -f "$obj/$o" ] && echo "$o"; done)
# Ours only: C=2 also checks what the build prepares on the way (arm64's
# vDSO has a sparse warning of its own); make's own errors stay.
# shellcheck disable=SC2086
out=$(kmake "$variant" C=2 W=1 $objs 2>&1 | grep -v '^  ' |
	grep -E 'trace_kprobe|\*\*\*|[Ee]rror' || true)
if [ -n "$out" ]; then
	echo "$out"
	die "sparse/W=1 reported the above"
fi
log "sparse and W=1: clean"
