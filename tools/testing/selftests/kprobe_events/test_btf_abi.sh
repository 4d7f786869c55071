#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: BTF names only where BTF tells the truth: not after a wide struct passed by value; bytes stay bytes; untyped $argN/$retval stay x64 where BTF cannot type them
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
trap 'reset >/dev/null 2>&1' EXIT
[ -r /sys/kernel/btf/vmlinux ] || skip "no BTF in this kernel"

# refused_with LINE MESSAGE-PART: EINVAL, nothing changed, error_log says it
refused_with() {
	expect_refused EINVAL "$1"
	grep -qF -- "$2" "$T/error_log" ||
		{ dump "$T/error_log"; fail "'$1': error_log lacks '$2'"; }
}

# fn_traceable SYM: SYM is a function ftrace can hook
fn_traceable() {
	grep -q "^$1\$" "$T/available_filter_functions" 2>/dev/null ||
		grep -q "^$1 " "$T/available_filter_functions" 2>/dev/null
}

expect_ok "p:keep vfs_read"

# timestamp_truncate(struct timespec64 t, struct inode *inode): t takes two
# registers, inode is in the third.  A name after t would read t's second
# half: refused, $arg* too; $argN is the register it always was.
if fn_traceable timestamp_truncate; then
	refused_with "p:bad timestamp_truncate inode" "takes t by value in more than a register"
	refused_with "p:bad timestamp_truncate \$arg*" "is struct timespec64"
	refused_with "p:bad timestamp_truncate \$arg2->i_ino" "takes t by value in more than a register"
	# untyped, x64 as before BTF: t is a struct, $arg3 past BTF's count
	expect_ok "p:tt timestamp_truncate \$arg1 \$arg2 \$arg3"
	grep -qF 'arg1=0x%llx arg2=0x%llx arg3=0x%llx' "$T/events/kprobes/tt/format" ||
		{ dump "$T/events/kprobes/tt/format"; fail "tt: untyped \$argN not x64"; }
	expect_ok "-:tt"
else
	log "timestamp_truncate not traceable: by-value cases skipped"
fi

# Bytes (u8[16], a UUID) are no string; a char[] is; no string arrays or
# ustring on what BTF says is a kernel char array; no type on a bitfield.
expect_ok "p:uu vfs_read u=file->f_inode->i_sb->s_uuid.b n=file->f_path.dentry->d_iname"
grep -qF "field:u8 u[" "$T/events/kprobes/uu/format" ||
	{ dump "$T/events/kprobes/uu/format"; fail "uu: a u8[16] member is not a u8 array"; }
grep -qF "field:__data_loc char[] n;" "$T/events/kprobes/uu/format" ||
	{ dump "$T/events/kprobes/uu/format"; fail "uu: a char[] member is not a string"; }
refused_with "p:bad vfs_read s=file->f_path.dentry->d_iname:string[2]" "string arrays are not taken from BTF"
refused_with "p:bad vfs_read s=buf:string[2]" "string arrays are not taken from BTF"
refused_with "p:bad vfs_read s=file->f_path.dentry->d_iname:ustring" "in kernel memory: string, not ustring"
if fn_traceable wake_up_new_task; then
	refused_with "p:bad wake_up_new_task p->in_execve:u32" "is a bitfield: leave its type to BTF"
fi

# A struct returned by value, untyped: x64, as before BTF typed $retval
if fn_traceable sock_i_uid; then
	expect_ok "r:ru sock_i_uid \$retval"
	grep -qF 'arg1=0x%llx' "$T/events/kprobes/ru/format" ||
		{ dump "$T/events/kprobes/ru/format"; fail "ru: untyped \$retval of a struct not x64"; }
fi

# A return probe written at the entry past endbr64 types as at +0
L=/sys/kernel/debug/kprobes/list
if [ -r "$L" ] && grep -qE ' vfs_read\+0x4 ' "$L"; then
	expect_ok "r:r0 vfs_read \$retval count"
	expect_ok "r:r4 vfs_read+4 \$retval count"
	f0=$(grep 'print fmt' "$T/events/kprobes/r0/format")
	f4=$(grep 'print fmt' "$T/events/kprobes/r4/format")
	[ "$f0" = "$f4" ] || fail "r vfs_read+4 typed unlike r vfs_read: '$f4' vs '$f0'"
fi

listing_has "p:kprobes/keep vfs_read" || fail "refusals lost p:kprobes/keep"
reset || fail "cleanup failed"
pass
