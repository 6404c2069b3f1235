#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_package's PDI cache end to end (docs/packaging.md, "The PDI cache"): a
# hit skips bootgen (a bootgen wrapper counts its runs) and writes the same
# bytes as a miss; --no-cache runs bootgen; any change of what bootgen reads
# is a miss; a damaged entry is a miss, never packaged; the bound evicts;
# two th_package processes at once both succeed with identical files.
. "$(dirname "$0")/../lib.sh"
T="$B/bin/th_package"
G="$B/tests/gen_package_inputs"
export TMPDIR="$TMP/scratch"
mkdir -p "$TMPDIR"
export SOURCE_DATE_EPOCH=1700000000 # the same header in every run
C="$XDG_CACHE_HOME/aieth"           # lib.sh points XDG_CACHE_HOME into $TMP
F="$TMP/f"
"$G" --board vck190 --out "$F" || { bad "fixture generator failed"; finish; exit 1; }

# a bootgen that counts its runs, then runs the real one
printf '#!/bin/sh\necho run >>"%s"\nexec bootgen "$@"\n' "$TMP/count" >"$TMP/bootgen"
chmod +x "$TMP/bootgen"
runs() { if [[ -f $TMP/count ]]; then wc -l <"$TMP/count" | tr -d ' '; else echo 0; fi; }
want_runs() { if [[ $(runs) -eq $1 ]]; then ok; else bad "$2: bootgen ran $(runs) times, expected $1"; fi; }
same() { if cmp -s "$1" "$2"; then ok; else bad "$1 and $2 differ"; fi; }
entries() { find "$1" -maxdepth 1 -name '*.pdi' 2>/dev/null | wc -l | tr -d ' '; }
# the entry a hit used last: a hit leaves its entry's inode alone and marks
# the use on the entry's stamp ("<entry>.ok")
last_used() { local s; s=$(ls -t "$C"/*.ok | head -1); echo "${s%.ok}.pdi"; }
pkg() { # pkg OUT [options...]: package the fixture graph with the counting bootgen
  local out=$1; shift
  expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$out" \
    --bootgen "$TMP/bootgen" "$@"
}

expect 0 "$T" --help
has "$TMP/out" "--no-cache"
has "$TMP/out" "--cache-dir DIR"
has "$TMP/out" "--cache-max SIZE"
has "$TMP/out" "XDG_CACHE_HOME"

# a miss: bootgen runs, the PDI is stored in a private folder
pkg "$TMP/a.xclbin"
has "$TMP/out" "5 CDOs through bootgen"
has "$TMP/out" "PDI cache $C: miss, PDI stored"
want_runs 1 "first run"
if [[ $(stat -c %a "$C") == 700 ]]; then ok; else bad "cache folder mode $(stat -c %a "$C"), expected 700"; fi
if [[ $(entries "$C") -eq 1 ]]; then ok; else bad "expected one cache entry, found $(entries "$C")"; fi

# a hit: bootgen not run, the same bytes
pkg "$TMP/b.xclbin"
has "$TMP/out" "5 CDOs: PDI from the cache (bootgen not run"
has "$TMP/out" "PDI cache $C: hit"
want_runs 1 "hit"
same "$TMP/a.xclbin" "$TMP/b.xclbin"
# a hit needs no bootgen at all (the wrapper's identity is in the key: it stays)
expect 0 env PATH=/nonexistent "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" \
  -o "$TMP/nopath.xclbin" --bootgen "$TMP/bootgen"
has "$TMP/out" "PDI from the cache"
same "$TMP/a.xclbin" "$TMP/nopath.xclbin"
# the same CDOs in another container (ELF members) hit too
expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf_elf.a" -o "$TMP/e.xclbin" \
  --bootgen "$TMP/bootgen"
has "$TMP/out" "PDI from the cache"
want_runs 1 "ELF container"

# --no-cache: bootgen runs, nothing is read or stored, same bytes
pkg "$TMP/n.xclbin" --no-cache
has "$TMP/out" "5 CDOs through bootgen"
has "$TMP/out" "PDI cache: not used (--no-cache)"
want_runs 2 "--no-cache"
same "$TMP/a.xclbin" "$TMP/n.xclbin"

# what bootgen reads changes: a miss each time
pkg "$TMP/id.xclbin" --id-code 0x14ca8093 --ext-id-code 0x02   # the BIF's extended IDCODE
has "$TMP/out" "through bootgen"
want_runs 3 "another BIF"
touch -d '2001-01-01' "$TMP/bootgen"                         # another bootgen (its time)
pkg "$TMP/t.xclbin"
has "$TMP/out" "through bootgen"
want_runs 4 "another bootgen"
same "$TMP/a.xclbin" "$TMP/t.xclbin"
cp -r "$F/Work" "$TMP/Work"                                  # another CDO byte
cdo=$(find "$TMP/Work" -name 'aie_cdo_init.bin' | head -1)
[[ -n $cdo ]] || cdo=$(find "$TMP/Work" -name '*.bin' | head -1)
expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$TMP/Work" -o "$TMP/w1.xclbin" --bootgen "$TMP/bootgen"
has "$TMP/out" "PDI from the cache"                          # same bytes as the archive's
want_runs 4 "Work/ with the same CDOs"
printf '\x00\x00\x00\x00' >>"$cdo"
expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$TMP/Work" -o "$TMP/w2.xclbin" --bootgen "$TMP/bootgen"
has "$TMP/out" "through bootgen"
want_runs 5 "a changed CDO"

# a damaged entry is a miss (removed, rebuilt), never packaged
# (the entry of these inputs: the most recently used, after a hit)
"$T" dump-section PDI "$TMP/a.xclbin" -o "$TMP/a.pdi" >/dev/null
pkg "$TMP/pre.xclbin"
has "$TMP/out" "PDI from the cache"
entry=$(last_used)
if cmp -s "$entry" "$TMP/a.pdi"; then ok; else bad "the entry last used is not the PDI of a.xclbin"; fi
size=$(stat -c %s "$entry")
printf 'X' | dd of="$entry" bs=1 seek=100 conv=notrunc status=none
pkg "$TMP/c1.xclbin"
has "$TMP/out" "through bootgen"
want_runs 6 "a flipped byte"
same "$TMP/a.xclbin" "$TMP/c1.xclbin"
entry=$(ls -t "$C"/*.pdi | head -1)  # stored just now
truncate -s -100 "$entry"
pkg "$TMP/c2.xclbin"
has "$TMP/out" "through bootgen"
want_runs 7 "a truncated entry"
same "$TMP/a.xclbin" "$TMP/c2.xclbin"
entry=$(ls -t "$C"/*.pdi | head -1)  # stored just now
: >"$entry"
pkg "$TMP/c3.xclbin"
has "$TMP/out" "through bootgen"
want_runs 8 "an empty entry"
pkg "$TMP/c4.xclbin"
has "$TMP/out" "PDI from the cache"                          # rebuilt sound
want_runs 8 "the rebuilt entry"
same "$TMP/a.xclbin" "$TMP/c4.xclbin"
# past the header only the content hash can tell: it is checked as the
# packager copies the entry into the xclbin, and a mismatch writes nothing
# of it (the entry removed, bootgen run, the same bytes as a.xclbin)
entry=$(ls -t "$C"/*.pdi | head -1)
n_before=$(entries "$C")
printf 'X' | dd of="$entry" bs=1 seek=$((size - 1)) conv=notrunc status=none
pkg "$TMP/c5.xclbin"
has "$TMP/out" "through bootgen"
has "$TMP/out" "miss, PDI stored (a damaged entry was found and removed)"
want_runs 9 "a flipped last byte"
same "$TMP/a.xclbin" "$TMP/c5.xclbin"
# the damaged entry replaced by a sound one, not kept beside it
if [[ $(entries "$C") -eq $n_before ]] && cmp -s "$(ls -t "$C"/*.pdi | head -1)" "$TMP/a.pdi"
then ok; else bad "the damaged entry was kept, or the new one differs"; fi

# the folder: --cache-dir, $AIETH_CACHE_DIR, a public one made private
D="$TMP/mine/deep/cache"
pkg "$TMP/d.xclbin" --cache-dir "$D"
has "$TMP/out" "PDI cache $D: miss, PDI stored"
if [[ $(stat -c %a "$D") == 700 ]]; then ok; else bad "--cache-dir mode $(stat -c %a "$D")"; fi
mkdir -p "$TMP/public" && chmod 755 "$TMP/public"
AIETH_CACHE_DIR="$TMP/public" pkg "$TMP/p.xclbin"
has "$TMP/out" "PDI cache $TMP/public: miss"
if [[ $(stat -c %a "$TMP/public") == 700 ]]; then ok; else bad "public folder left $(stat -c %a "$TMP/public")"; fi
: >"$TMP/afile"
expect 2 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$TMP/x.xclbin" --cache-dir "$TMP/afile"
has "$TMP/err" "PDI cache folder $TMP/afile"
if [[ ! -e $TMP/x.xclbin ]]; then ok; else bad "output written despite the cache error"; fi

# the bound: an entry larger than it is not kept; LRU eviction
pkg "$TMP/s.xclbin" --cache-dir "$TMP/small" --cache-max 1K
has "$TMP/out" "miss, PDI not stored"
if [[ $(entries "$TMP/small") -eq 0 ]]; then ok; else bad "an entry over the bound was kept"; fi
pkg "$TMP/l1.xclbin" --cache-dir "$TMP/lru"                              # entry A
pkg "$TMP/l2.xclbin" --cache-dir "$TMP/lru" --ext-id-code 0x02            # entry B
touch -d '2001-01-01' "$TMP/lru"/*.pdi && a=$(ls "$TMP/lru"/*.pdi)
pkg "$TMP/l3.xclbin" --cache-dir "$TMP/lru"                              # A used: newest
pkg "$TMP/l4.xclbin" --cache-dir "$TMP/lru" --ext-id-code 0x03 --cache-max $((2 * size + 10))
has "$TMP/out" "miss, PDI stored"
if [[ $(entries "$TMP/lru") -eq 2 ]]; then ok; else bad "LRU: $(entries "$TMP/lru") entries, expected 2"; fi
runs_before=$(runs)
pkg "$TMP/l5.xclbin" --cache-dir "$TMP/lru"                              # A survived
has "$TMP/out" "PDI from the cache"
pkg "$TMP/l6.xclbin" --cache-dir "$TMP/lru" --ext-id-code 0x02            # B evicted
has "$TMP/out" "through bootgen"
want_runs $((runs_before + 1)) "LRU"

# direct mode: an archive unchanged for 2 s is remembered by its state
# (path, inode, size, times); a changed one is hashed again
cp "$F/libadf.a" "$TMP/g.a"
"$G" --board vck190 --big 100000 --out "$TMP/big.a" || bad "big fixture"
sleep 2.1
gpkg() { expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$TMP/g.a" -o "$1" --bootgen "$TMP/bootgen"; }
gpkg "$TMP/g1.xclbin"
has "$TMP/out" "PDI cache $C: hit"
gpkg "$TMP/g2.xclbin"
has "$TMP/out" "PDI cache $C: hit (direct: the archive is unchanged)"
same "$TMP/a.xclbin" "$TMP/g2.xclbin"
# an entry unchanged for 2 s whose bytes a hit found sound is stamped
# (docs/packaging.md, "Entries"): a later hit does not hash it again, so it
# leaves the stamp as it is (a checked hit writes a new one)
entry=$(last_used)
stamp=${entry%.pdi}.ok
if grep -qx "boot $(cat /proc/sys/kernel/random/boot_id)" "$stamp" 2>/dev/null; then ok; else bad "no stamp of this boot beside $entry"; fi
ino=$(stat -c %i "$stamp")
gpkg "$TMP/g2s.xclbin"
has "$TMP/out" "PDI cache $C: hit (direct: the archive is unchanged)"
same "$TMP/a.xclbin" "$TMP/g2s.xclbin"
if [[ $(stat -c %i "$stamp") == "$ino" ]]; then ok; else bad "a stamped hit was checked again (new stamp)"; fi
# a stamp of another boot (a crash may have lost bytes) is not trusted:
# the hit is checked, and stamped anew
sed -i 's/^boot .*/boot 00000000-0000-0000-0000-000000000000/' "$stamp"
ino=$(stat -c %i "$stamp")
gpkg "$TMP/g2t.xclbin"
has "$TMP/out" "PDI cache $C: hit (direct: the archive is unchanged)"
same "$TMP/a.xclbin" "$TMP/g2t.xclbin"
if [[ $(stat -c %i "$stamp") != "$ino" ]] && grep -qx "boot $(cat /proc/sys/kernel/random/boot_id)" "$stamp"
then ok; else bad "a stamp of another boot was trusted"; fi
# a stamped entry changed (even with its size and modification time kept:
# the change time moves) is checked, found damaged, never packaged
runs_before=$(runs)
mtime=$(stat -c %y "$entry")
printf 'X' | dd of="$entry" bs=1 seek=$((size / 2)) conv=notrunc status=none
touch -d "$mtime" "$entry"
if [[ -f $stamp ]]; then ok; else bad "the stamp is gone before the test"; fi
gpkg "$TMP/g2b.xclbin"
has "$TMP/out" "through bootgen"
has "$TMP/out" "(a damaged entry was found and removed)"
want_runs $((runs_before + 1)) "a damaged entry in direct mode"
same "$TMP/a.xclbin" "$TMP/g2b.xclbin"
gpkg "$TMP/g2c.xclbin"
has "$TMP/out" "PDI cache $C: hit (direct: the archive is unchanged)"
same "$TMP/a.xclbin" "$TMP/g2c.xclbin"
runs_before=$(runs)
cp "$TMP/big.a" "$TMP/g.a"           # the same path and inode, other CDOs
gpkg "$TMP/g3.xclbin"
has "$TMP/out" "through bootgen"
want_runs $((runs_before + 1)) "a changed archive"
"$T" dump-section PDI "$TMP/g3.xclbin" -o "$TMP/g3.pdi" >/dev/null
if cmp -s "$TMP/g3.pdi" "$TMP/a.pdi"; then bad "a changed archive got the old PDI"; else ok; fi
expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$TMP/big.a" -o "$TMP/g4.xclbin" --no-cache
same "$TMP/g3.xclbin" "$TMP/g4.xclbin"

# bad options
expect 2 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$TMP/x.xclbin" --cache-max 0
has "$TMP/err" "--cache-max \"0\": expected a size"
expect 2 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$TMP/x.xclbin" --cache-max 12Q
has "$TMP/err" "--cache-max \"12Q\""
expect 2 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$TMP/x.xclbin" --cache-dir ""
has "$TMP/err" "--cache-dir \"\""

# two th_package processes at once, an empty cache each round: both succeed,
# the same bytes; rounds with a bound that evicts while the other reads
for round in 1 2 3 4; do
  K="$TMP/conc$round"
  max=1G; [[ $round -gt 2 ]] && max=$((size + 10))
  "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$TMP/r1.xclbin" \
    --cache-dir "$K" --cache-max $max -q 2>"$TMP/e1" & p1=$!
  "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$TMP/r2.xclbin" \
    --cache-dir "$K" --cache-max $max --ext-id-code $((round % 2 + 1)) -q 2>"$TMP/e2" & p2=$!
  "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$TMP/r3.xclbin" \
    --cache-dir "$K" --cache-max $max -q 2>"$TMP/e3" & p3=$!
  if wait $p1 && wait $p2 && wait $p3; then ok; else bad "round $round: a concurrent run failed: $(cat "$TMP"/e[123])"; fi
  same "$TMP/a.xclbin" "$TMP/r1.xclbin"
  same "$TMP/a.xclbin" "$TMP/r3.xclbin"
  if [[ -z $(find "$K" -name '.tmp.*') ]]; then ok; else bad "round $round: temporary files left in $K"; fi
done
if [[ -z $(ls -A "$TMPDIR") ]]; then ok; else bad "scratch left in TMPDIR: $(ls -A "$TMPDIR")"; fi
finish
