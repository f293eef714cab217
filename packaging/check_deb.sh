#!/bin/sh
# Checks the .deb `make package` built: its Depends name the libraries the binary links
# (found by dpkg-shlibdeps) and the fonts it opens by path, apt can resolve them on this
# system (a simulated `apt install ./attnviz_*.deb`), and the unpacked files pass
# check_installed.sh at /usr.
# Usage: check_deb.sh FILE.deb APP_ID
set -eu
deb=$1 app_id=$2
here=$(cd "$(dirname "$0")" && pwd)
status=0
bad() { echo "check_deb: $*" >&2; status=1; }

dpkg-deb -I "$deb"
depends=$(dpkg-deb -f "$deb" Depends)
for pkg in libc6 libstdc++6 libglfw3 libepoxy0 libgl1 libx11-6 libgomp1 libgif7 libimagequant0 libcairo2 libpango-1.0-0 libpangocairo-1.0-0 libstb0 fonts-dejavu-core fonts-noto-cjk; do
    echo "$depends" | tr ',|' '\n\n' | sed 's/^ *//; s/ .*//' | grep -qx "$pkg" || bad "Depends lacks $pkg: $depends"
done
[ "$(dpkg-deb -f "$deb" Package)" = attnviz ] || bad "the package is not called attnviz"
# What `apt install ./attnviz_*.deb` would do, without doing it (any user may run this).
apt-get install --simulate --no-install-recommends "$(realpath "$deb")" >/dev/null || bad "apt cannot resolve the Depends here"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
"$here/check_installed.sh" "$root" /usr "$app_id" || status=1
[ $status -eq 0 ] && echo "check_deb: $deb ok"
exit $status
