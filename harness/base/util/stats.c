/* SPDX-License-Identifier: MIT */
/*
 * stats.c - median, mad, mean, stddev, min and max of repeated runs
 * (stats.h: the rule, the one place it is written in C).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The lower median of v[0..n), sorting v. */
static double lower_median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return v[(n - 1) / 2];
}

int aieth__stats_compute(const double *x, size_t n, aieth__stats *out)
{
	double *v, sum = 0, ss = 0;
	size_t i;
	if (!x || !out || !n)
		return aieth__fail(AIETH_EINVAL, "statistics of no values");
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return aieth__fail(AIETH_EINVAL, "statistics: value %zu is not finite", i);
	if (n > (size_t)-1 / sizeof *v || !(v = malloc(n * sizeof *v)))
		return aieth__fail(AIETH_ENOMEM, "statistics: out of memory for %zu values", n);
	memcpy(v, x, n * sizeof *v);
	memset(out, 0, sizeof *out);
	out->n = n;
	out->median = lower_median(v, n);
	out->min = v[0];
	out->max = v[n - 1];
	for (i = 0; i < n; i++)
		sum += x[i];
	out->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - out->mean) * (x[i] - out->mean);
	out->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	for (i = 0; i < n; i++)
		v[i] = fabs(x[i] - out->median);
	out->mad = lower_median(v, n);
	free(v);
	for (i = 0; i < n && x[i] != out->median; i++)
		;
	out->median_index = i < n ? i : 0;
	return AIETH_OK;
}

double aieth__stats_get(const aieth__stats *s, aieth__stat which)
{
	switch (which) {
	case AIETH__STAT_MIN: return s->min;
	case AIETH__STAT_MAX: return s->max;
	case AIETH__STAT_MEAN: return s->mean;
	default: return s->median;
	}
}

static const char *const names[] = {"median", "min", "max", "mean"};

const char *aieth__stats_name(aieth__stat which)
{
	return (unsigned)which < sizeof names / sizeof *names ? names[which] : "median";
}

int aieth__stats_parse(const char *name, aieth__stat *out)
{
	size_t i;
	for (i = 0; name && i < sizeof names / sizeof *names; i++)
		if (!strcmp(name, names[i])) {
			*out = (aieth__stat)i;
			return 0;
		}
	return -1;
}

double aieth__stats_spread_pct(const aieth__stats *s)
{
	return s->median != 0 ? 100.0 * s->mad / fabs(s->median) : 0;
}
