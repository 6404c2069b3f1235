# SPDX-License-Identifier: MIT
"""AMD's Python adder bench on the emulated board through aieth.compat.

amd_adder_bench is written from AMD's documented Python API (AMD's
AI-Engine-Test-Harness, include/python/test_harness_mgr.py and its README:
test_harness_mgr(xclbin, graph names, device), test_harness_args(channel,
size_in_bytes, repetition, delay, array), runAIEGraph, runTestHarness,
waitForRes, printPerf, getDelayBetween, isResultValid) in the shape of its
adder example (examples/python/vck190/adder: PLIO_01_TO_AIE and
PLIO_03_TO_AIE summed into PLIO_02_FROM_AIE, 65536 int32 per graph
iteration, FUNC then PERF). Nothing in it names aieth but its import: the
graph model comes from the environment, AIETH_GRAPH_MODELS='{"gr":
"@python_adder"}', the preset shipped in cfg/graph-models/.
"""

import json

import numpy as np
import pytest

from aieth.compat import (TestHarnessException, channel_index, test_harness_args,
                          test_harness_mgr, test_mode)

VALUES_PER_ITERATION = 65536  # int32 per graph iteration of AMD's adder


def amd_adder_bench(iterations, modes):
    """Returns the lines it would print and whether every check passed."""
    rng = np.random.default_rng(7)
    n = VALUES_PER_ITERATION * iterations
    a = rng.integers(-65536, 65536, n, dtype=np.int32)
    b = rng.integers(-65536, 65536, n, dtype=np.int32)
    ref = a + b
    mgr = test_harness_mgr("adder.xclbin", ["gr"], "vck190")
    report = []
    for mode in modes:
        res = np.zeros(n, dtype=np.int32)
        args = [test_harness_args(channel_index.PLIO_01_TO_AIE, n * 4, 1, 1, a),
                test_harness_args(channel_index.PLIO_03_TO_AIE, n * 4, 1, 1, b),
                test_harness_args(channel_index.PLIO_02_FROM_AIE, n * 4, 1, 1, res)]
        mgr.runAIEGraph(0, iterations)
        mgr.runTestHarness(mode, args)
        mgr.waitForRes()
        mgr.printPerf()
        delay = mgr.getDelayBetween(channel_index.PLIO_01_TO_AIE, channel_index.PLIO_02_FROM_AIE)
        report.append(("delay", delay))
        if mgr.isResultValid():
            report.append(("checked", mode, bool((res == ref).all())))
        elif mode == test_mode.FUNC_MODE:
            report.append(("invalid in FUNC", mode, False))
        else:
            report.append(("not valid: large vectors", mode, True))
    mgr.close()
    return report


def test_adder_bench_with_the_preset(monkeypatch, capsys):
    monkeypatch.setenv("AIETH_GRAPH_MODELS", json.dumps({"gr": "@python_adder"}))
    report = amd_adder_bench(2, [test_mode.FUNC_MODE, test_mode.PERF_MODE])
    out = capsys.readouterr().out.splitlines()
    # FUNC: the sum checked element by element; PERF: 512 KiB a channel is
    # beyond the 64 KiB URAM, so not valid (AMD's rule), as the bench expects
    assert report[1] == ("checked", test_mode.FUNC_MODE, True)
    assert report[3] == ("not valid: large vectors", test_mode.PERF_MODE, True)
    assert report[0][1] > 0 and report[2][1] > 0  # the output comes after the input
    # printPerf: three channels per transaction, TX first
    assert len(out) == 6
    assert out[0].startswith("PLIO_01_TO_AIE send the first data at cycle[")
    assert out[1].startswith("PLIO_03_TO_AIE send the first data")
    assert out[2].startswith("PLIO_02_FROM_AIE received the first data")


def test_adder_bench_single_iteration(monkeypatch):
    monkeypatch.setenv("AIETH_GRAPH_MODELS", json.dumps({"gr": "@python_adder"}))
    assert amd_adder_bench(1, [test_mode.FUNC_MODE])[1] == ("checked", test_mode.FUNC_MODE, True)


def test_adder_bench_without_a_model_times_out(monkeypatch, capsys):
    """The default graph model (loopback, 16-byte windows) is not AMD's
    adder: PLIO_03_TO_AIE feeds nothing and PLIO_02_FROM_AIE gets only a
    loopback's few windows, so the transaction times out; printPerf() then
    raises INVALID_OPERATIONS, as AMD's module does when no transaction is
    DONE."""
    monkeypatch.delenv("AIETH_GRAPH_MODELS", raising=False)
    with pytest.raises(TestHarnessException) as e:
        amd_adder_bench(1, [test_mode.FUNC_MODE])
    assert e.value.code == "INVALID_OPERATIONS"
    assert "no transaction has finished: transaction 0 timed out (stalled): " in str(e.value)
    assert ("graph gr ran the default model loopback (no graph_models= or "
            "$AIETH_GRAPH_MODELS names one for it)") in str(e.value)


def test_preset_names(monkeypatch):
    for bad in ["@nosuch", "@../cfg/graph-models/python_adder", "@", "@.hidden"]:
        monkeypatch.setenv("AIETH_GRAPH_MODELS", json.dumps({"gr": bad}))
        with pytest.raises(TestHarnessException, match="not a preset of .*python_adder"):
            test_harness_mgr("adder.xclbin", ["gr"], "vck190")
    monkeypatch.setenv("AIETH_GRAPH_MODELS", json.dumps({"gr": "@testcase_dmafifo_opt"}))
    mgr = test_harness_mgr("adder.xclbin", ["gr"], "vck190")
    assert mgr._s.graphs["gr"].model == "route"
    mgr.close()
    # the preset's board is checked by the route model itself
    monkeypatch.setenv("AIETH_GRAPH_MODELS", json.dumps({"gr": "@normalization_v2"}))
    with pytest.raises(TestHarnessException, match="but the board is vck190"):
        test_harness_mgr("adder.xclbin", ["gr"], "vck190")


def test_preset_content_is_checked(monkeypatch, tmp_path):
    (tmp_path / "cfg" / "graph-models").mkdir(parents=True)
    (tmp_path / "cfg" / "graph-models" / "extra.json").write_text(
        '{"model": "route", "params": {}, "colour": 1}')
    (tmp_path / "cfg" / "graph-models" / "broken.json").write_text('{"model": ')
    monkeypatch.setenv("AIETH_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("AIETH_GRAPH_MODELS", json.dumps({"gr": "@extra"}))
    with pytest.raises(TestHarnessException, match=r"extra.json: a preset is"):
        test_harness_mgr("adder.xclbin", ["gr"], "vck190")
    monkeypatch.setenv("AIETH_GRAPH_MODELS", json.dumps({"gr": "@broken"}))
    with pytest.raises(TestHarnessException, match=r"broken.json: "):
        test_harness_mgr("adder.xclbin", ["gr"], "vck190")
