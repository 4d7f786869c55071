#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: malformed fetch args fail with EINVAL; existing probes untouched
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

keep='p:kprobes/keep vfs_read k='"$KPE_ARG1_REG"':u32 s=+0('"$KPE_ARG2_REG"'):ustring'
expect_ok 'p:keep vfs_read k='"$KPE_ARG1_REG"':u32 s=+0('"$KPE_ARG2_REG"'):ustring'
id=$(cat "$T/events/kprobes/keep/id")

# $retval only in return probes
expect_refused EINVAL 'p:rf vfs_read x=$retval'
# unknown register
expect_refused EINVAL 'p:rf vfs_read x=%foo'
expect_refused EINVAL 'p:rf vfs_read x=%'
# unknown types
expect_refused EINVAL 'p:rf vfs_read x='"$KPE_ARG1_REG"':u7'
expect_refused EINVAL 'p:rf vfs_read x='"$KPE_ARG1_REG"':'
# string types need a memory fetch (or $comm / an immediate string)
expect_refused EINVAL 'p:rf vfs_read x='"$KPE_ARG1_REG"':string'
expect_refused EINVAL 'p:rf vfs_read x='"$KPE_ARG1_REG"':ustring'
# duplicate names, also against an automatic argN name
expect_refused EINVAL 'p:rf vfs_read x='"$KPE_ARG1_REG"' y='"$KPE_ARG2_REG"' x='"$KPE_ARG3_REG"
expect_refused EINVAL 'p:rf vfs_read arg2='"$KPE_ARG1_REG"' '"$KPE_ARG2_REG"
# names must be C identifiers
expect_refused EINVAL 'p:rf vfs_read 9x='"$KPE_ARG1_REG"
expect_refused EINVAL 'p:rf vfs_read a-b='"$KPE_ARG1_REG"
expect_refused EINVAL 'p:rf vfs_read ='"$KPE_ARG1_REG"
# $comm is a string only
expect_refused EINVAL 'p:rf vfs_read x=$comm:u32'
# arrays only on memory fetches, with 1..64 elements
expect_refused EINVAL 'p:rf vfs_read x='"$KPE_ARG1_REG"':x8[2]'
expect_refused EINVAL 'p:rf vfs_read x=+0('"$KPE_ARG1_REG"'):x8[0]'
expect_refused EINVAL 'p:rf vfs_read x=+0('"$KPE_ARG1_REG"'):x8[65]'
# unbalanced dereference
expect_refused EINVAL 'p:rf vfs_read x=+0('"$KPE_ARG1_REG"
# bad $stack / $arg indices
expect_refused EINVAL 'p:rf vfs_read x=$stack-1'
expect_refused EINVAL 'p:rf vfs_read x=$arg0'
# more than 128 args
expect_refused EINVAL "p:rf vfs_read$(nargs a 1 129 "$KPE_ARG1_REG")"

[ "$(listing)" = "$keep" ] || fail "listing changed"
[ "$(cat "$T/events/kprobes/keep/id")" = "$id" ] || fail "keep was re-created (id changed)"
check_event_files keep
[ ! -d "$T/events/kprobes/rf" ] || fail "a refused probe left events/kprobes/rf"

reset || fail "cleanup failed"
pass
