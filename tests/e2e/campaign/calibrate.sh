#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_test calibrate: "board" reports made by the emulated
# board itself with hidden parameter values are fitted back from the default
# vck190 board file; the fitted file reproduces the reports' cycles; bad
# pairs are refused (exit 2, naming the file and field).
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
PY=/usr/bin/python3
OUTS=(--junit none --html none --charts none --trace none -q)

# The hidden board (lib.sh): vck190 with other timing values, and the
# descriptions run on it.
hidden_board
PAIRS=()
for d in "${DESCS[@]}"; do PAIRS+=("$TMP/$d.json=$TMP/h_$d/report.json"); done

expect 0 "$RT" calibrate --help
has "$TMP/out" "DESC.json=BOARD_REPORT.json"
expect 0 "$RT" --help
has "$TMP/out" "run_test calibrate --board"

# The fit, from the default board.
expect 0 "$RT" calibrate -b vck190 -o "$TMP/fitted.json" "${PAIRS[@]}"
cp "$TMP/out" "$TMP/fit.out"; cp "$TMP/err" "$TMP/fit.err"
has "$TMP/fit.out" "was made by the emulated board"
has "$TMP/fit.out" "func_loop / func3 / PLIO_03_FROM_AIE"
has "$TMP/fit.out" "changed: func_memory.read_latency_cycles: 64 -> 150"
has "$TMP/fit.out" "total error"
# the largest error names its figure, channel and both values
grep -qE "\(largest after: [0-9.]+ %, (first_cycle|last_cycle|cycles|total_cycles) of [^:]+: [0-9]+ on the board, [0-9]+ after\)" "$TMP/fit.out" && ok || bad "calibrate: the largest error names no figure: $(grep largest "$TMP/fit.out")"
has "$TMP/fit.err" "calibrate: run "
# Recovered exactly: read and write latency, loop overhead, the four
# edges, the preload (the write latency thanks to rx_source: without it,
# it shows only through back-pressure and came back as 123).
got=$(jq -c '[.func_memory.read_latency_cycles, .func_memory.write_latency_cycles,
  .func_memory.loop_overhead_cycles,
  .counter_edges.tx_first_cycles, .counter_edges.tx_last_cycles,
  .counter_edges.rx_first_cycles, .counter_edges.rx_last_cycles,
  .preload_latency_cycles, .func_memory.burst_words, .func_memory.fifo_depth_words]' "$TMP/fitted.json")
if [[ $got == '[150,120,5,2,2,2,2,80,16,32]' ]]; then ok; else bad "fitted values $got"; fi
# The fitted file is a board file; it reproduces every cycle within 1 %.
for d in "${DESCS[@]}"; do
  expect 0 "$RT" "${OUTS[@]}" -b "$TMP/fitted.json" -o "$TMP/f_$d" "$TMP/$d.json"
  if $PY - "$TMP/h_$d/report.json" "$TMP/f_$d/report.json" <<'P'
import json, sys
a, b = (json.load(open(p))["tests"][0]["transactions"] for p in sys.argv[1:3])
bad = []
for x, y in zip(a, b):
    if abs(x["total_cycles"] - y["total_cycles"]) > 0.01 * x["total_cycles"]:
        bad.append((x["name"], x["total_cycles"], y["total_cycles"]))
    for c, e in zip(x["channels"], y["channels"]):
        for k in ("first_cycle", "last_cycle", "cycles"):
            if abs(c[k] - e[k]) > max(0.01 * c[k], 0):
                bad.append((c["plio"], k, c[k], e[k]))
sys.exit(print(bad) or 1) if bad else sys.exit(0)
P
  then ok; else bad "$d: the fitted board does not reproduce the report within 1 %"; fi
done

# Refusals (exit 2, naming the file and the field).
mod() { # mod IN OUT PYTHON-EXPR-ON-r
  $PY -c "import json,sys; r=json.load(open(sys.argv[1])); $3; json.dump(r, open(sys.argv[2],'w'))" "$1" "$2"
}
H=$TMP/h_adder_func/report.json
A=$TMP/adder_func.json
mod "$H" "$TMP/other_board.json" 'r["environment"]["board"]="vek280"'
expect 2 "$RT" calibrate -b vck190 -o "$TMP/x.json" "$A=$TMP/other_board.json"
has "$TMP/err" "other_board.json: environment.board: \"vek280\" is another board"
mod "$H" "$TMP/other_name.json" 'r["tests"][0]["name"]="something_else"'
expect 2 "$RT" calibrate -b vck190 -o "$TMP/x.json" "$A=$TMP/other_name.json"
has "$TMP/err" "other_name.json: tests[].name: no test named \"adder_func\""
expect 2 "$RT" calibrate -b vck190 -o "$TMP/x.json" "$TMP/func_loop.json=$H"
has "$TMP/err" "no test named \"func_loop\""
mod "$H" "$TMP/other_plio.json" 'r["tests"][0]["transactions"][0]["channels"][2]["plio"]="PLIO_02_FROM_AIE"'
expect 2 "$RT" calibrate -b vck190 -o "$TMP/x.json" "$A=$TMP/other_plio.json"
has "$TMP/err" "tests[0].transactions[0].channels[2].plio: \"PLIO_02_FROM_AIE\", the description has \"PLIO_01_FROM_AIE\""
mod "$H" "$TMP/other_txn.json" 'r["tests"][0]["transactions"].append(dict(r["tests"][0]["transactions"][0], index=1))'
expect 2 "$RT" calibrate -b vck190 -o "$TMP/x.json" "$A=$TMP/other_txn.json"
has "$TMP/err" "tests[0].transactions: 2 transactions, the description has 1"
mod "$H" "$TMP/timeout.json" 'r["tests"][0]["status"]="timeout"; r["tests"][0]["transactions"][0]["status"]="timeout"'
expect 2 "$RT" calibrate -b vck190 -o "$TMP/x.json" "$A=$TMP/timeout.json"
has "$TMP/err" "timeout.json: tests[0].status: \"timeout\": the test did not finish"
# A real hang: examples/stall_hang's own report.
expect 5 "$RT" "${OUTS[@]}" -o "$TMP/hang" "$EX/stall_hang/test.json"
expect 2 "$RT" calibrate -b vck190 -o "$TMP/x.json" "$EX/stall_hang/test.json=$TMP/hang/report.json"
has "$TMP/err" "tests[0].status: \"timeout\""
mod "$H" "$TMP/interrupted.json" 'r["tests"][0]["status"]="pass"; r["tests"][0]["transactions"][0]["status"]="interrupted"'
expect 2 "$RT" calibrate -b vck190 -o "$TMP/x.json" "$A=$TMP/interrupted.json"
has "$TMP/err" "tests[0].transactions[0].status: \"interrupted\""
mod "$H" "$TMP/broken.json" 'del r["tests"][0]["transactions"][0]["channels"][0]["cycles"]'
expect 2 "$RT" calibrate -b vck190 -o "$TMP/x.json" "$A=$TMP/broken.json"
has "$TMP/err" "broken.json"
[[ -e $TMP/x.json ]] && bad "a refused calibration wrote its output" || ok
# Usage errors and outputs.
expect 2 "$RT" calibrate -o "$TMP/x.json" "$A=$H"
has "$TMP/err" "--board is needed"
expect 2 "$RT" calibrate -b vck190 "$A=$H"
expect 2 "$RT" calibrate -b vck190 -o "$TMP/x.json" "$A"
has "$TMP/err" "expected DESC.json=REPORT.json"
expect 2 "$RT" calibrate -b vck190 -o "$TMP/x.json" --max-runs 0 "$A=$H"
expect 2 "$RT" calibrate -b nosuchboard -o "$TMP/x.json" "$A=$H"
mkfifo "$TMP/fifo"
expect 2 "$RT" calibrate -b vck190 -o "$TMP/fifo" "$A=$H"
has "$TMP/err" "not a regular file"
expect 2 "$RT" calibrate -b vck190 -o "$TMP/x.json" "$A=$TMP/nosuch.json"
has "$TMP/err" "nosuch.json"
# --pair, a budget of 1 evaluation: nothing moves, the file is still written.
expect 0 "$RT" calibrate -q -b vck190 -o "$TMP/one.json" --max-runs 1 --pair "$A" "$H"
has "$TMP/out" "no parameter changed"
[[ -s $TMP/err ]] && bad "-q printed progress" || ok
expect 0 "$RT" "${OUTS[@]}" -b "$TMP/one.json" -o "$TMP/one" "$A"

# The scratch folder goes, with what the runs saved to relative paths
# (adder_perf saves its output to adder_perf_out.txt)
mkdir -p "$TMP/ctmp"
expect 0 "$RT" "${OUTS[@]}" -o "$TMP/h_ap" "$EX/adder_perf/test.json"
TMPDIR=$TMP/ctmp expect 0 "$RT" calibrate -q -b vck190 -o "$TMP/ap.json" --max-runs 3 \
  "$EX/adder_perf/test.json=$TMP/h_ap/report.json"
if [[ -z $(ls -A "$TMP/ctmp") ]]; then ok; else bad "calibrate left $(ls -AR "$TMP/ctmp")"; fi
finish
