/* SPDX-License-Identifier: MIT */
/*
 * spec.c - parse and check a test description (docs/test-spec.md). Every
 * error names the file, the JSON path, the value and the rule.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "runner/spec.h"
#include "runner/sweep.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_strict.h"
#include "util/path.h"
#include "util/text.h"

#define SPEC_MAX_FILE (16u << 20)
#define SPEC_SCHEMA "aieth-test/1"

typedef struct json_object jobj;

/* "<file>: <path>.<key>" for messages. */
static const char *at(char *buf, size_t n, const char *path, const char *key)
{
	int w;
	if (path && *path && key)
		w = snprintf(buf, n, "%s.%s", path, key);
	else
		w = snprintf(buf, n, "%s", key ? key : path ? path : "");
	if (w < 0 || (size_t)w >= n) /* a cut path still locates the error */
		buf[n - 1] = '\0';
	return buf;
}

static jobj *get(jobj *o, const char *key)
{
	jobj *v = NULL;
	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* The value of key, or *v = NULL; a missing required key is an error. */
static int lookup(const char *what, const char *path, jobj *o, const char *key, int required,
		  jobj **v)
{
	char p[160];
	*v = get(o, key);
	if (!*v && required)
		return aieth__fail(AIETH_EPARSE, "%s: %s: missing (required)", what,
				   at(p, sizeof p, path, key));
	return 0;
}

static int get_i64(const char *what, const char *path, jobj *o, const char *key, int required,
		   int64_t min, int64_t max, int64_t *out)
{
	char p[160];
	jobj *v;
	int64_t x;
	int rc = lookup(what, path, o, key, required, &v);
	if (rc || !v)
		return rc;
	if (!json_object_is_type(v, json_type_int))
		return aieth__fail(AIETH_EPARSE, "%s: %s: expected an integer, got %s", what,
				   at(p, sizeof p, path, key),
				   json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	x = json_object_get_int64(v);
	/* json-c holds 2^63..2^64-1 as unsigned and clamps get_int64 to
	 * INT64_MAX: compare the value as written */
	if (x >= 0 && max >= 0 && json_object_get_uint64(v) > (uint64_t)max)
		return aieth__fail(AIETH_EINVAL, "%s: %s: value %llu is out of range (%lld..%lld)",
				   what, at(p, sizeof p, path, key),
				   (unsigned long long)json_object_get_uint64(v), (long long)min,
				   (long long)max);
	if (x < min || x > max)
		return aieth__fail(AIETH_EINVAL, "%s: %s: value %lld is out of range (%lld..%lld)",
				   what, at(p, sizeof p, path, key), (long long)x, (long long)min,
				   (long long)max);
	*out = x;
	return 0;
}

static int get_num(const char *what, const char *path, jobj *o, const char *key, int required,
		   double min, double max, double *out)
{
	char p[160];
	jobj *v;
	double x;
	int rc = lookup(what, path, o, key, required, &v);
	if (rc || !v)
		return rc;
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return aieth__fail(AIETH_EPARSE, "%s: %s: expected a number, got %s", what,
				   at(p, sizeof p, path, key),
				   json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	x = json_object_get_double(v);
	if (!isfinite(x)) /* 1e999: say what was written, not what it became */
		return aieth__fail(AIETH_EINVAL,
				   "%s: %s: value %s is beyond the range of a double "
				   "(the range here is %g..%g)",
				   what, at(p, sizeof p, path, key),
				   json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), min,
				   max);
	if (!(x >= min && x <= max))
		return aieth__fail(AIETH_EINVAL, "%s: %s: value %g is out of range (%g..%g)", what,
				   at(p, sizeof p, path, key), x, min, max);
	*out = x;
	return 0;
}

/* An array of 1..maxn integers within [min, max]. */
static int get_i64_array(const char *what, const char *path, jobj *o, const char *key, int required,
			 int64_t min, int64_t max, size_t maxn, int64_t *out, size_t *n)
{
	char p[160], q[200];
	jobj *v;
	size_t i, len;
	int rc;
	*n = 0;
	if ((rc = lookup(what, path, o, key, required, &v)) || !v)
		return rc;
	at(p, sizeof p, path, key);
	if (!json_object_is_type(v, json_type_array))
		return aieth__fail(AIETH_EPARSE, "%s: %s: expected an array of integers", what, p);
	len = json_object_array_length(v);
	if (len < 1 || len > maxn)
		return aieth__fail(AIETH_EINVAL, "%s: %s: %zu entries, expected 1..%zu", what, p,
				   len, maxn);
	for (i = 0; i < len; i++) {
		jobj *e = json_object_array_get_idx(v, i);
		int64_t x;
		snprintf(q, sizeof q, "%s[%zu]", p, i);
		if (!json_object_is_type(e, json_type_int))
			return aieth__fail(AIETH_EPARSE, "%s: %s: expected an integer", what, q);
		x = json_object_get_int64(e);
		if (x < min || x > max)
			return aieth__fail(AIETH_EINVAL,
					   "%s: %s: value %lld is out of range (%lld..%lld)", what,
					   q, (long long)x, (long long)min, (long long)max);
		out[i] = x;
	}
	*n = len;
	return 0;
}

static int dup_string(const char *what, const char *path, jobj *o, const char *key, int required,
		      char **out)
{
	const char *s = NULL;
	int rc = aieth__jstrict_get_string(what, path, o, key, required, &s);
	size_t i, chars = 0;
	if (rc || !s)
		return rc;
	/* a name is in every report, table and upload: bounded before the run
	 * (a 100000-byte one passed, then failed writing trace.json) */
	for (i = 0; !strcmp(key, "name") && s[i]; i++)
		chars += ((unsigned char)s[i] & 0xc0) != 0x80;
	if (chars > SPEC_NAME_MAX)
		return aieth__fail(AIETH_EINVAL,
				   "%s: %s%sname: %zu characters (%zu bytes), the limit is %d "
				   "characters",
				   what, path, *path ? "." : "", chars, strlen(s), SPEC_NAME_MAX);
	/* names are printed in tables, markers and JUnit: no control
	 * characters (a newline could forge a marker line, ESC a terminal) */
	for (i = 0; !strcmp(key, "name") && s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return aieth__fail(
				AIETH_EINVAL,
				"%s: %s%sname: control character 0x%02x at byte %zu; names "
				"may not contain control characters",
				what, path, *path ? "." : "", (unsigned char)s[i], i);
	*out = aieth__strdup(s);
	return *out ? 0 : aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

/* 1 when path has a ".." folder or name ("..", "a/../b", "../x") */
static int has_dotdot(const char *path)
{
	const char *s = path;
	for (;;) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n == 2 && s[0] == '.' && s[1] == '.')
			return 1;
		if (!e)
			return 0;
		s = e + 1;
	}
}

/* A data source object: {"file": ...} or {"pattern": ...}. output = 1 for
 * "save" objects (files only, may not exist yet). */
static int parse_src(const char *what, const aieth_spec *sp, const char *path, jobj *o, int output,
		     spec_src *s)
{
	static const char *const file_keys[] = {"file", "format", "type", NULL};
	static const char *const pat_keys[] = {"pattern", "type", "start", "step",
					       "value",   "seed", NULL};
	const char *file = NULL, *format = NULL, *type = NULL, *pat = NULL;
	char p[160];
	int rc;

	if (!json_object_is_type(o, json_type_object))
		return aieth__fail(AIETH_EPARSE, "%s: %s: expected an object with \"file\"%s", what,
				   path, output ? "" : " or \"pattern\"");
	if (get(o, "pattern") && !output) {
		if ((rc = aieth__jstrict_keys(what, path, o, pat_keys)) ||
		    (rc = aieth__jstrict_get_string(what, path, o, "pattern", 1, &pat)) ||
		    (rc = aieth__jstrict_get_string(what, path, o, "type", 0, &type)))
			return rc;
		s->kind = SRC_PATTERN;
		memset(&s->pat, 0, sizeof s->pat);
		s->pat.type = AIETH_ELEM_UINT8;
		if (!strcmp(pat, "ramp")) {
			s->pat.kind = AIETH_PAT_RAMP;
			s->pat.step = 1;
			if ((rc = get_num(what, path, o, "start", 0, -1e300, 1e300,
					  &s->pat.start)) ||
			    (rc = get_num(what, path, o, "step", 0, -1e300, 1e300, &s->pat.step)))
				return rc;
		} else if (!strcmp(pat, "constant")) {
			s->pat.kind = AIETH_PAT_CONSTANT;
			if ((rc = get_num(what, path, o, "value", 1, -1e300, 1e300, &s->pat.start)))
				return rc;
		} else if (!strcmp(pat, "random")) {
			int64_t seed = 0;
			s->pat.kind = AIETH_PAT_RANDOM;
			if ((rc = get_i64(what, path, o, "seed", 0, 0, INT64_MAX, &seed)))
				return rc;
			s->pat.seed = (uint64_t)seed;
		} else {
			return aieth__fail(
				AIETH_EINVAL,
				"%s: %s: pattern \"%s\" is unknown (ramp, constant, random)", what,
				at(p, sizeof p, path, "pattern"), pat);
		}
		if (s->pat.kind != AIETH_PAT_RANDOM && !type)
			return aieth__fail(AIETH_EPARSE,
					   "%s: %s: missing: a %s pattern needs an element "
					   "type",
					   what, at(p, sizeof p, path, "type"), pat);
		if (type) {
			if ((rc = aieth__elem_parse(type, &s->pat.type)))
				return aieth__fail_prefix(rc, "%s: %s", what,
							  at(p, sizeof p, path, "type"));
			s->have_type = 1;
			s->type = s->pat.type;
		}
		return 0;
	}
	if ((rc = aieth__jstrict_keys(what, path, o, file_keys)) ||
	    (rc = aieth__jstrict_get_string(what, path, o, "file", 1, &file)) ||
	    (rc = aieth__jstrict_get_string(what, path, o, "format", 0, &format)) ||
	    (rc = aieth__jstrict_get_string(what, path, o, "type", 0, &type)))
		return rc;
	if (!*file)
		return aieth__fail(AIETH_EINVAL, "%s: %s: empty file name", what,
				   at(p, sizeof p, path, "file"));
	/* a relative save path is below --out, in folders the run makes and
	 * never reaches through a link: ".." would step out of them (above
	 * --out, another of its folders); an absolute path is the user's own */
	if (output && file[0] != '/' && has_dotdot(file))
		return aieth__fail(AIETH_EINVAL,
				   "%s: %s: \"%s\": a relative save path stays below the output "
				   "folder (--out), \"..\" may not appear in it; name an absolute "
				   "path to save elsewhere",
				   what, at(p, sizeof p, path, "file"), file);
	if (!format)
		format = ends_with(file, ".txt") ? "text" : "binary";
	if (!strcmp(format, "text"))
		s->kind = SRC_TEXT;
	else if (!strcmp(format, "binary"))
		s->kind = SRC_BINARY;
	else
		return aieth__fail(AIETH_EINVAL, "%s: %s: format \"%s\" is unknown (binary, text)",
				   what, at(p, sizeof p, path, "format"), format);
	if (type) {
		if ((rc = aieth__elem_parse(type, &s->type)))
			return aieth__fail_prefix(rc, "%s: %s", what,
						  at(p, sizeof p, path, "type"));
		s->have_type = 1;
	} else if (s->kind == SRC_TEXT) {
		return aieth__fail(AIETH_EPARSE,
				   "%s: %s: missing: text files need an element type "
				   "(int8 ... cfloat)",
				   what, at(p, sizeof p, path, "type"));
	}
	s->given = aieth__strdup(file);
	/* inputs resolve against the description's folder; outputs later,
	 * against the output directory */
	s->path = output ? aieth__strdup(file) : aieth__path_join(sp->dir, file);
	if (!s->given || !s->path)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	return 0;
}

static int parse_tiling(const char *what, const char *path, jobj *o, aieth_tiling *tl)
{
	static const char *const keys[] = {
		"buffer_dimension",   "tiling_dimension", "offset", "tile_traversal",
		"boundary_dimension", "repetition",       NULL};
	static const char *const tkeys[] = {"dimension", "stride", "wrap", NULL};
	int64_t v[AIETH_TILING_MAX_DIMS];
	size_t n, n2, i;
	jobj *tr;
	char p[160], q[200];
	int64_t rep = 1;
	int rc;

	memset(tl, 0, sizeof *tl);
	if (!json_object_is_type(o, json_type_object))
		return aieth__fail(AIETH_EPARSE, "%s: %s: expected an object", what, path);
	if ((rc = aieth__jstrict_keys(what, path, o, keys)))
		return rc;
	if ((rc = get_i64_array(what, path, o, "buffer_dimension", 1, 1, UINT32_MAX,
				AIETH_TILING_MAX_DIMS, v, &n)))
		return rc;
	tl->ndims = (uint32_t)n;
	for (i = 0; i < n; i++)
		tl->buffer_dimension[i] = (uint32_t)v[i];
	if ((rc = get_i64_array(what, path, o, "tiling_dimension", 1, 1, UINT32_MAX,
				AIETH_TILING_MAX_DIMS, v, &n2)))
		return rc;
	if (n2 != n)
		return aieth__fail(AIETH_EINVAL, "%s: %s: %zu entries, buffer_dimension has %zu",
				   what, at(p, sizeof p, path, "tiling_dimension"), n2, n);
	for (i = 0; i < n; i++)
		tl->tiling_dimension[i] = (uint32_t)v[i];
	if ((rc = get_i64_array(what, path, o, "offset", 0, INT32_MIN, INT32_MAX,
				AIETH_TILING_MAX_DIMS, v, &n2)))
		return rc;
	if (n2 && n2 != n)
		return aieth__fail(AIETH_EINVAL, "%s: %s: %zu entries, buffer_dimension has %zu",
				   what, at(p, sizeof p, path, "offset"), n2, n);
	for (i = 0; i < n2; i++)
		tl->offset[i] = v[i];
	if ((rc = get_i64_array(what, path, o, "boundary_dimension", 0, 0, UINT32_MAX,
				AIETH_TILING_MAX_DIMS, v, &n2)))
		return rc;
	if (n2 && n2 != n)
		return aieth__fail(AIETH_EINVAL, "%s: %s: %zu entries, buffer_dimension has %zu",
				   what, at(p, sizeof p, path, "boundary_dimension"), n2, n);
	tl->nbound = (uint32_t)n2;
	for (i = 0; i < n2; i++)
		tl->boundary_dimension[i] = (uint32_t)v[i];
	if ((rc = get_i64(what, path, o, "repetition", 0, 1, UINT32_MAX, &rep)))
		return rc;
	tl->repetition = (uint32_t)rep;
	tr = get(o, "tile_traversal");
	if (tr) {
		at(p, sizeof p, path, "tile_traversal");
		if (!json_object_is_type(tr, json_type_array))
			return aieth__fail(AIETH_EPARSE, "%s: %s: expected an array", what, p);
		n = json_object_array_length(tr);
		if (n > AIETH_TILING_MAX_LOOPS)
			return aieth__fail(AIETH_EINVAL, "%s: %s: %zu loops, the limit is %d", what,
					   p, n, AIETH_TILING_MAX_LOOPS);
		for (i = 0; i < n; i++) {
			jobj *e = json_object_array_get_idx(tr, i);
			int64_t d = 0, st = 0, w = 1;
			snprintf(q, sizeof q, "%s[%zu]", p, i);
			if (!json_object_is_type(e, json_type_object))
				return aieth__fail(AIETH_EPARSE, "%s: %s: expected an object", what,
						   q);
			if ((rc = aieth__jstrict_keys(what, q, e, tkeys)) ||
			    (rc = get_i64(what, q, e, "dimension", 1, 0, AIETH_TILING_MAX_DIMS - 1,
					  &d)) ||
			    (rc = get_i64(what, q, e, "stride", 1, INT32_MIN, INT32_MAX, &st)) ||
			    (rc = get_i64(what, q, e, "wrap", 1, 1, UINT32_MAX, &w)))
				return rc;
			tl->tile_traversal[i].dimension = (uint32_t)d;
			tl->tile_traversal[i].stride = st;
			tl->tile_traversal[i].wrap = (uint32_t)w;
		}
		tl->nloops = (uint32_t)n;
	}
	snprintf(q, sizeof q, "%s: %s", what, path);
	return aieth__tiling_check(q, tl);
}

static int parse_chan(const char *what, aieth_spec *sp, jobj *o, spec_chan *c)
{
	static const char *const keys[] = {
		"plio", "size",   "repetition",          "delay", "data", "golden", "tolerance",
		"save", "tiling", "min_throughput_MBps", NULL};
	static const char *const tol_keys[] = {"abs", "rel", NULL};
	const char *plio = NULL;
	const char *path = c->jpath;
	char p[160];
	int64_t x;
	jobj *v;
	int rc;

	if (!json_object_is_type(o, json_type_object))
		return aieth__fail(AIETH_EPARSE, "%s: %s: expected an object", what, path);
	if ((rc = aieth__jstrict_keys(what, path, o, keys)) ||
	    (rc = aieth__jstrict_get_string(what, path, o, "plio", 1, &plio)))
		return rc;
	if (strlen(plio) >= sizeof c->plio)
		return aieth__fail(AIETH_EINVAL, "%s: %s: \"%.40s...\" is not a PLIO name", what,
				   at(p, sizeof p, path, "plio"), plio);
	strcpy(c->plio, plio);
	c->repetition = 1;
	/* the limits of aieth_txn_submit, checked before anything is allocated */
	if (get(o, "size")) {
		if ((rc = get_i64(what, path, o, "size", 1, 1, (int64_t)AIETH_MAX_CHANNEL_SIZE,
				  &x)))
			return rc;
		c->size = (uint64_t)x;
		c->have_size = 1;
	}
	x = 1;
	if ((rc = get_i64(what, path, o, "repetition", 0, 1, (int64_t)AIETH_MAX_REPETITION, &x)))
		return rc;
	c->repetition = (uint64_t)x;
	if (c->have_size && c->size > AIETH_MAX_CHANNEL_BYTES / c->repetition)
		return aieth__fail(AIETH_EINVAL,
				   "%s: %s: size %llu x repetition %llu is more than %llu bytes",
				   what, path, (unsigned long long)c->size,
				   (unsigned long long)c->repetition, AIETH_MAX_CHANNEL_BYTES);
	x = 0;
	if ((rc = get_i64(what, path, o, "delay", 0, 0, (int64_t)AIETH_MAX_DELAY_CYCLES, &x)))
		return rc;
	c->delay = (uint64_t)x;
	if ((v = get(o, "data")) &&
	    (rc = parse_src(what, sp, at(p, sizeof p, path, "data"), v, 0, &c->data)))
		return rc;
	if ((v = get(o, "golden")) &&
	    (rc = parse_src(what, sp, at(p, sizeof p, path, "golden"), v, 0, &c->golden)))
		return rc;
	if ((v = get(o, "save")) &&
	    (rc = parse_src(what, sp, at(p, sizeof p, path, "save"), v, 1, &c->save)))
		return rc;
	if ((v = get(o, "tolerance"))) {
		at(p, sizeof p, path, "tolerance");
		if (!json_object_is_type(v, json_type_object))
			return aieth__fail(AIETH_EPARSE,
					   "%s: %s: expected {\"abs\": x, \"rel\": y}", what, p);
		if ((rc = aieth__jstrict_keys(what, p, v, tol_keys)) ||
		    (rc = get_num(what, p, v, "abs", 0, 0, 1e300, &c->abs_tol)) ||
		    (rc = get_num(what, p, v, "rel", 0, 0, 1e300, &c->rel_tol)))
			return rc;
		/* integers compare exactly: a tolerance there is a mistake */
		if (!c->golden.have_type || !aieth__elem_is_float(c->golden.type))
			return aieth__fail(
				AIETH_EINVAL,
				"%s: %s: a tolerance applies to float, double and cfloat "
				"golden data; the golden data here is %s",
				what, p,
				!c->golden.kind       ? "not given"
				: c->golden.have_type ? aieth__elem_name(c->golden.type)
						      : "bytes (no \"type\" given)");
	}
	if ((v = get(o, "tiling"))) {
		if ((rc = parse_tiling(what, at(p, sizeof p, path, "tiling"), v, &c->tiling)))
			return rc;
		c->have_tiling = 1;
	}
	if (get(o, "min_throughput_MBps")) {
		if ((rc = get_num(what, path, o, "min_throughput_MBps", 1, 0, 1e12, &c->min_mbps)))
			return rc;
		c->have_min_mbps = 1;
	}
	return 0;
}

/* "regression": {"throughput_pct", "latency_pct", "cycles_pct"}, each a
 * tolerance in percent for the baseline comparison (run_test --baseline). */
static int parse_regression(const char *what, const char *path, jobj *o, spec_regression *r)
{
	static const char *const keys[] = {"throughput_pct", "latency_pct", "cycles_pct", NULL};
	char p[160];
	jobj *v = get(o, "regression");
	int rc;
	r->throughput_pct = r->latency_pct = r->cycles_pct = -1;
	if (!v)
		return 0;
	at(p, sizeof p, path, "regression");
	if (!json_object_is_type(v, json_type_object) || !json_object_object_length(v))
		return aieth__fail(AIETH_EPARSE,
				   "%s: %s: expected an object with one or more of throughput_pct, "
				   "latency_pct, cycles_pct (tolerances in percent)",
				   what, p);
	if ((rc = aieth__jstrict_keys(what, p, v, keys)) ||
	    (rc = get_num(what, p, v, "throughput_pct", 0, 0, 1e6, &r->throughput_pct)) ||
	    (rc = get_num(what, p, v, "latency_pct", 0, 0, 1e6, &r->latency_pct)) ||
	    (rc = get_num(what, p, v, "cycles_pct", 0, 0, 1e6, &r->cycles_pct)))
		return rc;
	r->have = 1;
	return 0;
}

/* "repeat": {"runs": N, "warmup": W, "statistic": "median|min|max|mean"}:
 * runs 1..SPEC_REPEAT_MAX, warmup 0..SPEC_REPEAT_MAX - runs (every run's
 * figures are kept: the count is bounded before any run). */
static int parse_repeat(const char *what, jobj *o, spec_repeat *r)
{
	static const char *const keys[] = {"runs", "warmup", "statistic", NULL};
	jobj *v = get(o, "repeat");
	const char *stat = NULL;
	int64_t runs = 1, warmup = 0;
	int rc;
	r->runs = 1;
	r->warmup = 0;
	r->statistic = AIETH__STAT_MEDIAN;
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_object))
		return aieth__fail(AIETH_EPARSE,
				   "%s: repeat: expected an object {\"runs\": N, \"warmup\": W, "
				   "\"statistic\": \"median\"}",
				   what);
	if ((rc = aieth__jstrict_keys(what, "repeat", v, keys)) ||
	    (rc = get_i64(what, "repeat", v, "runs", 1, 1, SPEC_REPEAT_MAX, &runs)) ||
	    (rc = get_i64(what, "repeat", v, "warmup", 0, 0, SPEC_REPEAT_MAX - 1, &warmup)) ||
	    (rc = aieth__jstrict_get_string(what, "repeat", v, "statistic", 0, &stat)))
		return rc;
	if (runs + warmup > SPEC_REPEAT_MAX)
		return aieth__fail(AIETH_EINVAL,
				   "%s: repeat.warmup: value %lld with %lld runs is %lld runs in "
				   "all, more than the limit of %u",
				   what, (long long)warmup, (long long)runs,
				   (long long)(runs + warmup), SPEC_REPEAT_MAX);
	if (stat && aieth__stats_parse(stat, &r->statistic)) {
		char q[100];
		aieth__quote_str(q, sizeof q, stat);
		return aieth__fail(AIETH_EINVAL,
				   "%s: repeat.statistic: \"%s\" is not one of median, min, max, "
				   "mean",
				   what, q);
	}
	r->have = 1;
	r->runs = (uint32_t)runs;
	r->warmup = (uint32_t)warmup;
	return 0;
}

static int parse_txn(const char *what, aieth_spec *sp, jobj *o, spec_txn *t)
{
	static const char *const keys[] = {"name",        "mode",       "timeout_ms", "channels",
					   "max_latency", "regression", NULL};
	static const char *const lkeys[] = {"from", "to", "max_cycles", NULL};
	const char *mode = NULL, *path = t->jpath;
	char p[160], q[200];
	jobj *chs, *lat;
	size_t i, n;
	int64_t x;
	int rc;

	if (!json_object_is_type(o, json_type_object))
		return aieth__fail(AIETH_EPARSE, "%s: %s: expected an object", what, path);
	if ((rc = aieth__jstrict_keys(what, path, o, keys)) ||
	    (rc = dup_string(what, path, o, "name", 0, &t->name)) ||
	    (rc = aieth__jstrict_get_string(what, path, o, "mode", 1, &mode)) ||
	    (rc = parse_regression(what, path, o, &t->regr)))
		return rc;
	if (!strcmp(mode, "perf"))
		t->mode = AIETH_MODE_PERF;
	else if (!strcmp(mode, "func"))
		t->mode = AIETH_MODE_FUNC;
	else
		return aieth__fail(AIETH_EINVAL, "%s: %s: mode \"%s\" is unknown (perf, func)",
				   what, at(p, sizeof p, path, "mode"), mode);
	if (get(o, "timeout_ms")) {
		if ((rc = get_i64(what, path, o, "timeout_ms", 1, 0, UINT32_MAX, &x)))
			return rc;
		t->timeout_ms = (uint32_t)x;
		t->have_timeout = 1;
	}
	chs = get(o, "channels");
	at(p, sizeof p, path, "channels");
	if (!chs)
		return aieth__fail(AIETH_EPARSE, "%s: %s: missing (required)", what, p);
	if (!json_object_is_type(chs, json_type_array) || !(n = json_object_array_length(chs)))
		return aieth__fail(AIETH_EPARSE, "%s: %s: expected a non-empty array of channels",
				   what, p);
	if (n > 72)
		return aieth__fail(AIETH_EINVAL, "%s: %s: %zu channels, no board has more than 72",
				   what, p, n);
	t->ch = calloc(n, sizeof *t->ch);
	if (!t->ch)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	t->nch = n;
	for (i = 0; i < n; i++) {
		snprintf(t->ch[i].jpath, sizeof t->ch[i].jpath, "%s.channels[%zu]", path, i);
		if ((rc = parse_chan(what, sp, json_object_array_get_idx(chs, i), &t->ch[i])))
			return rc;
	}
	lat = get(o, "max_latency");
	if (lat) {
		at(p, sizeof p, path, "max_latency");
		if (!json_object_is_type(lat, json_type_array))
			return aieth__fail(AIETH_EPARSE, "%s: %s: expected an array", what, p);
		n = json_object_array_length(lat);
		t->lat = calloc(n ? n : 1, sizeof *t->lat);
		if (!t->lat)
			return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
		for (i = 0; i < n; i++) {
			jobj *e = json_object_array_get_idx(lat, i);
			const char *from = NULL, *to = NULL;
			snprintf(q, sizeof q, "%s[%zu]", p, i);
			if (!json_object_is_type(e, json_type_object))
				return aieth__fail(AIETH_EPARSE, "%s: %s: expected an object", what,
						   q);
			if ((rc = aieth__jstrict_keys(what, q, e, lkeys)) ||
			    (rc = aieth__jstrict_get_string(what, q, e, "from", 1, &from)) ||
			    (rc = aieth__jstrict_get_string(what, q, e, "to", 1, &to)) ||
			    (rc = get_i64(what, q, e, "max_cycles", 1, 0, INT64_MAX, &x)))
				return rc;
			if (!strcmp(from, to))
				return aieth__fail(
					AIETH_EINVAL,
					"%s: %s: \"from\" and \"to\" are both %s; a latency "
					"is between two channels",
					what, q, from);
			snprintf(t->lat[i].from, sizeof t->lat[i].from, "%s", from);
			snprintf(t->lat[i].to, sizeof t->lat[i].to, "%s", to);
			t->lat[i].max_cycles = (uint64_t)x;
		}
		t->nlat = n;
	}
	return 0;
}

static int parse_graph(const char *what, jobj *o, const char *path, spec_graph *g)
{
	static const char *const keys[] = {"name", "iterations", "model", "params", NULL};
	jobj *pv;
	int64_t it = AIETH_ITERATIONS_FOREVER;
	int rc;
	if (!json_object_is_type(o, json_type_object))
		return aieth__fail(AIETH_EPARSE, "%s: %s: expected an object", what, path);
	if ((rc = aieth__jstrict_keys(what, path, o, keys)) ||
	    (rc = dup_string(what, path, o, "name", 1, &g->name)) ||
	    (rc = get_i64(what, path, o, "iterations", 0, -1, INT64_MAX, &it)) ||
	    (rc = dup_string(what, path, o, "model", 0, &g->model)))
		return rc;
	g->iterations = it;
	if ((pv = get(o, "params"))) {
		char p[160];
		if (!json_object_is_type(pv, json_type_object))
			return aieth__fail(AIETH_EPARSE, "%s: %s: expected an object", what,
					   at(p, sizeof p, path, "params"));
		g->params =
			aieth__strdup(json_object_to_json_string_ext(pv, JSON_C_TO_STRING_PLAIN));
		if (!g->params)
			return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	}
	return 0;
}

static void src_free(spec_src *s)
{
	free(s->path);
	free(s->given);
}

void aieth_spec_free(aieth_spec *sp)
{
	size_t i, j;
	if (!sp)
		return;
	for (i = 0; i < sp->ngraphs; i++) {
		free(sp->graphs[i].name);
		free(sp->graphs[i].model);
		free(sp->graphs[i].params);
	}
	free(sp->graphs);
	for (i = 0; i < sp->ntxns; i++) {
		spec_txn *t = &sp->txns[i];
		for (j = 0; j < t->nch; j++) {
			src_free(&t->ch[j].data);
			src_free(&t->ch[j].golden);
			src_free(&t->ch[j].save);
		}
		free(t->ch);
		free(t->lat);
		free(t->name);
	}
	free(sp->txns);
	free(sp->path);
	free(sp->dir);
	free(sp->name);
	free(sp->description);
	free(sp->board);
	free(sp->backend);
	free(sp->xclbin);
	free(sp->pl_xclbin);
	aieth__rn_sweep_free(sp->sweep);
	free(sp);
}

static char *default_name(const char *path)
{
	const char *b = strrchr(path, '/');
	char *n, *dot;
	b = b ? b + 1 : path;
	n = aieth__strdup(b);
	if (n && (dot = strrchr(n, '.')) && dot != n)
		*dot = '\0';
	/* "test.json" says little: use its folder's name */
	if (n && !strcmp(n, "test") && b != path) {
		const char *e = b - 1, *s = e;
		while (s > path && s[-1] != '/')
			s--;
		if (e > s) {
			free(n);
			n = malloc((size_t)(e - s) + 1);
			if (n) {
				memcpy(n, s, (size_t)(e - s));
				n[e - s] = '\0';
			}
		}
	}
	return n;
}

/* No key of a description takes null (a key is given or omitted); a
 * graph's params belong to its model and are passed on as written. */
static int reject_nulls(const char *what, jobj *v, char *path, size_t cap, int in_graphs)
{
	size_t n = strlen(path), i;
	int rc;
	if (json_object_is_type(v, json_type_object)) {
		json_object_object_foreach(v, key, val)
		{
			snprintf(path + n, cap - n, "%s%s", n ? "." : "", key);
			if (!val)
				return aieth__fail(
					AIETH_EINVAL,
					"%s: %s: null is not a value here (omit the key for "
					"its default)",
					what, path);
			if (in_graphs && !strcmp(key, "params"))
				continue;
			if ((rc = reject_nulls(what, val, path, cap, !n && !strcmp(key, "graphs"))))
				return rc;
		}
	} else if (json_object_is_type(v, json_type_array)) {
		for (i = 0; i < json_object_array_length(v); i++) {
			jobj *e = json_object_array_get_idx(v, i);
			snprintf(path + n, cap - n, "[%zu]", i);
			if (!e)
				return aieth__fail(AIETH_EINVAL, "%s: %s: null is not a value here",
						   what, path);
			if ((rc = reject_nulls(what, e, path, cap, in_graphs)))
				return rc;
		}
	}
	path[n] = '\0';
	return 0;
}

int aieth_spec_parse(aieth_spec **out, const char *what, const char *text, size_t len,
		     const char *base_dir)
{
	static const char *const keys[] = {
		"schema", "name",         "description", "board", "backend", "xclbin", "pl_xclbin",
		"graphs", "transactions", "regression",  "sweep", "repeat",  NULL};
	aieth_spec *sp;
	jobj *root = NULL, *arr;
	const char *schema = NULL, *xclbin = NULL, *pl_xclbin = NULL;
	size_t i, n;
	int rc;

	aieth__error_clear();
	if (!out || !what || (!text && len))
		return aieth__fail(AIETH_EINVAL, "aieth_spec_parse: NULL argument");
	*out = NULL;
	if ((rc = aieth__jstrict_parse(what, text, len, &root)))
		return rc;
	sp = calloc(1, sizeof *sp);
	if (!sp) {
		json_object_put(root);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	}
	sp->path = aieth__strdup(what);
	sp->dir = aieth__strdup(base_dir ? base_dir : ".");
	if (!sp->path || !sp->dir) {
		rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
		goto fail;
	}
	if (!root || !json_object_is_type(root, json_type_object)) {
		rc = aieth__fail(AIETH_EPARSE, "%s: the top level must be an object", what);
		goto fail;
	}
	{
		char np[512] = "";
		if ((rc = reject_nulls(what, root, np, sizeof np, 0)))
			goto fail;
	}
	if ((rc = aieth__jstrict_keys(what, "", root, keys)) ||
	    (rc = aieth__jstrict_get_string(what, "", root, "schema", 1, &schema)))
		goto fail;
	if (strcmp(schema, SPEC_SCHEMA)) {
		rc = aieth__fail(AIETH_EINVAL,
				 "%s: schema: \"%s\" is not supported (this run_test "
				 "reads \"%s\")",
				 what, schema, SPEC_SCHEMA);
		goto fail;
	}
	if ((rc = dup_string(what, "", root, "name", 0, &sp->name)) ||
	    (rc = dup_string(what, "", root, "description", 0, &sp->description)) ||
	    (rc = dup_string(what, "", root, "board", 0, &sp->board)) ||
	    (rc = dup_string(what, "", root, "backend", 0, &sp->backend)) ||
	    (rc = aieth__jstrict_get_string(what, "", root, "xclbin", 0, &xclbin)) ||
	    (rc = aieth__jstrict_get_string(what, "", root, "pl_xclbin", 0, &pl_xclbin)) ||
	    (rc = parse_regression(what, "", root, &sp->regr)) ||
	    (rc = parse_repeat(what, root, &sp->repeat)))
		goto fail;
	if (!sp->name && !(sp->name = default_name(what))) {
		rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
		goto fail;
	}
	if ((xclbin && !(sp->xclbin = aieth__path_join(sp->dir, xclbin))) ||
	    (pl_xclbin && !(sp->pl_xclbin = aieth__path_join(sp->dir, pl_xclbin)))) {
		rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
		goto fail;
	}
	arr = get(root, "graphs");
	if (arr) {
		if (!json_object_is_type(arr, json_type_array)) {
			rc = aieth__fail(AIETH_EPARSE, "%s: graphs: expected an array", what);
			goto fail;
		}
		n = json_object_array_length(arr);
		sp->graphs = calloc(n ? n : 1, sizeof *sp->graphs);
		if (!sp->graphs) {
			rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
			goto fail;
		}
		sp->ngraphs = n;
		for (i = 0; i < n; i++) {
			char p[32];
			size_t j;
			snprintf(p, sizeof p, "graphs[%zu]", i);
			if ((rc = parse_graph(what, json_object_array_get_idx(arr, i), p,
					      &sp->graphs[i])))
				goto fail;
			for (j = 0; j < i; j++)
				if (!strcmp(sp->graphs[j].name, sp->graphs[i].name)) {
					rc = aieth__fail(
						AIETH_EINVAL,
						"%s: %s.name: \"%s\" is also graphs[%zu].name",
						what, p, sp->graphs[i].name, j);
					goto fail;
				}
		}
	}
	arr = get(root, "transactions");
	if (!arr || !json_object_is_type(arr, json_type_array) ||
	    !(n = json_object_array_length(arr))) {
		rc = aieth__fail(AIETH_EPARSE, "%s: transactions: %s", what,
				 arr ? "expected a non-empty array" : "missing (required)");
		goto fail;
	}
	sp->txns = calloc(n, sizeof *sp->txns);
	if (!sp->txns) {
		rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
		goto fail;
	}
	sp->ntxns = n;
	for (i = 0; i < n; i++) {
		snprintf(sp->txns[i].jpath, sizeof sp->txns[i].jpath, "transactions[%zu]", i);
		if ((rc = parse_txn(what, sp, json_object_array_get_idx(arr, i), &sp->txns[i])))
			goto fail;
	}
	/* the axes as written; what they mean for the description and the
	 * board is checked when it runs (sweep.c) */
	if ((arr = get(root, "sweep")) && (rc = aieth__rn_sweep_parse_json(what, arr, &sp->sweep)))
		goto fail;
	json_object_put(root);
	*out = sp;
	return AIETH_OK;
fail:
	json_object_put(root);
	aieth_spec_free(sp);
	return rc;
}

int aieth_spec_load(aieth_spec **out, const char *path)
{
	char *text = NULL, *dir;
	size_t len = 0;
	int rc;
	aieth__error_clear();
	if (!out || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_spec_load: NULL argument");
	*out = NULL;
	if ((rc = aieth__read_file(path, SPEC_MAX_FILE, &text, &len)))
		return rc;
	dir = aieth__path_dirname(path);
	if (!dir) {
		free(text);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	}
	rc = aieth_spec_parse(out, path, text, len, dir);
	free(dir);
	free(text);
	return rc;
}

const char *aieth_spec_name(const aieth_spec *sp) { return sp ? sp->name : ""; }
