/* SPDX-License-Identifier: MIT */
/*
 * cli_history.h - the run history on the command line: run_test history
 * add|show|html|gate, and run_test --history / --gate-history
 * (docs/farm.md, "Run history").
 */
#ifndef AIETH_CLI_HISTORY_H
#define AIETH_CLI_HISTORY_H

#include "aieth.h"

/* run_test history SUBCOMMAND ...; argv[0] is "history". Returns the exit
 * code: 0 done (a gate: no regression), 1 a gate found a regression, 2
 * usage or an input file skipped, 3 a database that cannot be opened or
 * written. */
int cli_history_main(const char *prog, int argc, char **argv);

/* --gate-last K: 1..100000. 0, or -1 when s is not one. */
int cli_parse_last(const char *s, unsigned *out);

/* Open db for run_test (read_only: --gate-history alone); an error is
 * printed naming opt, and the exit code returned (3). */
int cli_history_open(aieth_history **h, const char *db, int read_only, const char *opt);

/* After a run, before its files are written: gate r against h, record the
 * verdict in r and return the table (malloc'd; NULL after an error, which
 * is printed and recorded in r as an error of its tests). */
char *cli_history_gate(aieth_report *r, aieth_history *h, unsigned last, double pct);

/* After the files are written: record r (written at report_path) in h;
 * 0, or 3 with the error printed. */
int cli_history_record(aieth_report *r, aieth_history *h, const char *report_path,
		       const char *label, int quiet);

#endif
