#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: BTF names refused with EINVAL, an error_log message that
# says what exists (the function's arguments, the struct's members) or
# why, and the caret under the fault; existing probes unchanged.  Without
# BTF in the kernel, a name is refused as such.
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
trap 'reset >/dev/null 2>&1' EXIT

# (these define and remove probes of their own: before "keep")
find_offset vfs_read ok
fentry=
has_fentry && fentry=1
reset || fail "reset failed"

keep="p:kprobes/keep vfs_read k=$KPE_ARG1_REG:u32"
expect_ok "$keep"
id=$(cat "$T/events/kprobes/keep/id")

if [ ! -e /sys/kernel/btf/vmlinux ]; then
	msg="Argument names need BTF (CONFIG_DEBUG_INFO_BTF): none in this kernel"
	refused_at 'p:bx vfs_read ^file' "$msg"
	refused_at 'p:bx vfs_read ^$arg*' "$msg"
	refused_at 'p:bx vfs_read x=$arg1^->f_mode' "$msg"
	[ "$(listing)" = "$keep" ] || fail "listing changed"
	pass
fi

sig='vfs_read(file, buf, count, pos)'
refused_at 'p:bx vfs_read file ^hoge' "No argument 'hoge' in $sig"
refused_at 'p:bx vfs_read x=^hoge->f_mode' "No argument 'hoge' in $sig"
refused_at 'r:bx vfs_read ^hoge' "No argument 'hoge' in $sig"
refused_at 'p:bx kfree ^$arg2' 'kfree has 1 argument: kfree(object)'
# The members of struct file, in the kernel's order (its BTF's), which
# the message lists, are each kernel's own.
case $(uname -r) in
6.1.*)	members="f_llist, f_rcuhead, f_iocb_flags, f_path, f_inode, f_op, f_lock, f_count, f_flags, f_mode, f_pos_lock, f_pos, f_owner, f_cred, f_ra, f_version, f_security, private_data, f_ep, f_mapping, f_wb_err, f_sb_err" ;;
6.12.*)	members="f_count, f_lock, f_mode, f_op, f_mapping, private_data, f_inode, f_flags, f_iocb_flags, f_cred, f_path, f_pos_lock, f_pipe, f_pos, f_security, f_owner, f_wb_err, f_sb_err, f_ep, f_task_work, f_llist, f_ra, f_freeptr" ;;
*)	fail "struct file's members unknown for Linux $(uname -r)" ;;
esac
refused_at 'p:bx vfs_read file->^f_pathx' \
	"No member 'f_pathx' in struct file: $members"
refused_at 'p:bx vfs_read file->f_path.^dentryx' "No member 'dentryx' in struct path: mnt, dentry"
refused_at 'p:bx vfs_read file->^f_path' "'f_path' is struct path: name a member (mnt, dentry) or give a type"
refused_at 'p:bx vfs_read file^.f_path' "'file' is struct file *, not a struct or union: '.' needs one (through a pointer: '->')"
refused_at 'p:bx vfs_read file->f_path^->dentry' "'f_path' is struct path, not a pointer: '->' needs one ('.' reaches a member in place)"
refused_at 'p:bx vfs_read count^->x' "'count' is size_t, not a pointer: '->' needs one ('.' reaches a member in place)"
refused_at 'p:bx vfs_read file->private_data^->x' "'private_data' is void *, not a pointer to a struct or union: '->' needs one (+OFFS(...):TYPE reads any address)"
refused_at 'p:bx vfs_read file->^' "A member name must follow '->'"
refused_at 'p:bx vfs_read file^+8' "Expected '->' or '.' and a member name after 'file'"
refused_at 'p:bx vfs_read count:^string' "'count' is size_t: a string needs char * or char[]"
refused_at 'p:bx vfs_read $comm^->x' "'->' follows an argument's name, \$argN, \$retval or \$current"
refused_at 'r:bx kfree ^$retval' 'kfree returns void: it has no $retval'
refused_at 'r:bx kfree ^$retval->x' 'kfree returns void: it has no $retval'

# Not at a function's entry: an offset, an address, a wildcard.
nofentry="Argument names and \$arg* are only for a function's entry or return: not at an offset, an address or a wildcard"
if [ -n "$OFFSET" ]; then
	refused_at "p:bx vfs_read+$OFFSET ^file" "$nofentry"
	refused_at "p:bx vfs_read+$OFFSET ^\$arg*" "$nofentry"
fi
addr=$(grep -m1 ' [tT] vfs_read$' /proc/kallsyms | cut -d' ' -f1)
[ -n "$addr" ] || fail "vfs_read not in /proc/kallsyms"
refused_at "p:bx 0x$addr ^count" "$nofentry"
if [ -n "$fentry" ]; then
	refused_at 'p:kprobes/bx vfs_rea* ^file' "$nofentry"
fi
refused_at 'p:bx no_such_function_kpe ^file' 'No function no_such_function_kpe in BTF (vmlinux or a loaded module): name its arguments as $argN or registers'

# $arg* alone, once.
refused_at 'p:bx vfs_read a=^$arg*' '$arg* stands alone: no name, type or dereference'
refused_at 'p:bx vfs_read +0(^$arg*)' '$arg* stands alone: no name, type or dereference'
refused_at 'p:bx vfs_read ^$arg*:u32' '$arg* stands alone: no name, type or dereference'
refused_at 'p:bx vfs_read $arg* ^$arg*' '$arg* can be used only once'
# a name $arg* gives that is already taken
refused_at 'p:bx vfs_read file ^$arg*' 'This argument name is already used'

[ "$(listing)" = "$keep" ] || fail "listing changed: $(listing)"
[ "$(cat "$T/events/kprobes/keep/id")" = "$id" ] || fail "keep was re-created"
[ ! -d "$T/events/kprobes/bx" ] || fail "a refused probe left events/kprobes/bx"

# The messages stay right as error_log fills past its last entries
# (each is made for its line: see tkp_btf_fail()).
echo > "$T/error_log"
i=0
while [ $i -lt 20 ]; do
	quiet_write "p:bx vfs_read hoge$i" "$T/kprobe_events"
	i=$((i + 1))
done
i=0
for m in $(sed -n "s/.*No argument '\(hoge[0-9]*\)'.*/\1/p" "$T/error_log"); do
	i=$((i + 1))
	grep -q "Command: p:bx vfs_read $m\$" "$T/error_log" ||
		fail "message for $m has no matching command: $(cat "$T/error_log")"
done
[ "$i" -ge 8 ] || fail "error_log shows $i of the messages: $(cat "$T/error_log")"
# in order, the newest last, each beside its command
grep -A1 'No argument' "$T/error_log" | awk '
	/No argument/ { match($0, /hoge[0-9]+/); want = substr($0, RSTART, RLENGTH) }
	/Command:/ { if ($NF != want) bad = 1 }
	END { exit bad }' || fail "a message is beside another command: $(cat "$T/error_log")"
pass
