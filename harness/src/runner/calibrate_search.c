/* SPDX-License-Identifier: MIT */
/*
 * calibrate_search.c - the integer pattern search behind run_test
 * calibrate. The emulator's cycle counts are piecewise in its parameters
 * (bursts, loop visits), so no gradient: coordinate moves with growing and
 * shrinking steps, and pair moves for parameters that trade against each
 * other (a read latency against a loop overhead). Deterministic: the same
 * inputs give the same fit.
 */
#include <math.h>
#include <string.h>

#include "runner/calibrate_internal.h"

typedef struct {
	const cal_search_cfg *cfg;
	cal_cost_fn cost;
	void *ctx;
	unsigned evals;
	int stop;
	double best;
	int64_t x[CAL_MAX_PARAMS];
} search;

static int64_t clamp(const search *s, size_t i, int64_t v)
{
	if (v < s->cfg->lo[i])
		return s->cfg->lo[i];
	if (v > s->cfg->hi[i])
		return s->cfg->hi[i];
	return v;
}

static int spent(const search *s)
{
	return s->stop || s->best <= 0 || s->evals >= s->cfg->max_evals;
}

/* Evaluate x + d (clamped); accept when strictly better. 1 when accepted. */
static int try_move(search *s, const int64_t *d)
{
	int64_t y[CAL_MAX_PARAMS];
	size_t i;
	int moved = 0;
	double c;
	for (i = 0; i < s->cfg->n; i++) {
		y[i] = clamp(s, i, s->x[i] + d[i]);
		moved |= y[i] != s->x[i];
	}
	if (!moved || spent(s))
		return 0;
	s->evals++;
	c = s->cost(s->ctx, y, &s->stop);
	if (s->stop || !(c < s->best))
		return 0;
	s->best = c;
	memcpy(s->x, y, sizeof y);
	if (s->cfg->progress)
		s->cfg->progress(s->ctx, s->evals, c, s->x);
	return 1;
}

/* Coordinate i: +-step, then keep going that way with doubling steps. */
static int coord(search *s, size_t i, int64_t step)
{
	int64_t d[CAL_MAX_PARAMS] = {0};
	int sign, any = 0;
	for (sign = 1; sign >= -1 && !any; sign -= 2) {
		int64_t st = step;
		d[i] = sign * st;
		while (try_move(s, d)) {
			any = 1;
			if (st < (int64_t)1 << 40)
				st *= 2;
			d[i] = sign * st;
		}
	}
	return any;
}

/* Pairs (i, j), all four sign combinations, at the smaller of their steps
 * (1 where they are used). */
static int pairs(search *s, const int64_t *step)
{
	size_t i, j;
	int any = 0, a, b;
	for (i = 0; i < s->cfg->n; i++)
		for (j = i + 1; j < s->cfg->n; j++)
			for (a = 1; a >= -1; a -= 2)
				for (b = 1; b >= -1; b -= 2) {
					int64_t d[CAL_MAX_PARAMS] = {0};
					int64_t st = step[i] < step[j] ? step[i] : step[j];
					d[i] = a * st;
					d[j] = b * st;
					while (try_move(s, d))
						any = 1;
				}
	return any;
}

double aieth__cal_search(const cal_search_cfg *cfg, int64_t *x, cal_cost_fn cost, void *ctx,
			 unsigned *evals_out)
{
	search s;
	int64_t step[CAL_MAX_PARAMS];
	size_t i;
	int all_one;
	if (evals_out)
		*evals_out = 0;
	if (!cfg || !x || !cost || cfg->n == 0 || cfg->n > CAL_MAX_PARAMS || !cfg->max_evals)
		return HUGE_VAL;
	memset(&s, 0, sizeof s);
	s.cfg = cfg;
	s.cost = cost;
	s.ctx = ctx;
	for (i = 0; i < cfg->n; i++) {
		s.x[i] = clamp(&s, i, x[i]);
		/* Start at half the value (at least 1): latencies of 64 move by 32. */
		step[i] = s.x[i] / 2 > 1 ? s.x[i] / 2 : 1;
	}
	s.evals = 1;
	s.best = cost(ctx, s.x, &s.stop);
	for (;;) {
		int any = 0;
		for (i = 0; i < cfg->n && !spent(&s); i++)
			any |= coord(&s, i, step[i]);
		if (spent(&s))
			break;
		if (any)
			continue;
		all_one = 1;
		for (i = 0; i < cfg->n; i++) {
			all_one &= step[i] == 1;
			step[i] = step[i] / 2 > 1 ? step[i] / 2 : 1;
		}
		/* Pair moves only at the finest steps: they cost n(n-1)*2 runs. */
		if (all_one && !pairs(&s, step))
			break;
	}
	memcpy(x, s.x, cfg->n * sizeof *x);
	if (evals_out)
		*evals_out = s.evals;
	return s.best;
}
