#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: malformed fetch args fail with EINVAL; existing probes untouched
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

keep='p:kprobes/keep vfs_read k=%di:u32 s=+0(%si):ustring'
expect_ok 'p:keep vfs_read k=%di:u32 s=+0(%si):ustring'
id=$(cat "$T/events/kprobes/keep/id")

# $retval only in return probes
expect_refused EINVAL 'p:rf vfs_read x=$retval'
# unknown register
expect_refused EINVAL 'p:rf vfs_read x=%foo'
expect_refused EINVAL 'p:rf vfs_read x=%'
# unknown types
expect_refused EINVAL 'p:rf vfs_read x=%di:u7'
expect_refused EINVAL 'p:rf vfs_read x=%di:'
# string types need a memory fetch (or $comm / an immediate string)
expect_refused EINVAL 'p:rf vfs_read x=%di:string'
expect_refused EINVAL 'p:rf vfs_read x=%di:ustring'
# duplicate names, also against an automatic argN name
expect_refused EINVAL 'p:rf vfs_read x=%di y=%si x=%dx'
expect_refused EINVAL 'p:rf vfs_read arg2=%di %si'
# names must be C identifiers
expect_refused EINVAL 'p:rf vfs_read 9x=%di'
expect_refused EINVAL 'p:rf vfs_read a-b=%di'
expect_refused EINVAL 'p:rf vfs_read =%di'
# $comm is a string only
expect_refused EINVAL 'p:rf vfs_read x=$comm:u32'
# arrays only on memory fetches, with 1..64 elements
expect_refused EINVAL 'p:rf vfs_read x=%di:x8[2]'
expect_refused EINVAL 'p:rf vfs_read x=+0(%di):x8[0]'
expect_refused EINVAL 'p:rf vfs_read x=+0(%di):x8[65]'
# unbalanced dereference
expect_refused EINVAL 'p:rf vfs_read x=+0(%di'
# bad $stack / $arg indices
expect_refused EINVAL 'p:rf vfs_read x=$stack-1'
expect_refused EINVAL 'p:rf vfs_read x=$arg0'
# more than 128 args
args=
i=1
while [ $i -le 129 ]; do
	args="$args a$i=%di"
	i=$((i + 1))
done
expect_refused EINVAL "p:rf vfs_read$args"

[ "$(listing)" = "$keep" ] || fail "listing changed"
[ "$(cat "$T/events/kprobes/keep/id")" = "$id" ] || fail "keep was re-created (id changed)"
check_event_files keep
[ ! -d "$T/events/kprobes/rf" ] || fail "a refused probe left events/kprobes/rf"

reset || fail "cleanup failed"
pass
