# SPDX-License-Identifier: MIT
"""The ctypes layouts of python/aieth/_lib.py against the public headers: the
same members in the same order. The library reads a caller's struct to its
end, so a field added to a header and not here makes it read past the
Python object (seen: a crash in install.sh's venv demo)."""

import ctypes
import re

import pytest

from aieth import _lib

STRUCTS = [
    ("aieth/session.h", "aieth_graph_spec", _lib.GraphSpec),
    ("aieth/session.h", "aieth_emu_opts", _lib.EmuOpts),
    ("aieth/session.h", "aieth_xrt_opts", _lib.XrtOpts),
    ("aieth/session.h", "aieth_remote_opts", _lib.RemoteOpts),
    ("aieth/session.h", "aieth_session_opts", _lib.SessionOpts),
    ("aieth/txn.h", "aieth_channel_args", _lib.ChannelArgs),
    ("aieth/board.h", "aieth_plio", _lib.Plio),
    ("aieth/txn.h", "aieth_channel_result", _lib.ChannelResult),
    ("aieth/run.h", "aieth_run_opts", _lib.RunOpts),
]


def members(text: str, name: str):
    """Member names of `typedef struct { ... } name;` in order."""
    end = re.search(r"\}\s*" + name + r";", text)
    assert end, f"{name} not found"
    start = text.rfind("typedef struct {", 0, end.start())
    body = re.sub(r"/\*.*?\*/", "", text[start + len("typedef struct {"):end.start()], flags=re.S)
    out = []
    for decl in body.split(";"):
        decl = decl.strip()
        if not decl:
            continue
        fn = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", decl)  # a function pointer
        if fn:
            out.append(fn.group(1))
            continue
        for part in decl.split(","):  # "uint64_t size, repetition, delay"
            out.append(re.search(r"(\w+)\s*(\[[^]]*\])?$", part.strip()).group(1))
    return out


@pytest.mark.parametrize("header,name,cls", STRUCTS, ids=[s[1] for s in STRUCTS])
def test_ctypes_layout_matches_the_header(src, header, name, cls):
    text = (src / "harness/include" / header).read_text()
    assert [f[0] for f in cls._fields_] == members(text, name)


VERSIONED = [s for s in STRUCTS if s[1].endswith("_opts")]


@pytest.mark.parametrize("header,name,cls", VERSIONED, ids=[s[1] for s in VERSIONED])
def test_ctypes_version_matches_the_header(src, header, name, cls):
    """A class is the layout of one version: the header's newest (a new
    version in C without a new layout here would be read as the old one)."""
    text = (src / "harness/include" / header).read_text()
    m = re.search(r"#define " + name.upper() + r"_VERSION (\d+)", text)
    assert m, f"{name.upper()}_VERSION not found"
    assert cls.VERSION == int(m.group(1))
    assert cls._fields_[0][0] == "version"


@pytest.mark.parametrize("cls,init", [(_lib.SessionOpts, "aieth_session_opts_init"),
                                      (_lib.RunOpts, "aieth_run_opts_init")])
def test_init_refuses_unknown_versions(cls, init):
    fn = getattr(_lib.lib(), init)
    o = cls()
    assert fn(ctypes.byref(o), 0) != 0
    assert b"version 0 is unknown" in _lib.lib().aieth_error_message()
    assert fn(ctypes.byref(o), cls.VERSION + 1) != 0
    assert fn(ctypes.byref(o), cls.VERSION) == 0
    assert o.version == cls.VERSION and not o.emu and not o.remote  # NULL: the defaults
