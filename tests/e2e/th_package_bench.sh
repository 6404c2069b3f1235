#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The th_package benchmark runs and prints its figures (nothing about speed asserted).
. "$(dirname "$0")/lib.sh"
expect 0 "$B/tests/bench_package" --quick
has "$TMP/out" "th_package on a 8 MiB graph archive"
has "$TMP/out" "ratio package / cp:"
has "$TMP/out" "peak memory: packager"
has "$TMP/out" "prebuilt --pdi (no bootgen)"
has "$TMP/out" "CDO members, warm PDI cache"
has "$TMP/out" "th_package's own part of the cold run"
expect 2 "$B/tests/bench_package" --bogus
has "$TMP/err" "usage: bench_package"
finish
