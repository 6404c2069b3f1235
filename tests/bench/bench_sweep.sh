#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench: a 1,000-point sweep of examples/adder_perf on the emulated
# board (docs/user-guide.md, "Sweeps"): the wall time of run_test from the
# start to every report written, and its peak RSS when /usr/bin/time is
# there; then the same sweep of examples/adder_func, whose data and golden
# data are text files (converted once per run: docs/data-formats.md).
# Figures printed, nothing asserted (tests/e2e/bench_smoke.sh runs it with
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

t0=$(date +%s.%N)
if [[ -x /usr/bin/time && -z $W ]]; then
  /usr/bin/time -f '%M' -o "$tmp/rss" "$RT" -q -o "$tmp/out" \
    --sweep "PLIO_01_TO_AIE.delay=0..$((n - 1))+1" "$S/examples/adder_perf/test.json" >/dev/null 2>"$tmp/err"
else
  # shellcheck disable=SC2086 # the wrapper's words, split on purpose
  $W "$RT" -q -o "$tmp/out" --sweep "PLIO_01_TO_AIE.delay=0..$((n - 1))+1" \
    "$S/examples/adder_perf/test.json" >/dev/null 2>"$tmp/err"
fi
rc=$?
t1=$(date +%s.%N)
[[ $rc -le 1 ]] || fail "run_test exit $rc: $(tail -3 "$tmp/err")"
points=$(jq '.run.sweeps[0].points_run' "$tmp/out/report.json") || fail "no report.json"
[[ $points -eq $n ]] || fail "$points points ran, expected $n"
echo "sweep $n points $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}') s" \
  "($(jq '.run.sweeps[0].sessions' "$tmp/out/report.json") session, examples/adder_perf," \
  "PLIO_01_TO_AIE.delay 0..$((n - 1)), emulated board, every report written)"
[[ -s $tmp/rss ]] && echo "sweep $n points peak RSS $(($(tail -1 "$tmp/rss") / 1024)) MiB," \
  "report.json $(($(stat -c %s "$tmp/out/report.json") / 1024)) KiB"

# text data: three text files read at every point
t0=$(date +%s.%N)
# shellcheck disable=SC2086 # the wrapper's words, split on purpose
$W "$RT" -q -o "$tmp/text" --sweep "PLIO_02_TO_AIE.delay=0..$((n - 1))+1" \
  "$S/examples/adder_func/test.json" >/dev/null 2>"$tmp/err"
rc=$?
t1=$(date +%s.%N)
[[ $rc -le 1 ]] || fail "run_test exit $rc (adder_func): $(tail -3 "$tmp/err")"
points=$(jq '.run.sweeps[0].points_run' "$tmp/text/report.json") || fail "no report.json (adder_func)"
[[ $points -eq $n ]] || fail "$points points of adder_func ran, expected $n"
echo "sweep $n points of text data $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}') s" \
  "(examples/adder_func: 2 text TX files and a text golden file, PLIO_02_TO_AIE.delay" \
  "0..$((n - 1)), emulated board, every report written)"
exit 0
