/* SPDX-License-Identifier: MIT */
/*
 * remote_reply.c - th_server's replies checked field by field
 * (remote_reply.h). A server is another party's program: a status it may
 * not send, a missing field or an array of the wrong length is refused
 * with a message naming the field, the value and the rule.
 */
#ifdef AIETH_HAVE_CURL

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/remote/remote_reply.h"
#include "util/error.h"
#include "util/json_strict.h"
#include "util/text.h"
#include "wire/http_words.h"

/* A protocol error: the message so far, prefixed with the server. */
static int proto(const char *base, const char *what)
{
	return aieth__fail_prefix(AIETH_EDEVICE, "server %s: protocol error in %s", base, what);
}

static int get_bool(const char *what, struct json_object *o, const char *key, int *out)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v))
		return aieth__fail(AIETH_EDEVICE, "%s: \"%s\" is missing", what, key);
	if (!json_object_is_type(v, json_type_boolean))
		return aieth__fail(AIETH_EDEVICE, "%s: \"%s\" must be true or false", what, key);
	*out = json_object_get_boolean(v);
	return AIETH_OK;
}

/* key: an array of exactly n integers in 0..max; dst (may be NULL: only
 * checked) gets them. */
static int get_u64s(const char *what, struct json_object *o, const char *key, uint32_t n,
		    uint64_t max, uint64_t *dst)
{
	struct json_object *a, *v;
	uint32_t i;
	if (!json_object_object_get_ex(o, key, &a))
		return aieth__fail(AIETH_EDEVICE, "%s: \"%s\" is missing", what, key);
	if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) != n)
		return aieth__fail(AIETH_EDEVICE,
				   "%s: \"%s\" must be an array of %u numbers, one "
				   "per channel",
				   what, key, n);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(a, i);
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0 ||
		    json_object_get_uint64(v) > max)
			return aieth__fail(AIETH_EDEVICE,
					   "%s: \"%s\"[%u] = %.40s: an integer "
					   "0..%llu is needed",
					   what, key, i, json_object_to_json_string(v),
					   (unsigned long long)max);
		if (dst)
			dst[i] = json_object_get_uint64(v);
	}
	return AIETH_OK;
}

/* "perf": 4N strings "0x" and 1..16 hex digits. */
static int get_perf(const char *what, struct json_object *o, uint32_t N, uint64_t *dst)
{
	struct json_object *a, *v;
	size_t i, n = pld_perf_count(N);
	if (!json_object_object_get_ex(o, "perf", &a))
		return aieth__fail(AIETH_EDEVICE, "%s: \"perf\" is missing", what);
	if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) != n)
		return aieth__fail(AIETH_EDEVICE,
				   "%s: \"perf\" must be an array of %zu words "
				   "(4 per channel)",
				   what, n);
	for (i = 0; i < n; i++) {
		const char *t;
		size_t d;
		v = json_object_array_get_idx(a, i);
		t = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
		d = t && !strncmp(t, "0x", 2) ? strspn(t + 2, "0123456789abcdefABCDEF") : 0;
		if (!t || d < 1 || d > 16 || t[2 + d])
			return aieth__fail(AIETH_EDEVICE,
					   "%s: \"perf\"[%zu] = %.40s: a string "
					   "\"0x\" and 1..16 hex digits is needed",
					   what, i, json_object_to_json_string(v));
		if (dst)
			dst[i] = strtoull(t + 2, NULL, 16);
	}
	return AIETH_OK;
}

/* Every field checked (res NULL), or every field written; the keys are
 * those core/ writes (backends/dev_result.h). */
static int txn_fields(const char *what, struct json_object *o, uint32_t N, uint64_t *perf,
		      aieth_dev_result *res)
{
	int rc, d, f;
	uint32_t i;
	if ((rc = get_perf(what, o, N, perf)))
		return rc;
	for (d = 0; d < 2; d++)
		for (f = 0; f < AIETH_DEV_NFIELDS; f++) {
			const char *key = aieth__dev_chan_key[d][f];
			struct json_object *a;
			if ((rc = get_u64s(what, o, key, N,
					   f == AIETH_DEV_CONNECTED ? 1 : INT64_MAX, NULL)))
				return rc;
			if (!res)
				continue;
			json_object_object_get_ex(o, key, &a);
			for (i = 0; i < N; i++) {
				aieth_dev_chan *c = d ? &res->rx[i] : &res->tx[i];
				uint64_t v =
					json_object_get_uint64(json_object_array_get_idx(a, i));
				switch (f) {
				case AIETH_DEV_MOVED_BYTES: c->moved_bytes = v; break;
				case AIETH_DEV_STALLED_SINCE: c->stalled_since = v; break;
				case AIETH_DEV_FIRST_CYCLE: c->first_cycle = v; break;
				case AIETH_DEV_LAST_CYCLE: c->last_cycle = v; break;
				default: c->connected = (int)v; break;
				}
			}
		}
	return AIETH_OK;
}

/* "status_name" must name "status" (a reply that says DONE in one and
 * something else in the other is not one result). */
static int check_status_name(const char *what, struct json_object *o, uint64_t status)
{
	const char *name = NULL, *want = aieth__dev_status_name((aieth_txn_status)status);
	int rc;
	if ((rc = aieth__jstrict_get_string(what, NULL, o, "status_name", 1, &name)))
		return rc;
	if (strcmp(name, want)) {
		char q[80];
		aieth__quote_str(q, sizeof q, name);
		return aieth__fail(AIETH_EDEVICE,
				   "%s: \"status_name\" \"%s\" does not name \"status\" "
				   "%llu (%s)",
				   what, q, (unsigned long long)status, want);
	}
	return AIETH_OK;
}

/* The fields the create and the wait replies echo of the transaction
 * (docs/http-api.md: "the transaction's fields above"): as submitted, or
 * the reply is another transaction's and is not taken. */
static int check_echo(const char *what, struct json_object *o, const pld_txn *wire)
{
	static const char *const keys[] = {"channels", "tx_bytes", "rx_bytes"};
	const uint64_t sent[] = {wire->channels, wire->tx.size, wire->rx.size};
	size_t i;
	for (i = 0; i < 3; i++) {
		uint64_t v = 0;
		int rc = aieth__jstrict_get_u64(what, NULL, o, keys[i], 1, 0, UINT64_MAX, &v);
		if (rc)
			return rc;
		if (v != sent[i])
			return aieth__fail(AIETH_EDEVICE,
					   "%s: \"%s\" is %llu, the transaction was submitted "
					   "with %llu",
					   what, keys[i], (unsigned long long)v,
					   (unsigned long long)sent[i]);
	}
	return AIETH_OK;
}

int aieth__rmr_txn_result(const char *base, const char *tid, struct json_object *o, pld_txn *wire,
			  aieth_dev_result *res, int *failed)
{
	char what[160];
	const char *id = NULL, *state = NULL, *msg = NULL;
	uint64_t status = 0, cycles = 0;
	int fail = 0, progress = 0, rc;

	*failed = 0;
	snprintf(what, sizeof what, "the result of transaction %s", tid);
	if (!o || !json_object_is_type(o, json_type_object)) {
		aieth__fail(AIETH_EDEVICE, "%s: not a JSON object", what);
		return proto(base, "a transaction's wait reply");
	}
	if ((rc = aieth__jstrict_get_string(what, NULL, o, "id", 1, &id)) ||
	    (rc = aieth__jstrict_get_string(what, NULL, o, "state", 1, &state)))
		return proto(base, "a transaction's wait reply");
	if (strcmp(id, tid) || strcmp(state, aieth__dev_txn_state[AIETH_DEV_TXN_STATES - 1])) {
		aieth__fail(AIETH_EDEVICE,
			    "%s: id \"%.40s\", state \"%.40s\" (expected \"%s\", "
			    "\"%s\")",
			    what, id, state, tid, aieth__dev_txn_state[AIETH_DEV_TXN_STATES - 1]);
		return proto(base, "a transaction's wait reply");
	}
	if ((rc = check_echo(what, o, wire)) || (rc = get_bool(what, o, "failed", &fail)) ||
	    (rc = aieth__jstrict_get_string(what, NULL, o, "message", 1, &msg)))
		return proto(base, "a transaction's wait reply");
	if (strlen(msg) >= sizeof res->msg) {
		aieth__fail(AIETH_EDEVICE, "%s: \"message\" has %zu bytes, at most %zu are allowed",
			    what, strlen(msg), sizeof res->msg - 1);
		return proto(base, "a transaction's wait reply");
	}
	if (fail) {
		/* the device call failed on the server: its message, no result */
		*failed = 1;
		snprintf(res->msg, sizeof res->msg, "%s", msg);
		return AIETH_OK;
	}
	/* a finished transaction is done, timed out, failed or interrupted:
	 * pending (0) or any other value is outside the protocol */
	if ((rc = aieth__jstrict_get_u64(what, NULL, o, "status", 1, AIETH_TXN_DONE,
					 AIETH_TXN_INTERRUPTED, &status)) ||
	    (rc = check_status_name(what, o, status)) ||
	    (rc = aieth__jstrict_get_u64(what, NULL, o, "total_cycles", 1, 0, INT64_MAX,
					 &cycles)) ||
	    (rc = get_bool(what, o, "have_progress", &progress)) ||
	    (rc = txn_fields(what, o, wire->channels, NULL, NULL)))
		return proto(base, "a transaction's wait reply");
	if (!res->tx || res->channels != wire->channels)
		return aieth__fail(AIETH_EINVAL, "%s: a result for %u channels is needed, %u given",
				   what, wire->channels, res->channels);
	/* valid: now written */
	txn_fields(what, o, wire->channels, wire->perf, res);
	res->status = (aieth_txn_status)status;
	snprintf(res->msg, sizeof res->msg, "%s", msg);
	res->total_cycles = cycles;
	res->have_progress = progress;
	return AIETH_OK;
}

int aieth__rmr_txn_created(const char *base, struct json_object *o, const pld_txn *wire, int asked,
			   char *tid, size_t tid_size, int *streamed)
{
	const char *what = "the transaction reply";
	const char *id = NULL, *state = NULL, *want;
	struct json_object *sv = NULL;
	uint64_t got = 0;
	size_t n;
	int stream;

	if (!o || !json_object_is_type(o, json_type_object)) {
		aieth__fail(AIETH_EDEVICE, "%s: not a JSON object", what);
		return aieth__fail_prefix(AIETH_EDEVICE, "server %s: protocol error", base);
	}
	if (!json_object_object_get_ex(o, "stream", &sv) ||
	    !json_object_is_type(sv, json_type_boolean)) {
		aieth__fail(AIETH_EDEVICE, "%s has no \"stream\": true or false", what);
		return aieth__fail_prefix(AIETH_EDEVICE, "server %s: protocol error", base);
	}
	stream = json_object_get_boolean(sv);
	/* streamed only when asked: else the client would not upload it */
	if (stream && !asked) {
		aieth__fail(AIETH_EDEVICE,
			    "%s: \"stream\" is true, the transaction was submitted with false",
			    what);
		return aieth__fail_prefix(AIETH_EDEVICE, "server %s: protocol error", base);
	}
	if (aieth__jstrict_get_string(what, NULL, o, "id", 1, &id) ||
	    aieth__jstrict_get_string(what, NULL, o, "state", 1, &state))
		return aieth__fail_prefix(AIETH_EDEVICE, "server %s: protocol error", base);
	/* the id goes into request paths: whole, and nothing but t, - and digits */
	n = strlen(id);
	if (!n || n >= tid_size || strspn(id, "t-0123456789") != n) {
		char q[AIETH_QUOTE_CAP];
		aieth__quote_str(q, sizeof q, id);
		aieth__fail(
			AIETH_EDEVICE,
			"%s: \"id\" \"%s\" is no transaction id (1..%zu bytes of t, - and digits)",
			what, q, tid_size - 1);
		return aieth__fail_prefix(AIETH_EDEVICE, "server %s: protocol error", base);
	}
	/* a streamed transaction is started as it is made; the other waits
	 * for its TX image */
	want = aieth__dev_txn_state[stream ? 1 : 0];
	if (strcmp(state, want)) {
		char q[AIETH_QUOTE_CAP];
		aieth__quote_str(q, sizeof q, state);
		aieth__fail(AIETH_EDEVICE,
			    "%s: \"state\" \"%s\" (expected \"%s\", \"stream\" being %s)", what, q,
			    want, stream ? "true" : "false");
		return aieth__fail_prefix(AIETH_EDEVICE, "server %s: protocol error", base);
	}
	/* as submitted, and no TX byte uploaded yet */
	if (check_echo(what, o, wire) ||
	    aieth__jstrict_get_u64(what, NULL, o, "tx_received", 1, 0, UINT64_MAX, &got))
		return aieth__fail_prefix(AIETH_EDEVICE, "server %s: protocol error", base);
	if (got) {
		aieth__fail(AIETH_EDEVICE,
			    "%s: \"tx_received\" is %llu, no TX byte was uploaded yet", what,
			    (unsigned long long)got);
		return aieth__fail_prefix(AIETH_EDEVICE, "server %s: protocol error", base);
	}
	memcpy(tid, id, n + 1);
	*streamed = stream;
	return AIETH_OK;
}

int aieth__rmr_session_state(const char *base, struct json_object *o, const char **state,
			     uint32_t *position, const char **reason)
{
	static const char *const states[] = {"queued", "active", "ended", "expired", NULL};
	const char *what = "the session's state";
	const char *s = NULL, *why = "";
	uint32_t pos = 0;
	size_t i;
	if (!o || !json_object_is_type(o, json_type_object)) {
		aieth__fail(AIETH_EDEVICE, "%s: not a JSON object", what);
		return proto(base, "a session reply");
	}
	if (aieth__jstrict_get_string(what, NULL, o, "state", 1, &s) ||
	    aieth__jstrict_get_string(what, NULL, o, "reason", 0, &why))
		return proto(base, "a session reply");
	for (i = 0; states[i] && strcmp(states[i], s); i++)
		;
	if (!states[i]) {
		char q[80];
		aieth__quote_str(q, sizeof q, s);
		aieth__fail(AIETH_EDEVICE,
			    "%s: \"state\" %s is none of queued, active, ended, "
			    "expired",
			    what, q);
		return proto(base, "a session reply");
	}
	if (aieth__jstrict_get_u32(what, NULL, o, "position", !strcmp(s, "queued"), 0, 65535, &pos))
		return proto(base, "a session reply");
	*state = s;
	*position = pos;
	if (reason)
		*reason = why;
	return AIETH_OK;
}

int aieth__rmr_health(const char *base, struct json_object *o)
{
	static const char *const keys[] = {"server", "version", "backend"};
	const char *what = "the health reply", *v = NULL;
	size_t i, j;
	for (i = 0; i < 3; i++) {
		if (aieth__jstrict_get_string(what, NULL, o, keys[i], 1, &v))
			return proto(base, "GET /v1/health");
		for (j = 0; v[j] && v[j] >= 0x20 && v[j] < 0x7f; j++)
			;
		if (!j || v[j] || j > 40) {
			char q[80];
			aieth__quote_str(q, sizeof q, v);
			aieth__fail(AIETH_EDEVICE,
				    "%s: \"%s\" %s: 1..40 printable ASCII bytes are "
				    "needed",
				    what, keys[i], q);
			return proto(base, "GET /v1/health");
		}
	}
	return AIETH_OK;
}

int aieth__rmr_graph_status(const char *base, struct json_object *o, uint64_t *done, int *complete)
{
	const char *what = "the graph's status";
	uint64_t d = 0;
	int c = 0;
	if (!o || !json_object_is_type(o, json_type_object)) {
		aieth__fail(AIETH_EDEVICE, "%s: not a JSON object", what);
		return proto(base, "a graph reply");
	}
	if (aieth__jstrict_get_u64(what, NULL, o, "iterations_done", 1, 0, INT64_MAX, &d) ||
	    get_bool(what, o, "complete", &c))
		return proto(base, "a graph reply");
	*done = d;
	*complete = c;
	return AIETH_OK;
}

/* A string of o of 1..max printable ASCII bytes (key required). */
static int get_ascii(const char *what, struct json_object *o, const char *key, size_t max,
		     const char **out)
{
	const char *v = NULL;
	size_t j;
	if (aieth__jstrict_get_string(what, NULL, o, key, 1, &v))
		return AIETH_EDEVICE;
	for (j = 0; v[j] && v[j] >= 0x20 && v[j] < 0x7f; j++)
		;
	if (!j || v[j] || j > max) {
		char q[80];
		aieth__quote_str(q, sizeof q, v);
		return aieth__fail(AIETH_EDEVICE,
				   "%s: \"%s\" \"%s\": 1..%zu printable ASCII bytes are needed",
				   what, key, q, max);
	}
	*out = v;
	return AIETH_OK;
}

/* One sensor of the reply (i: its index) into *d. */
static int sensor_of(struct json_object *e, size_t i, aieth_sensor *d)
{
	static const char *const kinds[] = {"temperature", "voltage", "power", "current"};
	/* degrees Celsius in UTF-8 (octal: a hex escape would take the C) */
	static const char *const units[] = {"\302\260C", "V", "W", "A"};
	char what[64], q[80];
	const char *name, *source, *kind, *unit;
	struct json_object *v;
	size_t k;
	snprintf(what, sizeof what, "\"sensors\"[%zu]", i);
	if (!json_object_is_type(e, json_type_object))
		return aieth__fail(AIETH_EDEVICE, "%s: not a JSON object", what);
	if (get_ascii(what, e, "name", sizeof d->name - 1, &name) ||
	    get_ascii(what, e, "source", sizeof d->source - 1, &source) ||
	    aieth__jstrict_get_string(what, NULL, e, "kind", 1, &kind) ||
	    aieth__jstrict_get_string(what, NULL, e, "unit", 1, &unit))
		return AIETH_EDEVICE;
	for (k = 0; k < 4 && strcmp(kinds[k], kind); k++)
		;
	if (k == 4) {
		aieth__quote_str(q, sizeof q, kind);
		return aieth__fail(AIETH_EDEVICE,
				   "%s: \"kind\" \"%s\" is none of temperature, voltage, power, "
				   "current",
				   what, q);
	}
	if (strcmp(unit, units[k])) {
		aieth__quote_str(q, sizeof q, unit);
		return aieth__fail(AIETH_EDEVICE, "%s: \"unit\" \"%s\": a %s is in %s", what, q,
				   kinds[k], units[k]);
	}
	if (!json_object_object_get_ex(e, "value", &v))
		return aieth__fail(AIETH_EDEVICE, "%s: \"value\" is missing", what);
	memset(d, 0, sizeof *d);
	if (v) {
		double x;
		if (!json_object_is_type(v, json_type_double) &&
		    !json_object_is_type(v, json_type_int))
			return aieth__fail(AIETH_EDEVICE, "%s: \"value\" must be a number or null",
					   what);
		x = json_object_get_double(v);
		if (!isfinite(x) || fabs(x) > 1e12)
			return aieth__fail(AIETH_EDEVICE, "%s: \"value\" %g is not a reading", what,
					   x);
		d->value = x;
		d->valid = 1;
	}
	snprintf(d->name, sizeof d->name, "%s", name);
	snprintf(d->source, sizeof d->source, "%s", source);
	d->kind = (aieth_sensor_kind)k;
	return AIETH_OK;
}

static int sensor_notes(const char *what, struct json_object *o, char *notes, size_t notes_cap)
{
	struct json_object *a;
	size_t i, n, used = 0;
	if (!json_object_object_get_ex(o, "notes", &a))
		return aieth__fail(AIETH_EDEVICE, "%s: \"notes\" is missing", what);
	if (!json_object_is_type(a, json_type_array) ||
	    (n = json_object_array_length(a)) > RMR_SENSOR_NOTES_MAX)
		return aieth__fail(AIETH_EDEVICE,
				   "%s: \"notes\" must be an array of at most %d "
				   "strings",
				   what, RMR_SENSOR_NOTES_MAX);
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		const char *t;
		size_t len, j;
		if (!json_object_is_type(e, json_type_string))
			return aieth__fail(AIETH_EDEVICE, "%s: \"notes\"[%zu] must be a string",
					   what, i);
		t = json_object_get_string(e);
		len = (size_t)json_object_get_string_len(e);
		for (j = 0; j < len && (unsigned char)t[j] >= 0x20 && t[j] != 0x7f; j++)
			;
		if (!len || j < len || len > RMR_SENSOR_NOTE_MAX)
			return aieth__fail(AIETH_EDEVICE,
					   "%s: \"notes\"[%zu]: 1..%d bytes without control bytes "
					   "are needed",
					   what, i, RMR_SENSOR_NOTE_MAX);
	}
	/* valid: written now, a line each, cut to fit */
	for (i = 0; i < n && used + 1 < notes_cap; i++) {
		int w = snprintf(notes + used, notes_cap - used, "%s%s", used ? "\n" : "",
				 json_object_get_string(json_object_array_get_idx(a, i)));
		used += w < 0 ? 0 : (size_t)w;
		if (used >= notes_cap)
			used = notes_cap - 1;
	}
	return AIETH_OK;
}

int aieth__rmr_sensors(const char *base, struct json_object *o, aieth_sensor *out, size_t cap,
		       size_t *n, char *notes, size_t notes_cap)
{
	const char *what = "the sensors reply";
	struct json_object *a;
	aieth_sensor *got = NULL;
	size_t i, j, cnt;
	int avail = 0, rc;
	if (!o || !json_object_is_type(o, json_type_object)) {
		aieth__fail(AIETH_EDEVICE, "%s: not a JSON object", what);
		return proto(base, "GET /v1/sensors");
	}
	if (get_bool(what, o, "available", &avail))
		return proto(base, "GET /v1/sensors");
	if (!json_object_object_get_ex(o, "sensors", &a) ||
	    !json_object_is_type(a, json_type_array)) {
		aieth__fail(AIETH_EDEVICE, "%s: \"sensors\" must be an array", what);
		return proto(base, "GET /v1/sensors");
	}
	cnt = json_object_array_length(a);
	if (cnt > AIETH_SENSORS_MAX || (!avail && cnt)) {
		aieth__fail(AIETH_EDEVICE, "%s: %zu sensors, %s", what, cnt,
			    avail ? "the limit is 256" : "with \"available\" false");
		return proto(base, "GET /v1/sensors");
	}
	/* checked whole before anything is written */
	if (cnt && !(got = calloc(cnt, sizeof *got)))
		return aieth__fail(AIETH_ENOMEM, "server %s: GET /v1/sensors: out of memory", base);
	for (i = 0, rc = 0; i < cnt && !rc; i++) {
		rc = sensor_of(json_object_array_get_idx(a, i), i, &got[i]);
		for (j = 0; j < i && !rc; j++)
			if (!strcmp(got[j].name, got[i].name))
				rc = aieth__fail(AIETH_EDEVICE,
						 "%s: \"sensors\"[%zu] \"name\" \"%s\" is also "
						 "\"sensors\"[%zu]'s",
						 what, i, got[i].name, j);
	}
	if (!rc)
		rc = sensor_notes(what, o, NULL, 0);
	if (rc) {
		free(got);
		return proto(base, "GET /v1/sensors");
	}
	if (!avail) {
		aieth__fail(AIETH_EUNSUPPORTED,
			    "server %s: the server's board is emulated: it has no sensors", base);
		return AIETH_EUNSUPPORTED;
	}
	for (i = 0; i < cnt && i < cap; i++)
		out[i] = got[i];
	*n = cnt;
	free(got);
	if (notes_cap) {
		notes[0] = '\0';
		sensor_notes(what, o, notes, notes_cap);
	}
	return AIETH_OK;
}

/* One port of the reply (what names it in messages) into *p. */
static int one_port(const char *what, struct json_object *e, aieth_graph_port *p)
{
	const char *plio = NULL, *dir = NULL;
	uint64_t bpi = 0;
	uint32_t k = 0;
	size_t j;
	char q[80];
	if (!json_object_is_type(e, json_type_object))
		return aieth__fail(AIETH_EDEVICE, "%s: not a JSON object", what);
	if (aieth__jstrict_get_string(what, NULL, e, "plio", 1, &plio) ||
	    aieth__jstrict_get_string(what, NULL, e, "direction", 1, &dir) ||
	    aieth__jstrict_get_u32(what, NULL, e, "kernel", 1, 0, UINT32_MAX, &k) ||
	    aieth__jstrict_get_u64(what, NULL, e, "bytes_per_iteration", 1, 1, INT64_MAX, &bpi))
		return AIETH_EDEVICE;
	for (j = 0; plio[j] && plio[j] > 0x20 && plio[j] < 0x7f; j++)
		;
	if (!j || plio[j] || j >= sizeof p->plio) {
		aieth__quote_str(q, sizeof q, plio);
		return aieth__fail(AIETH_EDEVICE,
				   "%s: \"plio\" \"%s\": 1..%zu printable ASCII bytes are needed",
				   what, q, sizeof p->plio - 1);
	}
	if (strcmp(dir, "to_aie") && strcmp(dir, "from_aie")) {
		aieth__quote_str(q, sizeof q, dir);
		return aieth__fail(AIETH_EDEVICE,
				   "%s: \"direction\" \"%s\" is neither to_aie nor from_aie", what,
				   q);
	}
	memset(p, 0, sizeof *p);
	memcpy(p->plio, plio, j + 1);
	p->to_aie = dir[0] == 't';
	p->kernel = k;
	p->bytes_per_iteration = bpi;
	return AIETH_OK;
}

int aieth__rmr_graph_ports(const char *base, struct json_object *o, aieth_graph_port *ports,
			   size_t cap, size_t *n)
{
	const char *what = "the graph's ports";
	struct json_object *a;
	aieth_graph_port p;
	size_t i, len;
	char at[64];
	if (!o || !json_object_is_type(o, json_type_object)) {
		aieth__fail(AIETH_EDEVICE, "%s: not a JSON object", what);
		return proto(base, "a graph ports reply");
	}
	if (!json_object_object_get_ex(o, "ports", &a) ||
	    !json_object_is_type(a, json_type_array)) {
		aieth__fail(AIETH_EDEVICE, "%s: \"ports\" must be an array", what);
		return proto(base, "a graph ports reply");
	}
	len = json_object_array_length(a);
	if (len > AIETH_GRAPH_PORTS_MAX) {
		aieth__fail(AIETH_EDEVICE, "%s: \"ports\" has %zu entries, the limit is %d", what,
			    len, AIETH_GRAPH_PORTS_MAX);
		return proto(base, "a graph ports reply");
	}
	/* all checked before any is written */
	for (i = 0; i < len; i++) {
		snprintf(at, sizeof at, "%s: ports[%zu]", what, i);
		if (one_port(at, json_object_array_get_idx(a, i), &p))
			return proto(base, "a graph ports reply");
	}
	for (i = 0; i < len && i < cap; i++)
		one_port(what, json_object_array_get_idx(a, i), &ports[i]);
	*n = len;
	return AIETH_OK;
}

#endif /* AIETH_HAVE_CURL */
