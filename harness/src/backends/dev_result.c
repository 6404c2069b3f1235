/* SPDX-License-Identifier: MIT */
/*
 * dev_result.c - a device's transaction result: its allocation and the
 * one table of names its JSON form uses (dev_result.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/dev_result.h"
#include "pld/protocol.h"
#include "util/error.h"

const char *const aieth__dev_chan_key[2][AIETH_DEV_NFIELDS] = {
	{"tx_moved_bytes", "tx_since", "tx_first", "tx_last", "tx_connected"},
	{"rx_moved_bytes", "rx_since", "rx_first", "rx_last", "rx_connected"},
};

const char *aieth__dev_status_name(aieth_txn_status st)
{
	switch (st) {
	case AIETH_TXN_PENDING: return "PENDING";
	case AIETH_TXN_DONE: return "DONE";
	case AIETH_TXN_TIMEOUT: return "TIMEOUT";
	case AIETH_TXN_FAILED: return "FAILED";
	case AIETH_TXN_INTERRUPTED: return "INTERRUPTED";
	}
	return "?";
}

int aieth__dev_result_alloc(aieth_dev_result *r, uint32_t channels)
{
	memset(r, 0, sizeof *r);
	r->tx = calloc(2u * (size_t)(channels ? channels : 1), sizeof *r->tx);
	if (!r->tx)
		return aieth__fail(AIETH_ENOMEM, "device result: out of memory for %u channels",
				   channels);
	r->rx = r->tx + channels;
	r->channels = channels;
	return AIETH_OK;
}

void aieth__dev_result_free(aieth_dev_result *r)
{
	free(r->tx);
	r->tx = r->rx = NULL;
	r->channels = 0;
}

/* json-c returns NULL only when out of memory: remembered in *bad. */
static void put(struct json_object *o, const char *key, struct json_object *v, int *bad)
{
	if (!v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		*bad = 1;
	}
}

static struct json_object *u64_array(uint32_t N, const aieth_dev_chan *c, int f, int *bad)
{
	struct json_object *a = json_object_new_array();
	uint32_t i;
	for (i = 0; a && i < N; i++) {
		uint64_t v = f == AIETH_DEV_MOVED_BYTES     ? c[i].moved_bytes
			     : f == AIETH_DEV_STALLED_SINCE ? c[i].stalled_since
			     : f == AIETH_DEV_FIRST_CYCLE   ? c[i].first_cycle
			     : f == AIETH_DEV_LAST_CYCLE    ? c[i].last_cycle
							    : (uint64_t) !!c[i].connected;
		if (json_object_array_add(a, json_object_new_uint64(v)))
			*bad = 1;
	}
	return a;
}

int aieth__dev_result_json(struct json_object *o, const aieth_dev_result *res, const uint64_t *perf)
{
	int bad = 0, d, f;
	char w[24];

	put(o, "status", json_object_new_int((int)res->status), &bad);
	put(o, "status_name", json_object_new_string(aieth__dev_status_name(res->status)), &bad);
	put(o, "message", json_object_new_string(res->msg), &bad);
	put(o, "total_cycles", json_object_new_uint64(res->total_cycles), &bad);
	put(o, "have_progress", json_object_new_boolean(res->have_progress), &bad);
	if (perf) {
		struct json_object *a = json_object_new_array();
		size_t k, n = pld_perf_count(res->channels);
		for (k = 0; a && k < n; k++) {
			snprintf(w, sizeof w, "0x%llx", (unsigned long long)perf[k]);
			if (json_object_array_add(a, json_object_new_string(w)))
				bad = 1;
		}
		put(o, "perf", a, &bad);
	}
	for (d = 0; d < 2; d++)
		for (f = 0; f < AIETH_DEV_NFIELDS; f++)
			put(o, aieth__dev_chan_key[d][f],
			    u64_array(res->channels, d ? res->rx : res->tx, f, &bad), &bad);
	return bad ? -1 : 0;
}
