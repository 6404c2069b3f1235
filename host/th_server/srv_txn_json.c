/* SPDX-License-Identifier: MIT */
/*
 * srv_txn_json.c - a transaction of th_server as JSON (srv_txn.h): the one
 * form the HTTP API (through srv_txn.c) and run_summary.json
 * (srv_artifacts.c) give, its result written by the library
 * (aieth_dev_txn_result_json). Called with mu held.
 */
#include <stdlib.h>

#include "th_server/srv_core.h"

unsigned aieth__srv_txn_position_locked(srv_sess *x, const srv_txn *t)
{
	const srv_txn *p;
	unsigned n = 1;
	if (t->state != ST_STARTED)
		return 0;
	for (p = x->txns; p && p != t; p = p->next)
		n += p->state == ST_STARTED;
	return n;
}

/* "failed", then the device call's message when it failed, else the
 * device's result, its keys in their order. 0, or -1 out of memory. */
static int result_json(struct json_object *o, const srv_txn *t)
{
	struct json_object *r;
	char *text;
	int bad;
	if (json_object_object_add(o, "failed", json_object_new_boolean(t->failed || !t->dev)))
		return -1;
	if (t->failed || !t->dev)
		return json_object_object_add(o, "message",
					      json_object_new_string(t->failed ? t->msg : ""))
			       ? -1
			       : 0;
	if (!(text = aieth_dev_txn_result_json(t->dev)))
		return -1;
	r = json_tokener_parse(text);
	free(text);
	if (!r)
		return -1;
	bad = 0;
	json_object_object_foreach(r, k, v)
	{
		if (json_object_object_add(o, k, json_object_get(v)))
			bad = 1;
	}
	json_object_put(r);
	return bad ? -1 : 0;
}

struct json_object *aieth__srv_txn_json_locked(srv_sess *x, const srv_txn *t)
{
	struct json_object *o = json_object_new_object();
	if (!o)
		return NULL;
	json_object_object_add(o, "id", json_object_new_string(t->id));
	/* an AMD session's transaction: the id its client knows it by */
	if (t->has_amd_id)
		json_object_object_add(o, "amd_id", json_object_new_uint64(t->amd_id));
	json_object_object_add(o, "state", json_object_new_string(aieth__dev_txn_state[t->state]));
	json_object_object_add(o, "channels", json_object_new_int64(t->channels));
	json_object_object_add(o, "tx_bytes", json_object_new_uint64(t->tx_size));
	json_object_object_add(o, "rx_bytes", json_object_new_uint64(t->rx_size));
	json_object_object_add(o, "tx_received", json_object_new_uint64(t->tx_got));
	if (t->state == ST_STARTED) {
		struct json_object *pr = json_object_new_object();
		/* its place among the session's started transactions: 1 runs now */
		json_object_object_add(
			o, "position",
			json_object_new_uint64(aieth__srv_txn_position_locked(x, t)));
		json_object_object_add(pr, "done", json_object_new_uint64(t->done));
		json_object_object_add(pr, "total", json_object_new_uint64(t->total));
		json_object_object_add(o, "progress", pr);
	}
	if (t->state == ST_FINISHED && result_json(o, t)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
