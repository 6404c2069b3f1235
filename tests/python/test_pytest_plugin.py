# SPDX-License-Identifier: MIT
"""The pytest plugin (aieth.pytest_plugin), run with pytester."""

import json
import xml.etree.ElementTree as ET

import pytest

SUITE = '''
import numpy as np, pytest, aieth

def test_session(aieth_session, aieth_config):
    s = aieth_session(graphs=[aieth.Graph("g", model="loopback")])
    assert s.backend == aieth_config.backend == "emu"
    s.graph("g").run()
    a = np.arange(256, dtype=np.int32); out = np.zeros_like(a)
    t = s.submit("func", [aieth.Channel("PLIO_01_TO_AIE", a), aieth.Channel("PLIO_01_FROM_AIE", out)])
    assert t.wait(5) == "done" and (out == a).all()

def test_example(aieth_run_test):
    r = aieth_run_test({spec!r})
    assert r.exit_code == 0, r["tests"][0]["error"]

@pytest.mark.aieth_board("vek280")
def test_vek280_only(aieth_session):
    assert aieth_session(graphs=[]).backend == "emu"
'''


@pytest.fixture
def suite(pytester, src):
    pytester.makepyfile(test_suite=SUITE.format(spec=str(src / "examples/adder_perf/test.json")))
    return pytester


def test_defaults_skip_marked_board(suite):
    r = suite.runpytest("-p", "aieth.pytest_plugin", "-rs")
    r.assert_outcomes(passed=2, skipped=1)
    r.stdout.fnmatch_lines(["aieth: backend emu, board vck190",
                            "*needs board vek280; this run is on vck190 (--aieth-board)*"])


def test_board_option_runs_marked_test(suite):
    # the description's board is overridden too: adder_perf runs on vek280
    r = suite.runpytest("-p", "aieth.pytest_plugin", "--aieth-board", "vek280")
    r.assert_outcomes(passed=3)


def test_reports_under_out_and_junit(suite, tmp_path):
    out = tmp_path / "aieth-out"
    junit = tmp_path / "junit.xml"
    r = suite.runpytest("-p", "aieth.pytest_plugin", "--aieth-out", str(out),
                        f"--junitxml={junit}")
    r.assert_outcomes(passed=2, skipped=1)
    reports = list(out.glob("*/report.json"))
    assert len(reports) == 1 and "test_example" in reports[0].parent.name
    assert json.loads(reports[0].read_text())["run"]["exit_code"] == 0
    props = [p.attrib for p in ET.parse(junit).iter("property")]
    assert {"name": "aieth_report", "value": str(reports[0])} in props


def test_remote_needs_server(suite, monkeypatch):
    monkeypatch.delenv("AIETH_SERVER", raising=False)
    r = suite.runpytest("-p", "aieth.pytest_plugin", "--aieth-backend", "remote")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["*--aieth-backend remote needs --aieth-server URL*"])


def test_unknown_backend_lists_the_table(suite):
    r = suite.runpytest("-p", "aieth.pytest_plugin", "--aieth-backend", "nope")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["*backend 'nope'*is not one of the library's: emu, xrt, remote*"])


def test_remote_unreachable_fails_the_tests(suite, closed_port):
    r = suite.runpytest("-p", "aieth.pytest_plugin", "--aieth-backend", "remote",
                        "--aieth-server", f"http://127.0.0.1:{closed_port}")
    # the session fails to open (DeviceError); run_test reports exit 3
    r.assert_outcomes(failed=2, skipped=1)
    r.stdout.fnmatch_lines(["*DeviceError*"])
