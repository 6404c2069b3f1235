#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make test's stages, timed: each prints how long it took when it ends, and
# the last call prints them all with the total (a slow stage is seen where
# it happens, not guessed from CI's total).
#   stage.sh --begin FILE          start a new list
#   stage.sh FILE NAME CMD...      run CMD as stage NAME; its exit code
#   stage.sh --summary FILE        the list and the total
set -u
case ${1:-} in
  --begin) : >"$2"; exit 0 ;;
  --summary)
    echo "== make test: stage times"
    awk -F'\t' '{ printf "   %-40s %6d s\n", $1, $2; t += $2 } END { printf "   %-40s %6d s (%d min %02d s)\n", "total", t, t / 60, t % 60 }' "$2"
    exit 0 ;;
esac
file=$1 name=$2
shift 2
t0=$(date +%s)
"$@"
rc=$?
el=$(($(date +%s) - t0))
printf '%s\t%d\n' "$name" "$el" >>"$file"
if [[ $rc -eq 0 ]]; then
  echo "== make test: stage \"$name\" passed in $el s"
else
  echo "== make test: stage \"$name\" FAILED (exit $rc) after $el s" >&2
  bash "$0" --summary "$file"
fi
exit $rc
