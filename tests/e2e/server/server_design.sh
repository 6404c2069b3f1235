#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_server's design xclbin cache and session files on loopback (emulated
# board, docs/http-api.md): HEAD 404 -> PUT -> HEAD 200; a wrong hash (400,
# nothing cached); an oversize upload refused before its body (413); a
# client that vanishes mid-upload (nothing left); two uploads of the same
# file at once; a session naming a design the server lacks (409);
# run_test --backend remote with an xclbin (sent once, the second run only
# asks), --xrt-ini, and the session's files in OUT/artifacts listed in
# report.json; eviction under a tiny cache, never of a design in use.
# Every wait is bounded; servers are stopped by the trap.
. "$(dirname "$0")/../lib.sh"
th_server_setup
REQ_MAX_S=20   # uploads of a few MiB
RT=$B/bin/run_test
EX=$S/examples
PY=/usr/bin/python3
J='Content-Type: application/json'
O='Content-Type: application/octet-stream'

is() { if [[ $2 == "$3" ]]; then ok; else bad "$1: '$2', expected '$3'"; fi; }
# files in the cache folder, temporaries included (not the owners index)
nfiles() { find "$1" -mindepth 1 ! -name owners.txt | wc -l; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
# raw REQUEST: send it on a fresh connection, print the status line's code
# (5 s at most); the body is never sent
raw() {
  local port=${U##*:} line=
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf '%b' "$1" >&3
  IFS= read -r -t 5 line <&3
  exec 3<&- 3>&-
  echo "$line" | awk '{print $2}'
}

# ---- the cache over HTTP
start_server "$TMP/log" --cache-dir "$TMP/cache" --max-xclbin 4
head -c 3000000 /dev/urandom >"$TMP/d1.bin"
H1=$(sha "$TMP/d1.bin")
req 404 -I "$U/v1/xclbins/$H1"
req 201 -X PUT -H "$O" --data-binary @"$TMP/d1.bin" "$U/v1/xclbins/$H1"
is "stored" "$(jq -r .stored "$TMP/body")" true
req 200 -I "$U/v1/xclbins/$H1"
has "$TMP/hdr" "Content-Length: 3000000"
is "cached file" "$(sha "$TMP/cache/$H1")" "$H1"
# the same again: 200, not stored twice
req 200 -X PUT -H "$O" --data-binary @"$TMP/d1.bin" "$U/v1/xclbins/$H1"
is "stored again" "$(jq -r .stored "$TMP/body")" false
is "uploads" "$(metric aieth_xclbin_uploads_total)" 1

# a body whose hash is not the path's: 400, nothing cached
head -c 100000 /dev/urandom >"$TMP/d2.bin"
H2=$(sha "$TMP/d2.bin")
req 400 -X PUT -H "$O" --data-binary @"$TMP/d2.bin" "$U/v1/xclbins/$H1"
req 400 -X PUT -H "$O" --data-binary @"$TMP/d1.bin" "$U/v1/xclbins/$H2"
has "$TMP/body" "the path says $H2"
req 404 -I "$U/v1/xclbins/$H2"
is "cache after bad uploads" "$(nfiles "$TMP/cache")" 1
# other refusals: not a sha (404), no length (411), wrong type (415), empty (400)
req 404 -X PUT -H "$O" --data-binary @"$TMP/d2.bin" "$U/v1/xclbins/${H2^^}"
req 411 -X PUT -H "$O" -H 'Transfer-Encoding: chunked' --data-binary @"$TMP/d2.bin" "$U/v1/xclbins/$H2"
req 415 -X PUT -H 'Content-Type: text/plain' --data-binary @"$TMP/d2.bin" "$U/v1/xclbins/$H2"
req 400 -X PUT -H "$O" --data-binary '' "$U/v1/xclbins/$H2"
req 405 -X DELETE "$U/v1/xclbins/$H2"

# oversize: refused from Content-Length before any body byte is sent
got=$(raw "PUT /v1/xclbins/$H2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 2000000000\r\n\r\n")
is "oversize status" "$got" 413
log_has "$TMP/log" "PUT /v1/xclbins/${H2:0:40}.* 413 "
# (the log shortens long paths)
if grep -q "PUT /v1/xclbins/${H2:0:40}.* 413 in=0 " "$TMP/log"; then ok; else bad "413 read the body: $(grep ' 413 ' "$TMP/log")"; fi
req 413 --expect100-timeout 60 -H 'Expect: 100-continue' -X PUT -H "$O" -H 'Content-Length: 5000000' --data-binary @"$TMP/d2.bin" "$U/v1/xclbins/$H2"
has "$TMP/body" "the limit is --max-xclbin 4 MiB"

# a client that vanishes mid-upload: nothing left behind
(
  exec 3<>"/dev/tcp/127.0.0.1/${U##*:}"
  printf 'PUT /v1/xclbins/%s HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n' "$H2" >&3
  head -c 5000 "$TMP/d2.bin" >&3
  sleep 0.3
) 
for i in $(seq 50); do [[ $(nfiles "$TMP/cache") -eq 1 ]] && break; sleep 0.1; done
is "cache after a vanished upload" "$(nfiles "$TMP/cache")" 1
req 404 -I "$U/v1/xclbins/$H2"

# two uploads of the same file at once: both succeed, one copy is kept
head -c 4000000 /dev/urandom >"$TMP/d3.bin"
H3=$(sha "$TMP/d3.bin")
curl -s -m 20 -o "$TMP/c1" -w '%{http_code}' -X PUT -H "$O" --data-binary @"$TMP/d3.bin" "$U/v1/xclbins/$H3" >"$TMP/s1" &
p1=$!
curl -s -m 20 -o "$TMP/c2" -w '%{http_code}' -X PUT -H "$O" --data-binary @"$TMP/d3.bin" "$U/v1/xclbins/$H3" >"$TMP/s2" &
p2=$!
wait $p1 $p2
s1=$(cat "$TMP/s1"); s2=$(cat "$TMP/s2")
if [[ $s1 =~ ^20[01]$ && $s2 =~ ^20[01]$ && "$s1$s2" == *201* ]]; then ok; else bad "concurrent uploads: $s1 $s2"; fi
is "concurrent: one copy" "$(sha "$TMP/cache/$H3")" "$H3"
is "cache after concurrent uploads" "$(nfiles "$TMP/cache")" 2
is "uploads after concurrent" "$(metric aieth_xclbin_uploads_total)" 2

# a session naming a design the server lacks: 409 naming the upload
req 409 -H "$J" -d "{\"board\":\"vck190\",\"xclbin_sha256\":\"$H2\"}" "$U/v1/sessions"
has "$TMP/body" "upload it first"
req 400 -H "$J" -d '{"board":"vck190","xclbin_sha256":"abc"}' "$U/v1/sessions"
# a cached one: the session opens with it; artifacts over HTTP
req 201 -H "$J" -d "{\"board\":\"vck190\",\"xclbin_sha256\":\"$H1\",\"xrt_ini\":\"[Runtime]\\nverbosity=4\\n\"}" "$U/v1/sessions"
SID=$(jq -r .id "$TMP/body")
is "session design" "$(jq -r .xclbin_sha256 "$TMP/body")" "$H1"
req 200 "$U/v1/sessions/$SID/artifacts"
is "artifacts listed" "$(jq -r '[.artifacts[].name] | sort | join(",")' "$TMP/body")" "run_summary.json,xrt.ini"
req 200 "$U/v1/sessions/$SID/artifacts/xrt.ini"
is "xrt.ini back" "$(cat "$TMP/body")" "$(printf '[Runtime]\nverbosity=4')"
req 204 -X DELETE "$U/v1/sessions/$SID"
# after the end: still there, the summary final
req 200 "$U/v1/sessions/$SID/artifacts/run_summary.json"
is "summary state" "$(jq -r .state "$TMP/body")" ended
is "summary design" "$(jq -r .xclbin_sha256 "$TMP/body")" "$H1"
req 400 "$U/v1/sessions/$SID/artifacts/.hidden"
req 404 "$U/v1/sessions/$SID/artifacts/nothing.txt"
req 404 "$U/v1/sessions/$SID/artifacts/a%2f..%2fx"
req 404 "$U/v1/sessions/s-99-00000000/artifacts"

# ---- run_test --backend remote with a design xclbin and an xrt.ini
pk=$TMP/pkg; mkdir -p "$pk"
if "$B/tests/gen_package_inputs" --board vck190 --out "$pk" >/dev/null 2>&1 &&
   "$B/bin/th_package" --board vck190 --xsa "$pk/harness.xsa" --libadf "$pk/libadf.a" -o "$pk/design.xclbin" >/dev/null 2>&1; then
  ok
  HX=$(sha "$pk/design.xclbin")
  printf '[Debug]\nnative_xrt_trace=true\n' >"$TMP/xrt.ini"
  expect 0 "$RT" -q --backend remote --server "$U" --xclbin "$pk/design.xclbin" --xrt-ini "$TMP/xrt.ini" \
    -o "$TMP/r1" "$EX/adder_perf/test.json"
  is "first run: uploads" "$(grep -c "PUT /v1/xclbins/${HX:0:40}" "$TMP/log")" 1
  expect 0 "$RT" -q --backend remote --server "$U" --xclbin "$pk/design.xclbin" -o "$TMP/r2" "$EX/adder_perf/test.json"
  is "second run: no upload" "$(grep -c "PUT /v1/xclbins/${HX:0:40}" "$TMP/log")" 1
  is "second run: asked" "$(grep -c "HEAD /v1/xclbins/${HX:0:40}.* 200 " "$TMP/log")" 1
  is "uploads after runs" "$(metric aieth_xclbin_uploads_total)" 3
  # the session's files in OUT/artifacts, listed in the report
  cmp -s "$TMP/xrt.ini" "$TMP/r1/artifacts/xrt.ini" && ok || bad "r1/artifacts/xrt.ini differs"
  is "summary: design" "$(jq -r .xclbin_sha256 "$TMP/r1/artifacts/run_summary.json")" "$HX"
  is "summary: a finished transaction" "$(jq -r '.transactions[0].state + " " + .transactions[0].status_name' \
    "$TMP/r1/artifacts/run_summary.json")" "finished DONE"
  is "summary: cycles" "$(jq -r '.transactions[0].total_cycles > 0' "$TMP/r1/artifacts/run_summary.json")" true
  is "report artifacts" "$(jq -r '[.tests[0].artifacts[].name] | sort | join(",")' "$TMP/r1/report.json")" \
    "run_summary.json,xrt.ini"
  is "report artifact bytes" "$(jq -r '.tests[0].artifacts[] | select(.name == "xrt.ini") | .bytes' "$TMP/r1/report.json")" \
    "$(stat -c %s "$TMP/xrt.ini")"
  is "second run: no xrt.ini" "$(jq -r '[.tests[0].artifacts[].name] | join(",")' "$TMP/r2/report.json")" run_summary.json
  is "report xclbin sha" "$(jq -r .tests[0].xclbin.sha256 "$TMP/r1/report.json")" "$HX"
  if $PY "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$TMP/r1/report.json" >"$TMP/schema" 2>&1
  then ok; else bad "r1/report.json does not validate: $(cat "$TMP/schema")"; fi
else
  bad "could not package a design xclbin with th_package"
fi
# the PL kernel is the server's; an xrt.ini that is too large; local + xrt.ini
expect 2 "$RT" -q --backend remote --server "$U" --pl-xclbin "$TMP/d2.bin" -o "$TMP/pl" "$EX/adder_perf/test.json"
has "$TMP/pl/report.json" "the server's setting"
head -c 1048577 /dev/zero | tr '\0' 'x' >"$TMP/big.ini"
expect 2 "$RT" -q --backend remote --server "$U" --xrt-ini "$TMP/big.ini" -o "$TMP/bi" "$EX/adder_perf/test.json"
has "$TMP/bi/report.json" "big.ini"
expect 2 "$RT" -q --xrt-ini "$TMP/xrt.ini" -o "$TMP/li" "$EX/adder_perf/test.json"
has "$TMP/li/report.json" "the emulated board has no XRT to read an xrt.ini"
kill -TERM "$SP"; wait "$SP" 2>/dev/null

# a --cache-dir survives a restart: the design is still there
start_server "$TMP/log1b" --cache-dir "$TMP/cache"
req 200 -I "$U/v1/xclbins/$H1"
kill -TERM "$SP"; wait "$SP" 2>/dev/null

# ---- eviction under a 1 MiB cache: least recently used first, never in use
start_server "$TMP/log2" --cache-dir "$TMP/small" --xclbin-cache-mib 1
for n in a b c; do head -c 600000 /dev/urandom >"$TMP/e$n.bin"; done
HA=$(sha "$TMP/ea.bin"); HB=$(sha "$TMP/eb.bin"); HC=$(sha "$TMP/ec.bin")
req 201 -X PUT -H "$O" --data-binary @"$TMP/ea.bin" "$U/v1/xclbins/$HA"
req 201 -X PUT -H "$O" --data-binary @"$TMP/eb.bin" "$U/v1/xclbins/$HB"
req 404 -I "$U/v1/xclbins/$HA"
req 200 -I "$U/v1/xclbins/$HB"
is "evictions" "$(metric aieth_xclbin_evictions_total)" 1
has "$TMP/log2" "evicted to make room"
# b in use by a session: c finds no room (507), b stays
req 201 -H "$J" -d "{\"board\":\"vck190\",\"xclbin_sha256\":\"$HB\"}" "$U/v1/sessions"
SB=$(jq -r .id "$TMP/body")
req 507 -X PUT -H "$O" --data-binary @"$TMP/ec.bin" "$U/v1/xclbins/$HC"
has "$TMP/body" "--xclbin-cache-mib 1 MiB"
req 200 -I "$U/v1/xclbins/$HB"
is "small cache after 507" "$(nfiles "$TMP/small")" 1
# the session ends: b may go
req 204 -X DELETE "$U/v1/sessions/$SB"
req 201 -X PUT -H "$O" --data-binary @"$TMP/ec.bin" "$U/v1/xclbins/$HC"
req 404 -I "$U/v1/xclbins/$HB"
req 200 -I "$U/v1/xclbins/$HC"
# over the cache size from the length alone: 413 naming it (the client
# waits for it before sending the body, as curl does for large bodies: a
# server that answers early and closes may otherwise reset the connection
# before the client reads the answer, on a loaded machine)
req 413 --expect100-timeout 60 -H 'Expect: 100-continue' -X PUT -H "$O" -H 'Content-Length: 2000000' --data-binary @"$TMP/ec.bin" "$U/v1/xclbins/$HA"
has "$TMP/body" "--xclbin-cache-mib 1 MiB"
kill -TERM "$SP"; wait "$SP" 2>/dev/null

# --work-dir: the sessions' artifact folders go there, and the design cache
# (DIR/xclbins), kept after the server stops; a missing or non-folder one
# is refused at start (exit 2, named)
mkdir "$TMP/work"
start_server "$TMP/log3" --work-dir "$TMP/work"
req 201 -X PUT -H "$O" --data-binary @"$TMP/ea.bin" "$U/v1/xclbins/$HA"
req 201 -H "$J" -d "{\"board\":\"vck190\",\"xclbin_sha256\":\"$HA\",\"xrt_ini\":\"[Runtime]\\n\"}" "$U/v1/sessions"
SW=$(jq -r .id "$TMP/body")
[[ -f $TMP/work/$SW/xrt.ini ]] && ok || bad "no $TMP/work/$SW/xrt.ini: $(ls -R "$TMP/work" | head)"
req 204 -X DELETE "$U/v1/sessions/$SW"
kill -TERM "$SP"; wait "$SP" 2>/dev/null
is "cache kept in the work folder" "$(nfiles "$TMP/work/xclbins")" 1
[[ -d $TMP/work ]] && ok || bad "the given work folder was removed"
expect 2 "$TS" --listen 127.0.0.1:0 --work-dir "$TMP/nowhere"
has "$TMP/err" "work folder $TMP/nowhere"
expect 2 "$TS" --listen 127.0.0.1:0 --work-dir "$TMP/ea.bin"
has "$TMP/err" "not a folder"
finish
