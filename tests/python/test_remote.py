# SPDX-License-Identifier: MIT
"""The package on the remote backend: a th_server of this build on
127.0.0.1, the same results as on the emulated board."""

import numpy as np
import pytest

import aieth
from aieth.compat import channel_index, test_harness_args, test_harness_mgr, test_mode

XCLBIN = b"not an xclbin: the emulated board ignores the design"
ADDER = aieth.Graph("gr", model="adder", params={"window_bytes": 128})


def adder_results(**kw):
    with aieth.Session(board="vck190", graphs=[ADDER], **kw) as s:
        a = np.arange(2048, dtype=np.int32); b = a * 2; out = np.zeros_like(a)
        s.graph("gr").run()
        t = s.submit("perf", [aieth.Channel("PLIO_01_TO_AIE", a, repetition=2),
                              aieth.Channel("PLIO_02_TO_AIE", b, repetition=2),
                              aieth.Channel("PLIO_01_FROM_AIE", out, repetition=2)])
        assert t.wait(timeout=5) == "done"
        np.testing.assert_array_equal(out, a + b)
        return s.backend, t.results, t.delay_between("PLIO_01_TO_AIE", "PLIO_01_FROM_AIE")


def test_session_remote_equals_emu(th_server):
    backend, remote, delay = adder_results(backend="remote", server=th_server)
    assert backend == "remote"
    _, local, local_delay = adder_results()
    assert remote == local and delay == local_delay


def test_run_test_remote(th_server, src, tmp_path):
    spec = src / "examples/adder_perf/test.json"
    r = aieth.run_test(spec, out=tmp_path / "r", backend="remote", server=th_server)
    e = aieth.run_test(spec, out=tmp_path / "e")
    assert r.exit_code == e.exit_code == 0
    assert r["environment"]["backend"] == "remote"
    for key in ("first_cycle", "last_cycle", "throughput_MBps", "bytes_moved"):
        assert [c[key] for c in r["tests"][0]["transactions"][0]["channels"]] == \
            [c[key] for c in e["tests"][0]["transactions"][0]["channels"]]


def test_compat_remote(th_server, monkeypatch, tmp_path):
    """An AMD-style bench against th_server: only the environment changes."""
    monkeypatch.setenv("AIETH_BACKEND", "remote")
    monkeypatch.setenv("AIETH_SERVER", th_server)
    xclbin = tmp_path / "design.xclbin"
    with pytest.raises(FileNotFoundError):  # required off the emulated board, as AMD's
        test_harness_mgr(str(xclbin), ["g"], "vek280")
    xclbin.write_bytes(XCLBIN)
    mgr = test_harness_mgr(str(xclbin), ["g"], "vek280")
    d = np.arange(1024, dtype=np.uint32); o = np.zeros_like(d)
    mgr.runAIEGraph(0, -1)
    mgr.runTestHarness(test_mode.PERF_MODE, [
        test_harness_args(channel_index.PLIO_02_TO_AIE, d.nbytes, 3, 0, d),
        test_harness_args(channel_index.PLIO_02_FROM_AIE, o.nbytes, 3, 0, o)])
    mgr.waitForRes(5000)
    assert mgr.isResultValid() and mgr._s.backend == "remote"
    np.testing.assert_array_equal(o, d)
    mgr.close()


def test_run_test_server_userinfo(src, tmp_path):
    """A server URL with user:password@ is refused, and the password is in
    no file of the run: report.json records the URL without it."""
    spec = src / "examples/adder_perf/test.json"
    r = aieth.run_test(spec, out=tmp_path / "u", backend="remote",
                       server="http://alice:pw-s3cret@127.0.0.1:1")
    assert r.exit_code == 2
    assert r["environment"]["server"] == "http://127.0.0.1:1"
    assert "user:password@" in r["tests"][0]["error"]["message"]
    for f in (tmp_path / "u").rglob("*"):
        if f.is_file():
            assert b"pw-s3cret" not in f.read_bytes(), f
