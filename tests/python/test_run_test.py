# SPDX-License-Identifier: MIT
"""aieth.run_test against the run_test program: every example gives the
same report (counters, verdicts, statuses, exit code), and the Session API
reproduces run_test's counters for the adder examples."""

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import aieth

EXAMPLES = sorted(p.parent.name for p in
                  (Path(__file__).resolve().parents[2] / "examples").glob("*/test.json"))
# What differs between two runs of the same description by design.
VOLATILE = {"duration_s", "started_at", "finished_at", "id", "argv", "tool", "hostname"}


def normalise(x, out_dir):
    """The report without times, ids and the tool; out_dir replaced."""
    if isinstance(x, dict):
        return {k: normalise(v, out_dir) for k, v in x.items() if k not in VOLATILE}
    if isinstance(x, list):
        return [normalise(v, out_dir) for v in x]
    if isinstance(x, str):
        return x.replace(str(out_dir), "OUT")
    return x


def program_report(run_test_bin, spec, out):
    rc = subprocess.run([str(run_test_bin), "-q", "-o", str(out), str(spec)],
                        stdout=subprocess.DEVNULL, timeout=120).returncode
    with open(out / "report.json") as f:
        return rc, json.load(f)


@pytest.mark.parametrize("example", EXAMPLES)
def test_example_equals_program(example, src, run_test_bin, tmp_path):
    spec = src / "examples" / example / "test.json"
    rc, want = program_report(run_test_bin, spec, tmp_path / "prog")
    got = aieth.run_test(spec, out=tmp_path / "py")
    assert got.exit_code == rc == want["run"]["exit_code"]
    assert got.status == want["run"]["status"]
    assert normalise(dict(got), tmp_path / "py") == normalise(want, tmp_path / "prog")
    assert (tmp_path / "py" / "junit.xml").exists()
    # it ran: every transaction has counters
    assert all(t["transactions"] for t in got["tests"])


def test_several_specs_and_missing_file(src, tmp_path):
    r = aieth.run_test([src / "examples/adder_perf/test.json", tmp_path / "missing.json"],
                       out=tmp_path)
    assert r["summary"]["tests"] == 2
    assert r.exit_code == 2 and r["tests"][1]["error"]["phase"] == "load"


def test_not_an_xclbin_is_a_warning(src, tmp_path):
    # a file that is not an xclbin, with bytes that are not UTF-8 in what
    # the report records of it: an input error (exit 2); with
    # xclbin_warn_only report.json stays readable, the run passes and says
    # what it noticed
    bad = tmp_path / "not.xclbin"
    bad.write_bytes(b"\xff\xfe not an xclbin \x80\x81" + bytes(range(256)) * 4)
    r = aieth.run_test(src / "examples/adder_perf/test.json", out=tmp_path / "e",
                       xclbin=str(bad))
    assert r.exit_code == 2 and "design xclbin" in r["tests"][0]["error"]["message"]
    with pytest.warns(RuntimeWarning, match="design xclbin"):
        r = aieth.run_test(src / "examples/adder_perf/test.json", out=tmp_path / "o",
                           xclbin=str(bad), xclbin_warn_only=True)
    assert r.exit_code == 0
    assert r["tests"][0]["warnings"]
    json.loads((tmp_path / "o" / "report.json").read_bytes().decode("utf-8"))


def test_relative_plugin_model_from_another_folder(run_test_bin, tmp_path, monkeypatch):
    # a plugin named relative to its description runs from any current folder
    plugin = run_test_bin.parent.parent / "plugins" / "timed_loopback.so"
    desc = tmp_path / "desc"
    (desc / "plug").mkdir(parents=True)
    shutil.copy(plugin, desc / "plug" / "timed_loopback.so")
    (desc / "in.txt").write_text("\n".join(str(i) for i in range(1, 17)) + "\n")
    chans = [{"plio": f"PLIO_0{n}_TO_AIE", "data": {"file": "in.txt", "type": "int32"}}
             for n in (1, 2)] + \
            [{"plio": f"PLIO_0{n}_FROM_AIE", "golden": {"file": "in.txt", "type": "int32"}}
             for n in (1, 2)]
    (desc / "t.json").write_text(json.dumps({
        "schema": "aieth-test/1", "name": "relplug", "board": "vck190",
        "graphs": [{"name": "gr", "iterations": 4, "model": "plug/timed_loopback.so"}],
        "transactions": [{"name": "t", "mode": "perf", "timeout_ms": 5000,
                          "channels": chans}]}))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    r = aieth.run_test(desc / "t.json", out=tmp_path / "o")
    assert r.exit_code == 0, r["tests"][0].get("error")


def read_ints(path):
    return np.array(Path(path).read_text().split(), dtype=np.int32)


@pytest.mark.parametrize("example,mode", [("adder_perf", "perf"), ("adder_func", "func")])
def test_session_equals_program_counters(example, mode, src, run_test_bin, tmp_path):
    """The description rebuilt with the Session API: the same counters."""
    spec = json.loads((src / "examples" / example / "test.json").read_text())
    _, want = program_report(run_test_bin, src / "examples" / example / "test.json", tmp_path)
    want_t = want["tests"][0]["transactions"][0]
    g = spec["graphs"][0]
    folder = src / "examples" / example
    keep = []
    with aieth.Session(board=spec["board"],
                       graphs=[aieth.Graph(g["name"], model=g["model"], params=g["params"])]) as s:
        s.graph(g["name"]).run(iterations=g["iterations"])
        chans = []
        for c in spec["transactions"][0]["channels"]:
            if "data" in c:
                arr = read_ints(folder / c["data"]["file"])
            else:
                arr = np.empty_like(read_ints(folder / c["golden"]["file"]))
                keep.append((arr, read_ints(folder / c["golden"]["file"])))
            chans.append(aieth.Channel(c["plio"], arr, repetition=c.get("repetition", 1),
                                       delay=c.get("delay", 0)))
        t = s.submit(mode, chans)
        assert t.wait(timeout=5) == "done"
        assert t.total_cycles == want_t["total_cycles"]
        for r, w in zip(t.results, want_t["channels"]):
            assert (r.plio, r.first, r.last, r.cycles) == \
                (w["plio"], w["first_cycle"], w["last_cycle"], w["cycles"])
            assert (r.bytes_expected, r.bytes_moved, r.user_bytes) == \
                (w["bytes_expected"], w["bytes_moved"], w["user_bytes"])
            assert r.throughput_MBps == pytest.approx(w["throughput_MBps"], rel=1e-6)
            assert r.throughput_MiBps == pytest.approx(w["throughput_MiBps"], rel=1e-6)
        for lat in want_t.get("latencies", []):
            assert t.delay_between(lat["from"], lat["to"]) == lat["cycles"]
        s.graph(g["name"]).wait(timeout=5)
    for got, golden in keep:
        np.testing.assert_array_equal(got, golden)


def test_ctrl_c_writes_the_report_first(tmp_path, ctrl_c):
    """SIGINT during a long run: report.json says interrupted, exit 130,
    then KeyboardInterrupt (as run_test: report first, then the signal)."""
    spec = tmp_path / "long.json"
    rep = 1 << 18
    spec.write_text(json.dumps({
        "schema": "aieth-test/1", "name": "long", "board": "vck190",
        "graphs": [{"name": "g", "model": "loopback"}],
        "transactions": [{"name": "t", "mode": "perf", "channels": [
            {"plio": "PLIO_01_TO_AIE", "size": 65536, "repetition": rep,
             "data": {"pattern": "random", "seed": 1}},
            {"plio": "PLIO_01_FROM_AIE", "size": 65536, "repetition": rep}]}]}))
    with pytest.raises(KeyboardInterrupt):
        timer = ctrl_c(0.3)
        aieth.run_test(spec, out=tmp_path / "out", emu_reference=True, no_timeout=True)
    timer.join()
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["run"]["exit_code"] == 130 and report["run"]["status"] == "interrupted"
