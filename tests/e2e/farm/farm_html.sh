#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reports a person looks at: report.html, the charts as
# SVG files and trace.json, written by every run. The files are checked
# with xmllint and python3 (trace events against report.json) for passing,
# failing, timed-out, interrupted and unloadable tests, hostile names and a
# run of 80 transactions x 72 channels (the page's size bound); then, in
# the gcc build only, headless Chromium loads the page (no console message,
# the charts in its DOM; an injected script error is caught) and a
# screenshot shows the charts (not blank; a blank PNG is rejected).
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
PY=/usr/bin/python3
TOOLS=$S/tests/tools
# lacks FILE TEXT: FILE does not contain TEXT
lacks() { if grep -qF -- "$2" "$1"; then bad "$1 has: $2"; else ok; fi; }
# visual DIR: the files of a run in DIR are there and well-formed
visual() {
  local d=$1 f n=0
  [[ -s $d/report.html && -s $d/trace.json ]] && ok || bad "$d: report.html or trace.json missing"
  for f in "$d"/charts/*.svg; do
    [[ -e $f ]] || continue
    n=$((n + 1))
    if xmllint --noout "$f" 2>"$TMP/xml" && grep -q 'xmlns="http://www.w3.org/2000/svg"' "$f"; then ok
    else bad "$f: not a standalone SVG"; cat "$TMP/xml" >&2; fi
  done
  echo "$n" >"$TMP/nsvg"
  if $PY "$TOOLS/html_trace_check.py" "$d/report.json" "$d/trace.json" >"$TMP/tc" 2>&1; then ok
  else bad "$d/trace.json: $(cat "$TMP/tc")"; fi
  # self-contained: no script, no external resource (the SVG namespace is
  # a name, not a fetch)
  lacks "$d/report.html" "<script"
  if grep -o 'https\?://[^" ]*' "$d/report.html" | grep -qv '^http://www.w3.org/2000/svg$'; then
    bad "$d/report.html refers to the network"; else ok; fi
}

# a failing FUNC test (one golden value wrong), a test with hostile names
mkdir -p "$TMP/fail" "$TMP/evil"
cp "$EX"/adder_func/*.txt "$TMP/fail/"
sed '1s/^-995/-994/' "$EX/adder_func/golden.txt" >"$TMP/fail/golden.txt"
jq '.name = "adder_func_bad"' "$EX/adder_func/test.json" >"$TMP/fail/test.json"
cp "$EX"/adder_perf/*.txt "$TMP/evil/"
jq '.name = "<script>alert(1)</script>\"&'"'"'x" | .description = "<img src=x onerror=alert(2)> ]]> <!--"
    | .transactions[0].name = "</svg><script>alert(3)</script>"' \
  "$EX/adder_perf/test.json" >"$TMP/evil/test.json"

# --- one run: perf, func, failing, stall_hang, hostile, unloadable
A=$TMP/all
expect 5 "$RT" -q -o "$A" "$EX/adder_perf/test.json" "$EX/adder_func/test.json" \
  "$TMP/fail/test.json" "$EX/stall_hang/test.json" "$TMP/evil/test.json" "$TMP/missing.json"
visual "$A"
[[ $(cat "$TMP/nsvg") -eq 10 ]] && ok || bad "$A/charts: $(cat "$TMP/nsvg") SVG files, expected 10"
H=$A/report.html
has "$H" '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&#39;x'
has "$H" '&lt;img src=x onerror=alert(2)&gt; ]]&gt; &lt;!--'
has "$H" '&lt;/svg&gt;&lt;script&gt;alert(3)'
lacks "$H" '<img'
has "$H" 'class="b fail">fail</span>'
has "$H" 'class="b timeout">timeout</span>'
has "$H" 'stalled since cycle 80'
has "$H" '1 BAD @0'
has "$H" 'no transaction ran'
has "$H" 'missing.json: cannot open'
has "$H" 'channel timeline'
# the hostile test's timeline exists (found, not named: a wrong name would
# make the check below vacuous), and no chart holds a script
hostile=("$A"/charts/_script_alert_1_*-timeline.svg)
[[ -f ${hostile[0]} ]] && ok || bad "no timeline for the hostile test name: $(ls "$A/charts")"
for f in "$A"/charts/*.svg; do lacks "$f" '<script'; done
[[ -e $A/charts/stall_hang-kernel_stalls-timeline.svg ]] && ok || bad "no stall_hang timeline"
has "$A/charts/stall_hang-kernel_stalls-timeline.svg" 'stalled at 80'
"$RT" -o "$TMP/p1" "$EX/adder_perf/test.json" >"$TMP/out" 2>&1
has "$TMP/out" "html: $TMP/p1/report.html, charts: $TMP/p1/charts/, trace: $TMP/p1/trace.json"

# --- interrupted: the page says so
I=$TMP/int
long_perf "$TMP/long.json"
expect 130 timeout --preserve-status -k 30 -s INT 1 "$RT" --reference -t 0 -q -o "$I" "$TMP/long.json"
visual "$I"
has "$I/report.html" 'class="b interrupted">interrupted</span>'

# --- options: none turns each off; a directory as --html is refused before the run
N=$TMP/none
expect 0 "$RT" -q -o "$N" --html none --charts none --trace none "$EX/adder_perf/test.json"
[[ ! -e $N/report.html && ! -e $N/trace.json && ! -e $N/charts ]] && ok || bad "--html/--charts/--trace none still wrote"
mkdir -p "$TMP/adir"
expect 2 "$RT" -q -o "$TMP/d2" --html "$TMP/adir" "$EX/adder_perf/test.json"
has "$TMP/err" "--html"
[[ ! -e $TMP/d2/report.json ]] && ok || bad "the run went on after a bad --html"
# like --junit: the folder must exist; a device is written in place
expect 2 "$RT" -q -o "$TMP/d3" --html "$TMP/d3x/page.html" "$EX/adder_perf/test.json"
has "$TMP/err" "--html $TMP/d3x/page.html: the folder"
expect 0 "$RT" -q -o "$TMP/d3" --html "$TMP/page.html" --trace /dev/null "$EX/adder_perf/test.json"
[[ -s $TMP/page.html && ! -e $TMP/d3/report.html && ! -e $TMP/d3/trace.json ]] && ok || bad "--html FILE / --trace /dev/null"
# a trace that cannot be written is an error of the run, and the page (written last) shows it
if [[ -w /dev/full ]]; then
  expect 2 "$RT" -q -o "$TMP/d4" --trace /dev/full "$EX/adder_perf/test.json"
  has "$TMP/d4/report.html" "trace.json could not be written: check the disk and --trace"
  has "$TMP/d4/report.html" "No space left on device"
fi

# --- size bound: 80 transactions x 72 channels
M=$TMP/many
jq '.transactions = [range(80) as $i | .transactions[0] | .name = "t\($i)"]' \
  "$EX/loopback_perf_vck190/test.json" >"$TMP/many.json"
expect 0 "$RT" -q -o "$M" "$TMP/many.json"
visual "$M"
[[ $(cat "$TMP/nsvg") -eq 128 ]] && ok || bad "$M/charts: $(cat "$TMP/nsvg") SVG files, expected 128 (64 transactions)"
sz=$(stat -c %s "$M/report.html")
echo "farm_html: 80 transactions x 72 channels: report.html $sz bytes, trace.json $(stat -c %s "$M/trace.json") bytes"
[[ $sz -lt 8000000 ]] && ok || bad "report.html is $sz bytes (bound 8 MB)"
has "$M/report.html" "no more charts: this page draws the first 64"
has "$M/report.html" "more channels: see report.json"

# --- headless Chromium (gcc build only)
chrome_or_finish farm_html
# console PAGE: loads with no console message, its charts in the DOM
console() {
  chrome "$1" --dump-dom >"$TMP/dom"
  if grep -q ':CONSOLE' "$TMP/cr.err"; then bad "$1: console: $(grep ':CONSOLE' "$TMP/cr.err" | head -3)"
  else ok; fi
  has "$TMP/dom" 'class="chart timeline"'
}
console "$H"
has "$TMP/dom" '&lt;script&gt;alert(1)'
lacks "$TMP/dom" '<script'
# the check can fail: a copy with an injected script error (and no CSP)
sed 's|<meta http-equiv="Content-Security-Policy"[^>]*>||; s|</body>|<script>throw new Error("injected")</script></body>|' \
  "$H" >"$TMP/broken.html"
chrome "$TMP/broken.html" --dump-dom >/dev/null
if grep -q ':CONSOLE.*injected' "$TMP/cr.err"; then ok; else bad "an injected script error was not seen in the console"; fi
# a screenshot of adder_perf's page shows the charts; a blank one is rejected
P=$TMP/perf
"$RT" -q -o "$P" "$EX/adder_perf/test.json" >/dev/null
chrome "$P/report.html" --hide-scrollbars --window-size=1100,1400 --screenshot="$TMP/shot.png" >/dev/null
if $PY "$TOOLS/html_png_check.py" "$TMP/shot.png" >"$TMP/png" 2>&1; then ok
else bad "screenshot: $(cat "$TMP/png")"; fi
cat "$TMP/png"
$PY "$TOOLS/html_png_check.py" "$TMP/shot.png" --blank "$TMP/blank.png" >/dev/null 2>&1
if $PY "$TOOLS/html_png_check.py" "$TMP/blank.png" >/dev/null 2>&1; then bad "a blank PNG passed the check"; else ok; fi
[[ -n ${AIETH_HTML_SHOT:-} ]] && cp "$TMP/shot.png" "$AIETH_HTML_SHOT"
finish
