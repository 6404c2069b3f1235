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

int rn_repeat_check(run_ctx *c)
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
	rp = rj_obj();
	rj_u64(rp, "runs", runs);
	rj_u64(rp, "warmup", warm);
	rj_str(rp, "statistic", aieth__stats_name(c->statistic));
	rj_set(c->test, "repeat", rp);
	return 0;
bad:
	rn_test_error(c, "load", AIETH_EINVAL,
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
	jobj *f = rj_obj();
	rj_u64(f, "run", r < c->warmup ? r : r - c->warmup);
	if (r < c->warmup)
		rj_bool(f, "warmup", 1);
	if (plio)
		rj_str(f, "plio", plio);
	else
		rj_null(f, "plio");
	rj_str(f, "reason", reason);
	rj_push(failed, f);
}

void rn_run_failures(run_ctx *c, const spec_txn *st, jobj *run, uint32_t r, jobj *failed)
{
	jobj *chans = rj_get(run, "channels");
	char label[128];
	size_t j;
	run_label(c, st, r, label, sizeof label);
	if (strcmp(rj_gets(run, "status"), "done")) {
		sbuf b = SB_INIT(SB_LINE_MAX);
		sb_printf(&b, "%s: %s%s%s", label, rj_gets(run, "status"),
			  rj_gets(run, "message")[0] ? ": " : "", rj_gets(run, "message"));
		add_failure(c, r, NULL, b.p && !b.oom ? b.p : label, failed);
		sb_free(&b);
		return;
	}
	for (j = 0; chans && j < json_object_array_length(chans); j++) {
		jobj *ch = json_object_array_get_idx(chans, j);
		sbuf b = SB_INIT(SB_LINE_MAX);
		if (!strcmp(rj_gets(ch, "verdict"), "pass"))
			continue;
		sb_printf(&b, "%s: %s: ", label, rj_gets(ch, "plio"));
		if (!rw_channel_why(&b, ch)) {
			jobj *in = rj_get(ch, "integrity");
			sb_printf(&b, "%s", rj_gets(ch, "verdict"));
			if (in && rj_gets(in, "reason")[0])
				sb_printf(&b, " (%s)", rj_gets(in, "reason"));
		}
		add_failure(c, r, rj_gets(ch, "plio"), b.p && !b.oom ? b.p : label, failed);
		sb_free(&b);
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
	jobj *v = rj_get(o, key);
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

void rn_run_free(rn_run *r)
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

rn_run *rn_run_keep(const spec_txn *st, jobj *run)
{
	jobj *chans = rj_get(run, "channels"), *lats = rj_get(run, "latencies");
	rn_run *r = calloc(1, sizeof *r);
	size_t j, f;
	if (!r)
		return NULL;
	r->nch = st->nch;
	r->nlat = st->nlat;
	r->total = num_or_nan(run, "total_cycles");
	r->valid = json_object_get_boolean(rj_get(run, "valid"));
	r->ch = calloc(r->nch * NF + 1, sizeof *r->ch);
	r->lat = calloc(r->nlat + 1, sizeof *r->lat);
	if (!r->ch || !r->lat ||
	    (rj_gets(run, "message")[0] &&
	     !(r->message = aieth__strdup(rj_gets(run, "message"))))) {
		rn_run_free(r);
		return NULL;
	}
	for (j = 0; j < r->nch; j++) {
		jobj *ch = json_object_array_get_idx(chans, j), *in = rj_get(ch, "integrity");
		double *x = r->ch + j * NF;
		for (f = 0; fig_keys[f]; f++)
			x[f] = num_or_nan(ch, fig_keys[f]);
		x[F_ELEMS] = num_or_nan(in, "elements");
		x[F_MAXERR] = num_or_nan(in, "max_abs_error");
		x[F_VERDICT] = verdict_code(rj_gets(ch, "verdict"));
		if (x[F_VERDICT] != 0 && in) {
			/* a failed check's details are this run's own */
			if (!r->integ && !(r->integ = calloc(r->nch, sizeof *r->integ))) {
				rn_run_free(r);
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
	jobj *in = rj_get(ch, "integrity");
	size_t f;
	for (f = 0; fig_keys[f]; f++) {
		if (isnan(x[f]))
			rj_null(ch, fig_keys[f]);
		else if (f == F_CYCLES || f == F_FIRST || f == F_LAST)
			rj_u64(ch, fig_keys[f], (uint64_t)x[f]);
		else
			rj_num(ch, fig_keys[f], x[f]);
	}
	if (r->integ && r->integ[j]) {
		rj_set(ch, "integrity", json_object_get(r->integ[j]));
	} else if (in && json_object_get_boolean(rj_get(in, "checked"))) {
		/* it passed: all elements equal */
		rj_u64(in, "elements", isnan(x[F_ELEMS]) ? 0 : (uint64_t)x[F_ELEMS]);
		rj_u64(in, "mismatches", 0);
		rj_null(in, "first_mismatch");
		rj_num(in, "max_abs_error", isnan(x[F_MAXERR]) ? 0 : x[F_MAXERR]);
	}
	rj_str(ch, "verdict", verdict_name(x[F_VERDICT]));
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
	s = rj_obj();
	rj_num(s, "median", st->median);
	rj_num(s, "min", st->min);
	rj_num(s, "max", st->max);
	rj_num(s, "mean", st->mean);
	rj_num(s, "stddev", st->stddev);
	rj_num(s, "mad", st->mad);
	arr = rj_arr();
	for (i = 0; i < n; i++)
		rj_push(arr, json_object_new_double(vals[i]));
	rj_set(s, "runs", arr);
	rj_set(dst, key, s);
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

int rn_txn_summary(run_ctx *c, const spec_txn *st, jobj *tj, rn_run **runs, size_t n, jobj *last,
		   jobj *broken, jobj *failed)
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
		rn_test_error(c, "run", AIETH_ENOMEM, NULL, AIETH_EXIT_INFRA);
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
		rj_str(tj, "status", "interrupted");
		rj_bool(tj, "valid", 0);
		rj_str(tj, "message", "stopped before a measured run");
		rj_u64(tj, "total_cycles", 0);
		rj_set(tj, "channels", rj_arr());
		rj_set(tj, "latencies", rj_arr());
	} else {
		for (i = 0; copied[i]; i++) {
			jobj *v = rj_get(shown, copied[i]);
			if (v) /* a run that failed to start has only status, message */
				rj_set(tj, copied[i], json_object_get(v));
		}
	}
	if (k >= 0) {
		/* the last run's objects become the median run's */
		rj_u64(tj, "total_cycles", (uint64_t)runs[k]->total);
		rj_bool(tj, "valid", runs[k]->valid);
		rj_str(tj, "message", runs[k]->message ? runs[k]->message : "");
		rj_int(tj, "median_run", k);
	} else {
		rj_null(tj, "median_run");
	}
	if (many) {
		jobj *ts = rj_obj();
		put_stats(ts, "total_cycles", vals, n, &s);
		rj_set(tj, "stats", ts);
	}
	rj_set(tj, "runs_failed", failed);
	done = !strcmp(rj_gets(tj, "status"), "done");
	chans = rj_get(tj, "channels");
	lats = rj_get(tj, "latencies");

	for (j = 0; chans && j < json_object_array_length(chans) && j < st->nch; j++) {
		const spec_chan *sc = &st->ch[j];
		jobj *ch = json_object_array_get_idx(chans, j), *th;
		const char *verdict;
		aieth__stats mb;
		int have_mb = 0;
		size_t f;
		if (k >= 0) {
			jobj *cs = many ? rj_obj() : NULL, *rf = rj_arr();
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
				rj_set(ch, "stats", cs);
			/* one bad run is a bad channel: which runs, 0-based */
			verdict = rj_gets(ch, "verdict");
			for (i = 0; i < n; i++) {
				const char *v = verdict_name(runs[i]->ch[j * NF + F_VERDICT]);
				verdict = worse_verdict(verdict, v);
				if (strcmp(v, "pass"))
					rj_push(rf, json_object_new_int64((int64_t)i));
			}
			rj_set(ch, "failed_runs", rf);
			/* a warm-up run is checked too: its failure is the channel's */
			rf = rj_arr();
			for (i = 0; failed && i < json_object_array_length(failed); i++) {
				jobj *fe = json_object_array_get_idx(failed, i);
				if (json_object_get_boolean(rj_get(fe, "warmup")) &&
				    !strcmp(rj_gets(fe, "plio"), rj_gets(ch, "plio"))) {
					rj_push(rf, json_object_new_int64(rj_geti(fe, "run")));
					verdict = worse_verdict(verdict, "fail");
				}
			}
			if (json_object_array_length(rf))
				rj_set(ch, "failed_warmup_runs", rf);
			else
				json_object_put(rf);
			rj_str(ch, "verdict", verdict);
		}
		verdict = rj_gets(ch, "verdict");
		th = rj_get(ch, "thresholds");
		if (sc->have_min_mbps) {
			jobj *t1 = rj_obj();
			int fin = json_object_get_boolean(rj_get(ch, "finished"));
			double m = have_mb ? aieth__stats_get(&mb, c->statistic)
					   : rj_getd(ch, "throughput_MBps");
			int ok = (have_mb || fin) && m >= sc->min_mbps;
			rj_str(t1, "metric", "throughput_MBps");
			rj_str(t1, "statistic", stat);
			rj_num(t1, "min", sc->min_mbps);
			if (have_mb || fin)
				rj_num(t1, "measured", m);
			else
				rj_null(t1, "measured");
			rj_bool(t1, "passed", ok);
			rj_push(th, t1);
			if (!ok && done) {
				code = aieth__exit_worst(code, AIETH_EXIT_FAIL);
				rj_str(ch, "verdict", worse_verdict(verdict, "fail"));
			}
		}
	}
	for (j = 0; lats && j < json_object_array_length(lats); j++) {
		jobj *l = json_object_array_get_idx(lats, j), *cy;
		int have = 0, ok;
		double m = 0;
		if (k >= 0 && j < st->nlat) {
			jobj *ls = many ? rj_obj() : NULL;
			if (isnan(runs[k]->lat[j]))
				rj_null(l, "cycles");
			else
				rj_int(l, "cycles", (int64_t)runs[k]->lat[j]);
			for (i = 0; i < n; i++)
				vals[i] = runs[i]->lat[j];
			if (put_stats(ls, "cycles", vals, n, &s) == 0) {
				m = aieth__stats_get(&s, c->statistic);
				have = 1;
			}
			if (ls)
				rj_set(l, "stats", ls);
		}
		cy = rj_get(l, "cycles");
		if (k < 0 || !have) {
			have = cy && json_object_is_type(cy, json_type_int);
			m = have ? (double)json_object_get_int64(cy) : 0;
		}
		ok = done && have && m <= (double)rj_geti(l, "max_cycles");
		rj_str(l, "statistic", stat);
		rj_bool(l, "passed", ok);
		if (!ok && done)
			code = aieth__exit_worst(code, AIETH_EXIT_FAIL);
	}
	free(vals);
	return code;
}
