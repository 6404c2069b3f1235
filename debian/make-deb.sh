#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make deb [ARCH=arm64]: the Debian packages (debian/README.source) into
# build-deb/ARCH/, with a local apt repository's index (Packages) beside
# them, then lintian over them (its errors fail; its warnings are listed
# and justified in debian/README.source).
#   debian/make-deb.sh [ARCH]      ARCH: the host's (default) or arm64
# The build runs in a copy of the tree's files (git's files, tracked and
# new), so that dpkg-buildpackage's outputs and debian/'s build state never
# land in the tree or in its parent folder.
set -euo pipefail
cd "$(dirname "$0")/.."
host=$(dpkg --print-architecture)
arch=${1:-$host}
version=$(sed -n 's/^#define AIETH_VERSION_STRING "\(.*\)"/\1/p' harness/include/aieth/version.h)
python3 tests/pkg/check_debian.py
out=build-deb/$arch
src=$out/src/aieth-$version
rm -rf "$out"
mkdir -p "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [[ -e $f || -L $f ]] && printf '%s\0' "$f"
  done | tar -c --null -T - -f - | tar -x -C "$src"
else
  tar -c --exclude='./build*' --exclude=./.git -f - . | tar -x -C "$src"
fi
jobs=$(nproc 2>/dev/null || echo 2)
opts=(-us -uc -j"$jobs")
if [[ $arch == "$host" ]]; then
  :   # the source package too (lintian checks it), and every binary one
else
  # the binary packages (python3-aieth, all, among them), cross-built:
  # Debian's cross toolchain and the :ARCH -dev packages (scripts/install-deps.sh)
  opts+=(-b -a "$arch")
fi
t0=$(date +%s)
(cd "$src" && dpkg-buildpackage "${opts[@]}") >"$out/build.log" 2>&1 || {
  tail -n 60 "$out/build.log" >&2
  echo "make deb: dpkg-buildpackage ${opts[*]} failed (whole log: $out/build.log)" >&2
  exit 1
}
# dpkg-buildpackage writes beside the source folder
find "$out/src" -maxdepth 1 -type f -exec mv -t "$out" {} +
rm -rf "$out/src"
(cd "$out" && dpkg-scanpackages --multiversion . /dev/null >Packages 2>/dev/null)
echo "make deb: $arch packages in $out/ ($(($(date +%s) - t0)) s):"
ls "$out"/*.deb | sed 's/^/  /'
# lintian: the host's lintian reads the packages of any architecture
changes=$(ls "$out"/*.changes)
lintian --fail-on error --tag-display-limit 0 \
  "$changes" | tee "$out/lintian.txt"
echo "make deb: lintian: $(grep -c '^E:' "$out/lintian.txt" || true) errors, $(grep -c '^W:' "$out/lintian.txt" || true) warnings ($out/lintian.txt)"
