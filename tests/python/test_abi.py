# SPDX-License-Identifier: MIT
"""The ctypes layouts of python/aieth/_lib.py against the public headers: the
same members in the same order. The library reads a caller's struct to its
end, so a field added to a header and not here makes it read past the
Python object (seen: a crash in install.sh's venv demo)."""

import re

import pytest

from aieth import _lib

STRUCTS = [
    ("aieth/session.h", "aieth_graph_spec", _lib.GraphSpec),
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
