#!/bin/bash
# conformance.sh [linux|upstream|both]: run the kernel's own ftracetest
# kprobe suites (DESIGN §5.2) in the guest on our kernel ("linux"), on the
# pristine one ("upstream") or on both (default), and print a table: each
# case's result on upstream and on ours, then each kernel's totals.
#
# Two suites, one table each: the kernel's own (/ftrace/ftracetest, from
# the pristine 6.1 tree) and Linux 6.12's newer one (/ftrace-6.12, from
# Debian's linux-source-6.12; its cases are named 6.12/DIR/FILE.tc),
# both put in the initramfs by initramfs.sh and run in one boot per
# kernel, in mode "conformance"; the full console log is
# build/VARIANT/conformance.log.  KPE_FT612=0 leaves the 6.12 suite out.
#
# Exit status is non-zero if our kernel has any case that is not PASS,
# UNSUPPORTED, UNTESTED or XFAIL (so FAIL, UNRESOLVED, UNDEFINED or a case
# that never reported), if a case that passes on upstream does not pass on
# ours, or on a kernel splat or a guest timeout on either kernel.  Run on
# upstream alone, upstream is held to the same rules.  The one exception:
# a case common.sh's FT612_KNOWN lists (a 6.12 case that fails on 6.1's
# core, not on the kprobe event tracer; with KERNEL=6.12, dynevent cases
# that fail on the pristine 6.12 alike, for the guest's sake) may fail
# where upstream does not pass it; the table says "known" and why.
#
# With ARCH=arm64, "linux" and "upstream" are the arm64 variants (arm64,
# upstream-arm64), booted in qemu-system-aarch64.
#
# Environment: CONFORMANCE_TIMEOUT (seconds per boot, default 1200; the
# guest runs on single-threaded TCG), CONFORMANCE_VERBOSE=1 (show the whole
# console, not only the progress lines), QEMU_ARGS (more qemu-run.sh options).
. "$(dirname "$0")/common.sh"

which=${1:-both}
pick_variants "$which"
timeout=${CONFORMANCE_TIMEOUT:-1200}

# The cases, relative to the ftracetest directory: every test.d/kprobe/*.tc
# (globbed from the copy in the initramfs, so a newer 6.1.y brings its new
# cases), plus the test.d/dynevent cases that exercise kprobes.  Chosen by
# grepping test.d/dynevent/*.tc for "kprobe" and for the kprobe place
# syntax in their "requires:" lines:
#   add_remove_kprobe.tc    p/r events through dynamic_events (requires
#                           the kprobe "place:" README lines)
#   clear_select_events.tc  requires kprobe_events; clears through
#                           kprobe_events vs dynamic_events
#   generic_clear_event.tc  "!p:..." / "!r:..." removal of kprobe events
#   test_duplicates.tc      duplicate kprobe/eprobe names (its kprobe part
#                           runs when kprobe_events exists)
# Left out: add_remove_eprobe.tc, eprobes_syntax_errors.tc (eprobes only),
# add_remove_synth.tc (synthetic events only).
DYNEVENT_CASES=("${FTRACETEST_DYNEVENT_CASES[@]}")

# Results per variant: res_VARIANT[case]=RESULT,
# status_VARIANT = ok | splat | timeout | noresult.
declare -A res_linux=() res_upstream=()
status_linux= status_upstream=
cases=() cases612=()
secs_linux= secs_upstream=

run_variant() {
	local v=$1 vdir ftdir log err rc start
	vdir=$(variant_dir "$(arch_variant "$v")")
	ftdir=$vdir/initramfs/ftrace
	[ -x "$ftdir/ftracetest" ] ||
		die "$vdir/initramfs has no ftracetest: run scripts/initramfs.sh $(arch_variant "$v")"
	cmp -s "$vdir/initramfs/init" "$TOP/scripts/guest/init" ||
		die "$vdir/initramfs has an old init: run scripts/initramfs.sh $(arch_variant "$v")"

	local list=() list612=()
	local f
	for f in "$ftdir"/test.d/kprobe/*.tc; do list+=("test.d/kprobe/${f##*/}"); done
	for f in "${DYNEVENT_CASES[@]}"; do
		[ -f "$ftdir/$f" ] || die "$f not in $ftdir"
		list+=("$f")
	done
	if [ "${KPE_FT612:-1}" != 0 ]; then
		[ -x "$vdir/initramfs/ftrace-6.12/ftracetest" ] ||
			die "$vdir/initramfs has no 6.12 ftracetest: run scripts/initramfs.sh $(arch_variant "$v")"
		mapfile -t list612 < <(ft612_cases "$vdir/initramfs/ftrace-6.12")
	fi
	# The case list is the same for both variants (same trees).
	if [ ${#cases[@]} -eq 0 ]; then
		for f in "${list[@]}"; do cases+=("${f#test.d/}"); done
		for f in "${list612[@]}"; do
			f=${f#6.12:}
			cases612+=("6.12/${f#test.d/}")
		done
	fi

	log=$vdir/conformance.log
	err=$(mktemp)
	log "conformance: $v kernel, ${#list[@]} + ${#list612[@]} (6.12) cases, timeout ${timeout}s, log $log"
	start=$SECONDS
	set +e
	"$TOP/scripts/qemu-run.sh" --variant "$v" --mode conformance \
		--tests "${list[*]} ${list612[*]}" --log "$log" --timeout "$timeout" ${QEMU_ARGS:-} \
		2>"$err" |
	if [ -n "${CONFORMANCE_VERBOSE:-}" ]; then cat; else
		grep --line-buffered -E '^(kpe:|kpe-ftracetest:|=== Ftrace|\[[0-9]+\]|# of )'
	fi
	rc=${PIPESTATUS[0]}
	set -e
	cat "$err" >&2
	eval "secs_$v=$((SECONDS - start))"

	local status=ok
	if grep -q '^kpe: kernel splat' "$err"; then status=splat
	elif grep -q '^kpe: guest timed out' "$err"; then status=timeout
	elif ! grep -q '^kpe: done rc=' "$log"; then status=noresult
	elif [ "$rc" -ne 0 ] && ! grep -q '^kpe-case: ' "$log"; then status=noresult
	fi
	rm -f "$err"
	eval "status_$v=$status"

	# kpe-case: N RESULT [6.12/]DIR/FILE.tc, printed by the guest after
	# each suite's run.
	local -n res=res_$v
	local n r name
	while read -r _ n r name; do
		res[$name]=$r
	done < <(grep -E '^kpe-case: [0-9]+ [A-Z]+ ' "$log")
	# A suite whose cases never got that far (timeout, crash): fall back
	# on ftracetest's progress lines "[N] description<TAB>[RESULT]" of
	# that suite's part of the log (the 6.12 one starts at the guest's
	# "kpe-ftracetest: 6.12" line), case N being its list[N-1].  A kernel
	# message can split such a line, so a "<TAB>[RESULT]" line end belongs
	# to the last "[N]" seen.  The case still running at the end gets the
	# run's status (TIMEOUT, SPLAT, NORESULT).
	local part names=()
	for part in 6.1 6.12; do
		if [ $part = 6.1 ]; then
			names=("${list[@]#test.d/}")
		else
			names=("${list612[@]#6.12:test.d/}")
			names=("${names[@]/#/6.12/}")
		fi
		[ ${#names[@]} -gt 0 ] || continue
		[ -z "${res[${names[0]}]:-}" ] || continue
		while read -r n r; do
			[ "$n" -le ${#names[@]} ] || continue
			[ "$r" != - ] || r=${status^^}
			res[${names[n - 1]}]=$r
		done < <(awk -v part=$part '
			/^kpe-ftracetest: 6\.12/ { in612 = 1; next }
			(part == "6.12") != (in612 == 1) { next }
			match($0, /^\[[0-9]+\]/) { cur = substr($0, 2, RLENGTH - 2) + 0 }
			cur && match($0, /\t\[[A-Z]+\]$/) { r[cur] = substr($0, RSTART + 2, RLENGTH - 3) }
			END {
				for (n = 1; n <= cur; n++)
					if (n in r) print n, r[n]; else if (n == cur) print n, "-"
			}' "$log")
	done
}

for v in "${variants[@]}"; do run_variant "$v"; done

# A case's result, or "-" when that kernel was not run, or MISSING.
result() { # variant case
	local -n st=status_$1 res=res_$1
	[ -n "$st" ] || { echo -; return; }
	echo "${res[$2]:-MISSING}"
}

# table TITLE CASE...: one suite's table; adds the cases marked "<-" to
# bad.  A 6.12 case in FT612_KNOWN that fails on ours where upstream does
# not pass it is marked "known" with the reason, not "<-".
bad=0
table() {
	local title=$1; shift
	local c u o mark why w=15
	for c in "$@"; do [ ${#c} -gt $w ] && w=${#c}; done
	echo
	echo "$title"
	printf "%-${w}s  %-12s %s\n" "ftracetest case" upstream ours
	printf "%-${w}s  %-12s %s\n" "---------------" -------- ----
	for c in "$@"; do
		u=$(result upstream "$c")
		o=$(result linux "$c")
		mark=
		if [ "$o" != - ]; then
			# Ours must not fail, and must pass what upstream passes.
			case $o in PASS|UNSUPPORTED|UNTESTED|XFAIL) ;; *) mark='  <-' ;; esac
			[ "$u" != PASS ] || [ "$o" = PASS ] || mark='  <-'
		elif [ "$u" != - ]; then
			# Upstream alone: it is the kernel under test.
			case $u in PASS|UNSUPPORTED|UNTESTED|XFAIL) ;; *) mark='  <-' ;; esac
		fi
		if [ -n "$mark" ] && [ "$u" != PASS ] && why=$(ft612_known "$c"); then
			mark="  known: $why"
		fi
		[ "$mark" != '  <-' ] || bad=$((bad + 1))
		printf "%-${w}s  %-12s %-12s%s\n" "$c" "$u" "$o" "$mark" | sed 's/ *$//'
	done
}
table "Linux $KERNEL ftracetest (the kernel's own, pristine tree)" "${cases[@]}"
[ ${#cases612[@]} -eq 0 ] ||
	table "Linux 6.12 ftracetest (Debian's linux-source-6.12)" "${cases612[@]}"

# totals VARIANT: its results per suite, counted from the cases.
echo
totals() {
	local -n st=status_$1 res=res_$1 secs=secs_$1
	[ -n "$st" ] || return 0
	local name=$1 suite c k line
	[ "$1" = linux ] && name="ours (linux)"
	line="$name:"
	for suite in 6.1 6.12; do
		local -A cnt=()
		local -a cs
		if [ $suite = 6.1 ]; then cs=("${cases[@]}"); else cs=("${cases612[@]}"); fi
		[ ${#cs[@]} -gt 0 ] || continue
		for c in "${cs[@]}"; do
			case ${res[$c]:-} in
			PASS) k=passed ;; FAIL) k=failed ;; UNRESOLVED) k=unresolved ;;
			UNTESTED) k=untested ;; UNSUPPORTED) k=unsupported ;;
			XFAIL) k=xfailed ;; UNDEFINED) k=undefined ;; *) k=unreported ;;
			esac
			cnt[$k]=$(( ${cnt[$k]:-0} + 1 ))
		done
		# (the first is the kernel's own: 6.12's with KERNEL=6.12)
		if [ $suite = 6.1 ]; then line+=" $KERNEL:"; else line+=" $suite:"; fi
		for k in passed failed unresolved untested unsupported xfailed undefined unreported; do
			case $k in passed | failed) ;; *) [ -n "${cnt[$k]:-}" ] || continue ;; esac
			line+=" ${cnt[$k]:-0} $k,"
		done
		line="${line%,};"
		unset cnt
	done
	line="${line%;} (${secs}s)"
	[ "$st" = ok ] || line+="  ** $st **"
	echo "$line"
}
totals upstream
totals linux

fail=0
for v in "${variants[@]}"; do
	st=status_$v
	case ${!st} in
	ok) ;;
	splat) echo "$v: kernel splat in the console ($(variant_dir "$(arch_variant "$v")")/conformance.log)"; fail=1 ;;
	timeout) echo "$v: guest timed out after ${timeout}s ($(variant_dir "$(arch_variant "$v")")/conformance.log)"; fail=1 ;;
	*) echo "$v: guest ended without a result ($(variant_dir "$(arch_variant "$v")")/conformance.log)"; fail=1 ;;
	esac
done
[ "$bad" -eq 0 ] || fail=1
if [ "$fail" -ne 0 ]; then
	echo "conformance: FAILED ($bad case(s) marked <-)"
	exit 1
fi
echo "conformance: OK"
