/* SPDX-License-Identifier: MIT */
/*
 * report_sweep_html.c - the sweeps of a run (report.run.sweeps) on the page a
 * person reads: per sweep what it swept, its curves (report_curve.c), its
 * knees and a compact table of its points; and the curves as standalone
 * SVG files. Bounded as report_visual.h says: a 100,000-point sweep gives
 * a page of the same order as a 200-point one.
 */
#include <stdio.h>
#include <string.h>

#include "aieth.h"
#include "report/report_model.h"
#include "report/report_visual.h"
#include "util/error.h"
#include "util/fileio.h"

typedef struct json_object jobj;

#define AXIS_VALUES_SHOWN 12

static void value(sbuf *b, jobj *v)
{
	if (v && json_object_is_type(v, json_type_int))
		aieth__sb_printf(b, "%lld", (long long)json_object_get_int64(v));
	else if (v && json_object_is_type(v, json_type_double))
		aieth__sb_printf(b, "%.15g", json_object_get_double(v));
	else if (v && json_object_is_type(v, json_type_string))
		aieth__rv_esc(b, json_object_get_string(v));
	else if (v && json_object_is_type(v, json_type_null))
		sb_lit(b, "none");
	else
		sb_lit(b, "?");
}

static void sweep_head(sbuf *b, jobj *s, size_t i)
{
	jobj *axes = aieth__rv_arr(s, "axes");
	size_t a, k;
	double pts = 0, run = 0;
	aieth__sb_printf(b, "<section id=\"s%zu\">\n<h2>sweep &ldquo;", i);
	aieth__rv_esc(b, aieth__rj_gets(s, "name"));
	sb_lit(b, "&rdquo;</h2>\n<table class=\"kv\">\n<tr><th class=\"l\">spec</th><td>");
	aieth__rv_esc(b, aieth__rj_gets(s, "spec"));
	sb_lit(b, "</td></tr>\n<tr><th class=\"l\">mode</th><td>");
	aieth__rv_esc(b, aieth__rj_gets(s, "mode"));
	aieth__rv_num(s, "points", &pts);
	aieth__rv_num(s, "points_run", &run);
	aieth__sb_printf(b, "</td></tr>\n<tr><th class=\"l\">points</th><td>%.0f run of %.0f", run,
			 pts);
	if (aieth__rj_gets(s, "stopped")[0]) {
		sb_lit(b, ", stopped: ");
		aieth__rv_esc(b, aieth__rj_gets(s, "stopped"));
	}
	sb_lit(b, "</td></tr>\n");
	for (a = 0; a < aieth__rv_len(axes); a++) {
		jobj *ax = json_object_array_get_idx(axes, a), *vals = aieth__rv_arr(ax, "values");
		sb_lit(b, "<tr><th class=\"l\">axis ");
		aieth__rv_esc(b, aieth__rj_gets(ax, "name"));
		sb_lit(b, "</th><td>");
		for (k = 0; k < aieth__rv_len(vals) && k < AXIS_VALUES_SHOWN; k++) {
			if (k)
				sb_lit(b, ", ");
			value(b, json_object_array_get_idx(vals, k));
		}
		if (aieth__rv_len(vals) > AXIS_VALUES_SHOWN)
			sb_lit(b, ", &hellip;");
		aieth__sb_printf(b, " (%zu value%s)</td></tr>\n", aieth__rv_len(vals),
				 aieth__rv_len(vals) == 1 ? "" : "s");
	}
	sb_lit(b, "</table>\n");
}

static void sweep_charts(sbuf *b, const aieth_report *r, jobj *s)
{
	size_t a, n = aieth__rv_len(aieth__rv_arr(s, "axes"));
	int fig, drawn = 0;
	sb_lit(b, "<div class=\"charts\">\n");
	for (a = 0; a < n && a < RV_MAX_AXES; a++) {
		if (!aieth__rv_axis_varies(s, a)) {
			sb_lit(b, "<p class=\"note\">axis ");
			aieth__rv_esc(b, aieth__rj_gets(json_object_array_get_idx(
								aieth__rv_arr(s, "axes"), a),
							"name"));
			sb_lit(b, ": one value, no curve</p>\n");
			continue;
		}
		for (fig = 0; fig < RV_NUM_FIGS; fig++)
			if (aieth__rv_svg_curve(b, r->tests, s, a, fig, 0) > 0)
				drawn++;
	}
	sb_lit(b, "</div>\n");
	if (!drawn)
		sb_lit(b, "<p class=\"note\">no point of this sweep has figures to draw</p>\n");
	if (n > RV_MAX_AXES)
		aieth__sb_printf(b, "<p class=\"note\">curves of the first %d axes of %zu</p>\n",
				 RV_MAX_AXES, n);
}

static void at_text(sbuf *b, jobj *at)
{
	int first = 1;
	if (!at || !json_object_is_type(at, json_type_object))
		return;
	json_object_object_foreach(at, key, v)
	{
		if (!first)
			sb_lit(b, ", ");
		first = 0;
		aieth__rv_esc(b, key);
		sb_lit(b, "=");
		value(b, v);
	}
}

static void sweep_knees(sbuf *b, jobj *s)
{
	jobj *knees = aieth__rv_arr(s, "knees");
	size_t k, n = aieth__rv_len(knees);
	if (!n)
		return;
	sb_lit(b, "<table><tr><th class=\"l\">knee of</th><th class=\"l\">axis</th>"
		  "<th class=\"l\">at</th><th>knee</th><th>plateau (MB/s)</th>"
		  "<th class=\"l\">why none</th></tr>\n");
	for (k = 0; k < n; k++) {
		jobj *kn = json_object_array_get_idx(knees, k);
		double pl;
		if (k >= RV_SWEEP_ROWS) {
			aieth__rv_more_row(b, 6, n - k, "knees", "report.json");
			break;
		}
		sb_lit(b, "<tr><td class=\"l\">");
		aieth__rv_esc(b, aieth__rj_gets(kn, "plio"));
		sb_lit(b, "</td><td class=\"l\">");
		aieth__rv_esc(b, aieth__rj_gets(kn, "axis"));
		sb_lit(b, "</td><td class=\"l\">");
		at_text(b, aieth__rj_get(kn, "at"));
		sb_lit(b, "</td><td>");
		if (aieth__rj_get(kn, "value"))
			value(b, aieth__rj_get(kn, "value"));
		else
			sb_lit(b, "none");
		if (aieth__rv_num(kn, "plateau_MBps", &pl))
			aieth__sb_printf(b, "</td><td>%.1f</td><td class=\"l\">", pl);
		else
			sb_lit(b, "</td><td>-</td><td class=\"l\">");
		aieth__rv_esc(b, aieth__rj_gets(kn, "reason"));
		sb_lit(b, "</td></tr>\n");
	}
	sb_lit(b, "</table>\n");
}

static jobj *first_txn(jobj *t)
{
	jobj *a = aieth__rv_arr(t, "transactions");
	return aieth__rv_len(a) ? json_object_array_get_idx(a, 0) : NULL;
}

static jobj *channel_named(jobj *tx, const char *plio)
{
	jobj *chs = aieth__rv_arr(tx, "channels");
	size_t k;
	for (k = 0; k < aieth__rv_len(chs); k++)
		if (!strcmp(aieth__rj_gets(json_object_array_get_idx(chs, k), "plio"), plio))
			return json_object_array_get_idx(chs, k);
	return NULL;
}

static void fig_cell(sbuf *b, jobj *o, const char *key, int prec)
{
	jobj *s = aieth__rv_stat(o, key);
	double v;
	if (s)
		aieth__rv_pm(b, s, prec);
	else if (aieth__rv_num(o, key, &v))
		aieth__sb_printf(b, "%.*f", prec, v);
	else
		sb_lit(b, "-");
}

/* The points, RV_SWEEP_ROWS at most: values, status, total cycles and
 * the MB/s of the first transaction's first RV_SWEEP_COLS channels (as
 * the first point has them). */
static void sweep_points(sbuf *b, const aieth_report *r, jobj *s, const unsigned char *shown)
{
	jobj *axes = aieth__rv_arr(s, "axes"), *cols = NULL;
	size_t i, a, k, n = aieth__rv_len(r->tests), na = aieth__rv_len(axes), rows = 0, more = 0;
	for (i = 0; i < n; i++) {
		jobj *t = json_object_array_get_idx(r->tests, i), *sw = aieth__rv_point_of(t, s),
		     *tx;
		jobj *vals = aieth__rj_get(sw, "values");
		double pt = (double)i;
		char num[32];
		if (!sw)
			continue;
		if (rows >= RV_SWEEP_ROWS) {
			more++;
			continue;
		}
		if (!rows++) {
			cols = aieth__rv_arr(first_txn(t), "channels");
			sb_lit(b,
			       "<table><tr><th>point</th><th class=\"l\">test</th><th>status</th>");
			for (a = 0; a < na && a < RV_MAX_AXES; a++) {
				sb_lit(b, "<th>");
				aieth__rv_esc(b, aieth__rj_gets(json_object_array_get_idx(axes, a),
								"name"));
				sb_lit(b, "</th>");
			}
			sb_lit(b, "<th>cycles</th>");
			for (k = 0; k < aieth__rv_len(cols) && k < RV_SWEEP_COLS; k++) {
				sb_lit(b, "<th>");
				aieth__rv_esc(b, aieth__rj_gets(json_object_array_get_idx(cols, k),
								"plio"));
				sb_lit(b, " MB/s</th>");
			}
			sb_lit(b, "</tr>\n");
		}
		aieth__rv_num(sw, "point", &pt);
		snprintf(num, sizeof num, "%.0f", pt);
		aieth__rv_test_row(b, num, t, i, shown && shown[i]);
		for (a = 0; a < na && a < RV_MAX_AXES; a++) {
			sb_lit(b, "<td>");
			value(b,
			      aieth__rj_get(vals, aieth__rj_gets(json_object_array_get_idx(axes, a),
								 "name")));
			sb_lit(b, "</td>");
		}
		tx = first_txn(t);
		sb_lit(b, "<td>");
		fig_cell(b, tx, "total_cycles", 0);
		sb_lit(b, "</td>");
		for (k = 0; k < aieth__rv_len(cols) && k < RV_SWEEP_COLS; k++) {
			jobj *ch = channel_named(
				tx, aieth__rj_gets(json_object_array_get_idx(cols, k), "plio"));
			int bad = ch && strcmp(aieth__rj_gets(ch, "verdict"), "pass");
			aieth__sb_printf(b, "<td%s>", bad ? " class=\"bad\"" : "");
			fig_cell(b, ch, "throughput_MBps", 1);
			sb_lit(b, "</td>");
		}
		sb_lit(b, "</tr>\n");
	}
	if (rows)
		sb_lit(b, "</table>\n");
	else
		sb_lit(b, "<p class=\"note\">no point of this sweep is in the report</p>\n");
	if (more)
		aieth__sb_printf(b,
				 "<p class=\"note\">%zu more points: this page lists the first %d; "
				 "report.json and OUT/sweep.csv have every point</p>\n",
				 more, RV_SWEEP_ROWS);
	if (aieth__rv_len(cols) > RV_SWEEP_COLS)
		aieth__sb_printf(b, "<p class=\"note\">MB/s of the first %d channels of %zu</p>\n",
				 RV_SWEEP_COLS, aieth__rv_len(cols));
}

void aieth__rv_html_sweeps(sbuf *b, const aieth_report *r, const unsigned char *shown)
{
	jobj *sw = aieth__rv_arr(r->run, "sweeps");
	size_t i, n = aieth__rv_num_sweeps(r->run);
	for (i = 0; i < n; i++) {
		jobj *s = json_object_array_get_idx(sw, i);
		if (!json_object_is_type(s, json_type_object))
			continue;
		sweep_head(b, s, i);
		sweep_charts(b, r, s);
		sweep_knees(b, s);
		sweep_points(b, r, s, shown);
		sb_lit(b, "</section>\n");
	}
	if (aieth__rv_len(sw) > n)
		aieth__sb_printf(
			b, "<p class=\"note\">%zu more sweeps: this page draws the first %d</p>\n",
			aieth__rv_len(sw) - n, RV_MAX_SWEEPS);
}

int aieth__rv_write_sweep_svgs(const aieth_report *r, int dfd, const char *dir)
{
	jobj *sw = aieth__rv_arr(r->run, "sweeps");
	char stems[RV_MAX_SWEEPS * RV_MAX_AXES][160];
	size_t i, a, ns = 0, n = aieth__rv_num_sweeps(r->run);
	int fig, rc = AIETH_OK;
	for (i = 0; i < n && rc == AIETH_OK; i++) {
		jobj *s = json_object_array_get_idx(sw, i), *axes = aieth__rv_arr(s, "axes");
		for (a = 0; a < aieth__rv_len(axes) && a < RV_MAX_AXES && rc == AIETH_OK; a++) {
			char sn[48], an[40], *stem = stems[ns], name[200], path[4400];
			size_t c;
			aieth__rv_file_part(sn, sizeof sn, aieth__rj_gets(s, "name"));
			aieth__rv_file_part(
				an, sizeof an,
				aieth__rj_gets(json_object_array_get_idx(axes, a), "name"));
			snprintf(stem, sizeof stems[0], "sweep-%s-%s", sn, an);
			for (c = 0; c < ns && strcmp(stems[c], stem); c++)
				;
			if (c < ns) /* '+' never comes from a name */
				snprintf(stem, sizeof stems[0], "sweep-%s-%s+%zu.%zu", sn, an, i,
					 a);
			ns++;
			for (fig = 0; fig < RV_NUM_FIGS && rc == AIETH_OK; fig++) {
				sbuf b = SB_INIT(SB_DOC_MAX);
				int d = aieth__rv_svg_curve(&b, r->tests, s, a, fig, 1);
				snprintf(name, sizeof name, "%s-%s.svg", stem,
					 aieth__rv_fig_name(fig));
				if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >=
				    sizeof path)
					rc = aieth__fail(AIETH_EINVAL,
							 "%s: chart path longer than %zu bytes",
							 dir, sizeof path - 1);
				else if (d < 0)
					rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
				else if (d > 0 && !(rc = aieth__sb_check(&b, path)))
					rc = aieth__write_atomicat(dfd, name, path, b.p, b.n);
				aieth__sb_free(&b);
			}
		}
	}
	return rc;
}
