/*
 * bench.c - `make bench`: figures printed, nothing asserted.
 *
 *  memcpy   this machine's memcpy bandwidth (best of several 256 MiB copies)
 *  (a)      VCK190 PERF, 36 TX + 36 RX loopback channels, 64 KiB each,
 *           replay 1000: emulator wall time, simulated bytes per wall second,
 *           simulated board time / wall time (goal >= 1)
 *  (b)      FUNC, 1 GiB through one loopback channel pair: wall time, data
 *           rate, data rate / memcpy bandwidth (goal >= 0.5)
 *
 * Options: --quick (smaller sizes, for a smoke run), --only a|b|memcpy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aieth.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int die(const char *what)
{
	fprintf(stderr, "bench: %s: %s\n", what, aieth_error_message());
	return 1;
}

static double bench_memcpy(size_t bytes)
{
	char *a = malloc(bytes), *b = malloc(bytes);
	double best = 0;
	int i;
	if (!a || !b) {
		free(a);
		free(b);
		return 0;
	}
	memset(a, 1, bytes);
	memset(b, 2, bytes); /* fault the pages in before timing */
	for (i = 0; i < 5; i++) {
		double t0 = now(), dt;
		memcpy(b, a, bytes);
		dt = now() - t0;
		if ((double)bytes / dt > best)
			best = (double)bytes / dt;
		a[i] = b[bytes - 1 - (size_t)i]; /* keep the copies observable */
	}
	free(a);
	free(b);
	return best;
}

static aieth_session *open_loopback(const char *board)
{
	aieth_graph_spec g = {"gr", "loopback", NULL};
	aieth_session_opts o;
	aieth_session *s = NULL;
	memset(&o, 0, sizeof o);
	o.board = board;
	o.graphs = &g;
	o.num_graphs = 1;
	if (aieth_session_open(&s, &o) || aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER)) {
		die("open");
		aieth_session_close(s);
		return NULL;
	}
	return s;
}

static int bench_a(uint64_t reps)
{
	aieth_session *s = open_loopback("vck190");
	aieth_channel_args a[72];
	char names[72][32];
	static uint8_t buf[72][65536];
	aieth_txn *t;
	double t0, wall, board, bytes;
	uint64_t cycles;
	int i;

	if (!s)
		return 1;
	for (i = 0; i < 72; i++) {
		snprintf(names[i], sizeof names[i], "PLIO_%02d_%s_AIE", i % 36 + 1,
			 i < 36 ? "TO" : "FROM");
		a[i].plio = names[i];
		a[i].size = sizeof buf[i];
		a[i].repetition = reps;
		a[i].delay = 0;
		a[i].data = buf[i];
		memset(buf[i], i, sizeof buf[i]);
	}
	t0 = now();
	if (aieth_txn_submit(s, AIETH_MODE_PERF, a, 72, &t) || aieth_txn_wait(t, 0))
		return die("(a) transaction");
	wall = now() - t0;
	if (aieth_txn_get_status(t) != AIETH_TXN_DONE) {
		fprintf(stderr, "bench: (a) %s: %s\n", aieth_txn_status_name(aieth_txn_get_status(t)),
			aieth_txn_message(t));
		return 1;
	}
	cycles = aieth_txn_total_cycles(t);
	board = (double)cycles / 312.5e6;
	bytes = 72.0 * 65536.0 * (double)reps;
	printf("(a) VCK190 PERF 36+36 loopback, 64 KiB x %llu replays: %.0f MB moved\n",
	       (unsigned long long)reps, bytes / 1e6);
	printf("    board time %.3f ms (%llu cycles), emulator wall time %.3f ms\n", board * 1e3,
	       (unsigned long long)cycles, wall * 1e3);
	printf("    simulated bytes per wall second: %.1f GB/s\n", bytes / wall / 1e9);
	printf("    ratio board time / wall time: %.1f (goal >= 1)\n", board / wall);
	aieth_txn_free(t);
	aieth_session_close(s);
	return 0;
}

static int bench_b(uint64_t bytes, double memcpy_bps)
{
	aieth_session *s = open_loopback("vck190");
	uint8_t *tx = malloc(bytes), *rx = malloc(bytes);
	aieth_channel_args a[2];
	aieth_txn *t;
	double t0, wall = 0, rate;
	uint64_t i;
	int bad;

	if (!s || !tx || !rx) {
		fprintf(stderr, "bench: (b) out of memory\n");
		return 1;
	}
	for (i = 0; i < bytes; i += 4096)
		tx[i] = (uint8_t)(i >> 12);
	/* fault the pages in outside the timing (non-zero: malloc+memset(0)
	 * may become calloc, which touches nothing) */
	memset(rx, 0xA5, bytes);
	a[0] = (aieth_channel_args){"PLIO_01_TO_AIE", bytes, 1, 0, tx};
	a[1] = (aieth_channel_args){"PLIO_01_FROM_AIE", bytes, 1, 0, rx};
	/* best of 3, as for memcpy: the machine may be busy */
	for (int rep = 0; rep < 3; rep++) {
		double dt;
		t0 = now();
		if (aieth_txn_submit(s, AIETH_MODE_FUNC, a, 2, &t) || aieth_txn_wait(t, 0))
			return die("(b) transaction");
		dt = now() - t0;
		if (rep == 0 || dt < wall)
			wall = dt;
		if (rep < 2)
			aieth_txn_free(t);
	}
	bad = aieth_txn_get_status(t) != AIETH_TXN_DONE || memcmp(tx, rx, bytes) != 0;
	rate = (double)bytes / wall;
	printf("(b) FUNC %.0f MiB through one loopback pair: wall time %.3f s (best of 3), board "
	       "time %.3f s\n",
	       (double)bytes / 1048576.0, wall, (double)aieth_txn_total_cycles(t) / 312.5e6);
	printf("    data rate %.2f GB/s; ratio data rate / memcpy: %.2f (goal >= 0.5)%s\n",
	       rate / 1e9, memcpy_bps > 0 ? rate / memcpy_bps : 0.0,
	       bad ? "  [DATA MISMATCH]" : "");
	aieth_txn_free(t);
	aieth_session_close(s);
	free(tx);
	free(rx);
	return bad;
}

int main(int argc, char **argv)
{
	int quick = 0, rc = 0, i;
	const char *only = NULL;
	double mc = 0;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = 1;
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else {
			fprintf(stderr, "usage: bench [--quick] [--only memcpy|a|b]\n");
			return 2;
		}
	}
	printf("aieth %s benchmark%s\n", aieth_version(), quick ? " (quick)" : "");
	if (!only || strcmp(only, "a")) {
		mc = bench_memcpy(quick ? (16u << 20) : (256u << 20));
		printf("memcpy bandwidth: %.2f GB/s (best of 5 x %u MiB)\n", mc / 1e9,
		       quick ? 16u : 256u);
	}
	if (!only || !strcmp(only, "a"))
		rc |= bench_a(quick ? 10 : 1000);
	if (!only || !strcmp(only, "b"))
		rc |= bench_b(quick ? (64ull << 20) : (1ull << 30), mc);
	return rc;
}
