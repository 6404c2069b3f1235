/* SPDX-License-Identifier: MIT */
/*
 * aieth/compare.h - regression gates: a report compared with a baseline
 * (docs/farm.md, "Regression gates").
 */
#ifndef AIETH_PUBLIC_COMPARE_H
#define AIETH_PUBLIC_COMPARE_H

#include <stddef.h>

#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AIETH_REGRESSION_DEFAULT_PCT 5.0

/* The comparison of a report with a baseline. */
typedef struct aieth_report_diff aieth_report_diff;

/* Compare `now` with `base` (base_name names it in messages, e.g. its
 * path): per channel throughput_MBps, cycles and last_cycle, per
 * transaction total_cycles, per latency cycles, matched by test name,
 * transaction index and name, and PLIO (latencies: from and to). A change
 * beyond the tolerance in the bad direction is a regression; a value of the
 * baseline missing from `now` (or unfinished there) is one too. Tolerances
 * in percent: `now`'s transaction or test "regression" object, else
 * default_pct (< 0: AIETH_REGRESSION_DEFAULT_PCT). A baseline from another
 * board, PL clock or backend kind, or sharing no test name, is refused: the
 * diff says so (aieth_report_diff_exit 2). Fails only on a bad argument or
 * out of memory. */
int aieth_report_compare(aieth_report_diff **out, const aieth_report *base, const char *base_name,
			 const aieth_report *now, double default_pct);
/* 0: no regression, 1: regressions, 2: the baseline was refused. */
int aieth_report_diff_exit(const aieth_report_diff *d);
size_t aieth_report_diff_regressions(const aieth_report_diff *d);
size_t aieth_report_diff_improvements(const aieth_report_diff *d);
/* The table of what moved (metric, baseline, now, change %, tolerance,
 * verdict), what is in one report only, and a summary line; malloc'd, or
 * NULL when out of memory. */
char *aieth_report_diff_text(const aieth_report_diff *d);
/* Record d in r, the `now` it was made with: the report's "baseline" object;
 * each test with a regression fails (exit 1, error phase "baseline"); a
 * refused baseline is an input error of every test (exit 2). Call before
 * aieth_report_finish and the writers. */
int aieth_report_add_baseline(aieth_report *r, const aieth_report_diff *d);
void aieth_report_diff_free(aieth_report_diff *d);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_COMPARE_H */
