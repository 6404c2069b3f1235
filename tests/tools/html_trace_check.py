#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""html_trace_check.py REPORT.json TRACE.json: trace.json is a Chrome trace
(a JSON object with traceEvents) that matches the report: per test and
transaction a process, per channel a track (tid) named by thread_name
metadata with a complete event ("ph": "X") whose ts and dur are the
channel's first cycle and cycles over the test's PL clock (microseconds).
Prints what it checked; exit 1 on the first mismatch."""
import json
import sys


def fail(msg):
    print("trace check: " + msg)
    sys.exit(1)


def main():
    rep = json.load(open(sys.argv[1]))
    tr = json.load(open(sys.argv[2]))
    evs = tr.get("traceEvents")
    if not isinstance(evs, list):
        fail("no traceEvents array")
    for e in evs:
        if e.get("ph") not in ("X", "M", "i") or not isinstance(e.get("pid"), int) \
                or not isinstance(e.get("tid"), int) or not isinstance(e.get("name"), str):
            fail("malformed event %r" % e)
        if e["ph"] == "X" and (not isinstance(e.get("ts"), (int, float)) or e.get("dur", -1) < 0):
            fail("complete event without ts/dur %r" % e)
    procs = {e["pid"]: e["args"]["name"] for e in evs if e["ph"] == "M" and e["name"] == "process_name"}
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in evs
               if e["ph"] == "M" and e["name"] == "thread_name"}
    chans = {(e["pid"], e["tid"]): e for e in evs if e["ph"] == "X" and e.get("cat") == "channel"}
    pid, checked = 0, 0
    for t in rep["tests"]:
        clk = t.get("pl_clock_MHz") or 0
        txns = t.get("transactions") or []
        if not txns or clk <= 0:
            pid += 1
            if procs.get(pid) != t["name"]:
                fail("test %r: process %d is %r" % (t["name"], pid, procs.get(pid)))
            continue
        for tx in txns:
            pid += 1
            want = "%s / %s" % (t["name"], tx["name"])
            if procs.get(pid) != want:
                fail("process %d is %r, expected %r" % (pid, procs.get(pid), want))
            for k, ch in enumerate(tx["channels"]):
                key = (pid, k + 1)
                if threads.get(key) != ch["plio"]:
                    fail("track %r is %r, expected %r" % (key, threads.get(key), ch["plio"]))
                e = chans.get(key)
                if e is None:
                    fail("no channel event on track %r" % (key,))
                if ch["finished"]:
                    ts, dur = ch["first_cycle"] / clk, ch["cycles"] / clk
                else:
                    # drawn from its delay to where it stalled (an
                    # interrupted channel has no stall cycle: zero length)
                    start = ch["delay_cycles"]
                    end = max(ch.get("stalled_since_cycle") or 0, start)
                    ts, dur = start / clk, (end - start) / clk
                if abs(e["ts"] - ts) > 1e-5 or abs(e["dur"] - dur) > 1e-5:
                    fail("%s: ts %r dur %r, expected %r %r" % (ch["plio"], e["ts"], e["dur"], ts, dur))
                checked += 1
    print("trace check: %d processes, %d channel tracks, ts/dur match" % (pid, checked))


if __name__ == "__main__":
    main()
