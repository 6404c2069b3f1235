/* SPDX-License-Identifier: MIT */
/*
 * report_sensors.c - a test's power and temperature in report.html: a
 * table of its sensors (min, mean, max, samples) with a small line chart
 * of each one's series, down-sampled to RV_SENSOR_POINTS so a long test
 * keeps the page small. The figures come from report.json's "sensors".
 */
#include <math.h>
#include <stdio.h>

#include "report/report_model.h"
#include "report/report_visual.h"

#define SPARK_W 240
#define SPARK_H 32

/* The chart of one series: a polyline over the test's duration, the
 * values scaled between the series' min and max. */
static void spark(sbuf *b, struct json_object *s)
{
	struct json_object *ser = aieth__rj_get(s, "series");
	struct json_object *t = aieth__rj_get(ser, "t_s"), *v = aieth__rj_get(ser, "value");
	size_t n = t && v ? json_object_array_length(t) : 0, k, step;
	double t0, t1, lo = aieth__rj_getd(s, "min"), hi = aieth__rj_getd(s, "max");
	if (!n || json_object_array_length(v) != n)
		return;
	t0 = json_object_get_double(json_object_array_get_idx(t, 0));
	t1 = json_object_get_double(json_object_array_get_idx(t, n - 1));
	step = n > RV_SENSOR_POINTS ? (n + RV_SENSOR_POINTS - 1) / RV_SENSOR_POINTS : 1;
	aieth__sb_printf(b,
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"spark\" width=\"%d\" "
			 "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><polyline fill=\"none\" "
			 "stroke=\"#1565c0\" stroke-width=\"1.5\" points=\"",
			 SPARK_W, SPARK_H, SPARK_W, SPARK_H);
	for (k = 0; k < n; k += step) {
		size_t i = k + step >= n ? n - 1 : k; /* the last sample always drawn */
		double ti = json_object_get_double(json_object_array_get_idx(t, i));
		double vi = json_object_get_double(json_object_array_get_idx(v, i));
		double x = t1 > t0 ? (ti - t0) / (t1 - t0) * (SPARK_W - 4) + 2 : SPARK_W / 2.0;
		double y = hi > lo ? (hi - vi) / (hi - lo) * (SPARK_H - 4) + 2 : SPARK_H / 2.0;
		if (!isfinite(x) || !isfinite(y))
			continue;
		aieth__sb_printf(b, "%s%.1f,%.1f", k ? " " : "", x, y);
		if (n == 1) /* one sample: a short flat line */
			aieth__sb_printf(b, " %.1f,%.1f", x + 4, y);
	}
	sb_lit(b, "\"/></svg>");
}

void aieth__rv_html_sensors(sbuf *b, struct json_object *test)
{
	struct json_object *o = aieth__rj_get(test, "sensors"), *list, *notes;
	size_t i, n, hot_rows = 0;
	if (!o)
		return;
	list = aieth__rj_get(o, "sensors");
	notes = aieth__rj_get(o, "notes");
	n = list ? json_object_array_length(list) : 0;
	sb_lit(b, "<h3>Power and temperature</h3>\n");
	if (!n) {
		sb_lit(b, "<p class=\"note\">sensors: ");
		aieth__rv_esc(b, aieth__rj_gets(o, "status"));
		if (aieth__rj_gets(o, "reason")[0]) {
			sb_lit(b, " (");
			aieth__rv_esc(b, aieth__rj_gets(o, "reason"));
			sb_lit(b, ")");
		}
		sb_lit(b, "</p>\n");
	} else {
		aieth__sb_printf(b,
				 "<p class=\"note\">every %lld ms while the test ran (wall clock; "
				 "the chart spans the samples kept)</p>\n<table>\n<tr><th "
				 "class=\"l\">sensor</th><th>unit</th><th>min</th><th>mean</th>"
				 "<th>max</th><th>samples</th><th class=\"l\">series</th></tr>\n",
				 (long long)aieth__rj_geti(o, "period_ms"));
		for (i = 0; i < n && i < RV_SENSOR_ROWS; i++) {
			struct json_object *s = json_object_array_get_idx(list, i);
			int hot =
				json_object_get_boolean(aieth__rj_get(s, "device_temperature")) &&
				aieth__rj_getd(s, "max") > aieth__rj_getd(o, "temperature_limit_C");
			hot_rows += hot;
			sb_lit(b, "<tr><td class=\"l\">");
			aieth__rv_esc(b, aieth__rj_gets(s, "name"));
			sb_lit(b, "</td><td>");
			aieth__rv_esc(b, aieth__rj_gets(s, "unit"));
			if (aieth__rj_geti(s, "samples") > 0)
				aieth__sb_printf(
					b, "</td><td>%.3f</td><td>%.3f</td><td%s>%.3f</td>",
					aieth__rj_getd(s, "min"), aieth__rj_getd(s, "mean"),
					hot ? " class=\"bad\"" : "", aieth__rj_getd(s, "max"));
			else
				sb_lit(b, "</td><td>-</td><td>-</td><td>-</td>");
			aieth__sb_printf(b, "<td>%lld</td><td class=\"l\">",
					 (long long)aieth__rj_geti(s, "samples"));
			spark(b, s);
			sb_lit(b, "</td></tr>\n");
		}
		sb_lit(b, "</table>\n");
		if (hot_rows)
			aieth__sb_printf(
				b,
				"<div class=\"err\"><b>warning</b>: the device temperature passed "
				"%.0f \xc2\xb0"
				"C during the test (in red)</div>\n",
				aieth__rj_getd(o, "temperature_limit_C"));
		if (n > RV_SENSOR_ROWS)
			aieth__sb_printf(b,
					 "<p class=\"note\">%zu more sensors in report.json</p>\n",
					 n - RV_SENSOR_ROWS);
	}
	for (i = 0; notes && i < json_object_array_length(notes); i++) {
		sb_lit(b, "<p class=\"note\">note: ");
		aieth__rv_esc(b, json_object_get_string(json_object_array_get_idx(notes, i)));
		sb_lit(b, "</p>\n");
	}
}
