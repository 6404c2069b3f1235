#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What an AMD-protocol client may make th_server hold (--amd-listen, no
# authentication), with our client of the protocol (tests/tools/amd_client.c):
# an announced xclbin past --max-xclbin or past the design cache is refused
# before any file exists; a full work folder (a 1 MiB tmpfs; skipped when
# mount is not permitted) is a refusal, th_server survives; a TIMEOUT reply's
# zero image is streamed (VmHWM stays bounded); a connection that never sends
# its manager is closed at --amd-setup-timeout whatever setTimeOut says; an
# AMD session's run_summary.json lists its transactions. Each limit has its
# own server; waits synchronise on log lines and are bounded.
. "$(dirname "$0")/../lib.sh"
th_server_setup
AC=$B/tests/amd_client
M='adder:{"in0":"PLIO_01_TO_AIE","in1":"PLIO_03_TO_AIE","out":"PLIO_02_FROM_AIE","window_bytes":4096}'
MNT=
trap 'for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
      [[ -n $MNT ]] && umount "$MNT" 2>/dev/null; rm -rf "$TMP"' EXIT

# start_both LOG OPTIONS...: both listeners (HTTP for health), graph gr
start_both() {
  local log=$1; shift
  start_server "$log" --amd-listen 127.0.0.1:0 --graph-model "gr=$M" "$@"
  amd_port "$log"
}
healthy() {
  if kill -0 "$SP" 2>/dev/null &&
     [[ $(curl -s -m 5 -o /dev/null -w '%{http_code}' "$U/v1/health") == 200 ]]; then ok
  else bad "server not alive and healthy after $1"; fi
}
# wait_line FILE TEXT: up to 20 s
wait_line() {
  local i
  for i in $(seq 200); do grep -qF -- "$2" "$1" && { ok; return 0; }; sleep 0.1; done
  bad "$1 never showed: $2"; sed 's/^/  | /' "$1" >&2; return 1
}
is() { if [[ $2 == "$3" ]]; then ok; else bad "$1: '$2', expected '$3'"; fi; }
# stop SP
stop() { kill -TERM "$SP"; wait "$SP" 2>/dev/null; }
scratch_files() { find "$1" -maxdepth 1 -name 'amd-xclbin.*' | wc -l; }

# --- an announced xclbin past --max-xclbin: refused at its length, no file
W=$TMP/w1
mkdir "$W"
start_both "$TMP/log1" --work-dir "$W" --max-xclbin 1
expect 0 "$AC" xclbin "$AP" 2097152
has "$TMP/out" "the server closed the connection without a reply"
wait_line "$TMP/log1" "xclbin of 2097152 bytes refused: the limit is --max-xclbin 1 MiB"
has "$TMP/log1" "closed: xclbin of 2097152 bytes refused"
if grep -q "$W" <(grep -v 'listening on' "$TMP/out" "$TMP/err"); then
  bad "the client saw a server path"; else ok; fi
[[ $(scratch_files "$W") -eq 0 ]] && ok || bad "a scratch file was left in $W"
healthy "an oversized xclbin"
stop

# --- past the design cache: the scratch file counts against it
start_both "$TMP/log2" --xclbin-cache-mib 1 --max-xclbin 4
expect 0 "$AC" xclbin "$AP" 2097152
has "$TMP/out" "the server closed the connection without a reply"
wait_line "$TMP/log2" "xclbin of 2097152 bytes refused: 2097152 bytes do not fit: the design cache"
# the reservation was given back: a full session runs
expect 0 "$AC" full "$AP" "$M"
curl -s -m 5 "$U/v1/metrics" >"$TMP/metrics"
has "$TMP/metrics" "aieth_xclbin_cache_bytes 0"
healthy "an xclbin past the cache"
stop

# --- a full work folder: ENOSPC is a refusal; th_server and the next
# session live. A 1 MiB tmpfs gives a real ENOSPC (root only: skipped when
# the mount is refused, e.g. in an unprivileged container)
W=$TMP/w3
mkdir "$W"
if mount -t tmpfs -o size=1m,mode=0700 aieth-test "$W" 2>/dev/null; then
  MNT=$W
  start_both "$TMP/log3" --work-dir "$W" --cache-dir "$TMP/cache3"
  # full to the last byte: the first bytes of the xclbin cannot be stored
  head -c 2M /dev/zero >"$W/filler" 2>/dev/null
  expect 0 "$AC" xclbin "$AP" 4194304
  has "$TMP/out" "the server closed the connection without a reply"
  wait_line "$TMP/log3" "closed: xclbin: cannot write its scratch file in $W: No space left on device"
  if grep -q "$W" <(grep -v 'listening on' "$TMP/out" "$TMP/err"); then
    bad "the client saw a server path"; else ok; fi
  [[ $(scratch_files "$W") -eq 0 ]] && ok || bad "a scratch file was left in $W"
  healthy "a full work folder"
  rm -f "$W/filler"
  expect 0 "$AC" full "$AP" "$M"
  healthy "a session after a full work folder"
  stop
  umount "$W" && MNT=
else
  echo "amd_limits.sh: skip: a tmpfs cannot be mounted here (the full-folder check needs root)"
fi

# --- a TIMEOUT reply's zero image (256 MiB) is streamed, never built:
# th_server's peak RSS grows by far less than the image
start_both "$TMP/log4" --max-memory 320
hwm() { awk '/^VmHWM:/ {print $2}' "/proc/$SP/status"; }
h0=$(hwm)
expect 0 "$AC" zeros "$AP" 256
has "$TMP/out" "TIMEOUT with a from_aie of 256 MiB"
has "$TMP/log4" "refused, answered TIMEOUT with zeros"
h1=$(hwm)
if (( h1 - h0 < 96 * 1024 )); then ok
else bad "VmHWM grew by $(( (h1 - h0) / 1024 )) MiB for a 256 MiB TIMEOUT reply (bound 96 MiB)"; fi
healthy "a large TIMEOUT reply"
stop

# --- an AMD session's run_summary.json lists its transactions (returned
# after destroy with the other artifacts)
start_both "$TMP/log6"
mkdir "$TMP/files"
expect 0 "$AC" full "$AP" "$M" "$TMP/files"
S=$TMP/files/run_summary.json
if [[ -f $S ]]; then
  is "summary: transactions" "$(jq -r '.transactions | length' "$S")" 6
  is "summary: DONE" "$(jq -r '[.transactions[] | select(.status_name == "DONE")] | length' "$S")" 5
  is "summary: shape" "$(jq -r '.transactions[0] | [.state, .channels, .tx_bytes == .tx_received,
    .failed, (.total_cycles > 0), (.tx_moved_bytes | length)] | join(",")' "$S")" \
    "finished,36,true,false,true,36"
  is "summary: owner" "$(jq -r '.owner | startswith("amd@127.0.0.1:")' "$S")" true
else
  bad "no run_summary.json returned: $(ls "$TMP/files")"
fi
stop

# --- before its manager a connection has a fixed deadline: setTimeOut(86400)
# and requests every 100 ms do not extend it. 16 such connections fill every
# slot; once they are closed a 17th connection is served
start_both "$TMP/log5" --amd-setup-timeout 2 --idle-timeout 600
IPS=()
for i in $(seq 16); do "$AC" idle "$AP" >"$TMP/i$i" 2>&1 & IPS+=($!); done
for i in $(seq 16); do
  if wait "${IPS[$((i - 1))]}"; then ok; else bad "idle client $i of 16: $(cat "$TMP/i$i")"; fi
done
has "$TMP/i1" "closed by the server after"
n=$(grep -c "closed: no test_harness_mgr within 2 s of connecting (the limit is --amd-setup-timeout 2 s)" "$TMP/log5")
[[ $n -eq 16 ]] && ok || bad "$n of 16 idle connections closed by the deadline"
expect 0 "$AC" mismatch "$AP" nosuchboard
has "$TMP/out" 'device nosuchboard refused'
healthy "16 connections without a manager"
stop
expect 2 "$TS" --amd-listen 127.0.0.1:0 --amd-setup-timeout 0
has "$TMP/err" "--amd-setup-timeout"

finish
