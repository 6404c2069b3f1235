/* SPDX-License-Identifier: MIT */
/*
 * json_build.h - building and reading json-c trees without silent failures
 * (the report.json tree, upload payloads).
 */
#ifndef AIETH_UTIL_JSON_BUILD_H
#define AIETH_UTIL_JSON_BUILD_H

#include <stdint.h>

#include <json-c/json.h>

/* json-c helpers that never fail silently: a NULL from json-c (out of
 * memory) is remembered (aieth__rj_oom): aieth_report_finish reports it. */
struct json_object *aieth__rj_obj(void);
struct json_object *aieth__rj_arr(void);
void aieth__rj_set(struct json_object *o, const char *key, struct json_object *v);
void aieth__rj_str(struct json_object *o, const char *key, const char *s);
void aieth__rj_int(struct json_object *o, const char *key, int64_t v);
void aieth__rj_u64(struct json_object *o, const char *key, uint64_t v);
void aieth__rj_num(struct json_object *o, const char *key, double v);
void aieth__rj_bool(struct json_object *o, const char *key, int v);
void aieth__rj_null(struct json_object *o, const char *key);
void aieth__rj_push(struct json_object *a, struct json_object *v);
/* push a string (valid UTF-8 as aieth__rj_str makes it) */
void aieth__rj_push_str(struct json_object *a, const char *s);
int aieth__rj_oom(void);
/* forget an earlier failure (a new tree begins) */
void aieth__rj_oom_clear(void);

/* Lookups for the writers (NULL / 0 / "" when absent). */
struct json_object *aieth__rj_get(struct json_object *o, const char *key);
const char *aieth__rj_gets(struct json_object *o, const char *key);
int64_t aieth__rj_geti(struct json_object *o, const char *key);
double aieth__rj_getd(struct json_object *o, const char *key);

#endif /* AIETH_UTIL_JSON_BUILD_H */
