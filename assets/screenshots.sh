#!/bin/sh
# The README's pictures of the Chinese window, drawn by AttnViz itself (`attnviz snapshot`
# under Xvfb), so they cannot go stale: `make screenshots`, or
#   assets/screenshots.sh build/attnviz
# writes
#   assets/screenshot_zh-Hans.png, assets/screenshot_zh-Hant.png
#     the whole window at 1280x800 on tiny-lm-zh's sentence in that language's script
#     (the card's example_<code>), layer 0, the attention weights.
set -eu
attnviz=${1:-build/attnviz}
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for code in zh-Hans zh-Hant; do
    xvfb-run -a -s "-screen 0 1280x800x24" "$attnviz" snapshot --lang "$code" --model tiny-lm-zh \
        --step attn_weights --layout window --size 1280x800 --out "$work/$code"
    cp "$work/$code"/*_attn_weights.png "$here/screenshot_$code.png"
    echo "wrote $here/screenshot_$code.png"
done
