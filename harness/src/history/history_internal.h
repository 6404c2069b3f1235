/* SPDX-License-Identifier: MIT */
/*
 * history_internal.h - the run history's pieces shared by its files: the
 * connection, a report read into figures (history_read.c), the statistics
 * of the gate (history_gate.c) used by the trend page too.
 */
#ifndef AIETH_HISTORY_INTERNAL_H
#define AIETH_HISTORY_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

struct aieth_history {
	sqlite3 *db;
	char *path;
	int read_only;
};

/* the schema's steps: aieth__hist_migrations[v - 1] takes a database from version
 * v - 1 to v (step 0 creates version 1) */
extern const char *const aieth__hist_migrations[];

/* kinds of figure and their metrics */
enum { HK_TXN, HK_CHAN, HK_LAT };
enum { HM_THROUGHPUT, HM_CYCLES, HM_TOTAL, HM_LATENCY, HM_COUNT };
extern const char *const aieth__hist_metric_name[];
extern const char *const aieth__hist_kind_name[];

/* One figure of one test: where (transaction, channel or latency) and its
 * value (has 0: null or absent), the spread of a repeated run. */
typedef struct {
	char *txn, *a, *b; /* b: a latency's "to" ("" otherwise) */
	int64_t txn_index;
	int kind, metric, has;
	double value;
	int has_stats;
	double smin, smax, smad;
	int64_t nruns;
	double thr_min, thr_max; /* NAN: none */
	double tol_pct;          /* the report's tolerance of this figure, NAN: none */
} hist_fig;

typedef struct {
	char *name, *board, *backend, *status;
	hist_fig *f;
	size_t nf, capf;
} hist_test;

typedef struct {
	char *key, *id, *started_at, *host, *status;
	double t; /* seconds since the epoch */
	int exit_code;
	hist_test *tests;
	size_t nt;
} hist_run;

/* Read a report tree (what names it in messages) into run; every value
 * the history keeps is checked (type, range). 0 or an aieth error. */
int aieth__hist_read_report(hist_run *run, const char *what, struct json_object *root);
void aieth__hist_run_free(hist_run *run);
/* Insert a read run in one transaction (idempotent by key). */
int aieth__hist_insert(struct aieth_history *h, const hist_run *run, const char *report_path,
		       const char *label, int *added);
/* Parse a report's text (what names it in messages) and record it:
 * aieth_history_add_file without the file (the fuzz target's entry). */
int aieth__hist_add_text(struct aieth_history *h, const char *what, const char *text, size_t len,
			 const char *path, const char *label, int *added);
/* Open over an already open connection (tests, fuzzing: ":memory:"). */
int aieth__hist_open_db(struct aieth_history **out, sqlite3 *db, const char *name, int read_only);
/* A failed SQLite call as an aieth error naming the database. */
int aieth__hist_db_fail(struct aieth_history *h, const char *what);

/* The gate rule on n baseline values (and their runs' own MADs, may be
 * NULL): the lower median, the MAD and the half-width of the band for a
 * tolerance in percent. */
typedef struct {
	double median, mad, noise, allowed;
	size_t n;
} hist_band;
void aieth__hist_band_of(hist_band *out, const double *v, const double *inner_mad, size_t n,
			 double tol_pct);
/* 1 when higher is better (throughput), else lower is. */
int aieth__hist_higher_better(int metric);
/* The lower median of n values (sorts v). */
double aieth__hist_lower_median(double *v, size_t n);

#endif
