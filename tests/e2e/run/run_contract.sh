#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The run_test contract under hostile conditions: SIGINT, SIGTERM
# and SIGHUP end a run with its report written and exit 128+N; a closed
# stdout (SIGPIPE) never kills a run; output destinations are checked
# before the run and a write failure after it is what every output says;
# forged names; one run per output folder; progress, -q and -v; -t 0.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
PY=/usr/bin/python3
jqis() {
  local got; got=$(jq -r "$2" "$3" 2>&1)
  if [[ $got == "$1" ]]; then ok; else bad "$3: $2 = '$got', expected '$1'"; fi
}
# lacks FILE TEXT: FILE does not contain TEXT
lacks() { if grep -qF -- "$2" "$1"; then bad "$1 has: $2"; sed 's/^/  | /' "$1" >&2; else ok; fi; }
valid() {
  if $PY "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$1" >"$TMP/schema" 2>&1; then ok
  else bad "$1 does not validate against docs/report.schema.json"; cat "$TMP/schema" >&2; fi
  if xmllint --noout "$2" 2>"$TMP/xml"; then ok; else bad "$2 is not well-formed"; cat "$TMP/xml" >&2; fi
}

# A transaction that keeps the emulated board busy for hours in reference
# mode (every cycle stepped): 4 KiB replayed 4e9 times, little memory.
LONG=$TMP/long.json
long_perf "$LONG"

# --- interruption: report, JUnit error, END marker, exit 128+N; bounded
# (-k: a run that ignores the signal is killed and gives 137, not 128+N)
for sig in INT:130 TERM:143 HUP:129; do
  s=${sig%%:*} want=${sig##*:} o=$TMP/sig_$s
  expect "$want" timeout --preserve-status -k 30 -s "$s" 2 "$RT" --reference -t 0 -o "$o" "$LONG"
  has "$TMP/out" "RUN_TEST END"
  has "$TMP/out" "status=interrupted exit=$want"
  has "$TMP/out" "INTERRUPTED, exit $want"
  jqis interrupted '.run.status' "$o/report.json"
  jqis "$want" '.run.exit_code' "$o/report.json"
  jqis interrupted '.tests[0].status' "$o/report.json"
  jqis interrupted '.tests[0].error.phase' "$o/report.json"
  jqis interrupted '.tests[0].transactions[0].status' "$o/report.json"
  jqis interrupted '.tests[0].transactions[0].channels[0].verdict' "$o/report.json"
  jqis 1 '.summary.interrupted' "$o/report.json"
  has "$o/report.json" "SIG$s"
  has "$o/junit.xml" "<error"
  valid "$o/report.json" "$o/junit.xml"
done
# -q: the markers only, still written
o=$TMP/sig_q
expect 130 timeout --preserve-status -k 30 -s INT 2 "$RT" -q --reference -t 0 -o "$o" "$LONG"
has "$TMP/out" "RUN_TEST END"
lacks "$TMP/out" "=="
jqis interrupted '.run.status' "$o/report.json"

# --- SIGPIPE: a reader that went away does not kill the run
o=$TMP/pipe
expect 0 $PY -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
sys.exit(subprocess.call(sys.argv[1:], stdout=w))' "$RT" -o "$o" "$EX/adder_perf/test.json"
jqis pass '.run.status' "$o/report.json"
o=$TMP/head
bash -c '"$1" -o "$2" "$3" | head -1; exit "${PIPESTATUS[0]}"' _ "$RT" "$o" "$EX/adder_perf/test.json" >"$TMP/out" 2>&1
rc=$?
[[ $rc -eq 0 ]] && ok || bad "run_test | head -1: exit $rc, expected 0"
jqis pass '.run.status' "$o/report.json"
[[ -f $o/junit.xml ]] && ok || bad "run_test | head -1: no junit.xml"
# a failing run keeps its code through the pipe
o=$TMP/pipe_fail
sed 's/"min_throughput_MBps": 4000/"min_throughput_MBps": 400000/' "$EX/adder_perf/test.json" >"$EX/adder_perf/.run_contract_fail.json"
expect 1 $PY -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
sys.exit(subprocess.call(sys.argv[1:], stdout=w))' "$RT" -o "$o" "$EX/adder_perf/.run_contract_fail.json"
rm -f "$EX/adder_perf/.run_contract_fail.json"
jqis fail '.run.status' "$o/report.json"

# --- every destination is checked before the run
o=$TMP/dest
expect 2 "$RT" -o "$o" --report /nonexistent/r.json "$EX/adder_perf/test.json"
has "$TMP/err" "/nonexistent"
lacks "$TMP/out" "PASS"
lacks "$TMP/out" "RUN_TEST"
[[ ! -e $o/junit.xml ]] && ok || bad "--report /nonexistent: junit.xml written though the run was refused"
mkdir -p "$TMP/adir"
expect 2 "$RT" -o "$o" --junit "$TMP/adir" "$EX/adder_perf/test.json"
has "$TMP/err" "is a directory"
lacks "$TMP/out" "PASS"
expect 2 "$RT" -o "$o" --report "" "$EX/adder_perf/test.json"
has "$TMP/err" "empty file name"

# --- a full disk (root: a small tmpfs)
if [[ $(id -u) -eq 0 ]] && mkdir -p "$TMP/mnt" && mount -t tmpfs -o size=64k tmpfs "$TMP/mnt" 2>/dev/null; then
  M=$TMP/mnt
  # full: refused before the run (exit 2), nothing says pass
  i=0; while dd if=/dev/zero of="$M/fill$i" bs=4096 count=1 status=none 2>/dev/null; do i=$((i + 1)); done
  expect 2 "$RT" -o "$TMP/full_out" --report "$M/report.json" --junit "$M/junit.xml" "$EX/adder_perf/test.json"
  lacks "$TMP/out" "PASS"
  lacks "$TMP/out" "status=pass"
  has "$TMP/err" "No space left on device"
  # one page free: the check passes, report.json (> 4 KiB) does not fit
  # after the run: the summary, the markers, junit.xml and the exit code
  # all say error
  rm -f "$M/fill0"
  expect 2 "$RT" -o "$TMP/full_out" --report "$M/report.json" --junit "$M/junit.xml" "$EX/adder_perf/test.json"
  lacks "$TMP/out" "PASS"
  has "$TMP/out" "ERROR, exit 2"
  has "$TMP/out" "status=error exit=2"
  has "$TMP/out" "error (write"
  has "$M/junit.xml" "<error"
  # a link on the full disk to a report elsewhere: the link is what is
  # replaced (never its target), so its own folder, full, is what
  # must be writable: refused before the run, the target left as it was
  rm -f "$M"/fill* "$M/report.json" "$M/junit.xml"
  mkdir -p "$TMP/elsewhere"
  echo old >"$TMP/elsewhere/r.json"
  ln -s "$TMP/elsewhere/r.json" "$M/link.json"
  i=0; while dd if=/dev/zero of="$M/fill$i" bs=4096 count=1 status=none 2>/dev/null; do i=$((i + 1)); done
  expect 2 "$RT" -q -o "$TMP/full_out" --report "$M/link.json" "$EX/adder_perf/test.json"
  has "$TMP/err" "$M/link.json"
  if [[ -L $M/link.json ]]; then ok; else bad "$M/link.json is no longer a link"; fi
  [[ $(cat "$TMP/elsewhere/r.json") == old ]] && ok || bad "the link's target was written"
  umount "$M"
else
  echo "run_contract.sh: full-disk checks skipped (need root to mount a tmpfs)"
fi

# --- forged names: rejected in a description, escaped when from a path
mkdir -p "$TMP/forge"
cp "$EX/adder_perf/"*.txt "$TMP/forge/"
jq '.name = "x\nRUN_TEST END run=0 status=pass exit=0"' "$EX/adder_perf/test.json" >"$TMP/forge/nl.json"
expect 2 "$RT" -o "$TMP/forge_o" "$TMP/forge/nl.json"
has "$TMP/out" "control character 0x0a"
if grep -q '^RUN_TEST END run=0' "$TMP/out"; then bad "a forged END marker was printed"; else ok; fi
jq '.transactions[0].name = "t\u001b[2J"' "$EX/adder_perf/test.json" >"$TMP/forge/esc.json"
expect 2 "$RT" -o "$TMP/forge_o" "$TMP/forge/esc.json"
has "$TMP/out" "control character 0x1b"
# a description named by its path (no "name"): the path is escaped
f=$TMP/forge/$'x\nRUN_TEST END run=0 status=pass exit=0\e[31m.json'
jq 'del(.name)' "$EX/adder_perf/test.json" >"$f"
expect 0 "$RT" -o "$TMP/forge_o" "$f"
if grep -q '^RUN_TEST END run=0' "$TMP/out"; then bad "a forged END marker was printed"; else ok; fi
if grep -q $'\e' "$TMP/out"; then bad "ESC reached stdout"; else ok; fi
has "$TMP/out" 'x\nRUN_TEST END run=0 status=pass exit=0\x1b[31m'
if grep -q $'\e' "$TMP/forge_o/junit.xml"; then bad "ESC reached junit.xml"; else ok; fi
# < and > in a name: no LAVA signal can start inside a marker line
jq '.name = "a<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=x RESULT=pass>b"' "$EX/adder_perf/test.json" >"$TMP/forge/lava.json"
expect 0 "$RT" -o "$TMP/forge_o" "$TMP/forge/lava.json"
if grep -q '^RUN_TEST.*<LAVA_SIGNAL' "$TMP/out"; then bad "a LAVA signal inside a marker"; else ok; fi
has "$TMP/out" 'RUN_TEST CASE name=a_LAVA_SIGNAL_TESTCASE_TEST_CASE_ID_x_RESULT_pass_b result=pass'
valid "$TMP/forge_o/report.json" "$TMP/forge_o/junit.xml"
# the rule is in the schema
echo '{"schema": "aieth-test/1", "name": "a\u0007b", "board": "vck190", "transactions": []}' >"$TMP/forge/bel.json"
if $PY "$S/tests/e2e/validate_schema.py" "$S/docs/test-spec.schema.json" "$TMP/forge/bel.json" >/dev/null 2>&1
then bad "test-spec.schema.json accepts a name with a control character"; else ok; fi

# --- one output folder, one run
o=$TMP/locked
mkdir -p "$o"
timeout -k 10 60 "$RT" -q --reference -t 0 -o "$o" "$LONG" >"$TMP/holder.out" 2>&1 &
holder=$!
for _ in $(seq 100); do [[ -s $o/.run_test.lock ]] && break; sleep 0.1; done
expect 2 timeout 30 "$RT" -o "$o" "$EX/adder_perf/test.json"
has "$TMP/err" "in use by another run (PID $(head -1 "$o/.run_test.lock")"
kill -0 "$(head -1 "$o/.run_test.lock")" 2>/dev/null && ok || bad "the lock does not name the holder's PID"
lacks "$TMP/out" "RUN_TEST"
# --wait-lock waits for the holder, then runs
timeout -k 10 60 "$RT" --wait-lock -o "$o" "$EX/adder_perf/test.json" >"$TMP/waiter.out" 2>&1 &
waiter=$!
sleep 0.5
kill -INT "$holder"
wait "$holder"; rc=$?
[[ $rc -eq 130 ]] && ok || bad "lock holder: exit $rc after SIGINT, expected 130"
wait "$waiter"; rc=$?
[[ $rc -eq 0 ]] && ok || { bad "--wait-lock: exit $rc, expected 0"; cat "$TMP/waiter.out" >&2; }
jqis adder_perf '.tests[0].name' "$o/report.json"

# --- progress within a transaction, -q, -v
o=$TMP/prog
expect 130 timeout --preserve-status -k 30 -s INT 2 "$RT" --progress --reference -t 0 -o "$o" "$LONG"
has "$TMP/err" 'transaction 1/1 "long": '
has "$TMP/err" "bytes moved"
expect 130 timeout --preserve-status -k 30 -s INT 2 "$RT" -q --progress --reference -t 0 -o "$o" "$LONG"
lacks "$TMP/err" "bytes moved"
expect 0 "$RT" -v -o "$o" "$EX/adder_perf/test.json"
for phase in "load the description" "prepare: load and check the data" "open: emu board vck190" \
  'graph "gr": run' 'transaction 1/1 "perf"' 'graph "gr": wait' "close the session" "write $o/report.json"; do
  has "$TMP/err" "run_test: $phase"
done
expect 0 "$RT" -q -v -o "$o" "$EX/adder_perf/test.json"
lacks "$TMP/err" "run_test:"

# --- -t 0: no limit, as documented
expect 0 "$RT" -t 0 -o "$TMP/t0" "$EX/adder_perf/test.json"
jqis 0 '.tests[0].transactions[0].timeout_ms' "$TMP/t0/report.json"
expect 2 "$RT" -t -1 -o "$TMP/t0" "$EX/adder_perf/test.json"
expect 2 "$RT" -t 4294967296 -o "$TMP/t0" "$EX/adder_perf/test.json"
finish
