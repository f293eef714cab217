#!/usr/bin/env bash
# Dear ImGui's own sources for the web build, from Debian's source package of the version
# libimgui-dev installs (1.86+ds-1): libimgui-dev ships ImGui only as an x86 library.
# The system's apt has no deb-src lines, so a private sources list, lists and cache under
# OUT are used (nothing of the system's apt state changes); the .dsc and tarballs come from
# the Debian archive only and are unpacked with tar. Nothing of ImGui is committed.
#   web/imgui_source.sh OUT   ->  OUT/imgui/{imgui.cpp,...,backends/}
set -euo pipefail
mkdir -p "$1" && out=$(cd "$1" && pwd)
version=1.86+ds-1
upstream=1.86
[ -f "$out/imgui/imgui.cpp" ] && exit 0
mkdir -p "$out/apt/lists/partial" "$out/apt/archives/partial" "$out/src"
echo "deb-src http://deb.debian.org/debian bookworm main" > "$out/apt/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$out/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
          -o "Dir::State::Lists=$out/apt/lists" -o "Dir::Cache::Archives=$out/apt/archives"
          -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
apt-get "${apt_opts[@]}" -qq update
(cd "$out/src" && apt-get "${apt_opts[@]}" -qq source --download-only "imgui=$version")
tarball=$(ls "$out/src"/imgui_"${upstream}"+ds.orig.tar.* | head -n1)
rm -rf "$out/imgui.tmp" && mkdir -p "$out/imgui.tmp"
tar -xf "$tarball" -C "$out/imgui.tmp" --strip-components=1
# The version inside the sources must be the one the desktop build links.
grep -q "#define IMGUI_VERSION *\"$upstream\"" "$out/imgui.tmp/imgui.h" ||
    { echo "imgui_source.sh: the unpacked ImGui is not $upstream" >&2; exit 1; }
mv "$out/imgui.tmp" "$out/imgui"
