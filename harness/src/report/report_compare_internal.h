/* SPDX-License-Identifier: MIT */
/*
 * report_compare_internal.h - the baseline comparison's rows, shared by the
 * comparison (report_compare.c) and its outputs (report_compare_out.c).
 */
#ifndef AIETH_REPORT_COMPARE_INTERNAL_H
#define AIETH_REPORT_COMPARE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* metrics, items and verdicts: indexes of the name tables below */
enum { M_THROUGHPUT, M_CYCLES, M_LAST, M_TOTAL, M_LATENCY, M_TEST };
enum { K_TXN, K_CHAN, K_LAT, K_TEST };
enum { V_OK, V_REGRESSION, V_IMPROVED, V_MISSING, V_UNFINISHED, V_NEW, V_NO_BASE, V_NOT_RUN };

/* One line of the table: a value that moved, or an item of one report. */
typedef struct {
	char *test, *txn, *a, *b;
	int64_t txn_index;
	int kind, metric, verdict, has_base, has_now;
	double base, now, change, tol; /* change: NAN when there is no percentage */
	size_t fail_test;              /* failing rows: the test of `now` it fails */
} row;

struct aieth_report_diff {
	char *base_name, *base_run, *refusal;
	double default_pct;
	int exit_code;
	size_t ntests;      /* tests of `now` */
	size_t *fails;      /* per test of `now`: failing rows */
	size_t *first_fail; /* per test of `now`: the index of its first failing row */
	row *rows;
	size_t nrows, cap;
	size_t compared, regressions, improvements, missing;
};

/* name comparisons made matching tests, in this thread (the unit test
 * checks the matching stays n log n) */
extern _Thread_local size_t aieth__rc_name_compares;

extern const char *const aieth__rc_metric_name[];
extern const char *const aieth__rc_verdict_name[];
extern const char *const aieth__rc_item_name[];

#endif
