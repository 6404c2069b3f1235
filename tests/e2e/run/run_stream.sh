#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_test with channel data bigger than the streaming chunks: FUNC data
# files compared and saved correctly, a mismatch deep in a large file
# reported at the right index, a run under a virtual-memory limit well
# below the dataset, and PERF descriptions asking for RX data the board
# cannot return (beyond the URAM) rejected before running.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
D=$TMP/d
mkdir -p "$D"
# jq VALUE FILTER FILE: the filter's output equals VALUE
jqis() {
  local got; got=$(jq -r "$2" "$3" 2>&1)
  if [[ $got == "$1" ]]; then ok; else bad "$3: $2 = '$got', expected '$1'"; fi
}
# spec NAME MODE SIZE RX-EXTRA: a loopback test on VCK190, TX from d.bin
spec() {
  cat >"$D/$1.json" <<JSON
{"schema": "aieth-test/1", "name": "$1", "board": "vck190",
 "graphs": [{"name": "gr", "model": "loopback"}],
 "transactions": [{"name": "t", "mode": "$2", "timeout_ms": 0, "channels": [
   {"plio": "PLIO_01_TO_AIE", "size": $3, "data": {"file": "d.bin"}},
   {"plio": "PLIO_01_FROM_AIE", "size": $3 $4}]}]}
JSON
}

# 5 MiB + 48 bytes: the 1 MiB pieces end mid-channel
N=$((5 * 1048576 + 48))
head -c $N /dev/urandom >"$D/d.bin"
cp "$D/d.bin" "$D/g.bin"
spec func func $N ', "golden": {"file": "g.bin", "type": "int32"}, "save": {"file": "o.bin"}'
expect 0 "$RT" -q -o "$TMP/o1" "$D/func.json"
if cmp -s "$D/d.bin" "$TMP/o1/o.bin"; then ok; else bad "saved data differs from the data sent"; fi
jqis $((N / 4)) '.tests[0].transactions[0].channels[1].integrity.elements' "$TMP/o1/report.json"
jqis 0 '.tests[0].transactions[0].channels[1].integrity.mismatches' "$TMP/o1/report.json"
# saved as text: one beat per line, the same as a whole-buffer write
spec text func $N ', "save": {"file": "o.txt", "type": "int32"}'
expect 0 "$RT" -q -o "$TMP/o2" "$D/text.json"
if [[ $(wc -l <"$TMP/o2/o.txt") -eq $((N / 16)) ]]; then ok; else bad "text save: $(wc -l <"$TMP/o2/o.txt") lines"; fi
expect 0 od -An -v -t d4 -w16 "$D/d.bin"
if diff -q <(tr -s ' ' <"$TMP/out" | sed 's/^ //') <(tr -s ' ' <"$TMP/o2/o.txt") >/dev/null; then ok
else bad "text save differs from the data (od)"; fi

# a mismatch deep in the file: int32 element 1000003 (byte 4000012), byte 1 of it
cp "$D/d.bin" "$D/g2.bin"
printf '\x5a' | dd of="$D/g2.bin" bs=1 seek=4000013 conv=notrunc status=none
cmp -s "$D/d.bin" "$D/g2.bin" && printf '\xa5' | dd of="$D/g2.bin" bs=1 seek=4000013 conv=notrunc status=none
spec bad func $N ', "golden": {"file": "g2.bin", "type": "int32"}'
expect 1 "$RT" -q -o "$TMP/o3" "$D/bad.json"
jqis 1 '.tests[0].transactions[0].channels[1].integrity.mismatches' "$TMP/o3/report.json"
jqis 1000003 '.tests[0].transactions[0].channels[1].integrity.first_mismatch.index' "$TMP/o3/report.json"
jqis 4000012 '.tests[0].transactions[0].channels[1].integrity.first_mismatch.offset' "$TMP/o3/report.json"
want=$(od -An -t d4 -j 4000012 -N 4 "$D/g2.bin" | tr -d ' ')
got=$(od -An -t d4 -j 4000012 -N 4 "$D/d.bin" | tr -d ' ')
jqis "$want" '.tests[0].transactions[0].channels[1].integrity.first_mismatch.expected' "$TMP/o3/report.json"
jqis "$got" '.tests[0].transactions[0].channels[1].integrity.first_mismatch.got' "$TMP/o3/report.json"

# memory bounded by the board, not the dataset: 512 MiB of data and 512 MiB
# of golden data under a 192 MiB virtual-memory limit
if [[ -n ${AIETH_SAN:-} || -n ${AIETH_RUN_WRAPPER:-} ]]; then
  echo "run_stream.sh: memory-limit check skipped (sanitizer or emulated build)"
else
  M=$((512 * 1048576))
  yes 0123456789abcde | head -c $M >"$D/d.bin"
  cp "$D/d.bin" "$D/g.bin"
  spec big func $M ', "golden": {"file": "g.bin"}'
  expect 0 bash -c 'ulimit -v 196608 && exec "$@"' _ "$RT" -q -o "$TMP/o4" "$D/big.json"
  jqis $M '.tests[0].transactions[0].channels[1].integrity.elements' "$TMP/o4/report.json"
  # PERF: only the URAM's worth (64 KiB) of a 512 MiB file is held
  sed 's/"mode": "func"/"mode": "perf"/; s/, "golden": {"file": "g.bin"}//' "$D/big.json" >"$D/bigp.json"
  expect 0 bash -c 'ulimit -v 196608 && exec "$@"' _ "$RT" -q -o "$TMP/o5" "$D/bigp.json"
  rm -f "$D/d.bin" "$D/g.bin"
  # text data and golden text (aiesimulator style), 64 MiB of int32 each
  # (about 150 MB of text each): parsed in chunks, never held whole (was:
  # read whole, then parsed into a second buffer, per file)
  seq 0 16777215 >"$D/d.txt"
  cat >"$D/bigt.json" <<JSON
{"schema": "aieth-test/1", "name": "bigt", "board": "vck190",
 "graphs": [{"name": "gr", "model": "loopback"}],
 "transactions": [{"name": "t", "mode": "func", "timeout_ms": 0, "channels": [
   {"plio": "PLIO_01_TO_AIE", "data": {"file": "d.txt", "type": "int32"}},
   {"plio": "PLIO_01_FROM_AIE", "golden": {"file": "d.txt", "type": "int32"}}]}]}
JSON
  expect 0 bash -c 'ulimit -v 196608 && exec "$@"' _ "$RT" -q -o "$TMP/o5t" "$D/bigt.json"
  jqis 16777216 '.tests[0].transactions[0].channels[1].integrity.elements' "$TMP/o5t/report.json"
  jqis 0 '.tests[0].transactions[0].channels[1].integrity.mismatches' "$TMP/o5t/report.json"
  # a bad value deep in it: located by line and column across the chunks
  sed -i '16000001s/.*/  12x/' "$D/d.txt"
  expect 2 "$RT" -q -o "$TMP/o5u" "$D/bigt.json"
  has "$TMP/o5u/report.json" "d.txt:16000001:3: "
  rm -f "$D/d.txt"
fi

# PERF: RX beyond the 64 KiB URAM cannot be checked or saved: refused
head -c 131072 /dev/urandom >"$D/d.bin"
cp "$D/d.bin" "$D/g.bin"
spec pg perf 131072 ', "golden": {"file": "g.bin"}'
expect 2 "$RT" -o "$TMP/o6" "$D/pg.json"
has "$TMP/out" "65536 bytes per channel (URAM)"
has "$TMP/out" '"golden" cannot be honoured'
jqis null '.tests[0].transactions[0]' "$TMP/o6/report.json"
spec ps perf 131072 ', "save": {"file": "o.bin"}'
expect 2 "$RT" -o "$TMP/o7" "$D/ps.json"
has "$TMP/out" '"save" cannot be honoured'
if [[ -e $TMP/o7/o.bin ]]; then bad "o.bin saved"; else ok; fi
# within the URAM both work
spec pok perf 65536 ', "golden": {"file": "g65.bin"}, "save": {"file": "o.bin"}'
head -c 65536 "$D/d.bin" >"$D/g65.bin"
sed -i 's/"data": {"file": "d.bin"}/"data": {"file": "g65.bin"}/' "$D/pok.json"
expect 0 "$RT" -q -o "$TMP/o8" "$D/pok.json"
if cmp -s "$D/g65.bin" "$TMP/o8/o.bin"; then ok; else bad "PERF save differs"; fi
# PERF without golden or save beyond the URAM still runs (not valid, no check)
spec pnone perf 131072 ''
expect 0 "$RT" -q -o "$TMP/o9" "$D/pnone.json"
jqis false '.tests[0].transactions[0].channels[1].valid' "$TMP/o9/report.json"
finish
