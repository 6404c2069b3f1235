#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A streamed remote transaction (the default) costs no more per byte than
# the serial way (AIETH_REMOTE_STREAM=0), run_test and th_server together
# (docs/server.md, "CPU per byte and two client threads"); and both bring
# back the bytes the loopback graph returns, saved as a local run saves them.
# Not a timing assertion. What load cannot move is compared exactly: the
# bytes th_server copies in user space (its counters, GET /v1/metrics), no
# more streamed than serial, none of the RX image. CPU seconds (run_test's
# from wait4 through the shell's time, th_server's from its /proc counters)
# move with what else runs (make test runs two suites at a time, a memory
# bound benchmark beside doubles them), so they are the least of five runs
# of each way (load only ever adds: the least is the run least disturbed)
# and compared with a margin no neighbour reaches (twice, plus 150 ms): a
# streamed way that spins or copies the images again still fails it.
# Natively only: under qemu-user the CPU seconds are the emulator's.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
th_server_setup

MIB=64
head -c $((MIB << 20)) /dev/urandom >"$TMP/data.bin"
cat >"$TMP/func.json" <<JSON
{"schema": "aieth-test/1", "name": "remote_cpu", "board": "vck190",
 "graphs": [{"name": "gr", "model": "loopback"}],
 "transactions": [{"name": "t", "mode": "func", "timeout_ms": 0,
  "channels": [{"plio": "PLIO_01_TO_AIE", "data": {"file": "data.bin"}},
   {"plio": "PLIO_01_FROM_AIE", "golden": {"file": "data.bin"}, "save": {"file": "rx.bin"}}]}]}
JSON

start_server "$TMP/log" --idle-timeout 120
HZ=$(getconf CLK_TCK)
ticks() { awk '{ print $14 + $15 }' "/proc/$SP/stat"; }
# cpu OUT [ENV=VALUE]: one remote run into OUT; prints its CPU seconds
# (run_test + th_server); the run must pass
cpu() {
  local out=$1 s0 s1 rc=0 TIMEFORMAT='%3U %3S'
  shift
  s0=$(ticks)
  { time env "$@" "$RT" -q -o "$out" --backend remote --server "$U" "$TMP/func.json" \
      >"$out.log" 2>&1 || rc=$?; } 2>"$out.time"
  s1=$(ticks)
  [[ $rc -eq 0 ]] || { bad "remote run ($*) exited $rc: $(tail -n 3 "$out.log")"; echo 1e9; return; }
  awk -v a="$s0" -v b="$s1" -v hz="$HZ" '{ printf "%.3f\n", $1 + $2 + (b - a) / hz }' "$out.time"
}
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }

"$RT" -q -o "$TMP/loc" "$TMP/func.json" >"$TMP/loc.log" 2>&1 && ok || bad "local run: $(tail -n 3 "$TMP/loc.log")"
# copied: th_server's bytes copied in user space so far (TX + RX)
copied() { curl -s -m 5 "$U/v1/metrics" | awk '/^aieth_image_copied_bytes_total\{/ { n += $2 } END { printf "%.0f\n", n }'; }
str=1e9 ser=1e9 cstr=0 cser=0
for i in 1 2 3 4 5; do
  c0=$(copied)
  str=$(least "$str" "$(cpu "$TMP/str$i" AIETH_REMOTE_STREAM=1)")
  c1=$(copied)
  ser=$(least "$ser" "$(cpu "$TMP/ser$i" AIETH_REMOTE_STREAM=0)")
  c2=$(copied)
  cstr=$((cstr + c1 - c0)) cser=$((cser + c2 - c1))
done
# the same bytes either way: the loopback graph's, as saved locally
for d in str1 ser1; do
  cmp -s "$TMP/loc/rx.bin" "$TMP/$d/rx.bin" && ok || bad "$d: rx.bin differs from the local run's"
done
cmp -s "$TMP/data.bin" "$TMP/loc/rx.bin" && ok || bad "the local rx.bin is not the data sent"
echo "remote_cpu: $((2 * MIB)) MiB moved: CPU streamed $str s, serial $ser s (least of 5, run_test + th_server);" \
  "th_server copied $cstr bytes streamed, $cser serial (5 runs each)"
# exactly: the TX image once each (out of libmicrohttpd's buffer), the RX
# image never (the streamed download in bounded pieces, each sent from the
# image, docs/http-api.md)
[[ $cstr -eq $((5 * MIB << 20)) && $cser -eq $((5 * MIB << 20)) ]] && ok \
  || bad "th_server copied $cstr bytes streamed, $cser serial: $((5 * MIB << 20)) each expected (the TX images)"
[[ $(metric 'aieth_image_copied_bytes_total{direction="rx"}') == 0 ]] && ok \
  || bad "th_server copied RX bytes: $(metric 'aieth_image_copied_bytes_total{direction="rx"}')"
# under a wrapper (qemu-user: the cross build) the CPU seconds are the
# emulator's, its translation and its own threads, not the program's (the
# bench counts none there either): compared natively only
if [[ -n ${AIETH_RUN_WRAPPER:-} ]]; then
  echo "remote_cpu: CPU not compared (programs under ${AIETH_RUN_WRAPPER%% *})"
elif awk -v a="$str" -v b="$ser" 'BEGIN { exit !(a <= 2 * b + 0.15) }'; then ok
else bad "streamed costs $str CPU seconds, serial $ser: more than 2 x + 0.15 s"; fi
stop_server
finish
