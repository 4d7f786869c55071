#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: MOD:SYM places that wait for their module are refused on
# its load when SYM is on the module's kprobe blacklist, as they are
# once it is loaded
. "$(dirname "$0")/lib.sh"
reset || fail "initial reset failed"

need_kmod
D=/sys/kernel/debug/kprobes
[ -d "$D" ] || D=/debug/kprobes
BL=$D/blacklist
[ -f "$BL" ] || skip "no kprobes blacklist file"
KPLIST=$D/list
FUNC=kpe_nokprobe_fn
trap 'reset >/dev/null 2>&1; rmmod kpe_kmod 2>/dev/null' EXIT

# Loaded: the function is on the blacklist, and refused.
modprobe kpe_kmod || fail "modprobe kpe_kmod failed"
grep -qE "	$FUNC( |\$)" "$BL" || { dump "$BL"; fail "$FUNC is not on the kprobe blacklist"; }
expect_refused EINVAL "p:mbl/now kpe_kmod:$FUNC"
rmmod kpe_kmod || fail "rmmod kpe_kmod failed"

# Defined while the module is out: waiting, then refused as it comes.
expect_ok "p:mbl/one kpe_kmod:$FUNC"
expect_ok "p:mbl/ctl kpe_kmod:kpe_traced_fn"
PAT=
if has_fentry; then
	PAT=1
	expect_ok "p:mbl/pat kpe_kmod:kpe_[nt][or]*_fn"
fi
modprobe kpe_kmod || fail "modprobe kpe_kmod failed"
if grep -q "$FUNC" "$KPLIST"; then
	dump "$KPLIST"
	fail "$FUNC, on the blacklist, was probed as its module came"
fi
grep -q "kpe_traced_fn" "$KPLIST" ||
	{ dump "$KPLIST"; fail "kpe_traced_fn was not probed as its module came"; }
log "as kpe_kmod came: kpe_traced_fn probed, $FUNC not"
# Still listed (the module may come again), and the others work.
listing_has "p:mbl/one kpe_kmod:$FUNC" || fail "the refused place is gone"
if [ -n "$PAT" ]; then
	grep -q "kpe_notrace_fn" "$KPLIST" && fail "a notrace function was hooked"
fi

reset || fail "cleanup failed"
rmmod kpe_kmod || fail "rmmod kpe_kmod failed"
pass
