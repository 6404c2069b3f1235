#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bisect.sh - run_test --bisect: every outcome mapped to
# git bisect run's convention (0 good, 1 bad, 125 skip, 128+N abort) with
# the mapping printed, the codes unchanged without --bisect; then REAL
# `git bisect run`s over scratch repositories whose commits change a graph
# model's cycles (the loopback model's cycles_per_iteration): one finds the
# commit whose throughput falls below min_throughput_MBps, skipping a commit
# whose description is broken; one finds the commit that regresses against
# a --baseline by less than the threshold would catch, a later commit
# hanging on the emulated board counting as bad.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
PIDS=()
trap 'for p in "${PIDS[@]}"; do { kill -KILL "$p"; wait "$p"; } 2>/dev/null; done; rm -rf "$TMP"' EXIT
command -v git >/dev/null || { echo "bisect.sh: skipped: no git"; exit 0; }

# desc FILE CYCLES [RX_SIZE]: a loopback perf test whose throughput is
# 5000 MB/s x 16 / CYCLES (256-byte windows, CYCLES per window); RX_SIZE
# other than the 65536 bytes sent is refused before the run (exit 2)
desc() {
  cat >"$1" <<J
{"schema": "aieth-test/1", "name": "loop_perf", "board": "vck190",
 "description": "cycles_per_iteration $2",
 "graphs": [{"name": "gr", "model": "loopback", "params": {"channels": [1], "window_bytes": 256, "cycles_per_iteration": $2}}],
 "transactions": [{"name": "perf", "mode": "perf", "timeout_ms": 1000,
   "channels": [
     {"plio": "PLIO_01_TO_AIE", "size": 65536, "data": {"pattern": "random", "seed": 1}},
     {"plio": "PLIO_01_FROM_AIE", "size": ${3:-65536}, "min_throughput_MBps": 4000}]}]}
J
}
# desc_hang FILE: the same test's name, a real stall: an adder whose kernel
# stops after 8 of the 256 iterations its channels carry (stall_after)
desc_hang() {
  cat >"$1" <<J
{"schema": "aieth-test/1", "name": "loop_perf", "board": "vck190",
 "graphs": [{"name": "gr", "model": "adder", "params": {"window_bytes": 256, "stall_after": 8}}],
 "transactions": [{"name": "perf", "mode": "perf", "timeout_ms": 1000,
   "channels": [
     {"plio": "PLIO_01_TO_AIE", "size": 65536, "data": {"pattern": "random", "seed": 1}},
     {"plio": "PLIO_02_TO_AIE", "size": 65536, "data": {"pattern": "random", "seed": 2}},
     {"plio": "PLIO_01_FROM_AIE", "size": 65536, "min_throughput_MBps": 4000}]}]}
J
}
# bis WANT RAW ARGS...: run_test ARGS exits RAW, run_test --bisect ARGS
# exits WANT and prints its mapping line ("bisect: exit WANT (...)")
bis() {
  local want=$1 raw=$2; shift 2
  expect "$raw" "$RT" "$@"
  expect "$want" "$RT" --bisect "$@"
  if grep -hq "bisect: exit $want (" "$TMP/out" "$TMP/err"; then ok
  else bad "run_test --bisect $*: no 'bisect: exit $want (' line"; cat "$TMP/out" "$TMP/err" >&2; fi
}

# -- 1. the mapping, case by case
mkdir -p "$TMP/m"
desc "$TMP/m/good.json" 16
desc "$TMP/m/slow.json" 24
# a real stall (an RX size the graph cannot fill, as this had, is an input
# mistake refused before the run now: exit 2): stall_hang's description,
# whose kernel stops after 8 of its 32 iterations
cp "$EX/stall_hang/"*.txt "$TMP/m/"
cp "$EX/stall_hang/test.json" "$TMP/m/hang.json"
printf '{"schema": "aieth-test/1", "name": "broken",' >"$TMP/m/broken.json"
bis 0 0 -q -o "$TMP/m/o" "$TMP/m/good.json"
has "$TMP/err" "bisect: exit 0 (good): 1 test passed"
bis 0 0 -o "$TMP/m/o" "$TMP/m/good.json"        # not -q: on stdout, after the report line
has "$TMP/out" "bisect: exit 0 (good): 1 test passed"
bis 1 1 -q -o "$TMP/m/o" "$TMP/m/slow.json"     # threshold missed
has "$TMP/err" "bisect: exit 1 (bad): test loop_perf: failed (exit 1"
# a regression against a baseline (the threshold met): bad; a baseline from
# another board is refused (exit 2): skip
expect 0 "$RT" -q -o "$TMP/m/base" "$TMP/m/good.json"
desc "$TMP/m/bit_slower.json" 17
bis 0 0 -q -o "$TMP/m/o" "$TMP/m/bit_slower.json"
bis 1 1 -q -o "$TMP/m/o" --baseline "$TMP/m/base/report.json" "$TMP/m/bit_slower.json"
bis 0 0 -q -o "$TMP/m/o" --baseline "$TMP/m/base/report.json" --max-regression 10 "$TMP/m/bit_slower.json"
jq '.board = "vek280"' "$TMP/m/good.json" >"$TMP/m/vek.json"
bis 125 2 -q -o "$TMP/m/o" --baseline "$TMP/m/base/report.json" "$TMP/m/vek.json"
# input and usage errors: skip, also an option refused before --bisect is read
bis 125 2 -q -o "$TMP/m/o" "$TMP/m/broken.json"
has "$TMP/err" "bisect: exit 125 (skip): test "
has "$TMP/err" "usage or input error (exit 2)"
bis 125 2 -q -o "$TMP/m/o" "$TMP/m/missing.json"
bis 125 2 --no-such-option "$TMP/m/good.json"
has "$TMP/err" "run_test: bisect: exit 125 (skip): the run: usage or input error"
bis 125 2 -q -o "$TMP/m/o"                      # no description
# a hang on the emulated board: the commit's own result (board time), bad
bis 1 5 -q -o "$TMP/m/o" "$TMP/m/hang.json"
has "$TMP/err" "hung on the emulated board"
bis 1 5 -q -o "$TMP/m/o" "$EX/stall_hang/test.json"
# several descriptions: a bad test wins over one that says nothing; a
# pass next to an input error is a skip
bis 1 5 -q -o "$TMP/m/o" "$TMP/m/broken.json" "$TMP/m/hang.json" "$TMP/m/good.json"
has "$TMP/err" "(1 of 3 tests bad)"
bis 125 2 -q -o "$TMP/m/o" "$TMP/m/good.json" "$TMP/m/broken.json"
has "$TMP/err" "(1 of 2 tests said nothing about the commit)"
# the report cannot be read back (/dev/null): the run's code decides
bis 1 1 -q -o "$TMP/m/o" --report /dev/null "$TMP/m/slow.json"
has "$TMP/err" "bisect: exit 1 (bad): the run: failed"
bis 125 5 -q -o "$TMP/m/o" --report /dev/null "$TMP/m/hang.json"
has "$TMP/err" "hung (exit 5), backend not known"
# infrastructure: th_server unreachable (a closed port), skip
P=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
bis 125 3 -q -o "$TMP/m/o" --backend remote --server "http://127.0.0.1:$P" "$TMP/m/good.json"
has "$TMP/err" "infrastructure error (exit 3"
# a board (XRT's API on the test double): a hang is a skip (the board may
# be at fault, a reset is due); a design XRT cannot run here is exit 4, skip
MK=$B/tests/xrt_mkxclbin
(
  xrt_double_env
  "$MK" pl vck190 "$TMP/pl.xclbin" && "$MK" aie vck190 "$TMP/aie.xclbin" gr
) || bad "xrt_mkxclbin"
AIETH_XRT_DOUBLE_SPEC=$EX/stall_hang/test.json AIETH_XRT_LIB=$B/tests/libxrt_double.so \
  bis 125 5 -q -o "$TMP/m/x" --backend xrt --pl-xclbin "$TMP/pl.xclbin" --xclbin "$TMP/aie.xclbin" "$EX/stall_hang/test.json"
has "$TMP/err" "hung on a board (exit 5"
NOX=(env -u AIETH_XRT_LIB -u AIETH_XRT_DOUBLE_SPEC XILINX_XRT=/usr XCL_EMULATION_MODE=sw_emu)
expect 4 "${NOX[@]}" "$RT" -q --backend xrt -o "$TMP/m/s" --pl-xclbin "$TMP/pl.xclbin" "$TMP/m/good.json"
expect 125 "${NOX[@]}" "$RT" --bisect -q --backend xrt -o "$TMP/m/s" --pl-xclbin "$TMP/pl.xclbin" "$TMP/m/good.json"
has "$TMP/err" "bisect: exit 125 (skip): test loop_perf: skipped (exit 4)"
# a signal: 128+N stays (git bisect run stops on it); the run is a long
# reference-mode one, stopped once its first progress line shows it running
long_perf "$TMP/m/long.json"
"$RT" --bisect --progress --reference -t 0 -o "$TMP/m/l" "$TMP/m/long.json" >"$TMP/long.out" 2>"$TMP/long.err" &
LP=$!
PIDS+=("$LP")
log_has "$TMP/long.err" "bytes moved" || bad "the long run never showed progress"
kill -INT "$LP"
wait "$LP"
rc=$?
[[ $rc -eq 130 ]] && ok || bad "--bisect after SIGINT: exit $rc, expected 130"
has "$TMP/long.out" "bisect: exit 130 (abort): interrupted by signal 2"

# -- 2. a real git bisect run: the commit that drops below the threshold
# repo DIR: a scratch repository with the test's description committed
# once per CYCLES argument (a "broken" argument commits invalid JSON);
# sets C[1..] to the commits' ids
repo() {
  local d=$1 i=0 c; shift
  rm -rf "$d"; mkdir -p "$d"
  git -C "$d" init -q
  git -C "$d" config user.email t@example.invalid; git -C "$d" config user.name bisect.sh
  C=()
  for c in "$@"; do
    i=$((i + 1))
    case $c in
      broken) printf '{"schema": "aieth-test/1", "name": "loop_perf", "graphs": [' >"$d/test.json" ;;
      hang) desc_hang "$d/test.json" ;;
      *) desc "$d/test.json" "$c" ;;
    esac
    echo "commit $i: $c" >"$d/NOTES"
    git -C "$d" add test.json NOTES && git -C "$d" commit -qm "commit $i: $c" || bad "git commit $i"
    C[i]=$(git -C "$d" rev-parse HEAD)
  done
}
# the script git bisect run runs: "build" (here: nothing to build, a real
# project runs make and th_package), then the test; its runs are logged
cat >"$TMP/check.sh" <<EOF
#!/bin/sh
# SPDX-License-Identifier: MIT
"$RT" --bisect -q -o "$TMP/bis-out" "\$@" test.json >>"$TMP/bis-runs" 2>&1
rc=\$?
echo "\$(git rev-parse HEAD) \$rc" >>"$TMP/bis-codes"
exit \$rc
EOF
chmod +x "$TMP/check.sh"
# first_bad DIR GOOD BAD ARGS...: git bisect run over GOOD..BAD; sets FB to
# the commit git names first bad ("" if none)
first_bad() {
  local d=$1 good=$2 badc=$3; shift 3
  : >"$TMP/bis-codes"; : >"$TMP/bis-runs"
  (cd "$d" && git bisect start "$badc" "$good" >/dev/null && git bisect run "$TMP/check.sh" "$@") >"$TMP/bis.log" 2>&1
  FB=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$TMP/bis.log")
  git -C "$d" bisect log >"$TMP/bis.gitlog" 2>&1
  git -C "$d" bisect reset -q >/dev/null 2>&1
}
R=$TMP/r1
# commits: 1 good ... 4 broken description ... 6 below 4000 MB/s (the culprit)
repo "$R" 16 16 15 broken 18 24 24 32
first_bad "$R" "${C[1]}" "${C[8]}"
[[ $FB == "${C[6]}" ]] && ok || { bad "git bisect named '${FB:-nothing}', expected commit 6 ${C[6]}"; cat "$TMP/bis.log" >&2; }
has "$TMP/bis.log" "commit 6: 24"
# the broken commit was tried, said 125 and was skipped
grep -q "^${C[4]} 125$" "$TMP/bis-codes" && ok || { bad "commit 4 (broken) was not tried or not 125: $(cat "$TMP/bis-codes")"; }
grep -q "^git bisect skip ${C[4]}" "$TMP/bis.gitlog" && ok || { bad "git did not skip commit 4"; cat "$TMP/bis.gitlog" >&2; }
has "$TMP/bis-runs" "bisect: exit 125 (skip): test"
has "$TMP/bis-runs" "bisect: exit 1 (bad): test loop_perf: failed"
# every code given was 0, 1 or 125
if awk '$2 != 0 && $2 != 1 && $2 != 125 { exit 1 }' "$TMP/bis-codes"; then ok; else bad "codes outside 0/1/125: $(cat "$TMP/bis-codes")"; fi
echo "bisect.sh: threshold bisection: $(wc -l <"$TMP/bis-codes") runs: $(awk '{printf "%s=%s ", substr($1, 1, 7), $2}' "$TMP/bis-codes")"
# the same history without --bisect's mapping: a skip is impossible (an
# exit 2 counts as bad to git), so git names the broken commit instead
sed 's/--bisect //' "$TMP/check.sh" >"$TMP/check-raw.sh"; chmod +x "$TMP/check-raw.sh"
(cd "$R" && git bisect start "${C[8]}" "${C[1]}" >/dev/null && git bisect run "$TMP/check-raw.sh") >"$TMP/raw.log" 2>&1
git -C "$R" bisect reset -q >/dev/null 2>&1
grep -q "^${C[6]} is the first bad commit" "$TMP/raw.log" && bad "without --bisect git still found commit 6: the test does not tell the mapping's worth" || ok

# -- 3. a regression against a baseline (every commit above the threshold):
# commit 5 is 6 % slower than the good one; commit 7 hangs on the emulated
# board (bad, not skipped)
R=$TMP/r2
repo "$R" 16 16 16 16 17 17 hang 17
git -C "$R" show "${C[1]}:test.json" >"$TMP/good.json"
expect 0 "$RT" -q -o "$TMP/base" "$TMP/good.json"
first_bad "$R" "${C[1]}" "${C[8]}" --baseline "$TMP/base/report.json" --max-regression 5
[[ $FB == "${C[5]}" ]] && ok || { bad "git bisect (baseline) named '${FB:-nothing}', expected commit 5 ${C[5]}"; cat "$TMP/bis.log" >&2; }
echo "bisect.sh: baseline bisection: $(wc -l <"$TMP/bis-codes") runs: $(awk '{printf "%s=%s ", substr($1, 1, 7), $2}' "$TMP/bis-codes")"
# the hanging commit, tried alone: bad
(cd "$R" && git checkout -q "${C[7]}" && "$TMP/check.sh" --baseline "$TMP/base/report.json"); rc=$?
git -C "$R" checkout -q "${C[8]}" 2>/dev/null
[[ $rc -eq 1 ]] && ok || bad "the commit that hangs on the emulated board: exit $rc under --bisect, expected 1"
finish
