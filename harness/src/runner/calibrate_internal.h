/* SPDX-License-Identifier: MIT */
/*
 * calibrate_internal.h - the parameter search of run_test calibrate
 * (calibrate_search.c), kept apart from the runs so a unit test can drive it
 * with an objective of its own.
 */
#ifndef AIETH_SPEC_CALIBRATE_INTERNAL_H
#define AIETH_SPEC_CALIBRATE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#define CAL_MAX_PARAMS 16

/* Cost of a candidate (lower is better, >= 0; HUGE_VAL when the candidate
 * cannot be evaluated). *stop set non-zero ends the search at once (an
 * error, kept by the caller). */
typedef double (*cal_cost_fn)(void *ctx, const int64_t *x, int *stop);

typedef struct {
	size_t n;                   /* parameters, at most CAL_MAX_PARAMS */
	int64_t lo[CAL_MAX_PARAMS]; /* inclusive bounds */
	int64_t hi[CAL_MAX_PARAMS];
	unsigned max_evals; /* budget of cost evaluations, >= 1 */
	/* Called after each accepted move (may be NULL). */
	void (*progress)(void *ctx, unsigned evals, double cost, const int64_t *x);
} cal_search_cfg;

/* Deterministic integer pattern search from x (inside the bounds; the result
 * replaces it): per coordinate, steps of +-s that keep going with a doubled
 * step while they improve; when no coordinate improves, moves of two
 * coordinates at once (same and opposite signs, for parameters that trade
 * against each other); then the steps halve. Ends when every step is 1 and
 * nothing improves, the cost is 0, the budget is spent or *stop is set.
 * Returns the best cost; *evals_out (may be NULL) the evaluations made. */
double aieth__cal_search(const cal_search_cfg *cfg, int64_t *x, cal_cost_fn cost, void *ctx,
			 unsigned *evals_out);

#endif
