/* SPDX-License-Identifier: MIT */
/*
 * engine_data.c - the data the emulated board moves. Values never depend on
 * timing: once the timing simulation has counted how many beats every channel
 * moved and how many iterations every kernel started, the RX image follows
 * from the TX streams and the kernels' compute functions.
 *
 * Carries: between transactions a kernel holds input beats [started*b, w)
 * (received, not yet consumed) and output beats [r, started*b) (computed, not
 * yet drained) of each port, at most two windows each.
 *
 * The fast path computes only the iterations whose outputs are observable
 * (written to the RX image, or carried to the next transaction), in large
 * chunks and zero-copy where the memory images allow. The reference path
 * computes every iteration one at a time and writes every RX beat in order
 * through a model of the URAM, as the PL kernel does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pl_dma/engine_internal.h"

#define W PLD_WORD_BYTES
/* The fast path's piece: 256 KiB, its input and output together still in a
 * core's L2; 1 MiB pieces ran 0.8-0.9 of memcpy of the same bytes, 256 KiB
 * ones 1.0-1.1 at load 4-5, alike at load 10-12 (tests/bench/bench.c (b);
 * docs/packaging.md, "Before and after") */
#define CHUNK_BYTES ((uint64_t)1 << 18)
#define T_PAST ((uint64_t)(INT64_MIN / 4))

static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static void xor_words(uint8_t *p, uint64_t words, const uint8_t mask[16])
{
	uint64_t i;
	unsigned b;
	for (i = 0; i < words; i++)
		for (b = 0; b < 16; b++)
			p[i * W + b] ^= mask[b];
}

void aieth__pld_tx_stream(const pld_engine *e, const pld_txn *t, const pld_chan *c, uint64_t g0,
			  uint64_t count, uint8_t *dst)
{
	uint64_t D = e->p.depth;
	if (c->func) {
		aieth__pld_image_read(&t->tx, (c->offset + g0) * W, dst, count * W);
		return;
	}
	/* PERF: every repetition replays the URAM; beyond the depth the URAM
	 * word is XORed with the filler mask of its block */
	while (count) {
		uint64_t idx = g0 % c->frames, blk = idx / D, pos = idx % D;
		uint64_t run = min64(min64(c->frames - idx, D - pos), count);
		uint8_t mask[16];
		aieth__pld_image_read(&t->tx, (c->offset + pos) * W, dst, run * W);
		if (blk) {
			aieth__pld_filler_mask(blk, mask);
			xor_words(dst, run, mask);
		}
		dst += run * W;
		g0 += run;
		count -= run;
	}
}

/* RX beats [g0, g0+count) of a channel land in memory (FUNC) or in the URAM
 * position (g mod frames) mod depth, drained to the image (PERF, done). */
static void rx_store(const pld_engine *e, pld_txn *t, const pld_chan *c, uint64_t g0,
		     uint64_t count, const uint8_t *src)
{
	uint64_t D = e->p.depth;
	if (c->func) {
		aieth__pld_image_write(&t->rx, (c->offset + g0) * W, src, count * W);
		return;
	}
	while (count) {
		uint64_t idx = g0 % c->frames, pos = idx % D;
		uint64_t run = min64(min64(c->frames - idx, D - pos), count);
		aieth__pld_image_write(&t->rx, (c->offset + pos) * W, src, run * W);
		src += run * W;
		g0 += run;
		count -= run;
	}
}

/* Zero-copy views of the images: TX stream beats [g0, g0+count) of a
 * channel, or the RX image place of RX beats [g0, g0+count), when they are
 * one unmodified run of one memory segment, else NULL. PERF: a run within
 * one repetition and the first URAM block (no filler XOR, no wrap); the
 * caller writes RX beats only where rx_observed says they survive, where
 * each URAM position is written once, so writing them in place is the
 * same as rx_store. */
static uint8_t *tx_direct(const pld_engine *e, const pld_txn *t, const pld_chan *c, uint64_t g0,
			  uint64_t count)
{
	uint64_t idx;
	if (c->func)
		return aieth__pld_image_ptr(&t->tx, (c->offset + g0) * W, count * W);
	if (!c->frames)
		return NULL;
	idx = g0 % c->frames;
	if (idx + count > c->frames || idx + count > e->p.depth)
		return NULL;
	return aieth__pld_image_ptr(&t->tx, (c->offset + idx) * W, count * W);
}

static uint8_t *rx_direct(const pld_engine *e, const pld_txn *t, const pld_chan *c, uint64_t g0,
			  uint64_t count, uint64_t *img_off)
{
	uint64_t idx, pos;
	if (c->func) {
		*img_off = (c->offset + g0) * W;
		return aieth__pld_image_ptr(&t->rx, *img_off, count * W);
	}
	if (!c->frames)
		return NULL;
	idx = g0 % c->frames;
	pos = idx % e->p.depth;
	if (idx + count > c->frames || pos + count > e->p.depth)
		return NULL;
	*img_off = (c->offset + pos) * W;
	return aieth__pld_image_ptr(&t->rx, *img_off, count * W);
}

/* RX beats whose values survive in the RX image: FUNC, those written to
 * memory; PERF, the last repetition's last min(frames, depth) beats, and
 * nothing unless the kernel completed (store_buffs never runs). */
static void rx_observed(const pld_engine *e, const pld_chan *c, int done, uint64_t *g0,
			uint64_t *g1)
{
	*g0 = *g1 = 0;
	if (c->func) {
		*g1 = c->popped;
	} else if (done && c->n) {
		*g0 = c->n - min64(c->frames, e->p.depth);
		*g1 = c->n;
	}
}

/* Input beats [x0, x0+count) of port p: carried ones, then the TX stream. */
static void port_in_read(const pld_engine *e, const pld_txn *t, const pld_kern *k, uint32_t p,
			 const pld_chan *txc, uint64_t x0, uint64_t count, uint8_t *dst)
{
	uint64_t base = k->started0 * k->d.in_beats[p], w0 = k->w0[p];
	if (x0 < w0) {
		uint64_t n = min64(count, w0 - x0);
		memcpy(dst, k->in_carry[p] + (x0 - base) * W, n * W);
		dst += n * W;
		x0 += n;
		count -= n;
	}
	if (count)
		aieth__pld_tx_stream(e, t, txc, x0 - w0, count, dst);
}

/* --------------------------------------------------------------- settle */

int aieth__pld_kern_settle(pld_kern *k, char *err, size_t errlen)
{
	uint64_t J0 = k->started, J1, j;
	uint32_t i;
	const uint8_t *in[PLD_MAX_PORTS];
	uint8_t *out[PLD_MAX_PORTS];

	for (J1 = J0;; J1++) {
		int ok = J1 < k->limit;
		for (i = 0; ok && i < k->d.n_in; i++)
			ok = k->w[i] >= (J1 + 1) * k->d.in_beats[i];
		if (J1 >= 2)
			for (i = 0; ok && i < k->d.n_out; i++)
				ok = k->r[i] >= (J1 - 1) * k->d.out_beats[i];
		if (!ok)
			break;
	}
	/* compute the iterations from the input carry into the output carry;
	 * both stay within two windows because of the conditions above */
	for (j = J0; j < J1; j++) {
		for (i = 0; i < k->d.n_in; i++)
			in[i] = k->in_carry[i] + (j - J0) * k->d.in_beats[i] * W;
		for (i = 0; i < k->d.n_out; i++)
			out[i] = k->out_carry[i] + (j * k->d.out_beats[i] - k->r[i]) * W;
		if (k->d.compute(k->d.ctx, j, 1, in, out)) {
			snprintf(err, errlen, "graph kernel compute failed at iteration %llu",
				 (unsigned long long)j);
			return -1;
		}
	}
	for (i = 0; i < k->d.n_in && J1 > J0; i++)
		memmove(k->in_carry[i], k->in_carry[i] + (J1 - J0) * k->d.in_beats[i] * W,
			(k->w[i] - J1 * k->d.in_beats[i]) * W);
	k->started = J1;
	k->fin[0] = k->fin[1] = k->avail[0] = k->avail[1] = T_PAST;
	for (i = 0; i < PLD_MAX_PORTS; i++) {
		k->windone[i][0] = k->windone[i][1] = T_PAST;
		k->draindone[i][0] = k->draindone[i][1] = T_PAST;
	}
	return 0;
}

/* The carries built by a data pass replace the kernel's (ownership moves). */
static void carries_replace(pld_kern *k, uint8_t **new_in, uint8_t **new_out)
{
	uint32_t p;
	for (p = 0; p < k->d.n_in; p++) {
		free(k->in_carry[p]);
		k->in_carry[p] = new_in[p];
		new_in[p] = NULL;
	}
	for (p = 0; p < k->d.n_out; p++) {
		free(k->out_carry[p]);
		k->out_carry[p] = new_out[p];
		new_out[p] = NULL;
	}
}

/* ------------------------------------------------------------ fast path */

typedef struct {
	uint64_t a, z;
} irange;

static int cmp_irange(const void *x, const void *y)
{
	const irange *p = x, *q = y;
	return p->a < q->a ? -1 : p->a > q->a;
}

/* Append the iterations covering port beats [x0, x1) within [J0, J1). */
static void add_iters(irange *v, size_t *n, uint64_t x0, uint64_t x1, uint64_t b, uint64_t J0,
		      uint64_t J1)
{
	uint64_t a, z;
	if (x1 <= x0)
		return;
	a = max64(x0 / b, J0);
	z = min64((x1 + b - 1) / b, J1);
	if (z > a) {
		v[*n].a = a;
		v[*n].z = z;
		(*n)++;
	}
}

typedef struct {
	uint8_t *p;
	uint64_t cap;
} scratch;

static uint8_t *scratch_get(scratch *s, uint64_t bytes)
{
	if (bytes > s->cap) {
		uint8_t *np = realloc(s->p, bytes);
		if (!np)
			return NULL;
		s->p = np;
		s->cap = bytes;
	}
	return s->p;
}

/* Copy the part of [x0, x0+n) that lies in [lo, hi) from src (indexed from
 * x0) to the RX channel (RX beat = x - r0) or to a carry (index x - lo). */
static void clip(uint64_t x0, uint64_t n, uint64_t lo, uint64_t hi, uint64_t *a, uint64_t *z)
{
	*a = max64(x0, lo);
	*z = min64(x0 + n, hi);
}

int aieth__pld_data_poll(pld_engine *e, double frac)
{
	if (e->intr && *e->intr)
		return PLD_DATA_INTERRUPTED;
	if (e->data_txn && (aieth__pld_image_failed(&e->data_txn->tx) ||
			    aieth__pld_image_failed(&e->data_txn->rx)))
		return PLD_DATA_IO_FAILED;
	if (e->data_nk) { /* (shown also says where a stopped run stood) */
		double f = ((double)e->data_k + frac) / (double)e->data_nk;
		uint64_t done = (uint64_t)(f * (double)e->data_bytes);
		if (done > e->data_bytes)
			done = e->data_bytes;
		if (done > e->shown) /* never back: the timing phase may have shown more */
			e->shown = done;
		if (e->progress)
			e->progress(e->progress_ctx, e->shown, e->data_bytes);
	}
	return 0;
}

static int kern_fast(pld_engine *e, pld_txn *t, pld_kern *k, pld_chan *tx, pld_chan *rx, int done,
		     scratch *sc, char *err, size_t errlen)
{
	uint64_t J0 = k->started0, J1 = k->started;
	uint64_t og0[PLD_MAX_PORTS], og1[PLD_MAX_PORTS];
	uint8_t *new_out[PLD_MAX_PORTS] = {0}, *new_in[PLD_MAX_PORTS] = {0};
	irange rg[2 * PLD_MAX_PORTS + 1];
	size_t nr = 0, i, m;
	uint64_t todo = 0, done_it = 0;
	uint32_t p, q;
	int rc = -1, stop;

	for (q = 0; q < k->d.n_out; q++) {
		pld_chan *ch = &rx[k->d.out_chan[q]];
		uint64_t b = k->d.out_beats[q], r0 = k->r0[q], r1 = k->r[q], a, z;
		rx_observed(e, ch, done, &og0[q], &og1[q]);
		og0[q] += r0;
		og1[q] += r0;
		new_out[q] = malloc(2 * b * W);
		if (!new_out[q])
			goto oom;
		/* 1. outputs carried from before this transaction */
		clip(r0, J0 * b - r0, og0[q], og1[q], &a, &z);
		if (z > a)
			rx_store(e, t, ch, a - r0, z - a, k->out_carry[q] + (a - r0) * W);
		clip(r0, J0 * b - r0, r1, J1 * b, &a, &z);
		if (z > a)
			memcpy(new_out[q] + (a - r1) * W, k->out_carry[q] + (a - r0) * W,
			       (z - a) * W);
		add_iters(rg, &nr, og0[q], og1[q], b, J0, J1);
		add_iters(rg, &nr, r1, J1 * b, b, J0, J1);
	}
	/* 2. the observable iterations of this transaction */
	qsort(rg, nr, sizeof *rg, cmp_irange);
	for (i = 0, m = 0; i < nr; i++) {
		if (m && rg[i].a <= rg[m - 1].z) {
			rg[m - 1].z = max64(rg[m - 1].z, rg[i].z);
			continue;
		}
		rg[m++] = rg[i];
	}
	for (i = 0; i < m; i++)
		todo += rg[i].z - rg[i].a;
	for (i = 0; i < m; i++) {
		uint64_t a = rg[i].a;
		while (a < rg[i].z) {
			uint64_t cnt = rg[i].z - a, big = 1;
			const uint8_t *in[PLD_MAX_PORTS];
			uint8_t *out[PLD_MAX_PORTS];
			int direct[PLD_MAX_PORTS];
			uint64_t direct_off[PLD_MAX_PORTS];
			for (p = 0; p < k->d.n_in; p++)
				big = max64(big, k->d.in_beats[p]);
			for (q = 0; q < k->d.n_out; q++)
				big = max64(big, k->d.out_beats[q]);
			cnt = min64(cnt, max64(1, CHUNK_BYTES / (big * W)));
			for (p = 0; p < k->d.n_in; p++) {
				pld_chan *ch = &tx[k->d.in_chan[p]];
				uint64_t x0 = a * k->d.in_beats[p], n = cnt * k->d.in_beats[p];
				uint8_t *ptr = NULL;
				if (x0 >= k->w0[p])
					ptr = tx_direct(e, t, ch, x0 - k->w0[p], n);
				if (!ptr) {
					ptr = scratch_get(&sc[p], n * W);
					if (!ptr)
						goto oom;
					port_in_read(e, t, k, p, ch, x0, n, ptr);
				}
				in[p] = ptr;
			}
			for (q = 0; q < k->d.n_out; q++) {
				pld_chan *ch = &rx[k->d.out_chan[q]];
				uint64_t x0 = a * k->d.out_beats[q], n = cnt * k->d.out_beats[q];
				direct[q] = 0;
				out[q] = NULL;
				if (x0 >= og0[q] && x0 + n <= og1[q])
					out[q] = rx_direct(e, t, ch, x0 - k->r0[q], n,
							   &direct_off[q]);
				if (out[q]) {
					direct[q] = 1;
				} else {
					out[q] = scratch_get(&sc[PLD_MAX_PORTS + q], n * W);
					if (!out[q])
						goto oom;
				}
			}
			if (k->d.compute(k->d.ctx, a, cnt, in, out)) {
				snprintf(err, errlen,
					 "graph kernel compute failed at iteration %llu",
					 (unsigned long long)a);
				goto out;
			}
			for (q = 0; q < k->d.n_out; q++) {
				pld_chan *ch = &rx[k->d.out_chan[q]];
				uint64_t b = k->d.out_beats[q], x0 = a * b, n = cnt * b, lo, hi;
				if (direct[q]) {
					aieth__pld_image_wrote(&t->rx, direct_off[q], n * W);
				} else {
					clip(x0, n, og0[q], og1[q], &lo, &hi);
					if (hi > lo)
						rx_store(e, t, ch, lo - k->r0[q], hi - lo,
							 out[q] + (lo - x0) * W);
				}
				clip(x0, n, k->r[q], J1 * b, &lo, &hi);
				if (hi > lo)
					memcpy(new_out[q] + (lo - k->r[q]) * W,
					       out[q] + (lo - x0) * W, (hi - lo) * W);
			}
			a += cnt;
			done_it += cnt;
			/* progress, and the interrupt honoured within a chunk's time */
			if ((stop = aieth__pld_data_poll(e, (double)done_it / (double)todo))) {
				rc = stop;
				goto out;
			}
		}
	}
	/* 3. inputs received but not consumed */
	for (p = 0; p < k->d.n_in; p++) {
		uint64_t b = k->d.in_beats[p], x0 = J1 * b, n = k->w[p] - x0;
		new_in[p] = malloc(2 * b * W);
		if (!new_in[p])
			goto oom;
		port_in_read(e, t, k, p, &tx[k->d.in_chan[p]], x0, n, new_in[p]);
	}
	carries_replace(k, new_in, new_out);
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "emulator: out of memory");
out:
	for (p = 0; p < PLD_MAX_PORTS; p++) {
		free(new_in[p]);
		free(new_out[p]);
	}
	return rc;
}

/* The data phase starts: count the kernels it computes. */
static void data_begin(pld_engine *e)
{
	size_t j;
	e->data_k = e->data_nk = 0;
	for (j = 0; j < e->nk; j++)
		e->data_nk += e->k[j].active != 0;
}

int aieth__pld_data_fast(pld_engine *e, pld_txn *t, pld_chan *tx, pld_chan *rx, int done, char *err,
			 size_t errlen)
{
	scratch sc[2 * PLD_MAX_PORTS];
	size_t j;
	int rc = 0;
	memset(sc, 0, sizeof sc);
	data_begin(e);
	for (j = 0; j < e->nk && !rc; j++)
		if (e->k[j].active) {
			rc = kern_fast(e, t, &e->k[j], tx, rx, done, sc, err, errlen);
			e->data_k++;
		}
	for (j = 0; j < 2 * PLD_MAX_PORTS; j++)
		free(sc[j].p);
	return rc;
}

/* ------------------------------------------------------- reference path */

/* the hook every 4096 iterations or beats: one at a time is slow enough */
#define REF_POLL_MASK 0xfffu

static int kern_reference(pld_engine *e, pld_txn *t, pld_kern *k, pld_chan *tx, pld_chan *rx,
			  int done, char *err, size_t errlen)
{
	uint64_t J0 = k->started0, J1 = k->started, j, g, D = e->p.depth;
	uint8_t *outq[PLD_MAX_PORTS] = {0}, *inb[PLD_MAX_PORTS] = {0}, *uram = NULL;
	uint8_t *new_out[PLD_MAX_PORTS] = {0}, *new_in[PLD_MAX_PORTS] = {0};
	const uint8_t *in[PLD_MAX_PORTS];
	uint8_t *out[PLD_MAX_PORTS];
	uint32_t p, q;
	uint64_t x;
	int rc = -1, stop;

	for (q = 0; q < k->d.n_out; q++)
		if (!(outq[q] = malloc((J1 - J0) * k->d.out_beats[q] * W + 1)) ||
		    !(new_out[q] = malloc(2 * k->d.out_beats[q] * W)))
			goto oom;
	for (p = 0; p < k->d.n_in; p++)
		if (!(inb[p] = malloc(k->d.in_beats[p] * W)) ||
		    !(new_in[p] = malloc(2 * k->d.in_beats[p] * W)))
			goto oom;
	uram = malloc(D * W);
	if (!uram)
		goto oom;

	/* every iteration, one at a time, inputs gathered beat by beat */
	for (j = J0; j < J1; j++) {
		if (!((j - J0) & REF_POLL_MASK) &&
		    (stop = aieth__pld_data_poll(e, 0.5 * (double)(j - J0) / (double)(J1 - J0)))) {
			rc = stop;
			goto out;
		}
		for (p = 0; p < k->d.n_in; p++) {
			for (x = 0; x < k->d.in_beats[p]; x++)
				port_in_read(e, t, k, p, &tx[k->d.in_chan[p]],
					     j * k->d.in_beats[p] + x, 1, inb[p] + x * W);
			in[p] = inb[p];
		}
		for (q = 0; q < k->d.n_out; q++)
			out[q] = outq[q] + (j - J0) * k->d.out_beats[q] * W;
		if (k->d.compute(k->d.ctx, j, 1, in, out)) {
			snprintf(err, errlen, "graph kernel compute failed at iteration %llu",
				 (unsigned long long)j);
			goto out;
		}
	}
	/* every RX beat in arrival order */
	for (q = 0; q < k->d.n_out; q++) {
		pld_chan *ch = &rx[k->d.out_chan[q]];
		uint64_t b = k->d.out_beats[q], r0 = k->r0[q];
		const uint8_t *src;
		memset(uram, 0, D * W);
		for (g = 0; g < ch->k; g++) {
			if (!(g & REF_POLL_MASK) &&
			    (stop = aieth__pld_data_poll(e, 0.5 + 0.5 * (double)q /
									    (double)k->d.n_out))) {
				rc = stop;
				goto out;
			}
			x = r0 + g;
			src = x < J0 * b ? k->out_carry[q] + (x - r0) * W
					 : outq[q] + (x - J0 * b) * W;
			if (ch->func) {
				if (g < ch->popped)
					aieth__pld_image_write(&t->rx, (ch->offset + g) * W, src,
							       W);
			} else {
				memcpy(uram + ((g % ch->frames) % D) * W, src, W);
			}
		}
		if (!ch->func && done)
			for (g = 0; g < min64(ch->frames, D); g++)
				aieth__pld_image_write(&t->rx, (ch->offset + g) * W, uram + g * W,
						       W);
		for (x = k->r[q]; x < J1 * b; x++) {
			src = x < J0 * b ? k->out_carry[q] + (x - r0) * W
					 : outq[q] + (x - J0 * b) * W;
			memcpy(new_out[q] + (x - k->r[q]) * W, src, W);
		}
	}
	for (p = 0; p < k->d.n_in; p++)
		for (x = J1 * k->d.in_beats[p]; x < k->w[p]; x++)
			port_in_read(e, t, k, p, &tx[k->d.in_chan[p]], x, 1,
				     new_in[p] + (x - J1 * k->d.in_beats[p]) * W);
	carries_replace(k, new_in, new_out);
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "emulator: out of memory");
out:
	for (p = 0; p < PLD_MAX_PORTS; p++) {
		free(outq[p]);
		free(inb[p]);
		free(new_out[p]);
		free(new_in[p]);
	}
	free(uram);
	return rc;
}

int aieth__pld_data_reference(pld_engine *e, pld_txn *t, pld_chan *tx, pld_chan *rx, int done,
			      char *err, size_t errlen)
{
	size_t j;
	int rc;
	data_begin(e);
	for (j = 0; j < e->nk; j++)
		if (e->k[j].active) {
			if ((rc = kern_reference(e, t, &e->k[j], tx, rx, done, err, errlen)))
				return rc;
			e->data_k++;
		}
	return 0;
}
