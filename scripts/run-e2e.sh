#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The end-to-end scripts, E2E_JOBS at a time (default 2): most of their wall
# time is waiting (servers, timeouts, qemu), not CPU, so two of them share a
# 2-core machine well, and nothing in them depends on scheduling (make
# stress-check runs them beside CPU-bound loops). Scripts named in
# E2E_SERIAL (none by default: install.sh relinks a copy of the build, not
# the build) run alone, after the others. Each script's output is printed
# whole when it ends, with its time; the exit code is 1 if any failed, and
# the failed ones are named at the end.
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
  echo "== $n ($(($(date +%s) - started[$1])) s)"
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
later=()
for t in "$@"; do
  if [[ $serial == *" $(basename "$t") "* ]]; then later+=("$t"); continue; fi
  while [[ ${#started[@]} -ge $jobs ]]; do wait_one; done
  run_one "$t"
done
while [[ ${#started[@]} -gt 0 ]]; do wait_one; done
for t in "${later[@]}"; do run_one "$t"; wait_one; done
if [[ ${#failed[@]} -gt 0 ]]; then
  printf 'e2e: failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "e2e: all $# scripts passed ($jobs at a time)"
