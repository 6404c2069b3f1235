#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The "aiesim" graph model (docs/graph-models.md): examples/aiesim_replay
# replays aiesimulator output in PERF and FUNC mode; the report's cycles
# match the hand-computed ones and the data the golden file; bad traces and
# params are refused naming file:line or the param.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
cyc() { jq -r ".tests[0].transactions[0].channels[] | select(.plio == \"$2\") | .$3" "$1"; }
is() { if [[ $2 == "$3" ]]; then ok; else bad "$1: got '$2', expected '$3'"; fi; }

# The example's folder holds the trace; dir is relative to the
# description's folder, so it runs from anywhere (a copy: FUNC is the same
# description).
W=$TMP/ex
cp -r "$S/examples/aiesim_replay" "$W"
sed 's/"mode": "perf"/"mode": "func"/' "$W/test.json" >"$W/func.json"
cd "$W" || exit 1

# PERF, fit "exact" (the default). Input window 0 (4 beats from cycle 0)
# is complete at cycle 4; the trace's windows come 960 ns (300 cycles at
# 312.5 MHz) after it, then every 640 ns (200 cycles): RX first = 4 + 300
# = 304; window 3 at 4 + 900 = 904, its 4 beats end at 908 (last = the
# cycle after the last beat). An iteration ends when its window is out
# (latency 0), so TX window 3 waits for iteration 1: 4 + 500 = 504, beats
# to 508. Each reported edge is 1 cycle later: the counter reads a trigger
# the cycle after it is written (the board files' counter_edges,
# docs/emulator.md "Counter edges").
expect 0 "$RT" -q -o "$TMP/perf" test.json
is "PERF RX first" "$(cyc "$TMP/perf/report.json" PLIO_01_FROM_AIE first_cycle)" $((304 + 1))
is "PERF RX last" "$(cyc "$TMP/perf/report.json" PLIO_01_FROM_AIE last_cycle)" $((908 + 1))
is "PERF TX last" "$(cyc "$TMP/perf/report.json" PLIO_01_TO_AIE last_cycle)" $((508 + 1))
# fit "throughput" (one cpi 200 and latency 100 for the whole trace): the
# same RX edges; TX window 3 waits for iteration 1's end at 204 + 200 = 404
# (the output latency hides the rest), beats to 408.
sed 's/"aie_clock_mhz": 1250,/"aie_clock_mhz": 1250, "fit": "throughput",/' test.json >thr.json
expect 0 "$RT" -q -o "$TMP/thr" thr.json
is "throughput RX first" "$(cyc "$TMP/thr/report.json" PLIO_01_FROM_AIE first_cycle)" $((304 + 1))
is "throughput RX last" "$(cyc "$TMP/thr/report.json" PLIO_01_FROM_AIE last_cycle)" $((908 + 1))
is "throughput TX last" "$(cyc "$TMP/thr/report.json" PLIO_01_TO_AIE last_cycle)" $((408 + 1))
# from another folder: the same trace, found beside the description
(cd / && "$RT" -q -o "$TMP/elsewhere" "$W/test.json" >/dev/null 2>&1) && ok || bad "run from / failed"
is "from / RX last" "$(cyc "$TMP/elsewhere/report.json" PLIO_01_FROM_AIE last_cycle)" $((908 + 1))
is "PERF data" "$(jq -r '.tests[0].transactions[0].channels[1].integrity | "\(.elements) \(.mismatches)"' "$TMP/perf/report.json")" "64 0"

# FUNC: the memory path delays the input (board read latency), the trace's
# spacing stays: RX last - first = 3 * 200 + 4, first >= 304.
expect 0 "$RT" -q -o "$TMP/func" func.json
f=$(cyc "$TMP/func/report.json" PLIO_01_FROM_AIE first_cycle)
l=$(cyc "$TMP/func/report.json" PLIO_01_FROM_AIE last_cycle)
is "FUNC RX last - first" "$((l - f))" 604
if (( f >= 304 )); then ok; else bad "FUNC RX first $f < 304"; fi
is "FUNC data" "$(jq -r '.tests[0].transactions[0].channels[1].integrity | "\(.elements) \(.mismatches)"' "$TMP/func/report.json")" "64 0"

# Back-pressure: the RX channel starts at cycle 1000, so windows 0 and 1
# (ready at 304 and 504) wait, drained 1000..1007. Exact: iteration 2 needs
# window 0's buffer (free at 1004) and takes its 200 cycles (its window
# came 200 after window 1): out at 1204, iteration 3 200 later: its last
# beat ends at 1404 + 4 = 1408 (not at its trace time 904: later windows
# keep their spacing from when they could go). Throughput: iteration 2 at
# 1004 + 300, iteration 3 200 later, last 1204 + 300 + 4 = 1508. + 1 each
# for the counter edges, as above.
sed 's/{"plio": "PLIO_01_FROM_AIE", "golden"/{"plio": "PLIO_01_FROM_AIE", "delay": 1000, "golden"/' \
  test.json >bp.json
expect 0 "$RT" -q -o "$TMP/bp" bp.json
is "back-pressure RX first" "$(cyc "$TMP/bp/report.json" PLIO_01_FROM_AIE first_cycle)" $((1000 + 1))
is "back-pressure RX last" "$(cyc "$TMP/bp/report.json" PLIO_01_FROM_AIE last_cycle)" $((1408 + 1))
sed 's/{"plio": "PLIO_01_FROM_AIE", "golden"/{"plio": "PLIO_01_FROM_AIE", "delay": 1000, "golden"/' \
  thr.json >bpthr.json
expect 0 "$RT" -q -o "$TMP/bpthr" bpthr.json
is "throughput back-pressure RX last" "$(cyc "$TMP/bpthr/report.json" PLIO_01_FROM_AIE last_cycle)" $((1508 + 1))

# An irregular trace, written here as aiesimulator writes one (a T line
# before each 128-bit data line, TLAST before a window's last line):
# six 32-byte windows (2 lines) at 320, 416, 1280, 1280 (the same stamp),
# 1296 and 3200 ns = 100, 130, 400, 400, 405, 1000 cycles; 16-byte input
# windows (1 beat each, from cycle 0: input 0 complete at 1, the times count
# from there). Fit "exact" puts window k out at 1 + its stamp when the RX
# can take it:
#   window     0     1     2     3     4     5
#   out      101   131   401   402*  406  1001   (* behind window 2's beats)
#   RX end   103   133   403   405   408  1003   (the cycle after its 2 beats)
# Run k (k = 1..6) moves windows 0..k-1, so its RX last is window k-1's end,
# + 1 for the counter edge; RX first is 101 + 1 in every run.
I=$TMP/irr
mkdir -p "$I/data"
t=(320 320 416 416 1280 1280 1280 1280 1296 1296 3200 3200)
for l in $(seq 0 11); do
  echo "T ${t[l]} ns"
  if (( l % 2 )); then echo TLAST; fi
  echo "$l $((l + 100)) $((l + 200)) $((l + 300))"
done >"$I/data/out.txt"
for l in $(seq 0 11); do echo "$l $((l + 100)) $((l + 200)) $((l + 300))"; done >"$I/golden.txt"
ends=(103 133 403 405 408 1003)
for k in 1 2 3 4 5 6; do
  seq 1 $((4 * k)) >"$I/in$k.txt"
  head -n $((2 * k)) "$I/golden.txt" >"$I/golden$k.txt"
  cat >"$I/t$k.json" <<EOF
{"schema": "aieth-test/1", "name": "irregular$k", "board": "vck190",
 "graphs": [{"name": "gr", "iterations": $k, "model": "aiesim",
   "params": {"dir": "data", "inputs": [{"plio": "PLIO_01_TO_AIE", "window_bytes": 16}],
              "outputs": [{"plio": "PLIO_01_FROM_AIE", "file": "out.txt", "type": "int32",
                           "window_bytes": 32}]}}],
 "transactions": [{"name": "t", "mode": "perf", "timeout_ms": 5000, "channels": [
   {"plio": "PLIO_01_TO_AIE", "data": {"file": "in$k.txt", "type": "int32"}},
   {"plio": "PLIO_01_FROM_AIE", "golden": {"file": "golden$k.txt", "type": "int32"}}]}]}
EOF
  expect 0 "$RT" -q -o "$TMP/irr$k" "$I/t$k.json"
  is "irregular window $((k - 1)) RX end" "$(cyc "$TMP/irr$k/report.json" PLIO_01_FROM_AIE last_cycle)" $((ends[k - 1] + 1))
  is "irregular run $k RX first" "$(cyc "$TMP/irr$k/report.json" PLIO_01_FROM_AIE first_cycle)" $((101 + 1))
done
is "irregular data" "$(jq -r '.tests[0].transactions[0].channels[1].integrity | "\(.elements) \(.mismatches)"' "$TMP/irr6/report.json")" "48 0"
# The same with fit "throughput" averages the spacing (900 / 5 = 180
# cycles, latency 100 - 180 < 0: 0): window 1 comes at 1 + 180 + 180.
sed 's/"dir": "data",/"dir": "data", "fit": "throughput",/' "$I/t2.json" >"$I/t2thr.json"
expect 0 "$RT" -q -o "$TMP/irr2thr" "$I/t2thr.json"
is "irregular throughput window 1 RX end" "$(cyc "$TMP/irr2thr/report.json" PLIO_01_FROM_AIE last_cycle)" $((1 + 360 + 2 + 1))

# Refusals: a missing folder, a broken trace (file:line), a bad param.
sed 's|"aiesimulator_output/data"|"nowhere"|' test.json >nodir.json
expect 2 "$RT" -q -o "$TMP/nodir" nodir.json
jq -r '.. | .message? // empty' "$TMP/nodir/report.json" >"$TMP/msg" 2>/dev/null
has "$TMP/msg" 'aiesim: params.dir: "nowhere": No such file or directory'
printf 'T 10 ns\n1 2 3 4\nT 5 ns\n5 6 7 8\n' >aiesimulator_output/data/out.txt
expect 2 "$RT" -q -o "$TMP/back" test.json
jq -r '.. | .message? // empty' "$TMP/back/report.json" >"$TMP/msg" 2>/dev/null
has "$TMP/msg" 'aiesimulator_output/data/out.txt:3: time goes backwards: 5000 ps after 10000 ps (line 1)'
printf 'T 10 ns\n1 2 x 4\n' >aiesimulator_output/data/out.txt
expect 2 "$RT" -q -o "$TMP/tok" test.json
jq -r '.. | .message? // empty' "$TMP/tok/report.json" >"$TMP/msg" 2>/dev/null
has "$TMP/msg" 'out.txt:2: not an in-range int32 value: "x"'
finish
