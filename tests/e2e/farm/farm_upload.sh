#!/bin/bash
# SPDX-License-Identifier: MIT
# farm_upload.sh - run_test --upload for real: SQUAD's
# submit API and a JSON webhook received by tests/tools/farm_server.py
# (which checks the multipart fields and the auth header), InfluxDB's v1
# write API received by Debian's influxd (started here on loopback, its
# data queried back), the spool (a closed port, then --flush-spool once the
# server is up), a rejected payload in failed/, and a token that never
# shows in report.json, stderr or the spool.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
PIDS=()
trap 'for p in "${PIDS[@]}"; do { kill -KILL "$p"; wait "$p"; } 2>/dev/null; done; rm -rf "$TMP"' EXIT
unset AIETH_UPLOAD_TOKEN AIETH_SQUAD_TOKEN AIETH_INFLUX_TOKEN AIETH_WEBHOOK_TOKEN AIETH_UPLOAD_CREDENTIALS
export XDG_STATE_HOME=$TMP/state
SPEC=$S/examples/adder_perf/test.json
TOKEN=tok-$RANDOM$RANDOM-never-logged
SPOOL=$TMP/spool

# start_farm PORT: farm_server.py on 127.0.0.1:PORT (0: any), expecting
# $TOKEN; sets FP (its port)
start_farm() {
  rm -f "$TMP/fs.port"
  mkdir -p "$TMP/bodies"
  python3 "$S/tests/tools/farm_server.py" --port "$1" --port-file "$TMP/fs.port" \
    --record "$TMP/rec" --token "$TOKEN" --save-dir "$TMP/bodies" --max-seconds 120 &
  PIDS+=($!)
  local i
  for i in $(seq 50); do [[ -s $TMP/fs.port ]] && break; sleep 0.1; done
  FP=$(cat "$TMP/fs.port" 2>/dev/null)
  [[ -n $FP ]] || { bad "farm_server.py did not start"; finish; exit 1; }
}
# spooled: the number of entries waiting in the spool
spooled() { find "$SPOOL" -maxdepth 1 -name '*.spool' 2>/dev/null | wc -l; }
# nolog FILE...: the token is in none of them
nolog() { if grep -rqF -- "$TOKEN" "$@"; then bad "the token shows in $*"; else ok; fi; }
# jq_is FILE FILTER VALUE; jq_rec FILTER VALUE: over the server's requests
jq_is() { local got; got=$(jq -r "$2" "$1" 2>&1); if [[ $got == "$3" ]]; then ok; else bad "$1: $2 = '$got', expected '$3'"; fi; }
jq_rec() { local got; got=$(jq -rs "$1" "$TMP/rec" 2>&1); if [[ $got == "$2" ]]; then ok; else bad "requests: $1 = '$got', expected '$2'"; fi; }

# -- 1. the server is down: everything spooled, the exit code is the test's
P=$(free_port)
SQ=squad+http://127.0.0.1:$P/aie-team/aieth/1.2.3/vck190-emu
WH=http://127.0.0.1:$P/hook
export AIETH_SQUAD_TOKEN=$TOKEN AIETH_WEBHOOK_TOKEN=$TOKEN
expect 0 "$RT" -q -o "$TMP/o1" --spool "$SPOOL" --upload "$SQ" --upload "$WH" "$SPEC"
jq_is "$TMP/o1/report.json" '[.uploads[].status] | join(",")' "spooled,spooled"
jq_is "$TMP/o1/report.json" '.uploads[0].url' "$SQ"
jq_is "$TMP/o1/report.json" '.uploads[0].http_code' "null"
has "$TMP/err" "upload $SQ: spooled"
[[ $(spooled) -eq 2 ]] && ok || bad "expected 2 spooled entries, found $(spooled)"
# the spool is the user's alone: entries 0600 in a 0700 folder, each bound
# to its run (its id and a check)
modes=$(stat -c %a "$SPOOL" "$SPOOL"/*.spool | sort -u | tr '\n' ' ')
[[ $modes == "600 700 " ]] && ok || bad "spool modes: $modes, expected 600 (entries) and 700 (folder)"
run_id=$(jq -r .run.id "$TMP/o1/report.json")
for f in "$SPOOL"/*.spool; do
  if [[ $(sed -n 2p "$f") == "run $run_id" ]] && grep -aq '^mac [0-9a-f]\{64\}$' "$f"; then ok
  else bad "$f: no run id $run_id or no check in its header"; fi
done
# a failing run keeps its exit code (2: no such description)
expect 2 "$RT" -q -o "$TMP/o2" --spool "$SPOOL" --upload "$WH" "$TMP/missing.json"
jq_is "$TMP/o2/report.json" '.uploads[-1].status' "spooled"
jq_is "$TMP/o2/report.json" '.run.exit_code' "2"
[[ $(spooled) -eq 3 ]] && ok || bad "expected 3 spooled entries, found $(spooled)"
# still down: --flush-spool keeps them and says so (exit 3); it removes the
# temporary files of a writer that died (older than an hour), in the spool
# and in failed/, and keeps a fresh one (a writer at work)
mkdir -p "$SPOOL/failed"
printf 'aieth-spool 2\nrun crashed' >"$SPOOL/.tmp.00000000000000000007-7-0.webhook.spool"
printf 'aieth-spool 2\nrun crashed' >"$SPOOL/failed/.tmp.00000000000000000008-7-0.squad.spool"
printf 'aieth-spool 2\nrun at work' >"$SPOOL/.tmp.99999999999999999999-7-0.webhook.spool"
touch -d '2 hours ago' "$SPOOL/.tmp.00000000000000000007-7-0.webhook.spool" \
  "$SPOOL/failed/.tmp.00000000000000000008-7-0.squad.spool"
touch -d '50 minutes ago' "$SPOOL/.tmp.99999999999999999999-7-0.webhook.spool"
expect 3 "$RT" --flush-spool --spool "$SPOOL"
has "$TMP/err" "spool $SPOOL: removed 2 temporary file(s) older than 3600 s"
[[ ! -e $SPOOL/.tmp.00000000000000000007-7-0.webhook.spool && ! -e $SPOOL/failed/.tmp.00000000000000000008-7-0.squad.spool ]] \
  && ok || bad "a flush left a dead writer's temporary files: $(ls -A "$SPOOL" "$SPOOL/failed")"
[[ -f $SPOOL/.tmp.99999999999999999999-7-0.webhook.spool ]] && ok || bad "a flush removed a fresh temporary file"
rm -f "$SPOOL/.tmp.99999999999999999999-7-0.webhook.spool"
[[ $(spooled) -eq 3 ]] && ok || bad "a failed flush lost entries: $(spooled) left"
nolog "$TMP/o1" "$TMP/o2" "$TMP/err" "$SPOOL"

# -- 2. the server is up: --flush-spool delivers oldest first, the spool empties
start_farm "$P"
expect 0 "$RT" --flush-spool --spool "$SPOOL"
[[ $(spooled) -eq 0 ]] && ok || bad "spool not empty after the flush: $(spooled)"
jq_rec '[.[] | .kind] | join(",")' "squad,webhook,webhook"
jq_rec '[.[] | .problems | length] | add' "0"
jq_rec '.[0].tests["adder_perf/perf/PLIO_01_FROM_AIE"]' "pass"

# -- 3. delivered at once; what the webhook got is report.json without "uploads"
: >"$TMP/rec"; rm -f "$TMP/bodies"/*
expect 0 "$RT" -q -o "$TMP/o3" --spool "$SPOOL" --upload "$SQ" --upload "$WH" "$SPEC"
jq_is "$TMP/o3/report.json" '[.uploads[] | "\(.status) \(.http_code)"] | join(",")' "delivered 200,delivered 200"
jq_rec '[.[] | .problems | length] | add' "0"
jq_rec '.[0].fields | join(",")' "attachment,metadata,metrics,tests"
jq_rec '.[0].tests["adder_perf/result"]' "pass"
jq_rec '.[0].metrics["adder_perf/perf/PLIO_01_FROM_AIE.throughput_MBps"]' "5000"
jq_rec '.[0].metrics["adder_perf/perf/latency.PLIO_01_TO_AIE.PLIO_01_FROM_AIE.cycles"]' "16"
jq_rec '.[0].metadata.job_id' "$(jq -r .run.id "$TMP/o3/report.json")"
jq_rec '.[0].metadata.metric_units.cycles' "PL clock cycles"
jq_rec '.[1].has_uploads' "false"
if diff <(jq -S 'del(.uploads)' "$TMP/o3/report.json") <(jq -S . "$TMP/bodies/001.webhook") >/dev/null; then ok
else bad "report.json without uploads differs from what the webhook received"; fi

# -- 3b. namesakes: a failing test next to a passing one of the same name (and
# one equal once '/' becomes '_') each arrive, the failure as a failure
mkdir -p "$TMP/ns" && cp "$S"/examples/adder_perf/*.txt "$TMP/ns/"
jq '.transactions[0].channels[2].min_throughput_MBps = 9999999' "$SPEC" >"$TMP/ns/fail.json"
jq '.name = "adder/perf"' "$SPEC" >"$TMP/ns/slash.json"
NS=("$TMP/ns/fail.json" "$SPEC" "$TMP/ns/slash.json")
: >"$TMP/rec"
expect 1 "$RT" -q -o "$TMP/ns1" --spool "$SPOOL" --upload "$SQ" "${NS[@]}"
jq_is "$TMP/ns1/report.json" '.uploads[0].status' "delivered"
jq_rec '[.[0].tests | to_entries[] | select(.key | endswith("/result")) | "\(.key)=\(.value)"] | sort | join(" ")' \
  "adder_perf#2/result=pass adder_perf#3/result=pass adder_perf/result=fail"
jq_rec '.[0].tests["adder_perf/perf/PLIO_01_FROM_AIE"]' "fail"
jq_rec '.[0].tests["adder_perf#2/perf/PLIO_01_FROM_AIE"]' "pass"
jq_rec '.[0].metrics | keys | map(select(endswith("/perf/PLIO_01_FROM_AIE.cycles"))) | length' "3"

for f in "$TMP"/o1 "$TMP"/o2 "$TMP"/o3; do
  if /usr/bin/python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$f/report.json" >"$TMP/schema" 2>&1; then ok
  else bad "$f/report.json does not validate against docs/report.schema.json"; cat "$TMP/schema" >&2; fi
done

# -- 4. refused (400, and 401 for a wrong token): kept in failed/, never retried
: >"$TMP/rec"
expect 0 "$RT" -q -o "$TMP/o4" --spool "$SPOOL" --upload "http://127.0.0.1:$FP/status-400/hook" "$SPEC"
jq_is "$TMP/o4/report.json" '.uploads[0] | "\(.status) \(.http_code)"' "failed 400"
jq_is "$TMP/o4/report.json" '.uploads[0].spool_file | test("/failed/")' "true"
AIETH_SQUAD_TOKEN=wrong-token expect 0 "$RT" -q -o "$TMP/o5" --spool "$SPOOL" --upload "$SQ" "$SPEC"
jq_is "$TMP/o5/report.json" '.uploads[0] | "\(.status) \(.http_code)"' "failed 401"
[[ $(spooled) -eq 0 && $(find "$SPOOL/failed" -name '*.spool' | wc -l) -eq 2 ]] && ok || bad "failed/ should hold 2 entries, the spool none"
expect 0 "$RT" --flush-spool --spool "$SPOOL"
[[ $(wc -l <"$TMP/rec") -eq 2 ]] && ok || bad "failed/ entries were retried: $(wc -l <"$TMP/rec") requests"

# -- 5. credentials: a file (longest prefix wins over the environment), its
# mode checked; never in a URL
printf '# farm credentials\nsquad+http://127.0.0.1:%s/ token wrong\nsquad+http://127.0.0.1:%s/aie-team/ token %s\n' "$FP" "$FP" "$TOKEN" >"$TMP/creds"
chmod 600 "$TMP/creds"
AIETH_SQUAD_TOKEN=wrong expect 0 "$RT" -q -o "$TMP/o6" --spool "$SPOOL" --upload-credentials "$TMP/creds" --upload "$SQ" "$SPEC"
jq_is "$TMP/o6/report.json" '.uploads[0].status' "delivered"
chmod 644 "$TMP/creds"
expect 0 "$RT" -q -o "$TMP/o7" --spool "$SPOOL" --upload-credentials "$TMP/creds" --upload "$SQ" "$SPEC"
jq_is "$TMP/o7/report.json" '.uploads[0].status' "spooled"
has "$TMP/err" "chmod 600"
expect 0 "$RT" --flush-spool --spool "$SPOOL"   # env token again: delivered
expect 2 "$RT" -q -o "$TMP/o8" --upload "squad+http://farm:$TOKEN@127.0.0.1:$FP/a/b/c/d" "$SPEC"
has "$TMP/err" "user:password@"
nolog "$TMP"/o[1-8] "$TMP/err" "$SPOOL" "$TMP/rec"
# -- 5b. the spool is the user's alone (docs/farm.md, "The spool"): planted
# entries in the right format, aimed at the live server - a check made with
# another key, the format before the check, a real entry with its body
# edited - are refused, kept and never sent, whatever the token; a spool
# folder others may write, or another uid's, is refused with the component
# named
forge() { # forge FILE MACKEY-BYTE: a format 2 entry to the live webhook
  python3 - "$1" "$2" "$FP" <<'EOF'
import hashlib, hmac, sys
f, k, port = sys.argv[1], bytes([int(sys.argv[2])]) * 32, sys.argv[3]
body = b'{"run": {"id": "forged"}, "tests": [{"name": "x", "status": "pass"}]}'
url = "http://127.0.0.1:%s/hook" % port
hdr = ("aieth-spool 2\nrun forged-1\ntarget %s\nurl %s\ncontent-type application/json\nlength %d\n"
       % (url, url, len(body))).encode()
mac = hmac.new(k, hdr + b"\n" + body, hashlib.sha256).hexdigest().encode()
open(f, "wb").write(hdr + b"mac " + mac + b"\n\n" + body)
EOF
}
: >"$TMP/rec"
forge "$SPOOL/00000000000000000001-1-0.webhook.spool" 7
printf 'aieth-spool 1\ntarget http://127.0.0.1:%s/hook\nurl http://127.0.0.1:%s/hook\ncontent-type application/json\nlength 2\n\n{}' \
  "$FP" "$FP" >"$SPOOL/00000000000000000002-1-0.webhook.spool"
chmod 600 "$SPOOL"/0000000000000000000[12]-1-0.webhook.spool
expect 3 "$RT" --flush-spool --spool "$SPOOL"
has "$TMP/err" "refused, $SPOOL/00000000000000000001-1-0.webhook.spool"
has "$TMP/err" "its check does not match this spool's key"
has "$TMP/err" "written by an older aieth (spool format 1"
has "$TMP/err" "send it with that older version (run_test --flush-spool) or delete it"
[[ $(wc -l <"$TMP/rec") -eq 0 ]] && ok || bad "a planted entry was sent: $(cat "$TMP/rec")"
[[ $(spooled) -eq 2 ]] && ok || bad "the refused entries were not kept ($(spooled) in the spool)"
# a run with --upload retries the spool first: refused there too, its own
# results delivered, the outcome in report.json (status "refused")
expect 0 "$RT" -q -o "$TMP/p1" --spool "$SPOOL" --upload "$WH" "$SPEC"
jq_is "$TMP/p1/report.json" '[.uploads[].status] | join(",")' "refused,refused,delivered"
jq_is "$TMP/p1/report.json" '[.uploads[] | select(.status == "refused") | .spool_file] | join(",")' \
  "$SPOOL/00000000000000000001-1-0.webhook.spool,$SPOOL/00000000000000000002-1-0.webhook.spool"
if /usr/bin/python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" "$TMP/p1/report.json" >"$TMP/schema" 2>&1; then ok
else bad "$TMP/p1/report.json does not validate against docs/report.schema.json"; cat "$TMP/schema" >&2; fi
[[ $(wc -l <"$TMP/rec") -eq 1 ]] && ok || bad "expected only the run's own request: $(wc -l <"$TMP/rec")"
rm -f "$SPOOL"/0000000000000000000[12]-1-0.webhook.spool
# a real entry (spooled after a 503) with its body edited
: >"$TMP/rec"
expect 0 "$RT" -q -o "$TMP/p2" --spool "$SPOOL" --upload "http://127.0.0.1:$FP/status-503/hook" "$SPEC"
jq_is "$TMP/p2/report.json" '.uploads[0].status' "spooled"
e=$(ls "$SPOOL"/*.spool | head -1)
sed -i 's/"pass"/"fail"/' "$e"; chmod 600 "$e"
expect 3 "$RT" --flush-spool --spool "$SPOOL"
has "$TMP/err" "$e: its check does not match this spool's key"
[[ $(wc -l <"$TMP/rec") -eq 1 ]] && ok || bad "an edited entry was sent again: $(cat "$TMP/rec")"
rm -f "$e"
# the folder: group-writable, on a path through a world-writable folder,
# another uid's (as root)
chmod 0770 "$SPOOL"
expect 3 "$RT" --flush-spool --spool "$SPOOL"
has "$TMP/err" "spool $SPOOL: mode 0770: group or others may write it"
chmod 0700 "$SPOOL"
mkdir -m 0777 "$TMP/pub" && chmod 0777 "$TMP/pub" && mkdir -m 0700 "$TMP/pub/spool"
CP=$(free_port)
expect 0 "$RT" -q -o "$TMP/p3" --spool "$TMP/pub/spool" --upload "http://127.0.0.1:$CP/hook" "$SPEC"
jq_is "$TMP/p3/report.json" '[.uploads[].status] | join(",")' "refused,lost"
has "$TMP/err" "not spooled: spool $TMP/pub/spool: its component $TMP/pub (owner uid $(id -u), mode 0777)"
[[ -z $(ls -A "$TMP/pub/spool") ]] && ok || bad "written into a spool others may swap: $(ls -A "$TMP/pub/spool")"
if [[ $(id -u) -eq 0 ]]; then
  chown 65534:65534 "$SPOOL"
  expect 3 "$RT" --flush-spool --spool "$SPOOL"
  has "$TMP/err" "spool $SPOOL: owned by uid 65534 (mode 0700), not by us (uid 0)"
  chown 0:0 "$SPOOL"
else
  echo "farm_upload.sh: another uid's spool not tried (not root)"
fi
expect 0 "$RT" --flush-spool --spool "$SPOOL"

# bad URLs are usage errors before anything runs
expect 2 "$RT" -q -o "$TMP/o9" --upload "squad+https://h/team/project/build" "$SPEC"
expect 2 "$RT" -q -o "$TMP/o9" --upload "influx+http://h:8086/bad%20db" "$SPEC"
expect 2 "$RT" -q -o "$TMP/o9" --upload "ftp://h/x" "$SPEC"

# -- 6. InfluxDB: Debian's influxd on loopback, authentication on, data queried back
if ! command -v influxd >/dev/null; then
  echo "farm_upload.sh: InfluxDB part skipped: no influxd (bash scripts/install-deps.sh installs influxdb)"
else
  start_influxd auth
  IPW=pw-$RANDOM$RANDOM
  curl -s -m 5 -XPOST "$IU/query" --data-urlencode "q=CREATE USER farm WITH PASSWORD '$IPW' WITH ALL PRIVILEGES" >/dev/null
  curl -s -m 5 -u "farm:$IPW" -XPOST "$IU/query" --data-urlencode "q=CREATE DATABASE aieth" >/dev/null
  printf 'influx+http://127.0.0.1:%s/ basic farm:%s\n' "$IP" "$IPW" >"$TMP/icreds"
  chmod 600 "$TMP/icreds"
  # a hostile test name: the line protocol's separators in a tag
  mkdir -p "$TMP/hx" && cp "$S"/examples/adder_perf/*.txt "$TMP/hx/"
  jq '.name = "adder perf,x=1 \"q\""' "$SPEC" >"$TMP/hx/test.json"
  expect 0 "$RT" -q -o "$TMP/i1" --spool "$SPOOL" --upload-credentials "$TMP/icreds" \
    --upload "influx+http://127.0.0.1:$IP/aieth" "$SPEC" "$TMP/hx/test.json"
  jq_is "$TMP/i1/report.json" '.uploads[0] | "\(.status) \(.http_code)"' "delivered 204"
  iq() { curl -s -m 5 -u "farm:$IPW" -G "$IU/query" --data-urlencode db=aieth --data-urlencode "q=$1" >"$TMP/iq"; }
  iq "SELECT throughput_MBps, cycles, first, last, bytes, verdict FROM aieth_channel WHERE test = 'adder_perf' GROUP BY plio, transaction, board, backend, version"
  jq_is "$TMP/iq" '[.results[0].series[].tags.plio] | sort | join(",")' "PLIO_01_FROM_AIE,PLIO_01_TO_AIE,PLIO_02_TO_AIE"
  jq_is "$TMP/iq" '[.results[0].series[] | select(.tags.plio == "PLIO_01_FROM_AIE") | .values[0][1:]][0] | map(tostring) | join(" ")' "5000 1024 17 1041 16384 pass"
  jq_is "$TMP/iq" '.results[0].series[0].tags | "\(.board) \(.backend) \(.transaction)"' "vck190 emu perf"
  jq_is "$TMP/iq" '.results[0].series[0].tags.version' "$("$RT" --version | awk '{print $3}')"
  iq "SELECT cycles, max_cycles, passed FROM aieth_latency WHERE test = 'adder_perf'"
  jq_is "$TMP/iq" '.results[0].series[0].values[0][1:] | map(tostring) | join(" ")' "16 64 true"
  iq "SHOW TAG VALUES FROM aieth_test WITH KEY = \"test\""
  jq_is "$TMP/iq" '[.results[0].series[0].values[][1]] | sort | join("|")' 'adder perf,x=1 "q"|adder_perf'
  # namesakes (3b): every test's points stay apart, the failure a failure
  expect 1 "$RT" -q -o "$TMP/i3" --spool "$SPOOL" --upload-credentials "$TMP/icreds" \
    --upload "influx+http://127.0.0.1:$IP/aieth" "${NS[@]}"
  jq_is "$TMP/i3/report.json" '.uploads[0] | "\(.status) \(.http_code)"' "delivered 204"
  iq "SELECT last(status) FROM aieth_test WHERE run_id = '$(jq -r .run.id "$TMP/i3/report.json")' GROUP BY test"
  jq_is "$TMP/iq" '[.results[0].series[] | "\(.tags.test)=\(.values[0][1])"] | sort | join(" ")' \
    "adder/perf=pass adder_perf#2=pass adder_perf=fail"
  iq "SELECT verdict FROM aieth_channel WHERE run_id = '$(jq -r .run.id "$TMP/i3/report.json")' AND plio = 'PLIO_01_FROM_AIE' GROUP BY test"
  jq_is "$TMP/iq" '[.results[0].series[] | "\(.tags.test)=\(.values | length)x\(.values[0][1])"] | sort | join(" ")' \
    "adder/perf=1xpass adder_perf#2=1xpass adder_perf=1xfail"
  # without credentials: 401, kept in failed/
  expect 0 "$RT" -q -o "$TMP/i2" --spool "$SPOOL" --upload "influx+http://127.0.0.1:$IP/aieth" "$SPEC"
  jq_is "$TMP/i2/report.json" '.uploads[0] | "\(.status) \(.http_code)"' "failed 401"
  nolog "$TMP/i1" "$TMP/i2" "$TMP/err" "$SPOOL"
  if grep -rqF -- "$IPW" "$TMP/i1" "$TMP/i2" "$TMP/err" "$SPOOL"; then bad "the InfluxDB password shows"; else ok; fi
fi

# -- 7. a signal while an upload waits on a server that never answers: the
# transfer is aborted at once, the request spooled and recorded, the exit
# code is still the run's
HP=$(free_port)
python3 - "$HP" "$TMP/held" <<'PY' &
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(4); s.settimeout(30)
held = []
try:
    while True:
        c, _ = s.accept(); held.append(c)      # accept, read nothing, answer nothing
        open(sys.argv[2], "a").write("held\n")
except OSError:
    pass
PY
HOLD=$!
for i in $(seq 100); do python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $HP), 0.2).close()" 2>/dev/null && break; sleep 0.1; done
rm -f "$TMP/held"
before=$(spooled)
"$RT" -q -o "$TMP/s1" --spool "$SPOOL" --upload-timeout 60 --upload "http://127.0.0.1:$HP/hook" "$SPEC" >"$TMP/out" 2>"$TMP/err" &
RTP=$!
for i in $(seq 200); do [[ -s $TMP/held ]] && break; sleep 0.05; done
[[ -s $TMP/held ]] && ok || bad "run_test never connected to the silent server"
sleep 0.3
t0=$(date +%s%N)
kill -INT $RTP
wait $RTP; rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[[ $rc -eq 0 ]] && ok || bad "a signal during the upload changed the exit code to $rc"
[[ $ms -lt 20000 ]] && ok || bad "run_test took $ms ms to end after SIGINT during an upload"
echo "farm_upload.sh: SIGINT during an upload to a silent server: ended after $ms ms"
has "$TMP/err" "uploads stopped by SIGINT"
jq_is "$TMP/s1/report.json" '.uploads[0] | "\(.status) \(.message)"' "spooled not sent: interrupted"
[[ $(spooled) -eq $((before + 1)) ]] && ok || bad "the interrupted upload was not spooled ($(spooled) entries, $before before)"
kill $HOLD 2>/dev/null; wait $HOLD 2>/dev/null
finish
