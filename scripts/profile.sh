#!/bin/bash
# profile.sh VARIANT ROW...: where the instructions of one probe hit go,
# per kernel function.  Boots VARIANT (linux = ours, upstream = the
# kernel's own) once under qemu -icount shift=0,sleep=off -smp 1 with the
# TCG plugin tools/profile/kpe_prof.c, runs kpe_bench's getppid() loop
# unprobed (the base row) and then once per ROW, and prints for each ROW
# the guest instructions per call spent in each function during the
# timed loop, next to the base loop's and the difference (the probe's
# cost in that function), top functions first, with the totals.
# VARIANT "both" profiles upstream, then linux, prints both, then per ROW
# one table of the differences side by side (upstream, ours, ours minus
# upstream), the largest first.
#
# ROW is a kprobe_events definition of event b, enabled for the loop as
# make bench's hit() does (e.g. 'r:b __x64_sys_getppid',
# 'p:b __x64_sys_getppid s=+0(+112(%di)):ustring',
# 'p:b __x64_sys_getppid+9'), or pmu / pmuret: the kprobe PMU rows
# (kpe_bench pmu, a counting perf event on __x64_sys_getppid, its return
# with pmuret), or 'bpf KIND PROG' (kpe_bench bpf: KIND kprobe,
# kretprobe, fentry or fexit, PROG empty or map), or alldef, allon,
# alloff: the event p:all/a * defined, enabled, disabled (then cleared,
# outside the window; allclr instead of alloff: both in it, as bench row
# allclr does), once each (kpe_bench put; give them in that order, with PROF_CALLS=1
# for per-operation counts), or fnon, fnoff: the function tracer switched
# on and off (bench rows allon, alloff), or loop: the getppid() loop with whatever
# the rows before left enabled (alldef allon loop alloff: bench row
# allhit), or put:REL=VAL: VAL appended to the tracefs file REL, timed
# (put:events/g/enable=1 profiles a group's enable), or sh:CMD: a guest
# shell command, untimed, whose window is a one-call loop (to set up
# what the next put row times; $T is the tracefs mount).  Example:
#
#   scripts/profile.sh linux 'r:b __x64_sys_getppid' pmu
#
# Environment:
#   PROF_CALLS N   getppid() calls per loop (20000)
#   PROF_TOP N     functions shown per row (25; 0 = all)
#   PROF_SORT S    row (default: by the row's instructions per call) or
#                  delta (by the difference to the base loop)
#   PROF_INSN=0    the plugin counts per translation block, not per
#                  instruction (faster; a block cut short in its middle,
#                  e.g. by icount's restart at an APIC write, is counted
#                  whole).  Default 1: exact.
#   PROF_TIMEOUT   seconds for the boot (1800)
#   PROF_OUT DIR   where the plugin output, console log and per-row
#                  tables go, in DIR/VARIANT (build/profile)
#   ARCH=arm64     the arm64 builds (qemu-system-aarch64 under the same
#                  -icount): the rows then name __arm64_sys_getppid and
#                  arm64's registers; output in DIR/arm64, DIR/upstream-arm64
#   PROF_REPORT_ONLY=1  no boot: the tables from the last run's files
#                  (give the same ROWs)
#
# How: kpe_bench (built here from tools/bench/kpe_bench.c, static, and
# copied into the guest with --file, so the
# initramfs need not be rebuilt) runs with KPE_BENCH_MARK=1: it calls
# getpgid(0) right before and right after each timed loop.  The plugin
# counts every executed guest instruction from boot and, at each
# execution of __x64_sys_getpgid (its address from System.map), opens or
# closes a window and writes, per guest instruction address, the
# executions within it.  Here the addresses are mapped to System.map's
# text symbols (plus the guest's /proc/kallsyms symbols outside vmlinux,
# e.g. kprobe_insn_page and ftrace trampolines, which kpe_bench prints
# after the loop while the probe is still there; [modules-area] when
# unknown, [user] for user space).  The window is the timed region plus
# the return from the first mark and the entry of the second (about 1400
# instructions in all, /CALLS per call); its total is shown next to
# kpe_bench's own figure (guest ns = guest instructions under icount).
# A boot with seven loops of 20000 calls takes about 15 s here.
# Files: DIR/VARIANT/windows (plugin output), console.log, func.rI
# (function, count), table.rI.raw; compare.rI.raw with "both".
. "$(dirname "$0")/common.sh"

[ $# -ge 2 ] || die "usage: $0 VARIANT ROW... (see the header)"
variant=$1; shift
calls=${PROF_CALLS:-20000}
top=${PROF_TOP:-25}
sortby=${PROF_SORT:-row}
timeout=${PROF_TIMEOUT:-1800}
outdir=${PROF_OUT:-$BUILD/profile}
export LC_ALL=C

if [ "$variant" = both ]; then
	"$0" upstream "$@"
	echo
	"$0" linux "$@"
	echo
	echo "# per-call instructions added by the probe (row - base), upstream against ours"
	i=0
	for def in "$@"; do
		i=$((i + 1))
		u=$outdir/$(arch_variant upstream)/table.r$i.raw
		l=$outdir/$(arch_variant linux)/table.r$i.raw
		[ -s "$u" ] && [ -s "$l" ] || { echo "# $def: no result on both"; continue; }
		echo
		echo "## $def"
		printf '%-44s %10s %10s %10s\n' function upstream ours ours-up
		awk -F '\t' 'FILENAME == ARGV[1] { if ($1 != "TOTAL") u[$2] = $5; else ut = $4; next }
			{ if ($1 != "TOTAL") l[$2] = $5; else lt = $4 }
			END {
				for (f in l) if (!(f in u)) u[f] = 0
				for (f in u) {
					a = u[f] < 0 ? -u[f] : u[f]; b = l[f] < 0 ? -l[f] : l[f]
					if (a == 0 && b == 0) continue
					printf "%.6f\t%s\t%.2f\t%.2f\t%.2f\n", (a > b ? a : b), f, u[f], l[f], l[f] - u[f]
				}
				printf "TOTAL\t%.2f\t%.2f\t%.2f\n", ut, lt, lt - ut
			}' "$u" "$l" > "$outdir/compare.r$i.raw"
		grep -v '^TOTAL' "$outdir/compare.r$i.raw" | sort -t '	' -k1,1gr -k2,2 |
			awk -F '\t' -v top="$top" 'top == 0 || n++ < top {
				printf "%-44s %10s %10s %10s\n", $2, $3, $4, $5 }'
		awk -F '\t' '$1 == "TOTAL" { printf "%-44s %10s %10s %10s\n", "total", $2, $3, $4 }' \
			"$outdir/compare.r$i.raw"
	done
	exit 0
fi
case $variant in linux|upstream) ;; *) die "VARIANT is linux, upstream or both" ;; esac
# With ARCH=arm64 the arm64 builds of the same kernels (their own output
# directory, e.g. build/profile/arm64 for ours), the same rows on
# __arm64_sys_getppid (give rows with arm64's registers).
pvariant=$(arch_variant "$variant")
out=$outdir/$pvariant
obj=$(obj_dir "$pvariant")
map=$obj/System.map
image=$(kernel_image "$pvariant")
if [ "$KARCH" = arm64 ]; then
	func=__arm64_sys_getppid markfn=__arm64_sys_getpgid cc=${CROSS_ARM64}gcc
else
	func=__x64_sys_getppid markfn=__x64_sys_getpgid cc=gcc
fi
mkdir -p "$out"

rows=("$@")
# The rows file: "rI<TAB>DEFINITION" (r0 = the base loop).
{
	printf 'r0\tbase\n'
	for i in "${!rows[@]}"; do printf 'r%d\t%s\n' $((i + 1)) "${rows[$i]}"; done
} > "$out/rows"

if [ -z "${PROF_REPORT_ONLY:-}" ]; then
	[ -f "$image" ] || die "$pvariant kernel not built"
	mark=$(awk -v f="$markfn" '$3 == f { print $1 }' "$map")
	[ -n "$mark" ] || die "no $markfn in $map"
	stamp=$(stat -c %Y "$image" "$map")
	cp "$map" "$out/System.map"

	so=$out/kpe_prof.so
	gcc -shared -fPIC -O2 -Wall -o "$so" "$TOP/tools/profile/kpe_prof.c"
	"$cc" -static -O2 -Wall -I"$SELFTESTS" -o "$out/kpe_bench" "$TOP/tools/bench/kpe_bench.c"

	# The guest half: sh /kpe/files/prof.sh CALLS FUNC
	cat > "$out/prof.sh" <<'EOF'
T=/sys/kernel/tracing
B=/kpe/files/kpe_bench
calls=$1 f=$2 rc=0
chmod +x $B
echo > $T/kprobe_events
while IFS='	' read -r id def; do
	case $def in
	base) $B loop $id "$calls" || rc=1 ;;
	pmu) $B pmu $id "$calls" $f || rc=1 ;;
	pmuret) $B pmu $id "$calls" $f ret || rc=1 ;;
	bpf\ *) set -- $def; $B bpf $id "$calls" $f $2 $3 || rc=1 ;;
	alldef) $B put $id append $T/kprobe_events 'p:all/a *' || rc=1 ;;
	allon) $B put $id append $T/events/all/a/enable 1 || rc=1 ;;
	alloff) $B put $id append $T/events/all/a/enable 0 || rc=1
		echo > $T/kprobe_events ;;
	allclr) $B put $id append $T/events/all/a/enable 0 \
			trunc $T/kprobe_events "" || rc=1 ;;
	fnon) $B put $id trunc $T/current_tracer function || rc=1 ;;
	fnoff) $B put $id trunc $T/current_tracer nop || rc=1 ;;
	loop) $B loop $id "$calls" || rc=1 ;;
	put:*=*) rel=${def#put:}
		$B put $id append "$T/${rel%%=*}" "${rel#*=}" || rc=1 ;;
	sh:*) eval "${def#sh:}" || echo "kpe-prof: error $id $def"
		$B loop $id 1 || rc=1 ;;
	*)
		echo > $T/trace
		if ! echo "$def" > $T/kprobe_events ||
		   ! echo 1 > $T/events/kprobes/b/enable; then
			echo "kpe-prof: error $id $def"
			# A window all the same keeps the windows and rows in step.
			echo > $T/kprobe_events
			$B loop $id 1 || rc=1
			continue
		fi
		$B loop $id "$calls" || rc=1
		sed "s/^/kpe-prof: kprobes $id /" /sys/kernel/debug/kprobes/list
		echo 0 > $T/events/kprobes/b/enable
		echo "kpe-prof: sample $id $(grep -m 1 ' b: ' $T/trace | sed 's/^ *//')"
		echo > $T/kprobe_events
		;;
	esac
done < /kpe/files/rows
exit $rc
EOF

	log "profiling $pvariant: $((${#rows[@]} + 1)) loops of $calls calls "
	rm -f "$out/windows"
	set +e
	popts=$so,mark=0x$mark,out=$out/windows
	[ "${PROF_INSN:-1}" = 1 ] && popts=$popts,insn=1
	QEMU_EXTRA="-plugin $popts" KPE_QUIET=1 \
		"$TOP/scripts/qemu-run.sh" --variant "$variant" --icount --smp 1 \
		--timeout "$timeout" --log "$out/console.log" --env KPE_BENCH_MARK=1 \
		--file "$out/prof.sh" --file "$out/kpe_bench" --file "$out/rows" \
		--cmd "sh /kpe/files/prof.sh $calls $func" >/dev/null
	grc=$?
	set -e
	[ "$(stat -c %Y "$image" "$map")" = "$stamp" ] ||
		die "$pvariant's kernel was rebuilt during the run: profile again"
	[ "$grc" = 0 ] || { grep -E '^kpe-(bench|prof): error' "$out/console.log" >&2 || :; \
		die "the guest failed (rc $grc, $out/console.log)"; }
fi

[ -s "$out/windows" ] || die "no plugin output ($out/windows)"
map=$out/System.map
rm -f "$out"/func.r* "$out"/table.r*.raw

# The hit lines (bulk lines for put), in row order: ID CALLS NS.
sed -n 's/^kpe-bench: \(hit\|bulk\) \(r[0-9]*\) \([0-9]*\) \([0-9]*\)$/\2 \3 \4/p' "$out/console.log" > "$out/hits"
nwin=$(grep -c '^window ' "$out/windows" || :)
nhit=$(wc -l < "$out/hits")
[ "$nwin" = "$nhit" ] ||
	die "$nwin plugin windows for $nhit timed loops: a stray getpgid() call? ($out/windows)"

# vmlinux's text symbols, "ADDR 1 NAME", and the sentinels, "ADDR 0 NAME"
# (a symbol at a sentinel's address wins; of aliases, the first by name).
# arm64 (48-bit VAs): the linear map from ffff000000000000, modules from
# ffff800000000000 up to the kernel image (_text).
text=$(awk '$3 == "_text" { print $1 }' "$map")
if [ "$KARCH" = arm64 ]; then
	modules=ffff800000000000
	sentinels="0000000000000000 0 [user]
0001000000000000 0 [noncanonical]
ffff000000000000 0 [kernel-nontext]
$modules 0 [modules-area]"
else
	modules=ffffffffa0000000
	sentinels="0000000000000000 0 [user]
0000800000000000 0 [noncanonical]
ffff800000000000 0 [kernel-nontext]
$modules 0 [modules-area]"
fi
{
	awk -v t="$text" '($2 ~ /^[tTwW]$/) && $1 >= t { print $1, 1, $3 }' "$map"
	echo "$sentinels"
	awk '$3 == "_etext" { print $1, 0, "[vmlinux-nontext]" }' "$map"
} > "$out/syms.base"

# funcs ID: "FUNCTION COUNT" of window ID (rI is window I+1), unsorted.
funcs() {
	local id=$1 n=$((${1#r} + 1))
	{
		cat "$out/syms.base"
		# The guest's symbols outside vmlinux while the row ran.
		awk -v id="$id" '$1 == "kpe-prof:" && $2 == "sym" && $3 == id &&
			$4 >= m { print $4, 1, $6 $7 }' m="$modules" "$out/console.log"
		awk -v n="$n" '$1 == "window" { w = ($2 == n); next }
			$1 == "end" { w = 0; next }
			w { print $1, 2, $2 }' "$out/windows"
	} | sort -k1,1 -k2,2n -k3,3 |
	awk '$2 == 2 { c[fn] += $3; next }
	     $2 == 1 && $1 "" == last { next }
	     { fn = $3 }
	     $2 == 1 { last = $1 "" }
	     END { for (f in c) print f, c[f] }'
}

funcs r0 > "$out/func.r0"
read -r _ bcalls bns < <(grep '^r0 ' "$out/hits")
btot=$(awk '{ t += $2 } END { print t + 0 }' "$out/func.r0")

echo "# $pvariant: guest instructions per getppid() call by function, kpe_bench loop of $bcalls calls"
echo "# base = the unprobed loop; delta = row - base; the window's total next to kpe_bench's ns"
awk -v t="$btot" -v c="$bcalls" -v ns="$bns" 'BEGIN {
	printf "# base loop: %.2f insns/call in the window (kpe_bench: %.2f ns/call)\n", t / c, ns / c }'
while IFS='	' read -r id def; do
	[ "$id" = r0 ] && continue
	funcs "$id" > "$out/func.$id"
	read -r _ rcalls rns < <(grep "^$id " "$out/hits") || { echo "# $def: no result"; continue; }
	grep -q "^kpe-prof: error $id " "$out/console.log" && { echo "# $def: refused by the tracer"; continue; }
	echo
	echo "## $pvariant  $def"
	awk -v rc="$rcalls" -v bc="$bcalls" -v top="$top" -v sortby="$sortby" -v rns="$rns" '
		FILENAME == ARGV[1] { b[$1] = $2; bt += $2; next }
		{ r[$1] = $2; rt += $2 }
		END {
			for (f in b) if (!(f in r)) r[f] = 0
			for (f in r) {
				rv = r[f] / rc; bv = (f in b ? b[f] : 0) / bc
				key = sortby == "delta" ? rv - bv : rv
				printf "%.6f\t%s\t%.2f\t%.2f\t%.2f\n", key, f, rv, bv, rv - bv
			}
			printf "TOTAL\t%.2f\t%.2f\t%.2f\t%.2f\n", rt / rc, bt / bc, rt / rc - bt / bc, rns / rc
		}' "$out/func.r0" "$out/func.$id" > "$out/table.$id.raw"
	printf '%-44s %10s %10s %10s\n' function row base delta
	grep -v '^TOTAL' "$out/table.$id.raw" | sort -t '	' -k1,1gr -k2,2 |
		awk -F '\t' -v top="$top" '($3 != 0 || $4 != 0) && (top == 0 || n++ < top) {
			printf "%-44s %10s %10s %10s\n", $2, $3, $4, $5 }'
	awk -F '\t' '$1 == "TOTAL" {
		printf "%-44s %10s %10s %10s\n", "total (window)", $2, $3, $4
		printf "%-44s %10.2f\n", "kpe_bench (ns/call, timed region)", $5 }' "$out/table.$id.raw"
done < "$out/rows"
