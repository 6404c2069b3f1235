#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_assets: verified downloads and safe unpacking of AMD's precompiled
# assets (docs/assets.md), against file servers on 127.0.0.1 only
# (tests/tools/assets_server.py: HTTP, and HTTPS with a throwaway CA).
. "$(dirname "$0")/../lib.sh"
TA=$B/bin/th_assets
SRV=$S/tests/tools/assets_server.py
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT

# serve NAME ARGS...: start a server on $TMP/www; sets ${NAME}_URL, logs to $TMP/NAME.log
serve() {
  local name=$1 scheme=http; shift
  [[ " $* " == *" --cert "* ]] && scheme=https
  : >"$TMP/$name.log"
  timeout 300 python3 "$SRV" --dir "$TMP/www" --log "$TMP/$name.log" --port-file "$TMP/$name.port" "$@" \
    2>"$TMP/$name.err" &
  PIDS+=($!)
  local i
  for i in $(seq 100); do [[ -s $TMP/$name.port ]] && break; sleep 0.05; done
  [[ -s $TMP/$name.port ]] || { bad "server $name did not start: $(cat "$TMP/$name.err")"; finish; exit 1; }
  printf -v "${name}_URL" '%s://%s:%s' "$scheme" "${HOST:-127.0.0.1}" "$(cat "$TMP/$name.port")"
}
sha() { sha256sum "$1" | cut -d' ' -f1; }
nofile() { if [[ ! -e $1 ]]; then ok; else bad "$1 exists"; fi; }
isfile() { if [[ -f $1 ]]; then ok; else bad "$1 missing"; fi; }

mkdir -p "$TMP/www"
# the served archive: a release's layout (AMD's test_harness/pkg_build.sh), one link inside
python3 - "$TMP" <<'PY'
import io, os, sys, tarfile
t = sys.argv[1]
def add(tf, name, data=b"", **kw):
    ti = tarfile.TarInfo(name)
    for k, v in kw.items():
        setattr(ti, k, v)
    if ti.type == tarfile.REGTYPE:
        ti.size = len(data)
        tf.addfile(ti, io.BytesIO(data))
    else:
        tf.addfile(ti)
def mk(path, entries):
    with tarfile.open(path, "w:gz") as tf:
        for e in entries:
            add(tf, *e[:2], **(e[2] if len(e) > 2 else {}))
big = os.urandom(200000)
mk(t + "/www/good.tar.gz", [
    ("./", b"", {"type": tarfile.DIRTYPE, "mode": 0o755}),
    ("vck190_test_harness.xsa", big),
    ("vek280_test_harness.xsa", b"vek280 xsa"),
    ("vek385_test_harness.xsa", b"vek385 xsa"),
    ("server/vck190/run.sh", b"#!/bin/sh\n", {"mode": 0o4755}),
    ("server/current", b"", {"type": tarfile.SYMTYPE, "linkname": "vck190"}),
    ("pkg_info", b"Vitis 2026.1\n")])
mk(t + "/dotdot.tar.gz", [("ok.txt", b"x"), ("../escaped.txt", b"evil")])
mk(t + "/abs.tar.gz", [("ok.txt", b"x"), (t + "/abs-escaped.txt", b"evil")])
mk(t + "/linkout.tar.gz", [("ok.txt", b"x"), ("out", b"", {"type": tarfile.SYMTYPE, "linkname": "../../.."}),
                          ("out/escaped.txt", b"evil")])
mk(t + "/linkabs.tar.gz", [("etc", b"", {"type": tarfile.SYMTYPE, "linkname": "/etc"})])
mk(t + "/hardlink.tar.gz", [("h", b"", {"type": tarfile.LNKTYPE, "linkname": "/etc/passwd"})])
mk(t + "/fifo.tar.gz", [("f", b"", {"type": tarfile.FIFOTYPE})])
mk(t + "/dev.tar.gz", [("d", b"", {"type": tarfile.CHRTYPE, "devmajor": 1, "devminor": 3})])
mk(t + "/www/big.tar.gz", [("a", b"x" * 5000), ("b", b"y" * 5000)])
PY
GOOD=$(sha "$TMP/www/good.tar.gz")

# --- usage ---
expect 0 "$TA" --help
has "$TMP/out" "Exit codes: 0 ok, 2 usage"
expect 0 "$TA" --version
has "$TMP/out" "th_assets "
expect 2 "$TA"
expect 2 "$TA" frobnicate
expect 2 "$TA" fetch --release 2026.1 http://127.0.0.1:1/x.tar.gz
expect 2 "$TA" fetch --sha256 abc http://127.0.0.1:1/x.tar.gz --dest "$TMP/d0"
has "$TMP/err" "64 hex digits"
expect 2 "$TA" fetch ftp://127.0.0.1/x.tar.gz --dest "$TMP/d0"
has "$TMP/err" "only http:// and https://"
expect 2 "$TA" fetch --release 1999.9 --dest "$TMP/d0"
has "$TMP/err" "known: 2026.1"
expect 2 "$TA" list --insecure
expect 0 "$TA" list --dest "$TMP/d0"
has "$TMP/out" "no release unpacked"

serve h
# --- good download, hash given ---
D=$TMP/d1
expect 0 "$TA" fetch "$h_URL/good.tar.gz" --sha256 "${GOOD^^}" --dest "$D"
has "$TMP/out" "sha256 $GOOD"
isfile "$D/downloads/good.tar.gz"
nofile "$D/downloads/good.tar.gz.part"
has "$D/assets.lock.json" "\"sha256\": \"$GOOD\""
# not a terminal: a line per 10%
has "$TMP/err" "100% (" 
# again: already there, checked, not downloaded
n=$(wc -l <"$TMP/h.log")
expect 0 "$TA" fetch "$h_URL/good.tar.gz" --dest "$D"
[[ $(wc -l <"$TMP/h.log") -eq $n ]] && ok || bad "a second fetch downloaded again"

# --- wrong hash: refused, nothing installed ---
D=$TMP/d2
WRONG=$(printf '%064d' 0)
expect 2 "$TA" fetch "$h_URL/good.tar.gz" --sha256 "$WRONG" --dest "$D"
has "$TMP/err" "sha256 mismatch: expected $WRONG (--sha256), found $GOOD"
nofile "$D/downloads/good.tar.gz"
nofile "$D/downloads/good.tar.gz.part"
expect 3 "$TA" fetch "$h_URL/missing.tar.gz" --dest "$D"
has "$TMP/err" "HTTP 404"

# --- no hash known: recorded in the lock file, then enforced ---
D=$TMP/d3
cp "$TMP/www/good.tar.gz" "$TMP/www/moving.tar.gz"
expect 0 "$TA" fetch "$h_URL/moving.tar.gz" --dest "$D"
has "$TMP/err" "no known hash for $D/downloads/moving.tar.gz; recorded sha256 $GOOD in $D/assets.lock.json; later downloads must match"
has "$D/assets.lock.json" "moving.tar.gz"
rm "$D/downloads/moving.tar.gz"
cp "$TMP/www/big.tar.gz" "$TMP/www/moving.tar.gz"   # the server's file changed
expect 2 "$TA" fetch "$h_URL/moving.tar.gz" --dest "$D"
has "$TMP/err" "expected $GOOD (recorded in $D/assets.lock.json), found $(sha "$TMP/www/big.tar.gz")"
nofile "$D/downloads/moving.tar.gz"
nofile "$D/downloads/moving.tar.gz.part"
# a damaged lock file is an error, never "no hash known"
echo '{"lock_version": 1, "files": {"x": {"sha256": "12"}}}' >"$TMP/d3/assets.lock.json"
expect 2 "$TA" fetch "$h_URL/good.tar.gz" --dest "$D"
has "$TMP/err" "assets.lock.json"

# --- interrupted, then resumed with a Range request ---
serve cut --cut-after 70000
D=$TMP/d4
expect 0 "$TA" fetch "$cut_URL/good.tar.gz" --sha256 "$GOOD" --dest "$D"
has "$TMP/cut.log" "range=bytes=70000-"
has "$TMP/err" "resumed a partial download"
[[ $(sha "$D/downloads/good.tar.gz") == "$GOOD" ]] && ok || bad "resumed file differs"
# a part left by an earlier run, a server that ignores Range: started over
serve norange --no-range
D=$TMP/d5
mkdir -p "$D/downloads"
head -c 5000 /dev/urandom >"$D/downloads/good.tar.gz.part"
expect 0 "$TA" fetch "$norange_URL/good.tar.gz" --sha256 "$GOOD" --dest "$D"
has "$TMP/norange.log" "range=bytes=5000-"
has "$TMP/err" "did not resume"
[[ $(sha "$D/downloads/good.tar.gz") == "$GOOD" ]] && ok || bad "restarted file differs"
# a part resumed by a server that honours Range, across two runs
D=$TMP/d6
mkdir -p "$D/downloads"
head -c 1234 "$TMP/www/good.tar.gz" >"$D/downloads/good.tar.gz.part"
expect 0 "$TA" fetch "$h_URL/good.tar.gz" --sha256 "$GOOD" --dest "$D"
has "$TMP/h.log" "range=bytes=1234-"
# a part that is not a prefix of the file: the hash refuses it and removes it
mkdir -p "$D/y/downloads" && head -c 1234 /dev/urandom >"$D/y/downloads/good.tar.gz.part"
expect 2 "$TA" fetch "$h_URL/good.tar.gz" --sha256 "$GOOD" --dest "$D/y"
has "$TMP/err" "sha256 mismatch"
nofile "$D/y/downloads/good.tar.gz.part"

# two downloads of one file at once: the second is refused, the part kept
D=$TMP/d6b
mkdir -p "$D/downloads"
head -c 1234 "$TMP/www/good.tar.gz" >"$D/downloads/good.tar.gz.part"
flock "$D/downloads/good.tar.gz.part" sleep 5 &
PIDS+=($!)
for i in $(seq 50); do flock -n "$D/downloads/good.tar.gz.part" true || break; sleep 0.05; done
expect 3 "$TA" fetch "$h_URL/good.tar.gz" --sha256 "$GOOD" --dest "$D"
has "$TMP/err" "another th_assets is downloading it"
[[ $(stat -c %s "$D/downloads/good.tar.gz.part") -eq 1234 ]] && ok || bad "the part changed"

# --- HTTPS with a throwaway CA ---
if command -v openssl >/dev/null; then
  C=$TMP/certs; mkdir -p "$C"
  mkca() {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
      -subj "/CN=$1" -keyout "$C/$1.key" -out "$C/$1.pem" 2>/dev/null
  }
  # mkcert CA NAME SAN
  mkcert() {
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$2" \
      -keyout "$C/$2.key" -out "$C/$2.csr" 2>/dev/null
    printf 'subjectAltName=%s\n' "$3" >"$C/$2.ext"
    openssl x509 -req -in "$C/$2.csr" -CA "$C/$1.pem" -CAkey "$C/$1.key" -CAcreateserial \
      -days 2 -extfile "$C/$2.ext" -out "$C/$2.pem" 2>/dev/null
  }
  mkca ca && mkca otherca && mkcert ca srv "IP:127.0.0.1,DNS:localhost" && mkcert ca wrongname "DNS:wrong.example"
  serve s --cert "$C/srv.pem" --key "$C/srv.key"
  serve w --cert "$C/wrongname.pem" --key "$C/wrongname.key"
  D=$TMP/d7
  expect 0 "$TA" fetch "$s_URL/good.tar.gz" --cacert "$C/ca.pem" --sha256 "$GOOD" --dest "$D"
  isfile "$D/downloads/good.tar.gz"
  D=$TMP/d8
  expect 3 "$TA" fetch "$s_URL/good.tar.gz" --sha256 "$GOOD" --dest "$D"     # the system's CAs
  has "$TMP/err" "TLS:"
  expect 3 "$TA" fetch "$s_URL/good.tar.gz" --cacert "$C/otherca.pem" --sha256 "$GOOD" --dest "$D"
  has "$TMP/err" "certificate verification is always on"
  expect 3 "$TA" fetch "$w_URL/good.tar.gz" --cacert "$C/ca.pem" --sha256 "$GOOD" --dest "$D"
  has "$TMP/err" "TLS:"
  nofile "$D/downloads/good.tar.gz"
  expect 2 "$TA" fetch "$s_URL/good.tar.gz" --cacert "$C/none.pem" --dest "$D"
else
  echo "th_assets.sh: no openssl: HTTPS cases skipped"
fi

# --- a release of cfg/assets.json, fetched then unpacked ---
mkdir -p "$TMP/data/cfg"
cat >"$TMP/data/cfg/assets.json" <<J
{"releases": {
  "test.1": {"url": "$h_URL/good.tar.gz", "file": "good.tar.gz", "sha256": "$GOOD"},
  "test.2": {"url": "$h_URL/moving.tar.gz", "file": "moving.tar.gz", "sha256": "$GOOD"}}}
J
D=$TMP/d9
expect 0 "$TA" fetch --release test.1 --data-dir "$TMP/data" --dest "$D"
expect 2 "$TA" fetch --release test.2 --data-dir "$TMP/data" --dest "$D"
has "$TMP/err" "(cfg/assets.json)"
expect 0 "$TA" unpack --release test.1 --data-dir "$TMP/data" --dest "$D"
isfile "$D/assets/test.1/vck190_test_harness.xsa"
isfile "$D/assets/test.1/vek385_test_harness.xsa"
isfile "$D/assets/test.1/server/vck190/run.sh"
[[ -L $D/assets/test.1/server/current ]] && ok || bad "link inside not unpacked"
[[ $(stat -c %a "$D/assets/test.1/server/vck190/run.sh") == 755 ]] && ok || bad "set-id bit kept"
has "$D/assets/test.1/.aieth-manifest.json" "\"sha256\": \"$GOOD\""
expect 0 "$TA" list --dest "$D"
has "$TMP/out" "test.1"
has "$TMP/out" "$GOOD"
has "$TMP/out" "good.tar.gz $GOOD $h_URL/good.tar.gz"
# the temporary folder of an unpack that died is swept (its PID is gone)
mkdir -p "$D/assets/.tmp-test.1-99999999/x"
expect 0 "$TA" unpack --release test.1 --data-dir "$TMP/data" --dest "$D"
nofile "$D/assets/.tmp-test.1-99999999"
# unpacked again: replaced whole
echo stale >"$D/assets/test.1/stale"
expect 0 "$TA" unpack --release test.1 --data-dir "$TMP/data" --dest "$D"
nofile "$D/assets/test.1/stale"

# --- offline: --from a file on disk, checked against the lock ---
D=$TMP/d10
expect 0 "$TA" unpack --from "$TMP/www/good.tar.gz" --dest "$D" --data-dir "$TMP/data"
isfile "$D/assets/test.1/pkg_info"   # cfg names this file: release test.1
expect 0 "$TA" unpack --from "$TMP/www/big.tar.gz" --dest "$D"
has "$TMP/err" "no known hash for"
isfile "$D/assets/big/a"
cp "$TMP/www/good.tar.gz" "$TMP/big.tar.gz"
expect 2 "$TA" unpack --from "$TMP/big.tar.gz" --dest "$D"
has "$TMP/err" "recorded in $D/assets.lock.json"
expect 2 "$TA" unpack --from "$TMP/www/good.tar.gz" --sha256 "$WRONG" --release r2 --dest "$D"
nofile "$D/assets/r2"

# --- unsafe archives: refused, nothing written anywhere ---
D=$TMP/u
for t in dotdot abs linkout linkabs hardlink fifo dev; do
  expect 2 "$TA" unpack --from "$TMP/$t.tar.gz" --dest "$D"
  has "$TMP/err" "refused, nothing installed"
  nofile "$D/assets/$t"
done
has "$TMP/err" "character device"
for f in "$TMP/escaped.txt" "$TMP/u/escaped.txt" "$TMP/abs-escaped.txt" "$TMP/u/assets/escaped.txt"; do nofile "$f"; done
if ls -A "$D/assets" | grep -q .; then bad "left in $D/assets: $(ls -A "$D/assets")"; else ok; fi
expect 2 "$TA" unpack --from "$TMP/dotdot.tar.gz" --dest "$D"
has "$TMP/err" '"../escaped.txt": a ".." component'
expect 2 "$TA" unpack --from "$TMP/linkout.tar.gz" --dest "$D"
has "$TMP/err" 'symbolic link "out"'
expect 2 "$TA" unpack --from "$TMP/hardlink.tar.gz" --dest "$D"
has "$TMP/err" "hard link"
expect 2 "$TA" unpack --from "$TMP/www/big.tar.gz" --max-entry-size 4000 --dest "$D"
has "$TMP/err" "at most 4000 per entry"
expect 2 "$TA" unpack --from "$TMP/www/big.tar.gz" --max-total-size 8000 --dest "$D"
has "$TMP/err" "more than 8000 bytes in all"
nofile "$D/assets/big"
head -c 3000 /dev/urandom >"$TMP/junk.tar.gz"
expect 2 "$TA" unpack --from "$TMP/junk.tar.gz" --dest "$D"
nofile "$D/assets/junk"
finish
