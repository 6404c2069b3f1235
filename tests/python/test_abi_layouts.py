# SPDX-License-Identifier: MIT
"""Every ctypes structure of the Python package against the C layout of the
struct it mirrors, as this build's compiler lays it out: size, alignment,
member names in order, each member's offset and size (and those of a struct
nested in place). The C side is tests/tools/abi_layouts, whose member list
is generated from harness/include (scripts/abi.py): a member added to,
moved in or removed from a public struct that the binding does not follow
fails here. The library reads a caller's struct to its end, so a binding
one field short makes it read past the Python object (seen: a crash in
install.sh's venv demo)."""

import ctypes
import importlib
import os
import pkgutil
import re
import subprocess
from pathlib import Path

import pytest

import aieth

BUILD = Path(os.environ.get("AIETH_BUILD", Path(__file__).resolve().parents[2] / "build"))


def c_layouts():
    """{struct: (size, align, {member: (offset, size)})} in header order."""
    exe = BUILD / "tests" / "abi_layouts"
    if not exe.exists():
        pytest.fail(f"{exe} missing: build it (make {exe.relative_to(BUILD.parent)}, "
                    "or make pytest)")
    out = subprocess.run([str(exe)], check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    structs = {}
    for line in out.splitlines():
        name, key1, v1, key2, v2 = line.split()
        if "." in name:
            struct, member = name.split(".", 1)
            assert (key1, key2) == ("offset", "size"), line
            structs[struct][2][member] = (int(v1), int(v2))
        else:
            assert (key1, key2) == ("size", "align"), line
            structs[name] = (int(v1), int(v2), {})
    return structs


def ctypes_structs():
    """(C name, class) of every ctypes Structure or Union the package
    defines; the C name is the first word of the class's docstring."""
    seen = {}
    for mod in pkgutil.iter_modules(aieth.__path__):
        m = importlib.import_module("aieth." + mod.name)
        for obj in vars(m).values():
            if (isinstance(obj, type) and issubclass(obj, (ctypes.Structure, ctypes.Union))
                    and obj.__module__.startswith("aieth")):
                seen[obj] = None
    out = []
    for cls in seen:
        m = re.match(r"\s*(aieth_\w+)", cls.__doc__ or "")
        out.append((m.group(1) if m else None, cls))
    return sorted(out, key=lambda x: x[1].__name__)


C = c_layouts()
PY = ctypes_structs()


def compare(cls, size, align, members, where):
    """Differences between cls's layout and C's (members: this level's and
    deeper ones as a.b)."""
    errs = []
    if ctypes.sizeof(cls) != size:
        errs.append(f"{where}: size {ctypes.sizeof(cls)} in Python, {size} in C")
    if align is not None and ctypes.alignment(cls) != align:
        errs.append(f"{where}: alignment {ctypes.alignment(cls)} in Python, {align} in C")
    top = [m for m in members if "." not in m]
    names = [f[0] for f in cls._fields_]
    if names != top:
        errs.append(f"{where}: members {names} in Python, {top} in C")
    for f in cls._fields_:
        name, ftype = f[0], f[1]
        if name not in members:
            continue
        off, sz = members[name]
        got = getattr(cls, name)
        if (got.offset, got.size) != (off, sz):
            errs.append(f"{where}.{name}: offset {got.offset} size {got.size} in Python, "
                        f"offset {off} size {sz} in C")
        # offsetof(t, a.b) counts from t, a ctypes field from its own struct
        inner = {m[len(name) + 1:]: (v[0] - off, v[1]) for m, v in members.items()
                 if m.startswith(name + ".")}
        if inner and issubclass(ftype, (ctypes.Structure, ctypes.Union)):
            errs += compare(ftype, sz, None, inner, f"{where}.{name}")
    return errs


def nested_in_place():
    """Structures that mirror a struct defined in place in a public one
    (C's `struct { ... } remote;`): compared as part of it."""
    out = set()
    for name, cls in PY:
        members = C.get(name, (0, 0, {}))[2]
        for f in cls._fields_:
            if any(m.startswith(f[0] + ".") for m in members):
                out.add(f[1])
    return out


def test_every_ctypes_structure_names_its_c_struct():
    assert PY, "no ctypes structures found in python/aieth"
    inner = nested_in_place()
    unnamed = [cls.__qualname__ for name, cls in PY if name is None and cls not in inner]
    assert not unnamed, ("docstrings must start with the C struct's name (aieth_...): "
                         + ", ".join(unnamed))
    unknown = [f"{cls.__qualname__} ({name})" for name, cls in PY if name and name not in C]
    assert not unknown, ("not a public struct of harness/include (tests/tools/abi_layouts): "
                         + ", ".join(unknown))


@pytest.mark.parametrize("name,cls", [p for p in PY if p[0] in C],
                         ids=[p[1].__name__ for p in PY if p[0] in C])
def test_ctypes_layout_equals_c(name, cls):
    size, align, members = C[name]
    errs = compare(cls, size, align, members, f"{cls.__module__}.{cls.__qualname__} ({name})")
    assert not errs, "the Python binding does not follow the C struct:\n" + "\n".join(errs)


def test_the_c_side_lists_the_structs_python_passes():
    # a sanity check of the generator: the structs the binding has are found
    for name in ("aieth_session_opts", "aieth_run_opts", "aieth_channel_args",
                 "aieth_channel_result", "aieth_plio", "aieth_graph_spec"):
        assert name in C, f"{name} missing from tests/tools/abi_layouts' output"
