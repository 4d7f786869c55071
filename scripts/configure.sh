#!/bin/bash
# configure.sh VARIANT [FRAGMENT...]: tinyconfig + the kselftest config
# fragment (+ extra fragments; the "debug" variant always adds
# config.debug), olddefconfig, then check that every option the fragments
# ask for came out as asked.  Skipped when nothing changed.
. "$(dirname "$0")/common.sh"

variant=${1:-linux}; shift || true
frags=("$SELFTESTS/config")
[ "$variant" = debug ] && frags+=("$SELFTESTS/config.debug")
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

bad=0
for f in "${frags[@]}"; do
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=n) opt=${line%%=*}
			grep -q "^$opt=" "$obj/.config" && { echo "  $opt: wanted n"; bad=1; } ;;
		CONFIG_*=*) grep -qxF "$line" "$obj/.config" ||
			{ echo "  $line: got '$(grep "^${line%%=*}=" "$obj/.config" || echo unset)'"; bad=1; } ;;
		"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}
			grep -q "^$opt=" "$obj/.config" && { echo "  $opt: wanted unset"; bad=1; } ;;
		esac
	done < "$f"
done
[ $bad -eq 0 ] || die "config fragment not honoured (see above)"
echo "$sum" > "$obj/.kpe-config-sum"
