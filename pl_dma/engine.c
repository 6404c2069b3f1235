/* SPDX-License-Identifier: MIT */
/*
 * engine.c - the emulated board: kernels, graph control, and running one
 * encoded transaction (decode cfg words, simulate timing per component, move
 * the data, write perf words).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pl_dma/engine_internal.h"

int aieth__pld_engine_create(pld_engine **out, const pld_engine_params *p, const pld_kernel_desc *k,
			     size_t nk, uint32_t ngraphs, char *err, size_t errlen)
{
	pld_engine *e;
	size_t i;
	uint32_t q;

	*out = NULL;
	if (p->channels == 0 || p->depth == 0 || p->burst_words == 0 ||
	    p->fifo_depth < p->burst_words || p->loop_overhead == 0) {
		snprintf(err, errlen, "emulator: invalid board parameters");
		return -1;
	}
	e = calloc(1, sizeof *e);
	if (!e)
		goto oom;
	e->p = *p;
	e->ngraphs = ngraphs;
	e->nk = nk;
	e->k = calloc(nk ? nk : 1, sizeof *e->k);
	e->tx_bind = calloc(p->channels, sizeof *e->tx_bind);
	e->rx_bind = calloc(p->channels, sizeof *e->rx_bind);
	e->tx_port = calloc(p->channels, sizeof *e->tx_port);
	e->rx_port = calloc(p->channels, sizeof *e->rx_port);
	if (!e->k || !e->tx_bind || !e->rx_bind || !e->tx_port || !e->rx_port)
		goto oom;
	for (i = 0; i < nk; i++) {
		pld_kern *kk = &e->k[i];
		kk->d = k[i];
		if (kk->d.cpi == 0 || kk->d.graph >= ngraphs || !kk->d.compute ||
		    kk->d.n_in > PLD_MAX_PORTS || kk->d.n_out > PLD_MAX_PORTS) {
			snprintf(err, errlen, "emulator: kernel %zu: invalid description", i);
			aieth__pld_engine_destroy(e);
			return -1;
		}
		for (q = 0; q < kk->d.n_in; q++) {
			uint32_t c = kk->d.in_chan[q];
			if (c >= p->channels || e->tx_bind[c] || kk->d.in_beats[q] == 0) {
				snprintf(
					err, errlen,
					"emulator: kernel %zu input %u: TO_AIE channel %u is out of "
					"range or already bound",
					i, q, c);
				aieth__pld_engine_destroy(e);
				return -1;
			}
			e->tx_bind[c] = kk;
			e->tx_port[c] = q;
			kk->in_carry[q] = malloc(2 * kk->d.in_beats[q] * PLD_WORD_BYTES);
			if (!kk->in_carry[q])
				goto oom;
		}
		for (q = 0; q < kk->d.n_out; q++) {
			uint32_t c = kk->d.out_chan[q];
			if (c >= p->channels || e->rx_bind[c] || kk->d.out_beats[q] == 0) {
				snprintf(
					err, errlen,
					"emulator: kernel %zu output %u: FROM_AIE channel %u is out "
					"of range or already bound",
					i, q, c);
				aieth__pld_engine_destroy(e);
				return -1;
			}
			e->rx_bind[c] = kk;
			e->rx_port[c] = q;
			kk->out_carry[q] = malloc(2 * kk->d.out_beats[q] * PLD_WORD_BYTES);
			if (!kk->out_carry[q])
				goto oom;
		}
		if (kk->d.timing) {
			kk->tcyc = malloc(PLD_TIMING_BATCH * sizeof *kk->tcyc);
			kk->tlat = malloc(PLD_TIMING_BATCH * sizeof *kk->tlat);
			if (!kk->tcyc || !kk->tlat)
				goto oom;
		}
		if (aieth__pld_kern_settle(kk, err, errlen)) {
			aieth__pld_engine_destroy(e);
			return -1;
		}
	}
	*out = e;
	return 0;
oom:
	snprintf(err, errlen, "emulator: out of memory");
	aieth__pld_engine_destroy(e);
	return -1;
}

void aieth__pld_engine_destroy(pld_engine *e)
{
	size_t i;
	uint32_t q;
	if (!e)
		return;
	for (i = 0; e->k && i < e->nk; i++) {
		free(e->k[i].tcyc);
		free(e->k[i].tlat);
		for (q = 0; q < PLD_MAX_PORTS; q++) {
			free(e->k[i].in_carry[q]);
			free(e->k[i].out_carry[q]);
		}
	}
	free(e->k);
	free(e->tx_bind);
	free(e->rx_bind);
	free(e->tx_port);
	free(e->rx_port);
	free(e);
}

/* Catch a kernel up; a compute failure is kept for the next run. */
static void settle(pld_engine *e, pld_kern *k)
{
	if (aieth__pld_kern_settle(k, e->err[0] ? NULL : e->err, e->err[0] ? 0 : sizeof e->err) &&
	    !e->err[0])
		snprintf(e->err, sizeof e->err, "graph kernel compute failed");
}

void aieth__pld_engine_graph_run(pld_engine *e, uint32_t graph, uint64_t iterations)
{
	size_t i;
	for (i = 0; i < e->nk; i++) {
		pld_kern *k = &e->k[i];
		if (k->d.graph != graph)
			continue;
		settle(e, k);
		if (iterations == PLD_FOREVER || k->started > PLD_FOREVER - 1 - iterations)
			k->limit = PLD_FOREVER;
		else
			k->limit = k->started + iterations;
	}
}

void aieth__pld_engine_graph_end(pld_engine *e, uint32_t graph)
{
	size_t i;
	for (i = 0; i < e->nk; i++)
		if (e->k[i].d.graph == graph) {
			settle(e, &e->k[i]);
			e->k[i].limit = e->k[i].started;
		}
}

void aieth__pld_engine_graph_status(pld_engine *e, uint32_t graph, uint64_t *done, int *complete)
{
	size_t i;
	uint64_t lo = UINT64_MAX;
	int all = 1;
	for (i = 0; i < e->nk; i++) {
		pld_kern *k = &e->k[i];
		if (k->d.graph != graph)
			continue;
		settle(e, k);
		if (k->started < lo)
			lo = k->started;
		if (k->limit == PLD_FOREVER || k->started < k->limit)
			all = 0;
	}
	*done = lo == UINT64_MAX ? 0 : lo;
	*complete = all;
}

/* Check that a channel's memory accesses stay inside its image. */
static int check_bounds(const char *dir, uint32_t c, uint64_t offset, uint64_t words,
			uint64_t image_bytes, char *err, size_t errlen)
{
	if (words == 0)
		return 0;
	if (offset + words > image_bytes / PLD_WORD_BYTES) {
		snprintf(err, errlen,
			 "emulator: %s channel %u accesses memory words %llu..%llu but the "
			 "buffer holds %llu words",
			 dir, c, (unsigned long long)offset,
			 (unsigned long long)(offset + words - 1),
			 (unsigned long long)(image_bytes / PLD_WORD_BYTES));
		return -1;
	}
	return 0;
}

static void comp_free(pld_comp *c)
{
	free(c->tx);
	free(c->rx);
	free(c->kern);
}

/* Simulate the channels bound to kernel kk (PERF) or all channels (FUNC). */
static pld_run_status run_comp(pld_engine *e, int func, pld_kern *only, pld_chan *tx, pld_chan *rx,
			       int reference, uint64_t cycle_limit, uint64_t *end,
			       pld_run_result *r, int *model_failed)
{
	pld_comp c;
	uint32_t N = e->p.channels, i;
	size_t j;
	pld_run_status st;

	memset(&c, 0, sizeof c);
	c.e = e;
	c.func = func;
	c.tx = calloc(N, sizeof *c.tx);
	c.rx = calloc(N, sizeof *c.rx);
	c.kern = calloc(e->nk ? e->nk : 1, sizeof *c.kern);
	if (!c.tx || !c.rx || !c.kern) {
		comp_free(&c);
		snprintf(r->msg, sizeof r->msg, "emulator: out of memory");
		return PLD_RUN_ERROR;
	}
	for (i = 0; i < N; i++) {
		if (only ? tx[i].kp == only : tx[i].n > 0)
			c.tx[c.ntx++] = &tx[i];
		if (only ? rx[i].kp == only : rx[i].n > 0)
			c.rx[c.nrx++] = &rx[i];
	}
	for (j = 0; j < e->nk; j++)
		if (only ? &e->k[j] == only : e->k[j].active)
			c.kern[c.nkern++] = &e->k[j];
	st = aieth__pld_sim_component(&c, reference, cycle_limit, end, &r->sim_steps,
				      &r->sim_skipped, r->msg, sizeof r->msg);
	*model_failed = c.model_failed;
	comp_free(&c);
	return st;
}

static void fill_chan(pld_chan *ch, int dir, uint32_t idx, const pld_chan_cfg *cf, int perf,
		      pld_kern *kp, uint32_t port)
{
	memset(ch, 0, sizeof *ch);
	ch->idx = idx;
	ch->dir = dir;
	ch->frames = cf->frames;
	ch->reps = perf ? cf->reps : 1;
	ch->offset = cf->offset;
	ch->d = cf->delay;
	ch->n = ch->frames * ch->reps;
	ch->kp = kp;
	ch->port = port;
	ch->first = ch->d;
	ch->last = ch->progress = ch->d;
	ch->have_first = dir == 0;
	ch->func = !perf;
}

void aieth__pld_engine_set_hooks(pld_engine *e, const volatile sig_atomic_t *intr,
				 void (*progress)(void *ctx, uint64_t done, uint64_t total),
				 void *ctx)
{
	e->intr = intr;
	e->progress = progress;
	e->progress_ctx = ctx;
}

int aieth__pld_engine_run(pld_engine *e, pld_txn *t, int reference, uint64_t cycle_limit,
			  pld_run_result *r)
{
	uint32_t N = e->p.channels, D = e->p.depth, i;
	uint64_t mode, *first = NULL;
	pld_chan_cfg *txc = NULL, *rxc = NULL;
	pld_chan *tx = NULL, *rx = NULL;
	int perf, rc = -1, stalled = 0, timeout = 0, interrupted = 0, mfail = 0;
	size_t j;
	uint64_t end = 0;

	r->status = PLD_RUN_ERROR;
	e->shown = 0;
	r->end_cycle = r->preload_cycles = r->drain_cycles = 0;
	r->sim_steps = r->sim_skipped = 0;
	r->msg[0] = '\0';
	if (t->channels != N || t->depth != D) {
		snprintf(
			r->msg, sizeof r->msg,
			"emulator: transaction encoded for %u channels / depth %u, board has %u / %u",
			t->channels, t->depth, N, D);
		return 0;
	}
	txc = calloc(N, sizeof *txc);
	rxc = calloc(N, sizeof *rxc);
	tx = calloc(N, sizeof *tx);
	rx = calloc(N, sizeof *rx);
	if (!txc || !rxc || !tx || !rx) {
		snprintf(r->msg, sizeof r->msg, "emulator: out of memory");
		goto out;
	}
	if (e->err[0]) {
		snprintf(r->msg, sizeof r->msg, "%s", e->err);
		e->err[0] = '\0';
		goto out;
	}
	aieth__pld_cfg_decode(N, t->cfg, &mode, txc, rxc);
	perf = mode != PLD_MODE_FUNC;

	for (i = 0; i < N; i++) {
		uint64_t tw = perf ? (txc[i].frames < D ? txc[i].frames : D) : txc[i].frames;
		uint64_t rw = perf ? (rxc[i].frames < D ? rxc[i].frames : D) : rxc[i].frames;
		if (check_bounds("TX", i, txc[i].offset, tw, t->tx.size, r->msg, sizeof r->msg) ||
		    check_bounds("RX", i, rxc[i].offset, rw, t->rx.size, r->msg, sizeof r->msg)) {
			rc = 0;
			goto out;
		}
		fill_chan(&tx[i], 0, i, &txc[i], perf, e->tx_bind[i], e->tx_port[i]);
		fill_chan(&rx[i], 1, i, &rxc[i], perf, e->rx_bind[i], e->rx_port[i]);
		if (perf) {
			if (tw)
				r->preload_cycles += e->p.preload_latency + tw;
			if (rw)
				r->drain_cycles += e->p.preload_latency + rw;
		}
	}

	/* time passed since the last transaction: kernels caught up */
	for (j = 0; j < e->nk; j++) {
		pld_kern *k = &e->k[j];
		uint32_t q;
		if (aieth__pld_kern_settle(k, r->msg, sizeof r->msg))
			goto out;
		k->started0 = k->started;
		for (q = 0; q < k->d.n_in; q++)
			k->w0[q] = k->w[q];
		for (q = 0; q < k->d.n_out; q++)
			k->r0[q] = k->r[q];
		k->active = 0;
	}
	for (i = 0; i < N; i++) {
		if (tx[i].n && tx[i].kp)
			tx[i].kp->active = 1;
		if (rx[i].n && rx[i].kp)
			rx[i].kp->active = 1;
		if ((tx[i].n && !tx[i].kp) || (rx[i].n && !rx[i].kp))
			stalled = 1; /* nothing on the AIE side takes or gives data */
	}

	if (perf) {
		for (j = 0; j < e->nk; j++) {
			uint64_t ce = 0;
			pld_run_status st;
			if (!e->k[j].active)
				continue;
			st = run_comp(e, 0, &e->k[j], tx, rx, reference, cycle_limit, &ce, r,
				      &mfail);
			if (st == PLD_RUN_ERROR) {
				rc = mfail ? 0 : -1; /* a model's failure ends the run in error */
				goto out;
			}
			interrupted |= st == PLD_RUN_INTERRUPTED;
			if (interrupted) {
				if (ce > end) /* the cycle it was stopped at */
					end = ce;
				break;
			}
			stalled |= st == PLD_RUN_STALLED;
			timeout |= st == PLD_RUN_TIMEOUT;
			if (ce > end)
				end = ce;
		}
	} else {
		pld_run_status st =
			run_comp(e, 1, NULL, tx, rx, reference, cycle_limit, &end, r, &mfail);
		if (st == PLD_RUN_ERROR) {
			rc = mfail ? 0 : -1;
			goto out;
		}
		interrupted |= st == PLD_RUN_INTERRUPTED;
		stalled |= st == PLD_RUN_STALLED;
		timeout |= st == PLD_RUN_TIMEOUT;
	}
	r->status = interrupted ? PLD_RUN_INTERRUPTED
		    : stalled   ? PLD_RUN_STALLED
		    : timeout   ? PLD_RUN_TIMEOUT
				: PLD_RUN_DONE;

	for (i = 0; i < N; i++) {
		pld_chan *cs[2] = {&tx[i], &rx[i]};
		pld_chan_progress *ps[2] = {&r->tx[i], &r->rx[i]};
		int d;
		for (d = 0; d < 2; d++) {
			pld_chan *ch = cs[d];
			pld_chan_progress *pp = ps[d];
			pp->beats_expected = ch->n;
			pp->beats_moved = ch->k;
			pp->finished = ch->k == ch->n;
			pp->first = ch->first;
			pp->last = ch->last;
			pp->stalled_since = ch->progress;
			pp->connected = ch->kp != NULL;
			if (ch->last > end)
				end = ch->last;
			/* the counter sees each trigger a constant time after the
			 * mover writes it (docs/emulator.md, "Counter edges"); the
			 * counters of a channel that did not finish are not reported */
			if (ch->n && ch->k == ch->n) {
				pp->first += d ? e->p.edge_rx_first : e->p.edge_tx_first;
				pp->last += d ? e->p.edge_rx_last : e->p.edge_tx_last;
				if (pp->last < pp->first)
					pp->last = pp->first;
			}
		}
	}
	r->end_cycle = end;
	if (interrupted) { /* stopped where it was: no data, no perf words */
		rc = 0;
		goto out;
	}

	/* the data: long for big FUNC transactions, so it reports progress and
	 * honours the interrupt flag too */
	e->data_bytes = 0;
	for (i = 0; i < N; i++)
		e->data_bytes += (tx[i].n + rx[i].n) * PLD_WORD_BYTES;
	e->data_txn = t;
	rc = reference ? aieth__pld_data_reference(e, t, tx, rx, r->status == PLD_RUN_DONE, r->msg,
						   sizeof r->msg)
		       : aieth__pld_data_fast(e, t, tx, rx, r->status == PLD_RUN_DONE, r->msg,
					      sizeof r->msg);
	e->data_txn = NULL;
	if (rc == PLD_DATA_IO_FAILED) {
		r->status = PLD_RUN_ERROR;
		snprintf(r->msg, sizeof r->msg,
			 "the emulated board stopped the transaction once a data source or "
			 "sink had failed, %.0f%% of its data computed",
			 e->data_bytes ? 100.0 * (double)e->shown / (double)e->data_bytes : 0.0);
		rc = 0;
		goto out;
	}
	if (rc == PLD_DATA_INTERRUPTED) {
		r->status = PLD_RUN_INTERRUPTED;
		snprintf(r->msg, sizeof r->msg,
			 "interrupted while the emulated board computed the data (%.0f%% done); "
			 "its counters had reached cycle %llu",
			 e->data_bytes ? 100.0 * (double)e->shown / (double)e->data_bytes : 0.0,
			 (unsigned long long)end);
		rc = 0;
		goto out;
	}
	if (rc) {
		r->status = PLD_RUN_ERROR;
		rc = 0;
		goto out;
	}

	/* store_perf runs only when the kernel completes */
	if (r->status == PLD_RUN_DONE) {
		first = calloc(4 * (size_t)N, sizeof *first);
		if (!first) {
			snprintf(r->msg, sizeof r->msg, "emulator: out of memory");
			r->status = PLD_RUN_ERROR;
			goto out;
		}
		for (i = 0; i < N; i++) {
			first[i] = r->tx[i].first;
			first[N + i] = r->tx[i].last;
			first[2 * N + i] = r->rx[i].first;
			first[3 * N + i] = r->rx[i].last;
		}
		aieth__pld_perf_encode(N, first, first + N, first + 2 * N, first + 3 * N, t->perf);
	}
	rc = 0;
out:
	free(first);
	free(txc);
	free(rxc);
	free(tx);
	free(rx);
	return rc;
}

/* Where each port of each active kernel stands at board cycle now, after
 * a stalled run or at a timeout: the kernel inside an iteration that ends
 * later holds all its ports; a kernel that ran its iterations takes and
 * gives nothing more; else an input whose next window is short waits for
 * data and an output not drained waits for space. */
size_t aieth__pld_engine_port_states(const pld_engine *e, uint64_t now, pld_port_state *out,
				     size_t cap)
{
	size_t i, n = 0;
	uint32_t p;
	for (i = 0; i < e->nk; i++) {
		const pld_kern *k = &e->k[i];
		/* fin is signed time (before the transaction: far in the past) */
		int busy = k->started > k->started0 && (int64_t)k->fin[1] > (int64_t)now;
		int done = !busy && k->limit != PLD_FOREVER && k->started >= k->limit;
		if (!k->active)
			continue;
		for (p = 0; p < k->d.n_in + k->d.n_out && p < 2 * PLD_MAX_PORTS; p++) {
			int o = p >= k->d.n_in;
			uint32_t q = o ? p - k->d.n_in : p;
			pld_port_state ps;
			memset(&ps, 0, sizeof ps);
			ps.kernel = i;
			ps.out = o;
			ps.port = q;
			ps.chan = o ? k->d.out_chan[q] : k->d.in_chan[q];
			ps.started = k->started;
			ps.limit = k->limit;
			ps.beats_per_iteration = o ? k->d.out_beats[q] : k->d.in_beats[q];
			ps.kernel_name = k->d.kernel_name ? k->d.kernel_name : "kernel";
			ps.model_name = k->d.model_name ? k->d.model_name : "";
			ps.graph = k->d.graph;
			if (busy) {
				ps.state = PLD_PORT_WAIT_KERNEL;
				ps.busy_until = k->fin[1];
			} else if (done) {
				ps.state = PLD_PORT_DONE;
			} else if (!o && k->w[q] < (k->started + 1) * k->d.in_beats[q]) {
				ps.state = PLD_PORT_WAIT_INPUT;
				ps.beats = k->w[q] - k->started * k->d.in_beats[q];
			} else if (o && k->r[q] < k->started * k->d.out_beats[q]) {
				ps.state = PLD_PORT_WAIT_OUTPUT;
				ps.beats = k->d.out_beats[q] - k->r[q] % k->d.out_beats[q];
			} else {
				ps.state = PLD_PORT_READY;
			}
			if (n < cap)
				out[n] = ps;
			n++;
		}
	}
	return n;
}
