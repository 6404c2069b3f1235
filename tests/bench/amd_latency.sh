#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cost of one request of AMD's protocol on loopback: th_server
# --amd-listen (emulated board) and amd_client latency, which times N
# queryTransactionStatus round trips and prints
#   AMD protocol round trip: N requests, X us per request
# Printed for make bench, never asserted. Usage: amd_latency.sh [N]
# (environment as make sets it: AIETH_BUILD, AIETH_DATA_DIR).
set -u
B=${AIETH_BUILD:-build}
N=${1:-2000}
M='adder:{"in0":"PLIO_01_TO_AIE","in1":"PLIO_03_TO_AIE","out":"PLIO_02_FROM_AIE","window_bytes":4096}'
log=$(mktemp)
"$B/bin/th_server" --amd-listen 127.0.0.1:0 --graph-model "gr=$M" >"$log" 2>&1 &
sp=$!
trap 'kill -KILL $sp 2>/dev/null; rm -f "$log"' EXIT
port=
for i in $(seq 50); do
  port=$(sed -n "s/.*AMD's protocol on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p" "$log")
  [[ -n $port ]] && break
  sleep 0.1
done
if [[ -z $port ]]; then echo "amd_latency: th_server did not start: $(cat "$log")" >&2; exit 1; fi
"$B/tests/amd_client" latency "$port" "$N" | grep '^AMD protocol round trip'
rc=${PIPESTATUS[0]}
kill -TERM $sp; wait $sp 2>/dev/null
exit "$rc"
