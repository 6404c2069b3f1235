# SPDX-License-Identifier: MIT
"""Sessions, graphs and transactions through the Python package."""

import numpy as np
import pytest

import aieth


def adder_session(**kw):
    return aieth.Session(board="vck190", backend="emu",
                         graphs=[aieth.Graph("gr", model="adder", params=kw or None)])


def test_issue_example():
    """The loopback example, checked: data, counters, latency."""
    with adder_session() as s:
        a = np.arange(4096, dtype=np.int32); b = a.copy(); out = np.empty_like(a)
        s.graph("gr").run()
        t = s.submit("perf", [aieth.Channel("PLIO_01_TO_AIE", a, repetition=4),
                              aieth.Channel("PLIO_02_TO_AIE", b, repetition=4),
                              aieth.Channel("PLIO_01_FROM_AIE", out, repetition=4)])
        assert t.wait(timeout=5.0) == "done"
        assert t.valid and t.message == ""
        res = t.results
        assert [r.plio for r in res] == ["PLIO_01_TO_AIE", "PLIO_02_TO_AIE", "PLIO_01_FROM_AIE"]
        for r in res:
            assert r.finished and r.valid
            assert r.bytes_expected == r.bytes_moved == 4 * a.nbytes
            assert r.cycles == r.last - r.first > 0
            assert r.throughput_MBps > 0
        assert res[2].direction == "from_aie" and res[0].direction == "to_aie"
        assert t.delay_between("PLIO_01_TO_AIE", "PLIO_01_FROM_AIE") == res[2].first - res[0].first
        # RX written in place, into the caller's array
        np.testing.assert_array_equal(out, a + b)
        assert t.result("PLIO_01_FROM_AIE") == res[2]


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.float32, np.int64,
                                   np.complex64])
def test_any_dtype_in_place(dtype):
    """Any C-contiguous dtype: the bytes go through unchanged (loopback)."""
    with aieth.Session(board="vck190", graphs=[aieth.Graph("g", model="loopback")]) as s:
        s.graph("g").run()
        a = (np.arange(512) % 97).astype(dtype).reshape(16, -1)
        out = np.zeros_like(a)
        t = s.submit("func", [aieth.Channel("PLIO_01_TO_AIE", a),
                              aieth.Channel("PLIO_01_FROM_AIE", out)])
        assert t.wait(5) == "done"
        assert out.tobytes() == a.tobytes()


def test_func_tx_read_in_place():
    """FUNC TX data is read while the wait runs: no copy was made at submit."""
    with aieth.Session(board="vck190", graphs=[aieth.Graph("g", model="loopback")]) as s:
        s.graph("g").run()
        a = np.zeros(1024, dtype=np.int32)
        out = np.empty_like(a)
        t = s.submit("func", [aieth.Channel("PLIO_01_TO_AIE", a),
                              aieth.Channel("PLIO_01_FROM_AIE", out)])
        a[:] = 7  # changed after submit, before the wait
        assert t.wait(5) == "done"
        assert (out == 7).all()


def test_bounded_graph_run_and_iterations():
    with adder_session(window_bytes=128) as s:
        g = s.graph("gr")
        g.run(iterations=128)
        a = np.arange(4096, dtype=np.int32); out = np.empty_like(a)
        t = s.submit("perf", [aieth.Channel("PLIO_01_TO_AIE", a),
                              aieth.Channel("PLIO_02_TO_AIE", a),
                              aieth.Channel("PLIO_01_FROM_AIE", out)])
        assert t.wait(5) == "done"
        g.wait(timeout=5)
        assert g.iterations_done == 128
        g.end()
        with pytest.raises(aieth.StateError) as e:
            g.run()
        assert e.value.name == "AIETH_ESTATE" and e.value.code == -6


def test_rtp_round_trip():
    with adder_session() as s:
        v = np.array([5], dtype=np.int32)
        s.graph("gr").update_rtp("gr.k.in[1]", v)
        assert np.frombuffer(s.graph("gr").read_rtp("gr.k.in[1]", 4), np.int32)[0] == 5


def test_ctrl_c_stops_a_wait(ctrl_c):
    """SIGINT during a long wait (reference mode, ~30 s of work): the device
    stops, the transaction is interrupted, KeyboardInterrupt follows."""
    import time
    with aieth.Session(board="vck190", graphs=[aieth.Graph("g", model="loopback")],
                       emu_reference=True) as s:
        s.graph("g").run()
        a = np.zeros(65536, dtype=np.uint8); o = np.zeros_like(a)
        t = s.submit("perf", [aieth.Channel("PLIO_01_TO_AIE", a, repetition=1 << 18),
                              aieth.Channel("PLIO_01_FROM_AIE", o, repetition=1 << 18)])
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            timer = ctrl_c()
            t.wait()
        timer.join()
        assert t.status == "interrupted"
        assert time.monotonic() - start < 20
