/* SPDX-License-Identifier: MIT */
/*
 * fuzz_amd_log.c - libFuzzer target for logs of AMD's printPerf lines as
 * run_test calibrate reads them: the parser (runner/amd_log.c) and the
 * matching with a description's transactions (runner/calibrate_log.c). The
 * input is the log. Checked invariants:
 *  - the parser either keeps 1 to AMD_LOG_MAX_EVENTS events, in line order,
 *    each on a line of the file, channels 1..AMD_LOG_MAX_CHANNEL, or fails
 *    with a message that starts with the file name and keeps nothing;
 *  - matched with a fixed description (two transactions: PLIO_01 TX and RX
 *    of 4096 bytes, then PLIO_02 TX of 8192 bytes twice), it either gives
 *    one board transaction per description transaction, every channel in
 *    the description's order with last_cycle >= first_cycle and cycles their
 *    difference, or fails naming the file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "fuzz_check.h"
#include "report/report_model.h"
#include "runner/amd_log.h"
#include "runner/calibrate_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct json_object *chan(const char *plio, int64_t size, int64_t rep)
{
	struct json_object *c = json_object_new_object();
	json_object_object_add(c, "plio", json_object_new_string(plio));
	json_object_object_add(c, "size_bytes", json_object_new_int64(size));
	json_object_object_add(c, "repetition", json_object_new_int64(rep));
	return c;
}

static struct json_object *txn(const char *name, struct json_object *c0, struct json_object *c1)
{
	struct json_object *t = json_object_new_object(), *a = json_object_new_array();
	json_object_object_add(t, "name", json_object_new_string(name));
	json_object_object_add(t, "mode", json_object_new_string("func"));
	json_object_array_add(a, c0);
	if (c1)
		json_object_array_add(a, c1);
	json_object_object_add(t, "channels", a);
	return t;
}

static struct json_object *description(void)
{
	struct json_object *t = json_object_new_object(), *a = json_object_new_array();
	json_object_object_add(t, "name", json_object_new_string("fz"));
	json_object_array_add(
		a, txn("a", chan("PLIO_01_TO_AIE", 4096, 1), chan("PLIO_01_FROM_AIE", 4096, 1)));
	json_object_array_add(a, txn("b", chan("PLIO_02_TO_AIE", 8192, 2), NULL));
	json_object_object_add(t, "transactions", a);
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct json_object *et;
	aieth__amd_log l;
	struct json_object *bt = NULL, *txs;
	size_t i, j;
	if (!et)
		et = description();
	if (aieth__amd_log_parse("fuzz.log", (const char *)data, size, &l) != AIETH_OK) {
		CHECK(l.n == 0 && l.ev == NULL);
		CHECK(strncmp(aieth_error_message(), "fuzz.log", 8) == 0);
		return 0;
	}
	CHECK(l.n >= 1 && l.n <= AMD_LOG_MAX_EVENTS);
	for (i = 0; i < l.n; i++) {
		CHECK(l.ev[i].line >= 1 && l.ev[i].line <= l.lines);
		CHECK(i == 0 || l.ev[i].line > l.ev[i - 1].line);
		CHECK(l.ev[i].foreign_line < l.ev[i].line);
		if (l.ev[i].kind == AMD_EV_PERF)
			CHECK(l.ev[i].chan >= 1 && l.ev[i].chan <= AMD_LOG_MAX_CHANNEL);
		else
			CHECK(l.ev[i].kind == AMD_EV_TIMEOUT || l.ev[i].kind == AMD_EV_UNFINISHED);
	}
	if (aieth__cal_log_test("fuzz.log", &l, et, &bt) != AIETH_OK) {
		CHECK(bt == NULL);
		CHECK(strncmp(aieth_error_message(), "fuzz.log", 8) == 0);
	} else {
		txs = aieth__rj_get(bt, "transactions");
		CHECK(bt && json_object_array_length(txs) == 2);
		CHECK(l.n == 3);
		for (i = 0; i < 2; i++) {
			struct json_object *c =
				aieth__rj_get(json_object_array_get_idx(txs, i), "channels");
			struct json_object *d = aieth__rj_get(
				json_object_array_get_idx(aieth__rj_get(et, "transactions"), i),
				"channels");
			CHECK(json_object_array_length(c) == json_object_array_length(d));
			for (j = 0; j < json_object_array_length(c); j++) {
				struct json_object *x = json_object_array_get_idx(c, j);
				CHECK(!strcmp(
					aieth__rj_gets(x, "plio"),
					aieth__rj_gets(json_object_array_get_idx(d, j), "plio")));
				CHECK((uint64_t)aieth__rj_geti(x, "last_cycle") >=
				      (uint64_t)aieth__rj_geti(x, "first_cycle"));
				CHECK((uint64_t)aieth__rj_geti(x, "cycles") ==
				      (uint64_t)aieth__rj_geti(x, "last_cycle") -
					      (uint64_t)aieth__rj_geti(x, "first_cycle"));
			}
		}
		json_object_put(bt);
	}
	aieth__amd_log_free(&l);
	return 0;
}
