# SPDX-License-Identifier: MIT
"""Ctrl-C during a blocking library call.

A Python signal handler runs only between bytecodes of the main thread, never
while it is blocked inside a C call. So a wait runs in a worker thread while
the main thread joins it in short steps; a KeyboardInterrupt there raises
the session's interrupt flag (aieth_session_opts.interrupt), the library
stops the device (emulated board: within milliseconds; a board: reset) and
returns, and the KeyboardInterrupt is raised again once the call is over.
"""

from __future__ import annotations

import ctypes
import signal
import threading
from typing import Any, Callable, Dict, TypeVar

T = TypeVar("T")

_STEP_S = 0.05  # how often the main thread looks for a pending signal


def interruptible(call: Callable[[], T], flag: "ctypes.c_int") -> T:
    """Run call() (a library call and its error check) so that Ctrl-C sets
    flag to SIGINT. Off the main thread (where Python delivers no signals)
    call() runs directly."""
    if threading.current_thread() is not threading.main_thread():
        return call()
    box: Dict[str, Any] = {}
    # Not worker.is_alive(): after a KeyboardInterrupt inside Thread.join()
    # it was seen to say False while the thread still ran (CPython 3.11).
    done = threading.Event()

    def work() -> None:
        try:
            box["value"] = call()
        except BaseException as e:  # re-raised in the caller's thread
            box["error"] = e
        finally:
            done.set()

    worker = threading.Thread(target=work, name="aieth-wait", daemon=True)
    # SIGINT blocked while the worker starts: a KeyboardInterrupt inside
    # start() would leave the call running unobserved. The worker keeps
    # the mask, so the signal always reaches the main thread.
    saved = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        worker.start()
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, saved)
        raise
    interrupted = False
    unblocked = False
    while True:
        # everything inside the try: the KeyboardInterrupt may surface at
        # any bytecode (a SIGINT held back above arrives at the unblock)
        try:
            if not unblocked:
                unblocked = True
                signal.pthread_sigmask(signal.SIG_SETMASK, saved)
            while not done.wait(_STEP_S):
                pass
            break
        except KeyboardInterrupt:
            flag.value = int(signal.SIGINT)
            interrupted = True
    if interrupted:
        raise KeyboardInterrupt
    if "error" in box:
        raise box["error"]
    return box["value"]
