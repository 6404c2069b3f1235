#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The run history (docs/farm.md, "Run history"): run_test --history and
# history add (idempotent; a damaged and a foreign report named and
# skipped, nothing written), history show, history gate and --gate-history
# (no baseline under 3 runs, a slower run caught, the run itself left out,
# the verdict in report.json), the exit codes (2 usage, 3 a database that
# cannot be opened, checked before the run), concurrent writers (8
# history add and 4 --history runs on one database: every run there, the
# database intact), and the trend page: self-contained, its links to the
# reports, then in headless Chromium (no console message, a screenshot
# showing the trend line, a regression mark and a failed run).
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
PY=/usr/bin/python3
cd "$TMP" || exit 1
DB=$TMP/h.db
# nruns: the runs in DB (one line per test of each run, one test each)
nruns() { "$RT" history show "$DB" --last 100000 | tail -n +2 | grep -vc '^(no runs' || true; }
lacks() { if grep -qF -- "$2" "$1"; then bad "$1 has: $2"; else ok; fi; }

# --- three runs recorded, with labels
for i in 1 2 3; do
  expect 0 "$RT" -o "r$i" --history "$DB" --label "c$i" "$EX/adder_perf/test.json"
  has "$TMP/out" "history: run recorded"
done
[[ -f $DB && ! -L $DB ]] && ok || bad "no database at $DB"
expect 0 "$RT" history show "$DB"
has "$TMP/out" "STARTED"
has "$TMP/out" " c3 "
[[ $(nruns) -eq 3 ]] && ok || bad "3 runs expected, got $(nruns)"
expect 0 "$RT" history show "$DB" --test adder_perf --last 2
[[ $(grep -c adder_perf "$TMP/out") -eq 2 ]] && ok || bad "--last 2: $(cat "$TMP/out")"
expect 0 "$RT" history show "$DB" --test nope
has "$TMP/out" "(no runs of test nope)"

# --- add: idempotent; a damaged and a foreign file named and skipped
expect 0 "$RT" history add "$DB" r1/report.json r2/report.json
has "$TMP/out" "already recorded: r1/report.json"
printf '{"schema": "aieth-report/1", "run": {' >damaged.json
printf '{"schema": "other-tool/3", "tests": []}' >foreign.json
jq '.run.id = "1-1"' r1/report.json >other.json
expect 2 "$RT" history add "$DB" damaged.json foreign.json other.json
has "$TMP/err" "skipped damaged.json: damaged.json:1:"
has "$TMP/err" "skipped foreign.json: foreign.json: schema: \"other-tool/3\" is not a report"
has "$TMP/out" "added other.json"
[[ $(nruns) -eq 4 ]] && ok || bad "4 runs expected, got $(nruns)"
# a /2 report (repeat statistics) imports too
jq '.schema = "aieth-report/2" | .run.id = "1-2" | .tests[0].transactions[0].channels[2].stats =
    {"throughput_MBps": {"median": 5000, "min": 4990, "max": 5010, "mean": 5000, "stddev": 5,
     "mad": 3, "runs": [4990, 5000, 5010]}}' r1/report.json >v2.json
expect 0 "$RT" history add "$DB" --label v2 v2.json
has "$TMP/out" "added v2.json"

# --- gates
expect 0 "$RT" history gate "$DB" r3/report.json
has "$TMP/out" "8 figures compared, 0 regressions"
# a fresh database: no baseline, never a failure
expect 0 "$RT" -q -o fresh --history fresh.db "$EX/adder_perf/test.json"
expect 0 "$RT" history gate fresh.db r1/report.json
has "$TMP/out" "no baseline"
has "$TMP/out" "(1 passing runs, 3 needed)"
expect 0 "$RT" -q -o fresh2 --gate-history fresh.db "$EX/adder_perf/test.json"
[[ $(jq -r .history_gate.status fresh2/report.json) == "no baseline" ]] && ok || bad "fresh2: history_gate.status"
if $PY "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" fresh2/report.json >"$TMP/schema" 2>&1; then ok
else bad "fresh2/report.json does not validate: $(cat "$TMP/schema")"; fi
# the run itself is left out: fresh.db holds only fresh's run
expect 0 "$RT" history gate fresh.db fresh/report.json
has "$TMP/out" "(0 passing runs, 3 needed)"
# a slower run (its inputs start 2000 cycles late: total_cycles doubles)
mkdir -p slow && cp "$EX"/adder_perf/*.txt slow/
jq '.transactions[0].channels[0].delay = 2000 | .transactions[0].channels[1].delay = 2000' \
  "$EX/adder_perf/test.json" >slow/test.json
expect 1 "$RT" -o s1 --gate-history "$DB" slow/test.json
has "$TMP/out" "regression  adder_perf.perf"
has "$TMP/out" "history gate $DB (median of the last 10 passing runs)"
[[ $(jq -r .history_gate.status s1/report.json) == regression ]] && ok || bad "s1: history_gate.status"
[[ $(jq -r '.tests[0].error.phase' s1/report.json) == history_gate ]] && ok || bad "s1: error phase"
[[ $(jq -r '.history_gate.changes[0].metric' s1/report.json) == total_cycles ]] && ok || bad "s1: changes"
# the reports with a history_gate object follow docs/report.schema.json
for f in s1/report.json; do
  if $PY "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$f" >"$TMP/schema" 2>&1; then ok
  else bad "$f does not validate against docs/report.schema.json: $(cat "$TMP/schema")"; fi
done
expect 1 "$RT" history gate "$DB" s1/report.json
expect 0 "$RT" history gate "$DB" s1/report.json --max-regression 200
expect 1 "$RT" history gate "$DB" s1/report.json --gate-last 3
# --history and --gate-history on one database: gated without itself, then recorded
expect 0 "$RT" -o r4 --history "$DB" --gate-history "$DB" --gate-last 5 --label c4 \
  "$EX/adder_perf/test.json"
has "$TMP/out" "8 figures compared, 0 regressions"
has "$TMP/out" "history: run recorded"
[[ $(jq -r .history_gate.status r4/report.json) == pass ]] && ok || bad "r4: history_gate.status"
if $PY "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" r4/report.json >"$TMP/schema" 2>&1; then ok
else bad "r4/report.json does not validate: $(cat "$TMP/schema")"; fi
# the slow run recorded as a passing run: the trend page marks it
expect 0 "$RT" -q -o s2 --history "$DB" --label slow slow/test.json
# and the gated one, which failed: a failed run, drawn as such
expect 0 "$RT" history add "$DB" s1/report.json
n=$(nruns)
[[ $n -eq 8 ]] && ok || bad "8 runs expected, got $n"

# --- exit codes and hostile paths
expect 2 "$RT" history
expect 2 "$RT" history frob "$DB"
expect 2 "$RT" history gate "$DB"
expect 2 "$RT" history show "$DB" --last 0
expect 2 "$RT" history html "$DB"
expect 2 "$RT" --label x "$EX/adder_perf/test.json"
expect 2 "$RT" --gate-last 3 "$EX/adder_perf/test.json"
expect 0 "$RT" history --help
has "$TMP/out" "run_test history gate DB NEW.json"
expect 3 "$RT" history show missing.db
has "$TMP/err" "missing.db: no such file"
mkdir -p adir
expect 3 "$RT" history add adir r1/report.json
has "$TMP/err" "a folder, not a regular file"
ln -s "$TMP/planted-target.db" link.db
expect 3 "$RT" history add link.db r1/report.json
has "$TMP/err" "a symbolic link"
[[ ! -e planted-target.db ]] && ok || bad "a planted link's target was created"
expect 3 "$RT" history show r1/report.json
has "$TMP/err" "not an aieth history"
expect 3 "$RT" -o nr --gate-history missing.db "$EX/adder_perf/test.json"
[[ ! -e nr/report.json ]] && ok || bad "the run went on with a database that cannot be opened"
expect 3 "$RT" -o nr --history adir "$EX/adder_perf/test.json"
[[ ! -e nr/report.json ]] && ok || bad "the run went on with a --history folder"
[[ $(nruns) -eq $n ]] && ok || bad "the failures above changed the database"

# --- concurrent writers: 8 history add (5 reports each) and 4 --history runs
for w in 1 2 3 4 5 6 7 8; do
  for k in 1 2 3 4 5; do jq ".run.id = \"9$w$k-1\"" r1/report.json >"w$w-$k.json"; done
done
pids=()
for w in 1 2 3 4 5 6 7 8; do
  "$RT" history add "$DB" "w$w-1.json" "w$w-2.json" "w$w-3.json" "w$w-4.json" "w$w-5.json" \
    >"add$w.out" 2>&1 &
  pids+=($!)
done
for w in 1 2 3 4; do
  "$RT" -q -o "p$w" --history "$DB" "$EX/adder_perf/test.json" >"run$w.out" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" && ok || bad "a concurrent writer failed: $(cat add*.out run*.out)"; done
[[ $(nruns) -eq $((n + 44)) ]] && ok || bad "$((n + 44)) runs expected after the writers, got $(nruns)"
# 8 writers creating one new database at once: it is made and migrated once
pids=()
for w in 1 2 3 4 5 6 7 8; do
  "$RT" history add new.db "w$w-1.json" >"new$w.out" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" && ok || bad "a writer of a new database failed: $(cat new*.out)"; done
[[ $("$RT" history show new.db --last 100 | tail -n +2 | wc -l) -eq 8 ]] && ok || bad "new.db: 8 runs expected"
if command -v sqlite3 >/dev/null; then
  [[ $(sqlite3 new.db "SELECT value FROM meta WHERE key='schema_version'") == 2 ]] && ok || bad "new.db: schema"
  [[ $(sqlite3 new.db "SELECT count(*) FROM meta") == 2 ]] && ok || bad "new.db: meta written twice"
fi
if command -v sqlite3 >/dev/null; then
  [[ $(sqlite3 "$DB" 'PRAGMA integrity_check') == ok ]] && ok || bad "integrity_check"
  [[ $(sqlite3 "$DB" 'PRAGMA journal_mode') == wal ]] && ok || bad "not in WAL mode"
fi

# --- the trend page
mkdir -p page
expect 0 "$RT" history html "$DB" -o page/trend.html
T=$TMP/page/trend.html
has "$TMP/out" "trend page: page/trend.html"
lacks "$T" "<script"
if grep -o 'https\?://[^" ]*' "$T" | grep -qv '^http://www.w3.org/2000/svg$'; then
  bad "$T refers to the network"; else ok; fi
has "$T" "(regression)"
has "$T" "(test failed)"
has "$T" " c4: 5000.00, run "
has "$T" "perf PLIO_01_FROM_AIE: throughput_MBps"
has "$T" 'threshold: min 4000.00'
# every link is relative and names a report that is there
links=$(grep -o 'href="[^"]*"' "$T" | sed 's/^href="//; s/"$//' | sort -u)
[[ -n $links ]] && ok || bad "no links on the trend page"
for l in $links; do
  [[ $l == ./* || $l == ../* ]] && [[ -f page/$l ]] && ok || bad "link $l: not a relative link to a file"
done
has <(echo "$links") "../r1/report.html"
# a bounded page: --points 3 draws the last 3 of each series
expect 0 "$RT" history html "$DB" -o page/small.html --points 3
has page/small.html "the last 3 of $((n + 44)) runs"

# --- headless Chromium (gcc build only)
chrome_or_finish history
chrome "$T" --dump-dom >"$TMP/dom"
if grep -q ':CONSOLE' "$TMP/cr.err"; then bad "console: $(grep ':CONSOLE' "$TMP/cr.err" | head -3)"
else ok; fi
has "$TMP/dom" '<polyline'
chrome "$T" --hide-scrollbars --window-size=1000,2600 --screenshot="$TMP/shot.png" >/dev/null
if $PY "$S/tests/tools/html_png_check.py" --trend "$TMP/shot.png" >"$TMP/png" 2>&1; then ok
else bad "screenshot: $(cat "$TMP/png")"; fi
cat "$TMP/png"
$PY "$S/tests/tools/html_png_check.py" "$TMP/shot.png" --blank "$TMP/blank.png" >/dev/null 2>&1
if $PY "$S/tests/tools/html_png_check.py" --trend "$TMP/blank.png" >/dev/null 2>&1; then
  bad "a blank PNG passed the check"; else ok; fi
# the check sees the marks themselves (the legend has colours of its own):
# a page of one passing run has no regression mark and fails it
expect 0 "$RT" history html fresh.db -o page/fresh.html
chrome "$TMP/page/fresh.html" --hide-scrollbars --window-size=1000,2600 --screenshot="$TMP/fresh.png" >/dev/null
if $PY "$S/tests/tools/html_png_check.py" --trend "$TMP/fresh.png" >"$TMP/png" 2>&1; then
  bad "a page without a regression passed the check"; else has "$TMP/png" "regression mark: 0 pixels"; fi
[[ -n ${AIETH_HISTORY_SHOT:-} ]] && cp "$TMP/shot.png" "$AIETH_HISTORY_SHOT"
finish
