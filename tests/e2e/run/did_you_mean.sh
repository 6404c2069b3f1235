#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# "Did you mean": a mistyped key of a test description, PLIO name or board
# name (in the description, run_test --board, th_package --board) is refused
# as before (exit 2, the same message) with the closest allowed name added
# at its end; a name close to none, or as close to two, gets no guess.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
cd "$TMP" || exit 1

# mk NAME SED: adder_perf's description and data in NAME/, changed by SED
mk() {
  mkdir -p "$1"
  cp "$EX/adder_perf/"*.txt "$1/"
  sed "$2" "$EX/adder_perf/test.json" >"$1/test.json"
}
# refused NAME TEXT [RUN_TEST ARGS...]: exit 2, TEXT in the printed error and
# in report.json's error message
refused() {
  local n=$1 want=$2; shift 2
  expect 2 timeout 60 "$RT" -o "o_$n" "$@" "$n/test.json"
  has "$TMP/out" "$want"
  local m
  m=$(jq -r '.tests[-1].error.message' "o_$n/report.json")
  if [[ $m == *"$want"* ]]; then ok; else bad "$n: report.json's message lacks '$want': $m"; fi
}

mk key 's/"repetition": 4, "data"/"repetiton": 4, "data"/'
refused key 'test.json: transactions[0].channels[0]: key "repetiton" is not allowed here (allowed: plio, size, repetition, delay, data, golden, tolerance, save, tiling, min_throughput_MBps); did you mean "repetition"?'

mk plio 's/"plio": "PLIO_02_TO_AIE"/"plio": "PLIO_02_TO_AI"/'
refused plio 'test.json: transactions[0].channels[1].plio: "PLIO_02_TO_AI" is not a PLIO name (expected PLIO_NN_TO_AIE or PLIO_NN_FROM_AIE, NN = 01..36 on board vck190); did you mean "PLIO_02_TO_AIE"?'

# AMD's printPerf spelling: the same PLIO, not one of PLIO_11, 21, 31
mk amd 's/"plio": "PLIO_01_FROM_AIE"/"plio": "PLIO_1_FROM_AIE"/'
refused amd '"PLIO_1_FROM_AIE" is not a PLIO name (expected PLIO_NN_TO_AIE or PLIO_NN_FROM_AIE, NN = 01..36 on board vck190); did you mean "PLIO_01_FROM_AIE"?'

mk board 's/"board": "vck190"/"board": "vck19"/'
refused board 'unknown board "vck19" (known boards: vck190, vek280, vek385; in '
has "$TMP/out" '); did you mean "vck190"?'
refused board 'unknown board "vek28" (known boards: vck190, vek280, vek385; in ' --board vek28
has "$TMP/out" '); did you mean "vek280"?'

# nothing close, or two as close: the message as it always was
mk far 's/"plio": "PLIO_02_TO_AIE"/"plio": "DataIn0"/'
refused far '"DataIn0" is not a PLIO name (expected PLIO_NN_TO_AIE or PLIO_NN_FROM_AIE, NN = 01..36 on board vck190)'
if grep -q "did you mean" "$TMP/out"; then bad "far: a guess for DataIn0: $(cat "$TMP/out")"; else ok; fi
mk tie 's/"plio": "PLIO_02_TO_AIE"/"plio": "PLIO_00_TO_AIE"/'
refused tie '"PLIO_00_TO_AIE" is not a PLIO name'
if grep -q "did you mean" "$TMP/out"; then bad "tie: a guess for PLIO_00_TO_AIE: $(cat "$TMP/out")"; else ok; fi

# th_package's board
expect 2 "$B/bin/th_package" --board vek38 --xsa none.xsa --libadf none.a -o x.xclbin
has "$TMP/err" 'unknown board "vek38"'
has "$TMP/err" 'did you mean "vek385"?'
finish
