# SPDX-License-Identifier: MIT
"""Shared set-up of the Python package's tests (make pytest).

The package is imported from the source tree's python/ folder unless
AIETH_PY_INSTALLED=1 (the installed copy is then on sys.path); the library
is the one AIETH_LIB names (make pytest: this build's libaieth.so).
"""

import os
import re
import socket
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

SRC = Path(os.environ.get("AIETH_SRC", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("AIETH_BUILD", SRC / "build"))

if os.environ.get("AIETH_PY_INSTALLED") != "1":
    sys.path.insert(0, str(SRC / "python"))
os.environ.setdefault("AIETH_DATA_DIR", str(SRC))


@pytest.fixture
def ctrl_c():
    """Ctrl-C for a test, sent once the package's blocking call is under way.

    A non-interactive shell starts its background jobs with SIGINT ignored,
    and Python then installs no KeyboardInterrupt handler: the default one
    is put back for the test (and the old disposition after it). The signal
    goes out when the package's worker thread ("aieth-wait",
    python/aieth/_interrupt.py) is running, an event, never after a guessed
    delay; returns a function that arms it and the thread that sends it."""
    import signal
    import threading
    old = signal.signal(signal.SIGINT, signal.default_int_handler)

    def arm(delay_s: float = 0.0) -> threading.Thread:
        def send() -> None:
            for _ in range(6000):  # 60 s at most
                if any(t.name == "aieth-wait" and t.is_alive() for t in threading.enumerate()):
                    break
                time.sleep(0.01)
            # delay_s: the call has been running a while (its work is long:
            # nothing depends on the delay being exact)
            time.sleep(delay_s)
            os.kill(os.getpid(), signal.SIGINT)
        th = threading.Thread(target=send, daemon=True)
        th.start()
        return th

    yield arm
    signal.signal(signal.SIGINT, old)


@pytest.fixture
def src() -> Path:
    """The source tree (examples/, platforms/)."""
    return SRC


@pytest.fixture
def run_test_bin() -> Path:
    """This build's run_test program."""
    p = BUILD / "bin" / "run_test"
    if not p.exists():
        pytest.fail(f"{p} missing: build first (make)")
    return p


@pytest.fixture
def closed_port() -> int:
    """A 127.0.0.1 port nothing listens on (bound, then closed)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port

def _start_th_server(log: Path, *args: str):
    """th_server on 127.0.0.1 (a free port, emulated board, no tokens),
    args added; yields its port. Stopped after (TERM, then KILL)."""
    exe = BUILD / "bin" / "th_server"
    if not exe.exists():
        pytest.skip(f"{exe} not built (no libmicrohttpd)")
    with open(log, "w") as f:
        p = subprocess.Popen([str(exe), "--listen", "127.0.0.1:0", "--backend", "emu",
                              "--data-dir", str(SRC), *args],
                             stdout=f, stderr=subprocess.STDOUT)
    try:
        port = None
        for _ in range(100):  # at most 10 s
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", log.read_text())
            if m:
                port = m.group(1)
                break
            if p.poll() is not None:
                break
            time.sleep(0.1)
        if port is None:
            pytest.fail(f"th_server did not start: {log.read_text()}")
        yield port
    finally:
        p.terminate()
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


@pytest.fixture(scope="module")
def th_server(tmp_path_factory):
    """This build's th_server on 127.0.0.1 (a free port, emulated board, no
    tokens): its URL."""
    log = tmp_path_factory.mktemp("th_server") / "log"
    for port in _start_th_server(log):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def th_server_tls(tmp_path_factory):
    """th_server serving https with a certificate of a private lab CA
    (openssl, as docs/server.md makes them): (its URL, the CA's file)."""
    if not shutil.which("openssl"):
        pytest.skip("no openssl")
    d = tmp_path_factory.mktemp("lab_ca")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    subprocess.run(["openssl", "req", "-x509", *ec, "-days", "2", "-subj", "/CN=aieth test lab CA",
                    "-keyout", str(d / "ca.key"), "-out", str(d / "ca.crt")],
                   check=True, capture_output=True)
    subprocess.run(["openssl", "req", *ec, "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", str(d / "srv.key"), "-out", str(d / "srv.csr")],
                   check=True, capture_output=True)
    subprocess.run(["openssl", "x509", "-req", "-in", str(d / "srv.csr"), "-CA", str(d / "ca.crt"),
                    "-CAkey", str(d / "ca.key"), "-CAcreateserial", "-days", "2",
                    "-copy_extensions", "copy", "-out", str(d / "srv.crt")],
                   check=True, capture_output=True)
    for port in _start_th_server(d / "log", "--tls-cert", str(d / "srv.crt"),
                                 "--tls-key", str(d / "srv.key")):
        yield f"https://127.0.0.1:{port}", str(d / "ca.crt")


# the pytest plugin's own tests run pytest inside pytest
pytest_plugins = ["pytester"]
