#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Power and temperature beside every test: run_test on
# examples/adder_perf with AIETH_SYSFS_ROOT naming a made sysfs tree
# (Versal SysMon as the xlnx,versal-sysmon IIO device, an INA226 as hwmon)
# reports each sensor's min/max/mean/unit in report.json ("sensors"), the
# series in report.html and trace.json; --no-sensors; --sensor-period's
# limits; no tree, an empty tree, the emulated board without a tree: "not
# available" and exit 0; garbage, truncated and FIFO files: notes, and the
# run ends (bounded by timeout); a device temperature above 100 degC is a
# warning, a max_max above it (since power-on) is not; the xrt backend (the
# XRT test double) samples the same tree; through th_server on loopback: a
# server without a tree (the emulated board) gives "not available" as the
# emulated board does locally, a client's AIETH_SYSFS_ROOT is sampled on the
# client, and a server started with AIETH_SYSFS_ROOT gives its own tree's
# sensors (GET /v1/sensors: a token needed, names only, never the tree's
# path, a FIFO left out without hanging the request).
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
th_server_setup
cp -r "$EX/adder_perf" "$TMP/ap"
SPEC=$TMP/ap/test.json

# mk_tree DIR TEMP_mC: SysMon and an INA226 in DIR
mk_tree() {
  local d=$1/bus/iio/devices/iio:device0 h=$1/class/hwmon/hwmon0
  mkdir -p "$d" "$h" "$1/bus/iio/devices/iio:device1"
  echo xlnx,versal-sysmon >"$d/name"
  echo "$2" >"$d/in_temp160_temp_input"
  echo 30000 >"$d/in_temp161_min_input"
  echo 120000 >"$d/in_temp162_max_max_input"
  echo 800 >"$d/in_voltage0_vccint_input"
  echo 1 >"$d/in_voltage0_vccint_alarm" # not a sensor file
  echo ams >"$1/bus/iio/devices/iio:device1/name"
  echo 50000 >"$1/bus/iio/devices/iio:device1/in_temp0_input"
  echo ina226 >"$h/name"
  echo 2500000 >"$h/power1_input"
  echo 1234 >"$h/curr1_input"
  echo 12000 >"$h/in1_input"
  echo 2 >"$h/in0_input"
}

S1='.tests[0].sensors'
sensor() { jq -c "$S1.sensors[] | select(.name == \"$2\") | [.kind, .unit, .min, .max, .mean, (.samples >= 2), .source]" "$1"; }

# ---- a board's sensors, sampled
mk_tree "$TMP/sys" 45000
AIETH_SYSFS_ROOT=$TMP/sys expect 0 timeout 120 "$RT" -o "$TMP/o1" --html "$TMP/o1/r.html" \
  --trace "$TMP/o1/t.json" "$SPEC"
R=$TMP/o1/report.json
[[ $(jq -r "$S1.status" "$R") == sampled ]] && ok || bad "status $(jq -c "$S1" "$R")"
[[ $(jq -r "$S1 | [.period_ms, .samples_kept_max, .temperature_limit_C, .root] | @csv" "$R") == "1000,600,100,\"$TMP/sys\"" ]] \
  && ok || bad "sampler fields $(jq -c "$S1 | del(.sensors)" "$R")"
[[ $(jq "$S1.sensors | length" "$R") == 8 ]] && ok || bad "sensors $(jq -c "[$S1.sensors[].name]" "$R")"
[[ $(sensor "$R" ina226@hwmon0/power1) == '["power","W",2.5,2.5,2.5,true,"hwmon:ina226"]' ]] && ok \
  || bad "power1 $(sensor "$R" ina226@hwmon0/power1)"
[[ $(sensor "$R" ina226@hwmon0/curr1) == '["current","A",1.234,1.234,1.234,true,"hwmon:ina226"]' ]] && ok \
  || bad "curr1 $(sensor "$R" ina226@hwmon0/curr1)"
[[ $(sensor "$R" ina226@hwmon0/in1) == '["voltage","V",12,12,12,true,"hwmon:ina226"]' ]] && ok \
  || bad "in1 $(sensor "$R" ina226@hwmon0/in1)"
[[ $(sensor "$R" sysmon@iio:device0/temp160_temp) == '["temperature","°C",45,45,45,true,"xlnx,versal-sysmon"]' ]] \
  && ok || bad "temp160 $(sensor "$R" sysmon@iio:device0/temp160_temp)"
[[ $(sensor "$R" sysmon@iio:device0/voltage0_vccint) == '["voltage","V",0.8,0.8,0.8,true,"xlnx,versal-sysmon"]' ]] \
  && ok || bad "vccint $(sensor "$R" sysmon@iio:device0/voltage0_vccint)"
# the series: as many points as samples, times from 0 up
jq -e "$S1.sensors[0] | (.series.t_s | length) == .samples and (.series.value | length) == .samples
  and .series.t_s[0] >= 0 and .series.t_s == (.series.t_s | sort)" "$R" >/dev/null && ok \
  || bad "series $(jq -c "$S1.sensors[0]" "$R")"
# the ams IIO device is not SysMon; max_max (since power-on) above 100 degC is no warning
jq -e "[$S1.sensors[].name | select(startswith(\"sysmon@iio:device1\"))] == []" "$R" >/dev/null && ok || bad "ams sampled"
jq -e '.tests[0].warnings == null and .tests[0].status == "pass"' "$R" >/dev/null && ok \
  || bad "warnings $(jq -c .tests[0].warnings "$R")"
has "$TMP/o1/r.html" "Power and temperature"
has "$TMP/o1/r.html" "ina226@hwmon0/power1"
has "$TMP/o1/r.html" '<polyline fill="none"'
jq -e '[.traceEvents[] | select(.ph == "C" and .name == "ina226@hwmon0/power1" and .args.W == 2.5)] | length >= 2' \
  "$TMP/o1/t.json" >/dev/null && ok || bad "trace counters $(jq -c '[.traceEvents[] | select(.ph == "C")][0]' "$TMP/o1/t.json")"

# ---- --no-sensors; the period's limits (usage errors, before any run)
AIETH_SYSFS_ROOT=$TMP/sys expect 0 "$RT" -o "$TMP/o2" --no-sensors "$SPEC"
[[ $(jq -c "$S1 | [.status, .reason, .sensors]" "$TMP/o2/report.json") == '["off","--no-sensors",[]]' ]] && ok \
  || bad "no-sensors $(jq -c "$S1" "$TMP/o2/report.json")"
for p in 99 60001 0 abc -5 1e3 ""; do
  expect 2 "$RT" -o "$TMP/o3" --sensor-period "$p" "$SPEC"
  has "$TMP/err" "--sensor-period: expected milliseconds 100..60000, got"
done
[[ ! -e $TMP/o3/report.json ]] && ok || bad "a report after a usage error"
for p in 100 60000; do
  AIETH_SYSFS_ROOT=$TMP/sys expect 0 timeout 120 "$RT" -o "$TMP/o4" --sensor-period "$p" "$SPEC"
  [[ $(jq -r "$S1.period_ms" "$TMP/o4/report.json") == "$p" ]] && ok || bad "period $p"
done

# ---- missing sensors: not available, never an error
mkdir -p "$TMP/empty"
for root in "$TMP/empty" "$TMP/nonexistent"; do
  AIETH_SYSFS_ROOT=$root expect 0 "$RT" -o "$TMP/o5" "$SPEC"
  [[ $(jq -c "$S1 | [.status, .sensors]" "$TMP/o5/report.json") == '["not available",[]]' ]] && ok \
    || bad "$root: $(jq -c "$S1" "$TMP/o5/report.json")"
done
(unset AIETH_SYSFS_ROOT; expect 0 "$RT" -o "$TMP/o6" "$SPEC")
[[ $(jq -c "$S1 | [.status, (.reason | startswith(\"not sampled on the emulated board\"))]" "$TMP/o6/report.json") == '["not available",true]' ]] \
  && ok || bad "emu $(jq -c "$S1" "$TMP/o6/report.json")"
# a test that never ran says so
AIETH_SYSFS_ROOT=$TMP/sys expect 2 "$RT" -o "$TMP/o7" --board nosuchboard "$SPEC"
[[ $(jq -r "$S1.status" "$TMP/o7/report.json") == "not available" ]] && ok || bad "not run $(jq -c "$S1" "$TMP/o7/report.json")"

# ---- hostile files: garbage, truncated, a FIFO nobody writes, a value
# that goes bad: notes, the good sensors sampled, the run ends
mk_tree "$TMP/bad" 45000
H=$TMP/bad/class/hwmon
echo 'not a number' >"$H/hwmon0/in0_input"
printf '%0200d\n' 7 >"$H/hwmon0/curr1_input"
printf '' >"$H/hwmon0/in1_input"
mkdir -p "$H/hwmon1"
echo slow >"$H/hwmon1/name"
mkfifo "$H/hwmon1/temp1_input"
rm "$TMP/bad/bus/iio/devices/iio:device1/name"
mkfifo "$TMP/bad/bus/iio/devices/iio:device1/name"
AIETH_SYSFS_ROOT=$TMP/bad expect 0 timeout 120 "$RT" -o "$TMP/o8" "$SPEC"
R=$TMP/o8/report.json
[[ $(jq -c "[$S1.status, ($S1.sensors | length)]" "$R") == '["sampled",5]' ]] && ok \
  || bad "hostile: $(jq -c "[$S1.sensors[].name]" "$R")"
for n in 'hwmon0/in0_input: not a number' 'hwmon0/curr1_input: more than 63 bytes' \
  'hwmon0/in1_input: not a number' 'hwmon1/temp1_input: '; do
  jq -e --arg n "$n" "[$S1.notes[] | select(contains(\$n))] | length == 1" "$R" >/dev/null && ok \
    || bad "note '$n': $(jq -c "$S1.notes" "$R")"
done

# ---- the device temperature past 100 degC: a warning of the test
mk_tree "$TMP/hot" 105500
AIETH_SYSFS_ROOT=$TMP/hot expect 0 "$RT" -o "$TMP/o9" "$SPEC"
R=$TMP/o9/report.json
jq -e '.tests[0].status == "pass" and (.tests[0].warnings | length) == 1' "$R" >/dev/null && ok \
  || bad "hot: $(jq -c .tests[0].warnings "$R")"
has "$R" 'sensors: device temperature 105.5 °C (sysmon@iio:device0/temp160_temp) above 100 °C'
has "$TMP/err" 'run_test: warning:'
has "$TMP/err" 'device temperature 105.5 °C'

# ---- every report above against docs/report.schema.json
PY=/usr/bin/python3
for o in o1 o2 o5 o6 o7 o8 o9; do
  if $PY "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$TMP/$o/report.json" >"$TMP/schema" 2>&1
  then ok; else bad "$o: schema"; cat "$TMP/schema" >&2; fi
done

# ---- the xrt backend (the XRT test double) reads the same tree
if [[ -e $B/tests/libxrt_double.so ]]; then
  (
    xrt_double_env
    MK=$B/tests/xrt_mkxclbin
    "$MK" pl vck190 "$TMP/pl.xclbin" && "$MK" aie vck190 "$TMP/aie.xclbin" gr || exit 9
    AIETH_XRT_DOUBLE_SPEC=$SPEC AIETH_SYSFS_ROOT=$TMP/sys timeout 120 "$RT" --backend xrt \
      --pl-xclbin "$TMP/pl.xclbin" --xclbin "$TMP/aie.xclbin" -o "$TMP/o10" "$SPEC" >"$TMP/out" 2>&1
  ) && ok || { bad "xrt run"; cat "$TMP/out" >&2; }
  [[ $(jq -c "[$S1.status, ($S1.sensors | length)]" "$TMP/o10/report.json") == '["sampled",8]' ]] && ok \
    || bad "xrt: $(jq -c "$S1 | del(.sensors)" "$TMP/o10/report.json")"
else
  bad "the XRT test double is not built"
fi

# ---- through th_server: the same as the emulated board locally
TOK=sensors-test-token-0123456789
printf 'ci %s\n' "$TOK" >"$TMP/tokens"
chmod 600 "$TMP/tokens"
printf '%s\n' "$TOK" >"$TMP/token"
start_server "$TMP/log" --token-file "$TMP/tokens" --idle-timeout 60 --max-wait 120
REM=(--backend remote --server "$U" --token-file "$TMP/token")
(unset AIETH_SYSFS_ROOT; expect 0 timeout 120 "$RT" "${REM[@]}" -o "$TMP/r1" "$SPEC")
[[ $(jq -c "$S1 | [.status, .reason == \"$(jq -r "$S1.reason" "$TMP/o6/report.json")\"]" "$TMP/r1/report.json") \
  == '["not available",true]' ]] && ok || bad "remote: $(jq -c "$S1" "$TMP/r1/report.json")"
AIETH_SYSFS_ROOT=$TMP/sys expect 0 timeout 120 "$RT" "${REM[@]}" -o "$TMP/r2" --sensor-period 200 "$SPEC"
[[ $(jq -c "[$S1.status, $S1.period_ms, ($S1.sensors | length)]" "$TMP/r2/report.json") == '["sampled",200,8]' ]] \
  && ok || bad "remote with a tree: $(jq -c "$S1 | del(.sensors)" "$TMP/r2/report.json")"
# the server without a tree says so itself: its board is emulated
req 200 -H "Authorization: Bearer $TOK" "$U/v1/sensors"
jbody '[.available, (.sensors | length), (.notes | length)] | @csv' 'false,0,0'

# ---- through th_server: the server's own tree (a hot SysMon, other
# values than the client's, a FIFO nobody writes and garbage beside them)
mk_tree "$TMP/srv" 105500
SH=$TMP/srv/class/hwmon
echo 3500000 >"$SH/hwmon0/power1_input"
echo 'not a number' >"$SH/hwmon0/in0_input"
mkdir -p "$SH/hwmon1"
echo slow >"$SH/hwmon1/name"
mkfifo "$SH/hwmon1/temp1_input"
AIETH_SYSFS_ROOT=$TMP/srv start_server "$TMP/log2" --token-file "$TMP/tokens" --idle-timeout 60 --max-wait 120
REM2=(--backend remote --server "$U" --token-file "$TMP/token")
# the request ends although a sensor file never answers
REQ_MAX_S=5 req 200 -H "Authorization: Bearer $TOK" "$U/v1/sensors"
jbody '[.available, (.sensors | length)] | @csv' 'true,7'
jbody '[.sensors[] | select(.name == "ina226@hwmon0/power1") | .kind, .unit, .value, .source] | @csv' \
  '"power","W",3.5,"hwmon:ina226"'
jbody '[.sensors[] | keys | join(",")] | unique | .[]' 'kind,name,source,unit,value'
jbody '[.notes[] | select(startswith("slow@hwmon1/temp1: ") or startswith("ina226@hwmon0/in0: not a number"))] | length' 2
! grep -qF -e "$TMP" -e class/hwmon -e bus/iio "$TMP/body" && ok || bad "the reply names a server path: $(cat "$TMP/body")"
req 401 "$U/v1/sensors"
req 401 -H "Authorization: Bearer not-$TOK" "$U/v1/sensors"
req 405 -X POST -H "Authorization: Bearer $TOK" "$U/v1/sensors"
# the client has no tree: the report holds the server's sensors
(unset AIETH_SYSFS_ROOT; expect 0 timeout 120 "$RT" "${REM2[@]}" -o "$TMP/r3" --sensor-period 100 "$SPEC")
R=$TMP/r3/report.json
[[ $(jq -c "[$S1.status, $S1.period_ms, ($S1.sensors | length), has(\"root\")]" "$R") == '["sampled",100,7,false]' ]] \
  && ok || bad "remote, the server's tree: $(jq -c "$S1 | del(.sensors)" "$R")"
[[ $(sensor "$R" ina226@hwmon0/power1) == '["power","W",3.5,3.5,3.5,true,"hwmon:ina226"]' ]] && ok \
  || bad "remote power1 $(sensor "$R" ina226@hwmon0/power1)"
[[ $(sensor "$R" sysmon@iio:device0/temp160_temp) == '["temperature","°C",105.5,105.5,105.5,true,"xlnx,versal-sysmon"]' ]] \
  && ok || bad "remote temp160 $(sensor "$R" sysmon@iio:device0/temp160_temp)"
jq -e "[$S1.sensors[] | has(\"path\")] | any | not" "$R" >/dev/null && ok || bad "remote: a path in a sensor"
jq -e "[$S1.sensors[] | select(.device_temperature)] | map(.name) == [\"sysmon@iio:device0/temp160_temp\", \"sysmon@iio:device0/temp161_min\"]" \
  "$R" >/dev/null && ok || bad "remote device temperatures $(jq -c "[$S1.sensors[] | select(.device_temperature) | .name]" "$R")"
jq -e "[$S1.notes[] | select(startswith(\"slow@hwmon1/temp1: \"))] | length == 1" "$R" >/dev/null && ok \
  || bad "remote notes $(jq -c "$S1.notes" "$R")"
! grep -qF "$TMP/srv" "$R" && ok || bad "the report names the server's tree"
# the hot SysMon of the server's board: the same warning as locally
has "$R" 'sensors: device temperature 105.5 °C (sysmon@iio:device0/temp160_temp) above 100 °C'
jq -e '.tests[0].status == "pass"' "$R" >/dev/null && ok || bad "remote hot: $(jq -c .tests[0].status "$R")"
if $PY "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$R" >"$TMP/schema" 2>&1
then ok; else bad "r3: schema"; cat "$TMP/schema" >&2; fi
# a client's own tree is its own: AIETH_SYSFS_ROOT on the client wins
AIETH_SYSFS_ROOT=$TMP/sys expect 0 timeout 120 "$RT" "${REM2[@]}" -o "$TMP/r4" "$SPEC"
[[ $(jq -c "[$S1.root, ($S1.sensors | length)]" "$TMP/r4/report.json") == "[\"$TMP/sys\",8]" ]] && ok \
  || bad "remote, the client's tree: $(jq -c "$S1 | del(.sensors)" "$TMP/r4/report.json")"
finish
