/* SPDX-License-Identifier: MIT */
/* test_remote_reply.c - th_server's replies as the remote backend reads
 * them: a transaction result with a status outside the protocol, a field of
 * the wrong type or an array of the wrong length is a protocol error
 * (AIETH_EDEVICE) and leaves the result untouched; a valid one is taken
 * whole. */
#include <stdio.h>
#include <string.h>

#include "aieth.h"
#include "tu.h"

#ifdef AIETH_HAVE_CURL

#include "backends/remote/remote_reply.h"
#include "backends/dev_result.h"
#include "wire/http_words.h"
#include "util/error.h"

#define N 2

static uint64_t perf[4 * N];
static aieth_dev_chan chans[2 * N];
static aieth_dev_result res;
static pld_txn wire;

static void reset(void)
{
	memset(perf, 0xAB, sizeof perf);
	memset(chans, 0xAB, sizeof chans);
	memset(&res, 0, sizeof res);
	memset(&wire, 0, sizeof wire);
	res.status = (aieth_txn_status)77;
	strcpy(res.msg, "untouched");
	res.channels = N;
	res.tx = chans;
	res.rx = chans + N;
	wire.channels = N;
	wire.perf = perf;
	wire.tx.size = 32; /* as the reply below echoes them */
	wire.rx.size = 48;
}

/* The fields th_server's transaction JSON has beside a result
 * (srv_txn_json.c): the transaction as submitted. */
static void add_echo(struct json_object *o)
{
	json_object_object_add(o, "channels", json_object_new_int64(N));
	json_object_object_add(o, "tx_bytes", json_object_new_uint64(32));
	json_object_object_add(o, "rx_bytes", json_object_new_uint64(48));
}

/* A valid reply for t-1 with field key replaced by value (JSON text;
 * NULL: left out; key NULL: nothing replaced). */
static struct json_object *reply2(const char *key, const char *value, const char *key2,
				  const char *value2)
{
	static const char *const base =
		"{\"id\":\"t-1\",\"state\":\"finished\",\"failed\":false,\"status\":1,"
		"\"status_name\":\"DONE\","
		"\"message\":\"ok\",\"total_cycles\":1234,\"have_progress\":true,"
		"\"perf\":[\"0x1\",\"0x2\",\"0x3\",\"0x4\",\"0x5\",\"0x6\",\"0x7\",\"0xffffffffffffffff\"],"
		"\"tx_moved_bytes\":[10,11],\"rx_moved_bytes\":[12,13],\"tx_since\":[0,0],\"rx_since\":[0,0],"
		"\"tx_first\":[1,2],\"tx_last\":[3,4],\"rx_first\":[5,6],\"rx_last\":[7,8],"
		"\"tx_connected\":[1,0],\"rx_connected\":[0,1],\"channels\":2,\"tx_bytes\":32,"
		"\"rx_bytes\":48}";
	struct json_object *o = json_tokener_parse(base);
	if (key) {
		json_object_object_del(o, key);
		if (value)
			json_object_object_add(o, key, json_tokener_parse(value));
	}
	if (key2) {
		json_object_object_del(o, key2);
		if (value2)
			json_object_object_add(o, key2, json_tokener_parse(value2));
	}
	return o;
}

static struct json_object *reply(const char *key, const char *value)
{
	return reply2(key, value, NULL, NULL);
}

static int run(struct json_object *o, int *failed)
{
	int rc = aieth__rmr_txn_result("http://x", "t-1", o, &wire, &res, failed);
	json_object_put(o);
	return rc;
}

static void refused2(const char *key, const char *value, const char *key2, const char *value2,
		     const char *msg)
{
	int failed = 0, rc;
	reset();
	rc = run(reply2(key, value, key2, value2), &failed);
	CU_ASSERT_EQUAL(rc, AIETH_EDEVICE);
	if (!strstr(aieth_error_message(), msg) || !strstr(aieth_error_message(), "protocol error"))
		fprintf(stderr, "\n  %s=%s: message: %s\n  expected: %s\n", key,
			value ? value : "-", aieth_error_message(), msg);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), msg));
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "protocol error"));
	/* nothing of a refused reply is taken */
	CU_ASSERT_EQUAL((int)res.status, 77);
	CU_ASSERT_STRING_EQUAL(res.msg, "untouched");
	CU_ASSERT_EQUAL(chans[0].moved_bytes, 0xABABABABABABABABull);
	CU_ASSERT_EQUAL(perf[0], 0xABABABABABABABABull);
}

static void refused(const char *key, const char *value, const char *msg)
{
	refused2(key, value, NULL, NULL, msg);
}

/* What the library writes (aieth__dev_result_json, th_server's one form of a
 * result) is what the remote backend reads, value for value: bytes under
 * the *_bytes keys unchanged (no beats), every status with its name. */
static void t_round_trip(void)
{
	static const aieth_txn_status sts[] = {AIETH_TXN_DONE, AIETH_TXN_TIMEOUT, AIETH_TXN_FAILED,
					       AIETH_TXN_INTERRUPTED};
	aieth_dev_result w;
	uint64_t wperf[4 * N];
	size_t k, i;
	for (k = 0; k < sizeof sts / sizeof sts[0]; k++) {
		struct json_object *o = json_object_new_object(), *v;
		int failed = 1;
		CU_ASSERT_EQUAL_FATAL(aieth__dev_result_alloc(&w, N), AIETH_OK);
		w.status = sts[k];
		snprintf(w.msg, sizeof w.msg, "status %d \"quoted\"", (int)sts[k]);
		w.total_cycles = 1000u + k;
		w.have_progress = (int)(k & 1);
		for (i = 0; i < N; i++) {
			w.tx[i].moved_bytes = 16u * (100u + i); /* bytes, whole beats */
			w.rx[i].moved_bytes = 16u * (200u + i) + (k == 3 ? 16u : 0u);
			w.tx[i].stalled_since = 7u + i;
			w.rx[i].stalled_since = 0;
			w.tx[i].first_cycle = 10u + i;
			w.tx[i].last_cycle = 20u + i;
			w.rx[i].first_cycle = 30u + i;
			w.rx[i].last_cycle = (uint64_t)INT64_MAX - i;
			w.tx[i].connected = (int)i & 1;
			w.rx[i].connected = !(i & 1);
		}
		for (i = 0; i < 4 * N; i++)
			wperf[i] = 0x100000000ull * i + k;
		json_object_object_add(o, "id", json_object_new_string("t-1"));
		json_object_object_add(o, "state", json_object_new_string(aieth__dev_txn_state[2]));
		add_echo(o);
		json_object_object_add(o, "failed", json_object_new_boolean(0));
		CU_ASSERT_EQUAL(aieth__dev_result_json(o, &w, wperf), 0);
		/* the names say the units */
		CU_ASSERT_TRUE(json_object_object_get_ex(o, "tx_moved_bytes", &v));
		CU_ASSERT_EQUAL(json_object_get_uint64(json_object_array_get_idx(v, 1)),
				16u * 101u);
		CU_ASSERT_FALSE(json_object_object_get_ex(o, "tx_moved", &v));
		CU_ASSERT_FALSE(json_object_object_get_ex(o, "tx_moved_beats", &v));
		CU_ASSERT_TRUE(json_object_object_get_ex(o, "status_name", &v));
		CU_ASSERT_STRING_EQUAL(json_object_get_string(v), aieth_txn_status_name(sts[k]));
		reset();
		CU_ASSERT_EQUAL(run(o, &failed), AIETH_OK);
		if (strcmp(aieth_error_message(), ""))
			fprintf(stderr, "\n  round trip %zu: %s\n", k, aieth_error_message());
		CU_ASSERT_EQUAL(failed, 0);
		CU_ASSERT_EQUAL(res.status, sts[k]);
		CU_ASSERT_STRING_EQUAL(res.msg, w.msg);
		CU_ASSERT_EQUAL(res.total_cycles, w.total_cycles);
		CU_ASSERT_EQUAL(res.have_progress, w.have_progress);
		CU_ASSERT_EQUAL(memcmp(perf, wperf, sizeof perf), 0);
		for (i = 0; i < N; i++) {
			const aieth_dev_chan *a[2] = {&w.tx[i], &w.rx[i]},
					     *b[2] = {&res.tx[i], &res.rx[i]};
			int d;
			for (d = 0; d < 2; d++) {
				CU_ASSERT_EQUAL(b[d]->moved_bytes, a[d]->moved_bytes);
				CU_ASSERT_EQUAL(b[d]->stalled_since, a[d]->stalled_since);
				CU_ASSERT_EQUAL(b[d]->first_cycle, a[d]->first_cycle);
				CU_ASSERT_EQUAL(b[d]->last_cycle, a[d]->last_cycle);
				CU_ASSERT_EQUAL(b[d]->connected, a[d]->connected);
			}
		}
		aieth__dev_result_free(&w);
	}
	/* a failed device call: its message only, read as such */
	{
		struct json_object *o = json_object_new_object();
		int failed = 0;
		json_object_object_add(o, "id", json_object_new_string("t-1"));
		json_object_object_add(o, "state", json_object_new_string(aieth__dev_txn_state[2]));
		add_echo(o);
		/* as th_server writes it (srv_txn_json.c) */
		json_object_object_add(o, "failed", json_object_new_boolean(1));
		json_object_object_add(o, "message", json_object_new_string("the board fell over"));
		reset();
		CU_ASSERT_EQUAL(run(o, &failed), AIETH_OK);
		CU_ASSERT_EQUAL(failed, 1);
		CU_ASSERT_STRING_EQUAL(res.msg, "the board fell over");
	}
	/* one set of state names; the remote backend takes only the last */
	CU_ASSERT_STRING_EQUAL(aieth__dev_txn_state[0], "awaiting_tx");
	CU_ASSERT_STRING_EQUAL(aieth__dev_txn_state[1], "running");
	CU_ASSERT_STRING_EQUAL(aieth__dev_txn_state[2], "finished");
	refused("state", "\"started\"", "state \"started\"");
	refused("state", "\"awaiting_tx\"", "state \"awaiting_tx\"");
}

static void t_valid(void)
{
	int failed = 1;
	reset();
	CU_ASSERT_EQUAL(run(reply(NULL, NULL), &failed), AIETH_OK);
	CU_ASSERT_EQUAL(failed, 0);
	CU_ASSERT_EQUAL(res.status, AIETH_TXN_DONE);
	CU_ASSERT_STRING_EQUAL(res.msg, "ok");
	CU_ASSERT_EQUAL(res.total_cycles, 1234);
	CU_ASSERT_EQUAL(res.have_progress, 1);
	CU_ASSERT_EQUAL(perf[0], 1);
	CU_ASSERT_EQUAL(perf[7], 0xffffffffffffffffull);
	CU_ASSERT_EQUAL(res.tx[1].moved_bytes, 11);
	CU_ASSERT_EQUAL(res.rx[0].moved_bytes, 12);
	CU_ASSERT_EQUAL(res.rx[1].last_cycle, 8);
	CU_ASSERT_EQUAL(res.tx[0].first_cycle, 1);
	CU_ASSERT_EQUAL(res.tx[0].connected, 1);
	CU_ASSERT_EQUAL(res.rx[0].connected, 0);
	/* each status of the documented set but pending, with its name */
	reset();
	CU_ASSERT_EQUAL(run(reply2("status", "2", "status_name", "\"TIMEOUT\""), &failed),
			AIETH_OK);
	CU_ASSERT_EQUAL(res.status, AIETH_TXN_TIMEOUT);
	reset();
	CU_ASSERT_EQUAL(run(reply2("status", "3", "status_name", "\"FAILED\""), &failed), AIETH_OK);
	CU_ASSERT_EQUAL(res.status, AIETH_TXN_FAILED);
	reset();
	CU_ASSERT_EQUAL(run(reply2("status", "4", "status_name", "\"INTERRUPTED\""), &failed),
			AIETH_OK);
	CU_ASSERT_EQUAL(res.status, AIETH_TXN_INTERRUPTED);
}

static void t_status(void)
{
	refused("status", "99", "status");
	refused("status", "-1", "status");
	refused("status", "0", "status"); /* pending: not an outcome */
	refused("status", "5", "status");
	refused("status", "\"1\"", "status");
	refused("status", "1.0", "status");
	refused("status", NULL, "status");
	refused("status", "9223372036854775808", "status");
	/* the name must name the number */
	refused("status", "2", "\"status_name\" \"DONE\" does not name \"status\" 2 (TIMEOUT)");
	refused("status_name", "\"done\"", "\"status_name\"");
	refused("status_name", "1", "status_name: expected a string");
	refused("status_name", NULL, "status_name");
}

static void t_failed(void)
{
	int failed = 0;
	reset();
	/* a device failure on the server: its message, no result */
	CU_ASSERT_EQUAL(run(reply("failed", "true"), &failed), AIETH_OK);
	CU_ASSERT_EQUAL(failed, 1);
	CU_ASSERT_STRING_EQUAL(res.msg, "ok");
	CU_ASSERT_EQUAL(chans[0].moved_bytes, 0xABABABABABABABABull);
	refused("failed", "1", "\"failed\" must be true or false");
	refused("failed", NULL, "\"failed\" is missing");
}

static void t_fields(void)
{
	refused("id", "\"t-2\"", "id \"t-2\"");
	refused("state", "\"running\"", "state \"running\"");
	refused("message", "5", "message");
	refused("message", NULL, "message");
	refused("total_cycles", "-3", "total_cycles");
	refused("have_progress", "\"yes\"", "have_progress");
	refused("perf", "[\"0x1\",\"0x2\",\"0x3\",\"0x4\",\"0x5\",\"0x6\",\"0x7\"]",
		"\"perf\" must be an array of 8 words");
	refused("perf",
		"[\"0x1\",\"0x2\",\"0x3\",\"0x4\",\"0x5\",\"0x6\",\"0x7\",\"0x10000000000000000\"]",
		"\"perf\"[7]");
	refused("perf", "[\"0x1\",\"0x2\",\"0x3\",\"0x4\",\"0x5\",\"0x6\",\"0x7\",\"7\"]",
		"\"perf\"[7]");
	refused("perf", "[\"0x1\",\"0x2\",\"0x3\",\"0x4\",\"0x5\",\"0x6\",\"0x7\",8]",
		"\"perf\"[7]");
	refused("perf", "[\"0x1\",\"0x2\",\"0x3\",\"0x4\",\"0x5\",\"0x6\",\"0x7\",\"0x\"]",
		"\"perf\"[7]");
	refused("tx_moved_bytes", "[1]", "\"tx_moved_bytes\" must be an array of 2 numbers");
	refused("tx_moved_bytes", "[1,2,3]", "\"tx_moved_bytes\" must be an array of 2 numbers");
	/* the names of before 0.2 (bytes under "tx_moved") are not the protocol */
	refused2("tx_moved_bytes", NULL, "tx_moved", "[10,11]", "\"tx_moved_bytes\" is missing");
	refused2("rx_moved_bytes", NULL, "rx_moved", "[12,13]", "\"rx_moved_bytes\" is missing");
	refused("rx_last", "[1,-2]", "\"rx_last\"[1] = -2");
	refused("rx_first", "[1,\"2\"]", "\"rx_first\"[1]");
	refused("tx_since", "{}", "\"tx_since\" must be an array");
	refused("tx_connected", "[1,2]", "\"tx_connected\"[1] = 2");
	refused("rx_connected", NULL, "\"rx_connected\" is missing");
	{
		int failed;
		reset();
		CU_ASSERT_EQUAL(
			aieth__rmr_txn_result("http://x", "t-1", NULL, &wire, &res, &failed),
			AIETH_EDEVICE);
	}
}

/* The echoed fields are the submitted transaction's: another
 * channel count or image size is a protocol error naming the field, the
 * value sent and the value echoed, also in a reply that says the device
 * failed. */
static void t_echo(void)
{
	refused("channels", "3", "\"channels\" is 3, the transaction was submitted with 2");
	refused("channels", "1", "\"channels\" is 1, the transaction was submitted with 2");
	refused("tx_bytes", "16", "\"tx_bytes\" is 16, the transaction was submitted with 32");
	refused("rx_bytes", "32", "\"rx_bytes\" is 32, the transaction was submitted with 48");
	refused("rx_bytes", "0", "\"rx_bytes\" is 0, the transaction was submitted with 48");
	refused("tx_bytes", "18446744073709551615",
		"\"tx_bytes\" is 18446744073709551615, the transaction was submitted with 32");
	refused("channels", NULL, "channels");
	refused("tx_bytes", NULL, "tx_bytes");
	refused("rx_bytes", NULL, "rx_bytes");
	refused("channels", "\"2\"", "channels");
	refused("tx_bytes", "32.0", "tx_bytes");
	refused("rx_bytes", "-48", "rx_bytes");
	refused2("failed", "true", "rx_bytes", "64",
		 "\"rx_bytes\" is 64, the transaction was submitted with 48");
}

/* The reply to POST .../txns as th_server sends it for a streamed
 * transaction (srv_txn_json.c, http_txns.c), with key replaced by value
 * and key2 by value2 (JSON text; NULL: left out; key NULL: nothing
 * replaced). */
static struct json_object *created2(const char *key, const char *value, const char *key2,
				    const char *value2)
{
	struct json_object *o = json_tokener_parse(
		"{\"id\":\"t-7\",\"state\":\"running\",\"channels\":2,\"tx_bytes\":32,"
		"\"rx_bytes\":48,\"tx_received\":0,\"position\":1,"
		"\"progress\":{\"done\":0,\"total\":80},\"stream\":true}");
	const char *k[2] = {key, key2}, *v[2] = {value, value2};
	int i;
	for (i = 0; i < 2; i++)
		if (k[i]) {
			json_object_object_del(o, k[i]);
			if (v[i])
				json_object_object_add(o, k[i], json_tokener_parse(v[i]));
		}
	return o;
}

/* aieth__rmr_txn_created on o (freed), streaming asked or not: its code; tid and
 * *streamed as it left them. */
static int created_run(struct json_object *o, int asked, char *tid, size_t cap, int *streamed)
{
	int rc;
	reset();
	memset(tid, 'X', cap - 1);
	tid[cap - 1] = '\0';
	*streamed = 77;
	rc = aieth__rmr_txn_created("http://x", o, &wire, asked, tid, cap, streamed);
	json_object_put(o);
	return rc;
}

static void created_refused2(const char *key, const char *value, const char *key2,
			     const char *value2, int asked, const char *msg)
{
	char tid[24];
	int streamed;
	int rc = created_run(created2(key, value, key2, value2), asked, tid, sizeof tid, &streamed);
	CU_ASSERT_EQUAL(rc, AIETH_EDEVICE);
	if (!strstr(aieth_error_message(), msg) || !strstr(aieth_error_message(), "protocol error"))
		fprintf(stderr, "\n  %s=%s: message: %s\n  expected: %s\n", key ? key : "-",
			value ? value : "-", aieth_error_message(), msg);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), msg));
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "protocol error"));
	/* nothing of a refused reply is taken */
	CU_ASSERT_EQUAL(streamed, 77);
	CU_ASSERT_EQUAL(strspn(tid, "X"), sizeof tid - 1);
}

static void created_refused(const char *key, const char *value, const char *msg)
{
	created_refused2(key, value, NULL, NULL, 1, msg);
}

/* The create reply is checked as strictly as the wait reply, by the same
 * code for the echoed fields: another channel count or image size, or one
 * missing, is a protocol error naming the field, the value echoed and the
 * value sent; so are a state that does not match "stream", a stream that
 * was not asked for, TX bytes received before any upload and an id that
 * is not one (or does not fit: never cut). Keys it does not use (a newer
 * server's, "position", "progress") are ignored, as in the wait reply. */
static void t_created(void)
{
	char tid[24];
	int streamed;
	CU_ASSERT_EQUAL(
		created_run(created2(NULL, NULL, NULL, NULL), 1, tid, sizeof tid, &streamed),
		AIETH_OK);
	CU_ASSERT_STRING_EQUAL(tid, "t-7");
	CU_ASSERT_EQUAL(streamed, 1);
	/* a board's server: not streamed, awaiting its TX image */
	CU_ASSERT_EQUAL(created_run(created2("stream", "false", "state", "\"awaiting_tx\""), 1, tid,
				    sizeof tid, &streamed),
			AIETH_OK);
	CU_ASSERT_EQUAL(streamed, 0);
	CU_ASSERT_EQUAL(created_run(created2("stream", "false", "state", "\"awaiting_tx\""), 0, tid,
				    sizeof tid, &streamed),
			AIETH_OK);
	CU_ASSERT_EQUAL(streamed, 0);
	CU_ASSERT_EQUAL(created_run(created2("x_newer", "[1]", "amd_id", "3"), 1, tid, sizeof tid,
				    &streamed),
			AIETH_OK);
	/* an id of 23 bytes fits a buffer of 24 */
	CU_ASSERT_EQUAL(created_run(created2("id", "\"t-123456789012345678901\"", NULL, NULL), 1,
				    tid, sizeof tid, &streamed),
			AIETH_OK);
	CU_ASSERT_STRING_EQUAL(tid, "t-123456789012345678901");

	created_refused("channels", "35",
			"\"channels\" is 35, the transaction was submitted with 2");
	created_refused("channels", "1", "\"channels\" is 1, the transaction was submitted with 2");
	created_refused("tx_bytes", "16",
			"\"tx_bytes\" is 16, the transaction was submitted with 32");
	created_refused("rx_bytes", "0",
			"\"rx_bytes\" is 0, the transaction was submitted with 48");
	created_refused("channels", NULL, "channels");
	created_refused("tx_bytes", NULL, "tx_bytes");
	created_refused("rx_bytes", NULL, "rx_bytes");
	created_refused("rx_bytes", "\"48\"", "rx_bytes");
	created_refused("tx_bytes", "-32", "tx_bytes");
	created_refused("tx_received", "16", "\"tx_received\" is 16, no TX byte was uploaded yet");
	created_refused("tx_received", NULL, "tx_received");
	created_refused("tx_received", "0.0", "tx_received");
	created_refused("stream", NULL, "the transaction reply has no \"stream\": true or false");
	created_refused("stream", "\"yes\"",
			"the transaction reply has no \"stream\": true or false");
	created_refused2(NULL, NULL, NULL, NULL, 0,
			 "\"stream\" is true, the transaction was submitted with false");
	created_refused("state", "\"awaiting_tx\"",
			"\"state\" \"awaiting_tx\" (expected \"running\", \"stream\" being true)");
	created_refused2(
		"stream", "false", NULL, NULL, 1,
		"\"state\" \"running\" (expected \"awaiting_tx\", \"stream\" being false)");
	created_refused("state", "\"finished\"", "\"state\" \"finished\"");
	created_refused("state", NULL, "state");
	created_refused("id", NULL, "id");
	created_refused("id", "7", "id");
	created_refused("id", "\"\"", "\"id\" \"\" is no transaction id");
	created_refused("id", "\"t/1\"", "\"id\" \"t/1\" is no transaction id");
	created_refused("id", "\"t-1?x\"", "\"id\" \"t-1?x\" is no transaction id");
	/* 24 bytes: it would be cut to fit, and name another transaction */
	created_refused("id", "\"t-1234567890123456789012\"",
			"\"id\" \"t-1234567890123456789012\" is no transaction id (1..23 bytes");
	{
		struct json_object *a = json_tokener_parse("[1]");
		CU_ASSERT_EQUAL(created_run(a, 1, tid, sizeof tid, &streamed), AIETH_EDEVICE);
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "not a JSON object"));
		CU_ASSERT_EQUAL(created_run(NULL, 1, tid, sizeof tid, &streamed), AIETH_EDEVICE);
	}
}

static void t_session_graph(void)
{
	const char *st = NULL, *why = NULL;
	uint32_t pos = 9;
	uint64_t done = 0;
	int complete = 0;
	struct json_object *o = json_tokener_parse("{\"state\":\"queued\",\"position\":3}");
	CU_ASSERT_EQUAL(aieth__rmr_session_state("http://x", o, &st, &pos, &why), AIETH_OK);
	CU_ASSERT_STRING_EQUAL(st, "queued");
	CU_ASSERT_EQUAL(pos, 3);
	CU_ASSERT_STRING_EQUAL(why, "");
	json_object_put(o);
	o = json_tokener_parse("{\"state\":\"queued\"}");
	CU_ASSERT_EQUAL(aieth__rmr_session_state("http://x", o, &st, &pos, &why), AIETH_EDEVICE);
	json_object_put(o);
	o = json_tokener_parse("{\"state\":\"queued\",\"position\":-1}");
	CU_ASSERT_EQUAL(aieth__rmr_session_state("http://x", o, &st, &pos, &why), AIETH_EDEVICE);
	json_object_put(o);
	o = json_tokener_parse("{\"state\":\"sleeping\",\"position\":0}");
	CU_ASSERT_EQUAL(aieth__rmr_session_state("http://x", o, &st, &pos, &why), AIETH_EDEVICE);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "none of queued, active"));
	json_object_put(o);
	o = json_tokener_parse("{\"iterations_done\":7,\"complete\":true}");
	CU_ASSERT_EQUAL(aieth__rmr_graph_status("http://x", o, &done, &complete), AIETH_OK);
	CU_ASSERT_EQUAL(done, 7);
	CU_ASSERT_EQUAL(complete, 1);
	json_object_put(o);
	o = json_tokener_parse("{\"iterations_done\":-7,\"complete\":true}");
	CU_ASSERT_EQUAL(aieth__rmr_graph_status("http://x", o, &done, &complete), AIETH_EDEVICE);
	json_object_put(o);
	o = json_tokener_parse("{\"iterations_done\":7,\"complete\":1}");
	CU_ASSERT_EQUAL(aieth__rmr_graph_status("http://x", o, &done, &complete), AIETH_EDEVICE);
	json_object_put(o);
	o = json_tokener_parse(
		"{\"server\":\"th_server\",\"version\":\"0.1.0\",\"backend\":\"emu\"}");
	CU_ASSERT_EQUAL(aieth__rmr_health("http://x", o), AIETH_OK);
	json_object_put(o);
	o = json_tokener_parse("{\"server\":\"th_server\",\"version\":\"0.1.0\"}");
	CU_ASSERT_EQUAL(aieth__rmr_health("http://x", o), AIETH_EDEVICE);
	json_object_put(o);
	o = json_tokener_parse(
		"{\"server\":\"th\\nserver\",\"version\":\"0.1.0\",\"backend\":\"emu\"}");
	CU_ASSERT_EQUAL(aieth__rmr_health("http://x", o), AIETH_EDEVICE);
	json_object_put(o);
	o = json_tokener_parse("{\"server\":\"th_server\",\"version\":\"0.1.0\",\"backend\":"
			       "\"emuemuemuemuemuemuemuemuemuemuemuemuemuemu\"}");
	CU_ASSERT_EQUAL(aieth__rmr_health("http://x", o), AIETH_EDEVICE);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "1..40 printable"));
	json_object_put(o);
}

/* GET .../graphs/NAME/ports: one port's JSON with key set to value (raw
 * JSON; NULL: the key left out). */
static struct json_object *port_reply(const char *key, const char *value)
{
	static const char *const keys[] = {"plio", "direction", "kernel", "bytes_per_iteration"};
	static const char *const vals[] = {"\"PLIO_01_FROM_AIE\"", "\"from_aie\"", "2", "128"};
	char text[512];
	size_t i, len;
	len = (size_t)snprintf(text, sizeof text,
			       "{\"ports\":[{\"plio\":\"PLIO_01_TO_AIE\",\"direction\":"
			       "\"to_aie\",\"kernel\":0,\"bytes_per_iteration\":64},{");
	for (i = 0; i < 4; i++) {
		const char *v = !strcmp(keys[i], key) ? value : vals[i];
		if (v)
			len += (size_t)snprintf(text + len, sizeof text - len, "%s\"%s\":%s",
						text[len - 1] == '{' ? "" : ",", keys[i], v);
	}
	snprintf(text + len, sizeof text - len, "}]}");
	return json_tokener_parse(text);
}

static void ports_refused(const char *key, const char *value, const char *msg)
{
	aieth_graph_port p[2];
	size_t n = 77;
	struct json_object *o = port_reply(key, value);
	memset(p, 0xab, sizeof p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(aieth__rmr_graph_ports("http://srv:1", o, p, 2, &n), AIETH_EDEVICE);
	CU_ASSERT_EQUAL(n, 77);
	CU_ASSERT_EQUAL(p[0].kernel, 0xabababab); /* nothing written */
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "server http://srv:1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "ports[1]"));
	if (!strstr(aieth_error_message(), msg))
		fprintf(stderr, "\n%s=%s: %s\n", key, value ? value : "(absent)",
			aieth_error_message());
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), msg));
	json_object_put(o);
}

static void t_ports(void)
{
	aieth_graph_port p[2];
	size_t n = 0;
	struct json_object *o = port_reply("", NULL), *big, *a;
	int i;
	CU_ASSERT_EQUAL_FATAL(aieth__rmr_graph_ports("http://x", o, p, 2, &n), AIETH_OK);
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_STRING_EQUAL(p[0].plio, "PLIO_01_TO_AIE");
	CU_ASSERT_EQUAL(p[0].to_aie, 1);
	CU_ASSERT_EQUAL(p[0].bytes_per_iteration, 64);
	CU_ASSERT_STRING_EQUAL(p[1].plio, "PLIO_01_FROM_AIE");
	CU_ASSERT_EQUAL(p[1].to_aie, 0);
	CU_ASSERT_EQUAL(p[1].kernel, 2);
	CU_ASSERT_EQUAL(p[1].bytes_per_iteration, 128);
	/* the count without room (as aieth_graph_ports' first call) */
	n = 0;
	CU_ASSERT_EQUAL(aieth__rmr_graph_ports("http://x", o, NULL, 0, &n), AIETH_OK);
	CU_ASSERT_EQUAL(n, 2);
	json_object_put(o);
	ports_refused("direction", "\"sideways\"", "\"direction\" \"sideways\" is neither");
	ports_refused("direction", "1", "direction");
	ports_refused("direction", NULL, "direction");
	ports_refused("plio", "\"\"", "1..31 printable ASCII bytes");
	ports_refused("plio", "\"PLIO_01_FROM_AIE_0123456789_0123\"", "1..31 printable");
	ports_refused("plio", "\"PLIO 1\"", "1..31 printable");
	ports_refused("plio", "7", "plio");
	ports_refused("kernel", "\"2\"", "kernel");
	ports_refused("kernel", "-1", "kernel");
	ports_refused("kernel", "4294967296", "kernel");
	ports_refused("bytes_per_iteration", "0", "bytes_per_iteration");
	ports_refused("bytes_per_iteration", "1.5", "bytes_per_iteration");
	ports_refused("bytes_per_iteration", NULL, "bytes_per_iteration");
	/* not an array, and one entry more than the bound */
	o = json_tokener_parse("{\"ports\":{}}");
	CU_ASSERT_EQUAL(aieth__rmr_graph_ports("http://x", o, p, 2, &n), AIETH_EDEVICE);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "\"ports\" must be an array"));
	json_object_put(o);
	big = json_object_new_object();
	a = json_object_new_array();
	for (i = 0; i <= AIETH_GRAPH_PORTS_MAX; i++)
		json_object_array_add(a, json_object_new_object());
	json_object_object_add(big, "ports", a);
	n = 77;
	CU_ASSERT_EQUAL(aieth__rmr_graph_ports("http://x", big, NULL, 0, &n), AIETH_EDEVICE);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "4097 entries, the limit is 4096"));
	CU_ASSERT_EQUAL(n, 77);
	json_object_put(big);
}

/* aieth_remote_opts.pinned_key: "sha256//" and a SHA-256's base64, for an
 * https server only, checked before any request; a version 2 struct has
 * none (its bytes end before it). */
static void t_pinned_key(void)
{
	static const char *const good = "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
	static const char *const bad[] = {
		"md5//x",
		"sha256//",
		"sha256//AAAA=",
		"sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
		"sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA*AAAAAAA=",
		"sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=;sha256//x",
		NULL};
	aieth_session_opts o;
	aieth_remote_opts remote = AIETH_REMOTE_OPTS_INIT, v2;
	aieth_session *s = NULL;
	size_t i;
	aieth_session_opts_init(&o, AIETH_SESSION_OPTS_VERSION);
	o.remote = &remote;
	o.board = "vck190";
	o.backend = "remote";
	remote.server = "https://127.0.0.1:1";
	for (i = 0; bad[i]; i++) {
		remote.pinned_key = bad[i];
		CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "pinned_key"));
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "44 characters"));
	}
	remote.pinned_key = good;
	remote.server = "http://127.0.0.1:1";
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "only an https:// server"));
	/* a good one gets as far as connecting (nothing listens on port 1) */
	remote.server = "https://127.0.0.1:1";
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EDEVICE);
	CU_ASSERT_PTR_NULL(s);
	/* version 2: the field is not its, never read */
	memset(&v2, 0x5a, sizeof v2);
	CU_ASSERT_EQUAL(aieth_remote_opts_init(&v2, 2), AIETH_OK);
	CU_ASSERT_EQUAL(v2.version, 2);
	CU_ASSERT_EQUAL(v2.concurrent_io, 0);
	v2.server = "http://127.0.0.1:1"; /* pinned_key's bytes: 0x5a..., unread */
	o.remote = &v2;
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EDEVICE);
	CU_ASSERT_PTR_NULL(strstr(aieth_error_message(), "pinned_key"));
}

/* A server URL with user:password@ is refused before any request, and the
 * message does not repeat it. */
static void t_userinfo(void)
{
	static const char *const urls[] = {"http://u:s3cretpw@127.0.0.1:1",
					   "https://s3cretpw@127.0.0.1:1/x",
					   "http://u:s3cretpw@[::1]:1?a=b", NULL};
	aieth_session_opts o;
	aieth_remote_opts remote = AIETH_REMOTE_OPTS_INIT;
	aieth_session *s = NULL;
	size_t i;
	for (i = 0; urls[i]; i++) {
		aieth_session_opts_init(&o, AIETH_SESSION_OPTS_VERSION);
		o.remote = &remote;
		o.board = "vck190";
		o.backend = "remote";
		remote.server = urls[i];
		CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "user:password@"));
		CU_ASSERT_PTR_NULL(strstr(aieth_error_message(), "s3cretpw"));
	}
	/* an '@' after the authority is not a user part: this one gets as far
	 * as connecting (nothing listens on port 1) */
	aieth_session_opts_init(&o, AIETH_SESSION_OPTS_VERSION);
	o.remote = &remote;
	o.board = "vck190";
	o.backend = "remote";
	remote.server = "http://127.0.0.1:1/a@b";
	CU_ASSERT_EQUAL(aieth_session_open(&s, &o), AIETH_EDEVICE);
}

/* GET /v1/sensors: one sensor of kind/unit/value (JSON texts), name. */
static int sensors_of(const char *text, aieth_sensor *out, size_t cap, size_t *n, char *notes,
		      size_t ncap)
{
	struct json_object *o = json_tokener_parse(text);
	int rc = aieth__rmr_sensors("http://x", o, out, cap, n, notes, ncap);
	json_object_put(o);
	return rc;
}

static void sensors_refused(const char *text, const char *msg)
{
	aieth_sensor out[2];
	size_t n = 77;
	int rc;
	memset(out, 0xAB, sizeof out);
	rc = sensors_of(text, out, 2, &n, NULL, 0);
	CU_ASSERT_EQUAL(rc, AIETH_EDEVICE);
	if (!strstr(aieth_error_message(), msg) || !strstr(aieth_error_message(), "http://x"))
		fprintf(stderr, "\n  %s\n  message: %s\n  expected: %s\n", text,
			aieth_error_message(), msg);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), msg));
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "server http://x: protocol error"));
	/* nothing of a refused reply is taken */
	CU_ASSERT_EQUAL(n, 77);
	CU_ASSERT_EQUAL((unsigned char)out[0].name[0], 0xAB);
}

#define S1 \
	"{\"name\":\"ina226@hwmon0/power1\",\"source\":\"hwmon:ina226\",\"kind\":\"power\",\"unit\":\"W\""

static void t_sensors(void)
{
	aieth_sensor out[2];
	char notes[64], big[80000], *p;
	size_t n = 0, i;
	CU_ASSERT_EQUAL_FATAL(sensors_of("{\"available\":true,\"sensors\":[" S1 ",\"value\":2.5},"
					 "{\"name\":\"sysmon@iio:device0/temp160_temp\",\"source\":"
					 "\"xlnx,versal-sysmon\",\"kind\":\"temperature\",\"unit\":"
					 "\"\xc2\xb0"
					 "C\",\"value\":null},"
					 "{\"name\":\"c\",\"source\":\"s\",\"kind\":\"current\","
					 "\"unit\":\"A\",\"value\":1}],"
					 "\"notes\":[\"a: not sampled\",\"b: left out\"]}",
					 out, 2, &n, notes, sizeof notes),
			      AIETH_OK);
	CU_ASSERT_EQUAL(n, 3); /* all counted, two kept */
	CU_ASSERT_STRING_EQUAL(out[0].name, "ina226@hwmon0/power1");
	CU_ASSERT_STRING_EQUAL(out[0].source, "hwmon:ina226");
	CU_ASSERT_EQUAL(out[0].kind, AIETH_SENSOR_POWER);
	CU_ASSERT_EQUAL(out[0].valid, 1);
	CU_ASSERT_DOUBLE_EQUAL(out[0].value, 2.5, 1e-12);
	CU_ASSERT_EQUAL(out[1].kind, AIETH_SENSOR_TEMPERATURE);
	CU_ASSERT_EQUAL(out[1].valid, 0);
	CU_ASSERT_STRING_EQUAL(notes, "a: not sampled\nb: left out");
	/* notes cut to fit */
	CU_ASSERT_EQUAL(sensors_of("{\"available\":true,\"sensors\":[],\"notes\":[\"abcdefgh\"]}",
				   out, 2, &n, notes, 5),
			AIETH_OK);
	CU_ASSERT_STRING_EQUAL(notes, "abcd");
	CU_ASSERT_EQUAL(n, 0);
	/* the emulated board behind the server */
	CU_ASSERT_EQUAL(sensors_of("{\"available\":false,\"sensors\":[],\"notes\":[]}", out, 2, &n,
				   NULL, 0),
			AIETH_EUNSUPPORTED);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(),
				      "server http://x: the server's board is "
				      "emulated"));

	sensors_refused("[]", "not a JSON object");
	sensors_refused("{\"sensors\":[],\"notes\":[]}", "\"available\" is missing");
	sensors_refused("{\"available\":1,\"sensors\":[],\"notes\":[]}",
			"\"available\" must be true or false");
	sensors_refused("{\"available\":true,\"notes\":[]}", "\"sensors\" must be an array");
	sensors_refused("{\"available\":true,\"sensors\":{},\"notes\":[]}",
			"\"sensors\" must be an array");
	sensors_refused("{\"available\":true,\"sensors\":[]}", "\"notes\" is missing");
	sensors_refused("{\"available\":true,\"sensors\":[],\"notes\":[1]}",
			"\"notes\"[0] must be a string");
	sensors_refused("{\"available\":true,\"sensors\":[],\"notes\":[\"a\\nb\"]}",
			"\"notes\"[0]: 1..300 bytes");
	sensors_refused("{\"available\":false,\"sensors\":[" S1 ",\"value\":1}],\"notes\":[]}",
			"with \"available\" false");
	sensors_refused("{\"available\":true,\"sensors\":[1],\"notes\":[]}",
			"\"sensors\"[0]: not a JSON object");
	sensors_refused("{\"available\":true,\"sensors\":[" S1 "}],\"notes\":[]}",
			"\"value\" is missing");
	sensors_refused("{\"available\":true,\"sensors\":[" S1 ",\"value\":\"2.5\"}],\"notes\":[]}",
			"\"value\" must be a number or null");
	sensors_refused("{\"available\":true,\"sensors\":[" S1 ",\"value\":1e300}],\"notes\":[]}",
			"is not a reading");
	sensors_refused(
		"{\"available\":true,\"sensors\":[{\"name\":\"a\",\"source\":\"s\",\"kind\":"
		"\"humidity\",\"unit\":\"%\",\"value\":1}],\"notes\":[]}",
		"\"kind\" \"humidity\" is none of temperature, voltage, power, current");
	sensors_refused(
		"{\"available\":true,\"sensors\":[{\"name\":\"a\",\"source\":\"s\",\"kind\":"
		"\"power\",\"unit\":\"mW\",\"value\":1}],\"notes\":[]}",
		"\"unit\" \"mW\": a power is in W");
	sensors_refused("{\"available\":true,\"sensors\":[{\"source\":\"s\",\"kind\":"
			"\"power\",\"unit\":\"W\",\"value\":1}],\"notes\":[]}",
			"\"sensors\"[0]");
	sensors_refused("{\"available\":true,\"sensors\":[{\"name\":7,\"source\":\"s\",\"kind\":"
			"\"power\",\"unit\":\"W\",\"value\":1}],\"notes\":[]}",
			"name");
	sensors_refused("{\"available\":true,\"sensors\":[{\"name\":\"a\\u0001\",\"source\":\"s\","
			"\"kind\":\"power\",\"unit\":\"W\",\"value\":1}],\"notes\":[]}",
			"\"name\" \"a\\x01\": 1..127 printable ASCII bytes");
	sensors_refused(
		"{\"available\":true,\"sensors\":[" S1 ",\"value\":1}," S1 ",\"value\":2}],"
		"\"notes\":[]}",
		"\"sensors\"[1] \"name\" \"ina226@hwmon0/power1\" is also \"sensors\"[0]'s");
	/* an over-long name, too many sensors */
	memset(big, 0, sizeof big);
	p = big + sprintf(big, "{\"available\":true,\"sensors\":[{\"name\":\"");
	memset(p, 'n', 128);
	sprintf(p + 128, "\",\"source\":\"s\",\"kind\":\"power\",\"unit\":\"W\",\"value\":1}],"
			 "\"notes\":[]}");
	sensors_refused(big, "1..127 printable ASCII bytes are needed");
	p = big + sprintf(big, "{\"available\":true,\"sensors\":[");
	for (i = 0; i <= AIETH_SENSORS_MAX; i++)
		p += sprintf(p,
			     "%s{\"name\":\"s%zu\",\"source\":\"s\",\"kind\":\"power\",\"unit\":"
			     "\"W\",\"value\":1}",
			     i ? "," : "", i);
	sprintf(p, "],\"notes\":[]}");
	sensors_refused(big, "257 sensors, the limit is 256");
}

TU_MAIN("remote_reply", {"a valid result is taken whole", t_valid},
	{"core's serializer and this parser agree (round trip)", t_round_trip},
	{"a server URL with user:password@ is refused", t_userinfo},
	{"a status outside the protocol is refused", t_status},
	{"a device failure on the server", t_failed},
	{"every field checked: type, range, length", t_fields},
	{"the echoed fields are the submitted transaction's", t_echo},
	{"a new transaction's reply: every field checked", t_created},
	{"session and graph replies", t_session_graph},
	{"the sensors reply: every field checked, nothing taken when refused", t_sensors},
	{"a graph's ports: every field checked, the count bounded", t_ports},
	{"pinned_key: its form, https only, not in version 2", t_pinned_key})

#else

static void t_none(void)
{ /* built without libcurl: no remote backend to test */
}

TU_MAIN("remote_reply", {"no libcurl in this build", t_none})

#endif
