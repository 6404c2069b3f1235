/* SPDX-License-Identifier: MIT */
/*
 * report_fields.c - the typed field checks of a report.json read back,
 * shared by the comparison's loader and the run history (report_fields.h).
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aieth.h"
#include "report/report_fields.h"
#include "report/report_model.h"
#include "util/error.h"
#include "util/text.h"

typedef struct json_object jobj;

int aieth__rf_bad(const char *what, const char *path, const char *rule)
{
	return aieth__fail(AIETH_EPARSE, "%s: %s: %s", what, path, rule);
}

void aieth__rf_at(char *buf, size_t n, const char *path, const char *key)
{
	snprintf(buf, n, "%.400s%s%s", path, *path ? "." : "", key);
}

int aieth__rf_obj(const char *what, const char *path, jobj *v)
{
	return json_object_is_type(v, json_type_object)
		       ? 0
		       : aieth__rf_bad(what, path, "expected an object");
}

int aieth__rf_str(const char *what, const char *path, jobj *o, const char *key, int required,
		  const char **out)
{
	char p[600];
	jobj *v = NULL;
	int there = json_object_object_get_ex(o, key, &v);
	if (out)
		*out = NULL;
	aieth__rf_at(p, sizeof p, path, key);
	if (!there || !v) {
		if (!required)
			return 0;
		return aieth__rf_bad(what, p,
				     there ? "expected a string, got null" : "missing (required)");
	}
	if (!json_object_is_type(v, json_type_string))
		return aieth__rf_bad(what, p, "expected a string");
	if (out)
		*out = json_object_get_string(v);
	return 0;
}

int aieth__rf_num(const char *what, const char *path, jobj *o, const char *key, double min,
		  int *has, double *out)
{
	char p[600], m[160];
	jobj *v = aieth__rj_get(o, key);
	double x;
	if (has)
		*has = 0;
	if (!v)
		return 0;
	aieth__rf_at(p, sizeof p, path, key);
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return aieth__rf_bad(what, p, "expected a number or null");
	x = json_object_get_double(v);
	if (!isfinite(x) || x < min) {
		snprintf(m, sizeof m, "value %g is out of range (at least %g, finite)", x, min);
		return aieth__rf_bad(what, p, m);
	}
	if (has)
		*has = 1;
	if (out)
		*out = x;
	return 0;
}

int aieth__rf_arr(const char *what, const char *path, jobj *o, const char *key, size_t max,
		  jobj **out)
{
	char p[600];
	jobj *v = aieth__rj_get(o, key);
	*out = NULL;
	if (!v)
		return 0;
	aieth__rf_at(p, sizeof p, path, key);
	if (!json_object_is_type(v, json_type_array))
		return aieth__rf_bad(what, p, "expected an array");
	if (json_object_array_length(v) > max)
		return aieth__fail(AIETH_EINVAL, "%s: %s: %zu entries, more than the %zu read",
				   what, p, json_object_array_length(v), max);
	*out = v;
	return 0;
}

int aieth__rf_index(const char *what, const char *path, jobj *o, const char *key, int64_t *out)
{
	char p[600];
	jobj *v = aieth__rj_get(o, key);
	aieth__rf_at(p, sizeof p, path, key);
	if (!v || !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return aieth__rf_bad(what, p,
				     v ? "expected an integer >= 0" : "missing (required)");
	if (out)
		*out = json_object_get_int64(v);
	return 0;
}

int aieth__rf_schema(const char *what, jobj *root, int foreign_code)
{
	const char *s;
	char q[100];
	int rc;
	if ((rc = aieth__rf_str(what, "", root, "schema", 1, &s)))
		return rc;
	if (!strcmp(s, AIETH_REPORT_SCHEMA) || !strcmp(s, AIETH_REPORT_SCHEMA_1))
		return 0;
	aieth__quote_str(q, sizeof q, s);
	return aieth__fail(foreign_code,
			   "%s: schema: \"%s\" is not a report this program reads (\"%s\" or "
			   "\"%s\")",
			   what, q, AIETH_REPORT_SCHEMA, AIETH_REPORT_SCHEMA_1);
}
