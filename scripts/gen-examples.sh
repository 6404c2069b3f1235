#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerate the example test descriptions' data and golden files under
# examples/. Deterministic (awk only); the output is committed.
#   scripts/gen-examples.sh          write the files
#   scripts/gen-examples.sh --check  regenerate into a temporary folder and
#                                    compare with examples/
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dest=$top/examples
check=0
if [[ ${1:-} == --check ]]; then
  check=1
  dest=$(mktemp -d)
  trap 'rm -rf "$dest"' EXIT
fi

# int32 text, 4 values (one 128-bit beat) per line: gen N A B -> A*i + B
ints() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { for (i = 0; i < n; i++) printf "%d%s", a*i + b, (i % 4 == 3) ? "\n" : " " }'; }
# element-wise sum of two such sequences
sums() { awk -v n="$1" -v a="$2" -v b="$3" -v c="$4" -v d="$5" 'BEGIN { for (i = 0; i < n; i++) printf "%d%s", (a*i + b) + (c*i + d), (i % 4 == 3) ? "\n" : " " }'; }

for ex in adder_perf adder_func stall_hang; do
  mkdir -p "$dest/$ex"
  n=$([[ $ex == adder_func ]] && echo 4096 || echo 1024)
  ints "$n" 3 -1000 > "$dest/$ex/in0.txt"
  ints "$n" 7 5 > "$dest/$ex/in1.txt"
  sums "$n" 3 -1000 7 5 > "$dest/$ex/golden.txt"
done

# tiling: an 8x8 int32 matrix (value = 100*row + col) and the order in
# which 4x4 tiles visit it (tiles left-right, then top-bottom)
mkdir -p "$dest/tiling"
awk 'BEGIN { for (r = 0; r < 8; r++) for (c = 0; c < 8; c++) printf "%d%s", 100*r + c, (c % 4 == 3) ? "\n" : " " }' > "$dest/tiling/matrix.txt"
awk 'BEGIN { for (tr = 0; tr < 2; tr++) for (tc = 0; tc < 2; tc++) for (r = 0; r < 4; r++) for (c = 0; c < 4; c++) printf "%d%s", 100*(4*tr + r) + 4*tc + c, (c == 3) ? "\n" : " " }' > "$dest/tiling/tile_order.txt"

# 36 + 36 loopback channels on VCK190, random data per channel
{
  printf '{\n  "schema": "aieth-test/1",\n  "name": "loopback_perf_vck190",\n'
  printf '  "description": "All 36 TX and 36 RX PLIOs of the VCK190 PL DMA engine in PERF mode: 64 KiB per channel replayed 100 times through a loopback graph; every channel checked against its seeded random data.",\n'
  printf '  "board": "vck190",\n  "graphs": [{"name": "loopback", "model": "loopback"}],\n'
  printf '  "transactions": [{\n    "name": "all_channels",\n    "mode": "perf",\n    "timeout_ms": 5000,\n    "channels": [\n'
  for k in $(seq 1 36); do
    printf '      {"plio": "PLIO_%02d_TO_AIE", "size": 65536, "repetition": 100, "data": {"pattern": "random", "seed": %d}},\n' "$k" "$k"
  done
  for k in $(seq 1 36); do
    sep=$([[ $k -lt 36 ]] && echo , || echo)
    printf '      {"plio": "PLIO_%02d_FROM_AIE", "size": 65536, "repetition": 100, "golden": {"pattern": "random", "seed": %d}, "min_throughput_MBps": 4900}%s\n' "$k" "$k" "$sep"
  done
  printf '    ]\n  }]\n}\n'
} > "$dest/loopback_perf_vck190.json.tmp"
mkdir -p "$dest/loopback_perf_vck190"
mv "$dest/loopback_perf_vck190.json.tmp" "$dest/loopback_perf_vck190/test.json"

if [[ $check -eq 1 ]]; then
  fail=0
  for f in $(cd "$dest" && find . -type f | sort); do
    if ! cmp -s "$dest/$f" "$top/examples/$f"; then echo "gen-examples: examples/${f#./} is out of date"; fail=1; fi
  done
  [[ $fail -eq 0 ]] && echo "gen-examples: up to date"
  exit $fail
fi
echo "gen-examples: wrote examples/"
