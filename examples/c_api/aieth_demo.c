/* SPDX-License-Identifier: MIT */
/*
 * aieth_demo.c - a small program on the libaieth API: opens an emulated
 * board, runs a loopback graph, sends data through PLIOs in PERF and FUNC
 * mode, checks what came back and prints per-channel counters.
 *
 *   aieth_demo [--board vck190|vek280|vek385] [--channels N] [--size BYTES]
 *              [--replay R] [--reference]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aieth_demo [--board NAME] [--channels N] [--size BYTES] [--replay R] "
		"[--reference]\n"
		"  Runs a loopback graph on the emulated board in PERF and FUNC mode and\n"
		"  prints per-channel cycle counters and throughput.\n"
		"  --board      vck190 (default), vek280, vek385, or a board JSON path\n"
		"  --channels   PLIO pairs to use (default 4)\n"
		"  --size       bytes per channel and repetition, multiple of 16 (default 65536)\n"
		"  --replay     PERF repetitions (default 10)\n"
		"  --reference  beat-by-beat emulator mode (slow; same results)\n"
		"  Board files come from $AIETH_DATA_DIR, else next to the program or the\n"
		"  library (PREFIX/share/aieth when installed, the source tree from build/).\n");
}

static int fail(const char *what, int rc)
{
	fprintf(stderr, "aieth_demo: %s: %s (%s)\n", what, aieth_error_message(),
		aieth_error_name(rc));
	return 1;
}

static void print_table(aieth_txn *t)
{
	size_t i;
	printf("  %-18s %10s %10s %10s %10s %9s %6s\n", "PLIO", "bytes", "first", "last", "cycles",
	       "MB/s", "%peak");
	for (i = 0; i < aieth_txn_num_channels(t); i++) {
		aieth_channel_result r;
		if (aieth_txn_channel(t, i, &r))
			continue;
		printf("  %-18s %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
		       " %9.1f %6.1f\n",
		       r.plio.name, r.bytes_moved, r.first_cycle, r.last_cycle, r.cycles,
		       r.mb_per_s, r.utilisation_pct);
	}
}

/* One transaction: channels 1..n TO_AIE and FROM_AIE. Returns mismatches. */
static int run_mode(aieth_session *s, aieth_mode mode, unsigned n, uint64_t size, uint64_t reps,
		    long *mismatches)
{
	aieth_channel_args *a = calloc(2 * n, sizeof *a);
	uint8_t **buf = calloc(2 * n, sizeof *buf);
	char(*names)[32] = calloc(2 * n, sizeof *names);
	aieth_txn *t = NULL;
	const aieth_board_info *bi = aieth_board_get_info(aieth_session_board(s));
	uint64_t cmp = size < (uint64_t)bi->uram_depth_words * 16 || mode == AIETH_MODE_FUNC
			       ? size
			       : (uint64_t)bi->uram_depth_words * 16;
	unsigned i;
	int rc = 1;
	uint64_t j;

	if (!a || !buf || !names)
		goto out;
	for (i = 0; i < 2 * n; i++) {
		buf[i] = malloc(size);
		if (!buf[i])
			goto out;
		snprintf(names[i], sizeof names[i], "PLIO_%02u_%s_AIE", i % n + 1,
			 i < n ? "TO" : "FROM");
		a[i].plio = names[i];
		a[i].size = size;
		a[i].repetition = reps;
		a[i].delay = i < n ? 0 : 100;
		a[i].data = buf[i];
		for (j = 0; j < size; j++)
			buf[i][j] = i < n ? (uint8_t)(j * 7 + i) : 0;
	}
	if ((rc = aieth_txn_submit(s, mode, a, 2 * n, &t))) {
		fail("submit", rc);
		goto out;
	}
	if ((rc = aieth_txn_wait(t, 10000))) {
		fail("wait", rc);
		goto out;
	}
	printf("%s transaction: %s, %" PRIu64 " board cycles, result %s\n",
	       mode == AIETH_MODE_PERF ? "PERF" : "FUNC",
	       aieth_txn_status_name(aieth_txn_get_status(t)), aieth_txn_total_cycles(t),
	       aieth_txn_is_valid(t) ? "valid" : "not valid");
	if (aieth_txn_message(t)[0])
		printf("  note: %s\n", aieth_txn_message(t));
	print_table(t);
	/* loopback: RX k holds what TX k sent (PERF: the last repetition).
	 * Beyond the URAM the board sends filler, so there is nothing to check. */
	if (!aieth_txn_is_valid(t)) {
		printf("  data check skipped: the result is not valid\n");
	} else {
		for (i = 0; i < n; i++)
			for (j = 0; j < cmp; j++)
				*mismatches += buf[n + i][j] != buf[i][j];
	}
	rc = 0;
out:
	aieth_txn_free(t);
	for (i = 0; buf && i < 2 * n; i++)
		free(buf[i]);
	free(buf);
	free(a);
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	const char *board = "vck190";
	unsigned n = 4;
	uint64_t size = 65536, reps = 10;
	int reference = 0, i, rc;
	long mism = 0;
	aieth_graph_spec g = {"loopback_graph", "loopback", NULL};
	aieth_session_opts o;
	aieth_emu_opts emu = AIETH_EMU_OPTS_INIT; /* the emulated board's own options */
	aieth_session *s;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--board") && i + 1 < argc)
			board = argv[++i];
		else if (!strcmp(argv[i], "--channels") && i + 1 < argc)
			n = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--size") && i + 1 < argc)
			size = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--replay") && i + 1 < argc)
			reps = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--reference"))
			reference = 1;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "aieth_demo: unknown option %s\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	aieth_session_opts_init(&o, AIETH_SESSION_OPTS_VERSION);
	o.board = board;
	o.graphs = &g;
	o.num_graphs = 1;
	emu.reference = reference;
	o.emu = &emu;
	if ((rc = aieth_session_open(&s, &o)))
		return fail("open", rc) + 1;
	printf("aieth %s: emulated %s, loopback graph on %u PLIO pairs, %" PRIu64
	       " bytes x %" PRIu64 "\n",
	       aieth_version(), aieth_board_get_info(aieth_session_board(s))->name, n, size, reps);
	if ((rc = aieth_graph_run(s, g.name, AIETH_ITERATIONS_FOREVER)))
		return fail("graph run", rc);
	if (run_mode(s, AIETH_MODE_PERF, n, size, reps, &mism) ||
	    run_mode(s, AIETH_MODE_FUNC, n, size, 1, &mism)) {
		aieth_session_close(s);
		return 3;
	}
	aieth_graph_end(s, g.name);
	aieth_session_close(s);
	printf("data check: %ld mismatching bytes -> %s\n", mism, mism ? "FAIL" : "PASS");
	return mism ? 1 : 0;
}
