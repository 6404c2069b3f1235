/* SPDX-License-Identifier: MIT */
/*
 * report_compare_out.c - a baseline comparison's outputs: the table of what
 * moved, and the "baseline" object of report.json with the verdict on each
 * test (docs/farm.md, docs/report-schema.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_compare_internal.h"
#include "report/report_model.h"
#include "util/error.h"
#include "util/sbuf.h"

typedef struct json_object jobj;

const char *const aieth__rc_metric_name[] = {"throughput_MBps", "cycles",         "last_cycle",
					     "total_cycles",    "latency_cycles", "test"};
const char *const aieth__rc_verdict_name[] = {"ok",         "regression", "improved",    "missing",
					      "unfinished", "new",        "no baseline", "not run"};
const char *const aieth__rc_item_name[] = {"transaction", "channel", "latency", "test"};

/* ---------------------------------------------------------------- text */

/* Names as in the marker lines: white space and control bytes become _. */
static void sb_name(sbuf *b, const char *s)
{
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;
		char c = ch <= ' ' || ch == 0x7f ? '_' : (char)ch;
		aieth__sb_put(b, &c, 1);
	}
}

static void sb_where(sbuf *b, const row *r)
{
	sb_name(b, r->test);
	if (r->kind == K_TEST)
		return;
	sb_lit(b, ".");
	sb_name(b, r->txn);
	if (r->kind == K_CHAN) {
		sb_lit(b, ".");
		sb_name(b, r->a);
	} else if (r->kind == K_LAT) {
		sb_lit(b, ".");
		sb_name(b, r->a);
		sb_lit(b, "->");
		sb_name(b, r->b);
	}
}

static void sb_value(sbuf *b, int has, double v, int metric, int present)
{
	if (!present)
		aieth__sb_printf(b, " %14s", "-");
	else if (!has)
		aieth__sb_printf(b, " %14s", "null");
	else if (metric == M_THROUGHPUT)
		aieth__sb_printf(b, " %14.2f", v);
	else
		aieth__sb_printf(b, " %14.0f", v);
}

char *aieth_report_diff_text(const aieth_report_diff *d)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	size_t i;
	if (!d)
		return NULL;
	aieth__sb_printf(&b, "baseline %s (run %s)", d->base_name,
			 *d->base_run ? d->base_run : "?");
	if (d->refusal) {
		aieth__sb_printf(&b, ": refused\n  %s\n", d->refusal);
		return aieth__sb_take(&b);
	}
	aieth__sb_printf(&b,
			 ": %zu values compared, %zu regressions, %zu missing or unfinished, %zu "
			 "improvements (default tolerance %g%%)\n",
			 d->compared, d->regressions, d->missing, d->improvements, d->default_pct);
	if (d->nrows) {
		aieth__sb_printf(&b, "  %-16s %14s %14s %9s %9s  %-11s %s\n", "METRIC", "BASELINE",
				 "NOW", "CHANGE", "TOLERANCE", "VERDICT", "WHERE");
		for (i = 0; i < d->nrows; i++) {
			const row *r = &d->rows[i];
			int both =
				r->kind != K_TEST && r->verdict != V_NEW && r->verdict != V_MISSING;
			aieth__sb_printf(&b, "  %-16s",
					 r->verdict == V_NEW || r->verdict == V_MISSING ||
							 r->kind == K_TEST
						 ? aieth__rc_item_name[r->kind]
						 : aieth__rc_metric_name[r->metric]);
			sb_value(&b, r->has_base, r->base, r->metric,
				 both || r->verdict == V_MISSING);
			sb_value(&b, r->has_now, r->now, r->metric, both || r->verdict == V_NEW);
			if (isfinite(r->change))
				aieth__sb_printf(&b, " %+8.2f%%", r->change);
			else
				aieth__sb_printf(&b, " %9s",
						 r->has_base && r->has_now ? "from 0" : "-");
			if (!both)
				aieth__sb_printf(&b, " %9s", "-");
			else
				aieth__sb_printf(&b, " %8g%%", r->tol);
			aieth__sb_printf(&b, "  %-11s ", aieth__rc_verdict_name[r->verdict]);
			sb_where(&b, r);
			sb_lit(&b, "\n");
		}
	} else {
		sb_lit(&b, "  nothing moved\n");
	}
	return aieth__sb_take(&b);
}

/* -------------------------------------------------------- into report */

/* Test i's error message: how many values failed, and the first few with
 * their values against the baseline's and the tolerance (a failed check
 * names its limit and what was measured, wherever it is shown). */
#define FAIL_SHOWN 3
static char *fail_message(const aieth_report_diff *d, size_t ti)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	size_t k, shown = 0;
	aieth__sb_printf(&b, "%zu value%s regressed or went missing against the baseline %s",
			 d->fails[ti], d->fails[ti] == 1 ? "" : "s", d->base_name);
	for (k = d->first_fail[ti]; k < d->nrows && shown < FAIL_SHOWN; k++) {
		const row *w = &d->rows[k];
		if (w->fail_test != ti || (w->verdict != V_REGRESSION && w->verdict != V_MISSING &&
					   w->verdict != V_UNFINISHED))
			continue;
		aieth__sb_put(&b, shown ? "; " : ": ", 2);
		sb_where(&b, w);
		aieth__sb_printf(&b, " %s ",
				 w->kind == K_TEST ? "test" : aieth__rc_metric_name[w->metric]);
		if (w->verdict == V_REGRESSION) {
			int dec = w->metric == M_THROUGHPUT ? 2 : 0;
			aieth__sb_printf(&b, "%.*f, baseline %.*f", dec, w->now, dec, w->base);
			if (isfinite(w->change))
				aieth__sb_printf(&b, " (%+.2f%%, tolerance %g%%)", w->change,
						 w->tol);
			else
				aieth__sb_printf(&b, " (from 0, tolerance %g%%)", w->tol);
		} else {
			aieth__sb_printf(&b, "%s now",
					 w->verdict == V_MISSING ? "missing" : "unfinished");
			if (w->has_base)
				aieth__sb_printf(&b, ", baseline %.*f",
						 w->metric == M_THROUGHPUT ? 2 : 0, w->base);
		}
		shown++;
	}
	if (d->fails[ti] > shown)
		aieth__sb_printf(&b, "; %zu more in the baseline table", d->fails[ti] - shown);
	return aieth__sb_take(&b);
}

static void put_num(jobj *o, const char *key, int has, double v)
{
	if (has && isfinite(v))
		aieth__rj_num(o, key, v);
	else
		aieth__rj_null(o, key);
}

int aieth_report_add_baseline(aieth_report *r, const aieth_report_diff *d)
{
	jobj *bo, *ch;
	size_t i;
	int rc;
	if (!r || !d)
		return aieth__fail(AIETH_EINVAL, "aieth_report_add_baseline: NULL argument");
	if (json_object_array_length(r->tests) != d->ntests)
		return aieth__fail(AIETH_EINVAL,
				   "aieth_report_add_baseline: the report has %zu "
				   "tests, the comparison %zu: not the report it was made with",
				   json_object_array_length(r->tests), d->ntests);
	bo = aieth__rj_obj();
	ch = aieth__rj_arr();
	aieth__rj_str(bo, "path", d->base_name);
	aieth__rj_str(bo, "run_id", d->base_run);
	aieth__rj_str(bo, "status", d->refusal ? "refused" : d->exit_code ? "regression" : "pass");
	aieth__rj_int(bo, "exit_code", d->exit_code);
	if (d->refusal)
		aieth__rj_str(bo, "message", d->refusal);
	else
		aieth__rj_null(bo, "message");
	aieth__rj_num(bo, "max_regression_pct", d->default_pct);
	aieth__rj_u64(bo, "compared", d->compared);
	aieth__rj_u64(bo, "regressions", d->regressions);
	aieth__rj_u64(bo, "missing", d->missing);
	aieth__rj_u64(bo, "improvements", d->improvements);
	for (i = 0; i < d->nrows; i++) {
		const row *w = &d->rows[i];
		jobj *c = aieth__rj_obj();
		aieth__rj_str(c, "item", aieth__rc_item_name[w->kind]);
		aieth__rj_str(c, "test", w->test);
		if (w->kind != K_TEST) {
			aieth__rj_int(c, "transaction_index", w->txn_index);
			aieth__rj_str(c, "transaction", w->txn);
		}
		if (w->kind == K_CHAN)
			aieth__rj_str(c, "plio", w->a);
		if (w->kind == K_LAT) {
			aieth__rj_str(c, "from", w->a);
			aieth__rj_str(c, "to", w->b);
		}
		aieth__rj_str(c, "metric", aieth__rc_metric_name[w->metric]);
		put_num(c, "baseline", w->has_base, w->base);
		put_num(c, "now", w->has_now, w->now);
		put_num(c, "change_pct", 1, w->change);
		put_num(c, "tolerance_pct", w->kind != K_TEST, w->tol);
		aieth__rj_str(c, "verdict", aieth__rc_verdict_name[w->verdict]);
		aieth__rj_push(ch, c);
	}
	aieth__rj_set(bo, "changes", ch);
	aieth__rj_set(r->root, "baseline", bo);
	if (aieth__rj_oom())
		return aieth__fail(AIETH_ENOMEM, "report: out of memory");
	for (i = 0; i < d->ntests; i++) {
		if (d->refusal) {
			rc = aieth_report_test_error(
				r, (int)i, "baseline", AIETH_EINVAL, d->refusal,
				"compare with a baseline made on the same board, "
				"PL clock and backend kind",
				AIETH_EXIT_INPUT);
		} else if (d->fails[i]) {
			char *m = fail_message(d, i);
			rc = aieth_report_test_error(
				r, (int)i, "baseline", AIETH_EINVAL,
				m ? m : "values regressed against the baseline",
				"see the baseline table (on stdout and in "
				"report.html) and baseline.changes in report.json; "
				"if the change is intended, make this report the new "
				"baseline",
				AIETH_EXIT_FAIL);
			free(m);
		} else {
			rc = 0;
		}
		if (rc)
			return rc;
	}
	return AIETH_OK;
}
