#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: an entry probe on ftrace is hooked at its own function's
# ftrace site, the one at the entry (kprobes/list: SYM+0x0 to SYM+0x8),
# and fires; not at another site inside the function's kallsyms range
# (6.1's arm64 leaves the patchable entry of an overridden __weak
# function's body there, which is never called)
. "$(dirname "$0")/lib.sh"
need_fentry
L=/sys/kernel/debug/kprobes/list
[ -r "$L" ] || skip "no $L"
reset || fail "initial reset failed"
sed 's/[[:space:]].*//' "$T/available_filter_functions" > /tmp/kpe-aff
trap 'rm -f /tmp/kpe-aff' EXIT

# Functions that had such a body in their range on 6.1's arm64 (and
# put_task_stack, which every exiting task calls), where they exist.
n=0
for f in put_task_stack ${KPE_SYS}getrusage ${KPE_SYS}seccomp \
	 ${KPE_SYS}membarrier bpf_get_raw_cpu_id nr_processes; do
	grep -qx "$f" /tmp/kpe-aff || continue
	n=$((n + 1))
	expect_ok "p:kpe_site/s$n $f"
	line=$(grep -E "^[0-9a-f]+  k  $f\+0x[0-9a-f]+ " "$L")
	off=$(echo "$line" | sed -n "s/.*  k  $f+\(0x[0-9a-f]*\) .*/\1/p")
	log "$f: $line"
	[ -n "$off" ] || { dump "$L"; fail "no kprobes/list line for $f"; }
	[ $((off)) -le 8 ] || fail "$f hooked at +$off, not at its entry's ftrace site"
	case $line in *'[FTRACE]'*) ;; *) fail "$f is not on ftrace: '$line'" ;; esac
done
[ $n -gt 0 ] || skip "none of the functions is traceable here"

# A pattern finds the same site.
if grep -qx put_task_stack /tmp/kpe-aff; then
	expect_ok "p:kpe_site/w put_task_stac[k]"
	[ "$(grep -cE "  k  put_task_stack\+0x[0-9a-f]+ " "$L")" = 2 ] ||
		{ dump "$L"; fail "the pattern's line for put_task_stack is not the probe's"; }
	[ "$(grep -E "  k  put_task_stack\+" "$L" | awk '{ print $1 $3 }' | sort -u | wc -l)" = 1 ] ||
		{ dump "$L"; fail "the pattern hooks put_task_stack elsewhere than the probe"; }
	# And it fires: every exiting task puts its stack.
	enable_ev kpe_site/s1
	enable_ev kpe_site/w
	for i in 1 2 3 4 5; do sh -c true; done
	disable_ev kpe_site/s1
	disable_ev kpe_site/w
	h=$(profile_hits s1) hw=$(profile_hits w)
	log "put_task_stack: $h hits, the pattern $hw"
	[ "$h" -gt 0 ] && [ "$hw" -gt 0 ] || fail "put_task_stack's probe did not fire ($h, $hw hits)"
fi
reset || fail "cleanup failed"
pass
