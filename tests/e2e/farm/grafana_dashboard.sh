#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# grafana_dashboard.sh - the shipped Grafana dashboard
# (dist/grafana/aieth-influxdb.json) against the InfluxDB schema run_test
# --upload writes: Debian's influxd on loopback (as in
# farm_upload.sh), real runs uploaded (emulated boards vck190 and vek280,
# the XRT test double, a pass, a failure, a hang), then every query of the
# dashboard run against /query by grafana_queries.py (macros and variables
# replaced), and docs/farm.md's schema table checked against InfluxDB and
# the dashboard. Then the check must fail: a field renamed in the data (as
# an uploader rename would write it), in the dashboard, or in the docs.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
DASH=$S/dist/grafana/aieth-influxdb.json
DOC=$S/docs/farm.md
CHECK=$S/tests/e2e/grafana_queries.py
PIDS=()
trap 'for p in "${PIDS[@]}"; do { kill -KILL "$p"; wait "$p"; } 2>/dev/null; done; rm -rf "$TMP"' EXIT
unset AIETH_UPLOAD_TOKEN AIETH_INFLUX_TOKEN AIETH_UPLOAD_CREDENTIALS
export XDG_STATE_HOME=$TMP/state

jq -e . "$DASH" >/dev/null && ok || bad "$DASH is not JSON"
if ! command -v influxd >/dev/null; then
  echo "grafana_dashboard.sh: the queries not run: no influxd (bash scripts/install-deps.sh installs influxdb)"
  finish; exit
fi
start_influxd
iq() { curl -s -m 10 -XPOST "$IU/query" --data-urlencode "q=$1" >"$TMP/iq"; }
iq "CREATE DATABASE aieth"
grep -q error "$TMP/iq" && bad "CREATE DATABASE: $(cat "$TMP/iq")" || ok
UP=(--spool "$TMP/spool" --upload "influx+http://127.0.0.1:$IP/aieth")

# the runs: a pass, a failure (throughput and latency), a hang, another
# board and test, the XRT test double
mkdir -p "$TMP/d"
cp "$EX"/adder_perf/*.txt "$TMP/d/"
jq '.transactions[0].channels[2].min_throughput_MBps = 9999999 | .transactions[0].max_latency[0].max_cycles = 1' \
  "$EX/adder_perf/test.json" >"$TMP/d/fail.json"
cat >"$TMP/d/loop.json" <<J
{"schema": "aieth-test/1", "name": "loop_perf", "board": "vek280",
 "graphs": [{"name": "gr", "model": "loopback", "params": {"channels": [1], "window_bytes": 256}}],
 "transactions": [{"name": "perf", "mode": "perf",
   "channels": [
     {"plio": "PLIO_01_TO_AIE", "size": 65536, "data": {"pattern": "random", "seed": 1}},
     {"plio": "PLIO_01_FROM_AIE", "size": 65536}],
   "max_latency": [{"from": "PLIO_01_TO_AIE", "to": "PLIO_01_FROM_AIE", "max_cycles": 1000}]}]}
J
expect 0 "$RT" -q -o "$TMP/r1" "${UP[@]}" "$EX/adder_perf/test.json"
expect 1 "$RT" -q -o "$TMP/r2" "${UP[@]}" "$TMP/d/fail.json"
expect 5 "$RT" -q -o "$TMP/r3" "${UP[@]}" "$EX/stall_hang/test.json"
expect 0 "$RT" -q -o "$TMP/r4" "${UP[@]}" "$TMP/d/loop.json" "$EX/adder_perf/test.json"
(
  xrt_double_env
  "$B/tests/xrt_mkxclbin" pl vck190 "$TMP/pl.xclbin" && "$B/tests/xrt_mkxclbin" aie vck190 "$TMP/aie.xclbin" gr
) || bad "xrt_mkxclbin"
AIETH_XRT_LIB=$B/tests/libxrt_double.so AIETH_XRT_DOUBLE_SPEC=$EX/adder_perf/test.json \
  expect 0 "$RT" -q -o "$TMP/r5" --backend xrt --pl-xclbin "$TMP/pl.xclbin" --xclbin "$TMP/aie.xclbin" \
  "${UP[@]}" "$EX/adder_perf/test.json"
for r in r1 r2 r3 r4 r5; do
  [[ $(jq -r '[.uploads[] | .status] | join(",")' "$TMP/$r/report.json") == delivered ]] && ok \
    || bad "$r: not delivered: $(jq -c .uploads "$TMP/$r/report.json")"
done

# -- every query of the dashboard, with the docs' table
if /usr/bin/python3 "$CHECK" "$DASH" "$DOC" "$IU" aieth >"$TMP/q.out" 2>"$TMP/q.err"; then ok
else bad "the dashboard's queries against the uploads"; cat "$TMP/q.err" >&2; fi
n=$(grep -c '^ok ' "$TMP/q.out")
nq=$(jq '[.panels[].targets[]] + [.templating.list[] | select(.type == "query")] | length' "$DASH")
[[ $n -eq $((nq * 3)) ]] && ok || bad "$n query runs passed, expected $((nq * 3)) ($nq queries x 3 value sets)"
echo "grafana_dashboard.sh: $nq queries, $n runs of them answered with series"

# -- and the check fails when a name moves
# (a) the uploader renames a field: the data copied with throughput_MBps
# written as "tput" (what a renamed uploader would write)
iq "CREATE DATABASE renamed"
iq 'SELECT "throughput_MBps" AS "tput", "first", "last", "cycles", "bytes", "utilisation_pct", "verdict", "run_id" INTO "renamed"."autogen"."aieth_channel" FROM "aieth"."autogen"."aieth_channel" GROUP BY *'
iq 'SELECT * INTO "renamed"."autogen"."aieth_test" FROM "aieth"."autogen"."aieth_test" GROUP BY *'
iq 'SELECT * INTO "renamed"."autogen"."aieth_latency" FROM "aieth"."autogen"."aieth_latency" GROUP BY *'
expect 0 /usr/bin/python3 "$CHECK" --expect-fail "$DASH" "$DOC" "$IU" renamed
has "$TMP/err" "aieth_channel: fields documented"
has "$TMP/err" "panel 'Throughput per channel (MB/s)' A [one]"
# (b) the dashboard names a field the schema does not have
jq '(.panels[0].targets[0].query) |= sub("throughput_MBps"; "throughput")' "$DASH" >"$TMP/dash-renamed.json"
expect 0 /usr/bin/python3 "$CHECK" --expect-fail "$TMP/dash-renamed.json" "$DOC" "$IU" aieth
has "$TMP/err" "aieth_channel.throughput is not in"
# ... or groups by a tag that is not there (series come back, without it)
jq '(.panels[1].targets[0].query) |= sub("\"plio\" fill"; "\"channel\" fill")' "$DASH" >"$TMP/dash-tag.json"
expect 0 /usr/bin/python3 "$CHECK" --expect-fail "$TMP/dash-tag.json" "$DOC" "$IU" aieth
has "$TMP/err" "a series without tag 'channel'"
# ... or uses a variable the dashboard does not define
jq '.templating.list[0].name = "tests"' "$DASH" >"$TMP/dash-var.json"
expect 0 /usr/bin/python3 "$CHECK" --expect-fail "$TMP/dash-var.json" "$DOC" "$IU" aieth
has "$TMP/err" '$test is not a variable of the dashboard'
# (c) the docs' table names a field InfluxDB does not hold
sed 's/| `status` (string), `exit_code`, `duration_s`/| `status` (string), `exit`, `duration_s`/' "$DOC" >"$TMP/farm.md"
expect 0 /usr/bin/python3 "$CHECK" --expect-fail "$DASH" "$TMP/farm.md" "$IU" aieth
has "$TMP/err" "aieth_test: fields documented"
finish
