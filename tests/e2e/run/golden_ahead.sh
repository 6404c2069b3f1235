#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Golden files of many windows, read ahead on a worker (runner/run_ahead.c):
# one that matches passes with the saved data the bytes sent; mismatches in
# late windows are counted and the first is named at its offset; a golden
# file cut short during the run fails it with the read's error; Ctrl-C
# during the compare ends the run with its report written; through th_server
# (RX from the download thread) the same results as locally.
# Synchronised on progress lines, never on sleeps; every wait is bounded.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
cd "$TMP" || exit 2

# 8 MiB of data (8 golden windows of 1 MiB), golden the same bytes
head -c $((8 << 20)) /dev/urandom >data.bin
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
spec same same.bin $((8 << 20)) '{"file": "data.bin"}'
"$RT" -q -o o_same same.json >run.out 2>&1 && ok || bad "matching golden: exit $?: $(cat run.out)"
[[ $(integ mismatches o_same) == 0 ]] && ok || bad "matching golden: $(integ mismatches o_same) mismatches"
cmp -s o_same/got.bin data.bin && ok || bad "the saved data is not the data sent"

# --- mismatches in windows 3, 6 and the last: three counted, the first named
cp data.bin late.bin
flip() { # flip OFFSET: byte OFFSET of late.bin made another value
  local v; v=$(od -An -tu1 -j "$1" -N1 data.bin | tr -d ' ')
  printf "\\$(printf %03o $(((v + 1) % 256)))" | dd of=late.bin bs=1 seek="$1" conv=notrunc status=none
}
flip $((3 * 1048576 + 4099))
flip $((6 * 1048576))
flip $((8 * 1048576 - 1))
spec late late.bin $((8 << 20)) '{"file": "data.bin"}'
"$RT" -q -o o_late late.json >run.out 2>&1
rc=$?
[[ $rc -eq 1 ]] && ok || bad "late mismatches: exit $rc, expected 1: $(cat run.out)"
[[ $(integ mismatches o_late) == 3 ]] && ok || bad "late mismatches: $(integ mismatches o_late) counted, expected 3"
[[ $(integ first_mismatch.offset o_late) == $((3 * 1048576 + 4099)) ]] && ok ||
  bad "first mismatch at $(integ first_mismatch.offset o_late), expected $((3 * 1048576 + 4099))"
cmp -s o_late/got.bin data.bin && ok || bad "late mismatches: the saved data is not the data sent"

# --- a large golden file (zeros, sparse) for a run of zeros: long enough
# to be stopped or cut short mid-compare (64 GiB less a window)
big=68719472640
truncate -s $big big.bin
spec big big.bin $big '{"pattern": "constant", "value": 0, "type": "uint8"}'
moved() { sed -n 's/.*": \([0-9][0-9]*\) of [0-9][0-9]* bytes moved.*/\1/p' "$1"; }
# start_until_progress ERR ARGS...: run_test in the background (pid in RP)
# until ERR shows a progress line with bytes moved (120 s at most)
start_until_progress() {
  local err=$1 i; shift
  : >"$err"
  "$RT" "$@" >run.out 2>"$err" &
  RP=$!
  for i in $(seq 1200); do
    [[ $(moved "$err" | awk '$1 > 0' | wc -l) -ge 1 ]] && return 0
    kill -0 "$RP" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
# wait_within TENTHS: $RP must exit within TENTHS tenths of a second; its
# exit code in RC (killed after the bound: 999)
wait_within() {
  local i
  for i in $(seq "$1"); do kill -0 "$RP" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$RP" 2>/dev/null; then
    bad "run_test still running $(($1 / 10)) s on"
    kill -KILL "$RP"; wait "$RP" 2>/dev/null; RC=999; return
  fi
  ok
  wait "$RP"; RC=$?
}

# Ctrl-C mid-compare: exit 130 at once, the report written
if start_until_progress int.err --progress -o o_int big.json; then ok
else bad "no progress line of the large golden run: $(cat int.err)"; fi
kill -INT "$RP" 2>/dev/null
wait_within 100
[[ $RC -eq 130 ]] && ok || bad "interrupted mid-compare: exit $RC, expected 130"
[[ $(jq -r '.tests[0].status' o_int/report.json 2>&1) == interrupted ]] && ok ||
  bad "interrupted mid-compare: report status $(jq -r '.tests[0].status' o_int/report.json 2>&1)"

# cut short mid-run: the read of a window past the new end fails the run
# (a data error of the golden file, as when read without a worker)
if start_until_progress cut.err --progress -o o_cut big.json; then ok
else bad "no progress line of the large golden run: $(cat cut.err)"; fi
truncate -s $((1 << 20)) big.bin
wait_within 600
[[ $RC -ne 0 && $RC -ne 130 && $RC -ne 999 ]] && ok || bad "golden cut short: exit $RC"
msg=$(jq -r '.tests[0].error.message' o_cut/report.json 2>&1)
# the message of a read on the run's thread, at a window's start
[[ $msg =~ ^'transactions[0].channels[1]: ./big.bin: unexpected end of file at offset '([0-9]+)$ ]] &&
  ok || bad "golden cut short: message '$msg'"
[[ ${BASH_REMATCH[1]:-1} -ge $((1 << 20)) && $((${BASH_REMATCH[1]:-1} % (1 << 20))) -eq 0 ]] && ok ||
  bad "golden cut short: not at a window's start: '$msg'"
# --- the same through th_server: RX pieces come from the download thread
# (the read-ahead is asked from it); reports equal to the local runs'
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
