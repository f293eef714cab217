#!/bin/sh
# on_private_display.sh [-a] [-s "SERVER ARGS"] COMMAND [ARGS...]
# Runs COMMAND on a private Xvfb and stops the server after it; takes xvfb-run's -a and -s.
# Xvfb picks the display number itself (-displayfd), so tests that ctest starts in parallel
# never race for one: two `xvfb-run -a` starting at the same moment can pick the same free
# number, and the loser's command then finds no X display (seen under ctest -j2).
set -u
server_args="-screen 0 1280x1024x24"  # xvfb-run's default
while [ $# -gt 0 ]; do
    case "$1" in
        -a) shift ;;
        -s) server_args=$2; shift 2 ;;
        *) break ;;
    esac
done
dir=$(mktemp -d)
# shellcheck disable=SC2086  # the server arguments are words, as xvfb-run splits them
Xvfb -displayfd 3 $server_args -nolisten tcp 3>"$dir/display" 2>"$dir/log" &
server=$!
# Xvfb writes the number, then a newline, once it accepts clients.
i=0
while ! grep -q . "$dir/display" 2>/dev/null; do
    if ! kill -0 "$server" 2>/dev/null || [ $i -ge 600 ]; then
        echo "on_private_display.sh: Xvfb did not start:" >&2
        cat "$dir/log" >&2
        rm -rf "$dir"
        exit 1
    fi
    sleep 0.05
    i=$((i + 1))
done
DISPLAY=:$(head -n 1 "$dir/display")
export DISPLAY
"$@"
status=$?
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
rm -rf "$dir"
exit $status
