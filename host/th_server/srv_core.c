/* SPDX-License-Identifier: MIT */
/*
 * srv_core.c - th_server's one device and its first-come first-served
 * queue (srv_core.h), shared by the HTTP API and AMD's protocol: sessions,
 * their transactions under one memory budget, expiry, open and close.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "th_server/srv_core.h"
#include "th_server/srv_names.h"
#include "th_server/srv_image.h"
#include "util/path.h"

/* how long POST /v1/sessions waits for its device to open before it
 * answers "queued" at position 1 (the client then polls) */
#define SRV_OPEN_WAIT_S 30

const char *const srv_state_names[] = {"queued", "active", "ended", "expired", "failed"};

int64_t srv_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void srv_log(aieth_server *s, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	if (!s->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&s->logmu);
	s->log(s->log_ctx, line);
	pthread_mutex_unlock(&s->logmu);
}

/* ---- sessions ---- */

srv_sess *srv_find_locked(aieth_server *s, const char *id)
{
	srv_sess *p;
	for (p = s->sessions; p; p = p->next)
		if (!strcmp(p->id, id))
			return p;
	return NULL;
}

unsigned srv_position_locked(aieth_server *s, const srv_sess *x)
{
	const srv_sess *p;
	unsigned n = 1;
	if (x->state != SS_QUEUED)
		return 0;
	/* a session whose device is being opened is no longer waiting */
	for (p = s->sessions; p && p != x; p = p->next)
		if (p->state == SS_QUEUED && !p->opening)
			n++;
	return n;
}

static void txn_free(srv_txn *t)
{
	aieth_dev_txn_free(t->dev);
	free(t->cfg);
	srv_stream_free(t->stream);
	srv_image_free(t->im, t->txbuf, srv_now_ms());
	srv_image_free(t->im, t->rxbuf, srv_now_ms());
	free(t);
}

static void free_txns(srv_sess *x)
{
	srv_txn *t, *n;
	for (t = x->txns; t; t = n) {
		n = t->next;
		txn_free(t);
	}
	x->txns = NULL;
	for (t = x->retired; t; t = n) {
		n = t->next;
		txn_free(t);
	}
	x->retired = NULL;
	x->nretired = 0;
}

/* A session done with the device lets go of its cached design. */
static void unpin_done_locked(aieth_server *s, srv_sess *x)
{
	if (x->state >= SS_ENDED && !x->dev)
		srv_xclbin_unpin_locked(s, x);
}

static void close_dev_locked(aieth_server *s, srv_sess *x)
{
	if (x->dev && x->refs == 0) {
		/* what the client fetches afterwards (GET .../artifacts) */
		srv_artifacts_summary(s, x);
		free_txns(x);
		s->mem_used -= x->mem;
		x->mem = 0;
		/* closing the device is its reset: graphs ended, buffers freed; the
		 * next session opens it afresh. The opener thread closes it, with
		 * mu released; the device counts as busy until then. */
		if (s->opener_started && !s->closing) {
			s->closing = x->dev;
			s->closing_x = x;
			x->dev_closing = 1;
			pthread_cond_signal(&s->work_cv);
		} else {
			aieth_session_close(x->dev);
			if (s->opener_started)
				pthread_cond_broadcast(&s->opened_cv); /* srv_wait_closed_locked */
		}
		x->dev = NULL;
		s->resets++;
		/* a session that expired or failed (or a drain) may have left the
		 * board in a bad state: the reset command runs before the next open */
		if (s->reset_cmd &&
		    (x->state == SS_EXPIRED || x->state == SS_FAILED || s->draining)) {
			s->reset_pending = 1;
			pthread_cond_signal(&s->work_cv);
		}
	}
}

/* A device still open by a session that ended during a call blocks the
 * next session until that call returns; so does an open or a reset. */
static int device_busy_locked(aieth_server *s)
{
	srv_sess *p;
	if (s->reset_pending || s->resetting || s->closing)
		return 1;
	for (p = s->sessions; p; p = p->next)
		if (p->state == SS_ACTIVE || p->dev || p->opening)
			return 1;
	return 0;
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	srv_sess *x = ctx;
	srv_txn *t;
	pthread_mutex_lock(&x->srv->mu);
	if ((t = srv_txn_running_locked(x))) {
		t->done = done;
		t->total = total;
	}
	pthread_mutex_unlock(&x->srv->mu);
}

/* Called without mu: x stays in the list while x->opening (prune skips it). */
static int open_dev(aieth_server *s, srv_sess *x, aieth_session **dev)
{
	aieth_graph_spec g[SRV_GRAPHS_MAX];
	aieth_session_opts o;
	aieth_xrt_opts xo = AIETH_XRT_OPTS_INIT;
	aieth_emu_opts eo = AIETH_EMU_OPTS_INIT;
	char *own[SRV_GRAPHS_MAX], *tdir = NULL, *ini = NULL;
	unsigned int flags = aieth_backend_flags(s->backend);
	size_t i;
	int rc;
	aieth_session_opts_init(&o, AIETH_SESSION_OPTS_VERSION);
	/* xrt: XRT reads the client's xrt.ini, its files join the session's
	 * artifacts (backends/xrt/xrt_rundir.c) */
	if (!(flags & AIETH_BACKEND_EMULATED) && x->artdir) {
		struct stat st;
		ini = aieth__path_join(x->artdir, "xrt.ini");
		if (ini && !lstat(ini, &st) && S_ISREG(st.st_mode))
			xo.xrt_ini = ini;
		/* and a hang's aie_state.json, fetched by the client at once */
		xo.artifacts_dir = x->artdir;
		o.xrt = &xo;
	}
	/* emu: a stall's aie_state.json joins the session's artifacts, where
	 * the remote client fetches it after the hang
	 * (backends/remote/remote_session.c rm_fetch_aie_state) */
	if ((flags & AIETH_BACKEND_EMULATED) && x->artdir) {
		eo.artifacts_dir = x->artdir;
		o.emu = &eo;
	}
	for (i = 0; i < x->req.ngraphs; i++) {
		g[i].name = x->req.graphs[i].name;
		g[i].model = x->req.graphs[i].model[0] ? x->req.graphs[i].model : NULL;
		g[i].model_params = x->req.graphs[i].params;
	}
	o.board = x->req.board;
	o.data_dir = s->data_dir;
	o.backend = s->backend;
	o.xclbin = x->xclbin;
	o.graphs = g;
	o.num_graphs = x->req.ngraphs;
	o.interrupt = &x->intr; /* set on drain, and by --max-session */
	o.progress = on_progress;
	o.progress_ctx = x;
	if (!x->http) {
		rc = aieth_session_open(dev, &o);
		free(ini);
		return rc;
	}
	/* an HTTP client's names: plugins from --model-dir, its traces in its
	 * own folder (AMD clients' models are the operator's --graph-model) */
	rc = srv_session_names_prepare(s, x, g, own, &tdir);
	o.model_base_dir = tdir;
	if (!rc)
		rc = aieth_session_open(dev, &o);
	if (rc) {
		char msg[1024];
		snprintf(msg, sizeof msg, "%s", aieth_error_message());
		srv_session_names_scrub(x, own, tdir, msg, sizeof msg);
		if (strcmp(msg, aieth_error_message()))
			srv_log(s, "session %s: %s", x->id, aieth_error_message());
		aieth__fail(rc, "%s", msg);
	}
	srv_session_names_release(x, own, tdir);
	free(ini);
	return rc;
}

/* Marks the next queued session for the opener thread; the open itself
 * happens outside mu (opener_main). */
void srv_promote_locked(aieth_server *s)
{
	srv_sess *p;
	if (s->draining || device_busy_locked(s))
		return;
	for (p = s->sessions; p && p->state != SS_QUEUED; p = p->next)
		;
	if (!p)
		return;
	p->opening = 1;
	pthread_cond_signal(&s->work_cv);
}

static void run_reset_unlocked(aieth_server *s)
{
	char msg[256];
	int64_t t0 = srv_now_ms();
	int rc = srv_reset_run(s->reset_cmd, s->reset_timeout_s, msg, sizeof msg);
	if (rc) {
		pthread_mutex_lock(&s->mu);
		s->reset_failures++;
		pthread_mutex_unlock(&s->mu);
	}
	srv_log(s, "device reset: \"%s\" %s (%lld ms)%s", s->reset_cmd, msg,
		(long long)(srv_now_ms() - t0), rc ? ": FAILED" : "");
}

/* The opener thread: the device a session let go of closed, the reset
 * command when due, then the device opened for the session promote
 * marked, all with mu released so that every other request goes on
 * meanwhile. A session ended during its open (DELETE,
 * expiry, drain) gets its device closed at once. */
static void *opener_main(void *arg)
{
	aieth_server *s = arg;
	srv_sess *p;
	pthread_mutex_lock(&s->mu);
	for (;;) {
		if (s->closing) {
			aieth_session *dev = s->closing;
			pthread_mutex_unlock(&s->mu);
			aieth_session_close(dev);
			pthread_mutex_lock(&s->mu);
			s->closing = NULL;
			if (s->closing_x)
				s->closing_x->dev_closing = 0;
			s->closing_x = NULL;
			pthread_cond_broadcast(&s->opened_cv); /* srv_wait_closed_locked */
			srv_promote_locked(s);
			continue;
		}
		if (s->reset_pending) {
			s->reset_pending = 0;
			s->resetting = 1;
			pthread_mutex_unlock(&s->mu);
			run_reset_unlocked(s);
			pthread_mutex_lock(&s->mu);
			s->resetting = 0;
			srv_promote_locked(s);
			continue;
		}
		for (p = s->sessions; p; p = p->next) {
			if (!p->opening)
				continue;
			if (p->state == SS_QUEUED)
				break;
			/* marked, then ended before its open began: nothing to open */
			p->opening = 0;
			pthread_cond_broadcast(&s->opened_cv);
		}
		if (!p && !device_busy_locked(s)) {
			srv_promote_locked(s);
			for (p = s->sessions; p && !p->opening; p = p->next)
				;
		}
		if (!p) {
			if (s->opener_stop)
				break;
			pthread_cond_wait(&s->work_cv, &s->mu);
			continue;
		}
		{
			aieth_session *dev = NULL;
			int rc;
			pthread_mutex_unlock(&s->mu);
			rc = open_dev(s, p, &dev);
			pthread_mutex_lock(&s->mu);
			if (rc) {
				if (p->state == SS_QUEUED) {
					p->state = SS_FAILED;
					snprintf(p->reason, sizeof p->reason,
						 "the device could not be opened: %s",
						 aieth_error_message());
					srv_log(s, "session %s: %s", p->id, p->reason);
					srv_artifacts_summary(s, p);
					unpin_done_locked(s, p);
				}
				/* a device that would not open may be stuck: reset it
				 * before the next try */
				if (s->reset_cmd)
					s->reset_pending = 1;
			} else if (p->state == SS_QUEUED && !s->draining) {
				/* the idle clock keeps running from the client's last
				 * request: a client that left while queued does not hold
				 * the device longer */
				p->dev = dev;
				p->state = SS_ACTIVE;
				p->active_ms = srv_now_ms();
			} else {
				if (p->state == SS_QUEUED)
					srv_end_locked(s, p, SS_ENDED, "the server stopped");
				p->dev = dev;
				close_dev_locked(s, p);
			}
			p->opening = 0;
			pthread_cond_broadcast(&s->opened_cv);
			srv_promote_locked(s);
		}
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* mu held. */
static void opener_start_locked(aieth_server *s)
{
	if (s->opener_started)
		return;
	pthread_cond_init(&s->work_cv, NULL);
	pthread_cond_init(&s->opened_cv, NULL);
	if (pthread_create(&s->opener, NULL, opener_main, s))
		return; /* checked by the caller: opener_started stays 0 */
	s->opener_started = 1;
}

void srv_opener_stop(aieth_server *s)
{
	int started;
	pthread_mutex_lock(&s->mu);
	started = s->opener_started;
	s->opener_stop = 1;
	if (started)
		pthread_cond_signal(&s->work_cv);
	pthread_mutex_unlock(&s->mu);
	if (!started)
		return;
	pthread_join(s->opener, NULL);
	pthread_cond_destroy(&s->work_cv);
	pthread_cond_destroy(&s->opened_cv);
	s->opener_started = 0;
}

void srv_end_locked(aieth_server *s, srv_sess *x, ss_state st, const char *reason)
{
	if (x->state != SS_QUEUED && x->state != SS_ACTIVE)
		return;
	x->state = st;
	if (reason)
		snprintf(x->reason, sizeof x->reason, "%s", reason);
	if (!x->dev)
		srv_artifacts_summary(s, x); /* ended before it held the device */
	close_dev_locked(s, x);              /* else the summary is written there */
	unpin_done_locked(s, x);
	srv_promote_locked(s);
}

srv_sess *srv_sess_new(const char *owner, srv_session_req *req)
{
	srv_sess *x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->req = *req;
	memset(req, 0, sizeof *req);
	pthread_mutex_init(&x->call, NULL);
	x->srv = NULL;
	snprintf(x->owner, sizeof x->owner, "%s", owner);
	return x;
}

void srv_free_sess(srv_sess *x)
{
	free_txns(x);
	srv_session_req_free(&x->req);
	free(x->xclbin);
	free(x->xrt_ini);
	srv_traces_remove(x);
	srv_artifacts_remove(x);
	pthread_mutex_destroy(&x->call);
	free(x);
}

/* Forget the oldest finished sessions beyond SRV_ENDED_KEEP. */
static void prune_locked(aieth_server *s)
{
	srv_sess **pp;
	size_t n = 0;
	for (pp = &s->sessions; *pp; pp = &(*pp)->next)
		if ((*pp)->state >= SS_ENDED && !(*pp)->dev && !(*pp)->refs && !(*pp)->opening &&
		    !(*pp)->dev_closing && !(*pp)->waiting)
			n++;
	for (pp = &s->sessions; *pp && n > SRV_ENDED_KEEP;) {
		srv_sess *x = *pp;
		if (x->state >= SS_ENDED && !x->dev && !x->refs && !x->opening && !x->dev_closing &&
		    !x->waiting) {
			*pp = x->next;
			srv_free_sess(x);
			n--;
		} else {
			pp = &x->next;
		}
	}
}

static void new_id(aieth_server *s, char *id, size_t cap)
{
	uint64_t v = ++s->next_seq;
	/* unguessable enough to not collide with an older server's ids in a
	 * client's retries; ownership is checked by token anyway */
	snprintf(id, cap, "s-%llu-%08llx", (unsigned long long)v,
		 (unsigned long long)((s->id_key ^ (v * 0x9e3779b97f4a7c15ull)) & 0xffffffffull));
}

srv_q_result srv_sess_enqueue(aieth_server *s, srv_sess *x, char *msg, size_t cap)
{
	srv_sess **pp;
	unsigned queued = 0;

	pthread_mutex_lock(&s->mu);
	if (s->draining) {
		pthread_mutex_unlock(&s->mu);
		srv_free_sess(x);
		snprintf(msg, cap, "the server is stopping");
		return SRV_Q_DRAINING;
	}
	for (pp = &s->sessions; *pp; pp = &(*pp)->next)
		queued += (*pp)->state == SS_QUEUED && !(*pp)->opening;
	if (device_busy_locked(s) && queued >= s->max_queue) {
		pthread_mutex_unlock(&s->mu);
		srv_free_sess(x);
		snprintf(msg, cap, "the queue holds %u sessions, the limit is --max-queue %u",
			 queued, s->max_queue);
		return SRV_Q_FULL;
	}
	if (x->xsha[0] && srv_xclbin_pin_locked(s, x)) {
		pthread_mutex_unlock(&s->mu);
		snprintf(msg, cap, "%s", aieth_error_message());
		srv_free_sess(x);
		return SRV_Q_NO_XCLBIN;
	}
	opener_start_locked(s);
	if (!s->opener_started) {
		srv_xclbin_unpin_locked(s, x);
		pthread_mutex_unlock(&s->mu);
		srv_free_sess(x);
		snprintf(msg, cap, "the server could not start its device opener thread");
		return SRV_Q_DRAINING;
	}
	new_id(s, x->id, sizeof x->id);
	/* the client's files are in place before the device opens */
	if (srv_artifacts_open(s, x, x->xrt_ini, x->xrt_ini_len)) {
		srv_xclbin_unpin_locked(s, x);
		pthread_mutex_unlock(&s->mu);
		snprintf(msg, cap, "%s", aieth_error_message());
		srv_free_sess(x);
		return SRV_Q_INTERNAL;
	}
	free(x->xrt_ini);
	x->xrt_ini = NULL;
	x->seq = s->next_seq;
	x->srv = s;
	x->created_ms = x->last_ms = srv_now_ms();
	x->state = SS_QUEUED;
	*pp = x;
	s->sessions_total++;
	srv_promote_locked(s);
	/* the device free: answer once it is open (the opener works without
	 * mu; bounded, a slow board leaves the session queued at position 1
	 * and its client polls) */
	srv_wait_open_locked(s, x, SRV_OPEN_WAIT_S * 1000);
	if (x->state == SS_FAILED) {
		snprintf(msg, cap, "%s", x->reason);
		pthread_mutex_unlock(&s->mu);
		return SRV_Q_FAILED;
	}
	pthread_mutex_unlock(&s->mu);
	return SRV_Q_OK;
}

void srv_wait_open_locked(aieth_server *s, srv_sess *x, unsigned ms)
{
	struct timespec dl;
	if (!x->opening || !s->opener_started)
		return;
	dl = srv_deadline(CLOCK_REALTIME, ms);
	/* referenced: not pruned while mu is released in the wait */
	x->refs++;
	while (x->opening && !pthread_cond_timedwait(&s->opened_cv, &s->mu, &dl))
		;
	x->refs--;
	if (x->state != SS_ACTIVE) {
		close_dev_locked(s, x);
		srv_promote_locked(s);
	}
}

void srv_wait_closed_locked(aieth_server *s, srv_sess *x, unsigned ms)
{
	struct timespec dl;
	if (x->state == SS_QUEUED || x->state == SS_ACTIVE || !s->opener_started)
		return;
	dl = srv_deadline(CLOCK_REALTIME, ms);
	/* a device still held by a call that ends soon (refs), or handed to
	 * the opener: both end in a broadcast of opened_cv */
	x->waiting++;
	while ((x->dev || x->dev_closing) && !pthread_cond_timedwait(&s->opened_cv, &s->mu, &dl))
		;
	x->waiting--;
}

void srv_release(aieth_server *s, srv_sess *x)
{
	pthread_mutex_lock(&s->mu);
	x->refs--;
	x->last_ms = srv_now_ms();
	if (x->state != SS_ACTIVE) {
		close_dev_locked(s, x);
		unpin_done_locked(s, x);
		srv_promote_locked(s);
	}
	pthread_mutex_unlock(&s->mu);
}

int srv_end_close(aieth_server *s, srv_sess *x, const char *reason)
{
	int ended = 0;
	pthread_mutex_lock(&s->mu);
	/* only the caller's reference: no device call or transfer runs */
	if (x->state == SS_ACTIVE && x->dev && x->refs == 1) {
		/* the one close path, as for any end: the caller's reference set
		 * aside (mu is held throughout) so that the device goes now */
		x->refs--;
		srv_end_locked(s, x, SS_ENDED, reason);
		x->refs++;
		srv_wait_closed_locked(s, x, SRV_CLOSE_WAIT_MS);
		ended = 1;
	}
	pthread_mutex_unlock(&s->mu);
	return ended;
}

void srv_tick(aieth_server *s)
{
	srv_sess *p;
	int64_t t = srv_now_ms();
	char why[256];
	unsigned waiting = 0;
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	for (p = s->sessions; p; p = p->next)
		waiting += p->state == SS_QUEUED && !p->opening;
	for (p = s->sessions; p; p = p->next) {
		if (p->opening)
			continue; /* it gets the device now; judged once open */
		if (p->state == SS_QUEUED && t - p->created_ms > s->max_wait_ms) {
			snprintf(why, sizeof why,
				 "waited %lld s in the queue, the limit is "
				 "--max-wait %u s",
				 (long long)((t - p->created_ms) / 1000), s->max_wait_s);
			srv_log(s, "session %s (%s): expired: %s", p->id, p->owner, why);
			srv_end_locked(s, p, SS_EXPIRED, why);
		} else if ((p->state == SS_QUEUED || p->state == SS_ACTIVE) && !p->refs &&
			   t - p->last_ms > s->idle_ms) {
			snprintf(why, sizeof why,
				 "no request for %lld s, the limit is "
				 "--idle-timeout %u s",
				 (long long)((t - p->last_ms) / 1000), s->idle_s);
			srv_log(s, "session %s (%s): expired: %s", p->id, p->owner, why);
			srv_end_locked(s, p, SS_EXPIRED, why);
		} else if (p->state == SS_ACTIVE && waiting && s->max_session_ms &&
			   t - p->active_ms > s->max_session_ms) {
			/* others wait: the holder's running call is interrupted and
			 * the device goes to the next session */
			snprintf(why, sizeof why,
				 "held the device for %lld s while %u session%s "
				 "waited, the limit is --max-session %u s",
				 (long long)((t - p->active_ms) / 1000), waiting,
				 waiting == 1 ? "" : "s", s->max_session_s);
			srv_log(s, "session %s (%s): expired: %s", p->id, p->owner, why);
			p->intr = 1;
			srv_end_locked(s, p, SS_EXPIRED, why);
		}
	}
	prune_locked(s);
	srv_promote_locked(s);
	pthread_mutex_unlock(&s->mu);
	/* images kept for reuse go back to the system when unused a while */
	srv_images_trim(&s->images, t, SRV_IMAGE_IDLE_MS);
}

/* ---- transactions ---- */

srv_txn *srv_txn_find_locked(srv_sess *x, const char *id)
{
	srv_txn *t;
	for (t = x->txns; t; t = t->next)
		if (!strcmp(t->id, id))
			return t;
	return NULL;
}

srv_txn *srv_txn_running_locked(srv_sess *x)
{
	srv_txn *p;
	for (p = x->txns; p && p->state != ST_STARTED; p = p->next)
		;
	return p;
}

void srv_txn_started_locked(srv_txn *t)
{
	uint32_t N = t->channels, c, d;
	uint64_t words = 0;
	/* the bytes the device is to move, as the progress hook counts them
	 * (each channel's frames times repetitions): known before the first
	 * progress report */
	for (d = 0; d < 2; d++)
		for (c = 0; c < N; c++) {
			const uint64_t *b = t->cfg + 1 + (size_t)d * 4 * N;
			words += (b[N + c] & 0xffffffffu) * (b[2 * N + c] & 0xffffffffu);
		}
	t->state = ST_STARTED;
	t->done = 0;
	t->total = words * PLD_WORD_BYTES;
}

void srv_txn_delete_locked(aieth_server *s, srv_sess *x, srv_txn *t)
{
	srv_txn **pp;
	uint64_t bytes = t->tx_size + t->rx_size;
	for (pp = &x->txns; *pp && *pp != t; pp = &(*pp)->next)
		;
	if (!*pp)
		return;
	*pp = t->next;
	s->mem_used -= bytes;
	x->mem -= bytes;
	txn_free(t);
}

srv_t_result srv_txn_new(aieth_server *s, srv_sess *x, srv_txn_req *q, srv_txn **out, char *msg,
			 size_t cap)
{
	const aieth_board *board = aieth_session_board(x->dev);
	const aieth_board_info *info = board ? aieth_board_get_info(board) : NULL;
	uint64_t bytes = q->tx_bytes + q->rx_bytes;
	srv_txn *t, **pp;
	unsigned n = 0;
	uint32_t N = q->channels;

	*out = NULL;
	if (!info) {
		snprintf(msg, cap, "session \"%s\" holds no device", x->id);
		return SRV_T_GEOMETRY;
	}
	if (N != info->channels || q->depth != info->uram_depth_words) {
		snprintf(msg, cap,
			 "channels %u and depth %u, the board %s has %u channels and a "
			 "depth of %u words",
			 N, q->depth, info->name, info->channels, info->uram_depth_words);
		return SRV_T_GEOMETRY;
	}
	pthread_mutex_lock(&s->mu);
	for (pp = &x->txns; *pp; pp = &(*pp)->next)
		n++;
	if (n >= SRV_TXNS_MAX) {
		pthread_mutex_unlock(&s->mu);
		snprintf(msg, cap,
			 "session \"%s\" holds %u transactions, the limit is %d: fetch "
			 "their results first",
			 x->id, n, SRV_TXNS_MAX);
		return SRV_T_TOO_MANY;
	}
	/* the memory budget: images are held until the session ends */
	if (bytes > s->mem_max - s->mem_used) {
		unsigned long long used = s->mem_used;
		pthread_mutex_unlock(&s->mu);
		snprintf(msg, cap,
			 "transaction images of %llu bytes: %llu of the --max-memory "
			 "%llu MiB are in use",
			 (unsigned long long)bytes, used, (unsigned long long)(s->mem_max >> 20));
		return SRV_T_MEMORY;
	}
	s->mem_used += bytes;
	x->mem += bytes;
	pthread_mutex_unlock(&s->mu);

	t = calloc(1, sizeof *t);
	if (!t)
		goto oom;
	t->channels = N;
	t->depth = q->depth;
	t->cfg = q->cfg;
	q->cfg = NULL;
	t->tx_size = q->tx_bytes;
	t->rx_size = q->rx_bytes;
	/* huge pages where the kernel has them, reused (srv_image.c); TX is
	 * written whole by its upload before the device runs, RX zeroed */
	t->im = &s->images;
	t->txbuf = srv_image_alloc(t->im, (size_t)q->tx_bytes, 0);
	t->rxbuf = srv_image_alloc(t->im, (size_t)q->rx_bytes, 1);
	if (!t->txbuf || !t->rxbuf)
		goto oom;
	pthread_mutex_lock(&s->mu);
	snprintf(t->id, sizeof t->id, "t-%u", ++x->next_tid);
	for (pp = &x->txns; *pp; pp = &(*pp)->next)
		;
	*pp = t;
	pthread_mutex_unlock(&s->mu);
	*out = t;
	return SRV_T_OK;
oom:
	if (t)
		txn_free(t);
	pthread_mutex_lock(&s->mu);
	s->mem_used -= bytes;
	x->mem -= bytes;
	pthread_mutex_unlock(&s->mu);
	snprintf(msg, cap, "transaction: out of memory for images of %llu and %llu bytes",
		 (unsigned long long)q->tx_bytes, (unsigned long long)q->rx_bytes);
	return SRV_T_NOMEM;
}

const char *srv_txn_message(const srv_txn *t)
{
	return t->dev ? aieth_dev_txn_message(t->dev) : "";
}

int srv_txn_start(srv_sess *x, srv_txn *t)
{
	aieth_dev_txn_opts o = AIETH_DEV_TXN_OPTS_INIT;
	o.cfg = t->cfg;
	o.cfg_words = pld_cfg_count(t->channels);
	o.depth = t->depth;
	o.tx = t->txbuf;
	o.tx_size = t->tx_size;
	o.rx = t->rxbuf;
	o.rx_size = t->rx_size;
	aieth_dev_txn *d;
	int rc;
	if (t->stream)
		srv_stream_gates(t->stream, &o);
	if (!(rc = aieth_dev_txn_start(x->dev, &o, &d)))
		t->dev = d;
	return rc;
}

int srv_txn_wait(aieth_server *s, srv_txn *t, uint32_t timeout_ms)
{
	const char *why = NULL;
	int rc;
	if (t->stream)
		srv_stream_device(t->stream, 1);
	rc = aieth_dev_txn_wait(t->dev, timeout_ms);
	if (t->stream) {
		srv_stream_device(t->stream, 0);
		why = srv_stream_failure(t->stream);
	}
	pthread_mutex_lock(&s->mu);
	if (rc || why) {
		/* a streamed upload that stopped: the result is of zeros */
		t->failed = 1;
		snprintf(t->msg, sizeof t->msg, "%s", rc ? aieth_error_message() : why);
		s->txn_failed++;
	} else if ((unsigned)aieth_dev_txn_status(t->dev) < 5) {
		s->txn_status[aieth_dev_txn_status(t->dev)]++;
	}
	t->state = ST_FINISHED;
	pthread_mutex_unlock(&s->mu);
	if (t->stream)
		srv_stream_finished(t->stream);
	return rc;
}

/* ---- appended helpers ---- */

/* mu held: t taken out of the session's list, its images' bytes given back
 * to the memory budget; 0 if it was not there (already dropped). */
static int txn_unlink_locked(aieth_server *s, srv_sess *x, srv_txn *t)
{
	srv_txn **pp;
	uint64_t bytes = t->tx_size + t->rx_size;
	for (pp = &x->txns; *pp && *pp != t; pp = &(*pp)->next)
		;
	if (!*pp)
		return 0;
	*pp = t->next;
	s->mem_used -= bytes;
	x->mem -= bytes;
	return 1;
}

void srv_txn_drop(aieth_server *s, srv_sess *x, srv_txn *t)
{
	pthread_mutex_lock(&s->mu);
	if (txn_unlink_locked(s, x, t))
		txn_free(t);
	pthread_mutex_unlock(&s->mu);
}

/* The number in a transaction's id "t-N" (srv_txn_new). */
static unsigned long txn_seq(const srv_txn *t) { return strtoul(t->id + 2, NULL, 10); }

/* mu held: t into x->retired in submission order, as HTTP sessions list
 * theirs (results may be fetched in any order); the oldest dropped past
 * SRV_RETIRED_MAX. */
static void retire_insert_locked(srv_sess *x, srv_txn *t)
{
	srv_txn **pp;
	for (pp = &x->retired; *pp && txn_seq(*pp) < txn_seq(t); pp = &(*pp)->next)
		;
	t->next = *pp;
	*pp = t;
	if (++x->nretired > SRV_RETIRED_MAX) {
		srv_txn *old = x->retired;
		x->retired = old->next;
		x->nretired--;
		x->retired_omitted++;
		txn_free(old);
	}
}

void srv_txn_retire(aieth_server *s, srv_sess *x, srv_txn *t)
{
	pthread_mutex_lock(&s->mu);
	if (txn_unlink_locked(s, x, t)) {
		/* the images and the cfg words go; the sizes and the result
		 * (t->dev, with its perf words) stay: run_summary.json shows them */
		srv_image_free(t->im, t->txbuf, srv_now_ms());
		srv_image_free(t->im, t->rxbuf, srv_now_ms());
		t->txbuf = t->rxbuf = NULL;
		free(t->cfg);
		t->cfg = NULL;
		retire_insert_locked(x, t);
	}
	pthread_mutex_unlock(&s->mu);
}

int srv_txn_refused(aieth_server *s, srv_sess *x, uint32_t amd_id, uint32_t channels,
		    uint64_t tx_bytes, uint64_t rx_bytes, const char *msg)
{
	srv_txn *t = calloc(1, sizeof *t);
	if (!t)
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	if (aieth_dev_txn_record(channels, AIETH_TXN_FAILED, msg, &t->dev)) {
		free(t);
		return AIETH_ENOMEM;
	}
	/* a record only: no images, never in x->txns (the budget untouched) */
	t->state = ST_FINISHED;
	t->channels = channels;
	t->tx_size = t->tx_got = tx_bytes;
	t->rx_size = rx_bytes;
	t->amd_id = amd_id;
	t->has_amd_id = 1;
	pthread_mutex_lock(&s->mu);
	snprintf(t->id, sizeof t->id, "t-%u", ++x->next_tid);
	retire_insert_locked(x, t);
	pthread_mutex_unlock(&s->mu);
	return AIETH_OK;
}
