#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make stress-check: th_server's and the remote backend's end-to-end suites,
# ROUNDS times in a row (default 3), with LOOPS CPU-bound loops (default 2,
# one per core of a CI machine) running beside them the whole time. A suite
# that depends on scheduling (a sleep long enough, clients arriving in the
# order they started, a limit nobody gave a margin) fails here first.
# Environment: the Makefile's TEST_ENV (AIETH_BUILD, AIETH_SRC, ...).
# Every loop is ended on exit, however the script ends.
set -u
S=${AIETH_SRC:?run through make stress-check}
ROUNDS=${ROUNDS:-3}
LOOPS=${LOOPS:-2}
SUITES=("$S"/tests/e2e/server/th_server.sh "$S"/tests/e2e/server_*.sh "$S"/tests/e2e/remote*.sh \
  "$S"/tests/e2e/amd_*.sh)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done' EXIT
for i in $(seq "$LOOPS"); do
  # a loop that stops by itself after 2 hours even if the trap never runs
  timeout 7200 sh -c 'while :; do :; done' &
  pids+=($!)
done
echo "stress-check: $LOOPS CPU-bound loops running; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
failed=0
for r in $(seq "$ROUNDS"); do
  for t in "${SUITES[@]}"; do
    [[ -f $t ]] || continue
    t0=$(date +%s)
    if bash "$t" >"/tmp/stress-check.$$.out" 2>&1; then
      echo "stress-check: round $r/$ROUNDS $(basename "$t"): passed in $(($(date +%s) - t0)) s ($(tail -1 "/tmp/stress-check.$$.out"))"
    else
      failed=$((failed + 1))
      echo "stress-check: round $r/$ROUNDS $(basename "$t"): FAILED after $(($(date +%s) - t0)) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
      # its FAIL lines, or its last lines when it failed without one
      grep -E 'FAIL' "/tmp/stress-check.$$.out" | head -20 | grep . || tail -20 "/tmp/stress-check.$$.out"
    fi
  done
done
rm -f "/tmp/stress-check.$$.out"
echo "stress-check: $((ROUNDS * ${#SUITES[@]} - failed)) passed, $failed failed"
[[ $failed -eq 0 ]]
