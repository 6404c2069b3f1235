#!/usr/bin/env bash
# th_server under load (issue 11): 16 run_test --backend remote clients at
# once, started in a known order 50 ms apart, each with its own token (the
# log names it): each completes with the local result, they are served in
# arrival order (the order in which their sessions were created is the
# order in which they got the device), and the server is healthy after
# (nothing queued, active or held). Every wait is bounded.
. "$(dirname "$0")/lib.sh"
RT=$B/bin/run_test
EX=$S/examples
th_server_setup
NC=16

: >"$TMP/tokens"
for i in $(seq -w 1 $NC); do
  printf 'c%s load-test-token-%s-0123456789\n' "$i" "$i" >>"$TMP/tokens"
  printf 'load-test-token-%s-0123456789\n' "$i" >"$TMP/token$i"
done
start_server "$TMP/log" --token-file "$TMP/tokens" --max-queue $NC --max-wait 60
# each client moves 16 MiB each way (FUNC, a loopback graph): long enough
# for the clients to overlap and queue
cat >"$TMP/t16m.json" <<EOF
{"schema": "aieth-test/1", "name": "load_16m", "board": "vck190",
 "description": "16 MiB through a loopback graph (FUNC)",
 "graphs": [{"name": "loopback", "model": "loopback", "params": {"channels": [1], "window_bytes": 4096}}],
 "transactions": [{"name": "t", "mode": "func", "timeout_ms": 60000, "channels": [
   {"plio": "PLIO_01_TO_AIE", "size": 16777216, "data": {"pattern": "random", "seed": 7}},
   {"plio": "PLIO_01_FROM_AIE", "size": 16777216, "golden": {"pattern": "random", "seed": 7}}]}]}
EOF
expect 0 "$RT" -q -o "$TMP/local" "$TMP/t16m.json"
cp=()
for i in $(seq -w 1 $NC); do
  timeout 60 "$RT" -q --backend remote --server "$U" --token-file "$TMP/token$i" \
    -o "$TMP/run$i" "$TMP/t16m.json" >"$TMP/run$i.out" 2>&1 &
  cp+=($!)
  sleep 0.05
done
i=0
for p in "${cp[@]}"; do
  i=$((i + 1))
  wait "$p"; rc=$?
  [[ $rc -eq 0 ]] && ok || bad "client $i: exit $rc: $(tail -3 "$TMP/run$(printf %02d $i).out")"
done
for i in $(seq -w 1 $NC); do
  [[ $(jq -r .summary.passed "$TMP/run$i/report.json" 2>/dev/null) == 1 ]] && ok || bad "client $i: report"
done
# arrival order: the clients' session creations, by token name; service
# order: their first transaction, by token name. Both c01..c16.
seq -f 'c%02g' 1 $NC >"$TMP/want"
grep ' POST /v1/sessions 201 ' "$TMP/log" | awk '{print $3}' >"$TMP/arrived"
awk '$4 == "POST" && $5 ~ /\/txns$/ && !seen[$3]++ {print $3}' "$TMP/log" >"$TMP/served"
if cmp -s "$TMP/want" "$TMP/arrived"; then ok; else bad "arrival order: $(tr '\n' ' ' <"$TMP/arrived")"; fi
if cmp -s "$TMP/arrived" "$TMP/served"; then ok; else
  bad "served out of arrival order: $(tr '\n' ' ' <"$TMP/served")"; fi
# the sessions' ids count up in the same order
grep -o 'POST /v1/sessions/s-[0-9]*-[0-9a-f]*/txns ' "$TMP/log" | awk -F'[/-]' '!seen[$5]++ {print $5}' >"$TMP/ids"
if cmp -s "$TMP/ids" <(seq 1 $NC); then ok; else bad "session ids served: $(tr '\n' ' ' <"$TMP/ids")"; fi
# they were at once: most waited in the queue, polling their place
polls=$(grep -c ' GET /v1/sessions/s-[0-9]*-[0-9a-f]* 200 ' "$TMP/log")
[[ $polls -ge $((NC / 2)) ]] && ok || bad "only $polls queue polls: the clients did not overlap"
# still healthy: nothing queued, active or held; every session counted
A="Authorization: Bearer $(cat "$TMP/token01")"
curl -s -m 5 -o "$TMP/h" -w '%{http_code}' "$U/v1/health" >"$TMP/hc"
has "$TMP/hc" 200
curl -s -m 5 -H "$A" "$U/v1/metrics" >"$TMP/m"
has "$TMP/m" "aieth_sessions_active 0"
has "$TMP/m" "aieth_queue_length 0"
has "$TMP/m" "aieth_image_bytes 0"
has "$TMP/m" "aieth_sessions_total $NC"
if grep -q 'status="429"' "$TMP/m"; then bad "clients were rate limited"; else ok; fi
# and serves the next client
expect 0 "$RT" -q --backend remote --server "$U" --token-file "$TMP/token01" -o "$TMP/after" "$EX/adder_perf/test.json"
kill -TERM "$SP"
for i in $(seq 100); do kill -0 "$SP" 2>/dev/null || break; sleep 0.1; done
wait "$SP"; [[ $? -eq 0 ]] && ok || bad "th_server did not drain on SIGTERM"
finish
