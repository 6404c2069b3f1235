#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# clean_root.sh - the Debian packages in clean Debian 12 roots (make
# deb-check, a stage of .ci/run; debian/README.source):
#   amd64: a minimal root made by mmdebstrap from Debian's packages only;
#     the five packages installed with apt from a local repository
#     (build-deb/amd64, make deb), nothing else pulled in; the aieth user
#     and work folder made, the service neither enabled nor started;
#     run_test on an example, a C program built with pkg-config aieth,
#     th_server started with the unit's user, umask, state folder and
#     command line (systemd is not PID 1 in a chroot: by hand, as the
#     unit would) serving run_test; the Python package imported and a
#     pytest test run through its plugin (registered, no -p); apt remove
#     keeps the conffiles only, apt purge leaves the root as it was.
#   arm64: the arm64 set (make deb ARCH=arm64) installed into an arm64 root
#     (qemu-user through binfmt_misc), run_test run there, the Python
#     package loading the arm64 library.
# The roots (with the packages the tests use preinstalled) are cached as
# tarballs in AIETH_DEB_CACHE (default /var/cache/aieth-deb), named by a
# hash of what goes into them; make deb's packages are built when missing.
# Root only (chroot, mounts); all of it in private mount and PID
# namespaces, so that nothing it mounts or starts outlives it.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/../.."
SRC=$PWD
if [[ -z ${AIETH_DEB_NS:-} ]]; then
  [[ $(id -u) -eq 0 ]] || { echo "clean_root.sh: needs root (chroot, mounts)" >&2; exit 1; }
  export AIETH_DEB_NS=1
  exec unshare --mount --propagation private --pid --fork --mount-proc bash "$0" "$@"
fi
export AIETH_SRC=$SRC AIETH_BUILD=$SRC/build-deb
# shellcheck source=../e2e/lib.sh
. tests/e2e/lib.sh
# expect CODE CMD... as lib.sh's, under set -e (a failing CMD is counted,
# not the end of the script)
expect() {
  local want=$1 got=0; shift
  "$@" >"$TMP/out" 2>"$TMP/err" || got=$?
  if [[ $got -eq $want ]]; then ok; else bad "$* -> exit $got, expected $want"; cat "$TMP/out" "$TMP/err" >&2; fi
}
CACHE=${AIETH_DEB_CACHE:-/var/cache/aieth-deb}
SUITE=bookworm
VERSION=$(sed -n 's/^#define AIETH_VERSION_STRING "\(.*\)"/\1/p' harness/include/aieth/version.h)
PKGS=(libaieth0 libaieth-dev aieth-tools aieth-server python3-aieth)
ARM_PKGS=(libaieth0 aieth-tools aieth-server python3-aieth)
# What the packages depend on and the tests use, preinstalled in the cached
# root: installing ours then needs nothing but the local repository. The
# render group: systemd (udev) makes it on every systemd system; the
# sysusers entry adds aieth to it.
AMD64_INCLUDE=libjson-c5,libarchive13,libsqlite3-0,libmicrohttpd12,libcurl4,libgnutls30,init-system-helpers,systemd-standalone-sysusers,systemd-standalone-tmpfiles,passwd,python3,python3-numpy,python3-pytest,libjson-c-dev,libarchive-dev,libsqlite3-dev,libmicrohttpd-dev,libcurl4-openssl-dev,pkg-config,gcc,libc6-dev
ARM64_INCLUDE=libjson-c5,libarchive13,libsqlite3-0,libmicrohttpd12,libcurl4,libgnutls30,init-system-helpers,systemd-standalone-sysusers,systemd-standalone-tmpfiles,passwd,python3,python3-numpy
W=$SRC/build-deb/check
t_all=$(date +%s)

say() { echo "== deb-check: $*"; }

# root_tar ARCH INCLUDE: the cached root's tarball, made when missing
root_tar() {
  local arch=$1 include=$2 key tar
  key=$(printf '%s %s %s\n' "$SUITE" "$arch" "$include" | sha256sum | cut -c1-12)
  tar=$CACHE/$SUITE-$arch-$key.tar
  if [[ ! -f $tar ]]; then
    mkdir -p "$CACHE"
    rm -rf --one-file-system "$CACHE/$SUITE-$arch-"*
    local t0; t0=$(date +%s)
    say "making the $arch root (mmdebstrap, cached in $tar)" >&2
    mmdebstrap --quiet --variant=apt --architectures="$arch" --include="$include" \
      --customize-hook='chroot "$1" groupadd --system render' \
      "$SUITE" "${tar%.tar}.part.tar" >&2 || { echo "clean_root.sh: mmdebstrap failed" >&2; exit 1; }
    mv "${tar%.tar}.part.tar" "$tar"
    say "$arch root made in $(($(date +%s) - t0)) s" >&2
  fi
  echo "$tar"
}

# fresh_root ARCH INCLUDE DIR: the cached root unpacked into DIR, /proc,
# /dev and the local repository (build-deb/ARCH, read-only) mounted, apt
# pointed at that repository only
fresh_root() {
  local arch=$1 tar r=$3
  tar=$(root_tar "$arch" "$2")
  rm -rf --one-file-system "$r" && mkdir -p "$r"
  tar -x -C "$r" -f "$tar"
  mount -t proc proc "$r/proc"
  mount --rbind /dev "$r/dev"
  mkdir -p "$r/repo"
  mount --bind "$SRC/build-deb/$arch" "$r/repo"
  mount -o remount,bind,ro "$r/repo"
  rm -f "$r"/etc/apt/sources.list "$r"/etc/apt/sources.list.d/*
  echo 'deb [trusted=yes] file:/repo ./' >"$r/etc/apt/sources.list.d/aieth.list"
}

# inr ROOT CMD...: CMD in ROOT, a clean environment
inr() {
  local r=$1; shift
  chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"
}

# snapshot ROOT OUT: every file's path, type and mode, owner and (under
# /etc and /var) content hash; apt's and dpkg's own records left out, and
# the shadow tools' backups of the previous /etc/passwd, group, shadow and
# gshadow (passwd-, ...: each user or group change rewrites them; the
# files themselves are compared)
snapshot() {
  (cd "$1" && find . -xdev -regextype posix-extended \( -path ./proc -o -path ./dev -o -path ./sys -o -path ./run \
      -o -path ./tmp -o -path ./repo -o -path ./root -o -path ./var/lib/apt -o -path ./var/cache \
      -o -path ./var/lib/dpkg -o -path ./var/log -o -regex '\./etc/(passwd|group|shadow|gshadow)-' \) \
      -prune -o -printf '%p %M %U:%G\n' | sort
    find ./etc ./var -xdev -regextype posix-extended \( -path ./var/lib/apt -o -path ./var/cache -o -path ./var/lib/dpkg \
      -o -path ./var/log -o -regex '\./etc/(passwd|group|shadow|gshadow)-' \) -prune -o -type f -print0 |
      sort -z | xargs -0 sha256sum) >"$2"
}

# check_built ARCH PKG...: make deb's packages of ARCH, built when one is
# missing or a file of the tree is newer than their .changes
check_built() {
  local arch=$1 p changes newest stale=
  changes=$(ls "$SRC/build-deb/$arch/"*.changes 2>/dev/null | head -n 1 || true)
  for p in "${@:2}"; do
    ls "$SRC/build-deb/$arch/${p}_${VERSION}_"*.deb >/dev/null 2>&1 || stale=1
  done
  if [[ -z $stale && -n $changes ]] && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    newest=$(git ls-files -z --cached --others --exclude-standard | xargs -0 stat -c %Y 2>/dev/null | sort -n | tail -n 1)
    [[ $newest -le $(stat -c %Y "$changes") ]] || stale=1
  fi
  [[ -n $changes ]] || stale=1
  if [[ -n $stale ]]; then
    say "building the $arch packages (make deb ARCH=$arch)"
    make --no-print-directory deb ARCH="$arch" >"$W/make-deb-$arch.log" 2>&1 ||
      { tail -n 40 "$W/make-deb-$arch.log" >&2; bad "make deb ARCH=$arch failed"; finish; exit 1; }
  fi
}

mkdir -p "$W"
# binfmt_misc: the arm64 root's maintainer scripts and programs run under
# qemu-user (qemu-user-static registers qemu-aarch64, F: usable in a chroot)
if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
fi
if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
  update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
fi

# ---- amd64 ----------------------------------------------------------------
t0=$(date +%s)
check_built amd64 "${PKGS[@]}"
R=$W/root-amd64
fresh_root amd64 "$AMD64_INCLUDE" "$R"
expect 0 inr "$R" apt-get update -q
inr "$R" dpkg-query -W -f='${Package}\n' | sort >"$W/pkgs-before"
snapshot "$R" "$W/files-before"
if inr "$R" apt-get install -y -q --no-install-recommends "${PKGS[@]}" >"$W/install.log" 2>&1; then ok; else bad "apt-get install ${PKGS[*]} failed"; cat "$W/install.log" >&2; fi
inr "$R" dpkg-query -W -f='${Package}\n' | sort >"$W/pkgs-after"
added=$(comm -13 "$W/pkgs-before" "$W/pkgs-after" | tr '\n' ' ')
[[ $added == "$(printf '%s\n' "${PKGS[@]}" | sort | tr '\n' ' ')" ]] && ok || bad "apt installed: $added (only ours expected: the cached root lacks a dependency)"

# the user and its work folder (sysusers, tmpfiles), not enabled, not started
pw=$(inr "$R" getent passwd aieth || true)
[[ $pw == aieth:x:*:*:*:/var/lib/aieth:/usr/sbin/nologin ]] && ok || bad "user aieth: '$pw'"
inr "$R" id -nG aieth | grep -qw render && ok || bad "aieth is not in group render"
[[ $(inr "$R" stat -c '%U:%G %a' /var/lib/aieth) == "aieth:aieth 700" ]] && ok || bad "/var/lib/aieth: $(inr "$R" stat -c '%U:%G %a' /var/lib/aieth 2>&1)"
compgen -G "$R/etc/rc[2-5].d/S*th_server" >/dev/null && bad "th_server enabled in /etc/rc?.d" || ok
[[ -e $R/etc/systemd/system/multi-user.target.wants/th_server.service ]] && bad "th_server.service enabled" || ok
pgrep -x th_server >/dev/null && bad "the install started th_server" || ok
# systemd is not PID 1 in a chroot (nor, here, on the host): th_server is
# started below as the unit would start it
say "th_server started by hand with the unit's User=, Group=, UMask=, StateDirectory=, EnvironmentFile= and ExecStart= (no systemd in the root)"
inr "$R" dpkg-query -W -f='${Conffiles}\n' aieth-server | grep -q '^ /etc/aieth/th_server.conf ' && ok || bad "/etc/aieth/th_server.conf is not a conffile"

# run_test on an example, from the installed data files (/usr/share/aieth)
rm -rf "$R/tmp/ex" && cp -r examples/adder_perf "$R/tmp/ex"
expect 0 inr "$R" sh -c 'cd /tmp/ex && run_test -o out test.json'
[[ $(jq -r .summary.failed "$R/tmp/ex/out/report.json" 2>/dev/null) == 0 ]] && ok || bad "run_test's report: $(head -c 300 "$R/tmp/ex/out/report.json" 2>&1)"

# libaieth-dev: a program built with pkg-config aieth, run
cp examples/c_api/first_run.c "$R/tmp/first_run.c"
expect 0 inr "$R" sh -c 'cc -Wall -Werror -o /tmp/first_run /tmp/first_run.c $(pkg-config --cflags --libs aieth) && /tmp/first_run'

# th_server as the unit runs it: User=, Group=, UMask=, StateDirectory=,
# EnvironmentFile= and ExecStart= read from the installed unit; the
# configuration and token file made as /etc/aieth/th_server.conf says
unit=$R/lib/systemd/system/th_server.service
u=$(sed -n 's/^User=//p' "$unit") g=$(sed -n 's/^Group=//p' "$unit") um=$(sed -n 's/^UMask=//p' "$unit")
sd=$(sed -n 's/^StateDirectory=//p' "$unit") sdm=$(sed -n 's/^StateDirectoryMode=//p' "$unit")
envf=$(sed -n 's/^EnvironmentFile=-\{0,1\}//p' "$unit") cmd=$(sed -n 's/^ExecStart=//p' "$unit")
[[ $u == aieth && -n $um && $sd == aieth && $envf == /etc/aieth/th_server.conf && -n $cmd ]] && ok || bad "unit: User=$u UMask=$um StateDirectory=$sd EnvironmentFile=$envf ExecStart=$cmd"
tok=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
inr "$R" sh -c "install -o aieth -g aieth -m 600 /dev/null /etc/aieth/tokens && printf 'ci %s\n' '$tok' >>/etc/aieth/tokens"
printf '%s\n' "$tok" >"$R/tmp/client.token"
sed -i 's|^TH_SERVER_OPTS=.*|TH_SERVER_OPTS="--listen 127.0.0.1:0 --token-file /etc/aieth/tokens --backend emu --work-dir /var/lib/aieth"|' "$R/etc/aieth/th_server.conf"
log=$W/th_server.log
: >"$log"
inr "$R" sh -c "install -d -o $u -g $g -m ${sdm:-0755} /var/lib/$sd && set -a && . $envf && set +a && umask $um && cd /var/lib/$sd && exec setpriv --reuid=$u --regid=$g --init-groups --no-new-privs --inh-caps=-all --bounding-set=-all $cmd" >"$log" 2>&1 &
SP=$!
if log_has "$log" 'listening on 127\.0\.0\.1:[0-9]+'; then ok; else bad "th_server did not start: $(cat "$log")"; fi
port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
tsp=$(pgrep -x th_server | head -n 1 || true)
[[ -n $tsp && $(stat -c %u "/proc/$tsp") == "$(inr "$R" id -u aieth)" ]] && ok || bad "th_server is not running as aieth (pid '$tsp')"
grep -q '^Umask:.*0077' "/proc/$tsp/status" 2>/dev/null && ok || bad "th_server's umask: $(grep Umask "/proc/$tsp/status" 2>&1)"
rm -rf "$R/tmp/ex/rout"
expect 0 inr "$R" sh -c "cd /tmp/ex && run_test --backend remote --server http://127.0.0.1:$port --token-file /tmp/client.token -o rout test.json"
[[ $(jq -r .summary.failed "$R/tmp/ex/rout/report.json" 2>/dev/null) == 0 ]] && ok || bad "run_test through th_server: $(head -c 300 "$R/tmp/ex/rout/report.json" 2>&1)"
kill -TERM "$tsp" 2>/dev/null || true
wait "$SP" && ok || bad "th_server exit $? after SIGTERM: $(tail -n 5 "$log")"

# the Python package: imported from dist-packages, a pytest test through
# the plugin pytest found by its entry point
expect 0 inr "$R" python3 -c 'import aieth, numpy; assert aieth.__version__ == "'"$VERSION"'", aieth.__version__'
mkdir -p "$R/tmp/pyt"
cat >"$R/tmp/pyt/test_pkg.py" <<'EOF'
def test_adder(aieth_run_test):
    report = aieth_run_test("/tmp/ex/test.json")
    assert report.exit_code == 0, report.status
EOF
if inr "$R" sh -c 'cd /tmp/pyt && python3 -m pytest -q -p no:cacheprovider' >"$W/pytest.log" 2>&1; then ok; else bad "pytest in the root"; cat "$W/pytest.log" >&2; fi
grep -q '1 passed' "$W/pytest.log" && ok || bad "pytest: $(tail -n 3 "$W/pytest.log")"

# remove: the programs and library gone, the conffiles kept; purge: the
# root as before the install
rm -rf "$R/tmp/ex" "$R/tmp/pyt" "$R/tmp/first_run"* "$R/tmp/client.token"
expect 0 inr "$R" apt-get remove -y -q "${PKGS[@]}"
[[ ! -e $R/usr/bin/run_test && ! -e $R/usr/lib/libaieth.so.$VERSION && ! -e $R/usr/lib/python3/dist-packages/aieth ]] && ok || bad "apt remove left the programs, library or Python package"
[[ -e $R/etc/aieth/th_server.conf ]] && ok || bad "apt remove took the conffile /etc/aieth/th_server.conf"
expect 0 inr "$R" apt-get purge -y -q "${PKGS[@]}"
inr "$R" dpkg-query -W -f='${Package}\n' | sort >"$W/pkgs-purged"
cmp -s "$W/pkgs-before" "$W/pkgs-purged" && ok || bad "packages after purge: $(diff "$W/pkgs-before" "$W/pkgs-purged" | tr '\n' ' ')"
snapshot "$R" "$W/files-purged"
if diff "$W/files-before" "$W/files-purged" >"$W/files-left.diff"; then ok; else bad "apt purge left the root changed:"; cat "$W/files-left.diff" >&2; fi
say "amd64: $(($(date +%s) - t0)) s"

# ---- arm64 ----------------------------------------------------------------
t0=$(date +%s)
check_built arm64 "${ARM_PKGS[@]}"
R=$W/root-arm64
fresh_root arm64 "$ARM64_INCLUDE" "$R"
expect 0 inr "$R" apt-get update -q
if inr "$R" apt-get install -y -q --no-install-recommends "${ARM_PKGS[@]}" >"$W/install-arm64.log" 2>&1; then ok; else bad "arm64: apt-get install ${ARM_PKGS[*]} failed"; cat "$W/install-arm64.log" >&2; fi
file -L "$R/usr/bin/run_test" | grep -q 'ARM aarch64' && ok || bad "arm64 root: run_test is $(file -L "$R/usr/bin/run_test")"
[[ $(inr "$R" dpkg --print-architecture) == arm64 ]] && ok || bad "the arm64 root's dpkg is not arm64"
cp -r examples/adder_perf "$R/tmp/ex"
expect 0 inr "$R" sh -c 'cd /tmp/ex && run_test -o out test.json'
[[ $(jq -r .summary.failed "$R/tmp/ex/out/report.json" 2>/dev/null) == 0 ]] && ok || bad "arm64 run_test's report: $(head -c 300 "$R/tmp/ex/out/report.json" 2>&1)"
inr "$R" getent passwd aieth >/dev/null && ok || bad "arm64: no user aieth"
expect 0 inr "$R" python3 -c 'import aieth; assert aieth.library_version() == "'"$VERSION"'", aieth.library_version()'

say "arm64: $(($(date +%s) - t0)) s"

for r in "$W/root-amd64" "$W/root-arm64"; do
  for m in repo dev proc; do umount -R "$r/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$r"
done
say "total $(($(date +%s) - t_all)) s"
finish
