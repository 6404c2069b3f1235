#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The AI Engine array's state on a hang (docs/on-board.md, "When a test
# hangs"): on the XRT test double with a stand-in sysfs tree
# (AIETH_SYSFS_ROOT) in the AI Engine driver's formats, a stalled graph's
# report names the stuck core and DMA channel in words, report.json holds
# aie_state per tile and OUT/artifacts/aie_state.json is written; a
# truncated, a garbage and a FIFO (slow) file each give a note, and the
# FIFO never turns the hang into a hung tool (bounded by this test's
# timeout and the state read's own deadline). The XRT double writes the
# tree itself from its stalled graph model (AIETH_XRT_DOUBLE_SYSFS) and the
# report names the stuck tile. The emulated board gives the same structure
# from its graph models (source emulator: per port what it waits on),
# in report.json, OUT/artifacts/aie_state.json, the text's "AI Engine"
# block and report.html.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
EX=$S/examples
MK=$B/tests/xrt_mkxclbin
xrt_double_env
jqis() { local got; got=$(jq -r "$2" "$3" 2>&1); [[ $got == "$1" ]] && ok || bad "$3: $2 = '$got', expected '$1'"; }

"$MK" pl vck190 "$TMP/pl.xclbin" || bad "mkxclbin pl"
"$MK" aie vck190 "$TMP/aie.xclbin" gr || bad "mkxclbin aie"

# the stand-in tree: a partition of columns 24.., a shim, a stalled core,
# a truncated (cut short) core file, a huge one, garbage, and a FIFO
SYS=$TMP/sys
P=$SYS/class/aie/aiepart_24_2
mkdir -p "$P"/24_0 "$P"/25_1 "$P"/25_2 "$P"/25_3 "$P"/25_4
printf '%s\n' "channel_status: mm2s: idle|idle, s2mm: idle|idle" "queue_size: mm2s: 0|0, s2mm: 2|0" \
  "queue_status: mm2s: okay|okay, s2mm: okay|okay" "current_bd: mm2s: 0|0, s2mm: 4|0" >"$P/24_0/dma"
printf '%s\n' "status: enable|west_lock_stall" "pc: 0x00000230" "lr: 0x00000000" "sp: 0x00070020" >"$P/25_1/core"
printf '%s\n' "0: 0" "1: 1" >"$P/25_1/lock"
# the event and error files (ai-engine-sysfs-event.c, -error.c): events per
# module, an error asserted in the stalled core, a shim's error file
# outside the driver's format
printf '%s\n' "core: 1|26|28" "memory: " >"$P/25_1/event"
printf '%s\n' "core: bus: axi-mm_slave_error" >"$P/25_1/error"
printf '%s\n' "pl: 5" >"$P/24_0/event"
printf '%s\n' "shim: bus: axi-mm_slave_error" >"$P/24_0/error"
printf 'status: enable|core_processor_bus_sta' >"$P/25_2/core"
head -c 6000 /dev/zero | tr '\0' a >"$P/25_3/core"
printf '\001\002garbage' >"$P/25_3/lock"
mkfifo "$P/25_4/core"

xrun() {
  local name=$1 want=$2; shift 2
  AIETH_SYSFS_ROOT=${ROOT:-$SYS} AIETH_XRT_DOUBLE_SPEC=$EX/stall_hang/test.json AIETH_XRT_DOUBLE_LOG=$TMP/$name.log \
    expect "$want" timeout 120 "$RT" --backend xrt --pl-xclbin "$TMP/pl.xclbin" \
    --xclbin "$TMP/aie.xclbin" -o "$TMP/$name" "$@" "$EX/stall_hang/test.json"
}

# --- the stall (the double's emulated board stalls; XRT's wait returns)
start=$(date +%s)
AIETH_AIE_STATE_TIMEOUT_MS=1000 xrun stall 5
(( $(date +%s) - start < 60 )) && ok || bad "stall: not bounded in time"
R=$TMP/stall/report.json
A=$TMP/stall/artifacts/aie_state.json
[[ -f $A ]] && ok || bad "no $A"
jqis sysfs '.tests[0].aie_state.source' "$R"
jqis 2 '.tests[0].aie_state.tiles | length' "$R"
jqis core '.tests[0].aie_state.tiles[] | select(.col == 25 and .row == 1) | .kind' "$R"
jqis 'Enable Lock_Stall_W' '.tests[0].aie_state.tiles[] | select(.col == 25) | .status | join(" ")' "$R"
jqis 0x00000230 '.tests[0].aie_state.tiles[] | select(.col == 25) | .pc' "$R"
jqis '0 1' '.tests[0].aie_state.tiles[] | select(.col == 25) | .locks | map(tostring) | join(" ")' "$R"
jqis shim '.tests[0].aie_state.tiles[] | select(.col == 24) | .kind' "$R"
jqis 2 '.tests[0].aie_state.tiles[] | select(.col == 24) | .dma.s2mm[0].queue_size' "$R"
jqis 4 '.tests[0].aie_state.tiles[] | select(.col == 24) | .dma.s2mm[0].current_bd' "$R"
jqis true '.tests[0].aie_state.tiles[] | select(.col == 24) | .stuck' "$R"
# the artifact is the same object
diff <(jq -S . "$A") <(jq -S '.tests[0].aie_state' "$R") >/dev/null && ok || bad "artifact differs from report.json's aie_state"
# the words, in the summary and in the hang message
has "$A" "graph gr: core (25,1) stalled on lock acquire (west) (PC 0x230)"
has "$A" "DMA S2MM 0 of shim (24,0) idle with 2 BDs queued (current BD 4)"
has "$R" "were reset; AI Engine: DMA S2MM 0 of shim (24,0) idle with 2 BDs queued"
has "$R" "were reset"
# every bad file a note naming it
has "$A" "25_2/core: line 1: core status flag 'core_processor_bus_sta' is unknown"
has "$A" "25_3/core: larger than 4096 bytes"
has "$A" "25_3/lock: byte 0 is 0x01: not text"
has "$A" "25_4/core: no answer within the deadline"
has "$A" "24_0/error: line 1: 'shim: bus: axi-mm_slave_error' is not 'core:', 'memory:' or 'pl:'"
# events and errors per tile, and the error in the words
jqis '1 26 28' '.tests[0].aie_state.tiles[] | select(.col == 25) | .events.core | map(tostring) | join(" ")' "$R"
jqis 0 '.tests[0].aie_state.tiles[] | select(.col == 25) | .events.memory | length' "$R"
jqis 5 '.tests[0].aie_state.tiles[] | select(.col == 24) | .events.pl[0]' "$R"
jqis 'core bus axi-mm_slave_error' '.tests[0].aie_state.tiles[] | select(.col == 25) | .errors[0] | "\(.module) \(.category) \(.name)"' "$R"
jqis null '.tests[0].aie_state.tiles[] | select(.col == 24) | .errors' "$R"
has "$A" "graph gr: core (25,1) stalled on lock acquire (west) (PC 0x230), errors: core bus axi-mm_slave_error"
# within the state read's own deadline (AIETH_AIE_STATE_TIMEOUT_MS=1000)
left=$(jq -r '.notes[] | select(test("25_4/core")) | capture("\\((?<ms>[0-9]+) ms left").ms' "$A")
[[ -n $left && $left -lt 1000 ]] && ok || bad "the FIFO's deadline: '$left' ms left, expected < 1000"
has "$TMP/stall.log" "aie_reset_array"
# report.html draws the tiles read, the stuck ones marked, and the words
H=$TMP/stall/report.html
has "$H" "AI Engine array at the hang"
has "$H" "<title>core (25,1) stuck</title>"
has "$H" "<title>shim (24,0) stuck</title>"
has "$H" "<li>graph gr: core (25,1) stalled on lock acquire (west) (PC 0x230), errors: core bus axi-mm_slave_error</li>"
[[ $(grep -c 'fill="#d33"' "$H") -eq 2 ]] && ok || bad "report.html: not 2 stuck tiles marked"
# the grid's columns (24, 25) and rows (0, 1: the tiles read) numbered, the kinds lettered
has "$H" 'text-anchor="middle" fill="#555">25</text>'
has "$H" 'text-anchor="end" fill="#555">1</text>'
has "$H" 'fill="#fff">C</text><title>core (25,1) stuck</title>'
has "$H" "C core, M memory, S shim tile; red: stuck"

# the text output: the words beside the channels' table
has "$TMP/out" "   AI Engine (sysfs):"
has "$TMP/out" "     graph gr: core (25,1) stalled on lock acquire (west) (PC 0x230)"

# --- the tree written by the double from its stalled graph model (a
# board's driver would show it): the stuck core above the PLIOs' shim
# column and the shim's S2MM with BDs queued, named in the report
rm -rf "$TMP/dsys"
AIETH_XRT_DOUBLE_SYSFS=$TMP/dsys ROOT=$TMP/dsys xrun dsys 5
D=$TMP/dsys/class/aie/aiepart_6_1
[[ -f $D/6_1/core && -f $D/6_1/lock && -f $D/6_0/dma ]] && ok || bad "the double wrote no tree: $(find "$TMP/dsys" 2>&1 | head -5)"
has "$D/6_1/core" "status: enabled|south_lock_stall"
has "$TMP/dsys.log" "sysfs $TMP/dsys: written"
jqis sysfs '.tests[0].aie_state.source' "$TMP/dsys/report.json"
jqis 'Enable Lock_Stall_S' '.tests[0].aie_state.tiles[] | select(.row == 1) | .status | join(" ")' "$TMP/dsys/report.json"
jqis 2 '.tests[0].aie_state.tiles[] | select(.row == 0) | .dma.s2mm[0].queue_size' "$TMP/dsys/report.json"
jqis '[]' '.tests[0].aie_state.notes | tostring' "$TMP/dsys/report.json"
has "$TMP/dsys/report.json" "AI Engine: DMA S2MM 0 of shim (6,0) idle with 2 BDs queued (current BD 4); graph gr: core (6,1) stalled on lock acquire (south) (PC 0x230)"
has "$TMP/out" "     graph gr: core (6,1) stalled on lock acquire (south) (PC 0x230)"
has "$TMP/dsys/report.html" "<title>core (6,1) stuck</title>"

# --- no AI Engine driver: a note, the hang reported as before
ROOT=$TMP/nosys xrun nosys 5
has "$TMP/nosys/artifacts/aie_state.json" "class/aie: not there"
jqis 0 '.tests[0].aie_state.tiles | length' "$TMP/nosys/report.json"
has "$TMP/nosys/report.json" "were reset"

# --- XRT's own aie_status file (xrt.ini [Debug] aie_status=true) when the
# driver's files give nothing: XRT writes it in the session folder and
# rewrites it as it runs; here one in its writer's shape is planted in the
# artifacts folder, dated within the session (the double writes its own
# only when the device closes, after the reset)
printf '[Debug]\naie_status=true\n' >"$TMP/xrt.ini"
XS=aie_status_edge_2026_12_02_101500.json
mkdir -p "$TMP/xst/artifacts"
cp "$S/tests/data/aie_status/$XS" "$TMP/xst/artifacts/"
touch -d '+1 hour' "$TMP/xst/artifacts/$XS"
ROOT=$TMP/nosys xrun xst 5 --xrt-ini "$TMP/xrt.ini"
R=$TMP/xst/report.json
A=$TMP/xst/artifacts/aie_state.json
jqis xrt-aie-status '.tests[0].aie_state.source' "$R"
jqis 2 '.tests[0].aie_state.tiles | length' "$R"
jqis core '.tests[0].aie_state.tiles[] | select(.col == 25 and .row == 1) | .kind' "$R"
jqis 'Enable Lock_Stall_W' '.tests[0].aie_state.tiles[] | select(.col == 25) | .status | join(" ")' "$R"
jqis 'acquired_for_write released_for_write' '.tests[0].aie_state.tiles[] | select(.col == 25) | .locks | join(" ")' "$R"
jqis stalled_on_requesting_lock '.tests[0].aie_state.tiles[] | select(.col == 25) | .dma.s2mm[0].status' "$R"
jqis 2 '.tests[0].aie_state.tiles[] | select(.col == 24 and .kind == "shim") | .dma.s2mm[0].queue_size' "$R"
has "$A" "class/aie: not there"
has "$A" "the driver's sysfs files gave no tile: XRT's $XS read instead"
has "$A" "graph gr: core (25,1) stalled on lock acquire (west) (PC 0x230), errors: core bus axi-mm_slave_error"
has "$R" "AI Engine: graph gr: core (25,1) stalled on lock acquire (west)"
has "$TMP/xst/report.html" "<title>core (25,1) stuck</title>"
# both there: the sysfs state is used, and the note says so
mkdir -p "$TMP/xboth/artifacts"
cp "$S/tests/data/aie_status/$XS" "$TMP/xboth/artifacts/"
touch -d '+1 hour' "$TMP/xboth/artifacts/$XS"
xrun xboth 5 --xrt-ini "$TMP/xrt.ini"
jqis sysfs '.tests[0].aie_state.source' "$TMP/xboth/report.json"
has "$TMP/xboth/artifacts/aie_state.json" "XRT's $XS is there too: not used (the driver's sysfs files come first)"
# a file cut short (XRT rewrites it in place): a note, the hang as before
mkdir -p "$TMP/xcut/artifacts"
head -c 2000 "$S/tests/data/aie_status/$XS" >"$TMP/xcut/artifacts/$XS"
touch -d '+1 hour' "$TMP/xcut/artifacts/$XS"
ROOT=$TMP/nosys xrun xcut 5 --xrt-ini "$TMP/xrt.ini"
jqis 0 '.tests[0].aie_state.tiles | length' "$TMP/xcut/report.json"
has "$TMP/xcut/artifacts/aie_state.json" "cut short"
has "$TMP/xcut/report.json" "were reset"
# one written before the session is another run's: not taken
mkdir -p "$TMP/xold/artifacts"
cp "$S/tests/data/aie_status/$XS" "$TMP/xold/artifacts/"
touch -d '-1 hour' "$TMP/xold/artifacts/$XS"
ROOT=$TMP/nosys xrun xold 5 --xrt-ini "$TMP/xrt.ini"
jqis sysfs '.tests[0].aie_state.source' "$TMP/xold/report.json"
jqis 0 '.tests[0].aie_state.tiles | length' "$TMP/xold/report.json"

# --- the read turned off: no aie_state
AIETH_AIE_STATE_TIMEOUT_MS=0 xrun off 5
jqis null '.tests[0].aie_state' "$TMP/off/report.json"
[[ ! -e $TMP/off/artifacts/aie_state.json ]] && ok || bad "off: aie_state.json written"

# --- the emulated board says which graph model port is stuck and on
# what, in the same structure (no tiles: ports) and words
expect 5 "$RT" -o "$TMP/emu" "$EX/stall_hang/test.json"
R=$TMP/emu/report.json
A=$TMP/emu/artifacts/aie_state.json
[[ -f $A ]] && ok || bad "emu: no $A"
diff <(jq -S . "$A") <(jq -S '.tests[0].aie_state' "$R") >/dev/null && ok || bad "emu: artifact differs from report.json's aie_state"
jqis emulator '.tests[0].aie_state.source' "$R"
jqis gr '.tests[0].aie_state.graph' "$R"
jqis 0 '.tests[0].aie_state.tiles | length' "$R"
jqis 625000000 '.tests[0].aie_state.cycle' "$R"
jqis 'gr adder adder 0 PLIO_01_TO_AIE to_aie|gr adder adder 1 PLIO_02_TO_AIE to_aie|gr adder adder 0 PLIO_01_FROM_AIE from_aie' \
  '[.tests[0].aie_state.ports[] | [.graph, .kernel, .model, (.port | tostring), .plio, .direction] | join(" ")] | join("|")' "$R"
jqis 'waiting for the kernel,true,1280,4096,9,32,1000000072,6,0' \
  '.tests[0].aie_state.ports[0] | [.state, .stuck, .bytes, .expected_bytes, .iteration, .iterations, .busy_until_cycle, .shim_column, .shim_channel] | map(tostring) | join(",")' "$R"
jqis '1024 of 4096' '.tests[0].aie_state.ports[2] | "\(.bytes) of \(.expected_bytes)"' "$R"
jqis 3 '.tests[0].aie_state.summary | length' "$R"
has "$A" "graph gr: adder input 0 (PLIO_01_TO_AIE, 1280 of 4096 bytes moved) waiting for the kernel, inside iteration 9 of 32 until cycle 1000000072 (it computes, or is stuck in its code)"
has "$A" "graph gr: adder output 0 (PLIO_01_FROM_AIE, 1024 of 4096 bytes moved) waiting for the kernel"
# the hang message: the same words, after the timeout
has "$R" "the 2000 ms timeout; AI Engine at the timeout: graph gr: adder input 0 (PLIO_01_TO_AIE, 1280 of 4096 bytes moved) waiting for the kernel, inside iteration 9 of 32"
# the text: an "AI Engine" block of one line per sentence
has "$TMP/out" "   AI Engine (emulator):"
has "$TMP/out" "     graph gr: adder output 0 (PLIO_01_FROM_AIE, 1024 of 4096 bytes moved) waiting for the kernel"
# report.html: the ports as a table (no tiles to draw), the stuck marked,
# the words, and the verdict in the error box
H=$TMP/emu/report.html
has "$H" "<h3>AI Engine graph models at the hang (emulator)</h3>"
[[ $(grep -c '<tr class="stuck">' "$H") -eq 3 ]] && ok || bad "report.html: not 3 stuck ports marked"
has "$H" "<td>PLIO_01_FROM_AIE</td><td>from</td><td>waiting for the kernel</td><td>1024 of 4096</td><td>9 of 32</td>"
has "$H" "<li>graph gr: adder input 1 (PLIO_02_TO_AIE, 1280 of 4096 bytes moved) waiting for the kernel</li>"
has "$H" "<b>verdict: stall</b> (the graph stopped before its iterations were done"
grep -q '<svg class="aie"' "$H" && bad "report.html: an array grid drawn without tiles" || ok

# --- through th_server (backend xrt, the double writing its tree on the
# server's side): the remote report has the server board's state, fetched
# right after the hang, and the words
th_server_setup
mkdir -p "$TMP/data/xclbin" "$TMP/work"
ln -s "$S/platforms" "$TMP/data/platforms"
ln -s "$S/cfg" "$TMP/data/cfg"
cp "$TMP/pl.xclbin" "$TMP/data/xclbin/vck190_test_harness.xclbin"
AIETH_XRT_DOUBLE_SYSFS=$TMP/ssys AIETH_SYSFS_ROOT=$TMP/ssys AIETH_XRT_DOUBLE_SPEC=$EX/stall_hang/test.json \
  AIETH_XRT_DOUBLE_LOG=$TMP/srv.double.log start_server "$TMP/srv.log" --backend xrt \
  --data-dir "$TMP/data" --work-dir "$TMP/work"
expect 5 timeout 120 env -u AIETH_SYSFS_ROOT "$RT" --backend remote --server "$U" \
  --xclbin "$TMP/aie.xclbin" -o "$TMP/rem" "$EX/stall_hang/test.json"
jqis sysfs '.tests[0].aie_state.source' "$TMP/rem/report.json"
jqis 'Enable Lock_Stall_S' '.tests[0].aie_state.tiles[] | select(.row == 1) | .status | join(" ")' "$TMP/rem/report.json"
has "$TMP/rem/artifacts/aie_state.json" "graph gr: core (6,1) stalled on lock acquire (south) (PC 0x230)"
has "$TMP/out" "     graph gr: core (6,1) stalled on lock acquire (south) (PC 0x230)"

# report.json with aie_state keeps to the schema
/usr/bin/python3 "$S/tests/e2e/validate_schema.py" "$S/docs/report.schema.json" \
  "$TMP/stall/report.json" "$TMP/nosys/report.json" "$TMP/dsys/report.json" "$TMP/emu/report.json" "$TMP/xst/report.json" "$TMP/rem/report.json" >"$TMP/schema.out" 2>&1 &&
  ok || { bad "aie_state: report.json breaks docs/report.schema.json"; cat "$TMP/schema.out" >&2; }

finish
