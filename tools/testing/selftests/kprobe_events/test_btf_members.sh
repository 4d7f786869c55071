#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: BTF members through pointers: file->f_path.dentry and
# deeper, '.' for embedded structs, members of anonymous unions, char
# arrays and char pointers as strings, $retval->member, members in
# return probes (taken at entry), +OFFS() around a name
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"
trap 'reset >/dev/null 2>&1' EXIT
[ -e /sys/kernel/btf/vmlinux ] || skip "no BTF in this kernel (test_btf_refuse.sh checks the refusal)"


# 1. Pointers and embedded structs, with each member's type: the name
# of the file read (d_name.name: a char pointer, so :string reads what
# it points to; d_iname: a char array, a string by itself), the same
# dentry reached two ways, an anonymous union's member (i_nlink).
def='vfs_read file->f_path.dentry d2=file->f_path.dentry:x64 nm=file->f_path.dentry->d_name.name:string file->f_path.dentry->d_iname file->f_mode file->f_pos file->f_inode->i_nlink'
expect_ok "p:bm $def"
listing_has "p:kprobes/bm vfs_read dentry=file->f_path.dentry d2=file->f_path.dentry:x64 nm=file->f_path.dentry->d_name.name:string d_iname=file->f_path.dentry->d_iname f_mode=file->f_mode f_pos=file->f_pos i_nlink=file->f_inode->i_nlink" ||
	fail "listing: $(listing)"
fmt_has bm "field:u64 dentry;"
fmt_has bm "field:__data_loc char[] nm;"
fmt_has bm "field:__data_loc char[] d_iname;"
fmt_has bm "field:u32 f_mode;"
fmt_has bm "field:s64 f_pos;"
fmt_has bm "field:u32 i_nlink;"
fire bm
n=$(grep -cE ' bm: \(vfs_read\+0x0/0x[0-9a-f]+\) dentry=(0x[0-9a-f]+) d2=\1 nm="version" d_iname="version" f_mode=[0-9]+ f_pos=[0-9]+ i_nlink=1$' "$T/trace")
log "bm: $n records of the read of /proc/version"
[ "$n" -gt 0 ] || rfail bm "no 'dentry=X d2=X nm=\"version\" d_iname=\"version\" ... i_nlink=1' record"
reset || fail "reset failed"

# 2. $retval->member: getname_flags returns a struct filename *, whose
# name is a char pointer.
expect_ok 'r:bg getname_flags%return $retval->name:string'
listing_has 'r:kprobes/bg getname_flags name=$retval->name:string' ||
	fail "listing: $(listing)"
enable_ev bg
cat /proc/version > /dev/null
disable_ev bg
n=$(grep -cE ' bg: \(.* <- getname_flags\) name="/proc/version"$' "$T/trace")
[ "$n" -gt 0 ] || rfail bg "no name=\"/proc/version\" record"
reset || fail "reset failed"

# 3. In a return probe, members are read at the entry, as $argN is:
# vfs_open() sets file->f_mode; at its entry the file is not open yet.
expect_ok 'r:bv vfs_open m=file->f_mode:x32 in=file->f_inode $arg2:x64'
fmt_has bv "field:u64 in;"
enable_ev bv
cat /proc/version > /dev/null
disable_ev bv
n=$(grep -cE ' bv: \(.* <- vfs_open\) m=0x[0-9a-f]+ in=0x0 arg3=0x[0-9a-f]+$' "$T/trace")
[ "$n" -gt 0 ] || rfail bv "no record with f_inode still NULL (read at entry)"
reset || fail "reset failed"

# 4. A name inside +OFFS(): the dereference is the user's, so is the
# type (x64 unless written); the string auto-dereference is only for
# the name itself.
expect_ok 'p:bd vfs_read o=+0(file->f_path.dentry) s=+0(file->f_path.dentry->d_name.name):string'
fmt_has bd "field:u64 o;"
fire bd
n=$(grep -cE ' bd: \(vfs_read\+0x0/0x[0-9a-f]+\) o=0x[0-9a-f]+ s="version"$' "$T/trace")
[ "$n" -gt 0 ] || rfail bd "no 'o=0x.. s=\"version\"' record"
reset || fail "reset failed"

# 5. The name types take a name's value as they take a register's:
# %pD of the file, %pd of its dentry.
expect_ok 'p:bp vfs_read f=file:%pD d=file->f_path.dentry:%pd'
fire bp
n=$(grep -cE ' bp: \(vfs_read\+0x0/0x[0-9a-f]+\) f="version" d="version"$' "$T/trace")
[ "$n" -gt 0 ] || rfail bp "no 'f=\"version\" d=\"version\"' record"
reset || fail "reset failed"

# 6. A type written is a cast: a struct read as its first 8 bytes (the
# struct path's mnt), a void * member dereferenced with +OFFS().
expect_ok 'p:bc vfs_read file->f_path.mnt p=file->f_path:x64 q=+0(file->private_data):x8'
fmt_has bc "field:u8 q;"
fire bc
total=$(count_trace " bc: (")
same=$(sed -n 's/^.* bc: (vfs_read+0x0\/0x[0-9a-f]*) mnt=\(0x[0-9a-f]*\) p=\(0x[0-9a-f]*\) q=.*$/\1 \2/p' "$T/trace" |
	awk '$1 == $2' | wc -l)
log "bc: $total records, $same with the cast equal to the member"
[ "$total" -gt 0 ] || fail "no bc record"
[ "$same" = "$total" ] || rfail bc "file->f_path:x64 differs from file->f_path.mnt"
reset || fail "cleanup failed"
pass
