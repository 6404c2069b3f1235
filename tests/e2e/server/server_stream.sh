#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_server's streamed transactions (docs/http-api.md, "Streamed
# transactions") on the emulated board: the RX download asked for before
# the TX upload, the wait and the upload beside it, the same bytes as the
# serial way; an upload that breaks, one that never comes (--client-timeout),
# a second upload, a bad "stream" value; run_test --backend remote on it.
# Every wait is bounded and waits for an event (a metric, a reply), never
# for a sleep to be long enough.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
th_server_setup
J='Content-Type: application/json'
OS='Content-Type: application/octet-stream'
SZ=16777216
python3 -c "
import sys
b = bytes(range(251)) * ($SZ // 251 + 1)
sys.stdout.buffer.write(b[:$SZ])" >"$TMP/tx.img"
# session: a new session with a loopback graph running; T its transactions
session() {
  req 201 -H "$J" -d '{"board":"vck190","graphs":[{"name":"lb","model":"loopback","params":{"channels":[1],"window_bytes":4096}}]}' "$U/v1/sessions"
  SID=$(jq -r .id "$TMP/body")
  T=$U/v1/sessions/$SID/txns
  req 204 -H "$J" -d '{"iterations":-1}' "$U/v1/sessions/$SID/graphs/lb/run"
}

start_server "$TMP/log" --idle-timeout 120 --client-timeout 120
session

# ---- the request: "stream" must be true or false
txn_body $SZ "" '"stream":"yes"' >"$TMP/txn_bad"
req 400 -H "$J" --data-binary @"$TMP/txn_bad" "$T"
has "$TMP/body" "stream: true or false is needed"
# without it: the serial way, as before (awaiting its TX image)
txn_body $SZ >"$TMP/txn"
req 201 -H "$J" --data-binary @"$TMP/txn" "$T"
jbody .stream false
jbody .state awaiting_tx
req 204 -X DELETE "$U/v1/sessions/$SID/txns/$(jq -r .id "$TMP/body")"

# ---- streamed: running as made; the download asked for first, then the
# wait, then the upload; the RX image is the TX image (loopback)
txn_body $SZ "" '"stream":true' >"$TMP/txn_s"
req 201 -H "$J" --data-binary @"$TMP/txn_s" "$T"
jbody .stream true
jbody .state running
TID=$(jq -r .id "$TMP/body")
# (and a bounded range of it, answered once its bytes are final, 206)
curl -s -m 60 -H 'Range: bytes=1048576-2097151' -o "$TMP/rxr" -w '%{http_code}' "$T/$TID/rx" \
  >"$TMP/rxr_code" &
rrp=$!
curl -s -m 60 -o "$TMP/rx" -w '%{http_code}' "$T/$TID/rx" >"$TMP/rx_code" &
rxp=$!
# the download is in (counted as it is queued) before anything else is sent
wait_metric 'aieth_image_moved_bytes_total{direction="rx"}' $SZ
req 200 "$T/$TID"
jbody .tx_received 0
curl -s -m 60 -H "$J" -d '{"timeout_ms":0}' -o "$TMP/wait" -w '%{http_code}' "$T/$TID/wait" \
  >"$TMP/wait_code" &
wp=$!
req 202 -X PUT -H "$OS" --data-binary @"$TMP/tx.img" "$T/$TID/tx"
wait "$wp" "$rxp" "$rrp"
[[ $(cat "$TMP/wait_code") == 200 && $(jq -r '.status_name, .failed' "$TMP/wait" | tr '\n' ' ') == "DONE false " ]] \
  && ok || bad "streamed wait: $(cat "$TMP/wait_code") $(head -c 300 "$TMP/wait")"
[[ $(cat "$TMP/rxr_code") == 206 ]] && cmp -s "$TMP/rxr" <(tail -c +1048577 "$TMP/tx.img" | head -c 1048576) \
  && ok || bad "streamed RX range: status $(cat "$TMP/rxr_code"), $(stat -c %s "$TMP/rxr" 2>/dev/null) bytes, or not the TX image's"
[[ $(cat "$TMP/rx_code") == 200 ]] && cmp -s "$TMP/rx" "$TMP/tx.img" && ok \
  || bad "streamed RX download: status $(cat "$TMP/rx_code"), $(stat -c %s "$TMP/rx" 2>/dev/null) bytes, or not the TX image"
# a second upload is refused; the download may be fetched again, whole
req 409 -X PUT -H "$OS" --data-binary @"$TMP/tx.img" "$T/$TID/tx"
has "$TMP/body" "was uploaded already"
REQ_MAX_S=60 req 200 "$T/$TID/rx"
cmp -s "$TMP/body" "$TMP/tx.img" && ok || bad "RX image fetched again differs"
req 204 -X DELETE "$T/$TID"

# ---- a reused image: the two just freed hold the TX bytes and are kept;
# the next streamed RX image is one of them, cleared as its device writes
# it, not before the device starts (srv_stream.c): half the TX bytes, so
# the device writes half the RX image and the wait times out; the other
# half reads zero, never the bytes the image held
k=$(metric aieth_image_kept_bytes)
txn_body $((SZ / 2)) $SZ '"stream":true' >"$TMP/txn_half"
req 201 -H "$J" --data-binary @"$TMP/txn_half" "$T"
TID=$(jq -r .id "$TMP/body")
[[ $(metric aieth_image_kept_bytes) -eq $((k - SZ - 64)) ]] && ok \
  || bad "the streamed RX image is not a kept one: kept $k, then $(metric aieth_image_kept_bytes)"
head -c $((SZ / 2)) "$TMP/tx.img" >"$TMP/tx_half.img"
{ cat "$TMP/tx_half.img"; head -c $((SZ / 2)) /dev/zero; } >"$TMP/rx_half_want"
req 202 -X PUT -H "$OS" --data-binary @"$TMP/tx_half.img" "$T/$TID/tx"
req 200 -H "$J" -d '{"timeout_ms":300}' "$T/$TID/wait"
REQ_MAX_S=60 req 200 "$T/$TID/rx"
cmp -s "$TMP/body" "$TMP/rx_half_want" && ok \
  || bad "a reused streamed RX image: not the TX half then zeros ($(cmp "$TMP/body" "$TMP/rx_half_want" 2>&1 | head -n 1))"
req 204 -X DELETE "$T/$TID"

# ---- an upload that breaks: the device stops waiting, the transaction
# fails naming the bytes that came; never another client's bytes
req 201 -H "$J" --data-binary @"$TMP/txn_s" "$T"
TID=$(jq -r .id "$TMP/body")
curl -s -m 60 -H "$J" -d '{"timeout_ms":0}' -o "$TMP/wait" -w '%{http_code}' "$T/$TID/wait" \
  >"$TMP/wait_code" &
wp=$!
python3 - "${U#http://}" "/v1/sessions/$SID/txns/$TID/tx" "$SZ" <<'PY'
import socket, sys
host, port = sys.argv[1].split(":")
s = socket.create_connection((host, int(port)), timeout=30)
s.sendall(("PUT %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n"
           "Content-Length: %s\r\n\r\n" % (sys.argv[2], sys.argv[3])).encode())
s.sendall(b"\x5a" * 1048576)
s.close()
PY
wait "$wp"
[[ $(cat "$TMP/wait_code") == 200 && $(jq -r .failed "$TMP/wait") == true ]] && ok \
  || bad "broken upload: wait $(cat "$TMP/wait_code") $(head -c 300 "$TMP/wait")"
jq -r .message "$TMP/wait" >"$TMP/msg"
has "$TMP/msg" "the TX upload stopped after"
has "$TMP/msg" "of $SZ bytes (its connection broke)"
req 409 -X PUT -H "$OS" --data-binary @"$TMP/tx.img" "$T/$TID/tx"
has "$TMP/body" "the TX upload stopped after"
# the RX image: what the device made of the bytes that came, zeros after
REQ_MAX_S=60 req 200 "$T/$TID/rx"
python3 - "$TMP/body" <<'PY' && ok || bad "broken upload: the RX image holds other bytes than 0x5a then zeros"
import sys
b = open(sys.argv[1], "rb").read()
k = len(b) - len(b.lstrip(b"\x5a"))
sys.exit(0 if k <= 1048576 and b[k:].count(0) == len(b) - k else 1)
PY
req 204 -X DELETE "$T/$TID"

# ---- the session ends while a download waits for bytes that will never
# come: the download ends short (not at curl's 60 s), the server goes on
req 201 -H "$J" --data-binary @"$TMP/txn_s" "$T"
TID=$(jq -r .id "$TMP/body")
SECONDS=0
curl -s -m 60 -o "$TMP/rx4" "$T/$TID/rx" &
rxp=$!
# (every download so far counted: 5 images and the 1 MiB range)
wait_metric 'aieth_image_moved_bytes_total{direction="rx"}' $((5 * SZ + 1048576))
REQ_MAX_S=10 req 204 -X DELETE "$U/v1/sessions/$SID"
wait "$rxp"
rc=$?
[[ $rc -ne 0 && $(stat -c %s "$TMP/rx4" 2>/dev/null || echo 0) -lt $SZ && $SECONDS -lt 50 ]] && ok \
  || bad "download of an ended session: curl exit $rc after $SECONDS s, $(stat -c %s "$TMP/rx4" 2>/dev/null) bytes"
req 200 "$U/v1/health"

# ---- run_test --backend remote: streamed, the same report as locally
for ex in adder_func tiling; do
  expect 0 timeout 120 "$RT" -q --backend remote --server "$U" -o "$TMP/r_$ex" "$EX/$ex/test.json"
  expect 0 timeout 120 "$RT" -q -o "$TMP/l_$ex" "$EX/$ex/test.json"
  diff <(norm_report "$TMP/r_$ex/report.json") <(norm_report "$TMP/l_$ex/report.json") >/dev/null \
    && ok || bad "$ex: the remote report differs from the local one"
done
# the serial way on request, the same report; a bad value is refused
AIETH_REMOTE_STREAM=0 expect 0 timeout 120 "$RT" -q --backend remote --server "$U" -o "$TMP/s_tiling" \
  "$EX/tiling/test.json"
diff <(norm_report "$TMP/s_tiling/report.json") <(norm_report "$TMP/l_tiling/report.json") >/dev/null \
  && ok || bad "tiling: the serial remote report differs from the local one"
AIETH_REMOTE_STREAM=yes expect 2 "$RT" -q --backend remote --server "$U" -o "$TMP/y" "$EX/tiling/test.json"
grep -rqF "AIETH_REMOTE_STREAM=yes: 0 or 1 is needed" "$TMP/y" "$TMP/err" "$TMP/out" && ok \
  || bad "AIETH_REMOTE_STREAM=yes: no message naming it"
stop_server

# ---- an upload that never comes: the device waits --client-timeout
start_server "$TMP/log2" --idle-timeout 120 --client-timeout 2
session
req 201 -H "$J" --data-binary @"$TMP/txn_s" "$T"
TID=$(jq -r .id "$TMP/body")
REQ_MAX_S=60 req 200 -H "$J" -d '{"timeout_ms":0}' "$T/$TID/wait"
jbody .failed true
jq -r .message "$TMP/body" >"$TMP/msg"
has "$TMP/msg" "the TX upload stopped after 0 of $SZ bytes (no byte came for --client-timeout)"
# ended first: a drain with a session open waits out its 5 s collect window
req 204 -X DELETE "$U/v1/sessions/$SID"
stop_server

finish
