/* SPDX-License-Identifier: MIT */
/*
 * txn.c - transactions: validation (fixing the defects of AMD's host code,
 * docs/protocol.md section 7), encoding, pipelined submission and waiting,
 * status and per-channel result queries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/handles.h"
#include "core/results.h"
#include "core/session_internal.h"
#include "util/error.h"

#define MAX_U32 4294967295ull
#define IO_CHUNK ((uint64_t)1 << 20)

/* Streamed data of one channel: the pld_io the image calls, wrapping the
 * caller's callback; the first failure is kept for the wait. PERF keeps a
 * buffer of at most the URAM capacity (what the board holds). */
struct aieth_chan_io {
	pld_io io;
	aieth_data_read_fn read;
	aieth_data_write_fn write;
	void *ctx;
	int failed;
	uint64_t fail_off;
	uint8_t *buf; /* PERF: min(size, URAM) bytes */
	uint64_t buf_len;
};

static void io_read(void *ctx, uint64_t off, void *dst, uint64_t len)
{
	struct aieth_chan_io *c = ctx;
	if (c->failed) {
		memset(dst, 0, (size_t)len);
		return;
	}
	while (len) {
		size_t n = len > IO_CHUNK ? (size_t)IO_CHUNK : (size_t)len;
		if (c->read(c->ctx, off, dst, n)) {
			c->failed = 1;
			c->fail_off = off;
			memset(dst, 0, (size_t)len);
			return;
		}
		dst = (uint8_t *)dst + n;
		off += n;
		len -= n;
	}
}

static int io_failed(void *ctx) { return ((const struct aieth_chan_io *)ctx)->failed; }

static void io_write(void *ctx, uint64_t off, const void *src, uint64_t len)
{
	struct aieth_chan_io *c = ctx;
	while (len && !c->failed) {
		size_t n = len > IO_CHUNK ? (size_t)IO_CHUNK : (size_t)len;
		if (c->write(c->ctx, off, src, n)) {
			c->failed = 1;
			c->fail_off = off;
		}
		src = (const uint8_t *)src + n;
		off += n;
		len -= n;
	}
}

/* Set up channel i's streamed data: FUNC streams through pa->io; PERF
 * reads the URAM's worth now into a buffer (TX) or gives one for the board
 * to fill (RX, written to the caller after the wait). */
static int io_setup(aieth_txn *t, size_t i, const aieth_channel_io *u, pld_arg *pa, uint64_t uram)
{
	const aieth_channel_args *a = &t->args[i];
	struct aieth_chan_io *c = &t->io[i];
	int tx = t->plios[i].dir == AIETH_DIR_TO_AIE;

	if (!u || !(tx ? u->read != NULL : u->write != NULL))
		return AIETH_OK;
	c->read = u->read;
	c->write = u->write;
	c->ctx = u->ctx;
	c->io.ctx = c;
	c->io.read = tx ? io_read : NULL;
	c->io.write = tx ? NULL : io_write;
	c->io.failed = io_failed;
	if (t->mode == AIETH_MODE_FUNC) {
		pa->io = &c->io;
		return AIETH_OK;
	}
	c->buf_len = a->size < uram ? a->size : uram;
	c->buf = calloc(1, (size_t)c->buf_len);
	if (!c->buf)
		return aieth__fail(AIETH_ENOMEM,
				   "transaction channel %zu (%s): out of memory for "
				   "%llu bytes",
				   i, t->plios[i].name, (unsigned long long)c->buf_len);
	if (tx) {
		io_read(c, 0, c->buf, c->buf_len);
		if (c->failed)
			return aieth__fail(AIETH_EIO,
					   "transaction channel %zu (%s): the data source "
					   "failed at byte %llu",
					   i, t->plios[i].name, (unsigned long long)c->fail_off);
	}
	pa->data = c->buf;
	return AIETH_OK;
}

/* After the device finished: PERF RX buffers go to the caller; a failed
 * callback fails the transaction, its channel and byte first (a device
 * that stopped for it, pld_io.failed, says so after). */
static void io_finish(aieth_txn *t)
{
	size_t i;
	if (!t->io)
		return;
	for (i = 0; i < t->n; i++) {
		struct aieth_chan_io *c = &t->io[i];
		if (c->buf && c->write && t->status == AIETH_TXN_DONE)
			io_write(c, 0, c->buf, c->buf_len);
		free(c->buf);
		c->buf = NULL;
	}
	for (i = 0; i < t->n; i++)
		if (t->io[i].failed && t->status != AIETH_TXN_INTERRUPTED) {
			char dev[sizeof t->msg];
			snprintf(dev, sizeof dev, "%s",
				 t->status == AIETH_TXN_FAILED ? t->msg : "");
			t->status = AIETH_TXN_FAILED;
			snprintf(t->msg, sizeof t->msg,
				 "channel %zu (%s): the data %s failed at byte %llu%s%.300s", i,
				 t->plios[i].name, t->io[i].read ? "source (read)" : "sink (write)",
				 (unsigned long long)t->io[i].fail_off, dev[0] ? "; " : "", dev);
			break;
		}
}

static int check_io(const aieth_channel_args *a, const aieth_channel_io *io, size_t n,
		    const aieth_plio *pl)
{
	size_t i;
	for (i = 0; io && i < n; i++) {
		int tx = pl[i].dir == AIETH_DIR_TO_AIE;
		if ((a[i].data && (io[i].read || io[i].write)) ||
		    (tx ? io[i].write != NULL : io[i].read != NULL))
			return aieth__fail(
				AIETH_EINVAL,
				"transaction channel %zu (%s): give data, or the %s callback "
				"of its direction, not both",
				i, pl[i].name, tx ? "read" : "write");
	}
	return AIETH_OK;
}

static int check_args(aieth_session *s, aieth_mode mode, const aieth_channel_args *a, size_t n,
		      aieth_plio *pl)
{
	const aieth_board_info *bi = s->info;
	size_t i, j;

	if (mode != AIETH_MODE_FUNC && mode != AIETH_MODE_PERF)
		return aieth__fail(AIETH_EINVAL,
				   "transaction: mode %d is neither FUNC (0) nor PERF (1)",
				   (int)mode);
	if (n == 0)
		return aieth__fail(AIETH_EINVAL, "transaction: no channels");
	if (n > 2u * bi->channels)
		return aieth__fail(AIETH_EINVAL,
				   "transaction: %zu channels, %s has %u per direction (%u in all)",
				   n, bi->name, bi->channels, 2 * bi->channels);
	for (i = 0; i < n; i++) {
		const aieth_channel_args *c = &a[i];
		if (!c->plio)
			return aieth__fail(AIETH_EINVAL, "transaction channel %zu: no PLIO name",
					   i);
		if (aieth_board_plio_find(s->board, c->plio, &pl[i]) != AIETH_OK)
			return aieth__fail_prefix(AIETH_ENOTFOUND, "transaction channel %zu", i);
		for (j = 0; j < i; j++)
			if (!strcmp(pl[j].name, pl[i].name))
				return aieth__fail(
					AIETH_EINVAL,
					"transaction channels %zu and %zu: %s is listed twice "
					"(one entry per PLIO)",
					j, i, pl[i].name);
		if (c->size == 0 || c->size % 16)
			return aieth__fail(AIETH_EINVAL,
					   "transaction channel %zu (%s): size %llu bytes is not a "
					   "positive multiple of 16 (one 128-bit beat)",
					   i, pl[i].name, (unsigned long long)c->size);
		if (c->size > AIETH_MAX_CHANNEL_SIZE)
			return aieth__fail(
				AIETH_EINVAL,
				"transaction channel %zu (%s): size %llu bytes is %llu beats, "
				"the PL kernel counts at most %llu (%llu bytes)",
				i, pl[i].name, (unsigned long long)c->size,
				(unsigned long long)(c->size / 16), MAX_U32,
				AIETH_MAX_CHANNEL_SIZE);
		if (c->repetition == 0 || c->repetition > AIETH_MAX_REPETITION)
			return aieth__fail(
				AIETH_EINVAL,
				"transaction channel %zu (%s): repetition %llu is outside "
				"1..%llu",
				i, pl[i].name, (unsigned long long)c->repetition,
				AIETH_MAX_REPETITION);
		if (c->size > AIETH_MAX_CHANNEL_BYTES / c->repetition)
			return aieth__fail(
				AIETH_EINVAL,
				"transaction channel %zu (%s): size %llu x repetition %llu is "
				"more than %llu bytes",
				i, pl[i].name, (unsigned long long)c->size,
				(unsigned long long)c->repetition, AIETH_MAX_CHANNEL_BYTES);
		if (c->delay > AIETH_MAX_DELAY_CYCLES)
			return aieth__fail(
				AIETH_EINVAL,
				"transaction channel %zu (%s): delay %llu cycles is more than "
				"%llu",
				i, pl[i].name, (unsigned long long)c->delay,
				AIETH_MAX_DELAY_CYCLES);
		if (mode == AIETH_MODE_FUNC && c->repetition != 1)
			return aieth__fail(
				AIETH_EINVAL,
				"transaction channel %zu (%s): repetition %llu in FUNC mode; "
				"replay is only supported in PERF mode (use 1)",
				i, pl[i].name, (unsigned long long)c->repetition);
	}
	return AIETH_OK;
}

static int txn_submit_io(aieth_session *s, aieth_mode mode, const aieth_channel_args *args,
			 const aieth_channel_io *io, size_t num_args, aieth_txn **out)
{
	aieth_txn *t;
	pld_arg *pa = NULL;
	size_t i;
	uint32_t N;
	char err[512];
	int rc;

	aieth__error_clear();
	if (!out || (num_args && !args))
		return aieth__fail(AIETH_EINVAL, "aieth_txn_submit: NULL argument");
	*out = NULL;
	N = s->info->channels;
	t = calloc(1, sizeof *t);
	if (!t)
		return aieth__fail(AIETH_ENOMEM, "transaction: out of memory");
	if ((rc = aieth__handle_add(t, AIETH_HANDLE_TXN))) {
		free(t);
		return rc;
	}
	t->s = s;
	t->mode = mode;
	t->n = num_args;
	t->args = calloc(num_args ? num_args : 1, sizeof *t->args);
	t->plios = calloc(num_args ? num_args : 1, sizeof *t->plios);
	t->res = calloc(num_args ? num_args : 1, sizeof *t->res);
	t->io = calloc(num_args ? num_args : 1, sizeof *t->io);
	pa = calloc(num_args ? num_args : 1, sizeof *pa);
	if (!t->args || !t->plios || !t->res || !t->io || !pa) {
		rc = aieth__fail(AIETH_ENOMEM, "transaction: out of memory");
		goto fail;
	}
	if ((rc = aieth__dev_result_alloc(&t->dev, N)) ||
	    (rc = check_args(s, mode, args, num_args, t->plios)) ||
	    (rc = check_io(args, io, num_args, t->plios)))
		goto fail;
	for (i = 0; i < num_args; i++) {
		t->args[i] = args[i];
		t->args[i].plio = t->plios[i].name;
		pa[i].dir = t->plios[i].dir;
		pa[i].index = t->plios[i].index;
		pa[i].size = args[i].size;
		pa[i].reps = args[i].repetition;
		pa[i].delay = args[i].delay;
		pa[i].data = args[i].data;
		if ((rc = io_setup(t, i, io ? &io[i] : NULL, &pa[i],
				   (uint64_t)s->info->uram_depth_words * 16u)))
			goto fail;
	}
	if (aieth__pld_txn_encode(&t->wire, N, s->info->uram_depth_words,
				  mode == AIETH_MODE_PERF ? PLD_MODE_PERF : PLD_MODE_FUNC, pa,
				  num_args, err, sizeof err)) {
		rc = aieth__fail(AIETH_EINVAL, "transaction: %s", err);
		goto fail;
	}
	free(pa);
	pa = NULL;
	if ((rc = s->ops->txn_start(s->bstate, &t->wire))) {
		aieth__pld_txn_release(&t->wire);
		goto fail;
	}
	t->status = AIETH_TXN_PENDING;
	t->prev = s->tail;
	if (s->tail)
		s->tail->next = t;
	else
		s->head = t;
	s->tail = t;
	*out = t;
	return AIETH_OK;
fail:
	free(pa);
	t->prev = t->next = NULL;
	t->s = NULL;
	aieth__txn_release(t);
	return rc;
}

static int txn_wait(aieth_txn *t, uint32_t timeout_ms)
{
	aieth_txn *x;
	aieth_session *s = t->s;
	int rc;

	aieth__error_clear();
	/* earlier transactions complete first, in submission order */
	for (x = s->head; x; x = x->next) {
		if (x->status == AIETH_TXN_PENDING && x->prev &&
		    x->prev->status == AIETH_TXN_INTERRUPTED) {
			/* the device was stopped: what followed never runs */
			x->status = AIETH_TXN_INTERRUPTED;
			snprintf(x->msg, sizeof x->msg, "interrupted before it started");
			aieth__txn_compute_results(x);
		} else if (x->status == AIETH_TXN_PENDING) {
			rc = s->ops->txn_wait(s->bstate, &x->wire, timeout_ms, &x->dev);
			if (rc) {
				x->status = AIETH_TXN_FAILED;
				snprintf(x->msg, sizeof x->msg, "%s", aieth_error_message());
			} else if (x->dev.status < AIETH_TXN_DONE ||
				   x->dev.status > AIETH_TXN_INTERRUPTED) {
				/* a backend that returns without an outcome (still
				 * pending, or no status at all) failed the wait */
				x->status = AIETH_TXN_FAILED;
				snprintf(x->msg, sizeof x->msg,
					 "backend %s: the wait ended with "
					 "transaction status %d, none of done, timeout, failed, "
					 "interrupted",
					 s->ops->name, (int)x->dev.status);
			} else {
				x->status = x->dev.status;
				snprintf(x->msg, sizeof x->msg, "%s", x->dev.msg);
			}
			io_finish(x);
			aieth__txn_compute_results(x);
		}
		if (x == t)
			break;
	}
	if (t->status == AIETH_TXN_FAILED)
		return aieth__fail(AIETH_EDEVICE, "transaction failed: %s", t->msg);
	return AIETH_OK;
}

/* Getters read without holding the session (docs/api.md): a handle that
 * is not live gives the "none" value. */
static int live(const aieth_txn *t) { return aieth__handle_live(t, AIETH_HANDLE_TXN); }

aieth_txn_status aieth_txn_get_status(const aieth_txn *t)
{
	return live(t) ? t->status : AIETH_TXN_FAILED;
}

const char *aieth_txn_status_name(aieth_txn_status st)
{
	return aieth__dev_status_name(st); /* the names th_server's JSON uses too */
}

const char *aieth_txn_message(const aieth_txn *t) { return live(t) ? t->msg : ""; }

int aieth_txn_is_valid(const aieth_txn *t)
{
	return live(t) && t->status == AIETH_TXN_DONE && t->valid;
}

aieth_mode aieth_txn_mode(const aieth_txn *t) { return live(t) ? t->mode : AIETH_MODE_FUNC; }

uint64_t aieth_txn_total_cycles(const aieth_txn *t) { return live(t) ? t->dev.total_cycles : 0; }

size_t aieth_txn_num_channels(const aieth_txn *t) { return live(t) ? t->n : 0; }

void aieth__txn_release(aieth_txn *t)
{
	aieth_session *s = t->s;
	aieth__handle_remove(t);
	if (s) {
		/* a pending transaction still occupies the device queue: finish it */
		if (t->status == AIETH_TXN_PENDING)
			txn_wait(t, 0);
		if (t->prev)
			t->prev->next = t->next;
		else
			s->head = t->next;
		if (t->next)
			t->next->prev = t->prev;
		else
			s->tail = t->prev;
	}
	aieth__pld_txn_release(&t->wire);
	free(t->args);
	free(t->plios);
	free(t->res);
	if (t->io) {
		size_t i;
		for (i = 0; i < t->n; i++)
			free(t->io[i].buf);
		free(t->io);
	}
	aieth__dev_result_free(&t->dev);
	free(t);
}

static int txn_channel(const aieth_txn *t, size_t i, aieth_channel_result *out)
{
	if (!out)
		return aieth__fail(AIETH_EINVAL, "aieth_txn_channel: NULL argument");
	if (t->status == AIETH_TXN_PENDING)
		return aieth__fail(AIETH_ESTATE, "transaction is pending: wait for it first");
	if (i >= t->n)
		return aieth__fail(AIETH_EINVAL, "transaction has %zu channels, index %zu asked",
				   t->n, i);
	*out = t->res[i];
	return AIETH_OK;
}

static int find_chan(const aieth_txn *t, const char *plio, size_t *i)
{
	size_t j;
	for (j = 0; j < t->n; j++)
		if (!strcmp(t->plios[j].name, plio)) {
			*i = j;
			return AIETH_OK;
		}
	return aieth__fail(AIETH_ENOTFOUND, "%s is not a channel of this transaction", plio);
}

static int txn_channel_by_name(const aieth_txn *t, const char *plio, aieth_channel_result *out)
{
	size_t i = 0;
	int rc;
	if (!plio || !out)
		return aieth__fail(AIETH_EINVAL, "aieth_txn_channel_by_name: NULL argument");
	if ((rc = find_chan(t, plio, &i)))
		return rc;
	return txn_channel(t, i, out);
}

static int txn_delay_between(const aieth_txn *t, const char *from, const char *to, int64_t *cycles)
{
	size_t a = 0, b = 0;
	int rc;
	if (!from || !to || !cycles)
		return aieth__fail(AIETH_EINVAL, "aieth_txn_delay_between: NULL argument");
	if (t->status != AIETH_TXN_DONE)
		return aieth__fail(AIETH_ESTATE,
				   "transaction is %s: delays need a DONE transaction",
				   aieth_txn_status_name(t->status));
	if ((rc = find_chan(t, from, &a)) || (rc = find_chan(t, to, &b)))
		return rc;
	*cycles = (int64_t)t->res[b].first_cycle - (int64_t)t->res[a].first_cycle;
	return AIETH_OK;
}

/* The public calls: the handle is checked and its session held for the
 * call (core/handles.c). After a successful enter t->s stays valid: freeing
 * needs the session. */
int aieth_txn_submit_io(aieth_session *s, aieth_mode mode, const aieth_channel_args *args,
			const aieth_channel_io *io, size_t num_args, aieth_txn **out)
{
	int rc = aieth__session_enter(s, "aieth_txn_submit");
	if (rc)
		return rc;
	rc = txn_submit_io(s, mode, args, io, num_args, out);
	aieth__session_leave(s);
	return rc;
}

int aieth_txn_submit(aieth_session *s, aieth_mode mode, const aieth_channel_args *args,
		     size_t num_args, aieth_txn **out)
{
	return aieth_txn_submit_io(s, mode, args, NULL, num_args, out);
}

#define HELD(fn, call)                    \
	int rc = aieth__txn_enter(t, fn); \
	if (rc)                           \
		return rc;                \
	rc = call;                        \
	aieth__session_leave(t->s);       \
	return rc

int aieth_txn_wait(aieth_txn *t, uint32_t timeout_ms)
{
	HELD("aieth_txn_wait", txn_wait(t, timeout_ms));
}

int aieth_txn_channel(const aieth_txn *t, size_t i, aieth_channel_result *out)
{
	HELD("aieth_txn_channel", txn_channel(t, i, out));
}

int aieth_txn_channel_by_name(const aieth_txn *t, const char *plio, aieth_channel_result *out)
{
	HELD("aieth_txn_channel_by_name", txn_channel_by_name(t, plio, out));
}

int aieth_txn_delay_between(const aieth_txn *t, const char *from, const char *to, int64_t *cycles)
{
	HELD("aieth_txn_delay_between", txn_delay_between(t, from, to, cycles));
}

void aieth_txn_free(aieth_txn *t)
{
	aieth_session *s;
	if (aieth__txn_enter(t, "aieth_txn_free"))
		return; /* freed already, its session closed, or in use: nothing to do */
	s = t->s;
	aieth__txn_release(t);
	aieth__session_leave(s);
}
