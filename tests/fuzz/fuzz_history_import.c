/* SPDX-License-Identifier: MIT */
/*
 * fuzz_history_import.c - libFuzzer target for the run history's import of
 * a report.json text (harness/src/history/history_read.c, history_add.c)
 * into an in-memory database. Checked invariants:
 *  - the import either records the run or fails with a message that starts
 *    with the file name, the database left without it (nothing
 *    half-written);
 *  - a second import of the same text records nothing (idempotent);
 *  - the table, the trend page and a gate of the report (when the report
 *    reader takes it) work on whatever was recorded; the run gated
 *    against a history holding only itself has no baseline.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "fuzz_check.h"
#include "history/history_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t count(aieth_history *h)
{
	uint64_t n = 0;
	CHECK(aieth_history_num_runs(h, &n) == AIETH_OK);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sqlite3 *db = NULL;
	aieth_history *h = NULL;
	aieth_report *r = NULL;
	char *txt = NULL;
	int added = -1, rc;
	if (size > (1u << 20))
		return 0;
	CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
	CHECK(aieth__hist_open_db(&h, db, ":memory:", 0) == AIETH_OK);
	rc = aieth__hist_add_text(h, "in.json", (const char *)data, size, NULL, "fuzz", &added);
	if (rc != AIETH_OK) {
		CHECK(added == 0);
		CHECK(strncmp(aieth_error_message(), "in.json", 7) == 0);
		CHECK(count(h) == 0);
	} else {
		CHECK(added == 1);
		CHECK(count(h) == 1);
		CHECK(aieth__hist_add_text(h, "in.json", (const char *)data, size, NULL, NULL,
					   &added) == AIETH_OK);
		CHECK(added == 0);
		CHECK(count(h) == 1);
	}
	CHECK(aieth_history_text(h, NULL, 0, &txt) == AIETH_OK && txt);
	free(txt);
	CHECK(aieth_history_write_html(h, "/dev/null", 0) == AIETH_OK);
	if (aieth_report_parse(&r, "in.json", (const char *)data, size) == AIETH_OK) {
		aieth_history_gate *g = NULL;
		/* the reader takes what the import may refuse (a bad time) */
		if (aieth_history_gate_report(&g, h, r, 0, -1) == AIETH_OK) {
			CHECK(aieth_history_gate_exit(g) == 0);
			txt = aieth_history_gate_text(g);
			CHECK(txt != NULL);
			free(txt);
			CHECK(aieth_report_add_history_gate(r, g) == AIETH_OK);
			aieth_history_gate_free(g);
		}
		aieth_report_free(r);
	}
	aieth_history_close(h);
	return 0;
}
