# SPDX-License-Identifier: MIT
"""The files of the tree, as the checks of make layers see them: git's files
(tracked, and new ones not ignored) in a git checkout; elsewhere (a copy of
the tree, a release tarball) every file but .git, build folders and what
.gitignore ignores, so that a run's outputs (out/, report.json) are never
taken for sources."""
import fnmatch
import os
import subprocess


def _ignore_rules(root):
    rules = []
    try:
        with open(os.path.join(root, ".gitignore"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return rules
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        neg = line.startswith("!")
        line = line[1:] if neg else line
        anchored = line.startswith("/") or "/" in line.rstrip("/")
        rules.append((neg, anchored, line.strip("/")))
    return rules


def _ignored(rel, rules):
    parts = rel.split("/")
    hit = False
    for neg, anchored, pat in rules:
        # a pattern matches the path or one of the folders above it
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i]) if anchored else parts[i - 1]
            if fnmatch.fnmatchcase(sub, pat):
                hit = not neg
                break
    return hit


def tree_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard"],
                             check=True, capture_output=True, text=True).stdout
        return [f for f in out.splitlines() if os.path.isfile(os.path.join(root, f))]
    except (OSError, subprocess.CalledProcessError):
        rules = _ignore_rules(root)
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if x not in (".git", "__pycache__")
                       and not x.startswith("build")]
            for n in names:
                rel = os.path.relpath(os.path.join(d, n), root)
                if not _ignored(rel, rules):
                    files.append(rel)
        return files
