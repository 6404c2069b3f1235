/* SPDX-License-Identifier: MIT */
/*
 * run_repeat.c - repeated runs of a transaction (docs/test-spec.md,
 * "repeat"): the counts checked before any run, each run's failed checks
 * named, and the runs summed up into the transaction's entry: the median
 * run's figures, the statistics of every figure (util/stats.c: the one
 * rule), thresholds and latency limits applied to the chosen statistic.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_model.h"
#include "report/report_why.h"
#include "runner/run_internal.h"
#include "runner/spec.h"
#include "util/error.h"
#include "util/path.h"
#include "util/sbuf.h"
#include "util/stats.h"

/* ------------------------------------------------------------ limits */

/* figures of measured runs a description's report keeps: 2e6 numbers
 * took 300 MB of memory while the report was written, 61 MB of
 * report.json (adder_perf: 20 per run, its 100000 runs, in 65 s) */
#define MAX_KEPT_VALUES 2000000u

int aieth__rn_repeat_check(run_ctx *c)
{
	const spec_repeat *sr = &c->sp->repeat;
	int opt = c->o && c->o->version >= 3 && c->o->repeat_runs > 0;
	uint64_t runs = opt ? c->o->repeat_runs : sr->runs;
	uint64_t warm = opt ? c->o->repeat_warmup : sr->warmup, total;
	const char *rf = opt ? "--repeat" : "repeat.runs", *wf = opt ? "--warmup" : "repeat.warmup";
	const char *file = c->sp->path;
	jobj *rp;
	size_t i, j;

	if (runs < 1 || runs > SPEC_REPEAT_MAX) {
		aieth__fail(AIETH_EINVAL, "%s: %s: value %llu is out of range (1..%u)", file, rf,
			    (unsigned long long)runs, SPEC_REPEAT_MAX);
		goto bad;
	}
	total = runs + warm;
	if (total > SPEC_REPEAT_MAX) {
		aieth__fail(AIETH_EINVAL,
			    "%s: %s: value %llu with %llu runs is %llu runs in all, more than the "
			    "limit of %u",
			    file, wf, (unsigned long long)warm, (unsigned long long)runs,
			    (unsigned long long)total, SPEC_REPEAT_MAX);
		goto bad;
	}
	/* every run moves the transaction's data again: all runs of one
	 * transaction are held to what one channel may carry in one run */
	for (i = 0; i < c->sp->ntxns; i++) {
		uint64_t bytes = 0;
		for (j = 0; j < c->sp->txns[i].nch; j++)
			bytes += c->cr[i][j].size; /* each <= MAX_DATA_BYTES: no overflow */
		if (total > 1 && bytes > MAX_DATA_BYTES / total) {
			aieth__fail(
				AIETH_EINVAL,
				"%s: %s: %llu runs in all of %s, %llu bytes of data each, "
				"are more than the limit of %llu bytes (64 GiB) for the runs of "
				"one transaction",
				file, rf, (unsigned long long)total, c->sp->txns[i].jpath,
				(unsigned long long)bytes, (unsigned long long)MAX_DATA_BYTES);
			goto bad;
		}
	}
	/* every measured run's figures are kept in memory and in report.json
	 * (stats.*.runs): their count is bounded, before any run */
	if (runs > 1) {
		uint64_t per = 0;
		for (i = 0; i < c->sp->ntxns; i++)
			per += 1 + 6 * (uint64_t)c->sp->txns[i].nch + c->sp->txns[i].nlat;
		if (per * runs > MAX_KEPT_VALUES) {
			aieth__fail(
				AIETH_EINVAL,
				"%s: %s: value %llu keeps %llu figures per run (1 + 6 per "
				"channel + 1 per latency bound of each transaction), %llu in all, "
				"more than the limit of %u kept in report.json",
				file, rf, (unsigned long long)runs, (unsigned long long)per,
				(unsigned long long)(per * runs), MAX_KEPT_VALUES);
			goto bad;
		}
	}
	/* a bounded graph runs its iterations once per run */
	for (i = 0; i < c->sp->ngraphs; i++) {
		int64_t it = c->sp->graphs[i].iterations;
		if (it > 0 && (uint64_t)it > (uint64_t)INT64_MAX / total) {
			aieth__fail(AIETH_EINVAL,
				    "%s: %s: %llu runs in all of graphs[%zu] (\"%s\", %lld "
				    "iterations per run) are more than %lld iterations",
				    file, rf, (unsigned long long)total, i, c->sp->graphs[i].name,
				    (long long)it, (long long)INT64_MAX);
			goto bad;
		}
	}
	c->runs = (uint32_t)runs;
	c->warmup = (uint32_t)warm;
	c->statistic = sr->statistic;
	rp = aieth__rj_obj();
	aieth__rj_u64(rp, "runs", runs);
	aieth__rj_u64(rp, "warmup", warm);
	aieth__rj_str(rp, "statistic", aieth__stats_name(c->statistic));
	aieth__rj_set(c->test, "repeat", rp);
	return 0;
bad:
	aieth__rn_test_error(c, "load", AIETH_EINVAL,
			     "docs/test-spec.md, \"repeat\": at most 100000 runs in all",
			     AIETH_EXIT_INPUT);
	return -1;
}

/* ------------------------------------------------------- failed runs */

/* "transactions[0] run 3 of 10" (1-based, as a person counts) */
static void run_label(const run_ctx *c, const spec_txn *st, uint32_t r, char *buf, size_t n)
{
	if (r < c->warmup)
		snprintf(buf, n, "%s warm-up run %u of %u", st->jpath, r + 1, c->warmup);
	else
		snprintf(buf, n, "%s run %u of %u", st->jpath, r - c->warmup + 1, c->runs);
}

static void add_failure(const run_ctx *c, uint32_t r, const char *plio, const char *reason,
			jobj *failed)
{
	jobj *f = aieth__rj_obj();
	aieth__rj_u64(f, "run", r < c->warmup ? r : r - c->warmup);
	if (r < c->warmup)
		aieth__rj_bool(f, "warmup", 1);
	if (plio)
		aieth__rj_str(f, "plio", plio);
	else
		aieth__rj_null(f, "plio");
	aieth__rj_str(f, "reason", reason);
	aieth__rj_push(failed, f);
}

void aieth__rn_run_failures(run_ctx *c, const spec_txn *st, jobj *run, uint32_t r, jobj *failed)
{
	jobj *chans = aieth__rj_get(run, "channels");
	char label[128];
	size_t j;
	run_label(c, st, r, label, sizeof label);
	if (strcmp(aieth__rj_gets(run, "status"), "done")) {
		sbuf b = SB_INIT(SB_LINE_MAX);
		aieth__sb_printf(&b, "%s: %s%s%s", label, aieth__rj_gets(run, "status"),
				 aieth__rj_gets(run, "message")[0] ? ": " : "",
				 aieth__rj_gets(run, "message"));
		add_failure(c, r, NULL, b.p && !b.oom ? b.p : label, failed);
		aieth__sb_free(&b);
		return;
	}
	for (j = 0; chans && j < json_object_array_length(chans); j++) {
		jobj *ch = json_object_array_get_idx(chans, j);
		sbuf b = SB_INIT(SB_LINE_MAX);
		if (!strcmp(aieth__rj_gets(ch, "verdict"), "pass"))
			continue;
		aieth__sb_printf(&b, "%s: %s: ", label, aieth__rj_gets(ch, "plio"));
		if (!aieth__rw_channel_why(&b, ch)) {
			jobj *in = aieth__rj_get(ch, "integrity");
			aieth__sb_printf(&b, "%s", aieth__rj_gets(ch, "verdict"));
			if (in && aieth__rj_gets(in, "reason")[0])
				aieth__sb_printf(&b, " (%s)", aieth__rj_gets(in, "reason"));
		}
		add_failure(c, r, aieth__rj_gets(ch, "plio"), b.p && !b.oom ? b.p : label, failed);
		aieth__sb_free(&b);
	}
}

/* ------------------------------------------------ a run's figures kept */

/* What a measured run leaves for the summary: its numbers, not its report
 * objects (a channel's object is some 5 KB in json-c, its figures 80
 * bytes), and the integrity of a channel whose check failed. NaN: null. */
enum { F_CYCLES, F_FIRST, F_LAST, F_NS, F_MBPS, F_MIBPS, F_UTIL, F_ELEMS, F_MAXERR, F_VERDICT, NF };
static const char *const fig_keys[NF] = {
	"cycles",           "first_cycle",     "last_cycle", "duration_ns", "throughput_MBps",
	"throughput_MiBps", "utilisation_pct", NULL,         NULL,          NULL};
#define N_STATS 6 /* the first figures have statistics (report-schema.md) */

struct rn_run {
	size_t nch, nlat;
	double total;
	double *ch;    /* nch x NF */
	double *lat;   /* nlat */
	jobj **integ;  /* nch, NULL until a channel of this run fails */
	char *message; /* the transaction's message, when not "" */
	int valid;
};

static double num_or_nan(jobj *o, const char *key)
{
	jobj *v = aieth__rj_get(o, key);
	return v && (json_object_is_type(v, json_type_int) ||
		     json_object_is_type(v, json_type_double))
		       ? json_object_get_double(v)
		       : NAN;
}

static double verdict_code(const char *v)
{
	return !strcmp(v, "pass") ? 0 : !strcmp(v, "fail") ? 1 : 2;
}

static const char *verdict_name(double v) { return v == 0 ? "pass" : v == 1 ? "fail" : "error"; }

void aieth__rn_run_free(rn_run *r)
{
	size_t j;
	if (!r)
		return;
	for (j = 0; r->integ && j < r->nch; j++)
		json_object_put(r->integ[j]);
	free(r->integ);
	free(r->ch);
	free(r->lat);
	free(r->message);
	free(r);
}

rn_run *aieth__rn_run_keep(const spec_txn *st, jobj *run)
{
	jobj *chans = aieth__rj_get(run, "channels"), *lats = aieth__rj_get(run, "latencies");
	rn_run *r = calloc(1, sizeof *r);
	size_t j, f;
	if (!r)
		return NULL;
	r->nch = st->nch;
	r->nlat = st->nlat;
	r->total = num_or_nan(run, "total_cycles");
	r->valid = json_object_get_boolean(aieth__rj_get(run, "valid"));
	r->ch = calloc(r->nch * NF + 1, sizeof *r->ch);
	r->lat = calloc(r->nlat + 1, sizeof *r->lat);
	if (!r->ch || !r->lat ||
	    (aieth__rj_gets(run, "message")[0] &&
	     !(r->message = aieth__strdup(aieth__rj_gets(run, "message"))))) {
		aieth__rn_run_free(r);
		return NULL;
	}
	for (j = 0; j < r->nch; j++) {
		jobj *ch = json_object_array_get_idx(chans, j),
		     *in = aieth__rj_get(ch, "integrity");
		double *x = r->ch + j * NF;
		for (f = 0; fig_keys[f]; f++)
			x[f] = num_or_nan(ch, fig_keys[f]);
		x[F_ELEMS] = num_or_nan(in, "elements");
		x[F_MAXERR] = num_or_nan(in, "max_abs_error");
		x[F_VERDICT] = verdict_code(aieth__rj_gets(ch, "verdict"));
		if (x[F_VERDICT] != 0 && in) {
			/* a failed check's details are this run's own */
			if (!r->integ && !(r->integ = calloc(r->nch, sizeof *r->integ))) {
				aieth__rn_run_free(r);
				return NULL;
			}
			r->integ[j] = json_object_get(in);
		}
	}
	for (j = 0; j < r->nlat; j++)
		r->lat[j] = num_or_nan(json_object_array_get_idx(lats, j), "cycles");
	return r;
}

/* Channel j of tmpl (the last measured run's object) as run r had it. */
static void restore_channel(jobj *ch, const rn_run *r, size_t j)
{
	const double *x = r->ch + j * NF;
	jobj *in = aieth__rj_get(ch, "integrity");
	size_t f;
	for (f = 0; fig_keys[f]; f++) {
		if (isnan(x[f]))
			aieth__rj_null(ch, fig_keys[f]);
		else if (f == F_CYCLES || f == F_FIRST || f == F_LAST)
			aieth__rj_u64(ch, fig_keys[f], (uint64_t)x[f]);
		else
			aieth__rj_num(ch, fig_keys[f], x[f]);
	}
	if (r->integ && r->integ[j]) {
		aieth__rj_set(ch, "integrity", json_object_get(r->integ[j]));
	} else if (in && json_object_get_boolean(aieth__rj_get(in, "checked"))) {
		/* it passed: all elements equal */
		aieth__rj_u64(in, "elements", isnan(x[F_ELEMS]) ? 0 : (uint64_t)x[F_ELEMS]);
		aieth__rj_u64(in, "mismatches", 0);
		aieth__rj_null(in, "first_mismatch");
		aieth__rj_num(in, "max_abs_error", isnan(x[F_MAXERR]) ? 0 : x[F_MAXERR]);
	}
	aieth__rj_str(ch, "verdict", verdict_name(x[F_VERDICT]));
}

/* -------------------------------------------------------- statistics */

/* S = {median, min, max, mean, stddev, mad, runs} of vals[0..n) into
 * dst.key (dst NULL: only *st); -1 when a run lacks the figure (NaN). */
static int put_stats(jobj *dst, const char *key, const double *vals, size_t n, aieth__stats *st)
{
	jobj *s, *arr;
	size_t i;
	for (i = 0; i < n; i++)
		if (isnan(vals[i]))
			return -1;
	if (aieth__stats_compute(vals, n, st))
		return -1;
	if (!dst)
		return 0;
	s = aieth__rj_obj();
	aieth__rj_num(s, "median", st->median);
	aieth__rj_num(s, "min", st->min);
	aieth__rj_num(s, "max", st->max);
	aieth__rj_num(s, "mean", st->mean);
	aieth__rj_num(s, "stddev", st->stddev);
	aieth__rj_num(s, "mad", st->mad);
	arr = aieth__rj_arr();
	for (i = 0; i < n; i++)
		aieth__rj_push(arr, json_object_new_double(vals[i]));
	aieth__rj_set(s, "runs", arr);
	aieth__rj_set(dst, key, s);
	return 0;
}

/* The worse of two channel verdicts (error > fail > pass). */
static const char *worse_verdict(const char *a, const char *b)
{
	if (!strcmp(a, "error") || !strcmp(b, "error"))
		return "error";
	if (!strcmp(a, "fail") || !strcmp(b, "fail"))
		return "fail";
	return a;
}

int aieth__rn_txn_summary(run_ctx *c, const spec_txn *st, jobj *tj, rn_run **runs, size_t n,
			  jobj *last, jobj *broken, jobj *failed)
{
	static const char *const copied[] = {"status",   "valid",     "message", "total_cycles",
					     "channels", "latencies", NULL};
	const char *stat = aieth__stats_name(c->statistic);
	jobj *shown = broken ? broken : n ? last : NULL, *chans, *lats;
	double *vals = NULL;
	aieth__stats s;
	int64_t k = -1;
	int code = AIETH_EXIT_PASS, done, many = 0;
	size_t i, j;

	if (n && !(vals = calloc(n, sizeof *vals))) {
		aieth__fail(AIETH_ENOMEM, "out of memory for the statistics of %zu runs", n);
		aieth__rn_test_error(c, "run", AIETH_ENOMEM, NULL, AIETH_EXIT_INFRA);
		n = 0;
		code = AIETH_EXIT_INFRA;
		shown = broken ? broken : last;
	}
	if (!broken && n) {
		/* the run whose total cycles are the median is the one shown */
		many = n > 1;
		for (i = 0; i < n; i++)
			vals[i] = runs[i]->total;
		k = put_stats(NULL, NULL, vals, n, &s) == 0 ? (int64_t)s.median_index : 0;
	}
	if (!shown) {
		/* stopped before any measured run completed (an interruption
		 * between warm-up runs) */
		aieth__rj_str(tj, "status", "interrupted");
		aieth__rj_bool(tj, "valid", 0);
		aieth__rj_str(tj, "message", "stopped before a measured run");
		aieth__rj_u64(tj, "total_cycles", 0);
		aieth__rj_set(tj, "channels", aieth__rj_arr());
		aieth__rj_set(tj, "latencies", aieth__rj_arr());
	} else {
		for (i = 0; copied[i]; i++) {
			jobj *v = aieth__rj_get(shown, copied[i]);
			if (v) /* a run that failed to start has only status, message */
				aieth__rj_set(tj, copied[i], json_object_get(v));
		}
	}
	if (k >= 0) {
		/* the last run's objects become the median run's */
		aieth__rj_u64(tj, "total_cycles", (uint64_t)runs[k]->total);
		aieth__rj_bool(tj, "valid", runs[k]->valid);
		aieth__rj_str(tj, "message", runs[k]->message ? runs[k]->message : "");
		aieth__rj_int(tj, "median_run", k);
	} else {
		aieth__rj_null(tj, "median_run");
	}
	if (many) {
		jobj *ts = aieth__rj_obj();
		put_stats(ts, "total_cycles", vals, n, &s);
		aieth__rj_set(tj, "stats", ts);
	}
	aieth__rj_set(tj, "runs_failed", failed);
	done = !strcmp(aieth__rj_gets(tj, "status"), "done");
	chans = aieth__rj_get(tj, "channels");
	lats = aieth__rj_get(tj, "latencies");

	for (j = 0; chans && j < json_object_array_length(chans) && j < st->nch; j++) {
		const spec_chan *sc = &st->ch[j];
		jobj *ch = json_object_array_get_idx(chans, j), *th;
		const char *verdict;
		aieth__stats mb;
		int have_mb = 0;
		size_t f;
		if (k >= 0) {
			jobj *cs = many ? aieth__rj_obj() : NULL, *rf = aieth__rj_arr();
			restore_channel(ch, runs[k], j);
			for (f = 0; f < N_STATS; f++) {
				for (i = 0; i < n; i++)
					vals[i] = runs[i]->ch[j * NF + f];
				if (put_stats(cs, fig_keys[f], vals, n, &s) == 0 && f == F_MBPS) {
					mb = s;
					have_mb = 1;
				}
			}
			if (cs)
				aieth__rj_set(ch, "stats", cs);
			/* one bad run is a bad channel: which runs, 0-based */
			verdict = aieth__rj_gets(ch, "verdict");
			for (i = 0; i < n; i++) {
				const char *v = verdict_name(runs[i]->ch[j * NF + F_VERDICT]);
				verdict = worse_verdict(verdict, v);
				if (strcmp(v, "pass"))
					aieth__rj_push(rf, json_object_new_int64((int64_t)i));
			}
			aieth__rj_set(ch, "failed_runs", rf);
			/* a warm-up run is checked too: its failure is the channel's */
			rf = aieth__rj_arr();
			for (i = 0; failed && i < json_object_array_length(failed); i++) {
				jobj *fe = json_object_array_get_idx(failed, i);
				if (json_object_get_boolean(aieth__rj_get(fe, "warmup")) &&
				    !strcmp(aieth__rj_gets(fe, "plio"),
					    aieth__rj_gets(ch, "plio"))) {
					aieth__rj_push(rf, json_object_new_int64(
								   aieth__rj_geti(fe, "run")));
					verdict = worse_verdict(verdict, "fail");
				}
			}
			if (json_object_array_length(rf))
				aieth__rj_set(ch, "failed_warmup_runs", rf);
			else
				json_object_put(rf);
			aieth__rj_str(ch, "verdict", verdict);
		}
		verdict = aieth__rj_gets(ch, "verdict");
		th = aieth__rj_get(ch, "thresholds");
		if (sc->have_min_mbps) {
			jobj *t1 = aieth__rj_obj();
			int fin = json_object_get_boolean(aieth__rj_get(ch, "finished"));
			double m = have_mb ? aieth__stats_get(&mb, c->statistic)
					   : aieth__rj_getd(ch, "throughput_MBps");
			int ok = (have_mb || fin) && m >= sc->min_mbps;
			aieth__rj_str(t1, "metric", "throughput_MBps");
			aieth__rj_str(t1, "statistic", stat);
			aieth__rj_num(t1, "min", sc->min_mbps);
			if (have_mb || fin)
				aieth__rj_num(t1, "measured", m);
			else
				aieth__rj_null(t1, "measured");
			aieth__rj_bool(t1, "passed", ok);
			aieth__rj_push(th, t1);
			if (!ok && done) {
				code = aieth__exit_worst(code, AIETH_EXIT_FAIL);
				aieth__rj_str(ch, "verdict", worse_verdict(verdict, "fail"));
			}
		}
	}
	for (j = 0; lats && j < json_object_array_length(lats); j++) {
		jobj *l = json_object_array_get_idx(lats, j), *cy;
		int have = 0, ok;
		double m = 0;
		if (k >= 0 && j < st->nlat) {
			jobj *ls = many ? aieth__rj_obj() : NULL;
			if (isnan(runs[k]->lat[j]))
				aieth__rj_null(l, "cycles");
			else
				aieth__rj_int(l, "cycles", (int64_t)runs[k]->lat[j]);
			for (i = 0; i < n; i++)
				vals[i] = runs[i]->lat[j];
			if (put_stats(ls, "cycles", vals, n, &s) == 0) {
				m = aieth__stats_get(&s, c->statistic);
				have = 1;
			}
			if (ls)
				aieth__rj_set(l, "stats", ls);
		}
		cy = aieth__rj_get(l, "cycles");
		if (k < 0 || !have) {
			have = cy && json_object_is_type(cy, json_type_int);
			m = have ? (double)json_object_get_int64(cy) : 0;
		}
		ok = done && have && m <= (double)aieth__rj_geti(l, "max_cycles");
		aieth__rj_str(l, "statistic", stat);
		aieth__rj_bool(l, "passed", ok);
		if (!ok && done)
			code = aieth__exit_worst(code, AIETH_EXIT_FAIL);
	}
	free(vals);
	return code;
}
