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
#include "util/json_build.h"

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

/* The error object {phase, code, message, hint}. */
struct json_object *aieth__rj_error(const char *phase, int code, const char *message,
				    const char *hint);

/* Status word for an exit code: pass, fail, error, skip, timeout. */
const char *aieth__exit_status(int exit_code);
/* The more severe of two exit codes (5 > 3 > 2 > 1 > 4 > 0). */
int aieth__exit_worst(int a, int b);

#endif
