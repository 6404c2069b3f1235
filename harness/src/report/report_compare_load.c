/* SPDX-License-Identifier: MIT */
/*
 * report_compare_load.c - reading a report.json back for a comparison
 * (run_test --baseline, run_test compare): the strict JSON reader, then a
 * check of every field the comparison uses, so that report_compare.c can
 * trust types. Other keys are left alone: newer reports carry more.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_model.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_strict.h"
#include "util/text.h"

typedef struct json_object jobj;

/* Counts no run_test report comes near; they bound the comparison's work. */
#define MAX_TESTS 4096
#define MAX_TXNS 100000
#define MAX_ITEMS 4096 /* channels or latencies of one transaction */

static int bad(const char *what, const char *path, const char *rule)
{
	return aieth__fail(AIETH_EPARSE, "%s: %s: %s", what, path, rule);
}

static int is_num(jobj *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

/* path.key (or key at the top) */
static void at(char *buf, size_t n, const char *path, const char *key)
{
	snprintf(buf, n, "%.200s%s%s", path, *path ? "." : "", key);
}

/* key of o at path: a string; absent or null is an error when required. */
static int want_str(const char *what, const char *path, jobj *o, const char *key, int required)
{
	char p[300];
	jobj *v = NULL;
	at(p, sizeof p, path, key);
	if (!json_object_object_get_ex(o, key, &v))
		return required ? bad(what, p, "missing (required)") : 0;
	if (!v)
		return required ? bad(what, p, "expected a string, got null") : 0;
	return json_object_is_type(v, json_type_string) ? 0 : bad(what, p, "expected a string");
}

/* A measurement: absent, null or a finite number >= min. */
static int want_num(const char *what, const char *path, jobj *o, const char *key, double min)
{
	char p[300], m[160];
	jobj *v = rj_get(o, key);
	double x;
	if (!v)
		return 0;
	at(p, sizeof p, path, key);
	if (!is_num(v))
		return bad(what, p, "expected a number or null");
	x = json_object_get_double(v);
	if (!isfinite(x) || x < min) {
		snprintf(m, sizeof m, "value %g is out of range (at least %g, finite)", x, min);
		return bad(what, p, m);
	}
	return 0;
}

static int want_arr(const char *what, const char *path, jobj *o, const char *key, size_t max,
		    jobj **out)
{
	char p[300], m[160];
	jobj *v = rj_get(o, key);
	*out = NULL;
	if (!v)
		return 0;
	at(p, sizeof p, path, key);
	if (!json_object_is_type(v, json_type_array))
		return bad(what, p, "expected an array");
	if (json_object_array_length(v) > max) {
		snprintf(m, sizeof m, "%zu entries, more than the %zu a comparison reads",
			 json_object_array_length(v), max);
		return aieth__fail(AIETH_EINVAL, "%s: %s: %s", what, p, m);
	}
	*out = v;
	return 0;
}

static int want_obj(const char *what, const char *path, jobj *v)
{
	return json_object_is_type(v, json_type_object) ? 0 : bad(what, path, "expected an object");
}

/* "regression": {throughput_pct, latency_pct, cycles_pct}, numbers >= 0. */
static int check_regression(const char *what, const char *path, jobj *o)
{
	static const char *const keys[] = {"throughput_pct", "latency_pct", "cycles_pct", NULL};
	char p[300];
	jobj *g = rj_get(o, "regression");
	size_t i;
	int rc;
	if (!g)
		return 0;
	snprintf(p, sizeof p, "%.200s.regression", path);
	if ((rc = want_obj(what, p, g)) || (rc = jstrict_keys(what, p, g, keys)))
		return rc;
	for (i = 0; keys[i]; i++) {
		if (json_object_object_get_ex(g, keys[i], NULL) && !rj_get(g, keys[i])) {
			char q[340];
			snprintf(q, sizeof q, "%.200s.%s", p, keys[i]);
			return bad(what, q, "expected a number, got null");
		}
		if ((rc = want_num(what, p, g, keys[i], 0)))
			return rc;
	}
	return 0;
}

static int check_txn(const char *what, const char *path, jobj *t)
{
	char p[300], q[340];
	jobj *a, *v;
	size_t i;
	int rc;
	if ((rc = want_obj(what, path, t)) || (rc = want_str(what, path, t, "name", 1)))
		return rc;
	v = rj_get(t, "index");
	snprintf(p, sizeof p, "%.200s.index", path);
	if (!v || !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return bad(what, p, v ? "expected an integer >= 0" : "missing (required)");
	if ((rc = want_num(what, path, t, "total_cycles", 0)) ||
	    (rc = check_regression(what, path, t)) ||
	    (rc = want_arr(what, path, t, "channels", MAX_ITEMS, &a)))
		return rc;
	for (i = 0; a && i < json_object_array_length(a); i++) {
		jobj *c = json_object_array_get_idx(a, i);
		snprintf(q, sizeof q, "%.200s.channels[%zu]", path, i);
		if ((rc = want_obj(what, q, c)) || (rc = want_str(what, q, c, "plio", 1)) ||
		    (rc = want_num(what, q, c, "throughput_MBps", 0)) ||
		    (rc = want_num(what, q, c, "cycles", 0)) ||
		    (rc = want_num(what, q, c, "last_cycle", 0)))
			return rc;
	}
	if ((rc = want_arr(what, path, t, "latencies", MAX_ITEMS, &a)))
		return rc;
	for (i = 0; a && i < json_object_array_length(a); i++) {
		jobj *l = json_object_array_get_idx(a, i);
		snprintf(q, sizeof q, "%.200s.latencies[%zu]", path, i);
		if ((rc = want_obj(what, q, l)) || (rc = want_str(what, q, l, "from", 1)) ||
		    (rc = want_str(what, q, l, "to", 1)) ||
		    (rc = want_num(what, q, l, "cycles", -1e300)))
			return rc;
	}
	return 0;
}

static int check_report(const char *what, jobj *root)
{
	char p[300];
	jobj *tests, *txns;
	size_t i, j;
	int rc;
	const char *schema;
	if ((rc = want_str(what, "", root, "schema", 1)))
		return rc;
	schema = rj_gets(root, "schema");
	/* /2 only adds to /1 (repeats, sweeps): every field read here keeps
	 * its name, type and meaning, so both are read */
	if (strcmp(schema, AIETH_REPORT_SCHEMA) && strcmp(schema, "aieth-report/1") &&
	    strcmp(schema, "aieth-report/2")) {
		char q[100];
		aieth__quote_str(q, sizeof q, schema);
		return aieth__fail(AIETH_EINVAL,
				   "%s: schema: \"%s\" is not a report this program "
				   "reads (\"aieth-report/1\" or \"aieth-report/2\")",
				   what, q);
	}
	if (rj_get(root, "run") && (rc = want_obj(what, "run", rj_get(root, "run"))))
		return rc;
	if (rj_get(root, "run") && (rc = want_str(what, "run", rj_get(root, "run"), "id", 0)))
		return rc;
	if (!rj_get(root, "tests"))
		return bad(what, "tests", "missing (required)");
	if ((rc = want_arr(what, "", root, "tests", MAX_TESTS, &tests)))
		return rc;
	for (i = 0; i < json_object_array_length(tests); i++) {
		jobj *t = json_object_array_get_idx(tests, i);
		snprintf(p, sizeof p, "tests[%zu]", i);
		if ((rc = want_obj(what, p, t)) || (rc = want_str(what, p, t, "name", 1)) ||
		    (rc = want_str(what, p, t, "board", 0)) ||
		    (rc = want_str(what, p, t, "backend", 0)) ||
		    (rc = want_num(what, p, t, "pl_clock_MHz", 0)) ||
		    (rc = check_regression(what, p, t)) ||
		    (rc = want_arr(what, p, t, "transactions", MAX_TXNS, &txns)))
			return rc;
		for (j = 0; txns && j < json_object_array_length(txns); j++) {
			char q[340];
			snprintf(q, sizeof q, "%.200s.transactions[%zu]", p, j);
			if ((rc = check_txn(what, q, json_object_array_get_idx(txns, j))))
				return rc;
		}
	}
	return 0;
}

int aieth_report_parse(aieth_report **out, const char *what, const char *text, size_t len)
{
	aieth_report *r;
	jobj *root = NULL;
	int rc;
	if (!out || !what || (!text && len))
		return aieth__fail(AIETH_EINVAL, "aieth_report_parse: NULL argument");
	*out = NULL;
	if ((rc = jstrict_parse_object(what, text, len, AIETH_REPORT_MAX_FILE, &root)))
		return rc;
	if ((rc = check_report(what, root))) {
		json_object_put(root);
		return rc;
	}
	r = calloc(1, sizeof *r);
	if (!r) {
		json_object_put(root);
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	}
	r->root = root;
	r->run = rj_get(root, "run");
	r->env = rj_get(root, "environment");
	r->tests = rj_get(root, "tests");
	r->finished = 1;
	*out = r;
	return AIETH_OK;
}

int aieth_report_load(aieth_report **out, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int rc;
	aieth__error_clear();
	if (!out || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_report_load: NULL argument");
	*out = NULL;
	if ((rc = aieth__read_file(path, AIETH_REPORT_MAX_FILE, &text, &len)))
		return rc;
	rc = aieth_report_parse(out, path, text, len);
	free(text);
	return rc;
}
