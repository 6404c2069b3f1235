#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Names th_server's clients send are looked up in the operator's tables,
# never used as paths (docs/server.md, "What a client may name"): a model
# given as a path is refused and its library never loaded (a plugin whose
# constructor leaves a marker file), a plugin in --model-dir works by its
# file name; aiesim params naming a server file return none of its bytes;
# a board named by path is refused without saying whether the file exists
# (HTTP and AMD's protocol); aiesim traces travel with the session, so
# examples/aiesim_replay runs remotely as locally, and graph names such as
# top.gr[0] work remotely. Every wait is bounded.
. "$(dirname "$0")/../lib.sh"
th_server_setup
RT=$B/bin/run_test
J='Content-Type: application/json'
MARK=$TMP/ctor-ran
export AIETH_TEST_CTOR_MARKER=$MARK

mkdir -p "$TMP/models" "$TMP/secret"
cp "$B/plugins/scale_model.so" "$TMP/models/"
cp "$B/plugins/ctor_marker.so" "$TMP/models/marked.so"
printf 'root:SECRET-LINE-4242:19000:0:99999:7:::\n' >"$TMP/secret/shadow"

# the server's current folder holds a plugin too: a bare "x.so" must not
# mean ./x.so there
cd "$B/plugins" || exit 1
start_server "$TMP/log" --model-dir "$TMP/models" --amd-listen 127.0.0.1:0
cd "$S" || exit 1
# session STATUS BODY: POST /v1/sessions; a session made where a refusal
# was expected is ended at once, so that each check meets a free device
session() {
  req "$1" -H "$J" -d "$2" "$U/v1/sessions"
  local id; id=$(jq -r '.id // empty' "$TMP/body" 2>/dev/null)
  [[ $1 != 201 && -n $id ]] && curl -s -m 5 -o /dev/null -X DELETE "$U/v1/sessions/$id"
  return 0
}
end_session() {
  local id; id=$(jq -r .id "$TMP/body")
  req 204 -X DELETE "$U/v1/sessions/$id"
}

# --- graph models: never a path, never loaded
for m in "$B/plugins/ctor_marker.so" ctor_marker.so ./ctor_marker.so ../plugins/ctor_marker.so \
         /proc/self/fd/0 "$TMP/models/marked.so" .marked.so; do
  session 422 "{\"board\":\"vck190\",\"graphs\":[{\"name\":\"gr\",\"model\":\"$m\"}]}"
done
has "$TMP/body" "never a path"
sleep 1
[[ ! -e $MARK ]] && ok || bad "a plugin named by a path was loaded (its constructor ran)"
# not found: the client's value and the server's models, no folder
session 422 '{"board":"vck190","graphs":[{"name":"gr","model":"nosuch"}]}'
has "$TMP/body" 'model \"nosuch\": not a model of this server (its models: loopback, adder, aiesim'
has "$TMP/body" 'scale_model.so'
grep -qF "$TMP" "$TMP/body" && bad "the reply names the model folder" || ok
# a plugin from --model-dir by its file name, with or without .so
session 201 '{"board":"vck190","graphs":[{"name":"gr","model":"scale_model","params":{"gain":3}}]}'
jbody .state active
end_session
session 201 '{"board":"vck190","graphs":[{"name":"gr","model":"marked.so"}]}'
jbody .state active
end_session
[[ -e $MARK ]] && ok || bad "the plugin from --model-dir was not loaded"

# --- aiesim params: no server folder, no server file, no file bytes back
S1='"outputs":[{"plio":"PLIO_01_FROM_AIE","file":"shadow"}]'
for p in "{\"dir\":\"$TMP/secret\",$S1}" "{\"dir\":\"../../../../../../$TMP/secret\",$S1}" \
         "{\"outputs\":[{\"plio\":\"PLIO_01_FROM_AIE\",\"file\":\"$TMP/secret/shadow\"}]}" \
         "{\"outputs\":[{\"plio\":\"PLIO_01_FROM_AIE\",\"file\":\"../../../../../$TMP/secret/shadow\"}]}" \
         "{$S1}"; do
  session 422 "{\"board\":\"vck190\",\"graphs\":[{\"name\":\"gr\",\"model\":\"aiesim\",\"params\":$p}]}"
  grep -q SECRET "$TMP/body" && bad "a server file's bytes in the reply: $(cat "$TMP/body")" || ok
done
# a trace sent under one name cannot reach another file either
session 422 "{\"board\":\"vck190\",\"traces\":{\"out.txt\":\"1\\n\"},\"graphs\":[{\"name\":\"gr\",\"model\":\"aiesim\",\"params\":{\"outputs\":[{\"plio\":\"PLIO_01_FROM_AIE\",\"file\":\"../../../$TMP/secret/shadow\"}]}}]}"
has "$TMP/body" 'is not one of the traces sent with the session (1 sent)'
grep -q SECRET "$TMP/body" && bad "a server file's bytes in the reply" || ok
session 400 '{"board":"vck190","traces":{"../shadow":"x"}}'
has "$TMP/body" 'is not a file name'
# a bad trace of the client's own is reported (its own bytes), with no
# server path
session 422 '{"board":"vck190","traces":{"out.txt":"T 0 ns\nnot-a-number\n"},"graphs":[{"name":"gr","model":"aiesim","params":{"outputs":[{"plio":"PLIO_01_FROM_AIE","file":"out.txt"}]}}]}'
has "$TMP/body" 'out.txt'
grep -qE '/tmp|th_server\.' "$TMP/body" && bad "the reply names a server path: $(cat "$TMP/body")" || ok

# --- boards: only the server's, whether a file exists or not
session 422 '{"board":"/etc/passwd"}'
has "$TMP/body" 'board \"\/etc\/passwd\": not a board of this server (its boards: vck190, vek280, vek385)'
cp "$TMP/body" "$TMP/b1"
session 422 '{"board":"/nonexistent/passwd"}'
if [[ $(sed 's/nonexistent/etc/' "$TMP/body") == "$(cat "$TMP/b1")" ]]; then ok
else bad "an existing and a missing file give different replies: $(cat "$TMP/b1") / $(cat "$TMP/body")"; fi
session 422 "{\"board\":\"$TMP/secret/shadow\"}"
grep -q SECRET "$TMP/body" && bad "a server file's bytes in the reply" || ok
session 422 '{"board":"../platforms/vck190"}'
has "$TMP/body" 'not a board of this server'
# AMD's clients: the device name too
amd_port "$TMP/log"
expect 0 "$B/tests/amd_client" mismatch "$AP" /etc/passwd
has "$TMP/out" 'device /etc/passwd refused: <board "/etc/passwd": not a board of this server (its boards: vck190, vek280, vek385)>'
expect 0 "$B/tests/amd_client" mismatch "$AP" /nonexistent/passwd
has "$TMP/out" 'device /nonexistent/passwd refused: <board "/nonexistent/passwd": not a board of this server'

# --- aiesim traces travel with the session: the example runs remotely
# with the same exit code and report; graph names as in ADF (top.gr[0])
norm() { norm_report "$1" | jq 'del(.environment)'; }
cp -r "$S/examples/aiesim_replay" "$TMP/ex"
jq '.graphs[0].name = "top.gr[0]"' "$S/examples/aiesim_replay/test.json" >"$TMP/ex/brackets.json"
for t in "$S/examples/aiesim_replay/test.json" "$TMP/ex/brackets.json"; do
  n=$(basename "$t" .json)
  "$RT" -q -o "$TMP/loc_$n" "$t" >"$TMP/loc_$n.out" 2>&1; lc=$?
  "$RT" -q --backend remote --server "$U" -o "$TMP/rem_$n" "$t" >"$TMP/rem_$n.out" 2>&1; rc=$?
  [[ $lc -eq 0 && $rc -eq 0 ]] && ok || bad "$n: exit $rc remote, $lc local: $(tail -3 "$TMP/rem_$n.out")"
  if diff <(norm "$TMP/loc_$n/report.json") <(norm "$TMP/rem_$n/report.json") >"$TMP/diff"; then ok
  else bad "$n: reports differ:"; head -20 "$TMP/diff" >&2; fi
done
# two graphs' traces of one name: each is sent under a name of its own, the
# fallback name checked again (graph ga's second trace is named
# "g1-o0-out.txt", the fallback of graph gb's out.txt): the remote run
# passes as the local one does, every channel its own trace's data
mkdir -p "$TMP/two/a" "$TMP/two/b"
cp "$S/examples/aiesim_replay/in.txt" "$TMP/two/"
python3 - "$S/examples/aiesim_replay" "$TMP/two" <<'PY2'
import json, sys
src, dst = sys.argv[1], sys.argv[2]
def shift(path, add):
    out = []
    for line in open(path).read().splitlines():
        if line[:1].isdigit():
            line = ' '.join(str(int(x) + add) for x in line.split())
        out.append(line)
    return '\n'.join(out) + '\n'
for d, name, add in (('a', 'out.txt', 100), ('a', 'g1-o0-out.txt', 200), ('b', 'out.txt', 300)):
    open(f'{dst}/{d}/{name}', 'w').write(shift(f'{src}/aiesimulator_output/data/out.txt', add))
    open(f'{dst}/golden_{d}_{name}', 'w').write(shift(f'{src}/golden.txt', add))
t = json.load(open(f'{src}/test.json'))
def graph(name, d, ins, outs):
    g = json.loads(json.dumps(t['graphs'][0]))
    g['name'] = name
    g['params']['dir'] = d
    g['params']['inputs'] = [{'plio': p, 'window_bytes': 64} for p in ins]
    g['params']['outputs'] = [{'plio': p, 'file': f, 'type': 'int32'} for p, f in outs]
    return g
t['name'] = 'aiesim_two'
t['graphs'] = [graph('ga', 'a', ['PLIO_01_TO_AIE'], [('PLIO_01_FROM_AIE', 'out.txt'), ('PLIO_02_FROM_AIE', 'g1-o0-out.txt')]),
               graph('gb', 'b', ['PLIO_02_TO_AIE'], [('PLIO_03_FROM_AIE', 'out.txt')])]
ch = [{'plio': p, 'data': {'file': 'in.txt', 'type': 'int32'}} for p in ('PLIO_01_TO_AIE', 'PLIO_02_TO_AIE')]
ch += [{'plio': p, 'golden': {'file': g, 'type': 'int32'}} for p, g in
       (('PLIO_01_FROM_AIE', 'golden_a_out.txt'), ('PLIO_02_FROM_AIE', 'golden_a_g1-o0-out.txt'),
        ('PLIO_03_FROM_AIE', 'golden_b_out.txt'))]
t['transactions'][0]['channels'] = ch
json.dump(t, open(f'{dst}/two.json', 'w'), indent=1)
PY2
expect 0 "$RT" -q -o "$TMP/loc_two" "$TMP/two/two.json"
expect 0 "$RT" -q --backend remote --server "$U" -o "$TMP/rem_two" "$TMP/two/two.json"
[[ $(jq -r '[.tests[0].transactions[0].channels[] | select(.direction == "from_aie") | .integrity.mismatches] | join(" ")' "$TMP/rem_two/report.json" 2>/dev/null) == "0 0 0" ]] && ok ||
  bad "two graphs' traces of one name: remote mismatches $(jq -c "[.tests[0].transactions[0].channels[] | .integrity.mismatches]" "$TMP/rem_two/report.json" 2>&1)"
# a graph name no URL path can carry: refused when the session is created
jq '.graphs[0].name = "top/gr"' "$S/examples/aiesim_replay/test.json" >"$TMP/ex/slash.json"
expect 2 "$RT" -q --backend remote --server "$U" -o "$TMP/rem_slash" "$TMP/ex/slash.json"
has "$TMP/rem_slash/report.json" "has a '/', which the graph's URLs"
# a trace past the limit is refused by the client, naming file and limit
head -c 4200000 /dev/zero | tr '\0' '1' >"$TMP/ex/aiesimulator_output/data/out.txt"
expect 2 "$RT" -q --backend remote --server "$U" -o "$TMP/rem_big" "$TMP/ex/test.json"
has "$TMP/rem_big/report.json" "out.txt: the traces of a session are sent with it, at most 4 MiB"

stop_server
finish
