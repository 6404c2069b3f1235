/* SPDX-License-Identifier: MIT */
/*
 * history_add.c - recording a report: one write transaction per report
 * (BEGIN IMMEDIATE: writers queue on the database lock, each run whole or
 * not at all), idempotent by the run's key.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "history/history_internal.h"
#include "report/report_model.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/json_strict.h"

static void bind_num(sqlite3_stmt *st, int i, int has, double v)
{
	if (has && isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static int insert_figs(struct aieth_history *h, sqlite3_stmt *st, sqlite3_int64 test,
		       const hist_test *t)
{
	size_t i;
	for (i = 0; i < t->nf; i++) {
		const hist_fig *f = &t->f[i];
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, test);
		sqlite3_bind_text(st, 2, aieth__hist_kind_name[f->kind], -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, f->txn_index);
		sqlite3_bind_text(st, 4, f->txn, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, f->a, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, f->b, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 7, aieth__hist_metric_name[f->metric], -1, SQLITE_STATIC);
		bind_num(st, 8, f->has, f->value);
		bind_num(st, 9, 1, f->thr_min);
		bind_num(st, 10, 1, f->thr_max);
		bind_num(st, 11, 1, f->tol_pct);
		bind_num(st, 12, f->has_stats, f->smin);
		bind_num(st, 13, f->has_stats, f->smax);
		bind_num(st, 14, f->has_stats, f->smad);
		if (f->has_stats)
			sqlite3_bind_int64(st, 15, f->nruns);
		else
			sqlite3_bind_null(st, 15);
		if (sqlite3_step(st) != SQLITE_DONE)
			return aieth__hist_db_fail(h, "recording a figure");
	}
	return 0;
}

int aieth__hist_insert(struct aieth_history *h, const hist_run *run, const char *report_path,
		       const char *label, int *added)
{
	sqlite3_stmt *q = NULL, *ins_run = NULL, *ins_test = NULL, *ins_fig = NULL;
	sqlite3_int64 rid;
	size_t i;
	int rc = 0;
	if (added)
		*added = 0;
	if (h->read_only)
		return aieth__fail(AIETH_ESTATE, "history %s: opened read-only", h->path);
	if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL))
		return aieth__hist_db_fail(h, "starting a transaction");
	if (sqlite3_prepare_v2(h->db, "SELECT 1 FROM runs WHERE run_key=?", -1, &q, NULL)) {
		rc = aieth__hist_db_fail(h, "looking the run up");
		goto out;
	}
	sqlite3_bind_text(q, 1, run->key, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) { /* there already: idempotent */
		rc = 0;
		goto out;
	}
	if (rc != SQLITE_DONE) {
		rc = aieth__hist_db_fail(h, "looking the run up");
		goto out;
	}
	rc = 0;
	if (sqlite3_prepare_v2(
		    h->db,
		    "INSERT INTO runs(run_key, run_id, started_at, t, label, host, status,"
		    " exit_code, report_path, added_at)"
		    " VALUES(?,?,?,?,?,?,?,?,?,?)",
		    -1, &ins_run, NULL) ||
	    sqlite3_prepare_v2(h->db,
			       "INSERT INTO tests(run, name, board, backend, status)"
			       " VALUES(?,?,?,?,?)",
			       -1, &ins_test, NULL) ||
	    sqlite3_prepare_v2(
		    h->db,
		    "INSERT INTO figures(test, kind, txn_index, txn, a, b, metric, value,"
		    " thr_min, thr_max, tol_pct, stat_min, stat_max, stat_mad, stat_runs)"
		    " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		    -1, &ins_fig, NULL)) {
		rc = aieth__hist_db_fail(h, "preparing the insert");
		goto out;
	}
	sqlite3_bind_text(ins_run, 1, run->key, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_run, 2, run->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_run, 3, run->started_at, -1, SQLITE_STATIC);
	sqlite3_bind_double(ins_run, 4, run->t);
	sqlite3_bind_text(ins_run, 5, label ? label : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_run, 6, run->host, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_run, 7, run->status, -1, SQLITE_STATIC);
	sqlite3_bind_int(ins_run, 8, run->exit_code);
	sqlite3_bind_text(ins_run, 9, report_path ? report_path : "", -1, SQLITE_STATIC);
	sqlite3_bind_double(ins_run, 10, aieth__now());
	if (sqlite3_step(ins_run) != SQLITE_DONE) {
		rc = aieth__hist_db_fail(h, "recording the run");
		goto out;
	}
	rid = sqlite3_last_insert_rowid(h->db);
	for (i = 0; i < run->nt && !rc; i++) {
		const hist_test *t = &run->tests[i];
		sqlite3_reset(ins_test);
		sqlite3_bind_int64(ins_test, 1, rid);
		sqlite3_bind_text(ins_test, 2, t->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins_test, 3, t->board, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins_test, 4, t->backend, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins_test, 5, t->status, -1, SQLITE_STATIC);
		if (sqlite3_step(ins_test) != SQLITE_DONE)
			rc = aieth__hist_db_fail(h, "recording a test");
		else
			rc = insert_figs(h, ins_fig, sqlite3_last_insert_rowid(h->db), t);
	}
	if (!rc && sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL))
		rc = aieth__hist_db_fail(h, "committing the run");
	if (!rc && added)
		*added = 1;
out:
	sqlite3_finalize(q);
	sqlite3_finalize(ins_run);
	sqlite3_finalize(ins_test);
	sqlite3_finalize(ins_fig);
	if (rc || (added && !*added)) /* nothing half-written */
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* The report's path as recorded: absolute, so that a page written
 * elsewhere links to it; as given when it cannot be resolved. */
static char *abs_path(const char *p)
{
	char buf[PATH_MAX];
	if (p && *p && realpath(p, buf))
		return strdup(buf);
	return strdup(p ? p : "");
}

static int add_tree(struct aieth_history *h, struct json_object *root, const char *what,
		    const char *path, const char *label, int *added)
{
	hist_run run;
	char *ap;
	int rc;
	if ((rc = aieth__hist_read_report(&run, what, root)))
		return rc;
	if (!(ap = abs_path(path))) {
		aieth__hist_run_free(&run);
		return aieth__fail(AIETH_ENOMEM, "history: out of memory");
	}
	rc = aieth__hist_insert(h, &run, ap, label, added);
	free(ap);
	aieth__hist_run_free(&run);
	return rc;
}

int aieth__hist_add_text(struct aieth_history *h, const char *what, const char *text, size_t len,
			 const char *path, const char *label, int *added)
{
	struct json_object *root = NULL;
	int rc;
	if (added)
		*added = 0;
	if ((rc = aieth__jstrict_parse_object(what, text, len, AIETH_REPORT_MAX_FILE, &root)))
		return rc;
	rc = add_tree(h, root, what, path, label, added);
	json_object_put(root);
	return rc;
}

int aieth_history_add_file(aieth_history *h, const char *report_json, const char *label, int *added)
{
	char *text = NULL;
	size_t len = 0;
	int rc;
	aieth__error_clear();
	if (added)
		*added = 0;
	if (!h || !report_json)
		return aieth__fail(AIETH_EINVAL, "aieth_history_add_file: NULL argument");
	if ((rc = aieth__read_file(report_json, AIETH_REPORT_MAX_FILE, &text, &len)))
		return rc;
	rc = aieth__hist_add_text(h, report_json, text, len, report_json, label, added);
	free(text);
	return rc;
}

int aieth_history_add_report(aieth_history *h, const aieth_report *r, const char *report_path,
			     const char *label, int *added)
{
	aieth__error_clear();
	if (added)
		*added = 0;
	if (!h || !r)
		return aieth__fail(AIETH_EINVAL, "aieth_history_add_report: NULL argument");
	return add_tree(h, r->root, report_path ? report_path : "report", report_path, label,
			added);
}
