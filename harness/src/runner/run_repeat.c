/* SPDX-License-Identifier: MIT */
/*
 * run_repeat.c - repeated runs of a transaction (docs/test-spec.md,
 * "repeat"): the counts checked before any run, each run's failed checks
 * named, and the runs summed up into the transaction's entry: the median
 * run's figures, the statistics of every figure (util/stats.c: the one
 * rule), thresholds and latency limits applied to the chosen statistic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_model.h"
#include "report/report_why.h"
#include "runner/run_internal.h"
#include "runner/spec.h"
#include "util/error.h"
#include "util/sbuf.h"
#include "util/stats.h"

/* ------------------------------------------------------------ limits */

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
		free(b.p);
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
		free(b.p);
	}
}

/* -------------------------------------------------------- statistics */

/* S = {median, min, max, mean, stddev, mad, runs}: 0 when every run has
 * the figure (a number), -1 when one has not (no statistics then). */
static int put_stats(jobj *dst, const char *key, jobj **objs, size_t n, const char *field,
		     double *vals, aieth__stats *st)
{
	jobj *s, *arr;
	size_t i;
	for (i = 0; i < n; i++) {
		jobj *v = rj_get(objs[i], field);
		if (!v || !(json_object_is_type(v, json_type_int) ||
			    json_object_is_type(v, json_type_double)))
			return -1;
		vals[i] = json_object_get_double(v);
	}
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

/* The j-th entry of arr in each run. */
static void column(jobj **runs, size_t n, const char *arr, size_t j, jobj **out)
{
	size_t i;
	for (i = 0; i < n; i++)
		out[i] = json_object_array_get_idx(rj_get(runs[i], arr), j);
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

static const char *const chan_figures[] = {"cycles",      "first_cycle",     "last_cycle",
					   "duration_ns", "throughput_MBps", "throughput_MiBps",
					   NULL};

int rn_txn_summary(run_ctx *c, const spec_txn *st, jobj *tj, jobj **runs, size_t n, jobj *broken,
		   jobj *failed)
{
	static const char *const copied[] = {"status",   "valid",     "message", "total_cycles",
					     "channels", "latencies", NULL};
	const char *stat = aieth__stats_name(c->statistic);
	jobj *shown = broken, **col = NULL, *chans, *lats;
	double *vals = NULL;
	aieth__stats s;
	int64_t k = -1;
	int code = AIETH_EXIT_PASS, done, many = 0;
	size_t i, j;

	if (n) {
		col = calloc(n, sizeof *col);
		vals = calloc(n, sizeof *vals);
		if (!col || !vals) {
			aieth__fail(AIETH_ENOMEM, "out of memory for the statistics of %zu runs",
				    n);
			rn_test_error(c, "run", AIETH_ENOMEM, NULL, AIETH_EXIT_INFRA);
			n = 0;
			code = AIETH_EXIT_INFRA;
		}
	}
	if (!broken && n) {
		/* the run whose total cycles are the median is the one shown */
		many = n > 1;
		if (put_stats(NULL, NULL, runs, n, "total_cycles", vals, &s) == 0)
			k = (int64_t)s.median_index;
		else
			k = 0;
		shown = runs[k];
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
	if (k >= 0)
		rj_int(tj, "median_run", k);
	else
		rj_null(tj, "median_run");
	if (many) {
		jobj *ts = rj_obj();
		put_stats(ts, "total_cycles", runs, n, "total_cycles", vals, &s);
		rj_set(tj, "stats", ts);
	}
	rj_set(tj, "runs_failed", failed);
	done = !strcmp(rj_gets(tj, "status"), "done");
	chans = rj_get(tj, "channels");
	lats = rj_get(tj, "latencies");

	for (j = 0; chans && j < json_object_array_length(chans) && j < st->nch; j++) {
		const spec_chan *sc = &st->ch[j];
		jobj *ch = json_object_array_get_idx(chans, j), *th = rj_get(ch, "thresholds");
		const char *verdict = rj_gets(ch, "verdict");
		aieth__stats mb;
		int have_mb = 0;
		if (k >= 0) {
			jobj *cs = many ? rj_obj() : NULL;
			column(runs, n, "channels", j, col);
			for (i = 0; chan_figures[i]; i++) {
				int got = put_stats(cs, chan_figures[i], col, n, chan_figures[i],
						    vals, &s) == 0;
				if (got && !strcmp(chan_figures[i], "throughput_MBps")) {
					mb = s;
					have_mb = 1;
				}
			}
			if (cs)
				rj_set(ch, "stats", cs);
			/* one bad run is a bad channel: which runs, 0-based */
			if (done) {
				jobj *rf = rj_arr();
				for (i = 0; i < n; i++) {
					const char *v = rj_gets(col[i], "verdict");
					verdict = worse_verdict(verdict, v);
					if (strcmp(v, "pass"))
						rj_push(rf, json_object_new_int64((int64_t)i));
				}
				rj_set(ch, "failed_runs", rf);
			}
		}
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
				verdict = worse_verdict(verdict, "fail");
			}
		}
		if (done)
			rj_str(ch, "verdict", verdict);
	}
	for (j = 0; lats && j < json_object_array_length(lats); j++) {
		jobj *l = json_object_array_get_idx(lats, j), *cy = rj_get(l, "cycles");
		int have = cy && json_object_is_type(cy, json_type_int), ok;
		double m = have ? (double)json_object_get_int64(cy) : 0;
		if (k >= 0) {
			jobj *ls = many ? rj_obj() : NULL;
			column(runs, n, "latencies", j, col);
			if (put_stats(ls, "cycles", col, n, "cycles", vals, &s) == 0) {
				m = aieth__stats_get(&s, c->statistic);
				have = 1;
			}
			if (ls)
				rj_set(l, "stats", ls);
		}
		ok = done && have && m <= (double)rj_geti(l, "max_cycles");
		rj_str(l, "statistic", stat);
		rj_bool(l, "passed", ok);
		if (!ok && done)
			code = aieth__exit_worst(code, AIETH_EXIT_FAIL);
	}
	free(col);
	free(vals);
	return code;
}
