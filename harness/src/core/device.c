/* SPDX-License-Identifier: MIT */
/*
 * device.c - th_server's calls on a session's device (core/device.h): each
 * checks the handle and holds the session for the call, as the public
 * calls do, then calls the backend; and the one JSON form of a device's
 * transaction result.
 */
#include <stdio.h>
#include <string.h>

#include "core/device.h"
#include "core/handles.h"
#include "core/session_internal.h"
#include "util/error.h"

const aieth_board_info *aieth__dev_info(const aieth_session *s)
{
	return aieth__handle_live(s, AIETH_HANDLE_SESSION) ? s->info : NULL;
}

int aieth__dev_streams(const aieth_session *s)
{
	return aieth__handle_live(s, AIETH_HANDLE_SESSION) && s->ops->streams;
}

int aieth__dev_txn_start(aieth_session *s, pld_txn *wire)
{
	int rc = aieth__session_enter(s, "aieth__dev_txn_start");
	if (rc)
		return rc;
	aieth__error_clear();
	if (!wire || wire->channels != s->info->channels)
		rc = aieth__fail(AIETH_EINVAL, "transaction: %u channels, the board %s has %u",
				 wire ? wire->channels : 0, s->info->name, s->info->channels);
	else
		rc = s->ops->txn_start(s->bstate, wire);
	aieth__session_leave(s);
	return rc;
}

int aieth__dev_txn_wait(aieth_session *s, pld_txn *wire, uint32_t timeout_ms, aieth_dev_result *res)
{
	int rc = aieth__session_enter(s, "aieth__dev_txn_wait");
	if (rc)
		return rc;
	aieth__error_clear();
	if (!wire || !res || res->channels != s->info->channels || !res->tx)
		rc = aieth__fail(AIETH_EINVAL,
				 "transaction wait: a result for %u channels is "
				 "needed (the board %s has %u)",
				 res ? res->channels : 0, s->info->name, s->info->channels);
	else
		rc = s->ops->txn_wait(s->bstate, wire, timeout_ms, res);
	aieth__session_leave(s);
	return rc;
}

int aieth__dev_graph_status(aieth_session *s, const char *graph, uint64_t *done, int *complete)
{
	uint32_t g = 0;
	int rc = aieth__session_enter(s, "aieth__dev_graph_status");
	if (rc)
		return rc;
	aieth__error_clear();
	if (!done || !complete)
		rc = aieth__fail(AIETH_EINVAL, "graph status: NULL argument");
	else if (!(rc = aieth__graph_find(s, graph, &g)))
		rc = s->ops->graph_status(s->bstate, g, done, complete);
	aieth__session_leave(s);
	return rc;
}

/* json-c returns NULL only when out of memory: remembered in *bad. */
static void put(struct json_object *o, const char *key, struct json_object *v, int *bad)
{
	if (!v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		*bad = 1;
	}
}

int aieth__dev_result_json(struct json_object *o, const aieth_dev_result *res, const uint64_t *perf,
			   int failed, const char *fail_msg)
{
	uint32_t N = res ? res->channels : 0, i;
	int bad = 0, d, f;
	char w[24];

	put(o, "failed", json_object_new_boolean(failed), &bad);
	if (failed || !res) {
		put(o, "message", json_object_new_string(fail_msg ? fail_msg : ""), &bad);
		return bad ? -1 : 0;
	}
	put(o, "status", json_object_new_int((int)res->status), &bad);
	put(o, "status_name", json_object_new_string(aieth__dev_status_name(res->status)), &bad);
	put(o, "message", json_object_new_string(res->msg), &bad);
	put(o, "total_cycles", json_object_new_uint64(res->total_cycles), &bad);
	put(o, "have_progress", json_object_new_boolean(res->have_progress), &bad);
	if (perf) {
		struct json_object *a = json_object_new_array();
		size_t k, n = pld_perf_count(N);
		for (k = 0; a && k < n; k++) {
			snprintf(w, sizeof w, "0x%llx", (unsigned long long)perf[k]);
			if (json_object_array_add(a, json_object_new_string(w)))
				bad = 1;
		}
		put(o, "perf", a, &bad);
	}
	for (d = 0; d < 2; d++)
		for (f = 0; f < AIETH_DEV_NFIELDS; f++) {
			const aieth_dev_chan *c = d ? res->rx : res->tx;
			struct json_object *a = json_object_new_array();
			for (i = 0; a && i < N; i++) {
				uint64_t v = f == AIETH_DEV_MOVED_BYTES     ? c[i].moved_bytes
					     : f == AIETH_DEV_STALLED_SINCE ? c[i].stalled_since
					     : f == AIETH_DEV_FIRST_CYCLE   ? c[i].first_cycle
					     : f == AIETH_DEV_LAST_CYCLE
						     ? c[i].last_cycle
						     : (uint64_t) !!c[i].connected;
				if (json_object_array_add(a, json_object_new_uint64(v)))
					bad = 1;
			}
			put(o, aieth__dev_chan_key[d][f], a, &bad);
		}
	return bad ? -1 : 0;
}
