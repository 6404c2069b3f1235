#!/usr/bin/env bash
# Install the Debian 12 packages aieth needs to build and test, when missing.
# Idempotent: installs nothing when everything is present. As non-root it
# prints the exact apt-get line to run instead.
set -euo pipefail

PKGS=(
  build-essential      # gcc, make, libc headers
  pkg-config
  clang                # second compiler, libFuzzer targets
  libclang-rt-14-dev   # clang's sanitizer and libFuzzer runtimes
  libjson-c-dev        # board facts, constraints, test descriptions
  libcunit1-dev        # unit tests
  libarchive-dev       # th_package: reads the XSA (zip) and libadf.a (ar)
  xilinx-bootgen       # th_package: builds the AIE PDI from the graph's CDOs
  libxrt-dev           # tests only: XRT's xclbin parser checks th_package output; the xrt backend runs on XRT's noop mode (dlopen, never linked)
  uuid-dev             # XRT's xclbin.h includes <uuid/uuid.h>; libxrt-dev lacks the dependency
  jq                   # end-to-end tests: report.json fields
  python3-jsonschema   # end-to-end tests: reports and descriptions against their JSON Schemas
  libxml2-utils        # end-to-end tests: junit.xml is well-formed (xmllint)
)

missing=()
for p in "${PKGS[@]}"; do
  [[ $p == \#* ]] && continue
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi

cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
if [[ $(id -u) -ne 0 ]]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root:  apt-get update && ${cmd[*]}" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
"${cmd[@]}"
