#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_server --amd-listen on loopback with the emulated board, driven by our
# client of AMD's protocol (tests/tools/amd_client.c, written from the
# specification): full sessions compared with the local emulated board,
# device mismatch, accepted = 0 past --max-memory, a malformed frame, 16
# clients at once, the queue shared with HTTP sessions, clients killed mid-upload and
# mid-transaction; the server stays healthy after every fault. Every wait
# is bounded; servers are stopped by the trap or by the test.
. "$(dirname "$0")/../lib.sh"
th_server_setup
AC=$B/tests/amd_client
M='adder:{"in0":"PLIO_01_TO_AIE","in1":"PLIO_03_TO_AIE","out":"PLIO_02_FROM_AIE","window_bytes":4096}'

healthy() {
  if [[ $(curl -s -m 5 -o /dev/null -w '%{http_code}' "$U/v1/health") == 200 ]]; then ok
  else bad "server not healthy after $1"; fi
}
# wait_line FILE TEXT: up to 10 s
wait_line() {
  local i
  for i in $(seq 100); do grep -qF -- "$2" "$1" && return 0; sleep 0.1; done
  bad "$1 never showed: $2"; return 1
}
jq_is() {
  local got; got=$(jq -r "$2" <<<"$1" 2>&1)
  if [[ $got == "$3" ]]; then ok; else bad "$2 = '$got', expected '$3': $1"; fi
}

# --- options
expect 0 "$TS" --help
has "$TMP/out" "--amd-listen ADDR:PORT"
has "$TMP/out" "--graph-model NAME=MODEL[:JSON]"
expect 2 "$TS" --amd-listen 0.0.0.0:0
has "$TMP/err" "AMD's protocol has no authentication"
expect 2 "$TS" --amd-listen 127.0.0.1:0 --graph-model noequals
has "$TMP/err" "NAME=MODEL[:JSON-params] is needed"
expect 2 "$TS" --amd-listen 127.0.0.1:0 --graph-model gr=adder --graph-model gr=loopback
has "$TMP/err" "given twice"

# --- the AMD listener alone (no HTTP): a full session
"$TS" --amd-listen 127.0.0.1:0 --graph-model "gr=$M" >"$TMP/log0" 2>&1 &
P0=$!
PIDS+=("$P0")
amd_port "$TMP/log0"
expect 0 "$AC" full "$AP" "$M"
has "$TMP/out" "FUNC and PERF transactions match the local emulated board"
has "$TMP/out" "3 pipelined transactions fetched as 4, 2, 3 match"
has "$TMP/out" "wait ends in TIMEOUT with zeros"
has "$TMP/out" "returned file xrt.ini (23 bytes)"
# 16 clients at once: each completes; the queue serves them in arrival order
CP=()
for i in $(seq 16); do "$AC" full "$AP" "$M" >"$TMP/c$i" 2>&1 & CP+=($!); done
for i in $(seq 16); do
  if wait "${CP[$((i - 1))]}"; then ok; else bad "client $i of 16: $(cat "$TMP/c$i")"; fi
done
order=$(sed -n 's/.*session s-\([0-9]*\)-[0-9a-f]* ended: destroy.*/\1/p' "$TMP/log0" | tr '\n' ' ')
if [[ $order == "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 " ]]; then ok
else bad "sessions ended in the order: $order"; fi
kill -TERM "$P0"; wait "$P0"; rc=$?
[[ $rc -eq 0 ]] && ok || bad "th_server --amd-listen only: exit $rc after SIGTERM"

# --- both listeners, one queue
start_server "$TMP/log" --amd-listen 127.0.0.1:0 --graph-model "gr=$M" --idle-timeout 5 \
  --graph-model "other=$B/plugins/slow_loopback.so"
amd_port "$TMP/log"
expect 0 "$AC" full "$AP" "$M"
has "$TMP/log" "session s-1-"
has "$TMP/log" "ended: destroy"
healthy "a full session"

# a wait shorter than the device: TIMEOUT with zeros, the late result dropped
expect 0 "$AC" slowwait "$AP"
has "$TMP/out" "a 200 ms wait ended in TIMEOUT, the next transaction is right"

# device mismatch: the reply carries the reason, the connection closes
expect 0 "$AC" mismatch "$AP" nosuchboard
has "$TMP/out" 'device nosuchboard refused: <board "nosuchboard": not a board of this server (its boards: vck190, vek280, vek385)>'
healthy "a device mismatch"

# a malformed frame closes that connection; the next client is served
expect 0 "$AC" malformed "$AP"
has "$TMP/log" "malformed: AMD protocol: request name length 9223372036854775807 exceeds the limit 64"
healthy "a malformed frame"
expect 0 "$AC" full "$AP" "$M"

# the shared queue: an AMD session holds the device, an HTTP session waits
rm -f "$TMP/release"
"$AC" hold "$AP" "$TMP/release" >"$TMP/hold" 2>&1 &
HP=$!
wait_line "$TMP/hold" "holding the device"
body=$(curl -s -m 10 -H 'Content-Type: application/json' -d '{"board":"vck190"}' "$U/v1/sessions")
jq_is "$body" .state queued
jq_is "$body" .position 1
sid=$(jq -r .id <<<"$body")
touch "$TMP/release"
wait "$HP" && ok || bad "amd_client hold failed: $(cat "$TMP/hold")"
body=$(curl -s -m 10 "$U/v1/sessions/$sid")
jq_is "$body" .state active
curl -s -m 10 -X DELETE "$U/v1/sessions/$sid" >/dev/null

# clients killed mid-upload, mid-transaction and mid-download cost only
# their session
for what in upload txn download; do
  "$AC" stuck "$AP" "$what" >"$TMP/stuck" 2>&1 &
  KP=$!
  wait_line "$TMP/stuck" "stuck ($what)"
  sleep 0.2
  kill -KILL "$KP"; wait "$KP" 2>/dev/null
  healthy "a client killed ($what)"
done
wait_line "$TMP/log" "ended: the client closed the connection in the middle of a message"
expect 0 "$AC" full "$AP" "$M"

# 16 connections at once are served (one holds the device, 15 queue); a
# 17th is closed at once
rm -f "$TMP/release"
n0=$(grep -c ': connected$' "$TMP/log")
HPS=()
for i in $(seq 16); do "$AC" hold "$AP" "$TMP/release" >"$TMP/h$i" 2>&1 & HPS+=($!); done
for i in $(seq 100); do
  [[ $(grep -c ': connected$' "$TMP/log") -ge $((n0 + 16)) ]] && break; sleep 0.1
done
expect 1 "$AC" mismatch "$AP" vck190
has "$TMP/log" "refused: 16 connections are open, the limit"
touch "$TMP/release"
for i in $(seq 16); do
  if wait "${HPS[$((i - 1))]}"; then ok; else bad "holder $i of 16: $(cat "$TMP/h$i")"; fi
done
curl -s -m 5 "$U/v1/metrics" >"$TMP/metrics"
has "$TMP/metrics" "aieth_sessions_active 0"
has "$TMP/metrics" "aieth_image_bytes 0"

S1=$SP

# --- accepted = 0 past --max-memory (PERF images are 2 x 2.25 MiB)
start_server "$TMP/log2" --amd-listen 127.0.0.1:0 --graph-model "gr=$M" --max-memory 3 \
  --board vck190 --max-wait 1
amd_port "$TMP/log2"
expect 0 "$AC" memory "$AP"
has "$TMP/out" "accepted = 0"
has "$TMP/log2" "refused (accepted = 0)"
expect 0 "$AC" mismatch "$AP" vek280
has "$TMP/out" "device vek280 refused: <vck190>"
healthy "accepted = 0"

# queued past --max-wait: the connection closes without a reply (AMD's
# client reports a creation failure), the holder goes on
rm -f "$TMP/release"
"$AC" hold "$AP" "$TMP/release" >"$TMP/hold" 2>&1 &
HP=$!
wait_line "$TMP/hold" "holding the device"
expect 1 "$AC" memory "$AP"
has "$TMP/err" "the server closed the connection"
has "$TMP/log2" "expired while queued: waited 1 s in the queue, the limit is --max-wait 1 s"
touch "$TMP/release"
wait "$HP" && ok || bad "amd_client hold failed: $(cat "$TMP/hold")"

# SIGTERM drains both servers, one with an AMD client holding the device
rm -f "$TMP/release"
"$AC" hold "$AP" "$TMP/release" >"$TMP/hold" 2>&1 &
HP=$!
wait_line "$TMP/hold" "holding the device"
for p in "$SP" "$S1"; do
  kill -TERM "$p"
  for i in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  wait "$p"; rc=$?
  [[ $rc -eq 0 ]] && ok || bad "th_server exit $rc after SIGTERM"
done
wait "$HP" 2>/dev/null
has "$TMP/log2" "ended: the server stopped"

# docs/server.md's example: AMD's adder example moves 16384 bytes per
# channel (4096 int32 per iteration), so its graph model has 16384-byte
# windows; FUNC and PERF as AMD's client runs them
M16='adder:{"in0":"PLIO_01_TO_AIE","in1":"PLIO_03_TO_AIE","out":"PLIO_02_FROM_AIE","window_bytes":16384}'
start_server "$TMP/log16" --amd-listen 127.0.0.1:0 --graph-model "gr=$M16"
amd_port "$TMP/log16"
expect 0 "$AC" full "$AP" "$M16" 16384
has "$TMP/out" "FUNC and PERF transactions match the local emulated board"
kill -TERM "$SP"; wait "$SP"

finish
