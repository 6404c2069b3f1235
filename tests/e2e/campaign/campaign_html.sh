#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a person looks at after a campaign: report.html and the
# SVG charts of hand-made "aieth-report/2" reports (tests/data/campaign/,
# written by its gen.py), drawn by the library's writers after
# aieth_report_load (tests/tools/report_render.c): a repeated test (the
# distribution, median ± spread), a size x delay grid and a repeated zip
# sweep (curves, knees, thresholds), hostile names in a sweep, and a
# 4,000-point sweep (the page's bounds). The SVG files with xmllint, the
# pages' escaping, UTF-8 and self-containment; in the gcc build headless
# Chromium loads each page (no console message) and screenshots show the
# charts (tests/tools/html_png_check.py). AIETH_HTML_SHOT=DIR keeps them.
. "$(dirname "$0")/../lib.sh"
RR=$B/tests/report_render
RT=$B/bin/run_test
D=$S/tests/data/campaign
PY=/usr/bin/python3
TOOLS=$S/tests/tools
lacks() { if grep -qF -- "$2" "$1"; then bad "$1 has: $2"; else ok; fi; }
count() { grep -oF -- "$2" "$1" | wc -l; }
# render NAME JSON: DIR $TMP/NAME with report.html and charts/, checked
render() {
  local out=$TMP/$1 f n=0
  mkdir -p "$out"
  expect 0 "$RR" "$2" "$out"
  for f in "$out"/charts/*.svg; do
    [[ -e $f ]] || continue
    n=$((n + 1))
    if xmllint --noout "$f" 2>"$TMP/xml"; then ok; else bad "$f: not XML"; cat "$TMP/xml" >&2; fi
    lacks "$f" "<script"
  done
  echo "$n" >"$TMP/nsvg"
  lacks "$out/report.html" "<script"
  if grep -o 'https\?://[^" ]*' "$out/report.html" | grep -qv '^http://www.w3.org/2000/svg$'; then
    bad "$out/report.html refers to the network"; else ok; fi
  if $PY -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$out/report.html"; then ok
  else bad "$out/report.html is not UTF-8"; fi
}

# --- the loader reads /2 (run_test compare: the same reader as --baseline)
expect 0 "$RT" compare "$D/sweep.json" "$D/sweep.json"
sed 's/"aieth-report\/2"/"aieth-report\/7"/' "$D/repeat.json" >"$TMP/r7.json"
expect 2 "$RT" compare "$TMP/r7.json" "$TMP/r7.json"
has "$TMP/err" 'schema: "aieth-report/7" is not a report this program reads'

# --- a repeated test: 10 runs after 2 warm-up
render repeat "$D/repeat.json"
H=$TMP/repeat/report.html
has "$H" 'class="chart distribution"'
has "$H" '10 measured runs (2 warm-up not shown)'
has "$H" '10 measured runs after 2 warm-up; thresholds on the median'
want=$(jq -r '.tests[0].transactions[0].channels[1].stats.throughput_MBps
  | "\(.median * 10 | round / 10) ±\(.mad / .median * 1000 | round / 10) %"' "$D/repeat.json")
# jq prints 3351.9 and 0.2 as they are; the page "%.1f": the same for these
has "$H" "$want"
[[ $(count "$H" 'class="run"') -eq 20 ]] && ok || bad "$H: $(count "$H" 'class="run"') run dots, expected 20"
[[ -s $TMP/repeat/charts/adder_perf-t0-distribution.svg ]] && ok || bad "no distribution SVG"

# --- a grid and a zip sweep
render sweep "$D/sweep.json"
H=$TMP/sweep/report.html
# 2 sweeps x 2 axes x 3 figures, less adder_zip's mode (one value)
[[ $(count "$H" 'class="chart curve ') -eq 9 ]] && ok || bad "$H: $(count "$H" 'class="chart curve ') curves, expected 9"
has "$H" 'axis mode: one value, no curve'
has "$H" 'size (log scale)'
has "$H" '>knee 32768</text>'
has "$H" 'throughput falls with delay: no plateau'
has "$H" '<a href="#t4">adder_perf[size=4096,delay=0]</a>'
for f in size-throughput size-latency size-cycles delay-throughput delay-latency delay-cycles; do
  [[ -s $TMP/sweep/charts/sweep-adder_perf-$f.svg ]] && ok || bad "no sweep-adder_perf-$f.svg"
done
has "$TMP/sweep/charts/sweep-adder_zip-size-throughput.svg" 'class="band"'

# --- hostile names
render hostile "$D/hostile.json"
H=$TMP/hostile/report.html
has "$H" '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&#39;x[size=4096,'
has "$H" '&lt;/svg&gt;&lt;script&gt;alert(2)'
has "$H" 'PLIO_01_TO_AIE.&quot;delay&#39;&lt;i&gt;'
lacks "$H" '<b>'

# --- 4,000 points (aieth_report_load reads 4096 tests at most; the
# 100,000-point bound is tests/unit/test_report_visual.c's)
$PY "$D/gen.py" --big 4000 "$TMP/big.json"
render big "$TMP/big.json"
H=$TMP/big/report.html
sz=$(stat -c %s "$H")
echo "campaign_html: 4,000-point sweep: report.html $sz bytes, $(cat "$TMP/nsvg") SVG files"
[[ $sz -lt 2000000 ]] && ok || bad "$H is $sz bytes (bound 2 MB)"
has "$H" '3800 more points: this page lists the first 200'
has "$H" 'drawn with 400 evenly chosen and their failed points'
has "$H" 'more tests (0 of them not passing) have no section'

# --- headless Chromium (gcc build only, as farm_html.sh)
chrome_or_finish campaign_html
for p in repeat sweep hostile big; do
  chrome "$TMP/$p/report.html" --dump-dom >"$TMP/dom"
  if grep -q ':CONSOLE' "$TMP/cr.err"; then bad "$p: console: $(grep ':CONSOLE' "$TMP/cr.err" | head -3)"
  else ok; fi
  has "$TMP/dom" 'class="chart '
  lacks "$TMP/dom" '<script'
  chrome "$TMP/$p/report.html" --hide-scrollbars --window-size=1100,3000 \
    --screenshot="$TMP/$p.png" >/dev/null
done
# the repeat page shows its bars; the sweep pages' first screen their curves
# (the first four line colours; big: its one line), before the list of
# their points; a blank one is rejected
if $PY "$TOOLS/html_png_check.py" "$TMP/repeat.png" >"$TMP/png" 2>&1; then ok
else bad "repeat screenshot: $(cat "$TMP/png")"; fi
cat "$TMP/png"
for p in sweep hostile; do
  if $PY "$TOOLS/html_png_check.py" "$TMP/$p.png" --colours 1e88e5,e53935,43a047,fb8c00 >"$TMP/png" 2>&1
  then ok; else bad "$p screenshot: $(cat "$TMP/png")"; fi
  cat "$TMP/png"
done
if $PY "$TOOLS/html_png_check.py" "$TMP/big.png" --colours 1e88e5 >"$TMP/png" 2>&1; then ok
else bad "big screenshot: $(cat "$TMP/png")"; fi
cat "$TMP/png"
$PY "$TOOLS/html_png_check.py" "$TMP/sweep.png" --blank "$TMP/blank.png" >/dev/null 2>&1
if $PY "$TOOLS/html_png_check.py" "$TMP/blank.png" --colours 1e88e5 >/dev/null 2>&1; then
  bad "a blank PNG passed the check"; else ok; fi
if [[ -n ${AIETH_HTML_SHOT:-} ]]; then
  mkdir -p "$AIETH_HTML_SHOT" && cp "$TMP"/*.png "$AIETH_HTML_SHOT/"
fi
finish
