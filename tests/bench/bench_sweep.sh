#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench: a 1,000-point sweep of examples/adder_perf on the emulated
# board (docs/user-guide.md, "Sweeps"): the wall time of run_test from the
# start to every report written, and its peak RSS when /usr/bin/time is
# there; then the same sweep of examples/adder_func, whose data and golden
# data are text files (converted once per run: docs/data-formats.md).
# Figures printed, nothing asserted (tests/e2e/tree/bench_smoke.sh runs it with
# --quick: 100 points).
#
# usage: bench_sweep.sh [--quick]
# Environment: AIETH_BUILD (the build folder), AIETH_SRC (the tree).
set -u
B=${AIETH_BUILD:?run through make bench}
S=${AIETH_SRC:?run through make bench}
n=1000
if [[ ${1:-} == --quick ]]; then n=100
elif [[ $# -gt 0 ]]; then echo "usage: bench_sweep.sh [--quick]" >&2; exit 2; fi
RT=$B/bin/run_test
W=${AIETH_RUN_WRAPPER:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bench_sweep: $*" >&2; exit 1; }

# sweep EXAMPLE PLIO OUT: a 0..n-1 delay sweep of EXAMPLE's PLIO into
# $tmp/OUT (its peak RSS in $tmp/OUT.rss when /usr/bin/time is there),
# timed from $t0 to $t1 (secs)
sweep() {
  local ex=$S/examples/$1/test.json axis="$2.delay=0..$((n - 1))+1" rc points
  t0=$(date +%s.%N)
  if [[ -x /usr/bin/time && -z $W ]]; then
    /usr/bin/time -f '%M' -o "$tmp/$3.rss" "$RT" -q -o "$tmp/$3" --sweep "$axis" "$ex" >/dev/null 2>"$tmp/err"
  else
    # shellcheck disable=SC2086 # the wrapper's words, split on purpose
    $W "$RT" -q -o "$tmp/$3" --sweep "$axis" "$ex" >/dev/null 2>"$tmp/err"
  fi
  rc=$?
  t1=$(date +%s.%N)
  [[ $rc -le 1 ]] || fail "run_test exit $rc ($1): $(tail -3 "$tmp/err")"
  points=$(jq '.run.sweeps[0].points_run' "$tmp/$3/report.json") || fail "no report.json ($1)"
  [[ $points -eq $n ]] || fail "$points points of $1 ran, expected $n"
}
secs() { awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}'; }

sweep adder_perf PLIO_01_TO_AIE out
echo "sweep $n points $(secs) s" \
  "($(jq '.run.sweeps[0].sessions' "$tmp/out/report.json") session, examples/adder_perf," \
  "PLIO_01_TO_AIE.delay 0..$((n - 1)), emulated board, every report written)"
[[ -s $tmp/out.rss ]] && echo "sweep $n points peak RSS $(($(tail -1 "$tmp/out.rss") / 1024)) MiB," \
  "report.json $(($(stat -c %s "$tmp/out/report.json") / 1024)) KiB"

# text data: three text files read at every point
sweep adder_func PLIO_02_TO_AIE text
echo "sweep $n points of text data $(secs) s" \
  "(examples/adder_func: 2 text TX files and a text golden file, PLIO_02_TO_AIE.delay" \
  "0..$((n - 1)), emulated board, every report written)"
exit 0
