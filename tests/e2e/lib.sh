# Shared helpers for the end-to-end tests (sourced). Environment from the
# Makefile: AIETH_SRC (tree), AIETH_BUILD (build dir), AIETH_DATA_DIR.
set -u
B=${AIETH_BUILD:?run through make}
S=${AIETH_SRC:?run through make}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# expect CODE CMD...: run CMD, compare the exit code
expect() {
  local want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"; local got=$?
  if [[ $got -eq $want ]]; then ok; else bad "$* -> exit $got, expected $want"; cat "$TMP/err" >&2; fi
}
# has FILE TEXT: FILE contains TEXT
has() { if grep -qF -- "$2" "$1"; then ok; else bad "$1 lacks: $2"; sed 's/^/  | /' "$1" >&2; fi; }
finish() { echo "$(basename "$0"): $pass passed, $fail failed"; [[ $fail -eq 0 ]]; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
