/* SPDX-License-Identifier: MIT */
/* test_report_compare.c - regression gates: reading reports back, matching
 * by test / transaction / PLIO, tolerances and their overrides,
 * improvements, missing and new items, refused baselines. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aieth.h"
#include "report/report_compare_internal.h"
#include "runner/spec.h"
#include "tu.h"

#define MSG_HAS(s)                                                           \
	do {                                                                 \
		if (!strstr(aieth_error_message(), (s)))                     \
			fprintf(stderr, "\n  message: %s\n  expected: %s\n", \
				aieth_error_message(), (s));                 \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)));  \
	} while (0)

/* One channel of a report. */
static const char *ch(char *buf, size_t n, const char *plio, double mbps, double cycles,
		      double last)
{
	snprintf(buf, n,
		 "{\"plio\": \"%s\", \"throughput_MBps\": %.17g, \"cycles\": %.17g, "
		 "\"last_cycle\": %.17g}",
		 plio, mbps, cycles, last);
	return buf;
}

/* A report of one test "t" (transaction 0 "tx") on board/backend/clock. */
static aieth_report *rep(const char *board, const char *backend, double mhz, const char *test_regr,
			 const char *txn_regr, const char *chans, const char *lat_cycles)
{
	static char text[8192];
	aieth_report *r = NULL;
	snprintf(
		text, sizeof text,
		"{\"schema\": \"aieth-report/1\", \"run\": {\"id\": \"r1\"}, \"tests\": [{"
		"\"name\": \"t\", \"board\": \"%s\", \"backend\": \"%s\", \"pl_clock_MHz\": %g%s%s,"
		" \"transactions\": [{\"index\": 0, \"name\": \"tx\", \"total_cycles\": 2000%s%s,"
		" \"channels\": [%s], \"latencies\": [{\"from\": \"PLIO_01_TO_AIE\", \"to\": "
		"\"PLIO_01_FROM_AIE\", \"cycles\": %s}]}]}]}",
		board, backend, mhz, test_regr ? ", \"regression\": " : "",
		test_regr ? test_regr : "", txn_regr ? ", \"regression\": " : "",
		txn_regr ? txn_regr : "", chans, lat_cycles);
	if (aieth_report_parse(&r, "r.json", text, strlen(text)) != AIETH_OK)
		fprintf(stderr, "\n  parse: %s\n", aieth_error_message());
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	return r;
}

static const char *two(double mbps, double cycles)
{
	static char buf[600];
	char a[250], b[250];
	snprintf(buf, sizeof buf, "%s, %s", ch(a, sizeof a, "PLIO_01_TO_AIE", 5000, 1024, 1030),
		 ch(b, sizeof b, "PLIO_01_FROM_AIE", mbps, cycles, 1050));
	return buf;
}

/* Compare now with base at pct; returns the exit code, text in *txt. */
static int cmp(aieth_report *base, aieth_report *now, double pct, char **txt, size_t *reg,
	       size_t *imp)
{
	aieth_report_diff *d = NULL;
	int code;
	CU_ASSERT_EQUAL_FATAL(aieth_report_compare(&d, base, "old.json", now, pct), AIETH_OK);
	code = aieth_report_diff_exit(d);
	if (txt)
		*txt = aieth_report_diff_text(d);
	if (reg)
		*reg = aieth_report_diff_regressions(d);
	if (imp)
		*imp = aieth_report_diff_improvements(d);
	aieth_report_diff_free(d);
	aieth_report_free(base);
	aieth_report_free(now);
	return code;
}

static void t_identical(void)
{
	char *txt = NULL;
	size_t reg = 9, imp = 9;
	int code = cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
		       rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"), -1, &txt,
		       &reg, &imp);
	CU_ASSERT_EQUAL(code, 0);
	CU_ASSERT_EQUAL(reg, 0);
	CU_ASSERT_EQUAL(imp, 0);
	CU_ASSERT_TRUE(txt && strstr(txt, "8 values compared"));
	CU_ASSERT_TRUE(txt && strstr(txt, "nothing moved"));
	free(txt);
}

static void t_throughput_drop(void)
{
	char *txt = NULL;
	size_t reg = 0;
	/* -10% against the default 5%: a regression naming the channel */
	int code = cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
		       rep("vck190", "emu", 312.5, NULL, NULL, two(4500, 1024), "16"), -1, &txt,
		       &reg, NULL);
	CU_ASSERT_EQUAL(code, 1);
	CU_ASSERT_EQUAL(reg, 1);
	CU_ASSERT_TRUE(txt && strstr(txt, "-10.00%"));
	CU_ASSERT_TRUE(txt && strstr(txt, "regression  t.tx.PLIO_01_FROM_AIE"));
	free(txt);
	/* within a 20% tolerance: listed as moved, not a failure */
	code = cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
		   rep("vck190", "emu", 312.5, NULL, NULL, two(4500, 1024), "16"), 20, &txt, &reg,
		   NULL);
	CU_ASSERT_EQUAL(code, 0);
	CU_ASSERT_TRUE(txt && strstr(txt, "ok          t.tx.PLIO_01_FROM_AIE"));
	free(txt);
	/* exactly at the tolerance is still within it */
	code = cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
		   rep("vck190", "emu", 312.5, NULL, NULL, two(4750, 1024), "16"), 5, NULL, NULL,
		   NULL);
	CU_ASSERT_EQUAL(code, 0);
}

static void t_improvements(void)
{
	char *txt = NULL;
	size_t reg = 9, imp = 0;
	/* more throughput and fewer cycles: reported, never a failure */
	int code = cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
		       rep("vck190", "emu", 312.5, NULL, NULL, two(5600, 900), "8"), -1, &txt, &reg,
		       &imp);
	CU_ASSERT_EQUAL(code, 0);
	CU_ASSERT_EQUAL(reg, 0);
	CU_ASSERT_EQUAL(imp, 3);
	CU_ASSERT_TRUE(txt && strstr(txt, "improved"));
	free(txt);
	/* a rise of cycles is a regression */
	code = cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
		   rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1200), "16"), -1, &txt, NULL,
		   NULL);
	CU_ASSERT_EQUAL(code, 1);
	CU_ASSERT_TRUE(txt && strstr(txt, "cycles "));
	free(txt);
}

static void t_missing_and_new(void)
{
	char a[250], b[600], *txt = NULL;
	/* a baseline channel absent now: a failure */
	int code = cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
		       rep("vck190", "emu", 312.5, NULL, NULL,
			   ch(a, sizeof a, "PLIO_01_TO_AIE", 5000, 1024, 1030), "16"),
		       -1, &txt, NULL, NULL);
	CU_ASSERT_EQUAL(code, 1);
	CU_ASSERT_TRUE(txt && strstr(txt, "missing     t.tx.PLIO_01_FROM_AIE"));
	free(txt);
	/* a channel of the new run only: listed, not a failure */
	snprintf(b, sizeof b, "%s, %s", two(5000, 1024),
		 ch(a, sizeof a, "PLIO_02_FROM_AIE", 5000, 1024, 1030));
	code = cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
		   rep("vck190", "emu", 312.5, NULL, NULL, b, "16"), -1, &txt, NULL, NULL);
	CU_ASSERT_EQUAL(code, 0);
	CU_ASSERT_TRUE(txt && strstr(txt, "new         t.tx.PLIO_02_FROM_AIE"));
	free(txt);
	/* unfinished now (null), measured then: a failure */
	code = cmp(
		rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
		rep("vck190", "emu", 312.5, NULL, NULL,
		    "{\"plio\": \"PLIO_01_TO_AIE\", \"throughput_MBps\": 5000, \"cycles\": 1024, "
		    "\"last_cycle\": 1030}, {\"plio\": \"PLIO_01_FROM_AIE\", \"throughput_MBps\":"
		    " null, \"cycles\": null, \"last_cycle\": null}",
		    "null"),
		-1, &txt, NULL, NULL);
	CU_ASSERT_EQUAL(code, 1);
	CU_ASSERT_TRUE(txt && strstr(txt, "unfinished"));
	free(txt);
}

static void t_latency(void)
{
	char *txt = NULL;
	/* 16 -> 20 cycles: +25% */
	CU_ASSERT_EQUAL(cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
			    rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "20"), -1,
			    &txt, NULL, NULL),
			1);
	CU_ASSERT_TRUE(txt && strstr(txt, "t.tx.PLIO_01_TO_AIE->PLIO_01_FROM_AIE"));
	free(txt);
	/* from 0 there is no percentage: any rise is beyond tolerance */
	CU_ASSERT_EQUAL(cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "0"),
			    rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "1"), 50, &txt,
			    NULL, NULL),
			1);
	CU_ASSERT_TRUE(txt && strstr(txt, "from 0"));
	free(txt);
}

static void t_overrides(void)
{
	/* the test's throughput_pct (20) over the default 5 */
	CU_ASSERT_EQUAL(cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
			    rep("vck190", "emu", 312.5, "{\"throughput_pct\": 20}", NULL,
				two(4500, 1024), "16"),
			    -1, NULL, NULL, NULL),
			0);
	/* the transaction's (1) over the test's (20) */
	CU_ASSERT_EQUAL(cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
			    rep("vck190", "emu", 312.5, "{\"throughput_pct\": 20}",
				"{\"throughput_pct\": 1}", two(4900, 1024), "16"),
			    -1, NULL, NULL, NULL),
			1);
	/* per metric: a latency tolerance does not widen the throughput one */
	CU_ASSERT_EQUAL(cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
			    rep("vck190", "emu", 312.5, "{\"latency_pct\": 50}", NULL,
				two(4500, 1024), "20"),
			    -1, NULL, NULL, NULL),
			1);
	CU_ASSERT_EQUAL(cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
			    rep("vck190", "emu", 312.5, "{\"latency_pct\": 50, \"cycles_pct\": 30}",
				NULL, two(5000, 1300), "20"),
			    -1, NULL, NULL, NULL),
			0);
}

static void t_refused(void)
{
	char *txt = NULL;
	CU_ASSERT_EQUAL(cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
			    rep("vek280", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"), -1,
			    &txt, NULL, NULL),
			2);
	CU_ASSERT_TRUE(txt && strstr(txt, "refused"));
	CU_ASSERT_TRUE(txt && strstr(txt, "\"vek280\""));
	free(txt);
	CU_ASSERT_EQUAL(cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
			    rep("vck190", "emu", 300, NULL, NULL, two(5000, 1024), "16"), -1, &txt,
			    NULL, NULL),
			2);
	CU_ASSERT_TRUE(txt && strstr(txt, "PL clock 300 MHz"));
	free(txt);
	/* emulated against a board: refused; xrt and remote are both a board */
	CU_ASSERT_EQUAL(cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16"),
			    rep("vck190", "xrt", 312.5, NULL, NULL, two(5000, 1024), "16"), -1,
			    NULL, NULL, NULL),
			2);
	CU_ASSERT_EQUAL(cmp(rep("vck190", "remote", 312.5, NULL, NULL, two(5000, 1024), "16"),
			    rep("vck190", "xrt", 312.5, NULL, NULL, two(5000, 1024), "16"), -1,
			    NULL, NULL, NULL),
			0);
}

static void t_no_common_test(void)
{
	const char *x = "{\"schema\": \"aieth-report/1\", \"tests\": [{\"name\": \"a\"}]}";
	const char *y = "{\"schema\": \"aieth-report/1\", \"tests\": [{\"name\": \"b\"}]}";
	aieth_report *a = NULL, *b = NULL;
	char *txt = NULL;
	CU_ASSERT_EQUAL_FATAL(aieth_report_parse(&a, "a.json", x, strlen(x)), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_report_parse(&b, "b.json", y, strlen(y)), AIETH_OK);
	CU_ASSERT_EQUAL(cmp(a, b, -1, &txt, NULL, NULL), 2);
	CU_ASSERT_TRUE(txt && strstr(txt, "shares no test name"));
	free(txt);
}

static void t_bad_reports(void)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{"{\"schema\": \"aieth-report/1\", \"tests\": [", "r.json"},
		{"[]", "r.json"},
		{"{\"schema\": \"aieth-report/9\", \"tests\": []}", "aieth-report/9"},
		{"{\"schema\": \"aieth-report/1\"}", "r.json: tests: missing"},
		{"{\"schema\": \"aieth-report/1\", \"tests\": [{}]}", "tests[0].name: missing"},
		{"{\"schema\": \"aieth-report/1\", \"tests\": [{\"name\": \"t\", \"transactions\": "
		 "[{\"index\": 0, \"name\": \"x\", \"channels\": [{\"plio\": \"P\", "
		 "\"throughput_MBps\": \"fast\"}]}]}]}",
		 "r.json: tests[0].transactions[0].channels[0].throughput_MBps: expected a number"},
		{"{\"schema\": \"aieth-report/1\", \"tests\": [{\"name\": \"t\", \"transactions\": "
		 "[{\"index\": -1, \"name\": \"x\"}]}]}",
		 "tests[0].transactions[0].index: expected an integer >= 0"},
		{"{\"schema\": \"aieth-report/1\", \"tests\": [{\"name\": \"t\", \"regression\": "
		 "{\"speed\": 1}}]}",
		 "speed"},
		{"{\"schema\": \"aieth-report/1\", \"tests\": [{\"name\": \"t\", \"pl_clock_MHz\": "
		 "-1}]}",
		 "tests[0].pl_clock_MHz: value -1 is out of range"},
		{"{\"schema\": \"aieth-report/1\", \"tests\": [], \"tests\": []}", "tests"},
		{"{\"schema\": \"aieth-report/3\", \"tests\": []}",
		 "\"aieth-report/3\" is not a report this program reads (\"aieth-report/2\" or "
		 "\"aieth-report/1\")"},
		{"{\"schema\": \"aieth-report/2\", \"tests\": [{\"name\": \"t\", \"repeat\": "
		 "{\"statistic\": \"p99\"}}]}",
		 "r.json: tests[0].repeat.statistic: expected one of median, min, max, mean"},
		{"{\"schema\": \"aieth-report/2\", \"tests\": [{\"name\": \"t\", \"transactions\": "
		 "[{\"index\": 0, \"name\": \"x\", \"channels\": [{\"plio\": \"P\", \"stats\": "
		 "{\"throughput_MBps\": {\"median\": \"fast\"}}}]}]}]}",
		 "r.json: tests[0].transactions[0].channels[0].stats.throughput_MBps.median: "
		 "expected a number"},
		{"{\"schema\": \"aieth-report/2\", \"tests\": [{\"name\": \"t\", \"transactions\": "
		 "[{\"index\": 0, \"name\": \"x\", \"stats\": {\"total_cycles\": 5}}]}]}",
		 "r.json: tests[0].transactions[0].stats.total_cycles: expected an object"},
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		aieth_report *r = (aieth_report *)1;
		CU_ASSERT_NOT_EQUAL(
			aieth_report_parse(&r, "r.json", cases[i].text, strlen(cases[i].text)),
			AIETH_OK);
		CU_ASSERT_PTR_NULL(r);
		MSG_HAS(cases[i].msg);
	}
	{
		aieth_report *r = NULL;
		CU_ASSERT_NOT_EQUAL(aieth_report_load(&r, "/nonexistent/old.json"), AIETH_OK);
		MSG_HAS("/nonexistent/old.json");
	}
}

static void t_record(void)
{
	aieth_report *base = rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 1024), "16");
	aieth_report *now = rep("vck190", "emu", 312.5, NULL, NULL, two(4000, 1024), "16");
	aieth_report_diff *d = NULL;
	char *p;
	CU_ASSERT_EQUAL(aieth_report_compare(&d, base, "old.json", now, NAN), AIETH_EINVAL);
	CU_ASSERT_EQUAL_FATAL(aieth_report_compare(&d, base, "old.json", now, 5), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_add_baseline(now, d), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_finish(now), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_exit_code(now), 1);
	p = aieth_report_text(now, -1);
	CU_ASSERT_TRUE(p && strstr(p, "baseline"));
	free(p);
	aieth_report_diff_free(d);
	aieth_report_free(base);
	aieth_report_free(now);
}

static void t_repeated_names(void)
{
	/* two tests named t: matched by occurrence, the second one regressed */
	const char *fmt = "{\"schema\": \"aieth-report/1\", \"tests\": [{\"name\": \"t\", "
			  "\"transactions\": [{\"index\": 0, \"name\": \"x\", \"total_cycles\": "
			  "100}]}, {\"name\": \"t\", \"transactions\": [{\"index\": 0, \"name\": "
			  "\"x\", \"total_cycles\": %d}]}]}";
	char x[400], y[400];
	aieth_report *a = NULL, *b = NULL;
	snprintf(x, sizeof x, fmt, 100);
	snprintf(y, sizeof y, fmt, 200);
	CU_ASSERT_EQUAL_FATAL(aieth_report_parse(&a, "a.json", x, strlen(x)), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_report_parse(&b, "b.json", y, strlen(y)), AIETH_OK);
	CU_ASSERT_EQUAL(cmp(a, b, -1, NULL, NULL, NULL), 1);
}

/* The description's "regression" objects: parsed, or errors that name the
 * field. */
static void t_spec_regression(void)
{
	static const struct {
		const char *top, *txn, *msg;
	} bad[] = {
		{"\"regression\": 5,", "", "regression: expected an object"},
		{"\"regression\": {},", "", "regression: expected an object with one or more"},
		{"\"regression\": {\"speed_pct\": 1},", "", "speed_pct"},
		{"\"regression\": {\"throughput_pct\": -1},", "", "regression.throughput_pct"},
		{"\"regression\": {\"cycles_pct\": \"5\"},", "", "expected a number"},
		{"", "\"regression\": {\"latency_pct\": 2e6},",
		 "transactions[0].regression.latency_pct"},
	};
	char text[1000];
	aieth_spec *sp = NULL;
	size_t i;
	const char *fmt = "{\"schema\": \"aieth-test/1\", %s \"board\": \"vck190\", "
			  "\"transactions\": [{%s \"mode\": \"perf\", \"channels\": [{\"plio\": "
			  "\"PLIO_01_TO_AIE\", \"size\": 64}]}]}";
	snprintf(text, sizeof text, fmt, "\"regression\": {\"throughput_pct\": 2},",
		 "\"regression\": {\"latency_pct\": 10, \"cycles_pct\": 0},");
	CU_ASSERT_EQUAL_FATAL(aieth_spec_parse(&sp, "t.json", text, strlen(text), "."), AIETH_OK);
	CU_ASSERT(sp->regr.have && sp->regr.throughput_pct == 2 && sp->regr.latency_pct < 0);
	CU_ASSERT(sp->txns[0].regr.have && sp->txns[0].regr.latency_pct == 10 &&
		  sp->txns[0].regr.cycles_pct == 0 && sp->txns[0].regr.throughput_pct < 0);
	aieth_spec_free(sp);
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		sp = NULL;
		snprintf(text, sizeof text, fmt, bad[i].top, bad[i].txn);
		CU_ASSERT_NOT_EQUAL(aieth_spec_parse(&sp, "t.json", text, strlen(text), "."),
				    AIETH_OK);
		CU_ASSERT_PTR_NULL(sp);
		MSG_HAS(bad[i].msg);
		MSG_HAS("t.json");
	}
}

/* A report of repeated runs (aieth-report/2): channel PLIO_01_FROM_AIE's
 * scalar is the median run's (5000), its statistics say median `med`, max
 * `max`; the test's statistic is `stat`. */
static aieth_report *rep2(const char *stat, double med, double max)
{
	static char text[4096];
	aieth_report *r = NULL;
	snprintf(text, sizeof text,
		 "{\"schema\": \"aieth-report/2\", \"run\": {\"id\": \"r2\"}, \"tests\": [{"
		 "\"name\": \"t\", \"board\": \"vck190\", \"backend\": \"emu\", "
		 "\"pl_clock_MHz\": 312.5, \"repeat\": {\"runs\": 3, \"warmup\": 0, "
		 "\"statistic\": \"%s\"}, \"transactions\": [{\"index\": 0, \"name\": \"tx\", "
		 "\"total_cycles\": 2000, \"median_run\": 1, \"runs_failed\": [], \"channels\": "
		 "[{\"plio\": \"PLIO_01_TO_AIE\", \"throughput_MBps\": 5000, \"cycles\": 1024, "
		 "\"last_cycle\": 1030}, {\"plio\": \"PLIO_01_FROM_AIE\", \"throughput_MBps\": "
		 "5000, \"cycles\": 2000, \"last_cycle\": 1050, \"stats\": {\"throughput_MBps\": "
		 "{\"median\": %g, \"min\": 1, \"max\": %g, \"mean\": %g, \"stddev\": 1, "
		 "\"mad\": 1, \"runs\": [1, %g, %g]}}}], \"latencies\": [{\"from\": "
		 "\"PLIO_01_TO_AIE\", \"to\": \"PLIO_01_FROM_AIE\", \"cycles\": 16}]}]}]}",
		 stat, med, max, med, med, max);
	if (aieth_report_parse(&r, "r2.json", text, strlen(text)) != AIETH_OK)
		fprintf(stderr, "\n  parse: %s\n", aieth_error_message());
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	return r;
}

/* aieth-report/1 and /2 compare with each other; of repeated runs the
 * comparison reads the test's statistic of each figure */
static void t_repeated_runs(void)
{
	size_t reg = 0;
	/* a /1 baseline (one run, 5000) against /2 whose median is 5000 */
	CU_ASSERT_EQUAL(cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 2000), "16"),
			    rep2("median", 5000, 5100), -1, NULL, &reg, NULL),
			0);
	CU_ASSERT_EQUAL(reg, 0);
	/* the median run's scalar is still 5000, the median of the runs 4000:
	 * the median is compared, a regression */
	CU_ASSERT_EQUAL(cmp(rep("vck190", "emu", 312.5, NULL, NULL, two(5000, 2000), "16"),
			    rep2("median", 4000, 5000), -1, NULL, &reg, NULL),
			1);
	CU_ASSERT_EQUAL(reg, 1);
	/* statistic "max": the max of each side (5000 and 5000: no change) */
	CU_ASSERT_EQUAL(cmp(rep2("max", 3000, 5000), rep2("max", 4000, 5000), -1, NULL, &reg, NULL),
			0);
	CU_ASSERT_EQUAL(reg, 0);
	/* /2 against /2 medians */
	CU_ASSERT_EQUAL(
		cmp(rep2("median", 5000, 5000), rep2("median", 4000, 5000), -1, NULL, &reg, NULL),
		1);
}

/* A report of n tests, names "t0000".."t2047" repeated: now in run
 * order, the baseline by name descending (each name's occurrences in run
 * order); test (name, occurrence) has throughput 1000 + name + 3000 x
 * occurrence, but `slow` (run index in now) is halved in `now`. */
static char *many(size_t n, int is_base, size_t slow)
{
	size_t cap = n * 220 + 100, len, p;
	char *t = malloc(cap);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	len = (size_t)snprintf(t, cap, "{\"schema\": \"aieth-report/1\", \"tests\": [");
	for (p = 0; p < n; p++) {
		size_t k = p / 2048, name = is_base ? 2047 - p % 2048 : p % 2048;
		size_t run = k * 2048 + name; /* its index in now */
		double v = 1000.0 + (double)name + 3000.0 * (double)k;
		if (!is_base && run == slow)
			v /= 2;
		len += (size_t)snprintf(t + len, cap - len,
					"%s{\"name\": \"t%04zu\", \"board\": \"vck190\", "
					"\"backend\": \"emu\", \"transactions\": [{\"index\": 0, "
					"\"name\": \"x\", \"channels\": [{\"plio\": \"P\", "
					"\"throughput_MBps\": %.1f}]}]}",
					p ? ", " : "", name, v);
	}
	snprintf(t + len, cap - len, "]}");
	return t;
}

/* The loader's limit of tests, each matched by name and occurrence in
 * n log n name comparisons (matching them pairwise made about 8 million
 * at this count); one past the limit is refused. */
static void t_many_tests(void)
{
	enum { N = 4096, SLOW = 2048 + 100 };
	char *tb = many(N, 1, SLOW), *tn = many(N, 0, SLOW), *big = many(N + 1, 0, SLOW);
	aieth_report *base = NULL, *now = NULL, *r = (aieth_report *)1;
	aieth_report_diff *d = NULL;
	size_t i, other = 0;
	CU_ASSERT_EQUAL_FATAL(aieth_report_parse(&base, "b.json", tb, strlen(tb)), AIETH_OK);
	CU_ASSERT_EQUAL_FATAL(aieth_report_parse(&now, "n.json", tn, strlen(tn)), AIETH_OK);
	aieth__rc_name_compares = 0;
	CU_ASSERT_EQUAL_FATAL(aieth_report_compare(&d, base, "b.json", now, 5), AIETH_OK);
	CU_ASSERT(aieth__rc_name_compares > 0 && aieth__rc_name_compares < 400000);
	CU_ASSERT_EQUAL(aieth_report_diff_exit(d), 1);
	CU_ASSERT_EQUAL(aieth_report_diff_regressions(d), 1);
	CU_ASSERT_EQUAL(d->compared, N);
	/* the one regression is of the second t0100 of now, nothing else moved */
	for (i = 0; i < d->nrows; i++) {
		if (d->rows[i].verdict == V_REGRESSION) {
			CU_ASSERT_STRING_EQUAL(d->rows[i].test, "t0100");
			CU_ASSERT_EQUAL(d->rows[i].fail_test, SLOW);
		} else {
			other++;
		}
	}
	CU_ASSERT_EQUAL(other, 0);
	CU_ASSERT_EQUAL(d->fails[SLOW], 1);
	aieth_report_diff_free(d);
	aieth_report_free(base);
	aieth_report_free(now);
	CU_ASSERT_EQUAL(aieth_report_parse(&r, "big.json", big, strlen(big)), AIETH_EINVAL);
	CU_ASSERT_PTR_NULL(r);
	MSG_HAS("big.json: tests: 4097 entries, more than the 4096 read");
	free(tb);
	free(tn);
	free(big);
}

TU_MAIN("report_compare", {"spec_regression", t_spec_regression}, {"identical", t_identical},
	{"repeated runs: /1 and /2, the statistic compared", t_repeated_runs},
	{"throughput_drop", t_throughput_drop}, {"improvements", t_improvements},
	{"missing_and_new", t_missing_and_new}, {"latency", t_latency}, {"overrides", t_overrides},
	{"refused", t_refused}, {"no_common_test", t_no_common_test},
	{"bad_reports", t_bad_reports}, {"record", t_record}, {"repeated_names", t_repeated_names},
	{"many tests: n log n matching, the limit", t_many_tests})
