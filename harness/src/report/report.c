/* SPDX-License-Identifier: MIT */
/*
 * report.c - the report object: run metadata, tests, exit codes, and the
 * report.json writer.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "report/report_model.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_strict.h"
#include "util/utf8.h"

struct json_object *aieth__rj_error(const char *phase, int code, const char *message,
				    const char *hint)
{
	struct json_object *e = aieth__rj_obj();
	aieth__rj_str(e, "phase", phase);
	aieth__rj_str(e, "code", aieth_error_name(code));
	aieth__rj_str(e, "message", message);
	if (hint)
		aieth__rj_str(e, "hint", hint);
	else
		aieth__rj_null(e, "hint");
	return e;
}

double aieth__now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void aieth__iso8601(double t, char *buf, size_t n)
{
	time_t s = (time_t)t;
	struct tm tm;
	gmtime_r(&s, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

const char *aieth__exit_status(int code)
{
	if (code > AIETH_EXIT_SIGNAL && code < 2 * AIETH_EXIT_SIGNAL)
		return "interrupted";
	switch (code) {
	case AIETH_EXIT_PASS: return "pass";
	case AIETH_EXIT_FAIL: return "fail";
	case AIETH_EXIT_SKIP: return "skip";
	case AIETH_EXIT_TIMEOUT: return "timeout";
	default: return "error";
	}
}

static int severity(int code)
{
	if (code > AIETH_EXIT_SIGNAL && code < 2 * AIETH_EXIT_SIGNAL)
		return 6; /* interrupted: nothing after it ran */
	switch (code) {
	case AIETH_EXIT_TIMEOUT: return 5;
	case AIETH_EXIT_INFRA: return 4;
	case AIETH_EXIT_INPUT: return 3;
	case AIETH_EXIT_FAIL: return 2;
	case AIETH_EXIT_SKIP: return 1;
	default: return 0;
	}
}

int aieth__exit_worst(int a, int b) { return severity(a) >= severity(b) ? a : b; }

int aieth_report_new(aieth_report **out, const char *tool, int argc, char *const *argv)
{
	aieth_report *r;
	struct json_object *cmd;
	char ts[32], host[256], id[64];
	int i;

	aieth__error_clear();
	if (!out)
		return aieth__fail(AIETH_EINVAL, "aieth_report_new: NULL out");
	*out = NULL;
	r = calloc(1, sizeof *r);
	if (!r)
		return aieth__fail(AIETH_ENOMEM, "report: out of memory");
	aieth__rj_oom_clear();
	r->t_start = aieth__now();
	r->root = aieth__rj_obj();
	r->run = aieth__rj_obj();
	r->env = aieth__rj_obj();
	r->tests = aieth__rj_arr();
	cmd = aieth__rj_arr();
	aieth__rj_str(r->root, "schema", AIETH_REPORT_SCHEMA);
	snprintf(id, sizeof id, "%.0f-%ld", r->t_start * 1e3, (long)getpid());
	aieth__rj_str(r->run, "id", id);
	aieth__iso8601(r->t_start, ts, sizeof ts);
	aieth__rj_str(r->run, "started_at", ts);
	aieth__rj_null(r->run, "finished_at");
	aieth__rj_null(r->run, "duration_s");
	aieth__rj_str(r->run, "status", "error"); /* until finished: missing results are an error */
	aieth__rj_int(r->run, "exit_code", AIETH_EXIT_INFRA);
	aieth__rj_str(r->run, "tool", tool ? tool : "libaieth");
	aieth__rj_str(r->run, "tool_version", aieth_version());
	for (i = 0; argv && i < argc; i++)
		aieth__rj_push_str(cmd, argv[i]);
	aieth__rj_set(r->run, "argv", cmd);
	if (gethostname(host, sizeof host) != 0)
		strcpy(host, "unknown");
	host[sizeof host - 1] = '\0';
	aieth__rj_str(r->env, "hostname", host);
	aieth__rj_set(r->root, "run", r->run);
	aieth__rj_set(r->root, "environment", r->env);
	aieth__rj_set(r->root, "tests", r->tests);
	if (aieth__rj_oom()) {
		aieth_report_free(r);
		return aieth__fail(AIETH_ENOMEM, "report: out of memory");
	}
	*out = r;
	return AIETH_OK;
}

void aieth_report_free(aieth_report *r)
{
	if (!r)
		return;
	json_object_put(r->root);
	free(r);
}

size_t aieth_report_num_tests(const aieth_report *r)
{
	return r ? json_object_array_length(r->tests) : 0;
}

/* Warning i of all tests, or NULL; *count gets how many there are. */
static const char *warning_at(const aieth_report *r, size_t i, size_t *count)
{
	size_t t, n = 0, k;
	const char *found = NULL;
	for (t = 0; r && t < json_object_array_length(r->tests); t++) {
		struct json_object *w =
			aieth__rj_get(json_object_array_get_idx(r->tests, t), "warnings");
		k = w && json_object_is_type(w, json_type_array) ? json_object_array_length(w) : 0;
		if (!found && i >= n && i < n + k)
			found = json_object_get_string(json_object_array_get_idx(w, i - n));
		n += k;
	}
	if (count)
		*count = n;
	return found;
}

size_t aieth_report_num_warnings(const aieth_report *r)
{
	size_t n;
	warning_at(r, 0, &n);
	return n;
}

const char *aieth_report_warning(const aieth_report *r, size_t i) { return warning_at(r, i, NULL); }

int aieth_report_add_error(aieth_report *r, const char *name, const char *phase, int code,
			   const char *message, const char *hint, int exit_code)
{
	struct json_object *t;
	if (!r)
		return aieth__fail(AIETH_EINVAL, "aieth_report_add_error: NULL report");
	t = aieth__rj_obj();
	aieth__rj_str(t, "name", name ? name : "run_test");
	aieth__rj_null(t, "spec");
	aieth__rj_str(t, "status", aieth__exit_status(exit_code));
	aieth__rj_int(t, "exit_code", exit_code);
	aieth__rj_num(t, "duration_s", 0.0);
	aieth__rj_set(t, "graphs", aieth__rj_arr());
	aieth__rj_set(t, "transactions", aieth__rj_arr());
	aieth__rj_set(t, "error", aieth__rj_error(phase, code, message, hint));
	aieth__rj_push(r->tests, t);
	return aieth__rj_oom() ? aieth__fail(AIETH_ENOMEM, "report: out of memory") : AIETH_OK;
}

int aieth_report_test_error(aieth_report *r, int index, const char *phase, int code,
			    const char *message, const char *hint, int exit_code)
{
	struct json_object *t;
	size_t n;
	int worst;
	if (!r)
		return aieth__fail(AIETH_EINVAL, "aieth_report_test_error: NULL report");
	n = json_object_array_length(r->tests);
	if (index < 0 ? n == 0 : (size_t)index >= n)
		return aieth__fail(AIETH_EINVAL, "aieth_report_test_error: no test %d (%zu tests)",
				   index, n);
	t = json_object_array_get_idx(r->tests, index < 0 ? n - 1 : (size_t)index);
	if (!aieth__rj_get(t, "error"))
		aieth__rj_set(t, "error", aieth__rj_error(phase, code, message, hint));
	worst = aieth__exit_worst((int)aieth__rj_geti(t, "exit_code"), exit_code);
	aieth__rj_str(t, "status", aieth__exit_status(worst));
	aieth__rj_int(t, "exit_code", worst);
	return aieth__rj_oom() ? aieth__fail(AIETH_ENOMEM, "report: out of memory") : AIETH_OK;
}

int aieth_report_finish(aieth_report *r)
{
	size_t i, n;
	int code = AIETH_EXIT_PASS, all_skipped = 1;
	double t;
	char ts[32];
	if (!r)
		return aieth__fail(AIETH_EINVAL, "aieth_report_finish: NULL report");
	/* a report read back (aieth_report_load) may lack both: nothing to
	 * close, and no out-of-memory flag raised by writing into nothing */
	if (!r->run || !r->tests)
		return aieth__fail(AIETH_EINVAL,
				   "aieth_report_finish: the report has no \"run\" or "
				   "\"tests\" (a loaded report is read only)");
	n = json_object_array_length(r->tests);
	for (i = 0; i < n; i++) {
		int c = (int)aieth__rj_geti(json_object_array_get_idx(r->tests, i), "exit_code");
		code = aieth__exit_worst(code, c);
		all_skipped &= c == AIETH_EXIT_SKIP;
	}
	/* no test at all is an error, never a pass; some skipped among
	 * passes is a pass */
	if (n == 0)
		code = AIETH_EXIT_INPUT;
	else if (code == AIETH_EXIT_SKIP && !all_skipped)
		code = AIETH_EXIT_PASS;
	t = aieth__now();
	aieth__iso8601(t, ts, sizeof ts);
	aieth__rj_str(r->run, "finished_at", ts);
	aieth__rj_num(r->run, "duration_s", t - r->t_start);
	aieth__rj_str(r->run, "status", aieth__exit_status(code));
	aieth__rj_int(r->run, "exit_code", code);
	{
		struct json_object *sum = aieth__rj_obj();
		int counts[7] = {0};
		for (i = 0; i < n; i++) {
			int c = (int)aieth__rj_geti(json_object_array_get_idx(r->tests, i),
						    "exit_code");
			counts[c >= 0 && c <= 5 ? c : c > AIETH_EXIT_SIGNAL ? 6 : 3]++;
		}
		aieth__rj_int(sum, "tests", (int64_t)n);
		aieth__rj_int(sum, "passed", counts[0]);
		aieth__rj_int(sum, "failed", counts[1]);
		aieth__rj_int(sum, "errors", counts[2] + counts[3]);
		aieth__rj_int(sum, "skipped", counts[4]);
		aieth__rj_int(sum, "timeouts", counts[5]);
		aieth__rj_int(sum, "interrupted", counts[6]);
		aieth__rj_set(r->root, "summary", sum);
	}
	r->finished = 1;
	return aieth__rj_oom() ? aieth__fail(AIETH_ENOMEM, "report: out of memory") : AIETH_OK;
}

int aieth_report_exit_code(const aieth_report *r)
{
	return r ? (int)aieth__rj_geti(r->run, "exit_code") : AIETH_EXIT_INFRA;
}

/* report.json's bytes: json-c's pretty print and a final newline. */
static char *json_text(const aieth_report *r, size_t *len)
{
	const char *txt = json_object_to_json_string_ext(
		r->root,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
	char *buf;
	size_t n;
	if (!txt)
		return NULL;
	n = strlen(txt);
	if (!(buf = malloc(n + 2)))
		return NULL;
	memcpy(buf, txt, n);
	buf[n++] = '\n';
	buf[n] = '\0';
	*len = n;
	return buf;
}

int aieth_report_write_json(const aieth_report *r, const char *path)
{
	size_t len;
	char *buf;
	int rc;
	if (!r || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_report_write_json: NULL argument");
	if (!(buf = json_text(r, &len)))
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	rc = aieth__write_atomic(path, buf, len);
	free(buf);
	return rc;
}

char *aieth_report_json(const aieth_report *r)
{
	size_t len;
	char *buf;
	if (!r) {
		aieth__fail(AIETH_EINVAL, "aieth_report_json: NULL report");
		return NULL;
	}
	if (!(buf = json_text(r, &len)))
		aieth__fail(AIETH_ENOMEM, "aieth_report_json: out of memory");
	return buf;
}

double aieth_report_started(const aieth_report *r) { return r ? r->t_start : 0.0; }

/* The uploader's record (docs/report-schema.md, "uploads"): an array of
 * objects, parsed whole; anything else is refused and the report keeps
 * what it had. */
int aieth_report_set_uploads(aieth_report *r, const char *json, size_t len)
{
	struct json_object *v = NULL;
	int rc;
	if (!r)
		return aieth__fail(AIETH_EINVAL, "aieth_report_set_uploads: NULL report");
	if (!json) {
		json_object_object_del(r->root, "uploads");
		return AIETH_OK;
	}
	if ((rc = aieth__jstrict_parse("aieth_report_set_uploads", json, len, &v)))
		return rc;
	if (!json_object_is_type(v, json_type_array)) {
		json_object_put(v);
		return aieth__fail(AIETH_EINVAL, "aieth_report_set_uploads: not a JSON array");
	}
	for (size_t i = 0; i < json_object_array_length(v); i++)
		if (!json_object_is_type(json_object_array_get_idx(v, i), json_type_object)) {
			json_object_put(v);
			return aieth__fail(AIETH_EINVAL,
					   "aieth_report_set_uploads: item %zu is not an object",
					   i);
		}
	json_object_object_del(r->root, "uploads");
	if (json_object_object_add(r->root, "uploads", v)) {
		json_object_put(v);
		return aieth__fail(AIETH_ENOMEM, "aieth_report_set_uploads: out of memory");
	}
	return AIETH_OK;
}
