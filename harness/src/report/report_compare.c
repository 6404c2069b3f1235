/* SPDX-License-Identifier: MIT */
/*
 * report_compare.c - regression gates: a report compared with a baseline
 * report (run_test --baseline, run_test compare; docs/farm.md).
 *
 * Both reports become flat lists of values keyed by test, transaction
 * (index and name), item (PLIO, or latency from/to) and metric; the lists
 * are sorted and merged, so the work is n log n whatever the input. Tests
 * are matched by name (and, for repeated names, by occurrence) first: a
 * baseline test that did not run now is listed, not failed; within a
 * matched test every baseline value must be there again.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_compare_internal.h"
#include "report/report_model.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/json_strict.h"
#include "util/path.h"
#include "util/text.h"

typedef struct json_object jobj;

/* At most this many values per comparison (a report of 4096 tests of 72
 * channels is far below it). */
#define MAX_VALUES 4000000u

typedef struct {
	size_t test; /* index in `now` (for baseline values: its match) */
	int64_t txn; /* transaction index */
	const char *txn_name;
	int kind;          /* K_* */
	const char *a, *b; /* PLIO, or latency from and to */
	int metric;        /* M_* */
	int has;           /* a number (null: not measured, unfinished) */
	double v;
	double tol; /* tolerance in percent (values of `now`) */
} cval;

static int is_higher_better(int metric) { return metric == M_THROUGHPUT; }

static const char *tol_key(int metric)
{
	return metric == M_THROUGHPUT ? "throughput_pct"
	       : metric == M_LATENCY  ? "latency_pct"
				      : "cycles_pct";
}

static int failing(int verdict)
{
	return verdict == V_REGRESSION || verdict == V_MISSING || verdict == V_UNFINISHED;
}

static char *dup(const char *s) { return s ? aieth__strdup(s) : NULL; }

static int add_row(aieth_report_diff *d, const row *src)
{
	row *r;
	if (AIETH__GROW(d->rows, d->cap, d->nrows + 1, 32, 0))
		return aieth__fail(AIETH_ENOMEM, "baseline comparison: out of memory");
	r = &d->rows[d->nrows];
	*r = *src;
	r->test = dup(src->test);
	r->txn = dup(src->txn);
	r->a = dup(src->a);
	r->b = dup(src->b);
	if ((src->test && !r->test) || (src->txn && !r->txn) || (src->a && !r->a) ||
	    (src->b && !r->b)) {
		free(r->test);
		free(r->txn);
		free(r->a);
		free(r->b);
		return aieth__fail(AIETH_ENOMEM, "baseline comparison: out of memory");
	}
	d->nrows++;
	return 0;
}

/* ------------------------------------------------------ reading values */

static jobj *arr_at(jobj *o, const char *key, size_t i)
{
	return json_object_array_get_idx(aieth__rj_get(o, key), i);
}

static size_t arr_len(jobj *o, const char *key)
{
	jobj *a = aieth__rj_get(o, key);
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* The tolerance of metric in transaction t of test `test`: the
 * transaction's "regression", the test's, else the default. */
static double tolerance(jobj *test, jobj *t, int metric, double def)
{
	jobj *v = aieth__rj_get(aieth__rj_get(t, "regression"), tol_key(metric));
	if (!v)
		v = aieth__rj_get(aieth__rj_get(test, "regression"), tol_key(metric));
	return v ? json_object_get_double(v) : def;
}

/* The value compared: of repeated runs (aieth-report/2) the test's
 * statistic of the figure ("repeat": {"statistic"}, default the median),
 * else the one run's value. */
static jobj *figure(jobj *o, const char *key, jobj *test)
{
	jobj *s = aieth__rj_get(aieth__rj_get(o, "stats"), key);
	const char *stat = aieth__rj_gets(aieth__rj_get(test, "repeat"), "statistic");
	return s ? aieth__rj_get(s, stat[0] ? stat : "median") : aieth__rj_get(o, key);
}

static void put(cval *out, size_t *n, const cval *proto, int metric, jobj *o, const char *key,
		jobj *test, jobj *t, double def)
{
	cval *c = &out[(*n)++];
	jobj *v = figure(o, key, test);
	*c = *proto;
	c->metric = metric;
	c->has = v != NULL;
	c->v = v ? json_object_get_double(v) : 0;
	c->tol = tolerance(test, t, metric, def);
}

static size_t count_values(const aieth_report *r, const long *match)
{
	size_t i, j, n = 0, nt = json_object_array_length(r->tests);
	for (i = 0; i < nt; i++) {
		jobj *test = json_object_array_get_idx(r->tests, i);
		if (match[i] < 0)
			continue;
		for (j = 0; j < arr_len(test, "transactions"); j++) {
			jobj *t = arr_at(test, "transactions", j);
			n += 1 + 3 * arr_len(t, "channels") + arr_len(t, "latencies");
			if (n > MAX_VALUES)
				return n;
		}
	}
	return n;
}

/* The values of r's matched tests; `test` is keyed in `now`'s numbering
 * (match[i] for the baseline, i itself for now). */
static void collect(const aieth_report *r, const long *match, int is_now, double def, cval *out,
		    size_t *n)
{
	size_t i, j, k, nt = json_object_array_length(r->tests);
	for (i = 0; i < nt; i++) {
		jobj *test = json_object_array_get_idx(r->tests, i);
		if (match[i] < 0)
			continue;
		for (j = 0; j < arr_len(test, "transactions"); j++) {
			jobj *t = arr_at(test, "transactions", j);
			cval p;
			memset(&p, 0, sizeof p);
			p.test = is_now ? i : (size_t)match[i];
			p.txn = aieth__rj_geti(t, "index");
			p.txn_name = aieth__rj_gets(t, "name");
			p.kind = K_TXN;
			put(out, n, &p, M_TOTAL, t, "total_cycles", test, t, def);
			for (k = 0; k < arr_len(t, "channels"); k++) {
				jobj *c = arr_at(t, "channels", k);
				p.kind = K_CHAN;
				p.a = aieth__rj_gets(c, "plio");
				put(out, n, &p, M_THROUGHPUT, c, "throughput_MBps", test, t, def);
				put(out, n, &p, M_CYCLES, c, "cycles", test, t, def);
				put(out, n, &p, M_LAST, c, "last_cycle", test, t, def);
			}
			for (k = 0; k < arr_len(t, "latencies"); k++) {
				jobj *l = arr_at(t, "latencies", k);
				p.kind = K_LAT;
				p.a = aieth__rj_gets(l, "from");
				p.b = aieth__rj_gets(l, "to");
				put(out, n, &p, M_LATENCY, l, "cycles", test, t, def);
			}
		}
	}
}

static int cmp_str(const char *x, const char *y) { return strcmp(x ? x : "", y ? y : ""); }

static int cmp_val(const void *pa, const void *pb)
{
	const cval *x = pa, *y = pb;
	int c;
	if (x->test != y->test)
		return x->test < y->test ? -1 : 1;
	if (x->txn != y->txn)
		return x->txn < y->txn ? -1 : 1;
	if ((c = cmp_str(x->txn_name, y->txn_name)))
		return c;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if ((c = cmp_str(x->a, y->a)) || (c = cmp_str(x->b, y->b)))
		return c;
	return x->metric < y->metric ? -1 : x->metric > y->metric;
}

/* ------------------------------------------------------ matching tests */

static const char *kind_of(const char *backend)
{
	/* a report's backend may be one this library does not know: a board */
	return aieth_backend_flags(backend) & AIETH_BACKEND_EMULATED ? "emulated" : "board";
}

/* A test's name and place in its report: sorted by name, then place, the
 * tests of one name stand in the order they ran. */
typedef struct {
	const char *name;
	size_t pos;
} tname;

_Thread_local size_t aieth__rc_name_compares;

static int cmp_tname(const void *pa, const void *pb)
{
	const tname *x = pa, *y = pb;
	int c = strcmp(x->name, y->name);
	aieth__rc_name_compares++;
	if (c)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static tname *sorted_names(const aieth_report *r, size_t n)
{
	tname *t = malloc((n ? n : 1) * sizeof *t);
	size_t i;
	if (!t)
		return NULL;
	for (i = 0; i < n; i++) {
		t[i].name = aieth__rj_gets(json_object_array_get_idx(r->tests, i), "name");
		t[i].pos = i;
	}
	qsort(t, n, sizeof *t, cmp_tname);
	return t;
}

/* Test i of `now` with the baseline test of the same name and occurrence
 * (both lists sorted, then merged: n log n); refuses (d->refusal) a pair
 * from another board, clock or backend kind, the first in `now`'s order. */
static int match_tests(aieth_report_diff *d, const aieth_report *base, const aieth_report *now,
		       long *mb, long *mn)
{
	size_t i, j, nb = json_object_array_length(base->tests);
	size_t nn = json_object_array_length(now->tests);
	tname *sb = sorted_names(base, nb), *sn = sorted_names(now, nn);
	char msg[1200];
	if (!sb || !sn) {
		free(sb);
		free(sn);
		return aieth__fail(AIETH_ENOMEM, "baseline comparison: out of memory");
	}
	for (j = 0; j < nb; j++)
		mb[j] = -1;
	for (i = 0; i < nn; i++)
		mn[i] = -1;
	/* equal names: the k-th of one report with the k-th of the other */
	for (i = j = 0; i < nn && j < nb;) {
		int c = strcmp(sn[i].name, sb[j].name);
		aieth__rc_name_compares++;
		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			mn[sn[i].pos] = (long)sb[j].pos;
			mb[sb[j].pos] = (long)sn[i].pos;
			i++;
			j++;
		}
	}
	free(sb);
	free(sn);
	for (i = 0; i < nn && !d->refusal; i++) {
		jobj *t = json_object_array_get_idx(now->tests, i), *bt;
		const char *b1, *b2, *k1, *k2;
		double c1, c2;
		if (mn[i] < 0)
			continue;
		bt = json_object_array_get_idx(base->tests, (size_t)mn[i]);
		b1 = aieth__rj_gets(bt, "board");
		b2 = aieth__rj_gets(t, "board");
		k1 = aieth__rj_gets(bt, "backend");
		k2 = aieth__rj_gets(t, "backend");
		c1 = aieth__rj_getd(bt, "pl_clock_MHz");
		c2 = aieth__rj_getd(t, "pl_clock_MHz");
		/* a test that never loaded its board has nothing to compare */
		if (!*b1 || !*b2 || !*k1 || !*k2)
			continue;
		if (strcmp(b1, b2) || strcmp(kind_of(k1), kind_of(k2)) ||
		    (c1 > 0 && c2 > 0 && fabs(c1 - c2) > 1e-6)) {
			char q1[100], q2[100], q3[100];
			aieth__quote_str(q1, sizeof q1, aieth__rj_gets(t, "name"));
			aieth__quote_str(q2, sizeof q2, b1);
			aieth__quote_str(q3, sizeof q3, b2);
			snprintf(msg, sizeof msg,
				 "baseline %s: test \"%s\" ran on board \"%s\" (%s, PL clock "
				 "%g MHz) there and on \"%s\" (%s, PL clock %g MHz) now; a "
				 "baseline from another board, PL clock or backend kind cannot "
				 "gate this run",
				 d->base_name, q1, q2, kind_of(k1), c1, q3, kind_of(k2), c2);
			if (!(d->refusal = aieth__strdup(msg)))
				return aieth__fail(AIETH_ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* ------------------------------------------------------------ verdicts */

static void label(row *r, const aieth_report *rep, size_t test, const cval *c)
{
	r->test = (char *)aieth__rj_gets(json_object_array_get_idx(rep->tests, test), "name");
	r->txn = (char *)c->txn_name;
	r->txn_index = c->txn;
	r->kind = c->kind;
	r->metric = c->metric;
	r->a = (char *)c->a;
	r->b = (char *)c->b;
}

/* A failing row of test t, about to be added: its first is where the
 * test's error message starts reading (rows are in test order). */
static void count_fail(aieth_report_diff *d, size_t t)
{
	if (!d->fails[t]++)
		d->first_fail[t] = d->nrows;
}

/* A value in both reports. */
static int judge(aieth_report_diff *d, const aieth_report *now, const cval *b, const cval *n)
{
	row r;
	double mag;
	int worse;
	memset(&r, 0, sizeof r);
	label(&r, now, n->test, n);
	r.has_base = b->has;
	r.has_now = n->has;
	r.base = b->v;
	r.now = n->v;
	r.tol = n->tol;
	r.change = NAN;
	if (!b->has && !n->has)
		return 0;
	if (!n->has) {
		r.verdict = V_UNFINISHED; /* measured then, not now */
	} else if (!b->has) {
		r.verdict = V_NO_BASE;
	} else {
		d->compared++;
		if (n->v == b->v)
			return 0;
		/* no percentage of 0: any move of it is beyond every tolerance */
		if (b->v != 0)
			r.change = (n->v - b->v) / fabs(b->v) * 100.0;
		mag = b->v != 0 ? fabs(r.change) : INFINITY;
		if (mag < 1e-9) /* a rounding of the number's text, not a move */
			return 0;
		worse = is_higher_better(n->metric) ? n->v < b->v : n->v > b->v;
		r.verdict = mag <= n->tol ? V_OK : worse ? V_REGRESSION : V_IMPROVED;
	}
	if (r.verdict == V_REGRESSION)
		d->regressions++;
	if (r.verdict == V_UNFINISHED)
		d->missing++;
	if (r.verdict == V_IMPROVED)
		d->improvements++;
	if (failing(r.verdict))
		count_fail(d, r.fail_test = n->test);
	return add_row(d, &r);
}

/* A value in one report only: one row per item (its first metric). */
static int one_side(aieth_report_diff *d, const aieth_report *now, const cval *c, int in_now)
{
	row r;
	if (c->metric == M_CYCLES || c->metric == M_LAST)
		return 0;
	memset(&r, 0, sizeof r);
	label(&r, now, c->test, c);
	r.change = NAN;
	r.tol = c->tol;
	if (in_now) {
		r.verdict = V_NEW;
		r.has_now = c->has;
		r.now = c->v;
	} else {
		r.verdict = V_MISSING; /* never a pass: it was there, now it is not */
		r.has_base = c->has;
		r.base = c->v;
		d->missing++;
		count_fail(d, r.fail_test = c->test);
	}
	return add_row(d, &r);
}

static int test_row(aieth_report_diff *d, const char *name, int verdict)
{
	row r;
	memset(&r, 0, sizeof r);
	r.test = (char *)name;
	r.kind = K_TEST;
	r.metric = M_TEST;
	r.verdict = verdict;
	r.change = NAN;
	return add_row(d, &r);
}

static int merge(aieth_report_diff *d, const aieth_report *now, cval *bv, size_t nb, cval *nv,
		 size_t nn)
{
	size_t i = 0, j = 0;
	int rc = 0;
	qsort(bv, nb, sizeof *bv, cmp_val);
	qsort(nv, nn, sizeof *nv, cmp_val);
	while (!rc && (i < nb || j < nn)) {
		int c = i == nb ? 1 : j == nn ? -1 : cmp_val(&bv[i], &nv[j]);
		if (c == 0)
			rc = judge(d, now, &bv[i++], &nv[j++]);
		else if (c < 0)
			rc = one_side(d, now, &bv[i++], 0);
		else
			rc = one_side(d, now, &nv[j++], 1);
	}
	return rc;
}

int aieth_report_compare(aieth_report_diff **out, const aieth_report *base, const char *base_name,
			 const aieth_report *now, double default_pct)
{
	aieth_report_diff *d;
	size_t nb, nn, i, cb, cn, kb = 0, kn = 0, matched = 0;
	long *mb = NULL, *mn = NULL;
	cval *bv = NULL, *nv = NULL;
	int rc = AIETH_ENOMEM;
	char rid[100];

	aieth__error_clear();
	if (!out || !base || !now || !base_name)
		return aieth__fail(AIETH_EINVAL, "aieth_report_compare: NULL argument");
	*out = NULL;
	if (!isfinite(default_pct) || default_pct > 1e6)
		return aieth__fail(AIETH_EINVAL,
				   "aieth_report_compare: tolerance %g%% is out of "
				   "range (0..1000000, < 0: the default)",
				   default_pct);
	if (default_pct < 0)
		default_pct = AIETH_REGRESSION_DEFAULT_PCT;
	nb = json_object_array_length(base->tests);
	nn = json_object_array_length(now->tests);
	d = calloc(1, sizeof *d);
	if (!d)
		return aieth__fail(AIETH_ENOMEM, "baseline comparison: out of memory");
	d->default_pct = default_pct;
	d->ntests = nn;
	aieth__quote_str(rid, sizeof rid, aieth__rj_gets(base->run, "id"));
	d->base_name = aieth__strdup(base_name);
	d->base_run = aieth__strdup(rid);
	d->fails = calloc(nn ? nn : 1, sizeof *d->fails);
	d->first_fail = calloc(nn ? nn : 1, sizeof *d->first_fail);
	mb = calloc(nb ? nb : 1, sizeof *mb);
	mn = calloc(nn ? nn : 1, sizeof *mn);
	if (!d->base_name || !d->base_run || !d->fails || !d->first_fail || !mb || !mn)
		goto oom;
	if ((rc = match_tests(d, base, now, mb, mn)))
		goto fail;
	for (i = 0; i < nn; i++)
		matched += mn[i] >= 0;
	if (!d->refusal && !matched) {
		char msg[700];
		snprintf(msg, sizeof msg,
			 "baseline %s shares no test name with this run (%zu tests "
			 "there, %zu here): it is not a baseline of these tests",
			 d->base_name, nb, nn);
		if (!(d->refusal = aieth__strdup(msg)))
			goto oom;
	}
	if (d->refusal) {
		d->exit_code = AIETH_EXIT_INPUT;
		*out = d;
		free(mb);
		free(mn);
		return AIETH_OK;
	}
	cb = count_values(base, mb);
	cn = count_values(now, mn);
	if (cb > MAX_VALUES || cn > MAX_VALUES) {
		rc = aieth__fail(AIETH_EINVAL, "%s: more than %u values to compare",
				 cb > MAX_VALUES ? d->base_name : "the new report", MAX_VALUES);
		goto fail;
	}
	bv = calloc(cb ? cb : 1, sizeof *bv);
	nv = calloc(cn ? cn : 1, sizeof *nv);
	if (!bv || !nv)
		goto oom;
	collect(base, mb, 0, default_pct, bv, &kb);
	collect(now, mn, 1, default_pct, nv, &kn);
	/* tests of one report only (listed first, never a failure) */
	for (i = 0; i < nb; i++)
		if (mb[i] < 0 &&
		    (rc = test_row(
			     d, aieth__rj_gets(json_object_array_get_idx(base->tests, i), "name"),
			     V_NOT_RUN)))
			goto fail;
	for (i = 0; i < nn; i++)
		if (mn[i] < 0 &&
		    (rc = test_row(d,
				   aieth__rj_gets(json_object_array_get_idx(now->tests, i), "name"),
				   V_NEW)))
			goto fail;
	if ((rc = merge(d, now, bv, kb, nv, kn)))
		goto fail;
	d->exit_code = d->regressions || d->missing ? AIETH_EXIT_FAIL : AIETH_EXIT_PASS;
	free(bv);
	free(nv);
	free(mb);
	free(mn);
	*out = d;
	return AIETH_OK;
oom:
	rc = aieth__fail(AIETH_ENOMEM, "baseline comparison: out of memory");
fail:
	free(bv);
	free(nv);
	free(mb);
	free(mn);
	aieth_report_diff_free(d);
	return rc;
}

int aieth_report_diff_exit(const aieth_report_diff *d)
{
	return d ? d->exit_code : AIETH_EXIT_INPUT;
}

size_t aieth_report_diff_regressions(const aieth_report_diff *d)
{
	return d ? d->regressions + d->missing : 0;
}

size_t aieth_report_diff_improvements(const aieth_report_diff *d)
{
	return d ? d->improvements : 0;
}

void aieth_report_diff_free(aieth_report_diff *d)
{
	size_t i;
	if (!d)
		return;
	for (i = 0; i < d->nrows; i++) {
		free(d->rows[i].test);
		free(d->rows[i].txn);
		free(d->rows[i].a);
		free(d->rows[i].b);
	}
	free(d->rows);
	free(d->fails);
	free(d->first_fail);
	free(d->base_name);
	free(d->base_run);
	free(d->refusal);
	free(d);
}
