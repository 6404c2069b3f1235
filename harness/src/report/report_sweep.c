/* SPDX-License-Identifier: MIT */
/*
 * report_sweep.c - sweeps read back from the report tree: the points of
 * each of report.run.sweeps, their knees (docs/report-schema.md, "Sweeps")
 * and sweep.csv, one row per point and channel.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_model.h"
#include "report/report_sweep.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/sbuf.h"

typedef struct json_object jobj;

static jobj *arr_at(jobj *a, size_t i) { return json_object_array_get_idx(a, i); }

/* A test's point: its "sweep" object's name and index, or NULL. */
static const char *point_of(jobj *t, int64_t *point)
{
	jobj *s = aieth__rj_get(t, "sweep");
	if (!s || !json_object_is_type(s, json_type_object) || !aieth__rj_get(s, "point"))
		return NULL;
	*point = aieth__rj_geti(s, "point");
	return aieth__rj_gets(s, "name");
}

int aieth__sweep_tests(jobj *tests, size_t k, size_t *first, size_t *count)
{
	size_t n = tests ? json_object_array_length(tests) : 0, i = 0, run = 0;
	*first = *count = 0;
	while (i < n) {
		int64_t p, q;
		const char *name = point_of(arr_at(tests, i), &p), *nm;
		size_t j = i + 1;
		if (!name || p != 0) {
			i++;
			continue;
		}
		while (j < n && (nm = point_of(arr_at(tests, j), &q)) && !strcmp(nm, name) &&
		       q == (int64_t)(j - i))
			j++;
		if (run++ == k) {
			*first = i;
			*count = j - i;
			return 0;
		}
		i = j;
	}
	return -1;
}

/* ------------------------------------------------------------- knees */

typedef struct {
	char *at; /* the other axes' values as JSON text: the group */
	const char *plio;
	double x, y;
	jobj *atobj; /* the test's values (the group's "at" made from it) */
} knee_row;

/* by group, then PLIO, then axis value */
static int row_cmp(const void *a, const void *b)
{
	const knee_row *p = a, *q = b;
	int c = strcmp(p->at, q->at);
	if (c)
		return c;
	if ((c = strcmp(p->plio, q->plio)))
		return c;
	return (p->x > q->x) - (p->x < q->x);
}

static int dbl_cmp(const void *a, const void *b)
{
	double p = *(const double *)a, q = *(const double *)b;
	return (p > q) - (p < q);
}

/* The other axes' values of a point, for "at". */
static jobj *other_values(jobj *vals, const char *axis)
{
	jobj *o = aieth__rj_obj();
	json_object_object_foreach(vals, key, val)
	{
		if (strcmp(key, axis))
			aieth__rj_set(o, key, json_object_get(val));
	}
	return o;
}

/* One knee from rows [0, n) of one group (sorted by x). */
static void one_knee(jobj *knees, const char *axis, const knee_row *r, size_t n)
{
	jobj *k = aieth__rj_obj();
	double top[AIETH_KNEE_PLATEAU_POINTS], plateau, lo, hi;
	size_t m = n < AIETH_KNEE_PLATEAU_POINTS ? n : AIETH_KNEE_PLATEAU_POINTS, i;
	char why[300];
	aieth__rj_str(k, "axis", axis);
	aieth__rj_str(k, "plio", r[0].plio);
	aieth__rj_set(k, "at", other_values(r[0].atobj, axis));
	aieth__rj_push(knees, k);
	if (n < AIETH_KNEE_PLATEAU_POINTS) {
		snprintf(why, sizeof why,
			 "%zu point%s with a measured throughput along %s: a knee needs at least "
			 "%d",
			 n, n == 1 ? "" : "s", axis, AIETH_KNEE_PLATEAU_POINTS);
		aieth__rj_null(k, "value");
		aieth__rj_null(k, "plateau_MBps");
		aieth__rj_str(k, "reason", why);
		return;
	}
	for (i = 0; i < m; i++)
		top[i] = r[n - m + i].y;
	qsort(top, m, sizeof *top, dbl_cmp);
	plateau = top[(m - 1) / 2]; /* the lower median: a measured value */
	lo = top[0];
	hi = top[m - 1];
	aieth__rj_num(k, "plateau_MBps", plateau);
	if (lo <= 0 || hi > lo * (1 + AIETH_KNEE_PLATEAU_SPREAD)) {
		snprintf(why, sizeof why,
			 "no plateau: the throughputs at the %zu largest values of %s differ by "
			 "%.1f %% (more than %.0f %%): the curve still rises or is noisy; extend "
			 "the axis",
			 m, axis, lo > 0 ? (hi / lo - 1) * 100 : 100.0,
			 AIETH_KNEE_PLATEAU_SPREAD * 100);
		aieth__rj_null(k, "value");
		aieth__rj_str(k, "reason", why);
		return;
	}
	for (i = 0; i < n && r[i].y < AIETH_KNEE_SHARE * plateau; i++)
		;
	/* i < n: the plateau's points reach it */
	if (r[i].x == floor(r[i].x) && fabs(r[i].x) < 9e15)
		aieth__rj_int(k, "value", (int64_t)r[i].x);
	else
		aieth__rj_num(k, "value", r[i].x);
	aieth__rj_null(k, "reason");
}

/* A channel's throughput in a point, or -1 (not measured). */
static double chan_mbps(jobj *ch)
{
	jobj *v = aieth__rj_get(ch, "throughput_MBps");
	return v && (json_object_is_type(v, json_type_double) ||
		     json_object_is_type(v, json_type_int))
		       ? json_object_get_double(v)
		       : -1;
}

/* Rows of one axis: every point's channels with a measured throughput
 * (the first completed transaction that has the PLIO counts). */
static size_t axis_rows(jobj *tests, size_t first, size_t count, const char *axis, knee_row **out)
{
	size_t cap = 0, n = 0, i, t, c, k;
	knee_row *rows = NULL;
	for (i = first; i < first + count; i++) {
		jobj *test = arr_at(tests, i),
		     *vals = aieth__rj_get(aieth__rj_get(test, "sweep"), "values"),
		     *x = aieth__rj_get(vals, axis), *txns = aieth__rj_get(test, "transactions"),
		     *at;
		const char *atxt;
		size_t start = n;
		if (!x || !(json_object_is_type(x, json_type_int) ||
			    json_object_is_type(x, json_type_double)))
			continue;
		at = other_values(vals, axis);
		atxt = json_object_to_json_string_ext(at, JSON_C_TO_STRING_PLAIN);
		for (t = 0; atxt && txns && t < json_object_array_length(txns); t++) {
			jobj *tx = arr_at(txns, t), *chans = aieth__rj_get(tx, "channels");
			if (strcmp(aieth__rj_gets(tx, "status"), "done"))
				continue;
			for (c = 0; chans && c < json_object_array_length(chans); c++) {
				jobj *ch = arr_at(chans, c);
				const char *plio = aieth__rj_gets(ch, "plio");
				double y = chan_mbps(ch);
				if (y < 0)
					continue;
				for (k = start; k < n && strcmp(rows[k].plio, plio); k++)
					;
				if (k < n)
					continue;
				if (AIETH__GROW(rows, cap, n + 1, 64, 0))
					break;
				if (!(rows[n].at = strdup(atxt)))
					break;
				rows[n].plio = plio;
				rows[n].x = json_object_get_double(x);
				rows[n].y = y;
				rows[n].atobj = vals;
				n++;
			}
		}
		json_object_put(at);
	}
	*out = rows;
	return n;
}

void aieth__sweep_knees(jobj *sweep, jobj *tests, size_t first, size_t count)
{
	jobj *axes = aieth__rj_get(sweep, "axes"), *knees = aieth__rj_arr();
	size_t a;
	for (a = 0; axes && a < json_object_array_length(axes); a++) {
		jobj *ax = arr_at(axes, a), *vals = aieth__rj_get(ax, "values");
		const char *name = aieth__rj_gets(ax, "name");
		knee_row *rows = NULL;
		size_t n, i, j, v;
		int numeric = 1;
		for (v = 0; vals && v < json_object_array_length(vals); v++)
			numeric &= json_object_is_type(arr_at(vals, v), json_type_int) ||
				   json_object_is_type(arr_at(vals, v), json_type_double);
		if (!numeric)
			continue; /* a knee is along numbers */
		n = axis_rows(tests, first, count, name, &rows);
		qsort(rows, n, sizeof *rows, row_cmp);
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && !strcmp(rows[j].at, rows[i].at) &&
					!strcmp(rows[j].plio, rows[i].plio);
			     j++)
				;
			one_knee(knees, name, rows + i, j - i);
		}
		for (i = 0; i < n; i++)
			free(rows[i].at);
		free(rows);
	}
	aieth__rj_set(sweep, "knees", knees);
}

/* ------------------------------------------------------------ sweep.csv */

/* A CSV field (RFC 4180): quoted when it holds a comma, quote or line end. */
static void csv_field(sbuf *b, const char *s, int last)
{
	if (strpbrk(s, ",\"\r\n")) {
		sb_lit(b, "\"");
		for (; *s; s++) {
			if (*s == '"')
				sb_lit(b, "\"");
			aieth__sb_put(b, s, 1);
		}
		sb_lit(b, "\"");
	} else {
		aieth__sb_put(b, s, strlen(s));
	}
	aieth__sb_put(b, last ? "\n" : ",", 1);
}

/* A value of the tree as CSV text ("" for null or missing). */
static void csv_value(sbuf *b, jobj *v, int last)
{
	char num[64];
	if (!v || json_object_is_type(v, json_type_null)) {
		csv_field(b, "", last);
	} else if (json_object_is_type(v, json_type_string)) {
		csv_field(b, json_object_get_string(v), last);
	} else if (json_object_is_type(v, json_type_double)) {
		snprintf(num, sizeof num, "%.6g", json_object_get_double(v));
		csv_field(b, num, last);
	} else {
		csv_field(b, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), last);
	}
}

static const char *const chan_cols[] = {"size_bytes",      "repetition", "delay_cycles",
					"bytes_moved",     "cycles",     "throughput_MBps",
					"utilisation_pct", NULL};

/* The latency whose "to" is the channel's PLIO, in its transaction. */
static jobj *latency_to(jobj *tx, const char *plio)
{
	jobj *l = aieth__rj_get(tx, "latencies");
	size_t i;
	for (i = 0; l && i < json_object_array_length(l); i++)
		if (!strcmp(aieth__rj_gets(arr_at(l, i), "to"), plio))
			return aieth__rj_get(arr_at(l, i), "cycles");
	return NULL;
}

static void csv_row(sbuf *b, jobj *test, size_t k, jobj *names, jobj *tx, jobj *ch)
{
	jobj *sv = aieth__rj_get(test, "sweep"), *vals = aieth__rj_get(sv, "values");
	char num[32];
	size_t a;
	int c;
	snprintf(num, sizeof num, "%zu", k);
	csv_field(b, num, 0);
	csv_value(b, aieth__rj_get(sv, "point"), 0);
	csv_field(b, aieth__rj_gets(test, "name"), 0);
	for (a = 0; a < json_object_array_length(names); a++)
		csv_value(b, aieth__rj_get(vals, json_object_get_string(arr_at(names, a))), 0);
	csv_value(b, tx ? aieth__rj_get(tx, "name") : NULL, 0);
	csv_value(b, ch ? aieth__rj_get(ch, "plio") : NULL, 0);
	csv_value(b, ch ? aieth__rj_get(ch, "direction") : NULL, 0);
	for (c = 0; chan_cols[c]; c++)
		csv_value(b, ch ? aieth__rj_get(ch, chan_cols[c]) : NULL, 0);
	csv_value(b, ch ? latency_to(tx, aieth__rj_gets(ch, "plio")) : NULL, 0);
	csv_value(b, ch ? aieth__rj_get(ch, "verdict") : NULL, 0);
	csv_value(b, aieth__rj_get(test, "status"), 1);
}

int aieth_report_write_sweep_csv(const aieth_report *r, const char *path)
{
	jobj *sweeps, *names;
	sbuf b = SB_INIT(SB_DOC_MAX);
	size_t k, i, a;
	int c;
	if (!r || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_report_write_sweep_csv: NULL argument");
	sweeps = aieth__rj_get(r->run, "sweeps");
	if (!sweeps || !json_object_array_length(sweeps))
		return AIETH_OK; /* no sweep ran: no file */
	/* the columns: every sweep's axes in their order, each once */
	names = aieth__rj_arr();
	for (k = 0; k < json_object_array_length(sweeps); k++) {
		jobj *axes = aieth__rj_get(arr_at(sweeps, k), "axes");
		for (a = 0; axes && a < json_object_array_length(axes); a++) {
			const char *n = aieth__rj_gets(arr_at(axes, a), "name");
			size_t j;
			for (j = 0; j < json_object_array_length(names); j++)
				if (!strcmp(json_object_get_string(arr_at(names, j)), n))
					break;
			if (j == json_object_array_length(names))
				aieth__rj_push_str(names, n);
		}
	}
	sb_lit(&b, "sweep,point,name,");
	for (a = 0; a < json_object_array_length(names); a++)
		csv_field(&b, json_object_get_string(arr_at(names, a)), 0);
	sb_lit(&b, "transaction,plio,direction,");
	for (c = 0; chan_cols[c]; c++)
		csv_field(&b, chan_cols[c], 0);
	sb_lit(&b, "latency_cycles,verdict,status\n");
	for (k = 0; k < json_object_array_length(sweeps); k++) {
		size_t first, count;
		if (aieth__sweep_tests(r->tests, k, &first, &count))
			continue;
		for (i = first; i < first + count; i++) {
			jobj *test = arr_at(r->tests, i),
			     *txns = aieth__rj_get(test, "transactions");
			size_t t, ch, rows = 0;
			for (t = 0; txns && t < json_object_array_length(txns); t++) {
				jobj *tx = arr_at(txns, t), *chans = aieth__rj_get(tx, "channels");
				for (ch = 0; chans && ch < json_object_array_length(chans);
				     ch++, rows++)
					csv_row(&b, test, k, names, tx, arr_at(chans, ch));
			}
			if (!rows) /* a point that did not run: still a row */
				csv_row(&b, test, k, names, NULL, NULL);
		}
	}
	json_object_put(names);
	return aieth__sb_write_file(&b, path);
}
