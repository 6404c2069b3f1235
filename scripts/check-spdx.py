#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every file of the tree carries the MIT SPDX line (in its first or last
lines), or is covered by a path of REUSE.toml (files that cannot hold a
comment: JSON, data, corpora, binaries). Exits 1 naming each file that has
neither, so a new file without a license line fails make test."""
import fnmatch
import os
import sys
import tomllib

sys.dont_write_bytecode = True  # importing treefiles leaves no __pycache__ in the tree
from treefiles import tree_files  # noqa: E402

TAG = b"SPDX-License-Identifier: MIT"


def covered(path, globs):
    # REUSE's "**" matches across folders; fnmatch's "*" already does.
    return any(fnmatch.fnmatchcase(path, g.replace("**", "*")) for g in globs)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    with open(os.path.join(root, "REUSE.toml"), "rb") as f:
        reuse = tomllib.load(f)
    globs = []
    for a in reuse.get("annotations", []):
        if a.get("SPDX-License-Identifier") == "MIT":
            p = a["path"]
            globs += p if isinstance(p, list) else [p]
    bad = []
    for rel in sorted(tree_files(root)):
        with open(os.path.join(root, rel), "rb") as f:
            data = f.read()
        if TAG in data[:512] or TAG in data[-256:] or covered(rel, globs):
            continue
        bad.append(rel)
    for rel in bad:
        print(f"{rel}: no '{TAG.decode()}' line and not covered by REUSE.toml", file=sys.stderr)
    if bad:
        return 1
    print(f"check-spdx: every file is MIT-licensed ({len(tree_files(root))} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
