# SPDX-License-Identifier: GPL-2.0
# description: shared helpers for the kprobe_events selftests (sourced)
#
# Exit codes: 0 pass, 1 fail, 4 skip.  Diagnostics are prefixed with "# ".

T=/sys/kernel/tracing
if [ ! -f "$T/kprobe_events" ] && [ -f /sys/kernel/debug/tracing/kprobe_events ]; then
	T=/sys/kernel/debug/tracing
fi

DIR=$(cd "$(dirname "$0")" && pwd)
KPE_WRITE=$DIR/kpe_write
KPE_LOOP=$DIR/kpe_loop
TEST_NAME=$(basename "$0")
# A kernel address as %lx prints it: the kernel half of a 64-bit address
# space starts at 0xffff000000000000 with 48-bit virtual addresses, at
# 0xfff0000000000000 with 52 (arm64's ARM64_VA_BITS_52, Debian's 6.12).
KADDR_RE='0xfff[0-9a-f]{13}'
NL='
'
BG_PIDS=
IN_FAIL=

# The architecture's registers, for the tests that name one (fetch-arg
# syntax, with the %), from the guest's uname -m:
#   KPE_ARG1_REG, KPE_ARG2_REG, KPE_ARG3_REG  a function's first three
#                  arguments at its entry (x86_64 %di %si %dx, arm64 %x0-%x2)
#   KPE_RET_REG    the return value at a return probe (%ax, %x0)
#   KPE_SP_REG     the stack pointer (%sp on both)
#   KPE_IP_REG     the instruction pointer (%ip, %pc)
#   KPE_RA_ARG     a function's return address at its entry: the word on
#                  top of the stack on x86_64 ($stack0), the link register
#                  on arm64 (%lr)
#   KPE_REGS       every register name the architecture's fetch args take
#                  (without the %)
#   KPE_SYS        the prefix of the system calls' entry points
#                  (__x64_sys_, __arm64_sys_)
# KPE_ARCH is x86_64 or arm64; any other machine gets x86_64's names.
case $(uname -m) in
aarch64 | arm64)
	KPE_ARCH=arm64
	KPE_ARG1_REG=%x0 KPE_ARG2_REG=%x1 KPE_ARG3_REG=%x2 KPE_RET_REG=%x0
	KPE_SP_REG=%sp KPE_IP_REG=%pc KPE_RA_ARG=%lr KPE_SYS=__arm64_sys_
	KPE_REGS="x0 x1 x2 x3 x4 x5 x6 x7 x8 x9 x10 x11 x12 x13 x14 x15 x16 x17 x18 x19 x20 x21 x22 x23 x24 x25 x26 x27 x28 x29 x30 lr sp pc pstate"
	;;
*)
	KPE_ARCH=x86_64
	KPE_ARG1_REG=%di KPE_ARG2_REG=%si KPE_ARG3_REG=%dx KPE_RET_REG=%ax
	KPE_SP_REG=%sp KPE_IP_REG=%ip KPE_RA_ARG='$stack0' KPE_SYS=__x64_sys_
	KPE_REGS="ax bx cx dx si di bp sp r8 r9 r10 r11 r12 r13 r14 r15 ip flags"
	;;
esac

# need_x86 WHAT: skip unless the guest is x86_64 (WHAT says what in the
# test is x86-only: int3, the APIC's NMI, endbr64 offsets, ...)
need_x86() {
	[ "$KPE_ARCH" = x86_64 ] || skip "x86_64 only: $*"
}

# log MSG...: diagnostic line
log() {
	echo "# $*"
}

# dump FILE: print a file with every line prefixed by "# "
dump() {
	echo "# --- $1:"
	sed 's/^/#   /' "$1" 2>/dev/null
}

# kill background helpers started by the test (by pid only)
kill_bg() {
	for p in $BG_PIDS; do
		kill "$p" 2>/dev/null
	done
	for p in $BG_PIDS; do
		wait "$p" 2>/dev/null
	done
	BG_PIDS=
}

fail() {
	echo "# FAIL: $*"
	if [ -z "$IN_FAIL" ]; then
		IN_FAIL=1
		dump "$T/kprobe_events"
		kill_bg
		reset >/dev/null 2>&1
	fi
	exit 1
}

skip() {
	echo "# SKIP: $*"
	kill_bg
	reset >/dev/null 2>&1
	exit 4
}

pass() {
	echo "# PASS: $TEST_NAME"
	exit 0
}

# snapshot: the current kprobe_events listing
snapshot() {
	cat "$T/kprobe_events"
}

# listing: the listing with trailing blanks stripped, comment lines dropped
listing() {
	sed -e 's/[[:space:]]*$//' -e '/^#/d' -e '/^$/d' "$T/kprobe_events"
}

# listing_has LINE: the listing contains exactly LINE as one line
listing_has() {
	listing | grep -qxF -- "$1"
}

# nr_probes: number of probes listed
nr_probes() {
	listing | wc -l | tr -d ' '
}

# ev_dir [GRP/]EVENT: path of the event directory
ev_dir() {
	case "$1" in
	*/*) echo "$T/events/$1" ;;
	*) echo "$T/events/kprobes/$1" ;;
	esac
}

# quiet_write VALUE FILE: echo VALUE > FILE, no error messages, returns status
quiet_write() {
	{ echo "$1" > "$2"; } 2>/dev/null
}

# enable_ev / disable_ev [GRP/]EVENT
enable_ev() {
	quiet_write 1 "$(ev_dir "$1")/enable" || fail "cannot enable $1"
}
disable_ev() {
	quiet_write 0 "$(ev_dir "$1")/enable" || fail "cannot disable $1"
}

# all_setup GRP/EVENT: the start of a test of one event over every
# function (test_wildcard_all*.sh): PAT is "*", or "[a-m]*" on a kernel
# with KASAN (make check-debug), to keep the run's time in bounds, and
# the lockup detectors' limits raised there (all_detectors_slow);
# KPLIST the kprobes list, AFF how many functions ftrace can hook, KMOD
# 1 when kpe_kmod could be loaded (it is); a 256 KiB buffer, as reading
# a full one of the debug kernel (4 CPUs, KASAN, under TCG) takes the
# core longer than the soft-lockup detector allows.  An exit trap puts
# back the buffer, disables and clears GRP/EVENT and unloads kpe_kmod.
all_setup() {
	ALL_EV=$1
	case $ALL_EV in */r) need_fentry_return ;; *) need_fentry ;; esac
	reset || fail "initial reset failed"
	ALL_KB=$(cat "$T/buffer_size_kb")
	case $ALL_KB in *[!0-9]*) ALL_KB=1408 ;; esac
	trap all_cleanup EXIT
	PAT=${KPE_ALL_PAT:-*}
	ALL_WD='' ALL_RS=''
	if grep -q ' kasan_report$' /proc/kallsyms; then
		PAT='[a-m]*'
		all_detectors_slow
	fi
	KPLIST=/sys/kernel/debug/kprobes/list
	AFF=$(wc -l < "$T/available_filter_functions")
	KMOD=
	if [ -n "$(find /lib/modules -name kpe_kmod.ko 2>/dev/null)" ]; then
		need_kmod
		modprobe kpe_kmod || fail "modprobe kpe_kmod failed"
		KMOD=1
	fi
	echo 256 > "$T/buffer_size_kb" || fail "cannot resize the buffer"
}
# all_hooked WHAT: with the every-function event enabled (and nothing
# else defined, so that each line of kprobes/list is one of its
# functions): more than the 4096 a pattern was once limited to, at most
# what ftrace can hook; WHAT names them in the log.  With KMOD,
# kpe_kmod's functions are among them.  The list is read once (21,000
# lines).
all_hooked() {
	_list=/tmp/kpe-all.list
	cat "$KPLIST" > "$_list" || fail "cannot read $KPLIST"
	_n=$(wc -l < "$_list")
	log "$PAT: $_n $1 hooked of $AFF functions ftrace can hook"
	[ "$_n" -gt 4096 ] || fail "only $_n functions hooked by '$PAT'"
	[ "$_n" -le "$AFF" ] || fail "$_n functions hooked, more than ftrace's $AFF"
	[ -z "$KMOD" ] || grep -q '  kpe_kmod ' "$_list" ||
		fail "none of kpe_kmod's functions hooked"
}

# all_exact: after all_hooked, the functions hooked are exactly those
# of available_filter_functions that PAT matches, less those kprobes
# refuse: every such function not hooked is on the kprobe blacklist, or
# is a suffixed copy (foo.part.0, foo.cold) of a function there; nothing
# is hooked that ftrace does not list.  By address where ftrace lists
# them (available_filter_functions_addrs, 6.12), else by name (a name
# that several static functions share counts once).  A function the
# pattern matches by an alias (sys_ni_syscall, whose compat_sys_*
# aliases "[a-m]*" matches) is listed by its first name, which the
# pattern may not match: what is hooked is compared with all of ftrace's
# functions.  6.1 lists the records of overridden weak functions, which
# no symbol names, as __ftrace_invalid_address___N: not functions.  For
# "p:" (the return blacklist is not asked here).
all_exact() {
	_all=/tmp/kpe-all.all _aff=/tmp/kpe-all.aff _hk=/tmp/kpe-all.hooked
	_bl=/tmp/kpe-all.bl
	_re="^$(printf '%s' "$PAT" | sed 's/\*/.*/g; s/?/./g')\$"
	# "KEY NAME" per function; KEY its site's address, or its name.
	_by=name
	[ -r "$T/available_filter_functions_addrs" ] && _by=address
	if [ $_by = address ]; then
		awk '{ print $1, $2 }' "$T/available_filter_functions_addrs"
		awk '{ print $1 }' "$_list" | sort -u > "$_hk"
	else
		awk '{ print $1, $1 }' "$T/available_filter_functions"
		awk '{ sub(/\+0x[0-9a-f]+$/, "", $3); print $3 }' "$_list" |
			sort -u > "$_hk"
	fi | grep -v ' __ftrace_invalid_address___' | sort -u > "$_all"
	awk -v re="$_re" '$2 ~ re' "$_all" > "$_aff"
	awk '{ print $2 }' /sys/kernel/debug/kprobes/blacklist | sort -u > "$_bl"
	_extra=$(awk 'NR == FNR { f[$1] = 1; next } !($1 in f)' "$_all" "$_hk")
	[ -z "$_extra" ] ||
		fail "hooked, not in available_filter_functions (by $_by): $(echo $_extra | head -c 300)"
	_odd=$(awk 'FILENAME == ARGV[1] { bl[$1] = 1; next }
		    FILENAME == ARGV[2] { hk[$1] = 1; next }
		    !($1 in hk) { b = $2; sub(/\..*/, "", b)
				  if (!($2 in bl) && !(b in bl)) print $2 }' \
		"$_bl" "$_hk" "$_aff")
	rm -f "$_all" "$_aff" "$_hk" "$_bl"
	[ -z "$_odd" ] ||
		fail "not hooked, not refused by kprobes (by $_by): $(echo $_odd | head -c 300)"
	log "$PAT: every function ftrace lists is hooked, or on the kprobe blacklist (by $_by)"
}

# all_kmod_hit RECORD-ERE WHAT: with KMOD, kpe_kmod hit (a write to its
# debugfs file "notrace" calls kpe_traced_fn, from the shell: no fork or
# exit to record before the buffer stops), a record matching RECORD-ERE
# in the trace (WHAT in the failure), then kpe_kmod unloaded while the
# event is enabled: its hooks go, no splat.
all_kmod_hit() {
	[ -n "$KMOD" ] || return 0
	echo 1 > /sys/kernel/debug/kpe_kmod/notrace ||
		fail "cannot write to kpe_kmod's notrace"
	echo 0 > "$T/tracing_on"
	grep -qE -- "$1" "$T/trace" || fail "no $2"
	echo 1 > "$T/tracing_on"
	rmmod kpe_kmod || fail "rmmod kpe_kmod while the event is enabled"
	grep -q '  kpe_kmod ' "$KPLIST" &&
		fail "kpe_kmod's functions still listed after rmmod"
}

# all_detectors_slow: the soft-lockup and RCU stall detectors' limits
# raised, from 20 and 21 s to 60 and 60 s, for as long as the
# every-function event exists (all_cleanup puts them back).  On the
# debug kernel under TCG, with every function of the pattern hooked, the
# core's own work can keep a CPU busy longer than the defaults allow: an
# idle CPU's RCU softirq runs every callback that is ready (rcu_do_batch()
# sets it no count limit there), and each one's allocation walks the
# stack (KASAN) through hooked calls, for some 20 s when kpe_kmod is
# unloaded.  A hang is still reported, 40 s later.
WD_FILE=/proc/sys/kernel/watchdog_thresh
RS_FILE=/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
all_detectors_slow() {
	[ -w "$WD_FILE" ] && ALL_WD=$(cat "$WD_FILE") && echo 30 > "$WD_FILE"
	[ -w "$RS_FILE" ] && ALL_RS=$(cat "$RS_FILE") && echo 60 > "$RS_FILE"
	log "while hooked: watchdog_thresh ${ALL_WD:-?} -> $(cat "$WD_FILE")," \
		"rcu_cpu_stall_timeout ${ALL_RS:-?} -> $(cat "$RS_FILE") s"
}

all_cleanup() {
	rm -f /tmp/kpe-all.list
	echo "$ALL_KB" > "$T/buffer_size_kb"
	echo 1 > "$T/tracing_on"
	quiet_write 0 "$T/events/$ALL_EV/enable"
	reset >/dev/null 2>&1
	rmmod kpe_kmod 2>/dev/null
	[ -z "$ALL_WD" ] || echo "$ALL_WD" > "$WD_FILE"
	[ -z "$ALL_RS" ] || echo "$ALL_RS" > "$RS_FILE"
	[ -z "$ALL_WD$ALL_RS" ] ||
		log "limits put back: watchdog_thresh $(cat "$WD_FILE")," \
			"rcu_cpu_stall_timeout $(cat "$RS_FILE") s"
}

# poll SECS CMD...: run CMD every 0.2 s until it succeeds, for at most
# about SECS seconds; its last status.  For what a worker does soon but
# at no set time.
poll() {
	_end=$(($(cut -d. -f1 /proc/uptime) + $1))
	shift
	until "$@"; do
		[ "$(cut -d. -f1 /proc/uptime)" -lt "$_end" ] || return 1
		sleep 0.2
	done
}

# reset: disable all kprobe events, clear probes, trace and error_log.
# Returns non-zero if kprobe_events could not be emptied.
reset() {
	# Every event of kprobe_events, in any group, and in trace instances
	# too; a failed test may have left triggers (hist and others) on them,
	# which keep them busy.
	for ev in $(sed -n 's/^[pr][^:]*:\([^ ]*\).*/\1/p' "$T/kprobe_events" 2>/dev/null); do
		for d in "$T/events/$ev" "$T"/instances/*/events/"$ev"; do
			[ -f "$d/trigger" ] || continue
			sed -n 's/^\([^#][^ ]*\).*/\1/p' "$d/trigger" 2>/dev/null |
			while read -r tr; do
				quiet_write "!$tr" "$d/trigger"
			done
			quiet_write 0 "$d/enable"
		done
	done
	quiet_write 1 "$T/tracing_on"
	quiet_write "" "$T/kprobe_events"
	quiet_write "" "$T/trace"
	[ -f "$T/error_log" ] && quiet_write "" "$T/error_log"
	if [ -n "$(listing 2>/dev/null)" ]; then
		echo "# reset: kprobe_events not empty afterwards"
		return 1
	fi
	return 0
}

# expect_ok STRING: appending STRING to kprobe_events must succeed
expect_ok() {
	_out=$("$KPE_WRITE" -a "$T/kprobe_events" "$1")
	_rc=$?
	[ $_rc -eq 0 ] && [ -z "$_out" ] ||
		fail "writing '$1' failed: ${_out:-no errno} (rc=$_rc)"
}

# expect_errno ERRNO STRING: appending STRING must fail with ERRNO
expect_errno() {
	_out=$("$KPE_WRITE" -a "$T/kprobe_events" "$2")
	_rc=$?
	[ "$_out" = "$1" ] ||
		fail "writing '$2': expected $1, got '${_out:-success}' (rc=$_rc)"
	[ $_rc -eq 1 ] || fail "writing '$2': kpe_write rc=$_rc, expected 1"
}

# kprobe event/group dirs, to detect stray event creation
event_dirs() {
	ls "$T/events" 2>/dev/null
	echo ---
	ls "$T/events/kprobes" 2>/dev/null
}

# expect_refused ERRNO STRING: the write fails with ERRNO, leaves the
# listing and the events/ tree unchanged and logs to error_log.
expect_refused() {
	_before=$(snapshot)
	_dirs=$(event_dirs)
	quiet_write "" "$T/error_log"
	expect_errno "$1" "$2"
	[ "$(snapshot)" = "$_before" ] ||
		fail "refused write '$2' changed kprobe_events"
	[ "$(event_dirs)" = "$_dirs" ] ||
		fail "refused write '$2' changed the events/ tree"
	[ -n "$(cat "$T/error_log" 2>/dev/null)" ] ||
		fail "refused write '$2' left no entry in error_log"
	log "refused with $1: '$2'"
}

# refused_at 'LINE, ^ before the fault' 'MESSAGE' [prefix]: refused with
# EINVAL and nothing changed (expect_refused), error_log's message is
# MESSAGE exactly (with "prefix": starts with it), and its caret is
# where the ^ was.
refused_at() {
	_line=$(printf '%s' "$1" | tr -d '^')
	_pos=${1%%^*}
	_pos=${#_pos}
	expect_refused EINVAL "$_line"
	_msg=$(grep -F 'trace_kprobe: error: ' "$T/error_log" | tail -n 1)
	_msg=${_msg#*trace_kprobe: error: }
	if [ "$3" = prefix ]; then
		case $_msg in
		"$2"*) ;;
		*) fail "'$_line': message '$_msg', want '$2...'" ;;
		esac
	else
		[ "$_msg" = "$2" ] || fail "'$_line': message '$_msg', want '$2'"
	fi
	[ "$(tail -n 1 "$T/error_log" | wc -c)" = $((13 + _pos)) ] ||
		fail "'$_line': caret not at $_pos: $(cat "$T/error_log")"
}

# check_event_files [GRP/]EVENT: event dir with enable/format/id/filter
check_event_files() {
	_d=$(ev_dir "$1")
	[ -d "$_d" ] || fail "event dir $_d missing"
	for _f in enable format id filter; do
		[ -f "$_d/$_f" ] || fail "$_d/$_f missing"
	done
	_id=$(cat "$_d/id")
	case "$_id" in
	'' | *[!0-9]*) fail "$_d/id is not a number: '$_id'" ;;
	esac
	[ "$(cat "$_d/enable")" = 0 ] ||
		fail "$1 should be disabled after creation (enable='$(cat "$_d/enable")')"
}

# rfail EVENT MSG...: fail, showing the first trace records of EVENT
rfail() {
	grep -F " $1: (" "$T/trace" | head -n 3 | sed 's/^/#   /'
	shift
	fail "$*"
}

# fire [GRP/]EVENT: enable the event, trigger reads, disable it again
# (before anything reads "trace": see test_refuse_busy_clear.sh)
fire() {
	enable_ev "$1"
	trigger
	disable_ev "$1"
}

# trigger: make the shell and a child process call read() (vfs_read)
trigger() {
	cat /proc/version > /dev/null
	read -r _l < /proc/version
	head -n 1 /proc/version > /dev/null
}

# count_trace FIXED-STRING: number of trace lines containing the string
count_trace() {
	grep -cF -- "$1" "$T/trace"
}

# profile_hits EVENT: hit count of EVENT in kprobe_profile
profile_hits() {
	awk -v e="$1" '$1 == e || $1 == "kprobes/" e { print $2; exit }' \
		"$T/kprobe_profile"
}

# fmt_has [GRP/]EVENT FIXED-STRING: the event's format file has the
# string, or the test fails showing the file
fmt_has() {
	grep -qF -- "$2" "$(ev_dir "$1")/format" ||
		{ dump "$(ev_dir "$1")/format"; fail "$1 format lacks '$2'"; }
}

# past_entry EVENT SYM: define "p:EVENT SYM+N", N the first offset in
# 5..24 the kprobes core takes: past the ftrace site (and an endbr64), a
# plain kprobe.  Sets OFFSET to N; fails the test if there is none.
past_entry() {
	OFFSET=5
	while [ $OFFSET -le 24 ]; do
		[ -z "$("$KPE_WRITE" -a "$T/kprobe_events" "p:$1 $2+$OFFSET")" ] &&
			return 0
		OFFSET=$((OFFSET + 1))
	done
	fail "no offset in $2+5..24 takes a kprobe"
}

# find_offset SYM ok|EILSEQ: set OFFSET to the first N in 1..16 at which
# "p SYM+N" succeeds (ok) or fails with EILSEQ; OFFSET is empty if there
# is none.  Any other result fails the test.  Call it directly, not in $().
# On arm64 (4-byte instructions) an offset that is not a multiple of 4
# is inside an instruction, which arm64's kprobes refuse with EINVAL:
# there EINVAL counts as EILSEQ does; EINVAL at an aligned offset (the
# ftrace call site, which 6.1's arm64 kprobes refuse) is scanned past.
find_offset() {
	OFFSET=
	_n=1
	while [ $_n -le 16 ]; do
		_out=$("$KPE_WRITE" -a "$T/kprobe_events" "p:kpe_scan $1+$_n")
		if [ -z "$_out" ]; then
			_out=$("$KPE_WRITE" -a "$T/kprobe_events" "-:kpe_scan") ||
				fail "cannot remove scan probe at $1+$_n: $_out"
			[ "$2" = ok ] && { OFFSET=$_n; return 0; }
		elif [ "$_out" = EILSEQ ]; then
			[ "$2" = EILSEQ ] && { OFFSET=$_n; return 0; }
		elif [ "$KPE_ARCH" = arm64 ] && [ "$_out" = EINVAL ]; then
			[ "$2" = EILSEQ ] && [ $((_n % 4)) -ne 0 ] &&
				{ OFFSET=$_n; return 0; }
		else
			fail "p $1+$_n: expected success or EILSEQ, got $_out"
		fi
		_n=$((_n + 1))
	done
	return 0
}

# need_kmod: skip unless the tests' module kpe_kmod (kmod/) is installed;
# unload it if an earlier test left it loaded, so that the test loads it
# afresh
need_kmod() {
	[ -n "$(find /lib/modules -name kpe_kmod.ko 2>/dev/null)" ] ||
		skip "test module kpe_kmod not installed"
	if lsmod | grep -q '^kpe_kmod '; then
		rmmod kpe_kmod || fail "cannot unload kpe_kmod"
	fi
	return 0
}

# pattern_taken TYPE: is a pattern of probes of TYPE (p or r) taken, not
# refused with EOPNOTSUPP, as it is where such probes cannot be fentry
# places?  Asks by defining one, and removes it.
pattern_taken() {
	_out=$("$KPE_WRITE" -a "$T/kprobe_events" "$1:kpe_has_fentry/w vfs_rea[d]")
	# Appended: opened with O_TRUNC, kprobe_events would drop every probe.
	[ -z "$_out" ] && "$KPE_WRITE" -a "$T/kprobe_events" '-:kpe_has_fentry/w' >/dev/null
	[ "$_out" != EOPNOTSUPP ]
}

# has_fentry: does this kernel have fentry places (CONFIG_KPROBE_EVENTS_
# FENTRY: ftrace with registers), without which a pattern as the place
# is refused?
has_fentry() {
	pattern_taken p
}

# need_fentry: skip unless has_fentry
need_fentry() {
	has_fentry || skip "no fentry places here (CONFIG_KPROBE_EVENTS_FENTRY): patterns are refused"
}

# ftrace_hook FUNC [FILE...]: the callback ftrace calls at FUNC's site,
# tkp_fentry_hit* (ours) or kprobe_ftrace_handler, as enabled_functions
# and kprobes/list tell (or FILE..., copies of them); empty if FUNC is not
# hooked.  6.1's arm64 (no ftrace trampolines) names no callback in
# enabled_functions: a hooked FUNC is ours there when kprobes/list marks
# its site [FTRACE] (arm64 has no kprobes on ftrace): "tkp_fentry".
ftrace_hook() {
	_fn=$1
	shift
	[ $# -gt 0 ] || set -- "$T/enabled_functions" /sys/kernel/debug/kprobes/list
	_ef=$(cat "$@" 2>/dev/null | grep "^$_fn ")
	[ -n "$_ef" ] || return 0
	_by=$(echo "$_ef" | grep -o -e 'tkp_fentry[a-z_]*' -e 'kprobe_ftrace_handler' | head -n1)
	if [ -z "$_by" ] && [ "$KPE_ARCH" = arm64 ] && cat "$@" 2>/dev/null |
		grep -qE "^ *[0-9a-f]+ +[kr] +$_fn\+0x[0-9a-f]+ .*\[FTRACE\]"; then
		_by=tkp_fentry
	fi
	echo "$_by"
}

# has_fentry_return: are return probes fentry places too (their returns
# hooked by rethook, from pools of ours)?  Not where the kernel has no
# rethook (arm64): a return probe is a kretprobe there, and a pattern of
# them is refused.
has_fentry_return() {
	pattern_taken r
}

# need_fentry_return: skip unless has_fentry_return
need_fentry_return() {
	has_fentry_return || skip "return probes are kretprobes here (no rethook): no pools of ours"
}

# (a test that checks how tracefs is refused sets LIB_NO_TRACEFS_CHECK)
[ -n "${LIB_NO_TRACEFS_CHECK:-}" ] || [ -f "$T/kprobe_events" ] ||
	skip "no kprobe_events in $T"
[ -x "$KPE_WRITE" ] || fail "$KPE_WRITE missing (build with make)"

# bpftrace helpers (test_bpftrace.sh, test_bpf_semantics.sh); $W is the
# test's work directory.
#
# defang: the console check on the host fails a run on kernel splat words
# (WARNING:, BUG:, ...); bpftrace's own messages use some of them.
defang() {
	sed -e 's/WARNING:/warning:/g' -e 's/BUG:/bug:/g' -e 's/Oops/oops/g' \
	    -e 's/KASAN/kasan/g' -e 's/UBSAN/ubsan/g' -e 's/Call Trace:/call trace:/g' \
	    -e 's/Kernel panic/kernel-panic/g' -e 's/general protection fault/gp fault/g' \
	    -e 's/^/#   /'
}

# btdump FILE: print a file (bpftrace's log or output), defanged
btdump() {
	echo "# --- $1:"
	defang < "$1" 2>/dev/null
}

# btfail NAME MSG: fail, showing what bpftrace (or a helper) printed for
# run NAME ($W/NAME.log, .out, .err) and the kernel log
btfail() {
	_n=$1
	shift
	for _f in "$W/$_n.log" "$W/$_n.out" "$W/$_n.err"; do
		[ -f "$_f" ] && btdump "$_f"
	done
	echo "# --- dmesg (last lines):"
	dmesg 2>/dev/null | tail -n 15 | defang
	fail "$*"
}

# bt NAME PROGRAM [CMD]: bpftrace $BT_OPTS -e PROGRAM, with -c CMD if
# given; the program's output (printf) in $W/NAME.out, bpftrace's stdout
# and stderr (and CMD's) in $W/NAME.log, its exit status in BT_RC.
BT_OPTS=
bt() {
	rm -f "$W"/during.*
	_t0=$(cut -d' ' -f1 /proc/uptime)
	# shellcheck disable=SC2086
	if [ -n "${3:-}" ]; then
		timeout 60 bpftrace $BT_OPTS -o "$W/$1.out" -e "$2" -c "$3" > "$W/$1.log" 2>&1
	else
		timeout 60 bpftrace $BT_OPTS -o "$W/$1.out" -e "$2" > "$W/$1.log" 2>&1
	fi
	BT_RC=$?
	_t1=$(cut -d' ' -f1 /proc/uptime)
	log "$1: bpftrace exit status $BT_RC after $(echo "$_t0 $_t1" |
		awk '{ printf "%.1f", $2 - $1 }') s"
}

# same FILE1 FILE2 WHAT NAME: the two files must not differ
same() {
	cmp -s "$1" "$2" && return 0
	echo "# --- $1:"; sed 's/^/#   /' "$1"
	echo "# --- $2:"; sed 's/^/#   /' "$2"
	btfail "$4" "$4: $3"
}

# funcip_shown FILE [ERRFILE...]: what kpe_funcip showed of FILE
# (KPE_FUNCIP_SHOW) on its stderr, read from ERRFILE or standard input
funcip_shown() {
	_want=$1
	shift
	awk -v want="$_want" '/^kpe_funcip: --- / {
		cur = substr($0, 17); sub(/:$/, "", cur); next
	}
	cur == want' "$@"
}

# nargs NAME FIRST LAST FETCHARG: " NAME<i>=FETCHARG" for i FIRST..LAST,
# one argument list of many (the same fetch under numbered names)
nargs() {
	_i=$2
	while [ "$_i" -le "$3" ]; do
		printf ' %s%d=%s' "$1" "$_i" "$4"
		_i=$((_i + 1))
	done
}
