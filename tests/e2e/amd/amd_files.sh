#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The files th_server --amd-listen returns after destroy, as AMD's server
# returns its session folder (src/ps/test_harness_main.cpp and
# test_harness_session.cpp in Xilinx/AI-Engine-Test-Harness):
# test_harness_session.log in AMD's line form with one line per request and
# per transaction (tests/tools/amd_client.c counts them against what it
# sent), bounded with a last "... N more lines not kept" line, client
# strings quoted; run_summary.json listing every transaction by the id the
# client gave it, with its status (the one th_server's checks refused too);
# the xrt.ini sent; no xrt.run_summary on the emulated board. On the xrt
# backend (the XRT test double, tests/xrt_double/) the same files come
# back, and a file XRT writes into the session's folder comes back too once
# the double writes one. Every wait is bounded.
. "$(dirname "$0")/../lib.sh"
th_server_setup
AC=$B/tests/amd_client
M='adder:{"in0":"PLIO_01_TO_AIE","in1":"PLIO_03_TO_AIE","out":"PLIO_02_FROM_AIE","window_bytes":4096}'
jq_is() {
  local got; got=$(jq -r "$2" "$1" 2>&1)
  if [[ $got == "$3" ]]; then ok; else bad "$1: $2 = '$got', expected '$3'"; fi
}
# counted: the log's lines (the client's count of them) against the
# requests and transactions the client says it sent (status polls make
# their number vary); CAP: the log's line cap when it was reached
counted() {
  local sent lines want
  sent=$(sed -n 's/^amd_client: \([0-9]*\) requests and \([0-9]*\) transactions sent$/\1 \2/p' "$TMP/out")
  lines=$(sed -n 's/^amd_client: session log: \([0-9]*\) lines: .*/\1/p' "$TMP/out")
  read -r r t <<<"$sent"
  want=$((1 + r + t))
  [[ -n ${1:-} && $want -gt $1 ]] && want=$(($1 + 1))
  if [[ -n $sent && $lines == "$want" ]]; then ok
  else bad "session log of $lines lines, expected $want for the requests and transactions sent ($sent)"; fi
  DROPPED=$((1 + r + t - ${1:-0}))
}
# the transactions of a returned run_summary.json: AMD id, state, status
txns() { jq -c '[.transactions[] | [.amd_id, .state, .status_name]]' "$1"; }

# --- the emulated board
start_amd "$TMP/log" --graph-model "gr=$M"
mkdir -p "$TMP/f1"
expect 0 "$AC" files "$AP" "$TMP/f1"
has "$TMP/out" " requests, 3 transactions"
counted
ls "$TMP/f1" >"$TMP/names"
if [[ $(tr '\n' ' ' <"$TMP/names") == "run_summary.json test_harness_session.log xrt.ini " ]]; then ok
else bad "returned files: $(tr '\n' ' ' <"$TMP/names")"; fi
# AMD's server writes xrt.run_summary only where XRT ran: not on the emulator
[[ ! -e $TMP/f1/xrt.run_summary ]] && ok || bad "xrt.run_summary returned by the emulated board"
if [[ $(cat "$TMP/f1/xrt.ini") == $'[Debug]\nxrt_trace=true' ]]; then ok; else bad "xrt.ini differs"; fi
L=$TMP/f1/test_harness_session.log
has "$L" "] [INFO] request test_harness_mgr: device \"vck190\", device index 0, graphs \"gr\" (adder)"
has "$L" "] [INFO] transaction 10: FUNC, 8192 bytes to the AIE and 4096 from it: DONE in "
has "$L" "] [WARNING] transaction 11: FUNC, 8192 bytes to the AIE and 4096 from it: refused by the checks (AMD protocol: cfg[0] = 1 differs from the mode 0), answered TIMEOUT with zeros"
has "$L" "] [WARNING] transaction 12: FUNC, 8192 bytes to the AIE and 4096 from it: never fetched, dropped at the end of the session (DONE)"
has "$L" "] [INFO] request destroy: the session ends; its files are returned"
# the port name sent was gr.k"in\[1]: quoted, never raw
has "$L" 'port "gr.k\"in\\[1]": ignored'
# the last line is destroy's (nothing was cut)
[[ $(tail -n 1 "$L") == *"request destroy"* ]] && ok || bad "last log line: $(tail -n 1 "$L")"
S1=$TMP/f1/run_summary.json
if [[ $(txns "$S1") == '[[10,"finished","DONE"],[11,"finished","FAILED"],[12,"finished","DONE"]]' ]]; then ok
else bad "run_summary.json transactions: $(txns "$S1")"; fi
jq_is "$S1" '.transactions[1].message' "refused by th_server's checks (answered TIMEOUT with zeros): AMD protocol: cfg[0] = 1 differs from the mode 0"
jq_is "$S1" '.transactions[0].rx_bytes' 4096
jq_is "$S1" .backend emu
# written once the session ended and its device closed, as AMD's server
# returns its folder after the session's process exited
jq_is "$S1" .state ended
jq_is "$S1" .reason "ended by its AMD client (destroy)"
jq_is "$S1" '.graphs[0].model' adder

# the log's cap: 10000 lines kept, the rest counted on a last line
mkdir -p "$TMP/f2"
expect 0 "$AC" files "$AP" "$TMP/f2" 10000
has "$TMP/out" "transactions, the rest not kept"
counted 10000
L2=$TMP/f2/test_harness_session.log
n=$(wc -l <"$L2")
[[ $n -eq 10001 ]] && ok || bad "the capped log has $n lines, expected 10001"
[[ $(tail -n 1 "$L2") == *"] [WARNING] ... $DROPPED more lines not kept (the log keeps 10000 lines and 1048576 bytes)" ]] && ok ||
  bad "the capped log's last line: $(tail -n 1 "$L2")"
# the transactions are in run_summary.json whatever the log kept
if [[ $(txns "$TMP/f2/run_summary.json") == '[[10,"finished","DONE"],[11,"finished","FAILED"],[12,"finished","DONE"]]' ]]; then ok
else bad "run_summary.json transactions (capped log): $(txns "$TMP/f2/run_summary.json")"; fi

# the full session of amd_listen.sh: its log counted by the client too
mkdir -p "$TMP/f3"
expect 0 "$AC" full "$AP" "$M" 4096 "$TMP/f3"
has "$TMP/out" " requests, 6 transactions"
if [[ $(txns "$TMP/f3/run_summary.json") == '[[0,"finished","DONE"],[1,"finished","DONE"],[2,"finished","DONE"],[3,"finished","DONE"],[4,"finished","DONE"],[5,"finished","TIMEOUT"]]' ]]; then ok
else bad "full: run_summary.json transactions: $(txns "$TMP/f3/run_summary.json")"; fi
stop_amd

# --- the xrt backend on the XRT test double: the same files; a file XRT
# writes into the session's folder comes back beside them
xrt_double_env
mkdir -p "$TMP/dd/xclbin" "$TMP/f4"
ln -s "$AIETH_DATA_DIR/platforms" "$TMP/dd/platforms"
ln -s "$AIETH_DATA_DIR/cfg" "$TMP/dd/cfg"
"$B/tests/xrt_mkxclbin" pl vck190 "$TMP/dd/xclbin/vck190_test_harness.xclbin" || bad "mkxclbin pl"
"$B/tests/xrt_mkxclbin" aie vck190 "$TMP/user.xclbin" gr || bad "mkxclbin aie"
# the double's graph: the model the server's --graph-model names
jq --argjson p "${M#adder:}" '.graphs = [{"name": "gr", "model": "adder", "params": $p}]' \
  "$S/examples/adder_func/test.json" >"$TMP/double.json"
export AIETH_XRT_DOUBLE_SPEC=$TMP/double.json AIETH_XRT_DOUBLE_LOG=$TMP/double.log
AIETH_DATA_DIR=$TMP/dd start_amd "$TMP/logx" --backend xrt --graph-model "gr=$M"
# an xrt.ini asking XRT for its AIE trace: the double writes what XRT would
printf '[Debug]\naie_trace=true\n' >"$TMP/trace.ini"
AMD_CLIENT_INI=$TMP/trace.ini AMD_CLIENT_XCLBIN=$TMP/user.xclbin expect 0 "$AC" files "$AP" "$TMP/f4"
counted
jq_is "$TMP/f4/run_summary.json" .backend xrt
jq_is "$TMP/f4/run_summary.json" .state ended
# the device (XRT) was closed before the files were sent: what XRT writes
# at its end can be among them
has "$TMP/double.log" "device_close"
if [[ $(txns "$TMP/f4/run_summary.json") == '[[10,"finished","DONE"],[11,"finished","FAILED"],[12,"finished","DONE"]]' ]]; then ok
else bad "xrt: run_summary.json transactions: $(txns "$TMP/f4/run_summary.json")"; fi
has "$TMP/f4/test_harness_session.log" "session s-1-"
has "$TMP/f4/test_harness_session.log" "on the xrt backend"
stop_amd
others=$(ls "$TMP/f4" | grep -vxE 'run_summary\.json|test_harness_session\.log|xrt\.ini' | tr '\n' ' ')
# XRT's files (the double writes them where XRT would: the session's
# folder) come back beside ours
[[ $others == *xrt.run_summary* && $others == *aie_trace_* ]] && ok ||
  bad "xrt: XRT's xrt.run_summary and trace did not come back (besides ours: '${others}')"

finish
