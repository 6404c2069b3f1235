/* SPDX-License-Identifier: MIT */
/* test_history.c - the run history: add and its idempotence, damaged and
 * foreign reports, the schema's migration from version 1 and the refusal of
 * a newer one or of a file that is not a history, the gate rule on
 * hand-made values (lower median, MAD band, no baseline, median of the
 * last K, failed runs and the run itself left out) and its record. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "history/history_internal.h"
#include "report/report_model.h"
#include "tu.h"

#define MSG_HAS(s)                                                           \
	do {                                                                 \
		if (!strstr(aieth_error_message(), (s)))                     \
			fprintf(stderr, "\n  message: %s\n  expected: %s\n", \
				aieth_error_message(), (s));                 \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)));  \
	} while (0)

static char dir[64];

static const char *db_path(const char *name)
{
	static char p[128];
	if (!*dir) {
		snprintf(dir, sizeof dir, "/tmp/test_history.XXXXXX");
		if (!mkdtemp(dir))
			abort();
	}
	snprintf(p, sizeof p, "%s/%s", dir, name);
	unlink(p);
	return p;
}

/* A report of test "t" (run id, second of its start, status, the
 * throughput of channel P and the transaction's total cycles); stats: a
 * /2 report with the channel's repeat statistics. */
static const char *report(char *buf, size_t n, const char *id, int sec, const char *status,
			  double mbps, double total, int stats)
{
	char st[400] = "";
	if (stats)
		snprintf(
			st, sizeof st,
			", \"stats\": {\"throughput_MBps\": {\"median\": %.17g, \"min\": 1, "
			"\"max\": 9999, \"mean\": 1, \"stddev\": 1, \"mad\": 2.5, \"runs\": [1, 2, "
			"3]}}",
			mbps);
	snprintf(buf, n,
		 "{\"schema\": \"aieth-report/%d\", \"run\": {\"id\": \"%s\", \"started_at\": "
		 "\"2026-01-01T00:%02d:%02dZ\", \"status\": \"%s\", \"exit_code\": 0, \"argv\": "
		 "[\"run_test\"]}, \"environment\": {\"hostname\": \"h1\", \"board\": \"vck190\", "
		 "\"backend\": \"emu\"}, \"tests\": [{\"name\": \"t\", \"board\": \"vck190\", "
		 "\"backend\": \"emu\", \"status\": \"%s\", \"transactions\": [{\"index\": 0, "
		 "\"name\": \"tx\", \"total_cycles\": %.17g, \"channels\": [{\"plio\": \"P\", "
		 "\"throughput_MBps\": %.17g, \"cycles\": 1024, \"thresholds\": [{\"metric\": "
		 "\"throughput_MBps\", \"min\": 10, \"measured\": 1, \"passed\": true}]%s}], "
		 "\"latencies\": [{\"from\": \"P\", \"to\": \"Q\", \"cycles\": 16, \"max_cycles\": "
		 "64}]}]}]}",
		 stats ? 2 : 1, id, sec / 60, sec % 60, status, status, total, mbps, st);
	return buf;
}

static int add(aieth_history *h, const char *id, int sec, const char *status, double mbps,
	       int stats)
{
	char text[4096];
	int added = -1;
	report(text, sizeof text, id, sec, status, mbps, 2000, stats);
	if (aieth_history_add_file(h, tu_tmpfile(text), "c", &added)) {
		fprintf(stderr, "\n  add: %s\n", aieth_error_message());
		return -1;
	}
	return added;
}

static uint64_t runs(aieth_history *h)
{
	uint64_t n = 0;
	CU_ASSERT_EQUAL(aieth_history_num_runs(h, &n), 0);
	return n;
}

static void t_opts(void)
{
	TU_OPTS_INIT(aieth_history_opts, AIETH_HISTORY_OPTS_INIT, aieth_history_opts_init,
		     AIETH_HISTORY_OPTS_VERSION);
}

static void t_add(void)
{
	aieth_history *h = NULL;
	char text[4096], *tab = NULL;
	const char *p = db_path("add.db");
	int added;
	CU_ASSERT_EQUAL_FATAL(aieth_history_open(&h, p, NULL), 0);
	CU_ASSERT_EQUAL(add(h, "100-1", 1, "pass", 100, 0), 1);
	CU_ASSERT_EQUAL(add(h, "100-1", 1, "pass", 100, 0), 0); /* idempotent by run id */
	CU_ASSERT_EQUAL(runs(h), 1);
	CU_ASSERT_EQUAL(add(h, "100-2", 2, "pass", 100, 1), 1); /* a /2 report */
	CU_ASSERT_EQUAL(runs(h), 2);
	{ /* its statistics are kept */
		sqlite3_stmt *st = NULL;
		CU_ASSERT_EQUAL(
			sqlite3_prepare_v2(h->db,
					   "SELECT stat_mad, stat_runs FROM figures WHERE "
					   "metric='throughput_MBps' AND stat_mad IS NOT NULL",
					   -1, &st, NULL),
			SQLITE_OK);
		CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_ROW);
		CU_ASSERT_DOUBLE_EQUAL(sqlite3_column_double(st, 0), 2.5, 1e-12);
		CU_ASSERT_EQUAL(sqlite3_column_int(st, 1), 3);
		sqlite3_finalize(st);
	}
	/* damaged, foreign, a bad value: named, nothing written */
	CU_ASSERT_EQUAL(aieth_history_add_file(h, tu_tmpfile("{\"schema\": \"aieth-report/1\","),
					       NULL, &added),
			AIETH_EPARSE);
	CU_ASSERT_EQUAL(added, 0);
	CU_ASSERT_EQUAL(
		aieth_history_add_file(h, tu_tmpfile("{\"schema\": \"other/1\"}"), NULL, &added),
		AIETH_EPARSE);
	MSG_HAS("is not a report this program reads");
	report(text, sizeof text, "100-3", 3, "pass", -5, 2000, 0);
	CU_ASSERT_EQUAL(aieth_history_add_file(h, tu_tmpfile(text), NULL, &added), AIETH_EPARSE);
	MSG_HAS("tests[0].transactions[0].channels[0].throughput_MBps");
	CU_ASSERT_EQUAL(aieth_history_add_file(h, "/nonexistent/report.json", NULL, &added),
			AIETH_EIO);
	CU_ASSERT_EQUAL(runs(h), 2);
	CU_ASSERT_EQUAL(aieth_history_text(h, "t", 0, &tab), 0);
	CU_ASSERT(tab && strstr(tab, "100-2@h1"));
	free(tab);
	aieth_history_close(h);
	/* read-only: nothing written */
	{
		aieth_history_opts o = AIETH_HISTORY_OPTS_INIT;
		o.read_only = 1;
		CU_ASSERT_EQUAL_FATAL(aieth_history_open(&h, p, &o), 0);
		CU_ASSERT_EQUAL(add(h, "100-4", 4, "pass", 1, 0), -1);
		MSG_HAS("read-only");
		aieth_history_close(h);
		CU_ASSERT_NOT_EQUAL(aieth_history_open(&h, db_path("none.db"), &o), 0);
		MSG_HAS("no such file");
	}
}

static void t_paths(void)
{
	aieth_history *h = NULL;
	char link[160], target[160];
	FILE *f;
	snprintf(target, sizeof target, "%s", db_path("target.db"));
	snprintf(link, sizeof link, "%s", db_path("link.db"));
	CU_ASSERT_EQUAL(symlink(target, link), 0);
	CU_ASSERT_EQUAL(aieth_history_open(&h, link, NULL), AIETH_EINVAL);
	MSG_HAS("a symbolic link");
	CU_ASSERT_EQUAL(access(target, F_OK), -1); /* the planted link's target not made */
	CU_ASSERT_EQUAL(aieth_history_open(&h, dir, NULL), AIETH_EINVAL);
	MSG_HAS("a folder");
	snprintf(target, sizeof target, "%s", db_path("text.db"));
	f = fopen(target, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("this is not a database, but long enough to look like one's header....\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(aieth_history_open(&h, target, NULL), AIETH_EPARSE);
	MSG_HAS("not an aieth history");
	unlink(link);
}

static void t_migration(void)
{
	const char *p = db_path("v1.db");
	sqlite3 *db = NULL;
	aieth_history *h = NULL;
	sqlite3_stmt *st = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(p, &db), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(db, aieth__hist_migrations[0], NULL, NULL, NULL), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(db,
				     "INSERT INTO runs VALUES(1,'k@h','k','2026-01-01T00:00:00Z',"
				     "1,'old','h','pass',0,'',0);"
				     "INSERT INTO tests VALUES(1,1,'t','vck190','emu','pass');"
				     "INSERT INTO figures VALUES(1,'channel',0,'tx','P','',"
				     "'throughput_MBps',100,NULL,NULL,NULL);",
				     NULL, NULL, NULL),
			SQLITE_OK);
	sqlite3_close(db);
	/* read-only: a version 1 database is not migrated, it says how */
	{
		aieth_history_opts o = AIETH_HISTORY_OPTS_INIT;
		o.read_only = 1;
		CU_ASSERT_NOT_EQUAL(aieth_history_open(&h, p, &o), 0);
		MSG_HAS("schema version 1");
	}
	CU_ASSERT_EQUAL_FATAL(aieth_history_open(&h, p, NULL), 0);
	CU_ASSERT_EQUAL(runs(h), 1); /* kept */
	CU_ASSERT_EQUAL(sqlite3_prepare_v2(h->db,
					   "SELECT value FROM meta WHERE key='schema_version'", -1,
					   &st, NULL),
			SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_ROW);
	CU_ASSERT_STRING_EQUAL((const char *)sqlite3_column_text(st, 0), "2");
	sqlite3_finalize(st);
	CU_ASSERT_EQUAL(add(h, "200-1", 1, "pass", 100, 1), 1); /* the new columns */
	CU_ASSERT_EQUAL(runs(h), 2);
	/* a newer version is refused, nothing written */
	CU_ASSERT_EQUAL(sqlite3_exec(h->db, "UPDATE meta SET value='99' WHERE key='schema_version'",
				     NULL, NULL, NULL),
			SQLITE_OK);
	aieth_history_close(h);
	CU_ASSERT_EQUAL(aieth_history_open(&h, p, NULL), AIETH_EPARSE);
	MSG_HAS("schema version 99 is newer than the 2");
	/* another program's SQLite file */
	p = db_path("other.db");
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(p, &db), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(db, "CREATE TABLE songs(x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	CU_ASSERT_EQUAL(aieth_history_open(&h, p, NULL), AIETH_EPARSE);
	MSG_HAS("not an aieth history");
}

static void t_band(void)
{
	double v[] = {100, 102, 98, 101, 99}, e[] = {4, 1, 3, 2}, inner[] = {0, 0, 5, 5, 5};
	hist_band b;
	CU_ASSERT_DOUBLE_EQUAL(aieth__hist_lower_median(e, 4), 2, 0); /* lower median of 4 */
	aieth__hist_band_of(&b, v, NULL, 5, 5);
	CU_ASSERT_EQUAL(b.n, 5);
	CU_ASSERT_DOUBLE_EQUAL(b.median, 100, 0);
	CU_ASSERT_DOUBLE_EQUAL(b.mad, 1, 0); /* |dev| 0 2 2 1 1 -> 1 */
	CU_ASSERT_DOUBLE_EQUAL(b.noise, 3 * 1.4826, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(b.allowed, 5 + 3 * 1.4826, 1e-12);
	/* the runs' own spread when larger than the spread between them */
	aieth__hist_band_of(&b, v, inner, 5, 0);
	CU_ASSERT_DOUBLE_EQUAL(b.noise, 3 * 1.4826 * 5, 1e-12);
	CU_ASSERT(aieth__hist_higher_better(HM_THROUGHPUT) &&
		  !aieth__hist_higher_better(HM_CYCLES));
}

/* gate a report of throughput mbps (run id) against h: the exit code */
static int gate(aieth_history *h, const char *id, double mbps, unsigned last, char **text,
		aieth_report **keep)
{
	char buf[4096];
	aieth_report *r = NULL;
	aieth_history_gate *g = NULL;
	int code;
	report(buf, sizeof buf, id, 59, "pass", mbps, 2000, 0);
	CU_ASSERT_EQUAL_FATAL(aieth_report_parse(&r, "now.json", buf, strlen(buf)), 0);
	CU_ASSERT_EQUAL_FATAL(aieth_history_gate_report(&g, h, r, last, -1), 0);
	code = aieth_history_gate_exit(g);
	if (text)
		*text = aieth_history_gate_text(g);
	if (keep) {
		CU_ASSERT_EQUAL(aieth_report_add_history_gate(r, g), 0);
		*keep = r;
	} else {
		aieth_report_free(r);
	}
	aieth_history_gate_free(g);
	return code;
}

static void t_gate(void)
{
	aieth_history *h = NULL;
	char *txt = NULL;
	aieth_report *r = NULL;
	CU_ASSERT_EQUAL_FATAL(aieth_history_open(&h, db_path("gate.db"), NULL), 0);
	CU_ASSERT_EQUAL(add(h, "1-1", 1, "pass", 100, 0), 1);
	CU_ASSERT_EQUAL(add(h, "1-2", 2, "pass", 100, 0), 1);
	/* 2 runs: no baseline, never a failure */
	CU_ASSERT_EQUAL(gate(h, "9-9", 10, 0, &txt, NULL), 0);
	CU_ASSERT(txt && strstr(txt, "no baseline"));
	CU_ASSERT(txt && strstr(txt, "(2 passing runs, 3 needed)"));
	free(txt);
	/* failed runs do not make a baseline */
	CU_ASSERT_EQUAL(add(h, "1-3", 3, "fail", 10, 0), 1);
	CU_ASSERT_EQUAL(gate(h, "9-9", 10, 0, NULL, NULL), 0);
	CU_ASSERT_EQUAL(add(h, "1-4", 4, "pass", 104, 0), 1);
	/* median 100 of {100, 100, 104}, MAD 0: band 95..105 */
	CU_ASSERT_EQUAL(gate(h, "9-9", 96, 0, NULL, NULL), 0);
	CU_ASSERT_EQUAL(gate(h, "9-9", 94, 0, &txt, NULL), 1);
	CU_ASSERT(txt && strstr(txt, "regression"));
	CU_ASSERT(txt && strstr(txt, "95.00..105.00"));
	free(txt);
	/* the run itself is not its own baseline: 1-4 gated leaves 2 runs */
	CU_ASSERT_EQUAL(gate(h, "1-4", 10, 0, &txt, NULL), 0);
	CU_ASSERT(txt && strstr(txt, "no baseline"));
	free(txt);
	/* noise widens the band: {100, 100, 104, 90, 110} median 100, MAD 4:
	 * 5 + 3 x 1.4826 x 4 = 22.79 */
	CU_ASSERT_EQUAL(add(h, "1-5", 5, "pass", 90, 0), 1);
	CU_ASSERT_EQUAL(add(h, "1-6", 6, "pass", 110, 0), 1);
	CU_ASSERT_EQUAL(gate(h, "9-9", 78, 0, NULL, NULL), 0);
	CU_ASSERT_EQUAL(gate(h, "9-9", 77, 0, NULL, NULL), 1);
	/* median of the last K: three newer runs at 200 */
	CU_ASSERT_EQUAL(add(h, "1-7", 7, "pass", 200, 0), 1);
	CU_ASSERT_EQUAL(add(h, "1-8", 8, "pass", 200, 0), 1);
	CU_ASSERT_EQUAL(add(h, "1-9", 9, "pass", 200, 0), 1);
	CU_ASSERT_EQUAL(gate(h, "9-9", 150, 3, NULL, NULL), 1);  /* K 3: median 200 */
	CU_ASSERT_EQUAL(gate(h, "9-9", 150, 10, NULL, NULL), 0); /* K 10: median 104 */
	/* recorded in the report: the test fails, phase history_gate */
	CU_ASSERT_EQUAL(gate(h, "9-9", 150, 3, NULL, &r), 1);
	CU_ASSERT_EQUAL(aieth_report_finish(r), 0);
	CU_ASSERT_EQUAL(aieth_report_exit_code(r), 1);
	{
		struct json_object *o = NULL, *e = NULL, *t;
		CU_ASSERT(json_object_object_get_ex(r->root, "history_gate", &o));
		CU_ASSERT_STRING_EQUAL(json_object_get_string(json_object_object_get(o, "status")),
				       "regression");
		t = json_object_array_get_idx(json_object_object_get(r->root, "tests"), 0);
		CU_ASSERT(json_object_object_get_ex(t, "error", &e));
		CU_ASSERT_STRING_EQUAL(json_object_get_string(json_object_object_get(e, "phase")),
				       "history_gate");
	}
	aieth_report_free(r);
	aieth_history_close(h);
}

static void t_memory_db(void)
{
	sqlite3 *db = NULL;
	aieth_history *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(":memory:", &db), SQLITE_OK);
	CU_ASSERT_EQUAL_FATAL(aieth__hist_open_db(&h, db, ":memory:", 0), 0);
	CU_ASSERT_EQUAL(add(h, "5-1", 1, "pass", 1, 0), 1);
	CU_ASSERT_EQUAL(runs(h), 1);
	aieth_history_close(h);
}

static void cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (*dir && system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

static void t_cleanup(void) { cleanup(); }

TU_MAIN("history", {"opts", t_opts}, {"add", t_add}, {"paths", t_paths}, {"migration", t_migration},
	{"band", t_band}, {"gate", t_gate}, {"memory_db", t_memory_db}, {"cleanup", t_cleanup})
