/* SPDX-License-Identifier: MIT */
/*
 * fuzz_remote_reply.c - libFuzzer target for the remote backend's reading
 * of th_server's replies (backends/remote/remote_reply.c): the bytes are a
 * reply body as the backend parses it (strict JSON object), the first byte
 * picks which reply it is (% 5) and the channel count (1..36).
 *  0: a transaction's wait reply: either refused, leaving the result and
 *     the perf words untouched, or taken whole with a status of the
 *     protocol (done, timeout, failed, interrupted; never pending or
 *     outside the set), connected flags 0 or 1, counts below 2^63, and the
 *     echoed "channels", "tx_bytes", "rx_bytes" those of the transaction
 *     (n channels, 16n and 32n bytes).
 *  1: a session's state: one of queued, active, ended, expired.
 *  2: a graph's status: complete is 0 or 1, the count below 2^63.
 *  3: the health reply.
 *  4: a new transaction's reply (n channels, 16n and 32n bytes, streaming
 *     asked when bit 2 of the first byte is set): either refused, leaving
 *     the id and the stream flag untouched, or taken with the echoed
 *     fields those of the transaction, "tx_received" 0, an id that fits
 *     its buffer (t, - and digits), streamed only when asked and then
 *     "running", else "awaiting_tx".
 */
#include "fuzz_remote.h"

#ifdef AIETH_HAVE_CURL
#define NMAX 36
#define MARK 0xAB

static void txn_case(struct json_object *o, uint32_t n)
{
	static uint64_t perf[4 * NMAX];
	static aieth_dev_chan chans[2 * NMAX];
	aieth_dev_result res;
	pld_txn wire;
	int failed = -1;
	uint32_t i, k;
	memset(perf, MARK, sizeof perf);
	memset(chans, MARK, sizeof chans);
	memset(&res, 0, sizeof res);
	memset(&wire, 0, sizeof wire);
	res.status = (aieth_txn_status)77;
	res.channels = n;
	res.tx = chans;
	res.rx = chans + n;
	wire.channels = n;
	wire.perf = perf;
	wire.tx.size = 16u * n;
	wire.rx.size = 32u * n;
	if (aieth__rmr_txn_result("http://x", "t-1", o, &wire, &res, &failed)) {
		/* refused: nothing written */
		unsigned char m[sizeof perf];
		memset(m, MARK, sizeof m);
		CHECK(res.status == (aieth_txn_status)77);
		CHECK(!memcmp(perf, m, sizeof perf));
		return;
	}
	{
		struct json_object *v;
		CHECK(json_object_object_get_ex(o, "channels", &v) &&
		      json_object_get_uint64(v) == n);
		CHECK(json_object_object_get_ex(o, "tx_bytes", &v) &&
		      json_object_get_uint64(v) == 16u * n);
		CHECK(json_object_object_get_ex(o, "rx_bytes", &v) &&
		      json_object_get_uint64(v) == 32u * n);
	}
	if (failed == 1)
		return;
	CHECK(failed == 0);
	CHECK(res.status == AIETH_TXN_DONE || res.status == AIETH_TXN_TIMEOUT ||
	      res.status == AIETH_TXN_FAILED || res.status == AIETH_TXN_INTERRUPTED);
	CHECK(memchr(res.msg, '\0', sizeof res.msg) != NULL);
	for (i = 0; i < 2 * n; i++) {
		const aieth_dev_chan *c = &chans[i];
		CHECK(c->connected == 0 || c->connected == 1);
		for (k = 0; k < 4; k++) {
			uint64_t v = k == 0   ? c->moved_bytes
				     : k == 1 ? c->stalled_since
				     : k == 2 ? c->first_cycle
					      : c->last_cycle;
			CHECK(v < ((uint64_t)1 << 63));
		}
	}
}

static void created_case(struct json_object *o, uint32_t n, int asked)
{
	struct json_object *v;
	char tid[24];
	pld_txn wire;
	int streamed = 77;
	size_t len;
	memset(tid, MARK, sizeof tid);
	memset(&wire, 0, sizeof wire);
	wire.channels = n;
	wire.tx.size = 16u * n;
	wire.rx.size = 32u * n;
	if (aieth__rmr_txn_created("http://x", o, &wire, asked, tid, sizeof tid, &streamed)) {
		/* refused: nothing written */
		unsigned char m[sizeof tid];
		memset(m, MARK, sizeof m);
		CHECK(streamed == 77);
		CHECK(!memcmp(tid, m, sizeof tid));
		return;
	}
	CHECK(streamed == 0 || (streamed == 1 && asked));
	len = strnlen(tid, sizeof tid);
	CHECK(len > 0 && len < sizeof tid && strspn(tid, "t-0123456789") == len);
	CHECK(json_object_object_get_ex(o, "id", &v) && !strcmp(json_object_get_string(v), tid));
	CHECK(json_object_object_get_ex(o, "state", &v) &&
	      !strcmp(json_object_get_string(v), streamed ? "running" : "awaiting_tx"));
	CHECK(json_object_object_get_ex(o, "channels", &v) && json_object_get_uint64(v) == n);
	CHECK(json_object_object_get_ex(o, "tx_bytes", &v) && json_object_get_uint64(v) == 16u * n);
	CHECK(json_object_object_get_ex(o, "rx_bytes", &v) && json_object_get_uint64(v) == 32u * n);
	CHECK(json_object_object_get_ex(o, "tx_received", &v) &&
	      json_object_is_type(v, json_type_int) && json_object_get_uint64(v) == 0);
}

static void fuzz_remote_one(uint8_t first, struct json_object *o)
{
	uint32_t n = 1 + (uint32_t)(first >> 2) % NMAX;
	switch (first % 5) {
	case 0: txn_case(o, n); break;
	case 1: {
		const char *st = NULL, *why = NULL;
		uint32_t pos = 0;
		if (!aieth__rmr_session_state("http://x", o, &st, &pos, &why))
			CHECK(!strcmp(st, "queued") || !strcmp(st, "active") ||
			      !strcmp(st, "ended") || !strcmp(st, "expired"));
		break;
	}
	case 2: {
		uint64_t done = 0;
		int complete = -1;
		if (!aieth__rmr_graph_status("http://x", o, &done, &complete))
			CHECK((complete == 0 || complete == 1) && done < ((uint64_t)1 << 63));
		break;
	}
	case 3: (void)aieth__rmr_health("http://x", o); break;
	default: created_case(o, n, (first >> 2) & 1);
	}
}
#endif
