# SPDX-License-Identifier: MIT
# Test descriptions: values beyond the PL kernel's fields and the 64-bit
# cycle arithmetic, nulls, lax checks: each an input error (exit 2) naming
# the file, the JSON path, the value as written and the rule, found before
# anything is allocated or run.
source "$(dirname "$0")/lib.sh"
RT=$B/bin/run_test
D=$TMP/d
mkdir -p "$D"
# desc NAME CHANNELS [TXN-EXTRA]: a FUNC description on VCK190 with a loopback graph
desc() {
  printf '{"schema":"aieth-test/1","name":"%s","board":"vck190",\n "graphs":[{"name":"gr","iterations":-1,"model":"loopback"}],\n "transactions":[{"mode":"%s","channels":[%s]%s}]}\n' \
    "$1" "${MODE:-func}" "$2" "${3:-}" >"$D/$1.json"
}
# bad NAME TEXT: run_test exits 2 and the report's error message has TEXT
bad_input() {
  expect 2 timeout 60 "$RT" -q -o "$TMP/o_$1" "$D/$1.json"
  local msg; msg=$(jq -r '.tests[0].error.message' "$TMP/o_$1/report.json" 2>&1)
  if [[ $msg == *"$2"* ]]; then ok; else bad "$1: message '$msg' lacks '$2'"; fi
}
PAT='"data":{"pattern":"ramp","type":"uint8"}'

# 2^32 beats: beyond numFrames (was "out of memory", exit 3)
desc big "{\"plio\":\"PLIO_01_TO_AIE\",\"size\":68719476736,$PAT}"
bad_input big "big.json: transactions[0].channels[0].size: value 68719476736 is out of range (1..68719476720)"
# 2^64-1: the value as written, not clamped to 2^63-1
desc huge "{\"plio\":\"PLIO_01_TO_AIE\",\"size\":18446744073709551615,$PAT}"
bad_input huge "size: value 18446744073709551615 is out of range"
desc rep_huge '{"plio":"PLIO_01_TO_AIE","size":64,"repetition":9223372036854775808}'
bad_input rep_huge "repetition: value 9223372036854775808 is out of range (1..4294967295)"
desc to_huge '{"plio":"PLIO_01_TO_AIE","size":64}' ',"timeout_ms":18446744073709551615'
bad_input to_huge "transactions[0].timeout_ms: value 18446744073709551615 is out of range (0..4294967295)"
printf '{"schema":"aieth-test/1","board":"vck190","graphs":[{"name":"gr","iterations":9223372036854775808,"model":"loopback"}],"transactions":[{"mode":"func","channels":[{"plio":"PLIO_01_TO_AIE","size":64}]}]}\n' >"$D/it_huge.json"
bad_input it_huge "graphs[0].iterations: value 9223372036854775808 is out of range (-1..9223372036854775807)"
# size x repetition beyond 2^60 bytes
MODE=perf desc product '{"plio":"PLIO_01_TO_AIE","size":68719476720,"repetition":4294967295}'
bad_input product "transactions[0].channels[0]: size 68719476720 x repetition 4294967295 is more than 1152921504606846976 bytes"
# a delay the cycle counters cannot hold (was DONE with first > last)
desc delay '{"plio":"PLIO_01_TO_AIE","size":64,"delay":18446744073709551615}'
bad_input delay "delay: value 18446744073709551615 is out of range (0..1152921504606846976)"
# null is no value (size: null was taken as "no size")
desc null_size "{\"plio\":\"PLIO_01_TO_AIE\",\"size\":null,$PAT}"
bad_input null_size "transactions[0].channels[0].size: null is not a value here"
desc null_name '{"plio":"PLIO_01_TO_AIE","size":64}' ',"name":null'
bad_input null_name "transactions[0].name: null is not a value here"
# a graph's params go to its model as written: a null inside is the model's business
printf '{"schema":"aieth-test/1","board":"vck190","graphs":[{"name":"gr","iterations":-1,"model":"loopback","params":{"window_bytes":null}}],"transactions":[{"mode":"func","channels":[{"plio":"PLIO_01_TO_AIE","size":64}]}]}\n' >"$D/params_null.json"
expect 2 "$RT" -q -o "$TMP/o_pn" "$D/params_null.json"
if jq -r '.tests[0].error.message' "$TMP/o_pn/report.json" | grep -q 'null is not a value here'; then
  bad "params were checked for nulls by the description reader"; else ok; fi
# a tolerance on integer golden data (was accepted, ignored)
desc tol_int '{"plio":"PLIO_01_FROM_AIE","size":64,"golden":{"pattern":"ramp","type":"int32"},"tolerance":{"abs":1}}'
bad_input tol_int "channels[0].tolerance: a tolerance applies to float, double and cfloat golden data; the golden data here is int32"
desc tol_none '{"plio":"PLIO_01_FROM_AIE","size":64,"tolerance":{"rel":0.1}}'
bad_input tol_none "the golden data here is not given"
# float golden data takes a tolerance
desc tol_float '{"plio":"PLIO_01_TO_AIE","size":64,"data":{"pattern":"ramp","type":"float"}},{"plio":"PLIO_01_FROM_AIE","size":64,"golden":{"pattern":"ramp","type":"float"},"tolerance":{"abs":0.5}}'
expect 0 "$RT" -q -o "$TMP/o_tf" "$D/tol_float.json"
# a latency from a PLIO to itself
desc lat_self '{"plio":"PLIO_01_TO_AIE","size":64}' ',"max_latency":[{"from":"PLIO_01_TO_AIE","to":"PLIO_01_TO_AIE","max_cycles":5}]'
bad_input lat_self "max_latency[0]: \"from\" and \"to\" are both PLIO_01_TO_AIE"
# a missing data file: the message locates it in the description
desc nofile '{"plio":"PLIO_01_TO_AIE","data":{"file":"missing.bin"}}'
bad_input nofile "nofile.json: transactions[0].channels[0].data: $D/missing.bin: cannot open"
# 1e999: the value as written, not the double's limit
desc inf '{"plio":"PLIO_01_FROM_AIE","size":64,"min_throughput_MBps":1e999}'
bad_input inf "min_throughput_MBps: value 1e999 is beyond the range of a double"
# a UTF-8 byte order mark is ignored (was "invalid utf-8")
desc bom_body '{"plio":"PLIO_01_TO_AIE","size":64}'
{ printf '\xef\xbb\xbf'; cat "$D/bom_body.json"; } >"$D/bom.json"
expect 0 "$RT" -q -o "$TMP/o_bom" "$D/bom.json"
# ... and positions in errors still count from after it
{ printf '\xef\xbb\xbf{\n  "schema": 5,,\n}\n'; } >"$D/bom_bad.json"
expect 2 "$RT" -q -o "$TMP/o_bomb" "$D/bom_bad.json"
if jq -r '.tests[0].error.message' "$TMP/o_bomb/report.json" | grep -q 'bom_bad.json:2:'; then ok
else bad "bom_bad.json: the error is not located on line 2"; jq -r '.tests[0].error.message' "$TMP/o_bomb/report.json" >&2; fi
finish
