# SPDX-License-Identifier: MIT
# Test descriptions: names beyond 256 characters, values beyond the PL
# kernel's fields and the 64-bit cycle arithmetic, nulls, lax checks: each
# an input error (exit 2) naming the file, the JSON path, the value as
# written and the rule, found before anything is allocated or run.
source "$(dirname "$0")/../lib.sh"
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
# names: at most 256 characters (code points), checked before the run (a
# 100000-byte test name passed, then failed writing trace.json: exit 2, "out
# of memory"); a name of the limit goes whole into every writer
desc names '{"plio":"PLIO_01_TO_AIE","size":64}'
long=$(printf 'n%.0s' $(seq 100000))
jq --arg n "$long" '.name = $n' "$D/names.json" >"$D/name_100k.json"
bad_input name_100k "name_100k.json: name: 100000 characters (100000 bytes), the limit is 256 characters"
jq -e '.tests[0].transactions | length == 0' "$TMP/o_name_100k/report.json" >/dev/null && ok || bad "name_100k: something ran"
n257=$(printf 'x%.0s' $(seq 257)); n256=${n257:1}
e257=$(printf '\xc3\xa9%.0s' $(seq 257)); e256=${e257:1}
jq --arg n "$n257" '.transactions[0].name = $n' "$D/names.json" >"$D/txn_257.json"
bad_input txn_257 "txn_257.json: transactions[0].name: 257 characters (257 bytes), the limit is 256 characters"
jq --arg n "$n257" '.graphs[0].name = $n' "$D/names.json" >"$D/graph_257.json"
bad_input graph_257 "graph_257.json: graphs[0].name: 257 characters (257 bytes), the limit is 256 characters"
jq --arg n "$e257" '.name = $n' "$D/names.json" >"$D/utf8_257.json"
bad_input utf8_257 "utf8_257.json: name: 257 characters (514 bytes), the limit is 256 characters"
# 256 characters (512 bytes) and a 256-byte transaction name: a pass, whole everywhere
jq --arg n "$e256" --arg t "$n256" '.name = $n | .transactions[0].name = $t' "$D/names.json" >"$D/max.json"
expect 0 timeout 60 "$RT" -o "$TMP/o_max" "$D/max.json"
has "$TMP/out" "RUN_TEST CASE name=$e256.$n256.PLIO_01_TO_AIE result=pass"
has "$TMP/out" "RUN_TEST CASE name=$e256 result=pass"
got=$(jq -r '.traceEvents[] | select(.name == "process_name") | .args.name' "$TMP/o_max/trace.json" 2>&1)
[[ $got == "$e256 / $n256" ]] && ok || bad "trace.json: process name '${got:0:80}...'"
got=$(jq -r '.tests[0].name' "$TMP/o_max/report.json")
[[ $got == "$e256" ]] && ok || bad "report.json: name '${got:0:80}...'"
grep -qF "classname=\"$e256\" name=\"$n256.PLIO_01_TO_AIE\"" "$TMP/o_max/junit.xml" && ok || bad "junit.xml lacks the names whole"
# the schema says the same (maxLength counts characters, as run_test does)
VS=$S/tests/e2e/validate_schema.py
/usr/bin/python3 "$VS" "$S/docs/test-spec.schema.json" "$D/max.json" >/dev/null 2>&1 && ok || bad "the schema refuses 256-character names"
for f in name_100k txn_257 graph_257 utf8_257; do
  if /usr/bin/python3 "$VS" "$S/docs/test-spec.schema.json" "$D/$f.json" >/dev/null 2>&1; then
    bad "the schema accepts $f.json"; else ok; fi
done
finish
