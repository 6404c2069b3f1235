#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An xrt.ini reaches XRT on the xrt backend, and what XRT writes comes back
# as the session's artifacts (backends/xrt/xrt_rundir.c), with the XRT
# test double (tests/xrt_double/xrt_ini.c) reading XRT_INI_PATH and
# writing XRT's AIE trace and status files into its working folder:
# - run_test --backend xrt --xrt-ini: the files land in OUT/artifacts/ and
#   report.json lists them; keys that are paths or outside the AIE
#   sections never reach XRT; without the keys no file; without --xrt-ini
#   nothing changes; links, folders and hidden files are not taken; the
#   artifacts' byte limit holds;
# - th_server --backend xrt: a session carrying an xrt.ini (run_test
#   --backend remote --xrt-ini, or curl) gets XRT's files among its
#   artifacts, right after DELETE; a session without one gets none; an AMD
#   client (tests/tools/amd_client.c) gets them in the file return after
#   destroy.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
MK=$B/tests/xrt_mkxclbin
SPEC=$S/examples/adder_perf/test.json
xrt_double_env
export AIETH_XRT_DOUBLE_SPEC=$SPEC

"$MK" pl vck190 "$TMP/pl.xclbin" || bad "mkxclbin pl"
"$MK" aie vck190 "$TMP/aie.xclbin" gr || bad "mkxclbin aie"
cat >"$TMP/trace.ini" <<'EOF'
[Debug]
aie_trace = true
aie_status=true
dtrace_lib_path=/tmp/not-loaded.so
profiling_directory=/tmp
[Runtime]
runtime_log=console
[AIE_trace_settings]
graph_based_aie_tile_metrics=all:all:functions
EOF
printf '[Debug]\nxrt_trace=true\n' >"$TMP/plain.ini"

# xlocal NAME WANT [run_test args]: run_test on the double from $TMP/cwd
# with relative paths (the child works in a folder of its own)
mkdir -p "$TMP/cwd"
cp "$TMP/pl.xclbin" "$TMP/aie.xclbin" "$TMP/trace.ini" "$TMP/plain.ini" "$TMP/cwd/"
xlocal() {
  local name=$1 want=$2; shift 2
  pushd "$TMP/cwd" >/dev/null || return
  AIETH_XRT_DOUBLE_LOG=$TMP/$name.log expect "$want" timeout 120 "$RT" \
    --backend xrt --pl-xclbin pl.xclbin --xclbin aie.xclbin -o "$name" "$@" "$SPEC"
  popd >/dev/null || return
}
jqis() { local got; got=$(jq -r "$2" "$3" 2>&1); [[ $got == "$1" ]] && ok || bad "$3: $2 = '$got', expected '$1'"; }
# the user's own xrt.ini in the working folder asks for a profile: with
# --xrt-ini it is not the one XRT reads
printf '[Debug]\naie_profile=true\n' >"$TMP/cwd/xrt.ini"

# --- local: the trace and status files in OUT/artifacts/
xlocal trace 0 --xrt-ini trace.ini
A=$TMP/cwd/trace/artifacts
[[ -f $A/aie_trace_0_0.txt ]] && ok || bad "no aie_trace_0_0.txt in $A: $(ls -a "$A" 2>&1)"
has "$A/aie_trace_0_0.txt" "graph_based_aie_tile_metrics=all:all:functions"
has "$A/aie_trace_0_0.txt" "graph gr iterations 128"
st=$(ls "$A"/aie_status_edge_*.json 2>/dev/null | head -1)
[[ -n $st ]] && jq -e '.graphs[0].name == "gr"' "$st" >/dev/null && ok || bad "no aie_status_edge_*.json: $(ls -a "$A")"
# written by the double's destructor: the child ended with exit()
jqis true .final "$A/xrt.run_summary"
jqis aie_trace_0_0.txt '.files[0]' "$A/xrt.run_summary"
ls "$A"/aie_profile_* >/dev/null 2>&1 && bad "the working folder's xrt.ini was read" || ok
# the xrt.ini XRT read: the AIE keys, none of the paths
has "$A/xrt.ini" "aie_trace=true"
has "$A/xrt.ini" "graph_based_aie_tile_metrics=all:all:functions"
has "$A/xrt.ini" "not passed to XRT: Debug.dtrace_lib_path"
has "$A/xrt.ini" "not passed to XRT: Debug.profiling_directory"
has "$A/xrt.ini" "not passed to XRT: Runtime.runtime_log"
grep -q '^dtrace_lib_path\|^profiling_directory\|^runtime_log' "$A/xrt.ini" && bad "a path reached XRT" || ok
has "$TMP/trace.log" "xrt_ini $A/.xrt-run-"
# the session folder is gone, the report lists every file
[[ -z $(find "$A" -name '.xrt-run-*') ]] && ok || bad "session folder left in $A"
R=$TMP/cwd/trace/report.json
jqis "aie_status aie_trace_0_0.txt xrt.ini xrt.run_summary" \
  '[.tests[0].artifacts[].name | sub("_edge_.*"; "")] | sort | join(" ")' "$R"
jqis null '.tests[0].artifacts_error' "$R"
jqis "$(stat -c %s "$A/aie_trace_0_0.txt")" \
  '.tests[0].artifacts[] | select(.name == "aie_trace_0_0.txt") | .bytes' "$R"

# --- local: an xrt.ini without those keys: no file of XRT's
xlocal plain 0 --xrt-ini plain.ini
jqis "xrt.ini" '[.tests[0].artifacts[].name] | join(" ")' "$TMP/cwd/plain/report.json"
ls "$TMP/cwd/plain/artifacts"/aie_* >/dev/null 2>&1 && bad "files without the keys" || ok

# --- local: without --xrt-ini the child works where run_test runs, as before
xlocal none 0
[[ ! -e $TMP/cwd/none/artifacts ]] && ok || bad "artifacts without --xrt-ini"
jqis null '.tests[0].artifacts' "$TMP/cwd/none/report.json"
has "$TMP/none.log" "xrt_ini $TMP/cwd/xrt.ini"
ls "$TMP/cwd"/aie_profile_edge_*.csv >/dev/null 2>&1 && ok || bad "XRT did not read ./xrt.ini"
rm -f "$TMP/cwd"/aie_profile_edge_*.csv "$TMP/cwd/xrt.run_summary" "$TMP/cwd/xrt.ini"

# --- links, folders, hidden files are not taken; nothing is followed
AIETH_XRT_DOUBLE_FAULT=odd_files xlocal odd 0 --xrt-ini trace.ini
A=$TMP/cwd/odd/artifacts
[[ ! -e $A/aie_link.txt && ! -e $A/aie_dir && ! -e $A/.hidden ]] && ok || bad "odd files taken: $(ls -a "$A")"
[[ -f $A/aie_trace_0_0.txt ]] && ok || bad "odd: the trace is missing"
has "$TMP/cwd/odd/report.json" 'XRT'"'"'s file \"aie_link.txt\" is not a regular file: not kept'
has "$TMP/cwd/odd/report.json" 'XRT'"'"'s file \"aie_dir\" is not a regular file'
has "$TMP/cwd/odd/report.json" 'XRT'"'"'s file \".hidden\" is not a plain file name'
[[ -z $(find "$A" -name '.xrt-run-*') ]] && ok || bad "odd: session folder left"

# --- the artifacts' byte limit (--max-artifacts): a 2 MiB trace past 1 MiB
AIETH_XRT_DOUBLE_TRACE_BYTES=2100000 xlocal big 0 --xrt-ini trace.ini --max-artifacts 1
A=$TMP/cwd/big/artifacts
[[ ! -e $A/aie_trace_0_0.txt ]] && ok || bad "big: a trace past the limit was kept"
has "$TMP/cwd/big/report.json" 'past the artifacts'"'"' limit of 1048576 bytes'
ls "$A"/aie_status_edge_*.json >/dev/null 2>&1 && ok || bad "big: the small files are gone too"

# --- th_server --backend xrt: a board folder whose PL xclbin is the double's
th_server_setup
mkdir -p "$TMP/data/xclbin"
ln -s "$S/platforms" "$TMP/data/platforms"
ln -s "$S/cfg" "$TMP/data/cfg"
cp "$TMP/pl.xclbin" "$TMP/data/xclbin/vck190_test_harness.xclbin"
mkdir -p "$TMP/work"
# the device's close takes 1.5 s (XRT flushing a trace): the artifact list
# after DELETE must wait for it
AIETH_XRT_DOUBLE_FLUSH_MS=1500 AIETH_XRT_DOUBLE_LOG=$TMP/srv.double.log \
  start_server "$TMP/srv.log" --backend xrt \
  --data-dir "$TMP/data" --work-dir "$TMP/work"
expect 0 timeout 120 "$RT" --backend remote --server "$U" --xclbin "$TMP/aie.xclbin" \
  --xrt-ini "$TMP/trace.ini" -o "$TMP/r1" "$SPEC"
# a board runs the real graph: its model ports are not known (501), the
# client's input-mistake checks are skipped and the run goes on
grep -Eq 'GET /v1/sessions/[^ ]*/graphs/gr/ports 501 ' "$TMP/srv.log" && ok ||
  bad "the xrt server did not answer 501 to the graph's ports: $(grep ports "$TMP/srv.log")"
A=$TMP/r1/artifacts
[[ -f $A/aie_trace_0_0.txt ]] && ok || bad "remote: no aie_trace_0_0.txt: $(ls -a "$A" 2>&1)"
has "$A/aie_trace_0_0.txt" "graph gr iterations 128"
ls "$A"/aie_status_edge_*.json >/dev/null 2>&1 && ok || bad "remote: no aie_status file"
jqis true .final "$A/xrt.run_summary"
# the client's own xrt.ini comes back as sent; run_summary.json is the server's
cmp -s "$A/xrt.ini" "$TMP/trace.ini" && ok || bad "remote: the xrt.ini returned is not the one sent"
[[ -f $A/run_summary.json ]] && ok || bad "remote: no run_summary.json"
jqis null '.tests[0].artifacts_error' "$TMP/r1/report.json"
# no session folder left in the server's work folder
[[ -z $(find "$TMP/work" -name '.xrt-run-*') ]] && ok || bad "server: session folder left"

# a session without an xrt.ini: none of XRT's files
expect 0 timeout 120 "$RT" --backend remote --server "$U" --xclbin "$TMP/aie.xclbin" \
  -o "$TMP/r2" "$SPEC"
ls "$TMP/r2/artifacts"/aie_* "$TMP/r2/artifacts/xrt.run_summary" >/dev/null 2>&1 \
  && bad "remote without xrt.ini: XRT's files came back" || ok
# an xrt.ini without the keys: none either
expect 0 timeout 120 "$RT" --backend remote --server "$U" --xclbin "$TMP/aie.xclbin" \
  --xrt-ini "$TMP/plain.ini" -o "$TMP/r3" "$SPEC"
ls "$TMP/r3/artifacts"/aie_* >/dev/null 2>&1 && bad "remote, xrt.ini without keys: files" || ok
[[ -f $TMP/r3/artifacts/xrt.ini ]] && ok || bad "remote: plain xrt.ini not returned"

# curl: DELETE, then at once the list: XRT's files are there already
sha=$(sha256sum "$TMP/aie.xclbin" | cut -d' ' -f1)
ini=$(jq -Rs . <"$TMP/trace.ini")
req 201 -X POST -H 'Content-Type: application/json' \
  -d "{\"board\":\"vck190\",\"graphs\":[{\"name\":\"gr\"}],\"xclbin_sha256\":\"$sha\",\"xrt_ini\":$ini}" \
  "$U/v1/sessions"
sid=$(jq -r .id "$TMP/body")
req 204 -X DELETE "$U/v1/sessions/$sid"
req 200 "$U/v1/sessions/$sid/artifacts"
jqis "aie_status aie_trace_0_0.txt run_summary.json xrt.ini xrt.run_summary" \
  '[.artifacts[].name | sub("_edge_.*"; "")] | sort | join(" ")' "$TMP/body"
stop_server

# --- AMD's protocol (th_server --amd-listen --backend xrt): after destroy the
# device closes first, then the files return, XRT's among them
AC=$B/tests/amd_client
cat >"$TMP/amd_spec.json" <<'EOF'
{"schema": "aieth-test/1", "name": "amd_adder", "board": "vck190",
 "graphs": [{"name": "gr", "model": "adder", "params": {"in0": "PLIO_01_TO_AIE",
   "in1": "PLIO_03_TO_AIE", "out": "PLIO_02_FROM_AIE", "window_bytes": 4096}}],
 "transactions": [{"mode": "func", "channels": [{"plio": "PLIO_01_TO_AIE", "size": 4096,
   "data": {"pattern": "ramp", "type": "int32"}}]}]}
EOF
AIETH_XRT_DOUBLE_SPEC=$TMP/amd_spec.json AIETH_XRT_DOUBLE_FLUSH_MS=1500 \
  start_server "$TMP/amd.log" --amd-listen 127.0.0.1:0 --backend xrt --data-dir "$TMP/data" \
  --work-dir "$TMP/work"
amd_port "$TMP/amd.log"
mkdir -p "$TMP/amd1" "$TMP/amd2"
AMD_CLIENT_INI=$TMP/trace.ini AMD_CLIENT_XCLBIN=$TMP/aie.xclbin expect 0 timeout 120 "$AC" xrtfiles "$AP" "$TMP/amd1"
has "$TMP/out" "returned file aie_trace_0_0.txt"
has "$TMP/out" "returned file aie_status_edge_"
has "$TMP/out" "returned file xrt.run_summary"
has "$TMP/amd1/aie_trace_0_0.txt" "graph gr iterations 4"
cmp -s "$TMP/amd1/xrt.ini" "$TMP/trace.ini" && ok || bad "amd: the xrt.ini returned is not the one sent"
AMD_CLIENT_INI=$TMP/plain.ini AMD_CLIENT_XCLBIN=$TMP/aie.xclbin expect 0 timeout 120 "$AC" xrtfiles "$AP" "$TMP/amd2"
has "$TMP/out" "returned file xrt.ini"
grep -q "returned file aie_" "$TMP/out" && bad "amd: XRT's files without the keys" || ok
stop_server
finish
