#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_test calibrate (issue 14, item 3): "board" reports made by the emulated
# board itself with hidden parameter values are fitted back from the default
# vck190 board file; the fitted file reproduces the reports' cycles; bad
# pairs are refused (exit 2, naming the file and field).
. "$(dirname "$0")/lib.sh"
RT=$B/bin/run_test
EX=$S/examples
PY=/usr/bin/python3
OUTS=(--junit none --html none --charts none --trace none -q)

# The hidden board: vck190 with other timing values.
$PY - "$S/platforms/vck190.json" "$TMP/hidden.json" <<'P'
import json, sys
b = json.load(open(sys.argv[1]))
b["func_memory"].update(read_latency_cycles=150, write_latency_cycles=120,
                        loop_overhead_cycles=5)
b["counter_edges"] = {k: 2 for k in b["counter_edges"]}
b["preload_latency_cycles"] = 80
json.dump(b, open(sys.argv[2], "w"), indent=1)
P
# A FUNC loopback with three channels of different sizes and delays, and a
# small PERF loopback (its total_cycles hold the preload).
cat >"$TMP/func_loop.json" <<'J'
{"schema": "aieth-test/1", "name": "func_loop", "board": "vck190",
 "graphs": [{"name": "loopback", "model": "loopback"}],
 "transactions": [{"name": "func3", "mode": "func", "channels": [
  {"plio": "PLIO_01_TO_AIE", "size": 4096, "data": {"pattern": "random", "seed": 1}},
  {"plio": "PLIO_02_TO_AIE", "size": 8192, "delay": 50, "data": {"pattern": "random", "seed": 2}},
  {"plio": "PLIO_03_TO_AIE", "size": 16384, "delay": 200, "data": {"pattern": "random", "seed": 3}},
  {"plio": "PLIO_01_FROM_AIE", "size": 4096, "golden": {"pattern": "random", "seed": 1}},
  {"plio": "PLIO_02_FROM_AIE", "size": 8192, "golden": {"pattern": "random", "seed": 2}},
  {"plio": "PLIO_03_FROM_AIE", "size": 16384, "golden": {"pattern": "random", "seed": 3}}]}]}
J
cat >"$TMP/perf_loop.json" <<'J'
{"schema": "aieth-test/1", "name": "perf_loop", "board": "vck190",
 "graphs": [{"name": "loopback", "model": "loopback"}],
 "transactions": [{"name": "perf2", "mode": "perf", "channels": [
  {"plio": "PLIO_01_TO_AIE", "size": 4096, "repetition": 4, "data": {"pattern": "random", "seed": 1}},
  {"plio": "PLIO_02_TO_AIE", "size": 8192, "repetition": 2, "delay": 30, "data": {"pattern": "random", "seed": 2}},
  {"plio": "PLIO_01_FROM_AIE", "size": 4096, "repetition": 4, "golden": {"pattern": "random", "seed": 1}},
  {"plio": "PLIO_02_FROM_AIE", "size": 8192, "repetition": 2, "golden": {"pattern": "random", "seed": 2}}]}]}
J
cp "$EX/adder_func/test.json" "$EX"/adder_func/*.txt "$TMP/" 2>/dev/null
mv "$TMP/test.json" "$TMP/adder_func.json"
# A source graph (an aiesim replay without inputs, every window at time 0)
# whose one FUNC RX channel runs as fast as the writer loop goes: the write
# latency shows in its rate, not only through back-pressure.
mkdir -p "$TMP/rx_trace"
$PY - "$TMP" <<'P'
import json, sys
t = sys.argv[1]
vals = [str(i) for i in range(4096)]
rows = [" ".join(vals[i:i + 4]) for i in range(0, 4096, 4)]
open(t + "/rx_trace/out.txt", "w").write("T 0 ps\n" + "\n".join(rows) + "\n")
open(t + "/rx_golden.txt", "w").write("\n".join(rows) + "\n")
json.dump({"schema": "aieth-test/1", "name": "rx_source", "board": "vck190",
           "graphs": [{"name": "src", "model": "aiesim", "params": {"dir": "rx_trace",
                       "outputs": [{"plio": "PLIO_01_FROM_AIE", "file": "out.txt",
                                    "type": "int32", "window_bytes": 256}]}}],
           "transactions": [{"name": "rx", "mode": "func", "channels": [
               {"plio": "PLIO_01_FROM_AIE", "size": 16384,
                "golden": {"file": "rx_golden.txt", "type": "int32"}}]}]},
          open(t + "/rx_source.json", "w"))
P
DESCS=(adder_func func_loop perf_loop rx_source)
for d in "${DESCS[@]}"; do
  expect 0 "$RT" "${OUTS[@]}" -b "$TMP/hidden.json" -o "$TMP/h_$d" "$TMP/$d.json"
done
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
