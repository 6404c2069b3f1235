#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A cross build (make cross-check: build-aarch64 under qemu-user) gives the
# same results as the native build (AIETH_NATIVE_BUILD, default build/) for
# every example, in both emulator modes: the exit code, the whole report but
# its times, host and argv, the text table but its timings, and the received
# data files byte for byte. The emulated board is deterministic, so any
# difference is a portability bug. Skipped (with a note) in a native build.
. "$(dirname "$0")/../lib.sh"
if [[ -z ${AIETH_RUN_WRAPPER:-} ]]; then
  echo "cross_compare.sh: skipped: not a cross build (make cross-check runs it)"; exit 0
fi
N=${AIETH_NATIVE_BUILD:-$S/build}
if [[ ! -x $N/bin/run_test ]]; then bad "no native $N/bin/run_test: build it first (make all)"; finish; exit; fi
EX=$S/examples
# what must agree: everything but the run's times, id, argv and host
norm='del(.run.id, .run.started_at, .run.finished_at, .run.duration_s, .run.argv, .environment.hostname)
  | walk(if type == "object" then del(.duration_s) else . end)'
# the table without timings and run ids
table() { sed -E 's/\[[0-9.]+ s\]/[t]/; s/ run=[^ ]+/ run=X/' "$1"; }

for spec in "$EX"/*/test.json; do
  for mode in fast reference; do
    name=$(basename "$(dirname "$spec")")-$mode
    opt=()
    [[ $mode == reference ]] && opt=(--reference)
    # both write to the same folder (the report names it), then moved aside
    "$N/bin/run_test" "${opt[@]}" -o "$TMP/o/$name" "$spec" >"$TMP/native.out" 2>&1; want=$?
    mkdir -p "$TMP/native" && mv "$TMP/o/$name" "$TMP/native/"
    "$B/bin/run_test" "${opt[@]}" -o "$TMP/o/$name" "$spec" >"$TMP/cross.out" 2>&1; got=$?
    mkdir -p "$TMP/cross" && mv "$TMP/o/$name" "$TMP/cross/"
    failed=$fail
    if [[ $got -eq $want ]]; then ok; else bad "$name: exit $got under qemu, $want native"; cat "$TMP/cross.out" >&2; continue; fi
    if diff <(table "$TMP/native.out") <(table "$TMP/cross.out") >"$TMP/diff"; then ok
    else bad "$name: the table differs (native <, cross >)"; cat "$TMP/diff" >&2; fi
    if diff <(jq -S "$norm" "$TMP/native/$name/report.json") <(jq -S "$norm" "$TMP/cross/$name/report.json") >"$TMP/diff"; then ok
    else bad "$name: report.json differs (native <, cross >)"; head -n 40 "$TMP/diff" >&2; fi
    # the data files run_test saved (received data, ...): same bytes
    # (report.html and trace.json name the run, its times and command, as
    # report.json does; the charts hold only the figures: same bytes)
    # (a hang's artifacts/aie_state.json: the graph models' ports, no time)
    for f in "$TMP/native/$name"/* "$TMP/native/$name"/charts/* "$TMP/native/$name"/artifacts/*; do
      case $f in */report.json|*/junit.xml|*/report.html|*/trace.json|*/charts|*/artifacts) continue ;; esac
      [[ -e $f ]] || continue
      r=${f#"$TMP/native/$name/"}
      if cmp -s "$f" "$TMP/cross/$name/$r"; then ok; else bad "$name: $r differs"; fi
    done
    [[ $fail -eq $failed ]] && echo "   $name: exit $got, $(jq -r '[.tests[].transactions[] | "\(.status) \(.total_cycles) cycles"] | join(", ")' \
      "$TMP/cross/$name/report.json"), $(jq -r '[.tests[].transactions[].channels[].verdict] | group_by(.) | map("\(length) \(.[0])") | join(", ")' \
      "$TMP/cross/$name/report.json") channels: as native"
  done
done

# the API demo prints the same table on every board
for board in vck190 vek280 vek385; do
  "$N/bin/aieth_demo" --board "$board" --channels 3 --size 4096 --replay 5 >"$TMP/native.out" 2>&1
  expect 0 "$B/bin/aieth_demo" --board "$board" --channels 3 --size 4096 --replay 5
  if diff "$TMP/native.out" "$TMP/out" >"$TMP/diff"; then ok; else bad "aieth_demo --board $board: output differs"; cat "$TMP/diff" >&2; fi
done
finish
