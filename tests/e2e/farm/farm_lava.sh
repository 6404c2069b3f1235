#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The shipped LAVA job for real: Debian's lava-dispatcher runs
# scripts/farm/lava/job-ssh.yaml in standalone mode (lava-run) against an
# ssh "board" that is this machine (an sshd on 127.0.0.1, a free port, a
# throwaway key), and the board runs this build's run_test --lava with
# --backend remote against an https th_server on 127.0.0.1 with a private
# lab CA (CACERT; the emulated board behind it). Asserted from the results LAVA recorded (its log's "results"
# lines): pass and fail cases with their measurements, a hang (exit 5)
# recorded as failures, a definition asking for the emulator refused
# (run_test-exit fail, 3) without running run_test, and the outputs
# archived through ARCHIVE_URL (a file:// URL here). gcc build only (lava-run is heavy and runs
# the native programs); farm_signals.sh checks the signals in every build.
. "$(dirname "$0")/../lib.sh"
if [[ ${AIETH_SAN:-0} == 1 || -n ${AIETH_RUN_WRAPPER:-} ]]; then
  echo "$(basename "$0"): skipped (lava-run runs in the gcc build only; farm_signals.sh covers the signals here)"
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "$(basename "$0"): skipped (lava-run must run as root)"; exit 0
fi
for p in lava-run /usr/sbin/sshd ssh-keygen; do
  command -v "$p" >/dev/null || { bad "$p missing: run scripts/install-deps.sh"; finish; exit 1; }
done
PY=/usr/bin/python3
L=$S/scripts/farm/lava
JOB=$((100000 + $$))
SSHD=
TS=$B/bin/th_server
PIDS=()
cleanup() {
  [[ -n $SSHD ]] && kill -TERM "$SSHD" 2>/dev/null && wait "$SSHD" 2>/dev/null
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  # lava-run's scratch and the overlay it unpacked on the "board" (here)
  rm -rf "/var/lib/lava/dispatcher/tmp/$JOB" "/lava-$JOB" /lava-"$JOB"-* 2>/dev/null
  [[ -n ${AIETH_KEEP:-} ]] && cp -r "$TMP" "$AIETH_KEEP"  # debugging: keep the logs
  rm -rf "$TMP"
}
trap cleanup EXIT

# the board: sshd on a free loopback port, keys made for this run
K=$TMP/ssh; mkdir -p "$K" /run/sshd; chmod 700 "$K"
ssh-keygen -q -t ed25519 -N '' -f "$K/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$K/client_key" -C aieth-lava-e2e
cp "$K/client_key.pub" "$K/authorized_keys"; chmod 600 "$K/authorized_keys"
PORT=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf '%s\n' "Port $PORT" "ListenAddress 127.0.0.1" "HostKey $K/hostkey" "PidFile none" \
  "AuthorizedKeysFile $K/authorized_keys" "PermitRootLogin prohibit-password" \
  "PasswordAuthentication no" "KbdInteractiveAuthentication no" "UsePAM no" "StrictModes no" \
  "Subsystem sftp internal-sftp" >"$K/sshd_config"
/usr/sbin/sshd -D -f "$K/sshd_config" -E "$K/sshd.log" &
SSHD=$!
for i in $(seq 50); do
  $PY -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2)' "$PORT" 2>/dev/null && break
  sleep 0.1
done

# the board: th_server on the emulated board, https with a lab CA's
# certificate; the design's xclbin
lab_ca "$TMP/ca" && lab_cert "$TMP/ca" srv "DNS:localhost,IP:127.0.0.1" || bad "openssl: the lab CA"
start_server "$TMP/ts.log" --board vck190 --tls-cert "$TMP/ca/srv.crt" --tls-key "$TMP/ca/srv.key"
U=https://${U#http://}
"$B/tests/xrt_mkxclbin" aie vck190 "$TMP/design.xclbin" gr || bad "xrt_mkxclbin"

# the descriptions: a passing one, one whose golden data is wrong (exit 1),
# and a hang (exit 5), each run by its own test definition
cp -r "$S/examples/adder_func" "$TMP/adder_bad"
sed -i '1s/^-\?[0-9][0-9]*/12345/' "$TMP/adder_bad/golden.txt"
sed -i 's/"name": *"adder_func"/"name": "adder_bad"/' "$TMP/adder_bad/test.json"
sed "s|@HOST@|127.0.0.1|; s|@PORT@|$PORT|; s|@USER@|root|; s|@KEY@|$K/client_key|" \
  "$L/device-ssh.yaml" >"$TMP/device.yaml"
# the shipped job with its git test definition made inline (no git server
# here): the shipped aieth-run-test.yaml's text, placeholders filled in
$PY - "$L" "$TMP" "$B/bin/run_test" "--data-dir $S" "$S/examples/adder_func/test.json $TMP/adder_bad/test.json" \
  "$S/examples/stall_hang/test.json" "$U" "$TMP/ca/ca.crt" <<'P' || bad "job not made"
import copy, sys, yaml
lava, tmp, rt, args, d0, d1, url, ca = sys.argv[1:]
job = yaml.safe_load(open(lava + "/job-ssh.yaml"))
testdef = yaml.safe_load(open(lava + "/aieth-run-test.yaml"))
test = [a for a in job["actions"] if "test" in a][0]["test"]
proto = test["definitions"][0]
assert proto["from"] == "git" and proto["path"].endswith("aieth-run-test.yaml")
defs = []
for i, descs in enumerate((d0, d1, d0)):
    d = {"from": "inline", "repository": copy.deepcopy(testdef), "name": proto["name"] + ("-main", "-hang", "-emu")[i],
         "path": "inline/aieth-run-test.yaml",
         "parameters": {"RUN_TEST": rt, "DESCRIPTIONS": descs, "RUN_TEST_ARGS": args,
                        "BOARD": "vck190", "BACKEND": ("remote", "remote", "emu")[i], "SERVER": url, "CACERT": ca,
                        "XCLBIN": tmp + "/design.xclbin", "OUT": "%s/out%d" % (tmp, i),
                        "ARCHIVE_URL": ("file://%s/out0.archive.tar.gz" % tmp, "", "")[i]}}
    assert set(d["parameters"]) <= set(testdef["params"]), "a parameter the definition lacks"
    defs.append(d)
test["definitions"] = defs
test["timeout"] = {"minutes": 3}
job["timeouts"] = {"job": {"minutes": 4}, "action": {"minutes": 3}, "connection": {"minutes": 1}}
yaml.safe_dump(job, open(tmp + "/job.yaml", "w"))
P
rc=0
timeout -k 10 240 lava-run --job-id "$JOB" --output-dir "$TMP/lava" --device "$TMP/device.yaml" \
  "$TMP/job.yaml" >"$TMP/job.log" 2>&1 </dev/null || rc=$?
[[ $rc -eq 0 ]] && ok || { bad "lava-run exit $rc"; tail -n 30 "$TMP/job.log" >&2; cat "$TMP/lava/result.yaml" >&2 2>/dev/null; }

# LAVA's own record: the "results" lines of its log (YAML flow mappings)
$PY - "$TMP/job.log" >"$TMP/results" <<'P'
import sys, yaml
for line in open(sys.argv[1]):
    if '"lvl": "results"' not in line:
        continue
    m = yaml.safe_load(line)["msg"]
    meas = m.get("measurement")
    meas = "-" if meas in (None, "None") else "%g" % float(meas)
    print(m.get("definition"), m.get("set", "-"), m.get("case"), m.get("result"), meas, m.get("units", "-"))
P
# want DEF SET CASE RESULT [MEASUREMENT-REGEX UNITS]: LAVA recorded it
want() {
  local re="^$1 $2 $3 $4"
  [[ $# -gt 4 ]] && re="$re $5 $6\$"
  if grep -qE -- "$re" "$TMP/results"; then ok; else bad "LAVA did not record: $*"; sed 's/^/  | /' "$TMP/results" >&2; fi
}
M='[0-9.e+]+'
want 0_aieth-run-test-main adder_func adder_func.func.PLIO_01_TO_AIE pass "$M" MB/s
want 0_aieth-run-test-main adder_func adder_func.func.PLIO_01_FROM_AIE pass "$M" MB/s
want 0_aieth-run-test-main adder_func adder_func.func pass "$M" cycles
want 0_aieth-run-test-main adder_func adder_func pass
want 0_aieth-run-test-main adder_bad adder_bad.func.PLIO_01_FROM_AIE fail "$M" MB/s
want 0_aieth-run-test-main adder_bad adder_bad.func.PLIO_01_TO_AIE pass "$M" MB/s
want 0_aieth-run-test-main adder_bad adder_bad fail
want 0_aieth-run-test-main - run_test-exit fail 1 exit_code
want 0_aieth-run-test-main - board-health pass 0 exit_code
want 1_aieth-run-test-hang - board-health pass 0 exit_code
want 1_aieth-run-test-hang stall_hang stall_hang.kernel_stalls.PLIO_01_FROM_AIE fail - -
want 1_aieth-run-test-hang stall_hang stall_hang.kernel_stalls fail
want 1_aieth-run-test-hang stall_hang stall_hang fail
want 1_aieth-run-test-hang - run_test-exit fail 5 exit_code
want 2_aieth-run-test-emu - run_test-exit fail 3 exit_code
# the outputs: archived where ARCHIVE_URL says, else "skip" (kept on the device)
want 0_aieth-run-test-main - outputs-archived pass
want 1_aieth-run-test-hang - outputs-archived skip
want lava - job pass
# nothing of the hang passed, and LAVA recorded every case run_test printed
if grep -E '^1_aieth-run-test-hang stall_hang .* pass' "$TMP/results"; then bad "a case of the hang passed"; else ok; fi
n=$(grep -c '^[012]_aieth-run-test-' "$TMP/results")
[[ $n -eq 22 ]] && ok || { bad "LAVA recorded $n cases, expected 22 (5 per description run, 1 exit per definition, 1 archive and 1 board-health per run)"; cat "$TMP/results" >&2; }
mkdir -p "$TMP/arch"
tar -C "$TMP/arch" -xzf "$TMP/out0.archive.tar.gz" && ok || bad "the archive of out0 does not unpack"
for f in report.json junit.xml report.html trace.json charts artifacts; do
  [[ -e $TMP/arch/$f ]] && ok || bad "the archive of out0 lacks $f"
done
# the board side wrote its reports, and they say what LAVA recorded
[[ $(jq -r .run.exit_code "$TMP/out0/report.json" 2>/dev/null) == 1 ]] && ok || bad "out0/report.json exit_code"
[[ $(jq -r .run.exit_code "$TMP/out1/report.json" 2>/dev/null) == 5 ]] && ok || bad "out1/report.json exit_code"
# on the board behind th_server, never the emulator in its place
for o in out0 out1; do
  [[ $(jq -r .environment.server "$TMP/$o/report.json" 2>/dev/null) == "$U" ]] && ok || bad "$o/report.json: not run on $U"
done
grep -q 'expected xrt or remote (never the emulator)' "$TMP/job.log" && ok || bad "the emulator definition's refusal is not in the log"
[[ ! -e $TMP/out2 ]] && ok || bad "the emulator definition ran run_test"
finish
