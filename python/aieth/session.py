# SPDX-License-Identifier: MIT
"""Sessions, graphs and transactions over libaieth (aieth/session.h,
aieth/graph.h, aieth/txn.h).

Arrays are passed to the library by address: TX data is read in place and
RX data written in place, so an array must stay alive and TX data unchanged
until the transaction's wait returned (the Transaction keeps a reference).
"""

from __future__ import annotations

import ctypes
import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Union

from . import _lib
from ._interrupt import interruptible
from .errors import InvalidError, check

if TYPE_CHECKING:  # pragma: no cover
    from .campaign import RepeatResult, SweepResult

Params = Union[None, str, Dict[str, Any]]

# Limits of the C API (aieth/txn.h, aieth/graph.h), checked here too for
# clear messages.
MAX_REPETITION = 4294967295
_MAX_TIMEOUT_MS = 4294967295
MAX_RTP_BYTES = 65536


def _timeout_ms(timeout: Optional[float], what: str) -> int:
    """Seconds (None: no limit) as the library's milliseconds (0: no limit)."""
    if timeout is None:
        return 0
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) \
            or not math.isfinite(timeout) or timeout <= 0:
        raise ValueError(f"{what}: timeout {timeout!r} is not a positive number of "
                         "seconds (None: no limit)")
    ms = max(1, math.ceil(timeout * 1000))
    if ms > _MAX_TIMEOUT_MS:
        raise ValueError(f"{what}: timeout {timeout} s exceeds {_MAX_TIMEOUT_MS} ms")
    return ms


def _closed(what: str) -> InvalidError:
    # The library's own code for a dead handle (docs/api.md, "Handles and
    # threads"); Python never passes a closed handle down: its memory may
    # belong to a new handle by now.
    return InvalidError(-1, "AIETH_EINVAL", f"{what}: the session is closed")


@dataclass(frozen=True)
class Graph:
    """One AIE graph of the design.

    Args:
        name: the graph's name, e.g. "gr".
        model: emulated board only: the graph model, "loopback", "adder" or
            the path of a plugin (docs/graph-models.md). Other backends ignore it.
        params: emulated board only: the model's parameters, a dict (sent as
            JSON) or a JSON object text.
    """

    name: str
    model: Optional[str] = None
    params: Params = None


class Channel:
    """One PL DMA channel of a transaction.

    Args:
        plio: the PLIO's name, e.g. "PLIO_01_TO_AIE".
        array: the data: for a TO_AIE channel the bytes sent (read in place),
            for a FROM_AIE channel the destination (written in place). A
            C-contiguous numpy array of any dtype, or any buffer (bytes only
            for TO_AIE). None: TO_AIE sends zeros, FROM_AIE discards.
        repetition: how often the data is replayed (PERF; 1 in FUNC).
        delay: board cycles to wait before the channel starts.
        size: bytes per repetition; default: the array's nbytes. It may be
            less than nbytes (the first size bytes are used), never more.
    """

    def __init__(self, plio: str, array: Any = None, repetition: int = 1, delay: int = 0,
                 size: Optional[int] = None) -> None:
        self.plio = plio
        self.array = array
        self.repetition = repetition
        self.delay = delay
        self.size = size

    def __repr__(self) -> str:
        return (f"Channel({self.plio!r}, repetition={self.repetition}, delay={self.delay}, "
                f"size={self.size})")

    def _c_args(self, position: int) -> "tuple[_lib.ChannelArgs, Any]":
        """The C arguments and the object that must stay alive for them."""
        what = f"channel {position} ({self.plio})"
        # the C fields are uint64_t: ctypes would wrap 2**64 to 0
        repetition = _lib.int_arg(self.repetition, f"{what}: repetition", _lib.c_uint64)
        delay = _lib.int_arg(self.delay, f"{what}: delay", _lib.c_uint64)
        if self.size is not None:
            _lib.int_arg(self.size, f"{what}: size", _lib.c_uint64)
        address, nbytes, keep = _buffer(self.array, self.plio, what)
        size = nbytes if self.size is None else int(self.size)
        if self.array is not None and size > nbytes:
            raise ValueError(f"{what}: size {size} bytes exceeds the array's {_describe(self.array)}"
                             f" ({nbytes} bytes)")
        if self.array is None and self.size is None:
            raise ValueError(f"{what}: no array and no size: give one of them")
        if size % 16 != 0 or size == 0:
            raise ValueError(f"{what}: {size} bytes per repetition"
                             f"{' (' + _describe(self.array) + ')' if self.array is not None else ''}"
                             " is not a positive multiple of 16 (one 128-bit beat)")
        args = _lib.ChannelArgs(_lib.enc(self.plio), size, repetition, delay, address)
        return args, keep


def _describe(array: Any) -> str:
    shape = getattr(array, "shape", None)
    dtype = getattr(array, "dtype", None)
    if shape is not None and dtype is not None:
        return f"array of shape {tuple(shape)} dtype {dtype}, {array.nbytes} bytes"
    return f"{type(array).__name__} of {nbytes_of(array)} bytes"


def nbytes_of(array: Any) -> int:
    """The bytes of an array or buffer (numpy's nbytes, else the buffer's)."""
    n = getattr(array, "nbytes", None)
    return int(n) if isinstance(n, int) else memoryview(array).nbytes


def _buffer(array: Any, plio: str, what: str) -> "tuple[Optional[int], int, Any]":
    """(address, nbytes, object to keep alive) of a channel's data, no copy."""
    if array is None:
        return None, 0, None
    rx = plio.upper().endswith("_FROM_AIE")
    iface = getattr(array, "__array_interface__", None)
    flags = getattr(array, "flags", None)
    if iface is not None and flags is not None:
        # a numpy array: its own flags (the buffer protocol refuses some
        # dtypes, e.g. datetime64)
        if getattr(getattr(array, "dtype", None), "hasobject", False):
            raise TypeError(f"{what}: an array of Python objects has no data bytes")
        if not flags.c_contiguous:
            raise ValueError(f"{what}: the array is not C-contiguous (use numpy.ascontiguousarray;"
                             " a copy would not receive data in place)")
        if rx and not flags.writeable:
            raise ValueError(f"{what}: a FROM_AIE destination must be writable")
        nbytes = int(array.nbytes)
        return (int(iface["data"][0]) if nbytes else None), nbytes, array
    try:
        view = memoryview(array)
    except TypeError:
        raise TypeError(f"{what}: {type(array).__name__} is not an array or buffer") from None
    if not view.c_contiguous:
        raise ValueError(f"{what}: the buffer is not C-contiguous (a copy would not receive "
                         "data in place)")
    if rx and view.readonly:
        raise ValueError(f"{what}: a FROM_AIE destination must be writable")
    if view.nbytes == 0:
        return None, 0, view
    if not view.readonly:
        address = ctypes.addressof(ctypes.c_char.from_buffer(view))
    elif isinstance(array, bytes):
        address = ctypes.cast(ctypes.c_char_p(array), ctypes.c_void_p).value
    else:
        raise TypeError(f"{what}: a read-only {type(array).__name__} is not supported "
                        "(pass a numpy array, bytes or a writable buffer)")
    return address, view.nbytes, (array, view)


@dataclass(frozen=True)
class ChannelResult:
    """One channel's result (aieth_channel_result), in the units of report.json.

    Attributes:
        plio, direction ("to_aie"/"from_aie"), index, shim_column, shim_channel:
            which channel and where it is placed.
        size, repetition, delay: as submitted (bytes per repetition, cycles).
        bytes_expected, bytes_moved: size x repetition, and what crossed the PLIO.
        user_bytes: TX: user bytes sent per repetition; RX: bytes returned to
            the array.
        finished: every byte moved.
        first, last, cycles: the channel's counters (board cycles): the first
            data (TX: after the delay), the cycle after the last beat, and
            their difference.
        stalled_since: unfinished channels: the cycle of the last progress.
        throughput_MBps, throughput_MiBps: bytes_expected x clock / cycles in
            10^6 and 2^20 bytes per second, at the board's clock.
        peak_MBps, utilisation_pct: the channel's theoretical rate and the
            measured share of it.
        valid: False when filler was sent (TX) or data wrapped (RX) in PERF.
    """

    plio: str
    direction: str
    index: int
    shim_column: int
    shim_channel: int
    size: int
    repetition: int
    delay: int
    bytes_expected: int
    bytes_moved: int
    user_bytes: int
    finished: bool
    first: int
    last: int
    cycles: int
    stalled_since: int
    throughput_MBps: float
    throughput_MiBps: float
    peak_MBps: float
    utilisation_pct: float
    valid: bool

    @classmethod
    def _from_c(cls, r: _lib.ChannelResult) -> "ChannelResult":
        return cls(plio=_lib.dec(r.plio.name), direction="from_aie" if r.plio.dir else "to_aie",
                   index=r.plio.index, shim_column=r.plio.shim_column,
                   shim_channel=r.plio.shim_channel, size=r.size, repetition=r.repetition,
                   delay=r.delay, bytes_expected=r.bytes_expected, bytes_moved=r.bytes_moved,
                   user_bytes=r.user_bytes, finished=bool(r.finished), first=r.first_cycle,
                   last=r.last_cycle, cycles=r.cycles, stalled_since=r.stalled_since,
                   throughput_MBps=r.mb_per_s, throughput_MiBps=r.mib_per_s,
                   peak_MBps=r.peak_mb_per_s, utilisation_pct=r.utilisation_pct,
                   valid=bool(r.valid))


_MODES = {"func": 0, "perf": 1}


class Transaction:
    """A submitted transaction (Session.submit). It belongs to its session."""

    def __init__(self, session: "Session", handle: int, mode: str, channels: List[Channel],
                 keep: List[Any]) -> None:
        self._session = session
        self._h: Optional[int] = handle
        self.mode = mode
        self.channels = channels
        self._keep = keep  # the arrays the library reads and writes in place

    def _handle(self) -> int:
        if self._session._h is None:
            raise _closed("transaction")
        if self._h is None:
            raise InvalidError(-1, "AIETH_EINVAL", "transaction: freed")
        return self._h

    def wait(self, timeout: Optional[float] = None) -> str:
        """Wait until this transaction (and every one submitted before it) is final.

        Args:
            timeout: seconds (None: no limit). On the emulated board it is
                compared with the board time the transaction takes.

        Returns:
            The status: "done", "timeout" (the wait expired or the board
            stalled) or "interrupted".

        Ctrl-C (KeyboardInterrupt) during the wait stops the device (on a
        board: graphs, AIE array and PL kernel reset): the transaction, and
        every later one, becomes "interrupted" and the KeyboardInterrupt is
        raised once the device stopped; close the session then.

        Raises:
            Error: the transaction FAILED (the device refused or failed it).
        """
        ms = _timeout_ms(timeout, "transaction wait")
        h = self._handle()
        interruptible(lambda: check(_lib.lib().aieth_txn_wait(h, ms)), self._session._interrupt)
        return self.status

    @property
    def status(self) -> str:
        """"pending", "done", "timeout", "failed" or "interrupted"."""
        lib = _lib.lib()
        return _lib.dec(lib.aieth_txn_status_name(lib.aieth_txn_get_status(self._handle()))).lower()

    @property
    def message(self) -> str:
        """Why the transaction is invalid, timed out or failed ("" when valid)."""
        return _lib.dec(_lib.lib().aieth_txn_message(self._handle()))

    @property
    def valid(self) -> bool:
        """True when done and every channel's data was the user's data."""
        return bool(_lib.lib().aieth_txn_is_valid(self._handle()))

    @property
    def total_cycles(self) -> int:
        """Board cycles from kernel start to done (preload, streaming, drain)."""
        return int(_lib.lib().aieth_txn_total_cycles(self._handle()))

    @property
    def results(self) -> List[ChannelResult]:
        """Per-channel results in submission order (StateError while pending)."""
        lib = _lib.lib()
        h = self._handle()
        out = []
        for i in range(lib.aieth_txn_num_channels(h)):
            r = _lib.ChannelResult()
            check(lib.aieth_txn_channel(h, i, ctypes.byref(r)))
            out.append(ChannelResult._from_c(r))
        return out

    def result(self, plio: str) -> ChannelResult:
        """The result of one channel by PLIO name (KeyError if not in it)."""
        for r in self.results:
            if r.plio == plio:
                return r
        raise KeyError(f"{plio} is not a channel of this transaction")

    def delay_between(self, a: str, b: str) -> int:
        """first(b) - first(a) in board cycles (signed): the first-data
        latency from PLIO a to PLIO b. Both must be channels of this
        transaction, and it must be done."""
        d = ctypes.c_int64()
        check(_lib.lib().aieth_txn_delay_between(self._handle(), _lib.enc(a), _lib.enc(b),
                                                 ctypes.byref(d)))
        return d.value

    def free(self) -> None:
        """Free the transaction before its session closes (optional)."""
        if self._h is not None and self._session._h is not None:
            _lib.lib().aieth_txn_free(self._h)
        self._h = None
        self._keep = []


class GraphHandle:
    """Control of one graph of an open session (Session.graph)."""

    def __init__(self, session: "Session", name: str) -> None:
        self._session = session
        self.name = name

    def _args(self) -> "tuple[int, Optional[bytes]]":
        return self._session._handle(), _lib.enc(self.name)

    def run(self, iterations: Optional[int] = None) -> None:
        """Run the graph for `iterations` iterations (None: until ended)."""
        if iterations is None:
            n = -1
        else:
            # int64_t in C: 2**63 would arrive negative
            n = _lib.int_arg(iterations, f"graph {self.name}: iterations (None: until ended)",
                             _lib.c_int64, lo=1)
        check(_lib.lib().aieth_graph_run(*self._args(), n))

    def wait(self, timeout: Optional[float] = None) -> None:
        """Wait for the bounded run to finish (WaitTimeoutError if it does not;
        on the emulated board at once when the graph cannot progress)."""
        ms = _timeout_ms(timeout, f"graph {self.name} wait")
        args = self._args()
        # as Transaction.wait: Ctrl-C raises the session's interrupt flag, which
        # ends a wait on a board or behind th_server, then KeyboardInterrupt
        interruptible(lambda: check(_lib.lib().aieth_graph_wait(*args, ms)),
                      self._session._interrupt)

    def end(self) -> None:
        """End the graph; it cannot run again in this session."""
        check(_lib.lib().aieth_graph_end(*self._args()))

    @property
    def iterations_done(self) -> int:
        """Iterations completed so far (emulated board: as of the last wait)."""
        n = ctypes.c_uint64()
        check(_lib.lib().aieth_graph_iterations_done(*self._args(), ctypes.byref(n)))
        return n.value

    def update_rtp(self, port: str, data: Any) -> None:
        """Write a run-time parameter (bytes or an array, 1..65536 bytes)."""
        address, nbytes, keep = _buffer(data, "", f"graph {self.name} port {port}")
        check(_lib.lib().aieth_graph_update_rtp(*self._args(), _lib.enc(port), address, nbytes))
        del keep

    def read_rtp(self, port: str, size: int) -> bytes:
        """Read `size` bytes (1..65536) of a run-time parameter back."""
        # checked before the buffer is allocated (2**40 would be 1 TiB)
        n = _lib.int_arg(size, f"graph {self.name} port {port}: size", _lib.c_size_t, lo=1,
                         hi=MAX_RTP_BYTES)
        buf = ctypes.create_string_buffer(n)
        check(_lib.lib().aieth_graph_read_rtp(*self._args(), _lib.enc(port), buf, n))
        return buf.raw[:n]


class Session:
    """A session: one device (emulated board, board, or th_server) and the
    graphs of one design. Use as a context manager, or call close().

    Args:
        board: board name ("vck190", "vek280", "vek385") or a board JSON path.
        backend: "emu" (the emulated board), "xrt" (a board through XRT) or
            "remote" (a device behind th_server: give server=).
        graphs: the design's graphs.
        server, token, cacert: remote: th_server's URL, bearer token, CA bundle
            (None: $AIETH_CACERT, else $CURL_CA_BUNDLE, else $SSL_CERT_FILE,
            else the system's; the library's rule, as run_test's).
        pinned_key: remote: trust the https server by its public key
            ("sha256//BASE64") instead of a CA and its name (docs/server.md,
            "A pinned key").
        xclbin: the design's AIE xclbin (may be None on "emu").
        pl_xclbin: xrt: the PL DMA kernel's xclbin (None: the board default).
        xrt_ini, artifacts_dir: remote: an xrt.ini sent with the session, and
            where the session's files are fetched when it closes; xrt: an
            xrt.ini XRT reads, and where the files XRT writes land at close
            (both needed then; docs/on-board.md).
        data_dir: board files (None: $AIETH_DATA_DIR or the installed data).
        emu_reference: emulated board: the beat-by-beat reference mode.

    Raises:
        Error: the library could not open the session (DeviceError for an
            unreachable server, NotFoundError for an unknown board or model...).
    """

    def __init__(self, board: str, backend: str = "emu", graphs: Sequence[Graph] = (),
                 server: Optional[str] = None, token: Optional[str] = None,
                 cacert: Optional[str] = None, xclbin: Optional[str] = None,
                 pl_xclbin: Optional[str] = None, xrt_ini: Optional[str] = None,
                 artifacts_dir: Optional[str] = None, data_dir: Optional[str] = None,
                 emu_reference: bool = False, pinned_key: Optional[str] = None) -> None:
        self._h: Optional[int] = None
        # raised by Ctrl-C during a wait (_interrupt.py); lives as long as the session
        self._interrupt = ctypes.c_int(0)
        lib = _lib.lib()
        graphs = list(graphs)
        for g in graphs:
            if not isinstance(g, Graph):
                raise TypeError(f"graphs: {g!r} is not an aieth.Graph")
        specs = (_lib.GraphSpec * max(len(graphs), 1))()
        for i, g in enumerate(graphs):
            params = g.params if g.params is None or isinstance(g.params, str) \
                else json.dumps(g.params)
            specs[i] = _lib.GraphSpec(_lib.enc(g.name), _lib.enc(g.model), _lib.enc(params))
        o = _lib.session_opts()
        if data_dir is None:
            data_dir = _lib.default_data_dir()
        o.board, o.backend, o.data_dir = _lib.enc(board), _lib.enc(backend), _lib.enc(data_dir)
        o.xclbin = _lib.enc(xclbin)
        o.graphs, o.num_graphs = specs, len(graphs)
        o.interrupt = ctypes.pointer(self._interrupt)
        _lib.backend_opts(o, emu_reference, pl_xclbin,
                          {"server": server, "token": token, "cacert": cacert,
                           "pinned_key": pinned_key, "xrt_ini": xrt_ini,
                           "artifacts_dir": artifacts_dir})
        h = ctypes.c_void_p()
        check(lib.aieth_session_open(ctypes.byref(h), ctypes.byref(o)))
        self._h = h.value
        self.board = board
        self.graphs = {g.name: g for g in graphs}

    def _handle(self) -> int:
        if self._h is None:
            raise _closed("session")
        return self._h

    @property
    def closed(self) -> bool:
        """True once close() ran."""
        return self._h is None

    @property
    def backend(self) -> str:
        """The backend in use: "emu", "xrt" or "remote"."""
        return _lib.dec(_lib.lib().aieth_session_backend(self._handle()))

    @property
    def server(self) -> str:
        """remote: the server as it describes itself; "" otherwise."""
        return _lib.dec(_lib.lib().aieth_session_server(self._handle()))

    def graph(self, name: str) -> GraphHandle:
        """Control of one graph (the library checks the name on each call)."""
        self._handle()
        return GraphHandle(self, name)

    def submit(self, mode: str, channels: Sequence[Channel]) -> Transaction:
        """Validate, encode and submit a transaction.

        Args:
            mode: "perf" (data from the PL kernel's URAM, replayed) or "func"
                (data streamed from memory, repetition 1).
            channels: its channels; their arrays are used in place.

        Raises:
            ValueError, TypeError: an array that cannot be used in place or
                whose size does not fit.
            Error: the library rejected the transaction (e.g. NotFoundError
                for a PLIO the board lacks); the message names the channel.
        """
        m = _MODES.get(mode.lower()) if isinstance(mode, str) else None
        if m is None:
            raise ValueError(f"mode {mode!r} is not 'perf' or 'func'")
        channels = list(channels)
        args = (_lib.ChannelArgs * max(len(channels), 1))()
        keep: List[Any] = []
        for i, ch in enumerate(channels):
            if not isinstance(ch, Channel):
                raise TypeError(f"channel {i}: {ch!r} is not an aieth.Channel")
            args[i], k = ch._c_args(i)
            keep.append(k)
        t = ctypes.c_void_p()
        check(_lib.lib().aieth_txn_submit(self._handle(), m, args, len(channels), ctypes.byref(t)))
        return Transaction(self, t.value, mode.lower(), channels, keep)

    def run(self, mode: str, channels: Sequence[Channel], repeat: int = 1, warmup: int = 0,
            timeout: Optional[float] = None,
            latency: Sequence["tuple[str, str]"] = ()) -> "RepeatResult":
        """Run one transaction warmup + repeat times, keep every measured run's figures.

        Each run is the transaction submitted, waited for and freed (the
        same arrays each time: an RX array holds the last run's data). The
        graphs are not re-armed: run them until ended (graph(name).run())
        so that every run finds them consuming.

        Args:
            mode, channels: as submit().
            repeat: the measured runs N (>= 1).
            warmup: runs before them, left out of the figures.
            timeout: each run's wait, seconds (None: no limit).
            latency: (from, to) PLIO pairs whose first-data delay is kept.

        Returns:
            A RepeatResult: numpy arrays (N, C) of each channel's cycles,
            first, last, throughput_MBps, ... per run, total_cycles (N,),
            .stats(figure) by report.json's rule (lower median, MAD, sample
            stddev), the median run and the failed runs. A run that does
            not end "done" is listed in .failed, not raised.
        """
        from .campaign import run_repeated
        self._handle()
        return run_repeated(self, mode, channels, repeat=repeat, warmup=warmup, timeout=timeout,
                            latency=latency)

    def sweep(self, mode: str, channels: Sequence[Channel], sweep: Any, zip: bool = False,
              repeat: int = 1, warmup: int = 0, timeout: Optional[float] = None,
              latency: Sequence["tuple[str, str]"] = (), stop_on_fail: bool = False
              ) -> "SweepResult":
        """Run a transaction at each point of a sweep (each point as run()).

        Args:
            mode, channels: the transaction as submit() takes it; each point
                changes a copy of the channels (the arrays stay the same:
                give them the largest size swept).
            sweep: "AXIS=LIST" (one, or a list: a grid) as run_test --sweep
                takes it ("size=4096..65536*2", "delay=0,100"), or a dict
                {axis: values or LIST text}. Axes: size, delay, replay (a
                channel's repetition), channels (K: the first K channels of
                each direction), mode (perf, func), PLIO.size|delay|replay.
                A graph model's parameter is fixed for a session (use
                aieth.run_test(spec, sweep=[...])).
            zip: pair the axes' lists instead of a grid (run_test --sweep-zip).
            repeat, warmup, timeout, latency: each point's runs, as run().
            stop_on_fail: stop at the first point with a failed run.

        Returns:
            A SweepResult: .points, .values(axis) (P,), .figure(figure,
            statistic) (P, C), each point's RepeatResult in .results.
            Every point is checked before the first runs.
        """
        from .campaign import run_sweep
        self._handle()
        return run_sweep(self, mode, channels, sweep, zip=zip, repeat=repeat, warmup=warmup,
                         timeout=timeout, latency=latency, stop_on_fail=stop_on_fail)

    def close(self) -> None:
        """Close the session (frees its transactions); closing twice does nothing."""
        if self._h is not None:
            _lib.lib().aieth_session_close(self._h)
            self._h = None

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        # A session dropped without close() still releases the device.
        try:
            self.close()
        except Exception:
            pass
