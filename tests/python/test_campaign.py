# SPDX-License-Identifier: MIT
"""Repeats and sweeps from Python (campaigns): the statistics rule,
sweep axes as run_test --sweep writes them, Session.run / Session.sweep on
the emulated board (numpy arrays, statistics, failed runs), run_test's
repeat/sweep keywords reaching RunOpts (version 4 since the sensors), and the pytest plugin's
sweep parametrization."""

import ctypes
import json
import textwrap

import numpy as np
import pytest

import aieth
from aieth import _lib
from aieth.stats import lower_median, median_index, parse_list, point_name


# -- the statistics rule (report.json's, docs/report-schema.md)

def test_stats_rule_by_hand():
    s = aieth.statistics([5, 1, 4, 2])          # sorted 1 2 4 5: lower median index 1
    assert s.median == 2.0                      # not 3.0 (the mean of the middle two)
    assert s.mad == 1.0                         # |x-2| = 3 1 2 0 -> sorted 0 1 2 3 -> 1
    assert s.min == 1.0 and s.max == 5.0 and s.mean == 3.0
    assert s.stddev == pytest.approx(np.std([5, 1, 4, 2], ddof=1))   # sample, N-1
    assert list(s.runs) == [5, 1, 4, 2]         # in run order
    one = aieth.statistics([7])
    assert (one.median, one.mad, one.stddev, one.mean) == (7.0, 0.0, 0.0, 7.0)
    odd = aieth.statistics([3, 9, 1])
    assert odd.median == 3.0 and odd.mad == 2.0  # |x-3| = 0 6 2 -> 2


def test_stats_always_a_measured_value():
    rng = np.random.default_rng(1)
    for n in range(1, 30):
        x = rng.normal(5000, 10, n)
        s = aieth.statistics(x)
        assert s.median in x
        assert s.median == np.sort(x)[(n - 1) // 2]
        assert s.mad == np.sort(np.abs(x - s.median))[(n - 1) // 2]
        assert x[median_index(x)] == s.median


def test_stats_per_column_and_median_run_ties():
    runs = np.array([[1.0, 10.0], [3.0, 30.0], [2.0, 20.0], [4.0, 40.0]])
    s = aieth.statistics(runs)
    assert list(s.median) == [2.0, 20.0] and s.runs.shape == (4, 2)
    assert list(lower_median(runs)) == [2.0, 20.0]
    # the first run (in run order) with the median value, as the C runner's
    # median_run (util/stats.c)
    assert median_index([7, 7, 7]) == 0
    assert median_index([9, 7, 7, 8]) == 1
    assert median_index([9, 8, 7, 7]) == 2
    with pytest.raises(ValueError):
        aieth.statistics([])
    d = aieth.statistics([1, 2]).as_dict()
    assert set(d) == {"median", "min", "max", "mean", "stddev", "mad", "runs"}
    json.dumps(d)


# -- sweep axes: run_test --sweep's syntax

def test_sweep_lists_and_ranges():
    assert parse_list("4096..65536*2") == [4096, 8192, 16384, 32768, 65536]
    assert parse_list("0..300+100") == [0, 100, 200, 300]
    assert parse_list("0..250+100") == [0, 100, 200]
    assert parse_list("perf,func") == ["perf", "func"]
    assert parse_list("1,2.5") == [1, 2.5]
    for bad in ("1..0+1", "0..8*2", "4..8*1", "1..5+0", "a..b+1", "1,,2"):
        with pytest.raises(ValueError):
            parse_list(bad)


def test_sweep_points_grid_zip_and_limit():
    pts = aieth.sweep_points(["size=4096,8192", "delay=0,100"])
    assert [point_name(p) for p in pts] == ["size=4096,delay=0", "size=4096,delay=100",
                                            "size=8192,delay=0", "size=8192,delay=100"]
    assert aieth.sweep_points({"size": [1, 2], "delay": "5,6"}, zip=True) == [
        {"size": 1, "delay": 5}, {"size": 2, "delay": 6}]
    with pytest.raises(ValueError, match="different lengths"):
        aieth.sweep_points({"size": [1, 2], "delay": [1]}, zip=True)
    with pytest.raises(ValueError, match="100001 points, at most 100000"):
        aieth.sweep_points({"a": list(range(100001))})
    with pytest.raises(ValueError, match="1000000 points"):
        aieth.sweep_points(["a=1..1000+1", "b=1..1000+1"])
    with pytest.raises(ValueError, match="given twice"):
        aieth.sweep_points(["a=1", "a=2"])
    with pytest.raises(ValueError, match="AXIS=LIST"):
        aieth.sweep_points(["size"])


# -- run_test's keywords fill RunOpts version 3

@pytest.fixture
def seen_opts(monkeypatch):
    """What aieth.run_test hands aieth_report_run: the RunOpts fields of
    version 3, read from the struct the library receives (the real call
    still runs)."""
    lib = _lib.lib()
    real = lib.aieth_report_run
    seen = []

    def spy(r, path, opts):
        o = opts._obj
        seen.append({"version": o.version, "repeat_runs": o.repeat_runs,
                     "repeat_warmup": o.repeat_warmup, "num_sweep": o.num_sweep,
                     "sweep": [o.sweep[i].decode() for i in range(o.num_sweep)],
                     "sweep_stop_on_fail": o.sweep_stop_on_fail, "sweep_zip": o.sweep_zip})
        return real(r, path, opts)

    monkeypatch.setattr(lib, "aieth_report_run", spy)
    return seen


def test_run_test_campaign_fields(src, tmp_path, seen_opts):
    spec = src / "examples/adder_perf/test.json"
    r = aieth.run_test(spec, out=tmp_path / "a", repeat=5, warmup=2,
                       sweep=["size=4096,8192", "PLIO_01_TO_AIE.delay=0..200+100"],
                       sweep_stop_on_fail=True)
    assert r["tests"]                            # the run went on with them
    assert seen_opts[-1] == {"version": 4, "repeat_runs": 5, "repeat_warmup": 2, "num_sweep": 2,
                             "sweep": ["size=4096,8192", "PLIO_01_TO_AIE.delay=0..200+100"],
                             "sweep_stop_on_fail": 1, "sweep_zip": 0}
    aieth.run_test(spec, out=tmp_path / "b", sweep={"size": np.array([4096, 8192]),
                                                    "mode": ["perf", "func"],
                                                    "delay": "0..100+50"})
    assert seen_opts[-1]["sweep"] == ["size=4096,8192", "mode=perf,func", "delay=0..100+50"]
    assert seen_opts[-1]["repeat_runs"] == 0 and seen_opts[-1]["sweep_stop_on_fail"] == 0
    aieth.run_test(spec, out=tmp_path / "c", sweep="size=4096")
    assert seen_opts[-1]["num_sweep"] == 1 and seen_opts[-1]["sweep"] == ["size=4096"]
    # none given: the descriptions' own (0, none)
    aieth.run_test(spec, out=tmp_path / "d")
    assert seen_opts[-1] == {"version": 4, "repeat_runs": 0, "repeat_warmup": 0, "num_sweep": 0,
                             "sweep": [], "sweep_stop_on_fail": 0, "sweep_zip": 0}
    # a zip: the texts as they are, the mode its own field; the run pairs them
    r = aieth.run_test(spec, out=tmp_path / "e", sweep=["PLIO_01_TO_AIE.delay=0,10", "replay=4,4"],
                       sweep_zip=True)
    assert seen_opts[-1]["sweep_zip"] == 1 and seen_opts[-1]["num_sweep"] == 2
    assert [t["name"] for t in r["tests"]] == ["adder_perf[PLIO_01_TO_AIE.delay=0,replay=4]",
                                               "adder_perf[PLIO_01_TO_AIE.delay=10,replay=4]"]
    assert r["run"]["sweeps"][0]["mode"] == "zip"
    with pytest.raises(ValueError, match="sweep_zip needs sweep"):
        aieth.run_test(spec, out=tmp_path / "f", sweep_zip=True)


@pytest.mark.parametrize("kw, err", [
    ({"repeat": 0}, "below the minimum 1"),
    ({"repeat": 2 ** 32}, "exceeds the limit"),
    ({"warmup": 1}, "warmup needs repeat"),
    ({"repeat": 2, "warmup": -1}, "below the minimum 0"),
    ({"sweep": ["size"]}, "not AXIS=LIST"),
    ({"sweep": []}, "no axis"),
    ({"sweep": {"size": [True]}}, "not a number or a word"),
    ({"sweep": {"mode": ["a,b"]}}, "not a number or a word"),
])
def test_run_test_campaign_refused(src, tmp_path, kw, err, seen_opts):
    with pytest.raises(ValueError, match=err):
        aieth.run_test(src / "examples/adder_perf/test.json", out=tmp_path, **kw)
    assert not seen_opts                          # refused before anything ran


def test_run_test_repeat_type(src, tmp_path):
    with pytest.raises(TypeError):
        aieth.run_test(src / "examples/adder_perf/test.json", out=tmp_path, repeat=2.0)


# -- Session.run and Session.sweep on the emulated board

def adder(s, n=4096, repetition=1):
    a = np.arange(n, dtype=np.int32)
    b = (a * 3).astype(np.int32)
    out = np.zeros_like(a)
    chans = [aieth.Channel("PLIO_01_TO_AIE", a, repetition=repetition),
             aieth.Channel("PLIO_02_TO_AIE", b, repetition=repetition),
             aieth.Channel("PLIO_01_FROM_AIE", out, repetition=repetition)]
    return a, b, out, chans


def test_session_run_repeat(src):
    with aieth.Session(board="vck190", graphs=[aieth.Graph("gr", model="adder")]) as s:
        a, b, out, chans = adder(s, repetition=4)
        s.graph("gr").run()
        one = s.submit("perf", chans)
        assert one.wait(5.0) == "done"
        want = {r.plio: r for r in one.results}
        want_total = one.total_cycles
        r = s.run("perf", chans, repeat=5, warmup=2, timeout=5.0,
                  latency=[("PLIO_01_TO_AIE", "PLIO_01_FROM_AIE")])
    assert isinstance(r, aieth.RepeatResult) and r.ok
    assert (r.runs, r.warmup, r.mode) == (5, 2, "perf")
    assert r.channels == ["PLIO_01_TO_AIE", "PLIO_02_TO_AIE", "PLIO_01_FROM_AIE"]
    assert r.status == ["done"] * 5 and r.valid.dtype == bool and r.valid.all()
    assert r.cycles.shape == (5, 3) and r.throughput_MBps.shape == (5, 3)
    assert r.total_cycles.shape == (5,) and len(r.results) == 5
    # the emulated board is deterministic: every run is the single run
    for j, plio in enumerate(r.channels):
        assert (r.cycles[:, j] == want[plio].cycles).all()
        assert (r.throughput_MBps[:, j] == want[plio].throughput_MBps).all()
        assert (r.first[:, j] == want[plio].first).all()
    assert (r.total_cycles == want_total).all()
    st = r.stats("throughput_MBps")
    assert list(st.median) == [want[p].throughput_MBps for p in r.channels]
    assert list(st.stddev) == [0.0, 0.0, 0.0] and list(st.mad) == [0.0, 0.0, 0.0]
    assert r.stats("total_cycles").median == want_total
    lat = r.stats("PLIO_01_TO_AIE->PLIO_01_FROM_AIE")
    assert lat.median == want["PLIO_01_FROM_AIE"].first - want["PLIO_01_TO_AIE"].first
    assert r.median_run == 0                      # all equal: the first run
    assert r.column("PLIO_01_FROM_AIE") == 2
    assert (out == a + b).all()                   # the last run's data, checked
    with pytest.raises(KeyError):
        r.stats("nope")
    with pytest.raises(KeyError):
        r.stats("A->B")


def test_session_run_failed_runs_named(src):
    # one input of the adder missing: every run stalls (timeout), named
    with aieth.Session(board="vck190", graphs=[aieth.Graph("gr", model="adder")]) as s:
        a, b, out, chans = adder(s)
        s.graph("gr").run()
        r = s.run("perf", [chans[0], chans[2]], repeat=2, timeout=1.0)
    assert not r.ok and r.status == ["timeout", "timeout"]
    assert [f["run"] for f in r.failed] == [0, 1]
    assert all(f["reason"].startswith("timeout") and f["plio"] for f in r.failed)
    assert not r.valid.any()


def test_session_run_refused():
    with aieth.Session(board="vck190", graphs=[aieth.Graph("gr", model="adder")]) as s:
        a, b, out, chans = adder(s)
        with pytest.raises(ValueError):
            s.run("perf", chans, repeat=0)
        with pytest.raises(ValueError):
            s.run("perf", chans, latency=[("PLIO_01_TO_AIE",)])
        with pytest.raises(aieth.NotFoundError):
            s.run("perf", [aieth.Channel("PLIO_99_TO_AIE", a)])
    with pytest.raises(aieth.InvalidError, match="closed"):
        s.run("perf", chans)


def test_session_sweep_size_delay_grid():
    with aieth.Session(board="vck190", graphs=[aieth.Graph("gr", model="adder")]) as s:
        a, b, out, chans = adder(s, n=4096)      # 16 KiB arrays: the largest size swept
        s.graph("gr").run()
        sw = s.sweep("perf", chans, ["size=4096..16384*2", "PLIO_01_TO_AIE.delay=0,100"],
                     repeat=3, warmup=1, timeout=5.0)
        # each point again, by hand: the same counters
        by_hand = []
        for size in (4096, 8192, 16384):
            for delay in (0, 100):
                t = s.submit("perf", [aieth.Channel("PLIO_01_TO_AIE", a, size=size, delay=delay),
                                      aieth.Channel("PLIO_02_TO_AIE", b, size=size),
                                      aieth.Channel("PLIO_01_FROM_AIE", out, size=size)])
                assert t.wait(5.0) == "done"
                by_hand.append((t.total_cycles, [r.cycles for r in t.results]))
                t.free()
    assert isinstance(sw, aieth.SweepResult) and sw.stopped is None and not sw.failed
    assert sw.axes == ["size", "PLIO_01_TO_AIE.delay"]
    assert sw.names[1] == "size=4096,PLIO_01_TO_AIE.delay=100"
    assert list(sw.values("size")) == [4096, 4096, 8192, 8192, 16384, 16384]
    assert list(sw.values("PLIO_01_TO_AIE.delay")) == [0, 100] * 3
    tp = sw.figure("throughput_MBps")
    assert tp.shape == (6, 3) and not np.isnan(tp).any()
    cyc = sw.figure("cycles")
    total = sw.figure("total_cycles")
    for i, (tot, cycles) in enumerate(by_hand):
        assert total[i] == tot and list(cyc[i]) == cycles
    assert all(r.runs == 3 and r.warmup == 1 for r in sw.results)
    # the cycles grow with the size, the delay moves the whole transaction
    assert cyc[0, 2] < cyc[2, 2] < cyc[4, 2]
    assert total[1] - total[0] == 100
    assert list(sw.figure("throughput_MBps", "stddev").ravel()) == [0.0] * 18


def test_session_sweep_channels_zip_and_stop_on_fail():
    with aieth.Session(board="vck190", graphs=[aieth.Graph("gr", model="adder")]) as s:
        a, b, out, chans = adder(s)
        s.graph("gr").run()
        # channels=1 keeps PLIO_01_TO_AIE and PLIO_01_FROM_AIE: the adder
        # waits for its second input, the point fails, the next still runs
        sw = s.sweep("perf", chans, {"channels": [2, 1], "replay": [2, 1]}, zip=True, timeout=1.0)
        assert sw.names == ["channels=2,replay=2", "channels=1,replay=1"]
        assert sw.results[0].ok and not sw.results[1].ok
        assert sw.results[1].channels == ["PLIO_01_TO_AIE", "PLIO_01_FROM_AIE"]
        assert [f["point"] for f in sw.failed] == [1]
        cyc = sw.figure("cycles")
        assert np.isnan(cyc[1, 1]) and not np.isnan(cyc[0]).any()
        assert sw.results[0].results[0][0].repetition == 2
    with aieth.Session(board="vck190", graphs=[aieth.Graph("gr", model="adder")]) as s:
        a, b, out, chans = adder(s)
        s.graph("gr").run()
        sw = s.sweep("perf", chans, {"channels": [1, 2, 2]}, timeout=1.0, stop_on_fail=True)
        assert sw.stopped == "stop_on_fail" and len(sw.results) == 1 and len(sw.points) == 1


@pytest.mark.parametrize("axes, err", [
    ({"gr.window_bytes": [128]}, "fixed when the session opens"),
    ({"nope": [1]}, "unknown axis"),
    ({"PLIO_07_TO_AIE.size": [16]}, "no channel of the transaction"),
    ({"PLIO_01_TO_AIE.cycles": [1]}, "size, delay or replay"),
    ({"mode": ["perf", "fast"]}, "not perf or func"),
    ({"mode": ["func"], "replay": [2]}, "FUNC mode"),
    ({"channels": [0]}, "count >= 1"),
    ({"size": [4096.5]}, "not a whole number"),
])
def test_session_sweep_refused_before_any_run(axes, err):
    with aieth.Session(board="vck190", graphs=[aieth.Graph("gr", model="adder")]) as s:
        a, b, out, chans = adder(s)
        s.graph("gr").run()
        calls = []
        real = s.submit
        s.submit = lambda *a, **k: calls.append(1) or real(*a, **k)
        with pytest.raises(ValueError, match=err):
            s.sweep("perf", chans, axes)
        assert not calls


def test_session_sweep_mode_axis():
    with aieth.Session(board="vck190", graphs=[aieth.Graph("gr", model="adder")]) as s:
        a, b, out, chans = adder(s)
        s.graph("gr").run()
        sw = s.sweep("perf", chans, "mode=perf,func", timeout=5.0)
    assert [r.mode for r in sw.results] == ["perf", "func"] and not sw.failed
    assert list(sw.values("mode")) == ["perf", "func"]
    assert (out == a + b).all()


# -- the pytest plugin: a test per sweep point

def test_plugin_sweep_marker_and_params(pytester):
    pytester.makepyfile(textwrap.dedent('''
        import numpy as np
        import pytest
        import aieth
        from aieth.pytest_plugin import sweep_params

        @pytest.mark.aieth_sweep("size=4096..16384*2", "delay=0,100")
        def test_point(aieth_point, aieth_session, record_property):
            s = aieth_session(graphs=[aieth.Graph("gr", model="loopback",
                                                  params={"channels": [1]})])
            s.graph("gr").run()
            a = np.arange(4096, dtype=np.int32); out = np.zeros_like(a)
            r = s.run("perf", [aieth.Channel("PLIO_01_TO_AIE", a, size=aieth_point["size"],
                                             delay=aieth_point["delay"]),
                               aieth.Channel("PLIO_01_FROM_AIE", out, size=aieth_point["size"])],
                      repeat=2)
            assert r.ok
            record_property("cycles", int(r.stats("cycles").median[1]))

        @pytest.mark.aieth_sweep({"mode": ["perf", "func"], "n": [1, 2]}, zip=True)
        def test_zip(aieth_point):
            assert aieth_point in ({"mode": "perf", "n": 1}, {"mode": "func", "n": 2})

        @pytest.mark.parametrize("p", sweep_params("size=16,32"))
        def test_params(p):
            assert p["size"] in (16, 32)
    '''))
    res = pytester.runpytest("-p", "aieth.pytest_plugin", "-v", "--junitxml=j.xml")
    res.assert_outcomes(passed=10)
    out = res.stdout.str()
    for id_ in ("test_point[size=4096,delay=0]", "test_point[size=16384,delay=100]",
                "test_zip[mode=func,n=2]", "test_params[size=32]"):
        assert id_ in out
    j = (pytester.path / "j.xml").read_text()
    assert j.count('name="cycles"') == 6


def test_plugin_sweep_marker_errors(pytester):
    pytester.makepyfile(textwrap.dedent('''
        import pytest

        @pytest.mark.aieth_sweep("size")
        def test_bad(aieth_point):
            pass
    '''))
    res = pytester.runpytest("-p", "aieth.pytest_plugin")
    assert res.ret != 0
    assert "aieth_sweep: sweep: 'size' is not AXIS=LIST" in res.stdout.str() + res.stderr.str()
    pytester.makepyfile(textwrap.dedent('''
        import pytest

        @pytest.mark.aieth_sweep("size=1,2")
        def test_no_arg():
            pass
    '''))
    res = pytester.runpytest("-p", "aieth.pytest_plugin")
    assert res.ret != 0
    assert "aieth_sweep needs an aieth_point argument" in res.stdout.str() + res.stderr.str()


def test_runopts_v3_layout():
    # the binding's struct is the header's newest version, 4, which keeps
    # version 3's fields (test_abi checks layouts)
    o = _lib.run_opts()
    assert o.version == 4 and _lib.RunOpts.VERSION == 4
    assert o.repeat_runs == 0 and o.num_sweep == 0 and not o.sweep
    assert o.sensor_period_ms == 0 and o.no_sensors == 0
    assert isinstance(o.sweep, ctypes.POINTER(ctypes.c_char_p))


# -- through th_server: one session, the same arrays as on the emulated board

def campaign(**kw):
    with aieth.Session(board="vck190", graphs=[aieth.Graph("gr", model="adder")], **kw) as s:
        a, b, out, chans = adder(s)
        s.graph("gr").run()
        r = s.run("perf", chans, repeat=3, warmup=1, timeout=5.0,
                  latency=[("PLIO_01_TO_AIE", "PLIO_01_FROM_AIE")])
        sw = s.sweep("perf", chans, ["replay=1,3", "PLIO_02_TO_AIE.delay=0,50"], repeat=2,
                     timeout=5.0)
        assert (out == a + b).all()
        return s.backend, r, sw


def test_session_campaign_remote_equals_emu(th_server):
    backend, r, sw = campaign(backend="remote", server=th_server)
    assert backend == "remote" and r.ok and not sw.failed
    _, lr, lsw = campaign()
    for f in ("cycles", "first", "last", "throughput_MBps", "bytes_moved", "total_cycles"):
        np.testing.assert_array_equal(getattr(r, f), getattr(lr, f))
        if f != "total_cycles":
            np.testing.assert_array_equal(sw.figure(f), lsw.figure(f))
    np.testing.assert_array_equal(sw.figure("total_cycles"), lsw.figure("total_cycles"))
    assert r.latency[("PLIO_01_TO_AIE", "PLIO_01_FROM_AIE")].tolist() == \
        lr.latency[("PLIO_01_TO_AIE", "PLIO_01_FROM_AIE")].tolist()
    assert sw.names == lsw.names and len(sw.results) == 4
