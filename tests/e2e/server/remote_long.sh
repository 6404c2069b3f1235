#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Long device work through th_server: a transaction whose
# device time outlasts the client's stall limit passes (the wait is bounded
# by the transaction's own timeout, never by a transport stall limit), and
# --max-session ends a session that holds the device past it while another
# client waits, even in the middle of a transaction. The device is made
# slow by a real graph model, tests/plugins/slow_loopback.c (1.5 s of wall
# time per compute call), named by its file name from the server's
# --model-dir. Every wait is bounded; nothing depends on scheduling.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
th_server_setup
[[ -f $B/plugins/slow_loopback.so ]] || { echo "remote_long.sh: skipped (no test plugins in $B)"; exit 0; }

# desc NAME N: N transactions of 4 KiB through PLIO_01 of the slow loopback
# (FUNC; each one a compute call: 1.5 s of device time)
desc() {
  local i t=
  for i in $(seq "$2"); do
    t+="{\"name\": \"t$i\", \"mode\": \"func\", \"timeout_ms\": 120000, \"channels\": [
   {\"plio\": \"PLIO_01_TO_AIE\", \"size\": 4096, \"data\": {\"pattern\": \"ramp\", \"type\": \"uint32\", \"start\": 0, \"step\": 1}},
   {\"plio\": \"PLIO_01_FROM_AIE\", \"size\": 4096, \"golden\": {\"pattern\": \"ramp\", \"type\": \"uint32\", \"start\": 0, \"step\": 1}}]},"
  done
  printf '{"schema": "aieth-test/1", "name": "%s", "board": "vck190",\n "graphs": [{"name": "gr", "model": "slow_loopback"}],\n "transactions": [%s]}\n' "$1" "${t%,}"
}
desc slow_1 1 >"$TMP/slow.json"

# ---- a wait longer than the stall limit (1 s here, 60 by default)
start_server "$TMP/log" --model-dir "$B/plugins"
AIETH_REMOTE_STALL_S=1 expect 0 timeout 300 "$RT" -q --backend remote --server "$U" \
  -o "$TMP/long" "$TMP/slow.json"
# the server's log says how long the wait request was: over the limit
ms=$(sed -n 's|.* POST /v1/sessions/[^ ]*/txns/t-1/wait 200 .* \([0-9][0-9]*\)ms$|\1|p' "$TMP/log" | head -1)
[[ -n $ms && $ms -ge 1000 ]] && ok || bad "the transaction's wait took '$ms' ms: not longer than the 1 s stall limit, the check proves nothing"
jq -e '.summary.passed == 1' "$TMP/long/report.json" >/dev/null && ok || bad "the long run did not pass"
# and a request that really stalls still ends at the limit: th_server stopped
# with SIGSTOP never answers
kill -STOP "$SP"
AIETH_REMOTE_STALL_S=1 expect 5 timeout 120 "$RT" -q --backend remote --server "$U" \
  -o "$TMP/stalled" "$TMP/slow.json"
kill -CONT "$SP"
has "$TMP/stalled/report.json" "AIETH_REMOTE_STALL_S"
stop_server

# ---- --max-session 2: the holder (8 transactions, 12 s of device time) is
# ended once it held the device 2 s while a second client waits; the second
# one is served
start_server "$TMP/log_ms" --model-dir "$B/plugins" --max-session 2
desc slow_many 8 >"$TMP/many.json"
"$RT" -q --backend remote --server "$U" -o "$TMP/holder" "$TMP/many.json" >"$TMP/holder.out" 2>&1 &
holder=$!
log_has "$TMP/log_ms" "POST /v1/sessions/[^ ]*/txns/t-1/tx|PUT /v1/sessions/[^ ]*/txns/t-1/tx" \
  || bad "the holder never started its transaction"
expect 0 timeout 300 "$RT" -q --backend remote --server "$U" -o "$TMP/second" \
  "$S/examples/adder_perf/test.json"
wait "$holder"; hrc=$?
[[ $hrc -eq 3 ]] && ok || { bad "the holder past --max-session: exit $hrc, expected 3"; cat "$TMP/holder.out" >&2; }
has "$TMP/holder/report.json" "--max-session 2 s"
has "$TMP/log_ms" "--max-session 2 s"
stop_server
finish
