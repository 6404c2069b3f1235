#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The end-to-end scripts, E2E_JOBS at a time (the Makefile's: 3, 2 under
# qemu; 2 when run by hand): most of their wall
# time is waiting (servers, timeouts, qemu), not CPU, so several share a
# 2-core machine well, and nothing in them depends on scheduling (make
# stress-check runs them beside CPU-bound loops). Scripts named in
# E2E_SERIAL (none by default: install.sh relinks a copy of the build, not
# the build) run alone, after the others. Each script's output is printed
# whole when it ends, with its time; the exit code is 1 if any failed, and
# the failed ones are named at the end.
#
# Longest first: each script's last time is kept in $AIETH_BUILD/e2e-times.txt
# (a build of another kind, ASan or the cross one, reads the native build's,
# AIETH_NATIVE_BUILD or ./build, when it has none), and the scripts start
# slowest first, so that a long one does not run alone at the end; scripts
# with no time yet keep their order, first. Only the order changes.
#   run-e2e.sh SCRIPT...
set -u
jobs=${E2E_JOBS:-2}
serial=" ${E2E_SERIAL:-} "
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=()
declare -A started=() name_of=()

# report PID: print the finished script's output and time, note a failure
report() {
  local pid=$1 rc=$2 n=${name_of[$1]}
  ended[$n]=$(($(date +%s) - started[$1]))
  echo "== $n (${ended[$n]} s)"
  cat "$out/$n.log"
  [[ $rc -eq 0 ]] || { failed+=("$n (exit $rc)"); echo "== $n FAILED (exit $rc)"; }
}
run_one() {
  local t=$1 n
  n=$(basename "$t")
  # a background job of a non-interactive shell starts with SIGINT and
  # SIGQUIT ignored: the scripts get them back (some send SIGINT)
  env --default-signal=INT,QUIT bash "$t" >"$out/$n.log" 2>&1 &
  started[$!]=$(date +%s)
  name_of[$!]=$n
}
# wait_one: until one running script ends; reported
wait_one() {
  local pid rc
  wait -n -p pid
  rc=$?
  report "$pid" "$rc"
  unset "started[$pid]" "name_of[$pid]"
}
# times: the first file that exists; "NAME SECONDS" lines
times= own=1
for f in "${AIETH_BUILD:-}/e2e-times.txt" "${AIETH_NATIVE_BUILD:-}/e2e-times.txt" "${AIETH_SRC:-.}/build/e2e-times.txt"; do
  [[ -f $f ]] && { times=$f; break; }
  own=0
done
# took: the times kept (this build's own); guess: the order. Another
# build's times guess the order only, and a script that took a second or
# less there may have been skipped there (cross_compare.sh natively):
# unknown
declare -A took=() guess=()
if [[ -n $times ]]; then
  while read -r n sec; do
    [[ $sec =~ ^[0-9]+$ ]] || continue
    if [[ $own -eq 1 ]]; then took[$n]=$sec; fi
    if [[ $own -eq 1 || $sec -gt 1 ]]; then guess[$n]=$sec; fi
  done <"$times"
fi
# the scripts, slowest known first (a stable sort: unknown ones lead)
mapfile -t order < <(i=0; for t in "$@"; do
  n=$(basename "$t"); printf '%s\t%06d\t%s\n' "${guess[$n]:-999999}" $((i++)) "$t"
done | sort -t $'\t' -k1,1nr -k2,2n | cut -f3)
declare -A ended=()
later=()
for t in "${order[@]}"; do
  if [[ $serial == *" $(basename "$t") "* ]]; then later+=("$t"); continue; fi
  while [[ ${#started[@]} -ge $jobs ]]; do wait_one; done
  run_one "$t"
done
while [[ ${#started[@]} -gt 0 ]]; do wait_one; done
for t in "${later[@]}"; do run_one "$t"; wait_one; done
# this run's times, with the ones of scripts it did not run kept
if [[ -n ${AIETH_BUILD:-} && -d $AIETH_BUILD ]]; then
  for n in "${!ended[@]}"; do took[$n]=${ended[$n]}; done
  for n in "${!took[@]}"; do echo "$n ${took[$n]}"; done | sort >"$AIETH_BUILD/e2e-times.txt.tmp" &&
    mv "$AIETH_BUILD/e2e-times.txt.tmp" "$AIETH_BUILD/e2e-times.txt"
fi
if [[ ${#failed[@]} -gt 0 ]]; then
  printf 'e2e: failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "e2e: all $# scripts passed ($jobs at a time)"
