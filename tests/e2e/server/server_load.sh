#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_server under load: 16 run_test --backend remote clients at
# once, each with its own token (the log names it): each completes with the
# local result, they are served first come, first served by arrival (the
# order in which the server gave out their session ids, under its lock as
# each entered the queue, is the order in which they got the device), and
# the server is healthy after (nothing queued, active or held). Which client
# arrives first is the scheduler's business, not the test's: nothing here
# depends on the order in which the clients were started. Every wait is
# bounded.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
th_server_setup
NC=16

: >"$TMP/tokens"
for i in $(seq -w 1 $NC); do
  printf 'c%s load-test-token-%s-0123456789\n' "$i" "$i" >>"$TMP/tokens"
  printf 'load-test-token-%s-0123456789\n' "$i" >"$TMP/token$i"
done
printf 'holder load-test-token-holder-0123456789\n' >>"$TMP/tokens"
HA="Authorization: Bearer load-test-token-holder-0123456789"
chmod 600 "$TMP/tokens"
start_server "$TMP/log" --token-file "$TMP/tokens" --max-queue $NC --max-wait 60
# each client moves 16 MiB each way (FUNC, a loopback graph)
cat >"$TMP/t16m.json" <<EOF
{"schema": "aieth-test/1", "name": "load_16m", "board": "vck190",
 "description": "16 MiB through a loopback graph (FUNC)",
 "graphs": [{"name": "loopback", "model": "loopback", "params": {"channels": [1], "window_bytes": 4096}}],
 "transactions": [{"name": "t", "mode": "func", "timeout_ms": 60000, "channels": [
   {"plio": "PLIO_01_TO_AIE", "size": 16777216, "data": {"pattern": "random", "seed": 7}},
   {"plio": "PLIO_01_FROM_AIE", "size": 16777216, "golden": {"pattern": "random", "seed": 7}}]}]}
EOF
expect 0 "$RT" -q -o "$TMP/local" "$TMP/t16m.json"
# a session holds the device while the clients arrive: all of them queue
curl -s -m 5 -H "$HA" -H 'Content-Type: application/json' -d '{"board":"vck190"}' "$U/v1/sessions" >"$TMP/hold"
HOLD=$(jq -r .id "$TMP/hold")
[[ $HOLD == s-1-* ]] && ok || bad "holder session: $(cat "$TMP/hold")"
cp=()
for i in $(seq -w 1 $NC); do
  timeout 60 "$RT" -q --backend remote --server "$U" --token-file "$TMP/token$i" \
    -o "$TMP/run$i" "$TMP/t16m.json" >"$TMP/run$i.out" 2>&1 &
  cp+=($!)
done
# all of them queued (a metric, polled for up to 120 s: a loaded machine or
# qemu starts 16 clients slowly)
for i in $(seq 1200); do
  q=$(curl -s -m 5 -H "$HA" "$U/v1/metrics" | sed -n 's/^aieth_queue_length //p')
  [[ $q == "$NC" ]] && break
  sleep 0.1
done
[[ $q == "$NC" ]] && ok || bad "queue length $q with $NC clients waiting"
curl -s -m 5 -o /dev/null -X DELETE -H "$HA" "$U/v1/sessions/$HOLD"
i=0
for p in "${cp[@]}"; do
  i=$((i + 1))
  wait "$p"; rc=$?
  [[ $rc -eq 0 ]] && ok || bad "client $i: exit $rc: $(tail -3 "$TMP/run$(printf %02d $i).out")"
done
for i in $(seq -w 1 $NC); do
  [[ $(jq -r .summary.passed "$TMP/run$i/report.json" 2>/dev/null) == 1 ]] && ok || bad "client $i: report"
done
# arrival order is the order of the session ids (given under the server's
# lock as each session enters the queue): the clients got ids 2..17, one
# each (1 is the holder's), in whatever order they arrived; service order:
# their first transactions, by session id, count up the same way
for i in $(seq -w 1 $NC); do
  grep -m1 -o " c$i [A-Z]* /v1/sessions/s-[0-9]*-" "$TMP/log" | sed 's/.*s-\([0-9]*\)-$/\1/'
done | sort -n >"$TMP/ids"
if cmp -s "$TMP/ids" <(seq 2 $((NC + 1))); then ok; else bad "session ids of c01..c16 (sorted): $(tr '\n' ' ' <"$TMP/ids")"; fi
grep -o 'POST /v1/sessions/s-[0-9]*-[0-9a-f]*/txns ' "$TMP/log" | awk -F'[/-]' '!seen[$5]++ {print $5}' >"$TMP/served"
if cmp -s "$TMP/served" <(seq 2 $((NC + 1))); then ok; else bad "served out of arrival order: $(tr '\n' ' ' <"$TMP/served")"; fi
# they were at once: each waited in the queue, polling its place
polls=$(grep -c ' c[0-9]* GET /v1/sessions/s-[0-9]*-[0-9a-f]* 200 ' "$TMP/log")
[[ $polls -ge $NC ]] && ok || bad "only $polls queue polls: the clients did not queue"
# still healthy: nothing queued, active or held; every session counted
A=$HA
curl -s -m 5 -o "$TMP/h" -w '%{http_code}' "$U/v1/health" >"$TMP/hc"
has "$TMP/hc" 200
curl -s -m 5 -H "$A" "$U/v1/metrics" >"$TMP/m"
has "$TMP/m" "aieth_sessions_active 0"
has "$TMP/m" "aieth_queue_length 0"
has "$TMP/m" "aieth_image_bytes 0"
has "$TMP/m" "aieth_sessions_total $((NC + 1))"
if grep -q 'status="429"' "$TMP/m"; then bad "clients were rate limited"; else ok; fi
# and serves the next client
expect 0 "$RT" -q --backend remote --server "$U" --token-file "$TMP/token01" -o "$TMP/after" "$EX/adder_perf/test.json"
kill -TERM "$SP"
for i in $(seq 100); do kill -0 "$SP" 2>/dev/null || break; sleep 0.1; done
wait "$SP"; [[ $? -eq 0 ]] && ok || bad "th_server did not drain on SIGTERM"
finish
