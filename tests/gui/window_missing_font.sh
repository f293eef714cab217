#!/bin/sh
# Without fonts-noto-cjk the window still starts: in Chinese the status line names the
# package to install, in English nothing is said. The font is hidden in a private mount
# namespace (root only), so the rest of the machine keeps it; elsewhere the test is skipped.
# Usage: window_missing_font.sh ATTNVIZ   (needs unshare, mount, Xvfb)
set -u
private_display="$(cd "$(dirname "$0")" && pwd)/on_private_display.sh"
attnviz=$1
noto=/usr/share/fonts/opentype/noto
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/empty" "$work/config"
if ! unshare --mount --propagation private true 2>/dev/null || [ ! -d "$noto" ]; then
    echo "skipped: needs root (a private mount namespace) and fonts-noto-cjk installed"
    exit 77
fi

# The messages the window shows after starting with options $1 (tests/gui/test_hook.h).
messages_of() {
    rm -f "$work/layout"
    unshare --mount --propagation private sh -c "mount --bind '$work/empty' '$noto' &&
        '$private_display' sh -c \"XDG_CONFIG_HOME='$work/config' ATTNVIZ_TEST_LAYOUT='$work/layout' '$attnviz' -L 3 -E 4 -H 2 $1 &
            pid=\\\$!; i=0
            while [ \\\$i -lt 40 ] && [ ! -s '$work/layout' ]; do sleep 0.25; i=\\\$((i + 1)); done
            sleep 1; kill \\\$pid; wait \\\$pid\""
    grep '^message ' "$work/layout" 2>/dev/null
}

failures=0
hant=$(messages_of "--lang zh-Hant")
case "$hant" in
    *fonts-noto-cjk*) echo "ok: 繁體中文 without the font names fonts-noto-cjk" ;;
    *) echo "FAILED: no message names fonts-noto-cjk; messages: $hant"; failures=$((failures + 1)) ;;
esac
english=$(messages_of "--lang en")
[ -s "$work/layout" ] || { echo "FAILED: the English window did not start"; failures=$((failures + 1)); }
case "$english" in
    *fonts-noto-cjk*) echo "FAILED: English asks for the font: $english"; failures=$((failures + 1)) ;;
    *) echo "ok: English without the font starts and says nothing about it" ;;
esac
exit $failures
