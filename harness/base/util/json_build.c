/* SPDX-License-Identifier: MIT */
/*
 * json_build.c - json-c helpers that never fail silently: a NULL from
 * json-c (out of memory) is remembered per thread (aieth__rj_oom), so a writer
 * builds a whole tree and checks once. Shared by the report and the
 * uploader.
 */
#include <stdlib.h>

#include "util/json_build.h"
#include "util/utf8.h"

static _Thread_local int oom;

int aieth__rj_oom(void) { return oom; }
void aieth__rj_oom_clear(void) { oom = 0; }

static struct json_object *chk(struct json_object *o)
{
	if (!o)
		oom = 1;
	return o;
}

struct json_object *aieth__rj_obj(void) { return chk(json_object_new_object()); }
struct json_object *aieth__rj_arr(void) { return chk(json_object_new_array()); }

void aieth__rj_set(struct json_object *o, const char *key, struct json_object *v)
{
	if (!o || json_object_object_add(o, key, v))
		oom = 1;
}

/* Every string of the report is valid UTF-8 (a name, path or message may
 * hold any bytes: an xclbin's header, a Latin-1 file name); what is not
 * becomes \xNN text, so readers of report.json never refuse it. */
static struct json_object *new_str(const char *s)
{
	struct json_object *v;
	char *c;
	if (aieth__utf8_valid(s))
		return chk(json_object_new_string(s));
	if (!(c = aieth__utf8_clean(s)))
		return chk(NULL);
	v = chk(json_object_new_string(c));
	free(c);
	return v;
}

void aieth__rj_str(struct json_object *o, const char *key, const char *s)
{
	aieth__rj_set(o, key, s ? new_str(s) : NULL);
}

void aieth__rj_int(struct json_object *o, const char *key, int64_t v)
{
	aieth__rj_set(o, key, chk(json_object_new_int64(v)));
}

void aieth__rj_u64(struct json_object *o, const char *key, uint64_t v)
{
	aieth__rj_set(o, key, chk(json_object_new_uint64(v)));
}

void aieth__rj_num(struct json_object *o, const char *key, double v)
{
	aieth__rj_set(o, key, chk(json_object_new_double(v)));
}

void aieth__rj_bool(struct json_object *o, const char *key, int v)
{
	aieth__rj_set(o, key, chk(json_object_new_boolean(v != 0)));
}

void aieth__rj_null(struct json_object *o, const char *key) { aieth__rj_set(o, key, NULL); }

void aieth__rj_push_str(struct json_object *a, const char *s)
{
	aieth__rj_push(a, s ? new_str(s) : NULL);
}

void aieth__rj_push(struct json_object *a, struct json_object *v)
{
	if (!a || !v || json_object_array_add(a, v))
		oom = 1;
}

struct json_object *aieth__rj_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

const char *aieth__rj_gets(struct json_object *o, const char *key)
{
	struct json_object *v = aieth__rj_get(o, key);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

int64_t aieth__rj_geti(struct json_object *o, const char *key)
{
	struct json_object *v = aieth__rj_get(o, key);
	return v ? json_object_get_int64(v) : 0;
}

double aieth__rj_getd(struct json_object *o, const char *key)
{
	struct json_object *v = aieth__rj_get(o, key);
	return v ? json_object_get_double(v) : 0.0;
}
