#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_server under faults ("Nothing lost, nothing stuck"): a
# transaction's status while it runs (progress, place), Range on the RX
# download (and the remote backend resuming a broken one through a proxy
# that cuts it), DELETE of a transaction, clients killed mid-upload,
# mid-transaction and mid-download (the server keeps serving, the device
# is freed after the idle timeout, image bytes back to 0, the reset command
# run), a slow client dropped after --client-timeout while another is
# served, the TX image refused (413) before it is read, --rate-limit (429),
# a failing and a hanging reset command, SIGTERM with a transaction running
# for a remote client, and th_server under valgrind. 401, malformed JSON and
# the JSON 413 are in th_server.sh. Every wait is bounded, and nothing
# depends on how fast the machine is: each time limit under test has a
# server of its own, every other limit is wide, and the checks wait for
# events (a log line, a metric, bytes arriving), never for a sleep to be
# long enough (the suite holds on a loaded machine and qemu).
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
th_server_setup

# wait_log FILE TEXT: until the log has the text (60 s at most)
wait_log() {
  local i
  for i in $(seq 1200); do grep -qF -- "$2" "$1" && return 0; sleep 0.05; done
  return 1
}
J='Content-Type: application/json'
OS='Content-Type: application/octet-stream'
# a test: SIZE bytes through channel 1 of a loopback graph, as FUNC
func_test() {
  cat <<EOF
{"schema": "aieth-test/1", "name": "func_$1", "board": "vck190",
 "description": "$1 bytes through a loopback graph (FUNC)",
 "graphs": [{"name": "loopback", "model": "loopback", "params": {"channels": [1], "window_bytes": 4096}}],
 "transactions": [{"name": "t", "mode": "func", "timeout_ms": 60000, "channels": [
   {"plio": "PLIO_01_TO_AIE", "size": $1, "data": {"pattern": "ramp", "type": "uint32", "start": 0, "step": 1}},
   {"plio": "PLIO_01_FROM_AIE", "size": $1, "golden": {"pattern": "ramp", "type": "uint32", "start": 0, "step": 1}}]}]}
EOF
}
func_test 134217728 >"$TMP/t128m.json"
func_test 16777216 >"$TMP/t16m.json"
BIG=134217728
python3 -c "
import sys
b = bytes(range(251)) * ($BIG // 251 + 1)
sys.stdout.buffer.write(b[:$BIG])" >"$TMP/tx.img"

RESETS=$TMP/resets
# the idle and client timeouts are not under test on this server: wide
start_server "$TMP/log" --idle-timeout 120 --client-timeout 120 --max-memory 1024

# ---- a transaction while it runs: status, place, progress; Range; DELETE
req 201 -H "$J" -d '{"board":"vck190","graphs":[{"name":"lb","model":"loopback","params":{"channels":[1],"window_bytes":4096}}]}' "$U/v1/sessions"
SID=$(jq -r .id "$TMP/body")
T=$U/v1/sessions/$SID/txns
req 204 -H "$J" -d '{"iterations":-1}' "$U/v1/sessions/$SID/graphs/lb/run"
txn_body $BIG >"$TMP/txn"
req 201 -H "$J" --data-binary @"$TMP/txn" "$T"
jbody .id t-1
# the TX image: a Content-Length above tx_bytes is refused before the body is read
req 413 -X PUT -H "$OS" -H "Content-Length: $((BIG + 16))" --data-binary @/dev/null "$T/t-1/tx"
has "$TMP/body" "the TX image is $BIG bytes"
req 202 -X PUT -H "$OS" --data-binary @"$TMP/tx.img" "$T/t-1/tx"
jbody .state running
# the data path's counters (make bench's figures, docs/server.md): the
# upload's bytes, each copied once out of libmicrohttpd's buffer
MV='aieth_image_moved_bytes_total{direction=' CP='aieth_image_copied_bytes_total{direction='
[[ $(metric "$MV\"tx\"}") == "$BIG" && $(metric "$CP\"tx\"}") == "$BIG" ]] && ok \
  || bad "TX bytes moved / copied: $(metric "$MV\"tx\"}") / $(metric "$CP\"tx\"}"), expected $BIG"
req 201 -H "$J" --data-binary @"$TMP/txn" "$T"
jbody .id t-2
req 202 -X PUT -H "$OS" --data-binary @"$TMP/tx.img" "$T/t-2/tx"
# t-2 was started after t-1: second place; not deletable while started
req 200 "$T/t-2"
jbody .state running
jbody .position 2
jbody .progress.total $((2 * BIG))
req 409 -X DELETE "$T/t-2"
has "$TMP/body" "is running on the device (place 2"
# t-1's wait on another connection; its status meanwhile, without a device call
curl -s -m 30 -o "$TMP/w1" -H "$J" -d '{"timeout_ms":0}' "$T/t-1/wait" &
wpid=$!
seen=
for i in $(seq 400); do
  curl -s -m 5 -o "$TMP/st" "$T/t-1"
  s=$(jq -r .state "$TMP/st")
  [[ $s == running && -z $seen ]] && seen=$(jq -c '[.position, .progress.total, (.progress.done <= .progress.total)]' "$TMP/st")
  [[ $s == finished ]] && break
  sleep 0.01
done
wait "$wpid"
[[ $seen == "[1,$((2 * BIG)),true]" ]] && ok || bad "t-1 while it ran: '$seen' (place, total, done<=total)"
[[ $(jq -r '.state, .status, .failed' "$TMP/w1" | tr '\n' ' ') == "finished 1 false " ]] && ok \
  || bad "t-1 wait: $(head -c 200 "$TMP/w1")"
req 200 "$T/t-1"
jbody .state finished
jbody .position null
# Range on the RX image (the loopback gives back the TX bytes)
curl -s -m 10 -o "$TMP/r1" -D "$TMP/h1" -H 'Range: bytes=1000-1999' "$T/t-1/rx"
has "$TMP/h1" "206 Partial Content"
has "$TMP/h1" "Content-Range: bytes 1000-1999/$BIG"
cmp -s "$TMP/r1" <(tail -c +1001 "$TMP/tx.img" | head -c 1000) && ok || bad "Range 1000-1999: wrong bytes"
curl -s -m 10 -o "$TMP/r2" -D "$TMP/h2" -H "Range: bytes=$((BIG - 100))-" "$T/t-1/rx"
has "$TMP/h2" "Content-Range: bytes $((BIG - 100))-$((BIG - 1))/$BIG"
cmp -s "$TMP/r2" <(tail -c 100 "$TMP/tx.img") && ok || bad "Range A-: wrong bytes"
curl -s -m 10 -o "$TMP/r3" -D "$TMP/h3" -H 'Range: bytes=-16' "$T/t-1/rx"
cmp -s "$TMP/r3" <(tail -c 16 "$TMP/tx.img") && ok || bad "Range -16: wrong bytes"
req 416 -H "Range: bytes=$BIG-" "$T/t-1/rx"
has "$TMP/body" "the RX image is $BIG bytes"
curl -s -m 10 -o /dev/null -D "$TMP/h4" -H "Range: bytes=$BIG-" "$T/t-1/rx"
has "$TMP/h4" "Content-Range: bytes */$BIG"
req 416 -H 'Range: bytes=5-2' "$T/t-1/rx"
req 416 -H 'Range: bytes=0-1,5-6' "$T/t-1/rx"
# the whole image, without Range: 200, the same bytes, sent from the image
# without a copy in user space
m0=$(metric "$MV\"rx\"}")
curl -s -m 20 -o "$TMP/rall" -w '%{http_code}' "$T/t-1/rx" >"$TMP/code"
has "$TMP/code" 200
cmp -s "$TMP/rall" "$TMP/tx.img" && ok || bad "RX image differs from the TX image"
[[ $(($(metric "$MV\"rx\"}") - m0)) == "$BIG" && $(metric "$CP\"rx\"}") == 0 ]] && ok \
  || bad "RX bytes moved / copied: $(($(metric "$MV\"rx\"}") - m0)) / $(metric "$CP\"rx\"}")"
rm -f "$TMP/rall"
# a download killed half way: the server keeps serving; the transaction is
# deletable once the broken download is over (never while it streams)
curl -s -m 60 --limit-rate 4M -o "$TMP/partial" "$T/t-1/rx" &
dpid=$!
# the download is under way once its first bytes arrived
for i in $(seq 600); do [[ -s $TMP/partial ]] && break; sleep 0.1; done
req 409 -X DELETE "$T/t-1"
has "$TMP/body" "RX download is in progress"
kill -KILL "$dpid" 2>/dev/null; wait "$dpid" 2>/dev/null
rm -f "$TMP/partial"
req 200 "$U/v1/health"
for i in $(seq 600); do
  c=$(curl -s -m 5 -o "$TMP/body" -w '%{http_code}' -X DELETE "$T/t-1"); [[ $c == 204 ]] && break; sleep 0.1
done
[[ $c == 204 ]] && ok || bad "DELETE t-1 after the killed download: $c $(cat "$TMP/body")"
req 404 "$T/t-1"
has "$TMP/log" "transaction t-1 deleted by its client"
# t-2: its memory comes back when deleted after its wait
req 200 -H "$J" -d '{"timeout_ms":0}' "$T/t-2/wait"
[[ $(metric aieth_image_bytes) == $((2 * BIG)) ]] && ok || bad "image bytes with t-2 held: $(metric aieth_image_bytes)"
req 204 -X DELETE "$T/t-2"
[[ $(metric aieth_image_bytes) == 0 ]] && ok || bad "image bytes after DELETE: $(metric aieth_image_bytes)"
# their mappings (and t-1's) are kept for the next transaction, within
# --max-memory 1024; one reused as an RX
# image reads zero where the device writes nothing (no TX: the graph gets
# no data, the RX channel nothing; the wait times out)
k=$(metric aieth_image_kept_bytes)
[[ $k -ge $((2 * BIG)) && $k -le $((1024 << 20)) ]] && ok || bad "image bytes kept after DELETE: $k"
txn_body 0 $BIG >"$TMP/txn_rx"
req 201 -H "$J" --data-binary @"$TMP/txn_rx" "$T"
jbody .id t-3
[[ $(metric aieth_image_kept_bytes) -lt $k ]] && ok || bad "the RX image did not reuse a kept mapping"
req 202 -X PUT -H "$OS" --data-binary @/dev/null "$T/t-3/tx"
req 200 -H "$J" -d '{"timeout_ms":300}' "$T/t-3/wait"
curl -s -m 20 -o "$TMP/rzero" "$T/t-3/rx"
cmp -s "$TMP/rzero" <(head -c $BIG /dev/zero) && ok \
  || bad "a reused RX image shows earlier data: $(od -An -tx1 -N16 "$TMP/rzero")"
rm -f "$TMP/rzero"
req 204 -X DELETE "$T/t-3"
req 204 -X DELETE "$U/v1/sessions/$SID"
# ---- the remote backend resumes a broken RX download with Range: a proxy
# cuts the first whole download after 1 MiB
cat >"$TMP/proxy.py" <<'EOF'
import socket, sys, threading
up_port = int(sys.argv[1]); cut = [1]
ls = socket.socket(); ls.bind(("127.0.0.1", 0)); ls.listen(16); ls.settimeout(60)
print(ls.getsockname()[1], flush=True)
def pipe(c, u):
    state = {"cut_at": None}
    def down():
        sent = 0
        try:
            while True:
                d = u.recv(65536)
                if not d: break
                if state["cut_at"] is not None:
                    left = state["cut_at"] - sent
                    if len(d) >= left:
                        c.sendall(d[:left]); break
                sent += len(d); c.sendall(d)
        except OSError: pass
        for s in (c, u):
            try: s.shutdown(socket.SHUT_RDWR)
            except OSError: pass
    threading.Thread(target=down, daemon=True).start()
    try:
        while True:
            d = c.recv(65536)
            if not d: break
            t = d.decode("latin-1")
            if cut[0] and "GET " in t and "/rx " in t and "Range:" not in t and "range:" not in t:
                cut[0] = 0; state["cut_at"] = 1 << 20
            u.sendall(d)
    except OSError: pass
while True:
    try: c, _ = ls.accept()
    except socket.timeout: break
    u = socket.create_connection(("127.0.0.1", up_port))
    threading.Thread(target=pipe, args=(c, u), daemon=True).start()
EOF
python3 "$TMP/proxy.py" "${U##*:}" >"$TMP/pport" 2>/dev/null &
PP=$!
PIDS+=("$PP")
for i in $(seq 600); do [[ -s $TMP/pport ]] && break; sleep 0.1; done
PU=http://127.0.0.1:$(head -1 "$TMP/pport")
expect 0 "$RT" -q --backend remote --server "$PU" -o "$TMP/resumed" "$TMP/t16m.json"
grep -q 'GET /v1/sessions/[^ ]*/txns/t-1/rx 206 ' "$TMP/log" && ok \
  || bad "no resumed (206) RX download in the server log: $(grep '/rx ' "$TMP/log" | tail -3)"
kill "$PP" 2>/dev/null; wait "$PP" 2>/dev/null
stop_server 150
has "$TMP/log" "th_server: stopped"

# ---- the idle timeout (a server of its own: the limit under test, 5 s)
# a client killed mid-upload: its session expires after the idle timeout,
# its images are given back, the reset command runs before the next session
start_server "$TMP/log_idle" --idle-timeout 5 --reset-cmd "echo reset >>$RESETS"
req 201 -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
SID=$(jq -r .id "$TMP/body")
T=$U/v1/sessions/$SID/txns
txn_body $BIG >"$TMP/txn"
req 201 -H "$J" --data-binary @"$TMP/txn" "$T"
jbody .id t-1
curl -s -m 60 --limit-rate 8M --trace-ascii "$TMP/upl.trace" -X PUT -H "$OS" \
  --data-binary @"$TMP/tx.img" "$T/t-1/tx" >/dev/null 2>&1 &
upl=$!
# killed once its first body bytes went out
for i in $(seq 600); do grep -q '^=> Send data' "$TMP/upl.trace" 2>/dev/null && break; sleep 0.1; done
grep -q '^=> Send data' "$TMP/upl.trace" && ok || bad "the upload never sent its body"
kill -KILL "$upl" 2>/dev/null; wait "$upl" 2>/dev/null
req 200 "$U/v1/health"
wait_metric aieth_sessions_active 0
req 200 "$U/v1/sessions/$SID"
jbody .state expired
wait_metric aieth_image_bytes 0
for i in $(seq 600); do [[ -s $RESETS ]] && break; sleep 0.1; done
has "$RESETS" reset
has "$TMP/log_idle" "device reset: \"echo reset >>$RESETS\" exited 0"
[[ $(metric aieth_device_reset_failures_total) == 0 ]] && ok || bad "reset failures counted"

# ---- run_test killed while its transaction runs on the server: it saves
# its RX bytes into a FIFO whose reader (this script) never reads, so it
# blocks inside the transaction (its upload stops with it: one thread)
# until it is killed, however fast the run would be
jq '.transactions[0].channels[1].save = {"file": "rx.bin"}' "$TMP/t128m.json" >"$TMP/t128m_save.json"
mkdir -p "$TMP/kill"
mkfifo "$TMP/kill/rx.bin"
exec 7<>"$TMP/kill/rx.bin"
"$RT" -q --backend remote --server "$U" -o "$TMP/kill" "$TMP/t128m_save.json" >/dev/null 2>&1 &
victim=$!
# its transaction made (the second one this server logs)
for i in $(seq 600); do [[ $(grep -c '/txns 201' "$TMP/log_idle") -ge 2 ]] && break; sleep 0.1; done
[[ $(grep -c '/txns 201' "$TMP/log_idle") -ge 2 ]] && ok || bad "the killed client never made its transaction"
kill -0 "$victim" 2>/dev/null && ok || bad "the victim ended before it was killed"
kill -KILL "$victim" 2>/dev/null; wait "$victim" 2>/dev/null
exec 7<&-
req 200 "$U/v1/health"
wait_metric aieth_sessions_active 0
wait_metric aieth_image_bytes 0
expect 0 "$RT" -q --backend remote --server "$U" -o "$TMP/after" "$EX/adder_func/test.json"

stop_server 300

# ---- a slow client that never finishes its request is dropped after
# --client-timeout 2 s (a server of its own: the limit under test), while
# another client is served meanwhile
start_server "$TMP/log_slow" --client-timeout 2
t0=$(date +%s%N)
exec 7<>"/dev/tcp/127.0.0.1/${U##*:}"
printf 'POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Len' >&7
req 200 "$U/v1/health"
expect 0 "$RT" -q --backend remote --server "$U" -o "$TMP/while_slow" "$EX/adder_perf/test.json"
timeout 60 cat <&7 >/dev/null
rc=$?
exec 7<&-
el=$((($(date +%s%N) - t0) / 1000000))
# closed by the server (cat saw EOF, not its own timeout), and not before
# the 2 s: how much later depends on the machine's load
[[ $rc -eq 0 && $el -ge 1500 ]] && ok || bad "slow client: closed after $el ms (cat exit $rc), expected the server to close it after 2 s"

stop_server 300

# ---- --rate-limit: past N requests a second from one address, 429 with
# Retry-After and the limit named; the next second serves again
start_server "$TMP/log_rate" --rate-limit 5
# one curl, one connection, 60 requests: unless they take 12 s or more (a
# machine no test could run on), more than 5 fall in one second: some 429
urls=(); for i in $(seq 60); do urls+=(-o "$TMP/rl$i" "$U/v1/health"); done
curl -s -m 60 -D "$TMP/rh" -w '%{http_code}\n' "${urls[@]}" >"$TMP/rcodes"
n429=$(grep -c '^429$' "$TMP/rcodes")
[[ $n429 -ge 1 && $(head -1 "$TMP/rcodes") == 200 ]] && ok || bad "rate limit: $(tr '\n' ' ' <"$TMP/rcodes")"
has "$TMP/rh" "Retry-After: 1"
f=$(grep -l '"code":"rate_limited"' "$TMP"/rl* | head -1)
[[ -n $f ]] && has "$f" "more than 5 requests in one second, the limit is --rate-limit 5" \
  || bad "no 429 body names rate_limited"
sleep 1.1
req 200 "$U/v1/health"
stop_server 150
# with tokens, each token has its own budget (clients on one host or behind
# one NAT do not starve each other); requests without a valid token share
# the address's; the remote backend waits out a 429 and completes
printf 'ann rate-token-ann-0123456789\nbob rate-token-bob-0123456789\n' >"$TMP/rtokens"
chmod 600 "$TMP/rtokens"
printf 'rate-token-bob-0123456789\n' >"$TMP/rtok_bob"
start_server "$TMP/log_rate2" --rate-limit 5 --token-file "$TMP/rtokens"
urls=(); for i in $(seq 60); do urls+=(-o "$TMP/ra$i" "$U/v1/metrics"); done
curl -s -m 60 -H "Authorization: Bearer rate-token-ann-0123456789" -w '%{http_code}\n' \
  "${urls[@]}" >"$TMP/rcodes_ann"
curl -s -m 5 -H "Authorization: Bearer rate-token-bob-0123456789" -w '%{http_code}\n' \
  -o /dev/null "$U/v1/metrics" >"$TMP/rcode_bob"
if grep -q '^429$' "$TMP/rcodes_ann"; then ok; else bad "ann not limited: $(tr '\n' ' ' <"$TMP/rcodes_ann")"; fi
has "$TMP/rcode_bob" 200
f=$(grep -l '"code":"rate_limited"' "$TMP"/ra* | head -1)
[[ -n $f ]] && has "$f" "token ann: more than 5 requests in one second" || bad "no 429 names token ann"
sleep 1.1
expect 0 timeout 60 "$RT" -q --backend remote --server "$U" --token-file "$TMP/rtok_bob" \
  -o "$TMP/rate_rt" "$EX/adder_perf/test.json"
grep -q ' bob [A-Z]* [^ ]* 429 ' "$TMP/log_rate2" && ok \
  || { bad "run_test was never rate limited: the check above proves nothing"; cat "$TMP/log_rate2" >&2; }
stop_server 150

# ---- a failing reset command is logged and counted; a hanging one is
# killed after --reset-timeout; both leave the server serving
# (the reset runs after a session that expired: --idle-timeout 1 ends the
# first one; what comes after is checked by events, so the short idle
# timeout cannot race the checks)
# session_gets_device ID: the session gets the device (active; or already
# expired again after 1 s idle: it had it)
session_gets_device() {
  local st= i
  for i in $(seq 600); do
    st=$(curl -s -m 5 "$U/v1/sessions/$1" | jq -r .state)
    [[ $st == active || $st == expired ]] && break; sleep 0.1
  done
  [[ $st == active || $st == expired ]] && ok || bad "session $1 after the reset: state '$st'"
}
start_server "$TMP/log_rf" --idle-timeout 1 --reset-cmd 'exit 3'
req 201 -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
wait_metric aieth_device_reset_failures_total 1
has "$TMP/log_rf" "exited 3 ("
has "$TMP/log_rf" ": FAILED"
req 201 -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
session_gets_device "$(jq -r .id "$TMP/body")"
# expired (1 s idle) before the stop: a drain with a session open waits out
# the 5 s collect window (tested below)
wait_metric aieth_sessions_active 0
stop_server 150
MARK=hung-reset-$$-$RANDOM
# (--reset-timeout 5: each hung reset is waited out, twice; what must
# happen within it takes a few requests, well under a second even under
# qemu)
start_server "$TMP/log_rh" --idle-timeout 1 --reset-cmd "sleep 60; : $MARK" --reset-timeout 5
req 201 -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
wait_metric aieth_sessions_active 0
# the reset runs (killed after 5 s): the server answers meanwhile (its lock
# is not held: the answer comes while the reset still runs), and the next
# session waits for the device until the reset is over
req 200 "$U/v1/metrics"
if grep -q "killed after the reset timeout" "$TMP/log_rh"; then
  bad "metrics answered only after the hung reset was killed"; else ok; fi
req 201 -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
jbody .state queued
jbody .position 1
NS=$(jq -r .id "$TMP/body")
session_gets_device "$NS"
has "$TMP/log_rh" "killed after the reset timeout of 5 s"
[[ $(metric aieth_device_reset_failures_total) == 1 ]] && ok || bad "the hung reset was not counted"
# expired before the stop (no collect window); the stop then waits for the
# second hung reset, which must be killed too
wait_metric aieth_sessions_active 0
stop_server 150
if pgrep -f "$MARK" >/dev/null 2>&1; then bad "the hung reset command was left running"; else ok; fi

# ---- SIGTERM while a remote client's transaction runs: th_server drains
# (the transaction ends, interrupted or done), resets the device and exits
# 0 within a bound; the client gets its result or exit 3 naming why. The
# client is held inside its transaction by an event, not by being slow: it
# saves its RX bytes into a FIFO this script reads only once th_server
# has said it drains (else a fast run could end its session first, and a
# drain with no session open has no device to reset)
mkdir -p "$TMP/drain"
mkfifo "$TMP/drain/rx.bin"
exec 8<>"$TMP/drain/rx.bin"
start_server "$TMP/log_d" --reset-cmd "echo drained >>$TMP/dreset"
"$RT" -q --backend remote --server "$U" -o "$TMP/drain" "$TMP/t128m_save.json" >"$TMP/drain.out" 2>&1 &
cl=$!
wait_log "$TMP/log_d" "/txns 201" && ok || bad "the drained client never made its transaction"
kill -0 "$cl" 2>/dev/null && ok || bad "the drained client ended before the drain"
kill -TERM "$SP"
wait_log "$TMP/log_d" "signal 15: draining" && ok || bad "th_server never said it drains"
cat <&8 >/dev/null &
reader=$!
exec 8<&-
for i in $(seq 600); do kill -0 "$SP" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$SP" 2>/dev/null; then bad "th_server did not stop on SIGTERM"; kill -KILL "$SP"; fi
wait "$SP"; src=$?
[[ $src -eq 0 ]] && ok || bad "th_server exit $src after SIGTERM"
for i in $(seq 600); do kill -0 "$cl" 2>/dev/null || break; sleep 0.1; done
wait "$cl"; crc=$?
kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null
# the emulated board notices the interrupt between its simulation steps: the
# transaction ends interrupted (exit 3, the server named), or it had run to
# its end and its result went out before the server closed (exit 0), or the
# next request was refused as the server stopped (exit 3); never a connection
# cut under a running request
if [[ $crc -eq 0 ]]; then
  jq -e '.summary.passed == 1' "$TMP/drain/report.json" >/dev/null && ok || bad "drained client: exit 0 without a pass"
elif [[ $crc -eq 3 ]] && grep -Eq "stopped while it ran transaction t-1|the server is stopping" "$TMP/drain/report.json"; then
  ok
else
  bad "drained client exit $crc:"; cat "$TMP/drain.out" >&2; grep -o '"message": "[^"]*"' "$TMP/drain/report.json" >&2
fi
has "$TMP/log_d" "signal 15: draining"
has "$TMP/dreset" drained

# ---- a drain keeps serving results: a transaction that finished before
# SIGTERM is still collected (result, RX image) and its session ended;
# new work is refused (503); the server stops once its clients are done
start_server "$TMP/log_c"
req 201 -H "$J" -d '{"board":"vck190","graphs":[{"name":"lb","model":"loopback","params":{"channels":[1],"window_bytes":4096}}]}' "$U/v1/sessions"
SID=$(jq -r .id "$TMP/body")
T=$U/v1/sessions/$SID/txns
req 204 -H "$J" -d '{"iterations":-1}' "$U/v1/sessions/$SID/graphs/lb/run"
txn_body 65536 >"$TMP/txn"
req 201 -H "$J" --data-binary @"$TMP/txn" "$T"
head -c 65536 "$TMP/tx.img" >"$TMP/tx64k.img"
req 202 -X PUT -H "$OS" --data-binary @"$TMP/tx64k.img" "$T/t-1/tx"
req 200 -H "$J" -d '{"timeout_ms":0}' "$T/t-1/wait"
jbody .state finished
kill -TERM "$SP"
wait_log "$TMP/log_c" "signal 15: draining" && ok || bad "no drain after SIGTERM"
req 200 "$T/t-1"
jbody .state finished
req 200 "$T/t-1/rx"
cmp -s "$TMP/body" "$TMP/tx64k.img" && ok || bad "the RX image collected during the drain differs"
req 503 -H "$J" --data-binary @"$TMP/txn" "$T"
has "$TMP/body" "the server is stopping"
req 503 -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
req 503 -H "$J" -d '{"iterations":1}' "$U/v1/sessions/$SID/graphs/lb/run"
req 200 "$U/v1/health"
req 204 -X DELETE "$U/v1/sessions/$SID"
for i in $(seq 600); do kill -0 "$SP" 2>/dev/null || break; sleep 0.1; done
wait "$SP"; rc=$?
[[ $rc -eq 0 ]] && ok || bad "th_server: exit $rc after the last session ended"
# it stopped because its last session ended, not at the collect window
has "$TMP/log_c" "drain: no HTTP session left open"
if grep -q "collect window is over" "$TMP/log_c"; then bad "the drain waited the collect window"; else ok; fi
# a client that never ends its session: the drain waits the collect window, no more
start_server "$TMP/log_c2"
req 201 -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
t0=$(date +%s%N)
stop_server 600
el=$((($(date +%s%N) - t0) / 1000000))
has "$TMP/log_c2" "drain: the 5 s collect window is over with 1 HTTP session open"
[[ $el -ge 4500 ]] && ok || bad "a drain with an idle session took $el ms (expected at least the 5 s collect window)"

# ---- th_server under valgrind: a session, a client killed mid-upload,
# SIGTERM; no error, no definite leak
if [[ ${AIETH_SAN:-0} == 1 ]]; then
  echo "server_faults.sh: valgrind run skipped (AIETH_SAN=1: ASan binaries do not run under valgrind; this suite under ASan is the ASan test)"
elif ! command -v valgrind >/dev/null; then
  echo "server_faults.sh: valgrind run skipped (no valgrind installed)"
else
  : >"$TMP/log_vg"   # exists before the reads below (the job opens it later)
  valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    "$TS" --listen 127.0.0.1:0 --idle-timeout 5 --reset-cmd true >"$TMP/log_vg" 2>&1 &
  SP=$!
  PIDS+=("$SP")
  port=
  for i in $(seq 600); do
    port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$TMP/log_vg")
    [[ -n $port ]] && break; sleep 0.1
  done
  U=http://127.0.0.1:$port
  [[ -n $port ]] && ok || bad "th_server under valgrind did not start: $(cat "$TMP/log_vg")"
  expect 0 "$RT" -q --backend remote --server "$U" -o "$TMP/vg1" "$EX/adder_func/test.json"
  req 201 -H "$J" -d '{"board":"vck190"}' "$U/v1/sessions"
  VS=$(jq -r .id "$TMP/body")
  txn_body 1048576 >"$TMP/vtxn"
  req 201 -H "$J" --data-binary @"$TMP/vtxn" "$U/v1/sessions/$VS/txns"
  head -c 1048576 "$TMP/tx.img" >"$TMP/vimg"
  curl -s -m 60 --limit-rate 100K --trace-ascii "$TMP/vupl.trace" -X PUT -H "$OS" \
    --data-binary @"$TMP/vimg" "$U/v1/sessions/$VS/txns/t-1/tx" >/dev/null 2>&1 &
  upl=$!
  for i in $(seq 600); do grep -q '^=> Send data' "$TMP/vupl.trace" 2>/dev/null && break; sleep 0.1; done
  kill -KILL "$upl" 2>/dev/null; wait "$upl" 2>/dev/null
  wait_metric aieth_sessions_active 0
  kill -TERM "$SP"
  for i in $(seq 300); do kill -0 "$SP" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$SP" 2>/dev/null; then bad "th_server under valgrind did not stop"; kill -KILL "$SP"; fi
  wait "$SP"; vrc=$?
  [[ $vrc -eq 0 ]] && ok || { bad "th_server under valgrind: exit $vrc"; grep '==' "$TMP/log_vg" | head -40 >&2; }
fi
finish
