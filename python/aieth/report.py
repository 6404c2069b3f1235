# SPDX-License-Identifier: MIT
"""aieth.run_test: run test descriptions as run_test does, the report as a dict.

It calls the library (aieth_report_new / _run / _finish / _write_json), the
code run_test is a thin layer over, rather than the run_test program: no
program to find on PATH, the same library the rest of the package loaded,
and errors as exceptions. The program adds only its command line, progress
printing, signal handling and the output-folder lock.
"""

from __future__ import annotations

import ctypes
import json
import math
import os
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import _lib
from ._interrupt import interruptible
from .errors import check

PathLike = Union[str, "os.PathLike[str]"]


class Report(dict):
    """report.json as a dict (docs/report-schema.md), plus its exit code."""

    @property
    def exit_code(self) -> int:
        """The run's exit code: 0 pass, 1 fail, 2 input error, 3 device
        error, 4 skipped, 5 timeout (docs/user-guide.md)."""
        return int(self["run"]["exit_code"])

    @property
    def status(self) -> str:
        """The run's status: pass, fail, error, skip, timeout, interrupted."""
        return str(self["run"]["status"])


def sweep_texts(sweep: Union[str, Sequence[str], Mapping[str, Any]]) -> List[str]:
    """The sweep as run_test's --sweep texts ("AXIS=LIST"): a text or a list
    of them as given, a dict {axis: [values] or LIST text} written out (values
    comma-separated). The library parses and checks the lists."""
    if isinstance(sweep, str):
        items = [sweep]
    elif isinstance(sweep, Mapping):
        items = []
        for axis, vals in sweep.items():
            if not isinstance(axis, str) or not axis or "=" in axis:
                raise ValueError(f"run_test: sweep axis {axis!r} is not a name")
            if isinstance(vals, str):
                text = vals
            else:
                vs = [v.item() if hasattr(v, "item") else v for v in vals]
                for v in vs:
                    if isinstance(v, bool) or not isinstance(v, (int, float, str)) \
                            or (isinstance(v, str) and ("," in v or not v)):
                        raise ValueError(f"run_test: sweep {axis}: {v!r} is not a number or a word")
                text = ",".join(str(v) for v in vs)
            items.append(f"{axis}={text}")
    else:
        items = list(sweep)
    for t in items:
        if not isinstance(t, str) or "=" not in t or t.startswith("="):
            raise ValueError(f"run_test: sweep {t!r} is not AXIS=LIST")
    if not items:
        raise ValueError("run_test: sweep: no axis")
    return items


def _campaign_opts(o: Any, repeat: Optional[int], warmup: Optional[int],
                   sweep: Any, stop_on_fail: bool, zip_: bool) -> Any:
    """RunOpts version 3's fields; returns what must stay alive while the
    library reads them (the sweep texts)."""
    if repeat is not None:
        o.repeat_runs = _lib.int_arg(repeat, "run_test: repeat", _lib.c_uint32, lo=1)
    if warmup is not None:
        if repeat is None:
            raise ValueError("run_test: warmup needs repeat (as run_test --warmup needs --repeat)")
        o.repeat_warmup = _lib.int_arg(warmup, "run_test: warmup", _lib.c_uint32)
    keep = None
    if sweep is not None:
        texts = [_lib.enc(t) for t in sweep_texts(sweep)]
        keep = (ctypes.c_char_p * len(texts))(*texts)
        o.sweep = ctypes.cast(keep, ctypes.POINTER(ctypes.c_char_p))
        o.num_sweep = len(texts)
    elif zip_:
        raise ValueError("run_test: sweep_zip needs sweep (as run_test --sweep-zip needs --sweep)")
    o.sweep_stop_on_fail = 1 if stop_on_fail else 0
    o.sweep_zip = 1 if zip_ else 0
    return keep


def run_test(specs: Union[PathLike, Sequence[PathLike]], out: Optional[PathLike] = None, *,
             board: Optional[str] = None, backend: Optional[str] = None,
             server: Optional[str] = None, token: Optional[str] = None,
             cacert: Optional[str] = None, xclbin: Optional[str] = None,
             pl_xclbin: Optional[str] = None, xrt_ini: Optional[str] = None,
             timeout: Optional[float] = None, no_timeout: bool = False,
             data_dir: Optional[str] = None, emu_reference: bool = False,
             junit: bool = True, xclbin_warn_only: bool = False,
             repeat: Optional[int] = None, warmup: Optional[int] = None,
             sweep: Union[None, str, Sequence[str], Mapping[str, Any]] = None,
             sweep_stop_on_fail: bool = False, sweep_zip: bool = False,
             sensor_period: Optional[int] = None, no_sensors: bool = False,
             pinned_key: Optional[str] = None) -> Report:
    """Run one or more test descriptions (docs/test-spec.md), as run_test does.

    Args:
        specs: a description's path, or several (one test each).
        out: the output folder (created if missing; None: the current one):
            report.json, junit.xml, received data saved by relative "save"
            paths, and remote artifacts under out/artifacts/.
        board, backend, server, token, cacert, xclbin, pl_xclbin, xrt_ini:
            override the descriptions' values (as run_test's options do).
        pinned_key: remote: trust the https server by its public key
            ("sha256//BASE64", run_test --pinned-key).
        timeout: seconds for every transaction (None: each description's own).
        no_timeout: no transaction has a time limit.
        data_dir: board files (None: $AIETH_DATA_DIR or the installed data).
        emu_reference: emulated board: beat-by-beat reference mode.
        junit: also write out/junit.xml.
        xclbin_warn_only: a design xclbin that cannot be read or that
            th_package check refuses is a warning, not the test's input
            error (exit 2), as run_test --xclbin-warn-only.
        repeat, warmup: run each transaction warmup + repeat times in one
            session and report the statistics of the repeat measured runs
            (run_test --repeat N --warmup W; overrides the descriptions'
            "repeat"; None: keep theirs). warmup needs repeat.
        sweep: the points to run, as run_test --sweep: "AXIS=LIST", a list
            of them (a grid), or a dict {axis: [values] or LIST text}; each
            point becomes one test of the report (docs/test-spec.md).
        sweep_stop_on_fail: stop a sweep at its first failing point
            (run_test --sweep-stop-on-fail).
        sweep_zip: pair the sweep's lists (one length) instead of a grid
            (run_test --sweep-zip).
        sensor_period, no_sensors: sample the board's power and temperature
            sensors every sensor_period milliseconds (100..60000; None:
            1000) into each test's "sensors", or none (run_test
            --sensor-period MS, --no-sensors; docs/on-board.md).

    Returns:
        The report (Report, a dict; .exit_code as run_test would exit). Test
        failures, input and device errors are in the report, not raised.
        What a test noticed and went on with (with xclbin_warn_only, a
        design xclbin that cannot be read; each test's "warnings") is also a
        RuntimeWarning, as
        run_test prints it on stderr.

    Raises:
        Error: the report itself could not be made or written.
        KeyboardInterrupt: Ctrl-C stopped the run; report.json was written
            first (status "interrupted", exit code 130), as run_test does.
    """
    paths = [specs] if isinstance(specs, (str, os.PathLike)) else list(specs)
    out_dir = os.fspath(out) if out is not None else "."
    os.makedirs(out_dir, exist_ok=True)
    lib = _lib.lib()
    o = _lib.run_opts()
    if data_dir is None:
        data_dir = _lib.default_data_dir()
    o.board, o.backend, o.data_dir = _lib.enc(board), _lib.enc(backend), _lib.enc(data_dir)
    o.out_dir = _lib.enc(out_dir)
    if timeout is not None:
        if timeout <= 0:
            raise ValueError(f"run_test: timeout {timeout!r} is not positive (no_timeout=True: none)")
        if not math.isfinite(timeout):
            raise ValueError(f"run_test: timeout {timeout!r} is not a finite number of seconds")
        o.timeout_ms = _lib.int_arg(max(1, math.ceil(timeout * 1000)), "run_test: timeout (ms)",
                                    _lib.c_uint32)
    o.no_timeout = 1 if no_timeout else 0
    flag = ctypes.c_int(0)  # Ctrl-C: the run stops, recorded as interrupted (exit 130)
    o.interrupt = ctypes.pointer(flag)
    o.xclbin = _lib.enc(xclbin)
    o.xclbin_warn_only = 1 if xclbin_warn_only else 0
    # a remote session's files go to out/artifacts, as run_test's (the
    # local backends have none)
    _lib.backend_opts(o, emu_reference, pl_xclbin,
                      {"server": server, "token": token, "cacert": cacert,
                       "pinned_key": pinned_key, "xrt_ini": xrt_ini,
                       "artifacts_dir": os.path.join(out_dir, "artifacts")})
    keep_sweep = _campaign_opts(o, repeat, warmup, sweep, sweep_stop_on_fail, sweep_zip)
    if sensor_period is not None:
        o.sensor_period_ms = _lib.int_arg(sensor_period, "run_test: sensor_period (ms)",
                                          _lib.c_uint32, lo=100, hi=60000)
    o.no_sensors = 1 if no_sensors else 0
    argv = ["aieth.run_test"] + [os.fspath(p) for p in paths]
    c_argv = (ctypes.c_char_p * len(argv))(*[_lib.enc(a) for a in argv])
    r = ctypes.c_void_p()
    check(lib.aieth_report_new(ctypes.byref(r), b"aieth.run_test", len(argv), c_argv))
    try:
        interrupted = False
        for p in paths:
            try:
                interruptible(lambda: check(lib.aieth_report_run(r, _lib.enc(os.fspath(p)),
                                                                 ctypes.byref(o))), flag)
            except KeyboardInterrupt:
                # the library recorded the test as interrupted; the report
                # is written before the KeyboardInterrupt goes on
                interrupted = True
                break
        check(lib.aieth_report_finish(r))
        report_path = os.path.join(out_dir, "report.json")
        check(lib.aieth_report_write_json(r, _lib.enc(report_path)))
        if junit:
            check(lib.aieth_report_write_junit(r, _lib.enc(os.path.join(out_dir, "junit.xml"))))
    finally:
        lib.aieth_report_free(r)
    del keep_sweep  # the texts the library read during the runs
    if interrupted:
        raise KeyboardInterrupt
    with open(report_path, encoding="utf-8") as f:
        data: Dict[str, Any] = json.load(f)
    for t in data.get("tests", []):
        for w in t.get("warnings", []):
            warnings.warn(f"{t.get('name', '?')}: {w}", RuntimeWarning, stacklevel=2)
    return Report(data)
