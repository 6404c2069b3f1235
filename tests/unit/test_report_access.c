/* SPDX-License-Identifier: MIT */
/*
 * test_report_access.c - what a program standing on the public API reads
 * and sets of a report (the uploader, host/upload): report.json's bytes in
 * memory, the start instant, and the "uploads" member, refused whole when
 * it is not an array of objects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aieth.h"
#include "tu.h"

static aieth_report *fresh(void)
{
	static char *const argv[] = {"run_test", "--x"};
	aieth_report *r = NULL;
	CU_ASSERT_EQUAL_FATAL(aieth_report_new(&r, "run_test", 2, argv), AIETH_OK);
	return r;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b = calloc(1, (size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

static void test_json_is_the_file(void)
{
	aieth_report *r = fresh();
	const char *path = tu_tmpfile("");
	char *mem, *file;
	CU_ASSERT_EQUAL(aieth_report_finish(r), AIETH_OK);
	mem = aieth_report_json(r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	CU_ASSERT_EQUAL_FATAL(aieth_report_write_json(r, path), AIETH_OK);
	file = slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(file);
	CU_ASSERT_STRING_EQUAL(mem, file);
	CU_ASSERT_EQUAL(mem[strlen(mem) - 1], '\n');
	free(mem);
	free(file);
	CU_ASSERT_PTR_NULL(aieth_report_json(NULL));
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "NULL report"));
	aieth_report_free(r);
}

static void test_started(void)
{
	time_t before = time(NULL);
	aieth_report *r = fresh();
	double t = aieth_report_started(r);
	time_t after = time(NULL);
	CU_ASSERT_TRUE(t >= (double)before && t < (double)after + 1);
	CU_ASSERT_EQUAL(aieth_report_started(NULL), 0.0);
	aieth_report_free(r);
}

static void test_set_uploads(void)
{
	static const char good[] = "[{\"target\": \"a\", \"status\": \"sent\"}]";
	static const struct {
		const char *text;
		int rc;
	} bad[] = {
		{"{\"target\": \"a\"}", AIETH_EINVAL}, /* not an array */
		{"[1]", AIETH_EINVAL},                 /* an item that is not an object */
		{"null", AIETH_EINVAL},
		{"[{}] [{}]", AIETH_EPARSE}, /* two values */
		{"[{\"a\": ", AIETH_EPARSE}, /* cut short */
		{"[{\"a\": 1, \"a\": 2}]", AIETH_EPARSE},
		{"", AIETH_EPARSE},
	};
	aieth_report *r = fresh();
	char *j;
	size_t i;
	CU_ASSERT_EQUAL(aieth_report_set_uploads(r, good, strlen(good)), AIETH_OK);
	j = aieth_report_json(r);
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"uploads\": ["));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"status\": \"sent\""));
	free(j);
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		CU_ASSERT_EQUAL(aieth_report_set_uploads(r, bad[i].text, strlen(bad[i].text)),
				bad[i].rc);
		j = aieth_report_json(r);
		CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"status\": \"sent\"")); /* kept */
		free(j);
	}
	/* the length is the value's end: a NUL inside is not the end */
	CU_ASSERT_EQUAL(aieth_report_set_uploads(r, "[{}]\0[", 6), AIETH_EPARSE);
	CU_ASSERT_EQUAL(aieth_report_set_uploads(r, NULL, 0), AIETH_OK);
	j = aieth_report_json(r);
	CU_ASSERT_PTR_NULL(strstr(j, "\"uploads\""));
	free(j);
	CU_ASSERT_EQUAL(aieth_report_set_uploads(NULL, good, strlen(good)), AIETH_EINVAL);
	aieth_report_free(r);
}

TU_MAIN("report_access", {"report.json's bytes in memory", test_json_is_the_file},
	{"the start instant", test_started},
	{"uploads: an array of objects, else refused and kept", test_set_uploads})
