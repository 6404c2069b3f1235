#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Parameter sweeps (docs/user-guide.md, "Sweeps"): a grid and a zip of
# examples/adder_perf on the emulated board (point names, count, one
# session, sweep.csv, knees), a failing point that does not stop the sweep
# and --sweep-stop-on-fail that does, the limits refused before the run,
# a knee found where the graph stops limiting, LAVA ids of long point
# names, the same sweep through th_server on loopback, and a sweep
# interrupted at its third point (synchronised on progress lines).
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
VS=$S/tests/e2e/validate_schema.py
schema() { /usr/bin/python3 "$VS" "$S/docs/report.schema.json" "$1" >"$TMP/v" 2>&1 && ok || bad "schema $1: $(cat "$TMP/v")"; }
# exit_is GOT WANT WHAT: an exit code
exit_is() { [[ $1 -eq $2 ]] && ok || bad "$3: exit $1, expected $2"; }
# jeq FILE JQ EXPECTED
jeq() {
  local got; got=$(jq -c "$2" "$1" 2>&1)
  [[ $got == "$3" ]] && ok || bad "$1: $2 = $got, expected $3"
}

# --- a grid from the command line: 2 x 3 points, one session
o=$TMP/grid
"$RT" -q -o "$o" --sweep PLIO_01_TO_AIE.delay=0,100 --sweep PLIO_02_TO_AIE.delay=0..20+10 \
  "$EX/adder_perf/test.json" >"$TMP/grid.out" 2>&1
exit_is $? 0 "grid sweep"
jeq "$o/report.json" '[.tests[].name]' '["adder_perf[PLIO_01_TO_AIE.delay=0,PLIO_02_TO_AIE.delay=0]","adder_perf[PLIO_01_TO_AIE.delay=0,PLIO_02_TO_AIE.delay=10]","adder_perf[PLIO_01_TO_AIE.delay=0,PLIO_02_TO_AIE.delay=20]","adder_perf[PLIO_01_TO_AIE.delay=100,PLIO_02_TO_AIE.delay=0]","adder_perf[PLIO_01_TO_AIE.delay=100,PLIO_02_TO_AIE.delay=10]","adder_perf[PLIO_01_TO_AIE.delay=100,PLIO_02_TO_AIE.delay=20]"]'
jeq "$o/report.json" '.run.sweeps[0] | [.mode, .points, .points_run, .sessions, .stopped, .axes]' \
  '["grid",6,6,1,null,[{"name":"PLIO_01_TO_AIE.delay","values":[0,100]},{"name":"PLIO_02_TO_AIE.delay","values":[0,10,20]}]]'
jeq "$o/report.json" '.tests[4].sweep' '{"name":"adder_perf","point":4,"points":6,"values":{"PLIO_01_TO_AIE.delay":100,"PLIO_02_TO_AIE.delay":10}}'
# each point's values reached its channels
jeq "$o/report.json" '[.tests[4].transactions[0].channels[] | .delay_cycles]' '[100,10,0]'
jeq "$o/report.json" '[.tests[].status] | unique' '["pass"]'
# the graph ran each point's iterations (not the session's sum)
jeq "$o/report.json" '[.tests[].graphs[0].iterations_done] | unique' '[128]'
# knees: per axis, per value of the other axis, per channel (3)
jeq "$o/report.json" '.run.sweeps[0].knees | length' '15'
jeq "$o/report.json" '[.run.sweeps[0].knees[] | select(.axis == "PLIO_02_TO_AIE.delay" and .plio == "PLIO_01_FROM_AIE")] | map(.at)' \
  '[{"PLIO_01_TO_AIE.delay":0},{"PLIO_01_TO_AIE.delay":100}]'
schema "$o/report.json"
# sweep.csv: a header and a row per point and channel
[[ $(wc -l <"$o/sweep.csv") -eq $((1 + 6 * 3)) ]] && ok || bad "sweep.csv: $(wc -l <"$o/sweep.csv") lines, expected 19"
has "$o/sweep.csv" 'sweep,point,name,PLIO_01_TO_AIE.delay,PLIO_02_TO_AIE.delay,transaction,plio,direction,'
has "$o/sweep.csv" '0,5,"adder_perf[PLIO_01_TO_AIE.delay=100,PLIO_02_TO_AIE.delay=20]",100,20,perf,PLIO_01_FROM_AIE,from_aie,4096,4,0,16384,'
# every output names the points
[[ $(grep -c '<testcase classname="adder_perf\[PLIO_01_TO_AIE.delay=100,PLIO_02_TO_AIE.delay=20\]"' "$o/junit.xml") -eq 4 ]] \
  && ok || bad "junit.xml: the point's test cases"
# (the markers' key=value lines write a name's '=' as '_')
has "$TMP/grid.out" "RUN_TEST CASE name=adder_perf[PLIO_01_TO_AIE.delay_100,PLIO_02_TO_AIE.delay_20] result=pass"

# the table ends a sweep with its summary: points, passes, axes, knees
"$RT" -o "$TMP/grid_t" --sweep PLIO_01_TO_AIE.delay=0,100 --sweep PLIO_02_TO_AIE.delay=0..20+10 \
  "$EX/adder_perf/test.json" >"$TMP/grid_t.out" 2>&1
exit_is $? 0 "grid sweep with the table"
has "$TMP/grid_t.out" '== sweep "adder_perf" (grid): 6 of 6 points ran, 6 passed; axes: PLIO_01_TO_AIE.delay, PLIO_02_TO_AIE.delay'
has "$TMP/grid_t.out" '   knee of PLIO_01_FROM_AIE along PLIO_02_TO_AIE.delay at {"PLIO_01_TO_AIE.delay":0}: '
[[ $(grep -c '^   knee of ' "$TMP/grid_t.out") -eq 15 ]] && ok || bad "the table's knee lines: $(grep -c '^   knee of ' "$TMP/grid_t.out"), expected 15"
[[ $(grep -n '^== sweep ' "$TMP/grid_t.out" | cut -d: -f1) -gt $(grep -n '^== adder_perf\[PLIO_01_TO_AIE.delay=100,PLIO_02_TO_AIE.delay=20\]' "$TMP/grid_t.out" | cut -d: -f1) ]] \
  && ok || bad "the sweep's summary comes after its last point"

# --- a description without a sweep gives no sweep.csv and no run.sweeps
"$RT" -q -o "$TMP/plain" "$EX/adder_perf/test.json" >/dev/null 2>&1
exit_is $? 0 "plain run"
[[ ! -e $TMP/plain/sweep.csv ]] && ok || bad "sweep.csv written for a run without a sweep"
jeq "$TMP/plain/report.json" '[.run.sweeps, .tests[0].sweep]' '[null,null]'

# --- a zip from the command line
o=$TMP/zip
"$RT" -q -o "$o" --sweep-zip --sweep PLIO_01_TO_AIE.delay=0,10,20 --sweep replay=4,4,4 \
  "$EX/adder_perf/test.json" >/dev/null 2>&1
exit_is $? 0 "zip sweep"
jeq "$o/report.json" '[.tests[].name]' '["adder_perf[PLIO_01_TO_AIE.delay=0,replay=4]","adder_perf[PLIO_01_TO_AIE.delay=10,replay=4]","adder_perf[PLIO_01_TO_AIE.delay=20,replay=4]"]'
jeq "$o/report.json" '.run.sweeps[0] | [.mode, .points, .sessions]' '["zip",3,1]'
schema "$o/report.json"

# --- a failing point does not stop the sweep; --sweep-stop-on-fail does.
# The hanging point is a real stall: the graph runs until ended and its
# kernel stalls after 200 iterations (the adder's stall_after), so replay=4
# (128 iterations) passes and replay=8 (256 more) hangs. (replay=8 on
# adder_perf itself, 128 iterations, is an input mistake refused before
# the run: input_mistakes.sh.)
mkdir -p "$TMP/st"
cp "$EX/adder_perf/"*.txt "$TMP/st/"
jq '.graphs[0].iterations = -1 | .graphs[0].params.stall_after = 200' "$EX/adder_perf/test.json" >"$TMP/st/test.json"
o=$TMP/fail
"$RT" -q -o "$o" --sweep replay=4,8,4 "$TMP/st/test.json" >/dev/null 2>&1
exit_is $? 5 "sweep with a hanging point (exit 5: the worst point)"
jeq "$o/report.json" '[.tests[].status]' '["pass","timeout","pass"]'
# the point after a hang runs in a session of its own
jeq "$o/report.json" '.run.sweeps[0] | [.points_run, .sessions, .stopped]' '[3,2,null]'
[[ $(wc -l <"$o/sweep.csv") -eq 10 ]] && ok || bad "sweep.csv of the failing sweep: $(wc -l <"$o/sweep.csv") lines"
o=$TMP/stop
"$RT" -q -o "$o" --sweep replay=4,8,4 --sweep-stop-on-fail "$TMP/st/test.json" >/dev/null 2>&1
exit_is $? 5 "--sweep-stop-on-fail"
jeq "$o/report.json" '[.tests[].status]' '["pass","timeout"]'
jeq "$o/report.json" '.run.sweeps[0] | [.points, .points_run, .stopped]' '[3,2,"stop_on_fail"]'
schema "$o/report.json"

# --- limits and rules: refused before anything runs (exit 2), naming them
# refuse EXPECTED_MESSAGE ARGS...: run_test ARGS exits 2, nothing ran,
# report.json's error names it
refuse() {
  local want=$1; shift
  rm -rf "$TMP/ref"
  "$RT" -q -o "$TMP/ref" "$@" >"$TMP/ref.out" 2>&1
  exit_is $? 2 "refused: $*"
  jeq "$TMP/ref/report.json" '[(.tests | length), .tests[0].transactions, .run.sweeps]' '[1,[],null]'
  has "$TMP/ref/report.json" "$want"
}
A=$EX/adder_perf/test.json
refuse '--sweep: 101000 points (PLIO_01_TO_AIE.delay 1000 x replay 101), more than the 100000 a sweep runs: refused before the run' \
  --sweep PLIO_01_TO_AIE.delay=1..1000+1 --sweep replay=1..101+1 "$A"
# a report.json past the 256 MiB it is written in: refused with the estimate
refuse '--sweep: 97000 points of about 6144 bytes each in report.json make about 568 MiB, more than the 256 MiB a report is written in: at most 43690 points of this description' \
  --sweep PLIO_01_TO_AIE.delay=0..999+1 --sweep replay=4..100+1 "$A"
refuse '--sweep: axis size: value 100: a size is a positive multiple of 16 bytes' --sweep size=100 "$A"
refuse 'has its size fixed by its data or golden file' --sweep size=4096,8192 "$A"
refuse '--sweep: axis PLIO_99_TO_AIE.delay: PLIO_99_TO_AIE is neither a PLIO of board vck190 nor a graph of the description' \
  --sweep PLIO_99_TO_AIE.delay=1 "$A"
refuse 'axis mode: value slow: perf or func' --sweep mode=perf,slow "$A"
refuse 'axis channels: value 3: each transaction keeps its first K channels of each direction, K 1..2 here' --sweep channels=1,3 "$A"
refuse 'zip: axis replay has 2 values, axis PLIO_01_TO_AIE.delay 3' --sweep-zip --sweep PLIO_01_TO_AIE.delay=0,1,2 --sweep replay=1,2 "$A"
refuse 'STEP is at least 1' --sweep delay=0..10+0 "$A"
# a point name over 256 characters: refused, never cut
long=$(printf 'n%.0s' $(seq 240))
sed "s/\"name\": \"adder_perf\"/\"name\": \"$long\"/" "$A" >"$TMP/longname.json"
cp "$EX/adder_perf/"*.txt "$TMP/"
refuse "more than 256 (the longest test name every output takes whole)" --sweep PLIO_01_TO_AIE.delay=0,1000 "$TMP/longname.json"
# the description's sweep, checked as the description is read
printf '%s\n' '{"schema": "aieth-test/1", "board": "vck190", "transactions": [{"mode": "perf", "channels": [{"plio": "PLIO_01_TO_AIE", "size": 64}]}],' \
  ' "sweep": {"axes": {"size": {"from": 64, "to": 16, "step": 16}}}}' >"$TMP/bad.json"
refuse 'bad.json: sweep.axes.size: axis size: range from 64 to 16: \"from\" is more than \"to\"' "$TMP/bad.json"
# usage errors
"$RT" -q -o "$TMP/u" --sweep-zip "$A" >"$TMP/u.out" 2>&1
exit_is $? 2 "--sweep-zip without --sweep"
has "$TMP/u.out" "--sweep-zip needs --sweep AXIS=LIST"

# --- the knee: where a graph with a per-iteration cost stops limiting
cat >"$TMP/knee.json" <<'J'
{"schema": "aieth-test/1", "name": "knee", "board": "vck190",
 "graphs": [{"name": "gr", "iterations": -1, "model": "adder",
   "params": {"in0": "PLIO_01_TO_AIE", "in1": "PLIO_02_TO_AIE", "out": "PLIO_01_FROM_AIE",
              "window_bytes": 128, "cycles_per_iteration": 64}}],
 "transactions": [{"name": "t", "mode": "perf",
   "channels": [
     {"plio": "PLIO_01_TO_AIE", "size": 16384, "data": {"pattern": "ramp", "type": "int32"}},
     {"plio": "PLIO_02_TO_AIE", "size": 16384, "data": {"pattern": "ramp", "type": "int32"}},
     {"plio": "PLIO_01_FROM_AIE", "size": 16384}]}],
 "sweep": {"axes": {"gr.window_bytes": {"from": 64, "to": 16384, "times": 2}}}}
J
/usr/bin/python3 "$VS" "$S/docs/test-spec.schema.json" "$TMP/knee.json" >"$TMP/v" 2>&1 && ok || bad "knee.json: $(cat "$TMP/v")"
o=$TMP/knee
"$RT" -q -o "$o" "$TMP/knee.json" >/dev/null 2>&1
exit_is $? 0 "knee sweep"
jeq "$o/report.json" '.run.sweeps[0].knees[] | select(.plio == "PLIO_01_FROM_AIE") | [.axis, .value, .plateau_MBps, .reason]' \
  '["gr.window_bytes",1024,5000,null]'
# a graph parameter is given when a session opens: a session per point
jeq "$o/report.json" '.run.sweeps[0] | [.points, .sessions]' '[9,9]'
# below the knee the throughput grows with the window
jeq "$o/report.json" '[.tests[0,1,2,3].transactions[0].channels[2].throughput_MBps | floor] | (.[0] < .[1] and .[1] < .[2] and .[2] < .[3])' 'true'
# a sweep the plateau is not reached in: no knee, and why
o=$TMP/noknee
"$RT" -q -o "$o" --sweep gr.window_bytes=64,128,256 "$TMP/knee.json" >/dev/null 2>&1
exit_is $? 0 "sweep below the knee"
jeq "$o/report.json" '.run.sweeps[0].knees[] | select(.plio == "PLIO_01_FROM_AIE") | .value' 'null'
has "$o/report.json" "no plateau: the throughputs at the 3 largest values of gr.window_bytes differ by"
# size and channels axes over patterns: the first K channels per direction
# (a loopback graph: channels=1 leaves the adder's second input without
# data, an input mistake refused before the run)
o=$TMP/chan
jq '.graphs[0].model = "loopback" | .graphs[0].params = {"window_bytes": 128}' "$TMP/knee.json" >"$TMP/knee_lb.json"
"$RT" -q -o "$o" --sweep channels=1,2 --sweep size=4096,8192 "$TMP/knee_lb.json" >/dev/null 2>&1
jeq "$o/report.json" '[.tests[] | [.name, (.transactions[0].channels | map(.plio) | join("+")), .transactions[0].channels[0].size_bytes]] | .[1,3]' \
  '["knee[channels=1,size=8192]","PLIO_01_TO_AIE+PLIO_01_FROM_AIE",8192]
["knee[channels=2,size=8192]","PLIO_01_TO_AIE+PLIO_02_TO_AIE+PLIO_01_FROM_AIE",8192]'

# --- LAVA and TAP ids of long point names: cut to fit, the point kept
long=$(printf 'x%.0s' $(seq 110))
sed "s/\"name\": \"knee\"/\"name\": \"$long\"/" "$TMP/knee.json" >"$TMP/lk.json"
"$RT" -q -o "$TMP/lk" --lava --tap "$TMP/lk.tap" --sweep gr.window_bytes=1024,2048 "$TMP/lk.json" >"$TMP/lk.out" 2>&1
exit_is $? 0 "long point names"
ids=$(sed -n 's/.*TEST_CASE_ID=\([^ ]*\) .*/\1/p' "$TMP/lk.out")
[[ $(echo "$ids" | wc -l) -eq 10 && $(echo "$ids" | sort -u | wc -l) -eq 10 ]] && ok || bad "LAVA ids not unique: $ids"
[[ $(echo "$ids" | awk 'length > 128' | wc -l) -eq 0 ]] && ok || bad "LAVA ids over 128 bytes"
[[ $(echo "$ids" | grep -c '\.p1\.t\.PLIO_01_FROM_AIE$') -eq 1 ]] && ok || bad "LAVA ids lack .p1: $ids"
[[ $(grep -c '^ok .*\.p0\.' "$TMP/lk.tap") -ge 4 ]] && ok || bad "TAP ids lack .p0"

# --- through th_server on loopback: the same figures as local, one session
th_server_setup
TOK=sweep-test-token-0123456789
printf 'ci %s\n' "$TOK" >"$TMP/tokens"
chmod 600 "$TMP/tokens"
printf '%s\n' "$TOK" >"$TMP/token"
start_server "$TMP/log" --token-file "$TMP/tokens" --idle-timeout 120 --max-wait 600
sessions() { curl -s -m 5 -H "Authorization: Bearer $TOK" "$U/v1/metrics" | sed -n 's/^aieth_sessions_total //p'; }
before=$(sessions)
"$RT" -q --backend remote --server "$U" --token-file "$TMP/token" -o "$TMP/rgrid" \
  --sweep PLIO_01_TO_AIE.delay=0,100 --sweep PLIO_02_TO_AIE.delay=0..20+10 "$EX/adder_perf/test.json" >"$TMP/rgrid.out" 2>&1
exit_is $? 0 "remote grid sweep"
after=$(sessions)
[[ -n $before && $((after - before)) -eq 1 ]] && ok || bad "th_server sessions of the sweep: $before -> $after, expected one"
if diff <(norm_report "$TMP/grid/report.json" | jq 'del(.run.argv)') \
        <(norm_report "$TMP/rgrid/report.json" | jq 'del(.run.argv)') >"$TMP/diff"; then ok
else bad "remote sweep differs from local:"; head -20 "$TMP/diff" >&2; fi
diff "$TMP/grid/sweep.csv" "$TMP/rgrid/sweep.csv" >"$TMP/diff" && ok || { bad "remote sweep.csv differs:"; head "$TMP/diff" >&2; }
stop_server

# --- Ctrl-C during the third point: the points so far are reported
cat >"$TMP/long.json" <<'J'
{"schema": "aieth-test/1", "name": "intr", "board": "vek280",
 "graphs": [{"name": "loopback", "model": "loopback", "params": {"channels": [1], "window_bytes": 4096}}],
 "transactions": [{"name": "t", "mode": "func", "timeout_ms": 3600000,
   "channels": [
     {"plio": "PLIO_01_TO_AIE", "size": 4096, "data": {"pattern": "random", "seed": 1}},
     {"plio": "PLIO_01_FROM_AIE", "size": 4096}]}],
 "sweep": {"axes": {"size": [4096, 8192, 68719472640, 4096]}}}
J
: >"$TMP/intr.err"
"$RT" --progress -o "$TMP/intr" "$TMP/long.json" >"$TMP/intr.out" 2>"$TMP/intr.err" &
RP=$!
got=0
for i in $(seq 1200); do
  if grep -q 'point 3 of 4' "$TMP/intr.err" && grep -q 'bytes moved' <(sed -n '/point 3 of 4/,$p' "$TMP/intr.err"); then got=1; break; fi
  kill -0 "$RP" 2>/dev/null || break
  sleep 0.1
done
[[ $got -eq 1 ]] && ok || bad "no progress of the third point: $(tail -5 "$TMP/intr.err")"
kill -INT "$RP" 2>/dev/null
for i in $(seq 300); do kill -0 "$RP" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$RP" 2>/dev/null; then bad "run_test still running 30 s after SIGINT"; kill -KILL "$RP"; fi
wait "$RP"; rc=$?
exit_is $rc 130 "interrupted sweep"
jeq "$TMP/intr/report.json" '[.tests[] | [.name, .status]]' '[["intr[size=4096]","pass"],["intr[size=8192]","pass"],["intr[size=68719472640]","interrupted"]]'
jeq "$TMP/intr/report.json" '.run.sweeps[0] | [.points, .points_run, .stopped]' '[4,3,"interrupted"]'
[[ $(grep -c '^0,[0-2],' "$TMP/intr/sweep.csv") -eq 6 ]] && ok || bad "sweep.csv of the interrupted sweep: $(cat "$TMP/intr/sweep.csv")"
schema "$TMP/intr/report.json"
finish
