/* SPDX-License-Identifier: MIT */
/*
 * sweep_axes.c - the axes of a sweep as written: a description's "sweep"
 * object or run_test's --sweep AXIS=LIST texts, their value lists and
 * ranges, the number of points and each point's values and name. What an
 * axis means for the description (and the board) is sweep.c's business.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/sweep.h"
#include "util/error.h"

/* An axis name: letters, digits, '_', at most one '.' splitting
 * "<PLIO or graph>.<field or parameter>", each side non-empty. */
static int check_axis_name(const char *where, const char *name)
{
	size_t n = strlen(name), i, dots = 0;
	if (!n || n > SWEEP_AXIS_NAME_MAX)
		return aieth__fail(AIETH_EINVAL, "%s: axis \"%.100s\": a name of 1..%u characters",
				   where, name, SWEEP_AXIS_NAME_MAX);
	for (i = 0; i < n; i++) {
		char ch = name[i];
		if (ch == '.')
			dots++;
		else if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			   (ch >= '0' && ch <= '9') || ch == '_'))
			return aieth__fail(AIETH_EINVAL,
					   "%s: axis \"%s\": only letters, digits, '_' and one '.' "
					   "(size, delay, replay, channels, mode, <PLIO>.size, "
					   "<graph>.<param>)",
					   where, name);
	}
	if (dots > 1 || name[0] == '.' || name[n - 1] == '.')
		return aieth__fail(AIETH_EINVAL,
				   "%s: axis \"%s\": one '.' between a PLIO or graph name and its "
				   "field or parameter",
				   where, name);
	return 0;
}

/* A word value: it appears in test names (and so in JUnit, TAP, LAVA,
 * InfluxDB tags) as it is, so it holds no separator of the point name. */
static int check_word(const char *where, const char *axis, const char *w)
{
	size_t n = strlen(w), i;
	if (!n || n > SWEEP_WORD_MAX)
		return aieth__fail(AIETH_EINVAL,
				   "%s: axis %s: value \"%.80s\": a word of 1..%u "
				   "characters",
				   where, axis, w, SWEEP_WORD_MAX);
	for (i = 0; i < n; i++) {
		char ch = w[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.' || ch == '+'))
			return aieth__fail(
				AIETH_EINVAL,
				"%s: axis %s: value \"%s\": a word holds letters, digits "
				"and _ - . + only (it becomes part of the test's name)",
				where, axis, w);
	}
	return 0;
}

static int push(const char *where, sweep_axis *ax, const sweep_val *v)
{
	sweep_val *nv;
	if (ax->nv >= SWEEP_MAX_POINTS)
		return aieth__fail(AIETH_EINVAL,
				   "%s: axis %s: more than %u values (a sweep runs at most %u "
				   "points)",
				   where, ax->name, SWEEP_MAX_POINTS, SWEEP_MAX_POINTS);
	/* grows by doubling: at most SWEEP_MAX_POINTS entries */
	if (!(ax->nv & (ax->nv - 1)) || !ax->nv) {
		size_t cap = ax->nv ? ax->nv * 2 : 4;
		nv = realloc(ax->v, cap * sizeof *nv);
		if (!nv)
			return aieth__fail(AIETH_ENOMEM, "%s: out of memory", where);
		ax->v = nv;
	}
	ax->v[ax->nv++] = *v;
	return 0;
}

static void set_uint(sweep_val *v, uint64_t u)
{
	memset(v, 0, sizeof *v);
	v->is_num = v->is_uint = 1;
	v->u = u;
	v->num = (double)u;
	snprintf(v->text, sizeof v->text, "%" PRIu64, u);
}

/* from, from*times... or from, from+step... up to to (inclusive). */
static int push_range(const char *where, sweep_axis *ax, uint64_t from, uint64_t to, uint64_t times,
		      uint64_t step)
{
	uint64_t x = from;
	sweep_val v;
	int rc;
	if (from > to)
		return aieth__fail(AIETH_EINVAL,
				   "%s: axis %s: range from %" PRIu64 " to %" PRIu64
				   ": \"from\" is more than \"to\"",
				   where, ax->name, from, to);
	if (times && from == 0)
		return aieth__fail(
			AIETH_EINVAL,
			"%s: axis %s: a range by \"times\" starts above 0 (0 times %" PRIu64
			" stays 0); use \"step\"",
			where, ax->name, times);
	for (;;) {
		set_uint(&v, x);
		if ((rc = push(where, ax, &v)))
			return rc;
		if (times) {
			if (x > to / times)
				break;
			x *= times;
		} else {
			if (to - x < step)
				break;
			x += step;
		}
		if (x > to)
			break;
	}
	return 0;
}

/* A decimal number as run_test takes it: whole numbers >= 0, or any
 * number strtod reads whole (a graph parameter may be negative or not
 * whole). 1 when s is one. */
static int read_number(const char *s, sweep_val *v)
{
	char *end;
	size_t n = strlen(s);
	memset(v, 0, sizeof *v);
	if (!n || n > SWEEP_WORD_MAX || !((s[0] >= '0' && s[0] <= '9') || s[0] == '-'))
		return 0;
	if (strspn(s, "0123456789") == n) {
		errno = 0;
		v->u = strtoull(s, &end, 10);
		if (errno || *end)
			return 0;
		v->is_uint = 1;
		v->num = (double)v->u;
	} else {
		errno = 0;
		v->num = strtod(s, &end);
		if (errno || *end || !isfinite(v->num))
			return 0;
	}
	v->is_num = 1;
	snprintf(v->text, sizeof v->text, "%s", s);
	return 1;
}

/* A whole number >= 0 of a range's end, as written on the command line. */
static int range_end(const char *where, const sweep_axis *ax, const char *s, size_t n,
		     const char *what, uint64_t *out)
{
	char buf[32];
	sweep_val v;
	if (n == 0 || n >= sizeof buf)
		return aieth__fail(AIETH_EINVAL, "%s: axis %s: range: %s: missing or too long",
				   where, ax->name, what);
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!read_number(buf, &v) || !v.is_uint)
		return aieth__fail(AIETH_EINVAL,
				   "%s: axis %s: range: %s \"%s\" is not a whole number >= 0 "
				   "(FROM..TO*TIMES or FROM..TO+STEP)",
				   where, ax->name, what, buf);
	*out = v.u;
	return 0;
}

int aieth__rn_sweep_parse_list(const char *where, const char *list, sweep_axis *ax)
{
	const char *p = list;
	int rc;
	if (!*list)
		return aieth__fail(AIETH_EINVAL, "%s: axis %s: no values after '='", where,
				   ax->name);
	for (;;) {
		size_t n = strcspn(p, ",");
		char item[SWEEP_WORD_MAX + 1];
		const char *dots;
		sweep_val v;
		if (!n)
			return aieth__fail(AIETH_EINVAL,
					   "%s: axis %s: an empty value in \"%.200s\"", where,
					   ax->name, list);
		dots = memchr(p, '.', n);
		if (dots && dots + 1 < p + n && dots[1] == '.') {
			/* FROM..TO*TIMES or FROM..TO+STEP */
			const char *to = dots + 2, *op = to + strcspn(to, "*+,");
			uint64_t from, upto, by;
			if (op >= p + n || (*op != '*' && *op != '+'))
				return aieth__fail(AIETH_EINVAL,
						   "%s: axis %s: range \"%.*s\": FROM..TO*TIMES or "
						   "FROM..TO+STEP",
						   where, ax->name, (int)n, p);
			if ((rc = range_end(where, ax, p, (size_t)(dots - p), "FROM", &from)) ||
			    (rc = range_end(where, ax, to, (size_t)(op - to), "TO", &upto)) ||
			    (rc = range_end(where, ax, op + 1, (size_t)(p + n - op - 1),
					    *op == '*' ? "TIMES" : "STEP", &by)))
				return rc;
			if (*op == '*' && by < 2)
				return aieth__fail(
					AIETH_EINVAL,
					"%s: axis %s: range \"%.*s\": TIMES is at least 2", where,
					ax->name, (int)n, p);
			if (*op == '+' && by < 1)
				return aieth__fail(
					AIETH_EINVAL,
					"%s: axis %s: range \"%.*s\": STEP is at least 1", where,
					ax->name, (int)n, p);
			if ((rc = push_range(where, ax, from, upto, *op == '*' ? by : 0,
					     *op == '+' ? by : 0)))
				return rc;
		} else {
			if (n > SWEEP_WORD_MAX)
				return aieth__fail(
					AIETH_EINVAL,
					"%s: axis %s: value \"%.40s...\": longer than %u "
					"characters",
					where, ax->name, p, SWEEP_WORD_MAX);
			memcpy(item, p, n);
			item[n] = '\0';
			if (!read_number(item, &v)) {
				if ((rc = check_word(where, ax->name, item)))
					return rc;
				memset(&v, 0, sizeof v);
				snprintf(v.text, sizeof v.text, "%s", item);
			}
			if ((rc = push(where, ax, &v)))
				return rc;
		}
		if (!p[n])
			return 0;
		p += n + 1;
		if (!*p)
			return aieth__fail(AIETH_EINVAL,
					   "%s: axis %s: an empty value at the end of "
					   "\"%.200s\"",
					   where, ax->name, list);
	}
}

static int new_axis(const char *where, sweep_def *d, const char *name, sweep_axis **ax)
{
	size_t i;
	int rc;
	if ((rc = check_axis_name(where, name)))
		return rc;
	for (i = 0; i < d->nax; i++)
		if (!strcmp(d->ax[i].name, name))
			return aieth__fail(AIETH_EINVAL, "%s: axis %s is given twice", where, name);
	if (d->nax >= SWEEP_MAX_AXES)
		return aieth__fail(AIETH_EINVAL, "%s: axis %s: more than %u axes", where, name,
				   SWEEP_MAX_AXES);
	snprintf(d->ax[d->nax].name, sizeof d->ax[d->nax].name, "%s", name);
	*ax = &d->ax[d->nax++];
	return 0;
}

static sweep_def *new_def(const char *origin)
{
	sweep_def *d = calloc(1, sizeof *d);
	if (!d) {
		aieth__fail(AIETH_ENOMEM, "out of memory");
		return NULL;
	}
	snprintf(d->origin, sizeof d->origin, "%s", origin);
	return d;
}

int aieth__rn_sweep_parse_args(const char *const *items, size_t n, int zip, sweep_def **out)
{
	sweep_def *d;
	size_t i = 0;
	int rc;
	*out = NULL;
	if (!(d = new_def("--sweep")))
		return AIETH_ENOMEM;
	d->zip = zip != 0;
	if (i >= n) {
		aieth__rn_sweep_free(d);
		return aieth__fail(AIETH_EINVAL, "--sweep: no axis given (AXIS=LIST)");
	}
	for (; i < n; i++) {
		const char *it = items[i], *eq = it ? strchr(it, '=') : NULL;
		char name[SWEEP_AXIS_NAME_MAX + 2], where[SWEEP_AXIS_NAME_MAX + 40];
		sweep_axis *ax;
		if (!eq || eq == it || (size_t)(eq - it) > SWEEP_AXIS_NAME_MAX) {
			rc = aieth__fail(AIETH_EINVAL,
					 "--sweep %.200s: expected AXIS=LIST (size=4096,8192, "
					 "PLIO_01_TO_AIE.delay=0..400+100, size=4096..65536*2)",
					 it ? it : "(null)");
			goto fail;
		}
		memcpy(name, it, (size_t)(eq - it));
		name[eq - it] = '\0';
		snprintf(where, sizeof where, "--sweep %s", name);
		if ((rc = new_axis("--sweep", d, name, &ax)) ||
		    (rc = aieth__rn_sweep_parse_list(where, eq + 1, ax)))
			goto fail;
	}
	*out = d;
	return 0;
fail:
	aieth__rn_sweep_free(d);
	return rc;
}

/* One JSON value of a list. */
static int json_value(const char *where, sweep_axis *ax, struct json_object *v)
{
	sweep_val sv;
	memset(&sv, 0, sizeof sv);
	switch (json_object_get_type(v)) {
	case json_type_int: {
		int64_t i = json_object_get_int64(v);
		if (i >= 0) {
			/* json-c clamps above INT64_MAX; no axis takes such a value */
			set_uint(&sv, (uint64_t)i);
		} else {
			sv.is_num = 1;
			sv.num = (double)i;
			snprintf(sv.text, sizeof sv.text, "%" PRId64, i);
		}
		break;
	}
	case json_type_double:
		sv.is_num = 1;
		sv.num = json_object_get_double(v);
		snprintf(sv.text, sizeof sv.text, "%.17g", sv.num);
		/* the shortest text that reads back the same */
		{
			int prec;
			for (prec = 1; prec <= 17; prec++) {
				snprintf(sv.text, sizeof sv.text, "%.*g", prec, sv.num);
				if (strtod(sv.text, NULL) == sv.num)
					break;
			}
		}
		break;
	case json_type_string: {
		const char *s = json_object_get_string(v);
		int rc;
		if ((rc = check_word(where, ax->name, s)))
			return rc;
		snprintf(sv.text, sizeof sv.text, "%s", s);
		break;
	}
	default:
		return aieth__fail(AIETH_EPARSE, "%s: expected numbers or words, got %s", where,
				   json_type_to_name(json_object_get_type(v)));
	}
	return push(where, ax, &sv);
}

/* {"from": A, "to": B, "times": T} or {"from": A, "to": B, "step": S}. */
static int json_range(const char *where, sweep_axis *ax, struct json_object *o)
{
	uint64_t e[4] = {0, 0, 0, 0};
	static const char *const names[] = {"from", "to", "times", "step"};
	int have[4] = {0, 0, 0, 0}, i;
	json_object_object_foreach(o, key, val)
	{
		for (i = 0; i < 4 && strcmp(key, names[i]); i++)
			;
		if (i == 4)
			return aieth__fail(AIETH_EPARSE,
					   "%s.%s: unknown key (a range has from, to and times or "
					   "step)",
					   where, key);
		if (!json_object_is_type(val, json_type_int) || json_object_get_int64(val) < 0)
			return aieth__fail(AIETH_EPARSE, "%s.%s: expected a whole number >= 0",
					   where, key);
		e[i] = (uint64_t)json_object_get_int64(val);
		have[i] = 1;
	}
	if (!have[0] || !have[1] || have[2] == have[3])
		return aieth__fail(AIETH_EPARSE,
				   "%s: a range is {\"from\": A, \"to\": B, \"times\": T} or "
				   "{\"from\": A, \"to\": B, \"step\": S}",
				   where);
	if (have[2] && e[2] < 2)
		return aieth__fail(AIETH_EINVAL, "%s.times: %" PRIu64 " (at least 2)", where, e[2]);
	if (have[3] && e[3] < 1)
		return aieth__fail(AIETH_EINVAL, "%s.step: %" PRIu64 " (at least 1)", where, e[3]);
	return push_range(where, ax, e[0], e[1], have[2] ? e[2] : 0, have[3] ? e[3] : 0);
}

int aieth__rn_sweep_parse_json(const char *what, struct json_object *o, sweep_def **out)
{
	struct json_object *axes = NULL, *mode = NULL;
	char origin[300];
	sweep_def *d;
	int rc = 0;
	*out = NULL;
	snprintf(origin, sizeof origin, "%s: sweep", what);
	if (!json_object_is_type(o, json_type_object))
		return aieth__fail(AIETH_EPARSE,
				   "%s: expected {\"mode\": \"grid\"|\"zip\", \"axes\": {...}}",
				   origin);
	json_object_object_foreach(o, key, val)
	{
		if (!strcmp(key, "mode"))
			mode = val;
		else if (!strcmp(key, "axes"))
			axes = val;
		else
			return aieth__fail(AIETH_EPARSE, "%s.%s: unknown key (mode, axes)", origin,
					   key);
	}
	if (mode && (!json_object_is_type(mode, json_type_string) ||
		     (strcmp(json_object_get_string(mode), "grid") &&
		      strcmp(json_object_get_string(mode), "zip"))))
		return aieth__fail(AIETH_EINVAL, "%s.mode: %.60s: expected \"grid\" or \"zip\"",
				   origin, json_object_to_json_string(mode));
	if (!axes || !json_object_is_type(axes, json_type_object) ||
	    !json_object_object_length(axes))
		return aieth__fail(AIETH_EPARSE,
				   "%s.axes: %s: an object of axes, {\"size\": [4096, 8192], ...}",
				   origin, axes ? "expected a non-empty object" : "missing");
	if (!(d = new_def(origin)))
		return AIETH_ENOMEM;
	d->zip = mode && !strcmp(json_object_get_string(mode), "zip");
	{
		json_object_object_foreach(axes, name, axv)
		{
			char where[sizeof origin + SWEEP_AXIS_NAME_MAX + 16];
			sweep_axis *ax;
			snprintf(where, sizeof where, "%s.axes.%.*s", origin,
				 (int)SWEEP_AXIS_NAME_MAX + 1, name);
			if ((rc = new_axis(origin, d, name, &ax)))
				break;
			if (json_object_is_type(axv, json_type_array)) {
				size_t i, n = json_object_array_length(axv);
				if (!n) {
					rc = aieth__fail(AIETH_EPARSE, "%s: an empty list", where);
					break;
				}
				for (i = 0; i < n && !rc; i++) {
					char w[sizeof where + 24];
					snprintf(w, sizeof w, "%s[%zu]", where, i);
					rc = json_value(w, ax, json_object_array_get_idx(axv, i));
				}
			} else if (json_object_is_type(axv, json_type_object)) {
				rc = json_range(where, ax, axv);
			} else {
				rc = aieth__fail(AIETH_EPARSE,
						 "%s: expected a list [4096, 8192] or a range "
						 "{\"from\": 4096, \"to\": 65536, \"times\": 2}",
						 where);
			}
			if (rc)
				break;
		}
	}
	if (rc) {
		aieth__rn_sweep_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

void aieth__rn_sweep_free(sweep_def *d)
{
	size_t i;
	if (!d)
		return;
	for (i = 0; i < d->nax; i++)
		free(d->ax[i].v);
	free(d);
}

int aieth__rn_sweep_count(const sweep_def *d, size_t *points)
{
	size_t i, n = 1;
	*points = 0;
	if (!d->nax)
		return aieth__fail(AIETH_EINVAL, "%s: no axis", d->origin);
	if (d->zip) {
		for (i = 1; i < d->nax; i++)
			if (d->ax[i].nv != d->ax[0].nv)
				return aieth__fail(AIETH_EINVAL,
						   "%s: zip: axis %s has %zu values, axis %s %zu: "
						   "a zip pairs lists of one length",
						   d->origin, d->ax[i].name, d->ax[i].nv,
						   d->ax[0].name, d->ax[0].nv);
		n = d->ax[0].nv;
	} else {
		double all = 1;
		for (i = 0; i < d->nax; i++)
			all *= (double)d->ax[i].nv;
		if (all > SWEEP_MAX_POINTS) {
			char list[600];
			size_t len = 0;
			for (i = 0; i < d->nax && len < sizeof list - 80; i++)
				len += (size_t)snprintf(list + len, sizeof list - len, "%s%s %zu",
							i ? " x " : "", d->ax[i].name, d->ax[i].nv);
			return aieth__fail(AIETH_EINVAL,
					   "%s: %.0f points (%s), more than the %u a sweep runs: "
					   "refused before the run",
					   d->origin, all, list, SWEEP_MAX_POINTS);
		}
		for (i = 0; i < d->nax; i++)
			n *= d->ax[i].nv;
	}
	if (n > SWEEP_MAX_POINTS)
		return aieth__fail(AIETH_EINVAL,
				   "%s: %zu points, more than the %u a sweep runs: refused before "
				   "the run",
				   d->origin, n, SWEEP_MAX_POINTS);
	*points = n;
	return 0;
}

void aieth__rn_sweep_point(const sweep_def *d, size_t p, size_t *idx)
{
	size_t i;
	if (d->zip) {
		for (i = 0; i < d->nax; i++)
			idx[i] = p;
		return;
	}
	for (i = d->nax; i-- > 0;) {
		idx[i] = d->ax[i].nv ? p % d->ax[i].nv : 0;
		p = d->ax[i].nv ? p / d->ax[i].nv : 0;
	}
}

size_t aieth__rn_sweep_point_name(const sweep_def *d, const size_t *idx, const char *base,
				  char *buf, size_t n)
{
	size_t len, i;
	int w = snprintf(buf, n, "%s[", base);
	len = w > 0 ? (size_t)w : 0;
	for (i = 0; i < d->nax; i++) {
		w = snprintf(len < n ? buf + len : NULL, len < n ? n - len : 0, "%s%s=%s",
			     i ? "," : "", d->ax[i].name, d->ax[i].v[idx[i]].text);
		len += w > 0 ? (size_t)w : 0;
	}
	w = snprintf(len < n ? buf + len : NULL, len < n ? n - len : 0, "]");
	len += w > 0 ? (size_t)w : 0;
	return len;
}
