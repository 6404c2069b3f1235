/* SPDX-License-Identifier: MIT */
/*
 * cli_compare.h - regression gates on the command line: run_test
 * --baseline and run_test compare (docs/farm.md, "Regression gates").
 */
#ifndef AIETH_CLI_COMPARE_H
#define AIETH_CLI_COMPARE_H

#include "aieth.h"

/* --max-regression PCT: a number of percent, 0..1000000. 0, or -1 when s is
 * not one. */
int cli_parse_pct(const char *s, double *out);

/* run_test compare BASELINE.json NEW.json [--max-regression PCT]; argv[0]
 * is "compare". The table on stdout; returns the exit code: 0 no
 * regression, 1 regressions, 2 bad input or a refused baseline. */
int cli_compare_main(const char *prog, int argc, char **argv);

/* After a run, before its files are written: compare r with base, record
 * the comparison in r and return the table (malloc'd; NULL after an error,
 * which is printed on stderr and recorded in r as an error of its tests). */
char *cli_baseline_gate(aieth_report *r, const aieth_report *base, const char *base_path,
			double pct);

#endif
