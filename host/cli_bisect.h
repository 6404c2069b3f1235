/* SPDX-License-Identifier: MIT */
/*
 * cli_bisect.h - run_test --bisect: the run's exit code in the convention
 * of `git bisect run` (docs/farm.md, "Bisect a regression").
 */
#ifndef AIETH_CLI_BISECT_H
#define AIETH_CLI_BISECT_H

#include <stddef.h>

/* git bisect run: 0 good, 1 bad, 125 skip (the commit cannot be judged);
 * 128 and above abort the bisection. */
#define CLI_BISECT_GOOD 0
#define CLI_BISECT_BAD 1
#define CLI_BISECT_SKIP 125

/* argv names --bisect before a "--" (so an error in an option before it
 * is mapped too). */
int cli_bisect_requested(int argc, char *const *argv);

/* The bisect exit code of a run that ended with code. report_path: its
 * report.json, read for each test's exit code and backend (NULL, or a file
 * that cannot be read back: the run's code alone decides). A line saying
 * the mapping ("bisect: exit 125 (skip): ...", with a newline) goes into
 * line. */
int cli_bisect_code(int code, const char *report_path, char *line, size_t size);

#endif
