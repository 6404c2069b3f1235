#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_package: files a board accepts. LOAD_AIE is required in an
# AIE-only xclbin; VEK385's PDIs come only from a bootgen with the Versal
# Gen 2 architecture (a stand-in that lists it records what it is asked);
# the graph's AIE generation number is the board's; the XSA is the board's
# device (part, IDCODE).
. "$(dirname "$0")/../lib.sh"
T="$B/bin/th_package"
G="$B/tests/gen_package_inputs"
FAKE="$S/tests/data/package/fake_bootgen_gen2.sh"
export TMPDIR="$TMP/scratch"
mkdir -p "$TMPDIR"
unset BOOTGEN FAKE_BOOTGEN_LOG
lacks() { if grep -qF -- "$2" "$1"; then bad "$1 has: $2"; else ok; fi; }
gone() { if [[ -e $1 ]]; then bad "a refused run wrote $1"; else ok; fi; }
for b in vck190 vek280 vek385; do
  "$G" --board "$b" --out "$TMP/$b" || bad "fixture generator failed for $b"
done
F="$TMP/vck190"

# 1. the action mask: LOAD_PDI alone is refused; check reports such a file
expect 2 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/m.xclbin" --action-mask LOAD_PDI
has "$TMP/err" "action mask 0x2: an AIE-only xclbin needs LOAD_AIE (0x1): XRT takes an xclbin as AIE-only from that bit alone"
has "$TMP/err" "No xml metadata in xclbin"
gone "$F/m.xclbin"
expect 0 "$T" --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/m.xclbin" --action-mask LOAD_AIE,LOAD_PDI
expect 0 "$T" check --board vck190 "$F/m.xclbin"
printf '\x02\x00' | dd of="$F/m.xclbin" bs=1 seek=334 conv=notrunc status=none   # m_actionMask
expect 1 "$T" check --board vck190 "$F/m.xclbin"
has "$TMP/err" "m_actionMask: expected LOAD_AIE (0x1) set in an AIE-only xclbin"
has "$TMP/err" "found 0x0002"
expect 1 "$T" info "$F/m.xclbin"
has "$TMP/out" "Problems (1):"

# 2. VEK385: Gen 2 PDIs. Debian's bootgen (2022.2) lacks the architecture
F="$TMP/vek385"
if bootgen -help arch 2>&1 | grep -q versal_2ve_2vm; then
  echo "th_package_boards.sh: the installed bootgen has Gen 2: refusal case skipped"
else
  expect 3 "$T" --board vek385 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/g.xclbin"
  has "$TMP/err" "board vek385 (xc2ve3858) needs PDIs of bootgen architecture versal_2ve_2vm (bootgen_arch of its board file), but bootgen supports only zynq,zynqmp,versal,fpga"
  has "$TMP/err" "--bootgen PATH or \$BOOTGEN, or give a PDI built for the device with --pdi"
  gone "$F/g.xclbin"
fi
# a bootgen that says nothing about architectures is refused as well
printf '#!/bin/sh\necho "usage: bootgen"\ntouch "$0.ran"\n' >"$TMP/mute"; chmod +x "$TMP/mute"
expect 3 "$T" --board vek385 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/g.xclbin" --bootgen "$TMP/mute"
has "$TMP/err" "but $TMP/mute supports only (none listed)"
gone "$F/g.xclbin"
# the stand-in lists versal_2ve_2vm: asked for it, by --bootgen or $BOOTGEN
# (--no-cache: the same inputs again would take the PDI from the cache and
# not run the stand-in, whose arguments are checked)
export FAKE_BOOTGEN_LOG="$TMP/args"
expect 0 "$T" --no-cache --board vek385 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/g.xclbin" --bootgen "$FAKE"
has "$TMP/args" "-arch versal_2ve_2vm -image "
rm -f "$TMP/args"
BOOTGEN="$FAKE" expect 0 "$T" --no-cache --board vek385 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/g.xclbin"
has "$TMP/args" "-arch versal_2ve_2vm -image "
# --bootgen wins over $BOOTGEN
BOOTGEN=/nonexistent/bootgen expect 0 "$T" -q --board vek385 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$F/g.xclbin" --bootgen "$FAKE"
# a first-generation board gets -arch versal from the same program
rm -f "$TMP/args"
expect 0 "$T" --no-cache --board vck190 --xsa "$TMP/vck190/harness.xsa" --libadf "$TMP/vck190/libadf.a" -o "$F/v.xclbin" --bootgen "$FAKE"
has "$TMP/args" "-arch versal -image "
lacks "$TMP/args" "2ve"
unset FAKE_BOOTGEN_LOG
# a prebuilt PDI needs no bootgen at all
expect 0 "$T" dump-section PDI "$F/g.xclbin" -o "$F/g.pdi"
PATH=/nonexistent expect 0 "$T" --board vek385 --xsa "$F/harness.xsa" --pdi "$F/g.pdi" --aie-metadata "$F/aie_control_config.json" -o "$F/p.xclbin"
# the AIE generation: AIE-MLv2 is hw_gen 5, when packaging and in check
expect 1 "$T" --board vek385 --xsa "$F/harness.xsa" --libadf "$F/wrong_hw_gen.a" -o "$F/h.xclbin" --bootgen "$FAKE"
has "$TMP/err" "AIE_METADATA driver_config.hw_gen: expected 5 (AIE-MLv2, board vek385), found 1"
gone "$F/h.xclbin"
expect 0 "$T" check --board vek385 "$F/g.xclbin"
BOOTGEN= expect 0 "$T" -q --board vek280 --xsa "$TMP/vek280/harness.xsa" --libadf "$TMP/vek280/libadf.a" -o "$F/e2.xclbin"
expect 1 "$T" check --board vek385 "$F/e2.xclbin"
has "$TMP/err" "driver_config.hw_gen: expected 5 (AIE-MLv2, board vek385), found 2"

# 3. the XSA must be the board's device
F="$TMP/vek280"
# a VEK280 graph against a VCK190 XSA (VC1902's IDCODE, VCK190's part)
expect 2 "$T" --board vek280 --xsa "$TMP/vck190/vbnv.xsa" --libadf "$F/libadf.a" -o "$F/x.xclbin"
has "$TMP/err" "vbnv.xsa: member xsa.json: board: expected vek280 (--board), found \"vck190\""
expect 2 "$T" --board vek280 --xsa "$F/other_part.xsa" --libadf "$F/libadf.a" -o "$F/x.xclbin"
has "$TMP/err" "other_part.xsa: member xsa.json: part: expected xcve2802... (board vek280, --board), found \"xcvc1902-vsva2197-2MP-e-S\": the XSA is for another device"
expect 2 "$T" --board vek280 --xsa "$F/other_device.xsa" --libadf "$F/libadf.a" -o "$F/x.xclbin"
has "$TMP/err" "other_device.xsa: device IDCODE 0x14ca8093 (member design.pdi): expected board vek280's device (xcve2802, --board), found board vck190's (xcvc1902): the XSA is for another device"
gone "$F/x.xclbin"
F="$TMP/vck190"
expect 2 "$T" --board vck190 --xsa "$F/other_device.xsa" --libadf "$F/libadf.a" -o "$F/x.xclbin"
has "$TMP/err" "device IDCODE: expected 0x14ca8093 (board vck190, xcvc1902; revision bits 31..28 not compared), found 0x0ffff093 (member design.pdi)"
expect 2 "$T" --board vck190 --xsa "$F/other_part.xsa" --libadf "$F/libadf.a" -o "$F/x.xclbin"
has "$TMP/err" "part: expected xcvc1902... (board vck190, --board), found \"xcve2802-vsvh1760-2MP-e-S\""
gone "$F/x.xclbin"
if [[ -n $(ls -A "$TMPDIR") ]]; then bad "scratch left in TMPDIR: $(ls -A "$TMPDIR")"; else ok; fi
finish
