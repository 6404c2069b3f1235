#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A bad artifact never passes: a design xclbin that cannot be
# read, or that th_package check refuses, is an input error (exit 2) on
# every backend (emu, xrt on the XRT test double, remote: refused before
# anything is uploaded), its problems listed one per line naming the file;
# --xclbin-warn-only keeps the warning and the run goes on.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
T=$B/bin/th_package
MK=$B/tests/xrt_mkxclbin
EX=$S/examples/adder_perf/test.json

# put FILE OFFSET BYTES...: overwrite bytes in place (printf escapes)
put() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }

"$MK" aie vck190 "$TMP/good.xclbin" gr || { bad "xrt_mkxclbin"; finish; exit 1; }
"$MK" pl vck190 "$TMP/pl.xclbin" || bad "xrt_mkxclbin pl"
expect 0 "$T" check "$TMP/good.xclbin"
# two problems th_package check finds: the action mask cleared, and the
# PDI's first CDO command (at 0x150 + 20 in the section) an unknown one
pdi=$("$T" info --json "$TMP/good.xclbin" | jq -r '.sections[] | select(.kind_name == "PDI") | .offset')
cp "$TMP/good.xclbin" "$TMP/bad.xclbin"
put "$TMP/bad.xclbin" 334 '\x00\x00'
put "$TMP/bad.xclbin" $((pdi + 0x164)) '\x7f\x01\x02\x00'
expect 1 "$T" check "$TMP/bad.xclbin"
has "$TMP/err" "bad.xclbin: 2 problems"
echo "not an xclbin" >"$TMP/junk.xclbin"

# expect_refused DIR: exit 2 with both problems, each on its own line
# naming the file, in the text output and in report.json
expect_refused() {
  has "$TMP/out" "fails th_package check (2 problems"
  if grep -qE "^ +$TMP/bad.xclbin: m_actionMask: expected LOAD_AIE" "$TMP/out"; then ok
  else bad "no line of its own for the action mask problem: $(cat "$TMP/out")"; fi
  if grep -qE "^ +$TMP/bad.xclbin: section 1 \(PDI \"PDI\"\): partition header 0 data at offset 0x150: CDO command at word 5 .*an unknown command" "$TMP/out"; then ok
  else bad "no line of its own for the CDO problem: $(cat "$TMP/out")"; fi
  jqis 2 '.tests[0].exit_code' "$1/report.json"
  jqis 2 '.tests[0].xclbin.problems' "$1/report.json"
  jqis true '.tests[0].error.message | contains("\n  '"$TMP"'/bad.xclbin: m_actionMask")' "$1/report.json"
}
jqis() { local got; got=$(jq -r "$2" "$3" 2>&1); [[ $got == "$1" ]] && ok || bad "$3: $2 = '$got', expected '$1'"; }

# --- emu
expect 2 "$RT" -o "$TMP/e1" --xclbin "$TMP/bad.xclbin" "$EX"
expect_refused "$TMP/e1"
has "$TMP/out" "RUN_TEST END"
expect 0 "$RT" -o "$TMP/e2" --xclbin-warn-only --xclbin "$TMP/bad.xclbin" "$EX"
has "$TMP/err" "run_test: warning: $EX: the design xclbin $TMP/bad.xclbin has 2 problems th_package check reports (--xclbin-warn-only), the first: $TMP/bad.xclbin: m_actionMask"
jqis 2 '.tests[0].xclbin.problems' "$TMP/e2/report.json"
# a file that cannot be read at all
expect 2 "$RT" -o "$TMP/e3" --xclbin "$TMP/junk.xclbin" "$EX"
has "$TMP/out" "the design xclbin cannot be read (--xclbin-warn-only runs without it):"
has "$TMP/out" "junk.xclbin: file size: expected at least 456 bytes"
expect 2 "$RT" -o "$TMP/e4" --xclbin "$TMP/missing.xclbin" "$EX"
has "$TMP/e4/report.json" "missing.xclbin"
expect 0 "$RT" -o "$TMP/e5" --xclbin-warn-only --xclbin "$TMP/junk.xclbin" "$EX"
has "$TMP/err" "the design xclbin cannot be read, the report has no UUID for it"
# a valid one: no warning
expect 0 "$RT" -o "$TMP/e6" --xclbin "$TMP/good.xclbin" "$EX"
if grep -q warning "$TMP/err"; then bad "a valid xclbin gave a warning: $(cat "$TMP/err")"; else ok; fi
jqis 0 '.tests[0].xclbin.problems' "$TMP/e6/report.json"
expect 0 "$RT" --help
has "$TMP/out" "--xclbin-warn-only"

# --- xrt (the XRT C API test double): refused before the device is opened
xrt_double_env
AIETH_XRT_DOUBLE_SPEC=$EX AIETH_XRT_DOUBLE_LOG=$TMP/x1.log \
  expect 2 timeout 120 "$RT" --backend xrt --pl-xclbin "$TMP/pl.xclbin" -o "$TMP/x1" --xclbin "$TMP/bad.xclbin" "$EX"
expect_refused "$TMP/x1"
if [[ -s $TMP/x1.log ]]; then bad "the XRT double was called for a refused xclbin: $(head -3 "$TMP/x1.log")"; else ok; fi
AIETH_XRT_DOUBLE_SPEC=$EX AIETH_XRT_DOUBLE_LOG=$TMP/x2.log \
  expect 0 timeout 120 "$RT" --backend xrt --pl-xclbin "$TMP/pl.xclbin" -o "$TMP/x2" --xclbin "$TMP/good.xclbin" "$EX"

# --- remote: refused on the client, nothing uploaded
th_server_setup
start_server "$TMP/ts.log" --board vck190
sha=$(sha256sum "$TMP/bad.xclbin" | cut -d' ' -f1)
expect 2 timeout 120 "$RT" --backend remote --server "$U" -o "$TMP/r1" --xclbin "$TMP/bad.xclbin" "$EX"
expect_refused "$TMP/r1"
code=$(curl -s -o /dev/null -w '%{http_code}' -I "$U/v1/xclbins/$sha")
[[ $code == 404 ]] && ok || bad "the refused xclbin reached th_server (HEAD /v1/xclbins/$sha: $code)"
expect 0 timeout 120 "$RT" --backend remote --server "$U" -o "$TMP/r2" --xclbin "$TMP/good.xclbin" "$EX"
finish
