#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The xrt backend interrupted: a run on the XRT test double whose
# kernel never completes, with no time limit (-t 0), ended by SIGINT or
# SIGTERM: the parent's wait notices, the watchdog child is ended and
# reaped, the graphs and the AIE array are reset from a fresh child, the
# report says interrupted and run_test exits 128+N.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
MK=$B/tests/xrt_mkxclbin
xrt_double_env
jqis() { local got; got=$(jq -r "$2" "$3" 2>&1); [[ $got == "$1" ]] && ok || bad "$3: $2 = '$got', expected '$1'"; }

"$MK" pl vck190 "$TMP/pl.xclbin" || bad "mkxclbin pl"
"$MK" aie vck190 "$TMP/aie.xclbin" gr || bad "mkxclbin aie"
for sig in INT:130 TERM:143; do
  s=${sig%%:*} want=${sig##*:} o=$TMP/$s
  AIETH_XRT_DOUBLE_FAULT=hang AIETH_XRT_DOUBLE_SPEC=$EX/adder_perf/test.json \
    AIETH_XRT_DOUBLE_LOG=$TMP/$s.log \
    expect "$want" timeout --preserve-status -k 30 -s "$s" 3 "$RT" --backend xrt -t 0 \
    --pl-xclbin "$TMP/pl.xclbin" --xclbin "$TMP/aie.xclbin" -o "$o" "$EX/adder_perf/test.json"
  has "$TMP/out" "status=interrupted exit=$want"
  jqis interrupted '.tests[0].status' "$o/report.json"
  jqis interrupted '.tests[0].transactions[0].status' "$o/report.json"
  has "$o/report.json" "were reset"
  has "$o/junit.xml" "<error"
  has "$TMP/$s.log" "run_start"
  has "$TMP/$s.log" "aie_reset_array"
  # no XRT child is left behind
  if pgrep -f "$TMP/aie.xclbin" >/dev/null 2>&1; then bad "$s: a process of the run is left"; else ok; fi
done
finish
