# SPDX-License-Identifier: MIT
# check-cut.sh LIB.so LIB.a [ENGINE.a ...] - libaieth.so is the device API
# (docs/architecture.md, "The cut"): the libraries only the programs' engines
# use (libmicrohttpd for th_server, GnuTLS for its certificate check,
# libarchive for th_package and th_assets) are not among its dependencies,
# and no archive defines a global a linker could clash on.
#  - NEEDED (what the library itself links) names none of them;
#  - ldd (the whole closure) names neither libmicrohttpd nor libarchive, and
#    GnuTLS only where a dependency brings it itself: Debian 12's libcurl
#    does, through librtmp (the remote backend needs libcurl);
#  - every global that libaieth.a defines is public (harness/abi/symbols.txt)
#    or spelled aieth__ (two underscores); every global of an engine's
#    archive is aieth__.
# Exit 0 when that holds, 1 naming what breaks it, 2 on a usage error.
set -u
lib=${1:-}
static=${2:-}
[ -n "$lib" ] && [ -f "$lib" ] && [ -n "$static" ] && [ -f "$static" ] ||
  { echo "usage: check-cut.sh build/lib/libaieth.so build/lib/libaieth.a [engine.a ...]" >&2; exit 2; }
shift 2
symbols=$(dirname "$0")/../harness/abi/symbols.txt
[ -f "$symbols" ] || { echo "check-cut: $symbols: missing" >&2; exit 2; }
engine_only='libmicrohttpd|libgnutls|libarchive'
fail=0
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p') || { echo "check-cut: readelf $lib failed" >&2; exit 2; }
for n in $needed; do
  if printf '%s\n' "$n" | grep -Eq "^($engine_only)"; then
    echo "check-cut: $lib links $n itself (NEEDED); only the programs' engines may (ENGINE_DEPS_LIBS in the Makefile)"
    fail=1
  fi
done
closure=$(ldd "$lib" | awk '{print $1}')
for n in $closure; do
  case "$n" in
  libmicrohttpd*|libarchive*)
    echo "check-cut: ldd $lib lists $n"
    fail=1 ;;
  libgnutls*)
    # from which direct dependency?
    via=""
    for d in $needed; do
      p=$(ldd "$lib" | awk -v d="$d" '$1 == d {print $3}')
      [ -n "$p" ] && ldd "$p" 2>/dev/null | grep -q "^[[:space:]]*$n " && via="$via $d"
    done
    if [ -z "$via" ]; then
      echo "check-cut: ldd $lib lists $n, which none of its dependencies brings"
      fail=1
    else
      echo "check-cut: note: $n comes with$via, not with libaieth"
    fi ;;
  esac
done
# globals: public or aieth__ (a static archive exports every global)
globals() { nm -g --defined-only "$1" | awk 'NF == 3 {print $3}' | sort -u; }
public=$(grep -v '^#' "$symbols" | awk 'NF {print $1}' | sort -u)
bad=$(globals "$static" | grep -v '^aieth__' | comm -23 - <(printf '%s\n' "$public"))
for s in $bad; do
  echo "check-cut: $static defines $s: neither public (harness/abi/symbols.txt) nor aieth__ (make it static or spell it aieth__$s)"
  fail=1
done
nglob=$(globals "$static" | wc -l)
for a in "$@"; do
  [ -f "$a" ] || { echo "check-cut: $a: missing" >&2; exit 2; }
  for s in $(globals "$a" | grep -v '^aieth__'); do
    echo "check-cut: $a defines $s: an engine's globals are aieth__ (make it static or spell it aieth__${s#aieth_})"
    fail=1
  done
  nglob=$((nglob + $(globals "$a" | wc -l)))
done
[ $fail -eq 0 ] && echo "check-cut: $nglob globals in $(( $# + 1 )) archives, each public or aieth__"
[ $fail -eq 0 ] && echo "check-cut: $lib needs none of libmicrohttpd, GnuTLS, libarchive ($(echo $needed | wc -w) direct dependencies)"
exit $fail
