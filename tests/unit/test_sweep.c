/* SPDX-License-Identifier: MIT */
/*
 * test_sweep.c - the axes of a sweep (runner/sweep_axes.c): --sweep
 * AXIS=LIST texts, a description's "sweep" object, lists and ranges, the
 * grid and zip expansion, point names and the limits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_sweep.h"
#include "runner/sweep.h"
#include "tu.h"

static sweep_def *args_mode(const char *const *items, size_t n, int zip)
{
	sweep_def *d = NULL;
	CU_ASSERT_EQUAL(aieth__rn_sweep_parse_args(items, n, zip, &d), 0);
	return d;
}

static sweep_def *args(const char *const *items, size_t n) { return args_mode(items, n, 0); }

static int args_fail(const char *item, const char *msg_part)
{
	sweep_def *d = NULL;
	const char *items[] = {item};
	int rc = aieth__rn_sweep_parse_args(items, 1, 0, &d);
	CU_ASSERT_PTR_NULL(d);
	if (msg_part && !strstr(aieth_error_message(), msg_part)) {
		fprintf(stderr, "\n  message \"%s\" lacks \"%s\"\n", aieth_error_message(),
			msg_part);
		CU_FAIL("message");
	}
	aieth__rn_sweep_free(d);
	return rc;
}

static void test_lists_and_ranges(void)
{
	const char *items[] = {"size=4096..65536*2", "PLIO_01_TO_AIE.delay=0..400+100",
			       "mode=perf,func", "gr.gain=-1.5,2"};
	sweep_def *d = args(items, 4);
	size_t n;
	if (!d)
		return;
	CU_ASSERT_EQUAL(d->zip, 0);
	CU_ASSERT_EQUAL(d->nax, 4);
	CU_ASSERT_STRING_EQUAL(d->ax[0].name, "size");
	CU_ASSERT_EQUAL(d->ax[0].nv, 5); /* 4096 8192 16384 32768 65536 */
	CU_ASSERT_EQUAL(d->ax[0].v[4].u, 65536);
	CU_ASSERT_TRUE(d->ax[0].v[4].is_uint);
	CU_ASSERT_EQUAL(d->ax[1].nv, 5); /* 0 100 200 300 400 */
	CU_ASSERT_EQUAL(d->ax[1].v[3].u, 300);
	CU_ASSERT_STRING_EQUAL(d->ax[2].v[1].text, "func");
	CU_ASSERT_FALSE(d->ax[2].v[1].is_num);
	CU_ASSERT_TRUE(d->ax[3].v[0].is_num);
	CU_ASSERT_FALSE(d->ax[3].v[0].is_uint);
	CU_ASSERT_STRING_EQUAL(d->ax[3].v[0].text, "-1.5");
	CU_ASSERT_EQUAL(aieth__rn_sweep_count(d, &n), 0);
	CU_ASSERT_EQUAL(n, 5 * 5 * 2 * 2);
	aieth__rn_sweep_free(d);
	/* a range that does not land on TO stops below it; a mixed list */
	{
		const char *it[] = {"size=16..100*3,4096,1..3+1"};
		d = args(it, 1);
		if (!d)
			return;
		CU_ASSERT_EQUAL(d->ax[0].nv, 2 + 1 + 3); /* 16 48 ; 4096 ; 1 2 3 */
		CU_ASSERT_EQUAL(d->ax[0].v[1].u, 48);
		CU_ASSERT_EQUAL(d->ax[0].v[2].u, 4096);
		aieth__rn_sweep_free(d);
	}
	/* no overflow near the top of uint64 */
	{
		const char *it[] = {"delay=9223372036854775808..18446744073709551615*2"};
		d = args(it, 1);
		if (!d)
			return;
		CU_ASSERT_EQUAL(d->ax[0].nv, 1);
		aieth__rn_sweep_free(d);
	}
}

static void test_grid_and_zip(void)
{
	const char *items[] = {"a=1,2", "b=x,y,z"};
	const char *zitems[] = {"a=1,2,3", "b=x,y,z"};
	size_t idx[2], n;
	char name[200];
	sweep_def *d = args(items, 2);
	if (!d)
		return;
	CU_ASSERT_EQUAL(aieth__rn_sweep_count(d, &n), 0);
	CU_ASSERT_EQUAL(n, 6);
	/* the first axis varies slowest */
	aieth__rn_sweep_point(d, 0, idx);
	CU_ASSERT(idx[0] == 0 && idx[1] == 0);
	aieth__rn_sweep_point(d, 2, idx);
	CU_ASSERT(idx[0] == 0 && idx[1] == 2);
	aieth__rn_sweep_point(d, 3, idx);
	CU_ASSERT(idx[0] == 1 && idx[1] == 0);
	CU_ASSERT_EQUAL(aieth__rn_sweep_point_name(d, idx, "t", name, sizeof name),
			strlen("t[a=2,b=x]"));
	CU_ASSERT_STRING_EQUAL(name, "t[a=2,b=x]");
	/* a name longer than the buffer: the length it has, the buffer cut */
	CU_ASSERT_EQUAL(aieth__rn_sweep_point_name(d, idx, "t", name, 4), strlen("t[a=2,b=x]"));
	CU_ASSERT_STRING_EQUAL(name, "t[a");
	aieth__rn_sweep_free(d);
	d = args_mode(zitems, 2, 1);
	if (!d)
		return;
	CU_ASSERT_EQUAL(d->zip, 1);
	CU_ASSERT_EQUAL(aieth__rn_sweep_count(d, &n), 0);
	CU_ASSERT_EQUAL(n, 3);
	aieth__rn_sweep_point(d, 2, idx);
	CU_ASSERT(idx[0] == 2 && idx[1] == 2);
	aieth__rn_sweep_free(d);
	/* a zip of lists of two lengths */
	{
		const char *bad[] = {"a=1,2", "b=x,y,z"};
		d = args_mode(bad, 2, 1);
		if (!d)
			return;
		CU_ASSERT_EQUAL(aieth__rn_sweep_count(d, &n), AIETH_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(
			strstr(aieth_error_message(), "axis b has 3 values, axis a 2"));
		aieth__rn_sweep_free(d);
	}
}

static void test_limits(void)
{
	const char *items[] = {"a=1..1000+1", "b=1..101+1"};
	const char *ok[] = {"a=1..1000+1", "b=1..100+1"};
	sweep_def *d = args(items, 2);
	size_t n;
	if (!d)
		return;
	/* 101,000 points: refused with the count */
	CU_ASSERT_EQUAL(aieth__rn_sweep_count(d, &n), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "101000 points (a 1000 x b 101)"));
	aieth__rn_sweep_free(d);
	d = args(ok, 2);
	if (!d)
		return;
	CU_ASSERT_EQUAL(aieth__rn_sweep_count(d, &n), 0);
	CU_ASSERT_EQUAL(n, SWEEP_MAX_POINTS);
	aieth__rn_sweep_free(d);
	/* one axis of more than the limit: refused while it is read */
	CU_ASSERT_EQUAL(args_fail("a=0..100000+1", "more than 100000 values"), AIETH_EINVAL);
	/* a grid whose product passes size_t: still the count, no wrap */
	{
		const char *big[] = {"a=1..100000+1", "b=1..100000+1", "c=1..100000+1",
				     "d=1..100000+1"};
		d = args(big, 4);
		if (!d)
			return;
		CU_ASSERT_EQUAL(aieth__rn_sweep_count(d, &n), AIETH_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(
			strstr(aieth_error_message(), "100000000000000000000 points"));
		aieth__rn_sweep_free(d);
	}
}

static void test_bad_args(void)
{
	CU_ASSERT_EQUAL(args_fail("size", "expected AXIS=LIST"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("=1", "expected AXIS=LIST"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("size=", "no values"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("size=1,,2", "an empty value"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("size=1,", "an empty value at the end"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("size=10..1+1", "\"from\" is more than \"to\""), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("size=1..10*1", "TIMES is at least 2"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("size=1..10+0", "STEP is at least 1"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("size=0..10*2", "starts above 0"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("size=1..10", "FROM..TO*TIMES"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("size=a..10+1", "FROM \"a\" is not a whole number"),
			AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("size=1..99999999999999999999+1", "TO"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("mode=pe rf", "a word holds"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("mode=a[b]", "a word holds"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("a.b.c=1", "one '.'"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail("a-b=1", "only letters"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(args_fail(".b=1", "one '.'"), AIETH_EINVAL);
	{
		const char *two[] = {"size=16", "size=32"};
		sweep_def *d = NULL;
		CU_ASSERT_EQUAL(aieth__rn_sweep_parse_args(two, 2, 0, &d), AIETH_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "axis size is given twice"));
		CU_ASSERT_EQUAL(aieth__rn_sweep_parse_args(two, 0, 0, &d), AIETH_EINVAL);
		CU_ASSERT_EQUAL(aieth__rn_sweep_parse_args(two, 0, 1, &d), AIETH_EINVAL);
	}
	{
		/* a mode word is not an axis (the mode is its own argument) */
		const char *zip_only[] = {"zip"};
		sweep_def *d = NULL;
		CU_ASSERT_EQUAL(aieth__rn_sweep_parse_args(zip_only, 1, 1, &d), AIETH_EINVAL);
	}
	{
		char long_word[200];
		memset(long_word, 'x', sizeof long_word - 1);
		long_word[sizeof long_word - 1] = '\0';
		memcpy(long_word, "mode=", 5);
		CU_ASSERT_EQUAL(args_fail(long_word, "longer than 64"), AIETH_EINVAL);
	}
}

static int json_parse(const char *text, sweep_def **d)
{
	struct json_object *o = json_tokener_parse(text);
	int rc;
	*d = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	rc = aieth__rn_sweep_parse_json("t.json", o, d);
	json_object_put(o);
	return rc;
}

static void test_json(void)
{
	sweep_def *d;
	size_t n;
	CU_ASSERT_EQUAL(json_parse("{\"mode\": \"zip\", \"axes\": {\"size\": [4096, 8192], "
				   "\"PLIO_01_TO_AIE.delay\": {\"from\": 0, \"to\": 100, "
				   "\"step\": 100}}}",
				   &d),
			0);
	if (!d)
		return;
	CU_ASSERT_EQUAL(d->zip, 1);
	/* the axes in the order written */
	CU_ASSERT_STRING_EQUAL(d->ax[0].name, "size");
	CU_ASSERT_STRING_EQUAL(d->ax[1].name, "PLIO_01_TO_AIE.delay");
	CU_ASSERT_EQUAL(aieth__rn_sweep_count(d, &n), 0);
	CU_ASSERT_EQUAL(n, 2);
	aieth__rn_sweep_free(d);
	CU_ASSERT_EQUAL(json_parse("{\"axes\": {\"size\": {\"from\": 4096, \"to\": 65536, "
				   "\"times\": 2}, \"mode\": [\"perf\", \"func\"], "
				   "\"g.k\": [0.25, -3]}}",
				   &d),
			0);
	if (!d)
		return;
	CU_ASSERT_EQUAL(d->zip, 0);
	CU_ASSERT_EQUAL(d->ax[0].nv, 5);
	CU_ASSERT_STRING_EQUAL(d->ax[2].v[0].text, "0.25");
	CU_ASSERT_STRING_EQUAL(d->ax[2].v[1].text, "-3");
	aieth__rn_sweep_free(d);
	/* errors name the file, the path and the rule */
	CU_ASSERT_EQUAL(json_parse("{\"axes\": {\"size\": []}}", &d), AIETH_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(aieth_error_message(), "t.json: sweep.axes.size: an empty list"));
	CU_ASSERT_EQUAL(json_parse("{\"axes\": {}}", &d), AIETH_EPARSE);
	CU_ASSERT_EQUAL(json_parse("{\"axes\": {\"size\": 4}}", &d), AIETH_EPARSE);
	CU_ASSERT_EQUAL(json_parse("{\"mode\": \"star\", \"axes\": {\"size\": [16]}}", &d),
			AIETH_EINVAL);
	CU_ASSERT_EQUAL(json_parse("{\"axes\": {\"size\": [16]}, \"x\": 1}", &d), AIETH_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "sweep.x: unknown key"));
	CU_ASSERT_EQUAL(json_parse("{\"axes\": {\"size\": [true]}}", &d), AIETH_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "sweep.axes.size[0]"));
	CU_ASSERT_EQUAL(json_parse("{\"axes\": {\"size\": {\"from\": 1, \"to\": 9}}}", &d),
			AIETH_EPARSE);
	CU_ASSERT_EQUAL(json_parse("{\"axes\": {\"size\": {\"from\": 1, \"to\": 9, \"times\": "
				   "2, \"step\": 1}}}",
				   &d),
			AIETH_EPARSE);
	CU_ASSERT_EQUAL(json_parse("{\"axes\": {\"size\": {\"from\": -1, \"to\": 9, \"step\": "
				   "1}}}",
				   &d),
			AIETH_EPARSE);
	CU_ASSERT_EQUAL(json_parse("{\"axes\": {\"mode\": [\"a,b\"]}}", &d), AIETH_EINVAL);
	CU_ASSERT_EQUAL(json_parse("[1]", &d), AIETH_EPARSE);
}

/* A point of a one-axis sweep "s" along "x" whose channel "P" moved at y
 * MB/s (y < 0: the transaction did not complete). */
static struct json_object *point(int i, int x, double y)
{
	char text[600];
	snprintf(text, sizeof text,
		 "{\"name\": \"s[x=%d]\", \"sweep\": {\"name\": \"s\", \"point\": %d, "
		 "\"points\": 9, \"values\": {\"x\": %d, \"w\": \"a\"}}, \"transactions\": "
		 "[{\"status\": \"%s\", \"channels\": [{\"plio\": \"P\", "
		 "\"throughput_MBps\": %g}]}]}",
		 x, i, x, y < 0 ? "timeout" : "done", y < 0 ? 0 : y);
	return json_tokener_parse(text);
}

/* The knee of points (x, y) along "x": its value (-1: null) and reason. */
static int knee_of(const int *x, const double *y, size_t n, char *reason, size_t rn)
{
	struct json_object *tests = json_object_new_array(), *sw, *k;
	size_t i, first = 0, count = 0;
	int v = -2;
	for (i = 0; i < n; i++)
		json_object_array_add(tests, point((int)i, x[i], y[i]));
	sw = json_tokener_parse("{\"name\": \"s\", \"axes\": [{\"name\": \"x\", \"values\": "
				"[1]}, {\"name\": \"w\", \"values\": [\"a\"]}]}");
	CU_ASSERT_EQUAL(aieth__sweep_tests(tests, 0, &first, &count), 0);
	CU_ASSERT_EQUAL(count, n);
	aieth__sweep_knees(sw, tests, first, count);
	/* the word axis has no knee; the numeric one one per channel */
	CU_ASSERT_EQUAL(json_object_array_length(json_object_object_get(sw, "knees")), 1);
	k = json_object_array_get_idx(json_object_object_get(sw, "knees"), 0);
	if (k) {
		struct json_object *val = json_object_object_get(k, "value");
		v = json_object_is_type(val, json_type_int) ? json_object_get_int(val) : -1;
		snprintf(reason, rn, "%s",
			 json_object_get_string(json_object_object_get(k, "reason")));
		CU_ASSERT_STRING_EQUAL(json_object_to_json_string(json_object_object_get(k, "at")),
				       "{ \"w\": \"a\" }");
	}
	json_object_put(sw);
	json_object_put(tests);
	return v;
}

static void test_knee(void)
{
	static const int x[] = {64, 128, 256, 512, 1024, 2048, 4096};
	char why[400];
	/* rises, then a plateau at 5000: 95 % of it first at 1024 */
	static const double rise[] = {300, 600, 1200, 2500, 4800, 5000, 4990};
	/* still rising at the end: no plateau */
	static const double still[] = {100, 200, 400, 800, 1600, 3200, 6400};
	/* a point that did not complete does not count */
	static const double hole[] = {300, 600, -1, 2500, 4900, 5000, 5000};
	/* in any order of the points */
	static const int xs[] = {4096, 64, 1024, 256, 2048, 128, 512};
	static const double ys[] = {4990, 300, 4800, 1200, 5000, 600, 2500};
	CU_ASSERT_EQUAL(knee_of(x, rise, 7, why, sizeof why), 1024);
	CU_ASSERT_STRING_EQUAL(why, "(null)");
	CU_ASSERT_EQUAL(knee_of(x, still, 7, why, sizeof why), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why,
				      "no plateau: the throughputs at the 3 largest values of x "
				      "differ by 300.0 %"));
	CU_ASSERT_EQUAL(knee_of(x, hole, 7, why, sizeof why), 1024);
	CU_ASSERT_EQUAL(knee_of(xs, ys, 7, why, sizeof why), 1024);
	CU_ASSERT_EQUAL(knee_of(x, rise, 2, why, sizeof why), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "2 points with a measured throughput along x: a knee "
					   "needs at least 3"));
	/* flat: the first value */
	{
		static const double flat[] = {5000, 5000, 5000};
		CU_ASSERT_EQUAL(knee_of(x, flat, 3, why, sizeof why), 64);
	}
}

TU_MAIN("sweep", {"knee: plateau, none, holes, order", test_knee},
	{"--sweep: lists and ranges", test_lists_and_ranges},
	{"grid and zip: order, names", test_grid_and_zip},
	{"limits: 100,000 points, refused with the count", test_limits},
	{"--sweep: errors name the rule", test_bad_args},
	{"description: \"sweep\" object", test_json})
