/* SPDX-License-Identifier: MIT */
/*
 * test_data_pieces.c - streamed channel data gives exactly what the in-memory
 * path gives: patterns generated in pieces, comparison in pieces (first
 * mismatch, counts, largest error), and transactions through read/write
 * callbacks (counters, RX bytes) in FUNC and PERF mode, fast and reference
 * emulator, with chunk boundaries that align with nothing; callback
 * failures fail the transaction.
 */
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "data/data.h"
#include "tu.h"

#define MSG(s) CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)))

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static void test_pattern_pieces(void)
{
	aieth_pattern p[5] = {
		{AIETH_PAT_RAMP, AIETH_ELEM_INT32, -7, 3, 0},
		{AIETH_PAT_RAMP, AIETH_ELEM_FLOAT, 0.5, 0.25, 0},
		{AIETH_PAT_RANDOM, AIETH_ELEM_UINT8, 0, 0, 42},
		{AIETH_PAT_RANDOM, AIETH_ELEM_INT16, 0, 0, 7},
		{AIETH_PAT_CONSTANT, AIETH_ELEM_CINT16, 5, 0, 0},
	};
	size_t len = 10000 * 4, k;
	uint8_t *whole = malloc(len), *part = malloc(len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(whole);
	CU_ASSERT_PTR_NOT_NULL_FATAL(part);
	for (k = 0; k < 5; k++) {
		size_t es = aieth__elem_size(p[k].type), off = 0;
		CU_ASSERT_EQUAL(aieth__pattern_fill(&p[k], whole, len), AIETH_OK);
		memset(part, 0xA5, len);
		while (off < len) {
			size_t n = es * (1 + rnd(97));
			if (n > len - off)
				n = len - off;
			CU_ASSERT_EQUAL(aieth__pattern_fill_at(&p[k], off, part + off, n),
					AIETH_OK);
			off += n;
		}
		CU_ASSERT_EQUAL(memcmp(whole, part, len), 0);
	}
	CU_ASSERT_EQUAL(aieth__pattern_fill_at(&p[0], 2, part, 4), AIETH_EINVAL);
	MSG("element boundary");
	free(whole);
	free(part);
}

static void cmp_pieces(aieth_elem t, const uint8_t *got, const uint8_t *want, size_t len, double at,
		       double rt)
{
	aieth_compare_result a, b;
	size_t es = aieth__elem_size(t), off = 0;
	aieth__compare(got, want, len, t, at, rt, &a);
	memset(&b, 0, sizeof b);
	while (off < len) {
		size_t n = es * (1 + rnd(61));
		if (n > len - off)
			n = len - off;
		aieth__compare_more(got + off, want + off, n, off, t, at, rt, &b);
		off += n;
	}
	CU_ASSERT_EQUAL(a.elements, b.elements);
	CU_ASSERT_EQUAL(a.mismatches, b.mismatches);
	CU_ASSERT_EQUAL(a.first_index, b.first_index);
	CU_ASSERT_EQUAL(a.first_offset, b.first_offset);
	CU_ASSERT_STRING_EQUAL(a.first_got, b.first_got);
	CU_ASSERT_STRING_EQUAL(a.first_want, b.first_want);
	CU_ASSERT_EQUAL(a.max_abs_error, b.max_abs_error);
	CU_ASSERT(a.mismatches > 0);
}

static void test_compare_pieces(void)
{
	static float g[5000], w[5000];
	static int32_t gi[5000], wi[5000];
	size_t i;
	for (i = 0; i < 5000; i++) {
		w[i] = (float)i * 0.5f;
		g[i] = w[i] + (i % 7 == 3 ? 0.01f : 0.0f) + (i == 4321 ? 1.0f : 0.0f);
		wi[i] = gi[i] = (int32_t)(i * 2654435761u);
	}
	gi[3001] ^= 0x100;
	gi[4999] = 0;
	cmp_pieces(AIETH_ELEM_FLOAT, (uint8_t *)g, (uint8_t *)w, sizeof g, 0.02, 0);
	cmp_pieces(AIETH_ELEM_CFLOAT, (uint8_t *)g, (uint8_t *)w, sizeof g, 0.001, 1e-6);
	cmp_pieces(AIETH_ELEM_INT32, (uint8_t *)gi, (uint8_t *)wi, sizeof gi, 0, 0);
	cmp_pieces(AIETH_ELEM_UINT8, (uint8_t *)gi, (uint8_t *)wi, sizeof gi, 0, 0);
}

/* ------------------------------------------------------ transactions */

typedef struct {
	const uint8_t *src;  /* TX: served from here */
	uint8_t *dst;        /* RX: lands here */
	uint64_t size, next; /* RX: the next offset expected */
	int calls, order_bad, fail_at_call;
} io_ctx;

static int rd(void *ctx, uint64_t off, void *buf, size_t n)
{
	io_ctx *c = ctx;
	if (++c->calls == c->fail_at_call)
		return -1;
	if (off + n > c->size || n % 16)
		c->order_bad = 1;
	else
		memcpy(buf, c->src + off, n);
	return 0;
}

static int wr(void *ctx, uint64_t off, const void *buf, size_t n)
{
	io_ctx *c = ctx;
	if (++c->calls == c->fail_at_call)
		return -1;
	if (off < c->next || off + n > c->size || n % 16)
		c->order_bad = 1;
	else
		memcpy(c->dst + off, buf, n);
	c->next = off + n;
	return 0;
}

/* io[0] reads TX from src (txsize bytes) through tc, io[1] writes RX to
 * dst (rxsize bytes) through rc, both contexts fresh. */
static void io_pair(aieth_channel_io io[2], io_ctx *tc, io_ctx *rc, const uint8_t *src,
		    uint64_t txsize, uint8_t *dst, uint64_t rxsize)
{
	memset(tc, 0, sizeof *tc);
	memset(rc, 0, sizeof *rc);
	memset(io, 0, 2 * sizeof *io);
	tc->src = src;
	tc->size = txsize;
	rc->dst = dst;
	rc->size = rxsize;
	io[0].read = rd;
	io[0].ctx = tc;
	io[1].write = wr;
	io[1].ctx = rc;
}

static aieth_session *open_loop(int reference)
{
	aieth_session *s = tu_session("vck190", "loopback", NULL, reference);
	if (s)
		aieth_graph_run(s, "gr", AIETH_ITERATIONS_FOREVER);
	return s;
}

static void same_result(const aieth_channel_result *a, const aieth_channel_result *b)
{
	CU_ASSERT_STRING_EQUAL(a->plio.name, b->plio.name);
	CU_ASSERT_EQUAL(a->bytes_expected, b->bytes_expected);
	CU_ASSERT_EQUAL(a->bytes_moved, b->bytes_moved);
	CU_ASSERT_EQUAL(a->user_bytes, b->user_bytes);
	CU_ASSERT_EQUAL(a->finished, b->finished);
	CU_ASSERT_EQUAL(a->first_cycle, b->first_cycle);
	CU_ASSERT_EQUAL(a->last_cycle, b->last_cycle);
	CU_ASSERT_EQUAL(a->cycles, b->cycles);
	CU_ASSERT_EQUAL(a->valid, b->valid);
	CU_ASSERT_EQUAL(a->mb_per_s, b->mb_per_s);
}

/* Run the same transaction with pointers and with callbacks (each on a
 * fresh session) and compare everything. */
static void both_ways(aieth_mode mode, int reference, uint64_t txsize, uint64_t rxsize,
		      uint64_t reps)
{
	uint8_t *src = malloc(txsize), *d1 = calloc(1, rxsize), *d2 = calloc(1, rxsize);
	aieth_channel_args a[2] = {{"PLIO_05_TO_AIE", txsize, reps, 7, src},
				   {"PLIO_05_FROM_AIE", rxsize, reps, 0, d1}};
	aieth_channel_io io[2];
	io_ctx tc, rc;
	aieth_channel_result r1[2], r2[2];
	aieth_session *s;
	aieth_txn *t;
	uint64_t cyc1, i;
	int k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(src);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d2);
	for (i = 0; i < txsize; i++)
		src[i] = (uint8_t)(i * 7 + (i >> 11));
	s = open_loop(reference);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit(s, mode, a, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_wait(t, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_DONE);
	for (k = 0; k < 2; k++)
		aieth_txn_channel(t, (size_t)k, &r1[k]);
	cyc1 = aieth_txn_total_cycles(t);
	aieth_txn_free(t);
	aieth_session_close(s);

	io_pair(io, &tc, &rc, src, txsize, d2, rxsize);
	a[0].data = NULL;
	a[1].data = NULL;
	s = open_loop(reference);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit_io(s, mode, a, io, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_wait(t, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_DONE);
	for (k = 0; k < 2; k++) {
		aieth_txn_channel(t, (size_t)k, &r2[k]);
		same_result(&r1[k], &r2[k]);
	}
	CU_ASSERT_EQUAL(aieth_txn_total_cycles(t), cyc1);
	aieth_txn_free(t);
	aieth_session_close(s);
	CU_ASSERT_EQUAL(tc.order_bad, 0);
	CU_ASSERT_EQUAL(rc.order_bad, 0);
	CU_ASSERT(tc.calls > 0);
	CU_ASSERT(rc.calls > 0);
	CU_ASSERT_EQUAL(rc.next, r2[1].user_bytes);
	CU_ASSERT_EQUAL(memcmp(d1, d2, (size_t)rxsize), 0);
	free(src);
	free(d1);
	free(d2);
}

static void test_txn_func(void)
{
	/* 3 MiB + 48 bytes: the emulator's 1 MiB pieces end mid-channel */
	both_ways(AIETH_MODE_FUNC, 0, (3u << 20) + 48, (3u << 20) + 48, 1);
	/* RX shorter than TX: the loopback's rest stays in the graph */
	both_ways(AIETH_MODE_FUNC, 0, 100000, 99984, 1);
	both_ways(AIETH_MODE_FUNC, 1, 4096 + 48, 4096 + 48, 1);
}

static void test_txn_perf(void)
{
	/* within the 64 KiB URAM, replayed */
	both_ways(AIETH_MODE_PERF, 0, 48000, 48000, 3);
	/* beyond the URAM: filler sent, the last URAM's worth returned */
	both_ways(AIETH_MODE_PERF, 0, 100000, 100000, 2);
	both_ways(AIETH_MODE_PERF, 1, 4096 + 48, 4096 + 48, 2);
}

static void test_txn_callback_failure(void)
{
	uint8_t src[4096];
	aieth_channel_args a[2] = {{"PLIO_05_TO_AIE", sizeof src, 1, 0, NULL},
				   {"PLIO_05_FROM_AIE", sizeof src, 1, 0, NULL}};
	aieth_channel_io io[2];
	io_ctx tc, rc;
	aieth_session *s = open_loop(0);
	aieth_txn *t = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	memset(src, 1, sizeof src);
	io_pair(io, &tc, &rc, src, sizeof src, src, sizeof src);
	/* a callback of the wrong direction, or with a data pointer */
	io[0].write = wr;
	CU_ASSERT_EQUAL(aieth_txn_submit_io(s, AIETH_MODE_FUNC, a, io, 2, &t), AIETH_EINVAL);
	MSG("PLIO_05_TO_AIE");
	io[0].write = NULL;
	a[1].data = src;
	CU_ASSERT_EQUAL(aieth_txn_submit_io(s, AIETH_MODE_FUNC, a, io, 2, &t), AIETH_EINVAL);
	a[1].data = NULL;
	/* the sink fails: the transaction fails, naming the channel */
	rc.fail_at_call = 1;
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit_io(s, AIETH_MODE_FUNC, a, io, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_wait(t, 0), AIETH_EDEVICE);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_FAILED);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_txn_message(t), "PLIO_05_FROM_AIE"));
	aieth_txn_free(t);
	aieth_session_close(s);
	/* PERF reads the source at submit: a failure refuses the submit */
	s = open_loop(0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	tc.calls = 0;
	tc.fail_at_call = 1;
	rc.fail_at_call = 0;
	CU_ASSERT_EQUAL(aieth_txn_submit_io(s, AIETH_MODE_PERF, a, io, 2, &t), AIETH_EIO);
	MSG("data source failed at byte 0");
	aieth_session_close(s);
}

/* A sink or source that fails stops the emulated board: the rest of a 64
 * MiB transaction is not moved for nothing (its data phase polls between
 * 256 KiB pieces), and the message names the channel and the byte first. */
static void stops_early(int fail_tx)
{
	uint64_t size = 64u << 20;
	uint8_t *src = malloc(size), *dst = malloc(size);
	aieth_channel_args a[2] = {{"PLIO_05_TO_AIE", size, 1, 0, NULL},
				   {"PLIO_05_FROM_AIE", size, 1, 0, NULL}};
	aieth_channel_io io[2];
	io_ctx tc, rc;
	aieth_session *s = open_loop(0);
	aieth_txn *t = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(src);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dst);
	memset(src, 3, size);
	io_pair(io, &tc, &rc, src, size, dst, size);
	if (fail_tx)
		tc.fail_at_call = 2;
	else
		rc.fail_at_call = 2;
	CU_ASSERT_EQUAL_FATAL(aieth_txn_submit_io(s, AIETH_MODE_FUNC, a, io, 2, &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_txn_wait(t, 0), AIETH_EDEVICE);
	CU_ASSERT_EQUAL(aieth_txn_get_status(t), AIETH_TXN_FAILED);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_txn_message(t),
				      fail_tx ? "channel 0 (PLIO_05_TO_AIE): the data source"
					      : "channel 1 (PLIO_05_FROM_AIE): the data sink"));
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_txn_message(t), "stopped the transaction once"));
	/* a few pieces after the failure, not the 64 calls of the whole */
	CU_ASSERT(tc.calls <= 8);
	CU_ASSERT(rc.calls <= 8);
	aieth_txn_free(t);
	aieth_session_close(s);
	free(src);
	free(dst);
}

static void test_txn_stops_early(void)
{
	stops_early(0);
	stops_early(1);
}

TU_MAIN("data_pieces", {"pattern in pieces", test_pattern_pieces},
	{"comparison in pieces", test_compare_pieces},
	{"FUNC through callbacks = through memory", test_txn_func},
	{"PERF through callbacks = through memory", test_txn_perf},
	{"callback failures", test_txn_callback_failure},
	{"a failed sink or source stops the transaction early", test_txn_stops_early})
