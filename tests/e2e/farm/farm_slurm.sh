#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The shipped Slurm job for real: a one-node Slurm (Debian 12's
# slurm-wlm 22.05, munge with a key of its own) on 127.0.0.1, everything
# in a temporary folder, with two boards as GRES, board:vck190 and
# board:vek280, each an emulated board behind its own th_server (https, a
# certificate of a private lab CA that the board map's CACERT column
# carries). Jobs of
# both kinds are submitted with scripts/farm/slurm/run_test.sbatch as
# shipped, and the test checks from what the jobs left: each ran on a board
# of its kind (its report names the server, the server logged its
# session), never two at once on one board (run_test's start and end,
# recorded by a wrapper, do not overlap), reports in the job's folder,
# Slurm's ExitCode is run_test's (0, 1) or the template's refusal (2, 3),
# and the emulator job (run_test_emu.sbatch) says it used no board.
# gcc build only (daemons as root); skipped when Slurm cannot start.
. "$(dirname "$0")/../lib.sh"
me=$(basename "$0")
if [[ ${AIETH_SAN:-0} == 1 || -n ${AIETH_RUN_WRAPPER:-} ]]; then
  echo "$me: skipped (Slurm runs the gcc build only; farm_templates.sh checks the template here)"
  exit 0
fi
skip() { echo "$me: skipped ($*)"; exit 0; }
[[ $(id -u) -eq 0 ]] || skip "slurmd must run as root"
for p in slurmctld slurmd munged sbatch scontrol squeue sinfo; do
  command -v "$p" >/dev/null || [[ -x /usr/sbin/$p ]] || skip "$p missing: scripts/install-deps.sh installs slurm-wlm"
done
th_server_setup
export PATH=$PATH:/usr/sbin
RT=$B/bin/run_test
MK=$B/tests/xrt_mkxclbin
SB=$S/scripts/farm/slurm/run_test.sbatch
SE=$S/scripts/farm/slurm/run_test_emu.sbatch
PY=/usr/bin/python3
W=$TMP/slurm
mkdir -p "$W"/{state,spool,log,dev,munge,jobs}
chmod 700 "$W/munge"
DAEMONS=()
JOBS=()
cleanup() {
  [[ ${#JOBS[@]} -gt 0 ]] && timeout 10 scancel "${JOBS[@]}" 2>/dev/null
  local p i
  for p in "${DAEMONS[@]}" "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  for i in $(seq 50); do
    local alive=0
    for p in "${DAEMONS[@]}" "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [[ $alive == 0 ]] && break
    sleep 0.1
  done
  for p in "${DAEMONS[@]}" "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
  [[ -n ${AIETH_KEEP:-} ]] && cp -r "$TMP" "$AIETH_KEEP"  # debugging: keep the logs
  rm -rf "$TMP"
}
trap cleanup EXIT

# Slurm binds to what the host name resolves to (CommunicationParameters
# below): it must be a loopback address
H=$(hostname -s)
addr=$(getent ahostsv4 "$H" | awk 'NR == 1 {print $1}')
[[ $addr == 127.* ]] || skip "host name $H resolves to ${addr:-nothing}, not a loopback address: Slurm would listen there"

# the two boards: th_servers on the emulated board, one per kind, https
CA=$TMP/ca/ca.crt
lab_ca "$TMP/ca" && lab_cert "$TMP/ca" srv "DNS:localhost,IP:127.0.0.1" || { bad "openssl: the lab CA"; finish; exit 1; }
TLS=(--tls-cert "$TMP/ca/srv.crt" --tls-key "$TMP/ca/srv.key")
start_server "$TMP/ts_vck190.log" --board vck190 "${TLS[@]}"
U190=https://${U#http://}
start_server "$TMP/ts_vek280.log" --board vek280 "${TLS[@]}"
U280=https://${U#http://}
"$MK" aie vck190 "$TMP/d190.xclbin" gr && "$MK" aie vek280 "$TMP/d280.xclbin" gr || { bad "xrt_mkxclbin"; finish; exit 1; }

# munge: its own key and socket
head -c 1024 /dev/urandom >"$W/munge/key"
chmod 400 "$W/munge/key"
munged -F -f --socket="$W/munge/sock" --key-file="$W/munge/key" --pid-file="$W/munge/pid" \
  --log-file="$W/munge/log" --seed-file="$W/munge/seed" >/dev/null 2>&1 &
DAEMONS+=($!)
for _ in $(seq 50); do [[ -S $W/munge/sock ]] && break; sleep 0.1; done
[[ -S $W/munge/sock ]] || skip "munged did not start: $(tail -3 "$W/munge/log" 2>/dev/null)"

read -r PCTL PD < <($PY -c 'import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
: >"$W/dev/board0"
: >"$W/dev/board1"
export SLURM_CONF=$W/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=aiethe2e
SlurmctldHost=$H(127.0.0.1)
SlurmctldPort=$PCTL
SlurmdPort=$PD
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$W/munge/sock
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
# (the main scheduler every second, not 60: a freed board is given again within a second)
ReturnToService=2
MinJobAge=600
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
SlurmdParameters=config_overrides
GresTypes=board
NodeName=board01 NodeAddr=127.0.0.1 NodeHostname=$H CPUs=8 Gres=board:vck190:1,board:vek280:1 State=UNKNOWN
PartitionName=boards Nodes=board01 Default=YES MaxTime=UNLIMITED State=UP
EOF
# more CPUs than boards: only the GRES keeps two jobs off one board
cat >"$W/gres.conf" <<EOF
NodeName=board01 Name=board Type=vck190 File=$W/dev/board0
NodeName=board01 Name=board Type=vek280 File=$W/dev/board1
EOF
slurmctld -D -i -f "$SLURM_CONF" >"$W/log/slurmctld.out" 2>&1 &
DAEMONS+=($!)
slurmd -D -f "$SLURM_CONF" -N board01 >"$W/log/slurmd.out" 2>&1 &
DAEMONS+=($!)
up=
end=$((SECONDS + 20))
while [[ $SECONDS -lt $end ]]; do
  [[ $(timeout 5 sinfo -h -n board01 -o %t 2>/dev/null) == idle ]] && { up=1; break; }
  sleep 0.2
done
[[ -n $up ]] || skip "Slurm did not start: $(tail -qn 3 "$W/log/slurmctld.log" "$W/log/slurmd.log" 2>/dev/null)"

# the board map (template: "NODE INDEX KIND remote URL [TOKEN_FILE|- [CACERT]]");
# the GRES index is the board's place among the node's boards in gres.conf
printf '# node index kind backend target token cacert\nboard01 0 vck190 remote %s - %s\nboard01 1 vek280 remote %s - %s\n' \
  "$U190" "$CA" "$U280" "$CA" >"$W/boards"
grep -v vek280 "$W/boards" >"$W/boards_no280"
# run_test's start and end in ns, per job: the overlap check
cat >"$W/rt" <<EOF
#!/bin/bash
s=\$(date +%s%N)
"$RT" "\$@"
rc=\$?
echo "\$s \$(date +%s%N)" >"$W/jobs/span-\$SLURM_JOB_ID"
exit \$rc
EOF
chmod +x "$W/rt"
cp -r "$S/examples/adder_perf" "$TMP/ok"
cp -r "$S/examples/adder_perf" "$TMP/wrong"
sed -i '1s/^[0-9-]*/12345/' "$TMP/wrong/golden.txt"

declare -A KIND WANT MSG
# sub KIND WANT_EXIT SCRIPT [VAR=VALUE...] -- [sbatch options] -- run_test args
sub() {
  local kind=$1 want=$2 script=$3; shift 3
  local envs=() sargs=()
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  while [[ $1 != -- ]]; do sargs+=("$1"); shift; done
  shift
  local id
  id=$(cd "$W/jobs" && env AIETH_BOARD_MAP="$W/boards" RUN_TEST="$W/rt" "${envs[@]}" \
    timeout 30 sbatch --parsable "${sargs[@]}" "$script" "$@" 2>"$TMP/sberr")
  if [[ ! $id =~ ^[0-9]+$ ]]; then bad "sbatch $script $*: $id $(cat "$TMP/sberr")"; return; fi
  JOBS+=("$id")
  KIND[$id]=$kind
  WANT[$id]=$want
}
X190=AIETH_XCLBIN=$TMP/d190.xclbin
X280=AIETH_XCLBIN=$TMP/d280.xclbin
t0=$(date +%s)
# three jobs per kind, one of each failing its data check (exit 1); the
# template's own --gres is a VCK190
sub vck190 0 "$SB" "$X190" -- -- "$TMP/ok/test.json"
sub vek280 0 "$SB" "$X280" -- --gres=board:vek280:1 -- "$TMP/ok/test.json"
sub vck190 1 "$SB" "$X190" -- --gres=board:vck190:1 -- "$TMP/wrong/test.json"
sub vek280 0 "$SB" "$X280" -- --gres=board:vek280:1 -- "$TMP/ok/test.json"
sub vck190 0 "$SB" "$X190" -- -- "$TMP/ok/test.json"
sub vek280 1 "$SB" "$X280" -- --gres=board:vek280:1 -- "$TMP/wrong/test.json"
# refused before run_test runs: no xclbin (2), the emulator asked for (2),
# a board the map lacks (3)
sub vck190 2 "$SB" -- -- "$TMP/ok/test.json"
MSG[${JOBS[-1]}]="run_test.sbatch: no design xclbin: set AIETH_XCLBIN"
sub vck190 2 "$SB" "$X190" -- -- --backend emu "$TMP/ok/test.json"
MSG[${JOBS[-1]}]="run_test.sbatch: --backend is not accepted"
sub vek280 3 "$SB" "$X280" AIETH_BOARD_MAP="$W/boards_no280" -- --gres=board:vek280:1 -- "$TMP/ok/test.json"
MSG[${JOBS[-1]}]="boards_no280: no line for node board01, board index 1"
# the emulator: a job of its own, no GRES
sub emu 0 "$SE" -- -- "$TMP/ok/test.json"
# a board kind the node does not have: refused by Slurm at submission
if (cd "$W/jobs" && timeout 30 sbatch --parsable --gres=board:vek385:1 "$SB" "$TMP/ok/test.json" >"$TMP/out" 2>&1); then
  bad "sbatch --gres=board:vek385:1 was accepted: $(cat "$TMP/out")"; JOBS+=("$(cat "$TMP/out")")
else ok; fi

# every job ends (60 s at most)
done=
end=$((SECONDS + 60))
while [[ $SECONDS -lt $end ]]; do
  q=$(timeout 5 squeue -h -o %i 2>/dev/null) && [[ -z $q ]] && { done=1; break; }
  sleep 0.2
done
[[ -n $done ]] && ok || bad "jobs still queued or running after 60 s: $(squeue 2>&1)"

# field JOB NAME: a field of scontrol show job
field() { timeout 10 scontrol show job "$1" | grep -oE "(^| )$2=[^ ]*" | head -1 | cut -d= -f2; }
declare -A SPANS   # board URL -> "start end" lines
n190=0 n280=0
for id in "${JOBS[@]}"; do
  kind=${KIND[$id]} want=${WANT[$id]}
  log=$W/jobs/aieth-$id.log
  ec=$(field "$id" ExitCode)
  [[ $ec == "$want:0" ]] && ok || { bad "job $id ($kind): Slurm ExitCode $ec, expected $want:0"; sed 's/^/  | /' "$log" >&2; }
  st=$(field "$id" JobState)
  [[ ($want == 0 && $st == COMPLETED) || ($want != 0 && $st == FAILED) ]] && ok || bad "job $id: JobState $st (exit $want)"
  r=$W/jobs/aieth-$id/report.json
  case $want in
    2|3)
      has "$log" "${MSG[$id]}"
      [[ ! -e $r && ! -e $W/jobs/span-$id ]] && ok || bad "job $id: refused, yet run_test ran"
      continue ;;
  esac
  for f in report.json junit.xml report.html trace.json charts; do
    [[ -e $W/jobs/aieth-$id/$f ]] && ok || bad "job $id: no $f in its folder"
  done
  has "$log" "aieth: run_test exit $want"
  [[ $(jq -r .run.exit_code "$r") == "$want" ]] && ok || bad "job $id: report exit_code $(jq -r .run.exit_code "$r"), expected $want"
  if [[ $kind == emu ]]; then
    [[ $(jq -r .environment.backend "$r") == emu ]] && ok || bad "emulator job $id: backend $(jq -r .environment.backend "$r")"
    has "$log" "the emulated board (no board used)"
    continue
  fi
  # the board: its kind in the report, the server of that kind, a session logged there
  srv=$(jq -r .environment.server "$r")
  [[ $(jq -r .environment.backend "$r") == remote ]] && ok || bad "job $id: backend $(jq -r .environment.backend "$r"), expected remote"
  [[ $(jq -r .environment.board "$r") == "$kind" ]] && ok || bad "job $id: board $(jq -r .environment.board "$r"), expected $kind"
  if [[ $kind == vck190 ]]; then u=$U190; n190=$((n190 + 1)); else u=$U280; n280=$((n280 + 1)); fi
  [[ $srv == "$u" ]] && ok || bad "job $id ($kind): ran on $srv, expected $u"
  has "$log" "($kind) through remote $u"
  [[ -s $W/jobs/span-$id ]] && SPANS[$srv]+="$(cat "$W/jobs/span-$id") $id"$'\n' || bad "job $id: no run span"
done
# each server had exactly the sessions of its kind's jobs: two each, the
# board's health check (run_test validate --level 1) and the run
s190=$(grep -c 'ended by its client' "$TMP/ts_vck190.log")
s280=$(grep -c 'ended by its client' "$TMP/ts_vek280.log")
[[ $s190 == "$((2 * n190))" && $s280 == "$((2 * n280))" && $n190 == 3 && $n280 == 3 ]] && ok ||
  bad "sessions: vck190 server $s190 for $n190 jobs, vek280 server $s280 for $n280 jobs (3 jobs each, 2 sessions a job expected)"
# one job per board at a time: no two runs on one board overlap
[[ ${#SPANS[@]} -eq 2 ]] && ok || bad "runs recorded on ${#SPANS[@]} boards, expected 2"
for u in "${!SPANS[@]}"; do
  if printf '%s' "${SPANS[$u]}" | sort -n | awk -v u="$u" '
      NF == 3 { if (NR > 1 && $1 < end) { print "board " u ": job " $3 " started before job " id " ended"; bad = 1 }
                if ($2 > end) { end = $2; id = $3 } }
      END { exit bad }' >"$TMP/ov"; then ok; else bad "$(cat "$TMP/ov")"; fi
done
echo "$me: Slurm ran ${#JOBS[@]} jobs in $(( $(date +%s) - t0 )) s"
finish
