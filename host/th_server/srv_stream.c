/* SPDX-License-Identifier: MIT */
/*
 * srv_stream.c - streamed transactions (srv_stream.h): the TX image's
 * gate waits for the upload, the RX image's gate follows what the device
 * wrote and publishes the bytes that are final, for the download.
 *
 * Locks: st->mu guards the stream's shared fields; it is taken with the
 * server's mu never held (the server's mu is taken inside it only to look
 * at the session's state, briefly). The device's thread alone touches the
 * RX regions' fill counts; it publishes them under st->mu.
 */
#include "th_server/srv_stream.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "th_server/srv_core.h"

#define SLICE_MS 200 /* a wait looks at the session this often */
/* the step of the hand-over between the upload, the device and the
 * download: a wake-up (two futex calls and more) per step and side; at 1 MiB
 * they were 5 system calls per MiB moved, at 8 MiB under 1 */
#define STEP_BYTES ((uint64_t)8 << 20)

enum { UP_NONE, UP_RUNNING, UP_DONE, UP_BROKEN };

/* One RX channel's place in the image (FUNC), sorted by offset. */
typedef struct {
	uint64_t off, len;
	uint64_t fill;  /* bytes [off, off+fill) written (the device's thread) */
	uint64_t shown; /* fill as last published */
	uint64_t z;     /* [off, off+z) written or cleared (a reused image) */
} rx_region;

struct srv_stream {
	aieth__server *s;
	srv_sess *x;
	uint8_t *txbuf, *rxbuf;
	uint64_t tx_size, rx_size;
	/* a reused RX image cleared as the device writes it, not before: the
	 * bytes outside the regions at the start, those the device skipped
	 * when it wrote past them, the rest of each region at the end (a 256
	 * MiB memset was 4-6 ms before the device could start) */
	int lazy;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* under mu */
	uint64_t tx_avail; /* TX bytes uploaded */
	int up;            /* UP_* */
	int closed;        /* the device gave up: no more TX bytes taken */
	uint64_t rx_ready; /* RX bytes [0, rx_ready) are final */
	int finished, device;
	uint64_t tx_want; /* the end the device waits for (0: it does not) */
	int rx_waiters;   /* downloads waiting for final bytes */
	char why[200];
	/* the device's thread */
	uint64_t tx_seen;
	rx_region *reg; /* NULL: nothing is final before the end (PERF, overlaps) */
	uint32_t nreg;
};

/* The session can no longer use its device, or the server stops. */
static int gone(srv_stream *st)
{
	int g;
	pthread_mutex_lock(&st->s->mu);
	g = st->s->stop || st->x->intr || st->x->state != SS_ACTIVE;
	pthread_mutex_unlock(&st->s->mu);
	return g;
}

/* mu held: the device gives up waiting for TX bytes; those that never
 * came read as zeros (never what a reused image held before). */
static void give_up_locked(srv_stream *st, const char *why)
{
	if (st->closed)
		return;
	st->closed = 1;
	snprintf(st->why, sizeof st->why,
		 "the TX upload stopped after %llu of %llu bytes (%s): the transaction ran "
		 "on zeros past that point",
		 (unsigned long long)st->tx_avail, (unsigned long long)st->tx_size, why);
	memset(st->txbuf + st->tx_avail, 0, (size_t)(st->tx_size - st->tx_avail));
	st->tx_avail = st->tx_size;
	pthread_cond_broadcast(&st->cv);
}

static void tx_need(void *ctx, uint64_t end)
{
	srv_stream *st = ctx;
	uint64_t last, want;
	long idle_ms = (long)st->s->limits.client_timeout_s * 1000, waited = 0;
	if (end > st->tx_size)
		end = st->tx_size;
	if (end <= st->tx_seen)
		return;
	/* a step ahead: fewer wake-ups; but never more than a slice's wait
	 * for bytes past end */
	want = st->tx_seen + STEP_BYTES;
	if (want < end)
		want = end;
	if (want > st->tx_size)
		want = st->tx_size;
	pthread_mutex_lock(&st->mu);
	last = st->tx_avail;
	while (st->tx_avail < want && !st->closed) {
		struct timespec ts = srv_deadline(CLOCK_MONOTONIC, SLICE_MS);
		int w;
		if (st->up == UP_BROKEN) {
			give_up_locked(st, "its connection broke");
			break;
		}
		/* woken once the bytes are in, not at every piece of the upload */
		st->tx_want = want;
		w = pthread_cond_timedwait(&st->cv, &st->mu, &ts);
		st->tx_want = 0;
		if (w != ETIMEDOUT)
			continue;
		if (st->tx_avail >= end)
			break;
		if (st->tx_avail != last) {
			last = st->tx_avail;
			waited = 0;
			continue;
		}
		waited += SLICE_MS;
		pthread_mutex_unlock(&st->mu);
		int g = gone(st);
		pthread_mutex_lock(&st->mu);
		if (g)
			give_up_locked(st, "the session ended");
		else if (waited >= idle_ms && st->tx_avail == last)
			give_up_locked(st, "no byte came for --client-timeout");
	}
	st->tx_seen = st->tx_avail;
	pthread_mutex_unlock(&st->mu);
}

/* The end of the final RX bytes from the regions' fill counts. */
static uint64_t rx_final(const srv_stream *st)
{
	uint32_t i;
	for (i = 0; i < st->nreg; i++) {
		const rx_region *r = &st->reg[i];
		/* bytes between regions are never written: zeros, final */
		if (r->shown < r->len)
			return r->off + r->shown;
	}
	/* no RX channel moves a byte: nothing before the end, as PERF */
	return st->nreg ? st->rx_size : 0;
}

static void rx_wrote(void *ctx, uint64_t off, uint64_t len)
{
	srv_stream *st = ctx;
	uint32_t lo = 0, hi = st->nreg;
	rx_region *r;
	uint64_t rel, end;
	if (!st->reg)
		return;
	/* the last region starting at or before off */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (st->reg[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	r = &st->reg[lo];
	if (off < r->off || off - r->off >= r->len)
		return; /* outside the regions (the cfg words never write there) */
	rel = off - r->off;
	end = len > r->len - rel ? r->len : rel + len;
	/* bytes skipped: zeros, unless the device writes them later (it
	 * writes from this thread, after this call) */
	if (st->lazy && rel > r->z)
		memset(st->rxbuf + r->off + r->z, 0, (size_t)(rel - r->z));
	if (end > r->z)
		r->z = end;
	if (rel > r->fill)
		return; /* not next to what is written: final only at the end */
	if (end <= r->fill)
		return;
	r->fill = end;
	if (r->fill - r->shown < STEP_BYTES && r->fill < r->len)
		return;
	pthread_mutex_lock(&st->mu);
	r->shown = r->fill;
	st->rx_ready = rx_final(st);
	if (st->rx_waiters)
		pthread_cond_broadcast(&st->cv);
	pthread_mutex_unlock(&st->mu);
}

static int cmp_region(const void *a, const void *b)
{
	const rx_region *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* FUNC: each RX channel's bytes from the cfg words (aieth__srv_txn_check put them
 * inside the image); overlapping channels are final only at the end. */
static int rx_regions(srv_stream *st, const srv_txn *t)
{
	uint32_t N = t->channels, c, n = 0;
	const uint64_t *b = t->cfg + 1 + 4 * (size_t)N;
	if (t->cfg[0] != 0)
		return 0; /* PERF: the URAM drains at the end */
	st->reg = calloc(N ? N : 1, sizeof *st->reg);
	if (!st->reg)
		return -1;
	for (c = 0; c < N; c++) {
		uint64_t len =
			(b[N + c] & 0xffffffffu) * (b[2 * N + c] & 0xffffffffu) * PLD_WORD_BYTES;
		if (!len)
			continue;
		st->reg[n].off = (b[3 * N + c] & 0xffffffffu) * PLD_WORD_BYTES;
		st->reg[n].len = len;
		n++;
	}
	qsort(st->reg, n, sizeof *st->reg, cmp_region);
	for (c = 1; c < n; c++)
		if (st->reg[c].off < st->reg[c - 1].off + st->reg[c - 1].len) {
			free(st->reg);
			st->reg = NULL;
			return 0;
		}
	st->nreg = n;
	st->rx_ready = rx_final(st);
	return 0;
}

/* A reused RX image (t->rx_dirty) with regions: the bytes outside them
 * now (they are final at once, rx_final) and the rest as the device goes
 * (rx_wrote, aieth__srv_stream_rx_settle). Without regions (PERF,
 * overlapping channels) it stays dirty: start_call clears it whole. */
static void rx_clear(srv_stream *st, srv_txn *t)
{
	uint64_t at = 0;
	uint32_t i;
	if (!t->rx_dirty || !st->reg || !st->nreg)
		return;
	t->rx_dirty = 0;
	for (i = 0; i < st->nreg; i++) {
		if (st->reg[i].off > at)
			memset(st->rxbuf + at, 0, (size_t)(st->reg[i].off - at));
		at = st->reg[i].off + st->reg[i].len;
	}
	if (st->rx_size > at)
		memset(st->rxbuf + at, 0, (size_t)(st->rx_size - at));
	st->lazy = 1;
}

void aieth__srv_stream_rx_settle(srv_stream *st)
{
	uint32_t i;
	if (!st->lazy)
		return;
	for (i = 0; i < st->nreg; i++) {
		rx_region *r = &st->reg[i];
		if (r->z < r->len)
			memset(st->rxbuf + r->off + r->z, 0, (size_t)(r->len - r->z));
		r->z = r->len;
	}
	st->lazy = 0;
}

int aieth__srv_stream_new(aieth__server *s, srv_sess *x, srv_txn *t)
{
	srv_stream *st = calloc(1, sizeof *st);
	if (!st)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	st->s = s;
	st->x = x;
	st->txbuf = t->txbuf;
	st->rxbuf = t->rxbuf;
	st->tx_size = t->tx_size;
	st->rx_size = t->rx_size;
	if (rx_regions(st, t)) {
		free(st);
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	}
	rx_clear(st, t);
	pthread_mutex_init(&st->mu, NULL);
	{
		pthread_condattr_t ca;
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&st->cv, &ca);
		pthread_condattr_destroy(&ca);
	}
	t->stream = st;
	return AIETH_OK;
}

void aieth__srv_stream_gates(srv_stream *st, aieth_dev_txn_opts *o)
{
	o->tx_need = tx_need;
	o->rx_wrote = rx_wrote;
	o->gate_ctx = st;
}

void aieth__srv_stream_free(srv_stream *st)
{
	if (!st)
		return;
	pthread_cond_destroy(&st->cv);
	pthread_mutex_destroy(&st->mu);
	free(st->reg);
	free(st);
}

int aieth__srv_stream_tx_begin(srv_stream *st, char *msg, size_t cap)
{
	int rc = AIETH_OK;
	pthread_mutex_lock(&st->mu);
	if (st->closed) {
		snprintf(msg, cap, "%s", st->why);
		rc = AIETH_ESTATE;
	} else if (st->up != UP_NONE) {
		snprintf(msg, cap, "its TX image was uploaded already, or its upload broke");
		rc = AIETH_ESTATE;
	} else {
		st->up = UP_RUNNING;
	}
	pthread_mutex_unlock(&st->mu);
	return rc;
}

int aieth__srv_stream_tx_data(srv_stream *st, const void *data, size_t n)
{
	int rc = 0;
	/* under mu: once the device gave up, no byte lands in the image it
	 * zeroed (the copy is a piece of libmicrohttpd's buffer, short) */
	pthread_mutex_lock(&st->mu);
	if (st->closed || n > st->tx_size - st->tx_avail) {
		rc = -1;
	} else {
		memcpy(st->txbuf + st->tx_avail, data, n);
		st->tx_avail += n;
		if (st->tx_want && st->tx_avail >= st->tx_want)
			pthread_cond_broadcast(&st->cv);
	}
	pthread_mutex_unlock(&st->mu);
	return rc;
}

void aieth__srv_stream_tx_end(srv_stream *st, int whole)
{
	pthread_mutex_lock(&st->mu);
	if (st->up == UP_RUNNING)
		st->up = whole && st->tx_avail == st->tx_size ? UP_DONE : UP_BROKEN;
	pthread_cond_broadcast(&st->cv);
	pthread_mutex_unlock(&st->mu);
}

void aieth__srv_stream_device(srv_stream *st, int running)
{
	pthread_mutex_lock(&st->mu);
	st->device = running;
	pthread_cond_broadcast(&st->cv);
	pthread_mutex_unlock(&st->mu);
}

void aieth__srv_stream_finished(srv_stream *st)
{
	pthread_mutex_lock(&st->mu);
	st->finished = 1;
	st->rx_ready = st->rx_size;
	pthread_cond_broadcast(&st->cv);
	pthread_mutex_unlock(&st->mu);
}

const char *aieth__srv_stream_failure(srv_stream *st)
{
	const char *w;
	pthread_mutex_lock(&st->mu);
	w = st->closed ? st->why : NULL;
	pthread_mutex_unlock(&st->mu);
	return w;
}

uint64_t aieth__srv_stream_rx_wait(srv_stream *st, uint64_t pos)
{
	long idle_ms = (long)st->s->limits.client_timeout_s * 1000, waited = 0;
	uint64_t r = 0;
	pthread_mutex_lock(&st->mu);
	while (st->rx_ready <= pos && !st->finished) {
		struct timespec ts = srv_deadline(CLOCK_MONOTONIC, SLICE_MS);
		int w;
		st->rx_waiters++;
		w = pthread_cond_timedwait(&st->cv, &st->mu, &ts);
		st->rx_waiters--;
		if (w != ETIMEDOUT)
			continue;
		waited = st->device ? 0 : waited + SLICE_MS;
		pthread_mutex_unlock(&st->mu);
		int g = gone(st);
		pthread_mutex_lock(&st->mu);
		if (g || waited >= idle_ms)
			break;
	}
	if (st->rx_ready > pos)
		r = st->rx_ready;
	pthread_mutex_unlock(&st->mu);
	return r;
}
