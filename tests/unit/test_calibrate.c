/* SPDX-License-Identifier: MIT */
/* test_calibrate.c - the parameter search of run_test calibrate
 * (calibrate_search.c) on objectives of its own: recovery from far starts,
 * parameters that trade against each other, bounds, the budget, the stop
 * flag, unrunnable candidates, determinism; and the API's state checks.
 * AMD's printPerf logs: the parser (runner/amd_log.c) and their matching
 * with a description's transactions (calibrate_log.c), on texts of its own.
 * The fit against emulated runs: tests/e2e/campaign/calibrate.sh, calibrate_log.sh. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "runner/amd_log.h"
#include "runner/calibrate_impl.h"
#include "runner/calibrate_internal.h"
#include "tu.h"
#include "report/report_model.h"
#include "util/error.h"

typedef struct {
	int64_t target[CAL_MAX_PARAMS];
	size_t n;
	unsigned calls, stop_at;
	int64_t wall; /* x[0] above it cannot be evaluated (0: none) */
} obj;

static double sum_abs(void *ctx, const int64_t *x, int *stop)
{
	obj *o = ctx;
	double s = 0;
	size_t i;
	o->calls++;
	if (o->stop_at && o->calls >= o->stop_at) {
		*stop = AIETH_EIO;
		return HUGE_VAL;
	}
	if (o->wall && x[0] > o->wall)
		return HUGE_VAL;
	for (i = 0; i < o->n; i++)
		s += fabs((double)(x[i] - o->target[i]));
	return s;
}

/* Only the sum a + b is seen strongly: coordinate moves stall on the ridge. */
static double ridge(void *ctx, const int64_t *x, int *stop)
{
	(void)stop;
	((obj *)ctx)->calls++;
	return 100 * fabs((double)(x[0] + x[1] - 155)) + fabs((double)(x[1] - 5));
}

static cal_search_cfg cfg_of(size_t n, int64_t lo, int64_t hi, unsigned budget)
{
	cal_search_cfg c;
	size_t i;
	memset(&c, 0, sizeof c);
	c.n = n;
	for (i = 0; i < n; i++) {
		c.lo[i] = lo;
		c.hi[i] = hi;
	}
	c.max_evals = budget;
	return c;
}

static void t_recovers(void)
{
	obj o = {{150, 120, 5, 2, 2, 2, 2, 80}, 8, 0, 0, 0};
	int64_t x[8] = {64, 64, 3, 1, 1, 1, 1, 64};
	cal_search_cfg c = cfg_of(8, 0, 100000, 2000);
	unsigned evals = 0;
	double best = aieth__cal_search(&c, x, sum_abs, &o, &evals);
	CU_ASSERT_EQUAL(best, 0);
	CU_ASSERT(!memcmp(x, o.target, sizeof x));
	CU_ASSERT(evals == o.calls && evals < 2000);
	/* Far away, one coordinate: doubling steps get there in few runs. */
	{
		obj f = {{90000}, 1, 0, 0, 0};
		int64_t y = 1;
		c = cfg_of(1, 0, 100000, 200);
		CU_ASSERT_EQUAL(aieth__cal_search(&c, &y, sum_abs, &f, &evals), 0);
		CU_ASSERT_EQUAL(y, 90000);
		CU_ASSERT(evals < 120);
	}
}

static void t_ridge_pairs(void)
{
	obj o = {{0}, 2, 0, 0, 0};
	int64_t x[2] = {64, 3};
	cal_search_cfg c = cfg_of(2, 0, 1000, 5000);
	CU_ASSERT_EQUAL(aieth__cal_search(&c, x, ridge, &o, NULL), 0);
	CU_ASSERT(x[0] == 150 && x[1] == 5);
}

static void t_bounds(void)
{
	obj o = {{-50, 5000}, 2, 0, 0, 0};
	int64_t x[2] = {10, 10};
	cal_search_cfg c = cfg_of(2, 1, 1000, 1000);
	double best = aieth__cal_search(&c, x, sum_abs, &o, NULL);
	CU_ASSERT(x[0] == 1 && x[1] == 1000);
	CU_ASSERT_EQUAL(best, 51 + 4000);
	/* A start outside the bounds is clamped first. */
	x[0] = -7;
	x[1] = 99999;
	aieth__cal_search(&c, x, sum_abs, &o, NULL);
	CU_ASSERT(x[0] == 1 && x[1] == 1000);
}

static void t_budget_and_stop(void)
{
	obj o = {{150, 120}, 2, 0, 0, 0};
	int64_t x[2] = {64, 64};
	cal_search_cfg c = cfg_of(2, 0, 100000, 5);
	unsigned evals = 0;
	aieth__cal_search(&c, x, sum_abs, &o, &evals);
	CU_ASSERT(evals == 5 && o.calls == 5);
	memset(&o, 0, sizeof o);
	o.n = 2;
	o.target[0] = 150;
	o.stop_at = 3;
	x[0] = x[1] = 64;
	c.max_evals = 100;
	aieth__cal_search(&c, x, sum_abs, &o, &evals);
	CU_ASSERT(evals == 3 && o.calls == 3);
}

static void t_unrunnable(void)
{
	obj o = {{120}, 1, 0, 0, 100};
	int64_t x = 64;
	cal_search_cfg c = cfg_of(1, 0, 100000, 500);
	double best = aieth__cal_search(&c, &x, sum_abs, &o, NULL);
	CU_ASSERT_EQUAL(x, 100);
	CU_ASSERT_EQUAL(best, 20);
}

static void t_deterministic(void)
{
	obj a = {{0}, 2, 0, 0, 0}, b = {{0}, 2, 0, 0, 0};
	int64_t x[2] = {7, 300}, y[2] = {7, 300};
	cal_search_cfg c = cfg_of(2, 0, 1000, 37);
	unsigned ea, eb;
	double ca = aieth__cal_search(&c, x, ridge, &a, &ea),
	       cb = aieth__cal_search(&c, y, ridge, &b, &eb);
	CU_ASSERT(ca == cb && ea == eb && x[0] == y[0] && x[1] == y[1]);
}

static void t_bad_args(void)
{
	obj o = {{0}, 1, 0, 0, 0};
	int64_t x = 0;
	cal_search_cfg c = cfg_of(1, 0, 10, 10);
	unsigned e = 9;
	CU_ASSERT(isinf(aieth__cal_search(NULL, &x, sum_abs, &o, &e)) && e == 0);
	c.n = 0;
	CU_ASSERT(isinf(aieth__cal_search(&c, &x, sum_abs, &o, NULL)));
	c.n = CAL_MAX_PARAMS + 1;
	CU_ASSERT(isinf(aieth__cal_search(&c, &x, sum_abs, &o, NULL)));
	c.n = 1;
	c.max_evals = 0;
	CU_ASSERT(isinf(aieth__cal_search(&c, &x, sum_abs, &o, NULL)));
	CU_ASSERT_EQUAL(o.calls, 0);
}

static void t_api_states(void)
{
	aieth_calib *c = NULL;
	char *note = (char *)"x";
	CU_ASSERT_NOT_EQUAL(aieth_calib_new(&c, "nosuchboard", tu_src(".")), AIETH_OK);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_EQUAL_FATAL(aieth_calib_new(&c, "vck190", tu_src(".")), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_calib_fit(c, 10, NULL, NULL), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "no description"));
	CU_ASSERT_EQUAL(aieth_calib_write_board(c, "/dev/null"), AIETH_ESTATE);
	CU_ASSERT_NOT_EQUAL(aieth_calib_add(c, tu_src("examples/adder_func/test.json"),
					    "/nonexistent/report.json", &note),
			    AIETH_OK);
	CU_ASSERT_PTR_NULL(note);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "/nonexistent/report.json"));
	aieth_calib_free(c);
	aieth_calib_free(NULL);
}

#define PFX "[2026-01-01 12:00:00] [INFO] "
#define TX1 \
	"PLIO_1_TO_AIE send the first data at cycle[0], ends at cycle[2048], and the throughputs is 2384.19 MBps."
#define RX2 \
	"PLIO_2_FROM_AIE received the first data at cycle[40], ends at cycle[2090], and the throughputs is 2381.86 MBps."

static int parse(const char *text, aieth__amd_log *l)
{
	return aieth__amd_log_parse("b.log", text, strlen(text), l);
}

static int refused(const char *text, const char *what)
{
	aieth__amd_log l;
	int ok = parse(text, &l) == AIETH_EINVAL && l.n == 0 && l.ev == NULL &&
		 strstr(aieth_error_message(), what) != NULL;
	if (!ok)
		fprintf(stderr, "\nrefused(%s): %s\n", what, aieth_error_message());
	return ok;
}

static void t_log_parse(void)
{
	aieth__amd_log l;
	/* AMD's logger lines with their empty line, the program's own output
	 * around them, CRLF, a bare message, a warning. */
	const char *text =
		"bench starts\n" PFX TX1 "\n\n" PFX RX2 "\r\n\r\n"
		"The delay between A and B is 40 clock cycles.\n" TX1 "\n"
		"[2026-01-01 12:00:01] [WARNING] The performance information of this "
		"transaction is not available due to timeout.\n"
		"The performance information of this transaction is not available due "
		"to the transaction is not finished yet.\n"
		"PLIO_36_FROM_AIE received the first data at cycle[5], ends at cycle[5], "
		"and the throughputs is inf MBps.\n" PFX
		"PLIO_3_TO_AIE send the first data at cycle[18446744073709551615], ends "
		"at cycle[18446744073709551615], and the throughputs is 1.52588e+06 MBps.";
	CU_ASSERT_EQUAL_FATAL(parse(text, &l), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(l.n, 7);
	CU_ASSERT_EQUAL(l.lines, 11);
	CU_ASSERT(l.ev[0].kind == AMD_EV_PERF && l.ev[0].line == 2 && !l.ev[0].rx &&
		  l.ev[0].chan == 1 && l.ev[0].first == 0 && l.ev[0].last == 2048 &&
		  fabs(l.ev[0].mibps - 2384.19) < 1e-9 && l.ev[0].foreign_line == 1);
	CU_ASSERT(l.ev[1].line == 4 && l.ev[1].rx && l.ev[1].chan == 2 && l.ev[1].first == 40 &&
		  l.ev[1].foreign_line == 0);
	CU_ASSERT(l.ev[2].line == 7 && l.ev[2].foreign_line == 6);
	CU_ASSERT(l.ev[3].kind == AMD_EV_TIMEOUT && l.ev[3].line == 8);
	CU_ASSERT(l.ev[4].kind == AMD_EV_UNFINISHED && l.ev[4].line == 9);
	CU_ASSERT(l.ev[5].chan == 36 && isinf(l.ev[5].mibps));
	CU_ASSERT(l.ev[6].first == UINT64_MAX && fabs(l.ev[6].mibps - 1.52588e6) < 1e-6);
	aieth__amd_log_free(&l);
	aieth__amd_log_free(NULL);
	/* Content, not name: a JSON document is a report. */
	CU_ASSERT(aieth__amd_log_is_json("\xEF\xBB\xBF \n {\"schema\":1}", 20));
	CU_ASSERT(!aieth__amd_log_is_json(TX1, strlen(TX1)));
	CU_ASSERT(!aieth__amd_log_is_json("  ", 2));
}

static void t_log_refused(void)
{
	CU_ASSERT(refused("", "neither a report.json"));
	CU_ASSERT(refused("hello\nworld\n", "no line like"));
	CU_ASSERT(refused("x\n" TX1 "\n"
			  "PLIO_01_TO_AIE send the first data at cycle[0], ends "
			  "at cycle[2048], and the throughputs is 2384.19 MBps.\n",
			  "b.log:3: channel number with a leading zero"));
	CU_ASSERT(refused(PFX "PLIO_1_TO_AIE sent the first data at cycle[0], ends at cycle[9], "
			      "and the throughputs is 1 MBps.",
			  "b.log:1: expected AMD's printPerf"));
	CU_ASSERT(refused("PLIO_1_TO_AIE send the first data at cycle[-1], ends at cycle[9], "
			  "and the throughputs is 1 MBps.",
			  "b.log:1: the first cycle"));
	CU_ASSERT(refused("PLIO_1_TO_AIE send the first data at cycle[0], ends at "
			  "cycle[18446744073709551616], and the throughputs is 1 MBps.",
			  "b.log:1: the last cycle"));
	CU_ASSERT(refused("PLIO_1_TO_AIE send the first data at cycle[0], ends at cycle[9], "
			  "and the throughputs is nan MBps.",
			  "the throughput"));
	CU_ASSERT(refused("PLIO_1_TO_AIE send the first data at cycle[0], ends at cycle[9], "
			  "and the throughputs is 1.5e MBps.",
			  "the throughput"));
	CU_ASSERT(refused("PLIO_1_TO_AIE send the first data at cycle[0], ends at cycle[9], "
			  "and the throughputs is 1.5 MiBps.",
			  "expected AMD's"));
	CU_ASSERT(refused("PLIO_1_TO_AIE send the first data at cycle[0], ends at cycle[9], "
			  "and the throughputs is 1.5 MBps. extra",
			  "text after"));
	CU_ASSERT(refused("PLIO_1000_TO_AIE send the first data at cycle[0], ends at cycle[9], "
			  "and the throughputs is 1 MBps.",
			  "channel number above 999"));
	CU_ASSERT(refused("PLIO_x_TO_AIE send the first data at cycle[0]", "no channel number"));
	{
		static const char nul[] = "a\nb\n\0" TX1;
		aieth__amd_log l;
		CU_ASSERT_EQUAL(aieth__amd_log_parse("b.log", nul, sizeof nul - 1, &l),
				AIETH_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "b.log:3: a NUL byte"));
		CU_ASSERT_EQUAL(aieth__amd_log_parse("b.log", nul, AMD_LOG_MAX_FILE + 1u, &l),
				AIETH_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "the limit of a log"));
	}
	/* The event bound: one line more than the limit. */
	{
		size_t k = strlen(TX1) + 1, i, n = (size_t)AMD_LOG_MAX_EVENTS + 1;
		char *big = malloc(n * k + 1);
		aieth__amd_log l;
		CU_ASSERT_FATAL(big != NULL);
		for (i = 0; i < n; i++) {
			memcpy(big + i * k, TX1, k - 1);
			big[i * k + k - 1] = '\n';
		}
		CU_ASSERT_EQUAL(aieth__amd_log_parse("b.log", big, n * k, &l), AIETH_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "b.log:100001: more than"));
		free(big);
	}
}

/* An emulated test: transactions of "name:PLIO:size:rep,..." */
static struct json_object *etest(const char *const *txns, size_t n)
{
	struct json_object *t = json_object_new_object(), *a = json_object_new_array();
	size_t i;
	json_object_object_add(t, "name", json_object_new_string("t"));
	json_object_object_add(t, "transactions", a);
	for (i = 0; i < n; i++) {
		struct json_object *x = json_object_new_object(), *chs = json_object_new_array();
		char buf[400], *tok, *save = NULL;
		snprintf(buf, sizeof buf, "%s", txns[i]);
		json_object_object_add(x, "name",
				       json_object_new_string(strtok_r(buf, ":", &save)));
		json_object_object_add(x, "mode", json_object_new_string("func"));
		json_object_object_add(x, "channels", chs);
		while ((tok = strtok_r(NULL, ",", &save))) {
			struct json_object *c = json_object_new_object();
			char plio[64];
			long size = 0, rep = 1;
			if (sscanf(tok, "%63[^=]=%ld*%ld", plio, &size, &rep) < 2)
				break;
			json_object_object_add(c, "plio", json_object_new_string(plio));
			json_object_object_add(c, "size_bytes", json_object_new_int64(size));
			json_object_object_add(c, "repetition", json_object_new_int64(rep));
			json_object_array_add(chs, c);
		}
		json_object_array_add(a, x);
	}
	return t;
}

static int match(const char *text, struct json_object *et, struct json_object **bt)
{
	aieth__amd_log l;
	int rc = parse(text, &l);
	if (rc)
		return rc;
	*bt = NULL;
	rc = aieth__cal_log_test("b.log", &l, et, bt);
	aieth__amd_log_free(&l);
	return rc;
}

static int match_refused(const char *text, struct json_object *et, const char *what)
{
	struct json_object *bt = (struct json_object *)1;
	int ok = match(text, et, &bt) == AIETH_EINVAL && bt == NULL &&
		 strstr(aieth_error_message(), what) != NULL;
	if (!ok)
		fprintf(stderr, "\nmatch_refused(%s): %s\n", what, aieth_error_message());
	return ok;
}

/* 4096 bytes over 2048 cycles: 4096 * 312.5e6 / 2048 / 2^20 = 596.046 */
#define L_TX1 \
	"PLIO_1_TO_AIE send the first data at cycle[1], ends at cycle[2049], and the throughputs is 596.046 MBps.\n\n"
#define L_RX1 \
	"PLIO_1_FROM_AIE received the first data at cycle[60], ends at cycle[2108], and the throughputs is 596.046 MBps.\n\n"
/* 8192 bytes x 2 over 4000 cycles: 1220.7 */
#define L_TX2 \
	"PLIO_2_TO_AIE send the first data at cycle[0], ends at cycle[4000], and the throughputs is 1220.7 MBps.\n\n"

static void t_log_match(void)
{
	static const char *const two[] = {
		"a:PLIO_01_TO_AIE=4096,PLIO_01_FROM_AIE=4096,PLIO_02_TO_AIE=8192*2",
		"b:PLIO_02_TO_AIE=8192*2"};
	struct json_object *et = etest(two, 2), *bt = NULL, *c;
	/* RX printed after TX, the description's order differs: matched by
	 * channel, written in the description's order. */
	CU_ASSERT_EQUAL_FATAL(
		match("out\n" PFX L_TX1 PFX L_TX2 PFX L_RX1 "between\n" PFX L_TX2, et, &bt),
		AIETH_OK);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(bt, "name"), "t");
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(bt, "status"), "pass");
	c = aieth__rj_get(json_object_array_get_idx(aieth__rj_get(bt, "transactions"), 0),
			  "channels");
	CU_ASSERT_EQUAL(json_object_array_length(c), 3);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(json_object_array_get_idx(c, 1), "plio"),
			       "PLIO_01_FROM_AIE");
	CU_ASSERT_EQUAL(aieth__rj_geti(json_object_array_get_idx(c, 1), "first_cycle"), 60);
	CU_ASSERT_EQUAL(aieth__rj_geti(json_object_array_get_idx(c, 1), "last_cycle"), 2108);
	CU_ASSERT_EQUAL(aieth__rj_geti(json_object_array_get_idx(c, 1), "cycles"), 2048);
	CU_ASSERT_EQUAL(aieth__rj_geti(json_object_array_get_idx(c, 2), "cycles"), 4000);
	CU_ASSERT_STRING_EQUAL(
		aieth__rj_gets(json_object_array_get_idx(aieth__rj_get(bt, "transactions"), 1),
			       "name"),
		"b");
	json_object_put(bt);
	/* Each refusal names the file, the line and the channel. */
	CU_ASSERT(match_refused(L_TX1 L_TX2 "\n" L_TX2, et,
				"b.log:6: PLIO_2_TO_AIE (PLIO_02_TO_AIE) twice in the printPerf "
				"block of transaction 0 (\"a\"), first at line 3"));
	CU_ASSERT(match_refused(L_TX1 L_TX2, et,
				"b.log:4: transaction 0 (\"a\") lacks "
				"PLIO_01_FROM_AIE: its printPerf block from line 1 has 2 of its 3 "
				"channels, then the log ends"));
	CU_ASSERT(match_refused(L_TX1 L_RX1 L_TX2 L_TX2 L_TX2, et,
				"b.log:9: a printPerf line "
				"after the description's 2 transactions"));
	CU_ASSERT(
		match_refused(L_TX1 "PLIO_3_TO_AIE send the first data at cycle[0], ends at "
				    "cycle[4000], and the throughputs is 1220.7 MBps.\n",
			      et,
			      "b.log:3: PLIO_3_TO_AIE is not a channel of transaction 0 (\"a\"), "
			      "whose printPerf block starts at line 1: it lacks PLIO_01_FROM_AIE"));
	CU_ASSERT(match_refused(L_TX1 "my own line\n" L_RX1, et,
				"b.log:3: inside the printPerf block of transaction 0"));
	/* AMD's other logger lines inside a block are skipped. */
	CU_ASSERT_EQUAL(match(L_TX1 PFX "Transaction 0 done\n" L_RX1 L_TX2 L_TX2, et, &bt),
			AIETH_OK);
	json_object_put(bt);
	CU_ASSERT(match_refused(
		"[x] [WARNING] The performance information of this transaction "
		"is not available due to timeout.\n",
		et, "b.log:1: transaction 0 (\"a\"): AMD's printPerf says it timed out"));
	CU_ASSERT(match_refused(L_TX1 L_RX1 L_TX2
				"The performance information of this "
				"transaction is not available due to the transaction is not "
				"finished yet.\n",
				et,
				"b.log:7: transaction 1 (\"b\"): AMD's "
				"printPerf says it did not finish"));
	/* Sizes: the printed throughput is of another size (8192 bytes over
	 * the same cycles), or too few cycles for the beats, or backwards. */
	CU_ASSERT(
		match_refused("PLIO_1_TO_AIE send the first data at cycle[1], ends at "
			      "cycle[2049], and the throughputs is 1192.09 MBps.\n",
			      et,
			      "b.log:1: PLIO_1_TO_AIE (PLIO_01_TO_AIE): 1192.09 MBps (AMD's MiB/s) "
			      "over 2048 cycles is 8192 bytes at AMD's 312.5 MHz, the description "
			      "moves 4096 bytes"));
	CU_ASSERT(match_refused("PLIO_1_TO_AIE send the first data at cycle[1], ends at "
				"cycle[101], and the throughputs is 12207 MBps.\n",
				et,
				"b.log:1: PLIO_1_TO_AIE (PLIO_01_TO_AIE): 100 cycles from first to "
				"last for the description's 4096 bytes (256 beats"));
	CU_ASSERT(match_refused(
		"PLIO_1_TO_AIE send the first data at cycle[9], ends at "
		"cycle[1], and the throughputs is 1 MBps.\n",
		et, "b.log:1: PLIO_1_TO_AIE (PLIO_01_TO_AIE): ends at cycle 1, before"));
	CU_ASSERT(match_refused("PLIO_1_TO_AIE send the first data at cycle[9], ends at "
				"cycle[9], and the throughputs is inf MBps.\n",
				et, "do not fit the description's size"));
	CU_ASSERT(
		match_refused("PLIO_1_TO_AIE send the first data at cycle[9223372036854775808], "
			      "ends at cycle[9223372036854777856], and the throughputs is 596.046 "
			      "MBps.\n",
			      et,
			      "b.log:1: PLIO_1_TO_AIE (PLIO_01_TO_AIE): cycle "
			      "9223372036854777856 is above 2^63-1"));
	json_object_put(et);
}

TU_MAIN("calibrate", {"recovers", t_recovers}, {"ridge_pairs", t_ridge_pairs}, {"bounds", t_bounds},
	{"budget_and_stop", t_budget_and_stop}, {"unrunnable", t_unrunnable},
	{"deterministic", t_deterministic}, {"bad_args", t_bad_args}, {"api_states", t_api_states},
	{"log_parse", t_log_parse}, {"log_refused", t_log_refused}, {"log_match", t_log_match})
