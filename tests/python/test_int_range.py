# SPDX-License-Identifier: MIT
"""Integers handed to the library are range-checked first: ctypes wraps an
out-of-range int silently (Channel(delay=2**64) would become 0, a run of
2**63 iterations a negative count, read_rtp(port, 2**40) a 1 TiB buffer)."""

import ctypes
import time

import numpy as np
import pytest

import aieth
from aieth import _lib
from aieth._lib import IntRangeError, int_arg

U64_MAX = 2**64 - 1
I64_MAX = 2**63 - 1


def adder_session():
    return aieth.Session(board="vck190", backend="emu",
                         graphs=[aieth.Graph("gr", model="adder")])


def test_int_arg_limits_by_c_type():
    assert int_arg(U64_MAX, "x", ctypes.c_uint64) == U64_MAX
    assert int_arg(np.uint64(7), "x", ctypes.c_uint64) == 7
    assert int_arg(-2**63, "x", ctypes.c_int64) == -2**63
    with pytest.raises(OverflowError, match=r"^x: 18446744073709551616 exceeds the limit "
                       r"18446744073709551615$"):
        int_arg(2**64, "x", ctypes.c_uint64)
    with pytest.raises(ValueError, match=r"^x: -1 is below the minimum 0$"):
        int_arg(-1, "x", ctypes.c_uint32)
    with pytest.raises(ValueError, match="exceeds the limit 9"):
        int_arg(10, "x", ctypes.c_uint32, lo=1, hi=9)
    with pytest.raises(TypeError, match="bool"):
        int_arg(True, "x", ctypes.c_int)
    with pytest.raises(TypeError, match="not an integer"):
        int_arg(1.0, "x", ctypes.c_int)
    assert issubclass(IntRangeError, ValueError) and issubclass(IntRangeError, OverflowError)


@pytest.mark.parametrize("field,kw", [
    ("delay", {"delay": 2**64}),
    ("repetition", {"repetition": 2**64}),
    ("size", {"size": 2**64 + 16}),
])
def test_channel_fields_past_uint64(field, kw):
    with adder_session() as s:
        a = np.zeros(64, dtype=np.int32)
        ch = aieth.Channel("PLIO_01_TO_AIE", a, **kw)
        with pytest.raises(OverflowError, match=rf"channel 0 \(PLIO_01_TO_AIE\): {field}: "
                           rf"\d+ exceeds the limit {U64_MAX}"):
            s.submit("perf", [ch])
        with pytest.raises(ValueError, match=rf"{field}: -1 is below the minimum 0"):
            s.submit("perf", [aieth.Channel("PLIO_01_TO_AIE", a, **{field: -1})])


def test_graph_run_past_int64():
    with adder_session() as s:
        g = s.graph("gr")
        with pytest.raises(OverflowError, match=rf"graph gr: iterations .*: {2**63} exceeds "
                           rf"the limit {I64_MAX}"):
            g.run(2**63)
        with pytest.raises(ValueError, match="below the minimum 1"):
            g.run(0)
        g.run(I64_MAX)   # the largest count the library takes: accepted
        g.end()


def test_read_rtp_size_checked_before_allocating():
    with adder_session() as s:
        g = s.graph("gr")
        g.update_rtp("gr.k.in[1]", np.array([5], dtype=np.int32))
        t0 = time.monotonic()
        with pytest.raises(OverflowError, match=r"port gr.k.in\[1\]: size: 1099511627776 "
                           r"exceeds the limit 65536"):
            g.read_rtp("gr.k.in[1]", 2**40)
        assert time.monotonic() - t0 < 5   # no 1 TiB allocation attempted
        with pytest.raises(ValueError, match="below the minimum 1"):
            g.read_rtp("gr.k.in[1]", 0)
        assert len(g.read_rtp("gr.k.in[1]", 4)) == 4


def test_run_test_timeout_past_uint32(tmp_path):
    with pytest.raises(OverflowError, match=r"run_test: timeout \(ms\): \d+ exceeds the limit "
                       r"4294967295"):
        aieth.run_test([], tmp_path / "out", timeout=2**40)
    with pytest.raises(ValueError, match="not a finite number"):
        aieth.run_test([], tmp_path / "out", timeout=float("inf"))
    assert _lib.int_arg(4294967295, "t", ctypes.c_uint32) == 4294967295
