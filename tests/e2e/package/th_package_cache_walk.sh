#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The PDI cache and the CDO command walk (docs/packaging.md, "What is
# checked"): a stamped hit is not walked again, so a stamp is made only
# once the xclbin of the entry's bytes passed its check, walk included. A
# graph whose CDO holds a command the PLM does not have: bootgen builds its
# PDI and the cache stores it, the written file's check refuses it, and no
# later hit - hashed, then (the entry settled for 2 s) one that would stamp
# it - ever stamps or packages it.
. "$(dirname "$0")/../lib.sh"
T="$B/bin/th_package"
G="$B/tests/gen_package_inputs"
export TMPDIR="$TMP/scratch"
mkdir -p "$TMPDIR"
C="$TMP/cache"
F="$TMP/f"
"$G" --board vck190 --out "$F" || { bad "fixture generator failed"; finish; exit 1; }
# the init CDO's first command (word 5, after the 5-word header) made
# module 1 command 127: its header and length stay as they were
mkdir "$TMP/m"
(cd "$TMP/m" && ar x "$F/libadf.a") || bad "ar x"
printf '\x7f\x01\x02\x00' | dd of="$TMP/m/aie.cdo.init.bin" bs=1 seek=20 conv=notrunc status=none
# shellcheck disable=SC2046 # the member names, in the archive's order
(cd "$TMP/m" && ar rc "$TMP/bad_cmd.a" $(ar t "$F/libadf.a")) || bad "ar rc"
# stamps that vouch for an entry (a hit it does not vouch for leaves an
# empty one, its use: "The PDI cache", "Entries")
stamps() { find "$C" -maxdepth 1 -name '*.ok' -size +0 | wc -l | tr -d ' '; }
entries() { find "$C" -maxdepth 1 -name '*.pdi' | wc -l | tr -d ' '; }
# a bootgen that counts its runs, then runs the real one
printf '#!/bin/sh\necho run >>"%s"\nexec bootgen "$@"\n' "$TMP/count" >"$TMP/bootgen"
chmod +x "$TMP/bootgen"
runs() { if [[ -f $TMP/count ]]; then wc -l <"$TMP/count" | tr -d ' '; else echo 0; fi; }
refused() { # refused LABEL: packaging the graph is refused, nothing written
  rm -f "$TMP/q.xclbin"
  expect 1 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$TMP/bad_cmd.a" \
    --cache-dir "$C" --bootgen "$TMP/bootgen" -o "$TMP/q.xclbin"
  has "$TMP/err" "q.xclbin: section 1 (PDI \"aie\"): partition header 0 data at offset 0x150: CDO command at word"
  has "$TMP/err" "command: expected one of the PLM's generic commands 0..42 (module 1), found 127: an unknown command"
  has "$TMP/err" "the written file failed its check (1 problem); nothing written"
  if [[ -e $TMP/q.xclbin ]]; then bad "$1: output written"; else ok; fi
  if [[ $(stamps) -eq 0 ]]; then ok; else bad "$1: the entry was stamped"; fi
  # bootgen ran for the miss only: every later run was a hit on the entry
  if [[ $(runs) -eq 1 && $(entries) -eq 1 ]]; then ok; else
    bad "$1: bootgen ran $(runs) times, $(entries) entries; expected 1 and 1"
  fi
}
refused "a miss (the PDI stored, then its xclbin refused)"
refused "a hit, the entry fresh"
sleep 2.1 # the entry unchanged for 2 s: a hit whose hash holds would stamp it
refused "a hit, the entry settled"
refused "a hit after that"
# the control: the good graph's entry, settled, is stamped by its first hit
expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" --cache-dir "$C" -o "$TMP/g1.xclbin"
has "$TMP/out" "PDI cache $C: miss, PDI stored"
sleep 2.1
expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" --cache-dir "$C" -o "$TMP/g2.xclbin"
has "$TMP/out" "PDI cache $C: hit"
if [[ $(stamps) -eq 1 ]]; then ok; else bad "the good entry was not stamped ($(stamps) stamps)"; fi
finish
