#!/usr/bin/env bash
# make install into a staging root; a client builds against the installed
# header and pkg-config file, links the shared library and runs with the
# installed data files.
. "$(dirname "$0")/lib.sh"
root=$TMP/root
expect 0 make -C "$S" --no-print-directory O="${B#$S/}" SAN="${AIETH_SAN:-}" CC="${AIETH_CC:-cc}" \
  install DESTDIR="$root" PREFIX=/opt/aieth
for f in include/aieth.h include/aieth_model.h lib/libaieth.a lib/libaieth.so \
         lib/pkgconfig/aieth.pc share/aieth/platforms/vck190.json \
         share/aieth/cfg/vek280_aie_constraints.json share/aieth/cfg/vck190_system.cfg; do
  if [[ -e $root/opt/aieth/$f ]]; then ok; else bad "not installed: $f"; fi
done
pc=$root/opt/aieth/lib/pkgconfig
flags=$(PKG_CONFIG_PATH=$pc PKG_CONFIG_SYSROOT_DIR=$root pkg-config --cflags --libs aieth)
expect 0 "${AIETH_CC:-cc}" -std=c11 ${AIETH_SANFLAGS:-} -o "$TMP/client" "$S/examples/c_api/aieth_demo.c" $flags
LD_LIBRARY_PATH=$root/opt/aieth/lib AIETH_DATA_DIR=$root/opt/aieth/share/aieth \
  expect 0 "$TMP/client" --board vek280 --channels 2 --size 1024 --replay 2
has "$TMP/out" "PASS"
if LD_LIBRARY_PATH=$root/opt/aieth/lib ldd "$TMP/client" | grep -q "libaieth.so.0 => $root"; then ok; else bad "client not linked to the installed libaieth.so.0"; ldd "$TMP/client" >&2; fi
finish
