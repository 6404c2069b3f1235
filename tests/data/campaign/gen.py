#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the hand-made campaign reports of this folder (report.json
"aieth-report/2", docs/report-schema.md): repeat.json (a repeated test),
sweep.json (a size x delay grid with knees, thresholds, a failed point and a
repeated zip sweep), hostile.json (hostile names in a sweep), and with
--big N FILE a sweep of N points (tests/e2e/campaign/campaign_html.sh: the page's
bounds). Figures follow a simple model (cycles = size/16 + 200 + delay at
250 MHz); run again after a format change: python3 gen.py."""
import json
import math
import os
import random
import sys

CLK = 250.0
HERE = os.path.dirname(os.path.abspath(__file__))


def stats(vals):
    s = sorted(vals)
    n = len(s)
    med = s[(n - 1) // 2]
    dev = sorted(abs(v - med) for v in vals)
    mean = sum(vals) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / (n - 1)) if n > 1 else 0.0
    return {"median": med, "min": s[0], "max": s[-1], "mean": mean, "stddev": sd,
            "mad": dev[(n - 1) // 2], "runs": list(vals)}


def channel(plio, direction, size, cycles_runs, delay=0, mn=None, first=None):
    """cycles_runs: the measured runs' cycles (median run first in scalars)."""
    n = len(cycles_runs)
    med_i = sorted(range(n), key=lambda i: cycles_runs[i])[(n - 1) // 2]
    cyc = cycles_runs[med_i]
    thr = [size * CLK / c for c in cycles_runs]
    fc = delay if first is None else first
    ch = {"plio": plio, "direction": direction, "index": 0,
          "placement": {"shim_column": 6, "shim_channel": 0}, "width_bits": 128,
          "size_bytes": size, "repetition": 1, "delay_cycles": delay,
          "bytes_expected": size, "bytes_moved": size, "beats": size // 16,
          "finished": True, "first_cycle": fc, "last_cycle": fc + cyc, "cycles": cyc,
          "duration_ns": cyc * 1000 / CLK, "throughput_MBps": thr[med_i],
          "throughput_MiBps": thr[med_i] * 1e6 / 1048576, "theoretical_MBps": 4000.0,
          "utilisation_pct": thr[med_i] / 40.0,
          "integrity": {"checked": False, "reason": "perf mode"}, "thresholds": [],
          "verdict": "pass"}
    if mn is not None:
        ch["thresholds"] = [{"metric": "throughput_MBps", "min": mn, "statistic": "median",
                             "measured": stats(thr)["median"] if n > 1 else thr[0],
                             "passed": (stats(thr)["median"] if n > 1 else thr[0]) >= mn}]
        if not ch["thresholds"][0]["passed"]:
            ch["verdict"] = "fail"
    if n > 1:
        ch["stats"] = {"cycles": stats(cycles_runs),
                       "first_cycle": stats([fc] * n),
                       "last_cycle": stats([fc + c for c in cycles_runs]),
                       "duration_ns": stats([c * 1000 / CLK for c in cycles_runs]),
                       "throughput_MBps": stats(thr),
                       "throughput_MiBps": stats([t * 1e6 / 1048576 for t in thr])}
    return ch, med_i


def test(name, txns, runs=1, warmup=0, sweep=None, status=None):
    st = status or ("pass" if all(c["verdict"] == "pass" for t in txns for c in t["channels"])
                    and all(l["passed"] for t in txns for l in t["latencies"]) else "fail")
    t = {"name": name, "spec": "examples/adder_perf/test.json",
         "description": "adder, PERF mode", "board": "vck190", "backend": "emu",
         "pl_clock_MHz": CLK, "xclbin": None, "status": st,
         "exit_code": 0 if st == "pass" else 1, "duration_s": 0.01,
         "repeat": {"runs": runs, "warmup": warmup, "statistic": "median"},
         "graphs": [], "transactions": txns, "error": None}
    if sweep:
        t["sweep"] = sweep
    return t


def txn(size, delay, runs, rng, mn=None, noise=0.0, lat_max=600):
    n = runs
    base_in = size // 16 + 200
    base_out = size // 16 + 200 + delay
    cin = [int(base_in * (1 + rng.gauss(0, noise))) for _ in range(n)]
    cout = [int(base_out * (1 + rng.gauss(0, noise))) for _ in range(n)]
    a, _ = channel("PLIO_01_TO_AIE", "to_aie", size, cin)
    b, med_i = channel("PLIO_01_FROM_AIE", "from_aie", size, cout, delay=delay,
                       mn=mn, first=delay + 300)
    lat = [300 + delay + int(rng.gauss(0, noise * 300)) for _ in range(n)]
    tot = [max(x, y) + delay + 420 for x, y in zip(cin, cout)]
    l = {"from": "PLIO_01_TO_AIE", "to": "PLIO_01_FROM_AIE", "cycles": lat[med_i],
         "max_cycles": lat_max, "passed": lat[med_i] <= lat_max}
    t = {"index": 0, "name": "t0", "mode": "perf", "timeout_ms": 10000, "status": "done",
         "valid": True, "message": "", "total_cycles": tot[med_i], "median_run": med_i,
         "runs_failed": [], "channels": [a, b], "latencies": [l]}
    if n > 1:
        t["stats"] = {"total_cycles": stats(tot)}
        l["stats"] = {"cycles": stats(lat)}
    return t


def report(tests, sweeps=None):
    summ = {"tests": len(tests), "passed": sum(t["status"] == "pass" for t in tests),
            "failed": sum(t["status"] == "fail" for t in tests), "errors": 0,
            "skipped": 0, "timeouts": 0, "interrupted": 0}
    st = "pass" if summ["failed"] == 0 else "fail"
    run = {"id": "20261202T040000Z-campaign", "started_at": "2026-12-02T04:00:00Z",
           "finished_at": "2026-12-02T04:00:05Z", "duration_s": 5.0, "status": st,
           "exit_code": 0 if st == "pass" else 1, "tool": "run_test",
           "tool_version": "0.31.0", "argv": ["run_test", "--repeat", "10"],
           "sweeps": sweeps or []}
    return {"schema": "aieth-report/2", "run": run,
            "environment": {"hostname": "ci", "board": "vck190", "backend": "emu",
                            "pl_clock_MHz": CLK},
            "summary": summ, "tests": tests}


def knee(points_thr, axis, plio, at):
    """smallest axis value whose throughput reaches 95 % of the plateau
    (here: the largest value's throughput)."""
    pl = points_thr[-1][1]
    for v, t in points_thr:
        if t >= 0.95 * pl:
            return {"axis": axis, "plio": plio, "at": at, "value": v, "plateau_MBps": pl,
                    "reason": None}


def grid(name, sizes, delays, runs, rng, mn, noise, prefix=""):
    tests, pts = [], {}
    total = len(sizes) * len(delays)
    i = 0
    for s in sizes:
        for d in delays:
            dv = d if isinstance(d, int) else 100 * delays.index(d)
            tx = txn(s, dv, runs, rng, mn=mn, noise=noise)
            sw = {"name": name, "point": i, "points": total,
                  "values": {"size": s, "delay": d}}
            tests.append(test(f"{prefix}{name}[size={s},delay={d}]", [tx], runs=runs, sweep=sw))
            ch = tx["channels"][1]
            v = ch["stats"]["throughput_MBps"]["median"] if runs > 1 else ch["throughput_MBps"]
            pts.setdefault(d, []).append((s, v))
            i += 1
    knees = [knee(pts[d], "size", "PLIO_01_FROM_AIE", {"delay": d}) for d in delays]
    knees.append({"axis": "delay", "plio": "PLIO_01_FROM_AIE", "at": {"size": sizes[0]},
                  "value": None, "plateau_MBps": None,
                  "reason": "throughput falls with delay: no plateau"})
    sweep = {"name": name, "spec": "examples/adder_perf/test.json", "mode": "grid",
             "axes": [{"name": "size", "values": sizes}, {"name": "delay", "values": delays}],
             "points": total, "points_run": total, "stopped": None, "knees": knees}
    return tests, sweep


def main():
    rng = random.Random(31)
    # a repeated test: 10 measured runs after 2 warm-up
    tx = txn(16384, 0, 10, rng, mn=3000, noise=0.004)
    rep = report([test("adder_perf", [tx], runs=10, warmup=2)])
    rep["run"]["argv"] = ["run_test", "--repeat", "10", "--warmup", "2",
                          "examples/adder_perf/test.json"]
    # a grid sweep: 6 sizes x 2 delays; threshold 3000 MB/s fails the small sizes
    sizes = [1024, 2048, 4096, 8192, 16384, 32768, 65536]
    t1, s1 = grid("adder_perf", sizes, [0, 1000], 1, rng, 3000, 0.0)
    # a repeated zip sweep (size and mode move together)
    t2, pts = [], []
    zs = [4096, 8192, 16384, 32768]
    for i, s in enumerate(zs):
        tx = txn(s, 0, 5, rng, noise=0.01)
        sw = {"name": "adder_zip", "point": i, "points": len(zs),
              "values": {"size": s, "mode": "perf"}}
        t2.append(test(f"adder_zip[size={s},mode=perf]", [tx], runs=5, sweep=sw))
        pts.append((s, tx["channels"][1]["stats"]["throughput_MBps"]["median"]))
    s2 = {"name": "adder_zip", "spec": "examples/adder_perf/test.json", "mode": "zip",
          "axes": [{"name": "size", "values": zs}, {"name": "mode", "values": ["perf"] * 4}],
          "points": 4, "points_run": 4, "stopped": None,
          "knees": [knee(pts, "size", "PLIO_01_FROM_AIE", {})]}
    sw = report(t1 + t2, [s1, s2])
    sw["run"]["argv"] = ["run_test", "--sweep", "size=1024..65536*2", "--sweep",
                         "delay=0,1000", "examples/adder_perf/test.json"]
    # hostile names
    evil = "<script>alert(1)</script>\"&'x"
    t3, s3 = grid(evil, [4096, 8192, 16384], ["<b>0</b>", "1&2"], 1, rng, None, 0.0)
    for t in t3:
        t["transactions"][0]["channels"][0]["plio"] = "</svg><script>alert(2)</script>"
    s3["axes"][1]["name"] = "PLIO_01_TO_AIE.\"delay'<i>"
    for t in t3:
        v = t["sweep"]["values"].pop("delay")
        t["sweep"]["values"][s3["axes"][1]["name"]] = v
    for k in s3["knees"]:
        k["at"] = {s3["axes"][1]["name"]: k["at"].get("delay", "")}
    s3["spec"] = "examples/adder_perf/test.json"
    hostile = report(t3, [s3])
    for fn, r in (("repeat.json", rep), ("sweep.json", sw), ("hostile.json", hostile)):
        with open(os.path.join(HERE, fn), "w", encoding="utf-8") as f:
            json.dump(r, f, indent=1, ensure_ascii=False)
            f.write("\n")


def big(n, path):
    """n points: size (n/100 values) x delay (100 values), one channel each,
    minimal tests (the file stays under the loader's 64 MB)."""
    nd = 100 if n >= 10000 else 1
    ns = (n + nd - 1) // nd
    sizes = [4096 + 16 * i for i in range(ns)]
    delays = list(range(nd))
    tests = []
    i = 0
    for s in sizes:
        for d in delays:
            if i == n:
                break
            cyc = s // 16 + 200 + d
            st = "pass" if i % 997 else "fail"
            tests.append({"name": f"big[size={s},delay={d}]", "status": st,
                          "exit_code": 0 if st == "pass" else 1,
                          "sweep": {"name": "big", "point": i, "points": n,
                                    "values": {"size": s, "delay": d}},
                          "transactions": [{"index": 0, "name": "t0", "status": "done",
                                            "total_cycles": cyc + 400, "channels": [
                                                {"plio": "OUT", "finished": True,
                                                 "cycles": cyc,
                                                 "throughput_MBps": s * CLK / cyc,
                                                 "verdict": "pass" if st == "pass" else "fail"}],
                                            "latencies": []}]})
            i += 1
    sweep = {"name": "big", "spec": "", "mode": "grid",
             "axes": [{"name": "size", "values": sizes}, {"name": "delay", "values": delays}],
             "points": n, "points_run": n, "stopped": None, "knees": []}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(report(tests, [sweep]), f, separators=(",", ":"))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--big":
        big(int(sys.argv[2]), sys.argv[3])
    else:
        main()
