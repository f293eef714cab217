#!/bin/sh
# Checks an installed AttnViz under ROOT (a DESTDIR, or a .deb unpacked with dpkg-deb -x)
# at PREFIX: every file is in place, the menu entry and the AppStream metadata validate,
# and the installed binary runs from there (--version names its own data folder; a trace
# of a trained model, which is compiled in). Used by `make test` (tests/CMakeLists.txt)
# and `make package` (packaging/check_deb.sh).
# Usage: check_installed.sh ROOT PREFIX [APP_ID]   (APP_ID: the one menu entry's name)
set -eu
root=$1 prefix=$2
base="$root$prefix"
app_id=${3:-$(basename "$(ls "$base"/share/applications/*.desktop 2>/dev/null | head -n 1)" .desktop)}
status=0
bad() { echo "check_installed: $*" >&2; status=1; }

for f in bin/attnviz \
         "share/applications/$app_id.desktop" \
         "share/metainfo/$app_id.metainfo.xml" \
         "share/icons/hicolor/scalable/apps/$app_id.svg" \
         "share/icons/hicolor/48x48/apps/$app_id.png" \
         "share/icons/hicolor/256x256/apps/$app_id.png" \
         share/attnviz/models/tiny-lm.json share/attnviz/models/tiny-lm.safetensors \
         share/attnviz/models/README.md \
         share/doc/attnviz/README.md; do
    [ -f "$base/$f" ] || bad "missing $prefix/$f"
done
if [ -d "$(dirname "$0")/../assets/lessons" ] && [ ! -d "$base/share/attnviz/lessons" ]; then
    bad "missing $prefix/share/attnviz/lessons (assets/lessons exists)"
fi
[ -x "$base/bin/attnviz" ] || { bad "$prefix/bin/attnviz is not executable"; exit 1; }

desktop-file-validate "$base/share/applications/$app_id.desktop" || bad "desktop-file-validate failed"
appstreamcli validate --no-net "$base/share/metainfo/$app_id.metainfo.xml" || bad "appstreamcli validate failed"

version=$(env -u ATTNVIZ_DATA_DIR "$base/bin/attnviz" --version) || bad "attnviz --version failed"
echo "$version"
echo "$version" | head -n 1 | grep -Eq '^attnviz [0-9]+\.[0-9]+\.[0-9]+$' || bad "--version's first line is not 'attnviz X.Y.Z'"
# The binary finds the data beside itself, wherever it was installed.
echo "$version" | grep -Fqx "data folder: $base/share/attnviz" || bad "--version does not name $base/share/attnviz"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$base/bin/attnviz" trace --model tiny-lm --out "$out/trace" >/dev/null || bad "the installed binary's trace failed"
[ -f "$out/trace/manifest.json" ] && [ -f "$out/trace/attn_weights.npy" ] || bad "the installed binary's trace wrote no manifest or weights"
[ $status -eq 0 ] && echo "check_installed: $base ok"
exit $status
