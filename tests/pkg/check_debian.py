#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_debian.py [--update]: debian/ in step with the tree (make
deb-changelog-check, part of make test's lint stage).

  - debian/changelog's newest entry is harness/include/aieth/version.h's
    version, and CHANGELOG.md has a section for it; the entry's
    distribution is UNRELEASED exactly while that section says
    "unreleased" (a release changes both);
  - debian/libaieth0.symbols is for the soname the Makefile gives that
    version and lists exactly harness/abi/symbols.txt's symbols (make
    abi-update writes that list; --update writes the symbols file from it,
    a new symbol with the current version, the others keeping theirs).
Exits 1 naming each difference."""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SYMBOLS = ROOT / "debian" / "libaieth0.symbols"


def version_h():
    text = (ROOT / "harness/include/aieth/version.h").read_text()
    return re.search(r'^#define AIETH_VERSION_STRING "([^"]+)"', text, re.M).group(1)


def soname(version):
    # the Makefile's rule: before 1.0 the minor is in the soname
    major, minor = version.split(".")[:2]
    return "libaieth.so." + (f"0.{minor}" if major == "0" else major)


def abi_symbols():
    out = []
    for line in (ROOT / "harness/abi/symbols.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            out.append(line.split()[0])
    return out


def read_symbols_file():
    head, syms = None, {}
    if SYMBOLS.exists():
        for line in SYMBOLS.read_text().splitlines():
            if line.startswith(" "):
                m = re.match(r"^ (\S+)@Base (\S+)$", line)
                if m:
                    syms[m.group(1)] = m.group(2)
            elif line and not line.startswith("#"):
                head = line
    return head, syms


def check(version, errors):
    first = (ROOT / "debian/changelog").read_text().splitlines()[0]
    m = re.match(r"^aieth \(([^)]+)\) ([\w-]+); urgency=\w+$", first)
    if not m:
        errors.append(f"debian/changelog: first line not 'aieth (VERSION) DIST; urgency=...': {first}")
        return
    deb_version, dist = m.groups()
    if deb_version != version:
        errors.append(f"debian/changelog: newest entry {deb_version}, version.h says {version} "
                      f"(add an entry: dch -v {version})")
    section = re.search(r"^## \[" + re.escape(version) + r"\](.*)$",
                        (ROOT / "CHANGELOG.md").read_text(), re.M)
    if not section:
        errors.append(f"CHANGELOG.md: no '## [{version}]' section for version.h's version")
    else:
        unreleased = "unreleased" in section.group(1).lower()
        if unreleased != (dist == "UNRELEASED"):
            errors.append(f"debian/changelog: {version} is {dist}, CHANGELOG.md's section says "
                          f"'{section.group(0)}' (UNRELEASED exactly while it is unreleased)")
    head, syms = read_symbols_file()
    want_head = f"{soname(version)} libaieth0 #MINVER#"
    if head != want_head:
        errors.append(f"debian/libaieth0.symbols: header '{head}', the soname of {version} wants '{want_head}'")
    abi = abi_symbols()
    for s in sorted(set(abi) - set(syms)):
        errors.append(f"debian/libaieth0.symbols: {s} missing (harness/abi/symbols.txt has it)")
    for s in sorted(set(syms) - set(abi)):
        errors.append(f"debian/libaieth0.symbols: {s} is not in harness/abi/symbols.txt")
    # a new soname is a new library: a program built against it needs a
    # libaieth0 of that soname, so no symbol's minimum may be older
    for s, v in sorted(syms.items()):
        if soname(v) != soname(version):
            errors.append(f"debian/libaieth0.symbols: {s}@Base {v} is of {soname(v)}, older than "
                          f"{soname(version)} (check_debian.py --update sets it to {version})")


def update(version):
    _, syms = read_symbols_file()
    lines = ["# SPDX-License-Identifier: MIT",
             "# harness/abi/symbols.txt's list (tests/pkg/check_debian.py --update)",
             f"{soname(version)} libaieth0 #MINVER#"]
    # a symbol keeps the version that added it while the soname stays
    keep = {s: v for s, v in syms.items() if soname(v) == soname(version)}
    lines += [f" {s}@Base {keep.get(s, version)}" for s in abi_symbols()]
    SYMBOLS.write_text("\n".join(lines) + "\n")


def main():
    version = version_h()
    if sys.argv[1:] == ["--update"]:
        update(version)
    errors = []
    check(version, errors)
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        return 1
    print(f"check_debian: debian/ is in step with {version} ({len(abi_symbols())} symbols)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
