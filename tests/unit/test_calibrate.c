/* SPDX-License-Identifier: MIT */
/* test_calibrate.c - the parameter search of run_test calibrate
 * (calibrate_search.c) on objectives of its own: recovery from far starts,
 * parameters that trade against each other, bounds, the budget, the stop
 * flag, unrunnable candidates, determinism; and the API's state checks.
 * The fit against emulated runs: tests/e2e/calibrate.sh. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "runner/calibrate_internal.h"
#include "tu.h"
#include "util/error.h"

typedef struct {
	int64_t target[CAL_MAX_PARAMS];
	size_t n;
	unsigned calls, stop_at;
	int64_t wall;  /* x[0] above it cannot be evaluated (0: none) */
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
	double best = cal_search(&c, x, sum_abs, &o, &evals);
	CU_ASSERT_EQUAL(best, 0);
	CU_ASSERT(!memcmp(x, o.target, sizeof x));
	CU_ASSERT(evals == o.calls && evals < 2000);
	/* Far away, one coordinate: doubling steps get there in few runs. */
	{
		obj f = {{90000}, 1, 0, 0, 0};
		int64_t y = 1;
		c = cfg_of(1, 0, 100000, 200);
		CU_ASSERT_EQUAL(cal_search(&c, &y, sum_abs, &f, &evals), 0);
		CU_ASSERT_EQUAL(y, 90000);
		CU_ASSERT(evals < 120);
	}
}

static void t_ridge_pairs(void)
{
	obj o = {{0}, 2, 0, 0, 0};
	int64_t x[2] = {64, 3};
	cal_search_cfg c = cfg_of(2, 0, 1000, 5000);
	CU_ASSERT_EQUAL(cal_search(&c, x, ridge, &o, NULL), 0);
	CU_ASSERT(x[0] == 150 && x[1] == 5);
}

static void t_bounds(void)
{
	obj o = {{-50, 5000}, 2, 0, 0, 0};
	int64_t x[2] = {10, 10};
	cal_search_cfg c = cfg_of(2, 1, 1000, 1000);
	double best = cal_search(&c, x, sum_abs, &o, NULL);
	CU_ASSERT(x[0] == 1 && x[1] == 1000);
	CU_ASSERT_EQUAL(best, 51 + 4000);
	/* A start outside the bounds is clamped first. */
	x[0] = -7;
	x[1] = 99999;
	cal_search(&c, x, sum_abs, &o, NULL);
	CU_ASSERT(x[0] == 1 && x[1] == 1000);
}

static void t_budget_and_stop(void)
{
	obj o = {{150, 120}, 2, 0, 0, 0};
	int64_t x[2] = {64, 64};
	cal_search_cfg c = cfg_of(2, 0, 100000, 5);
	unsigned evals = 0;
	cal_search(&c, x, sum_abs, &o, &evals);
	CU_ASSERT(evals == 5 && o.calls == 5);
	memset(&o, 0, sizeof o);
	o.n = 2;
	o.target[0] = 150;
	o.stop_at = 3;
	x[0] = x[1] = 64;
	c.max_evals = 100;
	cal_search(&c, x, sum_abs, &o, &evals);
	CU_ASSERT(evals == 3 && o.calls == 3);
}

static void t_unrunnable(void)
{
	obj o = {{120}, 1, 0, 0, 100};
	int64_t x = 64;
	cal_search_cfg c = cfg_of(1, 0, 100000, 500);
	double best = cal_search(&c, &x, sum_abs, &o, NULL);
	CU_ASSERT_EQUAL(x, 100);
	CU_ASSERT_EQUAL(best, 20);
}

static void t_deterministic(void)
{
	obj a = {{0}, 2, 0, 0, 0}, b = {{0}, 2, 0, 0, 0};
	int64_t x[2] = {7, 300}, y[2] = {7, 300};
	cal_search_cfg c = cfg_of(2, 0, 1000, 37);
	unsigned ea, eb;
	double ca = cal_search(&c, x, ridge, &a, &ea), cb = cal_search(&c, y, ridge, &b, &eb);
	CU_ASSERT(ca == cb && ea == eb && x[0] == y[0] && x[1] == y[1]);
}

static void t_bad_args(void)
{
	obj o = {{0}, 1, 0, 0, 0};
	int64_t x = 0;
	cal_search_cfg c = cfg_of(1, 0, 10, 10);
	unsigned e = 9;
	CU_ASSERT(isinf(cal_search(NULL, &x, sum_abs, &o, &e)) && e == 0);
	c.n = 0;
	CU_ASSERT(isinf(cal_search(&c, &x, sum_abs, &o, NULL)));
	c.n = CAL_MAX_PARAMS + 1;
	CU_ASSERT(isinf(cal_search(&c, &x, sum_abs, &o, NULL)));
	c.n = 1;
	c.max_evals = 0;
	CU_ASSERT(isinf(cal_search(&c, &x, sum_abs, &o, NULL)));
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

TU_MAIN("calibrate", {"recovers", t_recovers}, {"ridge_pairs", t_ridge_pairs},
	{"bounds", t_bounds}, {"budget_and_stop", t_budget_and_stop},
	{"unrunnable", t_unrunnable}, {"deterministic", t_deterministic},
	{"bad_args", t_bad_args}, {"api_states", t_api_states})
