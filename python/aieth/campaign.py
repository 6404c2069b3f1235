# SPDX-License-Identifier: MIT
"""Session.run and Session.sweep: one transaction repeated, or run over
parameter values, in one open session, the figures as numpy arrays.

Each run is one transaction submitted, waited for and freed; nothing else
is re-armed between runs (the graphs keep running: run them until ended,
graph(name).run(), so every run finds them consuming; a bounded run of N
iterations feeds one transaction's worth). Warm-up runs are run and left
out of the figures. Statistics follow report.json's rule (aieth.stats).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _lib
from .stats import MAX_POINTS, Stats, Value, _np, median_index, point_name, points, stats

if TYPE_CHECKING:  # pragma: no cover
    from .session import Channel, ChannelResult, Session

# the per-channel figures kept for every run, as ChannelResult names them
CHANNEL_FIGURES = ("cycles", "first", "last", "throughput_MBps", "throughput_MiBps",
                   "bytes_moved", "utilisation_pct")
Pair = Tuple[str, str]


@dataclass
class RepeatResult:
    """W + N runs of one transaction; the N measured runs' figures.

    Attributes:
        mode: "perf" or "func".
        runs, warmup: N and W.
        channels: the PLIOs, in the transaction's order (the columns).
        status: each measured run's status ("done", "timeout", ...).
        valid: bool array (N,): each run done with the user's data.
        total_cycles: array (N,): each run's board cycles.
        cycles, first, last, throughput_MBps, throughput_MiBps,
            bytes_moved, utilisation_pct: arrays (N, C), run by channel.
        latency: {(from, to): array (N,)} of the pairs asked for
            (first(to) - first(from), board cycles).
        results: every measured run's ChannelResult list.
        median_run: the run (0-based among the measured) whose total_cycles
            is the lower median (the first such run): its results are "the"
            run's, as report.json's scalars are the median run's.
        failed: [{"run": k, "plio": ..., "reason": ...}] of the measured
            runs that did not end "done" (report.json's runs_failed).
    """

    mode: str
    runs: int
    warmup: int
    channels: List[str]
    status: List[str]
    valid: Any
    total_cycles: Any
    cycles: Any
    first: Any
    last: Any
    throughput_MBps: Any
    throughput_MiBps: Any
    bytes_moved: Any
    utilisation_pct: Any
    latency: Dict[Pair, Any]
    results: List[List["ChannelResult"]]
    median_run: int
    failed: List[Dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every measured (and warm-up) run ended "done"."""
        return not self.failed

    def stats(self, figure: str) -> Stats:
        """The statistics of a per-channel figure (arrays of C values, one
        per channel), "total_cycles" (floats) or a latency pair "FROM->TO"."""
        if figure == "total_cycles":
            return stats(self.total_cycles)
        if "->" in figure:
            a, _, b = figure.partition("->")
            if (a, b) not in self.latency:
                raise KeyError(f"latency {figure}: not measured (latency=[...] names the pairs)")
            return stats(self.latency[(a, b)])
        if figure not in CHANNEL_FIGURES:
            raise KeyError(f"{figure!r}: one of {', '.join(CHANNEL_FIGURES)}, total_cycles or FROM->TO")
        return stats(getattr(self, figure))

    def column(self, plio: str) -> int:
        """The column of a channel in the (N, C) arrays."""
        try:
            return self.channels.index(plio)
        except ValueError:
            raise KeyError(f"{plio} is not a channel of these runs") from None


def _failure(k: int, t: Any, res: List["ChannelResult"]) -> Optional[Dict[str, Any]]:
    st = t.status
    if st == "done":
        return None
    stuck = next((r.plio for r in res if not r.finished), "")
    return {"run": k, "plio": stuck, "reason": f"{st}: {t.message}" if t.message else st}


def run_repeated(session: "Session", mode: str, channels: Sequence["Channel"], repeat: int = 1,
           warmup: int = 0, timeout: Optional[float] = None,
           latency: Sequence[Pair] = ()) -> RepeatResult:
    """Session.run's body (see there)."""
    np = _np()
    n = _lib.int_arg(repeat, "run: repeat", _lib.c_uint32, lo=1)
    w = _lib.int_arg(warmup, "run: warmup", _lib.c_uint32)
    pairs = [tuple(p) for p in latency]
    for p in pairs:
        if len(p) != 2 or not all(isinstance(x, str) for x in p):
            raise ValueError(f"run: latency {p!r} is not a (from, to) pair of PLIO names")
    all_res: List[List["ChannelResult"]] = []
    status: List[str] = []
    valid: List[bool] = []
    total: List[int] = []
    lat: Dict[Pair, List[int]] = {p: [] for p in pairs}  # type: ignore[misc]
    failed: List[Dict[str, Any]] = []
    for k in range(w + n):
        t = session.submit(mode, channels)
        try:
            t.wait(timeout)
            res = t.results
            if k < w:
                # a warm-up that fails is a failure too: run -W..-1, "warmup"
                f = _failure(k - w, t, res)
                if f:
                    failed.append(dict(f, warmup=True))
                continue
            f = _failure(k - w, t, res)
            if f:
                failed.append(f)
            status.append(t.status)
            valid.append(bool(t.valid))
            total.append(int(t.total_cycles))
            for p in pairs:
                lat[p].append(t.delay_between(p[0], p[1]) if t.status == "done" else 0)
            all_res.append(res)
        finally:
            t.free()
    names = [r.plio for r in all_res[0]]
    figs = {f: np.array([[getattr(r, f) for r in res] for res in all_res],
                        dtype=float if f in ("throughput_MBps", "throughput_MiBps",
                                             "utilisation_pct") else np.int64)
            for f in CHANNEL_FIGURES}
    return RepeatResult(mode=mode.lower(), runs=n, warmup=w, channels=names, status=status,
                        valid=np.array(valid, dtype=bool),
                        total_cycles=np.array(total, dtype=np.int64),
                        latency={p: np.array(v, dtype=np.int64) for p, v in lat.items()},
                        results=all_res, median_run=median_index(total), failed=failed, **figs)


@dataclass
class SweepResult:
    """A sweep's points, each a RepeatResult.

    Attributes:
        axes: the axis names, in order.
        points: each point's {axis: value}.
        names: each point's "axis=value,..." (as a sweep point test's brackets).
        results: each point's RepeatResult.
        channels: every PLIO of any point, in the first point's order (the
            columns of figure()).
        stopped: None, or "stop_on_fail" when a failing point ended it.
    """

    axes: List[str]
    points: List[Dict[str, Value]]
    names: List[str]
    results: List[RepeatResult]
    channels: List[str]
    stopped: Optional[str] = None

    def values(self, axis: str) -> Any:
        """The axis' value at each point: an array (P,) (numbers as float,
        words as objects)."""
        np = _np()
        if axis not in self.axes:
            raise KeyError(f"{axis!r} is not an axis of this sweep ({', '.join(self.axes)})")
        v = [p[axis] for p in self.points]
        return np.array(v, dtype=object if any(isinstance(x, str) for x in v) else float)

    def figure(self, figure: str, statistic: str = "median") -> Any:
        """A statistic of a figure at each point: (P, C) for a per-channel
        figure (NaN where a point lacks the channel), (P,) for
        "total_cycles" or a latency "FROM->TO"."""
        np = _np()
        if statistic not in ("median", "min", "max", "mean", "stddev", "mad"):
            raise ValueError(f"statistic {statistic!r}: median, min, max, mean, stddev or mad")
        if figure == "total_cycles" or "->" in figure:
            return np.array([getattr(r.stats(figure), statistic) for r in self.results])
        out = np.full((len(self.results), len(self.channels)), np.nan)
        for i, r in enumerate(self.results):
            s = getattr(r.stats(figure), statistic)
            for j, plio in enumerate(r.channels):
                out[i, self.channels.index(plio)] = s[j]
        return out

    @property
    def failed(self) -> List[Dict[str, Any]]:
        """Every failed run: {"point": i, "run": k, "plio": ..., "reason": ...}."""
        return [dict(f, point=i) for i, r in enumerate(self.results) for f in r.failed]


_FIELDS = {"size": "size", "delay": "delay", "replay": "repetition", "repetition": "repetition"}


def _apply(point: Mapping[str, Value], mode: str, channels: Sequence["Channel"],
           graphs: Sequence[str]) -> Tuple[str, List["Channel"]]:
    """The mode and channels of one point (new Channel objects, the same arrays)."""
    from .session import Channel
    chans = [Channel(c.plio, c.array, repetition=c.repetition, delay=c.delay, size=c.size)
             for c in channels]
    plios = {c.plio for c in chans}
    for axis, v in point.items():
        if isinstance(v, float):
            if not v.is_integer():
                raise ValueError(f"sweep {axis}: {v!r} is not a whole number")
            v = int(v)
        if axis == "mode":
            if v not in ("perf", "func"):
                raise ValueError(f"sweep mode: {v!r} is not perf or func")
            mode = str(v)
        elif axis == "channels":
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"sweep channels: {v!r} is not a count >= 1")
            keep = []
            count = {"to": 0, "from": 0}
            for c in chans:
                d = "from" if c.plio.upper().endswith("_FROM_AIE") else "to"
                count[d] += 1
                if count[d] <= v:
                    keep.append(c)
            chans = keep
        elif axis in _FIELDS:
            for c in chans:
                setattr(c, _FIELDS[axis], v)
        elif "." in axis:
            head, _, key = axis.rpartition(".")
            if head in plios and head in graphs:
                raise ValueError(f"sweep {axis}: {head} is both a PLIO and a graph (ambiguous)")
            if head in plios:
                if key not in ("size", "delay", "replay"):
                    raise ValueError(f"sweep {axis}: a channel's size, delay or replay")
                for c in chans:
                    if c.plio == head:
                        setattr(c, _FIELDS[key], v)
            elif head in graphs:
                raise ValueError(f"sweep {axis}: a graph model's parameter is fixed when the "
                                 "session opens: sweep it with aieth.run_test(spec, sweep=[...]) "
                                 "or a session per value")
            else:
                raise ValueError(f"sweep {axis}: {head} is no channel of the transaction "
                                 "and no graph of the session")
        else:
            raise ValueError(f"sweep: unknown axis {axis!r} (size, delay, replay, channels, mode, "
                             "PLIO.size|delay|replay)")
    if mode == "func":
        for c in chans:
            if c.repetition != 1:
                raise ValueError(f"sweep point {point_name(point)}: {c.plio}: repetition "
                                 f"{c.repetition} in FUNC mode, which replays nothing (sweep "
                                 "replay=1 with it, or give the channels repetition 1)")
    return mode, chans


def run_sweep(session: "Session", mode: str, channels: Sequence["Channel"],
          sweep: Union[str, Sequence[str], Mapping[str, Any]], zip: bool = False,
          repeat: int = 1, warmup: int = 0, timeout: Optional[float] = None,
          latency: Sequence[Pair] = (), stop_on_fail: bool = False) -> SweepResult:
    """Session.sweep's body (see there)."""
    pts = points(sweep, zip=zip)
    graphs = list(session.graphs)
    # every point is checked before the first runs: a bad value costs no board time
    plan = [_apply(p, mode, channels, graphs) for p in pts]
    assert len(plan) <= MAX_POINTS
    results: List[RepeatResult] = []
    stopped = None
    for m, chans in plan:
        r = run_repeated(session, m, chans, repeat=repeat, warmup=warmup, timeout=timeout,
                      latency=latency)
        results.append(r)
        if stop_on_fail and r.failed:
            stopped = "stop_on_fail"
            break
    done = pts[:len(results)]
    order: List[str] = []
    for r in results:
        order += [c for c in r.channels if c not in order]
    return SweepResult(axes=list(pts[0]), points=done, names=[point_name(p) for p in done],
                       results=results, channels=order, stopped=stopped)

