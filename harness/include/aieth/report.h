/* SPDX-License-Identifier: MIT */
/*
 * aieth/report.h - the report of a run: the result model, its writers
 * (docs/report-schema.md) and a report.json read back.
 */
#ifndef AIETH_PUBLIC_REPORT_H
#define AIETH_PUBLIC_REPORT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A report: one run of one or more descriptions (docs/report-schema.md). */
typedef struct aieth_report aieth_report;

/* tool and argv are recorded in the report (argv may be NULL). */
int aieth_report_new(aieth_report **out, const char *tool, int argc, char *const *argv);
/* Record an error that prevented a test from running at all. */
int aieth_report_add_error(aieth_report *r, const char *name, const char *phase, int code,
			   const char *message, const char *hint, int exit_code);
/* Record an error in test index (< 0: the last test) after it ran, e.g. its
 * report could not be written: its error (if it has none yet), status and
 * exit code (the more severe one wins). */
int aieth_report_test_error(aieth_report *r, int index, const char *phase, int code,
			    const char *message, const char *hint, int exit_code);
/* Close the run: finish time, status, exit code. Can be called again after
 * aieth_report_test_error. */
int aieth_report_finish(aieth_report *r);
/* The run's exit code (the most severe of its tests: 128+N, 5, 3, 2, 1, 4,
 * 0). */
int aieth_report_exit_code(const aieth_report *r);
/* Writers; files are written to a temporary name and renamed. */
int aieth_report_write_json(const aieth_report *r, const char *path);
int aieth_report_write_junit(const aieth_report *r, const char *path);
/* report.json's bytes, as aieth_report_write_json writes them (ending in a
 * newline), as a malloc'd string (caller frees), or NULL (the error says
 * why). */
char *aieth_report_json(const aieth_report *r);
/* When the run began: seconds since the epoch (CLOCK_REALTIME, to the
 * microsecond; report.json's started_at is the same instant to the
 * second); 0 for a NULL report. */
double aieth_report_started(const aieth_report *r);
/* Set the report's "uploads" member (docs/report-schema.md) to the JSON
 * array of objects in json[0..len) (NULL removes it), read strictly (no
 * duplicate keys, nothing after the value). Text that is not JSON is
 * refused with AIETH_EPARSE, other JSON with AIETH_EINVAL; either way the
 * report keeps what it had. */
int aieth_report_set_uploads(aieth_report *r, const char *json, size_t len);
/* The human summary of the last test added (tables, verdicts) or of all
 * tests (index < 0), as a malloc'd string (caller frees), or NULL. */
char *aieth_report_text(const aieth_report *r, int index);
/* Stable one-line markers for farms: RUN_TEST BEGIN/CASE/END lines. */
char *aieth_report_markers(const aieth_report *r);
size_t aieth_report_num_tests(const aieth_report *r);
void aieth_report_free(aieth_report *r);
/* What a run noticed and went on with (a design xclbin that
 * cannot be read, ...), every test's "warnings" in order, for the caller to
 * show: the count, and warning i (NULL past the end). Valid until the
 * report changes or is freed. */
size_t aieth_report_num_warnings(const aieth_report *r);
const char *aieth_report_warning(const aieth_report *r, size_t i);

/* Farm signals (docs/farm.md), one result case per channel
 * (throughput, MB/s), latency check (cycles), transaction (total cycles)
 * and test (seconds), ids made of [A-Za-z0-9._-] only. LAVA lava-test-shell
 * signal lines, a TESTSET around each test (malloc'd, caller frees; NULL
 * when out of memory). Only a pass is a pass: a failure, hang or error is
 * "fail", an interrupted run "unknown". */
char *aieth_report_lava(const aieth_report *r);
/* The same cases as TAP version 13 with YAML diagnostics (malloc'd), and
 * written to a file by the same rules as the other writers. */
char *aieth_report_tap(const aieth_report *r);
int aieth_report_write_tap(const aieth_report *r, const char *path);
/* Reports a person looks at (docs/farm.md). Written like
 * the other files (a temporary name renamed; a device or FIFO in place).
 * report.html: one self-contained page (inline CSS and SVG, no script, no
 * network): the run, each test and transaction with the figures of the
 * text table, the throughput and timeline charts (the first 64
 * transactions of the run; table rows for the first 4096 channels). */
int aieth_report_write_html(const aieth_report *r, const char *path);
/* The same charts as standalone SVG files in the folder dir (made when
 * missing; a symbolic link at dir's own name is refused, never followed):
 * <test>-<transaction>-throughput.svg and -timeline.svg (names reduced to
 * [A-Za-z0-9._-]; a repeated name gets +I.J, the indexes). */
int aieth_report_write_svgs(const aieth_report *r, const char *dir);
/* trace.json in the Chrome trace event format (Perfetto,
 * chrome://tracing): a process per test and transaction, a track per
 * channel, times in microseconds at the test's PL clock. */
int aieth_report_write_trace(const aieth_report *r, const char *path);
/* sweep.csv (docs/report-schema.md, "Sweeps"): one row per point of every
 * sweep of the run and channel (a point that did not run: one row), the
 * axes' values as columns. A run without a sweep writes no file
 * (AIETH_OK). */
int aieth_report_write_sweep_csv(const aieth_report *r, const char *path);
#define AIETH_REPORT_MAX_FILE (64u << 20) /* bytes of a report.json read back */

/* Read a report.json (strict JSON, at most AIETH_REPORT_MAX_FILE bytes) and
 * check the fields a comparison uses; errors (AIETH_EIO, AIETH_EPARSE,
 * AIETH_EINVAL) name the file and the JSON path. Free with
 * aieth_report_free; it is not meant to be extended or written again. */
int aieth_report_load(aieth_report **out, const char *path);
/* The same from text (len bytes) that file `what` held. */
int aieth_report_parse(aieth_report **out, const char *what, const char *text, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_REPORT_H */
