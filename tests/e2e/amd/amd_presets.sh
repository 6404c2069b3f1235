#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_server --graph-model GRAPH=@PRESET (cfg/graph-models/, the route model)
# runs AMD's examples' data paths through the AMD listener on the emulated
# board: tests/tools/amd_client.c's "example" scenario drives each as its
# client does (device, graph, channels, sizes; AMD's repository
# Xilinx/AI-Engine-Test-Harness, examples/) and checks the RX data (dmafifo:
# doubled, then 4x; the adder: the sum; channelizer and normalization_v2:
# the inputs, on AMD's routing). The same clients fail with the default
# model. Preset names are looked up among the folder's entries; bad presets
# stop the server at start. Every wait is bounded.
. "$(dirname "$0")/../lib.sh"
th_server_setup
AC=$B/tests/amd_client
PD=$S/cfg/graph-models


# --- the presets shipped: each names the route model, for AMD's board
for p in testcase_dmafifo_opt normalization_v2 channelizer python_adder; do
  if [[ $(jq -r .model "$PD/$p.json") == route ]]; then ok; else bad "$p.json: model is not route"; fi
done
[[ $(jq -r .params.board "$PD/normalization_v2.json") == vek280 ]] && ok || bad "normalization_v2: board"
[[ $(jq '.params.routes | length' "$PD/channelizer.json") == 16 ]] && ok || bad "channelizer: 16 routes"
# examples/route_amd_dmafifo uses the dmafifo preset's params as they are
if [[ $(jq -cS '.graphs[0].params' "$S/examples/route_amd_dmafifo/test.json") == \
      "$(jq -cS .params "$PD/testcase_dmafifo_opt.json")" ]]; then ok
else bad "examples/route_amd_dmafifo's graph gr differs from the testcase_dmafifo_opt preset"; fi

# --- refusals at start (exit 2, the reason on stderr)
expect 0 "$TS" --help
has "$TMP/out" "NAME=@PRESET"
expect 2 "$TS" --amd-listen 127.0.0.1:0 --graph-model gr=@nosuch
has "$TMP/err" 'graph model preset "nosuch": not a preset of this server'
has "$TMP/err" "channelizer"
has "$TMP/err" "testcase_dmafifo_opt"
expect 2 "$TS" --amd-listen 127.0.0.1:0 --graph-model gr=@../graph-models/channelizer
has "$TMP/err" 'graph model preset "../graph-models/channelizer": not a preset of this server'
expect 2 "$TS" --amd-listen 127.0.0.1:0 --graph-model 'gr=@channelizer:{}'
has "$TMP/err" "a preset (@NAME) brings its params, give no :JSON"
# an operator's own preset folder (--data-dir): a preset names a built-in,
# and its keys are checked
D=$TMP/data
mkdir -p "$D/cfg/graph-models"
cp -r "$S/platforms" "$D/"
cp "$S"/cfg/*.json "$S"/cfg/*.cfg "$D/cfg/"
echo '{"model": "./evil.so", "params": {}}' >"$D/cfg/graph-models/plugin.json"
echo '{"model": "route", "params": {}, "colour": 1}' >"$D/cfg/graph-models/extra.json"
echo '{"model": "route"}' >"$D/cfg/graph-models/noparams.json"
expect 2 "$TS" --data-dir "$D" --amd-listen 127.0.0.1:0 --graph-model gr=@plugin
has "$TMP/err" 'plugin.json: model "./evil.so": a preset names a built-in model'
expect 2 "$TS" --data-dir "$D" --amd-listen 127.0.0.1:0 --graph-model gr=@extra
has "$TMP/err" "colour"
expect 2 "$TS" --data-dir "$D" --amd-listen 127.0.0.1:0 --graph-model gr=@noparams
has "$TMP/err" "params"

# --- each AMD example's data path, each on a server with its preset
start_amd "$TMP/log1" --graph-model gr=@testcase_dmafifo_opt --graph-model aie_dut=@channelizer
expect 0 "$AC" example "$AP" testcase_dmafifo_opt
has "$TMP/out" "testcase_dmafifo_opt FUNC: 1 RX channel(s) of 4096 bytes right"
has "$TMP/out" "testcase_dmafifo_opt PERF: the FUNC output doubled again (4x the input)"
expect 0 "$AC" example "$AP" channelizer
has "$TMP/out" "channelizer FUNC: 16 RX channel(s) of 65536 bytes right"
has "$TMP/out" "channelizer PERF: every RX byte right"
# a VEK280 example on the VCK190 preset's server: the route's board check
# refuses its graph, the client is told, the server goes on
expect 1 "$AC" example "$AP" normalization_v2
log_has "$TMP/log1" 'route: params.board: "vck190", but the board is vek280'
expect 0 "$AC" example "$AP" testcase_dmafifo_opt
stop_amd

start_amd "$TMP/log2" --graph-model gr=@normalization_v2
expect 0 "$AC" example "$AP" normalization_v2
has "$TMP/out" "normalization_v2 FUNC: 1 RX channel(s) of 196608 bytes right"
has "$TMP/out" "normalization_v2 PERF: RX bytes 65536..131072 (the URAM's first pass) right"
stop_amd

start_amd "$TMP/log3" --graph-model gr=@python_adder
expect 0 "$AC" example "$AP" python_adder
has "$TMP/out" "python_adder FUNC: 1 RX channel(s) of 262144 bytes right"
has "$TMP/out" "python_adder PERF: DONE"
stop_amd

# --- without the presets AMD's examples fail as on a board with the wrong
# graph. The default model (loopback, 16-byte windows): dmafifo's one graph
# iteration moves 16 of its 4096 bytes, channelizer's even RX channels get
# nothing (loopback routes channel k to k); both stall, the wait ends in
# TIMEOUT. The adder model on dmafifo's graph (two inputs, one sent) too.
start_amd "$TMP/log4" --graph-model 'gr=adder:{"window_bytes":4096}'
expect 1 "$AC" example "$AP" testcase_dmafifo_opt
has "$TMP/err" "testcase_dmafifo_opt FUNC: status 3, expected DONE (4)"
expect 1 "$AC" example "$AP" channelizer
has "$TMP/err" "channelizer FUNC: status 3, expected DONE (4)"
stop_amd
start_amd "$TMP/log5"
expect 1 "$AC" example "$AP" testcase_dmafifo_opt
has "$TMP/err" "testcase_dmafifo_opt FUNC: status 3, expected DONE (4)"
stop_amd
# a dmafifo preset that copies instead of doubling: the client sees it
cp "$PD/testcase_dmafifo_opt.json" "$D/cfg/graph-models/"
jq '.params.routes[0].op = "copy" | del(.params.routes[0].value)' "$PD/testcase_dmafifo_opt.json" \
  >"$D/cfg/graph-models/copy.json"
start_amd "$TMP/log6" --data-dir "$D" --graph-model gr=@copy
expect 1 "$AC" example "$AP" testcase_dmafifo_opt
has "$TMP/err" "testcase_dmafifo_opt FUNC: PLIO_01_FROM_AIE byte 0:"
stop_amd

finish
