#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regression gates (docs/farm.md): run_test --baseline and
# run_test compare on reports of the emulated board: a rerun passes, a
# regressed baseline (a report edited with python3) fails with a table that
# names the channel, a baseline of another board is refused, per-metric
# tolerances of a description apply, bad baselines name file and field.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
PY=/usr/bin/python3
valid() {
  if $PY "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$1" >"$TMP/schema" 2>&1; then ok
  else bad "$1 does not validate against docs/report.schema.json"; cat "$TMP/schema" >&2; fi
}
jqis() {
  local got; got=$(jq -r "$2" "$3" 2>&1)
  if [[ $got == "$1" ]]; then ok; else bad "$3: $2 = '$got', expected '$1'"; fi
}
# edit IN OUT PYTHON: OUT is report IN with r (the report) changed by PYTHON
edit() {
  $PY -c "import json,sys
r=json.load(open(sys.argv[1]))
ch={c['plio']: c for c in r['tests'][0]['transactions'][0]['channels']}
$3
json.dump(r, open(sys.argv[2], 'w'))" "$1" "$2"
}
cp -r "$S/examples/adder_perf" "$TMP/ex"
EX=$TMP/ex/test.json
A=$TMP/a/report.json

# --- a rerun against its own baseline: nothing moved, exit 0
expect 0 "$RT" -o "$TMP/a" "$EX"
expect 0 "$RT" -o "$TMP/b" --baseline "$A" "$EX"
has "$TMP/out" "nothing moved"
has "$TMP/out" "values compared, 0 regressions"
jqis pass .baseline.status "$TMP/b/report.json"
jqis "$A" .baseline.path "$TMP/b/report.json"
valid "$TMP/b/report.json"
expect 0 "$RT" compare "$A" "$TMP/b/report.json"
has "$TMP/out" "nothing moved"

# --- a regressed baseline: the old run was 20% faster on one channel
edit "$A" "$TMP/reg.json" "ch['PLIO_01_FROM_AIE']['throughput_MBps'] *= 1.2"
expect 1 "$RT" -o "$TMP/c" --baseline "$TMP/reg.json" "$EX"
has "$TMP/out" "regression  adder_perf.perf.PLIO_01_FROM_AIE"
has "$TMP/out" "throughput_MBps"
has "$TMP/out" "-16.67%"
has "$TMP/out" "RUN_TEST CASE name=adder_perf result=fail"
has "$TMP/out" "RUN_TEST END run="
jqis fail .tests[0].status "$TMP/c/report.json"
jqis baseline .tests[0].error.phase "$TMP/c/report.json"
jqis regression .baseline.status "$TMP/c/report.json"
jqis PLIO_01_FROM_AIE '.baseline.changes[] | select(.verdict == "regression") | .plio' "$TMP/c/report.json"
has "$TMP/c/junit.xml" 'name="baseline"'
has "$TMP/c/junit.xml" '<failure type="baseline" message="1 value regressed'
has "$TMP/c/junit.xml" 'PLIO_01_FROM_AIE throughput_MBps 5000.00, baseline 6000.00 (-16.67%, tolerance 5%)'
has "$TMP/c/junit.xml" 'failures="1" errors="0"'
valid "$TMP/c/report.json"
# the same two reports without running anything
expect 1 "$RT" compare "$TMP/reg.json" "$TMP/b/report.json"
has "$TMP/out" "regression  adder_perf.perf.PLIO_01_FROM_AIE"
# a wider tolerance: moved, not failed; an improvement is not a failure
expect 0 "$RT" -o "$TMP/d" --baseline "$TMP/reg.json" --max-regression 20 "$EX"
has "$TMP/out" "ok          adder_perf.perf.PLIO_01_FROM_AIE"
expect 0 "$RT" compare --max-regression=20 "$TMP/reg.json" "$TMP/b/report.json"
edit "$A" "$TMP/slow.json" "ch['PLIO_01_FROM_AIE']['throughput_MBps'] *= 0.5"
expect 0 "$RT" compare "$TMP/slow.json" "$TMP/b/report.json"
has "$TMP/out" "improved"
# cycles and latencies too
edit "$A" "$TMP/cyc.json" "ch['PLIO_02_TO_AIE']['cycles'] //= 2
r['tests'][0]['transactions'][0]['latencies'][0]['cycles'] -= 8"
expect 1 "$RT" compare "$TMP/cyc.json" "$TMP/b/report.json"
has "$TMP/out" "regression  adder_perf.perf.PLIO_02_TO_AIE"
has "$TMP/out" "latency_cycles"
# a channel of the baseline missing from the new run: a failure
edit "$A" "$TMP/more.json" "c=dict(ch['PLIO_01_FROM_AIE']); c['plio']='PLIO_02_FROM_AIE'
r['tests'][0]['transactions'][0]['channels'].append(c)"
expect 1 "$RT" compare "$TMP/more.json" "$TMP/b/report.json"
has "$TMP/out" "missing     adder_perf.perf.PLIO_02_FROM_AIE"
# ... and one of the new run only is listed, not failed
expect 0 "$RT" compare "$TMP/b/report.json" "$TMP/more.json"
has "$TMP/out" "new         adder_perf.perf.PLIO_02_FROM_AIE"

# --- per-metric tolerances of the description (test level, then a stricter
# transaction level)
$PY - "$EX" "$TMP/ex/t30.json" "$TMP/ex/t30_1.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
d["regression"] = {"throughput_pct": 30, "latency_pct": 10}
json.dump(d, open(sys.argv[2], "w"))
d["transactions"][0]["regression"] = {"throughput_pct": 1}
json.dump(d, open(sys.argv[3], "w"))
P
expect 0 "$RT" -o "$TMP/e" --baseline "$TMP/reg.json" "$TMP/ex/t30.json"
has "$TMP/out" "30%  ok          adder_perf.perf.PLIO_01_FROM_AIE"
jqis 30 .tests[0].regression.throughput_pct "$TMP/e/report.json"
valid "$TMP/e/report.json"
expect 1 "$RT" -o "$TMP/f" --baseline "$TMP/reg.json" "$TMP/ex/t30_1.json"
has "$TMP/out" "1%  regression  adder_perf.perf.PLIO_01_FROM_AIE"
jqis 1 .tests[0].transactions[0].regression.throughput_pct "$TMP/f/report.json"
# the new report's tolerances apply in compare too
expect 0 "$RT" compare "$TMP/reg.json" "$TMP/e/report.json"
# a bad "regression" in a description names the field
$PY -c "import json,sys; d=json.load(open(sys.argv[1])); d['regression']={'speed_pct': 1}; json.dump(d, open(sys.argv[2],'w'))" "$EX" "$TMP/ex/bad.json"
expect 2 "$RT" -o "$TMP/g" "$TMP/ex/bad.json"
has "$TMP/out" "regression"
has "$TMP/out" "speed_pct"

# --- refused baselines: another board, clock or backend kind (exit 2)
edit "$A" "$TMP/vek.json" "r['tests'][0]['board'] = 'vek280'"
expect 2 "$RT" -o "$TMP/h" --baseline "$TMP/vek.json" "$EX"
has "$TMP/out" "refused"
has "$TMP/out" '"vek280"'
has "$TMP/err" "refused"
jqis refused .baseline.status "$TMP/h/report.json"
has "$TMP/h/junit.xml" '<error type="AIETH_EINVAL"'
jqis 2 .run.exit_code "$TMP/h/report.json"
valid "$TMP/h/report.json"
edit "$A" "$TMP/clk.json" "r['tests'][0]['pl_clock_MHz'] = 250"
expect 2 "$RT" compare "$TMP/clk.json" "$TMP/b/report.json"
has "$TMP/out" "PL clock 250 MHz"
edit "$A" "$TMP/xrt.json" "r['tests'][0]['backend'] = 'xrt'"
expect 2 "$RT" compare "$TMP/xrt.json" "$TMP/b/report.json"
has "$TMP/out" "(board, PL clock"
edit "$A" "$TMP/other.json" "r['tests'][0]['name'] = 'other'"
expect 2 "$RT" compare "$TMP/other.json" "$TMP/b/report.json"
has "$TMP/out" "shares no test name"

# --- unreadable or invalid baselines: exit 2 before anything runs, naming
# the file and the field
expect 2 "$RT" -o "$TMP/i" --baseline "$TMP/nonexistent.json" "$EX"
has "$TMP/err" "$TMP/nonexistent.json"
[[ ! -e $TMP/i/report.json ]] && ok || bad "a bad baseline still ran the test"
edit "$A" "$TMP/field.json" "ch['PLIO_01_TO_AIE']['cycles'] = 'many'"
expect 2 "$RT" -o "$TMP/i" --baseline "$TMP/field.json" "$EX"
has "$TMP/err" "$TMP/field.json: tests[0].transactions[0].channels[0].cycles: expected a number"
printf '{"schema": "aieth-report/1", "tests": [' >"$TMP/trunc.json"
expect 2 "$RT" compare "$TMP/trunc.json" "$A"
has "$TMP/err" "$TMP/trunc.json"
expect 2 "$RT" compare "$A"
expect 2 "$RT" compare "$A" "$A" "$A"
expect 2 "$RT" compare --max-regression -1 "$A" "$A"
expect 2 "$RT" -o "$TMP/i" --max-regression 5 "$EX"
has "$TMP/err" "--max-regression needs --baseline"
expect 2 "$RT" -o "$TMP/i" --baseline "$A" --max-regression abc "$EX"
expect 0 "$RT" compare --help
has "$TMP/out" "run_test compare BASELINE.json NEW.json"
expect 0 "$RT" --help
has "$TMP/out" "--baseline FILE"
finish
