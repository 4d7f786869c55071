#!/bin/bash
# configure.sh VARIANT [FRAGMENT...]: tinyconfig + the kselftest config
# fragment + the distribution-grade layer (scripts/config.distro; on arm64
# scripts/config.arm64 instead; with KERNEL=6.12 the 6.12 layer after it,
# config.distro-6.12 or config.arm64-6.12) (+ extra fragments; the
# "debug" variants always add config.debug, and with KERNEL=6.12
# config.debug-6.12 after it), olddefconfig, then check
# that every option came out as the last fragment that names it asks.
# Skipped when nothing changed.  With ARCH=arm64 VARIANT names the arm64
# variant (linux -> arm64, upstream -> upstream-arm64).
. "$(dirname "$0")/common.sh"

variant=$(arch_variant "${1:-linux}"); shift || true
if [ "$(variant_arch "$variant")" = arm64 ]; then
	frags=("$SELFTESTS/config" "$TOP/scripts/config.arm64")
else
	frags=("$SELFTESTS/config" "$TOP/scripts/config.distro")
fi
if [ "$KERNEL" != 6.1 ]; then
	frags+=("${frags[1]}-$KERNEL")
	[ -f "${frags[2]}" ] || die "no config layer ${frags[2]##*/} for Linux $KERNEL"
fi
case $variant in
debug | debug-*)
	frags+=("$TOP/scripts/config.debug")
	# (and its 6.12 part, after it)
	[ "$KERNEL" = 6.1 ] || frags+=("$TOP/scripts/config.debug-$KERNEL")
	;;
esac
frags+=("$@")
obj=$(obj_dir "$variant")
src=$(src_dir "$variant")
mkdir -p "$obj"

sum=$(cat "${frags[@]}" "$src/kernel/trace/Kconfig" | md5sum | cut -d' ' -f1)
if [ -f "$obj/.config" ] && [ "$(cat "$obj/.kpe-config-sum" 2>/dev/null)" = "$sum" ]; then
	exit 0
fi

log "configuring $variant: tinyconfig + ${frags[*]##*/}"
kmake "$variant" tinyconfig >/dev/null
for f in "${frags[@]}"; do
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "$f" >/dev/null)
done
kmake "$variant" olddefconfig >/dev/null

# The wanted value of each option: that of the last fragment naming it.
want=$(cat "${frags[@]}" | sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' \
	-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 n/p' |
	awk '{ v[$1] = $2; if (!($1 in seen)) { seen[$1] = 1; o[n++] = $1 } }
	     END { for (i = 0; i < n; i++) print o[i], v[o[i]] }')
bad=0
while read -r opt val; do
	got=$(grep "^$opt=" "$obj/.config" | cut -d= -f2-)
	if [ "$val" = n ]; then
		[ -z "$got" ] || { echo "  $opt: wanted unset, got '$got'"; bad=1; }
	elif [ "$got" != "$val" ]; then
		echo "  $opt=$val: got '${got:-unset}'"; bad=1
	fi
done <<< "$want"
[ $bad -eq 0 ] || die "config fragment not honoured (see above)"
echo "$sum" > "$obj/.kpe-config-sum"
