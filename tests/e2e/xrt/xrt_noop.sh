#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The xrt backend against the real XRT of Debian 12 (libxrt 2.13) in its
# noop mode (XRT's core/pcie/noop/shim.cpp): open, xclbin load, exclusive kernel
# open, argument groups, one buffer per argument, run start and wait, the
# clear "no AIE support" answer for graphs, and the watchdog when XRT's
# wait ignores its timeout. Skipped (with a note) when the noop shim is
# not installed.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
MK=$B/tests/xrt_mkxclbin
ARCH=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
LIBDIR=/usr/lib/$ARCH
if [[ ! -e $LIBDIR/libxrt_noop.so.2 || ! -e $LIBDIR/libxrt_coreutil.so.2 ]]; then
  echo "xrt_noop.sh: skipped: Debian's XRT (libxrt-dev) is not installed"; exit 0
fi
# Debian's layout: XRT wants $XILINX_XRT/lib/<shim>.so.2
mkdir -p "$TMP/xrt/lib"
for l in libxrt_noop.so.2 libxrt_coreutil.so.2; do ln -sf "$LIBDIR/$l" "$TMP/xrt/lib/$l"; done
unset AIETH_XRT_LIB AIETH_XRT_DOUBLE_SPEC AIETH_XRT_DOUBLE_FAULT
export XILINX_XRT=$TMP/xrt XCL_EMULATION_MODE=noop
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
"$MK" pl vck190 "$TMP/pl.xclbin" || bad "mkxclbin pl"
"$MK" aie vck190 "$TMP/aie.xclbin" gr || bad "mkxclbin aie"
jqis() { local got; got=$(jq -r "$2" "$3" 2>&1); [[ $got == "$1" ]] && ok || bad "$3: $2 = '$got', expected '$1'"; }

# a transaction without graphs: every host-side XRT call succeeds
cat >"$TMP/flow.json" <<JSON
{"schema": "aieth-test/1", "name": "noop_flow", "board": "vck190",
 "transactions": [{"mode": "perf", "timeout_ms": 5000,
   "channels": [{"plio": "PLIO_01_TO_AIE", "size": 4096, "data": {"pattern": "ramp", "type": "int32"}},
                {"plio": "PLIO_01_FROM_AIE", "size": 4096}]},
  {"mode": "func", "timeout_ms": 5000,
   "channels": [{"plio": "PLIO_02_TO_AIE", "size": 4096, "data": {"pattern": "ramp", "type": "int32"}}]}]}
JSON
expect 0 timeout 60 "$RT" --backend xrt --pl-xclbin "$TMP/pl.xclbin" -o "$TMP/flow" "$TMP/flow.json"
jqis done '.tests[0].transactions[0].status' "$TMP/flow/report.json"
jqis done '.tests[0].transactions[1].status' "$TMP/flow/report.json"
jqis xrt '.environment.backend' "$TMP/flow/report.json"
# graphs: XRT 2.13 on x86 has none; said clearly, exit 4 (unsupported)
expect 4 timeout 60 "$RT" --backend xrt --pl-xclbin "$TMP/pl.xclbin" --xclbin "$TMP/aie.xclbin" \
  -o "$TMP/graph" "$EX/adder_perf/test.json"
has "$TMP/graph/report.json" "this XRT has no AIE support"
has "$TMP/graph/report.json" "xclGraphOpen: Operation not supported"
# XRT's wait ignores its timeout (noop completes after 3 s): the watchdog
printf '[Runtime]\nnoop_completion_delay_us=3000000\n' >"$TMP/slow.ini"
start=$(date +%s)
XRT_INI_PATH=$TMP/slow.ini AIETH_XRT_GRACE_MS=300 expect 5 timeout 60 "$RT" --backend xrt \
  --pl-xclbin "$TMP/pl.xclbin" -t 200 -o "$TMP/slow" "$TMP/flow.json"
(( $(date +%s) - start < 3 )) && ok || bad "the watchdog did not end the run before XRT did"
has "$TMP/slow/report.json" "XRT did not return from the run's wait"
# a kernel the xclbin does not have: XRT's own message
"$MK" pl vck190 "$TMP/pl2.xclbin"
sed -i 's/vck190_test_harness/vck190_test_harnesX/g' "$TMP/pl2.xclbin" 2>/dev/null
expect 3 timeout 60 "$RT" --backend xrt --pl-xclbin "$TMP/pl2.xclbin" -o "$TMP/nok" "$TMP/flow.json"
has "$TMP/nok/report.json" "xrtPLKernelOpenExclusive"
finish
