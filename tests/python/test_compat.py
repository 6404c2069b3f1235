# SPDX-License-Identifier: MIT
"""aieth.compat: test benches written in the style of AMD's Python examples
(adder in PERF and FUNC mode, pipelined transactions) run unchanged but for
the import line, and their results are checked."""

import json

import numpy as np
import pytest

import aieth
from aieth.compat import (TestHarnessException, channel_index, test_harness_args,
                          test_harness_mgr, test_mode)

ADDER = {"gr": {"model": "adder", "params": {"window_bytes": 128}}}


def adder_bench(mode, repetition, graph_iters):
    """AMD's adder example: two int32 inputs, their sum back."""
    mgr = test_harness_mgr("adder.xclbin", ["gr"], "vck190", graph_models=ADDER)
    n = 1024
    in0 = np.arange(n, dtype=np.int32)
    in1 = np.arange(n, dtype=np.int32) * 3
    out = np.zeros(n, dtype=np.int32)
    args = [test_harness_args(channel_index.PLIO_01_TO_AIE, in0.nbytes, repetition, 0, in0),
            test_harness_args(channel_index.PLIO_02_TO_AIE, in1.nbytes, repetition, 0, in1),
            test_harness_args(channel_index.PLIO_01_FROM_AIE, out.nbytes, repetition, 0, out)]
    mgr.runAIEGraph(0, graph_iters)
    mgr.runTestHarness(mode, args)
    mgr.waitForRes(5000)
    return mgr, in0, in1, out


def test_adder_perf(capsys):
    mgr, in0, in1, out = adder_bench(test_mode.PERF_MODE, 4, 4 * 32)
    assert mgr.isResultValid()
    np.testing.assert_array_equal(out, in0 + in1)
    delay = mgr.getDelayBetween(channel_index.PLIO_01_TO_AIE, channel_index.PLIO_01_FROM_AIE)
    res = mgr._txns[0].results
    assert delay == res[2].first - res[0].first > 0
    mgr.printPerf()
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(f"PLIO_01_TO_AIE send the first data at cycle[{res[0].first}], "
                               f"ends at cycle[{res[0].last}]")
    assert lines[2].startswith("PLIO_01_FROM_AIE received the first data")
    # aieth's figures: MB/s at the board's clock, MiB/s next to it
    assert f"{res[0].throughput_MBps:.3f} MB/s ({res[0].throughput_MiBps:.3f} MiB/s)" in lines[0]
    mgr.close()


def test_adder_func():
    mgr, in0, in1, out = adder_bench(test_mode.FUNC_MODE, 1, 32)
    assert mgr.isResultValid(0)
    np.testing.assert_array_equal(out, in0 + in1)
    mgr.close()


def test_pipelined_transactions():
    """Several runTestHarness calls before one waitForRes, each checked."""
    mgr = test_harness_mgr("none.xclbin", ["g"], "vek280")  # the default model: loopback
    mgr.runAIEGraph(0, -1)
    datas, outs = [], []
    for k in range(3):
        d = np.full(512, k + 1, dtype=np.int16)
        o = np.zeros_like(d)
        datas.append(d); outs.append(o)
        mgr.runTestHarness(test_mode.PERF_MODE, [
            test_harness_args(channel_index.PLIO_03_TO_AIE, d.nbytes, 2, 0, d),
            test_harness_args(channel_index.PLIO_03_FROM_AIE, o.nbytes, 2, 0, o)])
    mgr.waitForRes(0, 2)  # the first two
    assert [t.status for t in mgr._txns] == ["done", "done", "pending"]
    mgr.waitForRes()
    for k in range(3):
        assert mgr.isResultValid(k)
        np.testing.assert_array_equal(outs[k], datas[k])
        assert mgr.getDelayBetween(channel_index.PLIO_03_TO_AIE,
                                   channel_index.PLIO_03_FROM_AIE, k) >= 0
    mgr.close()


def test_graph_models_from_environment(monkeypatch):
    monkeypatch.setenv("AIETH_GRAPH_MODELS", json.dumps(ADDER))
    mgr = test_harness_mgr("adder.xclbin", ["gr"], "vck190")
    assert mgr._s.graphs["gr"].model == "adder"
    mgr.close()
    monkeypatch.setenv("AIETH_GRAPH_MODELS", "[1]")
    with pytest.raises(TestHarnessException, match="not a JSON object"):
        test_harness_mgr("adder.xclbin", ["gr"], "vck190")


def test_timeout_is_not_valid(capsys):
    """A graph that runs too few iterations: the transaction times out."""
    mgr = test_harness_mgr("adder.xclbin", ["gr"], "vck190", graph_models=ADDER)
    a = np.zeros(1024, dtype=np.int32); out = np.zeros_like(a)
    mgr.runAIEGraph(0, 4)
    mgr.runTestHarness(test_mode.PERF_MODE, [
        test_harness_args(channel_index.PLIO_01_TO_AIE, a.nbytes, 1, 0, a),
        test_harness_args(channel_index.PLIO_02_TO_AIE, a.nbytes, 1, 0, a),
        test_harness_args(channel_index.PLIO_01_FROM_AIE, out.nbytes, 1, 0, out)])
    mgr.waitForRes(2000)
    assert mgr.isResultValid(0) is False
    with pytest.raises(TestHarnessException, match="no transaction has finished") as e:
        mgr.isResultValid()
    # it says that it stalled, where, and which model ran
    assert e.value.code == "INVALID_OPERATIONS"
    assert "transaction 0 timed out (stalled): " in str(e.value)
    assert str(e.value).endswith("on the emulated board graph gr ran model adder")
    mgr.printPerf(0)
    assert "is timeout: no performance information" in capsys.readouterr().out
    mgr.close()


def test_amd_errors():
    a = np.zeros(64, dtype=np.int32)
    with pytest.raises(TestHarnessException, match="size_in_bytes 100 differs"):
        test_harness_args(channel_index.PLIO_01_TO_AIE, 100, 1, 0, a)
    mgr = test_harness_mgr("x.xclbin", ["g"], "vck190")
    with pytest.raises(TestHarnessException, match="no transaction"):
        mgr.printPerf()
    with pytest.raises(TestHarnessException) as e:
        mgr.runAIEGraph(1, 10)
    assert e.value.code == "INVALID_ARGUMENTS"
    mgr.runAIEGraph(0, -1)
    with pytest.raises(TestHarnessException, match="already started"):
        mgr.runAIEGraph(0, -1)
    with pytest.raises(TestHarnessException, match="Wrong channel index 99"):
        mgr.runTestHarness(test_mode.PERF_MODE, [test_harness_args(99, a.nbytes, 1, 0, a)])
    # a PLIO the board lacks: the library's message names it
    with pytest.raises(TestHarnessException, match="PLIO_36_TO_AIE"):
        test_harness_mgr("x.xclbin", ["g"], "vek280").runTestHarness(
            test_mode.PERF_MODE, [test_harness_args(channel_index.PLIO_36_TO_AIE, a.nbytes, 1, 0, a)])
    with pytest.raises(TestHarnessException, match="mode 7"):
        mgr.runTestHarness(7, [])
    mgr.close()
    with pytest.raises(FileNotFoundError):
        test_harness_mgr("/nonexistent.xclbin", ["g"], "vck190", backend="xrt")


def test_creation_failure_unreachable_server(closed_port):
    with pytest.raises(TestHarnessException) as e:
        test_harness_mgr(__file__, ["g"], "vck190", backend="remote",
                         server=f"http://127.0.0.1:{closed_port}")
    assert e.value.code == "TEST_HARNESS_CREATION_FAILURE"
    assert isinstance(e.value.__cause__, aieth.DeviceError)


def test_enums_match_amd():
    assert channel_index.PLIO_01_TO_AIE == 0 and channel_index.PLIO_36_TO_AIE == 35
    assert channel_index.PLIO_01_FROM_AIE == 36 and channel_index.PLIO_36_FROM_AIE == 71
    assert test_mode.FUNC_MODE == 0 and test_mode.PERF_MODE == 1
