/* SPDX-License-Identifier: MIT */
/*
 * run_ahead.c - a channel's golden file read a window ahead on a worker
 * thread: the compare of window k (memcmp) runs while the kernel copies
 * window k+1 (pread), so a run uses a second core where cat uses one.
 *
 * Bounds: one worker per channel, at most RN_AHEAD_MAX_THREADS in the
 * process (a channel past them reads synchronously, as before); two
 * windows per channel (the one compared, the one read), so 2 MiB a
 * channel. RX bytes arrive in order (the high-water mark only grows), so
 * the next window is always the one after the current; a request for
 * any other offset waits for the worker and reads on the caller's thread.
 * The same pread per window as without the worker, on another thread.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "runner/run_internal.h"
#include "util/error.h"

#define RN_AHEAD_MAX_THREADS 4

static atomic_int live_workers; /* workers running in the process */

struct rn_ahead {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	aieth_src src; /* a copy: the worker reads it, the channel's may move */
	uint64_t len;  /* bytes read in windows */
	size_t window; /* bytes per window */
	uint8_t *buf[2];
	int cur; /* the buffer handed to the caller last */
	/* the request, under mu */
	int queued; /* waiting for the worker */
	int busy;   /* queued or being read */
	int have;   /* a request not handed out yet (busy, or read) */
	int quit;
	uint64_t req_off;
	size_t req_len;
	int req_buf;
	int rc;         /* the finished request's result; its message: */
	char err[2048]; /* the message is thread-local: carried to the caller */
};

static void *ahead_thread(void *arg)
{
	rn_ahead *a = arg;
	pthread_mutex_lock(&a->mu);
	for (;;) {
		uint64_t off;
		size_t n;
		uint8_t *p;
		int rc;
		while (!a->queued && !a->quit)
			pthread_cond_wait(&a->cv, &a->mu);
		if (a->quit)
			break;
		a->queued = 0;
		off = a->req_off, n = a->req_len, p = a->buf[a->req_buf];
		pthread_mutex_unlock(&a->mu);
		rc = aieth__src_read(&a->src, off, p, n);
		pthread_mutex_lock(&a->mu);
		a->rc = rc;
		if (rc)
			snprintf(a->err, sizeof a->err, "%s", aieth_error_message());
		a->busy = 0;
		pthread_cond_broadcast(&a->cv);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

/* Queue the window after [off, off+n) into the buffer not handed out;
 * under mu, the worker idle. */
static void queue_next(rn_ahead *a, uint64_t off)
{
	if (off >= a->len)
		return;
	a->req_off = off;
	a->req_len = a->len - off < a->window ? (size_t)(a->len - off) : a->window;
	a->req_buf = !a->cur;
	a->queued = a->busy = a->have = 1;
	pthread_cond_broadcast(&a->cv);
}

rn_ahead *aieth__rn_ahead_start(const aieth_src *src, uint64_t len, size_t window)
{
	sigset_t all, old;
	rn_ahead *a;
	int rc;
	/* only files gain (a pattern or memory is computed or copied, no
	 * kernel copy to overlap), and only past a couple of windows */
	if (src->kind != AIETH_SRC_FILE || len <= 2 * (uint64_t)window)
		return NULL;
	if (atomic_fetch_add(&live_workers, 1) >= RN_AHEAD_MAX_THREADS) {
		atomic_fetch_sub(&live_workers, 1);
		return NULL;
	}
	a = calloc(1, sizeof *a);
	if (!a || !(a->buf[0] = malloc(window)) || !(a->buf[1] = malloc(window)))
		goto undo;
	a->src = *src, a->len = len, a->window = window;
	if (pthread_mutex_init(&a->mu, NULL))
		goto undo;
	if (pthread_cond_init(&a->cv, NULL)) {
		pthread_mutex_destroy(&a->mu);
		goto undo;
	}
	/* the first window is read while the device is set up */
	a->cur = 1;
	queue_next(a, 0);
	/* every signal blocked: Ctrl-C reaches the run's thread, whose
	 * handler ends the run with its report */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&a->th, NULL, ahead_thread, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		pthread_cond_destroy(&a->cv);
		pthread_mutex_destroy(&a->mu);
		goto undo;
	}
	return a;
undo:
	/* no worker: the channel reads synchronously, as before */
	if (a) {
		free(a->buf[0]);
		free(a->buf[1]);
		free(a);
	}
	atomic_fetch_sub(&live_workers, 1);
	return NULL;
}

const uint8_t *aieth__rn_ahead_get(rn_ahead *a, uint64_t off, size_t n)
{
	int rc = AIETH_OK, hit;
	pthread_mutex_lock(&a->mu);
	hit = a->have && a->req_off == off && a->req_len == n;
	while (a->busy)
		pthread_cond_wait(&a->cv, &a->mu);
	a->have = 0;
	if (hit) {
		a->cur = a->req_buf;
		if (a->rc)
			rc = aieth__fail(a->rc, "%s", a->err);
	} else {
		/* not the window read ahead (RX in order never asks this):
		 * read here, the worker idle */
		a->cur = 0;
		rc = aieth__src_read(&a->src, off, a->buf[0], n);
	}
	if (!rc)
		queue_next(a, off + n);
	pthread_mutex_unlock(&a->mu);
	return rc ? NULL : a->buf[a->cur];
}

void aieth__rn_ahead_stop(rn_ahead *a)
{
	if (!a)
		return;
	/* a read under way finishes (one window) before the buffers go */
	pthread_mutex_lock(&a->mu);
	a->quit = 1;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	pthread_cond_destroy(&a->cv);
	pthread_mutex_destroy(&a->mu);
	free(a->buf[0]);
	free(a->buf[1]);
	free(a);
	atomic_fetch_sub(&live_workers, 1);
}
