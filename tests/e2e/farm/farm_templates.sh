#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The job templates of scripts/farm/ (docs/farm.md): a
# board job runs on the board it was given, through --backend remote or xrt
# with the design's xclbin, never on the emulator, and keeps every output;
# the emulator is a job of its own. The "board" here is this build's
# th_server on the emulated board, on 127.0.0.1, serving https with a
# certificate of a private lab CA that each template's CA setting carries
# (GitLab AIETH_RUNNER_CACERT or AIETH_CACERT, Jenkins' CACERT property,
# LAVA's CACERT, the Slurm board map's CACERT column).
# - GitLab CI: the YAML parses (python3-yaml), its jobs' keys are checked,
#   and their script lines run in a shell with the job's and the runner's
#   variables.
# - LAVA: the test definition's steps run in /bin/sh with its params and
#   a recording lava-test-case (farm_lava.sh runs the job with lava-run).
# - Jenkins: not run (no Jenkins in Debian 12): its structure is checked
#   and the shell text of its sh steps runs with the lock's variables.
# - Slurm: the #SBATCH directives are checked, and the batch scripts run
#   with a fake job environment and a fake scontrol (tests/e2e/farm/farm_slurm.sh
#   runs them under a real Slurm): exit codes pass through, reports land in
#   the job's folder, SIGTERM to the batch shell (what --signal=B:TERM
#   sends) reaches run_test (143).
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
PY=/usr/bin/python3
F=$S/scripts/farm
cp -r "$S/examples/adder_perf" "$TMP/ex"
EX=$TMP/ex/test.json
"$B/tests/xrt_mkxclbin" aie vck190 "$TMP/d.xclbin" gr || bad "xrt_mkxclbin"
XB=$TMP/d.xclbin
th_server_setup
CA=$TMP/ca/ca.crt
lab_ca "$TMP/ca" && lab_cert "$TMP/ca" srv "DNS:localhost,IP:127.0.0.1" || bad "openssl: the lab CA"
start_server "$TMP/ts.log" --board vck190 --tls-cert "$TMP/ca/srv.crt" --tls-key "$TMP/ca/srv.key"
U=https://${U#http://}
# the outputs a board job keeps (artifacts/: the remote backend's)
OUTPUTS="report.json junit.xml report.html trace.json charts artifacts"
outputs() {
  local f
  for f in $OUTPUTS; do [[ -e $1/$f ]] && ok || bad "$1: no $f"; done
}
jqis() { local got; got=$(jq -r "$2" "$3" 2>&1); [[ $got == "$1" ]] && ok || bad "$3: $2 = '$got', expected '$1'"; }
# ran_on DIR: the report says the run was on the board behind th_server
ran_on() { jqis remote .environment.backend "$1/report.json"; jqis "$U" .environment.server "$1/report.json"; }
# a baseline 50% faster than this board: the regression gate fails
"$RT" -q --backend remote --server "$U" --cacert "$CA" --xclbin "$XB" -o "$TMP/base" "$EX" >/dev/null || bad "the baseline run failed"
$PY -c "import json,sys
r=json.load(open(sys.argv[1]))
for c in r['tests'][0]['transactions'][0]['channels']: c['throughput_MBps'] *= 1.5
json.dump(r, open(sys.argv[2], 'w'))" "$TMP/base/report.json" "$TMP/fast.json"

# --- GitLab CI
if $PY - "$F/gitlab-ci.yml" "$TMP" >"$TMP/gl" 2>&1 <<'P'
import os, sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
problems = []
def want(cond, what):
    if not cond:
        problems.append(what)
def keeps_all(job, out):
    a = job.get("artifacts", {})
    want(a.get("when") == "always", "%s: artifacts kept when the job fails (when: always)" % name)
    want(out + "/" in a.get("paths", []), "%s: the whole %s/ kept (report.html, charts/, trace.json, artifacts/ too)" % (name, out))
    junit = a.get("reports", {}).get("junit")
    want(out + "/junit.xml" in (junit if isinstance(junit, list) else [junit]), "%s: JUnit via artifacts:reports:junit" % name)
    want(job.get("allow_failure", {}).get("exit_codes") == [4], "%s: exit 4 (skip) is a warning only" % name)
    want(job.get("timeout"), "%s: a timeout" % name)
tmpl = doc[".aieth-board"]
boards = {n: j for n, j in doc.items() if isinstance(j, dict) and j.get("extends") == ".aieth-board"}
want(len(boards) >= 2, "a board job per kind (extends .aieth-board)")
for name, j in boards.items():
    job = dict(tmpl, **j)
    kind = j.get("variables", {}).get("AIETH_BOARD")
    want(kind, "%s: AIETH_BOARD" % name)
    want(j.get("tags") == ["aieth-%s" % kind], "%s: the runner tag aieth-%s" % (name, kind))
    want(job["stage"] in doc["stages"], "%s: its stage is declared" % name)
    keeps_all(job, "out")
    want("out/health/junit.xml" in job["artifacts"]["reports"]["junit"], "%s: the health check's JUnit too" % name)
# before_script and script run in one shell, as GitLab concatenates them
before = "\n".join(tmpl.get("before_script", []))
script = before + "\n" + "\n".join(tmpl["script"])
want('"$RUN_TEST" validate' in before, "the board's health checked in before_script")
want('"$RUN_TEST" validate' not in "\n".join(tmpl["script"]), "the health check before the tests, not among them")
name = ".aieth-board"
want('--xclbin "$AIETH_XCLBIN"' in script, "the board job passes the design's xclbin")
runs = [l for l in script.splitlines() if '"$RUN_TEST"' in l and "validate" not in l]
want(len(runs) == 1 and '"$@"' in runs[0], "the board job runs run_test once, with the backend it chose")
want("--backend emu" not in script and "emu)" not in script, "the board job never chooses the emulator")
emu = doc.get("aieth-emulator")
want(emu is not None, "an emulator job of its own, aieth-emulator")
name = "aieth-emulator"
if emu:
    want(not emu.get("tags"), "aieth-emulator: no board runner tag")
    want(all("--backend emu" in l for l in emu["script"] if "$RUN_TEST" in l), "aieth-emulator: --backend emu, explicitly")
    keeps_all(emu, "out-emulator")
for k in ("RUN_TEST", "AIETH_TESTS", "AIETH_XCLBIN", "AIETH_BASELINE", "AIETH_HEALTH_LEVEL", "AIETH_VALIDATE_ARGS"):
    want(k in doc["variables"], "variable " + k)
want(doc["variables"].get("AIETH_HEALTH_LEVEL") == "1", "AIETH_HEALTH_LEVEL defaults to 1")
if problems:
    sys.exit("gitlab-ci.yml: " + "; ".join(problems))
# the scripts as a runner runs them (one shell, set -eo pipefail), with the
# file's variables as defaults
env = "".join('[ -n "${%s+x}" ] || export %s=%s\n' % (k, k, "'%s'" % v) for k, v in doc["variables"].items())
for n, j in (("board", tmpl), ("emu", emu)):
    open(os.path.join(sys.argv[2], "gl_%s.sh" % n), "w").write("set -eo pipefail\n" + env + "\n".join(j.get("before_script", []) + j["script"]) + "\n")
print("keys ok")
P
then ok; else bad "gitlab-ci.yml: $(cat "$TMP/gl")"; cat "$TMP/gl" >&2; fi
# gl DIR VAR=VALUE...: the board job in DIR, on a runner with a board behind
# th_server unless the arguments say otherwise
gl() {
  local d=$TMP/gl_$1; shift
  mkdir -p "$d"
  (cd "$d" && env RUN_TEST="$RT" AIETH_TESTS="$EX" AIETH_XCLBIN="$XB" AIETH_BOARD=vck190 \
    AIETH_RUNNER_BOARD=vck190 AIETH_RUNNER_BOARD_ID=vck190-01 AIETH_RUNNER_BACKEND=remote \
    AIETH_RUNNER_SERVER="$U" AIETH_RUNNER_CACERT="$CA" CI_RUNNER_DESCRIPTION=lab1 CI_JOB_ID=7 "$@" bash "$TMP/gl_board.sh")
}
# the lab CA from the runner's AIETH_RUNNER_CACERT (--cacert), or from
# AIETH_CACERT in its environment; with neither, the board is not trusted:
# its health check fails (infrastructure, 3) naming the CA and the fix
expect 0 gl envca AIETH_RUNNER_CACERT= AIETH_CACERT="$CA" AIETH_HEALTH_LEVEL=0
jqis 0 .run.exit_code "$TMP/gl_envca/out/report.json"
expect 3 gl noca AIETH_RUNNER_CACERT=
jqis "true" '[.. | .message? // empty] | any(test("not signed by a CA this client trusts.*--cacert FILE or AIETH_CACERT=FILE"))' "$TMP/gl_noca/out/health/report.json"
expect 0 gl pass
outputs "$TMP/gl_pass/out"
ran_on "$TMP/gl_pass/out"
has "$TMP/out" "aieth: board vck190-01 (vck190) through --backend remote --server $U"
jqis true "[.run.argv[] == \"$XB\"] | any" "$TMP/gl_pass/out/report.json"
# the board's health before the tests, on the same board and backend
has "$TMP/out" "aieth: board health passed (run_test validate --level 1, out/health/report.json)"
jqis "validate 01 board files" '.tests[0].name' "$TMP/gl_pass/out/health/report.json"
jqis remote .environment.backend "$TMP/gl_pass/out/health/report.json"
[[ -s $TMP/gl_pass/out/health/junit.xml ]] && ok || bad "GitLab: no out/health/junit.xml"
# a run_test whose validate gives $FAKE_VALIDATE (and records its
# arguments): the board's verdicts a real board gives, the tests real
mkdir -p "$TMP/bin"
cat >"$TMP/bin/fake_run_test" <<EOF
#!/bin/sh
if [ "\$1" = validate ]; then echo "\$*" >"$TMP/fake.args"; exit "\${FAKE_VALIDATE:-0}"; fi
exec "$RT" "\$@"
EOF
chmod +x "$TMP/bin/fake_run_test"
# unhealthy (the emulated board's board files missing: exit 4; a failed
# test 1; a hang 5): exit 3, the tests never run, the health outputs kept
unhealthy() {
  local vrc=$1 run=$2 dir=$3; shift 3
  expect 3 "$run" "$dir" "$@"
  has "$TMP/err" "the board failed its health check (run_test validate exit $vrc"
  [[ ! -e $TMP/${run}_$dir/out/report.json && ! -e $TMP/${run}_$dir/out/7/board/report.json ]] && ok || bad "$run $dir: the tests ran on an unhealthy board"
}
unhealthy 4 gl unhealthy AIETH_VALIDATE_ARGS="--data-dir $TMP/none"
[[ -s $TMP/gl_unhealthy/out/health/report.json ]] && ok || bad "GitLab unhealthy: no out/health/report.json"
for v in 1 5; do unhealthy "$v" gl "fake$v" RUN_TEST="$TMP/bin/fake_run_test" FAKE_VALIDATE="$v"; done
has "$TMP/fake.args" "validate -q --level 1 --board vck190 --backend remote --server $U --cacert $CA -o out/health"
# validate's own usage error, a signal: its code, not the board's fault
expect 2 gl fake2 RUN_TEST="$TMP/bin/fake_run_test" FAKE_VALIDATE=2
has "$TMP/err" "run_test validate exit 2 (2 its options"
expect 130 gl fake130 RUN_TEST="$TMP/bin/fake_run_test" FAKE_VALIDATE=130
expect 0 gl level2 RUN_TEST="$TMP/bin/fake_run_test" AIETH_HEALTH_LEVEL=2 AIETH_VALIDATE_ARGS="--xclbin loop.xclbin"
has "$TMP/fake.args" "validate -q --level 2 --board vck190 --backend remote --server $U --cacert $CA --xclbin loop.xclbin -o out/health"
expect 0 gl nohealth AIETH_HEALTH_LEVEL=0
[[ ! -e $TMP/gl_nohealth/out/health && -s $TMP/gl_nohealth/out/report.json ]] && ok || bad "GitLab AIETH_HEALTH_LEVEL=0: a health check ran or the tests did not"
expect 1 gl gate AIETH_BASELINE="$TMP/fast.json"
has "$TMP/out" "regression  adder_perf.perf.PLIO_01_FROM_AIE"
outputs "$TMP/gl_gate/out"
# no board, the wrong board, no backend, the emulator, no xclbin: refused
# before run_test runs (no out/)
refused() {
  local want=$1 dir=$2 msg=$3; shift 3
  expect "$want" gl "$dir" "$@"
  has "$TMP/err" "$msg"
  [[ ! -e $TMP/gl_$dir/out ]] && ok || bad "GitLab $dir: run_test ran"
}
refused 3 noboard "has no board: its config.toml sets no AIETH_RUNNER_BOARD" AIETH_RUNNER_BOARD=
refused 3 otherkind "has a vek280, this job needs a vck190" AIETH_RUNNER_BOARD=vek280
refused 3 nobackend "AIETH_RUNNER_BACKEND is '', expected remote or xrt" AIETH_RUNNER_BACKEND=
refused 3 emubackend "AIETH_RUNNER_BACKEND is 'emu', expected remote or xrt (the emulator is the aieth-emulator job)" AIETH_RUNNER_BACKEND=emu
refused 3 noserver "AIETH_RUNNER_SERVER (the board's th_server) is unset" AIETH_RUNNER_SERVER=
refused 2 noxclbin "no design xclbin: set AIETH_XCLBIN" AIETH_XCLBIN=
refused 2 badxclbin "AIETH_XCLBIN: $TMP/none.xclbin is not a readable file" AIETH_XCLBIN="$TMP/none.xclbin"
refused 2 option "AIETH_TESTS: --backend: test descriptions only" AIETH_TESTS="--backend emu $EX"
refused 2 level9 "AIETH_HEALTH_LEVEL=9: expected 0 (no check), 1, 2 or 3" AIETH_HEALTH_LEVEL=9
refused 2 vbackend "AIETH_VALIDATE_ARGS: --backend may not choose the board or its backend" AIETH_VALIDATE_ARGS="--backend emu"
refused 2 vboard "AIETH_VALIDATE_ARGS: -qbvek280 may not choose" AIETH_VALIDATE_ARGS="-qbvek280"
# xrt: the runner's device index reaches run_test (XRT has no board here:
# run_test's own error, exit 3, after it chose the xrt backend)
# the health check finds no XRT first: the board is unusable (3)
expect 3 gl xrt AIETH_RUNNER_BACKEND=xrt AIETH_RUNNER_XRT_DEVICE=1 AIETH_XRT_LIB="$TMP/no-libxrt.so"
has "$TMP/out" "through --backend xrt"
has "$TMP/err" "the board failed its health check"
jqis xrt .environment.backend "$TMP/gl_xrt/out/health/report.json"
expect 3 gl xrtrun AIETH_HEALTH_LEVEL=0 AIETH_RUNNER_BACKEND=xrt AIETH_RUNNER_XRT_DEVICE=1 AIETH_XRT_LIB="$TMP/no-libxrt.so"
jqis xrt .environment.backend "$TMP/gl_xrtrun/out/report.json"
# the emulator job: explicit, its own folder
mkdir -p "$TMP/gl_emu"
expect 0 env -C "$TMP/gl_emu" RUN_TEST="$RT" AIETH_TESTS="$EX" bash "$TMP/gl_emu.sh"
jqis emu .environment.backend "$TMP/gl_emu/out-emulator/report.json"

# --- Jenkins (structure; its sh steps run)
JF=$F/Jenkinsfile
has "$JF" "lock(label: params.BOARD_LABEL, quantity: 1, variable: 'AIETH_LOCK')"
has "$JF" "node(env.AIETH_LOCK0_AGENT ?: params.AGENT_LABEL)"
has "$JF" 'archiveArtifacts artifacts: "out/${env.BUILD_NUMBER}/board/**"'
has "$JF" 'junit testResults: "out/${env.BUILD_NUMBER}/board/junit.xml", allowEmptyResults: false'
has "$JF" '"AIETH_OUT=out/${env.BUILD_NUMBER}/board"'
has "$JF" "stage('emulator (no board)')"
has "$JF" 'archiveArtifacts artifacts: "out/${env.BUILD_NUMBER}/emulator/**"'
has "$JF" "returnStatus: true"
has "$JF" "finally {"
for code in "rc == 0" "rc == 1" "rc == 4" "rc > 128"; do has "$JF" "$code"; done
if grep -qE "choice\(|'vek280'|'vek385'" "$JF"; then bad "Jenkinsfile: board kinds are hard-coded"; else ok; fi
if $PY - "$JF" "$TMP" >"$TMP/jf" 2>&1 <<'P'
import re, sys
text = open(sys.argv[1]).read()
# braces and parentheses balance outside strings and comments
code = re.sub(r"//[^\n]*|'''[\s\S]*?'''|\"(\\.|[^\"\\])*\"|'(\\.|[^'\\])*'", '', text)
for o, c in ("{}", "()", "[]"):
    if code.count(o) != code.count(c):
        sys.exit(f"unbalanced {o}{c}: {code.count(o)} vs {code.count(c)}")
for block in ("pipeline {", "agent none", "stages {", "stage('board')", "steps {", "lock(", "node("):
    if block not in code and block not in text:
        sys.exit("missing " + block)
# the board's health: a stage before the tests, inside the same lock and
# node; its code decides (aiethHealth) before the test stage starts
order = [text.find(k) for k in ("lock(label:", "node(", "stage('board health')", "aiethHealth(hrc)", "stage('board test')", "aiethResult(rc)")]
if -1 in order or order != sorted(order):
    sys.exit("the board health stage is not before the tests inside the lock: %s" % order)
fn = re.search(r"def aiethHealth\(int rc\) \{([\s\S]*?)\n\}", text)
if not fn:
    sys.exit("no aiethHealth")
body = fn.group(1)
# 1, 4, 5: the board leaves its pool (updateLock) and the build fails
# before the tests; nothing of it is NOT_BUILT or UNSTABLE
unfit = re.search(r"if \(rc == 1 \|\| rc == 4 \|\| rc == 5\) \{([\s\S]*?)\n    \}", body)
if not unfit or "updateLock(resource: env.AIETH_LOCK0" not in unfit.group(1) or "removeLabels: params.BOARD_LABEL" not in unfit.group(1) \
        or "addLabels: 'aieth-unhealthy'" not in unfit.group(1) or "error(" not in unfit.group(1):
    sys.exit("aiethHealth: an unfit board (1, 4, 5) must leave its pool and fail the build")
if "NOT_BUILT" in body or "unstable(" in body or "aiethResult" in body:
    sys.exit("aiethHealth: a failed health check is a FAILURE")
prefix = re.search(r"def aiethBoardSh\(\) \{\s*return '''([\s\S]*?)'''", text)
if not prefix:
    sys.exit("no aiethBoardSh")
steps = {n: (prefix.group(1) if p else "") + sh for n, p, sh in
         re.findall(r"sh\(returnStatus: true, label: '([^']*)', script: (aiethBoardSh\(\) \+ )?'''([\s\S]*?)'''\)", text)}
if set(steps) != {"board health on the locked board", "run_test on the locked board", "run_test on the emulated board"}:
    sys.exit("sh steps: %s" % sorted(steps))
# single-quoted: Groovy puts nothing into the shell text
for n, sh in steps.items():
    if "${params" in sh or "${env." in sh:
        sys.exit(n + ": a Groovy value spliced into the shell text")
open(sys.argv[2] + "/jenkins_board.sh", "w").write(steps["run_test on the locked board"])
open(sys.argv[2] + "/jenkins_emu.sh", "w").write(steps["run_test on the emulated board"])
open(sys.argv[2] + "/jenkins_health.sh", "w").write(steps["board health on the locked board"])
P
then ok; else bad "Jenkinsfile: $(cat "$TMP/jf")"; fi
# jk DIR VAR=VALUE...: the board test step (JK_STEP=health: the board
# health step) as Jenkins' sh runs it, with the lock's variables
jk() {
  local d=$TMP/jk_$1; shift
  mkdir -p "$d"
  (cd "$d" && env RUN_TEST="$RT" AIETH_OUT=out/7/board AIETH_TESTS="$EX" AIETH_XCLBIN="$XB" AIETH_BASELINE= \
    AIETH_LOCK=vck190-01 AIETH_LOCK0=vck190-01 AIETH_LOCK0_BOARD=vck190 AIETH_LOCK0_BACKEND=remote \
    AIETH_LOCK0_SERVER="$U" AIETH_LOCK0_CACERT="$CA" AIETH_HEALTH_LEVEL=1 AIETH_VALIDATE_ARGS= "$@" bash -e "$TMP/jenkins_${JK_STEP:-board}.sh")
}
jkh() { JK_STEP=health jk "$@"; }
expect 0 jk pass
outputs "$TMP/jk_pass/out/7/board"
ran_on "$TMP/jk_pass/out/7/board"
has "$TMP/out" "aieth: board vck190-01 (vck190) through --backend remote --server $U"
expect 1 jk gate AIETH_BASELINE="$TMP/fast.json"
jqis regression .baseline.status "$TMP/jk_gate/out/7/board/report.json"
jrefused() {
  local want=$1 dir=$2 msg=$3; shift 3
  expect "$want" jk "$dir" "$@"
  has "$TMP/err" "$msg"
  [[ ! -e $TMP/jk_$dir/out ]] && ok || bad "Jenkins $dir: run_test ran"
}
jrefused 3 nolock "no board locked" AIETH_LOCK= AIETH_LOCK0=
jrefused 3 nokind "board vck190-01 has no BOARD property" AIETH_LOCK0_BOARD=
jrefused 3 nobackend "BACKEND property is '', expected remote or xrt" AIETH_LOCK0_BACKEND=
jrefused 3 emubackend "BACKEND property is 'emu', expected remote or xrt (the emulator is the stage 'emulator (no board)')" AIETH_LOCK0_BACKEND=emu
jrefused 3 noserver "it has no SERVER property" AIETH_LOCK0_SERVER=
jrefused 2 noxclbin "no design xclbin: set the XCLBIN parameter" AIETH_XCLBIN=
jrefused 2 option "TESTS: --board: test descriptions only" AIETH_TESTS="--board vek280 $EX"
# the board health stage: validate's verdict is the step's code (the
# Groovy aiethHealth maps 1, 4, 5 to the board leaving its pool and a
# FAILURE before the test stage; not run here)
expect 0 jkh hpass
has "$TMP/out" "aieth: board vck190-01 passed its health check (run_test validate --level 1, out/7/board/health/report.json)"
jqis "validate 01 board files" '.tests[0].name' "$TMP/jk_hpass/out/7/board/health/report.json"
jqis remote .environment.backend "$TMP/jk_hpass/out/7/board/health/report.json"
[[ ! -e $TMP/jk_hpass/out/7/board/report.json ]] && ok || bad "Jenkins health: the tests ran in the health stage"
expect 4 jkh hunusable AIETH_VALIDATE_ARGS="--data-dir $TMP/none"
[[ -s $TMP/jk_hunusable/out/7/board/health/junit.xml ]] && ok || bad "Jenkins health: no health/junit.xml to archive"
expect 5 jkh hhang RUN_TEST="$TMP/bin/fake_run_test" FAKE_VALIDATE=5
has "$TMP/fake.args" "validate -q --level 1 --board vck190 --backend remote --server $U --cacert $CA -o out/7/board/health"
expect 0 jkh hnone AIETH_HEALTH_LEVEL=0
[[ ! -e $TMP/jk_hnone/out ]] && ok || bad "Jenkins HEALTH_LEVEL=0: a health check ran"
expect 2 jkh hlevel AIETH_HEALTH_LEVEL=x
has "$TMP/err" "HEALTH_LEVEL=x: expected 0 (no check), 1, 2 or 3"
expect 2 jkh hback AIETH_VALIDATE_ARGS="--backend emu"
has "$TMP/err" "VALIDATE_ARGS: --backend may not choose the board or its backend"
# the lock's board is checked before the health check too (3, 2)
expect 3 jkh hnolock AIETH_LOCK= AIETH_LOCK0=
expect 2 jkh hnoxclbin AIETH_XCLBIN=
[[ ! -e $TMP/jk_hnolock/out && ! -e $TMP/jk_hnoxclbin/out ]] && ok || bad "Jenkins health: validate ran for a refused lock"
mkdir -p "$TMP/jk_emu"
expect 0 env -C "$TMP/jk_emu" RUN_TEST="$RT" AIETH_OUT=out/7/emulator AIETH_TESTS="$EX" bash -e "$TMP/jenkins_emu.sh"
jqis emu .environment.backend "$TMP/jk_emu/out/7/emulator/report.json"

# --- LAVA: the test definition's steps in one /bin/sh, as lava-test-shell
# runs them, with its params exported and lava-test-case recording
# (tests/e2e/farm/farm_lava.sh runs the whole job with lava-run)
if $PY - "$F/lava/aieth-run-test.yaml" "$TMP/lava_steps.sh" >"$TMP/lv" 2>&1 <<'P'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
want = {"BOARD", "BACKEND", "SERVER", "CACERT", "XCLBIN", "RUN_TEST", "DESCRIPTIONS", "RUN_TEST_ARGS", "OUT", "ARCHIVE_URL",
        "HEALTH_LEVEL", "VALIDATE_ARGS"}
if set(d["params"]) != want:
    sys.exit("params %s, expected %s" % (sorted(d["params"]), sorted(want)))
if d["params"]["HEALTH_LEVEL"] != "1":
    sys.exit("HEALTH_LEVEL defaults to %r, expected 1" % d["params"]["HEALTH_LEVEL"])
if d["params"]["BACKEND"] != "xrt":
    sys.exit("BACKEND defaults to %r, expected xrt" % d["params"]["BACKEND"])
open(sys.argv[2], "w").write("\n".join(d["run"]["steps"]) + "\n")
P
then ok; else bad "aieth-run-test.yaml: $(cat "$TMP/lv")"; fi
mkdir -p "$TMP/bin"
printf '#!/bin/sh\necho "$*" >>"%s"\n' "$TMP/lava.cases" >"$TMP/bin/lava-test-case"
printf '#!/bin/sh\necho "reference $*" >>"%s"\n' "$TMP/lava.cases" >"$TMP/bin/lava-test-reference"
chmod +x "$TMP/bin/lava-test-case" "$TMP/bin/lava-test-reference"
# lv DIR [VAR=VALUE...]: the steps in DIR on the board behind th_server; the
# recorded run_test-exit case is printed
lv() {
  local d=$TMP/lv_$1; shift
  mkdir -p "$d"
  rm -f "$TMP/lava.cases"
  (cd "$d" && env PATH="$TMP/bin:$PATH" RUN_TEST="$RT" DESCRIPTIONS="$EX" BOARD=vck190 BACKEND=remote SERVER="$U" CACERT="$CA" \
    XCLBIN="$XB" RUN_TEST_ARGS= OUT=out ARCHIVE_URL= HEALTH_LEVEL=1 VALIDATE_ARGS= "$@" /bin/sh "$TMP/lava_steps.sh" >"$TMP/lv.out" 2>&1)
  grep '^run_test-exit' "$TMP/lava.cases" 2>/dev/null
}
lcase() {
  local want=$1 dir=$2; shift 2
  local got; got=$(lv "$dir" "$@")
  [[ $got == "run_test-exit $want --units exit_code" ]] && ok || { bad "LAVA $dir: recorded '$got', expected 'run_test-exit $want'"; cat "$TMP/lv.out" >&2; }
}
lcase "--result pass --measurement 0" pass
has "$TMP/lava.cases" "board-health --result pass --measurement 0 --units exit_code"
jqis "validate 01 board files" '.tests[0].name' "$TMP/lv_pass/out/health/report.json"
outputs "$TMP/lv_pass/out"
ran_on "$TMP/lv_pass/out"
has "$TMP/lv.out" "<LAVA_SIGNAL_TESTCASE"
# no ARCHIVE_URL: the outputs stay on the device, and the results say so
has "$TMP/lava.cases" "outputs-archived --result skip"
# ARCHIVE_URL: every output in one .tar.gz, its URL the case's reference
lcase "--result pass --measurement 0" arch ARCHIVE_URL="file://$TMP/arch.tar.gz"
has "$TMP/lava.cases" "reference outputs-archived --result pass --reference file://$TMP/arch.tar.gz"
mkdir -p "$TMP/arch"
tar -C "$TMP/arch" -xzf "$TMP/arch.tar.gz" && ok || bad "LAVA: the archive does not unpack"
outputs "$TMP/arch"
lcase "--result pass --measurement 0" archbad ARCHIVE_URL="file://$TMP/no/such/dir/a.tar.gz"
has "$TMP/lava.cases" "reference outputs-archived --result fail --reference file://$TMP/no/such/dir/a.tar.gz"
lrefused() {
  local want=$1 dir=$2 msg=$3; shift 3
  lcase "--result fail --measurement $want" "$dir" "$@"
  has "$TMP/lv.out" "$msg"
  [[ ! -e $TMP/lv_$dir/out ]] && ok || bad "LAVA $dir: run_test ran"
  if grep -q outputs-archived "$TMP/lava.cases"; then bad "LAVA $dir: refused, yet outputs-archived recorded"; else ok; fi
}
lrefused 3 emu 'BACKEND is "emu", expected xrt or remote (never the emulator)' BACKEND=emu
lrefused 3 noserver "BACKEND remote without SERVER" SERVER=
lrefused 3 noboard "BOARD is unset" BOARD=
lrefused 2 noxclbin "XCLBIN: no readable design xclbin" XCLBIN=
lrefused 2 abbrev "RUN_TEST_ARGS: --backe may not choose" RUN_TEST_ARGS="--backe emu"
lrefused 2 short "RUN_TEST_ARGS: -qbvek280 may not choose" RUN_TEST_ARGS="-qbvek280"
lcase "--result fail --measurement 1" gate RUN_TEST_ARGS="--baseline $TMP/fast.json"
# a board that fails its health check: infrastructure (3), the tests never run
lcase "--result fail --measurement 3" unhealthy VALIDATE_ARGS="--data-dir $TMP/none"
has "$TMP/lava.cases" "board-health --result fail --measurement 4 --units exit_code"
has "$TMP/lv.out" "the board failed its health check (run_test validate exit 4"
[[ ! -e $TMP/lv_unhealthy/out/report.json ]] && ok || bad "LAVA unhealthy: run_test ran"
lrefused 2 vbackend "VALIDATE_ARGS: --backend may not choose the board or its backend" VALIDATE_ARGS="--backend emu"
# HEALTH_LEVEL=0: no check
lcase "--result pass --measurement 0" nohealth HEALTH_LEVEL=0
if grep -q board-health "$TMP/lava.cases"; then bad "LAVA HEALTH_LEVEL=0: board-health recorded"; else ok; fi

# --- Slurm
SB=$F/slurm/run_test.sbatch
SE=$F/slurm/run_test_emu.sbatch
for f in "$SB" "$SE"; do
  if bash -n "$f"; then ok; else bad "$f: syntax"; fi
done
# sbatch reads #SBATCH lines only before the first command
directives() { awk '/^#SBATCH/ { print } /^[^#]/ && NF { exit }' "$1"; }
directives "$SB" >"$TMP/directives"
has "$TMP/directives" "#SBATCH --gres=board:vck190:1"
has "$TMP/directives" "#SBATCH --signal=B:TERM@"
has "$TMP/directives" "#SBATCH --time="
has "$TMP/directives" "#SBATCH --output="
directives "$SE" >"$TMP/directives_emu"
has "$TMP/directives_emu" "#SBATCH --job-name=aieth-emulator"
if grep -q -- --gres "$TMP/directives_emu"; then bad "run_test_emu.sbatch holds a board"; else ok; fi
# a fake scontrol: the job's GRES as Slurm 22.05 prints it ($FAKE_GRES)
mkdir -p "$TMP/bin" "$TMP/slurm"
cat >"$TMP/bin/scontrol" <<'EOF'
#!/bin/sh
echo "JobId=$4 JobName=aieth-board"
echo "   JOB_GRES=$FAKE_GRES"
echo "     Nodes=board01 CPU_IDs=0 Mem=0 GRES=$FAKE_GRES"
EOF
chmod +x "$TMP/bin/scontrol"
printf '# node index kind backend target\nboard01 0 vck190 remote %s - %s\nboard01 1 vek280 xrt 2\nboard01 2 vck190 emu -\n' "$U" "$CA" >"$TMP/boards"
# a run_test that records its arguments and waits for a signal (a long board run)
cat >"$TMP/bin/slow_run_test" <<EOF
#!/bin/bash
# the board's health check passes at once: the test is the run's signal
[[ \$1 == validate ]] && exit 0
# the trap first: the file says it is ready for the signal
trap 'echo TERM >>"$TMP/slow.args"; exit 143' TERM
echo "\$* xrt_device=\${AIETH_XRT_DEVICE:-}" >"$TMP/slow.args"
for _ in \$(seq 600); do sleep 0.1; done
exit 9
EOF
chmod +x "$TMP/bin/slow_run_test"
printf '#!/bin/sh\necho "$* xrt_device=${AIETH_XRT_DEVICE:-}" >"%s"\n' "$TMP/rec.args" >"$TMP/bin/rec_run_test"
chmod +x "$TMP/bin/rec_run_test"
slurm() {
  env PATH="$TMP/bin:$PATH" SLURM_JOB_ID="$1" SLURM_SUBMIT_DIR="$TMP/slurm" SLURMD_NODENAME=board01 \
    SLURM_JOB_NAME=aieth-board RUN_TEST="$RT" AIETH_XCLBIN="$XB" AIETH_BOARD_MAP="$TMP/boards" \
    FAKE_GRES='board:vck190:1(IDX:0)' "${@:2}"
}
expect 0 slurm 101 bash "$SB" "$EX"
has "$TMP/out" "aieth: job 101 on board01, board 0 (vck190) through remote $U, reports in $TMP/slurm/aieth-101"
has "$TMP/out" "aieth: run_test exit 0"
outputs "$TMP/slurm/aieth-101"
ran_on "$TMP/slurm/aieth-101"
expect 1 slurm 102 bash "$SB" --baseline "$TMP/fast.json" "$EX"
jqis regression .baseline.status "$TMP/slurm/aieth-102/report.json"
[[ -s $TMP/slurm/aieth-101/health/report.json ]] && ok || bad "Slurm: no health/report.json"
has "$TMP/out" "aieth: board health passed (run_test validate --level 1"
# a board that fails its health check: exit 3, the tests never run
expect 3 slurm 106 env AIETH_VALIDATE_ARGS="--data-dir $TMP/none" bash "$SB" "$EX"
has "$TMP/err" "the board failed its health check (run_test validate exit 4"
[[ ! -e $TMP/slurm/aieth-106/report.json ]] && ok || bad "Slurm 106: run_test ran"
expect 2 slurm 107 env AIETH_HEALTH_LEVEL=9 bash "$SB" "$EX"
expect 2 slurm 108 env AIETH_VALIDATE_ARGS="--ba emu" bash "$SB" "$EX"
has "$TMP/err" "AIETH_VALIDATE_ARGS: --ba may not choose the board or its backend"
expect 2 slurm 103 bash "$SB" "$TMP/ex/nonexistent.json"
expect 2 slurm 104 bash "$SB"
has "$TMP/err" "no test description given"
expect 2 env -u SLURM_JOB_ID RUN_TEST="$RT" bash "$SB" "$EX"
has "$TMP/err" "SLURM_JOB_ID"
# refused before run_test runs: the job's input (2), the farm's board map (3)
srefused() {
  local want=$1 id=$2 msg=$3; shift 3
  expect "$want" slurm "$id" "$@"
  has "$TMP/err" "$msg"
  [[ ! -e $TMP/slurm/aieth-$id ]] && ok || bad "Slurm job $id: run_test ran"
}
srefused 2 110 "no design xclbin: set AIETH_XCLBIN" env AIETH_XCLBIN= bash "$SB" "$EX"
srefused 2 111 "--backend is not accepted" bash "$SB" --backend emu "$EX"
srefused 2 112 "--reference is not accepted" bash "$SB" --reference "$EX"
srefused 2 113 "--server=http://x is not accepted" bash "$SB" --server=http://x "$EX"
# run_test takes abbreviations (getopt_long) and grouped short options
srefused 2 122 "--backe=emu is not accepted" bash "$SB" --backe=emu "$EX"
srefused 2 123 "-qbvek280 is not accepted" bash "$SB" -qbvek280 "$EX"
srefused 2 124 "--xc is not accepted" bash "$SB" --xc "$XB" "$EX"
srefused 3 114 "no line for node board01, board index 5" env FAKE_GRES='board:vck190:1(IDX:5)' bash "$SB" "$EX"
srefused 3 115 "board 0 is a vck190, Slurm's GRES says vek280" env FAKE_GRES='board:vek280:1(IDX:0)' bash "$SB" "$EX"
srefused 3 116 "backend emu is neither xrt nor remote (the emulator is run_test_emu.sbatch)" env FAKE_GRES='board:vck190:1(IDX:2)' bash "$SB" "$EX"
srefused 3 117 "expected one board, Slurm allocated board indexes 0-1" env FAKE_GRES='board:vck190:2(IDX:0-1)' bash "$SB" "$EX"
srefused 3 118 "expected one board GRES" env FAKE_GRES='gpu:1(IDX:0)' bash "$SB" "$EX"
srefused 3 119 "board map $TMP/none cannot be read" env AIETH_BOARD_MAP="$TMP/none" bash "$SB" "$EX"
srefused 3 120 "SLURMD_NODENAME is unset" env -u SLURMD_NODENAME bash "$SB" "$EX"
# xrt: the map's device index reaches run_test; a GRES without a type
# takes the map's kind
expect 0 slurm 121 env FAKE_GRES='board:1(IDX:1)' RUN_TEST="$TMP/bin/rec_run_test" bash "$SB" "$EX"
has "$TMP/out" "board 1 (vek280) through xrt 2"
[[ $(cat "$TMP/rec.args" 2>/dev/null) == "--board vek280 --backend xrt --xclbin $XB -o $TMP/slurm/aieth-121 $EX xrt_device=2" ]] && ok ||
  bad "Slurm xrt: run_test got '$(cat "$TMP/rec.args" 2>/dev/null)'"
# SIGTERM to the batch shell: passed to run_test (here one that waits for it)
rm -f "$TMP/slow.args"
setsid env PATH="$TMP/bin:$PATH" SLURM_JOB_ID=105 SLURM_SUBMIT_DIR="$TMP/slurm" SLURMD_NODENAME=board01 \
  RUN_TEST="$TMP/bin/slow_run_test" AIETH_XCLBIN="$XB" AIETH_BOARD_MAP="$TMP/boards" \
  FAKE_GRES='board:vck190:1(IDX:0)' bash "$SB" "$EX" >"$TMP/sig.out" 2>&1 &
sp=$!
trap 'kill -KILL -- -"$sp" 2>/dev/null; for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
for _ in $(seq 100); do [[ -s $TMP/slow.args ]] && break; sleep 0.1; done
kill -TERM "$sp"
for _ in $(seq 600); do kill -0 "$sp" 2>/dev/null || break; sleep 0.1; done
kill -KILL -- -"$sp" 2>/dev/null
wait "$sp"; rc=$?
[[ $rc -eq 143 ]] && ok || { bad "Slurm: SIGTERM gave exit $rc, expected 143"; cat "$TMP/sig.out" >&2; }
has "$TMP/sig.out" "aieth: run_test exit 143"
has "$TMP/slow.args" "--board vck190 --backend remote --xclbin $XB --server $U"
has "$TMP/slow.args" "TERM"
# the emulator job: explicit, and SIGTERM ends a real run with its reports
slurm 130 env RUN_TEST="$RT" bash "$SE" "$EX" >"$TMP/out" 2>&1 && ok || bad "run_test_emu.sbatch: exit $?"
has "$TMP/out" "the emulated board (no board used)"
jqis emu .environment.backend "$TMP/slurm/aieth-130/report.json"
expect 2 slurm 131 bash "$SE" --backend remote "$EX"
long_perf "$TMP/long.json" vck190
# in a process group of its own: the watchdog and the exit trap end all of it
setsid env SLURM_JOB_ID=132 SLURM_SUBMIT_DIR="$TMP/slurm" RUN_TEST="$RT" \
  bash "$SE" --reference -t 0 "$TMP/long.json" >"$TMP/sig.out" 2>&1 &
sp=$!
for _ in $(seq 100); do [[ -d $TMP/slurm/aieth-132 ]] && break; sleep 0.1; done
sleep 1
kill -TERM "$sp"
# bounded: 60 s, then the group is killed (exit 137, a failure)
for _ in $(seq 600); do kill -0 "$sp" 2>/dev/null || break; sleep 0.1; done
kill -KILL -- -"$sp" 2>/dev/null
wait "$sp"; rc=$?
[[ $rc -eq 143 ]] && ok || { bad "Slurm emulator job: SIGTERM gave exit $rc, expected 143"; cat "$TMP/sig.out" >&2; }
jqis interrupted .run.status "$TMP/slurm/aieth-132/report.json"
stop_server
finish
