/* SPDX-License-Identifier: MIT */
/*
 * report_model.h - the result model: the report.json tree itself
 * (docs/report-schema.md), shared by the runner, every writer and the
 * upload (not *_internal.h: other folders use it by design).
 */
#ifndef AIETH_REPORT_MODEL_H
#define AIETH_REPORT_MODEL_H

#include <json-c/json.h>

#include "aieth.h"

/* /2 only adds to /1 (docs/report-schema.md, "Schema versions"): a reader of
 * /2 reads /1 too (report_compare_load.c) */
#define AIETH_REPORT_SCHEMA "aieth-report/2"
#define AIETH_REPORT_SCHEMA_1 "aieth-report/1"

struct aieth_report {
	struct json_object *root;
	struct json_object *run;
	struct json_object *env;
	struct json_object *tests;
	double t_start; /* CLOCK_REALTIME seconds */
	int finished;
};

/* Seconds since the epoch (wall clock) and ISO 8601 UTC text of it. */
double aieth__now(void);
void aieth__iso8601(double t, char *buf, size_t n);

/* json-c helpers that never fail silently: a NULL from json-c (out of
 * memory) is remembered and reported by aieth_report_finish. */
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

/* Lookups for the writers (NULL / 0 / "" when absent). */
struct json_object *rj_get(struct json_object *o, const char *key);
const char *rj_gets(struct json_object *o, const char *key);
int64_t rj_geti(struct json_object *o, const char *key);
double rj_getd(struct json_object *o, const char *key);

/* The error object {phase, code, message, hint}. */
struct json_object *rj_error(const char *phase, int code, const char *message, const char *hint);

/* Status word for an exit code: pass, fail, error, skip, timeout. */
const char *aieth__exit_status(int exit_code);
/* The more severe of two exit codes (5 > 3 > 2 > 1 > 4 > 0). */
int aieth__exit_worst(int a, int b);

#endif
