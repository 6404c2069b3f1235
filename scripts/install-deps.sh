#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the Debian 12 packages aieth needs to build and test, when missing
# (and enable the arm64 architecture for the cross build).
# Idempotent: installs nothing when everything is present. As non-root it
# prints the exact apt-get line to run instead.
set -euo pipefail

PKGS=(
  build-essential      # gcc, make, libc headers
  pkg-config
  clang                # second compiler, libFuzzer targets
  libclang-rt-14-dev   # clang's sanitizer and libFuzzer runtimes
  clang-format         # make format, make format-check (.clang-format, tuned with version 14)
  libjson-c-dev        # board facts, constraints, test descriptions
  libcunit1-dev        # unit tests
  libarchive-dev       # th_package: reads the XSA (zip) and libadf.a (ar)
  xilinx-bootgen       # th_package: builds the AIE PDI from the graph's CDOs
  libxrt-dev           # tests only: XRT's xclbin parser checks th_package output; the xrt backend runs on XRT's noop mode (dlopen, never linked)
  uuid-dev             # XRT's xclbin.h includes <uuid/uuid.h>; libxrt-dev lacks the dependency
  jq                   # end-to-end tests: report.json fields
  python3              # make layers: scripts/check-layers.py
  abigail-tools        # make abi: abidw/abidiff compare libaieth's ABI with harness/abi/libaieth.abi (scripts/abi.py)
  python3-jsonschema   # end-to-end tests: reports and descriptions against their JSON Schemas
  python3-numpy        # the Python package's tests (tests/python): arrays passed without copies
  python3-pytest       # the Python package's tests: make pytest (part of make check)
  python3-venv         # end-to-end tests: pip installs the Python package into a venv (install.sh)
  python3-wheel        # ... offline, with --no-build-isolation: setuptools builds the wheel with it
  libxml2-utils        # end-to-end tests: junit.xml is well-formed (xmllint)
  libmicrohttpd-dev    # th_server's HTTP API (host/th_server/http/http_server.c)
  libcurl4-openssl-dev # the remote backend (harness/src/backends/remote/)
  libsqlite3-dev       # run_test's run history (harness/src/history/, docs/farm.md)
  curl                 # end-to-end tests: th_server's HTTP API (tests/e2e/server/th_server.sh)
  openssl              # end-to-end tests: a certificate for th_server's https (tests/e2e/server/remote.sh)
  lava-dispatcher      # end-to-end tests: LAVA's lava-run runs the shipped job (tests/e2e/farm/farm_lava.sh)
  openssh-server       # ... against an sshd on 127.0.0.1 standing in for the board
  chromium             # end-to-end tests: report.html loads without console errors and its screenshot shows the charts (tests/e2e/farm/farm_html.sh, gcc build only)
  influxdb             # end-to-end tests: run_test --upload to InfluxDB's v1 write API (tests/e2e/farm/farm_upload.sh; influxd started by the test, not the service)
  python3-yaml         # end-to-end tests: the GitLab CI template parses (tests/e2e/farm/farm_templates.sh)
  dpkg-dev             # make deb: dpkg-buildpackage, dpkg-scanpackages (the local apt repository), dpkg-gensymbols
  debhelper            # make deb: debian/rules (dh, compat 13)
  dh-python            # ... python3-aieth's dependencies (dh_python3)
  fakeroot             # ... dpkg-buildpackage's default gain-root command
  lintian              # make deb: no lintian errors (warnings justified in debian/README.source)
  mmdebstrap           # make deb-check: the clean Debian 12 roots the packages are installed into (tests/pkg/clean_root.sh)
  arch-test            # ... mmdebstrap's check that the arm64 root's programs run (qemu-user through binfmt_misc)
  qemu-user-static     # ... the arm64 root: qemu-aarch64 registered with binfmt_misc (F flag: usable in a chroot)
  binfmt-support       # ... update-binfmts, which registers it
  slurm-wlm            # end-to-end tests: a one-node Slurm (slurmctld, slurmd, munge; started by the test, not the services) runs scripts/farm/slurm/run_test.sbatch on two GRES boards (tests/e2e/farm/farm_slurm.sh)
)

# The cross build for the boards' Arm cores (make CROSS=aarch64; make
# cross-check runs its tests under qemu-user, part of make test): Debian's
# cross compiler, qemu-aarch64, and the arm64 (multiarch) -dev packages of
# the libraries libaieth and its tests link. Needs the arm64 architecture.
CROSS_ARCH=arm64
CROSS_PKGS=(
  gcc-aarch64-linux-gnu    # aarch64-linux-gnu-gcc
  crossbuild-essential-arm64  # make deb ARCH=arm64: dpkg-buildpackage -a arm64's cross toolchain
  libc6-dev-arm64-cross    # its libc; /usr/aarch64-linux-gnu is qemu's QEMU_LD_PREFIX
  qemu-user                # /usr/bin/qemu-aarch64: runs the cross-built programs and tests
  libjson-c-dev:arm64
  libcunit1-dev:arm64
  libarchive-dev:arm64
  libsqlite3-dev:arm64
  # th_server's HTTP side and the remote backend on the board. On Debian 12
  # these pull arm64 GnuTLS/OpenSSL/krb5/..., and apt upgrades the native
  # packages of the same libraries in lockstep (multiarch packages must have
  # equal versions) to Debian 12's current security releases: accepted, that
  # is what any maintained machine runs (apt-get install -s shows the list).
  libmicrohttpd-dev:arm64
  libcurl4-openssl-dev:arm64
)

add_arch=()
if ! dpkg --print-foreign-architectures | grep -qx "$CROSS_ARCH"; then
  add_arch=(dpkg --add-architecture "$CROSS_ARCH")
fi

# installed PKG[:ARCH]: installed for ARCH, else for the native architecture
# (or all); with arm64 enabled, a library's -dev package may be in twice.
native=$(dpkg --print-architecture)
installed() {
  local arch=${1#*:}
  [[ $1 == *:* ]] || arch="$native|all"
  dpkg-query -W -f='${Architecture} ${Status}\n' "$1" 2>/dev/null | grep -qE "^($arch) install ok installed$"
}

missing=()
for p in "${PKGS[@]}" "${CROSS_PKGS[@]}"; do
  [[ $p == \#* ]] && continue
  if ! installed "$p"; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 && ${#add_arch[@]} -eq 0 ]]; then
  echo "install-deps: all $((${#PKGS[@]} + ${#CROSS_PKGS[@]})) packages present"
  exit 0
fi

cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
if [[ $(id -u) -ne 0 ]]; then
  [[ ${#add_arch[@]} -eq 0 ]] || echo "install-deps: the $CROSS_ARCH architecture is not enabled" >&2
  [[ ${#missing[@]} -eq 0 ]] || echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root:  ${add_arch[*]}${add_arch[*]:+ && }apt-get update && ${cmd[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if [[ ${#add_arch[@]} -ne 0 ]]; then
  echo "install-deps: enabling the $CROSS_ARCH architecture: ${add_arch[*]}"
  "${add_arch[@]}"
fi
echo "install-deps: installing ${missing[*]}"
apt-get update -qq
"${cmd[@]}"
