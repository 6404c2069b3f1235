/*
 * amd_conn.c - one connection of AMD's protocol (amd_conn.h), decoded by
 * amd_proto.c. Where AMD's server fails (research/amd-protocol.md §12) this
 * does what that section says, and a correct client sees the same bytes:
 * - replies are built in one buffer and sent with one sendmsg (MSG_NOSIGNAL,
 *   TCP_NODELAY, TCP_QUICKACK re-armed after reads); bulk data is received
 *   straight into place (the TX image into its srv_txn, the xclbin into a
 *   mapped scratch file);
 * - transactions run back to back in a runner thread and each result is
 *   kept until fetched; any pending id may be queried or fetched;
 * - cfg words and images are checked (amdp_txn_check): a failure is a
 *   TIMEOUT with zeros, as is any device failure;
 * - the idle watchdog counts every request and every wait in progress;
 *   getTimeOut never answers 0;
 * - every phase has a deadline; a malformed frame closes this connection
 *   only, with a log line.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/session_internal.h"
#include "server/amd_conn.h"
#include "server/amd_proto.h"
#include "util/path.h"

#define AMD_FETCHED_MAX 4096     /* fetched ids remembered (queries answer DONE) */
#define AMD_SEND_TIMEOUT_S 30    /* a client that stops reading a reply */
#define AMD_TIMEOUT_MAX_S 86400u /* setTimeOut is clamped to this */

typedef struct amd_txn {
	uint32_t id;
	uint8_t st;                  /* AMDP_ST_READY, RUNNING, TIMEOUT, DONE */
	int bad;                     /* refused by the checks or the budget: zeros */
	int abandoned;               /* fetched while running: dropped when done */
	uint64_t rx_len;
	srv_txn *t;                  /* NULL when bad */
	struct amd_txn *next;
} amd_txn;

typedef struct {
	amd_shared *sh;
	aieth_server *s;
	int fd;
	const char *peer;
	amdp_dec dec;
	amdp_buf out;
	uint8_t in[65536];
	size_t in_len, in_pos;
	int64_t last_ms;             /* the last request (or the end of a wait) */
	uint64_t timeout_s;          /* the idle watchdog (getTimeOut/setTimeOut) */
	/* the handshake's xrt.ini */
	uint8_t *ini;
	uint64_t ini_len;
	int ini_sent;
	/* the manager */
	int have_mgr;
	srv_sess *x;                 /* referenced (refs) while the connection lives */
	uint8_t started[AMDP_MAX_GRAPHS];
	char *xpath;                 /* the xclbin's scratch file */
	uint8_t *xmap;
	uint64_t xlen;
	/* transactions: mu guards the list and the states */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	amd_txn *txns;
	amd_txn *cur;                /* the one being uploaded */
	pthread_t runner;
	int runner_on, runner_stop;
	uint32_t *fetched;
	size_t nfetched;
	char why[700];               /* why the connection ends (log) */
} amd_conn;

/* ------------------------------------------------------------- I/O */

static int dying(amd_conn *c)
{
	return c->sh->stop || c->s->draining;
}

/* Send b (and an image after it, and a tail) with one sendmsg per try. */
static int send_parts(amd_conn *c, const uint8_t *a, size_t an, const uint8_t *img, size_t imgn,
		      const uint8_t *t, size_t tn)
{
	struct iovec v[3] = {{(void *)a, an}, {(void *)img, imgn}, {(void *)t, tn}};
	int i = 0;
	while (i < 3) {
		struct msghdr m;
		ssize_t n;
		if (v[i].iov_len == 0) {
			i++;
			continue;
		}
		memset(&m, 0, sizeof m);
		m.msg_iov = v + i;
		m.msg_iovlen = (size_t)(3 - i);
		n = sendmsg(c->fd, &m, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(c->why, sizeof c->why, "sending a reply: %s", strerror(errno));
			return -1;
		}
		while (n > 0 && i < 3) {
			size_t k = (size_t)n < v[i].iov_len ? (size_t)n : v[i].iov_len;
			v[i].iov_base = (uint8_t *)v[i].iov_base + k;
			v[i].iov_len -= k;
			n -= (ssize_t)k;
			if (v[i].iov_len == 0)
				i++;
		}
	}
	return 0;
}

static int flush(amd_conn *c)
{
	int rc;
	if (c->out.oom) {
		snprintf(c->why, sizeof c->why, "out of memory building a reply");
		return -1;
	}
	rc = send_parts(c, c->out.p, c->out.len, NULL, 0, NULL, 0);
	amdp_buf_reset(&c->out);
	return rc;
}

/* Wait until fd is readable, checking the watchdog, the stop flag and the
 * session every 200 ms. 1 readable, -1 the connection ends (c->why). */
static int wait_readable(amd_conn *c)
{
	for (;;) {
		struct pollfd p = {c->fd, POLLIN, 0};
		int r = poll(&p, 1, 200);
		if (r > 0)
			return 1;
		if (r < 0 && errno != EINTR) {
			snprintf(c->why, sizeof c->why, "poll: %s", strerror(errno));
			return -1;
		}
		if (dying(c)) {
			snprintf(c->why, sizeof c->why, "the server stopped");
			return -1;
		}
		if (srv_now_ms() - c->last_ms > (int64_t)c->timeout_s * 1000) {
			snprintf(c->why, sizeof c->why, "no request for %llu s, the watchdog "
				 "(getTimeOut/setTimeOut, --idle-timeout) is %llu s",
				 (unsigned long long)((srv_now_ms() - c->last_ms) / 1000),
				 (unsigned long long)c->timeout_s);
			return -1;
		}
		if (c->x) {
			int active;
			pthread_mutex_lock(&c->s->mu);
			active = c->x->state == SS_ACTIVE;
			if (!active)
				snprintf(c->why, sizeof c->why, "its session %s %s%s%s", c->x->id,
					 srv_state_names[c->x->state], c->x->reason[0] ? ": " : "",
					 c->x->reason);
			pthread_mutex_unlock(&c->s->mu);
			if (!active)
				return -1;
		}
	}
}

static void quickack(amd_conn *c)
{
#ifdef TCP_QUICKACK
	int one = 1;
	setsockopt(c->fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
#else
	(void)c;
#endif
}

/* Read more: straight into a bulk payload's place when one is due and
 * nothing is buffered, else into c->in. 0, or -1 at the end (c->why). */
static int read_more(amd_conn *c, int *ev)
{
	uint64_t room;
	uint8_t *dst;
	ssize_t n;
	*ev = AMDP_EV_MORE;
	if (wait_readable(c) < 0)
		return -1;
	dst = amdp_dec_room(&c->dec, &room);
	if (dst && c->in_pos == c->in_len) {
		n = recv(c->fd, dst, room > (1u << 30) ? (1u << 30) : (size_t)room, 0);
		if (n > 0) {
			quickack(c);
			*ev = amdp_dec_advance(&c->dec, (uint64_t)n);
			if (*ev < 0) {
				snprintf(c->why, sizeof c->why, "%s", aieth_error_message());
				return -1;
			}
			return 0;
		}
	} else {
		c->in_pos = c->in_len = 0;
		n = recv(c->fd, c->in, sizeof c->in, 0);
		if (n > 0) {
			quickack(c);
			c->in_len = (size_t)n;
			return 0;
		}
	}
	if (dying(c))
		snprintf(c->why, sizeof c->why, "the server stopped");
	else if (n == 0)
		snprintf(c->why, sizeof c->why, "the client closed the connection%s",
			 amdp_dec_at_boundary(&c->dec) ? "" : " in the middle of a message");
	else if (errno == EINTR || errno == EAGAIN)
		return 0;
	else
		snprintf(c->why, sizeof c->why, "receiving: %s", strerror(errno));
	return -1;
}

/* The next decoder event (AMDP_EV_BULK or AMDP_EV_MSG); -1 at the end. */
static int next_event(amd_conn *c)
{
	for (;;) {
		int ev = AMDP_EV_MORE;
		if (c->in_pos < c->in_len) {
			size_t used = 0;
			ev = amdp_dec_feed(&c->dec, c->in + c->in_pos, c->in_len - c->in_pos, &used);
			c->in_pos += used;
		} else if (read_more(c, &ev) < 0) {
			return -1;
		}
		if (ev < 0) {
			snprintf(c->why, sizeof c->why, "malformed: %s", aieth_error_message());
			return -1;
		}
		if (ev != AMDP_EV_MORE)
			return ev;
	}
}

/* ----------------------------------------------------- transactions */

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

/* Unlink p from the list (mu held) and free it with its srv_txn. */
static void txn_remove_locked(amd_conn *c, amd_txn *p)
{
	amd_txn **pp;
	for (pp = &c->txns; *pp && *pp != p; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = p->next;
	if (p->t)
		srv_txn_drop(c->s, c->x, p->t);
	free(p);
}

/* The device timeout of one transaction: the watchdog (board time on the
 * emulated board). */
static uint32_t txn_limit_ms(amd_conn *c)
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
		rc = c->x->dev->ops->txn_start(c->x->dev->bstate, &t->wire);
		if (rc == AIETH_OK) {
			pthread_mutex_lock(&c->s->mu);
			t->state = ST_STARTED;
			pthread_mutex_unlock(&c->s->mu);
			rc = srv_txn_wait(c->s, c->x, t, txn_limit_ms(c));
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
static void runner_stop(amd_conn *c)
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
		srv_txn_drop(c->s, c->x, c->cur->t);   /* its upload broke off */
	free(c->cur);
	c->cur = NULL;
}

/* runTestHarness step 1: the budget decides (research §4.2: on 0 the
 * request ends, the session goes on). */
static int on_run_bytes(amd_conn *c)
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
		srv_log(c->s, "amd %s: session %s: transaction of %llu image bytes refused "
			"(accepted = 0): %u pending (limit %d), %llu of the --max-memory %llu MiB "
			"in use", c->peer, c->x->id, (unsigned long long)img, pending, SRV_TXNS_MAX,
			(unsigned long long)c->s->mem_used,
			(unsigned long long)(c->s->mem_max >> 20));
	pthread_mutex_unlock(&c->s->mu);
	amdp_enc_accepted(&c->out, ok);
	if (flush(c))
		return -1;
	amdp_dec_continue(&c->dec, ok);
	return 0;
}

/* The transaction being uploaded, once its cfg words are in: checked,
 * then its srv_txn made (the TX image lands in t->txbuf). NULL sink: the
 * image is read and dropped. -1: the session ends (a duplicate id). */
static int txn_begin(amd_conn *c, uint8_t **sink)
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
		snprintf(c->why, sizeof c->why, "runTestHarness: transaction id %u was used already "
			 "in this session", m->id);
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
		srv_log(c->s, "amd %s: session %s: transaction %u refused, answered TIMEOUT with "
			"zeros: %s", c->peer, c->x->id, m->id, aieth_error_message());
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

static int on_run(amd_conn *c)
{
	amd_txn *p, **pp;
	if (!c->cur) {
		uint8_t *sink;
		if (txn_begin(c, &sink))
			return -1;
	}
	p = c->cur;
	c->cur = NULL;
	if (p->bad)
		p->st = AMDP_ST_TIMEOUT;
	pthread_mutex_lock(&c->mu);
	for (pp = &c->txns; *pp; pp = &(*pp)->next)
		;
	*pp = p;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	return 0;
}

static int on_query(amd_conn *c, uint32_t id)
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
	return flush(c);
}

/* waitForTestHarness: any pending id; T ms at most (0: until the device
 * is done, bounded by the transaction's own limit). */
static int on_wait(amd_conn *c, uint32_t id, uint32_t tmo)
{
	int64_t t0 = srv_now_ms();
	uint64_t zero[AMDP_MAX_PERF];
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
		if ((tmo && now - t0 >= tmo) || dying(c))
			break;
		c->last_ms = now;   /* a wait in progress keeps the session */
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
		memset(zero, 0, sizeof zero);
		rc = amdp_enc_wait_th(&c->out, AMDP_ST_TIMEOUT, NULL, p->rx_len, zero,
				      4 * c->dec.geom.n) || flush(c);
		pthread_mutex_lock(&c->mu);
		if (p->st == AMDP_ST_RUNNING)
			p->abandoned = 1;
		else if (p->st == AMDP_ST_READY || p->st == AMDP_ST_DONE || p->st == AMDP_ST_TIMEOUT)
			txn_remove_locked(c, p);
		pthread_mutex_unlock(&c->mu);
		remember_fetched(c, id);
		return rc ? -1 : 0;
	}
	pthread_mutex_unlock(&c->mu);
	if (st == AMDP_ST_DONE && p->t) {
		amdp_buf tail = {0};
		rc = amdp_enc_wait_th_head(&c->out, AMDP_ST_DONE, p->rx_len) ||
		     amdp_enc_wait_th_tail(&tail, p->t->wire.perf, 4 * c->dec.geom.n);
		if (!rc)
			rc = send_parts(c, c->out.p, c->out.len, p->t->rxbuf, (size_t)p->rx_len,
					tail.p, tail.len);
		amdp_buf_reset(&c->out);
		amdp_buf_free(&tail);
	} else {
		memset(zero, 0, sizeof zero);
		rc = amdp_enc_wait_th(&c->out, AMDP_ST_TIMEOUT, NULL, p->rx_len, zero,
				      4 * c->dec.geom.n) || flush(c);
	}
	pthread_mutex_lock(&c->mu);
	txn_remove_locked(c, p);
	pthread_mutex_unlock(&c->mu);
	remember_fetched(c, id);
	return rc ? -1 : 0;
}

/* ------------------------------------------------------------ graphs */

static int on_run_graph(amd_conn *c, uint32_t g, uint32_t it)
{
	int rc;
	if (g >= c->x->req.ngraphs) {
		snprintf(c->why, sizeof c->why, "runAIEGraph: graph index %u, the manager has %zu "
			 "graphs", g, c->x->req.ngraphs);
		return -1;
	}
	pthread_mutex_lock(&c->x->call);
	/* XRT runs a graph for 0 iterations until it is ended */
	rc = aieth_graph_run(c->x->dev, c->x->req.graphs[g].name,
			     it ? (int64_t)it : AIETH_ITERATIONS_FOREVER);
	pthread_mutex_unlock(&c->x->call);
	if (rc)
		srv_log(c->s, "amd %s: session %s: runAIEGraph %u: %s", c->peer, c->x->id, g,
			aieth_error_message());
	/* AMD's client asserts [g] = 1 */
	c->started[g] = 1;
	amdp_enc_graphs(&c->out, c->started, (uint32_t)c->x->req.ngraphs);
	return flush(c);
}

static int on_wait_graph(amd_conn *c, uint32_t tmo)
{
	size_t g;
	if (!tmo)
		tmo = txn_limit_ms(c);
	for (g = 0; g < c->x->req.ngraphs; g++) {
		int rc;
		if (!c->started[g])
			continue;
		pthread_mutex_lock(&c->x->call);
		rc = aieth_graph_wait(c->x->dev, c->x->req.graphs[g].name, tmo);
		pthread_mutex_unlock(&c->x->call);
		if (rc)
			srv_log(c->s, "amd %s: session %s: waitForGraph %s: %s", c->peer, c->x->id,
				c->x->req.graphs[g].name, aieth_error_message());
		c->started[g] = 0;
	}
	c->last_ms = srv_now_ms();
	amdp_enc_graphs(&c->out, c->started, (uint32_t)c->x->req.ngraphs);
	return flush(c);
}

/* ------------------------------------------------------------ manager */

static int on_mgr_device(amd_conn *c)
{
	const char *dev = c->dec.msg.device;
	aieth_board *b = NULL;
	char why[300];
	int ok;
	if (c->have_mgr) {
		snprintf(c->why, sizeof c->why, "a second test_harness_mgr ends the session");
		return -1;
	}
	why[0] = 0;
	if (c->s->board && strcmp(c->s->board, dev)) {
		snprintf(why, sizeof why, "%s", c->s->board);
	} else if (aieth_board_load(&b, dev, c->s->data_dir)) {
		snprintf(why, sizeof why, "no board \"%.64s\" here: %.200s", dev,
			 aieth_error_message());
	} else {
		const aieth_board_info *i = aieth_board_get_info(b);
		amdp_geom g = {i->channels, AMDP_WORD_BYTES, i->uram_depth_words, AMDP_WORD_BYTES};
		if (g.n == 0 || g.n > AMDP_MAX_CHANNELS || g.d == 0 || g.d > AMDP_MAX_DEPTH)
			snprintf(why, sizeof why, "board %.64s: %u channels and a depth of %u words "
				 "are beyond AMD's protocol (1..%u, 1..%u)", dev, g.n, g.d,
				 AMDP_MAX_CHANNELS, AMDP_MAX_DEPTH);
		else
			c->dec.geom = g;   /* the decoder checks cfg counts against it */
		aieth_board_free(b);
	}
	ok = !why[0];
	if (ok) {
		amdp_enc_mgr_device_ok(&c->out, &c->dec.geom);
	} else {
		/* the client prints the string: it carries the reason */
		amdp_enc_mgr_device_bad(&c->out, why);
		snprintf(c->why, sizeof c->why, "device \"%s\" refused: %s", dev, why);
	}
	if (flush(c))
		return -1;
	amdp_dec_continue(&c->dec, ok);
	return ok ? 0 : -1;
}

/* The xclbin goes to a scratch file under the work folder, mapped: the
 * bytes are received straight into the page cache, never held whole. */
static int xclbin_sink(amd_conn *c, uint64_t len, uint8_t **dst)
{
	char *path = aieth_path_join(c->s->work_dir, "amd-xclbin.XXXXXX");
	int fd;
	*dst = NULL;
	if (!path || (fd = mkstemp(path)) < 0) {
		snprintf(c->why, sizeof c->why, "xclbin: cannot create a scratch file in %s: %s",
			 c->s->work_dir, strerror(errno));
		free(path);
		return -1;
	}
	c->xpath = path;
	if (ftruncate(fd, (off_t)len) ||
	    (c->xmap = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) ==
		MAP_FAILED) {
		snprintf(c->why, sizeof c->why, "xclbin: scratch file %s of %llu bytes: %s", path,
			 (unsigned long long)len, strerror(errno));
		c->xmap = NULL;
		close(fd);
		return -1;
	}
	close(fd);
	c->xlen = len;
	*dst = c->xmap;
	return 0;
}

static const amd_model *model_of(amd_conn *c, const char *graph)
{
	size_t i;
	for (i = 0; i < c->sh->nmodels; i++)
		if (!strcmp(c->sh->models[i].name, graph))
			return &c->sh->models[i];
	return NULL;
}

/* Wait for the device in the shared queue; 0 once active. */
static int wait_active(amd_conn *c)
{
	for (;;) {
		struct pollfd p = {c->fd, POLLIN, 0};
		ss_state st;
		pthread_mutex_lock(&c->s->mu);
		st = c->x->state;
		if (st == SS_QUEUED)
			c->x->last_ms = srv_now_ms();   /* alive and waiting */
		else if (st != SS_ACTIVE)
			snprintf(c->why, sizeof c->why, "its session %s %s while queued%s%s",
				 c->x->id, srv_state_names[st], c->x->reason[0] ? ": " : "",
				 c->x->reason);
		pthread_mutex_unlock(&c->s->mu);
		if (st == SS_ACTIVE)
			return 0;
		if (st != SS_QUEUED)
			return -1;
		if (dying(c)) {
			snprintf(c->why, sizeof c->why, "the server stopped");
			return -1;
		}
		/* the client sends nothing while it waits: input or a hangup
		 * here means it left (or broke the protocol) */
		if (poll(&p, 1, 100) > 0) {
			snprintf(c->why, sizeof c->why, "the client %s while queued",
				 p.revents & POLLIN ? "sent data or left" : "left");
			return -1;
		}
	}
}

static int on_mgr(amd_conn *c)
{
	amdp_msg *m = &c->dec.msg;
	srv_session_req req;
	char owner[SRV_TOKEN_NAME_MAX + 1], msg[512];
	uint32_t i;
	srv_sess *x;

	if (c->xmap) {
		munmap(c->xmap, (size_t)c->xlen);
		c->xmap = NULL;
	}
	memset(&req, 0, sizeof req);
	snprintf(req.board, sizeof req.board, "%s", m->device);
	req.ngraphs = m->ngraphs;
	for (i = 0; i < m->ngraphs; i++) {
		const amd_model *md = model_of(c, m->graph[i]);
		snprintf(req.graphs[i].name, sizeof req.graphs[i].name, "%s", m->graph[i]);
		if (md) {
			snprintf(req.graphs[i].model, sizeof req.graphs[i].model, "%s", md->model);
			if (md->params && !(req.graphs[i].params = aieth_strdup(md->params))) {
				srv_session_req_free(&req);
				snprintf(c->why, sizeof c->why, "out of memory");
				return -1;
			}
		}
	}
	snprintf(owner, sizeof owner, "amd@%s", c->peer);
	if (!(x = srv_sess_new(owner, &req))) {
		srv_session_req_free(&req);
		snprintf(c->why, sizeof c->why, "out of memory");
		return -1;
	}
	/* the emulated board takes no design xclbin: received, then ignored */
	if (c->xpath && !strcmp(c->s->backend, "xrt") && !(x->xclbin = aieth_strdup(c->xpath))) {
		srv_free_sess(x);
		snprintf(c->why, sizeof c->why, "out of memory");
		return -1;
	}
	switch (srv_sess_enqueue(c->s, x, msg, sizeof msg)) {
	case SRV_Q_OK:
		break;
	case SRV_Q_FAILED:
		/* AMD's server sends no reply when the device cannot be opened */
		snprintf(c->why, sizeof c->why, "%s", msg);
		return -1;
	default:
		snprintf(c->why, sizeof c->why, "no session: %s", msg);
		return -1;
	}
	pthread_mutex_lock(&c->s->mu);
	x->refs++;
	c->x = x;
	pthread_mutex_unlock(&c->s->mu);
	srv_log(c->s, "amd %s: session %s: board %s, %u graphs, xclbin %s (%llu bytes)%s",
		c->peer, x->id, m->device, m->ngraphs, m->file[0],
		(unsigned long long)m->file_len[0], x->state == SS_QUEUED ? ", queued" : "");
	if (wait_active(c))
		return -1;   /* as AMD's server when the device is unavailable: no reply */
	if (srv_artifacts_open(c->s, x, c->ini, (size_t)c->ini_len)) {
		snprintf(c->why, sizeof c->why, "%s", aieth_error_message());
		return -1;
	}
	c->have_mgr = 1;
	c->last_ms = srv_now_ms();
	if (pthread_create(&c->runner, NULL, runner_main, c)) {
		snprintf(c->why, sizeof c->why, "cannot start the transaction thread");
		return -1;
	}
	c->runner_on = 1;
	amdp_enc_max_mem(&c->out, c->s->mem_max);
	return flush(c);
}

/* ------------------------------------------------------- file return */

/* After destroy (when xrt.ini came): the regular files of the session's
 * artifact folder, plain base names only, bounded in count and size. */
static int file_return(amd_conn *c)
{
	char *names[AMDP_MAX_FILES];
	uint64_t sizes[AMDP_MAX_FILES];
	size_t n = 0, i;
	int rc = 0;
	DIR *d = c->x && c->x->artdir ? opendir(c->x->artdir) : NULL;
	if (d) {
		struct dirent *e;
		while (n < AMDP_MAX_FILES && (e = readdir(d))) {
			struct stat st;
			if (amdp_check_name("file", e->d_name, strlen(e->d_name)) ||
			    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
			    !S_ISREG(st.st_mode) || (uint64_t)st.st_size > AMDP_MAX_FILE_BYTES)
				continue;
			if (!(names[n] = aieth_strdup(e->d_name)))
				break;
			sizes[n++] = (uint64_t)st.st_size;
		}
		closedir(d);
	}
	amdp_enc_files_count(&c->out, n);
	for (i = 0; i < n && !rc; i++) {
		uint8_t buf[65536];
		uint64_t left = sizes[i];
		char *path = aieth_path_join(c->x->artdir, names[i]);
		int fd = path ? open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
		free(path);
		amdp_enc_file_head(&c->out, names[i], sizes[i]);
		rc = flush(c);
		/* exactly the announced bytes: zeros if the file shrank */
		while (!rc && left) {
			size_t k = left < sizeof buf ? (size_t)left : sizeof buf;
			ssize_t r = fd >= 0 ? read(fd, buf, k) : 0;
			if (r <= 0) {
				memset(buf, 0, k);
				r = (ssize_t)k;
			}
			rc = send_parts(c, buf, (size_t)r, NULL, 0, NULL, 0);
			left -= (uint64_t)r;
		}
		if (fd >= 0)
			close(fd);
	}
	if (!n)
		rc = flush(c);
	for (i = 0; i < n; i++)
		free(names[i]);
	return rc;
}

/* ------------------------------------------------------------ serve */

/* One request (an AMDP_EV_MSG). 1: go on; 0: the session ended cleanly
 * (destroy); -1: the connection ends (c->why). */
static int on_msg(amd_conn *c)
{
	amdp_msg *m = &c->dec.msg;
	c->last_ms = srv_now_ms();
	if (!c->have_mgr && m->kind != AMDP_Q_HELLO && m->kind != AMDP_Q_MGR_DEVICE &&
	    m->kind != AMDP_Q_MGR && m->kind != AMDP_Q_GET_TIMEOUT &&
	    m->kind != AMDP_Q_SET_TIMEOUT && m->kind != AMDP_Q_DESTROY) {
		snprintf(c->why, sizeof c->why, "request \"%s\" before test_harness_mgr",
			 c->dec.reqname);
		return -1;
	}
	switch (m->kind) {
	case AMDP_Q_HELLO:
		/* a file return is due after destroy (even for an empty xrt.ini) */
		c->ini_sent = m->nfiles > 0;
		return 1;
	case AMDP_Q_MGR_DEVICE:
		return on_mgr_device(c) ? -1 : 1;
	case AMDP_Q_MGR:
		return on_mgr(c) ? -1 : 1;
	case AMDP_Q_RUN_BYTES:
		return on_run_bytes(c) ? -1 : 1;
	case AMDP_Q_RUN:
		return on_run(c) ? -1 : 1;
	case AMDP_Q_QUERY:
		return on_query(c, m->id) ? -1 : 1;
	case AMDP_Q_WAIT_TH:
		return on_wait(c, m->id, m->timeout) ? -1 : 1;
	case AMDP_Q_RUN_GRAPH:
		return on_run_graph(c, m->graph_index, m->iterations) ? -1 : 1;
	case AMDP_Q_WAIT_GRAPH:
		return on_wait_graph(c, m->timeout) ? -1 : 1;
	case AMDP_Q_SET_TIMEOUT:
		c->timeout_s = m->value > AMD_TIMEOUT_MAX_S ? AMD_TIMEOUT_MAX_S : m->value;
		return 1;
	case AMDP_Q_GET_TIMEOUT:
		amdp_enc_timeout(&c->out, c->timeout_s);
		return flush(c) ? -1 : 1;
	case AMDP_Q_UPDATE_PORT:
		/* 24 bytes of the client's pointers: the value cannot be known */
		srv_log(c->s, "amd %s: update port \"%s\" ignored: AMD's client sends pointers, "
			"not the value (use the HTTP API for RTP)", c->peer, m->port);
		return 1;
	case AMDP_Q_READ_PORT:
		snprintf(c->why, sizeof c->why, "read port \"%s\": AMD's client cannot use any "
			 "reply (use the HTTP API for RTP)", m->port);
		return -1;
	case AMDP_Q_DESTROY:
		runner_stop(c);
		if (c->ini_sent && file_return(c))
			return -1;
		snprintf(c->why, sizeof c->why, "destroy");
		return 0;
	default:
		snprintf(c->why, sizeof c->why, "unexpected message %d", (int)m->kind);
		return -1;
	}
}

static int on_bulk(amd_conn *c)
{
	uint8_t *dst = NULL;
	switch (c->dec.bulk) {
	case AMDP_BULK_INI:
		free(c->ini);
		if (!(c->ini = malloc((size_t)c->dec.bulk_len))) {
			snprintf(c->why, sizeof c->why, "out of memory for xrt.ini");
			return -1;
		}
		c->ini_len = c->dec.bulk_len;
		c->ini_sent = 1;
		dst = c->ini;
		break;
	case AMDP_BULK_XCLBIN:
		if (xclbin_sink(c, c->dec.bulk_len, &dst))
			return -1;
		break;
	case AMDP_BULK_TO_AIE:
		if (txn_begin(c, &dst))
			return -1;
		break;
	default:
		break;   /* not sent by clients: discarded */
	}
	amdp_dec_sink(&c->dec, dst);
	return 0;
}

void amd_conn_serve(amd_shared *sh, int fd, const char *peer)
{
	amd_conn *c = calloc(1, sizeof *c);
	aieth_server *s = sh->s;
	struct timeval tv = {AMD_SEND_TIMEOUT_S, 0};
	amdp_geom g0 = {36, AMDP_WORD_BYTES, 4096, AMDP_WORD_BYTES};
	int one = 1, rc = -1;

	if (!c) {
		srv_log(s, "amd %s: out of memory", peer);
		return;
	}
	c->sh = sh;
	c->s = s;
	c->fd = fd;
	c->peer = peer;
	c->timeout_s = s->idle_s ? s->idle_s : 60;
	c->last_ms = srv_now_ms();
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	/* the geometry is the board's once the client names it */
	amdp_dec_init(&c->dec, AMDP_SERVER, &g0);
	srv_log(s, "amd %s: connected", peer);
	amdp_enc_available(&c->out, 1);
	if (!flush(c)) {
		for (;;) {
			int ev = next_event(c);
			if (ev < 0)
				break;
			if (ev == AMDP_EV_BULK) {
				if (on_bulk(c))
					break;
				continue;
			}
			rc = on_msg(c);
			if (rc <= 0)
				break;
		}
	}
	runner_stop(c);
	if (c->x) {
		pthread_mutex_lock(&s->mu);
		if (c->x->state == SS_ACTIVE || c->x->state == SS_QUEUED)
			srv_end_locked(s, c->x, SS_ENDED,
				       rc == 0 ? "ended by its AMD client (destroy)" : c->why);
		pthread_mutex_unlock(&s->mu);
		srv_log(s, "amd %s: session %s ended: %s", peer, c->x->id, c->why);
		srv_release(s, c->x);   /* the device closes (reset) here */
	} else {
		srv_log(s, "amd %s: closed: %s", peer, c->why);
	}
	if (c->xmap)
		munmap(c->xmap, (size_t)c->xlen);
	if (c->xpath) {
		unlink(c->xpath);
		free(c->xpath);
	}
	free(c->ini);
	free(c->fetched);
	amdp_buf_free(&c->out);
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	free(c);
}
