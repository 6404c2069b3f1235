/* SPDX-License-Identifier: MIT */
/*
 * run_ahead.c - a channel's golden file read windows ahead on a worker
 * thread: the compare of window k (memcmp) runs while the kernel copies
 * the next ones (pread), so a run uses a second core where cat uses one.
 *
 * A ring of RING windows: the one the caller holds and up to RING - 1
 * read ahead. Each side sleeps only when it must (the worker on a full
 * ring, the caller on an empty one) and is woken only then, with the lock
 * let go; the caller wakes a worker asleep on a full ring once two windows
 * are free, so the worker reads two at a time when the compare is slower
 * than the file (a first version, woken per window, cost 1,443 futex calls
 * in a 256 MiB run). Used on a local board only (run_data.c says why).
 *
 * Bounds: one worker per channel, at most RN_AHEAD_MAX_THREADS in the
 * process (a channel past them reads synchronously, as before); RING
 * windows a channel. RX bytes arrive in order, so the window asked is the
 * one after the held one; any other is read on the caller's thread (the
 * worker between reads) into a buffer of its own.
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
#define RING 4

static atomic_int live_workers; /* workers running in the process */

struct rn_ahead {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t work, done; /* the worker sleeps on work, the caller on done */
	aieth_src src;             /* a copy: the worker reads it, the channel's may move */
	uint64_t len;              /* bytes read in windows */
	size_t window;             /* bytes per window */
	int64_t nwin;              /* windows in len */
	uint8_t *buf[RING];        /* window k in buf[k % RING] */
	uint8_t *own;              /* a window asked out of order, read here */
	/* under mu */
	int64_t held;   /* the window the caller holds (-1: none yet) */
	int64_t filled; /* windows [held + 1, filled) are read */
	int reading;    /* the worker is reading window filled */
	int failed;     /* the read of window filled failed: rc, err */
	int worker_sleeps, caller_sleeps, quit;
	uint64_t wakes;
	int rc;
	char err[2048]; /* the message is thread-local: carried to the caller */
};

static size_t win_len(const rn_ahead *a, int64_t k)
{
	uint64_t off = (uint64_t)k * a->window;
	return a->len - off < a->window ? (size_t)(a->len - off) : a->window;
}

/* under mu: the worker has a window to read */
static int can_read(const rn_ahead *a)
{
	return !a->quit && !a->failed && a->filled < a->nwin && a->filled - a->held < RING;
}

static void *ahead_thread(void *arg)
{
	rn_ahead *a = arg;
	pthread_mutex_lock(&a->mu);
	for (;;) {
		int64_t k;
		int rc;
		while (!a->quit && !can_read(a)) {
			a->worker_sleeps = 1;
			pthread_cond_wait(&a->work, &a->mu);
			a->worker_sleeps = 0;
		}
		if (a->quit)
			break;
		k = a->filled;
		a->reading = 1;
		pthread_mutex_unlock(&a->mu);
		/* (buf[k % RING] is not the held window: k - held < RING) */
		rc = aieth__src_read(&a->src, (uint64_t)k * a->window, a->buf[k % RING],
				     win_len(a, k));
		pthread_mutex_lock(&a->mu);
		a->reading = 0;
		if (rc) {
			a->failed = 1;
			a->rc = rc;
			snprintf(a->err, sizeof a->err, "%s", aieth_error_message());
		} else {
			a->filled++;
		}
		if (a->caller_sleeps) {
			/* woken with the lock free: it need not wait for it */
			pthread_mutex_unlock(&a->mu);
			pthread_cond_signal(&a->done);
			pthread_mutex_lock(&a->mu);
		}
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

static void ahead_free(rn_ahead *a)
{
	int i;
	for (i = 0; i < RING; i++)
		free(a->buf[i]);
	free(a->own);
	free(a);
}

rn_ahead *aieth__rn_ahead_start(const aieth_src *src, uint64_t len, size_t window)
{
	sigset_t all, old;
	rn_ahead *a;
	int rc, i;
	/* only files gain (a pattern or memory is computed or copied, no
	 * kernel copy to overlap), and only past a couple of windows */
	if (src->kind != AIETH_SRC_FILE || !window || len <= 2 * (uint64_t)window)
		return NULL;
	if (atomic_fetch_add(&live_workers, 1) >= RN_AHEAD_MAX_THREADS) {
		atomic_fetch_sub(&live_workers, 1);
		return NULL;
	}
	a = calloc(1, sizeof *a);
	if (!a)
		goto undo;
	for (i = 0; i < RING; i++)
		if (!(a->buf[i] = malloc(window)))
			goto undo;
	a->src = *src, a->len = len, a->window = window;
	a->nwin = (int64_t)((len + window - 1) / window);
	a->held = -1; /* the first windows are read while the device is set up */
	if (pthread_mutex_init(&a->mu, NULL))
		goto undo;
	if (pthread_cond_init(&a->work, NULL)) {
		pthread_mutex_destroy(&a->mu);
		goto undo;
	}
	if (pthread_cond_init(&a->done, NULL)) {
		pthread_cond_destroy(&a->work);
		pthread_mutex_destroy(&a->mu);
		goto undo;
	}
	/* every signal blocked: Ctrl-C reaches the run's thread, whose
	 * handler ends the run with its report */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&a->th, NULL, ahead_thread, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		pthread_cond_destroy(&a->done);
		pthread_cond_destroy(&a->work);
		pthread_mutex_destroy(&a->mu);
		goto undo;
	}
	return a;
undo:
	/* no worker: the channel reads synchronously, as before */
	if (a)
		ahead_free(a);
	atomic_fetch_sub(&live_workers, 1);
	return NULL;
}

/* A window not the next one (RX in order never asks it): read here into
 * own, the worker between reads (mu held: it starts none). */
static const uint8_t *get_out_of_order(rn_ahead *a, uint64_t off, size_t n)
{
	int rc;
	while (a->reading) {
		a->caller_sleeps = 1;
		pthread_cond_wait(&a->done, &a->mu);
		a->caller_sleeps = 0;
	}
	if (!a->own && !(a->own = malloc(a->window))) {
		aieth__fail(AIETH_ENOMEM, "out of memory for %zu bytes of golden data", a->window);
		return NULL;
	}
	if (n > a->window)
		n = a->window;
	rc = aieth__src_read(&a->src, off, a->own, n);
	return rc ? NULL : a->own;
}

const uint8_t *aieth__rn_ahead_get(rn_ahead *a, uint64_t off, size_t n)
{
	const uint8_t *p = NULL;
	int64_t k = (int64_t)(off / a->window);
	int wake = 0;
	pthread_mutex_lock(&a->mu);
	if (off % a->window || k != a->held + 1 || k >= a->nwin || n != win_len(a, k)) {
		p = get_out_of_order(a, off, n);
		pthread_mutex_unlock(&a->mu);
		return p;
	}
	while (a->filled <= k && !a->failed) {
		/* (a worker asleep here has nothing to read: never, but cheap) */
		if (a->worker_sleeps && can_read(a)) {
			a->worker_sleeps = 0;
			pthread_cond_signal(&a->work);
		}
		a->caller_sleeps = 1;
		pthread_cond_wait(&a->done, &a->mu);
		a->caller_sleeps = 0;
	}
	if (a->filled > k) {
		a->held = k;
		p = a->buf[k % RING];
		/* a worker asleep on a full ring reads again once two are free;
		 * woken once (worker_sleeps cleared: the wake is on its way),
		 * so at most one wake per sleep, one sleep per two windows */
		wake = a->worker_sleeps && a->filled - a->held <= RING - 2 && can_read(a);
		if (wake) {
			a->worker_sleeps = 0;
			a->wakes++;
		}
	} else {
		/* the read of window k failed: its code and message, here */
		aieth__fail(a->rc, "%s", a->err);
	}
	pthread_mutex_unlock(&a->mu);
	if (wake)
		pthread_cond_signal(&a->work);
	return p;
}

uint64_t aieth__rn_ahead_wakes(const rn_ahead *a) { return a ? a->wakes : 0; }

void aieth__rn_ahead_stop(rn_ahead *a)
{
	if (!a)
		return;
	/* a read under way finishes (one window) before the buffers go */
	pthread_mutex_lock(&a->mu);
	a->quit = 1;
	pthread_cond_signal(&a->work);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	pthread_cond_destroy(&a->done);
	pthread_cond_destroy(&a->work);
	pthread_mutex_destroy(&a->mu);
	ahead_free(a);
	atomic_fetch_sub(&live_workers, 1);
}
