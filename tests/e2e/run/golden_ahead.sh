#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Golden files of many windows, read ahead on a worker (runner/run_ahead.c):
# one that matches passes with the saved data the bytes sent; mismatches in
# late windows are counted and the first is named at its offset; a golden
# file cut short during the run fails it with the read's error; Ctrl-C
# during the compare ends the run with its report written; through th_server
# (no worker there: the download thread reads the golden windows) the same
# results as locally.
# Synchronised on progress lines, never on sleeps; every wait is bounded.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
cd "$TMP" || exit 2

# 8 MiB of data (8 golden windows of 1 MiB, GOLD_WINDOW in
# runner/run_data.c), golden the same bytes
W=$((1 << 20))
head -c $((8 * W)) /dev/urandom >data.bin
spec() { # spec NAME GOLDEN SIZE DATA: a loopback of DATA, RX checked against GOLDEN
  cat >"$1.json" <<J
{"schema": "aieth-test/1", "name": "$1", "board": "vck190",
 "graphs": [{"name": "gr", "model": "loopback"}],
 "transactions": [{"name": "t", "mode": "func", "timeout_ms": 3600000,
  "channels": [{"plio": "PLIO_01_TO_AIE", "size": $3, "data": $4},
   {"plio": "PLIO_01_FROM_AIE", "golden": {"file": "$2"}, "save": {"file": "got.bin"}}]}]}
J
}
integ() { jq -r ".tests[0].transactions[0].channels[1].integrity.$1" "$2/report.json"; }

# --- matches
cp data.bin same.bin
spec same same.bin $((8 * W)) '{"file": "data.bin"}'
"$RT" -q -o o_same same.json >run.out 2>&1 && ok || bad "matching golden: exit $?: $(cat run.out)"
[[ $(integ mismatches o_same) == 0 ]] && ok || bad "matching golden: $(integ mismatches o_same) mismatches"
cmp -s o_same/got.bin data.bin && ok || bad "the saved data is not the data sent"

# --- mismatches in windows 3, 6 and the last: three counted, the first named
cp data.bin late.bin
flip() { # flip OFFSET: byte OFFSET of late.bin made another value
  local v; v=$(od -An -tu1 -j "$1" -N1 data.bin | tr -d ' ')
  printf "\\$(printf %03o $(((v + 1) % 256)))" | dd of=late.bin bs=1 seek="$1" conv=notrunc status=none
}
flip $((3 * W + 4099))
flip $((6 * W))
flip $((8 * W - 1))
spec late late.bin $((8 * W)) '{"file": "data.bin"}'
"$RT" -q -o o_late late.json >run.out 2>&1
rc=$?
[[ $rc -eq 1 ]] && ok || bad "late mismatches: exit $rc, expected 1: $(cat run.out)"
[[ $(integ mismatches o_late) == 3 ]] && ok || bad "late mismatches: $(integ mismatches o_late) counted, expected 3"
[[ $(integ first_mismatch.offset o_late) == $((3 * W + 4099)) ]] && ok ||
  bad "first mismatch at $(integ first_mismatch.offset o_late), expected $((3 * W + 4099))"
cmp -s o_late/got.bin data.bin && ok || bad "late mismatches: the saved data is not the data sent"

# --- a large golden file (zeros, sparse) for a run of zeros: long enough
# to be stopped or cut short mid-compare (64 GiB less a window)
big=68719472640
truncate -s $big big.bin
spec big big.bin $big '{"pattern": "constant", "value": 0, "type": "uint8"}'
# Ctrl-C mid-compare: exit 130 at once, the report written
if run_until_progress 1 int.err --progress -o o_int big.json; then ok
else bad "no progress line of the large golden run: $(cat int.err)"; fi
stop_within 100
[[ $RC -eq 130 ]] && ok || bad "interrupted mid-compare: exit $RC, expected 130"
[[ $(jq -r '.tests[0].status' o_int/report.json 2>&1) == interrupted ]] && ok ||
  bad "interrupted mid-compare: report status $(jq -r '.tests[0].status' o_int/report.json 2>&1)"

# cut short mid-run: the read of a window past the new end fails the run
# (a data error of the golden file, as when read without a worker)
if run_until_progress 1 cut.err --progress -o o_cut big.json; then ok
else bad "no progress line of the large golden run: $(cat cut.err)"; fi
truncate -s $((1 << 20)) big.bin
wait_within 600
[[ $RC -ne 0 && $RC -ne 130 && $RC -ne 999 ]] && ok || bad "golden cut short: exit $RC"
msg=$(jq -r '.tests[0].error.message' o_cut/report.json 2>&1)
# the worker's read error, carried to the run's thread; the offset is where
# the file ended under that read: past the new end (a window's start, or
# inside the window when the cut came during its read), before the old one
[[ $msg =~ ^'transactions[0].channels[1]: ./big.bin: unexpected end of file at offset '([0-9]+)$ ]] &&
  ok || bad "golden cut short: message '$msg'"
[[ ${BASH_REMATCH[1]:-0} -ge $((1 << 20)) && ${BASH_REMATCH[1]:-0} -lt $big ]] && ok ||
  bad "golden cut short: the offset is not past the new end and before the old: '$msg'"
# --- the same through th_server: RX pieces come from the download thread,
# which reads the golden windows itself; reports equal to the local runs'
# (last: th_server_setup ends the script in a build without th_server)
th_server_setup
start_server srv.log
for t in same late; do
  "$RT" -q --backend remote --server "$U" -o r_$t $t.json >run.out 2>&1
  rc=$?
  [[ $rc -eq $([[ $t == same ]] && echo 0 || echo 1) ]] && ok || bad "remote $t: exit $rc: $(cat run.out)"
  for k in mismatches first_mismatch; do
    [[ $(integ $k r_$t) == $(integ $k o_$t) ]] && ok || bad "remote $t: $k $(integ $k r_$t), local $(integ $k o_$t)"
  done
  cmp -s r_$t/got.bin data.bin && ok || bad "remote $t: the saved data is not the data sent"
done
stop_server
finish
