#!/usr/bin/env bash
# A library's own sources for the web build, from Debian's source package of the version
# the desktop build links: Debian ships Dear ImGui, giflib and libimagequant only as x86
# libraries (libimgui-dev 1.86+ds-1, libgif-dev 5.2.1-2.5+deb12u1, libimagequant-dev
# 2.17.0-1: `dpkg-query -W`), and the page needs them compiled to WebAssembly.
# The system's apt has no deb-src lines, so a private sources list, lists and cache under
# OUT are used (nothing of the system's apt state changes); the .dsc and tarballs come from
# the Debian archive only and are unpacked with tar, then Debian's own patches are applied
# in their series' order, as dpkg-source would (giflib's carry security fixes to the
# encoder's files). Nothing of these libraries is committed.
#   web/debian_source.sh OUT NAME SOURCE=VERSION FILE PATTERN...
#     ->  OUT/NAME/ (the unpacked sources), once FILE inside them matches every grep -E
#         PATTERN: the version inside the sources must be the one the desktop links.
# e.g. web/debian_source.sh build-web-obj imgui imgui=1.86+ds-1 imgui.h '#define IMGUI_VERSION *"1\.86"'
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 OUT NAME SOURCE=VERSION FILE PATTERN..." >&2; exit 2; }
mkdir -p "$1" && out=$(cd "$1" && pwd)
name=$2 source=${3%%=*} version=${3#*=} file=$4
shift 4
upstream=${version%-*}  # Debian's revision off: 5.2.1-2.5+deb12u1 -> 5.2.1
[ -f "$out/$name/$file" ] && exit 0
mkdir -p "$out/apt/lists/partial" "$out/apt/archives/partial" "$out/src"
echo "deb-src http://deb.debian.org/debian bookworm main" > "$out/apt/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$out/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
          -o "Dir::State::Lists=$out/apt/lists" -o "Dir::Cache::Archives=$out/apt/archives"
          -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
apt-get "${apt_opts[@]}" -qq update
# The archive keeps only a release's newest revision: once bookworm has a newer one (a
# +deb12u2), the pinned one is gone, so the newest is taken instead. The header check
# below still holds the upstream version the desktop links.
if ! (cd "$out/src" && apt-get "${apt_opts[@]}" -qq source --download-only "$source=$version"); then
    echo "debian_source.sh: $source=$version is no longer in the archive; taking bookworm's newest $source" >&2
    rm -rf "$out/src" && mkdir -p "$out/src"
    (cd "$out/src" && apt-get "${apt_opts[@]}" -qq source --download-only "$source")
    version=$(ls "$out/src"/"${source}"_*.dsc | head -n1 | sed -e "s|.*/${source}_||" -e 's|\.dsc$||')
    upstream=${version%-*}
fi
tarball=$(ls "$out/src/${source}_${upstream}".orig.tar.* | head -n1)
tmp="$out/$name.tmp"
rm -rf "$tmp" && mkdir -p "$tmp"
tar -xf "$tarball" -C "$tmp" --strip-components=1
# Debian's patches, if the package has any (a package without them has no debian/patches).
tar -xf "$(ls "$out/src/${source}_${version}".debian.tar.* | head -n1)" -C "$tmp" debian/patches 2>/dev/null || true
if [ -f "$tmp/debian/patches/series" ]; then
    sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$tmp/debian/patches/series" | while read -r patch level; do
        level=${level:--p1}  # quilt's default
        (cd "$tmp" && patch -s "$level" --no-backup-if-mismatch < "debian/patches/$patch")
    done
fi
for pattern in "$@"; do
    grep -Eq "$pattern" "$tmp/$file" ||
        { echo "debian_source.sh: the unpacked $source is not $version ($file lacks '$pattern')" >&2; exit 1; }
done
mv "$tmp" "$out/$name"
