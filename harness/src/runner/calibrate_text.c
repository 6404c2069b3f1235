/* SPDX-License-Identifier: MIT */
/*
 * calibrate_text.c - the table run_test calibrate prints: per channel the
 * board's cycles, the emulated ones before and after the fit and their
 * errors, the remaining total error and the parameters that moved.
 */
#include <stdio.h>
#include <stdlib.h>

#include "runner/calibrate_impl.h"
#include "util/sbuf.h"

static double pct(double emu, double board) { return 100 * aieth__cal_rel_err(emu, board); }

/* a value's figure, by its kind (calibrate_impl.h's order) */
static const char *const kind_names[] = {"first_cycle", "last_cycle", "cycles", "total_cycles"};

char *aieth_calib_text(const aieth_calib *c)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	size_t i, changed = 0;
	double worst = 0;
	const cal_val *worst_v = NULL;
	if (!c)
		return NULL;
	aieth__sb_printf(&b, "%-52s %12s %12s %12s %10s %10s\n", "test / transaction / PLIO",
			 "board", "before", "after", "err before", "err after");
	for (i = 0; i < c->nvals; i++) {
		const cal_val *v = &c->vals[i];
		double e = pct(v->after, v->board);
		if (e > worst || !worst_v) {
			worst = e;
			worst_v = v;
		}
		if (v->kind != CAL_CYCLES && v->kind != CAL_TOTAL)
			continue;
		aieth__sb_printf(&b, "%-52.52s %12.0f %12.0f %12.0f %9.2f%% %9.2f%%\n", v->label,
				 v->board, v->before, v->after, pct(v->before, v->board), e);
	}
	aieth__sb_printf(&b,
			 "total error (mean relative error of %zu values: each channel's "
			 "first_cycle, last_cycle and cycles, each transaction's total_cycles): "
			 "before %.3f %%, after %.3f %%",
			 c->nvals, c->nvals ? 100 * c->cost_before / (double)c->nvals : 0.0,
			 c->nvals ? 100 * c->cost_after / (double)c->nvals : 0.0);
	/* the figure behind the largest, by name: what to look at first */
	if (worst_v)
		aieth__sb_printf(
			&b, " (largest after: %.3f %%, %s of %s: %.0f on the board, %.0f after)",
			worst, kind_names[worst_v->kind], worst_v->label, worst_v->board,
			worst_v->after);
	sb_lit(&b, "\n");
	aieth__sb_printf(&b,
			 "search: %u evaluations, %u emulated runs of each of %zu descriptions\n",
			 c->evals, c->runs, c->npairs);
	for (i = 0; i < CAL_NPARAM; i++) {
		char name[80];
		snprintf(name, sizeof name, "%s%s%s",
			 aieth__cal_params[i].obj ? aieth__cal_params[i].obj : "",
			 aieth__cal_params[i].obj ? "." : "", aieth__cal_params[i].key);
		if (c->x[i] != c->x0[i]) {
			aieth__sb_printf(&b, "changed: %s: %lld -> %lld\n", name,
					 (long long)c->x0[i], (long long)c->x[i]);
			changed++;
		} else {
			aieth__sb_printf(&b, "unchanged: %s: %lld\n", name, (long long)c->x[i]);
		}
	}
	if (!changed)
		sb_lit(&b, "no parameter changed\n");
	return aieth__sb_take(&b);
}
