#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-layers.py - the layering of libaieth, checked.

The rules are the `layers` block of docs/architecture.md (one place, so the
document cannot drift from what is checked). It lists the folders bottom
up, each with what its files may include besides files of their own
folder; a folder may only name folders (or files of folders) listed above
it. This script reads every #include "..." of those folders and fails,
naming file and line, when
  - a folder includes a file it may not (or one outside every folder),
  - a header named *_internal.h is included from outside its own folder
    (the folder the header sits in; tests/ is not checked: unit tests and
    fuzz targets test internals),
  - files include each other in a circle,
  - a source file sits directly in harness/src/ (not in a subsystem
    folder), or two sources share a base name (a static archive keeps
    members by base name).
With --objects DIR (the build's obj/ folder) it also reads the symbols of
the compiled objects (nm) and fails when an object calls a function of a
folder listed below its own (through the public API or not), when a
program or its engine (host/) calls a function of the library (harness/src,
pl_dma) that libaieth.so does not export, or when objects call each other in
a circle.

Usage: check-layers.py [--root DIR] [--objects DIR]
Exit: 0 the layering holds, 1 violations (each printed), 2 usage error.
"""
import argparse
import os
import re
import subprocess
import sys

RULES_DOC = "docs/architecture.md"
# -I order of the Makefile: quoted includes resolve against the including
# file's folder first, then these.
INCLUDE_ROOTS = ["harness/include", "harness/src", "harness/base", "host", "."]
SOURCE_EXT = (".c", ".h")
# A header private to the folder it sits in.
INTERNAL_SUFFIX = "_internal.h"
# What only the library holds (not harness/base, which it shares with the
# programs' engines), and the names libaieth.so exports (harness/libaieth.map).
LIBRARY_ONLY = ("harness/src/", "pl_dma")
PUBLIC_RE = re.compile(r"^aieth_[a-z]")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def die(msg):
    print(f"check-layers: {msg}", file=sys.stderr)
    sys.exit(2)


def read_rules(root):
    """The layers block: {folder: [allowed folder or file, ...]}, in order."""
    path = os.path.join(root, RULES_DOC)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        die(f"{path}: {e.strerror}")
    rules, inside, seen = {}, False, False
    for n, line in enumerate(lines, 1):
        if line.strip() == "```layers":
            inside, seen = True, True
            continue
        if inside and line.strip() == "```":
            inside = False
            continue
        if not inside or not line.strip() or line.lstrip().startswith("#"):
            continue
        if ":" not in line:
            die(f"{path}:{n}: expected 'folder: allowed ...', found {line!r}")
        folder, allowed = line.split(":", 1)
        folder = folder.strip().rstrip("/")
        if folder in rules:
            die(f"{path}:{n}: folder {folder} listed twice")
        words = [w.rstrip("/") for w in allowed.split() if w != "-"]
        rules[folder] = words
    if not seen or not rules:
        die(f"{path}: no ```layers block")
    order = list(rules)
    for folder, allowed in rules.items():
        if not os.path.isdir(os.path.join(root, folder)):
            die(f"{path}: layers block names {folder}, which is not a folder")
        for a in allowed:
            if not os.path.exists(os.path.join(root, a)):
                die(f"{path}: {folder} may include {a}, which does not exist")
            owner = folder_of(a, rules)
            if owner is None or order.index(owner) >= order.index(folder):
                die(f"{path}: {folder} may include {a}, but {owner or a} is not listed "
                    f"above {folder} (dependencies point down the list)")
    return rules


def folder_of(rel, rules):
    """The rule folder owning rel (the longest matching prefix), or None."""
    best = None
    for folder in rules:
        if rel == folder or rel.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def allowed(src_folder, target, rules):
    if folder_of(target, rules) == src_folder:
        return True
    for a in rules[src_folder]:
        if target == a or target.startswith(a + "/"):
            return True
    return False


def sources(root, rules):
    out = []
    for folder in rules:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(SOURCE_EXT):
                    rel = os.path.relpath(os.path.join(dirpath, name), root)
                    if rel not in out:
                        out.append(rel)
    return out


def resolve(root, rel, name):
    for base in [os.path.dirname(rel)] + INCLUDE_ROOTS:
        cand = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None


def find_cycle(graph):
    """One circle of the directed graph {node: {node: label}}, or None."""
    WHITE, GREY, BLACK = 0, 1, 2
    color = {v: WHITE for v in graph}
    sys.setrecursionlimit(max(1000, 4 * len(graph) + 100))

    def visit(v, path):
        color[v] = GREY
        path.append(v)
        for w in sorted(graph.get(v, {})):
            if color.get(w, WHITE) == GREY:
                return path[path.index(w):] + [w]
            if color.get(w, WHITE) == WHITE:
                c = visit(w, path)
                if c:
                    return c
        path.pop()
        color[v] = BLACK
        return None

    for v in sorted(graph):
        if color[v] == WHITE:
            c = visit(v, [])
            if c:
                return c
    return None


def all_cycles(graph):
    """Every circle, one per strongly connected group (Tarjan)."""
    index, low, stack, on, groups = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(max(1000, 4 * len(graph) + 100))

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            g = []
            while True:
                w = stack.pop()
                on.discard(w)
                g.append(w)
                if w == v:
                    break
            if len(g) > 1:
                groups.append(sorted(g))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    cycles = []
    for g in groups:
        sub = {v: {w: l for w, l in graph[v].items() if w in g} for v in g}
        cycles.append(find_cycle(sub))
    return cycles


def check_includes(root, rules, problems):
    files = sources(root, rules)
    graph = {}
    by_base = {}
    for rel in files:
        if not rel.endswith(".c"):
            continue
        if rel.startswith(("harness/src/", "harness/base/", "pl_dma/")):
            archive = "libaieth.a"
        elif rel.count("/") >= 2 and rel.startswith("host/"):
            archive = f"lib{rel.split('/')[1]}.a"  # an engine's archive (Makefile)
        else:
            continue
        by_base.setdefault((archive, os.path.basename(rel)), []).append(rel)
    for (archive, base), rels in sorted(by_base.items()):
        if len(rels) > 1:
            problems.append(f"{' and '.join(sorted(rels))}: two sources named {base} ({archive} keeps "
                            f"members by base name; rename one)")
    top = os.path.join(root, "harness/src")
    for name in sorted(os.listdir(top)) if os.path.isdir(top) else []:
        if name.endswith(SOURCE_EXT):
            problems.append(f"harness/src/{name}: a source file directly in harness/src/; "
                            f"it belongs in a subsystem folder ({RULES_DOC})")
        elif os.path.isdir(os.path.join(top, name)) and not folder_of(f"harness/src/{name}", rules):
            problems.append(f"harness/src/{name}/: a folder missing from the layers block of "
                            f"{RULES_DOC} (give it a line at the height of what it uses)")
    for rel in files:
        src_folder = folder_of(rel, rules)
        graph.setdefault(rel, {})
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                name = m.group(1)
                target = resolve(root, rel, name)
                if target is None:
                    problems.append(f"{rel}:{n}: #include \"{name}\" is not a file of the "
                                    f"tree (system headers take <...>)")
                    continue
                graph[rel][target] = n
                if (os.path.basename(target).endswith(INTERNAL_SUFFIX) and
                        os.path.dirname(target) != os.path.dirname(rel)):
                    problems.append(f"{rel}:{n}: #include \"{name}\": {target} is private to "
                                    f"{os.path.dirname(target)}/ (a header named *{INTERNAL_SUFFIX} "
                                    f"is included only by files of its own folder; "
                                    f"{RULES_DOC}, The layers)")
                tf = folder_of(target, rules)
                if tf is None:
                    problems.append(f"{rel}:{n}: #include \"{name}\" ({target}) is outside "
                                    f"every folder of {RULES_DOC}")
                elif not allowed(src_folder, target, rules):
                    may = " ".join(rules[src_folder]) or "nothing else"
                    problems.append(f"{rel}:{n}: #include \"{name}\": {src_folder} may not "
                                    f"include {tf} ({target}); it may include {may}")
    for cyc in all_cycles(graph):
        steps = [f"{a}:{graph[a][b]} -> {b}" for a, b in zip(cyc, cyc[1:])]
        problems.append("include circle: " + ", ".join(steps))
    return len(files)


def nm_symbols(path):
    try:
        out = subprocess.run(["nm", "-g", path], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die(f"nm {path}: {e}")
    defined, used = set(), set()
    for line in out.splitlines():
        p = line.split()
        if len(p) == 2 and p[0] == "U":
            used.add(p[1])
        elif len(p) == 3 and p[1] in "TDBRCVWG":
            defined.add(p[2])
    return defined, used


def check_calls(root, objdir, rules, problems):
    objs = {}
    for dirpath, dirnames, filenames in os.walk(objdir):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".o"):
                obj = os.path.join(dirpath, name)
                src = os.path.relpath(obj, objdir)[:-2] + ".c"
                if folder_of(src, rules) and os.path.isfile(os.path.join(root, src)):
                    objs[src] = nm_symbols(obj)
    if not objs:
        die(f"{objdir}: no objects of the tree's folders (build first)")
    order = list(rules)
    owner = {}
    for src, (defined, _) in objs.items():
        for s in defined:
            owner[s] = src
    graph = {src: {} for src in objs}
    for src, (_, used) in objs.items():
        for s in sorted(used):
            dst = owner.get(s)
            if dst is None or dst == src:
                continue
            graph[src].setdefault(dst, s)
            sf, df = folder_of(src, rules), folder_of(dst, rules)
            if order.index(df) > order.index(sf):
                problems.append(f"{src}: calls {s}() of {dst}: {df} is listed above {sf} "
                                f"in {RULES_DOC} (dependencies point down the list)")
            elif (sf.split("/")[0] == "host" and df.startswith(LIBRARY_ONLY)
                  and not PUBLIC_RE.match(s)):
                problems.append(f"{src}: calls {s}() of {dst}: a program or its engine "
                                f"(host/) uses the library through its public API "
                                f"(aieth_<noun>_...) and the shared helpers of harness/base "
                                f"only ({RULES_DOC}, The cut)")
    for cyc in all_cycles(graph):
        steps = [f"{a} -> {b} ({graph[a][b]})" for a, b in zip(cyc, cyc[1:])]
        problems.append("call circle: " + ", ".join(steps))
    return len(objs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=".", help="the tree (default: .)")
    ap.add_argument("--objects", help="the build's obj/ folder: also check calls")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    rules = read_rules(root)
    problems = []
    nfiles = check_includes(root, rules, problems)
    nobj = check_calls(root, a.objects, rules, problems) if a.objects else 0
    for p in problems:
        print(p)
    what = f"{nfiles} files, {len(rules)} folders" + (f", {nobj} objects" if a.objects else "")
    if problems:
        print(f"check-layers: {len(problems)} problem(s) in {what} (rules: {RULES_DOC})")
        return 1
    print(f"check-layers: layering holds ({what})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
