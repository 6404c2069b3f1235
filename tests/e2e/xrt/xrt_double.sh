#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The xrt backend end to end against the XRT C API test double
# (tests/xrt_double/: the emulated board behind XRT's function names):
# every example gives the same report as on the emu backend (counters,
# data, verdicts, exit code), the call sequence AMD's host uses, RTP, and
# the faults: a hang (watchdog, exit 5 in bounded time), an abort inside
# XRT (exit 3), buffer allocation failure, graph open failure, a device
# that disappears mid-run, plus the pre-flight checks.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
MK=$B/tests/xrt_mkxclbin
xrt_double_env

"$MK" pl vck190 "$TMP/vck190_pl.xclbin" || bad "mkxclbin pl vck190"
"$MK" pl vek280 "$TMP/vek280_pl.xclbin" || bad "mkxclbin pl vek280"

# the report fields that must agree between the backends
proj='[.tests[] | {status, exit_code,
  graphs: [.graphs[] | {name, status}],
  transactions: [.transactions[] | {mode, status, valid,
    latencies: [.latencies[] | {from, to, cycles, passed}],
    channels: [.channels[] | {plio, bytes_expected, finished, first_cycle, last_cycle, cycles,
      throughput_MBps, utilisation_pct, valid, integrity, verdict}
      + (if .finished then {bytes_moved} else {} end)]}]}]'

# xrun NAME SPEC WANT [extra run_test args]: run on the double
xrun() {
  local name=$1 spec=$2 want=$3; shift 3
  local board; board=$(jq -r .board "$spec")
  local graphs; graphs=$(jq -r '[.graphs[]?.name] | join(" ")' "$spec")
  # shellcheck disable=SC2086
  "$MK" aie "$board" "$TMP/$name.aie.xclbin" $graphs || bad "mkxclbin aie $name"
  AIETH_XRT_DOUBLE_SPEC=$spec AIETH_XRT_DOUBLE_LOG=$TMP/$name.log \
    expect "$want" timeout 120 "$RT" --backend xrt --pl-xclbin "$TMP/${board}_pl.xclbin" \
    --xclbin "$TMP/$name.aie.xclbin" -o "$TMP/$name.xrt" "$@" "$spec"
}

# --- every example: the same report on both backends
for d in "$EX"/*/; do
  [[ -f $d/test.json ]] || continue
  n=$(basename "$d")
  "$RT" -o "$TMP/$n.emu" "$d/test.json" >/dev/null 2>&1; want=$?
  xrun "$n" "$d/test.json" "$want"
  if diff <(jq -S "$proj" "$TMP/$n.emu/report.json") <(jq -S "$proj" "$TMP/$n.xrt/report.json") >"$TMP/diff"; then ok
  else bad "$n: the xrt report differs from the emu report"; head -40 "$TMP/diff" >&2; fi
  [[ $(jq -r .environment.backend "$TMP/$n.xrt/report.json") == xrt ]] && ok || bad "$n: backend not xrt"
done
# the board does not count a transaction's cycles: said so, not "0 board cycles"
xrun apx "$EX/adder_perf/test.json" 0
has "$TMP/out" 'transaction 0 "perf" (perf): DONE, valid, board cycles not known'
grep -q "0 board cycles" "$TMP/adder_perf.xrt/report.html" && bad "report.html: 0 board cycles on xrt" || ok
has "$TMP/adder_perf.xrt/report.html" "board cycles not known"

# --- AMD's call sequence (include/ps/test_harness_fastxm.hpp) and one BO per argument
L=$TMP/adder_perf.log
for line in "load_xclbin $TMP/vck190_pl.xclbin" "kernel_open vck190_test_harness" \
  "load_xclbin $TMP/adder_perf.aie.xclbin" "graph_open gr" "graph_reset gr" "soft_reset" \
  "graph_run gr 128" "bo_alloc 4096 group 2" "set_arg 2 2359296" "set_arg 3 2359296" \
  "run_start" "bo_sync from_device 4096" "graph_end gr 1" "kernel_close" "device_close"; do
  has "$L" "$line"
done
# the order: PL xclbin, kernel, AIE xclbin, graphs, reset, then the run
order=$(grep -nE '^(load_xclbin|kernel_open|graph_open|graph_reset|soft_reset|run_start)' "$L" | cut -d: -f2 | cut -d' ' -f1 | tr '\n' ' ')
[[ $order == "load_xclbin kernel_open load_xclbin graph_open graph_reset soft_reset run_start " ]] && ok \
  || bad "call order: $order"
# FUNC without RX channels: the empty argument gets a one-page buffer
cat >"$TMP/tx_only.json" <<EOF
{"schema": "aieth-test/1", "name": "tx_only", "board": "vck190",
 "graphs": [{"name": "gr", "iterations": -1, "model": "loopback", "params": {"channels": [1]}}],
 "transactions": [{"mode": "func", "timeout_ms": 5000,
   "channels": [{"plio": "PLIO_01_TO_AIE", "size": 4096, "data": {"pattern": "ramp", "type": "int32"}}]}]}
EOF
if "$RT" -o "$TMP/txo.emu" "$TMP/tx_only.json" >/dev/null 2>&1; then w=0; else w=$?; fi
xrun tx_only "$TMP/tx_only.json" "$w"
has "$TMP/tx_only.log" "set_arg 3 4096"

# --- the watchdog: a run that never completes
start=$(date +%s)
AIETH_XRT_DOUBLE_FAULT=hang AIETH_XRT_GRACE_MS=500 xrun hang "$EX/adder_perf/test.json" 5 -t 500
(( $(date +%s) - start < 20 )) && ok || bad "hang: not bounded in time"
jqis() { local got; got=$(jq -r "$2" "$3" 2>&1); [[ $got == "$1" ]] && ok || bad "$3: $2 = '$got', expected '$1'"; }
jqis timeout '.tests[0].transactions[0].status' "$TMP/hang.xrt/report.json"
has "$TMP/hang.xrt/report.json" "XRT did not return from the run's wait"
has "$TMP/hang.xrt/report.json" "were reset"
has "$TMP/hang.log" "aie_reset_array"
# the stall of the emulated board: XRT's wait returns, the child reports
xrun stall "$EX/stall_hang/test.json" 5
has "$TMP/stall.xrt/report.json" "after the 2000 ms timeout"
has "$TMP/stall.xrt/report.json" "CTRL 0x1: busy"
has "$TMP/stall.log" "aie_reset_array"
# --- an abort inside XRT: exit 3 with XRT's message
AIETH_XRT_DOUBLE_FAULT=abort xrun abort "$EX/adder_perf/test.json" 3
has "$TMP/abort.xrt/report.json" "killed by signal 6"
has "$TMP/abort.xrt/report.json" "injected abort in xrtRunStart"
# --- buffer allocation failure
AIETH_XRT_DOUBLE_FAULT=bo_alloc xrun bo "$EX/adder_perf/test.json" 3
has "$TMP/bo.xrt/report.json" "cannot allocate the 4096-byte buffer of kernel argument 0 (cfg) in memory group 2"
# --- graph open failure; no AIE support is "unsupported" (exit 4)
AIETH_XRT_DOUBLE_FAULT=graph_open xrun gopen "$EX/adder_perf/test.json" 3
has "$TMP/gopen.xrt/report.json" 'xrtGraphOpen(\"gr\") failed'
has "$TMP/gopen.xrt/report.json" "Cannot find graph 'gr'"
AIETH_XRT_DOUBLE_FAULT=no_aie xrun noaie "$EX/adder_perf/test.json" 4
has "$TMP/noaie.xrt/report.json" "this XRT has no AIE support"
# --- the device disappears during a run
AIETH_XRT_DOUBLE_FAULT=vanish xrun vanish "$EX/adder_perf/test.json" 3
has "$TMP/vanish.xrt/report.json" "ended in state ERROR"
has "$TMP/vanish.xrt/report.json" "No such device"
# --- no device; a soft reset that never clears
AIETH_XRT_DOUBLE_FAULT=no_device xrun nodev "$EX/adder_perf/test.json" 3
has "$TMP/nodev.xrt/report.json" "xrtDeviceOpen(0) failed"
AIETH_XRT_DOUBLE_FAULT=stuck_reset xrun stuck "$EX/adder_perf/test.json" 3
has "$TMP/stuck.xrt/report.json" "CTRL bit 8 still set"

# --- pre-flight checks
"$MK" aie vck190 "$TMP/other.aie.xclbin" othergraph
AIETH_XRT_DOUBLE_SPEC=$EX/adder_perf/test.json expect 2 "$RT" --backend xrt -o "$TMP/pf1" \
  --pl-xclbin "$TMP/vck190_pl.xclbin" --xclbin "$TMP/other.aie.xclbin" "$EX/adder_perf/test.json"
has "$TMP/pf1/report.json" 'graph \"gr\" is not in the AIE_METADATA'
has "$TMP/pf1/report.json" 'graphs found: \"othergraph\"'
expect 2 "$RT" --backend xrt -o "$TMP/pf2" --pl-xclbin "$TMP/vek280_pl.xclbin" \
  --xclbin "$TMP/adder_perf.aie.xclbin" "$EX/adder_perf/test.json"
has "$TMP/pf2/report.json" "was built for platform"
printf 'not an xclbin' >"$TMP/junk.xclbin"
expect 2 "$RT" --backend xrt -o "$TMP/pf3" --pl-xclbin "$TMP/junk.xclbin" "$EX/adder_perf/test.json"
has "$TMP/pf3/report.json" "PL xclbin"
expect 2 "$RT" --backend xrt -o "$TMP/pf4" --data-dir "$S" "$EX/adder_perf/test.json"
has "$TMP/pf4/report.json" "the board default"
# XRT's environment (only checked for the real library)
NOX=(env -u AIETH_XRT_LIB -u XILINX_XRT -u XCL_EMULATION_MODE)
expect 3 "${NOX[@]}" "$RT" --backend xrt -o "$TMP/pf5" --pl-xclbin "$TMP/vck190_pl.xclbin" "$EX/adder_perf/test.json"
has "$TMP/pf5/report.json" "XILINX_XRT is not set"
expect 3 "${NOX[@]}" XILINX_XRT=/usr "$RT" --backend xrt -o "$TMP/pf6" --pl-xclbin "$TMP/vck190_pl.xclbin" "$EX/adder_perf/test.json"
has "$TMP/pf6/report.json" "/usr/lib/libxrt_core.so.2 does not exist"
expect 3 "${NOX[@]}" XILINX_XRT=/usr XCL_EMULATION_MODE=NOOP "$RT" --backend xrt -o "$TMP/pf7" --pl-xclbin "$TMP/vck190_pl.xclbin" "$EX/adder_perf/test.json"
has "$TMP/pf7/report.json" 'XCL_EMULATION_MODE=\"NOOP\"'
expect 4 "${NOX[@]}" XILINX_XRT=/usr XCL_EMULATION_MODE=sw_emu "$RT" --backend xrt -o "$TMP/pf9" --pl-xclbin "$TMP/vck190_pl.xclbin" "$EX/adder_perf/test.json"
has "$TMP/pf9/report.json" "needs Vitis"
AIETH_XRT_LIB=$TMP/nonexistent.so expect 3 "$RT" --backend xrt -o "$TMP/pf8" --pl-xclbin "$TMP/vck190_pl.xclbin" "$EX/adder_perf/test.json"
has "$TMP/pf8/report.json" "AIETH_XRT_LIB="

finish
