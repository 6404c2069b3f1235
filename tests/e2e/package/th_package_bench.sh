#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The th_package benchmark runs and prints its figures (nothing about speed asserted).
. "$(dirname "$0")/../lib.sh"
# sanitizer builds: LeakSanitizer cannot run in a process strace traces
# (it stops the world with ptrace itself), and the counts need strace
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
expect 0 "$B/tests/bench_package" --quick
has "$TMP/out" "th_package on a 8 MiB graph archive"
has "$TMP/out" "ratio package / cp:"
has "$TMP/out" "peak memory: packager"
has "$TMP/out" "prebuilt --pdi (no bootgen)"
has "$TMP/out" "CDO members, warm PDI cache"
has "$TMP/out" "th_package's own part of the cold run"
has "$TMP/out" "host: "
has "$TMP/out" "figures that do not depend on the host"
# the counts are exact, unlike the times: with strace, a prebuilt PDI goes
# into the xclbin without passing through user memory (copy_file_range);
# what is left is the archive's and the XSA's headers (about 1.1 MiB of
# the 8 MiB; a copy through a buffer would be 2 per byte, from a mapping 1)
if command -v strace >/dev/null; then
	has "$TMP/out" "system calls"
	has "$TMP/out" "page faults"
	c=$(awk '/^prebuilt --pdi/ && /user-space copies/ {print $7}' "$TMP/out")
	if [[ -n $c ]] && awk -v c="$c" 'BEGIN {exit !(c < 0.5)}'; then ok; else
		bad "prebuilt --pdi: user-space copies per byte: expected < 0.5, found '$c'"
	fi
	# the CDO walk costs no system call per command: a --pdi run and a
	# stamped warm hit make about as many per MiB as cp of the same PDI
	# (the walk once made one read per DMA write: 146 and 84 against cp's 21),
	# futex calls left out: how many of its threads' waits find the other
	# one behind depends on the schedule (an 8 MiB --pdi run: 0 to 79 of them
	# here, with everything else the same from run to run)
	calls() { awk -v l="$1" 'index($0, l) == 1 && /user-space copies/ {f = 1} f && /without futex .* per MiB/ {print $(NF - 2); exit}' "$TMP/out"; }
	cp_calls=$(calls "cp of the PDI")
	for l in "prebuilt --pdi" "warm PDI cache (direct hit)"; do
		c=$(calls "$l")
		if [[ -n $c && -n $cp_calls ]] && awk -v c="$c" -v k="$cp_calls" 'BEGIN {exit !(c < 2 * k)}'; then ok; else
			bad "$l: system calls per MiB: expected below twice cp's ($cp_calls), found '$c'"
		fi
	done
fi
expect 2 "$B/tests/bench_package" --bogus
has "$TMP/err" "usage: bench_package"
finish
