#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""grafana_queries.py - the shipped Grafana dashboard against a live InfluxDB.

    grafana_queries.py DASHBOARD.json FARM.md INFLUX_URL DB [--expect-fail]

Runs every query of the dashboard (its panels' targets and its template
variables) against INFLUX_URL/query?db=DB, with Grafana's macros replaced
($timeFilter, $__interval) and the template variables set in turn to one
value each, to All (.*) and to several values. A query that errors, that
returns no series (for the first two sets), a series that lacks a tag its
GROUP BY names, or one without any value, is a failure. The schema table of
FARM.md (the line after "<!-- influx-schema") must name every measurement,
tag and field a query names, and must equal what InfluxDB holds (SHOW TAG
KEYS, SHOW FIELD KEYS; the tag "seq" only when present). Every panel's title
is in FARM.md. Prints one line per query; exits 1 on any failure (0 with
--expect-fail inverted: for the test's own check that a rename fails it).
"""
import json
import re
import sys
import urllib.parse
import urllib.request

# the values the test's uploads hold (tests/e2e/farm/grafana_dashboard.sh)
ONE = {"test": "adder_perf", "board": "vck190", "backend": "emu", "plio": "PLIO_01_FROM_AIE"}
ALL = {k: ".*" for k in ONE}
MANY = {"test": "(adder_perf|loop_perf)", "board": "(vck190|vek280)", "backend": "(emu|xrt)",
        "plio": "(PLIO_01_FROM_AIE|PLIO_01_TO_AIE)"}
# variables whose value lists must hold these
VAR_HAS = {"test": {"adder_perf", "loop_perf"}, "board": {"vck190", "vek280"},
           "backend": {"emu", "xrt"}, "plio": {"PLIO_01_FROM_AIE", "PLIO_01_TO_AIE"}}
OPTIONAL_TAGS = {"seq"}  # only on a repeated series (docs/farm.md, namesakes)

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def influx(url, db, q):
    u = url + "/query?" + urllib.parse.urlencode({"db": db, "q": q, "epoch": "ms"})
    with urllib.request.urlopen(u, timeout=10) as r:
        return json.load(r)


def schema_from_doc(path):
    """{measurement: (tags, fields)} from the table after the marker."""
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if line.strip().startswith("<!-- influx-schema"):
            break
    else:
        fail(f"{path}: no '<!-- influx-schema' marker")
        return {}
    out = {}
    for line in lines[i + 3:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        names = [re.findall(r"`([^`]+)`", c) for c in cells]
        if len(names) != 3 or len(names[0]) != 1:
            fail(f"{path}: schema row not 'measurement | tags | fields': {line}")
            continue
        out[names[0][0]] = (set(names[1]), set(names[2]))
    if not out:
        fail(f"{path}: the schema table is empty")
    return out


def queries(dash):
    """[(where, query, kind, result_format)] of every panel target and variable."""
    out = []
    for p in dash.get("panels", []):
        for t in p.get("targets", []):
            if not t.get("rawQuery") or not t.get("query"):
                fail(f"panel {p.get('title')!r} target {t.get('refId')}: not a raw InfluxQL query")
                continue
            out.append((f"panel {p['title']!r} {t.get('refId')}", t["query"], "panel", t.get("resultFormat")))
    for v in dash.get("templating", {}).get("list", []):
        if v.get("type") == "query":
            out.append((f"variable ${v['name']}", v["query"], "variable", v["name"]))
    return out


def substitute(q, values):
    q = q.replace("$timeFilter", "time > now() - 7d").replace("$__interval", "1m")
    for k, v in values.items():
        q = q.replace("$" + k, v)
    left = re.findall(r"\$\w+", q)
    if left:
        fail(f"{q}: unknown macro or variable {left}")
    return q


def named(q):
    """(measurement, identifiers named) of a query: every "quoted" name, but
    the aliases after AS."""
    m = re.search(r'FROM\s+"([^"]+)"', q)
    aliases = set(re.findall(r'\bAS\s+"([^"]+)"', q))
    idents = set(re.findall(r'"([^"]+)"', q)) - aliases
    if m:
        idents.discard(m.group(1))
    return (m.group(1) if m else None), idents


def group_tags(q):
    m = re.search(r"GROUP BY (.*?)(?: fill\(|$)", q)
    return re.findall(r'"([^"]+)"', m.group(1)) if m else []


def main():
    args = [a for a in sys.argv[1:] if a != "--expect-fail"]
    expect_fail = len(args) != len(sys.argv) - 1
    dash_path, doc_path, url, db = args
    dash = json.load(open(dash_path, encoding="utf-8"))
    doc = open(doc_path, encoding="utf-8").read()
    schema = schema_from_doc(doc_path)

    # the table against what InfluxDB holds, both ways
    for meas, (tags, fields) in schema.items():
        r = influx(url, db, f'SHOW TAG KEYS FROM "{meas}"')
        have_tags = {v[0] for s in r["results"][0].get("series", []) for v in s["values"]}
        r = influx(url, db, f'SHOW FIELD KEYS FROM "{meas}"')
        have_fields = {v[0] for s in r["results"][0].get("series", []) for v in s["values"]}
        if tags != have_tags - OPTIONAL_TAGS:
            fail(f"{meas}: tags documented {sorted(tags)}, InfluxDB holds {sorted(have_tags)}")
        if fields != have_fields:
            fail(f"{meas}: fields documented {sorted(fields)}, InfluxDB holds {sorted(have_fields)}")
    r = influx(url, db, "SHOW MEASUREMENTS")
    have = {v[0] for s in r["results"][0].get("series", []) for v in s["values"]}
    if have != set(schema):
        fail(f"measurements documented {sorted(schema)}, InfluxDB holds {sorted(have)}")

    # what Grafana needs to import it: unique panel ids on the 24-column
    # grid, a data source and a refId per target, the variables the
    # queries use defined, the data source an input of the import
    defined = {v.get("name") for v in dash.get("templating", {}).get("list", [])}
    ids = [p.get("id") for p in dash.get("panels", [])]
    if len(ids) != len(set(ids)) or None in ids:
        fail(f"panel ids not unique: {ids}")
    if [i.get("name") for i in dash.get("__inputs", [])] != ["DS_INFLUXDB"]:
        fail("the dashboard's __inputs is not the one data source DS_INFLUXDB")
    for p in dash.get("panels", []):
        if p.get("title") and p["title"] not in doc:
            fail(f"panel {p['title']!r} is not described in {doc_path}")
        g = p.get("gridPos", {})
        if not (0 <= g.get("x", -1) and g.get("w", 0) > 0 and g.get("x", 0) + g.get("w", 0) <= 24
                and g.get("h", 0) > 0):
            fail(f"panel {p.get('title')!r}: gridPos {g} is off the 24-column grid")
        for t in p.get("targets", []):
            if not t.get("refId") or t.get("datasource", {}).get("uid") != "${DS_INFLUXDB}":
                fail(f"panel {p.get('title')!r}: a target without refId or the DS_INFLUXDB data source")
            for v in set(re.findall(r"\$(\w+)", t.get("query", ""))) - {"timeFilter", "__interval"}:
                if v not in defined:
                    fail(f"panel {p.get('title')!r}: ${v} is not a variable of the dashboard")

    used = set()
    for where, raw, kind, extra in queries(dash):
        meas, idents = named(raw)
        if meas not in schema:
            fail(f"{where}: measurement {meas!r} is not in {doc_path}'s schema table")
        else:
            used.add(meas)
            tags, fields = schema[meas]
            for i in sorted(idents - tags - fields):
                fail(f"{where}: {meas}.{i} is not in {doc_path}'s schema table")
        for label, values, need in (("one", ONE, True), ("all", ALL, True), ("many", MANY, False)):
            q = substitute(raw, values)
            try:
                r = influx(url, db, q)
            except Exception as e:  # an HTTP error is InfluxDB refusing the query
                fail(f"{where} [{label}]: {q}: {e}")
                continue
            res = r.get("results", [{}])[0]
            if "error" in res or "error" in r:
                fail(f"{where} [{label}]: {q}: {res.get('error') or r.get('error')}")
                continue
            series = res.get("series", [])
            if not series:
                if need:
                    fail(f"{where} [{label}]: {q}: no series")
                continue
            if kind == "variable":
                got = {v[-1] for s in series for v in s["values"]}
                if label == "all" and not VAR_HAS.get(extra, set()) <= got:
                    fail(f"{where} [{label}]: values {sorted(got)}, expected at least {sorted(VAR_HAS[extra])}")
                else:
                    print(f"ok {where} [{label}]: {sorted(got)}")
                continue
            for s in series:
                for t in group_tags(q):
                    if not s.get("tags", {}).get(t):
                        fail(f"{where} [{label}]: a series without tag {t!r}: {s.get('tags')}")
                vals = [x for row in s["values"] for x in row[1:] if x is not None]
                if not vals:
                    fail(f"{where} [{label}]: series {s.get('tags')} holds no value")
            print(f"ok {where} [{label}]: {len(series)} series")
    for meas in sorted(set(schema) - used):
        fail(f"measurement {meas} of the schema table is in no query of the dashboard")

    if expect_fail:
        if failures:
            print(f"grafana_queries.py: failed as expected ({len(failures)} failures)")
            return 0
        print("grafana_queries.py: expected a failure, every check passed", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
