/* SPDX-License-Identifier: MIT */
/*
 * report_sweep.h - a sweep's points read back from the report tree: which
 * tests are a sweep's points, the knees (report.run.sweeps[].knees) and
 * the rows of sweep.csv. Shared by the runner (it records the knees), the
 * CSV writer and report.html's curves.
 */
#ifndef AIETH_REPORT_SWEEP_H
#define AIETH_REPORT_SWEEP_H

#include <stddef.h>

#include <json-c/json.h>

/* The share of the plateau a knee reaches, and how the plateau is found:
 * the lower median of the throughputs at the PLATEAU_POINTS largest axis
 * values, which may differ by at most PLATEAU_SPREAD (else no knee). */
#define AIETH_KNEE_SHARE 0.95
#define AIETH_KNEE_PLATEAU_POINTS 3
#define AIETH_KNEE_PLATEAU_SPREAD 0.10

/* The tests (indexes first .. first + *count - 1 of tests) that are the
 * points of sweep k of report.run.sweeps: the k-th run of consecutive
 * tests whose "sweep" objects count 0, 1, 2... under one name. 0, or -1
 * when there is no such run. */
int aieth__sweep_tests(struct json_object *tests, size_t k, size_t *first, size_t *count);

/* Fill sweep->knees from the points tests[first .. first + count - 1]:
 * per numeric axis, per combination of the other axes' values ("at") and
 * per channel (PLIO) the smallest axis value whose throughput reaches
 * AIETH_KNEE_SHARE of the plateau, or null with the reason. */
void aieth__sweep_knees(struct json_object *sweep, struct json_object *tests, size_t first,
			size_t count);

#endif
