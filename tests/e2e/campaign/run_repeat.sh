#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_test --repeat N --warmup W and the description's "repeat":
# examples/adder_perf run 1 + 5 times locally and through th_server on
# loopback gives the same report (the emulated board: every run's cycles
# the same, locally and remotely), the statistics in report.json (schema
# aieth-report/2), the table's median and spread, the saved data of the
# last run; a golden mismatch fails every run, named; a model that gets one
# iteration wrong fails only the run that computed it, named, locally and
# remotely; the limits (runs, warm-up, runs x data, graph iterations) refuse
# before any run with the field, value and limit; --baseline compares the
# median, from /1 and /2 reports. Every wait is bounded.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
th_server_setup

TOK=repeat-test-token-0123456789
printf 'ci %s\n' "$TOK" >"$TMP/tokens"
chmod 600 "$TMP/tokens"
printf '%s\n' "$TOK" >"$TMP/token"
start_server "$TMP/log" --token-file "$TMP/tokens" --model-dir "$B/plugins" --idle-timeout 120 \
  --max-wait 600
REM=(--backend remote --server "$U" --token-file "$TMP/token")
cp -r "$EX/adder_perf" "$TMP/ap"

# ---- adder_perf, 1 warm-up + 5 measured runs, local and remote
for w in loc rem; do
  args=()
  [[ $w == rem ]] && args=("${REM[@]}")
  expect 0 "$RT" "${args[@]}" --repeat 5 --warmup 1 -o "$TMP/$w" "$TMP/ap/test.json"
  cp "$TMP/out" "$TMP/$w.txt"
  R=$TMP/$w/report.json
  [[ $(jq -r .schema "$R") == aieth-report/2 ]] && ok || bad "$w: schema $(jq -r .schema "$R")"
  [[ $(jq -c .tests[0].repeat "$R") == '{"runs":5,"warmup":1,"statistic":"median"}' ]] && ok \
    || bad "$w: repeat $(jq -c .tests[0].repeat "$R")"
  # one graph run for all six runs: 128 iterations each
  [[ $(jq -c '.tests[0].graphs[0] | [.iterations, .iterations_per_run, .iterations_done, .status]' "$R") \
     == '[768,128,768,"complete"]' ]] && ok || bad "$w: graph $(jq -c .tests[0].graphs[0] "$R")"
  T='.tests[0].transactions[0]'
  # the emulator is deterministic: every run's figures are the same
  jq -e "$T | .median_run == 0 and .runs_failed == [] and
    (.stats.total_cycles | (.runs | length) == 5 and .min == .max and .median == .max
      and .stddev == 0 and .mad == 0 and .mean == .median)
    and .stats.total_cycles.median == .total_cycles" "$R" >/dev/null && ok \
    || bad "$w: transaction stats $(jq -c "$T | {median_run, stats, runs_failed}" "$R")"
  jq -e "[$T.channels[] | .stats as \$s | [\"cycles\", \"first_cycle\", \"last_cycle\", \"duration_ns\",
      \"throughput_MBps\", \"throughput_MiBps\"] | map(. as \$k | \$s[\$k] | (.runs | length) == 5
      and .min == .max and (.runs | unique | length) == 1) | all] | all and length == 3" "$R" >/dev/null \
    && ok || bad "$w: channel stats $(jq -c "$T.channels[0].stats" "$R")"
  # scalars are the median run's; the threshold on the median, named
  jq -e "$T.channels[2] | .throughput_MBps == .stats.throughput_MBps.median and .verdict == \"pass\"
    and .thresholds[0].statistic == \"median\" and .thresholds[0].measured == .stats.throughput_MBps.median" \
    "$R" >/dev/null && ok || bad "$w: threshold $(jq -c "$T.channels[2].thresholds" "$R")"
  jq -e "$T.latencies[0] | .statistic == \"median\" and .passed and (.stats.cycles.runs | length) == 5
    and .stats.cycles.median == .cycles" "$R" >/dev/null && ok \
    || bad "$w: latency $(jq -c "$T.latencies[0]" "$R")"
  # the table: the median with the spread (the mad relative to the median)
  has "$TMP/$w.txt" "runs: 5 measured (1 warm-up), the table shows run 1 (median cycles); cycles 2000 ±0.0 %"
  grep -Eq '^   PLIO_01_FROM_AIE .* 5000\.0 ±0\.0 % .* ok \(1024\) +pass$' "$TMP/$w.txt" && ok \
    || bad "$w: table row: $(grep PLIO_01_FROM_AIE "$TMP/$w.txt")"
  /usr/bin/python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$R" >"$TMP/schema" 2>&1 && ok \
    || { bad "$w: report.json does not validate"; cat "$TMP/schema" >&2; }
done
# local and remote: the same figures, run for run
if diff <(norm_report "$TMP/loc/report.json") <(norm_report "$TMP/rem/report.json") >"$TMP/diff"; then ok
else bad "repeat: local and remote reports differ:"; head -20 "$TMP/diff" >&2; fi
# one session for all runs (th_server: one session opened)
[[ $(grep -c 'POST /v1/sessions 20[01]' "$TMP/log") -eq 1 ]] && ok \
  || bad "not one th_server session: $(grep -c 'POST /v1/sessions ' "$TMP/log")"
# one run's figures are the repeated runs' (the emulated board)
expect 0 "$RT" -q -o "$TMP/once" "$TMP/ap/test.json"
[[ $(jq '.tests[0].transactions[0].channels[2].cycles' "$TMP/once/report.json") == \
   $(jq '.tests[0].transactions[0].channels[2].stats.cycles.median' "$TMP/loc/report.json") ]] && ok \
  || bad "one run and the median of five differ"
jq -e '.tests[0].repeat == {"runs":1,"warmup":0,"statistic":"median"}
  and (.tests[0].transactions[0] | .median_run == 0 and .runs_failed == [] and (has("stats") | not)
  and (.channels | map(has("stats")) | any | not))' "$TMP/once/report.json" >/dev/null && ok \
  || bad "one run: $(jq -c '.tests[0].repeat' "$TMP/once/report.json")"
# the save is written once (the last run): the same bytes as one run's
cmp -s "$TMP/loc/adder_perf_out.txt" "$TMP/once/adder_perf_out.txt" && ok || bad "saved data differs"
cmp -s "$TMP/rem/adder_perf_out.txt" "$TMP/once/adder_perf_out.txt" && ok || bad "remote saved data differs"

# ---- the description's "repeat", the option overriding runs and warm-up
jq '. + {"repeat": {"runs": 3, "warmup": 2, "statistic": "min"}}' "$TMP/ap/test.json" >"$TMP/ap/rep.json"
expect 0 "$RT" -q -o "$TMP/desc" "$TMP/ap/rep.json"
jq -e '.tests[0].repeat == {"runs":3,"warmup":2,"statistic":"min"} and .tests[0].graphs[0].iterations == 640
  and (.tests[0].transactions[0].stats.total_cycles.runs | length) == 3
  and .tests[0].transactions[0].channels[2].thresholds[0].statistic == "min"' "$TMP/desc/report.json" \
  >/dev/null && ok || bad "description repeat: $(jq -c .tests[0].repeat "$TMP/desc/report.json")"
expect 0 "$RT" -q --repeat 2 -o "$TMP/over" "$TMP/ap/rep.json"
[[ $(jq -c .tests[0].repeat "$TMP/over/report.json") == '{"runs":2,"warmup":0,"statistic":"min"}' ]] && ok \
  || bad "--repeat does not override: $(jq -c .tests[0].repeat "$TMP/over/report.json")"

# ---- a golden mismatch fails every run, each named
cp -r "$EX/adder_perf" "$TMP/bad"
sed -i '1s/^-995 /999999 /' "$TMP/bad/golden.txt"
for w in loc rem; do
  args=()
  [[ $w == rem ]] && args=("${REM[@]}")
  expect 1 "$RT" "${args[@]}" --repeat 3 --warmup 1 -o "$TMP/bad_$w" "$TMP/bad/test.json"
  has "$TMP/out" "failed: transactions[0] warm-up run 1 of 1: PLIO_01_FROM_AIE: 1 of 1024 elements differ, first at byte 0: got -995, expected 999999"
  has "$TMP/out" "failed: transactions[0] run 1 of 3: PLIO_01_FROM_AIE: 1 of 1024 elements differ"
  jq -e '.tests[0].status == "fail" and (.tests[0].transactions[0] | (.runs_failed | length) == 4
    and .runs_failed[0].warmup and .runs_failed[1].run == 0 and .runs_failed[3].run == 2
    and .runs_failed[1].plio == "PLIO_01_FROM_AIE" and .channels[2].verdict == "fail"
    and .channels[2].failed_runs == [0,1,2])' "$TMP/bad_$w/report.json" >/dev/null && ok \
    || bad "$w: golden mismatch: $(jq -c '.tests[0].transactions[0].runs_failed' "$TMP/bad_$w/report.json")"
done

# ---- one run of four wrong: the model flips a byte of iteration 197, in
# the fourth of five runs (64 iterations each); the median run is clean
flaky() {
  cat >"$1" <<J
{"schema": "aieth-test/1", "name": "flaky", "board": "vck190",
 "graphs": [{"name": "g", "iterations": 64, "model": "$2", "params": {"bad_iteration": 197}}],
 "transactions": [{"name": "t", "mode": "func", "channels": [
   {"plio": "PLIO_01_TO_AIE", "size": 1024, "data": {"pattern": "ramp", "type": "int32"}},
   {"plio": "PLIO_02_TO_AIE", "size": 1024, "data": {"pattern": "ramp", "type": "int32"}},
   {"plio": "PLIO_01_FROM_AIE", "size": 1024, "golden": {"pattern": "ramp", "type": "int32"}},
   {"plio": "PLIO_02_FROM_AIE", "size": 1024, "golden": {"pattern": "ramp", "type": "int32"}}]}]}
J
}
flaky "$TMP/flaky_loc.json" "$B/plugins/flaky_copy.so"
flaky "$TMP/flaky_rem.json" flaky_copy
for w in loc rem; do
  args=()
  [[ $w == rem ]] && args=("${REM[@]}")
  expect 1 "$RT" "${args[@]}" --repeat 4 --warmup 1 -o "$TMP/fl_$w" "$TMP/flaky_$w.json"
  has "$TMP/out" "failed: transactions[0] run 3 of 4: PLIO_01_FROM_AIE: 1 of 256 elements differ, first at byte 80"
  has "$TMP/out" "fail: the data check failed in run 3 (runs_failed)"
  has "$TMP/fl_$w/junit.xml" "the data check failed in run 3"
  jq -e '.tests[0].exit_code == 1 and (.tests[0].transactions[0] | .median_run == 0
    and .runs_failed == [{"run": 2, "plio": "PLIO_01_FROM_AIE",
      "reason": "transactions[0] run 3 of 4: PLIO_01_FROM_AIE: 1 of 256 elements differ, first at byte 80: got 78, expected 20"}]
    and .channels[2].integrity.mismatches == 0 and .channels[2].failed_runs == [2]
    and .channels[2].verdict == "fail" and .channels[3].verdict == "pass")' "$TMP/fl_$w/report.json" \
    >/dev/null && ok || bad "$w: flaky: $(jq -c '.tests[0].transactions[0].runs_failed' "$TMP/fl_$w/report.json")"
done
# the wrong iteration in the warm-up run (iteration 5): the channel and the
# test fail, the warm-up run named
sed 's/"bad_iteration": 197/"bad_iteration": 5/' "$TMP/flaky_loc.json" >"$TMP/warm.json"
expect 1 "$RT" --repeat 4 --warmup 1 -o "$TMP/warm" "$TMP/warm.json"
has "$TMP/out" "failed: transactions[0] warm-up run 1 of 1: PLIO_01_FROM_AIE: 1 of 256 elements differ, first at byte 80"
has "$TMP/out" "fail: the data check failed in warm-up run 1 (runs_failed)"
jq -e '.tests[0].transactions[0] | .channels[2].verdict == "fail" and .channels[2].failed_runs == []
  and .channels[2].failed_warmup_runs == [0] and (has("stats"))
  and .runs_failed == [{"run": 0, "warmup": true, "plio": "PLIO_01_FROM_AIE",
    "reason": "transactions[0] warm-up run 1 of 1: PLIO_01_FROM_AIE: 1 of 256 elements differ, first at byte 80: got 78, expected 20"}]' \
  "$TMP/warm/report.json" >/dev/null && ok || bad "warm-up failure: $(jq -c '.tests[0].transactions[0].channels[2]' "$TMP/warm/report.json")"
/usr/bin/python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$TMP/warm/report.json" \
  "$TMP/fl_loc/report.json" "$TMP/bad_loc/report.json" >"$TMP/schema" 2>&1 && ok \
  || { bad "failure reports do not validate"; cat "$TMP/schema" >&2; }
# the same model without its wrong iteration passes all runs
sed 's/"bad_iteration": 197/"bad_iteration": 100000/' "$TMP/flaky_loc.json" >"$TMP/fine.json"
expect 0 "$RT" -q --repeat 4 --warmup 1 -o "$TMP/fine" "$TMP/fine.json"

# ---- a run that does not complete ends the repeats, named: stall_hang's
# graph with its kernel stalling after 32 iterations (params.stall_after),
# 32 a run: the warm-up run passes, the first measured run stalls (exit 5)
mkdir -p "$TMP/sh"
cp "$EX/stall_hang/"*.txt "$TMP/sh/"
jq '.graphs[0].params.stall_after = 32' "$EX/stall_hang/test.json" >"$TMP/sh/test.json"
expect 5 "$RT" -q --repeat 3 --warmup 1 -o "$TMP/hang" "$TMP/sh/test.json"
jq -e '(.tests[0].error.message | startswith("transactions[0] run 1 of 3: still running after"))
  and (.tests[0].transactions[0] | .status == "timeout" and .median_run == null
  and (.runs_failed | length) == 1 and .runs_failed[0].run == 0 and .runs_failed[0].plio == null)' \
  "$TMP/hang/report.json" >/dev/null && ok || bad "stall: $(jq -c '.tests[0].error' "$TMP/hang/report.json")"
/usr/bin/python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$TMP/hang/report.json" \
  >"$TMP/schema" 2>&1 && ok || { bad "the stalled run's report does not validate"; cat "$TMP/schema" >&2; }

# ---- Ctrl-C in a repeated run: the report says which run (exit 130); a
# FUNC transaction of 2 x 10 GiB run 3 times (60 GiB: within the data limit),
# interrupted in the run its first progress line shows
cat >"$TMP/long.json" <<'J'
{"schema": "aieth-test/1", "name": "func_long", "board": "vek280",
 "graphs": [{"name": "loopback", "model": "loopback", "params": {"channels": [1], "window_bytes": 4096}}],
 "transactions": [{"name": "long", "mode": "func", "timeout_ms": 3600000,
   "channels": [
     {"plio": "PLIO_01_TO_AIE", "size": 10737418240, "data": {"pattern": "random", "seed": 1}},
     {"plio": "PLIO_01_FROM_AIE", "size": 10737418240}]}]}
J
: >"$TMP/long.err"
"$RT" --progress --repeat 3 -o "$TMP/long" "$TMP/long.json" >"$TMP/long.out" 2>"$TMP/long.err" &
RP=$!
for i in $(seq 1200); do
  grep -q ': run [1-3] of 3: [1-9][0-9]* of [0-9]* bytes moved' "$TMP/long.err" && break
  kill -0 "$RP" 2>/dev/null || break
  sleep 0.1
done
kill -INT "$RP"; wait "$RP"; rc=$?
[[ $rc -eq 130 ]] && ok || bad "interrupted repeat: exit $rc"
jq -e '.tests[0].transactions[0] | .status == "interrupted" and .median_run == null
  and (.runs_failed[0].reason | test("^transactions\\[0\\] run [1-3] of 3: interrupted"))
  and (.runs_failed | length) == 1' "$TMP/long/report.json" \
  >/dev/null && ok || bad "interrupted: $(jq -c '.tests[0].transactions[0].runs_failed' "$TMP/long/report.json")"

# ---- limits: refused before any run (exit 2), naming field, value, limit
expect 2 "$RT" -q --repeat 0 -o "$TMP/l1" "$TMP/ap/test.json"
has "$TMP/err" "--repeat: expected runs 1..100000, got"
expect 2 "$RT" -q --repeat 100001 -o "$TMP/l1" "$TMP/ap/test.json"
has "$TMP/err" "100001"
expect 2 "$RT" -q --repeat 5x -o "$TMP/l1" "$TMP/ap/test.json"
expect 2 "$RT" -q --warmup 2 -o "$TMP/l1" "$TMP/ap/test.json"
has "$TMP/err" "--warmup needs --repeat"
expect 2 "$RT" -q --repeat 60000 --warmup 40001 -o "$TMP/l1" "$TMP/ap/test.json"
has "$TMP/err" "more than 100000 runs in all"
jq '. + {"repeat": {"runs": 0}}' "$TMP/ap/test.json" >"$TMP/ap/r0.json"
expect 2 "$RT" -q -o "$TMP/l2" "$TMP/ap/r0.json"
has "$TMP/l2/report.json" "r0.json: repeat.runs: value 0 is out of range (1..100000)"
jq '. + {"repeat": {"runs": 5, "statistic": "p99"}}' "$TMP/ap/test.json" >"$TMP/ap/rs.json"
expect 2 "$RT" -q -o "$TMP/l2" "$TMP/ap/rs.json"
has "$TMP/l2/report.json" "rs.json: repeat.statistic: \\\"p99\\\" is not one of median, min, max, mean"
# runs x data: 1 GiB a run, 65 runs are past 64 GiB; 64 are not (not run here)
cat >"$TMP/big.json" <<'J'
{"schema": "aieth-test/1", "name": "big", "board": "vck190",
 "graphs": [{"name": "g", "model": "loopback"}],
 "transactions": [{"mode": "func", "channels": [
   {"plio": "PLIO_01_TO_AIE", "size": 1073741824, "data": {"pattern": "random", "seed": 1}}]}]}
J
expect 2 "$RT" -q --repeat 60 --warmup 5 -o "$TMP/l3" "$TMP/big.json"
has "$TMP/l3/report.json" "big.json: --repeat: 65 runs in all of transactions[0], 1073741824 bytes of data each, are more than the limit of 68719476736 bytes (64 GiB)"
jq -e '.tests[0].transactions == [] and .tests[0].error.phase == "load"' "$TMP/l3/report.json" >/dev/null \
  && ok || bad "runs x data: something ran"
jq '. + {"repeat": {"runs": 65}}' "$TMP/big.json" >"$TMP/big2.json"
expect 2 "$RT" -q -o "$TMP/l3" "$TMP/big2.json"
has "$TMP/l3/report.json" "big2.json: repeat.runs: 65 runs in all"
# the figures kept: 72 channels keep 433 a run, 4619 runs are past 2000000
# (4618 are not: they would run); the data is small, under 64 GiB
jq '{schema, name: "wide", board, graphs: [{name: "g", model: "loopback"}],
  transactions: [{mode: "perf", channels: [range(1; 37) as $i |
    ({plio: ("PLIO_\($i | tostring | if length < 2 then "0" + . else . end)_TO_AIE"), size: 16}),
    ({plio: ("PLIO_\($i | tostring | if length < 2 then "0" + . else . end)_FROM_AIE"), size: 16})]}]}' \
  "$TMP/ap/test.json" >"$TMP/wide.json"
expect 2 "$RT" -q --repeat 4619 -o "$TMP/l5" "$TMP/wide.json"
has "$TMP/l5/report.json" "wide.json: --repeat: value 4619 keeps 433 figures per run (1 + 6 per channel + 1 per latency bound of each transaction), 2000027 in all, more than the limit of 2000000 kept in report.json"
expect 0 "$RT" -q --repeat 3 -o "$TMP/l5" "$TMP/wide.json"
# a bounded graph's iterations times the runs past 2^63 - 1
sed 's/"iterations": 128/"iterations": 4611686018427387904/' "$TMP/ap/test.json" >"$TMP/ap/it.json"
expect 2 "$RT" -q --repeat 2 -o "$TMP/l4" "$TMP/ap/it.json"
has "$TMP/l4/report.json" "it.json: --repeat: 2 runs in all of graphs[0] (\\\"gr\\\", 4611686018427387904 iterations per run) are more than 9223372036854775807 iterations"

# ---- --baseline: the median compared, from /2 and /1 reports
expect 0 "$RT" -q --repeat 5 --baseline "$TMP/loc/report.json" -o "$TMP/b1" "$TMP/ap/test.json"
jq -e '.baseline.status == "pass" and .baseline.compared > 0' "$TMP/b1/report.json" >/dev/null && ok \
  || bad "baseline /2: $(jq -c .baseline "$TMP/b1/report.json")"
jq '.schema = "aieth-report/1" | walk(if type == "object" then del(.stats, .repeat, .median_run,
  .runs_failed, .failed_runs, .statistic) else . end)' "$TMP/once/report.json" >"$TMP/v1.json"
expect 0 "$RT" -q --repeat 3 --baseline "$TMP/v1.json" -o "$TMP/b2" "$TMP/ap/test.json"
jq -e '.baseline.status == "pass" and .baseline.compared > 0' "$TMP/b2/report.json" >/dev/null && ok \
  || bad "baseline /1: $(jq -c .baseline "$TMP/b2/report.json")"
# a baseline whose median was 10 % faster: a regression (exit 1), though
# its median run's scalar is the same as now
jq '.tests[0].transactions[0].channels[2].stats.throughput_MBps.median *= 1.1' "$TMP/loc/report.json" >"$TMP/fast.json"
expect 1 "$RT" -q --repeat 3 --baseline "$TMP/fast.json" -o "$TMP/b3" "$TMP/ap/test.json"
jq -e '.baseline.status == "regression" and .baseline.regressions == 1' "$TMP/b3/report.json" >/dev/null \
  && ok || bad "baseline median regression: $(jq -c '.baseline | {status, regressions}' "$TMP/b3/report.json")"
# run_test compare reads both versions too
expect 0 "$RT" compare "$TMP/v1.json" "$TMP/loc/report.json"
stop_server
finish
