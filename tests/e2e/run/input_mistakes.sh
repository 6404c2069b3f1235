#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An input mistake is never reported as a hang. On the emulated board the
# graph models say what they read and write per iteration, so a golden file
# shorter or longer than what the graph writes, an RX PLIO no model drives,
# a TX PLIO no model reads, graph iterations that do not match the data
# (adder_perf swept to replay=8) and a kernel input without data are
# refused before the run: exit 2, nothing ran, the message names the file,
# the PLIO, the sizes and the rule. What only the run can tell (a TX
# channel giving more than a bounded graph reads) hangs once the graphs
# completed their iterations: a data-size mismatch, exit 2, not a stall.
# Through th_server on the emulated board
# the client asks the server's models (GET .../graphs/NAME/ports): the same
# cases give the same exit 2 and message. examples/stall_hang stays a
# stall (5), locally and through the server.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
PY=/usr/bin/python3
EX=$S/examples
cd "$TMP" || exit 1

# mk NAME PYTHON: adder_perf's description and data in NAME/, changed
mk() {
  mkdir -p "$1"
  cp "$EX/adder_perf/"*.txt "$1/"
  $PY - "$EX/adder_perf/test.json" "$1/test.json" "$2" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["transactions"][0]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
P
}
# refused NAME ARGS... -- TEXT...: exit 2 before anything ran, the message
# has each TEXT, nothing says "stalled"
refused() {
  local n=$1; shift
  local args=()
  while [[ $1 != -- ]]; do args+=("$1"); shift; done
  shift
  n=$P$n
  expect 2 timeout 60 "$RT" "${RA[@]}" -o "o_$n" "${args[@]}"
  local m
  m=$(jq -r '.tests[-1].error.message' "o_$n/report.json")
  for want in "$@"; do
    if [[ $m == *"$want"* ]]; then ok; else bad "$n: message lacks '$want': $m"; fi
  done
  [[ $(jq -r '.tests[-1] | [.error.phase, .status, (.transactions | length), .verdict_detail] | join(",")' "o_$n/report.json") == "inputs,error,0," ]] \
    && ok || bad "$n: $(jq -c '.tests[-1] | [.error.phase, .status, (.transactions | length), .verdict_detail]' "o_$n/report.json")"
  if grep -q "stalled" "$TMP/out"; then bad "$n: the output speaks of a stall"; else ok; fi
  /usr/bin/python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "o_$n/report.json" \
    >schema.out 2>&1 && ok || { bad "$n: report.json does not validate"; cat schema.out >&2; }
}

jeq() { local v; v=$(jq -c "$2" "$1" 2>&1); [[ $v == "$3" ]] && ok || bad "$1: $2 = $v, expected $3"; }
# cases: every mistake, run with run_test ${RA[@]} (P: the outputs' prefix)
cases() {
# --- a golden file shorter (200 of 256 lines: 3200 bytes) and longer (288
# lines) than the 4096 bytes a run of 128 iterations writes per repetition
mk short 't["channels"][2]["golden"]["file"] = "g.txt"'
head -n 200 short/golden.txt >short/g.txt
refused short short/test.json -- "short/test.json" "transactions[0].channels[2] (golden g.txt: 3200 bytes x repetition 4)" \
  "PLIO_01_FROM_AIE expects 12800 bytes (100 iterations)" "runs 128 iterations of 128 bytes" "16384 bytes" \
  "rule: a bounded graph's RX channels carry exactly its iterations' bytes"
mk long 't["channels"][2]["golden"]["file"] = "g.txt"'
{ cat long/golden.txt; head -n 32 long/golden.txt; } >long/g.txt
refused long long/test.json -- "(golden g.txt: 4608 bytes x repetition 4)" "expects 18432 bytes (144 iterations)" \
  "16384 bytes (rule:"

# --- an RX PLIO no graph model drives, a TX PLIO none reads
mk rx 't["channels"][2]["plio"] = "PLIO_02_FROM_AIE"; del t["max_latency"]'
refused rx rx/test.json -- "transactions[0].channels[2] (golden golden.txt: 4096 bytes x repetition 4)" \
  "PLIO_02_FROM_AIE expects 16384 bytes, but no graph model drives it" 'graph "gr" (model adder) writes PLIO_01_FROM_AIE' \
  "rule: every RX PLIO is written by a graph model"
mk tx 't["channels"].append({"plio": "PLIO_03_TO_AIE", "repetition": 4, "data": {"file": "in0.txt", "type": "int32"}})'
refused tx tx/test.json -- "transactions[0].channels[3] (data in0.txt: 4096 bytes x repetition 4)" \
  "PLIO_03_TO_AIE sends 16384 bytes, but no graph model consumes it" "reads PLIO_01_TO_AIE, PLIO_02_TO_AIE" \
  "rule: every TX PLIO is read by a graph model"

# --- graph iterations that do not match the data: adder_perf's 128
# iterations against replay=8 (the sweep's point is refused, the sweep
# goes on: replay=4 passes)
refused sweep --sweep replay=4,8 "$EX/adder_perf/test.json" -- "adder_perf/test.json" \
  "(golden golden.txt: 4096 bytes x repetition 8)" "expects 32768 bytes (256 iterations)" 'graph "gr" runs 128 iterations'
jeq o_${P}sweep/report.json '[.tests[] | [.status, .exit_code]]' '[["pass",0],["error",2]]'

# --- a TX channel giving less than a bounded graph reads
mk txshort 't["channels"][1]["size"] = 2048; t["channels"][1]["data"] = {"pattern": "ramp", "type": "int32"}'
refused txshort txshort/test.json -- "transactions[0].channels[1] (size 2048 bytes x repetition 4)" \
  "PLIO_02_TO_AIE sends 8192 bytes (64 iterations)" "its TX channels at least"

# --- a graph running until ended: a kernel input without data while its
# output expects data, and an RX size cutting an iteration
mk nodata 'd["graphs"][0]["iterations"] = -1; del t["channels"][1]'
refused nodata nodata/test.json -- "PLIO_01_FROM_AIE expects 16384 bytes (128 iterations of 128 bytes), but no channel sends data (0 iterations) to PLIO_02_TO_AIE" \
  "rule: a kernel writes no more iterations than each of its inputs is given"
mk cut 'd["graphs"][0]["iterations"] = -1; t["channels"][2] = {"plio": "PLIO_01_FROM_AIE", "size": 4112}; t["channels"][0]["repetition"] = 1; t["channels"][1]["repetition"] = 1'
refused cut cut/test.json -- "transactions[0].channels[2] (size 4112 bytes)" "expects 4112 bytes, not a whole number of iterations" \
  "128 bytes per iteration" "rule: a channel's size times its repetition is a multiple of the bytes per iteration"

# --- what is right still runs: adder_perf, and its iterations fitted to
# replay=8 (256)
expect 0 "$RT" "${RA[@]}" -q -o o_${P}ok "$EX/adder_perf/test.json"
mk fit 'd["graphs"][0]["iterations"] = 256; [c.__setitem__("repetition", 8) for c in t["channels"]]'
expect 0 "$RT" "${RA[@]}" -q -o o_${P}fit fit/test.json
}
# mismatch NAME: only the run can tell: a TX channel giving twice what the
# bounded graph reads (the rule refuses too little, not too much: a little
# more may sit in the streams' buffers) hangs once the graph completed its
# 128 iterations; a data-size mismatch (exit 2, no reset), not a stall
mismatch() {
  expect 2 timeout 120 "$RT" "${RA[@]}" -o "o_$1" txlong/test.json
  jeq "o_$1/report.json" '.tests[0] | [.status, .exit_code, .verdict_detail, .graphs[0].iterations_done]' '["error",2,"data_size_mismatch",128]'
  has "$TMP/out" "hint: PLIO_01_TO_AIE: 16640 of 32768 bytes went in, the graph took no more: the data is longer than its iterations take"
  has "$TMP/out" "verdict: data size mismatch (an input mistake, not a stall: fix the sizes; the board needs no reset)"
  has "o_$1/report.html" "<b>verdict: data size mismatch</b> (an input mistake, not a stall"
  /usr/bin/python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "o_$1/report.json" \
    >schema.out 2>&1 && ok || { bad "o_$1: report.json does not validate"; cat schema.out >&2; }
}
mk txlong 't["channels"][0]["repetition"] = 8'
RA=() P=
cases
mismatch txlong

# --- a real stall stays a hang: stall_hang's kernel stops after 8 of its
# 32 iterations with all data there (exit 5, verdict stall, a reset asked)
expect 5 timeout 60 "$RT" -o o_stall "$EX/stall_hang/test.json"
jeq o_stall/report.json '.tests[0] | [.status, .exit_code, .verdict_detail, .error.phase]' '["timeout",5,"stall","wait"]'
has "$TMP/out" "verdict: stall (the graph stopped before its iterations were done: a real hang; on a board, reset it)"
# and says which graph model port is stuck on what (aie_state, source
# emulator), beside the channels' table
jeq o_stall/report.json '.tests[0].aie_state | [.source, (.ports | length), .ports[2].plio, .ports[2].state]' '["emulator",3,"PLIO_01_FROM_AIE","waiting for the kernel"]'
has "$TMP/out" "   AI Engine (emulator):"
has "$TMP/out" "     graph gr: adder output 0 (PLIO_01_FROM_AIE, 1024 of 4096 bytes moved) waiting for the kernel"

# --- through th_server on the emulated board: the client asks the
# server's graph models before the run, the same mistakes are refused with
# the same exit 2 and message (nothing runs on the server's device)
th_server_setup
start_server "$TMP/log"
RA=(--backend remote --server "$U") P=r_
cases
mismatch r_txlong
# word for word the local message, case by case
for n in short long rx tx sweep txshort nodata cut; do
  a=$(jq -r '.tests[-1].error | [.message, .hint] | join(" / ")' "o_$n/report.json")
  b=$(jq -r '.tests[-1].error | [.message, .hint] | join(" / ")' "o_r_$n/report.json")
  [[ -n $a && $a == "$b" ]] && ok || bad "$n: through th_server: $b; locally: $a"
done
# a sweep through the server: the mismatched point is refused before the
# run, the points around it pass, all in one session (nothing hung)
expect 2 timeout 120 "$RT" -q --backend remote --server "$U" -o o_rsw --sweep replay=4,8,4 "$EX/adder_perf/test.json"
jeq o_rsw/report.json '[[.tests[] | [.exit_code, .error.phase]], .run.sweeps[0].sessions]' '[[[0,null],[2,"inputs"],[0,null]],1]'
# and stall_hang through the server: still a stall
expect 5 timeout 120 "$RT" -q --backend remote --server "$U" -o o_rstall "$EX/stall_hang/test.json"
jeq o_rstall/report.json '.tests[0] | [.exit_code, .verdict_detail]' '[5,"stall"]'
finish
