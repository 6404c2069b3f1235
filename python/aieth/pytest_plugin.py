# SPDX-License-Identifier: MIT
"""pytest plugin: aieth sessions and run_test in a pytest suite.

Enable it with ``pytest -p aieth.pytest_plugin`` or ``pytest_plugins =
["aieth.pytest_plugin"]`` in a conftest.py (a pip install registers it
itself through the pytest11 entry point). Options::

    --aieth-backend emu|xrt|remote   (default $AIETH_BACKEND, else emu)
    --aieth-server URL               remote: th_server (default $AIETH_SERVER)
    --aieth-cacert FILE              remote: the CA bundle for https (default
                                     $AIETH_CACERT, else $CURL_CA_BUNDLE, else
                                     $SSL_CERT_FILE, else the system's)
    --aieth-board NAME               the board of the run (default $AIETH_BOARD, else vck190)
    --aieth-out DIR                  each test's report.json, junit.xml and saved
                                     data under DIR/<test>/ (default: the test's tmp_path)

Fixtures: ``aieth_config`` (the options), ``aieth_session`` (a factory: a
Session per call on the run's backend and board, closed after the test),
``aieth_run_test`` (aieth.run_test with the run's backend, server and board,
writing into the test's output folder; the report's path is recorded as the
test's ``aieth_report`` property, which pytest's --junitxml keeps).
Marker: ``@pytest.mark.aieth_board("vek280", ...)`` skips the test unless
the run's board is one of those named.

Sweeps: ``@pytest.mark.aieth_sweep("size=4096..65536*2", "delay=0,100",
zip=False)`` (or a dict {axis: values}) parametrizes the test's
``aieth_point`` argument over the sweep's points, one test each, with ids
``size=4096,delay=0`` as run_test names sweep points; ``sweep_params(...)``
gives the same as pytest.param objects for ``@pytest.mark.parametrize``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, List, Optional

import pytest

from . import _lib
from .report import Report, run_test
from .session import Session
from .stats import point_name, points


@dataclass(frozen=True)
class AiethConfig:
    """The run's settings from the command line or the environment.

    Attributes:
        backend: "emu", "xrt" or "remote".
        server: remote: th_server's URL (None elsewhere or unset).
        token: remote: the bearer token ($AIETH_TOKEN), or None.
        cacert: remote: --aieth-cacert, or None (then the library reads
            $AIETH_CACERT, $CURL_CA_BUNDLE, $SSL_CERT_FILE, else the system's).
        board: the run's board.
        board_given: True when --aieth-board or $AIETH_BOARD named it (then
            run_test overrides the descriptions' boards with it).
        out: --aieth-out, or None (each test's tmp_path).
    """

    backend: str
    server: Optional[str]
    token: Optional[str]
    cacert: Optional[str]
    board: str
    board_given: bool
    out: Optional[Path]


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("aieth", "aieth: AIE graph tests")
    g.addoption("--aieth-backend", default=None,
                help="device backend (default $AIETH_BACKEND, else emu)")
    g.addoption("--aieth-server", default=None, metavar="URL",
                help="remote: th_server's URL (default $AIETH_SERVER)")
    g.addoption("--aieth-cacert", default=None, metavar="FILE",
                help="remote: CA bundle for https (default $AIETH_CACERT, else "
                     "$CURL_CA_BUNDLE, else $SSL_CERT_FILE, else the system's)")
    g.addoption("--aieth-board", default=None, metavar="NAME",
                help="the run's board (default $AIETH_BOARD, else vck190)")
    g.addoption("--aieth-out", default=None, metavar="DIR",
                help="each test's report.json etc. under DIR/<test>/ (default: its tmp_path)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "aieth_board(*names): run only when the run's board (--aieth-board) "
        "is one of names; skip elsewhere")
    config.addinivalue_line(
        "markers", "aieth_sweep(*axes, zip=False): run the test once per point of the "
        "sweep (AXIS=LIST texts as run_test --sweep takes them, or a dict), the point's "
        "values in its aieth_point argument")
    backend = config.getoption("--aieth-backend") or os.environ.get("AIETH_BACKEND") or "emu"
    known = _lib.backends()
    if backend not in known:
        raise pytest.UsageError(f"backend {backend!r} (--aieth-backend or $AIETH_BACKEND) "
                                f"is not one of the library's: {', '.join(known)}")
    board = config.getoption("--aieth-board") or os.environ.get("AIETH_BOARD")
    server = config.getoption("--aieth-server") or os.environ.get("AIETH_SERVER")
    if backend == "remote" and not server:
        raise pytest.UsageError("--aieth-backend remote needs --aieth-server URL (or $AIETH_SERVER)")
    cacert = config.getoption("--aieth-cacert")
    if cacert and not (os.path.isfile(cacert) and os.access(cacert, os.R_OK)):
        raise pytest.UsageError(f"--aieth-cacert {cacert}: the CA bundle cannot be read "
                                "(name a readable PEM file of CA certificates)")
    out = config.getoption("--aieth-out")
    config.stash[_KEY] = AiethConfig(backend=backend, server=server,
                                     token=os.environ.get("AIETH_TOKEN"), cacert=cacert,
                                     board=board or "vck190", board_given=bool(board),
                                     out=Path(out).resolve() if out else None)


_KEY = pytest.StashKey[AiethConfig]()


def pytest_report_header(config: pytest.Config) -> str:
    c = config.stash[_KEY]
    where = f", server {c.server}" if c.backend == "remote" else ""
    return f"aieth: backend {c.backend}, board {c.board}{where}"


def pytest_collection_modifyitems(config: pytest.Config, items: List[pytest.Item]) -> None:
    board = config.stash[_KEY].board
    for item in items:
        for mark in item.iter_markers("aieth_board"):
            if board not in mark.args:
                item.add_marker(pytest.mark.skip(
                    reason=f"needs board {' or '.join(mark.args)}; this run is on {board} "
                           "(--aieth-board)"))


def sweep_params(*axes: Any, zip: bool = False) -> List[Any]:
    """The points of a sweep as pytest.param objects, for
    ``@pytest.mark.parametrize("point", sweep_params("size=4096,8192"))``:
    each a dict {axis: value} with the id "axis=value,..." (as run_test
    names a sweep point). axes: "AXIS=LIST" texts (run_test --sweep's
    syntax: "4096..65536*2", "0..300+100", "a,b"), or one dict {axis:
    values or LIST text}; zip pairs the lists instead of a grid. More than
    100000 points is refused."""
    if len(axes) == 1 and not isinstance(axes[0], str):
        spec = axes[0]
    else:
        spec = list(axes)
    return [pytest.param(p, id=point_name(p)) for p in points(spec, zip=zip)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marks = list(metafunc.definition.iter_markers("aieth_sweep"))
    if not marks:
        return
    if len(marks) > 1:
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: one aieth_sweep marker, "
                                f"{len(marks)} given")
    if "aieth_point" not in metafunc.fixturenames:
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: aieth_sweep needs an "
                                "aieth_point argument (the point's values)")
    m = marks[0]
    try:
        params = sweep_params(*m.args, **m.kwargs)
    except (TypeError, ValueError) as e:
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: aieth_sweep: {e}") from None
    metafunc.parametrize("aieth_point", [p.values[0] for p in params],
                         ids=[p.id for p in params])


@pytest.fixture(scope="session")
def aieth_config(pytestconfig: pytest.Config) -> AiethConfig:
    """The run's backend, server, board and output folder."""
    return pytestconfig.stash[_KEY]


@pytest.fixture
def aieth_session(aieth_config: AiethConfig) -> Iterator[Callable[..., Session]]:
    """A factory: aieth_session(graphs=[...], **kw) opens a Session on the
    run's backend, server and board (keywords override them); every session
    it opened is closed after the test."""
    opened: List[Session] = []

    def open_session(**kw: Any) -> Session:
        kw.setdefault("board", aieth_config.board)
        kw.setdefault("backend", aieth_config.backend)
        if kw["backend"] == "remote":
            kw.setdefault("server", aieth_config.server)
            kw.setdefault("token", aieth_config.token)
            kw.setdefault("cacert", aieth_config.cacert)
        s = Session(**kw)
        opened.append(s)
        return s

    yield open_session
    for s in opened:
        s.close()


def _test_dir(node_id: str) -> str:
    """A folder name for a test id (path separators, brackets, ...)."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", node_id).strip("_")[:200]


@pytest.fixture
def aieth_run_test(request: pytest.FixtureRequest, aieth_config: AiethConfig,
                   tmp_path: Path) -> Callable[..., Report]:
    """aieth_run_test(spec, **kw): aieth.run_test with the run's backend,
    server and board (the board only when --aieth-board gave one), writing
    report.json and junit.xml into the test's output folder; keywords
    override. The report's path becomes the test's "aieth_report" property."""

    def run(spec: Any, **kw: Any) -> Report:
        out = aieth_config.out / _test_dir(request.node.nodeid) if aieth_config.out else tmp_path
        kw.setdefault("backend", aieth_config.backend)
        if aieth_config.board_given:
            kw.setdefault("board", aieth_config.board)
        if kw["backend"] == "remote":
            kw.setdefault("server", aieth_config.server)
            kw.setdefault("token", aieth_config.token)
            kw.setdefault("cacert", aieth_config.cacert)
        report = run_test(spec, out=out, **kw)
        request.node.user_properties.append(("aieth_report", str(out / "report.json")))
        return report

    return run
