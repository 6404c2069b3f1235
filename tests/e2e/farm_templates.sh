#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The job templates of scripts/farm/ (issue 13, docs/farm.md): what can run
# here runs against this build's run_test on the emulated board.
# - GitLab CI: the YAML parses (python3-yaml), the job's keys are checked,
#   and its script lines run in a shell with the job's variables.
# - Slurm: the #SBATCH directives are checked, and the batch script runs
#   with a fake Slurm environment (SLURM_JOB_ID, ...): exit codes pass
#   through, reports land in the job's folder, SIGTERM to the batch shell
#   (what --signal=B:TERM sends) ends run_test with its reports (143).
# - Jenkins: not run (no Jenkins in Debian 12): its structure is checked
#   and the shell text of its sh step, with the Groovy parameters put in,
#   runs like the GitLab lines.
. "$(dirname "$0")/lib.sh"
RT=$B/bin/run_test
PY=/usr/bin/python3
F=$S/scripts/farm
cp -r "$S/examples/adder_perf" "$TMP/ex"
EX=$TMP/ex/test.json
"$RT" -q -o "$TMP/base" "$EX" >/dev/null || bad "the baseline run failed"
$PY -c "import json,sys
r=json.load(open(sys.argv[1]))
for c in r['tests'][0]['transactions'][0]['channels']: c['throughput_MBps'] *= 1.5
json.dump(r, open(sys.argv[2], 'w'))" "$TMP/base/report.json" "$TMP/fast.json"

# --- GitLab CI
if $PY - "$F/gitlab-ci.yml" "$TMP/gl_script.sh" >"$TMP/gl" 2>&1 <<'P'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
job = doc["aieth-board-test"]
problems = []
def want(cond, what):
    if not cond:
        problems.append(what)
want(job["stage"] in doc["stages"], "the job's stage is declared")
want(job.get("tags"), "the job has a board runner tag")
want(job.get("timeout"), "the job has a timeout")
want(job.get("resource_group"), "one job per board: resource_group")
a = job["artifacts"]
want(a.get("when") == "always", "artifacts kept when the job fails (when: always)")
want(a["reports"]["junit"] == "out/junit.xml", "JUnit via artifacts:reports:junit")
want("out/report.json" in a["paths"], "report.json kept")
want(job["allow_failure"]["exit_codes"] == [4], "exit 4 (skip) is a warning only")
want(any("$RUN_TEST" in l for l in job["script"]), "the script runs $RUN_TEST")
for k in ("RUN_TEST", "AIETH_BOARD", "AIETH_TESTS", "AIETH_BASELINE"):
    want(k in doc["variables"], "variable " + k)
if problems:
    sys.exit("gitlab-ci.yml: " + "; ".join(problems))
open(sys.argv[2], "w").write("set -eo pipefail\n" + "\n".join(job["script"]) + "\n")
print("keys ok")
P
then ok; else bad "gitlab-ci.yml: $(cat "$TMP/gl")"; fi
# the job's script as a runner runs it (one shell, set -eo pipefail)
gl() { (cd "$TMP/gl_$1" && RUN_TEST=$RT AIETH_BOARD=vck190 AIETH_TESTS=$EX \
  AIETH_BASELINE=${2:-} CI_JOB_ID=7 bash "$TMP/gl_script.sh"); }
mkdir -p "$TMP/gl_pass" "$TMP/gl_gate"
expect 0 gl pass
[[ -f $TMP/gl_pass/out/junit.xml && -f $TMP/gl_pass/out/report.json ]] && ok || bad "GitLab job: no out/junit.xml or out/report.json"
expect 1 gl gate "$TMP/fast.json"
has "$TMP/out" "regression  adder_perf.perf.PLIO_01_FROM_AIE"
[[ -f $TMP/gl_gate/out/junit.xml ]] && ok || bad "GitLab job: a failed job has no junit.xml"

# --- Slurm
SB=$F/slurm/run_test.sbatch
if bash -n "$SB"; then ok; else bad "run_test.sbatch: syntax"; fi
# sbatch reads #SBATCH lines only before the first command
awk '/^#SBATCH/ { print } /^[^#]/ && NF { exit }' "$SB" >"$TMP/directives"
has "$TMP/directives" "#SBATCH --gres=board:vck190:1"
has "$TMP/directives" "#SBATCH --signal=B:TERM@"
has "$TMP/directives" "#SBATCH --time="
has "$TMP/directives" "#SBATCH --output="
slurm() {
  env SLURM_JOB_ID="$1" SLURM_SUBMIT_DIR="$TMP/slurm" SLURMD_NODENAME=board01 \
    SLURM_JOB_NAME=aieth-run_test RUN_TEST="$RT" bash "$SB" "${@:2}"
}
mkdir -p "$TMP/slurm"
expect 0 slurm 101 "$EX"
has "$TMP/out" "reports in $TMP/slurm/aieth-101"
has "$TMP/out" "aieth: run_test exit 0"
[[ -f $TMP/slurm/aieth-101/report.json && -f $TMP/slurm/aieth-101/junit.xml ]] && ok || bad "Slurm: no reports in the job's folder"
expect 1 slurm 102 --baseline "$TMP/fast.json" "$EX"
jqis() { local got; got=$(jq -r "$2" "$3" 2>&1); [[ $got == "$1" ]] && ok || bad "$3: $2 = '$got', expected '$1'"; }
jqis regression .baseline.status "$TMP/slurm/aieth-102/report.json"
expect 2 slurm 103 "$TMP/ex/nonexistent.json"
expect 2 slurm 104
expect 2 env -u SLURM_JOB_ID RUN_TEST="$RT" bash "$SB" "$EX"
has "$TMP/err" "SLURM_JOB_ID"
# SIGTERM to the batch shell: passed to run_test, which writes its reports
long_perf "$TMP/long.json" vck190
# in a process group of its own: the watchdog and the exit trap end all of it
setsid env SLURM_JOB_ID=105 SLURM_SUBMIT_DIR="$TMP/slurm" RUN_TEST="$RT" \
  bash "$SB" --reference -t 0 "$TMP/long.json" >"$TMP/sig.out" 2>&1 &
sp=$!
trap 'kill -KILL -- -"$sp" 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 100); do [[ -d $TMP/slurm/aieth-105 ]] && break; sleep 0.1; done
sleep 1
kill -TERM "$sp"
# bounded: 60 s, then the group is killed (exit 137, a failure)
for _ in $(seq 600); do kill -0 "$sp" 2>/dev/null || break; sleep 0.1; done
kill -KILL -- -"$sp" 2>/dev/null
wait "$sp"; rc=$?
[[ $rc -eq 143 ]] && ok || { bad "Slurm: SIGTERM gave exit $rc, expected 143"; cat "$TMP/sig.out" >&2; }
jqis interrupted .run.status "$TMP/slurm/aieth-105/report.json"

# --- Jenkins (structure; its sh text runs)
JF=$F/Jenkinsfile
has "$JF" "lock(label: \"\${params.BOARD_KIND}\", quantity: 1"
has "$JF" "junit testResults: \"\${env.AIETH_OUT}/junit.xml\""
has "$JF" "archiveArtifacts artifacts:"
has "$JF" "returnStatus: true"
has "$JF" '"\$RUN_TEST" --board'
has "$JF" "post {"
has "$JF" "always {"
for code in "rc == 0" "rc == 1" "rc == 4" "rc > 128"; do has "$JF" "$code"; done
if $PY - "$JF" "$TMP/jenkins.sh" "$EX" >"$TMP/jf" 2>&1 <<'P'
import re, sys
text = open(sys.argv[1]).read()
# braces and parentheses balance outside strings and comments
code = re.sub(r'//[^\n]*|"""[\s\S]*?"""|"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', '', text)
for o, c in ("{}", "()", "[]"):
    if code.count(o) != code.count(c):
        sys.exit(f"unbalanced {o}{c}: {code.count(o)} vs {code.count(c)}")
for block in ("pipeline {", "agent", "stages {", "stage('board test')", "steps {", "post {"):
    if block not in code and block not in text:
        sys.exit("missing " + block)
sh = re.search(r'sh\(returnStatus: true, script: """([\s\S]*?)"""\)', text).group(1)
sh = (sh.replace("${params.BOARD_KIND}", "vck190").replace("${env.AIETH_OUT}", "out")
        .replace("${baseline}", "").replace("${params.TESTS}", sys.argv[3]).replace("\\$", "$"))
if "${" in sh.replace("$RUN_TEST", ""):
    sys.exit("a Groovy expression is left: " + sh)
open(sys.argv[2], "w").write(sh)
P
then ok; else bad "Jenkinsfile: $(cat "$TMP/jf")"; fi
mkdir -p "$TMP/jenkins"
expect 0 env -C "$TMP/jenkins" RUN_TEST="$RT" AIETH_BOARD_ID=vck190-01 bash -e "$TMP/jenkins.sh"
[[ -f $TMP/jenkins/out/junit.xml ]] && ok || bad "Jenkins sh step: no out/junit.xml"
has "$TMP/out" "board: vck190-01"
finish
