# SPDX-License-Identifier: MIT
"""One version everywhere: harness/include/aieth/version.h is the source;
the library (aieth_version()), its soname and file name, aieth.pc, the
Python package (__version__, pyproject.toml, the soname its loader looks
for) and a report's tool_version all say the same (docs/api.md,
"Stability")."""

import os
import re
import subprocess
from pathlib import Path

import pytest

import aieth
from aieth import _lib

SRC = Path(os.environ.get("AIETH_SRC", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("AIETH_BUILD", SRC / "build"))


def header():
    text = (SRC / "harness/include/aieth/version.h").read_text()
    get = lambda name: re.search(r"#define %s (\S+)" % name, text).group(1)
    return get("AIETH_VERSION_MAJOR"), get("AIETH_VERSION_MINOR"), \
        get("AIETH_VERSION_PATCH"), get("AIETH_VERSION_STRING").strip('"')


def soname(path):
    out = subprocess.run(["readelf", "-d", str(path)], check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    return re.search(r"\(SONAME\)\s+Library soname: \[(.*)\]", out).group(1)


def test_header_numbers_and_string_agree():
    major, minor, patch, string = header()
    assert string == f"{major}.{minor}.{patch}"


def test_library_and_package_say_the_header_version():
    version = header()[3]
    assert aieth.library_version() == version
    assert aieth.__version__ == version


def test_pyproject_takes_the_package_version():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11
    with open(SRC / "python/pyproject.toml", "rb") as f:
        toml = tomllib.load(f)
    assert "version" not in toml["project"], "pyproject.toml must not spell a version"
    assert "version" in toml["project"]["dynamic"]
    assert toml["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "aieth.__version__"}


def test_soname_file_name_and_loader_agree():
    major, minor, _, version = header()
    want = f"libaieth.so.0.{minor}" if major == "0" else f"libaieth.so.{major}"
    lib = BUILD / "lib" / f"libaieth.so.{version}"
    assert lib.exists(), f"{lib} missing: the Makefile names the library after version.h"
    assert soname(lib) == want
    assert _lib.SONAME == want, "python/aieth/_lib.py's SONAME is not the Makefile's"
    assert (BUILD / "lib" / want).resolve() == lib.resolve()


def test_pkg_config_file_says_the_version():
    pc = (BUILD / "lib/pkgconfig/aieth.pc").read_text()
    assert re.search(r"^Version: (.*)$", pc, re.M).group(1) == header()[3]


def test_report_tool_version(src, tmp_path):
    r = aieth.run_test(src / "examples/adder_perf/test.json", out=tmp_path)
    assert r["run"]["tool_version"] == header()[3]
