#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_test --backend remote against a server that lies, stalls or floods
# (tests/tools/fake_th_server.py in front of a real th_server): a reply
# outside the protocol is exit 3, never a pass, and leaves no garbage in
# report.json; a session queued for ever ends at --queue-timeout with its
# place shown; a wait longer than the transport's stall limit
# (AIETH_REMOTE_STALL_S) still succeeds while a silent health request ends
# at it; --server with user:password@ is refused with no trace of the
# password; the artifacts are bounded (--max-artifacts). Every wait is
# bounded: each run under `timeout`, each fake server stops by itself.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
FAKE=$S/tests/tools/fake_th_server.py
th_server_setup
start_server "$TMP/log"
UP=$U
T=$EX/adder_perf/test.json

# fake NAME ARGS...: a fake server in front of th_server; sets F (its URL)
fake() {
  local name=$1; shift
  python3 "$FAKE" --upstream "$UP" --port-file "$TMP/$name.port" --max-seconds 120 "$@" \
    2>"$TMP/$name.flog" &
  PIDS+=("$!")
  disown "$!"  # killed by the trap, quietly
  local i
  for i in $(seq 100); do [[ -s $TMP/$name.port ]] && break; sleep 0.1; done
  [[ -s $TMP/$name.port ]] || { bad "fake server $name did not start: $(cat "$TMP/$name.flog")"; finish; exit 1; }
  F=http://127.0.0.1:$(cat "$TMP/$name.port")
}
# remote OUT ARGS...: run_test --backend remote through $F (60 s at most)
remote() {
  local out=$1; shift
  timeout -k 5 60 "$RT" -q --backend remote --server "$F" -o "$TMP/$out" "$@"
}
# clean OUT: report.json holds only what a failed transaction may say: the
# test and every channel an error, no channel finished, no cycles, no bytes
# beyond those expected, no data check passed
clean() {
  local r=$TMP/$1/report.json
  jq -e '.tests[0].status == "error" and .tests[0].exit_code == 3
    and ([.tests[0].transactions[].channels[]] | length) == 3
    and all(.tests[0].transactions[].channels[];
      .verdict == "error" and .finished == false and .first_cycle == null
      and .cycles == null and .bytes_moved <= .bytes_expected
      and (.plio | test("^PLIO_0[12]_(TO|FROM)_AIE$")))' "$r" >/dev/null \
    && ok || { bad "$1: report.json: $(jq -c '.tests[0].transactions' "$r" | head -c 600)"; }
  python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$r" >"$TMP/$1.schema" \
    && ok || bad "$1: report.json breaks the schema: $(head -3 "$TMP/$1.schema")"
}
# clean_start OUT: a transaction refused at its start: the test an error
# (exit 3), the transaction failed with no channel result at all
clean_start() {
  local r=$TMP/$1/report.json
  jq -e '.tests[0].status == "error" and .tests[0].exit_code == 3
    and (.tests[0].transactions | length) == 1
    and .tests[0].transactions[0].status == "failed"
    and .tests[0].transactions[0].channels == null' "$r" >/dev/null \
    && ok || { bad "$1: report.json: $(jq -c '.tests[0].transactions' "$r" | head -c 600)"; }
  python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$r" >"$TMP/$1.schema" \
    && ok || bad "$1: report.json breaks the schema: $(head -3 "$TMP/$1.schema")"
}

# the fake server itself is transparent
fake plain
expect 0 remote plain "$T"

# a status outside the protocol: 99, -1, 0 (pending), a duplicate key that
# hides 99 behind 1, a string: exit 3 (protocol error), never a pass
i=0
for set in status=99 status=-1 status=0 'status="1"'; do
  i=$((i + 1))
  fake "st$i" --wait-set "$set"
  expect 3 remote "st$i" "$T"
  has "$TMP/st$i/report.json" "protocol error"
  clean "st$i"
done
fake dup --wait-set status=99 --wait-append ', "status": 1'
expect 3 remote dup "$T"
has "$TMP/dup/report.json" "protocol error"
has "$TMP/dup/report.json" "duplicate"
# fields of the wrong shape: each a protocol error naming the field
fake perf --wait-trim perf
expect 3 remote perf "$T"
has "$TMP/perf/report.json" '\"perf\" must be an array of'
fake neg --wait-set 'tx_moved_bytes=[-1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]'
expect 3 remote neg "$T"
has "$TMP/neg/report.json" '\"tx_moved_bytes\"[0] = -1'
fake short --wait-trim rx_last
expect 3 remote short "$T"
has "$TMP/short/report.json" '\"rx_last\" must be an array of 36 numbers'
fake conn --wait-set 'rx_connected=[2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]'
expect 3 remote conn "$T"
has "$TMP/conn/report.json" '\"rx_connected\"[0] = 2'
fake nomsg --wait-del message
expect 3 remote nomsg "$T"
has "$TMP/nomsg/report.json" "message"
fake state --wait-set 'state="running"'
expect 3 remote state "$T"
has "$TMP/state/report.json" 'state \"running\"'
fake sname --wait-set 'status_name="TIMEOUT"'
expect 3 remote sname "$T"
has "$TMP/sname/report.json" 'does not name'
fake hexp --wait-set 'perf=["0xzz"]'
expect 3 remote hexp "$T"
# the fields the wait reply echoes are the submitted transaction's: another
# channel count or image size is a protocol error naming the field, the
# value echoed and the value sent (a reply for another transaction), never a pass
fake echo_ch --wait-set channels=35
expect 3 remote echo_ch "$T"
has "$TMP/echo_ch/report.json" 'protocol error in a transaction'"'"'s wait reply'
has "$TMP/echo_ch/report.json" '\"channels\" is 35, the transaction was submitted with 36'
clean echo_ch
fake echo_tx --wait-set tx_bytes=999999984
expect 3 remote echo_tx "$T"
has "$TMP/echo_tx/report.json" '\"tx_bytes\" is 999999984, the transaction was submitted with '
clean echo_tx
fake echo_rx --wait-set rx_bytes=0
expect 3 remote echo_rx "$T"
has "$TMP/echo_rx/report.json" '\"rx_bytes\" is 0, the transaction was submitted with '
fake echo_del --wait-del tx_bytes
expect 3 remote echo_del "$T"
has "$TMP/echo_del/report.json" 'tx_bytes'
has "$TMP/echo_del/report.json" 'protocol error'
# a new transaction's reply without "stream", or not a boolean: a protocol
# error; "stream": false where the server would stream: the serial way, a pass
fake nostream --txn-del stream
expect 3 remote nostream "$T"
has "$TMP/nostream/report.json" 'protocol error: the transaction reply has no \"stream\": true or false'
fake strstream --txn-set 'stream="yes"'
expect 3 remote strstream "$T"
has "$TMP/strstream/report.json" 'protocol error: the transaction reply has no \"stream\": true or false'
fake serial --txn-set stream=false --txn-set 'state="awaiting_tx"'
expect 0 remote serial "$T"
# the new transaction's reply (201) echoes the transaction too, checked by
# the same code as the wait reply: another channel count or image size, or
# one missing, is a protocol error naming the field, the value echoed and
# the value sent, before any image is sent or any result taken
fake cr_ch --txn-set channels=35
expect 3 remote cr_ch "$T"
has "$TMP/cr_ch/report.json" 'protocol error: the transaction reply: \"channels\" is 35, the transaction was submitted with 36'
clean_start cr_ch
fake cr_tx --txn-set tx_bytes=999999984
expect 3 remote cr_tx "$T"
has "$TMP/cr_tx/report.json" 'protocol error: the transaction reply: \"tx_bytes\" is 999999984, the transaction was submitted with '
clean_start cr_tx
fake cr_rx --txn-del rx_bytes
expect 3 remote cr_rx "$T"
has "$TMP/cr_rx/report.json" 'protocol error: the transaction reply: required key \"rx_bytes\" is missing'
clean_start cr_rx
# the serial way too (no "stream" asked), and no TX image goes out
fake cr_ser --txn-set channels=1 --txn-set stream=false --txn-set 'state="awaiting_tx"'
AIETH_REMOTE_STREAM=0 expect 3 remote cr_ser "$T"
has "$TMP/cr_ser/report.json" 'protocol error: the transaction reply: \"channels\" is 1, the transaction was submitted with 36'
clean_start cr_ser
grep -q '"POST /v1/sessions/[^ ]*/txns HTTP/1.1" 201' "$TMP/cr_ser.flog" \
  && ! grep -q '"PUT /v1/sessions/[^ ]*/tx HTTP' "$TMP/cr_ser.flog" && ok \
  || bad "cr_ser: a TX image was sent after a refused reply: $(cat "$TMP/cr_ser.flog")"
# ... and its other fields: TX bytes received before any upload, a state
# other than "stream" says, a stream not asked for
fake cr_got --txn-set tx_received=16
expect 3 remote cr_got "$T"
has "$TMP/cr_got/report.json" '\"tx_received\" is 16, no TX byte was uploaded yet'
fake cr_state --txn-set 'state="awaiting_tx"'
expect 3 remote cr_state "$T"
has "$TMP/cr_state/report.json" '\"state\" \"awaiting_tx\" (expected \"running\", \"stream\" being true)'
fake cr_unasked --txn-set stream=true
AIETH_REMOTE_STREAM=0 expect 3 remote cr_unasked "$T"
has "$TMP/cr_unasked/report.json" '\"stream\" is true, the transaction was submitted with false'
# a graph's status of the wrong type: an error, not a count
fake gcomp --graph-set 'iterations_done="128"'
expect 3 remote gcomp "$T"
has "$TMP/gcomp/report.json" "protocol error in a graph reply"
jq -e '.tests[0].error.phase == "graph status"' "$TMP/gcomp/report.json" >/dev/null && ok \
  || bad "gcomp: $(jq -c .tests[0].error "$TMP/gcomp/report.json")"

# queued for ever: the client's own bound, the place on the progress line
fake queued --queued-forever 3
expect 3 timeout -k 5 60 "$RT" --progress --backend remote --server "$F" --queue-timeout 2 \
  -o "$TMP/queued" "$T"
has "$TMP/queued/report.json" "still queued at position 3 after 2 s"
has "$TMP/err" "queued at position 3 for"
expect 2 "$RT" -q --queue-timeout 0 "$T"
expect 2 "$RT" -q --queue-timeout x "$T"

# the stall limit: a silent health request ends at AIETH_REMOTE_STALL_S
# (the fake server keeps it silent for 100 s, the run is bounded to 30 s):
# a server that hangs, exit 5
fake stall --stall-health 100
expect 5 env AIETH_REMOTE_STALL_S=1 timeout -k 5 30 "$RT" -q --backend remote --server "$F" \
  -o "$TMP/stall" "$T"
has "$TMP/stall/report.json" "GET /v1/health: no answer in time"
has "$TMP/stall/report.json" "limits: 120 s in all, 1 s without a byte (AIETH_REMOTE_STALL_S)"
expect 2 env AIETH_REMOTE_STALL_S=0 "$RT" -q --backend remote --server "$F" -o "$TMP/st0" "$T"
has "$TMP/st0/report.json" "AIETH_REMOTE_STALL_S"
# ... while a transaction's wait and a graph's wait that each stay silent
# more than twice as long pass: a wait is bounded by its own timeout
# (adder_perf: 5 s, plus a margin), not by the stall limit (2 s here: the
# other requests, answered in milliseconds, keep a wide margin under load)
fake slow --delay-wait 5
AIETH_REMOTE_STALL_S=2 expect 0 remote slow "$T"
jq -e '.tests[0].status == "pass" and .tests[0].graphs[0].status == "complete"' \
  "$TMP/slow/report.json" >/dev/null && ok || bad "slow waits: not a pass"
[[ $(grep -cE '"POST /v1/sessions/[^ ]*/wait HTTP/1.1" 20[04]' "$TMP/slow.flog") == 2 ]] && ok \
  || bad "slow waits: the fake server did not answer both waits: $(cat "$TMP/slow.flog")"

# user:password@ in --server or AIETH_SERVER: refused (2), nothing recorded
expect 2 "$RT" -q --backend remote --server "http://u:hunter2secret@127.0.0.1:${UP##*:}" -o "$TMP/ui" "$T"
has "$TMP/err" "user:password@"
if grep -rqF hunter2secret "$TMP/ui" "$TMP/err" 2>/dev/null; then bad "the password is in OUT or the message"; else ok; fi
AIETH_SERVER="http://u:hunter2secret@127.0.0.1:${UP##*:}" expect 2 "$RT" -q --backend remote -o "$TMP/ui2" "$T"
if grep -rqF hunter2secret "$TMP/ui2" "$TMP/err" 2>/dev/null; then bad "the password is in OUT or the message (AIETH_SERVER)"; else ok; fi

# artifacts: the listed total past --max-artifacts: none fetched, the test
# says why; a file that grows past it while it comes: not kept, no partial
# file left; within the limit: fetched
fake art --artifacts 2:700000
expect 0 remote art --max-artifacts 1 "$T"
has "$TMP/art/report.json" "more than the limit of 1048576 bytes in all"
[[ -z $(ls -A "$TMP/art/artifacts" 2>/dev/null) ]] && ok || bad "artifacts written past the limit: $(ls -A "$TMP/art/artifacts")"
fake lie --artifacts 1:100:3000000
expect 0 remote lie --max-artifacts 1 "$T"
has "$TMP/lie/report.json" "big0.bin: more than 1048576 bytes came"
[[ -z $(ls -A "$TMP/lie/artifacts" 2>/dev/null) ]] && ok || bad "a partial artifact is left: $(ls -A "$TMP/lie/artifacts")"
python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$TMP/lie/report.json" >/dev/null \
  && ok || bad "lie: report.json breaks the schema"
fake fits --artifacts 2:1000
expect 0 remote fits --max-artifacts 1 "$T"
[[ $(jq '.tests[0].artifacts | length' "$TMP/fits/report.json") == 2 && \
   $(stat -c %s "$TMP/fits/artifacts/big1.bin") == 1000 ]] && ok || bad "artifacts within the limit not fetched"
expect 2 "$RT" -q --max-artifacts 0 "$T"
# a session id longer than the client keeps (63 bytes) is refused, never cut
# short to the id of another session (last: the session it refused holds
# the device until th_server's idle limit)
fake longsid --session-set "id=\"s-$(printf '%070d' 7)\""
expect 3 remote longsid "$T"
has "$TMP/longsid/report.json" 'the session reply has no valid id (1..63 bytes'

kill -0 "$SP" && ok || bad "th_server died"
finish
