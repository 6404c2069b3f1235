/* SPDX-License-Identifier: MIT */
/*
 * history_text.c - the table of recorded runs (run_test history show):
 * one line per test of each run, newest last.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "history/history_internal.h"
#include "util/error.h"
#include "util/sbuf.h"

/* a cell: white space and control bytes shown as _ (names are user input) */
static void cell(sbuf *b, const char *s, int width)
{
	int n = 0;
	for (; s && *s; s++, n++) {
		unsigned char ch = (unsigned char)*s;
		char c = ch <= ' ' || ch == 0x7f ? '_' : (char)ch;
		aieth__sb_put(b, &c, 1);
	}
	if (!n)
		aieth__sb_put(b, "-", 1), n = 1;
	for (; n < width; n++)
		aieth__sb_put(b, " ", 1);
	aieth__sb_put(b, " ", 1);
}

int aieth_history_text(aieth_history *h, const char *test, unsigned int last, char **out)
{
	sqlite3_stmt *st = NULL;
	sbuf b = SB_INIT(SB_DOC_MAX);
	size_t rows = 0;
	int rc;
	aieth__error_clear();
	if (!h || !out)
		return aieth__fail(AIETH_EINVAL, "aieth_history_text: NULL argument");
	*out = NULL;
	if (!last)
		last = 20;
	if (sqlite3_prepare_v2(
		    h->db,
		    "SELECT r.started_at, r.label, t.name, t.board, t.backend, t.status,"
		    " (SELECT min(value) FROM figures f WHERE f.test=t.id"
		    "  AND f.metric='throughput_MBps'),"
		    " (SELECT max(value) FROM figures f WHERE f.test=t.id"
		    "  AND f.metric='total_cycles'), r.run_key"
		    " FROM runs r JOIN tests t ON t.run=r.id"
		    " WHERE r.id IN (SELECT r2.id FROM runs r2 WHERE ?1 IS NULL OR EXISTS"
		    "  (SELECT 1 FROM tests t2 WHERE t2.run=r2.id AND t2.name=?1)"
		    "  ORDER BY r2.t DESC, r2.id DESC LIMIT ?2)"
		    " AND (?1 IS NULL OR t.name=?1) ORDER BY r.t, r.id, t.id",
		    -1, &st, NULL))
		return aieth__hist_db_fail(h, "listing its runs");
	if (test)
		sqlite3_bind_text(st, 1, test, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, last);
	aieth__sb_printf(&b, "%-20s %-12s %-24s %-8s %-7s %-7s %12s %12s %s\n", "STARTED", "LABEL",
			 "TEST", "BOARD", "BACKEND", "STATUS", "MIN_MBPS", "TOTAL_CYCLES", "RUN");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int i;
		static const int w[] = {20, 12, 24, 8, 7, 7};
		for (i = 0; i < 6; i++)
			cell(&b, (const char *)sqlite3_column_text(st, i), w[i]);
		if (sqlite3_column_type(st, 6) == SQLITE_NULL)
			aieth__sb_printf(&b, "%12s ", "-");
		else
			aieth__sb_printf(&b, "%12.2f ", sqlite3_column_double(st, 6));
		if (sqlite3_column_type(st, 7) == SQLITE_NULL)
			aieth__sb_printf(&b, "%12s ", "-");
		else
			aieth__sb_printf(&b, "%12.0f ", sqlite3_column_double(st, 7));
		cell(&b, (const char *)sqlite3_column_text(st, 8), 0);
		if (!b.oom)
			b.p[b.n - 1] = '\n'; /* in place of the cell's trailing space */
		rows++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		aieth__sb_free(&b);
		return aieth__hist_db_fail(h, "listing its runs");
	}
	if (!rows)
		aieth__sb_printf(&b, "(no runs%s%s)\n", test ? " of test " : "", test ? test : "");
	if ((rc = aieth__sb_check(&b, "history table"))) {
		aieth__sb_free(&b);
		return rc;
	}
	*out = aieth__sb_take(&b);
	return 0;
}
