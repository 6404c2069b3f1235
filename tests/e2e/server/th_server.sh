#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_server's HTTP API on loopback with the emulated board (docs/http-api.md):
# health and metrics, tokens (401, names in the log), sessions that hold the
# device one at a time with a visible queue, the queue limit (429), idle
# expiry, graph control, 400/404/405/413/415/431 refusals (413 before the body
# is read), several clients at once, clients that vanish or never finish,
# --log-json, and SIGTERM draining. Every wait is bounded; servers are
# stopped by the trap.
. "$(dirname "$0")/../lib.sh"
th_server_setup

TOKA=0123456789abcdef0123
TOKB=zzzzzzzzzzzzzzzzzzzz
printf '# test tokens\nalice %s\nbob %s\n' "$TOKA" "$TOKB" >"$TMP/tokens"
chmod 600 "$TMP/tokens"   # th_server refuses a token file others may read
A="Authorization: Bearer $TOKA"
BB="Authorization: Bearer $TOKB"
J='Content-Type: application/json'


# --- options
expect 0 "$TS" --help
has "$TMP/out" "--listen ADDR:PORT"
has "$TMP/out" "--token-file FILE"
expect 2 "$TS"
has "$TMP/err" "--listen ADDR:PORT is needed"
expect 2 "$TS" --listen 0.0.0.0:0
has "$TMP/err" "not a loopback address and no token file"
expect 2 "$TS" --listen 127.0.0.1:0 --token-file /nonexistent/tokens
has "$TMP/err" "/nonexistent/tokens"
printf 'alice short\n' >"$TMP/badtok"
chmod 600 "$TMP/badtok"
expect 2 "$TS" --listen 127.0.0.1:0 --token-file "$TMP/badtok"
has "$TMP/err" "badtok:1: the token of \"alice\" is 5 bytes"
expect 2 "$TS" --listen 127.0.0.1:99999
expect 2 "$TS" --listen 127.0.0.1:0 --backend nope
expect 2 "$TS" --listen 127.0.0.1:0 --max-queue 0

# --- one server with tokens, a queue of 2 (the idle timeout is not under
# test here: wide; it has a server of its own below)
start_server "$TMP/log" --token-file "$TMP/tokens" --max-queue 2 --idle-timeout 120
req 200 "$U/v1/health"
jbody .status ok
jbody .api 1
req 401 "$U/v1/metrics"
jbody .error.code unauthorized
req 401 -H "Authorization: Bearer wrongwrongwrongwrong" "$U/v1/metrics"
req 401 -H "Authorization: Basic $TOKA" "$U/v1/metrics"
req 200 -H "$A" "$U/v1/metrics"
has "$TMP/body" "aieth_queue_length 0"
req 404 -H "$A" "$U/v1/nothing"
jbody .error.code not_found
req 405 -H "$A" -X PUT "$U/v1/sessions"
req 400 -H "$A" -H "$J" -d '{"board":' "$U/v1/sessions"
has "$TMP/body" "request body:1:"
req 400 -H "$A" -H "$J" -d '{"board":"vck190","colour":1}' "$U/v1/sessions"
req 415 -H "$A" -H 'Content-Type: text/plain' -d '{"board":"vck190"}' "$U/v1/sessions"
req 422 -H "$A" -H "$J" -d '{"board":"nosuchboard"}' "$U/v1/sessions"
# 413 before the body is read: the log shows 0 bytes received
# (a session's body may carry an xrt.ini and aiesim traces: 64 KiB +
# 2 x 1 MiB + 2 x 4 MiB, JSON-escaped)
head -c 11000000 /dev/zero >"$TMP/big"
req 413 --expect100-timeout 60 -H 'Expect: 100-continue' -H "$A" -H "$J" --data-binary @"$TMP/big" "$U/v1/sessions"
has "$TMP/body" "the limit is 10551296"
log_has "$TMP/log" 'POST /v1/sessions 413 '
if grep -q 'POST /v1/sessions 413 in=0 ' "$TMP/log"; then ok; else bad "413 read the body: $(grep ' 413 ' "$TMP/log")"; fi
# the request line and headers: 16 KiB at most, the 431 names the limit;
# just under it is served; far over it (beyond libmicrohttpd's memory) the
# connection gets 431 or is closed, and the server goes on
X12=$(head -c 12000 /dev/zero | tr '\0' x)
X20=$(head -c 20000 /dev/zero | tr '\0' x)
req 200 -H "$A" -H "X-Pad: $X12" "$U/v1/metrics"
req 431 -H "$A" -H "X-Pad: $X20" "$U/v1/metrics"
jbody .error.code headers_too_large
has "$TMP/body" "the limit is 16384"
req 431 -H "$A" "$U/v1/metrics?pad=$X20"
X400=$(head -c 400000 /dev/zero | tr '\0' x)
printf 'X-Pad: %s\r\n' "$X400" >"$TMP/bighdr"
got=$(curl -s -m 10 -o /dev/null -w '%{http_code}' -H @"$TMP/bighdr" "$U/v1/health")
[[ $got == 431 || $got == 000 ]] && ok || bad "a 400 KB header: status $got"
req 200 "$U/v1/health"

# sessions: alice holds the device, bob queues at position 1
req 201 -H "$A" -H "$J" -d '{"board":"vck190","graphs":[{"name":"gr","model":"adder"}]}' "$U/v1/sessions"
jbody .state active
jbody .position 0
SA=$(jq -r .id "$TMP/body")
has "$TMP/hdr" "Location: /v1/sessions/$SA"
req 201 -H "$BB" -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
jbody .state queued
jbody .position 1
SB=$(jq -r .id "$TMP/body")
req 403 -H "$BB" "$U/v1/sessions/$SA"
req 409 -H "$BB" -X POST "$U/v1/sessions/$SB/graphs/gr/end"
has "$TMP/body" "queued at position 1"
req 201 -H "$BB" -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
jbody .position 2
SC=$(jq -r .id "$TMP/body")
req 429 -H "$BB" -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
has "$TMP/body" "--max-queue 2"
# the graph model's ports, before it runs (the adder: two inputs, one
# output, 128 bytes an iteration); another session's or an unknown graph's
# are refused
req 200 -H "$A" "$U/v1/sessions/$SA/graphs/gr/ports"
jbody '[.ports[] | "\(.plio) \(.direction) \(.kernel) \(.bytes_per_iteration)"] | join(",")' \
  "PLIO_01_TO_AIE to_aie 0 128,PLIO_02_TO_AIE to_aie 0 128,PLIO_01_FROM_AIE from_aie 0 128"
req 404 -H "$A" "$U/v1/sessions/$SA/graphs/other/ports"
req 403 -H "$BB" "$U/v1/sessions/$SA/graphs/gr/ports"
req 405 -H "$A" -X POST "$U/v1/sessions/$SA/graphs/gr/ports"
# graph control on the active session
req 204 -H "$A" -H "$J" -d '{"iterations":3}' "$U/v1/sessions/$SA/graphs/gr/run"
req 200 -H "$A" "$U/v1/sessions/$SA/graphs/gr"
jbody '.iterations_done|type' number
req 504 -H "$A" -H "$J" -d '{"timeout_ms":10}' "$U/v1/sessions/$SA/graphs/gr/wait"
req 404 -H "$A" "$U/v1/sessions/$SA/graphs/other"
req 400 -H "$A" -H "$J" -d '{"iterations":0}' "$U/v1/sessions/$SA/graphs/gr/run"
req 204 -H "$A" -X POST "$U/v1/sessions/$SA/graphs/gr/end"
req 404 -H "$A" "$U/v1/xclbins/0123"     # not a sha256 (the cache: server_design.sh)
req 405 -H "$A" "$U/v1/xclbins/0123456789012345678901234567890123456789012345678901234567890123"
req 405 -H "$A" "$U/v1/sessions/$SA/txns"
req 400 -H "$A" -H "$J" -d '{"channels":1}' "$U/v1/sessions/$SA/txns"
req 404 -H "$A" -X POST "$U/v1/sessions/$SA/txns/t-9/wait"
# alice ends: bob's first session gets the device, the other moves up
req 204 -H "$A" -X DELETE "$U/v1/sessions/$SA"
req 204 -H "$A" -X DELETE "$U/v1/sessions/$SA"
req 200 -H "$A" "$U/v1/sessions/$SA"
jbody .state ended
req 200 -H "$BB" "$U/v1/sessions/$SB"
jbody .state active
req 200 -H "$BB" "$U/v1/sessions/$SC"
jbody .position 1
# the queued one first (it never opens the device), then the active one
req 204 -H "$BB" -X DELETE "$U/v1/sessions/$SC"
req 204 -H "$BB" -X DELETE "$U/v1/sessions/$SB"
# (the device is closed by the server's opener thread: a metric to wait for)
for i in $(seq 600); do
  grep -q '^aieth_device_resets_total 2$' <<<"$(curl -s -m 5 -H "$A" "$U/v1/metrics")" && break
  sleep 0.1
done
req 200 -H "$A" "$U/v1/metrics"
has "$TMP/body" "aieth_sessions_active 0"
has "$TMP/body" "aieth_device_resets_total 2"
has "$TMP/body" 'aieth_requests_total{status="401"} 3'
# one line per request, with the token's name and never the token
has "$TMP/log" "alice POST /v1/sessions 201"
has "$TMP/log" "bob POST /v1/sessions 429"
has "$TMP/log" "127.0.0.1 - GET /v1/metrics 401"
if grep -q "$TOKA" "$TMP/log"; then bad "a token is in the log"; else ok; fi
stop_server

# --- idle: a server of its own (--idle-timeout 2, the limit under test).
# bob holds the device, then queues a second session, then polls the first
# one last: nobody asks for 2 s; both expire, the queued one first (idle the
# longer), so it never gets the device: a client that stopped polling is
# gone. The active one's device is reset (closed). Waited for on the
# metrics (alice's requests: no session's activity), never on a sleep.
start_server "$TMP/log_idle" --token-file "$TMP/tokens" --idle-timeout 2
req 201 -H "$BB" -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
jbody .state active
SB=$(jq -r .id "$TMP/body")
req 201 -H "$BB" -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
SC=$(jq -r .id "$TMP/body")
req 200 -H "$BB" "$U/v1/sessions/$SB"
for i in $(seq 600); do
  curl -s -m 5 -H "$A" "$U/v1/metrics" >"$TMP/m"
  grep -q '^aieth_sessions_active 0$' "$TMP/m" && grep -q '^aieth_queue_length 0$' "$TMP/m" && break
  sleep 0.1
done
has "$TMP/m" "aieth_sessions_active 0"
has "$TMP/m" "aieth_queue_length 0"
req 200 -H "$BB" "$U/v1/sessions/$SB"
jbody .state expired
has "$TMP/body" "--idle-timeout 2 s"
req 200 -H "$BB" "$U/v1/sessions/$SC"
jbody .state expired
# one reset: the queued session never opened the device
has "$TMP/m" "aieth_device_resets_total 1"

# several clients at once: eight sessions created concurrently get
# distinct places 0..7 (served in arrival order)
stop_server
start_server "$TMP/log2" --max-queue 16 --log-json
cp=()
for i in $(seq 8); do
  curl -s -m 10 -H "$J" -d '{"board":"vek280"}' "$U/v1/sessions" >"$TMP/c$i" &
  cp+=($!)
done
wait "${cp[@]}"
cat "$TMP"/c[1-8] | jq -r .position | sort -n | tr '\n' ' ' >"$TMP/pos"
has "$TMP/pos" "0 1 2 3 4 5 6 7 "
# a client that sends half a request and vanishes, one that never finishes
# its request: the server keeps serving
exec 7<>"/dev/tcp/127.0.0.1/${U##*:}"
printf 'POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"boa' >&7
exec 7>&-
exec 8<>"/dev/tcp/127.0.0.1/${U##*:}"
printf 'GET /v1/heal' >&8
req 200 "$U/v1/health"
req 200 "$U/v1/metrics"
has "$TMP/body" "aieth_queue_length 7"
# --log-json: every line of requests is a JSON object
log_has "$TMP/log2" '"path":"\\?/v1\\?/metrics"' || bad "no JSON log line for /v1/metrics"
if grep '^{' "$TMP/log2" | jq -e 'select(.method == null or .status == null)' >/dev/null; then
  bad "--log-json line without method or status"; else ok; fi
has "$TMP/log2" '"method":"POST","path":"\/v1\/sessions","status":201'
stop_server
exec 8>&-
has "$TMP/log2" "th_server: stopped"

finish
