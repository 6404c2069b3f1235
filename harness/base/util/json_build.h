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
 * memory) is remembered (rj_oom): aieth_report_finish reports it. */
struct json_object *rj_obj(void);
struct json_object *rj_arr(void);
void rj_set(struct json_object *o, const char *key, struct json_object *v);
void rj_str(struct json_object *o, const char *key, const char *s);
void rj_int(struct json_object *o, const char *key, int64_t v);
void rj_u64(struct json_object *o, const char *key, uint64_t v);
void rj_num(struct json_object *o, const char *key, double v);
void rj_bool(struct json_object *o, const char *key, int v);
void rj_null(struct json_object *o, const char *key);
void rj_push(struct json_object *a, struct json_object *v);
/* push a string (valid UTF-8 as rj_str makes it) */
void rj_push_str(struct json_object *a, const char *s);
int rj_oom(void);
/* forget an earlier failure (a new tree begins) */
void rj_oom_clear(void);

/* Lookups for the writers (NULL / 0 / "" when absent). */
struct json_object *rj_get(struct json_object *o, const char *key);
const char *rj_gets(struct json_object *o, const char *key);
int64_t rj_geti(struct json_object *o, const char *key);
double rj_getd(struct json_object *o, const char *key);

#endif /* AIETH_UTIL_JSON_BUILD_H */
