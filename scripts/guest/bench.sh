# The guest half of make bench (scripts/bench.sh), run by the guest's
# /init in mode cmd:
#
#   sh /kpe/bench.sh VARIANT CALLS NBULK WILDCARD OFFSET [ARCH]
#
# VARIANT is linux (ours) or upstream, CALLS the getppid() calls per hit
# row, NBULK the probes of the bulk rows, WILDCARD the glob of the
# wildcard row, OFFSET the offset row's offset into the syscall's
# function (the first instruction of its body: on x86_64 after its call
# to __fentry__, 5 without IBT, 9 with; on arm64 after ftrace's two
# patchable NOPs, 8 without BTI; the host reads it off the vmlinux),
# ARCH the guest's architecture, x86_64 (the default) or arm64.
# /kpe/files/bench-funcs (from the host) lists candidate
# functions for the bulk rows, one a line.
#
# Every result is a "kpe-bench: ..." line on the console; the timed parts
# run in kpe_bench (no fork inside a timed region).  The whole run is
# under qemu -icount shift=0,sleep=off: guest ns = guest instructions.
T=/sys/kernel/debug/tracing
[ -f $T/kprobe_events ] || T=/sys/kernel/tracing
B=/kpe/kpe_bench
variant=$1 calls=$2 nbulk=$3 wild=$4 offs=${5:-5} arch=${6:-x86_64}
rc=0

# What the architecture changes: the function the hit rows probe (the
# syscall's wrapper, which takes the user's saved pt_regs as its one
# argument) and the registers the argument rows name.  The rows keep
# their meaning: entry3args the first three argument registers, deref2
# a return address read off the stack then 8 bytes of kernel text there,
# ustring the user string in the saved pt_regs' first argument register
# (x86_64's regs->di at +112; arm64's regs->regs[0] at +0), regread
# vfs_read's file and count.  On arm64 the function's own return
# address is in x30, not on the stack: at its entry sp points at its
# caller's frame record, whose second word is the caller's return
# address (into el0_svc).
case $arch in
arm64)
	func=__arm64_sys_getppid
	args3='a=%x0 b=%x1 c=%x2'
	deref2='d=+0(+8(%sp)):u64'
	ustring='s=+0(+0(%x0)):ustring'
	regread='file=%x0 count=%x2:u64'
	;;
*)
	func=__x64_sys_getppid
	args3='a=%di b=%si c=%dx'
	deref2='d=+0(+0(%sp)):u64'
	ustring='s=+0(+112(%di)):ustring'
	regread='file=%di count=%dx:u64'
	;;
esac
# BPF trampolines attach by BTF id, and the btfread row names arguments
# from BTF: a kernel without BTF (arm64's config leaves it out) has none
# of those rows.  x86_64's config has it: there a missing BTF fails the
# rows, as before.
btf=1
[ "$arch" = x86_64 ] || [ -e /sys/kernel/btf/vmlinux ] || btf=
# Ours takes patterns on x86_64 at entries and returns; elsewhere its
# README's pattern line says what this kernel takes (arm64 on 6.1:
# entries only, returns being kretprobes without rethook; 6.12's arm64,
# without ftrace registers: none).
pat_entry=1 pat_ret=1
if [ "$arch" != x86_64 ]; then
	grep -q 'pattern:' $T/README || pat_entry=
	grep -q 'entry (or return) of every function' $T/README || pat_ret=
fi

out() {
	echo "kpe-bench: $*"
}

# hit ROW [DEFINITION]: CALLS getppid() calls (read() calls with
# loop=readloop) with DEFINITION (an event kprobes/b) enabled, or with no
# probe.  Prints one record of the row and
# the kprobes list (shows [OPTIMIZED] and [FTRACE]) for the log.
hit() {
	row=$1 def=$2
	echo > $T/trace
	if [ -n "$def" ]; then
		if ! echo "$def" >> $T/kprobe_events; then
			out "error $row refused: $def"
			rc=1
			return
		fi
		echo 1 > $T/events/kprobes/b/enable || { out "error $row enable"; rc=1; return; }
	fi
	$B "${loop:-loop}" "$row" "$calls" || rc=1
	if [ -n "$def" ]; then
		sed "s/^/kpe-bench: kprobes $row /" /sys/kernel/debug/kprobes/list
		echo 0 > $T/events/kprobes/b/enable
		out "sample $row $(grep -m 1 ' b: ' $T/trace | sed 's/^ *//')"
		echo -:kprobes/b >> $T/kprobe_events
	fi
}

# pmu ROW [ret]: the same loop with a probe made through the kprobe PMU
# (perf_event_open, as perf and bpftrace make theirs), counting.
pmu() {
	$B pmu "$1" "$calls" $func $2 || rc=1
}

# bpf ROW KIND PROG: BPF program PROG (empty, or map: counting into a
# per-CPU array) on the same function as KIND: kprobe or kretprobe made
# through the kprobe PMU, as bpftrace attaches them; fentry or fexit, a
# BPF trampoline (the reference).
bpf() {
	$B bpf "$1" "$calls" $func $2 $3 || rc=1
}

# kmem: the kernel's Slab + Percpu + VmallocUsed in bytes, as the mem row
# counts them.
kmem() {
	awk '/^(Slab|Percpu|VmallocUsed):/ { k += $2 } END { print k * 1024 }' /proc/meminfo
}

# ftrace_hit ROW: the function tracer on the same function, as reference.
ftrace_hit() {
	echo > $T/trace
	# ftrace lists the function by its name or by its alias,
	# __do_sys_getppid (x86_64's compiler merges the two).
	fn=$(grep -m 1 -x -e $func -e __do_sys_getppid $T/available_filter_functions)
	out "ftrace-filter $1 $fn"
	echo "$fn" > $T/set_ftrace_filter &&
		echo function > $T/current_tracer || { out "error $1 function tracer"; rc=1; return; }
	$B loop "$1" "$calls" || rc=1
	# (Before the tracer goes: switching to nop empties the buffer.)
	out "sample $1 $(grep -m 1 'getppid' $T/trace | sed 's/^ *//')"
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	echo > $T/trace
}

out "start variant $variant kernel $(uname -r) cpus $(nproc) calls $calls bulk $nbulk wild $wild"
echo > $T/kprobe_events

hit base
hit entry "p:b $func"
hit entry3args "p:b $func $args3"
hit entrycomm "p:b $func c=\$comm"
# After ftrace's call (x86_64: __fentry__; arm64: the patchable NOPs),
# the first instruction of the body (found on the host by
# scripts/bench.sh in the vmlinux).
hit offset "p:b $func+$offs"
hit ret "r:b $func"
hit retval "r:b $func v=\$retval"
# A return address on the stack, then 8 bytes of kernel text there.
hit deref2 "p:b $func $deref2"
# A kernel string through a pointer: the saved kernel command line.
hit string "p:b $func s=+0(@saved_command_line):string"
# The first argument register is the syscall's pt_regs; the register
# there is its first argument, the user string that kpe_bench passes to
# every getppid() call (getppid ignores it).
hit ustring "p:b $func $ustring"
hit retarg "r:b $func v=\$retval c=\$comm"
pmu pmu
pmu pmuret ret
bpf bpf kprobe empty
bpf bpfmap kprobe map
bpf bpfret kretprobe empty
if [ -n "$btf" ]; then
	bpf fentry fentry empty
	bpf fentrymap fentry map
	bpf fexit fexit empty
else
	for r in fentry fentrymap fexit; do
		out "na $r no BTF in this kernel: BPF trampolines attach by BTF id"
	done
fi
ftrace_hit ftrace
# Argument names from BTF (issue 16; ours only) against the register
# spelling they stand for, on vfs_read through a read() loop: they must
# cost the same per hit.
loop=readloop
hit rbase
hit regread "p:b vfs_read $regread"
if [ "$variant" != linux ]; then
	out "na btfread argument names from BTF are ours only"
elif [ -z "$btf" ]; then
	out "na btfread no BTF in this kernel: no argument names"
else
	hit btfread 'p:b vfs_read file count'
fi
loop=loop
hit base2

# The bulk lists, derived on each kernel the same way: probeable means
# in available_filter_functions (traceable, so not notrace), not in the
# kprobe blacklist, a name that is unique in kallsyms, no '.' suffix.
# (busybox has no comm: awk joins the sorted lists.)
sed 's/ .*//' $T/available_filter_functions > /tmp/aff
sed 's/.*[[:space:]]//' /sys/kernel/debug/kprobes/blacklist > /tmp/blacklist
awk '$2 == "t" || $2 == "T" { print $3 }' /proc/kallsyms | sort | uniq -u |
	awk 'FILENAME == "/tmp/aff" { aff[$0] = 1; next }
	     FILENAME == "/tmp/blacklist" { bl[$0] = 1; next }
	     ($0 in aff) && !($0 in bl) && !/\./' /tmp/aff /tmp/blacklist - > /tmp/probeable
sort -u /kpe/files/bench-funcs |
	awk 'FILENAME == "/tmp/probeable" { ok[$0] = 1; next } $0 in ok' /tmp/probeable - > /tmp/bulk-funcs
re=$(echo "$wild" | sed 's/[.]/\\./g; s/\*/.*/g; s/?/./g')
grep -x "$re" /tmp/probeable > /tmp/wild-funcs
nwild=$(wc -l < /tmp/wild-funcs)
out "list bulk $(wc -l < /tmp/bulk-funcs) $(md5sum < /tmp/bulk-funcs | cut -d' ' -f1)"
out "list wild $nwild $(md5sum < /tmp/wild-funcs | cut -d' ' -f1)"

$B bulk $T kpeb /tmp/bulk-funcs "$nbulk" || rc=1
echo > $T/kprobe_events

# The entry row again with NBULK other probes enabled, on the bulk
# functions (none of them on the getppid() path): a hit should not cost
# more for the probes elsewhere (issue 26).
head -n "$nbulk" /tmp/bulk-funcs | awk '{ printf "p:kpeb/f%d %s\n", NR, $0 }' > /tmp/others
if echo "$(cat /tmp/others)" >> $T/kprobe_events &&
   echo 1 > $T/events/kpeb/enable; then
	out "others entry1000 $(grep -c '^p:kpeb/' $T/kprobe_events)"
	hit entry1000 "p:b $func"
	# The others' hits in that loop, summed (none expected).
	out "others-hits entry1000 $(awk '$1 ~ /^kpeb\// { n += $2 } END { print n + 0 }' $T/kprobe_profile)"
	echo 0 > $T/events/kpeb/enable
else
	out "error entry1000 the $nbulk other probes"
	rc=1
fi
echo > $T/kprobe_events

# Wildcard places (issue 6): ours defines one event over the glob; the
# kernel's tracer has no wildcards and gets one event per function.
if [ "$variant" = upstream ]; then
	$B wildlist $T wild /tmp/wild-funcs "$nwild" || rc=1
else
	$B wild $T wild "$wild" || rc=1
fi
echo > $T/kprobe_events

# Every function at once (issue 26): the function tracer on every
# function ftrace can hook, switched on, the getppid() loop, switched
# off; then ours, one event over all of them (p:all/a *): defined and
# enabled, the loop, disabled and cleared, and the kernel memory it took
# per function.  The kernel's own tracer has no pattern places.
$B put allon append $T/current_tracer function || rc=1
$B loop allfn "$calls" || rc=1
$B put alloff append $T/current_tracer nop || rc=1
echo > $T/trace
if [ "$variant" = linux ] && [ -z "$pat_entry" ]; then
	for r in alldef allhit allclr allmem; do
		out "na $r our tracer takes no patterns on this kernel (its README has no pattern line)"
	done
elif [ "$variant" = linux ]; then
	sync; echo 3 > /proc/sys/vm/drop_caches
	m0=$(kmem)
	if $B put alldef append $T/kprobe_events 'p:all/a *' \
		append $T/events/all/a/enable 1; then
		# (Nothing else is defined now: every line of kprobes/list is one of its functions.)
		out "mem-all $(wc -l < /sys/kernel/debug/kprobes/list) $(($(kmem) - m0))"
		$B loop allhit "$calls" || rc=1
		$B put allclr append $T/events/all/a/enable 0 \
			trunc $T/kprobe_events '' || rc=1
	else
		out "error alldef p:all/a *"
		rc=1
	fi
else
	for r in alldef allhit allclr allmem; do
		out "na $r the kernel's tracer has no pattern places"
	done
fi
echo > $T/kprobe_events
echo > $T/trace

# Every function's return, with the time it took: the function_graph
# tracer on every function against ours, r:allr/r * d=$duration, as
# above.  Hits are counted from kprobe_profile, not read from trace:
# reading a non-consuming trace while every function the reader calls
# records at entry and return laps the reader without end (the
# function_graph tracer's alike).
$B put graphon append $T/current_tracer function_graph || rc=1
$B loop graphfn "$calls" || rc=1
$B put graphoff append $T/current_tracer nop || rc=1
echo > $T/trace
if [ "$variant" = linux ] && [ -z "$pat_ret" ]; then
	for r in retdef rethit retclr; do
		out "na $r our tracer takes no return patterns on this kernel: no rethook, returns are kretprobes"
	done
elif [ "$variant" = linux ]; then
	if $B put retdef append $T/kprobe_events 'r:allr/r * d=$duration' \
		append $T/events/allr/r/enable 1; then
		$B loop rethit "$calls" || rc=1
		hits=$(awk '$1 == "r" { print $2 }' $T/kprobe_profile)
		[ "${hits:-0}" -gt "$calls" ] ||
			{ out "error rethit: ${hits:-no} hits"; rc=1; }
		$B put retclr append $T/events/allr/r/enable 0 \
			trunc $T/kprobe_events '' || rc=1
	else
		out "error retdef r:allr/r *"
		rc=1
	fi
else
	for r in retdef rethit retclr; do
		out "na $r the kernel's tracer has no pattern places"
	done
fi
echo > $T/kprobe_events
echo > $T/trace
out "end rc=$rc"
exit $rc
