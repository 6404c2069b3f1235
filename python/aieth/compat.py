# SPDX-License-Identifier: MIT
"""AMD's Python API (test_harness_mgr.py of AMD's AIE test harness) over aieth.

An AMD test bench runs on the emulated board, on a board or against
th_server by changing its import line to::

    from aieth.compat import test_harness_mgr, test_harness_args, test_mode, channel_index

The class and method names, argument orders and defaults are AMD's. Where
AMD's behaviour is a defect, this follows aieth's correct figures; the
differences are listed in docs/python.md ("AMD compat").

Where it runs: AMD's constructor has no backend argument, so it comes from
keyword arguments or the environment: backend= or $AIETH_BACKEND ("emu",
the default; "xrt"; "remote"), server= or $AIETH_SERVER, token= or
$AIETH_TOKEN, and on the emulated board the graph models, graph_models= or
$AIETH_GRAPH_MODELS (a JSON object: graph name to a model name, or to
{"model": ..., "params": {...}}, or to "@PRESET", a preset of AMD's examples
from the data folder's cfg/graph-models/ such as "@python_adder"; graphs
without one get the default model). So AMD's adder bench runs unchanged with
AIETH_GRAPH_MODELS='{"gr": "@python_adder"}'.
"""

from __future__ import annotations

import enum
import ctypes
import json
import logging
import os
import re
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _lib
from .errors import Error
from .session import Channel, Graph, Session, Transaction, nbytes_of

log = logging.getLogger("aieth.compat")

__all__ = ["TestHarnessException", "channel_index", "test_harness_args", "test_harness_mgr",
           "test_mode"]


class test_mode(enum.IntEnum):
    """AMD's TestMode."""

    FUNC_MODE = 0
    PERF_MODE = 1


# AMD's channel_index: PLIO_01_TO_AIE = 0 ... PLIO_36_TO_AIE = 35, then
# PLIO_01_FROM_AIE = 36 ... PLIO_36_FROM_AIE = 71 (on every board).
channel_index = enum.IntEnum(  # type: ignore[misc]
    "channel_index",
    [(f"PLIO_{i + 1:02d}_TO_AIE", i) for i in range(36)] +
    [(f"PLIO_{i + 1:02d}_FROM_AIE", 36 + i) for i in range(36)],
    module=__name__)
channel_index.__doc__ = "AMD's channel_index: the PLIOs by number, TO_AIE 0-35, FROM_AIE 36-71."


class TestHarnessException(RuntimeError):
    """AMD's TestHarnessException: code is AMD's name of the failure
    ("INVALID_ARGUMENTS", "INVALID_OPERATIONS", "TEST_HARNESS_CREATION_FAILURE")."""

    __test__ = False  # not a pytest test class

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


def _plio(channel: Union[int, str, "channel_index"]) -> str:
    """A PLIO name from AMD's channel_index (or an int, or a name)."""
    if isinstance(channel, str):
        return channel
    try:
        return channel_index(int(channel)).name
    except ValueError:
        raise TestHarnessException("INVALID_ARGUMENTS",
                                   f"Wrong channel index {int(channel)} (0-71)") from None


class test_harness_args:
    """One channel of a transaction, AMD's order: channel, bytes per
    repetition, repetition, delay (cycles), the numpy array (used in place:
    TX read from it, RX written into it).

    As AMD's, size_in_bytes must equal the array's nbytes.
    """

    __test__ = False

    def __init__(self, channel: Union[int, "channel_index"], size_in_bytes: int, repetition: int,
                 delay: int, np_array: Any) -> None:
        nbytes = nbytes_of(np_array)
        if size_in_bytes != nbytes:
            raise TestHarnessException(
                "INVALID_ARGUMENTS",
                f"{_plio(channel)}: size_in_bytes {size_in_bytes} differs from the array's "
                f"nbytes {nbytes}")
        self.channel = channel
        self.size_in_bytes = size_in_bytes
        self.repetition = repetition
        self.delay = delay
        self.data = np_array


def _graph_models(graph_models: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    if graph_models is not None:
        return dict(graph_models)
    text = os.environ.get("AIETH_GRAPH_MODELS")
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError as e:
        raise TestHarnessException("INVALID_ARGUMENTS", f"$AIETH_GRAPH_MODELS: {e}") from None
    if not isinstance(value, dict):
        raise TestHarnessException("INVALID_ARGUMENTS",
                                   "$AIETH_GRAPH_MODELS is not a JSON object (graph: model)")
    return value


_PRESET_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}")


def _data_dir() -> str:
    """The library's data folder: $AIETH_DATA_DIR, a source tree's own, or
    the installed one (aieth_board_data_dir, the library's rule)."""
    d = os.environ.get("AIETH_DATA_DIR") or _lib.default_data_dir()
    if d:
        return d
    f = _lib.lib().aieth_board_data_dir
    f.restype, f.argtypes = ctypes.c_char_p, [ctypes.c_char_p]
    return f(None).decode()


def _preset(graph: str, name: str) -> Dict[str, Any]:
    """Preset name ("@python_adder"): {"model": ..., "params": {...}} read
    from the data folder's cfg/graph-models/NAME.json (a plain name, never
    a path: the folder's own entries are matched)."""
    folder = os.path.join(_data_dir(), "cfg", "graph-models")
    try:
        names = sorted(f[:-5] for f in os.listdir(folder) if f.endswith(".json"))
    except OSError:
        names = []
    if not _PRESET_NAME.fullmatch(name) or ".." in name or name not in names:
        raise TestHarnessException(
            "INVALID_ARGUMENTS", f"graph {graph}: model preset @{name}: not a preset of "
            f"{folder} ({', '.join(names) or 'none'})")
    path = os.path.join(folder, name + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            value = json.load(f)
    except (OSError, ValueError) as e:
        raise TestHarnessException("INVALID_ARGUMENTS", f"{path}: {e}") from None
    if not isinstance(value, dict) or not isinstance(value.get("model"), str) \
            or not isinstance(value.get("params"), dict) \
            or set(value) - {"about", "source", "model", "params"}:
        raise TestHarnessException("INVALID_ARGUMENTS",
                                   f"{path}: a preset is {{\"model\": ..., \"params\": {{...}}}} "
                                   "(and \"about\", \"source\")")
    return {"model": value["model"], "params": value["params"]}


def _model_words(model: Any) -> str:
    """The model a graph runs, for a message: its name, the preset's, or
    the default one and how to name another."""
    if model is None:
        return ("the default model loopback (no graph_models= or $AIETH_GRAPH_MODELS "
                "names one for it)")
    if isinstance(model, str) and model.startswith("@"):
        return f"preset {model[1:]}"
    if isinstance(model, dict):
        return f"model {model.get('model')}"
    return f"model {model}"


def _graph(name: str, model: Any) -> Graph:
    if isinstance(model, str) and model.startswith("@"):
        model = _preset(name, model[1:])
    if model is None or isinstance(model, str):
        return Graph(name, model=model)
    if isinstance(model, dict):
        return Graph(name, model=model.get("model"), params=model.get("params"))
    raise TestHarnessException("INVALID_ARGUMENTS",
                               f"graph {name}: model {model!r} is not a name or an object")


class test_harness_mgr:
    """AMD's test_harness_mgr over an aieth Session.

    Args:
        xclbin_path: the design's xclbin. Required on "xrt" and "remote"
            (FileNotFoundError when missing, as AMD's); on the emulated board
            used when the file exists, else ignored.
        graph_names: the design's graphs, in the order runAIEGraph counts them.
        device_name: the board ("vck190", "vek280", "vek385").
        timeout: AMD: the handshake timeout with a busy server, in ms. Not
            used (th_server's queue has its own wait limit).
        device_index: not used (one device per session).
        backend, server, token, graph_models: where it runs (module docstring).
    """

    __test__ = False

    def __init__(self, xclbin_path: str, graph_names: Sequence[str], device_name: str = "vck190",
                 timeout: int = 0, device_index: int = 0, *, backend: Optional[str] = None,
                 server: Optional[str] = None, token: Optional[str] = None,
                 graph_models: Optional[Dict[str, Any]] = None) -> None:
        backend = backend or os.environ.get("AIETH_BACKEND") or "emu"
        exists = bool(xclbin_path) and os.path.isfile(xclbin_path)
        if backend != "emu" and not exists:
            raise FileNotFoundError(f"xclbin {xclbin_path!r} not found")
        models = _graph_models(graph_models)
        self.graph_names = list(graph_names)
        self.device_name = device_name
        self.args: List[test_harness_args] = []
        self._txns: List[Transaction] = []
        self._run_timeouts: List[int] = []
        self._graph_state: Dict[str, str] = {}  # "bounded" or "forever"
        self._backend = backend
        # which model each graph runs on the emulated board, for the message
        # of a transaction that did not complete (a graph without one runs
        # the loopback, which no AMD bench is written for)
        self._model_words = {n: _model_words(models.get(n)) for n in self.graph_names}
        try:
            self._s = Session(board=device_name, backend=backend,
                              graphs=[_graph(n, models.get(n)) for n in self.graph_names],
                              xclbin=xclbin_path if exists else None,
                              server=server or os.environ.get("AIETH_SERVER"),
                              token=token or os.environ.get("AIETH_TOKEN"))
        except Error as e:
            raise TestHarnessException("TEST_HARNESS_CREATION_FAILURE", str(e)) from e

    # -- graphs ---------------------------------------------------------
    def runAIEGraph(self, g_idx: int, iters: int) -> None:
        """Run graph number g_idx (graph_names order) for iters iterations
        (-1: until the session ends)."""
        if not 0 <= g_idx < len(self.graph_names):
            raise TestHarnessException("INVALID_ARGUMENTS",
                                       f"graph index {g_idx} not in 0..{len(self.graph_names) - 1}")
        name = self.graph_names[g_idx]
        # a run waited for (waitForRes) may be followed by another, as AMD's
        # benches do once per mode
        if self._graph_state.get(name) in ("bounded", "forever"):
            raise TestHarnessException("INVALID_OPERATIONS", f"graph {name} already started")
        self._s.graph(name).run(iterations=None if iters == -1 else iters)
        self._graph_state[name] = "forever" if iters == -1 else "bounded"

    # -- transactions ---------------------------------------------------
    def runTestHarness(self, mode: Union[int, test_mode], args: Sequence[test_harness_args],
                       timeout: int = 0) -> None:
        """Submit a transaction (several may precede one waitForRes).

        timeout (ms) applies when waitForRes is given none (AMD discards it)."""
        if int(mode) not in (0, 1):
            raise TestHarnessException("INVALID_ARGUMENTS", f"mode {mode} is not 0 or 1")
        if not self._graph_state:
            log.warning("no graph has been started: the transaction may not complete")
        self.args = list(args)  # kept alive, as AMD's wrapper does
        chans = [Channel(_plio(a.channel), a.data, repetition=a.repetition, delay=a.delay,
                         size=a.size_in_bytes) for a in self.args]
        try:
            t = self._s.submit("perf" if int(mode) == 1 else "func", chans)
        except (Error, ValueError) as e:
            raise TestHarnessException("INVALID_ARGUMENTS", str(e)) from e
        self._txns.append(t)
        self._run_timeouts.append(int(timeout))

    def waitForRes(self, millisecond: int = 0, num_trans: int = 0) -> None:
        """Wait for the first num_trans transactions (0: all, and then the
        bounded graph runs too); millisecond bounds each (0: no limit)."""
        todo = self._txns if num_trans == 0 else self._txns[:num_trans]
        for i, t in enumerate(todo):
            if t.status != "pending":
                continue
            ms = millisecond or self._run_timeouts[i]
            try:
                t.wait(timeout=ms / 1000 if ms else None)
            except Error as e:
                raise TestHarnessException("TEST_HARNESS_WAIT_FOR_RES_FAILURE", str(e)) from e
        if num_trans == 0:
            for name, state in self._graph_state.items():
                if state == "bounded":
                    try:
                        self._s.graph(name).wait(timeout=millisecond / 1000 if millisecond else None)
                    except Error as e:
                        log.warning("graph %s: %s", name, e)
                    self._graph_state[name] = "waited"

    def _not_finished(self) -> str:
        """Why no transaction is done, in words: each one's status and
        message (a stall says where it stood), and on the emulated board
        which model each graph ran."""
        parts = []
        for i, t in enumerate(self._txns):
            st = t.status
            what = {"timeout": "timed out (stalled)", "pending": "was not waited for"}.get(st, st)
            msg = t.message if st != "pending" else ""
            parts.append(f"transaction {i} {what}" + (f": {msg}" if msg else ""))
        text = "no transaction has finished: " + "; ".join(parts)
        if self._backend == "emu":
            text += "; on the emulated board " + ", ".join(
                f"graph {n} ran {self._model_words[n]}" for n in self.graph_names)
        return text

    def _txn(self, t_idx: int) -> Transaction:
        if not self._txns:
            raise TestHarnessException("INVALID_OPERATIONS", "no transaction has run")
        if t_idx == -1:
            for t in reversed(self._txns):
                if t.status == "done":
                    return t
            raise TestHarnessException("INVALID_OPERATIONS", self._not_finished())
        if not 0 <= t_idx < len(self._txns):
            raise TestHarnessException("INVALID_OPERATIONS",
                                       f"transaction index {t_idx} not in 0..{len(self._txns) - 1}")
        return self._txns[t_idx]

    def isResultValid(self, idx: int = -1) -> bool:
        """True when transaction idx (-1: the last done one) is done and
        every channel carried user data."""
        t = self._txn(idx)
        if t.status != "done":
            log.warning("transaction %d is %s: no valid result", idx, t.status)
            return False
        return t.valid

    def printPerf(self, idx: int = -1) -> None:
        """Print each channel's first and last cycle and its throughput:
        TX channels first, then RX, each in argument order. Figures are
        aieth's: 10^6 bytes per second (and MiB/s) at the board's clock."""
        t = self._txn(idx)
        if t.status != "done":
            print(f"transaction {idx} is {t.status}: no performance information "
                  f"({t.message})")
            return
        res = t.results
        for r in [r for r in res if r.direction == "to_aie"] + \
                 [r for r in res if r.direction == "from_aie"]:
            verb = "send" if r.direction == "to_aie" else "received"
            print(f"{r.plio} {verb} the first data at cycle[{r.first}], ends at "
                  f"cycle[{r.last}], and the throughput is {r.throughput_MBps:.3f} MB/s "
                  f"({r.throughput_MiBps:.3f} MiB/s).")

    def getDelayBetween(self, idx0: Union[int, "channel_index"], idx1: Union[int, "channel_index"],
                        t_id: int = -1) -> int:
        """first(idx1) - first(idx0) in cycles, in transaction t_id (-1: the
        last done one). Both channels must be part of it."""
        t = self._txn(t_id)
        try:
            return t.delay_between(_plio(idx0), _plio(idx1))
        except Error as e:
            raise TestHarnessException("INVALID_ARGUMENTS", str(e)) from e

    def close(self) -> None:
        """End the session (AMD: the destructor)."""
        self._s.close()

    def __del__(self) -> None:
        s = getattr(self, "_s", None)
        if s is not None:
            s.close()
