#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check-format.sh - is the C code formatted as .clang-format says?
#
#   bash scripts/check-format.sh         list each .c/.h that clang-format would
#                                        change (with the count of lines), exit 1
#                                        if there is one, 0 if none
#   bash scripts/check-format.sh --fix   format them in place (make format)
#
# The files: every .c and .h of harness/, host/, pl_dma/, tests/, examples/
# and python/ that git knows (tracked, or new and not ignored); outside a git
# checkout, every such file under those folders. CLANG_FORMAT names the
# program (default clang-format); the configuration was tuned with version
# 14 (Debian 12), and another version may format differently.
set -u
cd "$(dirname "$0")/.." || exit 2
CF=${CLANG_FORMAT:-clang-format}
DIRS=(harness host pl_dma tests examples python)

if ! command -v "$CF" >/dev/null 2>&1; then
  echo "check-format: $CF not found (Debian package clang-format; scripts/install-deps.sh installs it)" >&2
  exit 2
fi
ver=$("$CF" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
[[ $ver == 14 ]] || echo "check-format: note: $CF is version ${ver:-unknown}, .clang-format was tuned with 14" >&2

files=()
if git rev-parse --git-dir >/dev/null 2>&1; then
  while IFS= read -r f; do [[ -f $f ]] && files+=("$f"); done \
    < <(git ls-files -co --exclude-standard -- "${DIRS[@]/%//*.c}" "${DIRS[@]/%//*.h}" | sort -u)
else
  while IFS= read -r f; do files+=("$f"); done \
    < <(find "${DIRS[@]}" -name '*.[ch]' -type f 2>/dev/null | sort)
fi

if [[ ${1:-} == --fix ]]; then
  # Twice: clang-format 14 joins a function whose body is only a comment
  # into one line on a first pass and splits it again on the next.
  ((${#files[@]})) || exit 0
  "$CF" -i --style=file "${files[@]}" && "$CF" -i --style=file "${files[@]}"
  exit
fi

tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
bad=0 lines=0
for f in "${files[@]}"; do
  if ! "$CF" --style=file "$f" >"$tmp"; then
    echo "check-format: $CF failed on $f" >&2
    exit 2
  fi
  n=$(diff "$f" "$tmp" | grep -c '^[<>]')
  if ((n)); then
    echo "$f: $n lines differ"
    bad=$((bad + 1)) lines=$((lines + n))
  fi
done
if ((bad)); then
  echo "check-format: $bad of ${#files[@]} files are not formatted ($lines lines differ); make format fixes them" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
