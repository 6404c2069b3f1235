/* SPDX-License-Identifier: MIT */
/*
 * device.c - a session's device driven with encoded transactions
 * (aieth/device.h): each call checks its handles and holds the session for
 * the call, as the other calls on a session do, then calls the backend;
 * and the one JSON form of a device's transaction result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "aieth/device.h"
#include "backends/dev_result.h"
#include "core/handles.h"
#include "core/session_internal.h"
#include "pld/protocol.h"
#include "util/error.h"
#include "util/opts.h"

struct aieth_dev_txn {
	aieth_session *s; /* started on it; NULL for a record. Not read after
			     the wait */
	pld_txn wire;     /* cfg and perf owned (no perf for a record), one
			     segment per image */
	pld_seg seg[2];
	pld_gate gate[2];
	aieth_dev_result res;
	int waited;
};

AIETH__OPTS_INIT_FN(aieth_dev_txn_opts, AIETH_DEV_TXN_OPTS_INIT, AIETH_DEV_TXN_OPTS_VERSION);

int aieth_dev_streams(const aieth_session *s)
{
	return aieth__handle_live(s, AIETH_HANDLE_SESSION) && s->ops->streams;
}

static void dev_free(aieth_dev_txn *t)
{
	free(t->wire.cfg);
	free(t->wire.perf);
	aieth__dev_result_free(&t->res);
	free(t);
}

/* A handle for N channels: the result zeroed, the perf words too unless
 * a record (which has none), registered. */
static aieth_dev_txn *dev_new(uint32_t N, int record)
{
	aieth_dev_txn *t = calloc(1, sizeof *t);
	if (!t) {
		aieth__fail(AIETH_ENOMEM, "device transaction: out of memory");
		return NULL;
	}
	t->wire.channels = N;
	if ((!record && !(t->wire.perf = calloc(pld_perf_count(N), sizeof(uint64_t)))) ||
	    aieth__dev_result_alloc(&t->res, N) || aieth__handle_add(t, AIETH_HANDLE_DEV_TXN)) {
		dev_free(t);
		aieth__fail(AIETH_ENOMEM, "device transaction: out of memory for %u channels", N);
		return NULL;
	}
	return t;
}

/* One image: one segment over the caller's memory. */
static void image_set(aieth_dev_txn *t, int rx, void *p, uint64_t size)
{
	pld_image *im = rx ? &t->wire.rx : &t->wire.tx;
	im->size = size;
	im->nseg = size ? 1 : 0;
	im->seg = &t->seg[rx];
	t->seg[rx].len = size;
	t->seg[rx].ptr = p;
}

static int check_opts(const aieth_session *s, const aieth_dev_txn_opts *o)
{
	uint32_t N = s->info->channels;
	int rc;
	if (!o)
		return aieth__fail(AIETH_EINVAL, "aieth_dev_txn_start: NULL options");
	if ((rc = aieth__opts_version("aieth_dev_txn_start", "aieth_dev_txn_opts", o->version,
				      AIETH_DEV_TXN_OPTS_VERSION)))
		return rc;
	if (!o->cfg || o->cfg_words != pld_cfg_count(N))
		return aieth__fail(AIETH_EINVAL,
				   "device transaction: %zu cfg words, the board %s has %u "
				   "channels: %zu are needed",
				   o->cfg ? o->cfg_words : (size_t)0, s->info->name, N,
				   pld_cfg_count(N));
	if (o->depth != s->info->uram_depth_words)
		return aieth__fail(AIETH_EINVAL,
				   "device transaction: depth %u, the board %s has a depth of %u "
				   "words",
				   o->depth, s->info->name, s->info->uram_depth_words);
	if ((!o->tx && o->tx_size) || (!o->rx && o->rx_size))
		return aieth__fail(AIETH_EINVAL,
				   "device transaction: an image of %llu bytes at NULL",
				   (unsigned long long)(o->tx ? o->rx_size : o->tx_size));
	if ((o->tx_need || o->rx_wrote) && !s->ops->streams)
		return aieth__fail(AIETH_EINVAL,
				   "device transaction: gates given, the %s device does not "
				   "stream (aieth_dev_streams)",
				   s->ops->name);
	return AIETH_OK;
}

int aieth_dev_txn_start(aieth_session *s, const aieth_dev_txn_opts *o, aieth_dev_txn **out)
{
	aieth_dev_txn *t = NULL;
	int rc;
	if (out)
		*out = NULL;
	if ((rc = aieth__session_enter(s, "aieth_dev_txn_start")))
		return rc;
	aieth__error_clear();
	if (!out)
		rc = aieth__fail(AIETH_EINVAL, "aieth_dev_txn_start: NULL out");
	else if (!(rc = check_opts(s, o)) && !(t = dev_new(s->info->channels, 0)))
		rc = AIETH_ENOMEM;
	if (!rc && !(t->wire.cfg = malloc(o->cfg_words * sizeof(uint64_t))))
		rc = aieth__fail(AIETH_ENOMEM, "device transaction: out of memory");
	if (!rc) {
		memcpy(t->wire.cfg, o->cfg, o->cfg_words * sizeof(uint64_t));
		t->wire.depth = o->depth;
		/* the device only reads the TX image (aieth__pld_image_read) */
		image_set(t, 0, (void *)(uintptr_t)o->tx, o->tx_size);
		image_set(t, 1, o->rx, o->rx_size);
		t->gate[0] = (pld_gate){.need = o->tx_need, .ctx = o->gate_ctx};
		t->gate[1] = (pld_gate){.wrote = o->rx_wrote, .ctx = o->gate_ctx};
		t->wire.tx.gate = o->tx_need ? &t->gate[0] : NULL;
		t->wire.rx.gate = o->rx_wrote ? &t->gate[1] : NULL;
		t->s = s;
		rc = s->ops->txn_start(s->bstate, &t->wire);
	}
	aieth__session_leave(s);
	if (rc) {
		if (t) {
			aieth__handle_remove(t);
			dev_free(t);
		}
		return rc;
	}
	*out = t;
	return AIETH_OK;
}

int aieth_dev_txn_wait(aieth_dev_txn *t, uint32_t timeout_ms)
{
	int rc;
	if (!aieth__handle_live(t, AIETH_HANDLE_DEV_TXN))
		return aieth__fail(AIETH_EINVAL,
				   "aieth_dev_txn_wait: not a live device transaction");
	if (!t->s || t->waited)
		return aieth__fail(AIETH_ESTATE, "aieth_dev_txn_wait: %s",
				   t->waited ? "waited for already" : "a record, never started");
	if ((rc = aieth__session_enter(t->s, "aieth_dev_txn_wait")))
		return rc;
	aieth__error_clear();
	rc = t->s->ops->txn_wait(t->s->bstate, &t->wire, timeout_ms, &t->res);
	/* answered: its result is final (a failed wait may be tried again) */
	t->waited = rc == AIETH_OK;
	aieth__session_leave(t->s);
	return rc;
}

int aieth_dev_txn_record(uint32_t channels, aieth_txn_status status, const char *message,
			 aieth_dev_txn **out)
{
	aieth_dev_txn *t;
	if (!out)
		return aieth__fail(AIETH_EINVAL, "aieth_dev_txn_record: NULL out");
	*out = NULL;
	if ((unsigned)status > AIETH_TXN_INTERRUPTED)
		return aieth__fail(AIETH_EINVAL,
				   "aieth_dev_txn_record: status %d is not an "
				   "aieth_txn_status",
				   (int)status);
	if (!(t = dev_new(channels, 1)))
		return AIETH_ENOMEM;
	t->res.status = status;
	snprintf(t->res.msg, sizeof t->res.msg, "%s", message ? message : "");
	*out = t;
	return AIETH_OK;
}

static const aieth_dev_txn *live(const aieth_dev_txn *t)
{
	return aieth__handle_live(t, AIETH_HANDLE_DEV_TXN) ? t : NULL;
}

aieth_txn_status aieth_dev_txn_status(const aieth_dev_txn *t)
{
	return live(t) ? t->res.status : AIETH_TXN_FAILED;
}

const char *aieth_dev_txn_message(const aieth_dev_txn *t)
{
	return live(t) ? t->res.msg : "not a live device transaction";
}

uint64_t aieth_dev_txn_total_cycles(const aieth_dev_txn *t)
{
	return live(t) ? t->res.total_cycles : 0;
}

const uint64_t *aieth_dev_txn_perf(const aieth_dev_txn *t, size_t *count)
{
	if (count)
		*count = live(t) && t->wire.perf ? pld_perf_count(t->wire.channels) : 0;
	return live(t) ? t->wire.perf : NULL;
}

char *aieth_dev_txn_result_json(const aieth_dev_txn *t)
{
	struct json_object *o;
	char *text = NULL;

	if (!live(t)) {
		aieth__fail(AIETH_EINVAL,
			    "aieth_dev_txn_result_json: not a live device transaction");
		return NULL;
	}
	if ((o = json_object_new_object()) && !aieth__dev_result_json(o, &t->res, t->wire.perf)) {
		const char *j = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
		text = j ? strdup(j) : NULL;
	}
	json_object_put(o);
	if (!text)
		aieth__fail(AIETH_ENOMEM, "device transaction: out of memory for its result");
	return text;
}

void aieth_dev_txn_free(aieth_dev_txn *t)
{
	if (!live(t))
		return;
	aieth__handle_remove(t);
	dev_free(t);
}
