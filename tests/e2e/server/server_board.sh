#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_server as a board runs it. Every build: --reference (the emulated
# board's beat-by-beat mode, a local emulator mode) through --backend remote
# is refused before any session is made (exit 2, the message says why).
# A cross build (make cross-check): the aarch64 th_server, under qemu-user,
# serves the native run_test, as a board serves a workstation; every example
# gives the native local run's exit code and report (times, paths, backend
# and server fields aside) and the same saved data. Every wait is bounded;
# servers are stopped by the trap.
. "$(dirname "$0")/../lib.sh"
th_server_setup
EX=$S/examples
stop() {
  kill -TERM "$SP"
  local i
  for i in $(seq 100); do kill -0 "$SP" 2>/dev/null || break; sleep 0.1; done
  wait "$SP"; local rc=$?
  [[ $rc -eq 0 ]] && ok || bad "th_server exit $rc after SIGTERM (10 s at most)"
}

start_server "$TMP/log"
expect 2 "$B/bin/run_test" -q --reference --backend remote --server "$U" -o "$TMP/ref" \
  "$EX/adder_perf/test.json"
has "$TMP/ref/report.json" "--reference is the emulated board's beat-by-beat mode, a local emulator mode"
# the log is in order: once a later request's line is there, a session
# made for --reference would be too
curl -s -m 5 -o /dev/null "$U/v1/health"
log_has "$TMP/log" 'GET /v1/health 200' || bad "no log line for /v1/health"
if grep -q 'POST /v1/sessions' "$TMP/log"; then bad "a session was made for --reference"; else ok; fi

if [[ -z ${AIETH_RUN_WRAPPER:-} ]]; then
  echo "server_board.sh: the aarch64 server check skipped: not a cross build (make cross-check runs it)"
  stop; finish; exit
fi
N=${AIETH_NATIVE_BUILD:-$S/build}
if [[ ! -x $N/bin/run_test ]]; then bad "no native $N/bin/run_test: build it first (make all)"; finish; exit; fi
for t in "$EX"/*/test.json; do
  n=$(basename "$(dirname "$t")")
  if jq -e '[.graphs[]?.model] | index("aiesim")' "$t" >/dev/null; then
    echo "server_board.sh: $n skipped: its aiesim traces are local files"; continue
  fi
  "$N/bin/run_test" -q -o "$TMP/loc_$n" "$t" >/dev/null 2>&1; lc=$?
  "$N/bin/run_test" -q --backend remote --server "$U" -o "$TMP/rem_$n" "$t" >"$TMP/rem.out" 2>&1; rc=$?
  if [[ $lc -eq $rc ]]; then ok; else bad "$n: exit $rc from the aarch64 server, $lc local: $(tail -n 3 "$TMP/rem.out")"; continue; fi
  if diff <(norm_report "$TMP/loc_$n/report.json") <(norm_report "$TMP/rem_$n/report.json") >"$TMP/diff"; then ok
  else bad "$n: reports differ (native local <, aarch64 server >)"; head -n 20 "$TMP/diff" >&2; fi
  for f in "$TMP/loc_$n"/*; do
    [[ -f $f && $f != *.json && $f != *.xml && $f != *.html ]] || continue
    cmp -s "$f" "$TMP/rem_$n/${f##*/}" && ok || bad "$n: ${f##*/} differs"
  done
done
grep -q ', backend emu' "$TMP/rem_adder_perf/report.json" && ok || bad "server_version lacks the backend"
stop
finish
