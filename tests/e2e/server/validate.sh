#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_test validate, the board health suite: each level on the emulated
# board, on the xrt test double and through th_server; the numbered tests,
# their verdicts and SKIPPED reasons in report.json and junit.xml; the exit
# codes (0 passed, 1 a channel fails via a plugin or the model's params, 4
# the board unusable, 5 a hang, 2 usage); the level-3 latency files taken
# by run_test calibrate.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
th_server_setup

# verdicts OUT: "N VERDICT" per test of OUT/report.json, one line
verdicts() { jq -r '[.tests[] | "\(.validate.number) \(.validate.verdict)"] | join(",")' "$1/report.json"; }
# has OUT JQ VALUE: report.json of OUT has VALUE at JQ
has() {
  local got; got=$(jq -r "$2" "$1/report.json" 2>&1)
  if [[ $got == "$3" ]]; then ok; else bad "$1: $2 = '$got', expected '$3'"; fi
}

# --- level 1 on the emulated board: what applies passes, the rest SKIPPED
expect 0 "$RT" validate -o "$TMP/l1"
has "$TMP/l1" '.tests | length' 8
has "$TMP/l1" '[.tests[].validate.number] | join(" ")' "1 2 3 4 5 6 7 8"
has "$TMP/l1" '[.tests[] | select(.validate.verdict == "SKIPPED") | .validate.number] | join(" ")' "3 4 6 7"
has "$TMP/l1" '[.tests[] | select(.validate.verdict == "SKIPPED" and ((.validate.reason // "") | length) < 20)] | length' 0
has "$TMP/l1" '.tests[2].validate.reason' "the emulated board has no XRT, xclbin or AI Engine driver"
has "$TMP/l1" '.tests[0].name' "validate 01 board files"
has "$TMP/l1" '.run.validate.level' 1
grep -q '\[ 3/8\] XRT  *SKIPPED: the emulated board' "$TMP/err" && ok || bad "no progress line: $(cat "$TMP/err")"
[[ $(grep -c '<testsuite ' "$TMP/l1/junit.xml") == 8 ]] && ok || bad "junit.xml: not 8 suites"
grep -q 'skipped="1"' "$TMP/l1/junit.xml" && ok || bad "junit.xml: no skipped suite"
[[ $(grep -c "<skipped message=" "$TMP/l1/junit.xml") == 4 ]] && ok || bad "junit.xml: not 4 skipped cases"
grep -q "the emulated board has no XRT, xclbin or AI Engine driver" "$TMP/l1/report.html" && ok || bad "report.html: no SKIPPED reason"
# the board files' test: its figures, but the board once (the test's row)
grep -q '<th class="l">pl_kernel</th><td>vck190_test_harness</td>' "$TMP/l1/report.html" && ok || bad "report.html: no pl_kernel figure"
[[ $(sed -n '/<section id="t0">/,/<\/section>/p' "$TMP/l1/report.html" | grep -c '>board</th>') == 1 ]] && ok ||
  bad "report.html: the board files' test names its board twice"
# (checked below for every level and outcome)

# --- level 2: every channel pair; the figures stated
expect 0 "$RT" validate -q --level 2 -o "$TMP/l2"
has "$TMP/l2" '[.tests[8:][] | .validate.verdict] | unique | join(",")' "PASSED"
has "$TMP/l2" '.tests[8].validate.figures.channels' 36
has "$TMP/l2" '.tests[10].validate.figures.channels_checked' 72
has "$TMP/l2" '.tests[11].validate.figures.pass_fraction' 0.95
has "$TMP/l2" '.tests[11].validate.figures.min_fraction >= 0.95' true
has "$TMP/l2" '.tests[12].validate.figures.worst_error_cycles <= 64' true

# --- level 3: the soak and the latency pair run_test calibrate takes
expect 0 "$RT" validate -q --level 3 --soak-s 1 -o "$TMP/l3"
has "$TMP/l3" '.tests | length' 15
has "$TMP/l3" '.tests[13].validate.figures.rounds >= 1' true
has "$TMP/l3" '.tests[14].validate.figures.read_latency_cycles_min' 64
has "$TMP/l3" '.tests[14].validate.figures.emulator_read_latency_cycles' 64
expect 0 "$RT" calibrate -q --board vck190 -o "$TMP/fitted.json" \
  "$TMP/l3/calibration/latency_test.json=$TMP/l3/calibration/latency_report.json"
# a board whose read latency is 150: the measurement says 150
jq '.func_memory.read_latency_cycles = 150' "$S/platforms/vck190.json" >"$TMP/slow.json"
sed -i "s|\"cfg/|\"$S/cfg/|g" "$TMP/slow.json"
expect 0 "$RT" validate -q --level 3 --soak-s 1 --board "$TMP/slow.json" -o "$TMP/l3s"
has "$TMP/l3s" '.tests[14].validate.figures.read_latency_cycles_min' 150

# --- a channel that fails: data (a plugin), rate (the model's params)
expect 1 "$RT" validate -q --level 2 --channels 2 --model "$B/plugins/flaky_copy.so" \
  --model-params '{"bad_iteration":3}' -o "$TMP/bad_data"
has "$TMP/bad_data" '.tests[8].validate.verdict' FAILED
has "$TMP/bad_data" '.tests[8].validate.reason | startswith("PLIO_01_FROM_AIE: data differs from PLIO_01_TO_AIE")' true
has "$TMP/bad_data" '.tests[8].status' fail
grep -q '<failure' "$TMP/bad_data/junit.xml" && ok || bad "junit.xml: no failure"
expect 1 "$RT" validate -q --level 2 --model-params '{"cycles_per_iteration":2}' -o "$TMP/slow_rate"
has "$TMP/slow_rate" '.tests[11].validate.verdict' FAILED
has "$TMP/slow_rate" '.tests[11].validate.figures.min_fraction | . > 0.49 and . < 0.51' true
# between 80 and 95 %: PASSED WITH WARNINGS, exit 0
expect 0 "$RT" validate -q --level 2 --model-params '{"window_bytes":4096,"cycles_per_iteration":290}' -o "$TMP/warn_rate"
has "$TMP/warn_rate" '.tests[11].validate.verdict' "PASSED WITH WARNINGS"
has "$TMP/warn_rate" '.tests[11].warnings | length' 1

# --- a hang: exit 5, the stuck channels named, the rest SKIPPED
expect 5 "$RT" validate -q --level 3 --model-params '{"channels":[1]}' -o "$TMP/hang"
has "$TMP/hang" '.tests[8].status' timeout
has "$TMP/hang" '.tests[8].validate.reason | test("PLIO_02_TO_AIE moved 0 of 4096 bytes")' true
has "$TMP/hang" '[.tests[9:][] | .validate.reason] | unique | join(",")' "the board hung in test 9: reset it before testing further"

# --- the board unusable: exit 4
expect 4 "$RT" validate -q --board nosuch -o "$TMP/nob"
has "$TMP/nob" '.tests[0].validate.verdict' FAILED
has "$TMP/nob" '[.tests[1:][] | .validate.verdict] | unique | join(",")' SKIPPED

# --- usage
expect 2 "$RT" validate --level 4
expect 2 "$RT" validate --soak-s 0
expect 2 "$RT" validate --soak-s 86401
expect 2 "$RT" validate --backend nosuch
expect 2 "$RT" validate --backend xrt --model x.so
expect 2 "$RT" validate extra
expect 0 "$RT" validate --help

# --- the xrt test double: level 1 XRT and the xclbins, level 3 through it
xrt_double_env
# the AI Engine driver's sysfs tree, standing in for /sys (one healthy tile)
mkdir -p "$TMP/sys/class/aie/aiepart_0_50/25_1"
printf 'status: enable\npc: 0x00000010\n' >"$TMP/sys/class/aie/aiepart_0_50/25_1/core"
export AIETH_SYSFS_ROOT=$TMP/sys
MK=$B/tests/xrt_mkxclbin
"$MK" pl vck190 "$TMP/pl.xclbin" && "$MK" aie vck190 "$TMP/lb.xclbin" loopback || bad mkxclbin
expect 0 "$RT" validate -q --backend xrt --pl-xclbin "$TMP/pl.xclbin" -o "$TMP/x1"
has "$TMP/x1" '.tests[2].validate.verdict' "PASSED WITH WARNINGS"
has "$TMP/x1" '.tests[3].validate.figures.pl_xclbin.uuid | length' 36
has "$TMP/x1" '.tests[4].validate.reason | startswith("no loopback design: give --xclbin")' true
has "$TMP/x1" '.tests[5].validate.verdict' PASSED
has "$TMP/x1" '.tests[5].validate.figures.partitions | join(",")' aiepart_0_50
has "$TMP/x1" '.tests[6].validate.verdict' PASSED
has "$TMP/x1" '.tests[6].validate.figures.tiles_read' 1
# a tile stalled before any test: a warning that names it
mkdir -p "$TMP/sys_stuck/class/aie/aiepart_0_50/25_1"
printf 'status: enable|west_lock_stall\npc: 0x00000230\n' >"$TMP/sys_stuck/class/aie/aiepart_0_50/25_1/core"
AIETH_SYSFS_ROOT=$TMP/sys_stuck expect 0 "$RT" validate -q --backend xrt --pl-xclbin "$TMP/pl.xclbin" -o "$TMP/x1s"
has "$TMP/x1s" '.tests[6].validate.verdict' "PASSED WITH WARNINGS"
has "$TMP/x1s" '.tests[6].validate.reason | test("1 tile\\(s\\) look stuck before any test ran \\(core \\(25,1\\)")' true
# no AI Engine driver: the board cannot run a graph (exit 4)
AIETH_SYSFS_ROOT=$TMP/nosys expect 4 "$RT" validate -q --backend xrt --pl-xclbin "$TMP/pl.xclbin" -o "$TMP/x1n"
has "$TMP/x1n" '.tests[5].validate.verdict' FAILED
has "$TMP/x1n" '.tests[5].validate.reason | startswith("no AI Engine driver")' true
has "$TMP/x1n" '.tests[6].validate.verdict' SKIPPED
AIETH_XRT_DOUBLE_SPEC=$S/examples/loopback_perf_vck190/test.json expect 0 "$RT" validate -q \
  --backend xrt --pl-xclbin "$TMP/pl.xclbin" --xclbin "$TMP/lb.xclbin" --level 3 --soak-s 1 -o "$TMP/x3"
has "$TMP/x3" '[.tests[8:][] | .validate.verdict] | unique | join(",")' PASSED
has "$TMP/x3" '.tests[4].validate.figures.xclbin.path' "$TMP/lb.xclbin"
expect 4 "$RT" validate -q --backend xrt --pl-xclbin "$TMP/nosuch.xclbin" -o "$TMP/xbad"
has "$TMP/xbad" '.tests[3].validate.verdict' FAILED
unset AIETH_XRT_LIB AIETH_SYSFS_ROOT

# --- through th_server: the built-in loopback model, every level
TOK=validate-test-token-0123456789
printf 'ci %s\n' "$TOK" >"$TMP/tokens"; chmod 600 "$TMP/tokens"
printf '%s\n' "$TOK" >"$TMP/token"
start_server "$TMP/log" --token-file "$TMP/tokens"
expect 0 "$RT" validate -q --backend remote --server "$U" --token-file "$TMP/token" --level 3 \
  --soak-s 1 -o "$TMP/r3"
has "$TMP/r3" '[.tests[] | .validate.verdict] | join(",")' \
  "PASSED,PASSED WITH WARNINGS,SKIPPED,SKIPPED,PASSED,SKIPPED,SKIPPED,PASSED,PASSED,PASSED,PASSED,PASSED,PASSED,PASSED,PASSED"
has "$TMP/r3" '.tests[2].validate.reason | test("th_server")' true
has "$TMP/r3" '.tests[14].validate.figures.read_latency_cycles_min' 64
# POST /v1/validate: the same suite on the server's board, queued as a
# session; the last result in /v1/health and the metrics
J="Content-Type: application/json"
A="Authorization: Bearer $TOK"
req 200 -H "$A" "$U/v1/health"
jbody .last_validate null
[[ $(curl -s -m 5 -H "$A" "$U/v1/metrics" | awk '$1 == "aieth_validate_last_exit_code" {print $2}') == 255 ]] && ok ||
  bad "aieth_validate_last_exit_code before any validate is not 255"
REQ_MAX_S=120 req 200 -X POST -H "$A" -H "$J" -d '{"level": 2}' "$U/v1/validate"
jbody .exit_code 0
jbody '.report.tests | length' 13
jbody '.report.tests[8].validate.verdict' PASSED
jbody '.report.run.validate.level' 2
req 200 "$U/v1/health"
jbody .last_validate.healthy true
jbody .last_validate.level 2
jbody .last_validate.passed 9
jbody .last_validate.skipped 4
[[ $(curl -s -m 5 -H "$A" "$U/v1/metrics" | awk '$1 == "aieth_validate_total" {print $2}') == 1 ]] && ok ||
  bad "aieth_validate_total is not 1"
REQ_MAX_S=120 req 200 -X POST -H "$A" -H "$J" -d '{"level": 3, "soak_s": 1}' "$U/v1/validate"
jbody '.report.tests[14].validate.verdict' PASSED
# bounded, token required
req 401 -X POST -H "$J" -d '{"level": 1}' "$U/v1/validate"
req 400 -X POST -H "$A" -H "$J" -d '{"level": 4}' "$U/v1/validate"
jbody .error.message "POST /v1/validate: request body level: 4 is outside 1..3"
# parsed as strictly as every request body: a key twice, trailing bytes
req 400 -X POST -H "$A" -H "$J" -d '{"level": 1, "level": 3}' "$U/v1/validate"
req 400 -X POST -H "$A" -H "$J" -d '{"level": 1} x' "$U/v1/validate"
req 400 -X POST -H "$A" -H "$J" -d '{"soak_s": 601}' "$U/v1/validate"
req 400 -X POST -H "$A" -H "$J" -d '{"lvl": 1}' "$U/v1/validate"
req 400 -X POST -H "$A" -H "$J" -d '[1]' "$U/v1/validate"
req 405 -H "$A" "$U/v1/validate"
# while a session holds the board, validate waits its turn (FCFS)
"$RT" validate -q --backend remote --server "$U" --token-file "$TMP/token" --level 3 --soak-s 3 \
  -o "$TMP/r_hold" >/dev/null 2>&1 &
hold=$!
for _ in $(seq 300); do
  [[ $(curl -s -m 5 -H "$A" "$U/v1/metrics" | awk '$1 == "aieth_sessions_active" {print $2}') == 1 ]] && break
  sleep 0.1
done
curl -s -m 120 -X POST -H "$A" -H "$J" -d '{"level": 1}' -o "$TMP/queued.json" "$U/v1/validate" &
qp=$!
q=
for _ in $(seq 300); do
  q=$(curl -s -m 5 -H "$A" "$U/v1/metrics" | awk '$1 == "aieth_queue_length" {print $2}')
  [[ $q == 1 ]] && break
  sleep 0.1
done
[[ $q == 1 ]] && ok || bad "POST /v1/validate did not wait in the queue (queue length $q)"
wait "$qp" && ok || bad "the queued POST /v1/validate failed"
[[ $(jq -r .exit_code "$TMP/queued.json") == 0 ]] && ok || bad "queued validate: $(head -c 300 "$TMP/queued.json")"
wait "$hold" && ok || bad "the held validate failed"
# every report.json against the schema
/usr/bin/python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$TMP"/*/report.json \
  "$TMP/l3/calibration/latency_report.json" >"$TMP/schema" 2>&1 && ok ||
  bad "report.json against the schema: $(head -c 2000 "$TMP/schema")"
# no token: the device cannot be opened, exit 4
expect 4 "$RT" validate -q --backend remote --server "$U" -o "$TMP/r_notok"
has "$TMP/r_notok" '.tests[7].validate.verdict' FAILED
# POST /v1/validate over TLS: the suite reaches its own listener at
# 127.0.0.1, which its certificate (board.lab's) does not name and no CA
# of the server vouches for; it trusts the key the server loaded (pinned)
if command -v openssl >/dev/null; then
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/tls.key" -out "$TMP/tls.crt" -days 2 \
    -subj /CN=board.lab -addext "subjectAltName=DNS:board.lab" >/dev/null 2>&1
  start_server "$TMP/log_tls" --token-file "$TMP/tokens" --tls-cert "$TMP/tls.crt" --tls-key "$TMP/tls.key"
  P=${U##*:}
  TLS=(--cacert "$TMP/tls.crt" --resolve "board.lab:$P:127.0.0.1")
  REQ_MAX_S=120 req 200 "${TLS[@]}" -X POST -H "$A" -H "$J" -d '{"level": 1}' "https://board.lab:$P/v1/validate"
  jbody .exit_code 0
  jbody '.report.tests[0].validate.verdict' PASSED
  jbody '[.report.tests[] | select(.validate.verdict == "FAILED")] | length' 0
  req 200 "${TLS[@]}" "https://board.lab:$P/v1/health"
  jbody .last_validate.healthy true
  jbody .last_validate.level 1
  # the pin is this listener's only: a client still verifies the server as
  # ever (no CA: the device cannot be opened, exit 4, the certificate named)
  expect 4 "$RT" validate -q --backend remote --server "https://127.0.0.1:$P" --token-file "$TMP/token" \
    -o "$TMP/r_tls_noca"
  has "$TMP/r_tls_noca" '[.tests[].error.message // empty] | join(" ") | test("certificate")' true
fi
finish
