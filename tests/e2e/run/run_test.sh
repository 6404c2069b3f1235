#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_test end to end: every example (exit code, report fields, schema,
# JUnit), the bad inputs of the run_test contract, and the CLI itself.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
PY=/usr/bin/python3
EX=$S/examples
# jq VALUE FILTER FILE: the filter's output equals VALUE
jqis() {
  local got; got=$(jq -r "$2" "$3" 2>&1)
  if [[ $got == "$1" ]]; then ok; else bad "$3: $2 = '$got', expected '$1'"; fi
}
validate() {
  if $PY "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$1" >"$TMP/schema" 2>&1; then ok
  else bad "$1 does not validate against docs/report.schema.json"; cat "$TMP/schema" >&2; fi
  if xmllint --noout "$(dirname "$1")/junit.xml" 2>"$TMP/xml"; then ok
  else bad "junit.xml is not well-formed"; cat "$TMP/xml" >&2; fi
}

# --- the descriptions themselves follow their schema
if $PY "$S/tests/e2e/validate_schema.py" "$S/docs/test-spec.schema.json" "$EX"/*/test.json >"$TMP/schema" 2>&1; then ok
else bad "examples do not validate against docs/test-spec.schema.json"; cat "$TMP/schema" >&2; fi

# --- every example
o=$TMP/adder_perf
expect 0 "$RT" -o "$o" "$EX/adder_perf/test.json"
has "$TMP/out" "PLIO_01_FROM_AIE  from 6/0"
has "$TMP/out" "RUN_TEST END"
validate "$o/report.json"
jqis pass '.run.status' "$o/report.json"
jqis 0 '.run.exit_code' "$o/report.json"
jqis vck190 '.environment.board' "$o/report.json"
jqis 312.5 '.environment.pl_clock_MHz' "$o/report.json"
jqis 5000 '.tests[0].transactions[0].channels[2].throughput_MBps' "$o/report.json"
jqis 100 '.tests[0].transactions[0].channels[2].utilisation_pct' "$o/report.json"
jqis 6 '.tests[0].transactions[0].channels[1].placement.shim_column' "$o/report.json"
jqis 4 '.tests[0].transactions[0].channels[1].placement.shim_channel' "$o/report.json"
jqis 1024 '.tests[0].transactions[0].channels[2].integrity.elements' "$o/report.json"
jqis 0 '.tests[0].transactions[0].channels[2].integrity.mismatches' "$o/report.json"
jqis true '.tests[0].transactions[0].latencies[0].passed' "$o/report.json"
jqis complete '.tests[0].graphs[0].status' "$o/report.json"
jqis 128 '.tests[0].graphs[0].iterations_done' "$o/report.json"
# the received data was saved, as text, and equals the golden file
if diff -q <(tr -s ' \n' '\n\n' < "$o/adder_perf_out.txt" | grep .) <(tr -s ' \n' '\n\n' < "$EX/adder_perf/golden.txt" | grep .) >/dev/null; then ok
else bad "saved adder output differs from golden.txt"; fi

o=$TMP/adder_func
expect 0 "$RT" -o "$o" "$EX/adder_func/test.json"
validate "$o/report.json"
jqis func '.tests[0].transactions[0].mode' "$o/report.json"
jqis 100 '.tests[0].transactions[0].channels[1].delay_cycles' "$o/report.json"
jqis 4096 '.tests[0].transactions[0].channels[2].integrity.elements' "$o/report.json"

o=$TMP/loopback
expect 0 "$RT" -o "$o" "$EX/loopback_perf_vck190/test.json"
validate "$o/report.json"
jqis 72 '.tests[0].transactions[0].channels | length' "$o/report.json"
jqis 72 '[.tests[0].transactions[0].channels[] | select(.verdict == "pass")] | length' "$o/report.json"
jqis 6553600 '.tests[0].transactions[0].channels[71].bytes_moved' "$o/report.json"
jqis 23 '.tests[0].transactions[0].channels[71].placement.shim_column' "$o/report.json"

o=$TMP/vek280
expect 0 "$RT" -o "$o" "$EX/vek280_func_large/test.json"
validate "$o/report.json"
jqis vek280 '.tests[0].board' "$o/report.json"
jqis 8388608 '.tests[0].transactions[0].channels[4].bytes_moved' "$o/report.json"
if cmp -s <(head -c 16 "$o/vek280_plio01.bin" | od -An -tx1) <(head -c 16 "$o/vek280_plio01.bin" | od -An -tx1) && [[ $(stat -c %s "$o/vek280_plio01.bin") == 8388608 ]]; then ok
else bad "vek280_plio01.bin is not 8 MiB"; fi

o=$TMP/tiling
expect 0 "$RT" -o "$o" "$EX/tiling/test.json"
validate "$o/report.json"
jqis 64 '.tests[0].transactions[0].channels[2].integrity.elements' "$o/report.json"
jqis 0 '.tests[0].transactions[0].channels[3].integrity.mismatches' "$o/report.json"

# the hang: exit 5 quickly, a report with per-channel progress
o=$TMP/stall
start=$(date +%s)
expect 5 timeout 60 "$RT" -o "$o" "$EX/stall_hang/test.json"
if (( $(date +%s) - start < 30 )); then ok; else bad "stall_hang took longer than the 2 s timeout allows"; fi
has "$TMP/out" "stalled since cycle"
validate "$o/report.json"
jqis timeout '.run.status' "$o/report.json"
jqis 5 '.tests[0].exit_code' "$o/report.json"
jqis wait '.tests[0].error.phase' "$o/report.json"
jqis timeout '.tests[0].transactions[0].status' "$o/report.json"
jqis 1024 '.tests[0].transactions[0].channels[2].bytes_moved' "$o/report.json"
jqis 4096 '.tests[0].transactions[0].channels[2].bytes_expected' "$o/report.json"
jqis false '.tests[0].transactions[0].channels[2].finished' "$o/report.json"
jqis 80 '.tests[0].transactions[0].channels[2].stalled_since_cycle' "$o/report.json"
has "$o/junit.xml" '<error type="timeout"'

# several descriptions: one report, the most severe exit code
o=$TMP/multi
expect 5 "$RT" -q -o "$o" "$EX/adder_perf/test.json" "$EX/stall_hang/test.json" "$EX/tiling/test.json"
validate "$o/report.json"
jqis 3 '.summary.tests' "$o/report.json"
jqis 2 '.summary.passed' "$o/report.json"
jqis 1 '.summary.timeouts' "$o/report.json"

# --- bad inputs (each in its own folder; data files copied alongside)
mk() { # mk NAME JSON: write a description next to copies of the adder data
  mkdir -p "$TMP/bad/$1"; cp "$EX/adder_perf/"*.txt "$TMP/bad/$1/"; printf '%s\n' "$2" > "$TMP/bad/$1/test.json"
}
base_ch='{"plio": "PLIO_01_TO_AIE", "data": {"file": "in0.txt", "type": "int32"}}, {"plio": "PLIO_02_TO_AIE", "data": {"file": "in1.txt", "type": "int32"}}'
golden_ch='{"plio": "PLIO_01_FROM_AIE", "golden": {"file": "golden.txt", "type": "int32"}}'
spec() { # spec BOARD MODE CHANNELS [EXTRA_TXN_FIELDS]
  printf '{"schema": "aieth-test/1", "board": "%s", "graphs": [{"name": "gr", "model": "adder"}], "transactions": [{"mode": "%s", "timeout_ms": 2000, "channels": [%s]%s}]}' "$1" "$2" "$3" "${4:-}"
}
runbad() { # runbad WANT NAME TEXT...: exit code, and each TEXT in the output
  local want=$1 name=$2; shift 2
  expect "$want" "$RT" -o "$TMP/bad/$name/out" "$TMP/bad/$name/test.json"
  for t in "$@"; do has "$TMP/out" "$t"; done
  if [[ -f $TMP/bad/$name/out/report.json ]]; then validate "$TMP/bad/$name/out/report.json"; else bad "$name: no report.json"; fi
}

mk malformed '{"schema": "aieth-test/1", "board": "vck190", "transactions": [}'
runbad 2 malformed "test.json:1:" "error (load"
mk unknown_key "$(spec vck190 perf "$base_ch, $golden_ch" ', "chanels": 1')"
runbad 2 unknown_key 'transactions[0]: key "chanels" is not allowed'
mk unknown_plio "$(spec vck190 perf '{"plio": "PLIO_99_TO_AIE", "size": 64}')"
runbad 2 unknown_plio 'transactions[0].channels[0].plio' 'PLIO_99_TO_AIE'
mk not_on_board "$(spec vek280 perf '{"plio": "PLIO_17_TO_AIE", "size": 64}')"
runbad 2 not_on_board 'transactions[0].channels[0].plio' 'PLIO_17_TO_AIE'
mk size16 "$(spec vck190 perf '{"plio": "PLIO_01_TO_AIE", "size": 40}, {"plio": "PLIO_01_FROM_AIE", "size": 40}')"
runbad 2 size16 'transactions[0].channels[0].size: 40 bytes is not a positive multiple of 16'
mk func_rep "$(spec vck190 func '{"plio": "PLIO_01_TO_AIE", "size": 64, "repetition": 2}')"
runbad 2 func_rep 'transactions[0].channels[0].repetition: 2 in FUNC mode'
mk missing_file "$(spec vck190 perf '{"plio": "PLIO_01_TO_AIE", "data": {"file": "nope.bin"}}')"
runbad 2 missing_file 'nope.bin: cannot open'
mk dup_plio "$(spec vck190 perf "$base_ch, $golden_ch, $golden_ch")"
runbad 2 dup_plio 'transactions[0].channels[3].plio: PLIO_01_FROM_AIE is also transactions[0].channels[2].plio'
mk wrong_dir "$(spec vck190 perf '{"plio": "PLIO_01_FROM_AIE", "data": {"file": "in0.txt", "type": "int32"}}')"
runbad 2 wrong_dir 'receives data from the AIE'
mk no_board '{"schema": "aieth-test/1", "transactions": [{"mode": "perf", "channels": [{"plio": "PLIO_01_TO_AIE", "size": 64}]}]}'
runbad 2 no_board 'board: missing'
mk schema '{"schema": "aieth-test/9", "board": "vck190", "transactions": []}'
runbad 2 schema 'schema: "aieth-test/9" is not supported'
# golden mismatch -> 1, with the first mismatch named
mk mismatch "$(spec vck190 perf "$base_ch, "'{"plio": "PLIO_01_FROM_AIE", "golden": {"file": "in0.txt", "type": "int32"}}')"
runbad 1 mismatch "BAD @0" "FAIL, exit 1"
jqis 1024 '.tests[0].transactions[0].channels[2].integrity.mismatches' "$TMP/bad/mismatch/out/report.json"
jqis -995 '.tests[0].transactions[0].channels[2].integrity.first_mismatch.got' "$TMP/bad/mismatch/out/report.json"
jqis -1000 '.tests[0].transactions[0].channels[2].integrity.first_mismatch.expected' "$TMP/bad/mismatch/out/report.json"
has "$TMP/bad/mismatch/out/junit.xml" '<failure type="data"'
# thresholds missed -> 1
mk threshold "$(spec vck190 perf "$base_ch, "'{"plio": "PLIO_01_FROM_AIE", "golden": {"file": "golden.txt", "type": "int32"}, "min_throughput_MBps": 6000}')"
runbad 1 threshold "FAIL, exit 1"
jqis false '.tests[0].transactions[0].channels[2].thresholds[0].passed' "$TMP/bad/threshold/out/report.json"
mk latency "$(spec vck190 perf "$base_ch, $golden_ch" ', "max_latency": [{"from": "PLIO_01_TO_AIE", "to": "PLIO_01_FROM_AIE", "max_cycles": 3}]')"
runbad 1 latency "latency PLIO_01_TO_AIE -> PLIO_01_FROM_AIE" "(max 3): FAIL"
# a timeout shorter than the transaction's board time -> 5
expect 5 "$RT" -q -t 1 -o "$TMP/short" "$EX/loopback_perf_vck190/test.json"
jqis timeout '.tests[0].transactions[0].status' "$TMP/short/report.json"

# --- the CLI
mkdir -p "$TMP/ro" && chmod 555 "$TMP/ro"
if [[ $(id -u) -ne 0 ]]; then
  expect 2 "$RT" -o "$TMP/ro/sub" "$EX/adder_perf/test.json"
  has "$TMP/err" "cannot create"
fi
touch "$TMP/afile"
expect 2 "$RT" -o "$TMP/afile/x" "$EX/adder_perf/test.json"
has "$TMP/err" "output directory"
expect 2 "$RT"
has "$TMP/err" "no test description given"
expect 2 "$RT" --frobnicate x.json
has "$TMP/err" "Try 'run_test --help'"
expect 2 "$RT" -t abc x.json
has "$TMP/err" "--timeout: expected milliseconds"
expect 0 "$RT" --help
has "$TMP/out" "exit codes: 0 all passed"
expect 0 "$RT" --version
has "$TMP/out" "run_test (aieth)"
expect 2 "$RT" -o "$TMP/nofile" "$TMP/does-not-exist.json"
has "$TMP/out" "does-not-exist.json: cannot open"
validate "$TMP/nofile/report.json"
# --board overrides; the reference mode gives the same counters
expect 0 "$RT" -q -o "$TMP/ref" --reference "$EX/adder_perf/test.json"
jqis "$(jq -c '[.tests[0].transactions[0].channels[] | [.first_cycle, .last_cycle]]' "$TMP/adder_perf/report.json")" \
  '[.tests[0].transactions[0].channels[] | [.first_cycle, .last_cycle]] | tostring' "$TMP/ref/report.json"
expect 0 "$RT" -q -o "$TMP/v385" --board vek385 "$EX/tiling/test.json"
jqis vek385 '.tests[0].board' "$TMP/v385/report.json"
# a design xclbin (packaged by th_package): its UUID and SHA-256 in the report
pk=$TMP/pkg; mkdir -p "$pk"
if "$B/tests/gen_package_inputs" --board vck190 --out "$pk" >/dev/null 2>&1 &&
   "$B/bin/th_package" --board vck190 --xsa "$pk/harness.xsa" --libadf "$pk/libadf.a" -o "$pk/design.xclbin" >/dev/null 2>&1; then
  ok
  expect 0 "$RT" -q -o "$TMP/withx" --xclbin "$pk/design.xclbin" "$EX/adder_perf/test.json"
  validate "$TMP/withx/report.json"
  jqis "$("$B/bin/th_package" info "$pk/design.xclbin" | awk '/xclbin UUID/ {print $3}')" '.tests[0].xclbin.uuid' "$TMP/withx/report.json"
  jqis "$(sha256sum "$pk/design.xclbin" | cut -d' ' -f1)" '.tests[0].xclbin.sha256' "$TMP/withx/report.json"
  jqis 0 '.tests[0].xclbin.problems' "$TMP/withx/report.json"
  # a valid xclbin is no warning (a non-xclbin is: explain_failures.sh)
  if grep -q "warning" "$TMP/err"; then bad "a valid xclbin gave a warning: $(cat "$TMP/err")"; else ok; fi
  jqis null '.tests[0].warnings' "$TMP/withx/report.json"
  has "$TMP/withx/junit.xml" 'name="xclbin_uuid"'
else
  bad "could not package a design xclbin with th_package"
fi
# a file that is not an xclbin: an input error (xclbin_gate.sh); with
# --xclbin-warn-only recorded, not fatal on the emulated board
echo "not an xclbin" > "$TMP/junk.xclbin"
expect 2 "$RT" -q -o "$TMP/junkx" --xclbin "$TMP/junk.xclbin" "$EX/adder_perf/test.json"
expect 0 "$RT" -q -o "$TMP/junkx" --xclbin-warn-only --xclbin "$TMP/junk.xclbin" "$EX/adder_perf/test.json"
validate "$TMP/junkx/report.json"
jqis true '.tests[0].xclbin.error | length > 0' "$TMP/junkx/report.json"

# runs from any folder without AIETH_DATA_DIR (data found next to the program)
(cd "$TMP" && env -u AIETH_DATA_DIR "$RT" -q -o "$TMP/nodd" "$EX/adder_perf/test.json" >/dev/null 2>&1); rc=$?
if [[ $rc -eq 0 ]]; then ok; else bad "run_test without AIETH_DATA_DIR exited $rc"; fi
finish
