/* SPDX-License-Identifier: MIT */
/*
 * test_device.c - aieth/device.h, a device driven with encoded
 * transactions: what a start refuses, the wait and the result (status,
 * perf words, the JSON form), records, the gates of a streamed image, and
 * handles that outlive their session.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "aieth.h"
#include "pld/protocol.h"
#include "tu.h"

#define SIZE 4096u /* bytes each way */

typedef struct {
	aieth_session *s;
	const aieth_board_info *bi;
	uint64_t *cfg;
	size_t ncfg;
	uint8_t tx[SIZE], rx[SIZE];
} fixture;

/* A FUNC transaction of one SIZE-byte channel each way on the loopback
 * model: the RX image comes back equal to the TX image. */
static int fixture_open(fixture *f)
{
	aieth_plio pl[2];
	pld_arg pa[2];
	pld_txn w;
	char err[256];
	int i;
	memset(f, 0, sizeof *f);
	f->s = tu_session("vck190", "loopback", NULL, 0);
	if (!f->s)
		return -1;
	f->bi = aieth_board_get_info(aieth_session_board(f->s));
	if (aieth_board_plio_find(aieth_session_board(f->s), "PLIO_01_TO_AIE", &pl[0]) ||
	    aieth_board_plio_find(aieth_session_board(f->s), "PLIO_01_FROM_AIE", &pl[1]))
		return -1;
	memset(pa, 0, sizeof pa);
	for (i = 0; i < 2; i++) {
		pa[i].dir = i;
		pa[i].index = pl[i].index;
		pa[i].size = SIZE;
		pa[i].reps = 1;
	}
	if (aieth__pld_txn_encode(&w, f->bi->channels, f->bi->uram_depth_words, PLD_MODE_FUNC, pa,
				  2, err, sizeof err) ||
	    w.tx.size != SIZE || w.rx.size != SIZE)
		return -1;
	f->ncfg = pld_cfg_count(f->bi->channels);
	f->cfg = malloc(f->ncfg * sizeof *f->cfg);
	if (!f->cfg)
		return -1;
	memcpy(f->cfg, w.cfg, f->ncfg * sizeof *f->cfg);
	aieth__pld_txn_release(&w);
	for (i = 0; i < (int)SIZE; i++)
		f->tx[i] = (uint8_t)(i * 13 + 5);
	return aieth_graph_run(f->s, "gr", AIETH_ITERATIONS_FOREVER);
}

static void fixture_close(fixture *f)
{
	if (f->s) {
		aieth_graph_end(f->s, "gr");
		aieth_session_close(f->s);
	}
	free(f->cfg);
}

static aieth_dev_txn_opts opts_of(fixture *f)
{
	aieth_dev_txn_opts o = AIETH_DEV_TXN_OPTS_INIT;
	o.cfg = f->cfg;
	o.cfg_words = f->ncfg;
	o.depth = f->bi->uram_depth_words;
	o.tx = f->tx;
	o.tx_size = SIZE;
	o.rx = f->rx;
	o.rx_size = SIZE;
	return o;
}

static void test_opts(void)
{
	fixture f;
	aieth_dev_txn_opts o;
	aieth_dev_txn *t = (aieth_dev_txn *)&o;
	TU_OPTS_INIT(aieth_dev_txn_opts, AIETH_DEV_TXN_OPTS_INIT, aieth_dev_txn_opts_init,
		     AIETH_DEV_TXN_OPTS_VERSION);
	CU_ASSERT_EQUAL_FATAL(fixture_open(&f), AIETH_OK);
	o = opts_of(&f);
	TU_OPTS_REFUSED(aieth_dev_txn_start(f.s, &o, &t), o.version, "aieth_dev_txn_start",
			"AIETH_DEV_TXN_OPTS_INIT or aieth_dev_txn_opts_init",
			AIETH_DEV_TXN_OPTS_VERSION);
	CU_ASSERT_PTR_NULL(t); /* set only on success */
	CU_ASSERT_EQUAL(aieth_dev_txn_start(f.s, NULL, &t), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_dev_txn_start(f.s, &o, NULL), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_dev_txn_start(NULL, &o, &t), AIETH_EINVAL);
	/* the cfg words of another board */
	o.cfg_words--;
	CU_ASSERT_EQUAL(aieth_dev_txn_start(f.s, &o, &t), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "cfg words"));
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), f.bi->name));
	o = opts_of(&f);
	o.cfg = NULL;
	CU_ASSERT_EQUAL(aieth_dev_txn_start(f.s, &o, &t), AIETH_EINVAL);
	o = opts_of(&f);
	o.depth++;
	CU_ASSERT_EQUAL(aieth_dev_txn_start(f.s, &o, &t), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "depth"));
	o = opts_of(&f);
	o.rx = NULL;
	CU_ASSERT_EQUAL(aieth_dev_txn_start(f.s, &o, &t), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "at NULL"));
	CU_ASSERT_PTR_NULL(t);
	fixture_close(&f);
}

/* k of the JSON result's array key, or UINT64_MAX */
static uint64_t at(struct json_object *o, const char *key, uint32_t k)
{
	struct json_object *a;
	if (!json_object_object_get_ex(o, key, &a) || !json_object_is_type(a, json_type_array) ||
	    k >= json_object_array_length(a))
		return UINT64_MAX;
	return json_object_get_uint64(json_object_array_get_idx(a, (int)k));
}

/* t's result, parsed (aieth_dev_txn_result_json); NULL on failure */
static struct json_object *result_of(const aieth_dev_txn *t)
{
	char *text = aieth_dev_txn_result_json(t);
	struct json_object *j = text ? json_tokener_parse(text) : NULL;
	free(text);
	return j;
}

static void test_run_and_result(void)
{
	fixture f;
	aieth_dev_txn_opts o;
	aieth_dev_txn *t = NULL;
	const uint64_t *perf;
	struct json_object *j, *v;
	size_t n = 0;
	aieth_plio pl;
	CU_ASSERT_EQUAL_FATAL(fixture_open(&f), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_dev_streams(f.s), 1); /* the emulated board */
	o = opts_of(&f);
	CU_ASSERT_EQUAL_FATAL(aieth_dev_txn_start(f.s, &o, &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_dev_txn_status(t), AIETH_TXN_PENDING);
	/* the cfg words were copied: the caller's may change now */
	memset(f.cfg, 0xff, f.ncfg * sizeof *f.cfg);
	CU_ASSERT_EQUAL_FATAL(aieth_dev_txn_wait(t, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_dev_txn_status(t), AIETH_TXN_DONE);
	CU_ASSERT_STRING_EQUAL(aieth_dev_txn_message(t), "");
	CU_ASSERT(aieth_dev_txn_total_cycles(t) > SIZE / 16);
	CU_ASSERT_EQUAL(memcmp(f.tx, f.rx, SIZE), 0);
	perf = aieth_dev_txn_perf(t, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(perf);
	CU_ASSERT_EQUAL(n, pld_perf_count(f.bi->channels));
	CU_ASSERT_EQUAL(aieth_dev_txn_wait(t, 0), AIETH_ESTATE); /* waited once */
	j = result_of(t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_TRUE(json_object_object_get_ex(j, "status_name", &v));
	CU_ASSERT_STRING_EQUAL(json_object_get_string(v), "DONE");
	CU_ASSERT_TRUE(json_object_object_get_ex(j, "total_cycles", &v));
	CU_ASSERT_EQUAL(json_object_get_uint64(v), aieth_dev_txn_total_cycles(t));
	CU_ASSERT_FALSE(json_object_object_get_ex(j, "failed", &v)); /* the relay's word */
	CU_ASSERT_EQUAL_FATAL(
		aieth_board_plio_find(aieth_session_board(f.s), "PLIO_01_TO_AIE", &pl), AIETH_OK);
	CU_ASSERT_EQUAL(at(j, "tx_moved_bytes", pl.index), SIZE);
	CU_ASSERT_EQUAL(at(j, "tx_connected", pl.index), 1);
	/* the perf words as hex, TX first[] first */
	CU_ASSERT_TRUE(json_object_object_get_ex(j, "perf", &v));
	CU_ASSERT_EQUAL(json_object_array_length(v), n);
	CU_ASSERT_EQUAL(strtoull(json_object_get_string(json_object_array_get_idx(v, 0)), NULL, 16),
			perf[0]);
	json_object_put(j);
	/* the result outlives the session */
	fixture_close(&f);
	CU_ASSERT_EQUAL(aieth_dev_streams(f.s), 0);
	CU_ASSERT_EQUAL(aieth_dev_txn_status(t), AIETH_TXN_DONE);
	CU_ASSERT_PTR_NOT_NULL(aieth_dev_txn_perf(t, &n));
	aieth_dev_txn_free(t);
	/* a freed handle is told apart, never read */
	CU_ASSERT_EQUAL(aieth_dev_txn_status(t), AIETH_TXN_FAILED);
	CU_ASSERT_STRING_EQUAL(aieth_dev_txn_message(t), "not a live device transaction");
	CU_ASSERT_PTR_NULL(aieth_dev_txn_perf(t, &n));
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_PTR_NULL(aieth_dev_txn_result_json(t));
	CU_ASSERT_EQUAL(aieth_dev_txn_wait(t, 0), AIETH_EINVAL);
	aieth_dev_txn_free(t); /* twice: nothing */
	aieth_dev_txn_free(NULL);
}

static void test_record(void)
{
	aieth_dev_txn *t = NULL;
	struct json_object *j, *v;
	size_t n = 7;
	CU_ASSERT_EQUAL(aieth_dev_txn_record(4, AIETH_TXN_FAILED, "refused: \"x\"", NULL),
			AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_dev_txn_record(4, (aieth_txn_status)9, "x", &t), AIETH_EINVAL);
	CU_ASSERT_PTR_NULL(t);
	CU_ASSERT_EQUAL_FATAL(aieth_dev_txn_record(4, AIETH_TXN_FAILED, "refused: \"x\"", &t),
			      AIETH_OK);
	CU_ASSERT_EQUAL(aieth_dev_txn_status(t), AIETH_TXN_FAILED);
	CU_ASSERT_STRING_EQUAL(aieth_dev_txn_message(t), "refused: \"x\"");
	CU_ASSERT_PTR_NULL(aieth_dev_txn_perf(t, &n));
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(aieth_dev_txn_wait(t, 0), AIETH_ESTATE); /* never started */
	j = result_of(t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_TRUE(json_object_object_get_ex(j, "message", &v));
	CU_ASSERT_STRING_EQUAL(json_object_get_string(v), "refused: \"x\"");
	CU_ASSERT_FALSE(json_object_object_get_ex(j, "perf", &v));
	CU_ASSERT_EQUAL(at(j, "rx_moved_bytes", 3), 0);
	CU_ASSERT_EQUAL(at(j, "rx_moved_bytes", 4), UINT64_MAX); /* 4 channels */
	json_object_put(j);
	aieth_dev_txn_free(t);
}

/* The gates of a streamed transaction: the device asks for TX bytes up to
 * the image's end, in order, and says which RX bytes it wrote. */
typedef struct {
	uint64_t need_max, need_calls, wrote_bytes, wrote_calls, last_end;
	int out_of_order;
} gates;

static void g_need(void *ctx, uint64_t end)
{
	gates *g = ctx;
	if (end < g->last_end)
		g->out_of_order = 1;
	g->last_end = end;
	g->need_calls++;
	if (end > g->need_max)
		g->need_max = end;
}

static void g_wrote(void *ctx, uint64_t off, uint64_t len)
{
	gates *g = ctx;
	(void)off;
	g->wrote_calls++;
	g->wrote_bytes += len;
}

static void test_gates(void)
{
	fixture f;
	aieth_dev_txn_opts o;
	aieth_dev_txn *t = NULL;
	gates g;
	memset(&g, 0, sizeof g);
	CU_ASSERT_EQUAL_FATAL(fixture_open(&f), AIETH_OK);
	o = opts_of(&f);
	o.tx_need = g_need;
	o.rx_wrote = g_wrote;
	o.gate_ctx = &g;
	CU_ASSERT_EQUAL_FATAL(aieth_dev_txn_start(f.s, &o, &t), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_dev_txn_wait(t, 0), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_dev_txn_status(t), AIETH_TXN_DONE);
	CU_ASSERT(g.need_calls > 0);
	CU_ASSERT_EQUAL(g.need_max, SIZE);
	CU_ASSERT_EQUAL(g.out_of_order, 0);
	CU_ASSERT(g.wrote_calls > 0);
	CU_ASSERT_EQUAL(g.wrote_bytes, SIZE);
	CU_ASSERT_EQUAL(memcmp(f.tx, f.rx, SIZE), 0);
	aieth_dev_txn_free(t);
	fixture_close(&f);
}

TU_MAIN("device", {"options and what a start refuses", test_opts},
	{"a run, its result, a handle past its session", test_run_and_result},
	{"a record of a refused transaction", test_record},
	{"a streamed image's gates", test_gates})
