/* SPDX-License-Identifier: MIT */
/*
 * amd_txn.c - the transactions of a connection of AMD's protocol
 * (amd_conn_internal.h): accepted by the memory budget, checked
 * (amdp_txn_check: a failure is answered TIMEOUT with zeros), the TX image
 * received into its srv_txn, run back to back by a runner thread, any
 * pending id queried or fetched, each result kept until fetched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/amd/amd_conn_internal.h"

static amd_txn *txn_find(amd_conn *c, uint32_t id)
{
	amd_txn *p;
	for (p = c->txns; p && p->id != id; p = p->next)
		;
	return p;
}

static int was_fetched(amd_conn *c, uint32_t id)
{
	size_t i;
	for (i = 0; i < c->nfetched; i++)
		if (c->fetched[i] == id)
			return 1;
	return 0;
}

static void remember_fetched(amd_conn *c, uint32_t id)
{
	if (!c->fetched && !(c->fetched = malloc(AMD_FETCHED_MAX * sizeof *c->fetched)))
		return;
	if (c->nfetched == AMD_FETCHED_MAX) {
		/* the oldest are forgotten: a query of one ends the session */
		memmove(c->fetched, c->fetched + 1, (AMD_FETCHED_MAX - 1) * sizeof *c->fetched);
		c->nfetched--;
	}
	c->fetched[c->nfetched++] = id;
}

/* Unlink p from the list (mu held) and free it; its srv_txn's images go,
 * its record stays for run_summary.json. */
static void txn_remove_locked(amd_conn *c, amd_txn *p)
{
	amd_txn **pp;
	for (pp = &c->txns; *pp && *pp != p; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = p->next;
	if (p->t)
		srv_txn_retire(c->s, c->x, p->t);
	free(p);
}

/* The device timeout of one transaction: the watchdog (board time on the
 * emulated board). */
uint32_t amd_txn_limit_ms(amd_conn *c)
{
	uint64_t ms = c->timeout_s * 1000;
	return ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

static void *runner_main(void *arg)
{
	amd_conn *c = arg;
	pthread_mutex_lock(&c->mu);
	for (;;) {
		amd_txn *p;
		srv_txn *t;
		int rc, ok;
		for (p = c->txns; p && p->st != AMDP_ST_READY; p = p->next)
			;
		if (c->runner_stop)
			break;
		if (!p) {
			pthread_cond_wait(&c->cv, &c->mu);
			continue;
		}
		p->st = AMDP_ST_RUNNING;
		t = p->t;
		pthread_mutex_unlock(&c->mu);
		pthread_mutex_lock(&c->x->call);
		rc = srv_txn_start(c->x, t);
		if (rc == AIETH_OK) {
			pthread_mutex_lock(&c->s->mu);
			t->state = ST_STARTED;
			pthread_mutex_unlock(&c->s->mu);
			rc = srv_txn_wait(c->s, c->x, t, amd_txn_limit_ms(c));
		}
		pthread_mutex_unlock(&c->x->call);
		ok = rc == AIETH_OK && t->res.status == AIETH_TXN_DONE;
		if (!ok)
			srv_log(c->s, "amd %s: session %s: transaction %u: %s", c->peer, c->x->id,
				p->id, rc ? aieth_error_message() : t->res.msg);
		pthread_mutex_lock(&c->mu);
		p->st = ok ? AMDP_ST_DONE : AMDP_ST_TIMEOUT;
		if (p->abandoned)
			txn_remove_locked(c, p);
		pthread_cond_broadcast(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/* The runner ends after the transaction it runs; the others are dropped. */
void amd_txn_stop(amd_conn *c)
{
	if (c->runner_on) {
		pthread_mutex_lock(&c->mu);
		c->runner_stop = 1;
		pthread_cond_broadcast(&c->cv);
		pthread_mutex_unlock(&c->mu);
		pthread_join(c->runner, NULL);
		c->runner_on = 0;
	}
	while (c->txns)
		txn_remove_locked(c, c->txns);
	if (c->cur && c->cur->t)
		srv_txn_drop(c->s, c->x, c->cur->t); /* its upload broke off */
	free(c->cur);
	c->cur = NULL;
}

/* runTestHarness step 1: the budget decides (research §4.2: on 0 the
 * request ends, the session goes on). */
int amd_txn_run_bytes(amd_conn *c)
{
	uint64_t img = c->dec.msg.txn_bytes - amdp_txn_bytes(c->dec.geom.n, 0, 0);
	unsigned pending = 0;
	amd_txn *p;
	int ok;
	pthread_mutex_lock(&c->mu);
	for (p = c->txns; p; p = p->next)
		pending++;
	pthread_mutex_unlock(&c->mu);
	pthread_mutex_lock(&c->s->mu);
	ok = img <= c->s->mem_max - c->s->mem_used && pending < SRV_TXNS_MAX;
	if (!ok)
		srv_log(c->s,
			"amd %s: session %s: transaction of %llu image bytes refused "
			"(accepted = 0): %u pending (limit %d), %llu of the --max-memory %llu MiB "
			"in use",
			c->peer, c->x->id, (unsigned long long)img, pending, SRV_TXNS_MAX,
			(unsigned long long)c->s->mem_used,
			(unsigned long long)(c->s->mem_max >> 20));
	pthread_mutex_unlock(&c->s->mu);
	amdp_enc_accepted(&c->out, ok);
	if (amd_io_flush(c))
		return -1;
	amdp_dec_continue(&c->dec, ok);
	return 0;
}

/* The transaction being uploaded, once its cfg words are in: checked,
 * then its srv_txn made (the TX image lands in t->txbuf). NULL sink: the
 * image is read and dropped. -1: the session ends (a duplicate id). */
int amd_txn_begin(amd_conn *c, uint8_t **sink)
{
	amdp_msg *m = &c->dec.msg;
	uint64_t rx = m->txn_bytes - amdp_txn_bytes(c->dec.geom.n, m->to_aie_len, 0);
	amd_txn *p;
	srv_txn_req q;
	char msg[512];

	*sink = NULL;
	pthread_mutex_lock(&c->mu);
	p = txn_find(c, m->id);
	pthread_mutex_unlock(&c->mu);
	if (p || was_fetched(c, m->id)) {
		snprintf(c->why, sizeof c->why,
			 "runTestHarness: transaction id %u was used already "
			 "in this session",
			 m->id);
		return -1;
	}
	if (!(p = calloc(1, sizeof *p))) {
		snprintf(c->why, sizeof c->why, "out of memory");
		return -1;
	}
	p->id = m->id;
	p->rx_len = rx;
	p->st = AMDP_ST_READY;
	c->cur = p;
	/* from_aie's length is what the announced count leaves (the decoder
	 * checks the field against it) */
	m->from_aie_len = rx;
	if (amdp_txn_check(&c->dec.geom, m)) {
		srv_log(c->s,
			"amd %s: session %s: transaction %u refused, answered TIMEOUT with "
			"zeros: %s",
			c->peer, c->x->id, m->id, aieth_error_message());
		p->bad = 1;
		return 0;
	}
	memset(&q, 0, sizeof q);
	q.channels = c->dec.geom.n;
	q.depth = c->dec.geom.d;
	q.tx_bytes = m->to_aie_len;
	q.rx_bytes = rx;
	if (!(q.cfg = malloc(m->ncfg * sizeof *q.cfg))) {
		p->bad = 1;
		return 0;
	}
	memcpy(q.cfg, m->cfg, m->ncfg * sizeof *q.cfg);
	if (srv_txn_new(c->s, c->x, &q, &p->t, msg, sizeof msg) != SRV_T_OK) {
		srv_log(c->s, "amd %s: session %s: transaction %u answered TIMEOUT with zeros: %s",
			c->peer, c->x->id, m->id, msg);
		p->bad = 1;
		p->t = NULL;
	} else {
		*sink = p->t->txbuf;
	}
	free(q.cfg);
	return 0;
}

int amd_txn_run(amd_conn *c)
{
	amd_txn *p, **pp;
	if (!c->cur) {
		uint8_t *sink;
		if (amd_txn_begin(c, &sink))
			return -1;
	}
	p = c->cur;
	c->cur = NULL;
	if (p->bad) {
		p->st = AMDP_ST_TIMEOUT;
	} else {
		/* its TX image is in (received straight into txbuf) */
		pthread_mutex_lock(&c->s->mu);
		p->t->tx_got = p->t->wire.tx.size;
		pthread_mutex_unlock(&c->s->mu);
	}
	pthread_mutex_lock(&c->mu);
	for (pp = &c->txns; *pp; pp = &(*pp)->next)
		;
	*pp = p;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	return 0;
}

int amd_txn_query(amd_conn *c, uint32_t id)
{
	amd_txn *p;
	uint8_t st;
	pthread_mutex_lock(&c->mu);
	p = txn_find(c, id);
	/* fetched (an abandoned one too): DONE, as research §12 advises */
	st = p && !p->abandoned ? p->st : AMDP_ST_DONE;
	pthread_mutex_unlock(&c->mu);
	if (!p && !was_fetched(c, id)) {
		snprintf(c->why, sizeof c->why, "queryTransactionStatus: no transaction %u", id);
		return -1;
	}
	amdp_enc_status(&c->out, st);
	return amd_io_flush(c);
}

/* waitForTestHarness's TIMEOUT: rx_len zero bytes and 4N zero perf
 * words. The image is sent from one static block of zeros, never built in
 * memory: it may be as large as the whole --max-memory budget (a refused
 * transaction holds no memory of its own). The first and the last block
 * go with the head and the tail: a small reply is still one sendmsg. */
static int send_timeout(amd_conn *c, uint64_t rx_len)
{
	static const uint8_t zeros[65536];
	sbuf tail = SB_INIT(AMDP_MAX_REPLY);
	uint64_t left = rx_len;
	int rc, first = 1;
	if (amdp_enc_wait_th_head(&c->out, AMDP_ST_TIMEOUT, rx_len) ||
	    amdp_enc_wait_th_tail(&tail, NULL, 4 * c->dec.geom.n) || c->out.oom || tail.oom) {
		snprintf(c->why, sizeof c->why, "out of memory building a reply");
		sb_reset(&c->out);
		sb_free(&tail);
		return -1;
	}
	do {
		size_t k = left < sizeof zeros ? (size_t)left : sizeof zeros;
		left -= k;
		rc = amd_io_send(c, first ? c->out.u : NULL, first ? c->out.n : 0, zeros, k,
				 left ? NULL : tail.u, left ? 0 : tail.n);
		first = 0;
	} while (!rc && left);
	sb_reset(&c->out);
	sb_free(&tail);
	return rc;
}

/* waitForTestHarness: any pending id; T ms at most (0: until the device
 * is done, bounded by the transaction's own limit). */
int amd_txn_wait(amd_conn *c, uint32_t id, uint32_t tmo)
{
	int64_t t0 = srv_now_ms();
	amd_txn *p;
	uint8_t st;
	int rc;

	pthread_mutex_lock(&c->mu);
	if (!(p = txn_find(c, id)) || p->abandoned) {
		pthread_mutex_unlock(&c->mu);
		snprintf(c->why, sizeof c->why, "waitForTestHarness: no pending transaction %u%s",
			 id, was_fetched(c, id) ? " (its result was fetched)" : "");
		return -1;
	}
	while (p->st == AMDP_ST_READY || p->st == AMDP_ST_RUNNING) {
		struct timespec ts;
		int64_t now = srv_now_ms();
		if ((tmo && now - t0 >= tmo) || amd_io_dying(c))
			break;
		c->last_ms = now; /* a wait in progress keeps the session */
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100 * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&c->cv, &c->mu, &ts);
	}
	c->last_ms = srv_now_ms();
	st = p->st;
	if (st == AMDP_ST_READY || st == AMDP_ST_RUNNING) {
		/* the wait ended first: TIMEOUT with zeros; the device's result
		 * will be dropped */
		pthread_mutex_unlock(&c->mu);
		rc = send_timeout(c, p->rx_len);
		pthread_mutex_lock(&c->mu);
		if (p->st == AMDP_ST_RUNNING)
			p->abandoned = 1;
		else if (p->st == AMDP_ST_READY || p->st == AMDP_ST_DONE ||
			 p->st == AMDP_ST_TIMEOUT)
			txn_remove_locked(c, p);
		pthread_mutex_unlock(&c->mu);
		remember_fetched(c, id);
		return rc ? -1 : 0;
	}
	pthread_mutex_unlock(&c->mu);
	if (st == AMDP_ST_DONE && p->t) {
		sbuf tail = SB_INIT(AMDP_MAX_REPLY);
		rc = amdp_enc_wait_th_head(&c->out, AMDP_ST_DONE, p->rx_len) ||
		     amdp_enc_wait_th_tail(&tail, p->t->wire.perf, 4 * c->dec.geom.n);
		if (!rc)
			rc = amd_io_send(c, c->out.u, c->out.n, p->t->rxbuf, (size_t)p->rx_len,
					 tail.u, tail.n);
		sb_reset(&c->out);
		sb_free(&tail);
	} else {
		rc = send_timeout(c, p->rx_len);
	}
	pthread_mutex_lock(&c->mu);
	txn_remove_locked(c, p);
	pthread_mutex_unlock(&c->mu);
	remember_fetched(c, id);
	return rc ? -1 : 0;
}

/* ------------------------------------------------------------ graphs */

int amd_txn_start(amd_conn *c)
{
	if (pthread_create(&c->runner, NULL, runner_main, c))
		return -1;
	c->runner_on = 1;
	return 0;
}
