# SPDX-License-Identifier: MIT
"""The package on the xrt backend, against this build's XRT test double
(tests/xrt_double/: the emulated board behind XRT's C API names): the same
results as the emulated board. A real board is not checked here."""

import os
import subprocess

import numpy as np
import pytest

import aieth
from conftest import BUILD

DOUBLE = BUILD / "tests" / "libxrt_double.so"
MK = BUILD / "tests" / "xrt_mkxclbin"


@pytest.fixture
def xrt_env(monkeypatch, tmp_path, src):
    """The double in place of XRT, with its xclbins; the double takes its
    graph models from AIETH_XRT_DOUBLE_SPEC (here adder_perf's)."""
    if not DOUBLE.exists() or not MK.exists():
        pytest.skip(f"{DOUBLE} or {MK} not built (make {DOUBLE} {MK})")
    spec = src / "examples/adder_perf/test.json"
    pl, aie = tmp_path / "pl.xclbin", tmp_path / "aie.xclbin"
    subprocess.run([str(MK), "pl", "vck190", str(pl)], check=True)
    subprocess.run([str(MK), "aie", "vck190", str(aie), "gr"], check=True)
    monkeypatch.setenv("AIETH_XRT_LIB", str(DOUBLE))
    monkeypatch.setenv("AIETH_XRT_DOUBLE_SPEC", str(spec))
    for v in ("XILINX_XRT", "XCL_EMULATION_MODE", "AIETH_XRT_DOUBLE_FAULT"):
        monkeypatch.delenv(v, raising=False)
    # ASan builds: the double is loaded into a child of an instrumented process
    monkeypatch.setenv("ASAN_OPTIONS", os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    return {"spec": spec, "pl_xclbin": str(pl), "xclbin": str(aie)}


def test_run_test_xrt_equals_emu(xrt_env, tmp_path):
    spec = xrt_env["spec"]
    x = aieth.run_test(spec, out=tmp_path / "x", backend="xrt", xclbin=xrt_env["xclbin"],
                       pl_xclbin=xrt_env["pl_xclbin"])
    e = aieth.run_test(spec, out=tmp_path / "e")
    assert x.exit_code == e.exit_code == 0
    assert x["environment"]["backend"] == "xrt"
    keys = ("plio", "first_cycle", "last_cycle", "cycles", "throughput_MBps", "bytes_moved",
            "verdict")
    for tx, te in zip(x["tests"][0]["transactions"], e["tests"][0]["transactions"]):
        assert [{k: c[k] for k in keys} for c in tx["channels"]] == \
               [{k: c[k] for k in keys} for c in te["channels"]]


def test_session_xrt_equals_emu(xrt_env):
    def adder(**kw):
        graphs = [aieth.Graph("gr", model="adder")]
        with aieth.Session(board="vck190", graphs=graphs, **kw) as s:
            a = np.arange(4096, dtype=np.int32); b = a * 3; out = np.zeros_like(a)
            s.graph("gr").run()
            t = s.submit("perf", [aieth.Channel("PLIO_01_TO_AIE", a, repetition=4),
                                  aieth.Channel("PLIO_02_TO_AIE", b, repetition=4),
                                  aieth.Channel("PLIO_01_FROM_AIE", out, repetition=4)])
            assert t.wait(timeout=30) == "done"
            np.testing.assert_array_equal(out, a + b)
            return s.backend, t.results
    backend, on_xrt = adder(backend="xrt", xclbin=xrt_env["xclbin"],
                            pl_xclbin=xrt_env["pl_xclbin"])
    assert backend == "xrt"
    _, on_emu = adder()
    assert on_xrt == on_emu


GRAPH_HANG = """
import os, signal, sys, threading, time
import aieth
# started from a non-interactive shell's background job, SIGINT is ignored
signal.signal(signal.SIGINT, signal.default_int_handler)
def ctrl_c_once_waiting():
    # the signal goes out once the wait is under way (its worker thread runs)
    for _ in range(6000):
        if any(t.name == "aieth-wait" and t.is_alive() for t in threading.enumerate()):
            break
        time.sleep(0.01)
    os.kill(os.getpid(), signal.SIGINT)
with aieth.Session(board="vck190", graphs=[aieth.Graph("gr", model="adder")], backend="xrt",
                   xclbin=sys.argv[1], pl_xclbin=sys.argv[2]) as s:
    s.graph("gr").run(iterations=4)
    threading.Thread(target=ctrl_c_once_waiting, daemon=True).start()
    start = time.monotonic()
    try:
        s.graph("gr").wait()
    except KeyboardInterrupt:
        print("KeyboardInterrupt after %.1f s" % (time.monotonic() - start))
    try:
        s.graph("gr").wait(timeout=1)
    except aieth.Error as e:
        print("then:", e)
"""


def test_ctrl_c_ends_a_graph_wait_on_a_board(xrt_env, tmp_path):
    """A graph that never finishes (the double's graph_hang: XRT's wait never
    returns) and a wait without a time limit: SIGINT ends the wait (the xrt
    backend abandons it and resets the device) and KeyboardInterrupt follows;
    the session then says the device session has ended. In a child with a
    time limit, so a wait that cannot be interrupted fails the test."""
    import sys
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(aieth.__file__)))
    env = dict(os.environ, AIETH_XRT_DOUBLE_FAULT="graph_hang",
               PYTHONPATH=os.pathsep.join(filter(None, [pkg, os.environ.get("PYTHONPATH")])))
    try:
        r = subprocess.run([sys.executable, "-c", GRAPH_HANG, xrt_env["xclbin"],
                            xrt_env["pl_xclbin"]], env=env, capture_output=True, text=True,
                           timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("Ctrl-C did not end a graph wait on the xrt backend within 60 s")
    assert "KeyboardInterrupt after" in r.stdout, r.stdout + r.stderr
    assert "then: " in r.stdout and "session has ended" in r.stdout, r.stdout + r.stderr
