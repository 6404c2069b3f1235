"""Shared set-up of the Python package's tests (make pytest).

The package is imported from the source tree's python/ folder unless
AIETH_PY_INSTALLED=1 (the installed copy is then on sys.path); the library
is the one AIETH_LIB names (make pytest: this build's libaieth.so).
"""

import os
import socket
import sys
from pathlib import Path

import pytest

SRC = Path(os.environ.get("AIETH_SRC", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("AIETH_BUILD", SRC / "build"))

if os.environ.get("AIETH_PY_INSTALLED") != "1":
    sys.path.insert(0, str(SRC / "python"))
os.environ.setdefault("AIETH_DATA_DIR", str(SRC))


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

# the pytest plugin's own tests run pytest inside pytest
pytest_plugins = ["pytester"]
