#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The benchmarks run and print their figures (nothing about speed asserted).
. "$(dirname "$0")/../lib.sh"
# sanitizer builds: LeakSanitizer cannot run in a process strace traces
# (it stops the world with ptrace itself), and the counts need strace
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
expect 0 "$B/tests/bench" --quick
has "$TMP/out" "memcpy bandwidth:"
has "$TMP/out" "ratio board time / wall time:"
has "$TMP/out" "host-independent: page faults"
has "$TMP/out" "ratio data rate / memcpy:"
has "$TMP/out" "(c) run_test FUNC loopback"
has "$TMP/out" "(d) run_test VCK190 PERF 36+36"
has "$TMP/out" "peak RSS"
if grep -q "MISMATCH" "$TMP/out"; then bad "bench data mismatch"; else ok; fi
# a sweep of adder_perf (100 points with --quick)
expect 0 bash "$S/tests/bench/bench_sweep.sh" --quick
has "$TMP/out" "sweep 100 points "
has "$TMP/out" "sweep 100 points of text data "
# (e) remote vs local against raw loopback TCP: th_server on 127.0.0.1
expect 0 bash "$S/tests/bench/bench_remote.sh" --quick
has "$TMP/out" "loopback TCP: "
has "$TMP/out" "(e) run_test FUNC loopback 16 MiB through --backend remote"
has "$TMP/out" "remote streamed "
has "$TMP/out" "remote serial (AIETH_REMOTE_STREAM=0) "
has "$TMP/out" "remote data rate"
has "$TMP/out" "(goal >= 0.8 on 4+ cores"
has "$TMP/out" "(best of 3; goal: streamed <= serial, "
has "$TMP/out" "loopback TCP CPU: "
# every figure with its goal: CPU per byte against raw TCP's (one line,
# its ratio), streamed against serial per CPU second, the CPU floor
if [[ -z ${AIETH_RUN_WRAPPER:-} ]]; then
  grep -E "CPU per byte \(run_test \+ th_server, streamed, least of 3\): [0-9.]+ ns .*raw TCP [0-9.]+ ns .*: ratio [0-9.]+ \(goal <= 2, (met|NOT met)\)" \
    "$TMP/out" >/dev/null && ok || bad "no CPU per byte line with its ratio and goal"
  has "$TMP/out" "CPU per byte, streamed vs serial: streamed "
  has "$TMP/out" "CPU floor: on "
fi
# the figures that do not depend on the host (docs/server.md)
has "$TMP/out" "host: "
has "$TMP/out" "page faults per MiB moved: th_server "
# TX: one copy out of libmicrohttpd's buffer; RX: none (the streamed
# download comes in bounded ranges, each sent from the image once final)
has "$TMP/out" "bytes copied in user space per byte moved: th_server TX 1.000, RX "
e2e=$(sed -n 's/.*end to end \([0-9.]*\) per byte (goal <= 1).*/\1/p' "$TMP/out")
awk -v v="$e2e" 'BEGIN { exit !(v != "" && v >= 0.5 && v <= 1) }' && ok \
  || bad "end to end copies per byte: '$e2e', expected 0.5..1"

if command -v strace >/dev/null; then
  has "$TMP/out" "system calls per MiB moved: th_server "
  has "$TMP/out" "goal <= 8 each (1 per 128 KiB)"
fi
expect 2 bash "$S/tests/bench/bench_remote.sh" --nope
expect 2 "$B/tests/tcp_loopback" 0
finish
