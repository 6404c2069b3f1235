/* SPDX-License-Identifier: MIT */
/*
 * test_stats.c - the statistics of repeated runs (util/stats.c: lower
 * median, mad, sample stddev, the run shown) and the runner's summing up
 * of runs (run_repeat.c): the median run's figures, stats objects,
 * thresholds on the named statistic, and a run that fails alone failing
 * its channel and its test, named.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_model.h"
#include "runner/run_internal.h"
#include "runner/spec.h"
#include "tu.h"
#include "util/stats.h"

#define NEAR(a, b) CU_ASSERT_TRUE(fabs((a) - (b)) < 1e-9)

static void test_basic(void)
{
	static const double one[] = {42.5};
	static const double four[] = {4, 1, 3, 2};
	static const double five[] = {5, 5, 7, 1, 9};
	aieth__stats s;
	CU_ASSERT_EQUAL_FATAL(aieth__stats_compute(one, 1, &s), AIETH_OK);
	NEAR(s.median, 42.5);
	NEAR(s.min, 42.5);
	NEAR(s.max, 42.5);
	NEAR(s.mean, 42.5);
	NEAR(s.stddev, 0); /* one value: 0, not n - 1 = 0 in a division */
	NEAR(s.mad, 0);
	CU_ASSERT_EQUAL(s.median_index, 0);
	/* even count: the LOWER median (sorted 1 2 3 4, index 1), a value run 3 measured */
	CU_ASSERT_EQUAL_FATAL(aieth__stats_compute(four, 4, &s), AIETH_OK);
	NEAR(s.median, 2);
	CU_ASSERT_EQUAL(s.median_index, 3);
	NEAR(s.mean, 2.5);
	NEAR(s.stddev, sqrt(5.0 / 3.0)); /* sample: n - 1 */
	NEAR(s.mad, 1);                  /* |x - 2| = 2 1 1 0: lower median 1 */
	NEAR(s.min, 1);
	NEAR(s.max, 4);
	/* ties: the first run with the median value is the one shown */
	CU_ASSERT_EQUAL_FATAL(aieth__stats_compute(five, 5, &s), AIETH_OK);
	NEAR(s.median, 5);
	CU_ASSERT_EQUAL(s.median_index, 0);
	NEAR(s.mad, 2); /* 0 0 2 4 4 */
	NEAR(s.mean, 5.4);
	NEAR(aieth__stats_get(&s, AIETH__STAT_MIN), 1);
	NEAR(aieth__stats_get(&s, AIETH__STAT_MAX), 9);
	NEAR(aieth__stats_get(&s, AIETH__STAT_MEAN), 5.4);
	NEAR(aieth__stats_get(&s, AIETH__STAT_MEDIAN), 5);
	NEAR(aieth__stats_spread_pct(&s), 40); /* mad 2 of median 5 */
}

static void test_names_and_errors(void)
{
	double x[2] = {1, NAN};
	aieth__stats s;
	aieth__stat w = AIETH__STAT_MAX;
	CU_ASSERT_EQUAL(aieth__stats_compute(x, 0, &s), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__stats_compute(x, 2, &s), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "value 1 is not finite"));
	x[1] = INFINITY;
	CU_ASSERT_EQUAL(aieth__stats_compute(x, 2, &s), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__stats_parse("median", &w), 0);
	CU_ASSERT_EQUAL(w, AIETH__STAT_MEDIAN);
	CU_ASSERT_EQUAL(aieth__stats_parse("mean", &w), 0);
	CU_ASSERT_EQUAL(w, AIETH__STAT_MEAN);
	CU_ASSERT_EQUAL(aieth__stats_parse("p99", &w), -1);
	CU_ASSERT_EQUAL(aieth__stats_parse(NULL, &w), -1);
	CU_ASSERT_STRING_EQUAL(aieth__stats_name(AIETH__STAT_MIN), "min");
	CU_ASSERT_STRING_EQUAL(aieth__stats_name((aieth__stat)99), "median");
	memset(&s, 0, sizeof s);
	s.mad = 3; /* median 0: no percentage of it */
	NEAR(aieth__stats_spread_pct(&s), 0);
	s.median = 5000;
	s.mad = 10;
	NEAR(aieth__stats_spread_pct(&s), 0.2);
}

/* ------------------------------------------------ the runner's summary */

/* One run's transaction as run_once records it: PLIO_01_TO_AIE and
 * PLIO_01_FROM_AIE (mismatches > 0: its data check failed), one latency. */
static json_object *fake_run(uint64_t cycles, double mbps, int64_t lat, uint64_t mismatches)
{
	json_object *t = aieth__rj_obj(), *chans = aieth__rj_arr(), *lats = aieth__rj_arr(),
		    *l = aieth__rj_obj();
	int k;
	aieth__rj_str(t, "status", "done");
	aieth__rj_bool(t, "valid", 1);
	aieth__rj_str(t, "message", "");
	aieth__rj_u64(t, "total_cycles", cycles);
	for (k = 0; k < 2; k++) {
		json_object *ch = aieth__rj_obj(), *in = aieth__rj_obj();
		aieth__rj_str(ch, "plio", k ? "PLIO_01_FROM_AIE" : "PLIO_01_TO_AIE");
		aieth__rj_bool(ch, "finished", 1);
		aieth__rj_u64(ch, "first_cycle", 1);
		aieth__rj_u64(ch, "last_cycle", cycles);
		aieth__rj_u64(ch, "cycles", cycles - 1);
		aieth__rj_num(ch, "duration_ns", (double)cycles * 4);
		aieth__rj_num(ch, "throughput_MBps", mbps);
		aieth__rj_num(ch, "throughput_MiBps", mbps / 1.048576);
		aieth__rj_bool(in, "checked", k);
		if (k) {
			aieth__rj_u64(in, "elements", 256);
			aieth__rj_u64(in, "mismatches", mismatches);
			if (mismatches) {
				json_object *fm = aieth__rj_obj();
				aieth__rj_u64(fm, "offset", 80);
				aieth__rj_u64(fm, "index", 20);
				aieth__rj_str(fm, "got", "78");
				aieth__rj_str(fm, "expected", "20");
				aieth__rj_set(in, "first_mismatch", fm);
			}
		} else {
			aieth__rj_str(in, "reason", "sent data is not checked");
		}
		aieth__rj_set(ch, "integrity", in);
		aieth__rj_set(ch, "thresholds", aieth__rj_arr());
		aieth__rj_str(ch, "verdict", k && mismatches ? "fail" : "pass");
		aieth__rj_push(chans, ch);
	}
	aieth__rj_set(t, "channels", chans);
	aieth__rj_str(l, "from", "PLIO_01_TO_AIE");
	aieth__rj_str(l, "to", "PLIO_01_FROM_AIE");
	aieth__rj_int(l, "cycles", lat);
	aieth__rj_u64(l, "max_cycles", 20);
	aieth__rj_push(lats, l);
	aieth__rj_set(t, "latencies", lats);
	return t;
}

#define SPEC_TEXT                                                                              \
	"{\"schema\": \"aieth-test/1\", \"board\": \"vck190\", \"transactions\": [{\"mode\": " \
	"\"func\", \"channels\": [{\"plio\": \"PLIO_01_TO_AIE\", \"size\": 1024}, {\"plio\": " \
	"\"PLIO_01_FROM_AIE\", \"size\": 1024, \"min_throughput_MBps\": 450}], "               \
	"\"max_latency\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", "      \
	"\"max_cycles\": 20}]}]"

/* aieth__rn_txn_summary of JSON runs as run_txn calls it: their figures kept,
 * the last run's objects as the template */
static int sum_up(run_ctx *c, json_object *tj, json_object **runs, size_t n, json_object *broken,
		  json_object *failed)
{
	rn_run *kept[8];
	size_t i;
	int code;
	CU_ASSERT_FATAL(n <= 8);
	for (i = 0; i < n; i++)
		CU_ASSERT_PTR_NOT_NULL_FATAL(kept[i] =
						     aieth__rn_run_keep(&c->sp->txns[0], runs[i]));
	code = aieth__rn_txn_summary(c, &c->sp->txns[0], tj, kept, n, n ? runs[n - 1] : NULL,
				     broken, failed);
	for (i = 0; i < n; i++)
		aieth__rn_run_free(kept[i]);
	return code;
}

/* Sum up runs made by fake_run in run order: 4 measured after 1 warm-up. */
static int summary(run_ctx *c, aieth__stat stat, json_object **runs, size_t n, json_object *tj)
{
	json_object *failed = aieth__rj_arr();
	size_t i;
	int code;
	memset(c, 0, sizeof *c);
	CU_ASSERT_EQUAL_FATAL(
		aieth_spec_parse(&c->sp, "t.json", SPEC_TEXT "}", strlen(SPEC_TEXT "}"), "/base"),
		AIETH_OK);
	c->test = aieth__rj_obj();
	c->runs = (uint32_t)n;
	c->warmup = 1;
	c->statistic = stat;
	for (i = 0; i < n; i++)
		aieth__rn_run_failures(c, &c->sp->txns[0], runs[i], (uint32_t)i + 1, failed);
	code = sum_up(c, tj, runs, n, NULL, failed);
	return code;
}

static void done(run_ctx *c, json_object **runs, size_t n, json_object *tj)
{
	size_t i;
	for (i = 0; i < n; i++)
		json_object_put(runs[i]);
	json_object_put(tj);
	json_object_put(c->test);
	aieth_spec_free(c->sp);
}

static json_object *at(json_object *o, const char *arr, size_t i)
{
	return json_object_array_get_idx(aieth__rj_get(o, arr), i);
}

static void test_summary_median_run(void)
{
	run_ctx c;
	/* cycles 900 700 800 1000: lower median 800, run index 2 */
	json_object *runs[4] = {fake_run(900, 500, 10, 0), fake_run(700, 440, 12, 0),
				fake_run(800, 460, 30, 0), fake_run(1000, 400, 31, 0)};
	json_object *tj = aieth__rj_obj(), *ch, *s, *th, *l;
	CU_ASSERT_EQUAL(summary(&c, AIETH__STAT_MEDIAN, runs, 4, tj), AIETH_EXIT_FAIL);
	CU_ASSERT_EQUAL(aieth__rj_geti(tj, "median_run"), 2);
	CU_ASSERT_EQUAL(aieth__rj_geti(tj, "total_cycles"), 800); /* the median run's scalars */
	s = aieth__rj_get(aieth__rj_get(tj, "stats"), "total_cycles");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	NEAR(aieth__rj_getd(s, "median"), 800);
	NEAR(aieth__rj_getd(s, "mean"), 850);
	CU_ASSERT_EQUAL(json_object_array_length(aieth__rj_get(s, "runs")), 4);
	NEAR(json_object_get_double(json_object_array_get_idx(aieth__rj_get(s, "runs"), 3)), 1000);
	ch = at(tj, "channels", 1);
	NEAR(aieth__rj_getd(ch, "throughput_MBps"), 460); /* run 2's value */
	s = aieth__rj_get(aieth__rj_get(ch, "stats"), "throughput_MBps");
	NEAR(aieth__rj_getd(s, "median"), 440); /* 400 440 460 500: lower median */
	NEAR(aieth__rj_getd(s, "min"), 400);
	NEAR(aieth__rj_getd(s, "max"), 500);
	/* the threshold applies to the median (440 < 450): a fail, named */
	th = at(ch, "thresholds", 0);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(th, "statistic"), "median");
	NEAR(aieth__rj_getd(th, "measured"), 440);
	CU_ASSERT_FALSE(json_object_get_boolean(aieth__rj_get(th, "passed")));
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(ch, "verdict"), "fail");
	CU_ASSERT_EQUAL(json_object_array_length(aieth__rj_get(tj, "runs_failed")), 0);
	/* latency 10 12 30 31: median 12 <= 20 passes (the median run had 30) */
	l = at(tj, "latencies", 0);
	CU_ASSERT_EQUAL(aieth__rj_geti(l, "cycles"), 30);
	CU_ASSERT_TRUE(json_object_get_boolean(aieth__rj_get(l, "passed")));
	NEAR(aieth__rj_getd(aieth__rj_get(aieth__rj_get(l, "stats"), "cycles"), "max"), 31);
	done(&c, runs, 4, tj);
}

static void test_summary_statistic(void)
{
	run_ctx c;
	json_object *runs[4] = {fake_run(900, 500, 10, 0), fake_run(700, 440, 12, 0),
				fake_run(800, 460, 30, 0), fake_run(1000, 400, 31, 0)};
	json_object *tj = aieth__rj_obj(), *th, *l;
	/* max: 500 >= 450 passes; the latency's max 31 > 20 fails */
	CU_ASSERT_EQUAL(summary(&c, AIETH__STAT_MAX, runs, 4, tj), AIETH_EXIT_FAIL);
	th = at(at(tj, "channels", 1), "thresholds", 0);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(th, "statistic"), "max");
	NEAR(aieth__rj_getd(th, "measured"), 500);
	CU_ASSERT_TRUE(json_object_get_boolean(aieth__rj_get(th, "passed")));
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(at(tj, "channels", 1), "verdict"), "pass");
	l = at(tj, "latencies", 0);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(l, "statistic"), "max");
	CU_ASSERT_FALSE(json_object_get_boolean(aieth__rj_get(l, "passed")));
	done(&c, runs, 4, tj);
}

static void test_summary_one_bad_run(void)
{
	run_ctx c;
	/* run 3 of 4 (index 2) gets one element wrong; the median run (index
	 * 0, cycles 800 first) is clean: the channel and the test still fail */
	json_object *runs[4] = {fake_run(800, 500, 10, 0), fake_run(800, 500, 10, 0),
				fake_run(800, 500, 10, 1), fake_run(800, 500, 10, 0)};
	json_object *tj = aieth__rj_obj(), *ch, *f, *fr;
	CU_ASSERT_EQUAL(summary(&c, AIETH__STAT_MEDIAN, runs, 4, tj), AIETH_EXIT_PASS);
	/* (the data check's exit code is the run's own, from run_once: the
	 * summary adds the thresholds' code; the verdict shows both) */
	CU_ASSERT_EQUAL(aieth__rj_geti(tj, "median_run"), 0);
	ch = at(tj, "channels", 1);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(ch, "verdict"), "fail");
	fr = aieth__rj_get(ch, "failed_runs");
	CU_ASSERT_EQUAL_FATAL(json_object_array_length(fr), 1);
	CU_ASSERT_EQUAL(json_object_get_int64(json_object_array_get_idx(fr, 0)), 2);
	CU_ASSERT_EQUAL_FATAL(json_object_array_length(aieth__rj_get(tj, "runs_failed")), 1);
	f = at(tj, "runs_failed", 0);
	CU_ASSERT_EQUAL(aieth__rj_geti(f, "run"), 2);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(f, "plio"), "PLIO_01_FROM_AIE");
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(f, "reason"),
			       "transactions[0] run 3 of 4: PLIO_01_FROM_AIE: 1 of 256 elements "
			       "differ, first at byte 80: got 78, expected 20");
	CU_ASSERT_PTR_NULL(aieth__rj_get(f, "warmup"));
	done(&c, runs, 4, tj);
}

/* the shown run's own integrity, whichever run's objects are the template */
static void test_summary_integrity_shown(void)
{
	run_ctx c;
	/* the last run (the template) is bad, the median run 0 clean */
	json_object *runs[3] = {fake_run(800, 500, 10, 0), fake_run(900, 500, 10, 0),
				fake_run(700, 500, 10, 2)};
	json_object *tj = aieth__rj_obj(), *in;
	summary(&c, AIETH__STAT_MEDIAN, runs, 3, tj);
	CU_ASSERT_EQUAL(aieth__rj_geti(tj, "median_run"), 0);
	in = aieth__rj_get(at(tj, "channels", 1), "integrity");
	CU_ASSERT_EQUAL(aieth__rj_geti(in, "mismatches"), 0);
	CU_ASSERT_PTR_NULL(aieth__rj_get(in, "first_mismatch"));
	CU_ASSERT_EQUAL(aieth__rj_geti(in, "elements"), 256);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(at(tj, "channels", 1), "verdict"), "fail");
	done(&c, runs, 3, tj);
	/* the median run (index 1, cycles 800) is the bad one: its mismatches */
	runs[0] = fake_run(900, 500, 10, 0);
	runs[1] = fake_run(800, 500, 10, 5);
	runs[2] = fake_run(700, 500, 10, 0);
	tj = aieth__rj_obj();
	summary(&c, AIETH__STAT_MEDIAN, runs, 3, tj);
	CU_ASSERT_EQUAL(aieth__rj_geti(tj, "median_run"), 1);
	in = aieth__rj_get(at(tj, "channels", 1), "integrity");
	CU_ASSERT_EQUAL(aieth__rj_geti(in, "mismatches"), 5);
	CU_ASSERT_EQUAL(aieth__rj_geti(aieth__rj_get(in, "first_mismatch"), "offset"), 80);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(at(tj, "channels", 1), "verdict"), "fail");
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(at(tj, "channels", 0), "verdict"), "pass");
	done(&c, runs, 3, tj);
}

static void test_summary_warmup_and_one_run(void)
{
	run_ctx c;
	json_object *warm = fake_run(800, 500, 10, 3), *failed = aieth__rj_arr(),
		    *tj = aieth__rj_obj(), *f;
	json_object *runs[1] = {fake_run(700, 480, 11, 0)};
	memset(&c, 0, sizeof c);
	CU_ASSERT_EQUAL_FATAL(
		aieth_spec_parse(&c.sp, "t.json", SPEC_TEXT "}", strlen(SPEC_TEXT "}"), "/base"),
		AIETH_OK);
	c.runs = 1;
	c.warmup = 1;
	/* a warm-up run is checked too, and named as one */
	aieth__rn_run_failures(&c, &c.sp->txns[0], warm, 0, failed);
	f = json_object_array_get_idx(failed, 0);
	CU_ASSERT_TRUE(json_object_get_boolean(aieth__rj_get(f, "warmup")));
	CU_ASSERT_EQUAL(aieth__rj_geti(f, "run"), 0);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(aieth__rj_gets(f, "reason"), "transactions[0] warm-up run 1 of 1: "));
	CU_ASSERT_EQUAL(sum_up(&c, tj, runs, 1, NULL, failed), AIETH_EXIT_PASS);
	/* one measured run: no stats objects, thresholds on its value */
	CU_ASSERT_PTR_NULL(aieth__rj_get(tj, "stats"));
	CU_ASSERT_PTR_NULL(aieth__rj_get(at(tj, "channels", 1), "stats"));
	NEAR(aieth__rj_getd(at(at(tj, "channels", 1), "thresholds", 0), "measured"), 480);
	CU_ASSERT_EQUAL(aieth__rj_geti(tj, "median_run"), 0);
	/* the warm-up run's failure is the channel's */
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(at(tj, "channels", 1), "verdict"), "fail");
	CU_ASSERT_EQUAL(json_object_array_length(
				aieth__rj_get(at(tj, "channels", 1), "failed_warmup_runs")),
			1);
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(at(tj, "channels", 0), "verdict"), "pass");
	CU_ASSERT_PTR_NULL(aieth__rj_get(at(tj, "channels", 0), "failed_warmup_runs"));
	json_object_put(warm);
	done(&c, runs, 1, tj);
}

static void test_summary_broken_run(void)
{
	run_ctx c;
	json_object *broken = aieth__rj_obj(), *failed = aieth__rj_arr(), *tj = aieth__rj_obj(), *f;
	json_object *runs[1] = {fake_run(700, 480, 11, 0)};
	memset(&c, 0, sizeof c);
	CU_ASSERT_EQUAL_FATAL(
		aieth_spec_parse(&c.sp, "t.json", SPEC_TEXT "}", strlen(SPEC_TEXT "}"), "/base"),
		AIETH_OK);
	c.runs = 3;
	aieth__rj_str(broken, "status", "timeout");
	aieth__rj_str(broken, "message", "PLIO_01_FROM_AIE stalled");
	aieth__rn_run_failures(&c, &c.sp->txns[0], broken, 1, failed);
	CU_ASSERT_EQUAL(sum_up(&c, tj, runs, 1, broken, failed), AIETH_EXIT_PASS);
	/* the run that did not complete is the one shown, no median */
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(tj, "status"), "timeout");
	CU_ASSERT_PTR_NULL(aieth__rj_get(tj, "median_run"));
	CU_ASSERT_TRUE(json_object_object_get_ex(tj, "median_run", NULL));
	f = at(tj, "runs_failed", 0);
	CU_ASSERT_PTR_NULL(aieth__rj_get(f, "plio"));
	CU_ASSERT_STRING_EQUAL(aieth__rj_gets(f, "reason"),
			       "transactions[0] run 2 of 3: timeout: PLIO_01_FROM_AIE stalled");
	json_object_put(broken);
	done(&c, runs, 1, tj);
}

TU_MAIN("stats", {"lower median, mad, stddev, the run shown", test_basic},
	{"names, spread, errors", test_names_and_errors},
	{"summary: the median run, stats, thresholds on the median", test_summary_median_run},
	{"summary: another statistic", test_summary_statistic},
	{"summary: one bad run fails the channel, named", test_summary_one_bad_run},
	{"summary: the shown run's integrity", test_summary_integrity_shown},
	{"summary: warm-up checked, one run has no stats", test_summary_warmup_and_one_run},
	{"summary: a run that did not complete is shown", test_summary_broken_run})
