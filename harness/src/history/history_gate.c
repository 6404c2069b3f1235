/* SPDX-License-Identifier: MIT */
/*
 * history_gate.c - a report gated against the history (docs/farm.md,
 * "History gates"): each figure against the median of the last K passing
 * runs of its test, board and backend, with a band of a relative margin
 * plus the baseline's own noise; too few runs is "no baseline".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "history/history_internal.h"
#include "report/report_model.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/sbuf.h"

enum { GV_OK, GV_REGRESSION, GV_IMPROVED, GV_MISSING, GV_NO_BASE };
static const char *const verdict_name[] = {"ok", "regression", "improved", "missing",
					   "no baseline"};

typedef struct {
	char *test, *txn, *a, *b;
	int64_t txn_index;
	int kind, metric, has_now, verdict, test_row;
	double now, change, tol;
	hist_band band;
	size_t ti; /* the test of `now` */
} grow;

struct aieth_history_gate {
	char *path;
	unsigned last;
	double default_pct;
	grow *rows;
	size_t n, cap, ntests;
	size_t *fails;
	size_t compared, regressions, missing, improvements, no_base;
	int exit_code;
};

/* Scaled MAD: 1.4826 x MAD estimates the standard deviation of normal
 * noise; 3 of them leave a normal run inside the band 997 times in 1000. */
#define NOISE_SIGMAS 3.0
#define MAD_SCALE 1.4826

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double aieth__hist_lower_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof *v, cmp_d);
	return v[(n - 1) / 2];
}

int aieth__hist_higher_better(int metric) { return metric == HM_THROUGHPUT; }

void aieth__hist_band_of(hist_band *out, const double *v, const double *inner_mad, size_t n,
			 double tol_pct)
{
	double *w = n ? malloc(n * sizeof *w) : NULL;
	double m, mad, inner = 0;
	size_t i;
	memset(out, 0, sizeof *out);
	out->n = n;
	out->median = out->mad = out->noise = out->allowed = NAN;
	if (!w)
		return;
	memcpy(w, v, n * sizeof *w);
	m = aieth__hist_lower_median(w, n);
	for (i = 0; i < n; i++)
		w[i] = fabs(v[i] - m);
	mad = aieth__hist_lower_median(w, n);
	if (inner_mad) { /* the runs' own spread, when they were repeated */
		memcpy(w, inner_mad, n * sizeof *w);
		inner = aieth__hist_lower_median(w, n);
		if (!isfinite(inner))
			inner = 0;
	}
	free(w);
	out->median = m;
	out->mad = mad;
	out->noise = NOISE_SIGMAS * MAD_SCALE * (mad > inner ? mad : inner);
	out->allowed = fabs(m) * tol_pct / 100.0 + out->noise;
}

static int push(struct aieth_history_gate *g, const grow *r)
{
	if (AIETH__GROW(g->rows, g->cap, g->n + 1, 32, 0))
		return aieth__fail(AIETH_ENOMEM, "history gate: out of memory");
	g->rows[g->n] = *r;
	g->rows[g->n].test = strdup(r->test);
	g->rows[g->n].txn = strdup(r->txn ? r->txn : "");
	g->rows[g->n].a = strdup(r->a ? r->a : "");
	g->rows[g->n].b = strdup(r->b ? r->b : "");
	g->n++;
	if (!g->rows[g->n - 1].test || !g->rows[g->n - 1].txn || !g->rows[g->n - 1].a ||
	    !g->rows[g->n - 1].b)
		return aieth__fail(AIETH_ENOMEM, "history gate: out of memory");
	return 0;
}

/* The ids of the test's last `last` passing runs, newest first. */
static int base_tests(struct aieth_history *h, const hist_test *t, const char *key, unsigned last,
		      sqlite3_int64 *ids, size_t *n)
{
	sqlite3_stmt *st = NULL;
	int rc;
	*n = 0;
	if (sqlite3_prepare_v2(h->db,
			       "SELECT t.id FROM tests t JOIN runs r ON t.run = r.id"
			       " WHERE t.name=? AND t.board=? AND t.backend=? AND t.status='pass'"
			       " AND r.run_key<>? ORDER BY r.t DESC, r.id DESC LIMIT ?",
			       -1, &st, NULL))
		return aieth__hist_db_fail(h, "looking up the baseline runs");
	sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, t->board, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, t->backend, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, key, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, (int)last);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *n < last)
		ids[(*n)++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW
		       ? 0
		       : aieth__hist_db_fail(h, "reading the baseline");
}

static int gate_fig(struct aieth_history_gate *g, sqlite3_stmt *st, const sqlite3_int64 *ids,
		    size_t nids, const hist_test *t, const hist_fig *f, size_t ti, double *v,
		    double *mads)
{
	size_t i, n = 0;
	grow r;
	double lo, hi;
	for (i = 0; i < nids; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, ids[i]);
		sqlite3_bind_int64(st, 2, f->txn_index);
		sqlite3_bind_text(st, 3, aieth__hist_kind_name[f->kind], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, aieth__hist_metric_name[f->metric], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, f->a, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, f->b, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 7, f->txn, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
			v[n] = sqlite3_column_double(st, 0);
			mads[n] = sqlite3_column_type(st, 1) == SQLITE_NULL
					  ? 0
					  : sqlite3_column_double(st, 1);
			n++;
		}
	}
	memset(&r, 0, sizeof r);
	r.test = t->name;
	r.txn = f->txn;
	r.a = f->a;
	r.b = f->b;
	r.txn_index = f->txn_index;
	r.kind = f->kind;
	r.metric = f->metric;
	r.has_now = f->has;
	r.now = f->value;
	r.ti = ti;
	r.change = NAN;
	r.tol = isfinite(f->tol_pct) ? f->tol_pct : g->default_pct;
	aieth__hist_band_of(&r.band, v, mads, n, r.tol);
	if (n < AIETH_HISTORY_GATE_MIN_RUNS) {
		r.verdict = GV_NO_BASE;
		g->no_base++;
		return push(g, &r);
	}
	if (!f->has) {
		r.verdict = GV_MISSING;
		g->missing++;
		g->fails[ti]++;
		return push(g, &r);
	}
	g->compared++;
	if (r.band.median != 0)
		r.change = (f->value - r.band.median) / fabs(r.band.median) * 100.0;
	lo = r.band.median - r.band.allowed;
	hi = r.band.median + r.band.allowed;
	if (f->value < lo)
		r.verdict = aieth__hist_higher_better(f->metric) ? GV_REGRESSION : GV_IMPROVED;
	else if (f->value > hi)
		r.verdict = aieth__hist_higher_better(f->metric) ? GV_IMPROVED : GV_REGRESSION;
	else
		r.verdict = GV_OK;
	if (r.verdict == GV_REGRESSION) {
		g->regressions++;
		g->fails[ti]++;
	} else if (r.verdict == GV_IMPROVED) {
		g->improvements++;
	}
	return push(g, &r);
}

static int gate_test(struct aieth_history_gate *g, struct aieth_history *h, const hist_run *run,
		     size_t ti)
{
	const hist_test *t = &run->tests[ti];
	sqlite3_int64 *ids = calloc(g->last, sizeof *ids);
	double *v = calloc(g->last, sizeof *v), *mads = calloc(g->last, sizeof *mads);
	sqlite3_stmt *st = NULL;
	size_t nids = 0, i;
	int rc = 0;
	if (!ids || !v || !mads) {
		rc = aieth__fail(AIETH_ENOMEM, "history gate: out of memory");
		goto out;
	}
	if ((rc = base_tests(h, t, run->key, g->last, ids, &nids)))
		goto out;
	if (nids < AIETH_HISTORY_GATE_MIN_RUNS) { /* one line for the test */
		grow r;
		memset(&r, 0, sizeof r);
		r.test = t->name;
		r.test_row = 1;
		r.verdict = GV_NO_BASE;
		r.band.n = nids;
		r.ti = ti;
		r.change = NAN;
		g->no_base += t->nf;
		rc = push(g, &r);
		goto out;
	}
	if (sqlite3_prepare_v2(h->db,
			       "SELECT value, stat_mad FROM figures WHERE test=? AND txn_index=?"
			       " AND kind=? AND metric=? AND a=? AND b=? AND txn=? LIMIT 1",
			       -1, &st, NULL)) {
		rc = aieth__hist_db_fail(h, "reading the baseline figures");
		goto out;
	}
	for (i = 0; i < t->nf && !rc; i++)
		rc = gate_fig(g, st, ids, nids, t, &t->f[i], ti, v, mads);
out:
	sqlite3_finalize(st);
	free(ids);
	free(v);
	free(mads);
	return rc;
}

int aieth_history_gate_report(aieth_history_gate **out, aieth_history *h, const aieth_report *now,
			      unsigned int last, double default_pct)
{
	struct aieth_history_gate *g;
	hist_run run;
	size_t i;
	int rc;
	aieth__error_clear();
	if (!out || !h || !now)
		return aieth__fail(AIETH_EINVAL, "aieth_history_gate_report: NULL argument");
	*out = NULL;
	if (last > 100000)
		return aieth__fail(AIETH_EINVAL,
				   "aieth_history_gate_report: last %u: at most 100000 runs", last);
	if ((rc = aieth__hist_read_report(&run, "report", now->root)))
		return rc;
	g = calloc(1, sizeof *g);
	if (!g || !(g->path = strdup(h->path)) ||
	    !(g->fails = calloc(run.nt + 1, sizeof *g->fails))) {
		if (g)
			free(g->path);
		free(g);
		aieth__hist_run_free(&run);
		return aieth__fail(AIETH_ENOMEM, "history gate: out of memory");
	}
	g->last = last ? last : AIETH_HISTORY_GATE_LAST_DEFAULT;
	g->default_pct = default_pct < 0 ? AIETH_REGRESSION_DEFAULT_PCT : default_pct;
	g->ntests = run.nt;
	/* one read transaction: the baseline is one state of the database */
	sqlite3_exec(h->db, "BEGIN", NULL, NULL, NULL);
	for (i = 0, rc = 0; i < run.nt && !rc; i++)
		rc = gate_test(g, h, &run, i);
	sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL);
	aieth__hist_run_free(&run);
	if (rc) {
		aieth_history_gate_free(g);
		return rc;
	}
	g->exit_code = g->regressions || g->missing ? AIETH_EXIT_FAIL : AIETH_EXIT_PASS;
	*out = g;
	return 0;
}

int aieth_history_gate_exit(const aieth_history_gate *g) { return g ? g->exit_code : 2; }

void aieth_history_gate_free(aieth_history_gate *g)
{
	size_t i;
	if (!g)
		return;
	for (i = 0; i < g->n; i++) {
		free(g->rows[i].test);
		free(g->rows[i].txn);
		free(g->rows[i].a);
		free(g->rows[i].b);
	}
	free(g->rows);
	free(g->fails);
	free(g->path);
	free(g);
}

/* ---------------------------------------------------------------- text */

static void sb_name(sbuf *b, const char *s)
{
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;
		char c = ch <= ' ' || ch == 0x7f ? '_' : (char)ch;
		aieth__sb_put(b, &c, 1);
	}
}

static void sb_where(sbuf *b, const grow *r)
{
	sb_name(b, r->test);
	if (r->test_row)
		return;
	sb_lit(b, ".");
	sb_name(b, r->txn);
	if (r->kind == HK_CHAN) {
		sb_lit(b, ".");
		sb_name(b, r->a);
	} else if (r->kind == HK_LAT) {
		sb_lit(b, ".");
		sb_name(b, r->a);
		sb_lit(b, "->");
		sb_name(b, r->b);
	}
}

static void sb_val(sbuf *b, double v, int metric)
{
	if (!isfinite(v))
		aieth__sb_printf(b, " %12s", "-");
	else
		aieth__sb_printf(b, " %12.*f", metric == HM_THROUGHPUT ? 2 : 0, v);
}

/* a row worth a line: not ok, or a value off its median */
static int shown(const grow *r)
{
	return r->verdict != GV_OK || (isfinite(r->change) && fabs(r->change) >= 1e-9);
}

char *aieth_history_gate_text(const aieth_history_gate *g)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	size_t i, lines = 0;
	if (!g)
		return NULL;
	aieth__sb_printf(
		&b,
		"history gate %s (median of the last %u passing runs): %zu figures compared, "
		"%zu regressions, %zu missing, %zu improvements, %zu without a baseline "
		"(default tolerance %g%% + 3 x scaled MAD)\n",
		g->path, g->last, g->compared, g->regressions, g->missing, g->improvements,
		g->no_base, g->default_pct);
	for (i = 0; i < g->n; i++) {
		const grow *r = &g->rows[i];
		if (!shown(r))
			continue;
		if (!lines++)
			aieth__sb_printf(&b, "  %-16s %12s %12s %9s %25s %4s  %-11s %s\n", "METRIC",
					 "MEDIAN", "NOW", "CHANGE", "BAND", "RUNS", "VERDICT",
					 "WHERE");
		if (r->test_row) {
			aieth__sb_printf(&b, "  %-16s %12s %12s %9s %25s %4zu  %-11s ", "test", "-",
					 "-", "-", "-", r->band.n, verdict_name[r->verdict]);
		} else {
			char band[64];
			int dec = r->metric == HM_THROUGHPUT ? 2 : 0;
			aieth__sb_printf(&b, "  %-16s", aieth__hist_metric_name[r->metric]);
			sb_val(&b, r->band.median, r->metric);
			sb_val(&b, r->has_now ? r->now : NAN, r->metric);
			if (isfinite(r->change))
				aieth__sb_printf(&b, " %+8.2f%%", r->change);
			else
				aieth__sb_printf(&b, " %9s", "-");
			if (isfinite(r->band.allowed))
				snprintf(band, sizeof band, "%.*f..%.*f", dec,
					 r->band.median - r->band.allowed, dec,
					 r->band.median + r->band.allowed);
			else
				snprintf(band, sizeof band, "-");
			aieth__sb_printf(&b, " %25s %4zu  %-11s ", band, r->band.n,
					 verdict_name[r->verdict]);
		}
		sb_where(&b, r);
		if (r->verdict == GV_NO_BASE)
			aieth__sb_printf(&b, " (%zu passing runs, %d needed)", r->band.n,
					 AIETH_HISTORY_GATE_MIN_RUNS);
		sb_lit(&b, "\n");
	}
	if (!lines)
		sb_lit(&b, "  every figure within its band, none off its median\n");
	return aieth__sb_take(&b);
}

/* -------------------------------------------------------- into report */

static void put_num(struct json_object *o, const char *key, double v)
{
	if (isfinite(v))
		aieth__rj_num(o, key, v);
	else
		aieth__rj_null(o, key);
}

static char *fail_message(const struct aieth_history_gate *g, size_t ti)
{
	sbuf b = SB_INIT(SB_LINE_MAX);
	size_t k, n = 0;
	aieth__sb_printf(&b, "%zu figure%s regressed or went missing against the history %s",
			 g->fails[ti], g->fails[ti] == 1 ? "" : "s", g->path);
	for (k = 0; k < g->n && n < 3; k++) {
		const grow *r = &g->rows[k];
		int dec = r->metric == HM_THROUGHPUT ? 2 : 0;
		if (r->ti != ti || (r->verdict != GV_REGRESSION && r->verdict != GV_MISSING))
			continue;
		aieth__sb_put(&b, n++ ? "; " : ": ", 2);
		sb_where(&b, r);
		aieth__sb_printf(&b, " %s ", aieth__hist_metric_name[r->metric]);
		if (r->verdict == GV_MISSING)
			aieth__sb_printf(&b, "missing now, median %.*f", dec, r->band.median);
		else
			aieth__sb_printf(&b, "%.*f, median of %zu runs %.*f, band %.*f..%.*f", dec,
					 r->now, r->band.n, dec, r->band.median, dec,
					 r->band.median - r->band.allowed, dec,
					 r->band.median + r->band.allowed);
	}
	if (g->fails[ti] > n)
		aieth__sb_printf(&b, "; %zu more in the history gate table", g->fails[ti] - n);
	return aieth__sb_take(&b);
}

int aieth_report_add_history_gate(aieth_report *r, const aieth_history_gate *g)
{
	struct json_object *o, *ch;
	size_t i;
	int rc;
	if (!r || !g)
		return aieth__fail(AIETH_EINVAL, "aieth_report_add_history_gate: NULL argument");
	if (json_object_array_length(r->tests) != g->ntests)
		return aieth__fail(AIETH_EINVAL,
				   "aieth_report_add_history_gate: the report has %zu tests, the "
				   "gate %zu: not the report it was made with",
				   json_object_array_length(r->tests), g->ntests);
	o = aieth__rj_obj();
	ch = aieth__rj_arr();
	aieth__rj_str(o, "path", g->path);
	aieth__rj_str(o, "status",
		      g->exit_code                 ? "regression"
		      : g->compared || !g->no_base ? "pass"
						   : "no baseline");
	aieth__rj_int(o, "exit_code", g->exit_code);
	aieth__rj_u64(o, "last", g->last);
	aieth__rj_u64(o, "min_runs", AIETH_HISTORY_GATE_MIN_RUNS);
	aieth__rj_num(o, "max_regression_pct", g->default_pct);
	aieth__rj_num(o, "noise_mads", NOISE_SIGMAS * MAD_SCALE);
	aieth__rj_u64(o, "compared", g->compared);
	aieth__rj_u64(o, "regressions", g->regressions);
	aieth__rj_u64(o, "missing", g->missing);
	aieth__rj_u64(o, "improvements", g->improvements);
	aieth__rj_u64(o, "no_baseline", g->no_base);
	for (i = 0; i < g->n; i++) {
		const grow *w = &g->rows[i];
		struct json_object *c;
		if (!shown(w))
			continue;
		c = aieth__rj_obj();
		aieth__rj_str(c, "item", w->test_row ? "test" : aieth__hist_kind_name[w->kind]);
		aieth__rj_str(c, "test", w->test);
		if (!w->test_row) {
			aieth__rj_int(c, "transaction_index", w->txn_index);
			aieth__rj_str(c, "transaction", w->txn);
			if (w->kind == HK_CHAN)
				aieth__rj_str(c, "plio", w->a);
			if (w->kind == HK_LAT) {
				aieth__rj_str(c, "from", w->a);
				aieth__rj_str(c, "to", w->b);
			}
			aieth__rj_str(c, "metric", aieth__hist_metric_name[w->metric]);
			put_num(c, "baseline", w->band.median);
			put_num(c, "now", w->has_now ? w->now : NAN);
			put_num(c, "change_pct", w->change);
			put_num(c, "tolerance_pct", w->tol);
			put_num(c, "noise", w->band.noise);
			put_num(c, "low", w->band.median - w->band.allowed);
			put_num(c, "high", w->band.median + w->band.allowed);
		}
		aieth__rj_u64(c, "runs", w->band.n);
		aieth__rj_str(c, "verdict", verdict_name[w->verdict]);
		aieth__rj_push(ch, c);
	}
	aieth__rj_set(o, "changes", ch);
	aieth__rj_set(r->root, "history_gate", o);
	if (aieth__rj_oom())
		return aieth__fail(AIETH_ENOMEM, "report: out of memory");
	for (i = 0; i < g->ntests; i++) {
		char *m;
		if (!g->fails[i])
			continue;
		m = fail_message(g, i);
		rc = aieth_report_test_error(
			r, (int)i, "history_gate", AIETH_EINVAL,
			m ? m : "figures regressed against the history",
			"see the history gate table (on stdout) and history_gate.changes in "
			"report.json; run_test history html draws the trend",
			AIETH_EXIT_FAIL);
		free(m);
		if (rc)
			return rc;
	}
	return AIETH_OK;
}
