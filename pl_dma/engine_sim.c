/* SPDX-License-Identifier: MIT */
/*
 * engine_sim.c - cycle-level timing of one component (channels and kernels
 * that interact) of the emulated board.
 *
 * One function, step(), defines what happens in a cycle; both modes call it.
 * The reference mode calls it for every cycle. The fast mode (a) jumps over
 * cycles in which nothing can happen (no state changes and no stored time
 * falls due), and (b) detects a periodic steady state: when the normalized
 * state (everything that decides future behaviour, with times relative to
 * now) at two anchor cycles is identical, the system repeats that period
 * until a counter nears one of its thresholds, so whole periods are applied
 * at once. Both skips are exact by construction and cross-checked against
 * the reference mode by tests/unit/test_engine.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pl_dma/engine_internal.h"

#define T_PAST (INT64_MIN / 4)
#define DELAY_CAP 4096 /* delays further than this read as "far" */
#define HIST_MAX 4096  /* anchors remembered per detection round */

typedef int64_t tick;

/* ----------------------------------------------------------- kernel rules */

static int kern_accepts(const pld_kern *k, uint32_t p, tick t)
{
	uint64_t j = k->w[p] / k->d.in_beats[p];
	if (j > k->started + 1)
		return 0;
	if (j < 2)
		return 1;
	/* window j reuses the buffer of iteration j-2: it must have finished */
	return t >= (tick)k->fin[j - k->started];
}

static int kern_has_output(const pld_kern *k, uint32_t q, tick t)
{
	uint64_t j = k->r[q] / k->d.out_beats[q];
	if (j >= k->started)
		return 0;
	return t >= (tick)k->avail[j + 2 - k->started];
}

static int kern_can_start(const pld_kern *k, tick t)
{
	uint32_t i;
	if (k->started >= k->limit)
		return 0;
	if (k->started > 0 && t < (tick)k->fin[1])
		return 0;
	for (i = 0; i < k->d.n_in; i++)
		if (k->w[i] < (k->started + 1) * k->d.in_beats[i] || (tick)k->windone[i][0] > t)
			return 0;
	if (k->started >= 2)
		for (i = 0; i < k->d.n_out; i++)
			if (k->r[i] < (k->started - 1) * k->d.out_beats[i] ||
			    (tick)k->draindone[i][0] > t)
				return 0;
	return 1;
}

/* Cycles and latency of iteration i from the kernel's timing hook, asked
 * PLD_TIMING_BATCH iterations at a time and checked as they are used (an
 * iteration that never starts is never judged). 0, or -1 with err filled. */
static int kern_timing(pld_kern *k, uint64_t i, uint64_t *cyc, uint64_t *lat, char *err,
		       size_t errlen)
{
	const pld_kernel_desc *d = &k->d;
	const char *mn = d->model_name ? d->model_name : "?";
	const char *kn = d->kernel_name ? d->kernel_name : "?";
	if (i - k->tbase >= k->tn) {
		uint64_t n =
			UINT64_MAX - i < PLD_TIMING_BATCH ? UINT64_MAX - i + 1 : PLD_TIMING_BATCH;
		int rc;
		k->tn = 0;
		rc = d->timing(d->timing_ctx, d->timing_kernel, i, n, k->tcyc, k->tlat);
		if (rc) {
			snprintf(err, errlen,
				 "model \"%s\": kernel %u \"%s\": iteration_timing failed"
				 " (returned %d) for iterations %llu..%llu",
				 mn, (unsigned)d->timing_kernel, kn, rc, (unsigned long long)i,
				 (unsigned long long)(i + n - 1));
			return -1;
		}
		k->tbase = i;
		k->tn = n;
	}
	*cyc = k->tcyc[i - k->tbase];
	*lat = k->tlat[i - k->tbase];
	if (*cyc < 1 || *cyc > PLD_MAX_TIMING || *lat > PLD_MAX_TIMING) {
		int bad = *cyc < 1 || *cyc > PLD_MAX_TIMING;
		snprintf(err, errlen,
			 "model \"%s\": kernel %u \"%s\": iteration %llu: iteration_timing"
			 " gave %s %llu, %s",
			 mn, (unsigned)d->timing_kernel, kn, (unsigned long long)i,
			 bad ? "cycles" : "latency", (unsigned long long)(bad ? *cyc : *lat),
			 bad ? "out of range 1..1000000000" : "above the limit of 1000000000");
		return -1;
	}
	return 0;
}

/* Start iteration `started` at t: its end and output times follow from its
 * cycles and latency (the kernel's, or the hook's for this iteration). */
static int kern_start(pld_comp *c, pld_kern *k, tick t)
{
	uint64_t cyc = k->d.cpi, lat = k->d.latency;
	uint32_t i;
	if (k->d.timing && kern_timing(k, k->started, &cyc, &lat, c->err, c->errlen))
		return -1;
	k->fin[0] = k->fin[1];
	k->avail[0] = k->avail[1];
	k->fin[1] = (uint64_t)t + cyc;
	k->avail[1] = (uint64_t)t + cyc + lat;
	k->started++;
	for (i = 0; i < k->d.n_in; i++) {
		k->windone[i][0] = k->windone[i][1];
		k->windone[i][1] = (uint64_t)T_PAST;
	}
	for (i = 0; i < k->d.n_out; i++) {
		k->draindone[i][0] = k->draindone[i][1];
		k->draindone[i][1] = (uint64_t)T_PAST;
	}
	return 0;
}

/* ------------------------------------------------------------ the movers */

/* A visit of a slot whose channel has nothing left: the slot leaves the
 * rotation (the kernel decrements num_valid_channels without a shift). */
static void mover_drop(pld_mover *m)
{
	memmove(m->ring + m->pos, m->ring + m->pos + 1, (m->nv - m->pos - 1) * sizeof *m->ring);
	m->nv--;
	if (m->pos >= m->nv)
		m->pos = 0;
}

/* A visit that moved nothing: the slot goes to the back of the rotation. */
static void mover_idle(pld_mover *m, tick t, uint32_t O)
{
	m->pos = (m->pos + 1) % m->nv;
	m->next = (uint64_t)t + O;
	if (m->idle < m->nv)
		m->idle++;
}

/* The reader (load_memories): a full burst when at least a burst remains
 * and the FIFO has room for it, else the tail when it fits; the loop waits
 * for the burst's last word before the next visit. 1 = something moved. */
static int visit_reader(pld_comp *c, tick t)
{
	const pld_engine_params *P = &c->e->p;
	pld_mover *m = &c->rd;
	uint32_t slot = m->ring[m->pos], B = 0;
	pld_chan *ch = slot == PLD_RING_EMPTY ? NULL : c->tx[slot];
	uint64_t rem = ch ? ch->n - ch->fetched : 0;

	if (rem == 0) {
		mover_drop(m);
		m->next = (uint64_t)t + P->loop_overhead;
		return 1;
	}
	if (rem >= P->burst_words && ch->fifo + P->burst_words <= P->fifo_depth)
		B = P->burst_words;
	else if (ch->fifo + rem <= P->fifo_depth)
		B = (uint32_t)rem;
	if (!B) {
		mover_idle(m, t, P->loop_overhead);
		return 0;
	}
	m->pos = (m->pos + 1) % m->nv;
	m->busy = 1;
	m->chan = slot;
	m->words = B;
	m->done = 0;
	m->start = (uint64_t)t + (P->read_latency ? P->read_latency : 1);
	m->next = m->start + B - 1 + P->loop_overhead;
	ch->fetched += B;
	ch->inflight += B;
	return 1;
}

/* The writer (store_memories): a full burst when a burst remains and is
 * buffered, else the tail once all of it is buffered; the loop waits for
 * the write response before the next visit. 1 = something moved. */
static int visit_writer(pld_comp *c, tick t)
{
	const pld_engine_params *P = &c->e->p;
	pld_mover *m = &c->wr;
	uint32_t slot = m->ring[m->pos], B = 0;
	pld_chan *ch = slot == PLD_RING_EMPTY ? NULL : c->rx[slot];
	uint64_t rem = ch ? ch->n - ch->claimed : 0;

	if (rem == 0) {
		mover_drop(m);
		m->next = (uint64_t)t + P->loop_overhead;
		return 1;
	}
	if (rem >= P->burst_words && ch->fifo >= P->burst_words)
		B = P->burst_words;
	else if (ch->fifo == rem)
		B = (uint32_t)rem;
	if (!B) {
		mover_idle(m, t, P->loop_overhead);
		return 0;
	}
	m->pos = (m->pos + 1) % m->nv;
	m->busy = 1;
	m->chan = slot;
	m->words = B;
	m->done = 0;
	m->start = (uint64_t)t + 1;
	m->next = (uint64_t)t + B + P->write_latency + P->loop_overhead;
	ch->claimed += B;
	return 1;
}

/* Visits a quiescent mover (a whole rotation of idle visits since anything
 * moved) makes before cycle nx: all idle, so only its position moves. */
static void mover_catch_up(pld_mover *m, tick nx, uint32_t O)
{
	uint64_t k;
	if (!m->nv || m->idle < m->nv || (tick)m->next >= nx)
		return;
	k = ((uint64_t)(nx - (tick)m->next) + O - 1) / O;
	m->pos = (uint32_t)((m->pos + k) % m->nv);
	m->next += k * O;
}

/* ------------------------------------------------------------ one cycle */

/* Process cycle t. Returns a bit set: 1 = anything happened, 2 = the
 * anchor channel moved a beat; or -2: a timing hook failed (c->err). */
static int step(pld_comp *c, tick t, pld_chan *anchor)
{
	const pld_engine_params *P = &c->e->p;
	int act = 0;
	size_t i;

	if (c->func) {
		/* 1. the reader's burst puts one word per cycle into its FIFO */
		pld_mover *m = &c->rd;
		if (m->busy && (tick)(m->start + m->done) <= t) {
			pld_chan *ch = c->tx[m->chan];
			ch->fifo++;
			ch->inflight--;
			if (++m->done == m->words)
				m->busy = 0;
			act = 1;
		}
		/* 2. the writer's burst takes one word per cycle from its FIFO */
		m = &c->wr;
		if (m->busy && (tick)(m->start + m->done) <= t) {
			pld_chan *ch = c->rx[m->chan];
			ch->fifo--;
			ch->popped++;
			if (++m->done == m->words)
				m->busy = 0;
			act = 1;
		}
	}

	/* 3. TX channels push one beat each */
	for (i = 0; i < c->ntx; i++) {
		pld_chan *ch = c->tx[i];
		pld_kern *k = ch->kp;
		uint32_t p = ch->port;
		if (ch->k >= ch->n || t < (tick)ch->d || !k)
			continue;
		if (c->func && ch->fifo == 0)
			continue;
		if (!kern_accepts(k, p, t))
			continue;
		ch->k++;
		if (c->func)
			ch->fifo--;
		k->w[p]++;
		if (k->w[p] % k->d.in_beats[p] == 0)
			k->windone[p][k->w[p] / k->d.in_beats[p] - 1 - k->started] =
				(uint64_t)(t + 1);
		ch->last = ch->progress = (uint64_t)(t + 1);
		act |= ch == anchor ? 3 : 1;
	}

	/* 4. kernels start iterations */
	for (i = 0; i < c->nkern; i++)
		if (kern_can_start(c->kern[i], t)) {
			if (kern_start(c, c->kern[i], t))
				return -2;
			act |= 1;
		}

	/* 5. RX channels take one beat each */
	for (i = 0; i < c->nrx; i++) {
		pld_chan *ch = c->rx[i];
		pld_kern *k = ch->kp;
		uint32_t q = ch->port;
		if (ch->k >= ch->n || t < (tick)ch->d || !k)
			continue;
		if (c->func && ch->fifo >= P->fifo_depth)
			continue;
		if (!kern_has_output(k, q, t))
			continue;
		if (!ch->have_first) {
			ch->first = (uint64_t)t;
			ch->have_first = 1;
		}
		ch->k++;
		k->r[q]++;
		if (k->r[q] % k->d.out_beats[q] == 0)
			k->draindone[q][k->r[q] / k->d.out_beats[q] + 1 - k->started] =
				(uint64_t)(t + 1);
		if (c->func)
			ch->fifo++;
		ch->last = ch->progress = (uint64_t)(t + 1);
		act |= ch == anchor ? 3 : 1;
	}

	if (!c->func)
		return act;

	/* 6. the movers visit their next slot when their loop gets there */
	if (c->rd.nv && !c->rd.busy && (tick)c->rd.next <= t)
		act |= visit_reader(c, t);
	if (c->wr.nv && !c->wr.busy && (tick)c->wr.next <= t)
		act |= visit_writer(c, t);
	/* idle visits count only while nothing else changes */
	if (act)
		c->rd.idle = c->wr.idle = 0;
	return act;
}

/* ------------------------------------------------------ completion, events */

static int comp_done(const pld_comp *c)
{
	size_t i;
	for (i = 0; i < c->ntx; i++)
		if (c->tx[i]->k < c->tx[i]->n)
			return 0;
	for (i = 0; i < c->nrx; i++) {
		if (c->rx[i]->k < c->rx[i]->n)
			return 0;
		if (c->func && c->rx[i]->popped < c->rx[i]->n)
			return 0;
	}
	return !c->func || (c->rd.nv == 0 && c->wr.nv == 0);
}

static void consider(tick *best, tick x, tick t)
{
	if (x > t && (*best < 0 || x < *best))
		*best = x;
}

/* Earliest cycle after t at which a stored time falls due, or -1. */
static tick next_event(const pld_comp *c, tick t)
{
	tick best = -1;
	size_t i;
	uint32_t p;
	for (i = 0; i < c->ntx; i++)
		if (c->tx[i]->k < c->tx[i]->n)
			consider(&best, (tick)c->tx[i]->d, t);
	for (i = 0; i < c->nrx; i++)
		if (c->rx[i]->k < c->rx[i]->n)
			consider(&best, (tick)c->rx[i]->d, t);
	for (i = 0; i < c->nkern; i++) {
		const pld_kern *k = c->kern[i];
		int j;
		for (j = 0; j < 2; j++) {
			consider(&best, (tick)k->fin[j], t);
			consider(&best, (tick)k->avail[j], t);
			for (p = 0; p < k->d.n_in; p++)
				consider(&best, (tick)k->windone[p][j], t);
			for (p = 0; p < k->d.n_out; p++)
				consider(&best, (tick)k->draindone[p][j], t);
		}
	}
	if (c->func) {
		const pld_mover *m[2] = {&c->rd, &c->wr};
		for (i = 0; i < 2; i++) {
			if (m[i]->busy)
				consider(&best, (tick)(m[i]->start + m[i]->done), t);
			/* a quiescent mover only spins: it waits for the others */
			if (m[i]->nv && m[i]->idle < m[i]->nv)
				consider(&best, (tick)m[i]->next, t);
		}
	}
	return best;
}

/* --------------------------------------------- periodic steady-state skip */

typedef struct {
	uint64_t *v; /* normalized state */
	size_t n, cap;
} vec;

static int vgrow(vec *x)
{
	size_t nc = x->cap ? x->cap * 2 : 256;
	uint64_t *nv = realloc(x->v, nc * sizeof *nv);
	if (!nv)
		return -1;
	x->v = nv;
	x->cap = nc;
	return 0;
}

/* Inlined: normalize() and counters() push a few dozen words per anchor
 * beat, and a call per word was a third of the simulation's time. */
static inline int vpush(vec *x, uint64_t w)
{
	if (x->n == x->cap && vgrow(x))
		return -1;
	x->v[x->n++] = w;
	return 0;
}

static uint64_t rel(uint64_t x, tick t) { return (tick)x > t ? (uint64_t)((tick)x - t) : 0; }

static uint64_t rel_delay(uint64_t d, tick t)
{
	uint64_t r = rel(d, t);
	return r > DELAY_CAP ? DELAY_CAP : r;
}

/* Everything that decides future behaviour, relative to t. Counters that
 * only matter through thresholds are excluded (see margins()). */
static int normalize(const pld_comp *c, tick t, vec *x)
{
	size_t i, j;
	uint32_t p;
	int rc = 0;
	x->n = 0;
	for (i = 0; i < c->ntx; i++) {
		const pld_chan *ch = c->tx[i];
		rc |= vpush(x, ch->k < ch->n ? rel_delay(ch->d, t) : 0);
		rc |= vpush(x, ((uint64_t)ch->fifo << 32) | ch->inflight);
	}
	for (i = 0; i < c->nrx; i++) {
		const pld_chan *ch = c->rx[i];
		rc |= vpush(x, ch->k < ch->n ? rel_delay(ch->d, t) : 0);
		rc |= vpush(x, ch->fifo);
	}
	for (i = 0; i < c->nkern; i++) {
		const pld_kern *k = c->kern[i];
		rc |= vpush(x, k->started < 2 ? k->started : 2);
		if (k->d.timing) {
			/* the timing of the iterations to come: their phase in the
			 * period (from iteration P on), else the index itself, so
			 * that only a state where the kernel starts nothing can
			 * repeat */
			uint64_t P = k->d.timing_period;
			rc |= vpush(x, P && k->started >= P ? P + k->started % P : k->started);
		}
		for (j = 0; j < 2; j++) {
			rc |= vpush(x, rel(k->fin[j], t));
			rc |= vpush(x, rel(k->avail[j], t));
		}
		for (p = 0; p < k->d.n_in; p++) {
			rc |= vpush(x, k->w[p] - k->started * k->d.in_beats[p]);
			rc |= vpush(x, rel(k->windone[p][0], t));
			rc |= vpush(x, rel(k->windone[p][1], t));
		}
		for (p = 0; p < k->d.n_out; p++) {
			rc |= vpush(x, k->r[p] - k->started * k->d.out_beats[p]);
			rc |= vpush(x, rel(k->draindone[p][0], t));
			rc |= vpush(x, rel(k->draindone[p][1], t));
		}
	}
	if (c->func) {
		const pld_mover *m[2] = {&c->rd, &c->wr};
		for (j = 0; j < 2; j++) {
			rc |= vpush(x, ((uint64_t)m[j]->nv << 32) | m[j]->pos);
			rc |= vpush(x, ((uint64_t)m[j]->idle << 1) | (uint64_t)m[j]->busy);
			rc |= vpush(x, rel(m[j]->next, t));
			if (m[j]->busy) {
				rc |= vpush(x, ((uint64_t)m[j]->chan << 40) |
						       ((uint64_t)m[j]->words << 20) | m[j]->done);
				rc |= vpush(x, rel(m[j]->start, t));
			}
			for (i = 0; i < m[j]->nv; i++)
				rc |= vpush(x, m[j]->ring[i]);
		}
	}
	return rc;
}

/* Absolute counters, in a fixed order (their per-period increments). */
static int counters(const pld_comp *c, vec *x)
{
	size_t i;
	uint32_t p;
	int rc = 0;
	x->n = 0;
	for (i = 0; i < c->ntx; i++) {
		rc |= vpush(x, c->tx[i]->k);
		rc |= vpush(x, c->tx[i]->fetched);
	}
	for (i = 0; i < c->nrx; i++) {
		rc |= vpush(x, c->rx[i]->k);
		rc |= vpush(x, c->rx[i]->claimed);
		rc |= vpush(x, c->rx[i]->popped);
	}
	for (i = 0; i < c->nkern; i++) {
		const pld_kern *k = c->kern[i];
		rc |= vpush(x, k->started);
		for (p = 0; p < k->d.n_in; p++)
			rc |= vpush(x, k->w[p]);
		for (p = 0; p < k->d.n_out; p++)
			rc |= vpush(x, k->r[p]);
	}
	return rc;
}

/* Two independent lanes, combined at the end: half the dependency chain
 * of one (the hash only picks a slot; hist_find compares whole states). */
static uint64_t hash_vec(const vec *x)
{
	uint64_t h = 1469598103934665603ull, g = 0x9e3779b97f4a7c15ull;
	size_t i;
	for (i = 0; i + 1 < x->n; i += 2) {
		h = (h ^ x->v[i]) * 1099511628211ull;
		h ^= h >> 29;
		g = (g ^ x->v[i + 1]) * 0xff51afd7ed558ccdull;
		g ^= g >> 31;
	}
	if (i < x->n) {
		h = (h ^ x->v[i]) * 1099511628211ull;
		h ^= h >> 29;
	}
	h ^= g * 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 32);
}

/* How many periods can be applied: every thresholded counter must stay
 * clear of its threshold (by K plus one period) until the end of the skip. */
static uint64_t fit(uint64_t remaining, uint64_t delta, uint64_t K)
{
	if (delta == 0)
		return UINT64_MAX;
	if (remaining < K + delta)
		return 0;
	return (remaining - K - delta) / delta;
}

typedef struct {
	uint64_t hash;
	tick t;
	size_t off;    /* into the pool: normalized state then counters */
	uint32_t slot; /* its place in the index */
} hentry;

/* The index grows with the entries (at most HIST_MAX, so at most 2 x
 * HIST_MAX slots) and is cleared entry by entry: a component that finds
 * its period after a few anchors never touches more than a few slots. A
 * fixed 2 x HIST_MAX table zeroed per component and per skip cost more
 * than the whole simulation of a PERF channel pair (docs/emulator.md,
 * "Speed"). */
#define HTAB_MIN 64

typedef struct {
	hentry *e;
	size_t n, cap;
	uint64_t *pool;
	size_t pn, pcap;
	uint32_t *tab; /* entry index + 1, 0 = empty; tcap slots */
	size_t tcap;   /* a power of two, >= 2 (n + 1) */
} history;

static void hist_clear(history *h)
{
	size_t i;
	for (i = 0; i < h->n; i++)
		h->tab[h->e[i].slot] = 0;
	h->n = 0;
	h->pn = 0;
}

/* Entry with the same hash and state, or NULL. */
static const hentry *hist_find(const history *h, uint64_t hash, const vec *s)
{
	size_t i;
	if (!h->tcap)
		return NULL;
	for (i = (size_t)(hash & (h->tcap - 1)); h->tab[i]; i = (i + 1) & (h->tcap - 1)) {
		const hentry *e = &h->e[h->tab[i] - 1];
		if (e->hash == hash && memcmp(h->pool + e->off, s->v, s->n * sizeof *s->v) == 0)
			return e;
	}
	return NULL;
}

static void hist_place(history *h, size_t idx)
{
	size_t i = (size_t)(h->e[idx].hash & (h->tcap - 1));
	while (h->tab[i])
		i = (i + 1) & (h->tcap - 1);
	h->tab[i] = (uint32_t)idx + 1;
	h->e[idx].slot = (uint32_t)i;
}

static int hist_add(history *h, uint64_t hash, tick t, const vec *s, const vec *cnt)
{
	size_t need = s->n + cnt->n;
	if (h->n == h->cap) {
		size_t nc = h->cap ? h->cap * 2 : 64;
		hentry *ne = realloc(h->e, nc * sizeof *ne);
		if (!ne)
			return -1;
		h->e = ne;
		h->cap = nc;
	}
	if (2 * (h->n + 1) > h->tcap) { /* keep the load at most one half */
		size_t nc = h->tcap ? 2 * h->tcap : HTAB_MIN, i;
		uint32_t *nt = calloc(nc, sizeof *nt);
		if (!nt)
			return -1;
		free(h->tab);
		h->tab = nt;
		h->tcap = nc;
		for (i = 0; i < h->n; i++)
			hist_place(h, i);
	}
	if (h->pn + need > h->pcap) {
		size_t nc = h->pcap ? h->pcap * 2 : 512;
		uint64_t *np;
		while (nc < h->pn + need)
			nc *= 2;
		np = realloc(h->pool, nc * sizeof *np);
		if (!np)
			return -1;
		h->pool = np;
		h->pcap = nc;
	}
	h->e[h->n].hash = hash;
	h->e[h->n].t = t;
	h->e[h->n].off = h->pn;
	memcpy(h->pool + h->pn, s->v, s->n * sizeof *s->v);
	memcpy(h->pool + h->pn + s->n, cnt->v, cnt->n * sizeof *cnt->v);
	h->pn += need;
	hist_place(h, h->n);
	h->n++;
	return 0;
}

/* Apply m periods of length P whose counter increments are delta. */
static void apply_skip(pld_comp *c, tick t0, uint64_t m, uint64_t P, const uint64_t *delta)
{
	uint64_t sh = m * P;
	size_t i, j, di = 0;
	uint32_t p;
	for (i = 0; i < c->ntx; i++) {
		pld_chan *ch = c->tx[i];
		uint64_t dk = delta[di++], df = delta[di++];
		ch->k += m * dk;
		ch->fetched += m * df;
		if (dk && (tick)ch->last > t0) {
			ch->last += sh;
			ch->progress += sh;
		}
	}
	for (i = 0; i < c->nrx; i++) {
		pld_chan *ch = c->rx[i];
		uint64_t dk = delta[di++], dc = delta[di++], dp = delta[di++];
		ch->k += m * dk;
		ch->claimed += m * dc;
		ch->popped += m * dp;
		if (dk && (tick)ch->last > t0) {
			ch->last += sh;
			ch->progress += sh;
		}
	}
	for (i = 0; i < c->nkern; i++) {
		pld_kern *k = c->kern[i];
		k->started += m * delta[di++];
		for (p = 0; p < k->d.n_in; p++)
			k->w[p] += m * delta[di++];
		for (p = 0; p < k->d.n_out; p++)
			k->r[p] += m * delta[di++];
		for (j = 0; j < 2; j++) {
			k->fin[j] += sh;
			k->avail[j] += sh;
			for (p = 0; p < k->d.n_in; p++)
				k->windone[p][j] += sh;
			for (p = 0; p < k->d.n_out; p++)
				k->draindone[p][j] += sh;
		}
	}
	if (c->func) {
		pld_mover *mv[2] = {&c->rd, &c->wr};
		for (j = 0; j < 2; j++) {
			mv[j]->next += sh;
			if (mv[j]->busy)
				mv[j]->start += sh;
		}
	}
}

/* Periods a channel whose start is still "far" (beyond DELAY_CAP) allows:
 * it must stay far for the whole skip. */
static uint64_t far_delay_fit(const pld_chan *ch, tick t1, uint64_t P)
{
	uint64_t r;
	if (ch->k >= ch->n || (tick)ch->d <= t1)
		return UINT64_MAX;
	r = ch->d - (uint64_t)t1;
	return r >= (uint64_t)DELAY_CAP + P ? (r - DELAY_CAP) / P - 1 : 0;
}

/* K: how far every thresholded counter must stay from its threshold. */
static uint64_t skip_margin(const pld_comp *c)
{
	return (uint64_t)c->e->p.burst_words + c->e->p.fifo_depth + 4;
}

/* Number of periods that may be skipped from t1 (0 = none). */
static uint64_t skip_count(const pld_comp *c, tick t1, uint64_t P, const uint64_t *delta,
			   uint64_t cycle_limit)
{
	uint64_t K = skip_margin(c), m = UINT64_MAX, f;
	size_t i, di = 0;

	for (i = 0; i < c->ntx; i++) {
		const pld_chan *ch = c->tx[i];
		uint64_t dk = delta[di++], df = delta[di++];
		f = fit(ch->n - ch->k, dk, K);
		if (f < m)
			m = f;
		f = fit(ch->n - ch->fetched, df, K);
		if (f < m)
			m = f;
		/* a far delay must stay far for the whole skip */
		f = far_delay_fit(ch, t1, P);
		if (f < m)
			m = f;
	}
	for (i = 0; i < c->nrx; i++) {
		const pld_chan *ch = c->rx[i];
		uint64_t dk = delta[di++], dc = delta[di++], dp = delta[di++];
		f = fit(ch->n - ch->k, dk, K);
		if (f < m)
			m = f;
		f = fit(ch->n - ch->claimed, dc, K);
		if (f < m)
			m = f;
		f = fit(ch->n - ch->popped, dp, K);
		if (f < m)
			m = f;
		f = far_delay_fit(ch, t1, P);
		if (f < m)
			m = f;
	}
	for (i = 0; i < c->nkern; i++) {
		const pld_kern *k = c->kern[i];
		uint64_t ds = delta[di++];
		if (k->limit != PLD_FOREVER) {
			f = fit(k->limit - k->started, ds, K);
			if (f < m)
				m = f;
		}
		di += k->d.n_in + k->d.n_out;
	}
	if (cycle_limit) {
		f = (uint64_t)t1 + P < cycle_limit ? (cycle_limit - (uint64_t)t1) / P - 1 : 0;
		if (f < m)
			m = f;
	}
	return m == UINT64_MAX ? 0 : m;
}

/* ------------------------------------------------------------ the driver */

static pld_chan *pick_anchor(const pld_comp *c)
{
	size_t i;
	for (i = 0; i < c->ntx; i++)
		if (c->tx[i]->kp && c->tx[i]->k < c->tx[i]->n)
			return c->tx[i];
	for (i = 0; i < c->nrx; i++)
		if (c->rx[i]->kp && c->rx[i]->k < c->rx[i]->n)
			return c->rx[i];
	return NULL;
}

/* Both movers start at cycle 0 with every channel slot of the board in
 * index order (AMD's kernel shifts 0..N-1 into its channel register):
 * slots of channels without words are dropped on their first visit. */
static int mover_setup(pld_comp *c)
{
	uint32_t N = c->e->p.channels, idx;
	size_t i;
	pld_mover *m[2] = {&c->rd, &c->wr};
	pld_chan **chs[2] = {c->tx, c->rx};
	size_t nch[2] = {c->ntx, c->nrx}, d;
	for (d = 0; d < 2; d++) {
		memset(m[d], 0, sizeof *m[d]);
		m[d]->ring = malloc((size_t)N * sizeof *m[d]->ring);
		if (!m[d]->ring)
			return -1;
		for (idx = 0; idx < N; idx++)
			m[d]->ring[idx] = PLD_RING_EMPTY;
		for (i = 0; i < nch[d]; i++)
			if (chs[d][i]->idx < N)
				m[d]->ring[chs[d][i]->idx] = (uint32_t)i;
		m[d]->nv = N;
	}
	return 0;
}

static void mover_free(pld_comp *c)
{
	free(c->rd.ring);
	free(c->wr.ring);
	c->rd.ring = c->wr.ring = NULL;
}

/* The interrupt flag and the progress hook, every HOOK_MASK+1 steps: cheap
 * next to the steps themselves. 1 = interrupted. */
#define HOOK_MASK 0x3fffu

static int poll_hooks(const pld_comp *c)
{
	pld_engine *e = c->e;
	uint64_t done = 0, total = 0;
	size_t i;
	if (e->intr && *e->intr)
		return 1;
	if (e->progress) {
		for (i = 0; i < c->ntx; i++) {
			done += c->tx[i]->k;
			total += c->tx[i]->n;
		}
		for (i = 0; i < c->nrx; i++) {
			done += c->rx[i]->k;
			total += c->rx[i]->n;
		}
		e->shown = done * PLD_WORD_BYTES;
		e->progress(e->progress_ctx, e->shown, total * PLD_WORD_BYTES);
	}
	return 0;
}

pld_run_status aieth__pld_sim_component(pld_comp *c, int reference, uint64_t cycle_limit,
					uint64_t *end, uint64_t *steps, uint64_t *skipped,
					char *err, size_t errlen)
{
	tick t = 0;
	pld_run_status st = PLD_RUN_DONE;
	history *h = calloc(1, sizeof *h);
	vec s = {0}, cnt = {0};
	pld_chan *anchor = pick_anchor(c);
	tick last_act = 0;

	c->err = err;
	c->errlen = errlen;
	if (!h || (c->func && mover_setup(c))) {
		snprintf(err, errlen, "emulator: out of memory");
		free(h);
		mover_free(c);
		return PLD_RUN_ERROR;
	}
	for (;;) {
		int act;
		if (comp_done(c))
			break;
		if (!(*steps & HOOK_MASK) && poll_hooks(c)) {
			st = PLD_RUN_INTERRUPTED;
			break;
		}
		if (cycle_limit && (uint64_t)t >= cycle_limit) {
			st = PLD_RUN_TIMEOUT;
			break;
		}
		act = step(c, t, anchor);
		(*steps)++;
		if (act == -2) {
			c->model_failed = 1;
			st = PLD_RUN_ERROR;
			break;
		}
		if (act < 0) {
			snprintf(err, errlen, "emulator: out of memory");
			st = PLD_RUN_ERROR;
			break;
		}
		if (act) {
			last_act = t + 1;
			if (anchor && anchor->k >= anchor->n) {
				anchor = pick_anchor(c);
				hist_clear(h);
			}
		}
		/* Within the margin of its last beat the anchor alone forbids any
		 * skip (skip_count: it moves at least one beat per period, so
		 * fit() is 0), and looking for a period there is wasted work. */
		if (!reference && (act & 2) && anchor && anchor->n - anchor->k > skip_margin(c)) {
			uint64_t hv;
			size_t i;
			const hentry *he;
			if (normalize(c, t, &s) || counters(c, &cnt)) {
				snprintf(err, errlen, "emulator: out of memory");
				st = PLD_RUN_ERROR;
				break;
			}
			hv = hash_vec(&s);
			he = hist_find(h, hv, &s);
			if (he) {
				const uint64_t *old = h->pool + he->off;
				uint64_t *dv = malloc(cnt.n * sizeof *dv), m, P;
				if (!dv) {
					snprintf(err, errlen, "emulator: out of memory");
					st = PLD_RUN_ERROR;
					break;
				}
				P = (uint64_t)(t - he->t);
				for (i = 0; i < cnt.n; i++)
					dv[i] = cnt.v[i] - old[s.n + i];
				m = skip_count(c, t, P, dv, cycle_limit);
				if (m > 0) {
					apply_skip(c, he->t, m, P, dv);
					t += (tick)(m * P);
					last_act = t + 1;
					*skipped += m * P;
				}
				free(dv);
				hist_clear(h);
			} else {
				if (h->n >= HIST_MAX)
					hist_clear(h);
				if (hist_add(h, hv, t, &s, &cnt)) {
					snprintf(err, errlen, "emulator: out of memory");
					st = PLD_RUN_ERROR;
					break;
				}
			}
		}
		if (!act) {
			tick nx = next_event(c, t);
			if (nx < 0) {
				st = PLD_RUN_STALLED;
				break;
			}
			if (!reference) {
				if (cycle_limit && (uint64_t)nx > cycle_limit)
					nx = (tick)cycle_limit;
				if (c->func) {
					mover_catch_up(&c->rd, nx, c->e->p.loop_overhead);
					mover_catch_up(&c->wr, nx, c->e->p.loop_overhead);
				}
				t = nx;
				continue;
			}
		}
		t++;
	}
	*end = st == PLD_RUN_DONE ? (uint64_t)last_act : (uint64_t)t;
	free(h->e);
	free(h->pool);
	free(h->tab);
	free(h);
	mover_free(c);
	free(s.v);
	free(cnt.v);
	return st;
}
