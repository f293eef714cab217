#!/bin/sh
# Re-draws the committed PNG icons from attnviz.svg after a change to it
# (needs librsvg2-bin: apt-get install librsvg2-bin). The install rules
# (cmake/install.cmake) put each into share/icons/hicolor/<N>x<N>/apps/.
set -eu
cd "$(dirname "$0")"
mkdir -p png
for size in 16 24 32 48 64 128 256 512; do
    rsvg-convert -w "$size" -h "$size" attnviz.svg -o "png/attnviz-$size.png"
done
