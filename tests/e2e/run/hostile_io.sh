#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hostile inputs and outputs: outputs that are devices,
# FIFOs, symbolic links or directories; inputs that are FIFOs; th_package's
# output naming one of its inputs; th_package interrupted while bootgen runs,
# and a bootgen that hangs. Every run is bounded by `timeout`: a status of
# 124 means it hung.
. "$(dirname "$0")/../lib.sh"
R="$B/bin/run_test"
T="$B/bin/th_package"
G="$B/tests/gen_package_inputs"
export TMPDIR="$TMP/scratch"   # th_package's scratch space: must end up empty
mkdir -p "$TMPDIR"
W="$TMP/w"
mkdir -p "$W"

# bounded CODE CMD...: like expect, under `timeout 20`; 124 is a hang
bounded() {
  local want=$1; shift
  timeout 20 "$@" >"$TMP/out" 2>"$TMP/err"; local got=$?
  if [[ $got -eq 124 ]]; then bad "$* hung (killed after 20 s)"
  elif [[ $got -eq $want ]]; then ok
  else bad "$* -> exit $got, expected $want"; cat "$TMP/err" >&2; fi
}
# kind FILE TYPE: stat's file type of FILE (not following a link)
kind() {
  local got; got=$(stat -c %F "$1" 2>/dev/null)
  if [[ $got == "$2" ]]; then ok; else bad "$1 is '$got', expected '$2'"; fi
}
# drain FD FILE: what is waiting in the pipe open on FD, into FILE
drain() {
  python3 -c 'import os, sys
fd = int(sys.argv[1]); os.set_blocking(fd, False); data = b""
while True:
    try: d = os.read(fd, 65536)
    except BlockingIOError: break
    if not d: break
    data += d
open(sys.argv[2], "wb").write(data)' "$1" "$2"
}
scratch_empty() {
  if [[ -z $(ls -A "$TMPDIR") ]]; then ok; else bad "scratch left in TMPDIR: $(ls -A "$TMPDIR")"; fi
}

# a description with a save file, and its data
cp "$S/examples/adder_func/"*.txt "$W/"
python3 - "$S/examples/adder_func/test.json" "$W/test.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["transactions"][0]["channels"][2]["save"] = {"file": "saved.bin"}
json.dump(d, open(sys.argv[2], "w"), indent=1)
EOF

# ---------------------------------------------------------------- outputs
if [[ $(id -u) -eq 0 ]]; then
  O="$W/out"; mkdir -p "$O"
  mknod "$W/rep" c 1 3; mknod "$W/ju" c 1 3; mknod "$O/saved.bin" c 1 3
  bounded 0 "$R" -q -o "$O" --report "$W/rep" --junit "$W/ju" "$W/test.json"
  kind "$W/rep" "character special file"
  kind "$W/ju" "character special file"
  kind "$O/saved.bin" "character special file"
else
  echo "hostile_io.sh: skipped the device-node outputs (mknod needs root)"
fi
# a symbolic link to a regular file: replaced by the report, its target
# never written (tests/e2e/run/planted_links.sh has every output)
echo old >"$W/real.json"
ln -s real.json "$W/link.json"
bounded 0 "$R" -q -o "$W/out2" --report "$W/link.json" "$W/test.json"
kind "$W/link.json" "regular file"
has "$W/link.json" '"schema": "aieth-report/2"'
[[ $(cat "$W/real.json") == old ]] && ok || bad "the link's target was written"
# a FIFO with a reader gets the report; one without is an error, not a wait
mkfifo "$W/rfifo"
exec 7<>"$W/rfifo"   # we are the reader (read-write: opening never waits)
bounded 0 "$R" -q -o "$W/out3" --report "$W/rfifo" "$W/test.json"
drain 7 "$W/from_fifo"
exec 7<&-
kind "$W/rfifo" "fifo"
has "$W/from_fifo" '"schema": "aieth-report/2"'
# a directory as --report: an error naming it
mkdir -p "$W/rdir"
bounded 2 "$R" -q -o "$W/out4" --report "$W/rdir" "$W/test.json"
has "$TMP/err" "$W/rdir: is a directory"
kind "$W/rdir" "directory"

# ----------------------------------------------------------------- inputs
mkfifo "$W/fifo"
bounded 2 "$R" -q -o "$W/out5" "$W/fifo"
has "$W/out5/report.json" "fifo: is a FIFO, not a regular file"
sed 's/"in0.txt"/"fifo"/' "$W/test.json" >"$W/fifo_data.json"
bounded 2 "$R" -q -o "$W/out6" "$W/fifo_data.json"
has "$W/out6/report.json" "fifo: is a FIFO, not a regular file"
# --xclbin that is a FIFO: an input error naming it (xclbin_gate.sh); with
# --xclbin-warn-only recorded, not needed on the emulated board
bounded 2 "$R" -q -o "$W/out7" --xclbin "$W/fifo" "$W/test.json"
has "$W/out7/report.json" "fifo: is a FIFO, not a regular file"
bounded 0 "$R" -q -o "$W/out7" --xclbin-warn-only --xclbin "$W/fifo" "$W/test.json"
has "$W/out7/report.json" "fifo: is a FIFO, not a regular file"

# -------------------------------------------------------------- th_package
F="$TMP/pkg"
"$G" --board vck190 --out "$F" >/dev/null || bad "fixture generator failed"
PKG=("$T" -q --board vck190)
bounded 2 "${PKG[@]}" --xsa "$W/fifo" --libadf "$F/libadf.a" -o "$W/x.xclbin"
has "$TMP/err" "fifo: is a FIFO, not a regular file"
bounded 2 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$W/fifo" -o "$W/x.xclbin"
has "$TMP/err" "fifo: is a FIFO, not a regular file"
bounded 2 "${PKG[@]}" --xsa "$F/harness.xsa" --pdi "$W/fifo" --aie-metadata "$F/aie_control_config.json" -o "$W/x.xclbin"
has "$TMP/err" "fifo: is a FIFO, not a regular file"
bounded 2 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$F/libadf.a" --aie-metadata "$W/fifo" -o "$W/x.xclbin"
has "$TMP/err" "fifo: is a FIFO, not a regular file"
bounded 2 "$T" info "$W/fifo"
has "$TMP/err" "fifo: is a FIFO, not a regular file"
bounded 2 "$T" check "$W/fifo"
has "$TMP/err" "fifo: is a FIFO, not a regular file"
cp -r "$F/Work" "$W/Work"
rm "$W/Work/ps/cdo/aie.cdo.init.bin"
mkfifo "$W/Work/ps/cdo/aie.cdo.init.bin"
bounded 2 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$W/Work" -o "$W/x.xclbin"
has "$TMP/err" "aie.cdo.init.bin: is a FIFO, not a regular file"
if [[ -e "$W/x.xclbin" ]]; then bad "a failed run wrote x.xclbin"; else ok; fi
scratch_empty

# outputs of th_package: a device stays a device, a link is replaced
bounded 0 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$W/good.xclbin"
if [[ $(id -u) -eq 0 ]]; then
  mknod "$W/pnull" c 1 3
  bounded 0 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$W/pnull"
  kind "$W/pnull" "character special file"
  bounded 0 "$T" dump-section -q PDI "$W/good.xclbin" -o "$W/pnull"
  kind "$W/pnull" "character special file"
fi
echo old >"$W/gvictim"
ln -s gvictim "$W/glink"
bounded 0 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$W/glink"
kind "$W/glink" "regular file"
[[ $(cat "$W/gvictim") == old ]] && ok || bad "th_package -o wrote the link's target"
bounded 0 "$T" check "$W/glink"
# a FIFO as -o: written when read, an error at once when nothing reads it
mkfifo "$W/pfifo"
bounded 3 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$W/pfifo"
has "$TMP/err" "pfifo: is a FIFO that nothing reads from"
exec 7<>"$W/pfifo"
bounded 0 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$W/pfifo"
drain 7 "$W/pfifo.out"
exec 7<&-
kind "$W/pfifo" "fifo"
bounded 0 "$T" check "$W/pfifo.out"
# -o naming an input, a folder, or nothing: usage errors, the input untouched
cp "$F/libadf.a" "$W/keep.a"
bounded 2 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$W/keep.a" -o "$W/keep.a"
has "$TMP/err" "is the graph (--libadf)"
cmp -s "$W/keep.a" "$F/libadf.a" && ok || bad "-o over --libadf changed the input"
cp "$F/harness.xsa" "$W/keep.xsa"
ln "$W/keep.xsa" "$W/hardlink.xsa"
bounded 2 "${PKG[@]}" --xsa "$W/keep.xsa" --libadf "$F/libadf.a" -o "$W/hardlink.xsa"
has "$TMP/err" "is the XSA (--xsa)"
cmp -s "$W/keep.xsa" "$F/harness.xsa" && ok || bad "-o over --xsa changed the input"
cp -r "$F/Work" "$W/Work2"
bounded 2 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$W/Work2" -o "$W/Work2/ps/cdo/aie.cdo.init.bin"
has "$TMP/err" "is inside the graph (--libadf)"
cmp -s "$W/Work2/ps/cdo/aie.cdo.init.bin" "$F/Work/ps/cdo/aie.cdo.init.bin" && ok || bad "-o inside Work/ changed the input"
bounded 2 "$T" dump-section -q PDI "$W/good.xclbin" -o "$W/good.xclbin"
has "$TMP/err" "refusing to write over it"
bounded 2 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o ""
has "$TMP/err" '-o/--output "": expected a file name'
bounded 2 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$W/rdir/"
has "$TMP/err" "$W/rdir/: is a directory, not a file"
if grep -q '//' "$TMP/err"; then bad "odd path in: $(cat "$TMP/err")"; else ok; fi
scratch_empty

# ------------------------------------------------- th_package and signals
# a slow bootgen that records its process and its child's
cat >"$W/slow-bootgen" <<EOF
#!/bin/sh
echo \$\$ >"$W/bootgen.pid"
sleep 300 &
echo \$! >"$W/bootgen.child"
wait
EOF
chmod +x "$W/slow-bootgen"
alive() {  # alive PID: running (a zombie waiting for its reaper is not)
  local st; st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  [[ -n $st && $st != Z* ]]
}
gone() {  # gone PIDFILE: the process it names ends within 5 s (killed, not waited out)
  local p i; p=$(cat "$1" 2>/dev/null)
  for ((i = 0; i < 50; i++)); do
    if [[ -z $p ]] || ! alive "$p"; then ok; return; fi
    sleep 0.1
  done
  bad "process $p ($1) still runs"; kill -9 "$p"
}
wait_for() {  # wait_for FILE: up to 20 s
  local i; for ((i = 0; i < 200; i++)); do [[ -s $1 ]] && return 0; sleep 0.1; done
  return 1
}
for sig in TERM INT HUP; do
  rm -f "$W/bootgen.pid" "$W/bootgen.child"
  "$T" -q --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a" \
    -o "$W/sig.xclbin" --bootgen "$W/slow-bootgen" 2>"$TMP/err" &
  pid=$!
  # a bound: never hang the suite (wait, unlike sleep, returns on the trap)
  (trap 'kill $s 2>/dev/null; exit 0' TERM; sleep 30 & s=$!; wait $s; kill -9 "$pid" 2>/dev/null) &
  guard=$!
  if wait_for "$W/bootgen.child"; then
    kill -s "$sig" "$pid"
    wait "$pid"; got=$?
    want=$((128 + $(kill -l "$sig")))
    [[ $got -eq $want ]] && ok || bad "SIG$sig: th_package exit $got, expected $want"
    has "$TMP/err" "interrupted by signal"
  else
    bad "SIG$sig: the slow bootgen never started"; kill -9 "$pid"; wait "$pid"
  fi
  kill "$guard" 2>/dev/null; wait "$guard" 2>/dev/null
  gone "$W/bootgen.pid"
  gone "$W/bootgen.child"
  scratch_empty
  if [[ -e "$W/sig.xclbin" ]]; then bad "an interrupted run wrote sig.xclbin"; else ok; fi
  if ls -A "$W" | grep -q '^\.sig'; then bad "temporary output left: $(ls -A "$W" | grep '^\.sig')"; else ok; fi
done
# a hung bootgen: killed at its time limit, exit 3 naming the limit
rm -f "$W/bootgen.pid" "$W/bootgen.child"
bounded 3 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$W/hung.xclbin" \
  --bootgen "$W/slow-bootgen" --bootgen-timeout 1
has "$TMP/err" "time limit of 1 s (--bootgen-timeout)"
gone "$W/bootgen.pid"
gone "$W/bootgen.child"
scratch_empty
bounded 2 "${PKG[@]}" --xsa "$F/harness.xsa" --libadf "$F/libadf.a" -o "$W/x.xclbin" --bootgen-timeout soon
has "$TMP/err" '--bootgen-timeout "soon"'
finish
