/* SPDX-License-Identifier: MIT */
/*
 * report_stats.c - reading a repeated figure's statistics back for the
 * pages (report.json "aieth-report/2": stats.<figure> = {median, min, max,
 * mean, stddev, mad, runs}), and the one wording of its spread
 * ("5000.0 ±0.2 %": ± is the MAD relative to the median, in percent).
 * A report read back is hostile: every type is checked here, so the
 * drawing code trusts numbers and arrays.
 */
#include <math.h>
#include <stdio.h>

#include "report/report_model.h"
#include "report/report_visual.h"

struct json_object *aieth__rv_arr(struct json_object *o, const char *key)
{
	struct json_object *v = aieth__rj_get(o, key);
	return v && json_object_is_type(v, json_type_array) ? v : NULL;
}

size_t aieth__rv_len(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

int aieth__rv_num(struct json_object *o, const char *key, double *out)
{
	struct json_object *v = aieth__rj_get(o, key);
	double x;
	if (!v ||
	    !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return 0;
	x = json_object_get_double(v);
	if (!isfinite(x))
		return 0;
	*out = x;
	return 1;
}

struct json_object *aieth__rv_stat(struct json_object *o, const char *key)
{
	struct json_object *st = aieth__rj_get(o, "stats"), *s = aieth__rj_get(st, key);
	double d;
	if (!st || !json_object_is_type(st, json_type_object) || !s ||
	    !json_object_is_type(s, json_type_object))
		return NULL;
	if (!aieth__rv_num(s, "median", &d) || !aieth__rv_num(s, "min", &d) ||
	    !aieth__rv_num(s, "max", &d))
		return NULL;
	/* one measured run is no spread: drawn and shown as without stats */
	if (aieth__rv_arr(s, "runs") && aieth__rv_len(aieth__rv_arr(s, "runs")) < 2)
		return NULL;
	return s;
}

double aieth__rv_spread_pct(struct json_object *s)
{
	double med = 0, mad = 0;
	aieth__rv_num(s, "median", &med);
	aieth__rv_num(s, "mad", &mad);
	if (med == 0)
		return 0;
	return fabs(mad / med) * 100;
}

void aieth__rv_pm(sbuf *b, struct json_object *s, int prec)
{
	double med = 0;
	aieth__rv_num(s, "median", &med);
	aieth__sb_printf(b, "%.*f", prec, med);
	aieth__sb_printf(b, " \xc2\xb1%.1f %%", aieth__rv_spread_pct(s));
}
