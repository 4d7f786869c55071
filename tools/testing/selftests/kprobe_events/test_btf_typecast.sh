#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: newer kernels' fetch arguments: BTF typecasts
# "(STRUCT)VAR->member", a parenthesised or nested target, the
# container_of form "(STRUCT,FIELD)VAR", a cast $retval; $current and
# $current->member; this_cpu_ptr() and this_cpu_read(), typed through BTF
# where the per-CPU pointer is.  Each records what the plain spelling of
# the same value records, or what the test module put there; each
# refusal has its errno, message and caret; the README advertises them.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
trap 'reset >/dev/null 2>&1; rmmod kpe_kmod 2>/dev/null' EXIT
[ -e /sys/kernel/btf/vmlinux ] || skip "no BTF in this kernel"

for l in 'this_cpu_read(<fetcharg>), this_cpu_ptr(<fetcharg>)' \
	 '[(structname[,field])]<argname>[->field[->field|.field...]]' \
	 '[(structname[,field])](fetcharg)->field[->field|.field...]' \
	 '$current'; do
	grep -qF -- "$l" "$T/README" || fail "README lacks '$l'"
done

# field EVENT NAME: the values of NAME= in EVENT's records, one a line
field() {
	grep -F " $1: (" "$T/trace" | sed -n "s/.* $2=\([^ ]*\).*/\1/p"
}

# 1. Casts of an argument record what the argument's own members do.
n='file->f_path.dentry->d_name.name:string'
expect_ok "p:c1 vfs_read a=$n b=(file)$n"
expect_ok "p:c2 vfs_read a=$n b=(file)(file)->f_path.dentry->d_name.name:string"
expect_ok "p:c3 vfs_read a=$n b=(dentry)((file)file->f_path.dentry)->d_name.name:string"
expect_ok "p:c4 vfs_read a=file->f_mode b=(file)\$arg1->f_mode c=(file)$KPE_ARG1_REG->f_mode"
expect_ok 'r:c5 vfs_read name=(file)$retval->f_path.dentry->d_name.name:string'
expect_ok 'p:c6 vfs_read m=(file,f_path)file->f_mode'
listing_has "p:kprobes/c3 vfs_read a=$n b=(dentry)((file)file->f_path.dentry)->d_name.name:string" ||
	fail "listing: $(listing)"
listing_has 'p:kprobes/c6 vfs_read m=(file,f_path)file->f_mode' || fail "listing: $(listing)"
fmt_has c4 "field:u32 b;"
fire c1; fire c2; fire c3; fire c4; fire c5; fire c6
for e in c1 c2 c3; do
	total=$(count_trace " $e: (")
	same=$(grep -F " $e: (" "$T/trace" | sed -n 's/.* a=\(".*"\) b=\(".*"\)$/\1 \2/p' |
		awk '$1 == $2' | wc -l)
	log "$e: $total records, $same with a == b"
	[ "$total" -gt 0 ] || fail "no $e record"
	[ "$same" = "$total" ] || rfail $e "the cast's string differs from the member's"
done
total=$(count_trace " c4: (")
same=$(grep -F " c4: (" "$T/trace" | sed -n 's/.* a=\([0-9]*\) b=\([0-9]*\) c=\([0-9]*\)$/\1 \2 \3/p' |
	awk '$1 == $2 && $2 == $3' | wc -l)
[ "$total" -gt 0 ] && [ "$same" = "$total" ] || rfail c4 "casts of \$arg1 and the register differ from file->f_mode"
# vfs_read's $retval is a byte count, not a struct file: the read faults,
# and the record says so.
[ "$(count_trace " c5: (")" -gt 0 ] || fail "no c5 record"
[ "$(count_trace " c6: (")" -gt 0 ] || fail "no c6 record"
reset || fail "reset failed"

# 2. $current: the task itself; its members through BTF, also cast; the
# container_of form finds the task from a pointer to its "tasks" member.
expect_ok 'p:cu vfs_read cur=$current pid=$current->pid comm=$current->comm tg=(task_struct)$current->tgid me=(task_struct,tasks)($current->tasks.next->prev)->pid'
fmt_has cu "field:u64 cur;"
fmt_has cu "field:s32 pid;"
fire cu
total=$(count_trace " cu: (")
# "  TASK-PID  [CPU] ...: cu: (...) cur=0x... pid=PID comm="TASK" tg=PID me=PID"
same=$(grep -F " cu: (" "$T/trace" |
	sed -n 's/^ *\(.*\)-\([0-9]*\) *\[.* cur=0x[0-9a-f]* pid=\([0-9]*\) comm="\(.*\)" tg=\([0-9]*\) me=\([0-9]*\)$/\1 \2 \3 \4 \5 \6/p' |
	awk '$2 == $3 && $3 == $5 && $5 == $6 && $1 == $4' | wc -l)
log "cu: $total records, $same consistent"
[ "$total" -gt 0 ] || fail "no cu record"
[ "$same" = "$total" ] || rfail cu "\$current's members differ from the record's task"
reset || fail "reset failed"

# 3. Per-CPU: this CPU's run queue names this CPU.
expect_ok 'p:pc vfs_read cpu=(rq)this_cpu_ptr(@runqueues)->cpu p=this_cpu_ptr(@runqueues)'
fmt_has pc "field:s32 cpu;"
fire pc
total=$(count_trace " pc: (")
same=$(grep -F " pc: (" "$T/trace" |
	sed -n 's/.*\[0*\([0-9][0-9]*\)\].* cpu=\([0-9]*\) p=0x[0-9a-f]*$/\1 \2/p' |
	awk '$1 == $2' | wc -l)
log "pc: $total records, $same naming their CPU"
[ "$total" -gt 0 ] || fail "no pc record"
[ "$same" = "$total" ] || rfail pc "this CPU's run queue is not this CPU's"
reset || fail "reset failed"

# 4. In a module: container_of through a dotted field, and a per-CPU
# counter typed by BTF (int __percpu *: s32), the same as the variable's,
# and this_cpu_read(X) is what this_cpu_ptr(X) points at.
need_kmod
modprobe kpe_kmod || fail "modprobe kpe_kmod failed"
expect_ok 'p:bx kpe_box_fn m=(kpe_box,node)node->magic m2=(kpe_box,in.y)y->magic c=this_cpu_read((kpe_box,node)node->counter) c2=this_cpu_read(@kpe_box_count):s32 c3=+0(this_cpu_ptr(@kpe_box_count)):s32'
fmt_has bx "field:s32 c;"
enable_ev bx
for i in 1 2 3; do echo x > /sys/kernel/debug/kpe_kmod/box; done
disable_ev bx
total=$(count_trace " bx: (")
same=$(grep -F " bx: (" "$T/trace" |
	sed -n 's/.* m=\([0-9]*\) m2=\([0-9]*\) c=\([0-9]*\) c2=\([0-9]*\) c3=\([0-9]*\)$/\1 \2 \3 \4 \5/p' |
	awk '$1 == "118130481459064" && $2 == $1 && $3 == $4 && $4 == $5 && $3 > 0' | wc -l)
log "bx: $total records, $same right"
[ "$total" = 3 ] || rfail bx "$total records for 3 calls"
[ "$same" = 3 ] || rfail bx "container_of or the per-CPU counter read wrong"
reset || fail "reset failed"
# A string through a per-CPU pointer.
expect_ok 'p:bs kpe_box_fn s=+0(this_cpu_read(@kpe_box_name)):string s2=+0(+0(this_cpu_ptr(@kpe_box_name))):string'
enable_ev bs
echo x > /sys/kernel/debug/kpe_kmod/box
disable_ev bs
[ "$(grep -cF ' bs: (kpe_box_fn+0x0/0x' "$T/trace")" = 1 ] || rfail bs "no record"
grep -qF 's="kpebox" s2="kpebox"' "$T/trace" || rfail bs "the per-CPU string was not read"
reset || fail "reset failed"
# The same string alone in its event, and a symstr of the per-CPU
# pointer both ways (a string literal has no symbol: its address).
expect_ok 'p:bs1 kpe_box_fn s=+0(this_cpu_read(@kpe_box_name)):string'
expect_ok 'p:bsy kpe_box_fn y=this_cpu_read(@kpe_box_name):symstr y2=+0(this_cpu_ptr(@kpe_box_name)):symstr'
enable_ev bs1
enable_ev bsy
echo x > /sys/kernel/debug/kpe_kmod/box
disable_ev bs1
disable_ev bsy
grep -qF ' bs1: (kpe_box_fn+0x0/0x' "$T/trace" || rfail bs1 "no record"
grep -F ' bs1: (' "$T/trace" | grep -qF 's="kpebox"' ||
	rfail bs1 "the per-CPU string alone was not read"
# (A symbol's text has spaces: "sym+off/size [mod]".)
sy=$(sed -n 's/.* bsy: ([^)]*) y="\([^"]*\)" y2="\([^"]*\)"$/\1|\2/p' "$T/trace")
log "bsy: $sy"
[ -n "${sy%%|*}" ] && [ "${sy%%|*}" = "${sy#*|}" ] ||
	rfail bsy "the per-CPU symstr differs between this_cpu_read() and this_cpu_ptr(): '$sy'"
reset || fail "reset failed"
rmmod kpe_kmod || fail "rmmod kpe_kmod failed"

# What BTF cannot type as a value (void, a struct) keeps the default type.
expect_ok 'p:bv vfs_read x=this_cpu_read(file->private_data) y=this_cpu_read(file->f_path.dentry)'
fmt_has bv "field:u64 x;"
fmt_has bv "field:u64 y;"
reset || fail "reset failed"

# 5. Refusals: errno, message, caret; nothing changes.
keep="p:kprobes/keep vfs_read k=$KPE_ARG1_REG:u32"
expect_ok "$keep"
refused_at 'p:bx vfs_read a=(task_struct)file^' 'Typecast requires a field access'
refused_at 'p:bx vfs_read a=(task_struct)(file)^' 'Typecast requires a field access'
refused_at 'p:bx vfs_read a=(task_struct,se^->run_node)file->pid' \
	'Typecast field option does not support -> operator'
refused_at 'p:bx vfs_read a=(task_struct)^@jiffies+8->pid' \
	'@SYM+/-OFFSET with typecast needs parentheses'
refused_at 'p:bx vfs_read a=(^nosuchstruct)file->x' "No struct or union 'nosuchstruct' in BTF"
refused_at 'p:bx vfs_read a=(file,^f_pathx)file->f_mode' "No member 'f_pathx' in struct file"
refused_at 'p:bx vfs_read a=(file,^)file->f_mode' "A member of struct file must follow ','"
refused_at 'p:bx vfs_read a=(file,f_path.^)file->f_mode' "A member name must follow '.'"
refused_at 'p:bx vfs_read a=(file)file->^f_pathx' "No member 'f_pathx' in struct file: f_" prefix
refused_at 'p:bx vfs_read a=this_cpu_ptr(@runqueues):^string' 'String accepts only memory argument'
refused_at 'p:bx vfs_read a=this_cpu_read(^$comm)' '$comm can not be dereferenced'
refused_at 'p:bx vfs_read a=this_cpu_read(@runqueues^' 'Dereference brace is not closed'
# A variable that is not per-CPU has no copy per CPU to find.
refused_at 'p:bx vfs_read a=this_cpu_read(^@jiffies)' 'Not a per-CPU variable'
refused_at 'p:bx vfs_read a=this_cpu_ptr(^@jiffies+8)' 'Not a per-CPU variable'
refused_at 'p:bx vfs_read a=+0(this_cpu_ptr(^@saved_command_line))' 'Not a per-CPU variable'
refused_at 'p:bx vfs_read a=^$current.pid' 'Invalid $-variable specified'
refused_at 'p:bx vfs_read a=$current->^pidx' "No member 'pidx' in struct task_struct: " prefix
[ "$(listing)" = "$keep" ] || fail "listing changed: $(listing)"
pass
