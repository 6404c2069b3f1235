#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_test --lava and --tap in every build: the LAVA signal
# lines have the form lava-dispatcher's test shell parses and say what
# report.json says (only a pass is a pass: a hang, an error, an
# interruption never are); the TAP file is TAP 13 (plan, numbering, ok /
# not ok per case, YAML diagnostics) with the same cases; forged names
# cannot forge a signal; --tap follows the output rules of the other files.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
PY=/usr/bin/python3
lacks() { if grep -qF -- "$2" "$1"; then bad "$1 has: $2"; else ok; fi; }
# check OUT REPORT TAP: the checker below on a run's stdout, report, TAP
check() {
  if $PY "$TMP/check.py" "$@" >"$TMP/chk" 2>&1; then ok; else bad "checker: $*"; cat "$TMP/chk" >&2; fi
}
cat >"$TMP/check.py" <<'P'
import json, re, sys
out, rep, tap = sys.argv[1:4]
r = json.load(open(rep))
RES = {"pass": "pass", "skip": "skip", "fail": "fail", "timeout": "fail", "error": "fail"}
def res(word):
    return RES.get(word, "unknown")
def ident(*parts):
    s = re.sub(r"[^A-Za-z0-9._-]", "_", ".".join(parts))
    return (s or "_")[:128]
# the cases report.json implies, in order: (set, id, result, units or None)
want = []
for t in r["tests"]:
    for x in t.get("transactions") or []:
        done, stopped = x["status"] == "done", x["status"] == "interrupted"
        allp = done and x["valid"]
        for c in x["channels"]:
            allp = allp and c["verdict"] == "pass"
            want.append((t["name"], ident(t["name"], x["name"], c["plio"]), res(c["verdict"]),
                         "MB/s" if c["finished"] else None))
        for l in x["latencies"]:
            allp = allp and l["passed"]
            want.append((t["name"], ident(t["name"], x["name"], "latency", l["from"], l["to"]),
                         "pass" if l["passed"] else "unknown" if stopped else "fail",
                         "cycles" if l["cycles"] is not None else None))
        want.append((t["name"], ident(t["name"], x["name"]),
                     "pass" if allp else "unknown" if stopped else "fail", "cycles" if done else None))
    want.append((t["name"], ident(t["name"]), res(t["status"]), "s"))
# LAVA: every signal line has lava-dispatcher's form; sets enclose cases
SIG = re.compile(r"^<LAVA_SIGNAL_(TESTSET START [A-Za-z0-9._-]+|TESTSET STOP|STARTTC [A-Za-z0-9._-]+|"
                 r"ENDTC [A-Za-z0-9._-]+|TESTCASE TEST_CASE_ID=([A-Za-z0-9._-]+) RESULT=(pass|fail|skip|unknown)"
                 r"( MEASUREMENT=(-?[0-9]+\.[0-9]+) UNITS=([^\s=<>]+))?)>$")
got, cur = [], None
lines = [l for l in open(out).read().split("\n") if l.startswith("<LAVA_SIGNAL_")]
assert lines, "no LAVA signal printed"
for l in lines:
    m = SIG.match(l)
    assert m, "malformed signal: %r" % l
    if l.startswith("<LAVA_SIGNAL_TESTSET START"):
        assert cur is None, "nested test set"; cur = l.split()[2][:-1]
    elif l == "<LAVA_SIGNAL_TESTSET STOP>":
        assert cur is not None, "STOP without START"; cur = None
    elif m.group(2):
        assert cur is not None, "case outside a test set: " + l
        got.append((cur, m.group(2), m.group(3), m.group(6)))
assert cur is None, "test set not closed"
sets = [ident(w[0]) for w in want]
want_l = [(ident(w[0]), w[1], w[2], w[3]) for w in want]
assert got == want_l, "LAVA cases differ from report.json:\n got  %s\n want %s" % (got, want_l)
# TAP 13: version, plan, numbering, ok iff pass/skip, YAML blocks
tl = open(tap).read().split("\n")
assert tl[0] == "TAP version 13", tl[0]
assert tl[1] == "1..%d" % len(want), "plan %s, %d cases" % (tl[1], len(want))
n, i, points = 0, 2, []
while i < len(tl):
    l = tl[i]
    m = re.match(r"^(ok|not ok) (\d+) - ([A-Za-z0-9._-]+)( # SKIP.*)?$", l)
    if m:
        n += 1
        assert int(m.group(2)) == n, "numbering: %r" % l
        points.append((m.group(1), m.group(3), bool(m.group(4))))
        if i + 1 < len(tl) and tl[i + 1] == "  ---":
            j = tl.index("  ...", i + 1)
            try:
                import yaml
                d = yaml.safe_load("\n".join(x[2:] for x in tl[i + 2:j]))
                assert d["result"] == want[n - 1][2], (d, want[n - 1])
            except ImportError:
                pass
            i = j
    else:
        assert l == "" or l.startswith("#"), "not TAP: %r" % l
    i += 1
assert n == len(want), "%d points, plan %d" % (n, len(want))
for (okw, pid, skip), w in zip(points, want):
    assert pid == w[1], (pid, w)
    assert (okw == "ok") == (w[2] in ("pass", "skip")), (okw, w)
    assert skip == (w[2] == "skip"), (skip, w)
# never a pass for what did not pass
for t in r["tests"]:
    if t["status"] != "pass":
        assert [g for g in got if g[1] == ident(t["name"])][0][2] != "pass"
print("ok: %d cases" % len(want))
P

# pass, data failure, hang in one run: exit 5, cases as report.json says
cp -r "$EX/adder_func" "$TMP/adder_bad"
sed -i '1s/^-\?[0-9][0-9]*/12345/' "$TMP/adder_bad/golden.txt"
sed -i 's/"name": *"adder_func"/"name": "adder_bad"/' "$TMP/adder_bad/test.json"
o=$TMP/mix
expect 5 "$RT" --lava --tap "$TMP/mix.tap" -o "$o" "$EX/adder_func/test.json" "$TMP/adder_bad/test.json" "$EX/adder_perf/test.json" "$EX/stall_hang/test.json"
cp "$TMP/out" "$TMP/mix.out"
check "$TMP/mix.out" "$o/report.json" "$TMP/mix.tap"
has "$TMP/mix.out" "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=adder_func.func.PLIO_01_TO_AIE RESULT=pass MEASUREMENT="
has "$TMP/mix.out" "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=adder_bad.func.PLIO_01_FROM_AIE RESULT=fail MEASUREMENT="
has "$TMP/mix.out" "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=stall_hang RESULT=fail"
has "$TMP/mix.out" "RUN_TEST END"               # the markers stay
has "$TMP/mix.out" "TEST_CASE_ID=adder_perf.perf.latency.PLIO_01_TO_AIE.PLIO_01_FROM_AIE RESULT="
has "$TMP/mix.tap" "not ok 20 - stall_hang"
has "$TMP/mix.tap" "error_code: \"AIETH_ETIMEOUT\""
# the latencies of a description with max_latency, and a forged name: no
# white space, '=', '<', '>' or newline reaches a signal
$PY - "$EX/adder_func/test.json" "$TMP/forged.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
d["name"] = "bad name=x> <LAVA_SIGNAL_TESTCASE TEST_CASE_ID=forged RESULT=pass>"
json.dump(d, open(sys.argv[2], "w"))
P
sed -i "s|\"\([a-z0-9]*\.txt\)\"|\"$EX/adder_func/\1\"|g" "$TMP/forged.json"
o=$TMP/forged
expect 0 "$RT" -q --lava --tap - -o "$o" "$TMP/forged.json"
cp "$TMP/out" "$TMP/forged.out"
sed -n '/^TAP version 13$/,$p' "$TMP/forged.out" >"$TMP/forged.tap"
check "$TMP/forged.out" "$o/report.json" "$TMP/forged.tap"
lacks "$TMP/forged.out" "TEST_CASE_ID=forged"
has "$TMP/forged.out" "TEST_CASE_ID=bad_name_x___LAVA_SIGNAL_TESTCASE_TEST_CASE_ID_forged_RESULT_pass_.func.PLIO_01_TO_AIE RESULT=pass"
# a test that could not load: one case, a fail
expect 2 "$RT" -q --lava --tap "$TMP/missing.tap" -o "$TMP/missing" "$TMP/no-such.json"
cp "$TMP/out" "$TMP/missing.out"
check "$TMP/missing.out" "$TMP/missing/report.json" "$TMP/missing.tap"
has "$TMP/missing.tap" "not ok 1 - "
# interrupted (SIGINT during a long reference-mode run): exit 130, signals
# and TAP still written, nothing a pass
long_perf "$TMP/long.json"
o=$TMP/int
expect 130 timeout --preserve-status -k 30 -s INT 2 "$RT" -q --lava --tap "$TMP/int.tap" --reference -t 0 -o "$o" "$TMP/long.json"
cp "$TMP/out" "$TMP/int.out"
check "$TMP/int.out" "$o/report.json" "$TMP/int.tap"
has "$TMP/int.out" "TEST_CASE_ID=long_perf.long.PLIO_01_TO_AIE RESULT=unknown>"
has "$TMP/int.out" "TEST_CASE_ID=long_perf RESULT=unknown"
lacks "$TMP/int.out" "RESULT=pass"
# --tap by the output rules: a directory is refused before the run (exit
# 2, nothing run); a write failure after it is the run's error
mkdir "$TMP/tapdir"
expect 2 "$RT" -q --lava --tap "$TMP/tapdir" -o "$TMP/d" "$EX/adder_func/test.json"
has "$TMP/err" "--tap"
[[ ! -e $TMP/d/report.json ]] && ok || bad "--tap to a directory: the run ran"
if [[ -w /dev/full ]]; then
  expect 2 "$RT" -q --lava --tap /dev/full -o "$TMP/full" "$EX/adder_func/test.json"
  has "$TMP/err" "/dev/full: write error"
  [[ $(jq -r '.tests[0].error.phase' "$TMP/full/report.json") == write ]] && ok || bad "--tap /dev/full: report.json lacks the write error"
  has "$TMP/out" "TEST_CASE_ID=adder_func RESULT=fail"
fi
# --help names the options
"$RT" --help >"$TMP/help"
has "$TMP/help" "--lava"
has "$TMP/help" "--tap FILE"
finish
