/* SPDX-License-Identifier: MIT */
/*
 * srv_core.c - th_server's one device (srv_core.h): the opener thread
 * that opens it for the session the queue promotes (srv_queue.c) and
 * closes it after, the reset command between sessions, a session's end,
 * the log. Called with srv->mu held where the name says _locked.
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

const char *const aieth__srv_state_names[] = {"queued", "active", "ended", "expired", "failed"};

void aieth__srv_log(aieth__server *s, const char *fmt, ...)
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

/* ---- a session's device: closed, busy, opened ---- */

static void free_txns(srv_sess *x)
{
	srv_txn *t, *n;
	for (t = x->txns; t; t = n) {
		n = t->next;
		aieth__srv_txn_free(t);
	}
	x->txns = NULL;
	for (t = x->retired; t; t = n) {
		n = t->next;
		aieth__srv_txn_free(t);
	}
	x->retired = NULL;
	x->nretired = 0;
}

/* A session done with the device lets go of its cached design. */
void aieth__srv_unpin_done_locked(aieth__server *s, srv_sess *x)
{
	if (x->state >= SS_ENDED && !x->dev)
		aieth__srv_xclbin_unpin_locked(s, x);
}

void aieth__srv_close_dev_locked(aieth__server *s, srv_sess *x)
{
	if (x->dev && x->refs == 0) {
		/* what the client fetches afterwards (GET .../artifacts) */
		aieth__srv_artifacts_summary(s, x);
		free_txns(x);
		s->stats.mem_used -= x->mem;
		x->mem = 0;
		/* closing the device is its reset: graphs ended, buffers freed; the
		 * next session opens it afresh. The opener thread closes it, with
		 * mu released; the device counts as busy until then. */
		if (s->queue.opener_started && !s->queue.closing) {
			s->queue.closing = x->dev;
			s->queue.closing_x = x;
			x->dev_closing = 1;
			pthread_cond_signal(&s->queue.work_cv);
		} else {
			aieth_session_close(x->dev);
			if (s->queue.opener_started)
				pthread_cond_broadcast(
					&s->queue.opened_cv); /* aieth__srv_wait_closed_locked */
		}
		x->dev = NULL;
		s->stats.resets++;
		/* a session that expired or failed (or a drain) may have left the
		 * board in a bad state: the reset command runs before the next open */
		if (s->reset.cmd &&
		    (x->state == SS_EXPIRED || x->state == SS_FAILED || s->draining)) {
			s->reset.pending = 1;
			pthread_cond_signal(&s->queue.work_cv);
		}
	}
}

/* A device still open by a session that ended during a call blocks the
 * next session until that call returns; so does an open or a reset. */
int aieth__srv_device_busy_locked(aieth__server *s)
{
	srv_sess *p;
	if (s->reset.pending || s->reset.running || s->queue.closing)
		return 1;
	for (p = s->queue.sessions; p; p = p->next)
		if (p->state == SS_ACTIVE || p->dev || p->opening)
			return 1;
	return 0;
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	srv_sess *x = ctx;
	srv_txn *t;
	pthread_mutex_lock(&x->srv->mu);
	if ((t = aieth__srv_txn_running_locked(x))) {
		t->done = done;
		t->total = total;
	}
	pthread_mutex_unlock(&x->srv->mu);
}

/* Called without mu: x stays in the list while x->opening (prune skips it). */
static int open_dev(aieth__server *s, srv_sess *x, aieth_session **dev)
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
	 * (backends/remote/remote_session.c aieth__rm_fetch_aie_state) */
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
	rc = aieth__srv_session_names_prepare(s, x, g, own, &tdir);
	o.model_base_dir = tdir;
	if (!rc)
		rc = aieth_session_open(dev, &o);
	if (rc) {
		char msg[1024];
		snprintf(msg, sizeof msg, "%s", aieth_error_message());
		aieth__srv_session_names_scrub(x, own, tdir, msg, sizeof msg);
		if (strcmp(msg, aieth_error_message()))
			aieth__srv_log(s, "session %s: %s", x->id, aieth_error_message());
		aieth__fail(rc, "%s", msg);
	}
	aieth__srv_session_names_release(x, own, tdir);
	free(ini);
	return rc;
}

/* ---- the opener thread ---- */

/* Marks the next queued session for the opener thread; the open itself
 * happens outside mu (opener_main). */
void aieth__srv_promote_locked(aieth__server *s)
{
	srv_sess *p;
	if (s->draining || aieth__srv_device_busy_locked(s))
		return;
	for (p = s->queue.sessions; p && p->state != SS_QUEUED; p = p->next)
		;
	if (!p)
		return;
	p->opening = 1;
	pthread_cond_signal(&s->queue.work_cv);
}

static void run_reset_unlocked(aieth__server *s)
{
	char msg[256];
	int64_t t0 = srv_now_ms();
	int rc = aieth__srv_reset_run(s->reset.cmd, s->reset.timeout_s, msg, sizeof msg);
	if (rc) {
		pthread_mutex_lock(&s->mu);
		s->reset.failures++;
		pthread_mutex_unlock(&s->mu);
	}
	aieth__srv_log(s, "device reset: \"%s\" %s (%lld ms)%s", s->reset.cmd, msg,
		       (long long)(srv_now_ms() - t0), rc ? ": FAILED" : "");
}

/* The opener thread: the device a session let go of closed, the reset
 * command when due, then the device opened for the session promote
 * marked, all with mu released so that every other request goes on
 * meanwhile. A session ended during its open (DELETE,
 * expiry, drain) gets its device closed at once. */
static void *opener_main(void *arg)
{
	aieth__server *s = arg;
	srv_sess *p;
	pthread_mutex_lock(&s->mu);
	for (;;) {
		if (s->queue.closing) {
			aieth_session *dev = s->queue.closing;
			pthread_mutex_unlock(&s->mu);
			aieth_session_close(dev);
			pthread_mutex_lock(&s->mu);
			s->queue.closing = NULL;
			if (s->queue.closing_x)
				s->queue.closing_x->dev_closing = 0;
			s->queue.closing_x = NULL;
			pthread_cond_broadcast(
				&s->queue.opened_cv); /* aieth__srv_wait_closed_locked */
			aieth__srv_promote_locked(s);
			continue;
		}
		if (s->reset.pending) {
			s->reset.pending = 0;
			s->reset.running = 1;
			pthread_mutex_unlock(&s->mu);
			run_reset_unlocked(s);
			pthread_mutex_lock(&s->mu);
			s->reset.running = 0;
			aieth__srv_promote_locked(s);
			continue;
		}
		for (p = s->queue.sessions; p; p = p->next) {
			if (!p->opening)
				continue;
			if (p->state == SS_QUEUED)
				break;
			/* marked, then ended before its open began: nothing to open */
			p->opening = 0;
			pthread_cond_broadcast(&s->queue.opened_cv);
		}
		if (!p && !aieth__srv_device_busy_locked(s)) {
			aieth__srv_promote_locked(s);
			for (p = s->queue.sessions; p && !p->opening; p = p->next)
				;
		}
		if (!p) {
			if (s->queue.opener_stop)
				break;
			pthread_cond_wait(&s->queue.work_cv, &s->mu);
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
					aieth__srv_log(s, "session %s: %s", p->id, p->reason);
					aieth__srv_artifacts_summary(s, p);
					aieth__srv_unpin_done_locked(s, p);
				}
				/* a device that would not open may be stuck: reset it
				 * before the next try */
				if (s->reset.cmd)
					s->reset.pending = 1;
			} else if (p->state == SS_QUEUED && !s->draining) {
				/* the idle clock keeps running from the client's last
				 * request: a client that left while queued does not hold
				 * the device longer */
				p->dev = dev;
				p->state = SS_ACTIVE;
				p->active_ms = srv_now_ms();
			} else {
				if (p->state == SS_QUEUED)
					aieth__srv_end_locked(s, p, SS_ENDED, "the server stopped");
				p->dev = dev;
				aieth__srv_close_dev_locked(s, p);
			}
			p->opening = 0;
			pthread_cond_broadcast(&s->queue.opened_cv);
			aieth__srv_promote_locked(s);
		}
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

void aieth__srv_opener_start_locked(aieth__server *s)
{
	if (s->queue.opener_started)
		return;
	pthread_cond_init(&s->queue.work_cv, NULL);
	pthread_cond_init(&s->queue.opened_cv, NULL);
	if (pthread_create(&s->queue.opener, NULL, opener_main, s))
		return; /* checked by the caller: opener_started stays 0 */
	s->queue.opener_started = 1;
}

void aieth__srv_opener_stop(aieth__server *s)
{
	int started;
	pthread_mutex_lock(&s->mu);
	started = s->queue.opener_started;
	s->queue.opener_stop = 1;
	if (started)
		pthread_cond_signal(&s->queue.work_cv);
	pthread_mutex_unlock(&s->mu);
	if (!started)
		return;
	pthread_join(s->queue.opener, NULL);
	pthread_cond_destroy(&s->queue.work_cv);
	pthread_cond_destroy(&s->queue.opened_cv);
	s->queue.opener_started = 0;
}

/* ---- a session: made, ended, freed, waited on ---- */

void aieth__srv_end_locked(aieth__server *s, srv_sess *x, ss_state st, const char *reason)
{
	if (x->state != SS_QUEUED && x->state != SS_ACTIVE)
		return;
	x->state = st;
	if (reason)
		snprintf(x->reason, sizeof x->reason, "%s", reason);
	if (!x->dev)
		aieth__srv_artifacts_summary(s, x); /* ended before it held the device */
	aieth__srv_close_dev_locked(s, x);          /* else the summary is written there */
	aieth__srv_unpin_done_locked(s, x);
	aieth__srv_promote_locked(s);
}

srv_sess *aieth__srv_sess_new(const char *owner, srv_session_req *req)
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

void aieth__srv_free_sess(srv_sess *x)
{
	free_txns(x);
	aieth__srv_session_req_free(&x->req);
	free(x->xclbin);
	free(x->xrt_ini);
	aieth__srv_traces_remove(x);
	aieth__srv_artifacts_remove(x);
	pthread_mutex_destroy(&x->call);
	free(x);
}

void aieth__srv_wait_open_locked(aieth__server *s, srv_sess *x, unsigned ms)
{
	struct timespec dl;
	if (!x->opening || !s->queue.opener_started)
		return;
	dl = srv_deadline(CLOCK_REALTIME, ms);
	/* referenced: not pruned while mu is released in the wait */
	x->refs++;
	while (x->opening && !pthread_cond_timedwait(&s->queue.opened_cv, &s->mu, &dl))
		;
	x->refs--;
	if (x->state != SS_ACTIVE) {
		aieth__srv_close_dev_locked(s, x);
		aieth__srv_promote_locked(s);
	}
}

void aieth__srv_wait_closed_locked(aieth__server *s, srv_sess *x, unsigned ms)
{
	struct timespec dl;
	if (x->state == SS_QUEUED || x->state == SS_ACTIVE || !s->queue.opener_started)
		return;
	dl = srv_deadline(CLOCK_REALTIME, ms);
	/* a device still held by a call that ends soon (refs), or handed to
	 * the opener: both end in a broadcast of opened_cv */
	x->waiting++;
	while ((x->dev || x->dev_closing) &&
	       !pthread_cond_timedwait(&s->queue.opened_cv, &s->mu, &dl))
		;
	x->waiting--;
}
