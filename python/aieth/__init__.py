# SPDX-License-Identifier: MIT
"""aieth: AI Engine graph tests on Versal boards, from Python.

A pure-Python package over libaieth (ctypes): sessions on the emulated
board, a board through XRT or a device behind th_server; graph control;
PL DMA transactions with numpy arrays used in place; per-channel results;
and run_test's test descriptions with their report (docs/python.md).
aieth.compat offers AMD's Python wrapper names; aieth.pytest_plugin is a
pytest plugin (both imported on demand).

The library is found through $AIETH_LIB, then a source checkout's
build/lib/, then the prefix the package is installed under, then the
dynamic loader's search path.
"""

from __future__ import annotations

from . import _lib
from .errors import (DeviceError, Error, FileError, InvalidError, NoMemoryError, NotFoundError,
                     ParseError, StateError, UnsupportedError, WaitTimeoutError)
from .report import Report, run_test
from .session import Channel, ChannelResult, Graph, GraphHandle, Session, Transaction
from .campaign import RepeatResult, SweepResult
from .stats import Stats
from .stats import points as sweep_points
from .stats import stats as statistics

# The library's version (aieth/version.h), which this package is written
# for: tests/python/test_version.py checks that they are equal, and
# pyproject.toml reads it from here.
__version__ = "0.3.0"

__all__ = [
    "Channel", "ChannelResult", "DeviceError", "Error", "FileError", "Graph", "GraphHandle",
    "InvalidError", "NoMemoryError", "NotFoundError", "ParseError", "RepeatResult", "Report",
    "Session", "StateError", "Stats", "SweepResult", "Transaction", "UnsupportedError",
    "WaitTimeoutError", "library_path", "library_version", "run_test", "statistics",
    "sweep_points",
]


def library_version() -> str:
    """The loaded libaieth's version, e.g. "0.3.0"."""
    return _lib.dec(_lib.lib().aieth_version())


def library_path() -> str:
    """Where libaieth was loaded from (a path, or the soname when the
    dynamic loader found it)."""
    return _lib.lib_path()
