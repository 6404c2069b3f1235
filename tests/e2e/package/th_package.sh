#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_package end to end: package, info, check, dump-section on generated
# inputs (tests/data/package), the bad inputs with their messages and exit
# codes (0 ok, 1 check problems, 2 usage/input, 3 infrastructure).
. "$(dirname "$0")/../lib.sh"
T="$B/bin/th_package"
G="$B/tests/gen_package_inputs"
export TMPDIR="$TMP/scratch"   # the packager's scratch space: must end up empty
mkdir -p "$TMPDIR"

# put64 FILE OFFSET VALUE: write a little-endian u64 in place
put64() {
  local f=$1 off=$2 v=$3 i bytes=""
  for i in 0 1 2 3 4 5 6 7; do bytes+=$(printf '\\x%02x' $(((v >> (8 * i)) & 255))); done
  printf "$bytes" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}
# lacks FILE TEXT: FILE does not contain TEXT
lacks() { if grep -qF -- "$2" "$1"; then bad "$1 has: $2"; else ok; fi; }
# no_leftovers: nothing but our files in the output dir, nothing in TMPDIR
no_leftovers() {
  if ls -A "$F" | grep -q '^\.'; then bad "temporary file left in $F: $(ls -A "$F" | grep '^\.')"; else ok; fi
  if [[ -n $(ls -A "$TMPDIR") ]]; then bad "scratch left in TMPDIR: $(ls -A "$TMPDIR")"; else ok; fi
}

expect 0 "$T" --help
has "$TMP/out" "usage: th_package --board BOARD [--xsa FILE] --libadf FILE|DIR -o FILE"
has "$TMP/out" "--release R"
has "$TMP/out" "Exit: 0 ok, 1 check found problems, 2 usage or input error"
lacks "$TMP/out" "LOAD_AIE (default), LOAD_PDI or"   # LOAD_PDI alone is refused
has "$TMP/out" "LOAD_PDI alone"
expect 0 "$T" --version
has "$TMP/out" "th_package (aieth)"
expect 2 "$T"
has "$TMP/err" "nothing to do"
expect 2 "$T" --bogus
has "$TMP/err" "unknown option --bogus"
expect 2 "$T" frobnicate x
has "$TMP/err" "unknown command \"frobnicate\""

for board in vck190 vek280 vek385; do
  F="$TMP/$board"
  "$G" --board "$board" --out "$F" || { bad "fixture generator failed for $board"; continue; }
  X="$F/design.xclbin"
  # VEK385's PDIs need a Gen 2 bootgen: the stand-in, named by $BOOTGEN
  # (th_package_boards.sh tests the refusal with Debian's)
  bg=; [[ $board == vek385 ]] && bg="$S/tests/data/package/fake_bootgen_gen2.sh"
  # the fixture XSAs carry VC1902's IDCODE on VCK190, a made-up one elsewhere
  idc=0x0ffff093; [[ $board == vck190 ]] && idc=0x14ca8093
  BOOTGEN=$bg expect 0 "$T" --board "$board" --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$X"
  has "$TMP/out" "$X: "
  # the boards' fixtures share their CDOs, but each board's PDI differs (the
  # IDCODE, and VEK385's bootgen and -arch): none comes from the PDI cache
  # (th_package_cache.sh) of the board before
  has "$TMP/out" "1 graph, 8 PLIOs, 5 CDOs through bootgen"
  has "$TMP/out" "check: passed"
  expect 0 "$T" check --board "$board" "$X"
  has "$TMP/out" "OK (UUID "
  has "$TMP/out" "PLIOs fit board $board"
  expect 0 "$T" info "$X"
  has "$TMP/out" "magic           xclbin2"
  has "$TMP/out" "action mask     0x0001 (LOAD_AIE)"
  has "$TMP/out" "mode            0 (FLAT)"
  has "$TMP/out" "AIE_METADATA (25)"
  has "$TMP/out" "PDI (18)"
  has "$TMP/out" "mygraph (id 0)"
  has "$TMP/out" "PLIO_04_FROM_AIE"
  expect 0 "$T" info --json "$X"
  tr -d ' \n' <"$TMP/out" >"$TMP/compact"
  has "$TMP/compact" '"kind_name":"AIE_METADATA"'
  has "$TMP/compact" '"graphs":[{"id":0,"name":"mygraph","plios":[{"plio":"PLIO_01_TO_AIE"'
  has "$TMP/compact" '"problems":[]}'
  # the metadata section is the graph's file, byte for byte; the PDI is bootgen's
  expect 0 "$T" dump-section AIE_METADATA "$X" -o "$F/meta.json"
  if cmp -s "$F/meta.json" "$F/aie_control_config.json"; then ok; else bad "AIE_METADATA differs from the graph's"; fi
  expect 0 "$T" dump-section 18 "$X" -o "$F/aie.pdi"
  if bootgen -arch versal -read "$F/aie.pdi" 2>&1 | grep -q "id_code (0x18) : $idc"; then ok; else bad "bootgen cannot read back the PDI"; fi
  no_leftovers
done

F="$TMP/vck190"
X="$F/design.xclbin"
# reproducible: the same inputs and SOURCE_DATE_EPOCH give the same bytes
SOURCE_DATE_EPOCH=1700000000 expect 0 "$T" -q --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/a.xclbin"
SOURCE_DATE_EPOCH=1700000000 expect 0 "$T" -q --board vck190 --xsa "$F/harness.xsa" --libadf "$F/Work" -o "$F/b.xclbin"
if cmp -s "$F/a.xclbin" "$F/b.xclbin"; then ok; else bad "same inputs, different bytes"; fi
expect 0 "$T" info "$F/a.xclbin"
has "$TMP/out" "timestamp       1700000000 (2023-11-14T22:13:20Z)"
SOURCE_DATE_EPOCH=yesterday expect 2 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/c.xclbin"
has "$TMP/err" "SOURCE_DATE_EPOCH=\"yesterday\""
expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf_elf.a" -o "$F/c.xclbin" \
  --uuid 00112233-4455-6677-8899-aabbccddeeff --vbnv my_platform_1
expect 0 "$T" info "$F/c.xclbin"
has "$TMP/out" "xclbin UUID     00112233-4455-6677-8899-aabbccddeeff"
has "$TMP/out" "VBNV            my_platform_1"
has "$TMP/out" "AIE_TRACE_METADATA (35)"
expect 2 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/c.xclbin" --uuid 1234
has "$TMP/err" "--uuid \"1234\": expected 32 hex digits"
expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --pdi "$F/aie.pdi" --aie-metadata "$F/aie_control_config.json" -o "$F/d.xclbin"
has "$TMP/out" "(prebuilt)"

# no --xsa: the board's XSA from the releases th_assets unpacked
AD="$TMP/assets_dest"
SOURCE_DATE_EPOCH=1700000000 expect 2 "$T" --board vck190 --libadf "$F/libadf.a" -o "$F/f.xclbin" --assets-dir "$AD"
has "$TMP/err" "--xsa not given: no vck190_test_harness.xsa in any release under $AD/assets/"
has "$TMP/err" "th_assets fetch && th_assets unpack"
if [[ -x $B/bin/th_assets ]]; then
  mkrel() { # mkrel RELEASE: a release tarball with this fixture's XSA, unpacked by th_assets
    rm -rf "$TMP/rel" && mkdir -p "$TMP/rel" && cp "$F/harness.xsa" "$TMP/rel/vck190_test_harness.xsa" &&
      echo "$1" > "$TMP/rel/pkg_info" && tar -C "$TMP/rel" -czf "$TMP/rel_$1.tar.gz" . &&
      "$B/bin/th_assets" unpack --from "$TMP/rel_$1.tar.gz" --release "$1" --dest "$AD" -q > /dev/null 2>&1 ||
      bad "th_assets unpack of release $1 failed"
  }
  mkrel 2025.2
  SOURCE_DATE_EPOCH=1700000000 expect 0 "$T" --board vck190 --libadf "$F/libadf.a" -o "$F/f.xclbin" --assets-dir "$AD"
  has "$TMP/err" "XSA $AD/assets/2025.2/vck190_test_harness.xsa (release 2025.2, unpacked by th_assets)"
  if cmp -s "$F/a.xclbin" "$F/f.xclbin"; then ok; else bad "the default XSA gave other bytes than --xsa"; fi
  # a newer release wins over an older one (numbers, not text: 2025.10 > 2025.2) ...
  mkrel 2025.10
  SOURCE_DATE_EPOCH=1700000000 expect 0 "$T" --board vck190 --libadf "$F/libadf.a" -o "$F/f.xclbin" --assets-dir "$AD"
  has "$TMP/err" "(release 2025.10, unpacked by th_assets)"
  # ... and the release this version was made for over any other
  mkrel 2026.1
  mkrel 2027.1
  SOURCE_DATE_EPOCH=1700000000 expect 0 "$T" --board vck190 --libadf "$F/libadf.a" -o "$F/f.xclbin" --assets-dir "$AD"
  has "$TMP/err" "(release 2026.1, unpacked by th_assets)"
  SOURCE_DATE_EPOCH=1700000000 expect 0 "$T" --board vck190 --libadf "$F/libadf.a" -o "$F/f.xclbin" --assets-dir "$AD" --release 2025.2
  has "$TMP/err" "(release 2025.2, unpacked by th_assets)"
  expect 2 "$T" --board vck190 --libadf "$F/libadf.a" -o "$F/f.xclbin" --assets-dir "$AD" --release 2024.1
  has "$TMP/err" "$AD/assets/2024.1/vck190_test_harness.xsa: no such file; unpack release 2024.1 with 'th_assets fetch --release 2024.1"
  expect 2 "$T" --board vck190 --libadf "$F/libadf.a" -o "$F/f.xclbin" --assets-dir "$AD" --release ../x
  has "$TMP/err" "release \"../x\""
  # another board's release folder has no XSA for it; a folder not unpacked by th_assets is not trusted
  expect 2 "$T" --board vek280 --libadf "$F/libadf.a" -o "$F/f.xclbin" --assets-dir "$AD"
  has "$TMP/err" "no vek280_test_harness.xsa in any release"
  mkdir -p "$AD/assets/2030.1" && cp "$F/harness.xsa" "$AD/assets/2030.1/vck190_test_harness.xsa"
  SOURCE_DATE_EPOCH=1700000000 expect 0 "$T" --board vck190 --libadf "$F/libadf.a" -o "$F/f.xclbin" --assets-dir "$AD" --release 2027.1
  has "$TMP/err" "(release 2027.1, unpacked by th_assets)"
  rm -rf "$AD/assets/2026.1"
  SOURCE_DATE_EPOCH=1700000000 expect 0 "$T" -q --board vck190 --libadf "$F/libadf.a" -o "$F/f.xclbin" --assets-dir "$AD"
  if [[ -s $TMP/err ]]; then bad "-q printed: $(cat "$TMP/err")"; else ok; fi
  SOURCE_DATE_EPOCH=1700000000 expect 0 "$T" --board vck190 --libadf "$F/libadf.a" -o "$F/f.xclbin" --assets-dir "$AD"
  has "$TMP/err" "(release 2027.1, unpacked by th_assets)"
  rm -f "$F/f.xclbin"
else
  echo "th_package.sh: th_assets not built: default XSA cases skipped"
fi
expect 2 "$T" --board vck190 --xsa "$F/harness.xsa" --release 2026.1 --libadf "$F/libadf.a" -o "$F/f.xclbin"
has "$TMP/err" "--release and --assets-dir choose the XSA th_assets unpacked: not with --xsa"

# usage and input errors: 2, with the file and member named
expect 2 "$T" --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/e.xclbin"
has "$TMP/err" "--board is required"
expect 2 "$T" --board vck191 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/e.xclbin"
has "$TMP/err" "unknown board \"vck191\""
expect 2 "$T" --board vck190 --xsa "$F/no_json.xsa" --libadf "$F/libadf.a" -o "$F/e.xclbin"
has "$TMP/err" "no_json.xsa: member xsa.json is missing"
expect 2 "$T" --board vck190 --xsa "$F/bad_json.xsa" --libadf "$F/libadf.a" -o "$F/e.xclbin"
has "$TMP/err" "bad_json.xsa: member xsa.json:1:15"
expect 2 "$T" --board vck190 --xsa "$F/other_board.xsa" --libadf "$F/libadf.a" -o "$F/e.xclbin"
has "$TMP/err" "board: expected vck190 (--board), found \"vek280\""
expect 2 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/not_an_archive.a" -o "$F/e.xclbin"
has "$TMP/err" "not_an_archive.a: cannot open the graph archive"
expect 2 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/bad_cdo.a" -o "$F/e.xclbin"
has "$TMP/err" "bad_cdo.a: member aie.cdo.init.bin: CDO header checksum"
expect 2 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/no_control.a" -o "$F/e.xclbin"
has "$TMP/err" "no aie_control_config.json found"
if [[ -e "$F/e.xclbin" ]]; then bad "a failed run wrote e.xclbin"; else ok; fi

# PLIOs that do not fit the board: 1, one line per problem, nothing written
plio_case() {
  expect 1 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/$1" -o "$F/p.xclbin"
  has "$TMP/err" "$2"
  if [[ -e "$F/p.xclbin" ]]; then bad "$1: output written"; else ok; fi
}
plio_case bad_name.a 'PLIO mygraph.in0: name: expected a predefined name PLIO_NN_TO_AIE or PLIO_NN_FROM_AIE (NN = 01..36), found "DataIn1"'
plio_case width64.a 'PLIO PLIO_02_TO_AIE (mygraph.in1): width: expected 128 bits, found 64 bits'
plio_case wrong_column.a 'PLIO PLIO_01_FROM_AIE (mygraph.out0): shim column: expected 6 (the XSA'"'"'s placement), found 7'
plio_case wrong_channel.a 'PLIO PLIO_02_FROM_AIE (mygraph.out1): shim channel (stream_id): expected 4'
plio_case wrong_dir.a 'direction: expected slave (PL to AIE, slaveOrMaster 0), found master'
plio_case too_many.a 'PLIO PLIO_37_TO_AIE (mygraph.extra): channel: expected PLIO_01..PLIO_36 (board vck190 has 36 channels per direction), found PLIO_37'
has "$TMP/err" 'PLIOs TO_AIE: count: expected at most 36 (board vck190), found 37'
plio_case dup_plio.a 'PLIO PLIO_01_TO_AIE: users: expected one graph port, found two (mygraph.in0 and mygraph.dup)'
expect 0 "$T" --no-check --board vck190 --xsa "$F/harness.xsa" --libadf "$F/width64.a" -o "$F/p.xclbin"
has "$TMP/out" "structure only, --no-check"
# inputs XRT refuses: refused before anything is written, exit
# 1 (th_package's "check found problems", as the PLIO problems above), one
# line per problem naming the input
refused_input() { # refused_input WANT ARGS...
  local want=$1; shift
  rm -f "$F/q.xclbin"
  expect 1 "$T" --board vck190 --xsa "$F/harness.xsa" "$@" -o "$F/q.xclbin"
  has "$TMP/err" "$want"
  has "$TMP/err" "nothing written"
  if [[ -e "$F/q.xclbin" ]]; then bad "$*: output written"; else ok; fi
}
sed 's/"num_rows": 9/"num_rows": "nine"/' "$F/aie_control_config.json" >"$F/nine.json"
refused_input "$F/nine.json: aie_metadata.driver_config.num_rows: expected uint8_t (0..255) (XRT aie_parser.cpp get_driver_config converts it with boost property_tree get; it throws on what does not convert), found \"nine\"" \
  --pdi "$F/aie.pdi" --aie-metadata "$F/nine.json"
refused_input "$F/nine.json: XRT's AIE-metadata parser would refuse it (1 problem)" --libadf "$F/libadf.a" --aie-metadata "$F/nine.json"
sed 's/"base_address": 2199023255552/"base_address": "0x20000000000"/' "$F/aie_control_config.json" >"$F/hex.json"
refused_input "$F/hex.json: aie_metadata.driver_config.base_address: expected uint64_t" --pdi "$F/aie.pdi" --aie-metadata "$F/hex.json"
# a PDI whose first CDO command is unknown (bootgen's PDI: the CDO at 0x150)
cp "$F/aie.pdi" "$F/unknown_cmd.pdi"
printf '\x7f\x01\x02\x00' | dd of="$F/unknown_cmd.pdi" bs=1 seek=$((0x164)) conv=notrunc status=none
refused_input "$F/unknown_cmd.pdi: partition header 0 data at offset 0x150: CDO command at word 5 (offset 0x164, header 0x0002017f): command: expected one of the PLM's generic commands 0..42 (module 1), found 127: an unknown command" \
  --pdi "$F/unknown_cmd.pdi" --aie-metadata "$F/aie_control_config.json"
has "$TMP/err" "the PDI (--pdi) would be refused on the board (1 problem); nothing written"
# the walk runs beside the copy (host/th_package/pdi_walk.c), on the bytes as
# they are written: a bad command in the last of three 8 MiB copy windows of a
# 20 MiB PDI is refused the same way, naming the input, nothing written
"$G" --board vck190 --big $((20 << 20)) --out "$F/big.a" || bad "fixture generator failed (--big)"
expect 0 "$T" --no-cache --board vck190 --xsa "$F/harness.xsa" --libadf "$F/big.a" -o "$F/big.xclbin"
expect 0 "$T" dump-section 18 "$F/big.xclbin" -o "$F/late.pdi"
# its CDO ends the PDI, with a three-word command (a mask write, 0x00020103)
late=$(($(stat -c %s "$F/late.pdi") - 12))
if ((late > 16 << 20)) && [[ $(od -An -tx4 -j "$late" -N4 "$F/late.pdi" | tr -d ' ') == 00020103 ]]; then ok; else bad "late.pdi: no mask write in its last 12 bytes, or a PDI of 16 MiB or less"; fi
printf '\x7f\x01\x02\x00' | dd of="$F/late.pdi" bs=1 seek="$late" conv=notrunc status=none
refused_input "$(printf '%s: partition header 0 data at offset 0x150: CDO command at word' "$F/late.pdi")" \
  --pdi "$F/late.pdi" --aie-metadata "$F/aie_control_config.json"
has "$TMP/err" "$(printf '(offset 0x%x, header 0x0002017f): command: expected one of the PLM' "$late")"
has "$TMP/err" "late.pdi: the PDI (--pdi) would be refused on the board (1 problem); nothing written"
rm -f "$F/big.a" "$F/big.xclbin" "$F/late.pdi"
# a command running past the CDO: its length word raised to 255 + a huge long length
cp "$F/aie.pdi" "$F/long.pdi"
printf '\xff' | dd of="$F/long.pdi" bs=1 seek=$((0x166)) conv=notrunc status=none
printf '\xff\xff\xff\x0f' | dd of="$F/long.pdi" bs=1 seek=$((0x168)) conv=notrunc status=none
refused_input "the command runs past the CDO" --pdi "$F/long.pdi" --aie-metadata "$F/aie_control_config.json"
expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --pdi "$F/aie.pdi" --aie-metadata "$F/aie_control_config.json" -o "$F/q.xclbin"
# a VCK190 design checked against VEK280: every PLIO is misplaced there
expect 1 "$T" check --board vek280 "$X"
has "$TMP/err" "PLIO PLIO_01_TO_AIE (mygraph.in0): shim column: expected 12 (the XSA's placement), found 6"
has "$TMP/err" "driver_config.hw_gen: expected 2 (AIE-ML, board vek280), found 1"

# infrastructure: 3, with bootgen's own words
expect 3 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/i.xclbin" --bootgen /nonexistent/bootgen
has "$TMP/err" "cannot run /nonexistent/bootgen"
printf '#!/bin/sh\necho "[ERROR]  : the BIF is wrong" >&2\nexit 1\n' > "$TMP/fakebootgen"
chmod +x "$TMP/fakebootgen"
expect 3 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/i.xclbin" --bootgen "$TMP/fakebootgen"
has "$TMP/err" "fakebootgen failed (exit 1): [ERROR]  : the BIF is wrong"
PATH=/nonexistent expect 3 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/i.xclbin"
has "$TMP/err" "cannot run bootgen"
expect 3 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o /nonexistent/dir/i.xclbin
has "$TMP/err" "/nonexistent/dir/i.xclbin: cannot create a temporary file"
if [[ -e "$F/i.xclbin" ]]; then bad "a failed run wrote i.xclbin"; else ok; fi

# corrupted files: check says what is wrong, exit 1
corrupt() { cp "$X" "$F/bad.xclbin"; }
check_bad() {
  expect 1 "$T" check "$F/bad.xclbin"
  has "$TMP/err" "$1"
}
size=$(stat -c %s "$X")
corrupt; truncate -s 300 "$F/bad.xclbin"
check_bad "file size: expected at least 456 bytes (the xclbin header), found 300"
corrupt; truncate -s $((size - 7)) "$F/bad.xclbin"
check_bad "m_length: expected $((size - 7)) (the file size), found $size"
has "$TMP/err" "section 1 (PDI \"aie\"): end"
corrupt; put64 "$F/bad.xclbin" 304 $((size + 8))
check_bad "m_length: expected $size (the file size), found $((size + 8))"
corrupt; printf 'xclbin1' | dd of="$F/bad.xclbin" bs=1 conv=notrunc status=none
check_bad 'magic: expected "xclbin2\x00", found "xclbin1\x00"'
corrupt; put64 "$F/bad.xclbin" $((456 + 40 + 24)) 536            # PDI onto AIE_METADATA
check_bad "the sections overlap"
corrupt; put64 "$F/bad.xclbin" $((456 + 40 + 32)) $((1 << 40))   # PDI size beyond the file
check_bad "section 1 (PDI \"aie\"): end (offset"
corrupt; put64 "$F/bad.xclbin" $((456 + 24)) 540                 # unaligned
check_bad "offset: expected a multiple of 8, found 540"
corrupt; printf '\x09\x00' | dd of="$F/bad.xclbin" bs=1 seek=332 conv=notrunc status=none
check_bad "m_mode: expected 0..6 (FLAT..HW_EMU_PR), found 9"
corrupt; printf '\x06\x00\x00\x00' | dd of="$F/bad.xclbin" bs=1 seek=456 conv=notrunc status=none
check_bad "(MEM_TOPOLOGY \"aie_control_con\"): size: expected"   # AIE_METADATA relabelled: array size rule
has "$TMP/err" "expected an AIE_METADATA section"
corrupt; printf '\x00\x00' | dd of="$F/bad.xclbin" bs=1 seek=334 conv=notrunc status=none
check_bad "m_actionMask: expected LOAD_AIE (0x1) set in an AIE-only xclbin (XRT takes it as AIE-only from that bit alone; without it the load fails with \"No xml metadata in xclbin\"), found 0x0000"
expect 1 "$T" info "$F/bad.xclbin"
has "$TMP/out" "Problems (1):"
expect 2 "$T" check "$F/nonexistent.xclbin"
has "$TMP/err" "nonexistent.xclbin: cannot open"
expect 2 "$T" check
has "$TMP/err" "check: which xclbin?"
expect 2 "$T" dump-section NOPE "$X" -o "$F/x"
has "$TMP/err" "unknown section kind \"NOPE\""
expect 2 "$T" dump-section MEM_TOPOLOGY "$X" -o "$F/x"
has "$TMP/err" "no MEM_TOPOLOGY section"
expect 3 "$T" dump-section PDI "$X" -o /nonexistent/dir/x
has "$TMP/err" "/nonexistent/dir/x"
no_leftovers
finish
