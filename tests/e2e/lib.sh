# SPDX-License-Identifier: MIT
# Shared helpers for the end-to-end tests (sourced). Environment from the
# Makefile: AIETH_SRC (tree), AIETH_BUILD (build dir), AIETH_DATA_DIR.
set -u
B=${AIETH_BUILD:?run through make}
S=${AIETH_SRC:?run through make}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# expect CODE CMD...: run CMD, compare the exit code
expect() {
  local want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"; local got=$?
  if [[ $got -eq $want ]]; then ok; else bad "$* -> exit $got, expected $want"; cat "$TMP/err" >&2; fi
}
# has FILE TEXT: FILE contains TEXT
has() { if grep -qF -- "$2" "$1"; then ok; else bad "$1 lacks: $2"; sed 's/^/  | /' "$1" >&2; fi; }
finish() { echo "$(basename "$0"): $pass passed, $fail failed"; [[ $fail -eq 0 ]]; }
# moved FILE: the byte counts of run_test's progress lines in FILE
moved() { sed -n 's/.*": \([0-9][0-9]*\) of [0-9][0-9]* bytes moved.*/\1/p' "$1"; }
# run_until_progress N FILE ARGS...: $RT ARGS in the background (pid in RP,
# stderr in FILE, stdout in $TMP/run.out) until FILE shows N progress lines
# with more than 0 bytes (120 s at most); 0 when they came
run_until_progress() {
  local n=$1 err=$2 i; shift 2
  : >"$err"
  "$RT" "$@" >"$TMP/run.out" 2>"$err" &
  RP=$!
  for i in $(seq 1200); do
    [[ $(moved "$err" | awk '$1 > 0' | wc -l) -ge $n ]] && return 0
    kill -0 "$RP" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
# wait_within TENTHS [WHAT]: $RP must exit within TENTHS tenths of a second
# (WHAT: after what, for the message); its exit code in RC (killed after the
# bound: 999). stop_within TENTHS: SIGINT to $RP first
wait_within() {
  local i
  for i in $(seq "$1"); do kill -0 "$RP" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$RP" 2>/dev/null; then
    bad "run_test still running $(($1 / 10)) s${2:+ after $2} on"
    kill -KILL "$RP"; wait "$RP" 2>/dev/null; RC=999; return
  fi
  ok
  wait "$RP"; RC=$?
}
stop_within() { kill -INT "$RP" 2>/dev/null; wait_within "$1" SIGINT; }
# amd_port LOG: the AMD listener's port from th_server's start line (60 s
# at most), into AP
amd_port() {
  local i p=
  for i in $(seq 600); do
    p=$(sed -n "s/.*AMD's protocol on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p" "$1" 2>/dev/null)
    [[ -n $p ]] && break
    sleep 0.1
  done
  [[ -n $p ]] || { bad "no AMD listen line: $(cat "$1")"; finish; exit 1; }
  AP=$p
}
# start_amd LOG ARGS...: th_server with only the AMD listener (log in LOG);
# port in AP, pid in AMDP (killed on exit); stop_amd: SIGTERM to it, which
# must end it with exit 0
start_amd() {
  local log=$1; shift
  : >"$log"
  "$TS" --amd-listen 127.0.0.1:0 "$@" >"$log" 2>&1 &
  AMDP=$!
  PIDS+=("$AMDP")
  amd_port "$log"
}
stop_amd() {
  kill -TERM "$AMDP"; wait "$AMDP"; local rc=$?
  [[ $rc -eq 0 ]] && ok || bad "th_server exit $rc after SIGTERM"
}
# log_has FILE REGEX: until FILE has a line matching REGEX (grep -E; 60 s
# at most): a server writes its log line after its reply, so a test waits
# for the line instead of sleeping
log_has() {
  local i
  for i in $(seq 600); do grep -Eq -- "$2" "$1" && return 0; sleep 0.1; done
  return 1
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# th_package's PDI cache: per script, never the user's ~/.cache
export XDG_CACHE_HOME="$TMP/xdg-cache"
unset AIETH_CACHE_DIR
# AIETH_RUN_WRAPPER (a cross build: "make cross-check" runs the programs under
# qemu-user): $B becomes a copy of the build tree in which each program is a
# script that runs the real one under the wrapper, and every other file is a
# link to the build's own. Unset or empty: nothing changes.
if [[ -n ${AIETH_RUN_WRAPPER:-} ]]; then
  while IFS= read -r -d '' f; do
    w=$TMP/build/${f#"$B"/}
    mkdir -p "${w%/*}"
    if [[ -f $f && -x $f && $f != *.so* ]]; then
      printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$AIETH_RUN_WRAPPER" "$f" >"$w" && chmod +x "$w"
    else ln -s "$f" "$w"; fi
  done < <(find "$B" -mindepth 1 \( -path "$B/obj" -prune -o ! -type d \) -print0)
  B=$TMP/build
fi
# long_perf FILE [BOARD]: a description that keeps the emulated board busy
# for hours in reference mode (every cycle stepped): 4 KiB replayed 4e9
# times through a loopback, little memory (BOARD: vek280 by default). For
# runs that a signal or a time limit must end.
long_perf() {
  cat >"$1" <<J
{"schema": "aieth-test/1", "name": "long_perf", "board": "${2:-vek280}",
 "graphs": [{"name": "loopback", "model": "loopback", "params": {"channels": [1], "window_bytes": 4096}}],
 "transactions": [{"name": "long", "mode": "perf",
   "channels": [
     {"plio": "PLIO_01_TO_AIE", "size": 4096, "repetition": 4000000000, "data": {"pattern": "random", "seed": 1}},
     {"plio": "PLIO_01_FROM_AIE", "size": 4096, "repetition": 4000000000}]}]}
J
}
# xrt_double_env: the xrt backend runs on the XRT C API test double
# (tests/xrt_double/), with no fault injected
xrt_double_env() {
  export AIETH_XRT_LIB=$B/tests/libxrt_double.so
  unset XILINX_XRT XCL_EMULATION_MODE AIETH_XRT_DOUBLE_FAULT
  # ASan builds: the double is loaded into a child of an instrumented program
  export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
}
# start_server LOG ARGS...: th_server ($TS) on 127.0.0.1, a port the system
# picks (read from its start line, 5 s at most); sets U (its URL) and SP
# (its PID, also added to PIDS for the caller's trap)
start_server() {
  local log=$1; shift
  : >"$log"   # exists before the reads below (the job opens it later)
  "$TS" --listen 127.0.0.1:0 "$@" >"$log" 2>&1 &
  SP=$!
  PIDS+=("$SP")
  local i port=
  for i in $(seq 600); do
    port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$log")
    [[ -n $port ]] && break
    sleep 0.1
  done
  if [[ -z $port ]]; then bad "th_server did not start: $(cat "$log")"; finish; exit 1; fi
  U=http://127.0.0.1:$port
}
# th_server_setup: TS is th_server; servers started (PIDS) are killed on
# exit; a build without libmicrohttpd (the aarch64 cross build) has nothing
# to test: the script says so and ends
th_server_setup() {
  TS=$B/bin/th_server
  PIDS=()
  trap 'for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
  : >"$TMP/probe"
  "$TS" --listen 127.0.0.1:0 >"$TMP/probe" 2>&1 &
  local probe=$! i
  for i in $(seq 600); do
    kill -0 "$probe" 2>/dev/null && ! grep -q listening "$TMP/probe" || break
    sleep 0.1
  done
  if kill -0 "$probe" 2>/dev/null; then kill -TERM "$probe"; wait "$probe" 2>/dev/null
  elif grep -q 'no HTTP server' "$TMP/probe"; then
    echo "$(basename "$0"): skipped (no libmicrohttpd in this build)"; exit 0
  fi
}
# norm_report FILE: a report.json without what differs between a local and a
# remote run of the same test (times, ids, host, server, the remote run's
# artifacts), keys sorted: the two must then be equal
norm_report() {
  jq -S 'walk(if type == "object" then del(.duration_s, .id, .argv, .saved_to, .backend,
    .started_at, .finished_at, .hostname, .server, .server_version, .artifacts) else . end)' "$1"
}
# req EXPECTED_STATUS CURL_ARGS...: one request to th_server, its status
# checked; body in $TMP/body, headers in $TMP/hdr (REQ_MAX_S seconds at
# most, default 10)
req() {
  local want=$1; shift
  local got
  got=$(curl -s -m "${REQ_MAX_S:-10}" -D "$TMP/hdr" -o "$TMP/body" -w '%{http_code}' "$@")
  if [[ $got == "$want" ]]; then ok; else bad "curl $* -> $got, expected $want: $(head -c 300 "$TMP/body")"; fi
}
# jbody JQ_PATH VALUE: the last reply's JSON body has that value there
jbody() {
  local got; got=$(jq -r "$1" "$TMP/body" 2>&1)
  if [[ $got == "$2" ]]; then ok; else bad "body $1 = '$got', expected '$2': $(head -c 300 "$TMP/body")"; fi
}
# metric NAME: its value in th_server's /v1/metrics now (at $U)
metric() { curl -s -m 5 "$U/v1/metrics" | awk -v m="$1" '$1 == m {print $2}'; }
# wait_metric NAME VALUE: until the metric has the value (60 s at most)
wait_metric() {
  local i v=
  for i in $(seq 600); do v=$(metric "$1"); [[ $v == "$2" ]] && break; sleep 0.1; done
  [[ $v == "$2" ]] && ok || bad "metric $1 = '$v', expected $2"
}
# stop_server [TENTHS]: SIGTERM to th_server $SP; it must drain and exit 0
# within TENTHS tenths of a second (default 100)
stop_server() {
  kill -TERM "$SP"
  local i
  for i in $(seq "${1:-300}"); do kill -0 "$SP" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$SP" 2>/dev/null; then bad "th_server did not stop on SIGTERM"; kill -KILL "$SP"; fi
  wait "$SP"; local rc=$?
  [[ $rc -eq 0 ]] && ok || bad "th_server exit $rc after SIGTERM"
}
# txn_body SIZE [RX [MORE]]: the body of POST .../txns for a FUNC transaction
# on the VCK190 (36 channels, depth 4096): TX channel 0 sends SIZE bytes, RX
# channel 0 takes RX bytes (SIZE if not given); MORE: JSON members added,
# e.g. '"stream":true' (the cfg words: mode, then TX delay[36] frames[36]
# reps[36] offsets[36], then RX)
txn_body() {
  local N=36 tf=$(($1 / 16)) rf=$((${2:-$1} / 16)) i w=
  for i in $(seq 0 $((8 * N))); do
    case $i in $((1 + N))) w+="\"0x$(printf %x "$tf")\",";;
      $((1 + 5 * N))) w+="\"0x$(printf %x "$rf")\",";;
      $((1 + 2 * N)) | $((1 + 6 * N))) w+='"0x1",';;
      *) w+='"0x0",';; esac
  done
  printf '{"channels":%d,"depth":4096,"tx_bytes":%d,"rx_bytes":%d,"cfg":[%s]%s}' "$N" "$1" \
    "${2:-$1}" "${w%,}" "${3:+,$3}"
}
# hidden_board [TXN_JSON]: the hidden board of run_test calibrate's tests
# (calibrate.sh, calibrate_log.sh): $TMP/hidden.json, vck190 with other
# timing values, and the descriptions DESCS ($TMP/NAME.json) run on it, each
# report in $TMP/h_NAME/. func_loop is a FUNC loopback with three channels
# of different sizes and delays (TXN_JSON: one more transaction in it),
# perf_loop a small PERF loopback with replays (its total_cycles hold the
# preload), adder_func the example, rx_source an RX-only source (an aiesim
# replay without inputs, every window at time 0: its one FUNC RX channel
# runs as fast as the writer loop goes, so the write latency shows in its
# rate, not only through back-pressure).
hidden_board() {
  local d
  /usr/bin/python3 - "$S/platforms/vck190.json" "$TMP/hidden.json" <<'P'
import json, sys
b = json.load(open(sys.argv[1]))
b["func_memory"].update(read_latency_cycles=150, write_latency_cycles=120,
                        loop_overhead_cycles=5)
b["counter_edges"] = {k: 2 for k in b["counter_edges"]}
b["preload_latency_cycles"] = 80
json.dump(b, open(sys.argv[2], "w"), indent=1)
P
  cat >"$TMP/func_loop.json" <<J
{"schema": "aieth-test/1", "name": "func_loop", "board": "vck190",
 "graphs": [{"name": "loopback", "model": "loopback"}],
 "transactions": [{"name": "func3", "mode": "func", "channels": [
  {"plio": "PLIO_01_TO_AIE", "size": 4096, "data": {"pattern": "random", "seed": 1}},
  {"plio": "PLIO_02_TO_AIE", "size": 8192, "delay": 50, "data": {"pattern": "random", "seed": 2}},
  {"plio": "PLIO_03_TO_AIE", "size": 16384, "delay": 200, "data": {"pattern": "random", "seed": 3}},
  {"plio": "PLIO_01_FROM_AIE", "size": 4096, "golden": {"pattern": "random", "seed": 1}},
  {"plio": "PLIO_02_FROM_AIE", "size": 8192, "golden": {"pattern": "random", "seed": 2}},
  {"plio": "PLIO_03_FROM_AIE", "size": 16384, "golden": {"pattern": "random", "seed": 3}}]}${1:+,
  $1}]}
J
  cat >"$TMP/perf_loop.json" <<'J'
{"schema": "aieth-test/1", "name": "perf_loop", "board": "vck190",
 "graphs": [{"name": "loopback", "model": "loopback"}],
 "transactions": [{"name": "perf2", "mode": "perf", "channels": [
  {"plio": "PLIO_01_TO_AIE", "size": 4096, "repetition": 4, "data": {"pattern": "random", "seed": 1}},
  {"plio": "PLIO_02_TO_AIE", "size": 8192, "repetition": 2, "delay": 30, "data": {"pattern": "random", "seed": 2}},
  {"plio": "PLIO_01_FROM_AIE", "size": 4096, "repetition": 4, "golden": {"pattern": "random", "seed": 1}},
  {"plio": "PLIO_02_FROM_AIE", "size": 8192, "repetition": 2, "golden": {"pattern": "random", "seed": 2}}]}]}
J
  cp "$S/examples/adder_func/test.json" "$TMP/adder_func.json"
  cp "$S"/examples/adder_func/*.txt "$TMP/"
  mkdir -p "$TMP/rx_trace"
  /usr/bin/python3 - "$TMP" <<'P'
import json, sys
t = sys.argv[1]
vals = [str(i) for i in range(4096)]
rows = [" ".join(vals[i:i + 4]) for i in range(0, 4096, 4)]
open(t + "/rx_trace/out.txt", "w").write("T 0 ps\n" + "\n".join(rows) + "\n")
open(t + "/rx_golden.txt", "w").write("\n".join(rows) + "\n")
json.dump({"schema": "aieth-test/1", "name": "rx_source", "board": "vck190",
           "graphs": [{"name": "src", "model": "aiesim", "params": {"dir": "rx_trace",
                       "outputs": [{"plio": "PLIO_01_FROM_AIE", "file": "out.txt",
                                    "type": "int32", "window_bytes": 256}]}}],
           "transactions": [{"name": "rx", "mode": "func", "channels": [
               {"plio": "PLIO_01_FROM_AIE", "size": 16384,
                "golden": {"file": "rx_golden.txt", "type": "int32"}}]}]},
          open(t + "/rx_source.json", "w"))
P
  DESCS=(adder_func func_loop perf_loop rx_source)
  for d in "${DESCS[@]}"; do
    expect 0 "$B/bin/run_test" --junit none --html none --charts none --trace none -q \
      -b "$TMP/hidden.json" -o "$TMP/h_$d" "$TMP/$d.json"
  done
}

# chrome_or_finish NAME: the Chromium checks run in the gcc build only (an
# ASan or qemu build skips them: the writers ran above); a machine without
# chromium fails. Ends the script (finish) when they cannot run.
chrome_or_finish() {
  if [[ ${AIETH_SAN:-0} == 1 || -n ${AIETH_RUN_WRAPPER:-} ]]; then
    echo "$1: Chromium checks skipped (ASan or qemu build: they run in the gcc build; the writers ran above)"
    finish; exit
  fi
  if ! command -v chromium >/dev/null; then
    bad "chromium is not installed (scripts/install-deps.sh)"; finish; exit
  fi
}
# chrome PAGE ARGS...: one headless Chromium start on file://PAGE, 30 s at
# most, a profile and HOME of its own under $TMP; stderr in $TMP/cr.err
chrome() {
  local page=$1; shift
  mkdir -p "$TMP/home"
  HOME=$TMP/home timeout -k 5 30 chromium --headless --no-sandbox --disable-gpu --disable-quic \
    --no-first-run --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d "$TMP/prof.XXXXXX")" --enable-logging=stderr --v=0 \
    "$@" "file://$page" 2>"$TMP/cr.err"
}

# free_port: a TCP port free on loopback now
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# start_influxd [auth]: Debian's influxd on loopback (not the service), its
# files under $TMP/influx, its PID added to PIDS; with auth, authentication
# on. Sets IP (its HTTP port) and IU (its URL) once it answers /ping.
start_influxd() {
  local ib i auth=
  [[ ${1:-} == auth ]] && auth='  auth-enabled = true'
  IP=$(free_port); ib=$(free_port)
  mkdir -p "$TMP/influx"
  cat >"$TMP/influx/influxdb.conf" <<CONF
reporting-enabled = false
bind-address = "127.0.0.1:$ib"
[meta]
  dir = "$TMP/influx/meta"
[data]
  dir = "$TMP/influx/data"
  wal-dir = "$TMP/influx/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = "127.0.0.1:$IP"
$auth
  log-enabled = false
[continuous_queries]
  enabled = false
CONF
  influxd run -config "$TMP/influx/influxdb.conf" >"$TMP/influx/log" 2>&1 &
  PIDS+=($!)
  IU=http://127.0.0.1:$IP
  for i in $(seq 100); do curl -s -m 1 -o /dev/null "$IU/ping" && break; sleep 0.1; done
}
# lab_ca DIR: a private lab CA in DIR (ca.crt, ca.key), made as docs/server.md
# makes one. lab_cert DIR NAME SAN [START END]: a server certificate
# DIR/NAME.crt and its key DIR/NAME.key for SAN (e.g.
# "DNS:localhost,IP:127.0.0.1") signed by that CA, valid 2 days from now or
# from START to END (YYYYMMDDHHMMSSZ, through `openssl ca`: a certificate
# that has expired).
lab_ca() {
  mkdir -p "$1"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj "/CN=aieth test lab CA" -keyout "$1/ca.key" -out "$1/ca.crt" 2>/dev/null
}
lab_cert() {
  local d=$1 n=$2 san=$3
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$n" \
    -addext "subjectAltName=$san" -keyout "$d/$n.key" -out "$d/$n.csr" 2>/dev/null || return 1
  if [[ $# -ge 5 ]]; then
    mkdir -p "$d/db"; : >"$d/db/index"; echo 01 >"$d/db/serial"
    printf '%s\n' '[ca]' 'default_ca = lab' '[lab]' "database = $d/db/index" \
      "new_certs_dir = $d/db" "serial = $d/db/serial" 'default_md = sha256' 'policy = any' \
      'copy_extensions = copy' 'unique_subject = no' '[any]' 'commonName = supplied' >"$d/db/ca.cnf"
    openssl ca -batch -notext -config "$d/db/ca.cnf" -cert "$d/ca.crt" -keyfile "$d/ca.key" \
      -in "$d/$n.csr" -startdate "$4" -enddate "$5" -out "$d/$n.crt" 2>/dev/null
  else
    openssl x509 -req -in "$d/$n.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial \
      -days 2 -copy_extensions copy -out "$d/$n.crt" 2>/dev/null
  fi
}
