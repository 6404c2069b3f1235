#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Long transactions on the emulated board while someone watches: --progress
# advances during a FUNC transaction (the data phase reports the bytes it
# moved), Ctrl-C during one ends the run at once with its report written
# (exit 130, a complete message), and an interrupted PERF --reference run
# shows where each channel stood instead of "stalled since cycle 0".
# Synchronised on progress lines, never on sleeps; every wait is bounded.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
lacks() { if grep -qF -- "$2" "$1"; then bad "$1 has: $2"; sed 's/^/  | /' "$1" >&2; else ok; fi; }

# FUNC, 2 x 64 GiB (the largest channel size less a window) through a
# loopback: ten seconds and more of data work natively at the emulator's
# several GB/s, far more under qemu; the run is always interrupted long
# before its end (4 GiB once took seconds; it now ends in under one)
cat >"$TMP/func.json" <<'J'
{"schema": "aieth-test/1", "name": "func_long", "board": "vek280",
 "graphs": [{"name": "loopback", "model": "loopback", "params": {"channels": [1], "window_bytes": 4096}}],
 "transactions": [{"name": "long", "mode": "func", "timeout_ms": 3600000,
   "channels": [
     {"plio": "PLIO_01_TO_AIE", "size": 68719472640, "data": {"pattern": "random", "seed": 1}},
     {"plio": "PLIO_01_FROM_AIE", "size": 68719472640}]}]}
J

# --- FUNC: progress advances, Ctrl-C is honoured within the transaction
o=$TMP/func
if run_until_progress 3 "$TMP/func.err" --progress -o "$o" "$TMP/func.json"; then
  ok
  # the byte counts never go back, and they grew
  if moved "$TMP/func.err" | awk 'NR > 1 && $1 < prev {exit 1} NR == 1 {first = $1} {prev = $1}
                                  END {exit !(prev > first)}'; then ok
  else bad "progress went back: $(moved "$TMP/func.err" | tr '\n' ' ')"; fi
else
  bad "no 3 progress lines with bytes moved during the FUNC transaction: $(cat "$TMP/func.err")"
fi
stop_within 100
[[ $RC -eq 130 ]] && ok || bad "FUNC run interrupted by SIGINT: exit $RC, expected 130"
has "$TMP/func.err" "interrupted by SIGINT: exit 130"
if [[ -f $o/report.json ]]; then
  ok
  [[ $(jq -r '.tests[0].status' "$o/report.json") == interrupted ]] && ok || bad "FUNC: test status $(jq -r '.tests[0].status' "$o/report.json")"
  [[ $(jq -r '.tests[0].transactions[0].status' "$o/report.json") == interrupted ]] && ok || bad "FUNC: the transaction is not interrupted"
  msg=$(jq -r '.tests[0].error.message' "$o/report.json")
  # the message is complete: no dangling colon, and it says where it stopped
  [[ $msg != *: && $msg != *": " ]] && ok || bad "interruption message ends in a colon: '$msg'"
  [[ $msg == *"interrupted while the emulated board computed the data"* ]] && ok || bad "interruption message: '$msg'"
else
  bad "FUNC: no report.json after SIGINT"
fi
has "$TMP/run.out" "INTERRUPTED"

# --- PERF --reference: interrupted channels show their state
long_perf "$TMP/long.json"
o=$TMP/perf
if run_until_progress 1 "$TMP/perf.err" --progress --reference -t 0 -o "$o" "$TMP/long.json"; then ok
else bad "no progress line of the PERF --reference run: $(cat "$TMP/perf.err")"; fi
stop_within 100
[[ $RC -eq 130 ]] && ok || bad "PERF --reference run interrupted by SIGINT: exit $RC, expected 130"
lacks "$TMP/run.out" "stalled since cycle 0"
has "$TMP/run.out" "interrupted; its last beat ended at cycle"
since=$(jq -r '.tests[0].transactions[0].channels[0].stalled_since_cycle' "$o/report.json" 2>&1)
[[ $since =~ ^[1-9][0-9]*$ ]] && ok || bad "PERF: stalled_since_cycle of an interrupted channel: '$since'"
has "$o/report.html" "interrupted; its last beat ended at cycle"
/usr/bin/python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$o/report.json" >"$TMP/v" 2>&1 && ok || { bad "schema: $(cat "$TMP/v")"; }
finish
