#!/bin/bash
# bench.sh: make bench (issue 4, DESIGN §6).  Boots the pristine kernel
# (build/upstream) and ours (build/linux), same .config and initramfs,
# under qemu -icount shift=0,sleep=off, where one guest nanosecond is one
# guest instruction; runs scripts/guest/bench.sh in each; prints one table
# (row, upstream, ours, ratio ours/upstream, goal) and writes BENCHMARKS.md
# and BENCHMARKS.png (gnuplot bar chart of the ratios).
#
# Both kernels must be built (make bench does that first).
#
# ARCH=arm64 (make bench ARCH=arm64): the arm64 variants instead
# (build/upstream-arm64 and build/arm64, booted in qemu-system-aarch64
# -M virt under the same -icount), the same rows on
# __arm64_sys_getppid with arm64's registers; the work dir is
# build/bench-arm64 (6.12: build/bench-arm64-6.12), the report a section
# of its own in BENCHMARKS.md ("Linux K, arm64") and its own chart
# (BENCHMARKS-arm64.png; 6.12: BENCHMARKS-arm64-6.12.png), so that
# neither architecture's run overwrites the other's.
#
# Environment:
#   BENCH_QUICK=1   (default when CI=true) fewer calls and bulk probes;
#                   the report goes to build/bench/, not the checkout.
#                   Asserts nothing on the figures; fails only if a row
#                   could not be measured.
#   BENCH_CALLS N   getppid() calls per hit row (200000; quick 20000)
#   BENCH_BULK N    probes of the bulk rows (1000; quick 100)
#   BENCH_WILD GLOB pattern of the wildcard row (acpi_*; quick acpi_ut_*;
#                   arm64, whose guest has no ACPI: *_show; quick of_*)
#   BENCH_BOOTS N   boots per kernel (1); with more, figures that differ
#                   between boots are reported (icount should make them
#                   identical)
#   BENCH_OUT DIR   where BENCHMARKS.md/.png go (checkout; quick build/bench):
#                   BENCHMARKS.md has one section per kernel, this run's
#                   replaced, the other's kept; the chart is
#                   BENCHMARKS.png for 6.1, BENCHMARKS-6.12.png for 6.12
#   BENCH_TIMEOUT   seconds per boot (1800)
#   BENCH_REPORT_ONLY=1  no boots: the table and report from the logs of
#                   the last run (build/bench/VARIANT.BOOT.log); the
#                   initramfs is not checked, no guest using it
#
# Exit status non-zero if a guest failed (splat, timeout), a row is
# missing on either kernel (ours may print n/a for the wildcard row while
# it refuses wildcards), or the two kernels benchmarked different lists.
. "$(dirname "$0")/common.sh"

# What the architecture changes: the variants booted ("upstream" and
# "linux" name the pair below; arch_variant gives arm64's,
# upstream-arm64 and arm64), their QEMU, the syscall function the hit
# rows probe, the binutils that read its vmlinux, the wildcard row's
# default glob (arm64's guest has no ACPI: sysfs and seq_file show
# functions instead, as cold) and the names of the work dir, the chart
# and the section of BENCHMARKS.md (arm64's own: "-arm64" after
# "bench", "BENCHMARKS" and the kernel; x86_64's as they always were).
if [ "$KARCH" = arm64 ]; then
	qemu=qemu-system-aarch64 func=__arm64_sys_getppid cross=$CROSS_ARM64
	aname=-arm64 wild_full='*_show' wild_quick='of_*'
else
	qemu=qemu-system-x86_64 func=__x64_sys_getppid cross=""
	aname='' wild_full='acpi_*' wild_quick='acpi_ut_*'
fi

quick=${BENCH_QUICK:-}
[ "${CI:-}" = true ] && quick=${quick:-1}
[ "$quick" = 0 ] && quick=
work=$BUILD/bench$aname$KSUFFIX
if [ -n "$quick" ]; then
	calls=${BENCH_CALLS:-20000} nbulk=${BENCH_BULK:-100} wild=${BENCH_WILD:-$wild_quick}
	outdir=${BENCH_OUT:-$work}
else
	calls=${BENCH_CALLS:-200000} nbulk=${BENCH_BULK:-1000} wild=${BENCH_WILD:-$wild_full}
	outdir=${BENCH_OUT:-$TOP}
fi
boots=${BENCH_BOOTS:-1}
timeout=${BENCH_TIMEOUT:-1800}
variants=(upstream linux)
mkdir -p "$work" "$outdir"

# (The guest's bench.sh matters only to a run that boots.)
for v in "${variants[@]}"; do
	av=$(arch_variant "$v")
	[ -f "$(kernel_image "$av")" ] || die "$av kernel not built (make bench builds it)"
	[ -n "${BENCH_REPORT_ONLY:-}" ] ||
		cmp -s "$(variant_dir "$av")/initramfs/kpe/bench.sh" "$TOP/scripts/guest/bench.sh" ||
		die "$(variant_dir "$av")/initramfs has an old bench.sh: run scripts/initramfs.sh $av"
done

# Same .config on both sides (DESIGN §5.4), or the comparison is void;
# but for the symbols only our Kconfig part has (KPROBE_EVENTS_FENTRY).
only_ours=$(sed -n 's/^config //p' "$TOP/kernel/trace/Kconfig" | while read -r c; do
	grep -q "^config $c\$" "$(src_dir upstream)/kernel/trace/Kconfig" || echo "^CONFIG_$c="
done)
config_of() {
	grep '^CONFIG_' "$(obj_dir "$(arch_variant "$1")")/.config" |
		grep -v -f <(echo "${only_ours:-^\$}") | sort
}
diff -q <(config_of upstream) <(config_of linux) >/dev/null ||
	die "build/$(arch_variant upstream) and build/$(arch_variant linux) have different .config files: make upstream${aname:+ ARCH=arm64}"

# The offset row probes the syscall's function at the first instruction
# of its body, after ftrace's call: on x86_64 after its call to
# __fentry__ (+5, or +9 after IBT's endbr64); on arm64 after the two
# NOPs of -fpatchable-function-entry=2, which ftrace patches into
# 'mov x9, x30; bl ftrace_caller' (+8, or +12 after BTI's landing pad).
# Found in each vmlinux, and the same in both or the row compares
# different places.
offs=
for v in "${variants[@]}"; do
	obj=$(obj_dir "$(arch_variant "$v")")
	a=$(awk -v f="$func" '$3 == f { print $1 }' "$obj/System.map")
	[ -n "$a" ] || die "no $func in $obj/System.map"
	if [ "$KARCH" = arm64 ]; then
		# The instruction after the second NOP, a 'bti' before them
		# allowed; anything else first and there is none.
		site="the two ftrace NOPs at the entry of"
		o=$("${cross}objdump" -d --no-show-raw-insn --start-address=0x"$a" \
			--stop-address=$((0x$a + 32)) "$obj/vmlinux" |
			awk '/^ *[0-9a-f]+:/ {
				if (n == 2) { sub(":", "", $1); print $1; exit }
				if ($2 == "nop") n++; else if ($2 != "bti" || n) exit
			}')
	else
		site="call to __fentry__ in"
		o=$(objdump -d --no-show-raw-insn --start-address=0x"$a" \
			--stop-address=$((0x$a + 32)) "$obj/vmlinux" |
			awk 'f { sub(":", "", $1); print $1; exit } /call.*<__fentry__>/ { f = 1 }')
	fi
	[ -z "$o" ] || o=$((0x$o - 0x$a))
	[ -n "$o" ] || die "no $site $func of $v"
	[ -z "$offs" ] || [ "$offs" = "$o" ] ||
		die "the offset row's place differs: +$offs upstream, +$o ours"
	offs=$o
done

# Candidate functions for the bulk rows: the text symbols defined under
# net/ (the guest has no network, so none of them fires while enabled and
# the bulk rows time the control path only).  The guest keeps the
# probeable ones, sorted, and takes the first NBULK.
"${cross}nm" --defined-only "$(obj_dir "$(arch_variant upstream)")/net/built-in.a" |
	awk '$2 == "t" || $2 == "T" { print $3 }' | sort -u > "$work/bench-funcs"
[ -s "$work/bench-funcs" ] || die "no functions from $(obj_dir "$(arch_variant upstream)")/net/built-in.a"

# The guest's architecture is its script's last argument, left out on
# x86_64 (its default there), whose command line stays as recorded.
guest_cmd() { # variant
	echo "sh /kpe/bench.sh $1 $calls $nbulk '$wild' $offs${aname:+ arm64}"
}

# run_guest VARIANT LOG: one boot.  A guest that QEMU reports killed by a
# signal from some other process (not our timeout: the machine is shared)
# is booted again, up to three boots in all.
run_guest() {
	local v=$1 log=$2 try rc
	for try in 1 2 3; do
		set +e
		"$TOP/scripts/qemu-run.sh" --variant "$v" --icount --smp 1 --mode cmd \
			--cmd "$(guest_cmd "$v")" --file "$work/bench-funcs" \
			--log "$log" --timeout "$timeout" |
			grep --line-buffered -E '^kpe-bench: (hit|bulk|mem|na|error|list|start|end) |^kpe: '
		rc=${PIPESTATUS[0]}
		set -e
		[ "$rc" -ne 0 ] && [ "$try" -lt 3 ] &&
			grep -E "^$qemu: terminating on signal" "$log" | grep -vq '(timeout)' ||
			break
		echo "bench: $v guest killed from outside: booting it again" >&2
	done
	[ "$rc" -eq 0 ] || echo "bench: $v guest failed (rc $rc, $log)" >&2
	return "$rc"
}

# Results: R[VARIANT.ROW.BOOT] the figure (ns or bytes), N[...] its count
# (calls, probes); R[VARIANT.memfree.BOOT] the MemFree drop.
declare -A R=() N=() NA=() LIST=() OTHERS=()
failed=0
for ((boot = 1; boot <= boots; boot++)); do
	for v in "${variants[@]}"; do
		log=$work/$v.$boot.log
		if [ -z "${BENCH_REPORT_ONLY:-}" ]; then
			log "bench: $v kernel, boot $boot/$boots, $calls calls, $nbulk bulk probes, wildcard '$wild'"
			run_guest "$v" "$log" || failed=1
		fi
		[ -f "$log" ] || die "no $log"
		grep -q '^kpe-bench: end rc=0' "$log" ||
			{ echo "bench: $log: the guest script did not finish cleanly" >&2; failed=1; }
		while read -r _ kind a b c _; do
			case $kind in
			hit|bulk) R[$v.$a.$boot]=$c N[$v.$a.$boot]=$b ;;
			mem) R[$v.mem.$boot]=$b N[$v.mem.$boot]=$a R[$v.memfree.$boot]=$c ;;
			mem-all) R[$v.allmem.$boot]=$b N[$v.allmem.$boot]=$a ;;
			na) NA[$v.$a]=$b ;;
			list) LIST[$v.$a.$boot]="$b $c" ;;
			others) OTHERS[$v.$a.$boot]=$b ;;
			others-hits)
				[ "$b" = 0 ] || echo "bench: $v: the other probes of $a were hit $b times in its loop" >&2 ;;
			esac
		done < <(grep -E '^kpe-bench: (hit|bulk|mem|mem-all|na|list|others|others-hits) ' "$log" | tr -d '\r')
	done
	for l in bulk wild; do
		[ "${LIST[upstream.$l.$boot]:-}" = "${LIST[linux.$l.$boot]:-}" ] || {
			echo "bench: the $l lists differ: upstream ${LIST[upstream.$l.$boot]:-none}, ours ${LIST[linux.$l.$boot]:-none}" >&2
			failed=1
		}
	done
done

# Row table: name, kind (hit | bulk | mem | ref | base | flat: against
# our entry row | sbulk, shit: ours only, against our row REF of GOAL@REF),
# goal, what.
ROWS=(
	"base     base  -    unprobed getppid() loop, per call"
	"entry    hit   0.70 p:b __x64_sys_getppid"
	"entry1000 flat 1.03 p:b __x64_sys_getppid, @N@ probes enabled elsewhere"
	"entry3args hit 0.70 ... a=%di b=%si c=%dx"
	"entrycomm hit  0.50 ... c=\$comm"
	"offset   hit   0.85 p:b __x64_sys_getppid+@OFFS@"
	"ret      hit   0.65 r:b __x64_sys_getppid"
	"retval   hit   0.70 r:b __x64_sys_getppid v=\$retval"
	"deref2   hit   0.70 ... d=+0(+0(%sp)):u64"
	"string   hit   0.50 ... s=+0(@saved_command_line):string"
	"ustring  hit   0.50 ... s=+0(+112(%di)):ustring"
	"retarg   hit   0.70 r:b __x64_sys_getppid v=\$retval c=\$comm"
	"pmu      hit   0.70 perf_event_open(kprobe PMU, __x64_sys_getppid), counting"
	"pmuret   hit   0.60 perf_event_open(kprobe PMU, __x64_sys_getppid, retprobe), counting"
	"bpf      hit   0.80 kprobe PMU + BPF program (empty), as bpftrace attaches it"
	"bpfmap   hit   0.80 kprobe PMU + BPF program counting into a per-CPU map"
	"bpfret   hit   0.80 kprobe PMU retprobe + BPF program (empty)"
	"fentry   ref   -    the empty program as BPF fentry (reference for bpf)"
	"fentrymap ref  -    the map program as BPF fentry (reference for bpfmap)"
	"fexit    ref   -    the empty program as BPF fexit (reference for bpfret)"
	"ftrace   ref   -    function tracer on the same function (reference)"
	"rbase    rbase -    unprobed read() loop (1 byte of /dev/zero), per call"
	"regread  rhit  1.00 p:b vfs_read file=%di count=%dx:u64"
	"btfread  rhit  -    p:b vfs_read file count (BTF names, ours only: as regread)"
	"add1     bulk  0.70 add @N@ probes, one per write"
	"addall   bulk  0.70 add @N@ probes, one write"
	"enable   bulk  0.70 enable @N@: echo 1 > events/GRP/enable"
	"disable  bulk  0.70 disable @N@: echo 0 > events/GRP/enable"
	"clear    bulk  0.10 clear @N@: echo > kprobe_events"
	"remove   bulk  0.10 remove @N@: -:GRP/EVENT, one per write"
	"mem      mem   1.00 kernel memory per probe, @N@ probes (Slab+Percpu+VmallocUsed)"
	"wild     bulk  0.05 define+enable: ours p:wild/w GLOB, upstream one event per function"
	"allon    bulk  -    every function: echo function > current_tracer (reference)"
	"allfn    ref   -    every function: getppid() loop under the function tracer (reference)"
	"alloff   bulk  -    every function: echo nop > current_tracer (reference)"
	"alldef   sbulk 1.50@allon define+enable p:all/a * (ours only), against the tracer's switch-on"
	"allhit   shit  1.15@allfn getppid() loop with p:all/a * enabled, against the function tracer's"
	"allclr   sbulk 1.50@alloff disable+clear p:all/a *, against the tracer's switch-off"
	"allmem   mem   -    kernel memory per function of p:all/a * (@N@ functions; Slab+Percpu+VmallocUsed)"
	"graphon  bulk  -    every function: echo function_graph > current_tracer (reference)"
	"graphfn  ref   -    every function: getppid() loop under the function_graph tracer (reference)"
	"graphoff bulk  -    every function: echo nop > current_tracer from function_graph (reference)"
	"retdef   sbulk 1.50@graphon define+enable r:allr/r * d=\$duration (ours only), against the graph tracer's switch-on"
	"rethit   shit  1.00@graphfn getppid() loop with r:allr/r * enabled, against the graph tracer's"
	"retclr   sbulk 1.50@graphoff disable+clear r:allr/r *, against the graph tracer's switch-off"
)
# arm64: the same rows on __arm64_sys_getppid, these with arm64's
# registers (scripts/guest/bench.sh) or goals.  Its goal for entry is
# ≤ 0.50: ours hooks the entry through ftrace, upstream's kprobe is a
# BRK.  A goal xG is x86_64's, shown but not claimed: on x86_64 ours
# hooks a return's entry through ftrace and its return through rethook,
# on arm64 (no rethook) both kernels take the same kretprobe, so those
# goals say nothing about arm64's paths (the section's text says so).
if [ "$KARCH" = arm64 ]; then
	arm64_rows=(
		"entry    hit   0.50 p:b __arm64_sys_getppid"
		"entry3args hit 0.70 ... a=%x0 b=%x1 c=%x2"
		"ret      hit   x0.65 r:b __arm64_sys_getppid"
		"retval   hit   x0.70 r:b __arm64_sys_getppid v=\$retval"
		"deref2   hit   0.70 ... d=+0(+8(%sp)):u64"
		"ustring  hit   0.50 ... s=+0(+0(%x0)):ustring"
		"retarg   hit   x0.70 r:b __arm64_sys_getppid v=\$retval c=\$comm"
		"pmuret   hit   x0.60 perf_event_open(kprobe PMU, __arm64_sys_getppid, retprobe), counting"
		"bpfret   hit   x0.80 kprobe PMU retprobe + BPF program (empty)"
		"regread  rhit  1.00 p:b vfs_read file=%x0 count=%x2:u64"
	)
	for i in "${!ROWS[@]}"; do
		ROWS[i]=${ROWS[i]//__x64_sys_getppid/$func}
		for spec in "${arm64_rows[@]}"; do
			[ "${spec%% *}" != "${ROWS[i]%% *}" ] || ROWS[i]=$spec
		done
	done
fi

# value VARIANT ROW KIND [BOOT]: the figure shown (empty if missing).
#   base: instructions per call; hit/ref: per hit above the base loop;
#   rbase, rhit: the same for the read() loop;
#   bulk: milliseconds of guest time; mem: bytes per probe.
value() {
	local v=$1 row=$2 kind=$3 boot=${4:-1}
	local val=${R[$v.$row.$boot]:-} n=${N[$v.$row.$boot]:-}
	local bt=${R[$v.base.$boot]:-} bn=${N[$v.base.$boot]:-}
	[ -n "$val" ] || return 0
	if [ "$kind" = rhit ]; then
		bt=${R[$v.rbase.$boot]:-} bn=${N[$v.rbase.$boot]:-}
		kind=hit
	fi
	[ "$kind" != flat ] && [ "$kind" != shit ] || kind=hit
	[ "$kind" != sbulk ] || kind=bulk
	case $kind in
	base|rbase) awk -v t="$val" -v n="$n" 'BEGIN { printf "%.1f", t / n }' ;;
	hit|ref)
		[ -n "$bt" ] || return 0
		awk -v t="$val" -v n="$n" -v bt="$bt" -v bn="$bn" \
			'BEGIN { printf "%.1f", t / n - bt / bn }' ;;
	bulk) awk -v t="$val" 'BEGIN { printf "%.1f", t / 1e6 }' ;;
	mem) awk -v t="$val" -v n="$n" 'BEGIN { printf "%.0f", t / n }' ;;
	esac
}

unit() {
	case $1 in
	base|rbase) echo "insns/call" ;; hit|rhit|ref|flat) echo "insns/hit" ;;
	shit) echo "insns/call" ;;
	bulk|sbulk) echo "ms" ;; mem) echo "bytes/probe" ;;
	esac
}

table=$work/table.md
data=$work/ratios.dat
: > "$data"
missing=()
{
	echo "| row | probe / operation | unit | upstream | ours | ours/upstream | goal | met |"
	echo "|---|---|---|---:|---:|---:|---:|---|"
	for spec in "${ROWS[@]}"; do
		read -r row kind goal what <<< "$spec"
		u=$(value upstream "$row" "$kind")
		o=$(value linux "$row" "$kind")
		n=${N[upstream.$row.1]:-${N[linux.$row.1]:-}}
		[ "$kind" != flat ] || n=${OTHERS[linux.$row.1]:-${OTHERS[upstream.$row.1]:-?}}
		what=${what//@N@/$n}; what=${what//GLOB/$wild}; what=${what//@OFFS@/$offs}
		[ "$row" = wild ] && what="$what ($n functions)"
		if [ -z "$u" ]; then
			if [ -n "${NA[upstream.$row]:-}" ]; then u="n/a"; else missing+=("upstream $row"); fi
		fi
		if [ -z "$o" ]; then
			if [ -n "${NA[linux.$row]:-}" ]; then o="n/a"; else missing+=("ours $row"); fi
		fi
		ratio= met=
		if [ -n "$u" ] && [ -n "$o" ] && [ "$o" != n/a ] && [ "$u" != n/a ] &&
		   [ "$kind" != base ] && [ "$kind" != rbase ]; then
			ratio=$(awk -v o="$o" -v u="$u" \
				'BEGIN { if (u > 0) printf(o / u < 0.095 ? "%.3f" : "%.2f", o / u) }')
		fi
		if [ "$kind" = flat ] || [ "$kind" = sbulk ] || [ "$kind" = shit ]; then
			# Ours against a row of ours: flat against our entry row
			# (a hit costs the same whatever is probed elsewhere),
			# sbulk and shit against REF of GOAL@REF (the all rows:
			# what the function tracer costs for the same).
			ref=entry rk=hit fmt=%.3f
			case $goal in *@*) ref=${goal#*@} goal=${goal%@*} fmt=%.2f ;; esac
			[ "$kind" != sbulk ] || rk=bulk
			[ "$kind" != shit ] || rk=ref
			e=$(value linux "$ref" "$rk")
			self=$(awk -v o="${o:-0}" -v e="${e:-0}" -v f="$fmt" \
				'BEGIN { if (o > 0 && e > 0) printf f, o / e }')
			met="not met"
			[ -z "$self" ] || met=$(awk -v o="$o" -v e="$e" -v g="$goal" \
				'BEGIN { print (o <= g * e) ? "met" : "not met" }')
			met="$met (ours ${self:-?} × $ref)"
			# (A row ours cannot run on this kernel, as arm64's
			# return patterns: neither met nor not.)
			[ "$o" != n/a ] || met=n/a
			goal="ours ≤ $goal × $ref"
		elif [ "${goal#x}" != "$goal" ]; then
			# Another architecture's goal (arm64's table): its
			# figure in the chart without a mark, no claim.
			[ -z "$ratio" ] || echo "$row $ratio -" >> "$data"
			goal="- (x86_64: ≤ ${goal#x})"
		elif [ "$goal" != - ]; then
			if [ -n "$ratio" ]; then
				# Against the figures, not the rounded ratio.
				met=$(awk -v o="$o" -v u="$u" -v g="$goal" \
					'BEGIN { print (o <= g * u) ? "met" : "not met" }')
				echo "$row $ratio $goal" >> "$data"
			else
				met="not met"
			fi
			goal="≤ $goal"
		elif [ "$kind" = ref ]; then
			goal=reference
			[ -z "$ratio" ] || echo "$row $ratio -" >> "$data"
		else
			goal=
		fi
		printf '| %s | `%s` | %s | %s | %s | %s | %s | %s |\n' "$row" "$what" \
			"$(unit "$kind")" "${u:--}" "${o:--}" "${ratio:--}" "$goal" "$met"
	done
} > "$table"

# Repeatability: the shown figures of later boots against the first's,
# and the relative differences of the raw figures (ppm; the rows above
# 100 ppm are named).
noisy=() spread=0 loose=()
for spec in "${ROWS[@]}"; do
	read -r row kind _ <<< "$spec"
	for v in "${variants[@]}"; do
		name=$v worst=0
		[ "$v" = linux ] && name=ours
		for ((boot = 2; boot <= boots; boot++)); do
			f1=$(value "$v" "$row" "$kind" 1)
			fb=$(value "$v" "$row" "$kind" "$boot")
			[ "$f1" = "$fb" ] || noisy+=("$name $row $f1 (boot 1) vs $fb (boot $boot)")
			worst=$(awk -v a="${R[$v.$row.1]:-0}" -v b="${R[$v.$row.$boot]:-0}" -v m="$worst" \
				'BEGIN { d = a > b ? a - b : b - a
					 if (a > 0 && b > 0 && d / a * 1e6 > m) m = d / a * 1e6
					 printf "%.0f", m }')
		done
		[ "$worst" -le "$spread" ] || spread=$worst
		[ "$worst" -le 100 ] || loose+=("$name $row ${worst} ppm")
	done
done
spread_ppm=$spread

echo
cat "$table"
echo
if [ "$boots" -gt 1 ]; then
	echo "$boots boots per kernel: largest difference of a raw figure ${spread_ppm} ppm"
	[ ${#loose[@]} -eq 0 ] || echo "  over 100 ppm: $(printf '%s, ' "${loose[@]}" | sed 's/, $//')"
	[ ${#noisy[@]} -eq 0 ] || printf '  differs: %s\n' "${noisy[@]}"
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "bench: not measured: ${missing[*]}" >&2
	failed=1
fi
if [ "$failed" -ne 0 ]; then
	echo "bench: FAILED (logs in $work)" >&2
	[ -n "$quick" ] || echo "bench: $outdir/BENCHMARKS.md left as it was" >&2
	exit 1
fi

# The bar chart of the ratios, the goal of each row as a mark.
png=$outdir/BENCHMARKS$aname$KSUFFIX.png
command -v gnuplot >/dev/null || die "gnuplot missing (scripts/deps.sh gnuplot-nox)"
ymax=$(awk '{ if ($2 > m) m = $2 } END { print (m > 1 ? m : 1) * 1.2 }' "$data")
gnuplot <<EOF
set terminal png size 1100,520 font ",10" noenhanced
set output "$png"
set title "kprobe_events, ours / upstream $KERNEL${aname:+ arm64}: per-hit overhead, bulk time, memory (lower is better)"
set style fill solid 0.8 border -1
set boxwidth 0.7
set xrange [-0.6:$(wc -l < "$data") - 0.4]
set yrange [0:$ymax]
set ylabel "ratio ours / upstream"
set xtics rotate by -40 nomirror
set grid ytics
set key top center horizontal
plot "$data" using 0:2:xtic(1) with boxes lc rgb "#4477aa" title "ratio", \
     "" using 0:2:2 with labels offset 0,0.7 notitle, \
     "" using 0:(strcol(3) eq "-" ? 1/0 : \$3) with points pt 7 ps 1.3 lc rgb "#cc3311" title "goal", \
     1 with lines dt 2 lc rgb "black" title "upstream"
EOF

# BENCHMARKS.md
kver=$(make -s -C "$(src_dir upstream)" kernelversion)
srcpkg=$(dpkg-query -W -f='${Version}' "$KSRC_PKG" 2>/dev/null || echo unknown)
rev=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$TOP" diff --quiet HEAD -- kernel 2>/dev/null || rev="$rev + uncommitted changes"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
qemuv=$($qemu --version | head -n1)
cmd="make bench"
[ "$KERNEL" = 6.1 ] || cmd="$cmd KERNEL=$KERNEL"
[ -z "$aname" ] || cmd="make bench ARCH=arm64 KERNEL=$KERNEL"
for e in BENCH_QUICK BENCH_CALLS BENCH_BULK BENCH_WILD BENCH_BOOTS; do
	[ -z "${!e:-}" ] || cmd="$e=${!e} $cmd"
done
[ "${CI:-}" != true ] || cmd="CI=true $cmd"
if [ "$boots" -le 1 ]; then
	agree="one boot per kernel."
else
	agree="$boots boots per kernel, the table from the first; the raw
  figures of the boots differ by at most $spread_ppm ppm"
	[ ${#loose[@]} -eq 0 ] ||
		agree="$agree (over 100 ppm: $(printf '%s, ' "${loose[@]}" | sed 's/, $//'))"
	if [ ${#noisy[@]} -eq 0 ]; then
		agree="$agree, and every figure shown is the same."
	else
		agree="$agree; shown figures that differ: $(printf '%s; ' "${noisy[@]}" | sed 's/; $//')."
	fi
fi
memfree=$(for v in "${variants[@]}"; do
	awk -v t="${R[$v.memfree.1]:-0}" -v n="${N[$v.mem.1]:-1}" 'BEGIN { printf "%.0f ", t / n }'
done)
read -r mf_up mf_ours <<< "$memfree"
md=$outdir/BENCHMARKS.md
sec=$work/section.md
# This run's section: x86_64's, or arm64's (after it), whose rows go
# through other paths and whose method differs.
if [ -n "$aname" ]; then
cat > "$sec" <<EOF
## Linux $KERNEL, arm64

Produced by \`$cmd\` (scripts/bench.sh) on $(date -u '+%F %H:%M UTC').

- Kernel: $kver for arm64 from $TARBALL (Debian $KSRC_PKG $srcpkg),
  cross-built with aarch64-linux-gnu-gcc (tinyconfig, the kselftest
  fragment and scripts/config.arm64: no BTI, no BTF); upstream is the
  pristine tree, ours the same tree with our kernel/trace/trace_kprobe*
  and the prep patches of kernel/trace/prep/$KERNEL (tree at $rev); both
  with the same .config (but for our KPROBE_EVENTS_FENTRY) and the same
  initramfs (but for each kernel's own modules).
- Guest: \`ARCH=arm64 scripts/qemu-run.sh --variant VARIANT --icount --smp 1
  --mode cmd --cmd "$(guest_cmd VARIANT)"
  --file build/bench-arm64$KSUFFIX/bench-funcs\`, that is
  \`qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -accel tcg
  -icount shift=0,sleep=off -smp 1 -m 1G\`.
- Host: $cpu, $(nproc) CPUs; $qemuv.
- Repeatability: $agree

Under \`-icount shift=0,sleep=off\` guest time advances one nanosecond per guest
instruction, so each figure is an instruction count, here of arm64
instructions: the figures do not compare with the x86_64 sections', the
ratios do.

### Results

The same rows as the x86_64 sections, on \`$func\` and with arm64's
registers.  Per-hit rows: instructions per \`getppid()\` call above the
unprobed loop (the \`base\` row), $calls calls; their ratio is of those
overheads.  The regread row is per \`read()\` of one byte of /dev/zero
above that loop unprobed (\`rbase\`).  Bulk rows: guest milliseconds for
the whole operation on $nbulk probes.  n/a: the row cannot run on that
kernel (see Method).

$(cat "$table")

![ratios ours/upstream]($(basename "$png"))

Goals: entry's is ≤ 0.50 here: ours hooks a function's entry through
ftrace (DYNAMIC_FTRACE_WITH_REGS, the kprobes list shows it [FTRACE]),
where upstream's probe is a kprobe, a BRK exception and the
single-stepping of the instruction it replaced.  Every other row keeps
its x86_64 goal (see the x86_64 sections), but the five return rows
(ret, retval, retarg, pmuret, bpfret), whose goal column reads "-
(x86_64: ≤ G)": on x86_64 ours hooks a return probe's entry through
ftrace and its return through rethook, which 6.1's arm64 does not have,
so here both kernels take the same kretprobe and only the handlers
differ; x86_64's goal is shown, not claimed, and the chart has their
ratios without a goal mark.  The offset row is a BRK kprobe on both
kernels too (arm64 has no optimized kprobes), as it is an int3
kprobe on both on x86_64 (see there): its goal stays.  Not met besides offset:
enable and disable, where upstream arms each kprobe with one BRK
written under stop_machine while ours updates ftrace once for the
group, a cost that is mostly ftrace's walk of all its records whatever
the number of probes (x86_64's upstream, whose kprobes on function
entries go through ftrace, updates ftrace once per probe); and wild, for
the same reason (upstream's one kprobe per function costs little here).
alldef is met (about 1.4 x the function tracer's switch-on): enabling
costs about what the tracer's whole switch-on does, as on x86_64; the
define (22M guest instructions on 6.12, 35M before) no longer searches
kallsyms by name for the function each suffixed copy (foo.isra.0, about
560 of them) was made from, a third of it: the kprobe blacklist answers
from the names the walk saw on it (prep patch 0015).  (A function's ftrace site lies past its first instruction
here; the walk bounds it by the next symbol, not by a kallsyms lookup
of each function's size.)  On 6.12
entry is not met either: there upstream's kprobe costs less than on 6.1
and ftrace's own call more.  The function tracer alone on the same
function (row ftrace) is 0.52 of upstream's entry, and the goal asks
ours to cost less than it: of a hit, the ring buffer's reservation and
commit and ftrace's call are about 465 instructions, which leaves ours
about 130 for what the function tracer's own handler does in about 150
(its recursion lock, the trace context word, the record's fields) and
the lookup of the probe by its site besides.  ustring is met on 6.12
since an argument register is read from the ftrace_regs that 6.12's
ftrace saves, through its accessors, rather than from a copy of them
all into a struct pt_regs, which only perf, BPF, a stack trace and the
arch's own pt_regs helpers (\$stackN) still make.
entry1000 and the all rows are against our own rows, as on x86_64.

### Method

- As on x86_64 (see its Method): one vCPU (\`-smp 1\`, so that both
  architectures' figures are taken alike), kpe_bench's loop pinned to
  CPU 0 after a 200 ms settle and 1000 warm-up calls, the event enabled
  in the top-level instance with default buffer sizes; the same pmu,
  bpf, ftrace, all, graph, bulk, memory and wildcard rows, the bulk rows
  on the first $nbulk probeable functions defined under net/.  What
  differs:
- The offset row's \`+$offs\` is the first instruction of the body,
  after the two NOPs of -fpatchable-function-entry=2 that ftrace
  patches into \`mov x9, x30; bl ftrace_caller\`, read off both
  vmlinux files with aarch64-linux-gnu-objdump (no BTI landing pad in
  this config).
- Registers: the syscall wrapper \`$func(regs)\` gets the user's saved
  pt_regs in x0, whose regs[0] (offset 0) is getppid's ignored argument,
  the user string \`str\` that kpe_bench passes: the ustring row reads
  \`+0(+0(%x0))\`.  entry3args reads x0..x2, regread vfs_read's file and
  count in x0 and x2.  deref2 reads \`+8(%sp)\`, the return address in
  the frame record the caller (do_el0_svc) left at the stack pointer
  (arm64 keeps a function's own return address in x30), then 8 bytes of
  kernel text there: a return address on the stack and two
  dereferences, as on x86_64.
- The ftrace row filters on \`$func\` itself (no alias on arm64).
- fentry, fentrymap, fexit and btfread: n/a on both kernels, the arm64
  config has no BTF (BPF trampolines attach by BTF id, BTF argument
  names need it).  The bpf rows need none: their programs read no
  register.
- retdef, rethit, retclr: n/a, ours takes no pattern of returns on
  arm64 (no rethook: its README's pattern line says entries only); its
  entry patterns (wild, alldef) run.
- Wildcard row: \`$wild\`, sysfs and seq_file show functions, cold
  while the row runs as acpi_* is on x86_64 (which has no match here:
  the arm64 guest has no ACPI).
- Memory per probe: MemFree fell by $mf_up (upstream) and $mf_ours (ours)
  bytes per probe.
- The calls and bulk probes are x86_64's (no smaller defaults for
  arm64): a full run boots both kernels in about a minute here.
EOF
else
cat > "$sec" <<EOF
## Linux $KERNEL

Produced by \`$cmd\` (scripts/bench.sh) on $(date -u '+%F %H:%M UTC').

- Kernel: $kver from $TARBALL (Debian $KSRC_PKG $srcpkg); upstream
  is the pristine tree, ours the same tree with our kernel/trace/trace_kprobe*
  and the prep patches of kernel/trace/prep/$KERNEL (tree at $rev); both with the
  same .config (but for our KPROBE_EVENTS_FENTRY) and the same initramfs
  (but for each kernel's own modules).
- Guest: \`scripts/qemu-run.sh --variant VARIANT --icount --smp 1 --mode cmd
  --cmd "$(guest_cmd VARIANT)" --file build/bench$KSUFFIX/bench-funcs\`, that is
  \`qemu-system-x86_64 -accel tcg -icount shift=0,sleep=off -smp 1 -m 1G\`.
- Host: $cpu, $(nproc) CPUs; $qemuv.
- Repeatability: $agree

Under \`-icount shift=0,sleep=off\` guest time advances one nanosecond per guest
instruction, so each figure is an instruction count, the same from boot to
boot but for a few ppm (BENCH_BOOTS=2 shows how many).  Guest time also
counts what the kernel waits for (grace periods, timers), which is intended.

### Results

Per-hit rows: instructions per \`getppid()\` call above the unprobed loop
(the \`base\` row), $calls calls; their ratio is of those overheads.  The
regread and btfread rows are per \`read()\` of one byte of /dev/zero above
that loop unprobed (\`rbase\`): BTF argument names (ours only) against
the registers they stand for, which should cost the same.  Bulk rows:
guest milliseconds for the whole operation on $nbulk probes.

$(cat "$table")

![ratios ours/upstream]($(basename "$png"))

Goals (issues 4, 6 and 12): ratio ≤ 0.70 on entry, entry3args, retval and
every argument row (deref2, retarg); ≤ 0.65 on ret; ≤ 0.50 on entrycomm and
the string rows (string, ustring); ≤ 0.85 on offset; ≤ 0.10 on clear and
remove; ≤ 0.70 on add (both rows), enable and disable; memory per probe at
most upstream's; ≤ 0.05 on wild.  entry1000 (issue 26) is the entry
row again with $nbulk probes enabled on other functions (the bulk rows'
functions, none on the getppid() path): its goal is against our own
entry row, a hit costing at most 3 % more for what is probed elsewhere;
its ratio column compares it with upstream's own entry1000 as usual.
Issue 26's PMU rows: a probe made through perf's kprobe PMU, as perf
and bpftrace make theirs, ≤ 0.70 of upstream counting its hits (pmu),
≤ 0.60 on a return (pmuret), and ≤ 0.80 with a BPF program attached
(bpf, bpfmap, bpfret); the same programs as BPF fentry and fexit are
their references (fentry, fentrymap, fexit: the same BPF trampoline in
both kernels).  A counting event's hit needs no record (prep patch
0010, perf_tp_event_count()), and a BPF program's run no migrate
disable under preemption already off (0011).  The all rows (issue 26)
put every function ftrace can hook under one event, p:all/a *, against
the function tracer on every function, on the same kernel: define and
enable within 1.5 times its switch-on (alldef against allon), the
getppid() loop, per call above the unprobed loop, within 1.15 times its
cost under the tracer (allhit against allfn), disable and clear within
1.5 times its switch-off (allclr against alloff); allmem is what the
event took per function.  The ret rows do the same for returns:
r:allr/r * d=\$duration against the function_graph tracer on every
function, define and enable within 1.5 times its switch-on (retdef
against graphon), the loop at most its cost (rethit against graphfn),
disable and clear within 1.5 times its switch-off (retclr against
graphoff).  ftrace is a reference: the function tracer, the same code in
both kernels but for prep patches 0002, 0003 and 0016 (the trace context
word in line, its interrupt tests only in an interrupt; the commit's
test of the temp buffer without a preemption guard, which arm64 pays
and x86_64 does not), which it uses too.
Since issue 24 a record goes through the trace event core's API
(trace_event_file_plain(), the core's reservation and commit) and a
string through the kernel's nofault copies: the ret, offset and ustring
goals had been met with copies of core internals that are gone, and are
not met through the API alone (retval's is met again on 6.12 since the
hit path lost its stack canary).  alldef is met: defining the event
walks kallsyms up to the end of vmlinux's text (past it, once init text
is freed, no symbol is a function), looks up the ftrace site of each
function symbol (the padding symbols before functions are skipped) and
asks the kprobe blacklist about it along the walk (prep patches 0012 to
0015): by binary search only where the walk leaves the range it found
last, and for a suffixed function (foo.part.0) from the names the walk
saw on the blacklist, not by a search of kallsyms for foo, which was a
quarter of the define on 6.12.  Of what is left, the names' expansion
is about two fifths on 6.12.
Enabling it is the tracer's own switch-on (the same patching of every
function) plus the filter of every function's address our ftrace_ops
needs and the tracer's does not; the hits ftrace delivers while it
patches return at once, as the tracer's do, our ops serving no
function yet.

### Method

- One vCPU (\`-smp 1\`): under icount, QEMU 7.2 hangs at "x86: Booting SMP
  configuration" with two.  On one CPU synchronize_rcu() returns at once
  (a non-preemptible kernel), yet removing a probe one at a time still
  takes about 12 ms of guest time on both kernels.
- Per-hit rows (kpe_bench loop): pinned to CPU 0, 200 ms settle (lets the
  kprobe optimizer run; the +0 rows are [FTRACE], and the offset row
  stays an int3 kprobe on both kernels all the same: the instructions its
  jump would replace, \`push %rbx; call ...\`, include a call, which the
  x86 kprobes core does not copy out of line), 1000 warm-up calls, then the timed calls, the event enabled
  in the top-level instance with default buffer sizes (the buffer wraps).
  Each call is \`syscall(SYS_getppid, str)\`: getppid ignores its argument,
  so the ustring row reads the user string \`str\` through the saved
  pt_regs (\`+112(%di)\` is regs->di of \`__x64_sys_getppid(regs)\`).  The
  string row reads a kernel string through a pointer (saved_command_line,
  the same on both boots); deref2 reads the return address on the stack,
  then 8 bytes of kernel text there.  The offset row's \`+$offs\` is the
  first instruction after \`call __fentry__\`, read off both vmlinux
  files (after IBT's endbr64 it is +9, not +5).
- pmu rows (kpe_bench pmu): the same loop with a counting perf event of
  the process from \`perf_event_open()\` with the kprobe PMU's type and
  \`kprobe_func = "__x64_sys_getppid"\` (and the retprobe bit), opened
  before the settle; the run fails unless it counted every call.
- bpf rows (kpe_bench bpf): the same loop with a BPF program loaded with
  bpf(BPF_PROG_LOAD) (raw instructions, no libbpf): empty (\`r0 = 0\`),
  or map, which adds one to slot 0 of a per-CPU array as bpftrace's
  \`count()\` does (the run fails unless the slots sum to every call).
  bpf, bpfmap and bpfret attach it as bpftrace does a kprobe: a kprobe
  PMU event (sample period 1) given the program with
  PERF_EVENT_IOC_SET_BPF, then enabled; fentry, fentrymap and fexit load
  it as a BPF_PROG_TYPE_TRACING program on the function's BTF id (BTF
  names \`__do_sys_getppid\`, the same address) and attach it with
  BPF_RAW_TRACEPOINT_OPEN.
  The ftrace row filters on \`__do_sys_getppid\`, the name ftrace gives
  the address of \`__x64_sys_getppid\` (the compiler merged the two).
- all rows (kpe_bench put, a timed sequence of writes after a settle):
  allon writes "function" to current_tracer (set_ftrace_filter empty:
  every function), allfn is the getppid() loop (all of it: the calls
  the loop makes are traced too), alloff writes "nop"; alldef appends
  \`p:all/a *\` to kprobe_events and writes 1 to its enable, allhit is
  the loop with it enabled, allclr writes 0 to the enable and clears
  kprobe_events.  Both record into the ring buffer, which wraps.
  allmem: the growth of Slab + Percpu + VmallocUsed over alldef (after
  drop_caches), divided by the functions it hooked (the lines of
  debugfs kprobes/list, nothing else being defined then).
- graph and ret rows: the same with "function_graph" written to
  current_tracer (graphon, graphfn, graphoff) and
  \`r:allr/r * d=\$duration\` (retdef, rethit, retclr); the run fails
  unless kprobe_profile counts more hits than loop calls.  Nothing reads
  trace while either records: a reader whose every call records its
  entry and return is lapped by its own records without end.
- Bulk rows (kpe_bench bulk): $nbulk functions defined under net/ (no
  network in the guest, so none fires), kept if in
  available_filter_functions, not in the kprobe blacklist and unique in
  kallsyms, sorted, the first $nbulk; events kpeb/e0...  Each operation is
  timed around its write(s) in one static process: add one per write,
  enable and disable through events/kpeb/enable, clear (open with O_TRUNC
  and write a newline, as \`echo > kprobe_events\`), add all in one write
  (the kernel's parser takes a write of any size in 4 KiB chunks), remove
  one by one with \`-:kpeb/eI\`.  A 200 ms settle precedes each.
- Memory per probe: the growth of Slab + Percpu + VmallocUsed
  (/proc/meminfo) over the add-one-per-write row, after drop_caches and a
  settle, divided by the probe count: what the kernel allocates for them.
  MemFree, which also moves with the page allocator's per-CPU lists, fell
  by $mf_up (upstream) and $mf_ours (ours) bytes per probe.
- Wildcard row: defining and enabling, timed together.  Ours: one event
  \`p:wild/w $wild\`; upstream: one write of one event per function the
  glob matches (probeable as above), then events/wild/enable.
- Both kernels derive their lists in the guest the same way; the run
  fails if their checksums differ.
EOF
fi
# One section per kernel in BENCHMARKS.md, between markers: this run's
# replaces its own and keeps the others (6.12, the default, first).
# arm64's sections (6.12-arm64, 6.1-arm64) follow x86_64's, each there
# once make bench ARCH=arm64 wrote it: none is promised, so one not yet
# written is left out (and x86_64's report stays as it was without them).
key=$KERNEL$aname
keys=()
for k in 6.12 6.1 6.12-arm64 6.1-arm64; do
	case $k in
	*-arm64)
		[ "$k" = "$key" ] ||
			{ [ -f "$md" ] && grep -q "^<!-- bench:$k -->\$" "$md"; } ||
			continue ;;
	esac
	keys+=("$k")
done
{
	echo "# Benchmarks: our kprobe_events against the kernel's own"
	echo
	echo "One section per kernel of record, each written by \`make bench KERNEL=K\`"
	echo "(scripts/bench.sh), which replaces its own and keeps the other."
	case " ${keys[*]} " in
	*-arm64\ *)
		echo "The arm64 sections, after them, are written the same way by"
		echo "\`make bench ARCH=arm64 KERNEL=K\`." ;;
	esac
	for k in "${keys[@]}"; do
		echo
		echo "<!-- bench:$k -->"
		if [ "$k" = "$key" ]; then
			cat "$sec"
		elif [ -f "$md" ] && grep -q "^<!-- bench:$k -->\$" "$md"; then
			sed -n "/^<!-- bench:$k -->\$/,/^<!-- \/bench:$k -->\$/p" "$md" | sed '1d;$d'
		else
			echo "## Linux $k"
			echo
			echo "Not measured yet: \`make bench KERNEL=$k\`."
		fi
		echo "<!-- /bench:$k -->"
	done
} > "$md.new"
mv "$md.new" "$md"
log "wrote the Linux $KERNEL${aname:+, arm64} section of $md, and $png"
