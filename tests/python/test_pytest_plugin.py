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


def _no_ca_env(monkeypatch):
    for v in ("AIETH_CACERT", "CURL_CA_BUNDLE", "SSL_CERT_FILE"):
        monkeypatch.delenv(v, raising=False)


def test_remote_https_lab_ca(suite, th_server_tls, monkeypatch):
    """A th_server with a lab CA's certificate: --aieth-cacert or
    $AIETH_CACERT trusts it; without either, the tests fail naming the CA
    problem and its fix."""
    url, ca = th_server_tls
    _no_ca_env(monkeypatch)
    common = ("-p", "aieth.pytest_plugin", "--aieth-backend", "remote", "--aieth-server", url,
              "-k", "not session")  # test_session asserts the emu backend
    r = suite.runpytest(*common, "--aieth-cacert", ca)
    r.assert_outcomes(passed=1, skipped=1, deselected=1)
    monkeypatch.setenv("AIETH_CACERT", ca)
    r = suite.runpytest(*common)
    r.assert_outcomes(passed=1, skipped=1, deselected=1)
    monkeypatch.delenv("AIETH_CACERT")
    r = suite.runpytest(*common, "-vv")  # the message whole
    r.assert_outcomes(failed=1, skipped=1, deselected=1)
    r.stdout.fnmatch_lines(["*not signed by a CA this client trusts (the system's CA bundle); "
                            "give the lab CA's certificate with --cacert FILE or "
                            "AIETH_CACERT=FILE*"])


def test_cacert_unreadable_is_a_usage_error(suite, tmp_path):
    r = suite.runpytest("-p", "aieth.pytest_plugin", "--aieth-cacert", str(tmp_path / "none.pem"))
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines([f"*--aieth-cacert {tmp_path / 'none.pem'}: the CA bundle cannot be "
                            "read*"])


def test_session_reads_aieth_cacert(th_server_tls, monkeypatch, tmp_path):
    """The Python package gets the library's rule: Session(cacert=None)
    trusts $AIETH_CACERT; a bundle that cannot be read is an InvalidError
    naming the variable, before any connection."""
    import aieth
    url, ca = th_server_tls
    _no_ca_env(monkeypatch)
    monkeypatch.setenv("AIETH_CACERT", ca)
    with aieth.Session("vck190", backend="remote", server=url) as s:
        assert s.backend == "remote"
    monkeypatch.setenv("AIETH_CACERT", str(tmp_path / "none.pem"))
    with pytest.raises(aieth.InvalidError) as e:
        aieth.Session("vck190", backend="remote", server=url)
    assert f"AIETH_CACERT={tmp_path / 'none.pem'}: the CA bundle cannot be read" in str(e.value)
