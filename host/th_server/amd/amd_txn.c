/* SPDX-License-Identifier: MIT */
/*
 * amd_txn.c - the transactions of a connection of AMD's protocol
 * (amd_conn_internal.h): accepted by the memory budget, checked
 * (aieth__amdp_txn_check: a failure is answered TIMEOUT with zeros), the TX image
 * received into its srv_txn, run back to back by a runner thread, any
 * pending id queried or fetched, each result kept until fetched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "th_server/amd/amd_conn_internal.h"

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

static const char *mode_name(uint8_t mode) { return mode ? "PERF" : "FUNC"; }

/* A transaction's line in the session log, written once: when its result
 * is given back (sent: the status sent) or when it is dropped unfetched
 * (sent 0). mu not held; the runner is done with p (its state is final,
 * or the runner has stopped). */
static void txn_log(amd_conn *c, const amd_txn *p, uint8_t sent, uint32_t waited_ms)
{
	static const char *const st[] = {"CREATED", "READY", "RUNNING", "TIMEOUT", "DONE"};
	char what[200];
	const srv_txn *t = p->t;
	snprintf(what, sizeof what, "transaction %u: %s, %llu bytes to the AIE and %llu from it",
		 p->id, mode_name(p->mode), (unsigned long long)p->tx_len,
		 (unsigned long long)p->rx_len);
	if (p->bad) {
		aieth__amd_log(c, "WARNING", "%s: refused by the checks (%s), %s", what, p->why,
			       sent ? "answered TIMEOUT with zeros" : "never fetched");
	} else if (!sent) {
		aieth__amd_log(c, "WARNING",
			       "%s: never fetched, dropped at the end of the session (%s)", what,
			       st[p->st < 5 ? p->st : 0]);
	} else if (p->st == AMDP_ST_READY || p->st == AMDP_ST_RUNNING) {
		aieth__amd_log(c, "WARNING",
			       "%s: TIMEOUT: the wait of %u ms ended before the device "
			       "(answered with zeros; its result is dropped)",
			       what, waited_ms);
	} else if (sent == AMDP_ST_DONE) {
		aieth__amd_log(c, "INFO", "%s: DONE in %llu cycles (th_server's %s)", what,
			       (unsigned long long)aieth_dev_txn_total_cycles(t->dev), t->id);
	} else {
		aieth__amd_log(c, "WARNING", "%s: TIMEOUT (th_server's %s): %s", what,
			       t ? t->id : "-",
			       !t          ? ""
			       : t->failed ? t->msg
					   : aieth__srv_txn_message(t));
	}
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
		aieth__srv_txn_retire(c->s, c->x, p->t);
	free(p);
}

/* The device timeout of one transaction: the watchdog (board time on the
 * emulated board). */
uint32_t aieth__amd_txn_limit_ms(amd_conn *c)
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
		rc = aieth__srv_txn_run(c->s, c->x, t, aieth__amd_txn_limit_ms(c));
		ok = rc == AIETH_OK && aieth_dev_txn_status(t->dev) == AIETH_TXN_DONE;
		if (!ok)
			aieth__srv_log(c->s, "amd %s: session %s: transaction %u: %s", c->peer,
				       c->x->id, p->id,
				       rc ? aieth_error_message() : aieth__srv_txn_message(t));
		pthread_mutex_lock(&c->mu);
		p->st = ok ? AMDP_ST_DONE : AMDP_ST_TIMEOUT;
		if (p->abandoned)
			txn_remove_locked(c, p);
		pthread_cond_broadcast(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/* The runner: started with the session, it runs the transactions in
 * their order. */
int aieth__amd_txn_start(amd_conn *c)
{
	if (pthread_create(&c->runner, NULL, runner_main, c))
		return -1;
	c->runner_on = 1;
	return 0;
}

/* The runner ends after the transaction it runs; the others are dropped. */
void aieth__amd_txn_stop(amd_conn *c)
{
	if (c->runner_on) {
		pthread_mutex_lock(&c->mu);
		c->runner_stop = 1;
		pthread_cond_broadcast(&c->cv);
		pthread_mutex_unlock(&c->mu);
		pthread_join(c->runner, NULL);
		c->runner_on = 0;
	}
	/* the runner has stopped: no lock needed */
	while (c->txns) {
		if (!c->txns->abandoned) /* those had their line at the wait */
			txn_log(c, c->txns, 0, 0);
		txn_remove_locked(c, c->txns);
	}
	if (c->cur) {
		aieth__amd_log(c, "ERROR", "transaction %u: %s: its upload broke off", c->cur->id,
			       mode_name(c->cur->mode));
		if (c->cur->t)
			aieth__srv_txn_drop(c->s, c->x, c->cur->t);
	}
	free(c->cur);
	c->cur = NULL;
}

/* runTestHarness step 1: the budget decides (research §4.2: on 0 the
 * request ends, the session goes on). */
int aieth__amd_txn_run_bytes(amd_conn *c)
{
	uint64_t img = c->dec.msg.txn_bytes - aieth__amdp_txn_bytes(c->dec.geom.n, 0, 0);
	unsigned pending = 0;
	uint64_t used;
	amd_txn *p;
	int ok;
	pthread_mutex_lock(&c->mu);
	for (p = c->txns; p; p = p->next)
		pending++;
	pthread_mutex_unlock(&c->mu);
	ok = aieth__srv_txn_room(c->s, img, &used) && pending < SRV_TXNS_MAX;
	if (!ok)
		aieth__srv_log(
			c->s,
			"amd %s: session %s: transaction of %llu image bytes refused "
			"(accepted = 0): %u pending (limit %d), %llu of the --max-memory %llu MiB "
			"in use",
			c->peer, c->x->id, (unsigned long long)img, pending, SRV_TXNS_MAX,
			(unsigned long long)used, (unsigned long long)(c->s->limits.mem_max >> 20));
	if (!ok)
		aieth__amd_log(
			c, "WARNING",
			"request runTestHarness: %llu bytes: accepted = 0 (%u "
			"transactions pending, %llu of the --max-memory budget of %llu bytes in use)",
			(unsigned long long)c->dec.msg.txn_bytes, pending, (unsigned long long)used,
			(unsigned long long)c->s->limits.mem_max);
	aieth__amdp_enc_accepted(&c->out, ok);
	if (aieth__amd_io_flush(c))
		return -1;
	aieth__amdp_dec_continue(&c->dec, ok);
	return 0;
}

/* The transaction being uploaded, once its cfg words are in: checked,
 * then its srv_txn made (the TX image lands in t->txbuf). NULL sink: the
 * image is read and dropped. -1: the session ends (a duplicate id). */
int aieth__amd_txn_begin(amd_conn *c, uint8_t **sink)
{
	amdp_msg *m = &c->dec.msg;
	uint64_t rx = m->txn_bytes - aieth__amdp_txn_bytes(c->dec.geom.n, m->to_aie_len, 0);
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
	p->mode = m->mode;
	p->tx_len = m->to_aie_len;
	p->rx_len = rx;
	p->st = AMDP_ST_READY;
	c->cur = p;
	/* from_aie's length is what the announced count leaves (the decoder
	 * checks the field against it) */
	m->from_aie_len = rx;
	if (aieth__amdp_txn_check(&c->dec.geom, m)) {
		aieth__srv_log(c->s,
			       "amd %s: session %s: transaction %u refused, answered TIMEOUT with "
			       "zeros: %s",
			       c->peer, c->x->id, m->id, aieth_error_message());
		snprintf(p->why, sizeof p->why, "%s", aieth_error_message());
		p->bad = 1;
		return 0;
	}
	memset(&q, 0, sizeof q);
	q.channels = c->dec.geom.n;
	q.depth = c->dec.geom.d;
	q.tx_bytes = m->to_aie_len;
	q.rx_bytes = rx;
	if (!(q.cfg = malloc(m->ncfg * sizeof *q.cfg))) {
		snprintf(p->why, sizeof p->why, "out of memory");
		p->bad = 1;
		return 0;
	}
	memcpy(q.cfg, m->cfg, m->ncfg * sizeof *q.cfg);
	if (aieth__srv_txn_new(c->s, c->x, &q, &p->t, msg, sizeof msg) != SRV_T_OK) {
		aieth__srv_log(c->s,
			       "amd %s: session %s: transaction %u answered TIMEOUT with zeros: %s",
			       c->peer, c->x->id, m->id, msg);
		snprintf(p->why, sizeof p->why, "%.500s", msg);
		p->bad = 1;
		p->t = NULL;
	} else {
		/* run_summary.json names it by the client's id too */
		aieth__srv_txn_set_amd_id(c->s, p->t, m->id);
		*sink = p->t->txbuf;
	}
	free(q.cfg);
	return 0;
}

int aieth__amd_txn_run(amd_conn *c)
{
	amd_txn *p, **pp;
	if (!c->cur) {
		uint8_t *sink;
		if (aieth__amd_txn_begin(c, &sink))
			return -1;
	}
	p = c->cur;
	c->cur = NULL;
	aieth__amd_log(c, "INFO",
		       "request runTestHarness: transaction %u, %s, %llu bytes to the AIE, "
		       "%llu from it%s",
		       p->id, mode_name(p->mode), (unsigned long long)p->tx_len,
		       (unsigned long long)p->rx_len,
		       p->bad ? " (refused by the checks: its wait "
				"answers TIMEOUT with zeros)"
			      : "");
	if (p->bad) {
		char why[sizeof p->why + 64];
		p->st = AMDP_ST_TIMEOUT;
		snprintf(why, sizeof why,
			 "refused by th_server's checks (answered TIMEOUT with "
			 "zeros): %s",
			 p->why);
		if (aieth__srv_txn_refused(c->s, c->x, p->id, c->dec.geom.n, p->tx_len, p->rx_len,
					   why))
			aieth__srv_log(
				c->s,
				"amd %s: session %s: transaction %u: not in run_summary.json: %s",
				c->peer, c->x->id, p->id, aieth_error_message());
	} else {
		/* its TX image is in (received straight into txbuf) */
		aieth__srv_txn_tx_got(c->s, p->t, p->t->tx_size);
	}
	pthread_mutex_lock(&c->mu);
	for (pp = &c->txns; *pp; pp = &(*pp)->next)
		;
	*pp = p;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	return 0;
}

int aieth__amd_txn_query(amd_conn *c, uint32_t id)
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
	aieth__amd_log(c, "INFO", "request queryTransactionStatus: transaction %u: %s", id,
		       st == AMDP_ST_DONE      ? "DONE"
		       : st == AMDP_ST_TIMEOUT ? "TIMEOUT"
		       : st == AMDP_ST_RUNNING ? "RUNNING"
					       : "READY");
	aieth__amdp_enc_status(&c->out, st);
	return aieth__amd_io_flush(c);
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
	if (aieth__amdp_enc_wait_th_head(&c->out, AMDP_ST_TIMEOUT, rx_len) ||
	    aieth__amdp_enc_wait_th_tail(&tail, NULL, 4 * c->dec.geom.n) || c->out.oom ||
	    tail.oom) {
		snprintf(c->why, sizeof c->why, "out of memory building a reply");
		aieth__sb_reset(&c->out);
		aieth__sb_free(&tail);
		return -1;
	}
	do {
		size_t k = left < sizeof zeros ? (size_t)left : sizeof zeros;
		left -= k;
		rc = aieth__amd_io_send(c, first ? c->out.u : NULL, first ? c->out.n : 0, zeros, k,
					left ? NULL : tail.u, left ? 0 : tail.n);
		first = 0;
	} while (!rc && left);
	aieth__sb_reset(&c->out);
	aieth__sb_free(&tail);
	return rc;
}

/* waitForTestHarness: any pending id; T ms at most (0: until the device
 * is done, bounded by the transaction's own limit). */
int aieth__amd_txn_wait(amd_conn *c, uint32_t id, uint32_t tmo)
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
		struct timespec ts = srv_deadline(CLOCK_REALTIME, 100);
		int64_t now = srv_now_ms();
		if ((tmo && now - t0 >= tmo) || aieth__amd_io_dying(c))
			break;
		c->last_ms = now; /* a wait in progress keeps the session */
		pthread_cond_timedwait(&c->cv, &c->mu, &ts);
	}
	c->last_ms = srv_now_ms();
	st = p->st;
	if (st == AMDP_ST_READY || st == AMDP_ST_RUNNING) {
		/* the wait ended first: TIMEOUT with zeros; the device's result
		 * will be dropped */
		pthread_mutex_unlock(&c->mu);
		aieth__amd_log(c, "INFO",
			       "request waitForTestHarness: transaction %u, timeout %u ms: "
			       "TIMEOUT",
			       id, tmo);
		txn_log(c,
			&(amd_txn){.id = p->id,
				   .mode = p->mode,
				   .tx_len = p->tx_len,
				   .rx_len = p->rx_len,
				   .st = st},
			AMDP_ST_TIMEOUT, (uint32_t)(srv_now_ms() - t0));
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
	{
		uint8_t sent = st == AMDP_ST_DONE && p->t ? AMDP_ST_DONE : AMDP_ST_TIMEOUT;
		aieth__amd_log(c, "INFO",
			       "request waitForTestHarness: transaction %u, timeout %u ms: %s", id,
			       tmo, sent == AMDP_ST_DONE ? "DONE" : "TIMEOUT");
		txn_log(c, p, sent, 0);
	}
	if (st == AMDP_ST_DONE && p->t) {
		sbuf tail = SB_INIT(AMDP_MAX_REPLY);
		size_t nperf = 0;
		const uint64_t *perf = aieth_dev_txn_perf(p->t->dev, &nperf);
		rc = aieth__amdp_enc_wait_th_head(&c->out, AMDP_ST_DONE, p->rx_len) ||
		     nperf != 4u * c->dec.geom.n ||
		     aieth__amdp_enc_wait_th_tail(&tail, perf, 4 * c->dec.geom.n);
		if (!rc)
			rc = aieth__amd_io_send(c, c->out.u, c->out.n, p->t->rxbuf,
						(size_t)p->rx_len, tail.u, tail.n);
		aieth__sb_reset(&c->out);
		aieth__sb_free(&tail);
	} else {
		rc = send_timeout(c, p->rx_len);
	}
	pthread_mutex_lock(&c->mu);
	txn_remove_locked(c, p);
	pthread_mutex_unlock(&c->mu);
	remember_fetched(c, id);
	return rc ? -1 : 0;
}
