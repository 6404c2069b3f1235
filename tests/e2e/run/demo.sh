#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The API demo program on every board, both emulator modes, bad options.
. "$(dirname "$0")/../lib.sh"

for board in vck190 vek280 vek385; do
  expect 0 "$B/bin/aieth_demo" --board "$board" --channels 3 --size 4096 --replay 5
  has "$TMP/out" "emulated $board"
  has "$TMP/out" "PERF transaction: DONE"
  has "$TMP/out" "FUNC transaction: DONE"
  has "$TMP/out" "data check: 0 mismatching bytes -> PASS"
done
# reference mode prints the same table
"$B/bin/aieth_demo" --channels 2 --size 2048 --replay 3 >"$TMP/fast" 2>&1
expect 0 "$B/bin/aieth_demo" --channels 2 --size 2048 --replay 3 --reference
if diff -q "$TMP/fast" "$TMP/out" >/dev/null; then ok; else bad "reference and fast outputs differ"; diff "$TMP/fast" "$TMP/out" >&2; fi
# URAM overflow: reported invalid, not silently accepted
expect 0 "$B/bin/aieth_demo" --channels 1 --size 73728 --replay 1
has "$TMP/out" "result not valid"
has "$TMP/out" "exceed the 65536-byte URAM"
has "$TMP/out" "data check skipped"
expect 0 "$B/bin/aieth_demo" --help
has "$TMP/out" "usage: aieth_demo"
expect 2 "$B/bin/aieth_demo" --bogus
has "$TMP/err" "unknown option --bogus"
expect 2 "$B/bin/aieth_demo" --board nosuch
has "$TMP/err" "nosuch"
AIETH_DATA_DIR=/nonexistent expect 2 "$B/bin/aieth_demo"
has "$TMP/err" "/nonexistent"
finish
