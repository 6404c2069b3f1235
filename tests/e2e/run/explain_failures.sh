#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Failures explain themselves where people look: every failed check (a
# throughput threshold, a latency bound, a data mismatch, a regression gate)
# names its limit and the measured value in the table, in junit.xml and on
# report.html, and a latency bound a hang left unmeasured says so there; a
# file that is not an xclbin leaves every report valid UTF-8 and is a
# warning on stderr; a plugin model's relative path is the
# description's folder's, from whatever folder run_test runs in.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
PY=/usr/bin/python3
EX=$S/examples/adder_perf
lacks() { if grep -qF -- "$2" "$1"; then bad "$1 has: $2"; sed 's/^/  | /' "$1" >&2; else ok; fi; }
cd "$TMP" || exit 1
cp "$EX"/*.txt .

# edit OUT PYTHON: the adder_perf description, t its transaction, changed
edit() {
  $PY - "$EX/test.json" "$1" "$2" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["transactions"][0]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
P
}
# an output channel 4000 MB/s short of its threshold, a latency 6 cycles
# over its bound (the adder's output starts 16 cycles after its input)
edit thr.json 't["channels"][2]["min_throughput_MBps"] = 9000; t["max_latency"][0]["max_cycles"] = 10'
# one element of the golden data off by one (the 4th int32: byte 12)
awk 'NR == 1 {$4 = $4 + 1} {print}' golden.txt >bad_golden.txt
edit data.json 't["channels"][2]["golden"]["file"] = "bad_golden.txt"'

# --- a missed threshold and latency bound
expect 1 "$RT" -o thr --tap thr.tap thr.json
has thr.tap 'failed: "MB/s 5000.0 < min 9000.0"'
has thr.tap 'failed: "cycles 16 > max 10"'
has "$TMP/out" "fail: MB/s 5000.0 < min 9000.0"
has "$TMP/out" "16 cycles (max 10): FAIL (cycles 16 > max 10)"
has thr/junit.xml '<failure type="threshold" message="MB/s 5000.0 &lt; min 9000.0"/>'
has thr/junit.xml '<failure type="latency" message="cycles 16 &gt; max 10"/>'
has thr/junit.xml 'failures="2"'
lacks thr/junit.xml "see report.json"
has thr/report.html "</span> MB/s 5000.0 &lt; min 9000.0</td>"
has thr/report.html "</span> cycles 16 &gt; max 10</td>"

# --- a latency bound of a transaction that hung: not measured, said so in
# every writer (never "0 cycles ... FAIL"), skipped in junit.xml (not a pass)
mkdir -p hang_in && cp "$S/examples/stall_hang/"*.txt hang_in/
$PY - "$S/examples/stall_hang/test.json" hang_in/test.json <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
d["transactions"][0]["max_latency"] = [{"from": "PLIO_01_TO_AIE", "to": "PLIO_01_FROM_AIE", "max_cycles": 64}]
json.dump(d, open(sys.argv[2], "w"))
P
expect 5 "$RT" -o hang hang_in/test.json
has "$TMP/out" "latency PLIO_01_TO_AIE -> PLIO_01_FROM_AIE: not measured: the transaction timed out (max 64): not checked"
lacks "$TMP/out" "0 cycles (max 64)"
has hang/junit.xml '<skipped message="not measured: the transaction timed out"/>'
has hang/junit.xml 'skipped="1"'
has hang/report.html "<td>not measured: the transaction timed out</td><td>64</td><td>not checked</td>"

# --- a data mismatch
expect 1 "$RT" -o data data.json
why="1 of 1024 elements differ, first at byte 12: got"
has "$TMP/out" "fail: $why"
has data/junit.xml "<failure type=\"data\" message=\"$why"
has data/report.html "</span> $why"
got=$(jq -r '.tests[0].transactions[0].channels[2].integrity.first_mismatch | "got \(.got), expected \(.expected)"' data/report.json)
has "$TMP/out" "$got"

# --- a regression gate: the baseline was 20% faster and took fewer cycles
expect 0 "$RT" -o base "$EX/test.json"
$PY - base/report.json reg.json <<'P'
import json, sys
r = json.load(open(sys.argv[1]))
t = r["tests"][0]["transactions"][0]
t["channels"][2]["throughput_MBps"] = 6000.0
t["total_cycles"] = 1500
json.dump(r, open(sys.argv[2], "w"))
P
expect 1 "$RT" -o reg --baseline reg.json "$EX/test.json"
why="adder_perf.perf.PLIO_01_FROM_AIE throughput_MBps 5000.00, baseline 6000.00 (-16.67%, tolerance 5%)"
has "$TMP/out" "$why"
has "$TMP/out" "adder_perf.perf total_cycles 2000, baseline 1500 (+33.33%, tolerance 5%)"
has reg/junit.xml "<failure type=\"baseline\" message=\"2 values regressed or went missing against the baseline reg.json: "
has reg/junit.xml "$why"
has reg/report.html "$why"
# the page shows the baseline table itself, not a pointer to stdout
has reg/report.html "<h2>Baseline "
has reg/report.html "<td>6000.00</td><td>5000.00</td><td>-16.67%</td><td>5%</td>"
lacks reg/report.html "table on stdout"
# run_test compare writes the same page for two reports
expect 1 "$RT" compare --html cmp.html reg.json base/report.json
has cmp.html "<h2>Baseline "
has cmp.html "<td>6000.00</td><td>5000.00</td><td>-16.67%</td><td>5%</td>"
has cmp.html "$why"
expect 2 "$RT" compare --html

# --- a file that is not an xclbin, with a name that is not UTF-8
bad_name=$'not\xffxclbin.bin'
{ printf 'garbage \xff\xfe\x80 '; head -c 2000 /dev/urandom; } >"$bad_name"
printf 'short \xc3\x28' >short.bin
for x in "$bad_name" short.bin; do
  rm -rf nx
  expect 2 "$RT" -o nx --xclbin "$x" "$EX/test.json"
  has "$TMP/out" "design xclbin"
  rm -rf nx
  expect 0 "$RT" -o nx --xclbin-warn-only --xclbin "$x" "$EX/test.json"
  has "$TMP/err" "run_test: warning: "
  has "$TMP/err" "design xclbin"
  for f in nx/report.json nx/junit.xml nx/report.html nx/trace.json; do
    if $PY -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$f" 2>"$TMP/py"; then ok
    else bad "$f is not valid UTF-8: $(cat "$TMP/py")"; fi
  done
  if $PY -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' nx/report.json 2>"$TMP/py"; then ok
  else bad "json.load(report.json) after --xclbin $x: $(cat "$TMP/py")"; fi
  [[ $(jq -r '.tests[0].warnings | length' nx/report.json) -ge 1 ]] && ok || bad "report.json: no warning for --xclbin $x"
  # run_test compare reads it
  expect 0 "$RT" compare nx/report.json nx/report.json
  $PY "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" nx/report.json >"$TMP/v" 2>&1 && ok || bad "schema: $(cat "$TMP/v")"
done
[[ $(jq -r '.tests[0].xclbin.path' nx/report.json) == short.bin ]] && ok || bad "xclbin path of short.bin"
expect 0 "$RT" -q -o nx2 --xclbin-warn-only --xclbin "$bad_name" "$EX/test.json"
jq -r '.tests[0].xclbin.path' nx2/report.json >path.txt
has path.txt 'not\xffxclbin.bin'

# --- a plugin model given relative to its description, run from elsewhere
mkdir -p desc/plug elsewhere
cp -L "$B/plugins/timed_loopback.so" desc/plug/
seq 1 16 >desc/in.txt
cat >desc/t.json <<'J'
{"schema": "aieth-test/1", "name": "relplug", "board": "vck190",
 "graphs": [{"name": "gr", "iterations": 4, "model": "plug/timed_loopback.so"}],
 "transactions": [{"name": "t", "mode": "perf", "timeout_ms": 5000, "channels": [
   {"plio": "PLIO_01_TO_AIE", "data": {"file": "in.txt", "type": "int32"}},
   {"plio": "PLIO_01_FROM_AIE", "golden": {"file": "in.txt", "type": "int32"}},
   {"plio": "PLIO_02_TO_AIE", "data": {"file": "in.txt", "type": "int32"}},
   {"plio": "PLIO_02_FROM_AIE", "golden": {"file": "in.txt", "type": "int32"}}]}]}
J
cd elsewhere || exit 1
expect 0 "$RT" -o ../rel1 ../desc/t.json
cd / || exit 1
expect 0 "$RT" -o "$TMP/rel2" "$TMP/desc/t.json"
[[ $(jq -r '.tests[0].graphs[0].model' "$TMP/rel2/report.json") == plug/timed_loopback.so ]] && ok || bad "the report's model is not as written"
cd "$TMP/desc" || exit 1
expect 0 "$RT" -o "$TMP/rel3" t.json
finish
