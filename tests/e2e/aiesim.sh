#!/usr/bin/env bash
# The "aiesim" graph model (docs/graph-models.md): examples/aiesim_replay
# replays aiesimulator output in PERF and FUNC mode; the report's cycles
# match the hand-computed ones and the data the golden file; bad traces and
# params are refused naming file:line or the param.
. "$(dirname "$0")/lib.sh"
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

# PERF. Input window 0 (4 beats from cycle 0) is complete at cycle 4; the
# trace's windows come 960 ns (300 cycles at 312.5 MHz) after it, then
# every 640 ns (200 cycles): RX first = 4 + 300 = 304; window 3 starts at
# 4 + 3 * 200 and its 4 beats end at 604 + 300 + 4 = 908 (last = the cycle
# after the last beat). TX window 3 waits for iteration 1 to finish:
# 204 + 200 = 404, beats to 408. Each reported edge is 1 cycle later: the
# counter reads a trigger the cycle after it is written (the board files'
# counter_edges, docs/emulator.md "Counter edges").
expect 0 "$RT" -q -o "$TMP/perf" test.json
is "PERF RX first" "$(cyc "$TMP/perf/report.json" PLIO_01_FROM_AIE first_cycle)" $((304 + 1))
is "PERF RX last" "$(cyc "$TMP/perf/report.json" PLIO_01_FROM_AIE last_cycle)" $((908 + 1))
is "PERF TX last" "$(cyc "$TMP/perf/report.json" PLIO_01_TO_AIE last_cycle)" $((408 + 1))
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
# (ready at 304 and 504) wait, drained 1000..1007; iteration 2 needs window
# 0's buffer (free at 1004): out at 1004 + 300, iteration 3 200 cycles
# later (not at its trace time 904): its last beat ends at 1204 + 300 + 4;
# + 1 each for the counter edges, as above.
sed 's/{"plio": "PLIO_01_FROM_AIE", "golden"/{"plio": "PLIO_01_FROM_AIE", "delay": 1000, "golden"/' \
  test.json >bp.json
expect 0 "$RT" -q -o "$TMP/bp" bp.json
is "back-pressure RX first" "$(cyc "$TMP/bp/report.json" PLIO_01_FROM_AIE first_cycle)" $((1000 + 1))
is "back-pressure RX last" "$(cyc "$TMP/bp/report.json" PLIO_01_FROM_AIE last_cycle)" $((1508 + 1))

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
