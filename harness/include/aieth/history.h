/* SPDX-License-Identifier: MIT */
/*
 * aieth/history.h - the run history: reports kept in a SQLite database,
 * trend pages, and gates against the median of the last passing runs
 * (docs/farm.md, "Run history"; docs/api.md).
 */
#ifndef AIETH_PUBLIC_HISTORY_H
#define AIETH_PUBLIC_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An open history database (one connection; one thread at a time). */
typedef struct aieth_history aieth_history;

/* Options of aieth_history_open. A versioned struct (docs/api.md):
 * initialise it with AIETH_HISTORY_OPTS_INIT or aieth_history_opts_init. */
typedef struct {
	unsigned int version; /* AIETH_HISTORY_OPTS_VERSION */
	/* 1: never create nor change the database (show, html, gate); a
	 * missing file is then an error */
	int read_only;
	/* how long a writer waits for another one's transaction, in ms
	 * (0: 60000) */
	uint32_t busy_timeout_ms;
} aieth_history_opts;

#define AIETH_HISTORY_OPTS_VERSION 1
#define AIETH_HISTORY_OPTS_INIT                       \
	{                                             \
		.version = AIETH_HISTORY_OPTS_VERSION \
	}
int aieth_history_opts_init(aieth_history_opts *opts, unsigned int version);

/* The database's schema version this library writes; an older database is
 * migrated when opened for writing, a newer one is refused. */
#define AIETH_HISTORY_SCHEMA_VERSION 2
/* aieth_history_gate: baseline runs (K) by default, and the fewest that
 * make a baseline. */
#define AIETH_HISTORY_GATE_LAST_DEFAULT 10
#define AIETH_HISTORY_GATE_MIN_RUNS 3
/* aieth_history_write_html: the runs drawn per series by default. */
#define AIETH_HISTORY_HTML_POINTS_DEFAULT 200

/* Open (creating it unless read_only) the history at path (opts NULL: the
 * defaults). The path must name a regular file or nothing: a symbolic
 * link, a folder, a FIFO or a device is refused (AIETH_EINVAL); a file that
 * is not an aieth history, or one of a newer schema, is refused
 * (AIETH_EPARSE) naming it. WAL mode: readers never wait for a writer. */
int aieth_history_open(aieth_history **out, const char *path, const aieth_history_opts *opts);
void aieth_history_close(aieth_history *h);

/* Record a report (report schema aieth-report/1 or /2) in one transaction:
 * every test with its status and figures, or nothing. label (may be NULL)
 * is kept with the run (a commit, a build). The run's key is its
 * run.id and environment.hostname (docs/farm.md); a run already recorded
 * is left as it is: *added (may be NULL) is then 0, else 1.
 * add_file reads report_json (a damaged or foreign file: AIETH_EPARSE or
 * AIETH_EINVAL naming it, the database unchanged); add_report takes a
 * report in memory, report_path (may be NULL) being where it was written
 * (the trend page links to it). */
int aieth_history_add_file(aieth_history *h, const char *report_json, const char *label,
			   int *added);
int aieth_history_add_report(aieth_history *h, const aieth_report *r, const char *report_path,
			     const char *label, int *added);
/* The number of runs recorded. */
int aieth_history_num_runs(aieth_history *h, uint64_t *out);

/* A table of the recorded runs, newest last: at most `last` runs (0: 20),
 * those with a test named `test` when not NULL, one line per test of each
 * run. malloc'd into *out. */
int aieth_history_text(aieth_history *h, const char *test, unsigned int last, char **out);

/* The gate of a report against the history (docs/farm.md, "History
 * gates"): each figure of each test (channel throughput_MBps and cycles,
 * transaction total_cycles, latency cycles) compared with the median of
 * the same figure in the last `last` runs (0: the default) of the same test,
 * board and backend that passed, the report's own run left out; the band
 * is a relative margin (the report's "regression" tolerances, else
 * default_pct, < 0: AIETH_REGRESSION_DEFAULT_PCT) plus 3 x 1.4826 x the
 * baseline's median absolute deviation. Fewer than
 * AIETH_HISTORY_GATE_MIN_RUNS values: "no baseline", never a failure. */
typedef struct aieth_history_gate aieth_history_gate;
int aieth_history_gate_report(aieth_history_gate **out, aieth_history *h, const aieth_report *now,
			      unsigned int last, double default_pct);
/* 0: no regression (or no baseline), 1: a figure regressed or went
 * missing. */
int aieth_history_gate_exit(const aieth_history_gate *g);
/* The table of the figures gated (metric, median, now, change, band,
 * runs, verdict) and a summary line; malloc'd, NULL when out of memory. */
char *aieth_history_gate_text(const aieth_history_gate *g);
/* Record g in r, the report it was made with: the report's "history_gate"
 * object (the shape of "baseline"); each test with a regression fails
 * (exit 1, error phase "history_gate"). Call before the writers. */
int aieth_report_add_history_gate(aieth_report *r, const aieth_history_gate *g);
void aieth_history_gate_free(aieth_history_gate *g);

/* The trend page: one self-contained HTML file (inline SVG, no script)
 * with, per test, board, backend and figure, the last max_points runs
 * (0: AIETH_HISTORY_HTML_POINTS_DEFAULT), the thresholds, the gate's band,
 * failed runs and regressions marked, each point linking to its report. */
int aieth_history_write_html(aieth_history *h, const char *path, unsigned int max_points);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_HISTORY_H */
