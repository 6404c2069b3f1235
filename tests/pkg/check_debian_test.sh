#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_debian_test.sh - tests/pkg/check_debian.py fails on each way
# debian/ can fall out of step (make deb-changelog-check runs it after the
# check itself): in a copy of the files it reads, each broken on purpose.
set -euo pipefail
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
copy() {
  rm -rf "$T/t" && mkdir -p "$T/t/harness/include/aieth" "$T/t/harness/abi" "$T/t/debian" "$T/t/tests/pkg"
  cp harness/include/aieth/version.h "$T/t/harness/include/aieth/"
  cp harness/abi/symbols.txt "$T/t/harness/abi/"
  cp CHANGELOG.md "$T/t/"
  cp debian/changelog debian/libaieth0.symbols "$T/t/debian/"
  cp tests/pkg/check_debian.py "$T/t/tests/pkg/"
}
# case NAME WANT_EXIT TEXT CMD...: CMD breaks the copy; check_debian.py
# must exit WANT_EXIT and (when failing) say TEXT
case_() {
  local name=$1 want=$2 text=$3 got=0; shift 3
  copy
  (cd "$T/t" && "$@")
  python3 "$T/t/tests/pkg/check_debian.py" >"$T/out" 2>&1 || got=$?
  if [[ $got -eq $want ]] && grep -qF -- "$text" "$T/out"; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL: $name: exit $got (expected $want), output:" >&2; cat "$T/out" >&2; fi
}
case_ "in step" 0 "in step" true
case_ "version.h bumped" 1 "newest entry" sed -i 's/^#define AIETH_VERSION_STRING ".*"/#define AIETH_VERSION_STRING "9.9.9"/' harness/include/aieth/version.h
case_ "released in CHANGELOG.md only" 1 "UNRELEASED exactly" sed -i -E 's/^(## \[[0-9.]+\]) - unreleased/\1 - 2027-01-01/I' CHANGELOG.md
case_ "released in debian/changelog only" 1 "UNRELEASED exactly" sed -i '1s/UNRELEASED/unstable/' debian/changelog
case_ "symbol added to the ABI" 1 "aieth_zz_new missing" sh -c 'echo "aieth_zz_new T" >>harness/abi/symbols.txt'
case_ "symbol removed from the ABI" 1 "is not in harness/abi/symbols.txt" sed -i '3d' harness/abi/symbols.txt
case_ "soname" 1 "header" sed -i -E 's/^libaieth\.so\.[0-9.]+ /libaieth.so.0.0 /' debian/libaieth0.symbols
case_ "minimum of an older soname" 1 "older than" sed -i -E '0,/@Base /s/@Base [0-9.]+$/@Base 0.0.1/' debian/libaieth0.symbols
case_ "--update resets an older soname's minimum" 0 "in step" sh -c 'sed -i -E "0,/@Base /s/@Base [0-9.]+\$/@Base 0.0.1/" debian/libaieth0.symbols && python3 tests/pkg/check_debian.py --update >/dev/null && ! grep -q "@Base 0.0.1" debian/libaieth0.symbols'
case_ "--update writes the symbols" 0 "in step" sh -c 'echo "aieth_zz_new T" >>harness/abi/symbols.txt && python3 tests/pkg/check_debian.py --update >/dev/null'
echo "check_debian_test.sh: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
