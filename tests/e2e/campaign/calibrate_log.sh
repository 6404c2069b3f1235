#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_test calibrate from logs of AMD's printPerf lines:
# the counters of emulated runs written in AMD's wording (amd_printperf.py)
# go where a board report goes (DESC.json=LOG, recognised by content) and
# feed the same fit: logs of a board with hidden values give them back;
# a log with the counters stretched by 30 % moves the fit toward it; logs
# that lack a channel, repeat one, or whose cycles do not fit the sizes are
# refused (exit 2) naming file, line and channel.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
PY=/usr/bin/python3
LOGW="$PY $S/tests/e2e/amd_printperf.py"
OUTS=(--junit none --html none --charts none --trace none -q)

# The hidden board of calibrate.sh (lib.sh) and its runs; func_loop has a
# second FUNC transaction of another shape (two printPerf blocks in the
# log).
hidden_board '{"name": "func1", "mode": "func", "channels": [
  {"plio": "PLIO_10_TO_AIE", "size": 32768, "data": {"pattern": "ramp", "type": "int32"}},
  {"plio": "PLIO_10_FROM_AIE", "size": 32768, "golden": {"pattern": "ramp", "type": "int32"}}]}'
PAIRS=()
for d in "${DESCS[@]}"; do
  $LOGW "$TMP/h_$d/report.json" "$TMP/h_$d.log"
  PAIRS+=("$TMP/$d.json=$TMP/h_$d.log")
done
has "$TMP/h_func_loop.log" "[INFO] PLIO_10_FROM_AIE received the first data at cycle["
has "$TMP/h_func_loop.log" "[INFO] PLIO_3_TO_AIE send the first data at cycle["

# 1. The same fit from logs: every value the counters show comes back.
# preload_latency_cycles only shows in total_cycles, which AMD's log lacks:
# the log does not determine it (it may ride along with a two-parameter
# move of the search without changing any counter).
expect 0 "$RT" calibrate -b vck190 -o "$TMP/fitted.json" "${PAIRS[@]}"
cp "$TMP/out" "$TMP/fit.out"
has "$TMP/fit.out" "func_loop / func1 / PLIO_10_FROM_AIE"
has "$TMP/fit.out" "changed: func_memory.read_latency_cycles: 64 -> 150"
grep -q "was made by the emulated board" "$TMP/fit.out" && bad "a note on a log" || ok
got=$(jq -c '[.func_memory.read_latency_cycles, .func_memory.write_latency_cycles,
  .func_memory.loop_overhead_cycles,
  .counter_edges.tx_first_cycles, .counter_edges.tx_last_cycles,
  .counter_edges.rx_first_cycles, .counter_edges.rx_last_cycles]' "$TMP/fitted.json")
if [[ $got == '[150,120,5,2,2,2,2]' ]]; then ok; else bad "fitted from logs: $got"; fi
# The logs and the reports they were written from fit to the same values.
RPAIRS=()
for d in "${DESCS[@]}"; do RPAIRS+=("$TMP/$d.json=$TMP/h_$d/report.json"); done
expect 0 "$RT" calibrate -q -b vck190 -o "$TMP/fitted_r.json" "${RPAIRS[@]}"
if [[ $(jq -c 'del(.preload_latency_cycles)' "$TMP/fitted.json") == \
      $(jq -c 'del(.preload_latency_cycles)' "$TMP/fitted_r.json") ]]; then ok
else bad "logs and reports fit differently"; fi

# 2. Content, not names: a log named .json, a report named .log, a log
# without the logger's prefix, and logs mixed with reports.
cp "$TMP/h_adder_func.log" "$TMP/looks_like_report.json"
cp "$TMP/h_adder_func/report.json" "$TMP/looks_like_log.log"
$LOGW "$TMP/h_rx_source/report.json" "$TMP/bare.log" --no-prefix
grep -q '\[INFO\]' "$TMP/bare.log" && bad "--no-prefix wrote prefixes" || ok
expect 0 "$RT" calibrate -q -b vck190 -o "$TMP/mixed.json" --max-runs 3 \
  "$TMP/adder_func.json=$TMP/looks_like_report.json" \
  "$TMP/adder_func.json=$TMP/looks_like_log.log" "$TMP/rx_source.json=$TMP/bare.log"
has "$TMP/out" "looks_like_log.log was made by the emulated board"

# 3. A board 30 % slower than the emulated one (every channel's last -
# first stretched): the fit moves toward it.
expect 0 "$RT" "${OUTS[@]}" -o "$TMP/d_af" "$TMP/adder_func.json"
$LOGW "$TMP/d_af/report.json" "$TMP/slow.log" --scale 1.3
$LOGW "$TMP/d_af/report.json" "$TMP/d_af.log"
expect 0 "$RT" calibrate -q -b vck190 -o "$TMP/slow.json" "$TMP/adder_func.json=$TMP/slow.log"
cp "$TMP/out" "$TMP/slow.out"
if $PY - "$TMP/slow.out" "$TMP/slow.json" <<'P'
import json, re, sys
t = open(sys.argv[1]).read()
before, after = map(float, re.search(r"before ([0-9.]+) %, after ([0-9.]+) %", t).groups())
rl = json.load(open(sys.argv[2]))["func_memory"]["read_latency_cycles"]
print("slow.log: error %.3f %% -> %.3f %%, read_latency_cycles 64 -> %d" % (before, after, rl))
sys.exit(0 if after < before / 3 and rl > 64 else 1)
P
then ok; else bad "the fit did not move toward the slower log"; cat "$TMP/slow.out" >&2; fi
# The fitted board's run is closer to the log than the default board's.
expect 0 "$RT" "${OUTS[@]}" -b "$TMP/slow.json" -o "$TMP/s_af" "$TMP/adder_func.json"
$LOGW "$TMP/s_af/report.json" "$TMP/s_af.log"
if $PY - "$TMP/slow.log" "$TMP/d_af.log" "$TMP/s_af.log" <<'P'
import re, sys
def spans(p):
    return [int(b) - int(a) for a, b in
            re.findall(r"cycle\[(\d+)\], ends at cycle\[(\d+)\]", open(p).read())]
board, default, fitted = (spans(p) for p in sys.argv[1:4])
e = lambda x: sum(abs(a - b) / b for a, b in zip(x, board))
print("cycles: log %s, default board %s, fitted board %s" % (board, default, fitted))
sys.exit(0 if len(board) == 3 and e(fitted) < e(default) / 3 else 1)
P
then ok; else bad "the fitted board is not closer to the log"; fi

# 4. Refusals: exit 2, naming the file, the line and the channel; nothing
# written.
L=$TMP/h_adder_func.log
A=$TMP/adder_func.json
refuse() { # refuse LOG TEXT...
  local log=$1; shift
  expect 2 "$RT" calibrate -q -b vck190 -o "$TMP/x.json" "$A=$log"
  local t; for t in "$@"; do has "$TMP/err" "$t"; done
}
grep -v 'PLIO_1_FROM_AIE' "$L" >"$TMP/lacks.log"
refuse "$TMP/lacks.log" "lacks.log:" "transaction 0 (\"func\") lacks PLIO_01_FROM_AIE"
awk '{print} /PLIO_2_TO_AIE/ {print}' "$L" >"$TMP/twice.log"
refuse "$TMP/twice.log" "twice.log:5: PLIO_2_TO_AIE (PLIO_02_TO_AIE) twice in the printPerf block of transaction 0 (\"func\"), first at line 4"
# The same counters printed for a description twice the size: the
# throughput (bytes over cycles) no longer fits adder_func's 16384 bytes.
$PY - "$L" "$TMP/size.log" <<'P'
import re, sys
t = open(sys.argv[1]).read()
t = re.sub(r"(PLIO_1_TO_AIE .* throughputs is )([0-9.e+]+)",
           lambda m: m.group(1) + "%g" % (2 * float(m.group(2))), t)
open(sys.argv[2], "w").write(t)
P
refuse "$TMP/size.log" "size.log:2: PLIO_1_TO_AIE (PLIO_01_TO_AIE):" "is 32768 bytes at AMD's 312.5 MHz, the description moves 16384 bytes"
sed 's/ends at cycle\[[0-9]*\], and the throughputs is [0-9.e+]* MBps/ends at cycle[100], and the throughputs is 3.2 MBps/; 2s/send the first data at cycle\[[0-9]*\]/send the first data at cycle[1]/' "$L" >"$TMP/fast.log"
$PY - "$TMP/fast.log" <<'P'
import sys
p = sys.argv[1]
t = open(p).read().replace("and the throughputs is 3.2 MBps", "and the throughputs is %g MBps" % (16384 * 312.5e6 / 99 / 1048576), 1)
open(p, "w").write(t)
P
refuse "$TMP/fast.log" "fast.log:2: PLIO_1_TO_AIE (PLIO_01_TO_AIE): 99 cycles from first to last for the description's 16384 bytes (1024 beats"
sed 's/PLIO_1_FROM_AIE/PLIO_01_FROM_AIE/' "$L" >"$TMP/padded.log"
refuse "$TMP/padded.log" "padded.log:6: channel number with a leading zero"
sed 's/^\(.*PLIO_2_TO_AIE.*\)$/\1\nmy own output/' "$L" >"$TMP/foreign.log"
refuse "$TMP/foreign.log" "foreign.log:5: inside the printPerf block of transaction 0 (\"func\""
{ echo "bench"; echo "[2026-01-01 12:00:00] [WARNING] The performance information of this transaction is not available due to timeout."; } >"$TMP/timeout.log"
refuse "$TMP/timeout.log" "timeout.log:2: transaction 0 (\"func\"): AMD's printPerf says it timed out"
cat "$L" "$L" >"$TMP/more.log"
refuse "$TMP/more.log" "more.log:10: a printPerf line after the description's 1 transactions"
sed 's/the first data at cycle\[\([0-9]*\)\], ends/the first data at cycle[\1] ends/' "$L" >"$TMP/wording.log"
refuse "$TMP/wording.log" "wording.log:2: expected AMD's printPerf wording"
printf 'just a text file\n' >"$TMP/text.log"
refuse "$TMP/text.log" "text.log: neither a report.json"
$LOGW "$TMP/h_func_loop/report.json" "$TMP/other_desc.log"
refuse "$TMP/other_desc.log" "other_desc.log:2: PLIO_1_TO_AIE (PLIO_01_TO_AIE): " "the description moves 16384 bytes"
# Size is checked before reading: a sparse file of 65 MiB.
truncate -s 65M "$TMP/huge.log"
refuse "$TMP/huge.log" "huge.log: file is 68157440 bytes, the limit is 67108864 bytes"
[[ -e $TMP/x.json ]] && bad "a refused calibration wrote its output" || ok

# 5. The sample log shipped for docs/user-guide.md (the emulated adder_func
# with its counters stretched by 25 %, in AMD's wording) calibrates.
expect 0 "$RT" calibrate -q -b vck190 -o "$TMP/sample.json" \
  "$EX/adder_func/test.json=$EX/adder_func/board_printperf.log"
has "$TMP/out" "changed: func_memory.read_latency_cycles: 64 ->"
finish
