/* SPDX-License-Identifier: MIT */
/*
 * report_compare_load.c - reading a report.json back for a comparison
 * (run_test --baseline, run_test compare): the strict JSON reader, then a
 * check of every field the comparison uses, so that report_compare.c can
 * trust types. Other keys are left alone: newer reports carry more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "report/report_fields.h"
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

/* "regression": {throughput_pct, latency_pct, cycles_pct}, numbers >= 0. */
static int check_regression(const char *what, const char *path, jobj *o)
{
	static const char *const keys[] = {"throughput_pct", "latency_pct", "cycles_pct", NULL};
	char p[300];
	jobj *g = aieth__rj_get(o, "regression");
	size_t i;
	int rc;
	if (!g)
		return 0;
	snprintf(p, sizeof p, "%.200s.regression", path);
	if ((rc = aieth__rf_obj(what, p, g)) || (rc = aieth__jstrict_keys(what, p, g, keys)))
		return rc;
	for (i = 0; keys[i]; i++) {
		if (json_object_object_get_ex(g, keys[i], NULL) && !aieth__rj_get(g, keys[i])) {
			char q[340];
			snprintf(q, sizeof q, "%.200s.%s", p, keys[i]);
			return aieth__rf_bad(what, q, "expected a number, got null");
		}
		if ((rc = aieth__rf_num(what, p, g, keys[i], 0, NULL, NULL)))
			return rc;
	}
	return 0;
}

/* Repeated runs (aieth-report/2): o.stats.key, when there, is an object of
 * numbers >= min (the statistics the comparison may read). */
static int check_stats(const char *what, const char *path, jobj *o, const char *key, double min)
{
	static const char *const stats[] = {"median", "min", "max", "mean", NULL};
	char p[300], q[340];
	jobj *s = aieth__rj_get(o, "stats"), *v;
	size_t i;
	int rc;
	if (!s)
		return 0;
	snprintf(p, sizeof p, "%.200s.stats", path);
	if ((rc = aieth__rf_obj(what, p, s)) || !(v = aieth__rj_get(s, key)))
		return rc;
	snprintf(q, sizeof q, "%.200s.%s", p, key);
	if ((rc = aieth__rf_obj(what, q, v)))
		return rc;
	for (i = 0; stats[i]; i++)
		if ((rc = aieth__rf_num(what, q, v, stats[i], min, NULL, NULL)))
			return rc;
	return 0;
}

static int check_txn(const char *what, const char *path, jobj *t)
{
	char q[340];
	jobj *a;
	size_t i;
	int rc;
	if ((rc = aieth__rf_obj(what, path, t)) ||
	    (rc = aieth__rf_str(what, path, t, "name", 1, NULL)))
		return rc;
	if ((rc = aieth__rf_index(what, path, t, "index", NULL)) ||
	    (rc = aieth__rf_num(what, path, t, "total_cycles", 0, NULL, NULL)) ||
	    (rc = check_stats(what, path, t, "total_cycles", 0)) ||
	    (rc = check_regression(what, path, t)) ||
	    (rc = aieth__rf_arr(what, path, t, "channels", MAX_ITEMS, &a)))
		return rc;
	for (i = 0; a && i < json_object_array_length(a); i++) {
		jobj *c = json_object_array_get_idx(a, i);
		snprintf(q, sizeof q, "%.200s.channels[%zu]", path, i);
		if ((rc = aieth__rf_obj(what, q, c)) ||
		    (rc = aieth__rf_str(what, q, c, "plio", 1, NULL)) ||
		    (rc = aieth__rf_num(what, q, c, "throughput_MBps", 0, NULL, NULL)) ||
		    (rc = aieth__rf_num(what, q, c, "cycles", 0, NULL, NULL)) ||
		    (rc = aieth__rf_num(what, q, c, "last_cycle", 0, NULL, NULL)) ||
		    (rc = check_stats(what, q, c, "throughput_MBps", 0)) ||
		    (rc = check_stats(what, q, c, "cycles", 0)) ||
		    (rc = check_stats(what, q, c, "last_cycle", 0)))
			return rc;
	}
	if ((rc = aieth__rf_arr(what, path, t, "latencies", MAX_ITEMS, &a)))
		return rc;
	for (i = 0; a && i < json_object_array_length(a); i++) {
		jobj *l = json_object_array_get_idx(a, i);
		snprintf(q, sizeof q, "%.200s.latencies[%zu]", path, i);
		if ((rc = aieth__rf_obj(what, q, l)) ||
		    (rc = aieth__rf_str(what, q, l, "from", 1, NULL)) ||
		    (rc = aieth__rf_str(what, q, l, "to", 1, NULL)) ||
		    (rc = aieth__rf_num(what, q, l, "cycles", -1e300, NULL, NULL)) ||
		    (rc = check_stats(what, q, l, "cycles", -1e300)))
			return rc;
	}
	return 0;
}

/* "repeat" (aieth-report/2): its statistic names what is compared. */
static int check_repeat(const char *what, const char *path, jobj *t)
{
	static const char *const names[] = {"median", "min", "max", "mean", NULL};
	char p[300];
	jobj *r = aieth__rj_get(t, "repeat");
	size_t i;
	int rc;
	if (!r)
		return 0;
	snprintf(p, sizeof p, "%.200s.repeat", path);
	if ((rc = aieth__rf_obj(what, p, r)) ||
	    (rc = aieth__rf_str(what, p, r, "statistic", 0, NULL)))
		return rc;
	if (!aieth__rj_get(r, "statistic"))
		return 0;
	for (i = 0; names[i]; i++)
		if (!strcmp(aieth__rj_gets(r, "statistic"), names[i]))
			return 0;
	snprintf(p, sizeof p, "%.200s.repeat.statistic", path);
	return aieth__rf_bad(what, p, "expected one of median, min, max, mean");
}

static int check_report(const char *what, jobj *root)
{
	char p[300];
	jobj *tests, *txns;
	size_t i, j;
	int rc;
	if ((rc = aieth__rf_schema(what, root, AIETH_EINVAL)))
		return rc;
	if (aieth__rj_get(root, "run") &&
	    (rc = aieth__rf_obj(what, "run", aieth__rj_get(root, "run"))))
		return rc;
	if (aieth__rj_get(root, "run") &&
	    (rc = aieth__rf_str(what, "run", aieth__rj_get(root, "run"), "id", 0, NULL)))
		return rc;
	if (!aieth__rj_get(root, "tests"))
		return aieth__rf_bad(what, "tests", "missing (required)");
	if ((rc = aieth__rf_arr(what, "", root, "tests", MAX_TESTS, &tests)))
		return rc;
	for (i = 0; i < json_object_array_length(tests); i++) {
		jobj *t = json_object_array_get_idx(tests, i);
		snprintf(p, sizeof p, "tests[%zu]", i);
		if ((rc = aieth__rf_obj(what, p, t)) ||
		    (rc = aieth__rf_str(what, p, t, "name", 1, NULL)) ||
		    (rc = aieth__rf_str(what, p, t, "board", 0, NULL)) ||
		    (rc = aieth__rf_str(what, p, t, "backend", 0, NULL)) ||
		    (rc = aieth__rf_num(what, p, t, "pl_clock_MHz", 0, NULL, NULL)) ||
		    (rc = check_regression(what, p, t)) || (rc = check_repeat(what, p, t)) ||
		    (rc = aieth__rf_arr(what, p, t, "transactions", MAX_TXNS, &txns)))
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
	if ((rc = aieth__jstrict_parse_object(what, text, len, AIETH_REPORT_MAX_FILE, &root)))
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
	r->run = aieth__rj_get(root, "run");
	r->env = aieth__rj_get(root, "environment");
	r->tests = aieth__rj_get(root, "tests");
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
