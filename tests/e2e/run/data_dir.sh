#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every program, and the library, finds the board files the same way
# (aieth_board_data_dir): --data-dir, $AIETH_DATA_DIR, else next to the
# program (installed: bin/../share/aieth; a tree: build/bin/../..), else next
# to the shared library. Checked with AIETH_DATA_DIR unset, from a folder
# that is neither, on copies of the programs in an installed layout and in
# a source tree's layout.
. "$(dirname "$0")/../lib.sh"
R=${AIETH_BUILD:?}   # the real programs (B may be a wrapper copy)
unset AIETH_DATA_DIR
progs=(run_test th_package th_server th_assets aieth_demo)

# place DIR: the programs in DIR; under a run wrapper (qemu-user) each is a
# script running its copy NAME.bin in the same folder (/proc/self/exe stays
# in DIR)
place() {
  mkdir -p "$1"
  for p in "${progs[@]}"; do
    if [[ -n ${AIETH_RUN_WRAPPER:-} ]]; then
      cp "$R/bin/$p" "$1/$p.bin"
      printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$AIETH_RUN_WRAPPER" "$1/$p.bin" >"$1/$p"
      chmod +x "$1/$p"
    else cp "$R/bin/$p" "$1/$p"; fi
  done
}
inst=$TMP/prefix
place "$inst/bin"
mkdir -p "$inst/share/aieth" "$inst/lib"
cp -r "$S/platforms" "$S/cfg" "$inst/share/aieth/"
tree=$TMP/tree
place "$tree/build/bin"
cp -r "$S/platforms" "$S/cfg" "$S/examples" "$tree/"
mkdir -p "$TMP/elsewhere" && cd "$TMP/elsewhere" || exit 1
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT

# the package inputs: generated (with the tree's data; not under test)
G=$B/tests/gen_package_inputs
AIETH_DATA_DIR=$S "$G" --board vck190 --out "$TMP/pkg" >/dev/null || bad "fixture generator failed"

for d in "$inst/bin" "$tree/build/bin"; do
  expect 0 "$d/run_test" -o "$TMP/o" "$S/examples/adder_perf/test.json"
  has "$TMP/out" "adder_perf (vck190, emu): PASS"
  expect 0 "$d/aieth_demo" --channels 1 --size 1024 --replay 1
  has "$TMP/out" "data check: 0 mismatching bytes -> PASS"
  expect 0 "$d/th_package" --board vck190 --xsa "$TMP/pkg/harness.xsa" --libadf "$TMP/pkg/libadf.a" \
    -o "$TMP/pkg/design.xclbin"
  has "$TMP/out" "check: passed"
  expect 0 "$d/th_package" check --board vck190 "$TMP/pkg/design.xclbin"
  has "$TMP/out" "PLIOs fit board vck190"
  # a VCK190 design on VEK280: the problems, so the board file was read
  expect 1 "$d/th_package" check --board vek280 "$TMP/pkg/design.xclbin"
  has "$TMP/err" "expected 2 (AIE-ML, board vek280)"
  expect 0 "$d/th_assets" list
  want=$tree; [[ $d == "$inst/bin" ]] && want=$inst/share/aieth
  has "$TMP/out" "no release unpacked in $want/assets"
  # th_server: a session on the emulated board needs the board file
  if grep -q 'mhd=1' "$R/features.stamp"; then
    TS=$d/th_server
    start_server "$TMP/server.log" --backend emu
    code=$(curl -s -o "$TMP/sess" -w '%{http_code}' -H 'Content-Type: application/json' \
      -d '{"board":"vek280","graphs":[{"name":"gr","model":"loopback"}]}' "$U/v1/sessions")
    if [[ $code == 201 ]]; then ok; else bad "th_server in $d: session on vek280 -> $code $(cat "$TMP/sess")"; fi
    # ended first: a drain with a session open waits out its 5 s collect
    # window (server_faults.sh tests that)
    req 204 -X DELETE "$U/v1/sessions/$(jq -r .id "$TMP/sess")"
    kill -TERM "$SP"; wait "$SP" 2>/dev/null
  fi
done

# the library next to its shared object: a client outside both layouts,
# linked against a copy of libaieth.so in PREFIX/lib (not under qemu: the
# client is built with the host's compiler)
if [[ -z ${AIETH_RUN_WRAPPER:-} ]]; then
  cp -P "$R"/lib/libaieth.so* "$inst/lib/"
  # shellcheck disable=SC2086
  if "${AIETH_CC:-cc}" -std=c11 ${AIETH_SANFLAGS:-} -I"$S/harness/include" -o "$TMP/elsewhere/client" \
       "$S/examples/c_api/aieth_demo.c" -L"$inst/lib" -laieth; then
    LD_LIBRARY_PATH=$inst/lib ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 \
      expect 0 "$TMP/elsewhere/client" --board vek280 --channels 1 --size 1024 --replay 1
    has "$TMP/out" "emulated vek280"
  else bad "cannot build a client against $inst/lib"; fi
fi

# nothing next to the program: the message names the installed default
mkdir -p "$TMP/bare"
place "$TMP/bare"
expect 2 "$TMP/bare/th_package" check --board vek280 "$TMP/pkg/design.xclbin"
has "$TMP/err" 'unknown board "vek280"'
finish
