#!/bin/sh
# SPDX-License-Identifier: MIT
# A stand-in for AMD's current bootgen in tests (Debian's 2022.2 has no
# Versal Gen 2 architecture). It answers `-help arch` with a table in the
# layout of AMD bootgen's own (common/include/help.h) that lists
# versal_2ve_2vm, appends its arguments to $FAKE_BOOTGEN_LOG when that is
# set, and builds the image with the real bootgen ($REAL_BOOTGEN, default
# bootgen) as a first-generation one: the tests check what th_package asks
# for, not a Gen 2 image.
if [ "$1" = -help ] && [ "$2" = arch ]; then
  cat <<'TABLE'


****** Bootgen v2025.2 (test stand-in)

-------------+----------------------------------------------------------------+
 OPTION      | arch                                                           |
-------------+----------------------------------------------------------------+
 SYNOPSIS    | -arch [arguments]                                              |
-------------+----------------------------------------------------------------+
 ARGUMENTS   | *zynq           : Image is targeted for ZYNQ-7000 architecture |
             |  zynqmp         : Image is targeted for ZYNQ MPSoC architecture|
             |  versal         : Image is targeted for VERSAL ADAPTIVE SoC    |
             |                   architecture                                 |
             |  fpga           : Image is targeted for other FPGA             |
             |                   architectures                                |
             |  versal_2ve_2vm : Image is targeted for                        |
             |                   VERSAL AI EDGE SERIES GEN2 and               |
             |                   PRIME SERIES GEN2 architectures              |
             |  spartanup      : Image is targeted for SPARTAN ULTRASCALE+    |
             |                   architecture                                 |
-------------+----------------------------------------------------------------+
 USAGE       | bootgen -arch zynq -image test.bif -o boot.bin                 |
-------------+----------------------------------------------------------------+
TABLE
  exit 0
fi
if [ -n "$FAKE_BOOTGEN_LOG" ]; then
  printf '%s\n' "$*" >>"$FAKE_BOOTGEN_LOG"
fi
for a do
  shift
  [ "$a" = versal_2ve_2vm ] && a=versal
  set -- "$@" "$a"
done
exec "${REAL_BOOTGEN:-bootgen}" "$@"
