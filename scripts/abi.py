#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""libaieth's binary interface against the reference files in harness/abi/.

  abi.py layouts-inc OUT     the offsetof list of every public struct (read
                             from harness/include), included by
                             tests/tools/abi_layouts.c
  abi.py check BUILD         BUILD's exported symbols, public struct layouts
                             and libabigail ABI against harness/abi/ (make abi)
  abi.py update BUILD        write them to harness/abi/ (make abi-update)

Three views, each of which can fail on its own:
  symbols.txt    `nm -D --defined-only` of libaieth.so: what a program can link
  layouts.txt    sizeof, alignment and every member's offset and size of every
                 struct typedef of harness/include (abi_layouts' output): the
                 structs a caller or a plugin fills, reachable from an exported
                 function or not (aieth_model.h is read by dlopen, not linked)
  libaieth.abi   abidw's XML (libabigail): the exported functions' types,
                 compared by abidiff, which names what changed and where
The libabigail view is read from the default build (gcc, -O2 -g): what
abidw records of a type depends on the debug information a compiler writes
(docs/api.md, "Stability").
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "harness" / "include"
REF = ROOT / "harness" / "abi"
SUPPR = REF / "suppressions.ini"
UPDATE_HINT = ("if deliberate, run `make abi-update` and say so in CHANGELOG.md "
               "(docs/api.md, \"Stability\")")

# Only the exported functions and the types they reach, with the location of
# every declaration (suppressions.ini tells the library's own types from the
# public ones by it), type ids that do not depend on reading order.
ABIDW_FLAGS = ["--headers-dir", str(INCLUDE.relative_to(ROOT)), "--drop-private-types",
               "--exported-interfaces-only", "--no-comp-dir-path", "--no-corpus-path",
               "--type-id-style", "hash"]


class Fail(Exception):
    pass


# --- the public headers' structs -------------------------------------------

def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def matching(text: str, i: int, open_: str = "{", close: str = "}") -> int:
    """Index of the bracket closing the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == open_:
            depth += 1
        elif text[j] == close:
            depth -= 1
            if depth == 0:
                return j
    raise Fail("unbalanced %s" % open_)


def split_top(text: str, sep: str):
    """text split at sep outside (), [] and {}."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


def members(body: str, where: str, prefix: str = ""):
    """Member designators of a struct body, in order: "a", and "a.b" for the
    members of a nested struct or union defined in place."""
    out = []
    for decl in split_top(body, ";"):
        decl = " ".join(decl.split())
        if not decl:
            continue
        if "{" in decl:  # struct { ... } name; defined in place
            i = decl.index("{")
            j = matching(decl, i)
            inner = decl[i + 1:j]
            for name in split_top(decl[j + 1:], ","):
                name = re.sub(r"\[.*", "", name).strip()
                if not re.fullmatch(r"\w+", name):
                    raise Fail("%s: cannot read the member %r (an anonymous struct or "
                               "union: give it a name)" % (where, decl))
                out.append(prefix + name)
                out += members(inner, where, prefix + name + ".")
            continue
        fn = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", decl)
        if fn:  # a function pointer
            out.append(prefix + fn.group(1))
            continue
        for part in split_top(decl, ","):
            part = part.strip()
            if re.search(r":\s*\d+\s*$", part):
                raise Fail("%s: %r is a bit-field: offsetof cannot name it (and its "
                           "layout is the compiler's choice): use a whole integer" % (where, part))
            m = re.search(r"(\w+)\s*(\[[^]]*\]\s*)*$", part)
            if not m:
                raise Fail("%s: cannot read the member %r" % (where, part))
            out.append(prefix + m.group(1))
    return out


def public_structs():
    """[(header, name, [member designators])] of every `typedef struct [tag]
    { ... } aieth_x;` of harness/include; fails when a `} aieth_x;` is
    neither such a struct nor an enum (so none is left out)."""
    found, closers = [], set()
    for path in sorted(INCLUDE.rglob("*.h")):
        rel = str(path.relative_to(INCLUDE))
        text = strip_comments(path.read_text())
        closers |= {(rel, n) for n in re.findall(r"\}\s*(aieth_\w+)\s*;", text)}
        enums = set()
        for m in re.finditer(r"\btypedef\s+(struct|union|enum)\s*(\w+)?\s*\{", text):
            end = matching(text, m.end() - 1)
            name = re.match(r"\s*(\w+)\s*;", text[end + 1:])
            if not name or not name.group(1).startswith("aieth_"):
                continue
            name = name.group(1)
            if m.group(1) == "enum":
                enums.add(name)
                continue
            found.append((rel, name, members(text[m.end():end], "%s: %s" % (rel, name))))
        closers -= {(rel, n) for n in enums}
    missed = closers - {(h, n) for h, n, _ in found}
    if missed:
        raise Fail("abi.py cannot read %s: write it as `typedef struct [tag] { ... } name;`"
                   % ", ".join("%s in %s" % (n, h) for h, n in sorted(missed)))
    return found


def layouts_inc(out: Path) -> None:
    structs = public_structs()
    lines = ["/* Generated by scripts/abi.py from harness/include: do not edit. */",
             "#ifdef ABI_HEADERS"]
    lines += ['#include "%s"' % h for h in sorted({h for h, _, _ in structs})]
    lines.append("#else")
    for h, name, mems in structs:
        lines.append("S(%s)" % name)
        lines += ["M(%s, %s)" % (name, m) for m in mems]
    lines.append("#endif")
    text = "\n".join(lines) + "\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)


# --- the three views of a build --------------------------------------------

def run(cmd, **kw):
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, **kw)
    except FileNotFoundError:
        raise Fail("%s not found (bash scripts/install-deps.sh installs it)" % cmd[0])


def library(build: Path) -> Path:
    so = (build / "lib" / "libaieth.so").resolve()
    if not so.exists():
        raise Fail("%s missing: build first (make lib)" % so)
    return so


def symbols(build: Path) -> str:
    r = run(["nm", "-D", "--defined-only", str(library(build))])
    if r.returncode:
        raise Fail("nm failed: " + r.stderr)
    syms = sorted("%s %s" % (f[2], f[1]) for f in (l.split() for l in r.stdout.splitlines())
                  if len(f) == 3)
    return "".join(s + "\n" for s in syms)


def layouts(build: Path) -> str:
    exe = build / "tests" / "abi_layouts"
    if not exe.exists():
        raise Fail("%s missing: build it first (make %s)" % (exe, exe))
    r = run([str(exe)])
    if r.returncode:
        raise Fail("%s failed: %s" % (exe, r.stderr))
    return r.stdout


def abixml(build: Path, out: Path) -> None:
    r = run(["abidw"] + ABIDW_FLAGS + ["--out-file", str(out), str(library(build))], cwd=ROOT)
    if r.returncode:
        raise Fail("abidw failed (exit %d): %s" % (r.returncode, r.stderr))


def dump(build: Path) -> Path:
    cur = build / "abi"
    cur.mkdir(parents=True, exist_ok=True)
    (cur / "symbols.txt").write_text(symbols(build))
    (cur / "layouts.txt").write_text(layouts(build))
    abixml(build, cur / "libaieth.abi")
    return cur


# --- comparisons -------------------------------------------------------------

# What update() puts in the reference files beside the data: the licence
# (scripts/check-spdx.py) and where they come from. abidiff takes no comment
# before the XML's root element: there it goes after it.
HEADER = ("# SPDX-License-Identifier: MIT\n"
          "# Written by `make abi-update` (scripts/abi.py): the reference of make abi.\n")
XML_TRAILER = ("<!-- SPDX-License-Identifier: MIT. Written by `make abi-update` "
               "(scripts/abi.py): the reference of make abi. -->\n")


def changed_lines(ref: str, cur: str):
    """Lines only in ref (-) and only in cur (+), a struct's together;
    comments left out."""
    a, b = [[l for l in s.splitlines() if not l.startswith("#")] for s in (ref, cur)]
    sa, sb = set(a), set(b)
    out = [("-", l) for l in a if l not in sb] + [("+", l) for l in b if l not in sa]
    return [s + l for s, l in sorted(out, key=lambda x: (x[1].split()[0], x[0] == "+"))]


def check(build: Path) -> int:
    cur = dump(build)
    problems = []
    for name, what in (("symbols.txt", "the exported symbols"),
                       ("layouts.txt", "the public structs' layouts")):
        ref = REF / name
        if not ref.exists():
            problems.append("%s missing: run `make abi-update`" % ref.relative_to(ROOT))
            continue
        diff = changed_lines(ref.read_text(), (cur / name).read_text())
        if diff and name == "symbols.txt":
            problems.append("%s changed: %s" % (what, " ".join(l.split()[0] for l in diff)))
        elif diff:
            problems.append("%s changed (%s against %s):\n    %s" % (
                what, ref.relative_to(ROOT), cur / name, "\n    ".join(diff)))
    ref = REF / "libaieth.abi"
    if not ref.exists():
        problems.append("%s missing: run `make abi-update`" % ref.relative_to(ROOT))
    else:
        r = run(["abidiff", "--suppressions", str(SUPPR), "--no-show-locs",
                 str(ref), str(cur / "libaieth.abi")], cwd=ROOT)
        # abidiff's exit status is a bit field: 1 error, 2 usage, 4 a change,
        # 8 an incompatible change (libabigail's manual, "abidiff")
        if r.returncode & 3:
            problems.append("abidiff failed (exit %d): %s%s" % (r.returncode, r.stderr, r.stdout))
        elif r.returncode:
            problems.append("libabigail sees an ABI change%s (abidiff %s %s):\n%s" % (
                " that breaks callers" if r.returncode & 8 else "",
                ref.relative_to(ROOT), cur / "libaieth.abi", r.stdout.rstrip()))
    if problems:
        for p in problems:
            print("make abi: " + p, file=sys.stderr)
        print("make abi: %s" % UPDATE_HINT, file=sys.stderr)
        return 1
    nsym = len((cur / "symbols.txt").read_text().splitlines())
    nstruct = sum(1 for l in (cur / "layouts.txt").read_text().splitlines() if " size " in l
                  and "." not in l.split()[0])
    print("make abi: %d exported symbols, %d public structs, libabigail's view: as in harness/abi/"
          % (nsym, nstruct))
    return 0


def update(build: Path) -> int:
    cur = dump(build)
    for name in ("symbols.txt", "layouts.txt"):
        (REF / name).write_text(HEADER + (cur / name).read_text())
    (REF / "libaieth.abi").write_text((cur / "libaieth.abi").read_text() + XML_TRAILER)
    print("make abi-update: harness/abi/ rewritten from %s; review `git diff harness/abi` and "
          "say what changed for callers in CHANGELOG.md" % build)
    return 0


def main(argv) -> int:
    if len(argv) != 3 or argv[1] not in ("layouts-inc", "check", "update"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        if argv[1] == "layouts-inc":
            layouts_inc(Path(argv[2]))
            return 0
        return (check if argv[1] == "check" else update)(Path(argv[2]))
    except Fail as e:
        print("abi.py: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
