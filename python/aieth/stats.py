# SPDX-License-Identifier: MIT
"""Statistics of repeated runs and sweep axes, as run_test computes and reads them.

The statistics rule is report.json's (docs/report-schema.md, schema
aieth-report/2): for N measured runs, ``median`` is the LOWER median (the
sorted value at index floor((N-1)/2), so always one run's value), ``mad``
the lower median of |x - median|, ``mean``, ``stddev`` the sample standard
deviation (N-1; 0 when N = 1), ``min``, ``max``, and ``runs`` the values in
run order. A sweep axis is ``AXIS=LIST`` as ``run_test --sweep`` takes it:
LIST is comma-separated values, or a range ``FROM..TO*TIMES`` (each value
TIMES the one before) or ``FROM..TO+STEP``.

numpy is needed here (imported on first use): the figures are arrays.
"""

from __future__ import annotations

import builtins
import itertools
import math
import re
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Mapping, Sequence, Tuple, Union

# run_test's limit (docs/test-spec.md, "sweep"): refused before any run
MAX_POINTS = 100000

Value = Union[int, float, str]


def _np() -> Any:
    try:
        import numpy
    except ImportError as e:  # the package works without numpy; these figures do not
        raise ImportError("aieth: repeats, sweeps and their statistics need numpy "
                          "(Debian: python3-numpy)") from e
    return numpy


@dataclass(frozen=True)
class Stats:
    """The statistics of one figure over the measured runs.

    Each attribute is a numpy array of the figure's shape without the runs'
    axis (a float for a scalar figure): ``median`` (lower median), ``min``,
    ``max``, ``mean``, ``stddev`` (sample, N-1; 0 for one run), ``mad``
    (lower median of |x - median|); ``runs`` holds every measured run's
    values, in run order, along the first axis.
    """

    median: Any
    min: Any
    max: Any
    mean: Any
    stddev: Any
    mad: Any
    runs: Any

    def as_dict(self) -> Dict[str, Any]:
        """As report.json's stats object: {median, min, max, mean, stddev, mad, runs}."""
        def py(x: Any) -> Any:
            return x.tolist() if hasattr(x, "tolist") else x
        return {k: py(getattr(self, k)) for k in ("median", "min", "max", "mean", "stddev", "mad",
                                                   "runs")}


def lower_median(values: Any, axis: int = 0) -> Any:
    """The sorted value at index floor((N-1)/2) along axis (always one of the values)."""
    np = _np()
    a = np.sort(np.asarray(values), axis=axis)
    n = a.shape[axis]
    if n == 0:
        raise ValueError("lower_median: no values")
    return np.take(a, (n - 1) // 2, axis=axis)


def median_index(values: Sequence[Any]) -> int:
    """The run (index in run order) whose value is the lower median: the
    first run with that value, as report.json's median_run is chosen."""
    np = _np()
    a = np.asarray(values)
    if a.ndim != 1 or not a.size:
        raise ValueError("median_index: expected a non-empty 1-D sequence")
    return int(np.flatnonzero(a == lower_median(a))[0])


def stats(values: Any, axis: int = 0) -> Stats:
    """The statistics of values along axis (the runs' axis), by the rule above."""
    np = _np()
    a = np.asarray(values, dtype=float)
    n = a.shape[axis] if a.ndim else 0
    if n == 0:
        raise ValueError("stats: no runs")
    med = lower_median(a, axis)
    mad = lower_median(np.abs(a - np.expand_dims(med, axis)), axis)
    std = np.std(a, axis=axis, ddof=1) if n > 1 else np.zeros_like(med)

    def out(x: Any) -> Any:
        return float(x) if np.ndim(x) == 0 else x
    return Stats(median=out(med), min=out(np.min(a, axis=axis)), max=out(np.max(a, axis=axis)),
                 mean=out(np.mean(a, axis=axis)), stddev=out(std), mad=out(mad),
                 runs=np.moveaxis(np.asarray(values), axis, 0) if a.ndim else np.asarray(values))


_NUM = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def _value(text: str, what: str) -> Value:
    t = text.strip()
    if not t:
        raise ValueError(f"{what}: an empty value")
    if _NUM.match(t):
        f = float(t)
        if not math.isfinite(f):
            raise ValueError(f"{what}: {t!r} is not a finite number")
        return int(t) if re.fullmatch(r"[+-]?\d+", t) else f
    return t


def parse_list(text: str, what: str = "sweep") -> List[Value]:
    """A LIST as run_test --sweep takes it: "4096,8192", "4096..65536*2" or
    "0..300+100" (numbers as numbers, words as strings)."""
    m = re.fullmatch(r"\s*([^,]+?)\.\.([^,*+]+?)([*+])([^,]+?)\s*", text)
    if m:
        lo, hi, by = (_value(m.group(i), what) for i in (1, 2, 4))
        op = m.group(3)
        if not all(isinstance(x, (int, float)) for x in (lo, hi, by)):
            raise ValueError(f"{what}: range {text!r}: FROM, TO and the step must be numbers")
        return expand_range(lo, hi, times=by if op == "*" else None,
                            step=by if op == "+" else None, what=what)
    out = [_value(v, what) for v in text.split(",")]
    if not out:
        raise ValueError(f"{what}: no values")
    return out


def expand_range(lo: float, hi: float, times: Any = None, step: Any = None,
                 what: str = "sweep") -> List[Value]:
    """The values FROM..TO (both included when reached): each TIMES the one
    before, or STEP more; at most MAX_POINTS values."""
    if (times is None) == (step is None):
        raise ValueError(f"{what}: a range needs one of times or step")
    if hi < lo:
        raise ValueError(f"{what}: range {lo}..{hi}: TO is below FROM")
    if times is not None and (lo <= 0 or times <= 1):
        raise ValueError(f"{what}: range {lo}..{hi}*{times}: FROM must be > 0 and TIMES > 1")
    if step is not None and step <= 0:
        raise ValueError(f"{what}: range {lo}..{hi}+{step}: STEP must be > 0")
    out: List[Value] = []
    v = lo
    while v <= hi:
        if len(out) == MAX_POINTS:
            raise ValueError(f"{what}: range {lo}..{hi} has more than {MAX_POINTS} values")
        out.append(v)
        v = v * times if times is not None else v + step
    return out


def parse_axes(sweep: Union[str, Sequence[str], Mapping[str, Any]]) -> List[Tuple[str, List[Value]]]:
    """Axes from "AXIS=LIST" texts (one, or a sequence) or a mapping
    {axis: LIST text, a sequence of values, or a range}, in their order."""
    items: Iterable[Tuple[str, Any]]
    if isinstance(sweep, str):
        sweep = [sweep]
    if isinstance(sweep, Mapping):
        items = list(sweep.items())
    else:
        pairs = []
        for s in sweep:
            if not isinstance(s, str) or "=" not in s:
                raise ValueError(f"sweep: {s!r} is not AXIS=LIST")
            name, _, lst = s.partition("=")
            pairs.append((name.strip(), lst))
        items = pairs
    axes: List[Tuple[str, List[Value]]] = []
    for name, vals in items:
        if not isinstance(name, str) or not name:
            raise ValueError(f"sweep: axis name {name!r}")
        if any(name == a for a, _ in axes):
            raise ValueError(f"sweep: axis {name!r} given twice")
        if isinstance(vals, str):
            lst = parse_list(vals, f"sweep {name}")
        else:
            lst = [v.item() if hasattr(v, "item") else v for v in vals]
            for v in lst:
                if isinstance(v, bool) or not isinstance(v, (int, float, str)):
                    raise ValueError(f"sweep {name}: {v!r} is not a number or a word")
        if not lst:
            raise ValueError(f"sweep {name}: no values")
        axes.append((name, lst))
    if not axes:
        raise ValueError("sweep: no axis")
    return axes


def points(sweep: Union[str, Sequence[str], Mapping[str, Any]], zip: bool = False
           ) -> List[Dict[str, Value]]:
    """The points of a sweep, each {axis: value} in the axes' order: every
    combination (grid; the last axis moving fastest), or the lists paired
    (zip=True: all of one length). More than MAX_POINTS is refused, with
    the count, before anything runs."""
    axes = parse_axes(sweep)
    if zip:
        lengths = {len(v) for _, v in axes}
        if len(lengths) != 1:
            raise ValueError("sweep (zip): the axes have different lengths: " +
                             ", ".join(f"{a} {len(v)}" for a, v in axes))
        n = lengths.pop()
    else:
        n = math.prod(len(v) for _, v in axes)
    if n > MAX_POINTS:
        raise ValueError(f"sweep: {n} points, at most {MAX_POINTS}")
    names = [a for a, _ in axes]
    lists = [v for _, v in axes]
    # the parameter is named as run_test's --sweep-zip: the builtin by its module
    combos = builtins.zip(*lists) if zip else itertools.product(*lists)
    return [dict(builtins.zip(names, c)) for c in combos]


def point_name(point: Mapping[str, Value]) -> str:
    """"axis=value,axis=value", as a sweep point's test name has it between brackets."""
    return ",".join(f"{k}={v}" for k, v in point.items())
