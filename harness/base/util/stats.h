/* SPDX-License-Identifier: MIT */
/*
 * stats.h - the statistics of repeated runs (not installed): one rule for
 * the runner, every report writer and the baseline comparison
 * (docs/report-schema.md, "Repeated runs"). The median is the LOWER median
 * (the sorted value at index floor((n-1)/2)), so it is always a value some
 * run measured; mad is the lower median of |x - median|; stddev is the
 * sample standard deviation (n - 1; 0 for one value).
 */
#ifndef AIETH_UTIL_STATS_H
#define AIETH_UTIL_STATS_H

#include <stddef.h>

/* The statistic thresholds and baselines apply to (a description's
 * "repeat": {"statistic": ...}). */
typedef enum {
	AIETH__STAT_MEDIAN = 0,
	AIETH__STAT_MIN,
	AIETH__STAT_MAX,
	AIETH__STAT_MEAN
} aieth__stat;

typedef struct {
	size_t n;
	double median, min, max, mean, stddev, mad;
	/* the first value in the given order equal to the median: the run
	 * whose figures a report shows */
	size_t median_index;
} aieth__stats;

/* The statistics of x[0..n) (n >= 1; every value finite). AIETH_EINVAL for
 * n == 0 or a value that is not finite, AIETH_ENOMEM. */
int aieth__stats_compute(const double *x, size_t n, aieth__stats *out);
/* One of them by name. */
double aieth__stats_get(const aieth__stats *s, aieth__stat which);
/* "median", "min", "max", "mean"; parse: 0 and *out, or -1 for another word. */
const char *aieth__stats_name(aieth__stat which);
int aieth__stats_parse(const char *name, aieth__stat *out);
/* The spread the text table shows after a median ("±0.2 %"): mad relative
 * to the median, in percent (0 when the median is 0). */
double aieth__stats_spread_pct(const aieth__stats *s);

#endif
