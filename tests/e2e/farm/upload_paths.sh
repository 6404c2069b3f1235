#!/bin/bash
# SPDX-License-Identifier: MIT
# upload_paths.sh - credentials stay in their path: a
# credential is matched by the --upload URL's text, but libcurl and servers
# resolve "." and ".." segments (also %2e, %2F-split ones) before the path is
# used, so `influx+http://H/lab/../other/db` took the /lab/ token to /other.
# Every upload kind (SQUAD, InfluxDB, webhook) is sent to
# tests/tools/capture_server.py, which records every header that can carry
# a credential and the path as a server resolves it: a URL with a dot
# segment is refused before anything runs (exit 2, naming the URL and the
# segment), a credentials line whose prefix has one is refused when the file
# is read, and no credential ever arrives outside its prefix.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
PIDS=()
trap 'for p in "${PIDS[@]}"; do { kill -KILL "$p"; wait "$p"; } 2>/dev/null; done; rm -rf "$TMP"' EXIT
unset AIETH_UPLOAD_TOKEN AIETH_SQUAD_TOKEN AIETH_INFLUX_TOKEN AIETH_WEBHOOK_TOKEN AIETH_UPLOAD_CREDENTIALS
export XDG_STATE_HOME=$TMP/state
SPEC=$S/examples/adder_perf/test.json
SPOOL=$TMP/spool
REC=$TMP/rec
: >"$REC"

python3 "$S/tests/tools/capture_server.py" --port-file "$TMP/port" --record "$REC" --max-seconds 120 &
PIDS+=($!)
for i in $(seq 100); do [[ -s $TMP/port ]] && break; sleep 0.1; done
P=$(cat "$TMP/port" 2>/dev/null)
[[ -n $P ]] || { bad "capture_server.py did not start"; finish; exit 1; }
H=127.0.0.1:$P

# one secret per kind, each for /lab/ only
SQT=sq-$RANDOM$RANDOM IXP=ix-$RANDOM$RANDOM WHT=wh-$RANDOM$RANDOM
cat >"$TMP/creds" <<EOF
squad+http://$H/lab/ token $SQT
influx+http://$H/lab/ basic farm:$IXP
http://$H/lab/ token $WHT
EOF
chmod 600 "$TMP/creds"
CR=(--upload-credentials "$TMP/creds" --spool "$SPOOL")

# leaks: requests that carry a /lab/ secret to a path outside /lab/, as
# resolved by the server; with: requests that carry it inside
leaks() { jq -rs --arg a "$SQT" --arg b "$IXP" --arg c "$WHT" \
  '[.[] | select([.auth[] | contains($a) or contains($b) or contains($c)] | any) | select(.resolved | startswith("/lab/") | not)] | length' "$REC"; }
with() { jq -rs '[.[] | select([.auth[]] | length > 0) | select(.resolved | startswith("/lab/"))] | length' "$REC"; }

# -- 1. each kind inside its prefix: delivered with its credential, in the header its receiver reads
expect 0 "$RT" -q -o "$TMP/o1" "${CR[@]}" --upload "squad+http://$H/lab/t/p/b/e" \
  --upload "influx+http://$H/lab/db" --upload "http://$H/lab/hook" "$SPEC"
got=$(jq -r '[.uploads[].status] | join(",")' "$TMP/o1/report.json")
[[ $got == delivered,delivered,delivered ]] && ok || bad "inside /lab/: uploads $got"
got=$(jq -rs '[.[] | "\(.resolved) \(.auth | to_entries | map("\(.key)=\(.value)") | join(" "))"] | join("|")' "$REC")
[[ $got == "/lab/api/submit/t/p/b/e Auth-Token=$SQT|/lab/write Authorization=Basic farm:$IXP|/lab/hook Authorization=Bearer $WHT" ]] && ok ||
  bad "the credentials did not arrive as sent: $got"

# -- 2. dot segments, written or percent-encoded, in every kind: refused
# before anything runs (exit 2), the message names the URL and the segment
n=0
for u in "squad+http://$H/lab/../other/t/p/b/e" "squad+http://$H/lab/./t/p/b/e" \
  "influx+http://$H/lab/../other/db" "influx+http://$H/lab/./db" \
  "http://$H/lab/../other/hook" "http://$H/lab/%2e%2e/other/hook" "http://$H/lab/%2E%2E/other/hook" \
  "http://$H/lab/.%2e/other/hook" "http://$H/lab/%2e./other/hook" "http://$H/lab/..%2Fother/hook" \
  "http://$H/lab/x%2F..%2F..%2Fother/hook" "http://$H/lab/..%5Cother/hook" "http://$H/lab/..?q=1" \
  "http://$H/lab/%252e%252e/other/hook"; do
  n=$((n + 1))
  expect 2 "$RT" -q -o "$TMP/d$n" "${CR[@]}" --upload "$u" "$SPEC"
  has "$TMP/err" "--upload $u: the path segment"
  if [[ -e $TMP/d$n/report.json ]] && jq -e '.tests | length > 0' "$TMP/d$n/report.json" >/dev/null 2>&1; then
    bad "$u: a test ran"; else ok; fi
done
[[ $(wc -l <"$REC") -eq 3 ]] && ok || bad "refused URLs made requests: $(($(wc -l <"$REC") - 3)) more"

# -- 3. a credentials line with a dot segment in its prefix is refused when
# the file is read: the upload waits in the spool with that message (the
# file's admin fixes it), nothing is sent, the value never shown
printf 'http://%s/lab/ token %s\nhttp://%s/lab/%%2e%%2e/ token %s\n' "$H" "$WHT" "$H" "$WHT" >"$TMP/dcreds"
chmod 600 "$TMP/dcreds"
before=$(wc -l <"$REC")
expect 0 "$RT" -q -o "$TMP/o3" --upload-credentials "$TMP/dcreds" --spool "$SPOOL" --upload "http://$H/lab/hook" "$SPEC"
got=$(jq -r '.uploads[0].status' "$TMP/o3/report.json")
[[ $got == spooled ]] && ok || bad "a credentials file with a dot segment: upload $got"
has "$TMP/err" "$TMP/dcreds:2: the URL-PREFIX's path segment \"%2e%2e\""
[[ $(wc -l <"$REC") -eq $before ]] && ok || bad "a request was sent with a refused credentials file"
if grep -rqF -- "$WHT" "$TMP/o3" "$TMP/err" "$SPOOL"; then bad "the token shows"; else ok; fi

# -- 4. no credential reached a path outside its prefix, all went where sent
[[ $(leaks) -eq 0 ]] && ok || bad "$(leaks) requests took a /lab/ credential outside /lab/: $(cat "$REC")"
[[ $(with) -eq 3 ]] && ok || bad "expected 3 requests with credentials inside /lab/, found $(with)"
finish
