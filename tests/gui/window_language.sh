#!/bin/sh
# The window's language: the locale's when none was picked, --lang when given (and then
# remembered), English for a locale AttnViz has no language for. Read from the window's
# title, which is the catalogue's "window.title" in the language in use.
# Usage: window_language.sh ATTNVIZ   (needs Xvfb and xdotool)
set -u
attnviz=$1
private_display="$(cd "$(dirname "$0")" && pwd)/on_private_display.sh"
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
failures=0

# The title of a window started with environment $1 and options $2.
title_of() {
    "$private_display" sh -c "env -u LC_ALL -u LC_MESSAGES -u LANGUAGE XDG_CONFIG_HOME='$config' $1 '$attnviz' -L 3 -E 4 -H 2 $2 &
        pid=\$!; i=0
        while [ \$i -lt 40 ] && ! xdotool search --name AttnViz >/dev/null 2>&1; do sleep 0.25; i=\$((i + 1)); done
        sleep 0.5; xdotool search --name AttnViz getwindowname %@ 2>/dev/null | head -n 1
        kill \$pid; wait \$pid"
}

expect() {  # expect WHAT TITLE-PART ENV OPTIONS
    got=$(title_of "$3" "$4")
    case "$got" in
        *"$2"*) echo "ok: $1" ;;
        *) echo "FAILED: $1: the title is '$got', expected it to hold '$2'"; failures=$((failures + 1)) ;;
    esac
}

expect "a Taiwan locale gives 繁體中文" "多頭注意力" "LANG=zh_TW.UTF-8" ""
expect "LC_MESSAGES comes before LANG" "多头注意力" "LANG=zh_TW.UTF-8 LC_MESSAGES=zh_CN.UTF-8" ""
expect "a locale AttnViz lacks gives English" "multi-head attention" "LANG=fr_FR.UTF-8" ""
expect "--lang wins over the locale" "多头注意力" "LANG=zh_TW.UTF-8" "--lang zh-CN"
expect "--lang is remembered" "多头注意力" "LANG=C" ""
grep -q '^language = zh-Hans$' "$config/attnviz/settings.ini" || { echo "FAILED: settings.ini does not hold language = zh-Hans"; failures=$((failures + 1)); }
exit $failures
