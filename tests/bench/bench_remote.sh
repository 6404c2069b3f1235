#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench: (e) loopback TCP throughput, measured now, and a FUNC
# transaction through run_test --backend remote against th_server on
# 127.0.0.1 (emulated board) vs the same run locally. Figures printed,
# nothing asserted (tests/e2e/bench_smoke.sh runs it with --quick).
#
# usage: bench_remote.sh [--quick]   (256 MiB; --quick: 16 MiB)
# Environment: AIETH_BUILD (the build folder), AIETH_SRC (the tree). The data
# files are generated once under $AIETH_BUILD/bench-data/ (never committed).
set -u
B=${AIETH_BUILD:?run through make bench}
mib=256 tcp_mib=1024
if [[ ${1:-} == --quick ]]; then mib=16 tcp_mib=64
elif [[ $# -gt 0 ]]; then echo "usage: bench_remote.sh [--quick]" >&2; exit 2; fi
RT=$B/bin/run_test TS=$B/bin/th_server
# a cross build's programs run under its wrapper (qemu-user): split on purpose
W=${AIETH_RUN_WRAPPER:-}
dir=$B/bench-data/remote_func_$mib
tmp=$(mktemp -d)
SP=
trap '[[ -n $SP ]] && kill -KILL "$SP" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "bench_remote: $*" >&2; exit 1; }

# the test: one loopback channel pair, MIB MiB of random bytes, the same
# bytes as golden (the loopback graph returns its input)
bytes=$((mib << 20))
if [[ $(stat -c %s "$dir/data.bin" 2>/dev/null) != "$bytes" ]]; then
  mkdir -p "$dir" || fail "cannot make $dir"
  head -c "$bytes" /dev/urandom >"$dir/data.bin" && cp "$dir/data.bin" "$dir/golden.bin" \
    || fail "cannot write the data files in $dir"
fi
cat >"$dir/func.json" <<JSON
{"schema": "aieth-test/1", "name": "bench_remote_func", "board": "vck190",
 "graphs": [{"name": "gr", "model": "loopback"}],
 "transactions": [{"name": "t", "mode": "func", "timeout_ms": 0,
  "channels": [{"plio": "PLIO_01_TO_AIE", "data": {"file": "data.bin"}},
   {"plio": "PLIO_01_FROM_AIE", "golden": {"file": "golden.bin"}}]}]}
JSON

tcp=$($W "$B/tests/tcp_loopback" "$tcp_mib") || fail "tcp_loopback failed"
echo "$tcp"
tcp_rate=$(sed -n 's/^loopback TCP: \([0-9.]*\) MiB\/s.*/\1/p' <<<"$tcp")

$W "$TS" --listen 127.0.0.1:0 --backend emu --idle-timeout 600 >"$tmp/log" 2>&1 &
SP=$!
port=
for _ in $(seq 50); do
  port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$tmp/log" 2>/dev/null)
  [[ -n $port ]] && break
  sleep 0.1
done
[[ -n $port ]] || fail "th_server did not start: $(cat "$tmp/log")"

# wall time of one run (seconds, fractional); the run must pass
run() {
  local t0 t1
  t0=$(date +%s.%N)
  $W "$RT" -q -o "$tmp/out" "$@" "$dir/func.json" >"$tmp/rt.log" 2>&1 \
    || fail "run_test $* exited $?: $(tail -n 3 "$tmp/rt.log")"
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
best() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
# best of 3 each, alternating (the files stay in the page cache)
loc=1e9 rem=1e9
for _ in 1 2 3; do
  t=$(run) || exit 1
  loc=$(best "$loc" "$t")
  t=$(run --backend remote --server "http://127.0.0.1:$port") || exit 1
  rem=$(best "$rem" "$t")
done
kill -TERM "$SP"; wait "$SP"; SP=

echo "(e) run_test FUNC loopback $mib MiB through --backend remote (th_server on 127.0.0.1, emu) vs local"
awk -v l="$loc" -v r="$rem" -v m="$mib" -v t="$tcp_rate" 'BEGIN {
  printf "    wall time local %.3f s, remote %.3f s (best of 3): ratio remote / local %.2f\n", l, r, r / l
  rate = 2 * m / r; extra = r - l
  printf "    remote data rate %.0f MiB/s (TX + RX images, %d MiB, over the remote wall time),", rate, 2 * m
  printf " loopback TCP %.0f MiB/s: ratio %.2f (goal >= 0.5)\n", t, rate / t
  if (extra > 0)
    printf "    time over local %.3f s: %.0f MiB/s for the %d MiB that cross the socket\n", extra, 2 * m / extra, 2 * m
}'
