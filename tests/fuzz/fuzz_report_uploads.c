/* SPDX-License-Identifier: MIT */
/*
 * fuzz_report_uploads.c - libFuzzer target for aieth_report_set_uploads
 * (harness/src/report/report.c), the one member of a report a program
 * standing on the public API sets from text (the uploader).
 *
 * The input is the member's text (not NUL-terminated). Checked invariants:
 *  - it is accepted (AIETH_OK) or refused with AIETH_EPARSE, AIETH_EINVAL or
 *    AIETH_ENOMEM and a message naming the function;
 *  - refused, the report keeps the member it had, byte for byte;
 *  - accepted, report.json holds an "uploads" array and reads back as JSON.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "aieth.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char before[] = "[{\"target\": \"before\"}]";
	aieth_report *r = NULL;
	char *j0, *j1;
	int rc;
	if (aieth_report_new(&r, "fuzz", 0, NULL) != AIETH_OK)
		return 0;
	CHECK(aieth_report_set_uploads(r, before, strlen(before)) == AIETH_OK);
	j0 = aieth_report_json(r);
	rc = aieth_report_set_uploads(r, (const char *)data, size);
	j1 = aieth_report_json(r);
	if (j0 && j1) {
		if (rc == AIETH_OK) {
			struct json_object *o = json_tokener_parse(j1), *u = NULL;
			CHECK(o && json_object_object_get_ex(o, "uploads", &u) &&
			      json_object_is_type(u, json_type_array));
			json_object_put(o);
		} else {
			CHECK(rc == AIETH_EPARSE || rc == AIETH_EINVAL || rc == AIETH_ENOMEM);
			CHECK(strstr(aieth_error_message(), "aieth_report_set_uploads") != NULL);
			CHECK(strcmp(j0, j1) == 0);
		}
	}
	free(j0);
	free(j1);
	aieth_report_free(r);
	return 0;
}
