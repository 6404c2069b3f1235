/* SPDX-License-Identifier: MIT */
/*
 * calibrate_log.c - a log of AMD's printPerf lines (amd_log.c) as a board
 * report of run_test calibrate: the log's events are matched, in order,
 * with the description's transactions (one printPerf block each, every
 * channel of the transaction exactly once, in any order), each channel's
 * counters are checked against the description's size, and the result is
 * the board test the fit compares (calibrate_check.c), with first_cycle,
 * last_cycle and cycles per channel. AMD's log has no total_cycles.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_model.h"
#include "runner/amd_log.h"
#include "runner/calibrate_impl.h"
#include "util/error.h"

typedef struct json_object jobj;

/* AMD's printPerf computes its throughput at this clock on every board
 * (test_harness_transaction.hpp), whatever the PL clock is. */
#define AMD_PERF_HZ 312.5e6
#define BEAT_BYTES 16u

typedef struct {
	jobj *ch; /* the emulated channel */
	int rx;
	unsigned num; /* channel number of its PLIO name */
	const char *plio;
	const amd_log_ev *ev;
} want;

static size_t len(jobj *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* PLIO_<n>_TO_AIE / PLIO_<n>_FROM_AIE -> n and the direction. */
static int plio_num(const char *plio, unsigned *num, int *rx)
{
	unsigned long v = 0;
	const char *p = plio;
	if (strncmp(p, "PLIO_", 5))
		return -1;
	p += 5;
	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9' && v <= AMD_LOG_MAX_CHANNEL)
		v = v * 10 + (unsigned long)(*p++ - '0');
	if (!v || v > AMD_LOG_MAX_CHANNEL)
		return -1;
	if (!strcmp(p, "_TO_AIE"))
		*rx = 0;
	else if (!strcmp(p, "_FROM_AIE"))
		*rx = 1;
	else
		return -1;
	*num = (unsigned)v;
	return 0;
}

static void amd_name(char *b, size_t cap, int rx, unsigned num)
{
	snprintf(b, cap, "PLIO_%u_%s", num, rx ? "FROM_AIE" : "TO_AIE");
}

/* The counters of e against the description's channel w. */
static int check_counters(const char *path, const want *w, const amd_log_ev *e)
{
	double bytes =
		aieth__rj_getd(w->ch, "size_bytes") *
		(aieth__rj_getd(w->ch, "repetition") > 0 ? aieth__rj_getd(w->ch, "repetition") : 1);
	double beats = ceil(bytes / BEAT_BYTES), expect;
	uint64_t span;
	char an[48];
	amd_name(an, sizeof an, e->rx, e->chan);
	if (e->last < e->first)
		return aieth__fail(AIETH_EINVAL,
				   "%s:%zu: %s (%s): ends at cycle %llu, before it "
				   "starts (%llu)",
				   path, e->line, an, w->plio, (unsigned long long)e->last,
				   (unsigned long long)e->first);
	if (e->last > (uint64_t)INT64_MAX)
		return aieth__fail(AIETH_EINVAL,
				   "%s:%zu: %s (%s): cycle %llu is above 2^63-1, "
				   "beyond what a report holds",
				   path, e->line, an, w->plio, (unsigned long long)e->last);
	span = e->last - e->first;
	/* A 128-bit stream moves at most one beat a cycle: N beats span at
	 * least N - 1 cycles between the first and the last. */
	if ((double)span + 1 < beats)
		return aieth__fail(
			AIETH_EINVAL,
			"%s:%zu: %s (%s): %llu cycles from first to last "
			"for the description's %.0f bytes (%.0f beats of 16 bytes, at most "
			"one a cycle): the cycles do not fit the description's size",
			path, e->line, an, w->plio, (unsigned long long)span, bytes, beats);
	/* The printed throughput is the size AMD's program was given over the
	 * counters: a log of another size shows here. */
	expect = span ? bytes * AMD_PERF_HZ / (double)span / 1048576.0 : INFINITY;
	if (isinf(expect) != isinf(e->mibps) ||
	    (!isinf(expect) && fabs(e->mibps - expect) > 1e-5 * expect + 1e-9)) {
		double implied = e->mibps * (double)span * 1048576.0 / AMD_PERF_HZ;
		return aieth__fail(
			AIETH_EINVAL,
			"%s:%zu: %s (%s): %g MBps (AMD's MiB/s) over "
			"%llu cycles is %.0f bytes at AMD's 312.5 MHz, the description "
			"moves %.0f bytes (size_bytes x repetition): the cycles do not fit "
			"the description's size",
			path, e->line, an, w->plio, e->mibps, (unsigned long long)span, implied,
			bytes);
	}
	return AIETH_OK;
}

static int add(jobj *o, const char *k, jobj *v)
{
	if (v && !json_object_object_add(o, k, v))
		return 0;
	json_object_put(v);
	return -1;
}

static int new_num(jobj *o, const char *k, int64_t v)
{
	return add(o, k, json_object_new_int64(v));
}

static int new_str(jobj *o, const char *k, const char *v)
{
	return add(o, k, json_object_new_string(v));
}

/* The board transaction j from the matched events. */
static jobj *board_txn(jobj *etx, const want *w, size_t nw)
{
	jobj *t = json_object_new_object(), *chs = json_object_new_array();
	size_t k;
	if (!t) {
		json_object_put(chs);
		return NULL;
	}
	if (add(t, "channels", chs) || new_str(t, "name", aieth__rj_gets(etx, "name")) ||
	    new_str(t, "mode", aieth__rj_gets(etx, "mode")) || new_str(t, "status", "done")) {
		json_object_put(t);
		return NULL;
	}
	for (k = 0; k < nw; k++) {
		jobj *c = json_object_new_object();
		if (!c || json_object_array_add(chs, c)) {
			json_object_put(c);
			json_object_put(t);
			return NULL;
		}
		if (new_str(c, "plio", w[k].plio) ||
		    new_num(c, "first_cycle", (int64_t)w[k].ev->first) ||
		    new_num(c, "last_cycle", (int64_t)w[k].ev->last) ||
		    new_num(c, "cycles", (int64_t)(w[k].ev->last - w[k].ev->first))) {
			json_object_put(t);
			return NULL;
		}
	}
	return t;
}

int aieth__cal_log_test(const char *path, const aieth__amd_log *l, jobj *et, jobj **out)
{
	jobj *etxs = aieth__rj_get(et, "transactions"), *bt = NULL, *btxs = NULL;
	want *w = NULL;
	size_t e = 0, j, k;
	int rc = AIETH_OK;
	char an[48];
	*out = NULL;
	bt = json_object_new_object();
	btxs = json_object_new_array();
	if (!bt)
		json_object_put(btxs);
	if (!bt || add(bt, "transactions", btxs) ||
	    new_str(bt, "name", aieth__rj_gets(et, "name")) || new_str(bt, "status", "pass")) {
		json_object_put(bt);
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	}
	for (j = 0; j < len(etxs); j++) {
		jobj *etx = json_object_array_get_idx(etxs, j),
		     *chs = aieth__rj_get(etx, "channels"), *bx;
		const char *tn = aieth__rj_gets(etx, "name");
		size_t nw = len(chs), got = 0, start;
		free(w);
		w = calloc(nw ? nw : 1, sizeof *w);
		if (!w) {
			rc = aieth__fail(AIETH_ENOMEM, "out of memory");
			goto out;
		}
		for (k = 0; k < nw; k++) {
			w[k].ch = json_object_array_get_idx(chs, k);
			w[k].plio = aieth__rj_gets(w[k].ch, "plio");
			if (plio_num(w[k].plio, &w[k].num, &w[k].rx)) {
				rc = aieth__fail(
					AIETH_EINVAL,
					"%s: transaction %zu (\"%s\"): PLIO %s has "
					"no PLIO_<n>_TO_AIE/FROM_AIE name, which AMD's printPerf "
					"lines name",
					path, j, tn, w[k].plio);
				goto out;
			}
		}
		if (e < l->n && l->ev[e].kind != AMD_EV_PERF) {
			rc = aieth__fail(AIETH_EINVAL,
					 "%s:%zu: transaction %zu (\"%s\"): AMD's printPerf "
					 "says it %s: its counters are not final",
					 path, l->ev[e].line, j, tn,
					 l->ev[e].kind == AMD_EV_TIMEOUT ? "timed out"
									 : "did not finish");
			goto out;
		}
		start = e < l->n ? l->ev[e].line : l->lines;
		for (got = 0; got < nw; got++, e++) {
			const amd_log_ev *ev = e < l->n ? &l->ev[e] : NULL;
			size_t missing = 0;
			while (missing < nw && w[missing].ev)
				missing++;
			if (!ev || ev->kind != AMD_EV_PERF) {
				rc = aieth__fail(
					AIETH_EINVAL,
					"%s:%zu: transaction %zu (\"%s\") lacks %s: "
					"its printPerf block from line %zu has %zu of its %zu "
					"channels, then %s",
					path, ev ? ev->line : l->lines, j, tn, w[missing].plio,
					start, got, nw,
					ev ? "a printPerf warning" : "the log ends");
				goto out;
			}
			amd_name(an, sizeof an, ev->rx, ev->chan);
			if (got && ev->foreign_line) {
				rc = aieth__fail(
					AIETH_EINVAL,
					"%s:%zu: inside the printPerf block of "
					"transaction %zu (\"%s\", from line %zu, before %s at "
					"line %zu): a line that is neither AMD's printPerf nor "
					"another line of AMD's logger (\"[date time] [LEVEL] "
					"...\")",
					path, ev->foreign_line, j, tn, start, an, ev->line);
				goto out;
			}
			for (k = 0; k < nw; k++)
				if (w[k].num == ev->chan && w[k].rx == ev->rx)
					break;
			if (k == nw) {
				rc = aieth__fail(
					AIETH_EINVAL,
					"%s:%zu: %s is not a channel of transaction "
					"%zu (\"%s\"), whose printPerf block starts at line "
					"%zu: it lacks %s (a log of another description, or a "
					"block cut short)",
					path, ev->line, an, j, tn, start, w[missing].plio);
				goto out;
			}
			if (w[k].ev) {
				rc = aieth__fail(AIETH_EINVAL,
						 "%s:%zu: %s (%s) twice in the printPerf block "
						 "of transaction %zu (\"%s\"), first at line %zu",
						 path, ev->line, an, w[k].plio, j, tn,
						 w[k].ev->line);
				goto out;
			}
			if ((rc = check_counters(path, &w[k], ev)))
				goto out;
			w[k].ev = ev;
		}
		bx = board_txn(etx, w, nw);
		if (!bx || json_object_array_add(btxs, bx)) {
			json_object_put(bx);
			rc = aieth__fail(AIETH_ENOMEM, "out of memory");
			goto out;
		}
	}
	if (e < l->n) {
		rc = aieth__fail(AIETH_EINVAL,
				 "%s:%zu: a printPerf %s after the description's %zu "
				 "transactions: the log has more than the description",
				 path, l->ev[e].line,
				 l->ev[e].kind == AMD_EV_PERF ? "line" : "warning", len(etxs));
		goto out;
	}
	*out = bt;
	bt = NULL;
out:
	free(w);
	json_object_put(bt);
	return rc;
}
