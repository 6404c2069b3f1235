# SPDX-License-Identifier: MIT
"""libaieth through ctypes: finding the library, its structures and prototypes.

Only this module knows the C layout. The structures mirror the public
headers (harness/include/aieth/*.h) field by field. The options structures
are versioned (docs/api.md, "Versioned structs"): each class here is the
layout of one version (its VERSION), and session_opts() and run_opts() fill
one through the library's own init function, so the library knows which
layout it reads; a field left unset is NULL or 0, as in C.
"""

from __future__ import annotations

import ctypes
import operator
import os
import threading
from pathlib import Path
from typing import Any, List, Optional

# The Makefile's SONAME for this version (tests/python/test_version.py):
# libaieth.so.0.MINOR before 1.0, where a minor release may break the ABI.
SONAME = "libaieth.so.0.3"

c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
c_int = ctypes.c_int
c_size_t = ctypes.c_size_t
c_uint32 = ctypes.c_uint32
c_uint64 = ctypes.c_uint64
c_int64 = ctypes.c_int64
c_double = ctypes.c_double


class GraphSpec(ctypes.Structure):
    """aieth_graph_spec (aieth/session.h)."""

    _fields_ = [("name", c_char_p), ("model", c_char_p), ("model_params", c_char_p)]


class EmuOpts(ctypes.Structure):
    """aieth_emu_opts (aieth/session.h), version 2."""

    VERSION = 2
    _fields_ = [("version", ctypes.c_uint), ("reference", c_int), ("artifacts_dir", c_char_p)]


class XrtOpts(ctypes.Structure):
    """aieth_xrt_opts (aieth/session.h), version 1."""

    VERSION = 1
    _fields_ = [
        ("version", ctypes.c_uint),
        ("pl_xclbin", c_char_p),
        ("xrt_ini", c_char_p),
        ("artifacts_dir", c_char_p),
        ("artifacts_max_bytes", c_uint64),
    ]


class RemoteOpts(ctypes.Structure):
    """aieth_remote_opts (aieth/session.h), version 3."""

    VERSION = 3
    _fields_ = [
        ("version", ctypes.c_uint),
        ("server", c_char_p),
        ("token", c_char_p),
        ("cacert", c_char_p),
        ("xrt_ini", c_char_p),
        ("artifacts_dir", c_char_p),
        ("queue_timeout_s", c_uint32),
        ("artifacts_max_bytes", c_uint64),
        ("concurrent_io", c_int),
        ("pinned_key", c_char_p),
    ]


class SessionOpts(ctypes.Structure):
    """aieth_session_opts (aieth/session.h), version 1 (the library reads
    every field of the version it is told: this layout must be that one)."""

    VERSION = 1
    _fields_ = [
        ("version", ctypes.c_uint),
        ("board", c_char_p),
        ("data_dir", c_char_p),
        ("xclbin", c_char_p),
        ("graphs", ctypes.POINTER(GraphSpec)),
        ("num_graphs", c_size_t),
        ("model_base_dir", c_char_p),
        ("backend", c_char_p),
        ("emu", ctypes.POINTER(EmuOpts)),
        ("xrt", ctypes.POINTER(XrtOpts)),
        ("remote", ctypes.POINTER(RemoteOpts)),
        ("interrupt", ctypes.POINTER(c_int)),  # sig_atomic_t is int on Linux
        ("progress", c_void_p),
        ("progress_ctx", c_void_p),
        ("queued", c_void_p),
        ("artifact", c_void_p),
        ("artifact_error", c_void_p),
        ("artifact_ctx", c_void_p),
    ]


class ChannelArgs(ctypes.Structure):
    """aieth_channel_args (aieth/txn.h)."""

    _fields_ = [
        ("plio", c_char_p),
        ("size", c_uint64),
        ("repetition", c_uint64),
        ("delay", c_uint64),
        ("data", c_void_p),
    ]


class Plio(ctypes.Structure):
    """aieth_plio (aieth/board.h)."""

    _fields_ = [
        ("name", ctypes.c_char * 32),
        ("dir", c_int),
        ("index", c_uint32),
        ("shim_column", c_uint32),
        ("shim_channel", c_uint32),
    ]


class ChannelResult(ctypes.Structure):
    """aieth_channel_result (aieth/txn.h)."""

    _fields_ = [
        ("plio", Plio),
        ("size", c_uint64),
        ("repetition", c_uint64),
        ("delay", c_uint64),
        ("bytes_expected", c_uint64),
        ("bytes_moved", c_uint64),
        ("user_bytes", c_uint64),
        ("finished", c_int),
        ("first_cycle", c_uint64),
        ("last_cycle", c_uint64),
        ("cycles", c_uint64),
        ("stalled_since", c_uint64),
        ("mb_per_s", c_double),
        ("mib_per_s", c_double),
        ("peak_mb_per_s", c_double),
        ("utilisation_pct", c_double),
        ("valid", c_int),
    ]


class RunOpts(ctypes.Structure):
    """aieth_run_opts (aieth/run.h), version 4."""

    VERSION = 4
    _fields_ = [
        ("version", ctypes.c_uint),
        ("board", c_char_p),
        ("xclbin", c_char_p),
        ("data_dir", c_char_p),
        ("out_dir", c_char_p),
        ("backend", c_char_p),
        ("emu", ctypes.POINTER(EmuOpts)),
        ("xrt", ctypes.POINTER(XrtOpts)),
        ("remote", ctypes.POINTER(RemoteOpts)),
        ("timeout_ms", c_uint32),
        ("no_timeout", c_int),
        ("interrupt", ctypes.POINTER(c_int)),
        ("progress", c_void_p),
        ("progress_ctx", c_void_p),
        ("xclbin_warn_only", c_int),
        ("repeat_runs", c_uint32),
        ("repeat_warmup", c_uint32),
        ("sweep", ctypes.POINTER(c_char_p)),
        ("num_sweep", ctypes.c_size_t),
        ("sweep_stop_on_fail", c_int),
        ("sweep_zip", c_int),
        ("sensor_period_ms", c_uint32),
        ("no_sensors", c_int),
    ]


def _candidates() -> List[str]:
    """Where the library is looked for, in order (see docs/python.md)."""
    out: List[str] = []
    env = os.environ.get("AIETH_LIB")
    if env:
        out.append(env)
    here = Path(__file__).resolve().parent
    # A source checkout: python/aieth/ next to build/lib/ (make's default O).
    out.append(str(here.parent.parent / "build" / "lib" / SONAME))
    # Installed by make install: PREFIX/lib/pythonX.Y/dist-packages/aieth/,
    # the library in PREFIX/lib/.
    for parent in here.parents:
        if parent.name == "lib":
            out.append(str(parent / SONAME))
            break
    out.append(SONAME)  # the dynamic loader's own search path
    return out


_lock = threading.Lock()
_lib: Optional[ctypes.CDLL] = None
_lib_path: str = ""


def _load() -> ctypes.CDLL:
    tried: List[str] = []
    env = os.environ.get("AIETH_LIB")
    for path in _candidates():
        if "/" in path and not os.path.exists(path):
            tried.append(f"{path} (no such file)")
            if env and path == env:
                # An explicit choice that does not exist is an error, not a
                # reason to load some other copy.
                break
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
            if env and path == env:
                break
            continue
        global _lib_path
        _lib_path = path
        return lib
    raise OSError("aieth: libaieth not found; tried: " + "; ".join(tried) +
                  ". Set AIETH_LIB to the library's path (e.g. build/lib/" + SONAME + ")")


def _proto(lib: ctypes.CDLL, name: str, restype, *argtypes) -> None:
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)


def _declare(lib: ctypes.CDLL) -> None:
    P = ctypes.POINTER
    _proto(lib, "aieth_version", c_char_p)
    _proto(lib, "aieth_error_message", c_char_p)
    _proto(lib, "aieth_error_name", c_char_p, c_int)
    _proto(lib, "aieth_session_opts_init", c_int, P(SessionOpts), ctypes.c_uint)
    _proto(lib, "aieth_run_opts_init", c_int, P(RunOpts), ctypes.c_uint)
    _proto(lib, "aieth_emu_opts_init", c_int, P(EmuOpts), ctypes.c_uint)
    _proto(lib, "aieth_xrt_opts_init", c_int, P(XrtOpts), ctypes.c_uint)
    _proto(lib, "aieth_remote_opts_init", c_int, P(RemoteOpts), ctypes.c_uint)
    _proto(lib, "aieth_backend_name", c_char_p, c_size_t)
    _proto(lib, "aieth_session_open", c_int, P(c_void_p), P(SessionOpts))
    _proto(lib, "aieth_session_close", None, c_void_p)
    _proto(lib, "aieth_session_backend", c_char_p, c_void_p)
    _proto(lib, "aieth_session_server", c_char_p, c_void_p)
    _proto(lib, "aieth_session_board", c_void_p, c_void_p)
    _proto(lib, "aieth_graph_run", c_int, c_void_p, c_char_p, c_int64)
    _proto(lib, "aieth_graph_wait", c_int, c_void_p, c_char_p, c_uint32)
    _proto(lib, "aieth_graph_end", c_int, c_void_p, c_char_p)
    _proto(lib, "aieth_graph_iterations_done", c_int, c_void_p, c_char_p, P(c_uint64))
    _proto(lib, "aieth_graph_update_rtp", c_int, c_void_p, c_char_p, c_char_p, c_void_p, c_size_t)
    _proto(lib, "aieth_graph_read_rtp", c_int, c_void_p, c_char_p, c_char_p, c_void_p, c_size_t)
    _proto(lib, "aieth_txn_submit", c_int, c_void_p, c_int, P(ChannelArgs), c_size_t, P(c_void_p))
    _proto(lib, "aieth_txn_wait", c_int, c_void_p, c_uint32)
    _proto(lib, "aieth_txn_get_status", c_int, c_void_p)
    _proto(lib, "aieth_txn_status_name", c_char_p, c_int)
    _proto(lib, "aieth_txn_message", c_char_p, c_void_p)
    _proto(lib, "aieth_txn_is_valid", c_int, c_void_p)
    _proto(lib, "aieth_txn_total_cycles", c_uint64, c_void_p)
    _proto(lib, "aieth_txn_free", None, c_void_p)
    _proto(lib, "aieth_txn_num_channels", c_size_t, c_void_p)
    _proto(lib, "aieth_txn_channel", c_int, c_void_p, c_size_t, P(ChannelResult))
    _proto(lib, "aieth_txn_delay_between", c_int, c_void_p, c_char_p, c_char_p, P(c_int64))
    _proto(lib, "aieth_report_new", c_int, P(c_void_p), c_char_p, c_int, P(c_char_p))
    _proto(lib, "aieth_report_run", c_int, c_void_p, c_char_p, P(RunOpts))
    _proto(lib, "aieth_report_finish", c_int, c_void_p)
    _proto(lib, "aieth_report_exit_code", c_int, c_void_p)
    _proto(lib, "aieth_report_write_json", c_int, c_void_p, c_char_p)
    _proto(lib, "aieth_report_write_junit", c_int, c_void_p, c_char_p)
    _proto(lib, "aieth_report_free", None, c_void_p)


def lib() -> ctypes.CDLL:
    """The loaded libaieth, loaded and declared on first use."""
    global _lib
    with _lock:
        if _lib is None:
            loaded = _load()
            _declare(loaded)
            _lib = loaded
        return _lib


def _opts(cls, init: str):
    o = cls()
    if getattr(lib(), init)(ctypes.byref(o), cls.VERSION):
        raise OSError(f"aieth: {init}: " + (lib().aieth_error_message() or b"").decode(
            "utf-8", "replace") + f" (library {lib_path()} too old for this binding?)")
    return o


def session_opts() -> SessionOpts:
    """An aieth_session_opts of this binding's version, initialised by the library."""
    return _opts(SessionOpts, "aieth_session_opts_init")


def run_opts() -> RunOpts:
    """An aieth_run_opts of this binding's version, initialised by the library."""
    return _opts(RunOpts, "aieth_run_opts_init")


def backend_opts(o, emu_reference: bool, pl_xclbin: Optional[str],
                 remote: dict) -> None:
    """Point o's emu, xrt and remote at structs of their own, set from the
    arguments (remote: aieth_remote_opts field -> value, None left unset).
    The structs live as long as o (kept on it); the library reads them
    during the call only."""
    emu = _opts(EmuOpts, "aieth_emu_opts_init")
    emu.reference = 1 if emu_reference else 0
    xrt = _opts(XrtOpts, "aieth_xrt_opts_init")
    xrt.pl_xclbin = enc(pl_xclbin)
    rem = _opts(RemoteOpts, "aieth_remote_opts_init")
    # the upload on a thread of its own (docs/api.md, "Callbacks from two
    # threads"): a Session's channels are memory (no callback at all), a
    # Run's are the library's own file readers and checkers, one channel's
    # state each: both safe to call from two threads
    rem.concurrent_io = 1
    for k, v in remote.items():
        if v is not None:
            setattr(rem, k, enc(v))
    # an xrt.ini is read by XRT on the xrt backend and sent by the remote
    # one (the emulated board refuses it): given to both, as run_test does
    for k in ("xrt_ini", "artifacts_dir"):
        if remote.get(k) is not None:
            setattr(xrt, k, enc(remote[k]))
    # a hang's aie_state.json lands in the same folder on every backend
    if remote.get("artifacts_dir") is not None:
        emu.artifacts_dir = enc(remote["artifacts_dir"])
    o._backend_opts = (emu, xrt, rem)
    o.emu, o.xrt, o.remote = ctypes.pointer(emu), ctypes.pointer(xrt), ctypes.pointer(rem)


def backends() -> List[str]:
    """The library's backend table, in its order (the first is the default)."""
    names: List[str] = []
    while True:
        name = lib().aieth_backend_name(len(names))
        if not name:
            return names
        names.append(name.decode())


def lib_path() -> str:
    """The path (or name) the library was loaded from."""
    lib()
    return _lib_path


def default_data_dir() -> Optional[str]:
    """The board files' folder when none is given and $AIETH_DATA_DIR is
    unset: a source checkout's own (platforms/, cfg/) when the library was
    loaded from its build tree; else None (the library's installed data)."""
    if os.environ.get("AIETH_DATA_DIR"):
        return None
    path = lib_path()
    root = Path(__file__).resolve().parent.parent.parent
    if "/" in path and Path(path).resolve().parent.parent.parent == root.resolve() \
            and (root / "platforms").is_dir():
        return str(root)
    return None


class IntRangeError(ValueError, OverflowError):
    """An integer outside what the library's C type (or its documented limit)
    holds: ctypes would wrap it silently (2**64 becoming 0), so it is refused
    here. Both a ValueError and an OverflowError."""


def int_arg(value: Any, what: str, ctype: Any, lo: Optional[int] = None,
            hi: Optional[int] = None) -> int:
    """`value` as an integer argument or field of C type `ctype` (a ctypes
    integer type), checked against that type's range and the tighter
    [lo, hi] when given. `what` names the field in the message. Every
    integer the package hands to the library passes through here."""
    if isinstance(value, bool):
        raise TypeError(f"{what}: {value!r} is a bool, not an integer")
    try:
        v = operator.index(value)   # int and numpy integers, never a float
    except TypeError:
        raise TypeError(f"{what}: {value!r} is not an integer") from None
    bits = 8 * ctypes.sizeof(ctype)
    signed = ctype(-1).value < 0
    tmin, tmax = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    low = tmin if lo is None else max(lo, tmin)
    high = tmax if hi is None else min(hi, tmax)
    if v < low:
        raise IntRangeError(f"{what}: {v} is below the minimum {low}")
    if v > high:
        raise IntRangeError(f"{what}: {v} exceeds the limit {high}")
    return v


def enc(s: Optional[str]) -> Optional[bytes]:
    """A str argument as the C string the library takes (None stays NULL)."""
    if s is None:
        return None
    if not isinstance(s, str):
        raise TypeError(f"expected a str, got {type(s).__name__}")
    if "\0" in s:
        raise ValueError(f"string {s!r} contains a NUL character")
    return s.encode()


def dec(b: Optional[bytes]) -> str:
    """A C string from the library as str ('' for NULL)."""
    return b.decode(errors="replace") if b else ""
