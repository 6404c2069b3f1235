#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_server's HTTP side holds nothing unbounded and shows each client only
# its own designs (docs/server.md "Limits", docs/http-api.md): a token's
# design is answered to another token as a missing one (HEAD and session),
# and stored once when both send it; unfinished uploads count against the
# cache limit; --max-conn-per-addr; a request head that trickles past
# --head-timeout is cut; --max-session ends a holder while another waits;
# a chunked JSON body past its limit gets 413; a session's summary is not
# rewritten on every listing and counts beats; ?size= that is no number is
# a 400 (under valgrind: no read of an unset value).
# Each limit has its own server; every wait is bounded and synchronised on
# the server's log or metrics; servers are stopped by the trap.
. "$(dirname "$0")/../lib.sh"
th_server_setup
RT=$B/bin/run_test
EX=$S/examples
J='Content-Type: application/json'
O='Content-Type: application/octet-stream'

is() { if [[ $2 == "$3" ]]; then ok; else bad "$1: '$2', expected '$3'"; fi; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
# metric from another loopback address (127.0.0.2): the per-address count
# of 127.0.0.1 is not changed by the question
metric2() { curl -s -m 5 --interface 127.0.0.2 "$U/v1/metrics" | awk -v m="$1" '$1 == m {print $2}'; }
# wait_for WHAT TENTHS CMD...: until CMD succeeds (TENTHS tenths of a second at most)
wait_for() {
  local what=$1 n=$2 i; shift 2
  for ((i = 0; i < n; i++)); do "$@" && { ok; return 0; }; sleep 0.1; done
  bad "timed out waiting for $what"; return 1
}
metric_is() { [[ $(metric2 "$1") == "$2" ]]; }
log_has() { grep -qF -- "$2" "$1"; }

# ---- the options: named in --help, bad values refused (exit 2)
expect 0 "$TS" --help
has "$TMP/out" "--max-session S"
has "$TMP/out" "--head-timeout S"
has "$TMP/out" "--max-conn-per-addr N"
expect 2 "$TS" --listen 127.0.0.1:0 --head-timeout 0
has "$TMP/err" "--head-timeout 0: a number 1..3600 is needed"
expect 2 "$TS" --listen 127.0.0.1:0 --max-conn-per-addr 65
expect 2 "$TS" --listen 127.0.0.1:0 --max-session x

# ---- designs per token: B gets 404 for A's design, as for a missing one
printf 'alice %s\nbob %s\n' aaaaaaaaaaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbbbbbb >"$TMP/tokens"
chmod 600 "$TMP/tokens"
TA='Authorization: Bearer aaaaaaaaaaaaaaaaaaaaaaaa'
TB='Authorization: Bearer bbbbbbbbbbbbbbbbbbbbbbbb'
start_server "$TMP/log_tok" --token-file "$TMP/tokens" --cache-dir "$TMP/cache"
head -c 200000 /dev/urandom >"$TMP/da.bin"
HA=$(sha "$TMP/da.bin")
head -c 1000 /dev/urandom >"$TMP/dm.bin"
HM=$(sha "$TMP/dm.bin")    # never uploaded
req 201 -X PUT -H "$TA" -H "$O" --data-binary @"$TMP/da.bin" "$U/v1/xclbins/$HA"
req 200 -I -H "$TA" "$U/v1/xclbins/$HA"
req 404 -I -H "$TB" "$U/v1/xclbins/$HA"
grep -v -i '^date:' "$TMP/hdr" >"$TMP/h_other"
# the same answer as for a design nobody uploaded (the sha aside). (-I, not
# -X HEAD: curl then waits for a body the HEAD reply never has, until -m.)
req 404 -I -H "$TB" "$U/v1/xclbins/$HM"
grep -v -i '^date:' "$TMP/hdr" | cmp -s - "$TMP/h_other" && ok \
  || bad "HEAD of another token's design and of a missing one differ: $(cat "$TMP/h_other") / $(cat "$TMP/hdr")"
req 409 -H "$TB" -H "$J" -d "{\"board\":\"vck190\",\"xclbin_sha256\":\"$HA\"}" "$U/v1/sessions"
sed "s/$HA/SHA/g" "$TMP/body" >"$TMP/b_other"
req 409 -H "$TB" -H "$J" -d "{\"board\":\"vck190\",\"xclbin_sha256\":\"$HM\"}" "$U/v1/sessions"
sed "s/$HM/SHA/g" "$TMP/body" >"$TMP/b_missing"
cmp -s "$TMP/b_other" "$TMP/b_missing" && ok || bad "another token's design and a missing one differ: $(cat "$TMP/b_other") / $(cat "$TMP/b_missing")"
has "$TMP/b_other" "not in the server's cache"
# A's own session opens with it
req 201 -H "$TA" -H "$J" -d "{\"board\":\"vck190\",\"xclbin_sha256\":\"$HA\"}" "$U/v1/sessions"
req 204 -H "$TA" -X DELETE "$U/v1/sessions/$(jq -r .id "$TMP/body")"
# B sends the same bytes: stored for B (as a new design), one copy on disk
req 201 -X PUT -H "$TB" -H "$O" --data-binary @"$TMP/da.bin" "$U/v1/xclbins/$HA"
is "B stored" "$(jq -r .stored "$TMP/body")" true
req 200 -I -H "$TB" "$U/v1/xclbins/$HA"
is "one copy" "$(find "$TMP/cache" -mindepth 1 ! -name owners.txt | wc -l)" 1
stop_server
# who may see what survives a restart
start_server "$TMP/log_tok2" --token-file "$TMP/tokens" --cache-dir "$TMP/cache"
req 200 -I -H "$TA" "$U/v1/xclbins/$HA"
req 200 -I -H "$TB" "$U/v1/xclbins/$HA"
stop_server
# without tokens: one anonymous namespace, which does not see the tokens' designs
start_server "$TMP/log_anon" --cache-dir "$TMP/cache"
req 404 -I "$U/v1/xclbins/$HA"
req 201 -X PUT -H "$O" --data-binary @"$TMP/da.bin" "$U/v1/xclbins/$HA"
req 200 -I "$U/v1/xclbins/$HA"
stop_server

# ---- unfinished uploads count against the cache limit (1 MiB here)
start_server "$TMP/log_up" --xclbin-cache-mib 1 --max-xclbin 1
head -c 600000 /dev/urandom >"$TMP/u1.bin"
head -c 600000 /dev/urandom >"$TMP/u2.bin"
H1=$(sha "$TMP/u1.bin"); H2=$(sha "$TMP/u2.bin")
exec 4<>"/dev/tcp/127.0.0.1/${U##*:}"
printf 'PUT /v1/xclbins/%s HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 600000\r\n\r\n' "$H1" >&4
head -c 1000 "$TMP/u1.bin" >&4
wait_for "the stalled upload's reservation" 100 metric_is aieth_xclbin_upload_bytes 600000
req 507 -X PUT -H "$O" --data-binary @"$TMP/u2.bin" "$U/v1/xclbins/$H2"
has "$TMP/body" "uploads in progress hold 600000 bytes"
has "$TMP/body" "--xclbin-cache-mib 1 MiB"
exec 4<&- 4>&-
wait_for "the reservation's release" 100 metric_is aieth_xclbin_upload_bytes 0
req 201 -X PUT -H "$O" --data-binary @"$TMP/u2.bin" "$U/v1/xclbins/$H2"
stop_server

# ---- --max-conn-per-addr: the 4th connection of 127.0.0.1 is refused
start_server "$TMP/log_pa" --max-conn-per-addr 3 --head-timeout 600 --client-timeout 600
P=${U##*:}
exec 5<>"/dev/tcp/127.0.0.1/$P" 6<>"/dev/tcp/127.0.0.1/$P" 7<>"/dev/tcp/127.0.0.1/$P"
# three idle ones, and the question's own (from 127.0.0.2)
wait_for "3 connections open" 100 metric_is aieth_http_connections 4
got=$(curl -s -m 10 -o /dev/null -w '%{http_code}' "$U/v1/health")
is "4th connection from 127.0.0.1" "$got" 000
is "refused" "$(metric2 aieth_http_connections_refused_total)" 1
has "$TMP/log_pa" "client 127.0.0.1: connection refused: it holds 3 connections without a token, the limit is --max-conn-per-addr 3"
# another address is not affected
got=$(curl -s -m 10 --interface 127.0.0.2 -o /dev/null -w '%{http_code}' "$U/v1/health")
is "from 127.0.0.2" "$got" 200
exec 7<&- 7>&-
wait_for "a connection closed" 100 metric_is aieth_http_connections 3
req 200 "$U/v1/health"
exec 5<&- 5>&- 6<&- 6>&-
stop_server

# ---- --head-timeout: a head that trickles (a header a second) is cut;
# a request sent at once is served
start_server "$TMP/log_ht" --head-timeout 2 --client-timeout 600
exec 8<>"/dev/tcp/127.0.0.1/${U##*:}"
printf 'GET /v1/health HTTP/1.1\r\nHost: x\r\n' >&8
( for i in $(seq 60); do printf 'X-Slow-%d: 1\r\n' "$i" || exit 0; sleep 1; done ) >&8 2>/dev/null &
trickler=$!
PIDS+=("$trickler")
wait_for "the head timeout in the log" 300 log_has "$TMP/log_ht" "client 127.0.0.1: no complete request head within --head-timeout 2 s: connection closed"
# the connection ends: EOF (read status 1), not a timeout (> 128), no reply
IFS= read -r -t 20 line <&8; rc=$?
is "trickled connection: read status" "$rc" 1
is "head timeouts" "$(metric2 aieth_http_head_timeouts_total)" 1
kill "$trickler" 2>/dev/null; wait "$trickler" 2>/dev/null
exec 8<&- 8>&-
req 200 "$U/v1/health"
# the access line is written once the reply is out: the client may read
# the reply first (seen under qemu), so the log is polled
log_has "$TMP/log_ht" "GET /v1/health 200" && ok || bad "$TMP/log_ht lacks: GET /v1/health 200 (its health lines: $(grep health "$TMP/log_ht"))"
stop_server

# ---- --max-session: a holder alone keeps the device past the limit; once
# another session waits, the holder ends (expired, the reason named) and
# the waiting one gets the device
start_server "$TMP/log_ms" --max-session 2 --idle-timeout 600 --max-wait 600
req 201 -H "$J" -d '{"board":"vck190","graphs":[{"name":"gr","model":"adder"}]}' "$U/v1/sessions"
SA=$(jq -r .id "$TMP/body")
req 204 -H "$J" -d '{"iterations":-1}' "$U/v1/sessions/$SA/graphs/gr/run"
sleep 3     # past the limit, with nobody waiting (a margin, not a sync)
req 200 "$U/v1/sessions/$SA"
jbody .state active
req 201 -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
SB=$(jq -r .id "$TMP/body")
jbody .state queued
sb_active() { curl -s -m 5 "$U/v1/sessions/$SB" | jq -e '.state == "active"' >/dev/null; }
wait_for "the waiting session to get the device" 600 sb_active
req 200 "$U/v1/sessions/$SA"
jbody .state expired
has "$TMP/body" "while 1 session waited, the limit is --max-session 2 s"
has "$TMP/log_ms" "session $SA (-): expired: held the device for"
req 409 -H "$J" -d '{"iterations":1}' "$U/v1/sessions/$SA/graphs/gr/run"
req 204 -X DELETE "$U/v1/sessions/$SB"
stop_server

# ---- a chunked JSON body past the limit: 413 (not a closed connection);
# the summary is written when it changes, in beats; ?size=x is a 400
mkdir "$TMP/work"
start_server "$TMP/log_misc" --work-dir "$TMP/work"
head -c 100000 /dev/zero | tr '\0' ' ' >"$TMP/big.json"
req 413 -H "$J" -H 'Transfer-Encoding: chunked' --data-binary @"$TMP/big.json" "$U/v1/sessions/s-1-00000000/graphs/gr/run"
has "$TMP/body" "the limit"
req 200 "$U/v1/health"
expect 0 "$RT" -q --backend remote --server "$U" -o "$TMP/rs" "$EX/adder_func/test.json"
S1=$TMP/rs/artifacts/run_summary.json
is "tx_moved_bytes = bytes to the AIE" "$(jq '[.transactions[0].tx_moved_bytes[]] | add' "$S1")" \
  "$(jq '[.tests[0].transactions[0].channels[] | select(.direction == "to_aie") | .bytes_moved] | add' "$TMP/rs/report.json")"
is "rx_moved_bytes = bytes from the AIE" "$(jq '[.transactions[0].rx_moved_bytes[]] | add' "$S1")" \
  "$(jq '[.tests[0].transactions[0].channels[] | select(.direction == "from_aie") | .bytes_moved] | add' "$TMP/rs/report.json")"
req 201 -H "$J" -d '{"board":"vck190","graphs":[{"name":"gr","model":"adder"}]}' "$U/v1/sessions"
SM=$(jq -r .id "$TMP/body")
req 200 "$U/v1/sessions/$SM/artifacts"
ino1=$(stat -c %i "$TMP/work/$SM/run_summary.json")
req 200 "$U/v1/sessions/$SM/artifacts"
req 200 "$U/v1/sessions/$SM/artifacts"
is "summary not rewritten by listings" "$(stat -c %i "$TMP/work/$SM/run_summary.json")" "$ino1"
req 400 "$U/v1/sessions/$SM/graphs/gr/rtp/in?size=x"
has "$TMP/body" "?size=N"
req 204 -X DELETE "$U/v1/sessions/$SM"
stop_server

# ---- ?size= that is no number under valgrind: a 400, and no read of a
# value never set
if [[ ${AIETH_SAN:-0} == 1 || -n ${AIETH_RUN_WRAPPER:-} ]]; then
  echo "server_limits.sh: valgrind run skipped (ASan or cross build)"
elif ! command -v valgrind >/dev/null; then
  echo "server_limits.sh: valgrind run skipped (no valgrind installed)"
else
  : >"$TMP/log_vg"   # exists before the reads below (the job opens it later)
  valgrind --quiet --error-exitcode=99 "$TS" --listen 127.0.0.1:0 >"$TMP/log_vg" 2>&1 &
  SP=$!
  PIDS+=("$SP")
  port=
  for i in $(seq 300); do
    port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$TMP/log_vg")
    [[ -n $port ]] && break; sleep 0.1
  done
  U=http://127.0.0.1:$port
  [[ -n $port ]] && ok || bad "th_server under valgrind did not start: $(cat "$TMP/log_vg")"
  REQ_MAX_S=60 req 201 -H "$J" -d '{"board":"vck190","graphs":[{"name":"gr","model":"adder"}]}' "$U/v1/sessions"
  SV=$(jq -r .id "$TMP/body")
  for q in x -1 ''; do REQ_MAX_S=60 req 400 "$U/v1/sessions/$SV/graphs/gr/rtp/in?size=$q"; done
  kill -TERM "$SP"
  for i in $(seq 600); do kill -0 "$SP" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$SP" 2>/dev/null; then bad "th_server under valgrind did not stop"; kill -KILL "$SP"; fi
  wait "$SP"; vrc=$?
  [[ $vrc -eq 0 ]] && ok || { bad "th_server under valgrind: exit $vrc"; grep '==' "$TMP/log_vg" | head -40 >&2; }
fi
finish
