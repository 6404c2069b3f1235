/* SPDX-License-Identifier: MIT */
/*
 * bench_median.h - the median the benchmarks print (of pairs taken in
 * turn: one slow or one lucky run on a shared machine does not move it).
 */
#ifndef AIETH_BENCH_MEDIAN_H
#define AIETH_BENCH_MEDIAN_H

/* The median of v[0..n) (n >= 1), sorted in place: v[0] and v[n - 1] are
 * then the smallest and the largest. */
static inline double bench_median(double *v, int n)
{
	int i, j;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j] < v[j - 1]; j--) {
			double t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
