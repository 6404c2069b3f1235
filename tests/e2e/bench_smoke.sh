#!/usr/bin/env bash
# The benchmark runs and prints its figures (nothing about speed asserted).
. "$(dirname "$0")/lib.sh"
expect 0 "$B/tests/bench" --quick
has "$TMP/out" "memcpy bandwidth:"
has "$TMP/out" "ratio board time / wall time:"
has "$TMP/out" "ratio data rate / memcpy:"
has "$TMP/out" "(c) run_test FUNC loopback"
has "$TMP/out" "(d) run_test VCK190 PERF 36+36"
has "$TMP/out" "peak RSS"
if grep -q "MISMATCH" "$TMP/out"; then bad "bench data mismatch"; else ok; fi
finish
