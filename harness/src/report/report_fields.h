/* SPDX-License-Identifier: MIT */
/*
 * report_fields.h - the typed field checks of a report.json read back (the
 * comparison's loader, report_compare_load.c, and the run history,
 * history/history_read.c): one rule and one message per kind of field, each
 * naming the file (what), the JSON path and the rule broken.
 */
#ifndef AIETH_REPORT_FIELDS_H
#define AIETH_REPORT_FIELDS_H

#include <stddef.h>
#include <stdint.h>

struct json_object;

/* AIETH_EPARSE "what: path: rule" */
int aieth__rf_bad(const char *what, const char *path, const char *rule);
/* path.key, or key at the top (path "") */
void aieth__rf_at(char *buf, size_t n, const char *path, const char *key);
/* v an object */
int aieth__rf_obj(const char *what, const char *path, struct json_object *v);
/* key of o: a string; absent or null is an error when required, else
 * *out (when not NULL) is NULL */
int aieth__rf_str(const char *what, const char *path, struct json_object *o, const char *key,
		  int required, const char **out);
/* key of o: absent or null (*has 0), or a finite number >= min; has and out
 * may be NULL */
int aieth__rf_num(const char *what, const char *path, struct json_object *o, const char *key,
		  double min, int *has, double *out);
/* key of o: absent or null (*out NULL), or an array of at most max entries
 * (more: AIETH_EINVAL) */
int aieth__rf_arr(const char *what, const char *path, struct json_object *o, const char *key,
		  size_t max, struct json_object **out);
/* key of o: a required integer >= 0 (a transaction's index) */
int aieth__rf_index(const char *what, const char *path, struct json_object *o, const char *key,
		    int64_t *out);
/* root's "schema": aieth-report/2 or /1; missing or not a string is
 * AIETH_EPARSE, another report's schema foreign_code */
int aieth__rf_schema(const char *what, struct json_object *root, int foreign_code);

#endif
