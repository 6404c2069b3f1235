#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The PDI cache cannot be turned against its user (docs/packaging.md, "The
# PDI cache"): a cache path through a folder others may write is refused
# (exit 2, naming the component); a cache folder, entry or stamp of another
# uid, or one others may write, is refused or not trusted; a stamp forged
# from world-readable facts (boot id, stat) without the folder's MAC never
# skips the hash; and, with a second uid (nobody, through setpriv) flipping
# a symbolic link of the path in a loop, no run ever packages that user's
# PDI. The parts that need a second uid run as root only (skipped with a
# message otherwise).
. "$(dirname "$0")/../lib.sh"
T="$B/bin/th_package"
G="$B/tests/gen_package_inputs"
export TMPDIR="$TMP/scratch"
mkdir -p "$TMPDIR"
export SOURCE_DATE_EPOCH=1700000000 # the same header in every run
F="$TMP/f"
"$G" --board vck190 --out "$F" || { bad "fixture generator failed"; finish; exit 1; }
pkg() { # pkg EXIT OUT CACHE-DIR [options...]
  local want=$1 out=$2 dir=$3; shift 3
  expect "$want" "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$out" \
    --cache-dir "$dir" "$@"
}
same() { if cmp -s "$1" "$2"; then ok; else bad "$3: $1 and $2 differ"; fi; }
entry_of() { ls "$1"/*.pdi 2>/dev/null | head -1; }
# flip ENTRY: its last byte changed (past the headers the PDI check reads:
# only the content hash can tell)
flip() { printf 'X' | dd of="$1" bs=1 seek=$(($(stat -c %s "$1") - 1)) conv=notrunc status=none; }
# forge_stamp ENTRY VERSION [KEYFILE]: the stamp beside ENTRY, made as the
# code writes it from the facts anyone can read (/proc's boot id, stat):
# version 1 is the old main's (no MAC), versions 2 and 3 add "mac <HMAC-SHA256>"
# with the key in KEYFILE (none: a key of zeros, which is a forgery); 3 is
# today's (made once the xclbin passed its check, the CDO walk included)
forge_stamp() {
  python3 - "$@" <<'EOF'
import hashlib, hmac, os, sys
e, v = sys.argv[1], sys.argv[2]
st = os.stat(e)
_, hh, size = os.path.basename(e)[:-4].split('-')
boot = open('/proc/sys/kernel/random/boot_id').read().strip()
t = ("aieth pdi cache stamp %s\nboot %s\nhash %s size %s\ndev %d ino %d mtime %d ctime %d\n"
     % (v, boot, hh, size, st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns))
if v in ('2', '3'):
    k = open(sys.argv[3], 'rb').read() if len(sys.argv) > 3 else bytes(32)
    t += "mac %s\n" % hmac.new(k, t.encode(), hashlib.sha256).hexdigest()
open(e[:-4] + '.ok', 'w').write(t)
EOF
}

expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$TMP/good.xclbin" --no-cache
"$T" dump-section PDI "$TMP/good.xclbin" -o "$TMP/good.pdi" >/dev/null

# (a) a path through a folder others may write (no sticky bit): refused,
# the component named with its owner and mode; nothing written
mkdir -p "$TMP/proj" && chmod 0777 "$TMP/proj"
pkg 2 "$TMP/a1.xclbin" "$TMP/proj/cache"
has "$TMP/err" "PDI cache folder $TMP/proj/cache: its component $TMP/proj (owner uid $(id -u), mode 0777)"
has "$TMP/err" "chmod go-w $TMP/proj"
if [[ ! -e $TMP/a1.xclbin && ! -e $TMP/proj/cache ]]; then ok; else bad "written despite the refusal"; fi
chmod 0775 "$TMP/proj"                          # group-writable: the same
pkg 2 "$TMP/a2.xclbin" "$TMP/proj/cache"
has "$TMP/err" "its component $TMP/proj (owner uid $(id -u), mode 0775)"
chmod 0755 "$TMP/proj"
mkdir -m 0770 "$TMP/proj/gcache"                # the folder itself group-writable
pkg 2 "$TMP/a3.xclbin" "$TMP/proj/gcache"
has "$TMP/err" "PDI cache folder $TMP/proj/gcache: mode 0770: group or others may write it"
mkdir -m 0700 "$TMP/proj/real"                  # the folder a symbolic link: refused
ln -s real "$TMP/proj/link"
pkg 2 "$TMP/a4.xclbin" "$TMP/proj/link"
has "$TMP/err" "PDI cache folder $TMP/proj/link: a symbolic link"
ln -s "$TMP/proj" "$TMP/tolink"                 # a link of ours on the way: fine
pkg 0 "$TMP/a5.xclbin" "$TMP/tolink/real"
has "$TMP/out" "PDI cache $TMP/tolink/real: miss, PDI stored"
same "$TMP/good.xclbin" "$TMP/a5.xclbin" "through a link of ours"

# (c) a forged stamp does not skip the hash: an entry with a flipped byte
# and a stamp made from its stat (as main writes stamps: trusted there,
# the flipped byte packaged), then one with a MAC of a key not the folder's
C="$TMP/cc"
pkg 0 "$TMP/c0.xclbin" "$C"
e=$(entry_of "$C")
flip "$e" && forge_stamp "$e" 1
pkg 0 "$TMP/c1.xclbin" "$C"
has "$TMP/out" "(a damaged entry was found and removed)"
same "$TMP/good.xclbin" "$TMP/c1.xclbin" "a stamp without a MAC"
e=$(entry_of "$C")
flip "$e" && forge_stamp "$e" 3
pkg 0 "$TMP/c2.xclbin" "$C"
has "$TMP/out" "(a damaged entry was found and removed)"
same "$TMP/good.xclbin" "$TMP/c2.xclbin" "a stamp with a forged MAC"
# the control: the folder's own key makes a stamp that is trusted (so the
# two above were refused for their MAC alone)
e=$(entry_of "$C")
flip "$e" && forge_stamp "$e" 2 "$C/.stamp-key"
pkg 0 "$TMP/c4.xclbin" "$C"
# a stamp of version 2 (made after the hash alone, before any CDO walk):
# not trusted, even with the folder's MAC
has "$TMP/out" "(a damaged entry was found and removed)"
same "$TMP/good.xclbin" "$TMP/c4.xclbin" "a version 2 stamp with the folder's MAC"
e=$(entry_of "$C")
flip "$e" && forge_stamp "$e" 3 "$C/.stamp-key"
pkg 0 "$TMP/c3.xclbin" "$C"
if cmp -s "$TMP/good.xclbin" "$TMP/c3.xclbin"; then bad "a stamp with the folder's MAC was not trusted"; else ok; fi
if [[ $(stat -c %a "$C/.stamp-key") == 600 && $(stat -c %s "$C/.stamp-key") == 32 ]]; then ok
else bad "the stamp key is not 32 bytes at 0600"; fi

if [[ $(id -u) -ne 0 ]] || ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
  echo "th_package_cache_trust.sh: skip: another uid's files and the swap race need root, setpriv and the user nobody"
  finish
  exit
fi
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# (b) another uid's folder, ancestor, entry or stamp
mkdir -m 0700 "$TMP/theirs" && chown 65534:65534 "$TMP/theirs"
pkg 2 "$TMP/b1.xclbin" "$TMP/theirs"
has "$TMP/err" "PDI cache folder $TMP/theirs: owned by uid 65534 (mode 0700), not by us (uid 0)"
mkdir -m 0700 "$TMP/theirs/mine"
pkg 2 "$TMP/b2.xclbin" "$TMP/theirs/mine"
has "$TMP/err" "its component $TMP/theirs is owned by uid 65534"
D="$TMP/bd"
pkg 0 "$TMP/b3.xclbin" "$D"
e=$(entry_of "$D")
chown 65534:65534 "$e"                        # sound bytes, another owner: not used
pkg 0 "$TMP/b4.xclbin" "$D"
has "$TMP/out" "through bootgen"
same "$TMP/good.xclbin" "$TMP/b4.xclbin" "an entry of another uid"
e=$(entry_of "$D")
if [[ $(stat -c %u "$e") == 0 ]]; then ok; else bad "the other uid's entry was kept"; fi
chmod 0664 "$e"                               # group-writable: not used
pkg 0 "$TMP/b5.xclbin" "$D"
has "$TMP/out" "through bootgen"
e=$(entry_of "$D")
if [[ $(stat -c %a "$e") == 600 ]]; then ok; else bad "a new entry is $(stat -c %a "$e"), not 0600"; fi
# a stamp with the right MAC but another owner, or writable by others: not
# trusted (the flipped byte is found)
flip "$e" && forge_stamp "$e" 3 "$D/.stamp-key" && chown 65534:65534 "${e%.pdi}.ok"
pkg 0 "$TMP/b6.xclbin" "$D"
has "$TMP/out" "(a damaged entry was found and removed)"
same "$TMP/good.xclbin" "$TMP/b6.xclbin" "a stamp of another uid"
e=$(entry_of "$D")
flip "$e" && forge_stamp "$e" 3 "$D/.stamp-key" && chmod 0666 "${e%.pdi}.ok"
pkg 0 "$TMP/b7.xclbin" "$D"
has "$TMP/out" "(a damaged entry was found and removed)"
same "$TMP/good.xclbin" "$TMP/b7.xclbin" "a world-writable stamp"
# a stamp key of another uid: no stamp is trusted (every hit hashed)
e=$(entry_of "$D")
chown 65534:65534 "$D/.stamp-key"
flip "$e" && forge_stamp "$e" 3 "$D/.stamp-key"
pkg 0 "$TMP/b8.xclbin" "$D"
has "$TMP/out" "(a damaged entry was found and removed)"
same "$TMP/good.xclbin" "$TMP/b8.xclbin" "a stamp key of another uid"

# (d) the swap race: nobody flips a symbolic link of the path between our
# cache and theirs (an entry of the same name with another byte and a
# stamp forged for it), in a bounded loop; our runs go on meanwhile. A
# path others can change is refused every time (exit 2), and no run ever
# packages their PDI with exit 0.
W=$(mktemp -d /tmp/aieth-swap.XXXXXX)
trap 'touch "$W/stop" 2>/dev/null; rm -rf "$TMP" "$W"' EXIT
chmod 0755 "$W"
mkdir -m 0700 "$W/mine" "$W/mine/c"
pkg 0 "$TMP/d0.xclbin" "$W/mine/c"
e=$(entry_of "$W/mine/c")
mkdir -m 0700 "$W/evil" "$W/evil/c" && cp "$e" "$W/evil/c/" && flip "$W/evil/c/${e##*/}"
chown -R 65534:65534 "$W/evil"
forge_stamp "$W/evil/c/${e##*/}" 1 && chown 65534:65534 "$W/evil/c/"*.ok
swap_loop() { # swap_loop FOLDER: nobody flips FOLDER/cache (20000 flips at most)
  as_nobody bash -c '
    f=$1 w=$2
    ln -sfn "$w/mine" "$f/cache"
    : >"$f/started"
    for ((i = 0; i < 20000; i++)); do
      [[ -e $w/stop ]] && break
      ln -sfn "$w/evil" "$f/n" && mv -Tf "$f/n" "$f/cache"
      ln -sfn "$w/mine" "$f/n" && mv -Tf "$f/n" "$f/cache"
    done' swap "$1" "$W" &
  SP=$!
  for ((i = 0; i < 600; i++)); do [[ -e $1/started ]] && break; sleep 0.1; done
}
race() { # race FOLDER RUNS MESSAGE
  local r rc refused=0 taken=0
  for ((r = 1; r <= $2; r++)); do
    "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$TMP/d.xclbin" \
      --cache-dir "$1/cache/c" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    if [[ $rc -eq 0 ]] && ! cmp -s "$TMP/good.xclbin" "$TMP/d.xclbin"; then taken=$((taken + 1)); fi
    if [[ $rc -eq 2 ]] && grep -qF -- "$3" "$TMP/err"; then refused=$((refused + 1)); fi
    rm -f "$TMP/d.xclbin"
  done
  if [[ $taken -eq 0 ]]; then ok; else bad "$1: $taken of $2 runs packaged the other uid's PDI with exit 0"; fi
  if [[ $refused -eq $2 ]]; then ok; else bad "$1: $refused of $2 runs refused the path (exit 2, \"$3\")"; cat "$TMP/err" >&2; fi
}
# a folder others may write, without the sticky bit (a group project folder)
mkdir -m 0777 "$W/proj" && chmod 0777 "$W/proj"
swap_loop "$W/proj"
race "$W/proj" 30 "its component $W/proj (owner uid 0, mode 0777)"
touch "$W/stop"; wait "$SP"; rm -f "$W/stop"
# root's sticky folder (/tmp where fs.protected_symlinks is 0): nobody's
# link in it is not followed
mkdir -m 1777 "$W/sticky" && chmod 1777 "$W/sticky"
swap_loop "$W/sticky"
race "$W/sticky" 10 "its component $W/sticky/cache is a symbolic link owned by uid 65534"
touch "$W/stop"; wait "$SP"
# our cache untouched by it all: the entry still the sound one
if cmp -s "$e" "$TMP/good.pdi"; then ok; else bad "our entry changed"; fi
if [[ -z $(find "$W/evil" -user 0) ]]; then ok; else bad "we wrote into the other uid's folder: $(find "$W/evil" -user 0)"; fi
finish
