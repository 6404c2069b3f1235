/* SPDX-License-Identifier: MIT */
/*
 * report_curve.c - the lines of a sweep's curve (drawn by
 * report_curve_svg.c): for one figure (throughput, latency, cycles) and
 * one axis of the sweep, a line per channel (latency: per from->to;
 * cycles: per channel and the transaction's total) and, in a grid, per
 * combination of the other axes' values; a repeated point is its median
 * with its min-max band.
 *
 * Bounded whatever the sweep's size (docs/farm.md): RV_CURVE_LINES lines
 * (the others counted), RV_CURVE_POINTS points a line (evenly chosen,
 * first and last kept, plus its failed points: the same report gives the
 * same picture).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_curve.h"
#include "report/report_model.h"
#include "util/grow.h"

static int is_num(jobj *v)
{
	return v &&
	       (json_object_is_type(v, json_type_int) ||
		json_object_is_type(v, json_type_double)) &&
	       isfinite(json_object_get_double(v));
}

/* A value as written in a point's name: numbers as numbers, words as is. */
void aieth__rv_val_text(sbuf *b, jobj *v)
{
	if (v && json_object_is_type(v, json_type_int))
		aieth__sb_printf(b, "%lld", (long long)json_object_get_int64(v));
	else if (is_num(v))
		aieth__sb_printf(b, "%.15g", json_object_get_double(v));
	else if (v && json_object_is_type(v, json_type_string))
		aieth__sb_put(b, json_object_get_string(v), (size_t)json_object_get_string_len(v));
	else if (v && json_object_is_type(v, json_type_boolean))
		aieth__sb_printf(b, "%s", json_object_get_boolean(v) ? "true" : "false");
	else
		sb_lit(b, "?");
}

int aieth__rv_val_eq(jobj *a, jobj *b)
{
	sbuf x = SB_INIT(SB_LINE_MAX), y = SB_INIT(SB_LINE_MAX);
	int eq;
	aieth__rv_val_text(&x, a);
	aieth__rv_val_text(&y, b);
	eq = !x.oom && !y.oom && x.n == y.n && (!x.n || !memcmp(x.p, y.p, x.n));
	aieth__sb_free(&x);
	aieth__sb_free(&y);
	return eq;
}

/* "a=1,b=x": the values in vals of the sweep's axes other than ax, in the
 * axes' order (a zip sweep: "", its axes move together). */
void aieth__rv_combo_key(sbuf *b, jobj *s, size_t ax, jobj *vals)
{
	jobj *axes = aieth__rv_arr(s, "axes");
	size_t i, n = 0;
	if (!strcmp(aieth__rj_gets(s, "mode"), "zip"))
		return;
	for (i = 0; i < aieth__rv_len(axes) && i < RV_MAX_AXES; i++) {
		jobj *a = json_object_array_get_idx(axes, i);
		if (i == ax)
			continue;
		if (n++)
			sb_lit(b, ",");
		aieth__sb_printf(b, "%s=", aieth__rj_gets(a, "name"));
		aieth__rv_val_text(b, aieth__rj_get(vals, aieth__rj_gets(a, "name")));
	}
}

/* x of a value on the axis (categories: the value's place in the list) */
int aieth__rv_x_of(const curves *c, jobj *v, double *x)
{
	size_t i;
	if (!c->cat) {
		if (!is_num(v))
			return 0;
		*x = json_object_get_double(v);
		return !c->logx || *x > 0;
	}
	for (i = 0; i < aieth__rv_len(c->values); i++)
		if (aieth__rv_val_eq(json_object_array_get_idx(c->values, i), v)) {
			*x = (double)i;
			return 1;
		}
	return 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The axis scale. Log when every value is > 0, there are at least 3
 * distinct ones, and they are more evenly spaced as ratios than as
 * differences (the largest step over the mean step, on both scales):
 * 4096, 8192, 16384 is log; 100, 200, 300 and anything with 0 is linear. */
static void axis_scale(curves *c)
{
	size_t i, n = 0, m = aieth__rv_len(c->values);
	double *v, dl = 0, dg = 0, ml = 0, mg = 0;
	c->cat = 0;
	c->logx = 0;
	for (i = 0; i < m; i++)
		if (!is_num(json_object_array_get_idx(c->values, i)))
			c->cat = 1;
	if (c->cat || m < 3 || !(v = malloc(m * sizeof *v)))
		return;
	for (i = 0; i < m; i++)
		v[i] = json_object_get_double(json_object_array_get_idx(c->values, i));
	qsort(v, m, sizeof *v, cmp_d);
	for (i = 0; i < m; i++)
		if (!n || v[i] != v[n - 1])
			v[n++] = v[i];
	if (n >= 3 && v[0] > 0) {
		for (i = 1; i < n; i++) {
			double l = v[i] - v[i - 1], g = log(v[i] / v[i - 1]);
			ml += l / (double)(n - 1);
			mg += g / (double)(n - 1);
			if (l > dl)
				dl = l;
			if (g > dg)
				dg = g;
		}
		c->logx = ml > 0 && mg > 0 && dg / mg < dl / ml;
	}
	free(v);
}

static cline *line_for(curves *c, const char *combo, const char *txn, const char *item)
{
	sbuf k = SB_INIT(SB_LINE_MAX);
	jobj *idx = NULL;
	cline *l = NULL;
	aieth__sb_printf(&k, "%s\x1f%s\x1f%s", combo, txn, item);
	if (k.oom) {
		c->oom = 1;
		aieth__sb_free(&k);
		return NULL;
	}
	if (json_object_object_get_ex(c->seen, k.p, &idx)) {
		int i = json_object_get_int(idx);
		aieth__sb_free(&k);
		return i >= 0 ? &c->l[i] : NULL;
	}
	if (c->nl < RV_CURVE_LINES) {
		l = &c->l[c->nl];
		l->combo = strdup(combo);
		l->txn = strdup(txn);
		l->item = strdup(item);
		if (!l->combo || !l->txn || !l->item) {
			c->oom = 1;
			aieth__sb_free(&k);
			return NULL;
		}
		if (json_object_object_add(c->seen, k.p, json_object_new_int((int)c->nl)))
			c->oom = 1;
		c->nl++;
	} else if (c->more < MORE_MAX) {
		if (json_object_object_add(c->seen, k.p, json_object_new_int(-1)))
			c->oom = 1;
		c->more++;
	}
	aieth__sb_free(&k);
	return l;
}

static void add_pt(curves *c, cline *l, const cpt *p)
{
	if (!l)
		return;
	if (AIETH__GROW(l->p, l->cap, l->n + 1, 16, 0)) {
		c->oom = 1;
		return;
	}
	l->p[l->n++] = *p;
	c->total_pts++;
}

/* a figure: its statistics' median and band, else the scalar */
static int figure(jobj *o, const char *key, cpt *p)
{
	jobj *s = aieth__rv_stat(o, key);
	p->band = 0;
	if (s) {
		aieth__rv_num(s, "median", &p->y);
		aieth__rv_num(s, "min", &p->lo);
		aieth__rv_num(s, "max", &p->hi);
		p->band = 1;
		return 1;
	}
	return aieth__rv_num(o, key, &p->y);
}

static void point_items(curves *c, int fig, const char *combo, jobj *tx, cpt *p)
{
	jobj *chs = aieth__rv_arr(tx, "channels"), *lats = aieth__rv_arr(tx, "latencies");
	const char *txn = aieth__rj_gets(tx, "name");
	size_t k, i;
	if (fig == RV_FIG_CYCLES && figure(tx, "total_cycles", p)) {
		p->has_thr = 0;
		p->bad = strcmp(aieth__rj_gets(tx, "status"), "done") != 0;
		add_pt(c, line_for(c, combo, txn, "total"), p);
	}
	for (k = 0; fig != RV_FIG_LATENCY && k < aieth__rv_len(chs); k++) {
		jobj *ch = json_object_array_get_idx(chs, k), *th = aieth__rv_arr(ch, "thresholds");
		if (!figure(ch, fig == RV_FIG_THROUGHPUT ? "throughput_MBps" : "cycles", p))
			continue;
		p->has_thr = 0;
		for (i = 0; fig == RV_FIG_THROUGHPUT && i < aieth__rv_len(th); i++) {
			jobj *t = json_object_array_get_idx(th, i);
			if (!strcmp(aieth__rj_gets(t, "metric"), "throughput_MBps") &&
			    aieth__rv_num(t, "min", &p->thr))
				p->has_thr = 1;
		}
		p->bad = strcmp(aieth__rj_gets(ch, "verdict"), "pass") != 0;
		add_pt(c, line_for(c, combo, txn, aieth__rj_gets(ch, "plio")), p);
	}
	for (k = 0; fig == RV_FIG_LATENCY && k < aieth__rv_len(lats); k++) {
		jobj *l = json_object_array_get_idx(lats, k);
		sbuf nm = SB_INIT(SB_LINE_MAX);
		if (!figure(l, "cycles", p))
			continue;
		p->has_thr = aieth__rv_num(l, "max_cycles", &p->thr);
		p->bad = !json_object_get_boolean(aieth__rj_get(l, "passed"));
		aieth__sb_printf(&nm, "%s \xe2\x86\x92 %s", aieth__rj_gets(l, "from"),
				 aieth__rj_gets(l, "to"));
		if (nm.oom)
			c->oom = 1;
		else
			add_pt(c, line_for(c, combo, txn, nm.p), p);
		aieth__sb_free(&nm);
	}
}

jobj *aieth__rv_point_of(jobj *t, jobj *s)
{
	jobj *sw = aieth__rj_get(t, "sweep");
	if (!sw || !json_object_is_type(sw, json_type_object) ||
	    strcmp(aieth__rj_gets(sw, "name"), aieth__rj_gets(s, "name")))
		return NULL;
	if (aieth__rj_gets(s, "spec")[0] && aieth__rj_gets(t, "spec")[0] &&
	    strcmp(aieth__rj_gets(s, "spec"), aieth__rj_gets(t, "spec")))
		return NULL;
	return sw;
}

static int cmp_pt(const void *a, const void *b)
{
	const cpt *x = a, *y = b;
	if (x->x != y->x)
		return x->x < y->x ? -1 : 1;
	return x->pt < y->pt ? -1 : x->pt > y->pt;
}

/* RV_CURVE_POINTS evenly chosen points (the first and the last among
 * them) and, beside them, up to RV_CURVE_POINTS failed ones: a failure is
 * never sampled away below that. In place: a point is written at or
 * before where it was read. */
static void sample(cline *l)
{
	size_t i, j = 0, out = 0, bad = 0, n = l->n;
	for (i = 0; i < n; i++) {
		size_t e = (size_t)((double)j * (double)(n - 1) / (RV_CURVE_POINTS - 1) + 0.5);
		int keep = 0;
		while (j < RV_CURVE_POINTS && e <= i) {
			keep = keep || e == i;
			j++;
			e = (size_t)((double)j * (double)(n - 1) / (RV_CURVE_POINTS - 1) + 0.5);
		}
		if (!keep && l->p[i].bad && bad < RV_CURVE_POINTS) {
			keep = 1;
			bad++;
		}
		if (keep)
			l->p[out++] = l->p[i];
	}
	l->n = out;
	l->sampled = 1;
}

void aieth__rv_curves_build(curves *c, jobj *tests, jobj *s, size_t ax, int fig)
{
	jobj *axis = json_object_array_get_idx(aieth__rv_arr(s, "axes"), ax);
	size_t i, j, n = aieth__rv_len(tests);
	c->axis = aieth__rj_gets(axis, "name");
	c->values = aieth__rv_arr(axis, "values");
	axis_scale(c);
	if (!(c->seen = json_object_new_object())) {
		c->oom = 1;
		return;
	}
	for (i = 0; i < n && !c->oom; i++) {
		jobj *t = json_object_array_get_idx(tests, i), *sw = aieth__rv_point_of(t, s);
		jobj *vals = aieth__rj_get(sw, "values"), *txns = aieth__rv_arr(t, "transactions");
		sbuf combo = SB_INIT(SB_LINE_MAX);
		cpt p;
		double pt = (double)i;
		if (!sw || !json_object_is_type(vals, json_type_object))
			continue;
		memset(&p, 0, sizeof p);
		if (!aieth__rv_x_of(c, aieth__rj_get(vals, c->axis), &p.x))
			continue;
		aieth__rv_num(sw, "point", &pt);
		p.pt = pt >= 0 && pt < 1e15 ? (size_t)pt : i;
		aieth__rv_combo_key(&combo, s, ax, vals);
		if (combo.oom)
			c->oom = 1;
		for (j = 0; j < aieth__rv_len(txns) && !c->oom; j++)
			point_items(c, fig, combo.p ? combo.p : "",
				    json_object_array_get_idx(txns, j), &p);
		aieth__sb_free(&combo);
	}
	for (i = 0; i < c->nl; i++) {
		cline *l = &c->l[i];
		qsort(l->p, l->n, sizeof *l->p, cmp_pt);
		if (l->n > RV_CURVE_POINTS)
			sample(l);
		c->sampled |= l->sampled;
	}
}

void aieth__rv_curves_free(curves *c)
{
	size_t i;
	for (i = 0; i < c->nl; i++) {
		free(c->l[i].txn);
		free(c->l[i].item);
		free(c->l[i].combo);
		free(c->l[i].p);
	}
	json_object_put(c->seen);
}

int aieth__rv_axis_varies(jobj *s, size_t ax)
{
	jobj *vals;
	size_t i;
	if (ax >= aieth__rv_len(aieth__rv_arr(s, "axes")))
		return 0;
	vals = aieth__rv_arr(json_object_array_get_idx(aieth__rv_arr(s, "axes"), ax), "values");
	for (i = 1; i < aieth__rv_len(vals); i++)
		if (!aieth__rv_val_eq(json_object_array_get_idx(vals, 0),
				      json_object_array_get_idx(vals, i)))
			return 1;
	return 0;
}

size_t aieth__rv_num_sweeps(jobj *run)
{
	size_t n = aieth__rv_len(aieth__rv_arr(run, "sweeps"));
	return n < RV_MAX_SWEEPS ? n : RV_MAX_SWEEPS;
}
