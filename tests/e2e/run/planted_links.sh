#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Outputs are never written through a planted link: in an
# output folder others may write, a symbolic link planted at the name of
# every file a run writes (report.json, junit.xml, report.html, trace.json,
# each SVG chart, the TAP file, a `save` file, th_package -o and
# dump-section -o, the artifacts a remote server sends) and pointing at a
# victim file is replaced by the output, the victim left as it was; a
# link at the folders the run makes (charts/, artifacts/, a relative
# `save` path's sub/) is refused; a
# link owned by someone else to a FIFO is replaced, never followed. What
# must keep working: /dev/stdout, /dev/null, `--tap -`, a FIFO with a
# reader, your own link to /dev/null. Every run is bounded by `timeout`.
. "$(dirname "$0")/../lib.sh"
R="$B/bin/run_test"
T="$B/bin/th_package"
G="$B/tests/gen_package_inputs"
D="$S/examples/adder_perf/test.json"
W="$TMP/w"
mkdir -p "$W"
ROOT=0; [[ $(id -u) -eq 0 ]] && ROOT=1

# bounded CODE CMD...: like expect, under `timeout 60`; 124 is a hang
bounded() {
  local want=$1; shift
  timeout 60 "$@" >"$TMP/out" 2>"$TMP/err"; local got=$?
  if [[ $got -eq 124 ]]; then bad "$* hung (killed after 60 s)"
  elif [[ $got -eq $want ]]; then ok
  else bad "$* -> exit $got, expected $want"; sed 's/^/  | /' "$TMP/err" >&2; fi
}
# kind FILE TYPE: stat's file type of FILE (not following a link)
kind() {
  local got; got=$(stat -c %F "$1" 2>/dev/null)
  if [[ $got == "$2" ]]; then ok; else bad "$1 is '$got', expected '$2'"; fi
}
VICTIM="$W/victim"
victim_new() { echo "the victim's own bytes" >"$VICTIM"; }
victim_intact() {
  if [[ $(cat "$VICTIM") == "the victim's own bytes" ]]; then ok
  else bad "$1: the victim was written through the link: $(head -c 120 "$VICTIM")"; fi
}
# plant NAME: a link at NAME to the victim, made (when root can) by another
# user, as in a shared workspace
plant() {
  ln -s "$VICTIM" "$1"
  if [[ $ROOT -eq 1 ]]; then chown -h 65534:65534 "$1"; fi
}
# replaced NAME TEXT: NAME is now a regular file that holds TEXT
replaced() {
  kind "$1" "regular file"
  if [[ -n ${2:-} ]]; then has "$1" "$2"; fi
}

# ------------------------------------------------------- run_test, local
# the chart names this description gives
bounded 0 "$R" -q -o "$W/names" "$D"
CHARTS=$(cd "$W/names/charts" && ls)
[[ $(wc -w <<<"$CHARTS") -ge 2 ]] && ok || bad "expected charts, got: $CHARTS"
SAVE=adder_perf_out.txt
[[ -f $W/names/$SAVE ]] && ok || bad "the save file $SAVE was not written"

victim_new
O="$W/out"
mkdir -p "$O/charts"
for f in report.json junit.xml report.html trace.json "$SAVE"; do plant "$O/$f"; done
for c in $CHARTS; do plant "$O/charts/$c"; done
plant "$W/run.tap"
bounded 0 "$R" -q -o "$O" --tap "$W/run.tap" "$D"
victim_intact "run_test's outputs"
replaced "$O/report.json" '"schema": "aieth-report/2"'
replaced "$O/junit.xml" '<testsuites'
replaced "$O/report.html" '<html'
replaced "$O/trace.json" 'traceEvents'
replaced "$O/$SAVE"
cmp -s "$O/$SAVE" "$W/names/$SAVE" && ok || bad "the save file differs from a clean run's"
for c in $CHARTS; do replaced "$O/charts/$c" '<svg'; done
replaced "$W/run.tap" 'TAP version 13'
if ls -A "$O" "$O/charts" | grep -q '\.tmp\.'; then bad "temporaries left: $(ls -A "$O")"; else ok; fi

# --report, --junit, --html, --trace named elsewhere: the same
victim_new
for f in r.json j.xml h.html t.json; do plant "$W/$f"; done
bounded 0 "$R" -q -o "$W/out2" --report "$W/r.json" --junit "$W/j.xml" --html "$W/h.html" \
  --trace "$W/t.json" "$D"
victim_intact "--report/--junit/--html/--trace"
replaced "$W/r.json" '"schema": "aieth-report/2"'
replaced "$W/j.xml" '<testsuites'
replaced "$W/h.html" '<html'
replaced "$W/t.json" 'traceEvents'

# a link planted at the charts folder: refused before the run (the charts
# would land in the folder it points to), nothing written there
mkdir -p "$W/vdir" "$W/out3"
ln -s "$W/vdir" "$W/out3/charts"
bounded 2 "$R" -q -o "$W/out3" "$D"
has "$TMP/err" "charts: is a symbolic link"
[[ -z $(ls -A "$W/vdir") ]] && ok || bad "charts written through a planted folder link: $(ls -A "$W/vdir")"

# a `save` path with folders, relative to OUT (the description's, the run's
# own layout): a link planted at OUT/sub (another user's, to a folder that
# holds a file of the saved name) is refused, the test says so (phase
# "save", exit 2), nothing written where it points; the same for a tiled
# channel's save (written whole after the run); missing folders are made;
# ".." is refused before the run; an absolute path is the user's own
mkdir -p "$W/sv"
cp "$S/examples/adder_perf/"*.txt "$S/examples/tiling/"*.txt "$W/sv/"
python3 - "$S/examples" "$W/sv" <<'EOF'
import json, sys
ex, out = sys.argv[1], sys.argv[2]
def save(src, name, ch, path):
    d = json.load(open(f"{ex}/{src}/test.json"))
    sv = {"file": path}
    if path.endswith(".txt"):
        sv["type"] = "int32"
    d["transactions"][0]["channels"][ch]["save"] = sv
    json.dump(d, open(f"{out}/{name}.json", "w"), indent=1)
save("adder_perf", "sub", 2, "sub/x.txt")
save("adder_perf", "deep", 2, "deep/er/x.txt")
save("adder_perf", "up", 2, "../up.txt")
save("adder_perf", "abs", 2, out + "/abslink/x.txt")
save("tiling", "tsub", 2, "sub/t.bin")
EOF
mkdir -p "$W/vdir3" "$W/sv1"
echo "the victim folder's own x" >"$W/vdir3/x.txt"
echo "the victim folder's own t" >"$W/vdir3/t.bin"
ln -s "$W/vdir3" "$W/sv1/sub"
if [[ $ROOT -eq 1 ]]; then chown -h 65534:65534 "$W/sv1/sub"; fi
bounded 2 "$R" -q -o "$W/sv1" "$W/sv/sub.json" "$W/sv/tsub.json"
has "$W/sv1/report.json" '"phase": "save"'
n=$(grep -c 'sv1/sub: is a symbolic link: refusing to write through it' "$W/sv1/report.json")
[[ $n -ge 2 ]] && ok || bad "both saves (streamed, tiled) should be refused naming OUT/sub: $n"
[[ $(cat "$W/vdir3/x.txt") == "the victim folder's own x" ]] && ok || bad "x.txt written through OUT/sub"
[[ $(cat "$W/vdir3/t.bin") == "the victim folder's own t" ]] && ok || bad "t.bin written through OUT/sub"
[[ $(ls -A "$W/vdir3" | wc -l) -eq 2 ]] && ok || bad "files left in the link's folder: $(ls -A "$W/vdir3")"
kind "$W/sv1/sub" "symbolic link"
bounded 0 "$R" -q -o "$W/sv2" "$W/sv/deep.json"
cmp -s "$W/sv2/deep/er/x.txt" "$W/names/$SAVE" && ok || bad "deep/er/x.txt is not the save of a clean run"
bounded 2 "$R" -q -o "$W/sv3" "$W/sv/up.json"
has "$W/sv3/report.json" '../up.txt\": a relative save path stays below the output folder'
[[ ! -e $W/up.txt ]] && ok || bad "../up.txt was written above OUT"
mkdir -p "$W/absdir"
ln -s "$W/absdir" "$W/sv/abslink"
bounded 0 "$R" -q -o "$W/sv4" "$W/sv/abs.json"
cmp -s "$W/absdir/x.txt" "$W/names/$SAVE" && ok || bad "an absolute save path through the user's own link was not written"

# the output folder's lock, truncated and written by each run: a hard link
# planted at its name (another name of the victim) is refused, the victim
# left as it was; a symbolic link there too
victim_new
mkdir -p "$W/lk1" "$W/lk2"
ln "$VICTIM" "$W/lk1/.run_test.lock"
bounded 2 "$R" -q -o "$W/lk1" "$D"
has "$TMP/err" "is not a plain file of its own"
victim_intact "the lock (a hard link)"
victim_new
plant "$W/lk2/.run_test.lock"
bounded 2 "$R" -q -o "$W/lk2" "$D"
victim_intact "the lock (a symbolic link)"

# another user's link to a FIFO with a reader: replaced, the reader gets
# nothing (it could be the planter's); your own link to /dev/null is yours
if [[ $ROOT -eq 1 ]]; then
  mkfifo "$W/theirfifo"
  exec 7<>"$W/theirfifo"
  mkdir -p "$W/out4"
  ln -s "$W/theirfifo" "$W/out4/report.json"; chown -h 65534:65534 "$W/out4/report.json"
  bounded 0 "$R" -q -o "$W/out4" "$D"
  replaced "$W/out4/report.json" '"schema": "aieth-report/2"'
  got=$(timeout 5 python3 -c 'import os; os.set_blocking(7, False)
try: print(len(os.read(7, 65536)))
except BlockingIOError: print(0)')
  [[ $got == 0 ]] && ok || bad "another user's link to a FIFO was followed ($got bytes came)"
  exec 7<&-
else
  echo "planted_links.sh: skipped another user's link to a FIFO (chown -h needs root)"
fi
ln -s /dev/null "$W/mine.json"
bounded 0 "$R" -q -o "$W/out5" --report "$W/mine.json" "$D"
kind "$W/mine.json" "symbolic link"
kind /dev/null "character special file"

# what keeps working: /dev/stdout, /dev/null, `--tap -`, a FIFO with a reader
bounded 0 "$R" -q -o "$W/out6" --junit /dev/null --html /dev/null "$D"
kind /dev/null "character special file"
bounded 0 "$R" -q -o "$W/out7" --tap - "$D"
has "$TMP/out" 'TAP version 13'
mkfifo "$W/myfifo"
exec 7<>"$W/myfifo"
bounded 0 "$R" -q -o "$W/out8" --junit "$W/myfifo" "$D"
python3 -c 'import os; os.set_blocking(7, False); open(os.sys.argv[1], "wb").write(os.read(7, 1 << 20))' \
  "$W/from_fifo"
exec 7<&-
kind "$W/myfifo" "fifo"
has "$W/from_fifo" '<testsuites'
# a pipe behind /dev/stdout and /dev/fd/N
timeout 60 "$R" -q -o "$W/out9" --report /dev/stdout "$D" | cat >"$W/piped"
has "$W/piped" '"schema": "aieth-report/2"'
timeout 60 "$R" -q -o "$W/out10" --junit /dev/fd/3 "$D" 3>&1 >/dev/null | cat >"$W/piped3"
has "$W/piped3" '<testsuites'

# ------------------------------------------------------------ th_package
F="$TMP/pkg"
"$G" --board vck190 --out "$F" >/dev/null || bad "fixture generator failed"
PKG=("$T" -q --board vck190 --xsa "$F/harness.xsa" --libadf "$F/libadf.a")
victim_new
plant "$W/p.xclbin"
bounded 0 "${PKG[@]}" -o "$W/p.xclbin"
victim_intact "th_package -o"
replaced "$W/p.xclbin"
bounded 0 "$T" check "$W/p.xclbin"
plant "$W/pdi.bin"
bounded 0 "$T" dump-section -q PDI "$W/p.xclbin" -o "$W/pdi.bin"
victim_intact "th_package dump-section -o"
replaced "$W/pdi.bin"
bounded 0 "${PKG[@]}" -o /dev/null
kind /dev/null "character special file"

# ------------------------------------------------------ run_test, remote
if ! command -v jq >/dev/null; then echo "planted_links.sh: no jq"; finish; exit; fi
th_server_setup
start_server "$TMP/log"
UP=$U
FAKE=$S/tests/tools/fake_th_server.py
# the artifacts' bytes and names are the server's: a fake one in front
python3 "$FAKE" --upstream "$UP" --port-file "$TMP/fake.port" --max-seconds 120 \
  --artifacts 2:1000 2>"$TMP/fake.log" &
PIDS+=("$!")
disown "$!"
for i in $(seq 100); do [[ -s $TMP/fake.port ]] && break; sleep 0.1; done
[[ -s $TMP/fake.port ]] || { bad "fake server did not start: $(cat "$TMP/fake.log")"; finish; exit 1; }
F=http://127.0.0.1:$(cat "$TMP/fake.port")
RM=(--backend remote --server "$F")
# a link at an artifact's name and at every report file: replaced
victim_new
O="$W/rout"
mkdir -p "$O/artifacts"
plant "$O/artifacts/big0.bin"
plant "$O/artifacts/big1.bin"
plant "$O/report.json"
plant "$O/junit.xml"
bounded 0 "$R" -q "${RM[@]}" -o "$O" "$D"
victim_intact "remote artifacts"
replaced "$O/artifacts/big0.bin"
replaced "$O/artifacts/big1.bin"
[[ $(stat -c %s "$O/artifacts/big0.bin") == 1000 ]] && ok || bad "big0.bin is not the server's 1000 bytes"
replaced "$O/report.json" '"big1.bin"'
replaced "$O/junit.xml" '<testsuites'
# a link planted at artifacts/ itself: nothing lands where it points; the
# test says why, the run still passes (artifacts never fail a test)
mkdir -p "$W/vdir2" "$W/rout2"
ln -s "$W/vdir2" "$W/rout2/artifacts"
bounded 0 "$R" -q "${RM[@]}" -o "$W/rout2" "$D"
[[ -z $(ls -A "$W/vdir2") ]] && ok || bad "artifacts written through a planted folder link: $(ls -A "$W/vdir2")"
has "$W/rout2/report.json" "artifacts: is a symbolic link"
kind "$W/rout2/artifacts" "symbolic link"

kill -0 "$SP" && ok || bad "th_server died"
finish
