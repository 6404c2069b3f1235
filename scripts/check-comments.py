#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Three rules for what the tree says about itself, run by make layers:

1. No file cites the project's private research notes: users never see
   them, so code and docs cite the public source (a document, a file of a
   public repository) or state the fact. A line naming the notes' folder,
   or one of the notes by name, fails with file:line.
2. A source file whose opening comment names a file (`foo.c - what it is`)
   names itself: its base name, its name without the extension, or the
   end of its path (`runner/run_internal.h`). Files move; this catches the
   comment left behind.
3. No file cites an issue by number (the word and a number after it):
   the tracker is not part of the repository, so a reader cannot follow
   the reference. Cite the document (docs/...) or say the reason.

Exits 1 naming every offending file:line, 0 otherwise. tests/data holds
fixtures and is not checked for rule 1."""
import os
import re
import sys

sys.dont_write_bytecode = True  # importing treefiles leaves no __pycache__ in the tree
from treefiles import tree_files  # noqa: E402

# Spelled in pieces so that this file does not match its own rule.
NOTES_DIR = "re" + "search/"
NOTES = re.compile(r"(?<![\w./-])(" + re.escape(NOTES_DIR) + r"|(?:anchor|ecosystem|farm-engines|"
                   r"xrt|xclbin)\.md\b)")
NOTES_SKIP = ("tests/data/",)
# the word, singular or plural, then an optional '#' and a number
ISSUE = re.compile(r"\b[Ii]" + r"ssues? #?[0-9]+")

SOURCE_DIRS = ("harness/", "host/", "pl_dma/", "tests/", "examples/", "python/", "scripts/")
SOURCE_EXT = (".c", ".h", ".py", ".sh")
HEAD_LINES = 8
# "/* name - ", " * name - ", "# name - ", "// name - ", '"""name - '
HEAD = re.compile(r'^\s*(?:/\*+|\*|#+|//|""")\s*([A-Za-z0-9_./-]+)\s+-\s')


def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return None  # binary or unreadable: nothing to cite


def names_itself(rel, name):
    base = os.path.basename(rel)
    stem = base.rsplit(".", 1)[0]
    return name in (base, stem, rel) or rel.endswith("/" + name)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files = sorted(tree_files(root))
    bad = []
    for rel in files:
        text = read_text(os.path.join(root, rel))
        if text is None:
            continue
        lines = text.split("\n")
        if not rel.startswith(NOTES_SKIP):
            for no, line in enumerate(lines, 1):
                m = NOTES.search(line)
                if m:
                    bad.append(f"{rel}:{no}: cites the private notes ({m.group(1)}); cite the "
                               "public source or state the fact")
                m = ISSUE.search(line)
                if m:
                    bad.append(f"{rel}:{no}: cites a tracker issue ('{m.group(0)}') the repository "
                               "does not hold; cite docs/ or state the reason")
        if rel.startswith(SOURCE_DIRS) and rel.endswith(SOURCE_EXT):
            for no, line in enumerate(lines[:HEAD_LINES], 1):
                m = HEAD.match(line)
                if m:
                    if not names_itself(rel, m.group(1)):
                        bad.append(f"{rel}:{no}: the opening comment names '{m.group(1)}', "
                                   f"expected '{os.path.basename(rel)}' or its path")
                    break
    for msg in bad:
        print(msg, file=sys.stderr)
    if bad:
        return 1
    print(f"check-comments: no private notes or tracker issues cited, every opening comment names its file "
          f"({len(files)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
