/* SPDX-License-Identifier: MIT */
/*
 * srv_txn.c - a transaction of th_server from creation to retirement
 * (srv_txn.h): the memory budget, the start and the wait on the device
 * under the session's call lock, the holds of uploads, waits and
 * downloads, the end. Each operation takes srv->mu itself; a device call
 * runs with it released.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th_server/srv_core.h"
#include "th_server/srv_txn.h"

/* ---- mu held ---- */

void aieth__srv_txn_free(srv_txn *t)
{
	aieth_dev_txn_free(t->dev);
	free(t->cfg);
	aieth__srv_stream_free(t->stream);
	aieth__srv_image_free(t->im, t->txbuf, srv_now_ms());
	aieth__srv_image_free(t->im, t->rxbuf, srv_now_ms());
	free(t);
}

static srv_txn *find_locked(srv_sess *x, const char *id)
{
	srv_txn *t;
	for (t = x->txns; t; t = t->next)
		if (!strcmp(t->id, id))
			return t;
	return NULL;
}

srv_txn *aieth__srv_txn_running_locked(srv_sess *x)
{
	srv_txn *p;
	for (p = x->txns; p && p->state != ST_STARTED; p = p->next)
		;
	return p;
}

/* t taken out of the session's list, its images' bytes given back to the
 * memory budget; 0 if it was not there (already dropped). */
static int unlink_locked(aieth__server *s, srv_sess *x, srv_txn *t)
{
	srv_txn **pp;
	uint64_t bytes = t->tx_size + t->rx_size;
	for (pp = &x->txns; *pp && *pp != t; pp = &(*pp)->next)
		;
	if (!*pp)
		return 0;
	*pp = t->next;
	s->stats.mem_used -= bytes;
	x->mem -= bytes;
	return 1;
}

/* t was started on the device: its state, and its progress (0 of the
 * bytes its cfg words ask for). */
static void started_locked(srv_txn *t)
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

/* The number in a transaction's id "t-N" (aieth__srv_txn_new). */
static unsigned long txn_seq(const srv_txn *t) { return strtoul(t->id + 2, NULL, 10); }

/* t into x->retired in submission order, as HTTP sessions list theirs
 * (results may be fetched in any order); the oldest dropped past
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
		aieth__srv_txn_free(old);
	}
}

/* ---- its life ---- */

srv_t_result aieth__srv_txn_new(aieth__server *s, srv_sess *x, srv_txn_req *q, srv_txn **out,
				char *msg, size_t cap)
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
	if (bytes > s->limits.mem_max - s->stats.mem_used) {
		unsigned long long used = s->stats.mem_used;
		pthread_mutex_unlock(&s->mu);
		snprintf(msg, cap,
			 "transaction images of %llu bytes: %llu of the --max-memory "
			 "%llu MiB are in use",
			 (unsigned long long)bytes, used,
			 (unsigned long long)(s->limits.mem_max >> 20));
		return SRV_T_MEMORY;
	}
	s->stats.mem_used += bytes;
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
	 * written whole by its upload before the device runs; a reused RX
	 * image is cleared before the device starts (start_call), or a
	 * streamed one as its device writes it (srv_stream.c) */
	t->im = &s->images;
	t->txbuf = aieth__srv_image_alloc(t->im, (size_t)q->tx_bytes, 0);
	t->rxbuf = aieth__srv_image_take(t->im, (size_t)q->rx_bytes, &t->rx_dirty);
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
		aieth__srv_txn_free(t);
	pthread_mutex_lock(&s->mu);
	s->stats.mem_used -= bytes;
	x->mem -= bytes;
	pthread_mutex_unlock(&s->mu);
	snprintf(msg, cap, "transaction: out of memory for images of %llu and %llu bytes",
		 (unsigned long long)q->tx_bytes, (unsigned long long)q->rx_bytes);
	return SRV_T_NOMEM;
}

int aieth__srv_txn_room(aieth__server *s, uint64_t bytes, uint64_t *used)
{
	int ok;
	pthread_mutex_lock(&s->mu);
	ok = bytes <= s->limits.mem_max - s->stats.mem_used;
	*used = s->stats.mem_used;
	pthread_mutex_unlock(&s->mu);
	return ok;
}

void aieth__srv_txn_set_amd_id(aieth__server *s, srv_txn *t, uint32_t amd_id)
{
	pthread_mutex_lock(&s->mu);
	t->amd_id = amd_id;
	t->has_amd_id = 1;
	pthread_mutex_unlock(&s->mu);
}

/* The device call of the start, x->call held by the caller, mu not. */
static int start_call(srv_sess *x, srv_txn *t)
{
	aieth_dev_txn_opts o = AIETH_DEV_TXN_OPTS_INIT;
	aieth_dev_txn *d;
	int rc;
	o.cfg = t->cfg;
	o.cfg_words = pld_cfg_count(t->channels);
	o.depth = t->depth;
	o.tx = t->txbuf;
	o.tx_size = t->tx_size;
	o.rx = t->rxbuf;
	o.rx_size = t->rx_size;
	if (t->rx_dirty) { /* no stream took it: what the device does not
			    * write must read as zeros */
		memset(t->rxbuf, 0, (size_t)t->rx_size);
		t->rx_dirty = 0;
	}
	if (t->stream)
		aieth__srv_stream_gates(t->stream, &o);
	if (!(rc = aieth_dev_txn_start(x->dev, &o, &d)))
		t->dev = d;
	return rc;
}

/* The wait, x->call held by the caller, mu not: the stream's gates are
 * told the device runs it, then the result is taken under mu. */
static int wait_call(aieth__server *s, srv_txn *t, uint32_t timeout_ms)
{
	const char *why = NULL;
	int rc;
	if (t->stream)
		aieth__srv_stream_device(t->stream, 1);
	rc = aieth_dev_txn_wait(t->dev, timeout_ms);
	if (t->stream) {
		/* before the whole RX image can be fetched (ST_FINISHED) */
		aieth__srv_stream_rx_settle(t->stream);
		aieth__srv_stream_device(t->stream, 0);
		why = aieth__srv_stream_failure(t->stream);
	}
	pthread_mutex_lock(&s->mu);
	if (rc || why) {
		/* a streamed upload that stopped: the result is of zeros */
		t->failed = 1;
		snprintf(t->msg, sizeof t->msg, "%s", rc ? aieth_error_message() : why);
		s->stats.txn_failed++;
	} else if ((unsigned)aieth_dev_txn_status(t->dev) < 5) {
		s->stats.txn_status[aieth_dev_txn_status(t->dev)]++;
	}
	t->state = ST_FINISHED;
	pthread_mutex_unlock(&s->mu);
	if (t->stream)
		aieth__srv_stream_finished(t->stream);
	return rc;
}

static int busy_fail(srv_sess *x)
{
	return aieth__fail(AIETH_ESTATE, "session \"%s\" is busy with another device call", x->id);
}

int aieth__srv_txn_start(aieth__server *s, srv_sess *x, srv_txn *t)
{
	int rc;
	if (pthread_mutex_trylock(&x->call))
		return busy_fail(x);
	rc = start_call(x, t);
	pthread_mutex_unlock(&x->call);
	if (rc)
		return rc;
	pthread_mutex_lock(&s->mu);
	started_locked(t);
	pthread_mutex_unlock(&s->mu);
	return AIETH_OK;
}

int aieth__srv_txn_wait(aieth__server *s, srv_sess *x, srv_txn *t, uint32_t timeout_ms, int *busy)
{
	int rc;
	*busy = 0;
	if (aieth__srv_txn_state_get(s, t) != ST_STARTED)
		return AIETH_OK;
	if (pthread_mutex_trylock(&x->call)) {
		*busy = 1;
		return busy_fail(x);
	}
	rc = wait_call(s, t, timeout_ms);
	pthread_mutex_unlock(&x->call);
	return rc;
}

int aieth__srv_txn_run(aieth__server *s, srv_sess *x, srv_txn *t, uint32_t timeout_ms)
{
	int rc;
	pthread_mutex_lock(&x->call);
	rc = start_call(x, t);
	if (rc == AIETH_OK) {
		pthread_mutex_lock(&s->mu);
		started_locked(t);
		pthread_mutex_unlock(&s->mu);
		rc = wait_call(s, t, timeout_ms);
	}
	pthread_mutex_unlock(&x->call);
	return rc;
}

void aieth__srv_txn_tx_got(aieth__server *s, srv_txn *t, uint64_t v)
{
	pthread_mutex_lock(&s->mu);
	t->tx_got = v;
	pthread_mutex_unlock(&s->mu);
}

srv_txn_state aieth__srv_txn_state_get(aieth__server *s, const srv_txn *t)
{
	srv_txn_state st;
	pthread_mutex_lock(&s->mu);
	st = t->state;
	pthread_mutex_unlock(&s->mu);
	return st;
}

struct json_object *aieth__srv_txn_json(aieth__server *s, srv_sess *x, const srv_txn *t)
{
	struct json_object *o;
	pthread_mutex_lock(&s->mu);
	o = aieth__srv_txn_json_locked(x, t);
	pthread_mutex_unlock(&s->mu);
	return o;
}

const char *aieth__srv_txn_message(const srv_txn *t)
{
	return t->dev ? aieth_dev_txn_message(t->dev) : "";
}

/* ---- looked up by id, for a request ---- */

int aieth__srv_txn_status(aieth__server *s, srv_sess *x, const char *id, struct json_object **o)
{
	srv_txn *t;
	pthread_mutex_lock(&s->mu);
	t = find_locked(x, id);
	*o = t ? aieth__srv_txn_json_locked(x, t) : NULL;
	pthread_mutex_unlock(&s->mu);
	return t ? 0 : -1;
}

srv_td_result aieth__srv_txn_delete(aieth__server *s, srv_sess *x, const char *id, unsigned *pos)
{
	srv_td_result res = SRV_TD_OK;
	srv_txn *t;
	*pos = 0;
	pthread_mutex_lock(&s->mu);
	t = find_locked(x, id);
	if (!t) {
		res = SRV_TD_NONE;
	} else if (t->state == ST_STARTED) {
		*pos = aieth__srv_txn_position_locked(x, t);
		res = SRV_TD_RUNNING;
	} else if (t->busy) {
		res = SRV_TD_BUSY;
	} else if (unlink_locked(s, x, t)) {
		aieth__srv_txn_free(t);
	}
	pthread_mutex_unlock(&s->mu);
	return res;
}

srv_tw_result aieth__srv_txn_wait_get(aieth__server *s, srv_sess *x, const char *id, srv_txn **t,
				      char *pid, size_t cap)
{
	srv_tw_result res = SRV_TW_OK;
	srv_txn *p;
	pthread_mutex_lock(&s->mu);
	*t = find_locked(x, id);
	p = aieth__srv_txn_running_locked(x);
	if (!*t) {
		res = SRV_TW_NONE;
	} else if ((*t)->state == ST_AWAIT_TX) {
		res = SRV_TW_AWAIT_TX;
	} else if ((*t)->state == ST_STARTED && p != *t) {
		snprintf(pid, cap, "%s", p ? p->id : "?");
		res = SRV_TW_NOT_FIRST;
	} else {
		/* the wait: t stays (busy) until its result is written */
		(*t)->busy++;
	}
	pthread_mutex_unlock(&s->mu);
	return res;
}

void aieth__srv_txn_upload_get(aieth__server *s, srv_sess *x, const char *id, srv_txn **t,
			       int *busy, int *held)
{
	int streamed;
	*busy = *held = 0;
	pthread_mutex_lock(&s->mu);
	*t = find_locked(x, id);
	/* a streamed transaction takes its upload while it runs */
	streamed = *t && (*t)->stream;
	if (*t && ((*t)->state == ST_AWAIT_TX || streamed)) {
		/* one upload at a time (a streamed one: its stream says, while
		 * its wait and download hold it too); a DELETE waits for its end */
		*busy = streamed ? 0 : (*t)->busy;
		if (!*busy) {
			(*t)->busy++;
			*held = 1;
		}
	}
	pthread_mutex_unlock(&s->mu);
}

srv_txn *aieth__srv_txn_rx_get(aieth__server *s, srv_sess *x, const char *id, int *live, int *found)
{
	srv_txn *t;
	pthread_mutex_lock(&s->mu);
	t = find_locked(x, id);
	*found = t != NULL;
	/* a streamed transaction's RX image may be fetched while it runs */
	*live = t && t->stream && t->state != ST_FINISHED;
	if (t && (t->state == ST_FINISHED || *live))
		t->busy++;
	else
		t = NULL;
	pthread_mutex_unlock(&s->mu);
	return t;
}

void aieth__srv_txn_busy_put(aieth__server *s, srv_txn *t)
{
	pthread_mutex_lock(&s->mu);
	t->busy--;
	pthread_mutex_unlock(&s->mu);
}

/* ---- its end ---- */

void aieth__srv_txn_drop(aieth__server *s, srv_sess *x, srv_txn *t)
{
	pthread_mutex_lock(&s->mu);
	if (unlink_locked(s, x, t))
		aieth__srv_txn_free(t);
	pthread_mutex_unlock(&s->mu);
}

void aieth__srv_txn_retire(aieth__server *s, srv_sess *x, srv_txn *t)
{
	pthread_mutex_lock(&s->mu);
	if (unlink_locked(s, x, t)) {
		/* the images and the cfg words go; the sizes and the result
		 * (t->dev, with its perf words) stay: run_summary.json shows them */
		aieth__srv_image_free(t->im, t->txbuf, srv_now_ms());
		aieth__srv_image_free(t->im, t->rxbuf, srv_now_ms());
		t->txbuf = t->rxbuf = NULL;
		free(t->cfg);
		t->cfg = NULL;
		retire_insert_locked(x, t);
	}
	pthread_mutex_unlock(&s->mu);
}

int aieth__srv_txn_refused(aieth__server *s, srv_sess *x, uint32_t amd_id, uint32_t channels,
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
