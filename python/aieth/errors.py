# SPDX-License-Identifier: MIT
"""Exceptions: one class per libaieth error code (aieth/error.h)."""

from __future__ import annotations

from typing import Dict, Type


class Error(Exception):
    """A libaieth call failed.

    Attributes:
        code: the library's error code (negative, e.g. -1 for AIETH_EINVAL).
        name: its symbol, e.g. "AIETH_EINVAL".
        message: the library's message (names the file, field or value, and
            the rule it broke).
    """

    code: int = 0
    name: str = ""

    def __init__(self, code: int, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}" if message else name)
        self.code = code
        self.name = name
        self.message = message


class InvalidError(Error, ValueError):
    """AIETH_EINVAL: an argument or an input value breaks a rule (also a
    closed session or a freed transaction)."""


class NoMemoryError(Error):
    """AIETH_ENOMEM: out of memory."""


class FileError(Error):
    """AIETH_EIO: a file could not be read or written."""


class ParseError(Error, ValueError):
    """AIETH_EPARSE: an input file is malformed."""


class NotFoundError(Error, LookupError):
    """AIETH_ENOTFOUND: unknown board, PLIO, graph, model, ..."""


class StateError(Error):
    """AIETH_ESTATE: not valid now (graph still running, transaction pending,
    another thread inside a call on the same session)."""


class DeviceError(Error):
    """AIETH_EDEVICE: the device or backend failed (an unreachable server
    too)."""


class WaitTimeoutError(Error):
    """AIETH_ETIMEOUT: a wait expired."""


class UnsupportedError(Error):
    """AIETH_EUNSUPPORTED: not supported by this backend or board."""


_BY_CODE: Dict[int, Type[Error]] = {
    -1: InvalidError,
    -2: NoMemoryError,
    -3: FileError,
    -4: ParseError,
    -5: NotFoundError,
    -6: StateError,
    -7: DeviceError,
    -8: WaitTimeoutError,
    -9: UnsupportedError,
}


def error_class(code: int) -> Type[Error]:
    """The exception class of a libaieth error code (Error for unknown codes)."""
    return _BY_CODE.get(code, Error)


def check(rc: int) -> int:
    """Raise the Error of a failed call's return code; return rc when >= 0.

    Reads the message of the calling thread's last failure, so it must be
    called right after the failing call, on the same thread.
    """
    if rc >= 0:
        return rc
    from . import _lib

    lib = _lib.lib()
    message = _lib.dec(lib.aieth_error_message())
    name = _lib.dec(lib.aieth_error_name(rc))
    raise error_class(rc)(rc, name, message)
