/* SPDX-License-Identifier: MIT */
/*
 * test_validate.c - run_test validate's library side: the options struct
 * (versioned, refused fields named), the verdict names, and the suite on
 * the emulated board: the numbered tests, SKIPPED reasons, exit codes.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "aieth.h"
#include "tu.h"

static void test_opts(void)
{
	aieth_validate_opts o = AIETH_VALIDATE_OPTS_INIT;
	aieth_report *r = NULL;
	TU_OPTS_INIT(aieth_validate_opts, AIETH_VALIDATE_OPTS_INIT, aieth_validate_opts_init,
		     AIETH_VALIDATE_OPTS_VERSION);
	CU_ASSERT_EQUAL(aieth_report_new(&r, "test", 0, NULL), AIETH_OK);
	TU_OPTS_REFUSED(aieth_report_validate(r, &o), o.version, "aieth_validate_opts",
			"AIETH_VALIDATE_OPTS_INIT", AIETH_VALIDATE_OPTS_VERSION);
	o.level = 4;
	CU_ASSERT_EQUAL(aieth_report_validate(r, &o), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "level 4"));
	o.level = 1;
	o.soak_s = AIETH_VALIDATE_MAX_SOAK_S + 1;
	CU_ASSERT_EQUAL(aieth_report_validate(r, &o), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "soak_s 86401"));
	o.soak_s = 0;
	o.backend = "nosuch";
	CU_ASSERT_EQUAL(aieth_report_validate(r, &o), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth_report_num_tests(r), 0); /* nothing recorded */
	CU_ASSERT_EQUAL(aieth_report_validate(NULL, NULL), AIETH_EINVAL);
	aieth_report_free(r);
}

static void test_names(void)
{
	CU_ASSERT_STRING_EQUAL(aieth_validate_verdict_name(AIETH_VALIDATE_PASSED), "PASSED");
	CU_ASSERT_STRING_EQUAL(aieth_validate_verdict_name(AIETH_VALIDATE_WARNINGS),
			       "PASSED WITH WARNINGS");
	CU_ASSERT_STRING_EQUAL(aieth_validate_verdict_name(AIETH_VALIDATE_FAILED), "FAILED");
	CU_ASSERT_STRING_EQUAL(aieth_validate_verdict_name(AIETH_VALIDATE_SKIPPED), "SKIPPED");
	CU_ASSERT_STRING_EQUAL(aieth_validate_verdict_name((aieth_validate_verdict)9), "unknown");
}

static unsigned seen, last_total;
static void progress(void *ctx, unsigned num, unsigned total, const char *name, int verdict,
		     const char *reason)
{
	(void)ctx;
	(void)name;
	(void)reason;
	if (verdict >= 0 && num == seen + 1)
		seen = num;
	last_total = total;
}

/* Level 1 on the emulated board, and a board that cannot be loaded. */
static void test_level1(void)
{
	aieth_validate_opts o = AIETH_VALIDATE_OPTS_INIT;
	aieth_report *r = NULL;
	char *js;
	o.data_dir = tu_src("");
	o.progress = progress;
	CU_ASSERT_EQUAL(aieth_report_new(&r, "test", 0, NULL), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_validate(r, &o), AIETH_OK);
	CU_ASSERT_EQUAL(seen, 8);
	CU_ASSERT_EQUAL(last_total, 8);
	CU_ASSERT_EQUAL(aieth_report_num_tests(r), 8);
	CU_ASSERT_EQUAL(aieth_report_finish(r), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_validate_exit_code(r), 0);
	js = aieth_report_text(r, 2);
	CU_ASSERT_PTR_NOT_NULL(js);
	free(js);
	aieth_report_free(r);

	o.board = "nosuch";
	o.progress = NULL;
	CU_ASSERT_EQUAL(aieth_report_new(&r, "test", 0, NULL), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_validate(r, &o), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_finish(r), AIETH_OK);
	CU_ASSERT_EQUAL(aieth_report_exit_code(r), AIETH_EXIT_INFRA);
	CU_ASSERT_EQUAL(aieth_validate_exit_code(r), AIETH_EXIT_SKIP);
	aieth_report_free(r);
}

TU_MAIN("validate", {"options", test_opts}, {"verdict names", test_names}, {"level 1", test_level1})
