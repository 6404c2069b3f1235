#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A plugin with the per-iteration timing hook (aieth_model.iteration_timing,
# tests/plugins/timed_loopback.c) through run_test: the RX counters follow
# its irregular schedule in both engine modes, and a bad value ends the
# transaction in error naming the model, the kernel and the iteration.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
P=$B/plugins/timed_loopback.so
cyc() { jq -r ".tests[0].transactions[0].channels[] | select(.plio == \"$2\") | .$3" "$1"; }
is() { if [[ $2 == "$3" ]]; then ok; else bad "$1: got '$2', expected '$3'"; fi; }
cd "$TMP" || exit 1
seq 1 16 >in.txt
cp in.txt golden.txt
desc() {
  cat <<EOD
{"schema": "aieth-test/1", "name": "timed", "board": "vck190",
 "graphs": [{"name": "gr", "iterations": 4, "model": "$P"$1}],
 "transactions": [{"name": "t", "mode": "perf", "timeout_ms": 5000, "channels": [
   {"plio": "PLIO_01_TO_AIE", "data": {"file": "in.txt", "type": "int32"}},
   {"plio": "PLIO_01_FROM_AIE", "golden": {"file": "golden.txt", "type": "int32"}},
   {"plio": "PLIO_02_TO_AIE", "data": {"file": "in.txt", "type": "int32"}},
   {"plio": "PLIO_02_FROM_AIE", "golden": {"file": "golden.txt", "type": "int32"}}]}]}
EOD
}
desc "" >t.json
desc ', "params": {"bad_cycles": true}' >bad.json

# Kernel k0 loops 1-beat windows back; iterations take (cycles, latency)
# (5,0), (2,3), (1,0), (4,1). A window is complete the cycle after its
# beat; window j >= 2 enters when iteration j-2 has ended; iteration i
# starts when i-1 has ended, its input is complete and output window i-2
# is drained:
#   it 0: start 1, end 6, out 6 -> RX 6
#   it 1: start 6, end 8, out 11 -> RX 11
#   it 2: start 8, end 9, out 9 -> RX 12 (behind window 1)
#   it 3: start max(9, window 1 drained 12) = 12, end 16, out 17 -> RX 17
# RX first 6, last 18 (the cycle after the last beat); + 1 each for the
# counter edges (docs/emulator.md). The same figures in reference mode.
# Kernel k1 (PLIO_02, no hook for it: its fixed 1 cycle) runs beside it.
for mode in fast reference; do
  opt=(); [[ $mode == reference ]] && opt=(--reference)
  expect 0 "$RT" -q "${opt[@]}" -o "out_$mode" t.json
  is "RX first ($mode)" "$(cyc "out_$mode/report.json" PLIO_01_FROM_AIE first_cycle)" 7
  is "RX last ($mode)" "$(cyc "out_$mode/report.json" PLIO_01_FROM_AIE last_cycle)" 19
done
is "data" "$(jq -r '.tests[0].transactions[0].channels[1].integrity | "\(.elements) \(.mismatches)"' out_fast/report.json)" "16 0"

# iteration 2 gets 0 cycles: the transaction fails with the reason (exit 3)
expect 3 "$RT" -q -o bad bad.json
jq -r '.. | .message? // empty' bad/report.json >msg 2>/dev/null
has msg "model \"$P\": kernel 0 \"k0\": iteration 2: iteration_timing gave cycles 0, out of range 1..1000000000"
finish
