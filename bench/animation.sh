#!/usr/bin/env bash
# Times animated exports: a 2-second step animation at 1280x720 as GIF (goal under 10 s)
# and as MP4 (goal under 5 s) with `attnviz snapshot --animate`: the time it reports for
# drawing every frame off-screen, encoding and renaming into place, and the whole command
# (with start-up, the forward and, when used, xvfb-run's own start).
#
# Usage: bench/animation.sh [RUNS]      (RUNS defaults to 3; prints every run)
#
# Environment: ATTNVIZ (default build/attnviz). Needs an X display or xvfb-run; MP4 needs
# ffmpeg (make test-deps installs both).
#
# The animation: tiny-lm's attention weights (layer 0), the source held, the step's
# animation, the end held: 3.4 s at speed 1, so --speed 1.7 makes it 2.0 s; 30 fps.
set -euo pipefail
cd "$(dirname "$0")/.."
ATTNVIZ="${ATTNVIZ:-build/attnviz}"
RUNS="${1:-3}"
if [[ -n "${DISPLAY:-}" ]]; then x=(); elif command -v xvfb-run >/dev/null; then x=(xvfb-run -a); else
    echo "bench/animation.sh: no X display and no xvfb-run (make test-deps): skipped"; exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(snapshot --model tiny-lm --step attn_weights --size 1280x720 --fps 30 --speed 1.7)
for format in gif mp4; do
    if [[ $format == mp4 ]] && ! command -v ffmpeg >/dev/null; then echo "MP4: ffmpeg not installed, skipped"; continue; fi
    goal=$([[ $format == gif ]] && echo 10 || echo 5)
    for run in $(seq 1 "$RUNS"); do
        start=$(date +%s.%N)
        line=$("${x[@]}" "$ATTNVIZ" "${args[@]}" --animate "$format" --out "$out/bench.$format")
        wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
        size=$(( $(stat -c %s "$out/bench.$format") / 1024 ))
        # "in X s" is the drawing and encoding; the whole command (start-up, forward, X) took `wall`.
        printf '%s run %d: %s; whole command %.2f s (goal %d s), %d KiB\n' "${format^^}" "$run" "${line#wrote $out/}" "$wall" "$goal" "$size"
    done
done
