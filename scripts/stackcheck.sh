#!/bin/bash
# stackcheck.sh [VARIANT]: the stack frames of the tracer's hit path.  A
# probe handler may run on an NMI or IRQ stack (4 KiB on x86_64) on top
# of whatever that context had already used: every function marked
# NOKPROBE_SYMBOL() in our sources (the hit path) must keep its frame,
# callees inlined, within KPE_MAX_FRAME bytes (512).  Prints one line and
# exits non-zero on a larger frame.
. "$(dirname "$0")/common.sh"

variant=${1:-linux}
obj=$(obj_dir "$variant")/kernel/trace/trace_kprobe_hit.o
src=$(src_dir "$variant")
max=${KPE_MAX_FRAME:-512}
[ -f "$obj" ] || die "no $obj: build the $variant kernel first"
arch=$(sed -n 's/^CONFIG_64BIT=y$/x86_64/p' "$(obj_dir "$variant")/.config")
hot=$(sed -n 's/^NOKPROBE_SYMBOL(\([a-z_0-9]*\));$/\1/p' \
	"$TOP"/kernel/trace/trace_kprobe*.c | sort -u)
[ -n "$hot" ] || die "no NOKPROBE_SYMBOL() in our sources"
# checkstack.pl: "ADDR FUNC [OBJ]:<tab>BYTES", largest first.
big=$(objdump -d "$obj" | perl "$src/scripts/checkstack.pl" "${arch:-i386}" 0 2>/dev/null |
	awk -v max="$max" -v hot="$(echo $hot)" '
	BEGIN { n = split(hot, h, " "); for (i = 1; i <= n; i++) want[h[i]] = 1 }
	{ f = $2; sub(/\..*/, "", f); b = $NF; sub(/.*:/, "", b) }
	(f in want) && b + 0 > max { print f " " b }')
if [ -n "$big" ]; then
	echo "stack frames: hit-path functions over $max bytes:" $big
	exit 1
fi
echo "stack frames: every hit-path function within $max bytes ($(echo $hot | wc -w) checked)"
