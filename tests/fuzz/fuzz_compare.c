/* SPDX-License-Identifier: MIT */
/*
 * fuzz_compare.c - libFuzzer target for the report reader and the baseline
 * comparison (harness/src/report/report_compare*.c).
 *
 * The input is a baseline report, optionally followed by a NUL byte and a
 * new report. Checked invariants:
 *  - aieth_report_parse either returns a report or fails with a message
 *    that starts with the file name;
 *  - a report compared with itself has no regression: exit 0, or 2 (refused)
 *    exactly when it has no test;
 *  - any two reports compare to exit 0, 1 or 2 with a table, and the
 *    comparison can be recorded in the new report.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static aieth_report *parse(const char *what, const char *text, size_t len)
{
	aieth_report *r = NULL;
	if (aieth_report_parse(&r, what, text, len) != AIETH_OK) {
		CHECK(r == NULL);
		CHECK(strncmp(aieth_error_message(), what, strlen(what)) == 0);
		return NULL;
	}
	CHECK(r != NULL);
	return r;
}

static int compare(aieth_report *base, aieth_report *now, int record)
{
	aieth_report_diff *d = NULL;
	char *txt;
	int code;
	CHECK(aieth_report_compare(&d, base, "base.json", now, -1) == AIETH_OK);
	code = aieth_report_diff_exit(d);
	CHECK(code >= 0 && code <= 2);
	txt = aieth_report_diff_text(d);
	CHECK(txt != NULL);
	free(txt);
	if (record) {
		/* a loaded report is not written again; finishing one that lacks
		 * "run" is refused (EINVAL), one with it is closed */
		CHECK(aieth_report_add_baseline(now, d) == AIETH_OK);
		code = aieth_report_finish(now);
		CHECK(code == AIETH_OK || code == AIETH_EINVAL);
		code = aieth_report_diff_exit(d);
		txt = aieth_report_text(now, -1);
		free(txt);
	}
	aieth_report_diff_free(d);
	return code;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(data, 0, size);
	size_t n1 = nul ? (size_t)(nul - text) : size;
	aieth_report *a = parse("base.json", text, n1), *b = NULL;
	if (a) {
		int code = compare(a, a, 0);
		CHECK(code == (aieth_report_num_tests(a) ? 0 : 2));
	}
	if (nul)
		b = parse("new.json", nul + 1, size - n1 - 1);
	if (a && b)
		compare(a, b, 1);
	aieth_report_free(a);
	aieth_report_free(b);
	return 0;
}
