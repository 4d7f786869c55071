#!/bin/bash
# conformance.sh [linux|upstream|both]: run the kernel's own ftracetest
# kprobe suites (DESIGN §5.2) in the guest on our kernel ("linux"), on the
# pristine one ("upstream") or on both (default), and print a table: each
# case's result on upstream and on ours, then each kernel's totals.
#
# The guest runs /ftrace/ftracetest (put in the initramfs by initramfs.sh,
# from the pristine tree) in mode "conformance"; the full console log is
# build/VARIANT/conformance.log.
#
# Exit status is non-zero if our kernel has any case that is not PASS,
# UNSUPPORTED, UNTESTED or XFAIL (so FAIL, UNRESOLVED, UNDEFINED or a case
# that never reported), if a case that passes on upstream does not pass on
# ours, or on a kernel splat or a guest timeout on either kernel.  Run on
# upstream alone, upstream is held to the same rules.
#
# With ARCH=arm64, "linux" and "upstream" are the arm64 variants (arm64,
# upstream-arm64), booted in qemu-system-aarch64.
#
# Environment: CONFORMANCE_TIMEOUT (seconds per boot, default 1200; the
# guest runs on single-threaded TCG), CONFORMANCE_VERBOSE=1 (show the whole
# console, not only the progress lines), QEMU_ARGS (more qemu-run.sh options).
. "$(dirname "$0")/common.sh"

which=${1:-both}
case $which in
linux) variants=(linux) ;;
upstream) variants=(upstream) ;;
both) variants=(upstream linux) ;;
*) die "usage: $0 [linux|upstream|both]" ;;
esac
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

# Results per variant: res_VARIANT[case]=RESULT, tot_VARIANT[kind]=N,
# status_VARIANT = ok | splat | timeout | noresult.
declare -A res_linux=() res_upstream=() tot_linux=() tot_upstream=()
status_linux= status_upstream=
cases=()
secs_linux= secs_upstream=

run_variant() {
	local v=$1 vdir ftdir log err rc start
	vdir=$(variant_dir "$(arch_variant "$v")")
	ftdir=$vdir/initramfs/ftrace
	[ -x "$ftdir/ftracetest" ] ||
		die "$vdir/initramfs has no ftracetest: run scripts/initramfs.sh $(arch_variant "$v")"
	cmp -s "$vdir/initramfs/init" "$TOP/scripts/guest/init" ||
		die "$vdir/initramfs has an old init: run scripts/initramfs.sh $(arch_variant "$v")"

	local list=()
	local f
	for f in "$ftdir"/test.d/kprobe/*.tc; do list+=("test.d/kprobe/${f##*/}"); done
	for f in "${DYNEVENT_CASES[@]}"; do
		[ -f "$ftdir/$f" ] || die "$f not in $ftdir"
		list+=("$f")
	done
	# The case list is the same for both variants (same pristine tree).
	if [ ${#cases[@]} -eq 0 ]; then
		for f in "${list[@]}"; do cases+=("${f#test.d/}"); done
	fi

	log=$vdir/conformance.log
	err=$(mktemp)
	log "conformance: $v kernel, ${#list[@]} cases, timeout ${timeout}s, log $log"
	start=$SECONDS
	set +e
	"$TOP/scripts/qemu-run.sh" --variant "$v" --mode conformance \
		--tests "${list[*]}" --log "$log" --timeout "$timeout" ${QEMU_ARGS:-} \
		2>"$err" |
	if [ -n "${CONFORMANCE_VERBOSE:-}" ]; then cat; else
		grep --line-buffered -E '^(kpe:|=== Ftrace|\[[0-9]+\]|# of )'
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

	# kpe-case: N RESULT DIR/FILE.tc, printed by the guest after the run.
	local -n res=res_$v tot=tot_$v
	local n r name k
	while read -r _ n r name; do
		res[$name]=$r
	done < <(grep -E '^kpe-case: [0-9]+ [A-Z]+ ' "$log")
	if [ "${#res[@]}" -eq 0 ]; then
		# The guest never got that far (timeout, crash): fall back on
		# ftracetest's progress lines "[N] description<TAB>[RESULT]",
		# case N being list[N-1].  A kernel message can split such a
		# line, so a "<TAB>[RESULT]" line end belongs to the last "[N]"
		# seen.  The case still running at the end gets the run's
		# status (TIMEOUT, SPLAT, NORESULT).
		while read -r n r; do
			[ "$n" -le ${#list[@]} ] || continue
			[ "$r" != - ] || r=${status^^}
			res[${list[n - 1]#test.d/}]=$r
		done < <(awk '
			match($0, /^\[[0-9]+\]/) { cur = substr($0, 2, RLENGTH - 2) + 0 }
			cur && match($0, /\t\[[A-Z]+\]$/) { r[cur] = substr($0, RSTART + 2, RLENGTH - 3) }
			END {
				for (n = 1; n <= cur; n++)
					if (n in r) print n, r[n]; else if (n == cur) print n, "-"
			}' "$log")
	fi
	for k in passed failed unresolved untested unsupported xfailed; do
		tot[$k]=$(sed -n "s/^# of $k: *\([0-9]*\).*/\1/p" "$log" | tail -n1)
	done
	tot[undefined]=$(sed -n 's/^# of undefined[^:]*: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
}

for v in "${variants[@]}"; do run_variant "$v"; done

# A case's result, or "-" when that kernel was not run, or MISSING.
result() { # variant case
	local -n st=status_$1 res=res_$1
	[ -n "$st" ] || { echo -; return; }
	echo "${res[$2]:-MISSING}"
}

w=0
for c in "${cases[@]}"; do [ ${#c} -gt $w ] && w=${#c}; done
echo
printf "%-${w}s  %-12s %s\n" "ftracetest case" upstream ours
printf "%-${w}s  %-12s %s\n" "---------------" -------- ----
bad=0
for c in "${cases[@]}"; do
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
	[ -z "$mark" ] || bad=$((bad + 1))
	printf "%-${w}s  %-12s %-12s%s\n" "$c" "$u" "$o" "$mark" | sed 's/ *$//'
done

echo
totals() { # variant
	local -n st=status_$1 tot=tot_$1 secs=secs_$1
	[ -n "$st" ] || return 0
	local name=$1
	[ "$1" = linux ] && name="ours (linux)"
	local line="$name:" note=
	local k c
	if [ -z "${tot[passed]:-}" ]; then
		# No ftracetest summary: count what the cases reported.
		local -n res=res_$1
		local -A cnt=()
		for c in "${cases[@]}"; do
			case ${res[$c]:-} in
			PASS) k=passed ;; FAIL) k=failed ;; UNRESOLVED) k=unresolved ;;
			UNTESTED) k=untested ;; UNSUPPORTED) k=unsupported ;;
			XFAIL) k=xfailed ;; UNDEFINED) k=undefined ;; *) k=unreported ;;
			esac
			cnt[$k]=$(( ${cnt[$k]:-0} + 1 ))
		done
		for k in passed failed unresolved untested unsupported xfailed undefined unreported; do
			tot[$k]=${cnt[$k]:-0}
		done
		note=" [no ftracetest summary; ${tot[unreported]} case(s) unreported]"
	fi
	for k in passed failed unresolved untested unsupported xfailed undefined; do
		line+=" ${tot[$k]} $k,"
	done
	line=${line%,}$note
	line+=" (${secs}s)"
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
	# The kernel under test: ours, or upstream when run alone.
	if [ "$v" = linux ] || [ "$which" = upstream ]; then
		declare -n t=tot_$v
		if [ "${t[failed]:-0}" != 0 ] || [ "${t[unresolved]:-0}" != 0 ] ||
		   [ "${t[undefined]:-0}" != 0 ]; then
			fail=1
		fi
		unset -n t
	fi
done
[ "$bad" -eq 0 ] || fail=1
if [ "$fail" -ne 0 ]; then
	echo "conformance: FAILED ($bad case(s) marked <-)"
	exit 1
fi
echo "conformance: OK"
