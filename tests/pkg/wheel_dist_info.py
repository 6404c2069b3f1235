#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wheel_dist_info.py WHEEL SITEDIR: the .dist-info of WHEEL into SITEDIR,
as pip would install it (the pytest plugin's entry point, pytest11), for
the python3-aieth package (debian/rules). The package's modules are already
in SITEDIR (make install); each of the wheel's must be there byte for byte,
so that make install and python/pyproject.toml never ship different files.
RECORD (pip's list of installed files, for pip uninstall) is left out: dpkg
owns these files."""
import os
import sys
import zipfile


def main():
    wheel, site = sys.argv[1], sys.argv[2]
    bad = []
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            top = name.split("/", 1)[0]
            if top.endswith(".dist-info"):
                if name.endswith("/RECORD"):
                    continue
                dest = os.path.join(site, name)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with open(dest, "wb") as f:
                    f.write(z.read(name))
                continue
            try:
                with open(os.path.join(site, name), "rb") as f:
                    same = f.read() == z.read(name)
            except OSError:
                same = False
            if not same:
                bad.append(name)
        info = [n.split("/", 1)[0] for n in z.namelist() if ".dist-info/" in n][0]
    with open(os.path.join(site, info, "INSTALLER"), "w") as f:
        f.write("debian\n")
    for name in bad:
        print(f"wheel_dist_info: {name} of {wheel} is not what make install put in {site}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
