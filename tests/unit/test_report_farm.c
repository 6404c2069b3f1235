/* SPDX-License-Identifier: MIT */
/*
 * test_report_farm.c - the farm writers: LAVA test case ids (the sanitizer's
 * rule), the LAVA signal lines and TAP 13 for tests that errored, were
 * skipped or interrupted (never a pass), YAML escaping of hostile messages,
 * and the TAP file writer's argument checks.
 */
#include <string.h>
#include <unistd.h>

#include "aieth.h"
#include "report/report_farm.h"
#include "tu.h"

static void test_id_rule(void)
{
	char b[AIETH_FARM_ID_MAX + 1];
	CU_ASSERT_EQUAL(aieth__farm_id(b, sizeof b, "adder_func.func.PLIO-01"), 23);
	CU_ASSERT_STRING_EQUAL(b, "adder_func.func.PLIO-01");
	aieth__farm_id(b, sizeof b, "a b=c<d>e/f#g\n\th");
	CU_ASSERT_STRING_EQUAL(b, "a_b_c_d_e_f_g__h");
	aieth__farm_id(b, sizeof b, "caf\xc3\xa9"); /* non-ASCII bytes: one '_' each */
	CU_ASSERT_STRING_EQUAL(b, "caf__");
	aieth__farm_id(b, sizeof b, "");
	CU_ASSERT_STRING_EQUAL(b, "_");
	aieth__farm_id(b, sizeof b, NULL);
	CU_ASSERT_STRING_EQUAL(b, "_");
}

static void test_id_bounds(void)
{
	char b[8], big[400];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	CU_ASSERT_EQUAL(aieth__farm_id(b, sizeof b, "abcdefghij"), 7);
	CU_ASSERT_STRING_EQUAL(b, "abcdefg");
	CU_ASSERT_EQUAL(aieth__farm_id(b, 1, "abc"), 0); /* no room for an id */
	CU_ASSERT_EQUAL(aieth__farm_id(NULL, 8, "abc"), 0);
	{
		char id[AIETH_FARM_ID_MAX + 1];
		CU_ASSERT_EQUAL(aieth__farm_id(id, sizeof id, big), AIETH_FARM_ID_MAX);
	}
}

/* A report with one test that errored with exit code CODE. */
static aieth_report *one_error(int code, const char *name, const char *msg)
{
	aieth_report *r = NULL;
	CU_ASSERT_EQUAL_FATAL(aieth_report_new(&r, "test", 0, NULL), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_add_error(r, name, "load", AIETH_EINVAL, msg, NULL, code),
			AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_finish(r), AIETH_OK);
	return r;
}

static void test_results_never_pass(void)
{
	static const struct {
		int code;
		const char *lava, *tap;
	} cases[] = {
		{AIETH_EXIT_INPUT, "RESULT=fail", "not ok 1 - t1\n"},
		{AIETH_EXIT_INFRA, "RESULT=fail", "not ok 1 - t1\n"},
		{AIETH_EXIT_TIMEOUT, "RESULT=fail", "not ok 1 - t1\n"},
		{AIETH_EXIT_SIGNAL + 2, "RESULT=unknown", "not ok 1 - t1\n"},
		{AIETH_EXIT_SKIP, "RESULT=skip", "ok 1 - t1 # SKIP\n"},
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		aieth_report *r = one_error(cases[i].code, "t1", "why");
		char *l = aieth_report_lava(r), *t = aieth_report_tap(r);
		CU_ASSERT_PTR_NOT_NULL_FATAL(l);
		CU_ASSERT_PTR_NOT_NULL_FATAL(t);
		CU_ASSERT_PTR_NOT_NULL(strstr(l, "<LAVA_SIGNAL_TESTSET START t1>\n"));
		CU_ASSERT_PTR_NOT_NULL(strstr(l, cases[i].lava));
		CU_ASSERT_PTR_NULL(strstr(l, "RESULT=pass"));
		CU_ASSERT_PTR_NOT_NULL(strstr(l, "<LAVA_SIGNAL_TESTSET STOP>\n"));
		CU_ASSERT_EQUAL(strncmp(t, "TAP version 13\n1..1\n", 20), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(t, cases[i].tap));
		free(l);
		free(t);
		aieth_report_free(r);
	}
}

/* Hostile names and messages: ids sanitized, YAML strings escaped. */
static void test_tap_escaping(void)
{
	aieth_report *r = one_error(AIETH_EXIT_INPUT, "a b\"#", "say \"hi\" \\ \x01\n\xff");
	char *t = aieth_report_tap(r), *l = aieth_report_lava(r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "not ok 1 - a_b__\n"));
	/* the report keeps a byte that is not UTF-8 as the text \xff
	 * (util/utf8.h); TAP escapes that text's backslash */
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "  message: \"say \\\"hi\\\" \\\\ \\x01\\x0a\\\\xff\"\n"));
	CU_ASSERT_PTR_NULL(strchr(t, '\xff'));
	CU_ASSERT_PTR_NOT_NULL(strstr(l, "TEST_CASE_ID=a_b__ RESULT=fail"));
	free(t);
	free(l);
	aieth_report_free(r);
}

static void test_tap_file(void)
{
	aieth_report *r = one_error(AIETH_EXIT_INFRA, "t", "m");
	const char *p = tu_tmpfile("old");
	char buf[4096];
	FILE *f;
	size_t n;
	CU_ASSERT_EQUAL(aieth_report_write_tap(r, p), AIETH_OK);
	f = fopen(p, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	CU_ASSERT_EQUAL(strncmp(buf, "TAP version 13\n1..1\nnot ok", 26) == 0 ||
				strncmp(buf, "TAP version 13\n1..1\n# test t\nnot ok 1 - t", 41) ==
					0,
			1);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "# run_test status error, exit 3\n"));
	unlink(p);
	CU_ASSERT_EQUAL(aieth_report_write_tap(NULL, p), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_report_write_tap(r, NULL), AIETH_EINVAL);
	CU_ASSERT_PTR_NULL(aieth_report_tap(NULL));
	CU_ASSERT_PTR_NULL(aieth_report_lava(NULL));
	aieth_report_free(r);
}

/* No test at all: an empty plan, no signals. */
static void test_empty(void)
{
	aieth_report *r = NULL;
	char *t, *l;
	CU_ASSERT_EQUAL_FATAL(aieth_report_new(&r, "test", 0, NULL), AIETH_OK);
	aieth_report_finish(r);
	t = aieth_report_tap(r);
	l = aieth_report_lava(r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_EQUAL(strncmp(t, "TAP version 13\n1..0\n", 20), 0);
	CU_ASSERT_STRING_EQUAL(l, "");
	free(t);
	free(l);
	aieth_report_free(r);
}

TU_MAIN("report_farm", {"id_rule", test_id_rule}, {"id_bounds", test_id_bounds},
	{"results_never_pass", test_results_never_pass}, {"tap_escaping", test_tap_escaping},
	{"tap_file", test_tap_file}, {"empty", test_empty})
