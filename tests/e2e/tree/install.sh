#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make install into a staging root; a client builds against the installed
# header and pkg-config file, links the shared library and runs with the
# installed data files. The Python package imports the installed library,
# from the prefix and from a virtual environment (pip, offline).
. "$(dirname "$0")/../lib.sh"
root=$TMP/root
# PREFIX is compiled in: the install rebuilds the library and relinks the
# programs. Done in a copy of the build's objects (made, as the build was,
# for its own PREFIX), so that the build stays as it is for the tests that
# run beside this one and after it (make check's pytest would relink all of
# it back).
ob=$TMP/build-copy
mkdir -p "$ob"
cp -a "$B/obj" "$B"/*.stamp "$ob/"
expect 0 make -C "$S" --no-print-directory O="$ob" SAN="${AIETH_SAN:-}" CC="${AIETH_CC:-cc}" \
  install DESTDIR="$root" PREFIX=/opt/aieth
for f in include/aieth.h include/aieth_model.h lib/libaieth.a lib/libaieth.so \
         lib/pkgconfig/aieth.pc share/aieth/platforms/vck190.json \
         share/aieth/cfg/vek280_aie_constraints.json share/aieth/cfg/vck190_system.cfg; do
  if [[ -e $root/opt/aieth/$f ]]; then ok; else bad "not installed: $f"; fi
done
# The version (harness/include/aieth/version.h) and the soname the Makefile
# gives it: aieth.pc says the one, the installed links lead to the other.
version=$(sed -n 's/^#define AIETH_VERSION_STRING "\(.*\)"/\1/p' "$S/harness/include/aieth/version.h")
soname=$(readelf -d "$root/opt/aieth/lib/libaieth.so" | sed -n 's/.*(SONAME).*Library soname: \[\(.*\)\]/\1/p')
if [[ -n $version && $soname == libaieth.so.* && -e $root/opt/aieth/lib/$soname ]]; then ok; else bad "version '$version', soname '$soname' not installed"; fi
pc=$root/opt/aieth/lib/pkgconfig
if [[ $(PKG_CONFIG_PATH=$pc pkg-config --modversion aieth) == "$version" ]]; then ok; else bad "aieth.pc does not say $version"; fi
flags=$(PKG_CONFIG_PATH=$pc PKG_CONFIG_SYSROOT_DIR=$root pkg-config --cflags --libs aieth)
expect 0 "${AIETH_CC:-cc}" -std=c11 ${AIETH_SANFLAGS:-} -o "$TMP/client" "$S/examples/c_api/aieth_demo.c" $flags
LD_LIBRARY_PATH=$root/opt/aieth/lib AIETH_DATA_DIR=$root/opt/aieth/share/aieth \
  expect 0 "$TMP/client" --board vek280 --channels 2 --size 1024 --replay 2
has "$TMP/out" "PASS"
if LD_LIBRARY_PATH=$root/opt/aieth/lib ldd "$TMP/client" | grep -q "$soname => $root"; then ok; else bad "client not linked to the installed $soname"; ldd "$TMP/client" >&2; fi

# The Python package: installed under the prefix's dist-packages, it loads
# the installed libaieth next to it (no AIETH_LIB) and runs a transaction
# with the installed data; then pip installs the source folder into a
# virtual environment offline (no index, no find-links, no build isolation:
# Debian's setuptools and wheel) and runs against the installed library.
# The sanitizer build's library needs its runtimes preloaded.
py=/usr/bin/python3
pyver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
site=$root/opt/aieth/lib/python$pyver/dist-packages
for f in __init__.py _lib.py errors.py report.py session.py compat.py pytest_plugin.py py.typed; do
  if [[ -e $site/aieth/$f ]]; then ok; else bad "not installed: $site/aieth/$f"; fi
done
pyenv=(env -u AIETH_LIB -u PYTHONPATH AIETH_DATA_DIR="$root/opt/aieth/share/aieth" PYTHONDONTWRITEBYTECODE=1)
if [[ ${AIETH_SAN:-} == 1 ]]; then
  pyenv+=(LD_PRELOAD="$(${AIETH_CC:-cc} -print-file-name=libasan.so) $(${AIETH_CC:-cc} -print-file-name=libubsan.so)"
          ASAN_OPTIONS=detect_leaks=0)
fi
cat >"$TMP/demo.py" <<'PY'
import sys
import numpy as np
import aieth
print("pkg=" + aieth.__file__)
print("lib=" + aieth.library_path())
with aieth.Session(board="vek280", graphs=[aieth.Graph("g", model="loopback")]) as s:
    s.graph("g").run()
    a = np.arange(1024, dtype=np.int32); out = np.zeros_like(a)
    t = s.submit("perf", [aieth.Channel("PLIO_01_TO_AIE", a, repetition=2),
                          aieth.Channel("PLIO_01_FROM_AIE", out, repetition=2)])
    print("status", t.wait(timeout=5), bool((out == a).all()), t.results[1].bytes_moved)
PY
expect 0 "${pyenv[@]}" PYTHONPATH="$site" "$py" "$TMP/demo.py"
has "$TMP/out" "pkg=$site/aieth/__init__.py"
has "$TMP/out" "lib=$root/opt/aieth/lib/$soname"
has "$TMP/out" "status done True 8192"
cp -r "$S/python" "$TMP/pysrc"
expect 0 "$py" -m venv --system-site-packages "$TMP/venv"
expect 0 env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL PIP_CONFIG_FILE=/dev/null \
  "$TMP/venv/bin/pip" install --no-index --no-build-isolation "$TMP/pysrc"
has "$TMP/out" "Successfully installed aieth-$version"
expect 0 "${pyenv[@]}" AIETH_LIB="$root/opt/aieth/lib/$soname" "$TMP/venv/bin/python" "$TMP/demo.py"
has "$TMP/out" "pkg=$TMP/venv/lib/python$pyver/site-packages/aieth/__init__.py"
has "$TMP/out" "lib=$root/opt/aieth/lib/$soname"
has "$TMP/out" "status done True 8192"
# a library path that does not exist is an error naming it, not another copy
expect 1 "${pyenv[@]}" AIETH_LIB="$TMP/nope.so" "$TMP/venv/bin/python" -c 'import aieth; aieth.library_path()'
has "$TMP/err" "$TMP/nope.so (no such file)"

# th_server as a service: the systemd unit, the init script, the example
# config and token file; into a staging root also /etc/init.d and /etc/aieth
for f in opt/aieth/bin/th_server opt/aieth/lib/systemd/system/th_server.service \
         opt/aieth/share/aieth/dist/th_server.init opt/aieth/share/aieth/dist/th_server.conf \
         opt/aieth/share/aieth/dist/tokens.example etc/init.d/th_server etc/aieth/th_server.conf; do
  if [[ -e $root/$f ]]; then ok; else bad "not installed: $f"; fi
done
[[ -x $root/etc/init.d/th_server ]] && ok || bad "etc/init.d/th_server is not executable"
# the Grafana dashboard of the InfluxDB upload (docs/farm.md), as shipped
cmp -s "$S/dist/grafana/aieth-influxdb.json" "$root/opt/aieth/share/aieth/grafana/aieth-influxdb.json" \
  && ok || bad "share/aieth/grafana/aieth-influxdb.json not installed as shipped"
[[ ! -e $root/etc/aieth/tokens ]] && ok || bad "a token file was installed (secrets are the admin's)"
unit=$root/opt/aieth/lib/systemd/system/th_server.service
if grep -rl '@[A-Z]*@' "$unit" "$root/etc/init.d/th_server" >"$TMP/subst"; then
  bad "placeholders left in: $(cat "$TMP/subst")"; else ok; fi
has "$unit" "ExecStart=/opt/aieth/bin/th_server \$TH_SERVER_OPTS"
has "$unit" "EnvironmentFile=-/etc/aieth/th_server.conf"
has "$unit" "KillSignal=SIGTERM"
has "$root/etc/init.d/th_server" "BIN=\${TH_SERVER_BIN:-/opt/aieth/bin/th_server}"
has "$root/etc/aieth/th_server.conf" 'TH_SERVER_OPTS="--listen 127.0.0.1:8443 --token-file /etc/aieth/tokens --backend xrt"'
# the options in force listen on loopback only; a network address is a
# comment, with tokens and TLS
if grep -v '^#' "$root/etc/aieth/th_server.conf" | grep -q -- '--listen 0\.0\.0\.0'; then
  bad "the shipped th_server.conf listens on every address"
else ok; fi
has "$root/etc/aieth/th_server.conf" '#   TH_SERVER_OPTS="--listen 0.0.0.0:8443 --token-file /etc/aieth/tokens --tls-cert'

has "$root/opt/aieth/share/aieth/dist/tokens.example" "mode 0600"
# least privilege: its own user (made by sysusers.d), no capability, the
# file system read-only but for its work folder, devices by group
has "$root/opt/aieth/lib/sysusers.d/aieth.conf" "u aieth "
for l in User=aieth ProtectSystem=strict StateDirectory=aieth CapabilityBoundingSet= \
         NoNewPrivileges=yes DevicePolicy=closed "DeviceAllow=char-drm rw" \
         "SupplementaryGroups=render video" "SystemCallFilter=@system-service" \
         "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX" "ExecReload=/bin/kill -HUP \$MAINPID"; do
  if grep -qxF -- "$l" "$unit"; then ok; else bad "$unit lacks the line: $l"; fi
done
# systemd's own check of the unit (warnings count as failures); its binary
# path points into the staging root so that the check finds it
if command -v systemd-analyze >/dev/null; then
  mkdir -p "$TMP/unit"
  sed "s|=/opt/aieth/bin/|=$root/opt/aieth/bin/|" "$unit" >"$TMP/unit/th_server.service"
  expect 0 systemd-analyze verify "$TMP/unit/th_server.service"
  if [[ -s $TMP/err ]]; then bad "systemd-analyze verify: $(cat "$TMP/err")"; else ok; fi
  # systemd's exposure score of the unit's sandbox (0 best, 10 worst): 1.6
  # when measured; 2.0 at most (the unit before User= and ProtectSystem=strict
  # scored 7.7)
  expect 0 systemd-analyze security --offline=yes --threshold=20 "$TMP/unit/th_server.service"
  grep -h "Overall exposure level" "$TMP/out" "$TMP/err" | sed 's/^→ */install.sh: /'
else
  echo "install.sh: systemd-analyze verify skipped (systemd-analyze is not installed)"
fi
expect 0 sh -n "$root/etc/init.d/th_server"

# the installed init script starts, reports and stops the installed
# th_server (emulated board, loopback, a free port) with its paths in $TMP;
# with start-stop-daemon when present, then the plain fallback (a PATH
# without it). Every wait is bounded; the trap kills what is left.
SPIDS=()
trap 'for p in "${SPIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
# as root the init script starts th_server as TH_SERVER_USER: here nobody
# (an unprivileged user systems have), who must reach the staged files
tsu=$(id -un)
if [[ $(id -u) == 0 ]] && id nobody >/dev/null 2>&1; then
  tsu=nobody
  chmod 711 "$TMP"
fi
initd() {
  TH_SERVER_USER=${TSU:-$tsu} \
  TH_SERVER_BIN=$root/opt/aieth/bin/th_server TH_SERVER_CONF=$TMP/th_server.conf \
    TH_SERVER_PIDFILE=$TMP/run/th_server.pid TH_SERVER_LOG=$TMP/log/th_server.log \
    TH_SERVER_STOP_TIMEOUT=10 PATH=$ipath expect "$@"
}
printf 'TH_SERVER_OPTS="--listen 127.0.0.1:0 --backend emu --data-dir %s"\n' \
  "$root/opt/aieth/share/aieth" >"$TMP/th_server.conf"
ssd=$(command -v start-stop-daemon || true)
for ipath in "$PATH" /usr/bin:/bin; do
  if [[ $ipath == "$PATH" && -z $ssd ]]; then
    echo "install.sh: the start-stop-daemon run skipped (start-stop-daemon is not installed)"; continue
  fi
  if [[ $ipath != "$PATH" && -n $ssd && ( ${ssd%/*} == /usr/bin || ${ssd%/*} == /bin ) ]]; then
    echo "install.sh: the fallback run skipped (start-stop-daemon is in ${ssd%/*})"; continue
  fi
  initd 0 sh "$root/etc/init.d/th_server" start
  has "$TMP/out" "th_server started (pid"
  pid=$(cat "$TMP/run/th_server.pid" 2>/dev/null)
  [[ $pid =~ ^[0-9]+$ ]] && SPIDS+=("$pid") && ok || bad "no pid in the pidfile"
  port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$TMP/log/th_server.log" | tail -n 1)
  code=$(curl -s -m 5 -o "$TMP/health" -w '%{http_code}' "http://127.0.0.1:$port/v1/health")
  [[ $code == 200 ]] && ok || bad "health on port '$port': $code $(cat "$TMP/health")"
  initd 0 sh "$root/etc/init.d/th_server" status
  has "$TMP/out" "th_server is running (pid $pid)"
  if [[ $tsu == nobody ]]; then
    pgrep -u nobody -f "$root/opt/aieth/bin/th_server" >/dev/null && ok \
      || bad "th_server does not run as nobody: $(pgrep -a -f "$root/opt/aieth/bin/th_server")"
  fi
  # reload: SIGHUP, th_server keeps running (no token file here: it says so)
  initd 0 sh "$root/etc/init.d/th_server" reload
  has "$TMP/out" "SIGHUP sent"
  for i in $(seq 100); do grep -q 'SIGHUP: token file' "$TMP/log/th_server.log" && break; sleep 0.1; done
  has "$TMP/log/th_server.log" "SIGHUP: token file not reloaded"
  initd 0 sh "$root/etc/init.d/th_server" status
  initd 0 sh "$root/etc/init.d/th_server" start
  has "$TMP/out" "already running (pid $pid)"
  initd 0 sh "$root/etc/init.d/th_server" stop
  has "$TMP/out" "th_server stopped"
  kill -0 "$pid" 2>/dev/null && bad "th_server $pid still runs after stop" || ok
  [[ ! -e $TMP/run/th_server.pid ]] && ok || bad "the pidfile is left after stop"
  has "$TMP/log/th_server.log" "draining"
  has "$TMP/log/th_server.log" "th_server: stopped"
  initd 3 sh "$root/etc/init.d/th_server" status
  has "$TMP/out" "th_server is not running"
  initd 0 sh "$root/etc/init.d/th_server" stop
done
# a pidfile naming another program (a reused pid) or a zombie (its command
# line reads empty, as a process in exec does, for a moment): not running
sleep 300 &
other=$!
SPIDS+=("$other")
mkdir -p "$TMP/run"
echo "$other" >"$TMP/run/th_server.pid"
initd 1 sh "$root/etc/init.d/th_server" status
has "$TMP/out" "not running (stale pidfile"
kill "$other"; wait "$other" 2>/dev/null
# (a parent that never reaps: python3 leaves SIGCHLD as it is and never
# waits, so its child is a zombie once it exited, whatever the timing; a
# shell would reap a child that exits before it execs into a sleeper)
python3 -c 'import os, sys, time
pid = os.fork()
if pid == 0:
    os._exit(0)
with open(sys.argv[1], "w") as f:
    f.write("%d\n" % pid)
time.sleep(300)' "$TMP/zpid" &
zparent=$!
SPIDS+=("$zparent")
for i in $(seq 100); do
  z=$(cat "$TMP/zpid" 2>/dev/null)
  [[ -n $z ]] && [[ $(awk '{print $3}' "/proc/$z/stat" 2>/dev/null) == Z ]] && break
  sleep 0.1
done
[[ $(awk '{print $3}' "/proc/$z/stat" 2>/dev/null) == Z ]] && ok || bad "no zombie made (pid '$z')"
echo "$z" >"$TMP/run/th_server.pid"
initd 1 sh "$root/etc/init.d/th_server" status
has "$TMP/out" "not running (stale pidfile"
kill "$zparent"; wait "$zparent" 2>/dev/null
rm -f "$TMP/run/th_server.pid"
# a config th_server refuses: start fails (1) and shows why
printf 'TH_SERVER_OPTS="--listen 127.0.0.1:0 --backend nope"\n' >"$TMP/th_server.conf"
ipath=$PATH
initd 1 sh "$root/etc/init.d/th_server" start
has "$TMP/err" "--backend nope"
[[ ! -e $TMP/run/th_server.pid ]] && ok || bad "the pidfile is left after a failed start"
initd 7 sh "$root/etc/init.d/th_server" reload
has "$TMP/out" "th_server is not running"
initd 2 sh "$root/etc/init.d/th_server" bogus
# started by root for a user that does not exist: refused, named
if [[ $(id -u) == 0 ]]; then
  printf 'TH_SERVER_OPTS="--listen 127.0.0.1:0 --backend emu"\n' >"$TMP/th_server.conf"
  TSU=no-such-user-aieth initd 1 sh "$root/etc/init.d/th_server" start
  has "$TMP/err" "user no-such-user-aieth does not exist"
fi

# Into the system (no DESTDIR) install ends with ldconfig, so a client
# linked with pkg-config starts (its soname found); into a staging root
# it does not. Its recipe (make -n) runs here with a stand-in ldconfig that
# records its calls and knows no libaieth: as root it is called, and the
# note on PREFIX/lib is printed either way.
mk=(make -C "$S" --no-print-directory -n O="$ob" SAN="${AIETH_SAN:-}" CC="${AIETH_CC:-cc}" PREFIX=/opt/aieth)
"${mk[@]}" install >"$TMP/plan" 2>&1
line=$(grep 'ldconfig' "$TMP/plan")
if [[ -n $line ]]; then ok; else bad "make install (no DESTDIR) runs no ldconfig"; fi
mkdir -p "$TMP/fakebin"
printf '#!/bin/sh\necho "ldconfig $*" >>"%s"\n' "$TMP/ldconfig.calls" >"$TMP/fakebin/ldconfig"
chmod +x "$TMP/fakebin/ldconfig"
PATH=$TMP/fakebin:$PATH sh -c "$line" >"$TMP/out" 2>&1
if [[ $(id -u) == 0 ]]; then
  if grep -qx 'ldconfig ' "$TMP/ldconfig.calls" 2>/dev/null; then ok; else bad "ldconfig not called as root"; fi
fi
has "$TMP/out" "the dynamic linker does not know /opt/aieth/lib: run ldconfig as root"
"${mk[@]}" install DESTDIR="$root" >"$TMP/plan" 2>&1
if grep -q ldconfig "$TMP/plan"; then bad "make install DESTDIR=... runs ldconfig"; else ok; fi
finish
