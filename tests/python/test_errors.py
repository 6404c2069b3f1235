# SPDX-License-Identifier: MIT
"""Error cases: each raises an aieth.Error (or ValueError for an array
that cannot be used) whose message names what is wrong."""

import numpy as np
import pytest

import aieth


@pytest.fixture
def loop():
    s = aieth.Session(board="vck190", graphs=[aieth.Graph("g", model="loopback")])
    s.graph("g").run()
    yield s
    s.close()


def test_wrong_dtype_size(loop):
    a = np.zeros(5, dtype=np.int32)  # 20 bytes: not whole 128-bit beats
    with pytest.raises(ValueError, match=r"PLIO_01_TO_AIE.*dtype int32, 20 bytes.*multiple of 16"):
        loop.submit("func", [aieth.Channel("PLIO_01_TO_AIE", a)])


def test_size_beyond_array(loop):
    a = np.zeros(8, dtype=np.int16)  # 16 bytes
    with pytest.raises(ValueError, match=r"size 32 bytes exceeds .*16 bytes"):
        loop.submit("func", [aieth.Channel("PLIO_01_TO_AIE", a, size=32)])


def test_not_contiguous_and_read_only(loop):
    a = np.zeros((8, 8), dtype=np.int32)
    with pytest.raises(ValueError, match="not C-contiguous"):
        loop.submit("func", [aieth.Channel("PLIO_01_TO_AIE", a[:, ::2])])
    ro = np.zeros(16, dtype=np.int32); ro.setflags(write=False)
    with pytest.raises(ValueError, match="must be writable"):
        loop.submit("func", [aieth.Channel("PLIO_01_FROM_AIE", ro)])


def test_unknown_plio(loop):
    a = np.zeros(16, dtype=np.int32)
    with pytest.raises(aieth.Error) as e:
        loop.submit("func", [aieth.Channel("PLIO_99_TO_AIE", a)])
    assert "PLIO_99_TO_AIE" in e.value.message
    assert e.value.code < 0 and e.value.name.startswith("AIETH_E")


def test_unknown_board_and_model():
    with pytest.raises(aieth.NotFoundError):
        aieth.Session(board="no_such_board")
    with pytest.raises(aieth.Error, match="no_such_model"):
        aieth.Session(board="vck190", graphs=[aieth.Graph("g", model="no_such_model")])


def test_closed_session():
    s = aieth.Session(board="vck190", graphs=[aieth.Graph("g", model="loopback")])
    g = s.graph("g")
    g.run()
    a = np.zeros(16, dtype=np.int32)
    t = s.submit("func", [aieth.Channel("PLIO_01_TO_AIE", a),
                          aieth.Channel("PLIO_01_FROM_AIE", np.empty_like(a))])
    s.close()
    s.close()  # twice does nothing
    assert s.closed
    for call in (lambda: s.submit("func", [aieth.Channel("PLIO_01_TO_AIE", a)]),
                 lambda: g.end(), lambda: t.wait(1), lambda: t.results, lambda: s.backend):
        with pytest.raises(aieth.InvalidError, match="closed"):
            call()


def test_hang_gives_timeout_status():
    """A graph that runs too few iterations: the RX channel never fills."""
    with aieth.Session(board="vck190", graphs=[aieth.Graph("gr", model="adder",
                                                           params={"window_bytes": 128})]) as s:
        s.graph("gr").run(iterations=8)
        a = np.zeros(1024, dtype=np.int32); out = np.empty_like(a)
        t = s.submit("perf", [aieth.Channel("PLIO_01_TO_AIE", a),
                              aieth.Channel("PLIO_02_TO_AIE", a),
                              aieth.Channel("PLIO_01_FROM_AIE", out)])
        assert t.wait(timeout=2.0) == "timeout"
        assert t.status == "timeout" and not t.valid and t.message
        rx = t.result("PLIO_01_FROM_AIE")
        assert not rx.finished and rx.bytes_moved < rx.bytes_expected
        with pytest.raises(aieth.Error):
            t.delay_between("PLIO_01_TO_AIE", "PLIO_01_FROM_AIE")


def test_pending_results_are_state_error(loop):
    a = np.zeros(16, dtype=np.int32)
    t = loop.submit("func", [aieth.Channel("PLIO_01_TO_AIE", a),
                             aieth.Channel("PLIO_01_FROM_AIE", np.empty_like(a))])
    with pytest.raises(aieth.StateError):
        t.results


def test_remote_server_unreachable(closed_port):
    with pytest.raises(aieth.DeviceError) as e:
        aieth.Session(board="vck190", backend="remote", server=f"http://127.0.0.1:{closed_port}",
                      graphs=[aieth.Graph("g", model="loopback")])
    assert str(closed_port) in e.value.message


def test_bad_arguments(loop):
    with pytest.raises(ValueError, match="mode"):
        loop.submit("fast", [])
    with pytest.raises(ValueError, match="timeout"):
        loop.graph("g").wait(timeout=-1)
    with pytest.raises(TypeError):
        loop.submit("perf", ["PLIO_01_TO_AIE"])


def test_arrays_without_data_bytes(loop):
    with pytest.raises(TypeError, match="Python objects"):
        loop.submit("func", [aieth.Channel("PLIO_01_TO_AIE", np.array([None] * 16, dtype=object))])
    with pytest.raises(TypeError, match="not an array or buffer"):
        loop.submit("func", [aieth.Channel("PLIO_01_TO_AIE", [1, 2, 3, 4])])


def test_buffers_and_datetime(loop):
    """Not only numpy: a bytearray destination, bytes as TX; numpy dtypes the
    buffer protocol refuses (datetime64) still go through by their bytes."""
    tx = bytes(range(64))
    rx = bytearray(64)
    t = loop.submit("func", [aieth.Channel("PLIO_01_TO_AIE", tx),
                             aieth.Channel("PLIO_01_FROM_AIE", rx)])
    assert t.wait(5) == "done" and bytes(rx) == tx
    d = np.arange(8).astype("datetime64[s]"); out = np.zeros_like(d)
    t = loop.submit("func", [aieth.Channel("PLIO_02_TO_AIE", d),
                             aieth.Channel("PLIO_02_FROM_AIE", out)])
    assert t.wait(5) == "done" and (out == d).all()
