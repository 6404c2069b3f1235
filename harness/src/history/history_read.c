/* SPDX-License-Identifier: MIT */
/*
 * history_read.c - a report.json tree (schema aieth-report/1 or /2) read
 * into the figures the history keeps. The report is a file a farm
 * collected: every value used is checked for its type and range, and a
 * foreign or damaged one is refused naming the file and the JSON path.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aieth.h"
#include "history/history_internal.h"
#include "report/report_fields.h"
#include "report/report_model.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/text.h"

typedef struct json_object jobj;

/* bounds of the work one report may ask for (run_test's reports are far
 * below them) */
#define MAX_TESTS 100000
#define MAX_TXNS 100000
#define MAX_ITEMS 4096
#define MAX_FIGS 1000000
#define MAX_STR 4096

const char *const aieth__hist_metric_name[] = {"throughput_MBps", "cycles", "total_cycles",
					       "latency_cycles"};
const char *const aieth__hist_kind_name[] = {"transaction", "channel", "latency"};

/* a string (absent or null: dflt; required: an error), copied */
static int str_at(const char *what, const char *path, jobj *o, const char *key, const char *dflt,
		  int required, char **out)
{
	char p[600];
	const char *s;
	int rc = aieth__rf_str(what, path, o, key, required, &s);
	if (rc)
		return rc;
	if (!s) {
		s = dflt;
	} else if (strlen(s) > MAX_STR) {
		aieth__rf_at(p, sizeof p, path, key);
		return aieth__rf_bad(what, p, "longer than 4096 bytes");
	}
	if (!(*out = strdup(s)))
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	return 0;
}

static const char *tol_key(int metric)
{
	return metric == HM_THROUGHPUT ? "throughput_pct"
	       : metric == HM_LATENCY  ? "latency_pct"
				       : "cycles_pct";
}

/* The tolerance of a figure: the transaction's "regression", the test's
 * (the rule of the baseline comparison), else none. */
static int tolerance(const char *what, const char *path, jobj *test, jobj *txn, int metric,
		     double *out)
{
	int has = 0, rc;
	double v = NAN;
	jobj *g = aieth__rj_get(txn, "regression");
	if (g && (rc = aieth__rf_num(what, path, g, tol_key(metric), 0, &has, &v)))
		return rc;
	if (!has && (g = aieth__rj_get(test, "regression")) &&
	    (rc = aieth__rf_num(what, path, g, tol_key(metric), 0, &has, &v)))
		return rc;
	*out = has ? v : NAN;
	return 0;
}

/* stats.<key> of o: {min, max, mad, runs: [...]} of a repeated run (/2) */
static int stats_at(const char *what, const char *path, jobj *o, const char *key, hist_fig *f)
{
	char p[600];
	jobj *s = aieth__rj_get(aieth__rj_get(o, "stats"), key), *runs;
	int h1, h2, h3, rc;
	if (!s)
		return 0;
	snprintf(p, sizeof p, "%.400s.stats.%s", path, key);
	if ((rc = aieth__rf_obj(what, p, s)) ||
	    (rc = aieth__rf_num(what, p, s, "min", -1e300, &h1, &f->smin)) ||
	    (rc = aieth__rf_num(what, p, s, "max", -1e300, &h2, &f->smax)) ||
	    (rc = aieth__rf_num(what, p, s, "mad", 0, &h3, &f->smad)) ||
	    (rc = aieth__rf_arr(what, p, s, "runs", 100000000, &runs)))
		return rc;
	f->has_stats = h1 && h2 && h3;
	f->nruns = runs ? (int64_t)json_object_array_length(runs) : 0;
	return 0;
}

static int add_fig(hist_test *t, const hist_fig *f)
{
	if (AIETH__GROW(t->f, t->capf, t->nf + 1, 8, MAX_FIGS))
		return aieth__fail(AIETH_ENOMEM, "history: out of memory (figures)");
	t->f[t->nf] = *f;
	if (!(t->f[t->nf].txn = strdup(f->txn)) || !(t->f[t->nf].a = strdup(f->a)) ||
	    !(t->f[t->nf].b = strdup(f->b))) {
		free(t->f[t->nf].txn);
		free(t->f[t->nf].a);
		return aieth__fail(AIETH_ENOMEM, "history: out of memory (figures)");
	}
	t->nf++;
	return 0;
}

static hist_fig fig_init(const char *txn, int64_t index, int kind, int metric)
{
	hist_fig f;
	memset(&f, 0, sizeof f);
	f.txn = (char *)txn;
	f.a = f.b = (char *)"";
	f.txn_index = index;
	f.kind = kind;
	f.metric = metric;
	f.thr_min = f.thr_max = f.tol_pct = NAN;
	return f;
}

/* thresholds[] of a channel: {metric, min, max} of throughput_MBps */
static int thresholds(const char *what, const char *path, jobj *ch, hist_fig *f)
{
	jobj *a, *e;
	size_t i;
	int rc, h;
	double v;
	char p[600];
	if ((rc = aieth__rf_arr(what, path, ch, "thresholds", MAX_ITEMS, &a)))
		return rc;
	for (i = 0; a && i < json_object_array_length(a); i++) {
		e = json_object_array_get_idx(a, i);
		snprintf(p, sizeof p, "%.400s.thresholds[%zu]", path, i);
		if ((rc = aieth__rf_obj(what, p, e)))
			return rc;
		if (!aieth__rj_get(e, "metric") ||
		    !json_object_is_type(aieth__rj_get(e, "metric"), json_type_string) ||
		    strcmp(json_object_get_string(aieth__rj_get(e, "metric")),
			   aieth__hist_metric_name[f->metric]))
			continue;
		if ((rc = aieth__rf_num(what, p, e, "min", -1e300, &h, &v)))
			return rc;
		if (h)
			f->thr_min = v;
		if ((rc = aieth__rf_num(what, p, e, "max", -1e300, &h, &v)))
			return rc;
		if (h)
			f->thr_max = v;
	}
	return 0;
}

static int read_txn(const char *what, const char *path, jobj *test, jobj *x, hist_test *t)
{
	char *name = NULL, p[600];
	jobj *a;
	int64_t index;
	size_t i;
	int rc, m;
	hist_fig f;
	if ((rc = aieth__rf_obj(what, path, x)) ||
	    (rc = str_at(what, path, x, "name", "", 1, &name)))
		return rc;
	if ((rc = aieth__rf_index(what, path, x, "index", &index))) {
		free(name);
		return rc;
	}
	f = fig_init(name, index, HK_TXN, HM_TOTAL);
	if ((rc = aieth__rf_num(what, path, x, "total_cycles", 0, &f.has, &f.value)) ||
	    (rc = stats_at(what, path, x, "total_cycles", &f)) ||
	    (rc = tolerance(what, path, test, x, HM_TOTAL, &f.tol_pct)) || (rc = add_fig(t, &f)))
		goto out;
	if ((rc = aieth__rf_arr(what, path, x, "channels", MAX_ITEMS, &a)))
		goto out;
	for (i = 0; a && i < json_object_array_length(a); i++) {
		jobj *c = json_object_array_get_idx(a, i);
		char *plio = NULL;
		snprintf(p, sizeof p, "%.400s.channels[%zu]", path, i);
		if ((rc = aieth__rf_obj(what, p, c)) ||
		    (rc = str_at(what, p, c, "plio", "", 1, &plio)))
			goto out;
		for (m = HM_THROUGHPUT; m <= HM_CYCLES && !rc; m++) {
			f = fig_init(name, index, HK_CHAN, m);
			f.a = plio;
			if (!(rc = aieth__rf_num(what, p, c, aieth__hist_metric_name[m], 0, &f.has,
						 &f.value)) &&
			    !(rc = stats_at(what, p, c, aieth__hist_metric_name[m], &f)) &&
			    !(rc = thresholds(what, p, c, &f)) &&
			    !(rc = tolerance(what, p, test, x, m, &f.tol_pct)))
				rc = add_fig(t, &f);
		}
		free(plio);
		if (rc)
			goto out;
	}
	if ((rc = aieth__rf_arr(what, path, x, "latencies", MAX_ITEMS, &a)))
		goto out;
	for (i = 0; a && i < json_object_array_length(a); i++) {
		jobj *l = json_object_array_get_idx(a, i);
		char *from = NULL, *to = NULL;
		int h;
		double mx;
		snprintf(p, sizeof p, "%.400s.latencies[%zu]", path, i);
		f = fig_init(name, index, HK_LAT, HM_LATENCY);
		if (!(rc = aieth__rf_obj(what, p, l)) &&
		    !(rc = str_at(what, p, l, "from", "", 1, &from)) &&
		    !(rc = str_at(what, p, l, "to", "", 1, &to)) &&
		    !(rc = aieth__rf_num(what, p, l, "cycles", -1e300, &f.has, &f.value)) &&
		    !(rc = stats_at(what, p, l, "cycles", &f)) &&
		    !(rc = aieth__rf_num(what, p, l, "max_cycles", -1e300, &h, &mx)) &&
		    !(rc = tolerance(what, p, test, x, HM_LATENCY, &f.tol_pct))) {
			f.a = from;
			f.b = to;
			if (h)
				f.thr_max = mx;
			rc = add_fig(t, &f);
		}
		free(from);
		free(to);
		if (rc)
			goto out;
	}
out:
	free(name);
	return rc;
}

/* "2026-12-02T04:21:27Z" (what report.c writes) -> seconds, or -1 */
static double iso_time(const char *s)
{
	struct tm tm;
	char z = 0;
	memset(&tm, 0, sizeof tm);
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &z) != 7 ||
	    z != 'Z' || tm.tm_year < 1970 || tm.tm_year > 9999 || tm.tm_mon < 1 || tm.tm_mon > 12 ||
	    tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
	    tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm);
}

/* The run's key: run.id (milliseconds and PID where it was made, unique on
 * one host) with the host's name; a report without an id gets the hash of
 * its start time, host and command line, so a re-import matches. */
static int run_key(hist_run *run, jobj *argv)
{
	char *k;
	size_t n;
	if (*run->id) {
		n = strlen(run->id) + strlen(run->host) + 2;
		if (!(k = malloc(n)))
			return aieth__fail(AIETH_ENOMEM, "history: out of memory");
		snprintf(k, n, "%s@%s", run->id, run->host);
	} else {
		aieth_sha256 s;
		uint8_t d[32];
		size_t i;
		aieth__sha256_init(&s);
		aieth__sha256_update(&s, run->started_at, strlen(run->started_at) + 1);
		aieth__sha256_update(&s, run->host, strlen(run->host) + 1);
		for (i = 0; argv && i < json_object_array_length(argv); i++) {
			const char *a = json_object_get_string(json_object_array_get_idx(argv, i));
			aieth__sha256_update(&s, a ? a : "", a ? strlen(a) + 1 : 1);
		}
		aieth__sha256_final(&s, d);
		if (!(k = malloc(72)))
			return aieth__fail(AIETH_ENOMEM, "history: out of memory");
		memcpy(k, "sha256:", 7);
		aieth__sha256_hex(d, k + 7);
	}
	run->key = k;
	return 0;
}

int aieth__hist_read_report(hist_run *run, const char *what, jobj *root)
{
	jobj *r, *env, *tests, *argv = NULL, *v;
	size_t i, j;
	int rc, has;
	double code;
	memset(run, 0, sizeof *run);
	if (!root || !json_object_is_type(root, json_type_object))
		return aieth__rf_bad(what, "(top)", "expected an object");
	if ((rc = aieth__rf_schema(what, root, AIETH_EPARSE)))
		return rc;
	r = aieth__rj_get(root, "run");
	env = aieth__rj_get(root, "environment");
	if (!r || (rc = aieth__rf_obj(what, "run", r)))
		return r ? rc : aieth__rf_bad(what, "run", "missing (required)");
	if (env && (rc = aieth__rf_obj(what, "environment", env)))
		return rc;
	if ((rc = str_at(what, "run", r, "id", "", 0, &run->id)) ||
	    (rc = str_at(what, "run", r, "started_at", "", 1, &run->started_at)) ||
	    (rc = str_at(what, "run", r, "status", "error", 0, &run->status)) ||
	    (rc = str_at(what, "environment", env, "hostname", "", 0, &run->host)) ||
	    (rc = aieth__rf_num(what, "run", r, "exit_code", 0, &has, &code)) ||
	    (rc = aieth__rf_arr(what, "run", r, "argv", 100000, &argv)) ||
	    (rc = aieth__rf_arr(what, "", root, "tests", MAX_TESTS, &tests)))
		goto fail;
	run->exit_code = has && code < 1000 ? (int)code : 3;
	if ((run->t = iso_time(run->started_at)) < 0) {
		rc = aieth__rf_bad(what, "run.started_at",
				   "expected a time as YYYY-MM-DDTHH:MM:SSZ");
		goto fail;
	}
	{ /* the id "MS-PID" that report.c writes orders runs of one second */
		char *end;
		double ms = strtod(run->id, &end);
		if (end != run->id && *end == '-' && fabs(ms / 1e3 - run->t) < 1.0)
			run->t = ms / 1e3;
	}
	if (!tests) {
		rc = aieth__rf_bad(what, "tests", "missing (required)");
		goto fail;
	}
	if ((rc = run_key(run, argv)))
		goto fail;
	run->tests = calloc(json_object_array_length(tests) + 1, sizeof *run->tests);
	if (!run->tests) {
		rc = aieth__fail(AIETH_ENOMEM, "history: out of memory");
		goto fail;
	}
	for (i = 0; i < json_object_array_length(tests); i++) {
		jobj *t = json_object_array_get_idx(tests, i), *txns;
		hist_test *ht = &run->tests[run->nt++];
		char p[64];
		snprintf(p, sizeof p, "tests[%zu]", i);
		if ((rc = aieth__rf_obj(what, p, t)) ||
		    (rc = str_at(what, p, t, "name", "", 1, &ht->name)))
			goto fail;
		/* a test that never loaded its description has no board:
		 * the run's */
		v = aieth__rj_get(t, "board");
		if ((rc = str_at(what, p, v ? t : env, "board", "", 0, &ht->board)))
			goto fail;
		v = aieth__rj_get(t, "backend");
		if ((rc = str_at(what, p, v ? t : env, "backend", "", 0, &ht->backend)) ||
		    (rc = str_at(what, p, t, "status", "error", 0, &ht->status)) ||
		    (rc = aieth__rf_arr(what, p, t, "transactions", MAX_TXNS, &txns)))
			goto fail;
		for (j = 0; txns && j < json_object_array_length(txns); j++) {
			char q[120];
			snprintf(q, sizeof q, "%s.transactions[%zu]", p, j);
			if ((rc = read_txn(what, q, t, json_object_array_get_idx(txns, j), ht)))
				goto fail;
		}
	}
	return 0;
fail:
	aieth__hist_run_free(run);
	return rc;
}

void aieth__hist_run_free(hist_run *run)
{
	size_t i, j;
	for (i = 0; run->tests && i < run->nt; i++) {
		hist_test *t = &run->tests[i];
		for (j = 0; j < t->nf; j++) {
			free(t->f[j].txn);
			free(t->f[j].a);
			free(t->f[j].b);
		}
		free(t->f);
		free(t->name);
		free(t->board);
		free(t->backend);
		free(t->status);
	}
	free(run->tests);
	free(run->key);
	free(run->id);
	free(run->started_at);
	free(run->host);
	free(run->status);
	memset(run, 0, sizeof *run);
}
