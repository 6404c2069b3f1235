/* SPDX-License-Identifier: MIT */
/*
 * test_engine.c - the emulated board's cycle model: hand-computed timings,
 * and the fast mode cross-checked against the beat-by-beat reference mode on
 * many randomized small cases (delays, replays, sizes around the URAM depth,
 * stalling graphs, FUNC memory contention, data carried across transactions).
 */
#include <stdlib.h>
#include <string.h>

#include "pl_dma/engine.h"
#include "pld/protocol.h"
#include "tu.h"

/* ------------------------------------------------------------ test kernels */

/* out[q] = in[q % n_in] + iteration index + q (byte-wise): depends on the
 * iteration, so a wrong iteration index or a skipped one shows up. */
typedef struct {
	uint32_t n_in, n_out;
	uint64_t in_bytes[4], out_bytes[4];
} mix_ctx;

static int mix_compute(void *vctx, uint64_t first, uint64_t count, const uint8_t *const *in,
		       uint8_t *const *out)
{
	mix_ctx *c = vctx;
	uint64_t it, b;
	uint32_t q;
	for (it = 0; it < count; it++)
		for (q = 0; q < c->n_out; q++)
			for (b = 0; b < c->out_bytes[q]; b++) {
				uint8_t v = (uint8_t)(first + it + q * 31);
				if (c->n_in) {
					uint32_t p = q % c->n_in;
					v = (uint8_t)(v + in[p][it * c->in_bytes[p] +
								b % c->in_bytes[p]]);
				}
				out[q][it * c->out_bytes[q] + b] = v;
			}
	return 0;
}

static int copy_compute(void *vctx, uint64_t first, uint64_t count, const uint8_t *const *in,
			uint8_t *const *out)
{
	uint64_t bytes = *(uint64_t *)vctx;
	(void)first;
	memcpy(out[0], in[0], count * bytes);
	return 0;
}

static pld_engine_params small_params(void)
{
	pld_engine_params p;
	memset(&p, 0, sizeof p);
	p.channels = 4;
	p.depth = 16;
	p.burst_words = 4;
	p.fifo_depth = 8;
	p.read_latency = 5;
	p.write_latency = 3;
	p.preload_latency = 2;
	p.loop_overhead = 2;
	return p;
}

/* Per-iteration timing (pld_kernel_desc.timing): a start-up table for
 * iterations 0..P-1, then a table repeating every P iterations; with P = 0
 * (aperiodic) a hash of the iteration index. bad_at: that iteration gets
 * 0 cycles (or, with bad_lat, a latency above the limit). */
typedef struct {
	uint64_t P, seed, bad_at;
	int bad_lat, fail;
	uint64_t cyc0[8], lat0[8], cyc[8], lat[8];
} timing_ctx;

static int test_timing(void *vctx, uint32_t kernel, uint64_t first, uint64_t count,
		       uint64_t *cycles, uint64_t *latency)
{
	const timing_ctx *c = vctx;
	uint64_t j;
	(void)kernel;
	if (c->fail)
		return 7;
	for (j = 0; j < count; j++) {
		uint64_t i = first + j;
		if (!c->P) {
			uint64_t h = (i + c->seed) * 0x9E3779B97F4A7C15ull;
			h ^= h >> 31;
			cycles[j] = 1 + (h >> 7) % 7;
			latency[j] = (h >> 17) % 5;
		} else if (i < c->P) {
			cycles[j] = c->cyc0[i];
			latency[j] = c->lat0[i];
		} else {
			cycles[j] = c->cyc[i % c->P];
			latency[j] = c->lat[i % c->P];
		}
		if (c->bad_at && i == c->bad_at) {
			if (c->bad_lat)
				latency[j] = 1000000001ull;
			else
				cycles[j] = 0;
		}
	}
	return 0;
}

/* ------------------------------------------------- hand-computed timings */

static uint64_t copy_bytes = 16;

static pld_engine *loopback_engine(pld_engine_params p, uint64_t window_beats, uint64_t cpi,
				   uint64_t lat, uint32_t pairs)
{
	pld_kernel_desc k[8];
	pld_engine *e = NULL;
	char err[256];
	uint32_t i;
	copy_bytes = window_beats * 16;
	memset(k, 0, sizeof k);
	for (i = 0; i < pairs; i++) {
		k[i].n_in = k[i].n_out = 1;
		k[i].in_chan[0] = k[i].out_chan[0] = i;
		k[i].in_beats[0] = k[i].out_beats[0] = window_beats;
		k[i].cpi = cpi;
		k[i].latency = lat;
		k[i].compute = copy_compute;
		k[i].ctx = &copy_bytes;
	}
	CU_ASSERT_EQUAL_FATAL(aieth__pld_engine_create(&e, &p, k, pairs, 1, err, sizeof err), 0);
	return e;
}

typedef struct {
	pld_txn t;
	pld_run_result r;
	pld_chan_progress tx[8], rx[8];
} run;

static int do_run(pld_engine *e, const pld_engine_params *p, uint64_t mode, pld_arg *a, size_t n,
		  int reference, uint64_t limit, run *out)
{
	char err[256];
	memset(out, 0, sizeof *out);
	if (aieth__pld_txn_encode(&out->t, p->channels, p->depth, mode, a, n, err, sizeof err)) {
		snprintf(out->r.msg, sizeof out->r.msg, "encode: %s", err);
		return -1;
	}
	out->r.tx = out->tx;
	out->r.rx = out->rx;
	return aieth__pld_engine_run(e, &out->t, reference, limit, &out->r);
}

static void test_perf_loopback_full_rate(void)
{
	pld_engine_params p = small_params();
	pld_engine *e = loopback_engine(p, 1, 1, 0, 1);
	uint8_t src[64 * 16], dst[64 * 16];
	pld_arg a[2] = {{0, 0, sizeof src, 1, 3, src, NULL}, {1, 0, sizeof dst, 1, 0, dst, NULL}};
	run r;
	int i, ref;
	for (i = 0; i < (int)sizeof src; i++)
		src[i] = (uint8_t)i;
	for (ref = 0; ref < 2; ref++) {
		aieth__pld_engine_graph_run(e, 0, PLD_FOREVER);
		memset(dst, 0, sizeof dst);
		CU_ASSERT_EQUAL_FATAL(do_run(e, &p, PLD_MODE_PERF, a, 2, ref, 0, &r), 0);
		CU_ASSERT_EQUAL(r.r.status, PLD_RUN_DONE);
		/* TX: first = delay 3; 64 beats at one per cycle: last = 3 + 64 */
		CU_ASSERT_EQUAL(r.tx[0].first, 3);
		CU_ASSERT_EQUAL(r.tx[0].last, 67);
		/* beat at 3 completes window 0 at 4, iteration starts at 4, its
		 * output is ready at 4 + cpi 1 + latency 0 = 5 */
		CU_ASSERT_EQUAL(r.rx[0].first, 5);
		CU_ASSERT_EQUAL(r.rx[0].last, 69);
		/* depth 16 < 64 frames: the URAM holds the last 16 beats by
		 * position; beat g sits at g mod 16, so position 0 holds beat 48 */
		/* beat 48 replays URAM word 0 XOR the filler mask of block 3 */
		CU_ASSERT_EQUAL(dst[0], src[0] ^ 0x03);
		CU_ASSERT_EQUAL(dst[2], src[2] ^ 0x06);
		aieth__pld_txn_release(&r.t);
	}
	aieth__pld_engine_destroy(e);
}

static void test_latency_holds_output_window(void)
{
	/* 1-beat windows, latency 4: an output window is busy from its
	 * iteration's start to its drain, so two windows cover 2 beats per
	 * 1 + 4 + 1 cycles */
	pld_engine_params p = small_params();
	pld_engine *e = loopback_engine(p, 1, 1, 4, 1);
	pld_arg a[2] = {{0, 0, 12 * 16, 1, 0, NULL, NULL}, {1, 0, 12 * 16, 1, 0, NULL, NULL}};
	run r;
	aieth__pld_engine_graph_run(e, 0, PLD_FOREVER);
	CU_ASSERT_EQUAL_FATAL(do_run(e, &p, PLD_MODE_PERF, a, 2, 1, 0, &r), 0);
	CU_ASSERT_EQUAL(r.r.status, PLD_RUN_DONE);
	CU_ASSERT_EQUAL(r.rx[0].first, 6);
	/* beats 2k, 2k+1 received at 6+6k and 7+6k: last beat 11 at 37 */
	CU_ASSERT_EQUAL(r.rx[0].last, 38);
	aieth__pld_txn_release(&r.t);
	aieth__pld_engine_destroy(e);
}

static void test_graph_not_running_stalls(void)
{
	pld_engine_params p = small_params();
	pld_engine *e = loopback_engine(p, 2, 2, 0, 1);
	pld_arg a[2] = {{0, 0, 16 * 16, 1, 0, NULL, NULL}, {1, 0, 16 * 16, 1, 0, NULL, NULL}};
	run r;
	CU_ASSERT_EQUAL_FATAL(do_run(e, &p, PLD_MODE_PERF, a, 2, 0, 0, &r), 0);
	CU_ASSERT_EQUAL(r.r.status, PLD_RUN_STALLED);
	/* two input windows of 2 beats fill, then nothing moves */
	CU_ASSERT_EQUAL(r.tx[0].beats_moved, 4);
	CU_ASSERT_EQUAL(r.tx[0].stalled_since, 4);
	CU_ASSERT_EQUAL(r.rx[0].beats_moved, 0);
	CU_ASSERT_FALSE(r.tx[0].finished);
	aieth__pld_txn_release(&r.t);
	aieth__pld_engine_destroy(e);
}

static void test_iterations_bound_and_timeout(void)
{
	pld_engine_params p = small_params();
	pld_engine *e = loopback_engine(p, 2, 2, 0, 1);
	pld_arg a[2] = {{0, 0, 8 * 16, 1, 0, NULL, NULL}, {1, 0, 8 * 16, 1, 0, NULL, NULL}};
	run r;
	/* 3 iterations of 2 beats: RX gets 6 of 8 beats, then the board stalls */
	aieth__pld_engine_graph_run(e, 0, 3);
	CU_ASSERT_EQUAL_FATAL(do_run(e, &p, PLD_MODE_PERF, a, 2, 0, 0, &r), 0);
	CU_ASSERT_EQUAL(r.r.status, PLD_RUN_STALLED);
	CU_ASSERT_EQUAL(r.rx[0].beats_moved, 6);
	CU_ASSERT_EQUAL(r.tx[0].beats_moved, 8); /* two more windows buffered */
	aieth__pld_txn_release(&r.t);
	/* the cycle limit stops a run that would still progress */
	aieth__pld_engine_graph_run(e, 0, PLD_FOREVER);
	CU_ASSERT_EQUAL_FATAL(do_run(e, &p, PLD_MODE_PERF, a, 2, 0, 5, &r), 0);
	CU_ASSERT_EQUAL(r.r.status, PLD_RUN_TIMEOUT);
	aieth__pld_txn_release(&r.t);
	aieth__pld_engine_destroy(e);
}

static void test_unconnected_channel_stalls(void)
{
	pld_engine_params p = small_params();
	pld_engine *e = loopback_engine(p, 1, 1, 0, 1);
	pld_arg a[1] = {{0, 2, 32, 1, 7, NULL, NULL}};
	run r;
	aieth__pld_engine_graph_run(e, 0, PLD_FOREVER);
	CU_ASSERT_EQUAL_FATAL(do_run(e, &p, PLD_MODE_PERF, a, 1, 0, 0, &r), 0);
	CU_ASSERT_EQUAL(r.r.status, PLD_RUN_STALLED);
	CU_ASSERT_FALSE(r.tx[2].connected);
	CU_ASSERT_EQUAL(r.tx[2].stalled_since, 7);
	aieth__pld_txn_release(&r.t);
	aieth__pld_engine_destroy(e);
}

static void test_bad_offsets_rejected(void)
{
	pld_engine_params p = small_params();
	pld_engine *e = loopback_engine(p, 1, 1, 0, 1);
	pld_arg a[2] = {{0, 0, 32, 1, 0, NULL, NULL}, {1, 0, 32, 1, 0, NULL, NULL}};
	run r;
	CU_ASSERT_EQUAL_FATAL(do_run(e, &p, PLD_MODE_FUNC, a, 2, 0, 0, &r), 0);
	aieth__pld_txn_release(&r.t);
	/* a cfg word pointing beyond the TX buffer: the kernel would read
	 * outside it; the emulator refuses */
	CU_ASSERT_EQUAL_FATAL(aieth__pld_txn_encode(&r.t, 4, 16, PLD_MODE_FUNC, a, 2, r.r.msg, 64),
			      0);
	r.t.cfg[1 + 3 * 4 + 0] = 1000; /* TX offset of channel 0 */
	r.r.tx = r.tx;
	r.r.rx = r.rx;
	CU_ASSERT_EQUAL(aieth__pld_engine_run(e, &r.t, 0, 0, &r.r), 0);
	CU_ASSERT_EQUAL(r.r.status, PLD_RUN_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.r.msg, "TX channel 0"));
	aieth__pld_txn_release(&r.t);
	aieth__pld_engine_destroy(e);
}

/* FUNC: one burst at a time per mover, visits in channel order, empty
 * slots dropped on their first visit; then the counter edges. */
static void test_func_reader_one_burst_at_a_time(void)
{
	pld_engine_params p = small_params();
	pld_arg a[2] = {{0, 0, 32 * 16, 1, 0, NULL, NULL}, {1, 0, 32 * 16, 1, 0, NULL, NULL}};
	run r;
	int ref, edges;
	for (edges = 0; edges < 2; edges++) {
		pld_engine *e;
		p.edge_tx_first = edges ? 1 : 0;
		p.edge_tx_last = edges ? 2 : 0;
		p.edge_rx_first = edges ? 3 : 0;
		p.edge_rx_last = edges ? 4 : 0;
		e = loopback_engine(p, 1, 1, 0, 1);
		for (ref = 0; ref < 2; ref++) {
			aieth__pld_engine_graph_run(e, 0, PLD_FOREVER);
			CU_ASSERT_EQUAL_FATAL(do_run(e, &p, PLD_MODE_FUNC, a, 2, ref, 0, &r), 0);
			CU_ASSERT_EQUAL(r.r.status, PLD_RUN_DONE);
			/* burst 0 at cycle 0: words 5..8; visits at 10, 12, 14 drop
			 * the three empty slots; burst 1 at 16: words 21..24; then a
			 * burst every 4 + 5 - 1 + 2 = 10 cycles: burst 7 at 81..84 */
			CU_ASSERT_EQUAL(r.tx[0].first, 0 + (uint64_t)edges * 1);
			CU_ASSERT_EQUAL(r.tx[0].last, 85 + (uint64_t)edges * 2);
			/* beat 5 -> window at 6 -> output at 7; last beat 84 -> 86 */
			CU_ASSERT_EQUAL(r.rx[0].first, 7 + (uint64_t)edges * 3);
			CU_ASSERT_EQUAL(r.rx[0].last, 87 + (uint64_t)edges * 4);
			aieth__pld_txn_release(&r.t);
		}
		aieth__pld_engine_destroy(e);
	}
}

/* FUNC: an RX FIFO that the writer cannot drain (tail not all buffered)
 * back-pressures the graph; a TX FIFO without room makes the reader visit
 * the next channel without a burst. Both modes agree on the stall. */
static void test_func_full_fifos_stall(void)
{
	pld_engine_params p = small_params();
	pld_engine *e[2];
	pld_arg a[2] = {{0, 0, 16 * 16, 1, 0, NULL, NULL}, {1, 0, 16 * 16, 1, 0, NULL, NULL}};
	run r[2];
	int ref;
	for (ref = 0; ref < 2; ref++) {
		e[ref] = loopback_engine(p, 2, 2, 0, 1);
		/* graph not running: two windows of 2 beats fill, then the TX
		 * FIFO fills to its depth 8 and nothing moves again */
		CU_ASSERT_EQUAL_FATAL(do_run(e[ref], &p, PLD_MODE_FUNC, a, 2, ref, 0, &r[ref]), 0);
		CU_ASSERT_EQUAL(r[ref].r.status, PLD_RUN_STALLED);
		CU_ASSERT_EQUAL(r[ref].tx[0].beats_moved, 4);
		CU_ASSERT_EQUAL(r[ref].rx[0].beats_moved, 0);
		aieth__pld_txn_release(&r[ref].t);
	}
	CU_ASSERT_EQUAL(r[0].r.end_cycle, r[1].r.end_cycle);
	CU_ASSERT_EQUAL(r[0].tx[0].stalled_since, r[1].tx[0].stalled_since);
	CU_ASSERT(r[0].r.sim_steps < r[1].r.sim_steps);
	aieth__pld_engine_destroy(e[0]);
	aieth__pld_engine_destroy(e[1]);
}

/* ---------------------------------------------- randomized cross-checks */

static uint64_t rng_state;
static uint64_t rnd(uint64_t n)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return n ? (rng_state >> 33) % n : 0;
}

typedef struct {
	pld_engine_params p;
	pld_kernel_desc k[4];
	mix_ctx ctx[4];
	timing_ctx tc[4];
	size_t nk;
	uint64_t limit;
} scenario;

/* 0: fixed timing; 1: per-iteration timing on most kernels, periodic
 * (small periods) or aperiodic; 2: periodic only. */
static int timing_mode;

/* Random kernels over 4 channels: each TX and RX channel bound at most once. */
static void make_scenario(scenario *s)
{
	uint32_t txs[4] = {0, 1, 2, 3}, rxs[4] = {0, 1, 2, 3}, i, j, nt = 4, nr = 4;
	memset(s, 0, sizeof *s);
	s->p = small_params();
	s->p.depth = 1u << rnd(4) << 2; /* 4..32 */
	s->p.burst_words = (uint32_t)(1 + rnd(4));
	s->p.fifo_depth = s->p.burst_words * (uint32_t)(1 + rnd(3));
	s->p.read_latency = (uint32_t)rnd(9);
	s->p.write_latency = (uint32_t)rnd(5);
	s->p.loop_overhead = (uint32_t)(1 + rnd(4));
	s->p.edge_tx_first = (uint32_t)rnd(3);
	s->p.edge_tx_last = (uint32_t)rnd(3);
	s->p.edge_rx_first = (uint32_t)rnd(3);
	s->p.edge_rx_last = (uint32_t)rnd(3);
	for (i = 0; i < 4; i++) { /* shuffle channel lists */
		uint32_t a = (uint32_t)rnd(4), b = (uint32_t)rnd(4), x;
		x = txs[a], txs[a] = txs[b], txs[b] = x;
		x = rxs[a], rxs[a] = rxs[b], rxs[b] = x;
	}
	s->nk = 1 + rnd(3);
	for (i = 0; i < s->nk; i++) {
		pld_kernel_desc *k = &s->k[i];
		mix_ctx *c = &s->ctx[i];
		uint32_t ni = (uint32_t)rnd(3), no = (uint32_t)(1 + rnd(2));
		if (i == s->nk - 1) { /* the last kernel takes what is left */
			ni = nt < 2 ? nt : ni;
			no = nr < 2 ? nr : no;
		}
		if (ni > nt)
			ni = nt;
		if (no > nr)
			no = nr;
		if (ni + no == 0) {
			s->nk = i;
			break;
		}
		k->n_in = c->n_in = ni;
		k->n_out = c->n_out = no;
		for (j = 0; j < ni; j++) {
			k->in_chan[j] = txs[--nt];
			k->in_beats[j] = 1 + rnd(4);
			c->in_bytes[j] = k->in_beats[j] * 16;
		}
		for (j = 0; j < no; j++) {
			k->out_chan[j] = rxs[--nr];
			k->out_beats[j] = 1 + rnd(4);
			c->out_bytes[j] = k->out_beats[j] * 16;
		}
		k->cpi = 1 + rnd(5);
		k->latency = rnd(4);
		k->compute = mix_compute;
		k->ctx = c;
	}
	/* per-iteration timings (drawn after the rest, so the cases without
	 * them stay those of before) */
	for (i = 0; timing_mode && i < s->nk; i++) {
		timing_ctx *tc = &s->tc[i];
		if (timing_mode == 1 && rnd(4) == 0)
			continue; /* some kernels keep the fixed timing */
		tc->P = timing_mode == 1 && rnd(3) == 0 ? 0 : 1 + rnd(4);
		tc->seed = rnd(1000);
		for (j = 0; j < 8; j++) {
			tc->cyc0[j] = 1 + rnd(6);
			tc->lat0[j] = rnd(6);
			tc->cyc[j] = 1 + rnd(6);
			tc->lat[j] = rnd(5);
		}
		s->k[i].timing = test_timing;
		s->k[i].timing_ctx = tc;
		s->k[i].timing_kernel = i;
		s->k[i].timing_period = tc->P;
	}
	s->limit = rnd(3) ? PLD_FOREVER : 2 + rnd(30);
}

/* Random arguments: every kernel-bound channel used with some probability,
 * occasionally an unbound one. */
static int long_runs; /* cross-checks with replays and sizes that skip */

static size_t make_args(const scenario *s, int func, pld_arg *a, uint8_t bufs[8][64 * 16 * 3])
{
	size_t n = 0;
	uint32_t c;
	int d;
	for (d = 0; d < 2; d++)
		for (c = 0; c < 4; c++) {
			int bound = 0;
			size_t i;
			uint32_t q;
			for (i = 0; i < s->nk; i++) {
				const pld_kernel_desc *k = &s->k[i];
				for (q = 0; q < (d ? k->n_out : k->n_in); q++)
					bound |= (d ? k->out_chan[q] : k->in_chan[q]) == c;
			}
			if (!(bound ? rnd(5) : !rnd(12)))
				continue;
			a[n].dir = d;
			a[n].index = c;
			a[n].size = (1 + rnd(long_runs && func ? 190 : 2 * s->p.depth + 8)) * 16;
			a[n].reps = func ? 1 : 1 + rnd(long_runs ? 400 : 3);
			a[n].delay = rnd(4) ? rnd(12) : rnd(200);
			a[n].data = bufs[n];
			if (a[n].size > 64 * 16 * 3)
				a[n].size = 64 * 16 * 3;
			for (i = 0; i < a[n].size; i++)
				bufs[n][i] = d ? 0xEE : (uint8_t)rnd(256);
			n++;
		}
	return n;
}

static int compare_runs(const run *x, const run *y, const uint8_t *xb, const uint8_t *yb, size_t nb,
			int seed)
{
	uint32_t c;
	int bad = 0;
	if (x->r.status != y->r.status) {
		printf("\nseed %d: status %d vs %d\n", seed, x->r.status, y->r.status);
		return 1;
	}
	for (c = 0; c < 4; c++) {
		const pld_chan_progress *p[2][2] = {{&x->tx[c], &y->tx[c]}, {&x->rx[c], &y->rx[c]}};
		int d;
		for (d = 0; d < 2; d++)
			if (p[d][0]->beats_moved != p[d][1]->beats_moved ||
			    p[d][0]->finished != p[d][1]->finished ||
			    (p[d][0]->finished && (p[d][0]->first != p[d][1]->first ||
						   p[d][0]->last != p[d][1]->last)) ||
			    p[d][0]->stalled_since != p[d][1]->stalled_since) {
				printf("\nseed %d: %s channel %u: moved %llu/%llu first %llu/%llu "
				       "last %llu/%llu since %llu/%llu\n",
				       seed, d ? "RX" : "TX", c,
				       (unsigned long long)p[d][0]->beats_moved,
				       (unsigned long long)p[d][1]->beats_moved,
				       (unsigned long long)p[d][0]->first,
				       (unsigned long long)p[d][1]->first,
				       (unsigned long long)p[d][0]->last,
				       (unsigned long long)p[d][1]->last,
				       (unsigned long long)p[d][0]->stalled_since,
				       (unsigned long long)p[d][1]->stalled_since);
				bad = 1;
			}
	}
	if (x->r.end_cycle != y->r.end_cycle) {
		printf("\nseed %d: end %llu vs %llu\n", seed, (unsigned long long)x->r.end_cycle,
		       (unsigned long long)y->r.end_cycle);
		bad = 1;
	}
	if (memcmp(x->t.perf, y->t.perf, pld_perf_count(4) * 8)) {
		printf("\nseed %d: perf words differ\n", seed);
		bad = 1;
	}
	if (memcmp(xb, yb, nb)) {
		printf("\nseed %d: RX data differs\n", seed);
		bad = 1;
	}
	return bad;
}

static uint64_t total_skipped;

static int cross_check(int seed, int func)
{
	static uint8_t bf[8][64 * 16 * 3], br[8][64 * 16 * 3];
	scenario s;
	pld_engine *ef = NULL, *er = NULL;
	char err[256];
	int txn, bad = 0;
	uint64_t skipped = 0;

	rng_state = (uint64_t)seed * 7919u + (uint64_t)func;
	make_scenario(&s);
	if (s.nk == 0)
		return 0;
	if (aieth__pld_engine_create(&ef, &s.p, s.k, s.nk, 1, err, sizeof err) ||
	    aieth__pld_engine_create(&er, &s.p, s.k, s.nk, 1, err, sizeof err)) {
		printf("\nseed %d: create: %s\n", seed, err);
		return 1;
	}
	aieth__pld_engine_graph_run(ef, 0, s.limit);
	aieth__pld_engine_graph_run(er, 0, s.limit);
	/* three transactions: data and kernel state carry across them */
	for (txn = 0; txn < 3 && !bad; txn++) {
		pld_arg af[8], ar[8];
		uint64_t limit = rnd(4) ? 0 : 50 + rnd(400), state = rng_state;
		size_t n, i;
		run rf, rr;
		n = make_args(&s, func, af, bf);
		rng_state = state;
		make_args(&s, func, ar, br);
		for (i = 0; i < n; i++)
			ar[i].data = br[i];
		if (do_run(ef, &s.p, func ? PLD_MODE_FUNC : PLD_MODE_PERF, af, n, 0, limit, &rf) ||
		    do_run(er, &s.p, func ? PLD_MODE_FUNC : PLD_MODE_PERF, ar, n, 1, limit, &rr)) {
			printf("\nseed %d: run failed: %s / %s\n", seed, rf.r.msg, rr.r.msg);
			return 1;
		}
		bad = compare_runs(&rf, &rr, &bf[0][0], &br[0][0], sizeof bf, seed);
		skipped += rf.r.sim_skipped;
		CU_ASSERT_EQUAL(rr.r.sim_skipped, 0);
		aieth__pld_txn_release(&rf.t);
		aieth__pld_txn_release(&rr.t);
		if (rnd(3) == 0) { /* sometimes more iterations between transactions */
			aieth__pld_engine_graph_run(ef, 0, 5);
			aieth__pld_engine_graph_run(er, 0, 5);
		}
	}
	if (!bad) {
		uint64_t df, dr;
		int cf, cr;
		aieth__pld_engine_graph_status(ef, 0, &df, &cf);
		aieth__pld_engine_graph_status(er, 0, &dr, &cr);
		if (df != dr || cf != cr) {
			printf("\nseed %d: graph state %llu/%d vs %llu/%d\n", seed,
			       (unsigned long long)df, cf, (unsigned long long)dr, cr);
			bad = 1;
		}
	}
	total_skipped += skipped;
	aieth__pld_engine_destroy(ef);
	aieth__pld_engine_destroy(er);
	return bad;
}

/* Seeds from..to-1 in both modes: the number of mismatching cases. */
static int cross_range(int from, int to)
{
	int seed, bad = 0;
	for (seed = from; seed < to; seed++) {
		bad += cross_check(seed, 0);
		bad += cross_check(seed, 1);
	}
	return bad;
}

static void test_cross_check_perf(void)
{
	int seed, bad = 0;
	for (seed = 1; seed <= 400; seed++)
		bad += cross_check(seed, 0);
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_cross_check_func(void)
{
	int seed, bad = 0;
	for (seed = 1; seed <= 400; seed++)
		bad += cross_check(seed, 1);
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_cross_check_long(void)
{
	int bad;
	long_runs = 1;
	total_skipped = 0;
	bad = cross_range(1000, 1150);
	long_runs = 0;
	CU_ASSERT_EQUAL(bad, 0);
	/* the fast path did take exact skips in these cases */
	CU_ASSERT(total_skipped > 100000);
	printf("(skipped %llu cycles) ", (unsigned long long)total_skipped);
}

/* The same with per-iteration timings: periodic with periods 1..4 and a
 * start-up of their own, or aperiodic. */
static void test_cross_check_timing(void)
{
	int bad;
	timing_mode = 1;
	bad = cross_range(1, 301);
	timing_mode = 0;
	CU_ASSERT_EQUAL(bad, 0);
}

/* Long runs with periodic timings still skip (the phase is in the state). */
static void test_cross_check_timing_long(void)
{
	int bad;
	timing_mode = 2;
	long_runs = 1;
	total_skipped = 0;
	bad = cross_range(3000, 3100);
	long_runs = 0;
	timing_mode = 0;
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(total_skipped > 100000);
	printf("(skipped %llu cycles) ", (unsigned long long)total_skipped);
}

/* Hand-computed: 1-beat loopback of 4 windows from cycle 0, iteration
 * timings (cycles, latency) = (5,0), (2,3), (1,0), (4,1) (the start-up of
 * a period of 4 that is (1,0) after). A window is complete the cycle after
 * its beat; window j >= 2 enters when iteration j-2 has ended; iteration i
 * starts when iteration i-1 has ended, its input is complete and output
 * window i-2 is drained.
 *   it 0: start 1 (input at 0), end 6, output 6 -> drained 6..7
 *   it 1: start 6, end 8, output 11 -> drained 11..12
 *   it 2: input enters at 6 (it 0 ended); start 8, end 9, output 9, but
 *         window 1 goes first: drained 12..13
 *   it 3: input enters at 8; start max(9, window 1 drained 12) = 12,
 *         end 16, output 17 -> drained 17..18
 * RX first = 6, last = 18 (the cycle after the last beat). */
static void test_iteration_timing_schedule(void)
{
	pld_engine_params p = small_params();
	pld_engine *e[2];
	static uint8_t src[4 * 16], dst[2][4 * 16];
	timing_ctx tc;
	int ref;
	memset(&tc, 0, sizeof tc);
	tc.P = 4;
	tc.cyc0[0] = 5, tc.lat0[0] = 0;
	tc.cyc0[1] = 2, tc.lat0[1] = 3;
	tc.cyc0[2] = 1, tc.lat0[2] = 0;
	tc.cyc0[3] = 4, tc.lat0[3] = 1;
	tc.cyc[0] = tc.cyc[1] = tc.cyc[2] = tc.cyc[3] = 1;
	for (ref = 0; ref < 2; ref++) {
		pld_kernel_desc k;
		char err[256];
		pld_arg a[2] = {{0, 0, 4 * 16, 1, 0, src, NULL},
				{1, 0, 4 * 16, 1, 0, dst[ref], NULL}};
		run r;
		memset(&k, 0, sizeof k);
		copy_bytes = 16;
		k.n_in = k.n_out = 1;
		k.in_beats[0] = k.out_beats[0] = 1;
		k.cpi = 100; /* replaced by the hook */
		k.latency = 100;
		k.compute = copy_compute;
		k.ctx = &copy_bytes;
		k.timing = test_timing;
		k.timing_ctx = &tc;
		k.timing_period = tc.P;
		CU_ASSERT_EQUAL_FATAL(
			aieth__pld_engine_create(&e[ref], &p, &k, 1, 1, err, sizeof err), 0);
		aieth__pld_engine_graph_run(e[ref], 0, PLD_FOREVER);
		CU_ASSERT_EQUAL_FATAL(do_run(e[ref], &p, PLD_MODE_PERF, a, 2, ref, 0, &r), 0);
		CU_ASSERT_EQUAL(r.r.status, PLD_RUN_DONE);
		CU_ASSERT_EQUAL(r.rx[0].first, 6);
		CU_ASSERT_EQUAL(r.rx[0].last, 18);
		aieth__pld_txn_release(&r.t);
		aieth__pld_engine_destroy(e[ref]);
	}
	CU_ASSERT_EQUAL(memcmp(dst[0], dst[1], sizeof dst[0]), 0);
}

/* A bad value from the hook ends the run in error naming the model, the
 * kernel and the iteration; so does a failing hook. Never a crash. */
static void test_iteration_timing_bad_value(void)
{
	pld_engine_params p = small_params();
	static uint8_t src[8 * 16], dst[8 * 16];
	int c, ref;
	for (c = 0; c < 3; c++)
		for (ref = 0; ref < 2; ref++) {
			timing_ctx tc;
			pld_kernel_desc k;
			pld_engine *e = NULL;
			char err[256];
			pld_arg a[2] = {{0, 0, 8 * 16, 1, 0, src, NULL},
					{1, 0, 8 * 16, 1, 0, dst, NULL}};
			run r;
			memset(&tc, 0, sizeof tc);
			tc.P = 0;
			tc.bad_at = 5;
			tc.bad_lat = c == 1;
			tc.fail = c == 2;
			memset(&k, 0, sizeof k);
			copy_bytes = 16;
			k.n_in = k.n_out = 1;
			k.in_beats[0] = k.out_beats[0] = 1;
			k.cpi = 1;
			k.compute = copy_compute;
			k.ctx = &copy_bytes;
			k.timing = test_timing;
			k.timing_ctx = &tc;
			k.timing_kernel = 2;
			k.model_name = "m.so";
			k.kernel_name = "kern";
			CU_ASSERT_EQUAL_FATAL(
				aieth__pld_engine_create(&e, &p, &k, 1, 1, err, sizeof err), 0);
			aieth__pld_engine_graph_run(e, 0, PLD_FOREVER);
			CU_ASSERT_EQUAL_FATAL(do_run(e, &p, PLD_MODE_PERF, a, 2, ref, 0, &r), 0);
			CU_ASSERT_EQUAL(r.r.status, PLD_RUN_ERROR);
			CU_ASSERT_PTR_NOT_NULL(
				strstr(r.r.msg, "model \"m.so\": kernel 2 \"kern\": "));
			CU_ASSERT_PTR_NOT_NULL(strstr(
				r.r.msg,
				c == 0 ? "iteration 5: iteration_timing gave cycles 0, out of range"
				: c == 1
					? "iteration 5: iteration_timing gave latency 1000000001, above"
					: "iteration_timing failed (returned 7) for iterations 0..255"));
			aieth__pld_txn_release(&r.t);
			aieth__pld_engine_destroy(e);
		}
}

/* PERF windows in line with the repetitions: the fast mode reads the TX
 * image and writes the RX image in place where a run of beats is one
 * unmodified stretch of the URAM (engine_data.c, tx_direct/rx_direct), and
 * copies elsewhere (filler blocks, wrapped URAM positions, partial
 * windows). Sizes below, at and above the depth, two transactions each. */
static void test_perf_in_place_data(void)
{
	static const uint64_t frames[] = {8, 16, 32, 36, 40, 48};
	static uint8_t src[2][64 * 16], df[2][64 * 16], dr[2][64 * 16];
	pld_engine_params p = small_params();
	uint64_t w, fi, reps, txn;
	int i, bad = 0;
	for (w = 1; w <= 4; w *= 2)
		for (fi = 0; fi < sizeof frames / sizeof *frames; fi++)
			for (reps = 1; reps <= 3; reps += 2) {
				pld_engine *ef = loopback_engine(p, w, 1 + w % 3, w - 1, 2);
				pld_engine *er = loopback_engine(p, w, 1 + w % 3, w - 1, 2);
				aieth__pld_engine_graph_run(ef, 0, PLD_FOREVER);
				aieth__pld_engine_graph_run(er, 0, PLD_FOREVER);
				for (txn = 0; txn < 2 && !bad; txn++) {
					pld_arg af[4], ar[4];
					run rf, rr;
					for (i = 0; i < (int)sizeof src; i++)
						(&src[0][0])[i] = (uint8_t)(i * 7 + txn * 3 + fi);
					memset(df, 0xEE, sizeof df);
					memset(dr, 0xEE, sizeof dr);
					for (i = 0; i < 2; i++) {
						/* RX 1 takes one window less than TX 1
						 * sends, in one repetition: the kernel
						 * carries an output window to the next
						 * transaction */
						uint64_t f = frames[fi];
						pld_arg tx = {0,    (uint32_t)i,     f * 16,
							      reps, (uint64_t)i * 3, src[i],
							      NULL};
						pld_arg rxf = {1, (uint32_t)i, f * 16, reps,
							       0, df[i],       NULL};
						if (i) {
							rxf.size = (f * reps - w) * 16;
							rxf.reps = 1;
						}
						pld_arg rxr = rxf;
						rxr.data = dr[i];
						af[i] = ar[i] = tx;
						af[2 + i] = rxf;
						ar[2 + i] = rxr;
					}
					CU_ASSERT_EQUAL_FATAL(
						do_run(ef, &p, PLD_MODE_PERF, af, 4, 0, 0, &rf), 0);
					CU_ASSERT_EQUAL_FATAL(
						do_run(er, &p, PLD_MODE_PERF, ar, 4, 1, 0, &rr), 0);
					CU_ASSERT_EQUAL(rf.r.status, PLD_RUN_DONE);
					bad |= compare_runs(
						&rf, &rr, &df[0][0], &dr[0][0], sizeof df,
						(int)(w * 1000 + frames[fi] * 10 + reps));
					aieth__pld_txn_release(&rf.t);
					aieth__pld_txn_release(&rr.t);
				}
				aieth__pld_engine_destroy(ef);
				aieth__pld_engine_destroy(er);
			}
	CU_ASSERT_EQUAL(bad, 0);
}

/* A long run must be covered mostly by exact skips, and still match. */
static void test_fast_path_skips_long_runs(void)
{
	pld_engine_params p = small_params();
	pld_engine *ef = loopback_engine(p, 3, 3, 2, 2), *er = loopback_engine(p, 3, 3, 2, 2);
	static uint8_t src[2][4096 * 16], df[2][4096 * 16], dr[2][4096 * 16];
	pld_arg af[4], ar[4];
	run rf, rr;
	int i, m;
	for (m = 0; m < 2; m++) {
		uint64_t mode = m ? PLD_MODE_FUNC : PLD_MODE_PERF;
		/* FUNC: long enough that the movers' start-up is a small part */
		uint64_t frames = m ? 4095 : 15, reps = m ? 1 : 4000;
		for (i = 0; i < (int)sizeof src; i++)
			(&src[0][0])[i] = (uint8_t)(i * 13);
		for (i = 0; i < 2; i++) {
			pld_arg tx = {0,      (uint32_t)i, frames * 16, reps, (uint64_t)i * 5,
				      src[i], NULL};
			pld_arg rxf = {1, (uint32_t)i, frames * 16, reps, 0, df[i], NULL};
			pld_arg rxr = {1, (uint32_t)i, frames * 16, reps, 0, dr[i], NULL};
			af[i] = ar[i] = tx;
			af[2 + i] = rxf;
			ar[2 + i] = rxr;
		}
		aieth__pld_engine_graph_run(ef, 0, PLD_FOREVER);
		aieth__pld_engine_graph_run(er, 0, PLD_FOREVER);
		CU_ASSERT_EQUAL_FATAL(do_run(ef, &p, mode, af, 4, 0, 0, &rf), 0);
		CU_ASSERT_EQUAL_FATAL(do_run(er, &p, mode, ar, 4, 1, 0, &rr), 0);
		CU_ASSERT_EQUAL(rf.r.status, PLD_RUN_DONE);
		CU_ASSERT_EQUAL(compare_runs(&rf, &rr, &df[0][0], &dr[0][0], sizeof df, -1), 0);
		CU_ASSERT(rf.r.sim_skipped > (m ? 2 : 9) * rf.r.sim_steps);
		aieth__pld_txn_release(&rf.t);
		aieth__pld_txn_release(&rr.t);
	}
	aieth__pld_engine_destroy(ef);
	aieth__pld_engine_destroy(er);
}

/* The images' gates (pld_gate, th_server's streamed transactions): the
 * engine reads no TX byte before need() covered it, and every RX byte
 * wrote() reports is final when reported, in order within each channel;
 * fast and reference paths, two loopback pairs of several MiB chunks. The
 * TX bytes arrive only when needed: until then the buffers hold 0xEE. */
typedef struct {
	pld_txn *t;
	const uint8_t *src[2];
	uint8_t *tx[2];
	uint8_t *rx[2];
	uint64_t bytes, need_end, fill[2];
	int bad_rx, gaps;
} gate_ctx;

static void gate_need(void *vctx, uint64_t end)
{
	gate_ctx *g = vctx;
	size_t k;
	if (end <= g->need_end)
		return;
	/* the upload: image bytes [need_end, end) come in now */
	for (k = 0; k < g->t->tx.nseg; k++) {
		const pld_seg *sg = &g->t->tx.seg[k];
		uint64_t a = sg->off > g->need_end ? sg->off : g->need_end;
		uint64_t b = sg->off + sg->len < end ? sg->off + sg->len : end;
		int c = sg->ptr == g->tx[0] ? 0 : 1;
		if (b > a)
			memcpy(g->tx[c] + (a - sg->off), g->src[c] + (a - sg->off), b - a);
	}
	g->need_end = end;
}

static void gate_wrote(void *vctx, uint64_t off, uint64_t len)
{
	gate_ctx *g = vctx;
	size_t k;
	for (k = 0; k < g->t->rx.nseg; k++) {
		const pld_seg *sg = &g->t->rx.seg[k];
		int c = sg->ptr == g->rx[0] ? 0 : 1;
		uint64_t a = sg->off > off ? sg->off : off;
		uint64_t b = sg->off + sg->len < off + len ? sg->off + sg->len : off + len;
		if (b <= a)
			continue;
		if (memcmp(g->rx[c] + (a - sg->off), g->src[c] + (a - sg->off), b - a))
			g->bad_rx++;
		if (a - sg->off != g->fill[c])
			g->gaps++;
		else
			g->fill[c] = b - sg->off;
	}
}

static void test_gates(void)
{
	pld_engine_params p = small_params();
	int ref;
	for (ref = 0; ref < 2; ref++) {
		uint64_t bytes = ref ? (uint64_t)64 << 10 : (uint64_t)3 << 20;
		pld_engine *e = loopback_engine(p, 4, 1, 0, 2);
		gate_ctx g;
		pld_gate txg = {gate_need, NULL, &g}, rxg = {NULL, gate_wrote, &g};
		uint8_t *mem = malloc(6 * bytes);
		pld_arg a[4];
		run r;
		uint64_t i;
		int c;
		CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
		memset(&g, 0, sizeof g);
		g.bytes = bytes;
		for (c = 0; c < 2; c++) {
			uint8_t *s = mem + (size_t)c * 3 * bytes;
			for (i = 0; i < bytes; i++)
				s[i] = (uint8_t)(i * 7 + (uint64_t)c * 13 + i / 4096);
			g.src[c] = s;
			g.tx[c] = s + bytes;
			g.rx[c] = s + 2 * bytes;
			memset(g.tx[c], 0xee, bytes);
			memset(g.rx[c], 0, bytes);
			a[c] = (pld_arg){0, (uint32_t)c, bytes, 1, 0, g.tx[c], NULL};
			a[2 + c] = (pld_arg){1, (uint32_t)c, bytes, 1, 0, g.rx[c], NULL};
		}
		aieth__pld_engine_graph_run(e, 0, PLD_FOREVER);
		aieth__pld_engine_graph_run(e, 1, PLD_FOREVER);
		{
			char err[256];
			memset(&r, 0, sizeof r);
			CU_ASSERT_EQUAL_FATAL(aieth__pld_txn_encode(&r.t, p.channels, p.depth,
								    PLD_MODE_FUNC, a, 4, err,
								    sizeof err),
					      0);
			r.t.tx.gate = &txg;
			r.t.rx.gate = &rxg;
			g.t = &r.t;
			r.r.tx = r.tx;
			r.r.rx = r.rx;
			CU_ASSERT_EQUAL_FATAL(aieth__pld_engine_run(e, &r.t, ref, 0, &r.r), 0);
		}
		CU_ASSERT_EQUAL(r.r.status, PLD_RUN_DONE);
		for (c = 0; c < 2; c++) {
			CU_ASSERT_EQUAL(memcmp(g.rx[c], g.src[c], bytes), 0);
			CU_ASSERT_EQUAL(g.fill[c], bytes);
		}
		CU_ASSERT_EQUAL(g.bad_rx, 0);
		CU_ASSERT_EQUAL(g.gaps, 0);
		CU_ASSERT_EQUAL(g.need_end, r.t.tx.size);
		aieth__pld_txn_release(&r.t);
		aieth__pld_engine_destroy(e);
		free(mem);
	}
}

TU_MAIN("engine", {"perf loopback full rate", test_perf_loopback_full_rate},
	{"latency holds the output window", test_latency_holds_output_window},
	{"graph not running stalls", test_graph_not_running_stalls},
	{"iteration bound and cycle limit", test_iterations_bound_and_timeout},
	{"unconnected channel stalls", test_unconnected_channel_stalls},
	{"offsets beyond the buffer rejected", test_bad_offsets_rejected},
	{"FUNC: one burst at a time, counter edges", test_func_reader_one_burst_at_a_time},
	{"FUNC: full FIFOs stall, both modes", test_func_full_fifos_stall},
	{"fast == reference, PERF, 400 random cases", test_cross_check_perf},
	{"fast == reference, FUNC, 400 random cases", test_cross_check_func},
	{"fast == reference, 300 random long runs", test_cross_check_long},
	{"fast path skips long runs exactly", test_fast_path_skips_long_runs},
	{"image gates: TX needed first, RX final in order", test_gates},
	{"fast == reference, PERF data read and written in place", test_perf_in_place_data},
	{"per-iteration timing: hand-computed schedule", test_iteration_timing_schedule},
	{"per-iteration timing: bad values are errors", test_iteration_timing_bad_value},
	{"fast == reference, per-iteration timings, 600 cases", test_cross_check_timing},
	{"fast == reference, periodic timings, 200 long runs", test_cross_check_timing_long})
