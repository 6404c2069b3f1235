/* SPDX-License-Identifier: MIT */
/*
 * aieth/report.h - runs of test descriptions and their report: exit codes, the
 * result model and its writers (docs/report-schema.md).
 */
#ifndef AIETH_PUBLIC_REPORT_H
#define AIETH_PUBLIC_REPORT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes of a run (the run_test contract, docs/user-guide.md). */
enum {
	AIETH_EXIT_PASS = 0,
	AIETH_EXIT_FAIL = 1,        /* data mismatch, threshold missed */
	AIETH_EXIT_INPUT = 2,       /* usage or input error */
	AIETH_EXIT_INFRA = 3,       /* device, xclbin, backend error */
	AIETH_EXIT_SKIP = 4,        /* skipped / unsupported */
	AIETH_EXIT_TIMEOUT = 5,     /* hang or timeout: the board may need a reset */
	AIETH_EXIT_SIGNAL = 128     /* + N: interrupted by signal N (report written) */
};

typedef struct {
	const char *board;          /* override the description's board (NULL: keep) */
	const char *backend;        /* override the backend (NULL: keep; default emu) */
	const char *data_dir;       /* board files (NULL: aieth_board_data_dir) */
	const char *out_dir;        /* relative "save" paths resolve here (NULL: ".") */
	uint32_t timeout_ms;        /* overrides every transaction's timeout (0: keep) */
	int emu_reference;          /* emulated board: beat-by-beat reference mode */
	/* Called during long runs (may be NULL): phase text, done/total. */
	void (*progress)(void *ctx, const char *phase, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* Added in 0.1 (keep new fields at the end): */
	const char *xclbin;         /* override the description's AIE xclbin (NULL: keep) */
	const char *pl_xclbin;      /* override its PL xclbin (NULL: keep / board default) */
	/* Added in 0.2: */
	/* Interrupt flag (may be NULL): when *interrupt becomes non-zero the
	 * run stops (a running transaction too, aieth_session_opts.interrupt)
	 * and the test is recorded as interrupted with exit code 128 + the
	 * flag's value, which should be the signal number (status
	 * "interrupted", docs/report-schema.md). */
	const volatile sig_atomic_t *interrupt;
	int no_timeout;             /* 1: no transaction has a time limit (overrides
				       timeout_ms and the descriptions' timeout_ms) */
	/* Added in 0.3: backend "remote" (aieth_session_opts) */
	const char *server;
	const char *token;
	const char *cacert;
	/* Added in 0.4, backend "remote": an xrt.ini file sent with every
	 * session, and the folder its artifacts land in (each test's report
	 * lists them, "artifacts"; NULL: not fetched). */
	const char *xrt_ini;
	const char *artifacts_dir;
	/* Added in 0.6, backend "remote" (aieth_session_opts): the longest
	 * wait in th_server's queue (0: 600 s; the progress hook shows the
	 * place in the queue as the phase) and the bytes of a test's
	 * artifacts together (0: 1 GiB; past it: the test's
	 * "artifacts_error"). */
	uint32_t queue_timeout_s;
	uint64_t artifacts_max_bytes;
} aieth_run_opts;

/* A report: one run of one or more descriptions (docs/report-schema.md). */
typedef struct aieth_report aieth_report;

/* tool and argv are recorded in the report (argv may be NULL). */
int aieth_report_new(aieth_report **out, const char *tool, int argc, char *const *argv);
/* Load, check and run one description; the outcome, including input and
 * device errors, becomes one test of the report. Fails only when the report
 * itself cannot be extended (out of memory). */
int aieth_report_run(aieth_report *r, const char *spec_path, const aieth_run_opts *opts);
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
/* The human summary of the last test added (tables, verdicts) or of all
 * tests (index < 0), as a malloc'd string (caller frees), or NULL. */
char *aieth_report_text(const aieth_report *r, int index);
/* Stable one-line markers for farms: RUN_TEST BEGIN/CASE/END lines. */
char *aieth_report_markers(const aieth_report *r);
size_t aieth_report_num_tests(const aieth_report *r);
void aieth_report_free(aieth_report *r);
/* Added in 0.6: what a run noticed and went on with (a design xclbin that
 * cannot be read, ...), every test's "warnings" in order, for the caller to
 * show: the count, and warning i (NULL past the end). Valid until the
 * report changes or is freed. */
size_t aieth_report_num_warnings(const aieth_report *r);
const char *aieth_report_warning(const aieth_report *r, size_t i);

/* Added in 0.5: farm signals (docs/farm.md), one result case per channel
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
/* Added in 0.5: reports a person looks at (docs/farm.md). Written like
 * the other files (a temporary name renamed; a device or FIFO in place).
 * report.html: one self-contained page (inline CSS and SVG, no script, no
 * network): the run, each test and transaction with the figures of the
 * text table, the throughput and timeline charts (the first 64
 * transactions of the run; table rows for the first 4096 channels). */
int aieth_report_write_html(const aieth_report *r, const char *path);
/* The same charts as standalone SVG files in the existing folder dir:
 * <test>-<transaction>-throughput.svg and -timeline.svg (names reduced to
 * [A-Za-z0-9._-]; a repeated name gets +I.J, the indexes). */
int aieth_report_write_svgs(const aieth_report *r, const char *dir);
/* trace.json in the Chrome trace event format (Perfetto,
 * chrome://tracing): a process per test and transaction, a track per
 * channel, times in microseconds at the test's PL clock. */
int aieth_report_write_trace(const aieth_report *r, const char *path);
/* Added in 0.5: regression gates against a baseline report (docs/farm.md,
 * "Regression gates"). */
#define AIETH_REGRESSION_DEFAULT_PCT 5.0
#define AIETH_REPORT_MAX_FILE (64u << 20) /* bytes of a report.json read back */

/* Read a report.json (strict JSON, at most AIETH_REPORT_MAX_FILE bytes) and
 * check the fields a comparison uses; errors (AIETH_EIO, AIETH_EPARSE,
 * AIETH_EINVAL) name the file and the JSON path. Free with
 * aieth_report_free; it is not meant to be extended or written again. */
int aieth_report_load(aieth_report **out, const char *path);
/* The same from text (len bytes) that file `what` held. */
int aieth_report_parse(aieth_report **out, const char *what, const char *text, size_t len);

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
int aieth_report_compare(aieth_report_diff **out, const aieth_report *base,
			 const char *base_name, const aieth_report *now, double default_pct);
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

/* Added in 0.5: calibration of the emulated board from a board's reports
 * (run_test calibrate; docs/emulator.md, "How close to a board"). Fits the
 * board file's timing parameters (func_memory read/write latency and loop
 * overhead, the four counter_edges, preload_latency_cycles) so that the
 * emulated counters of the given descriptions match the reports'. */
typedef struct aieth_calib aieth_calib;
/* board: the base board, a name or a board file; data_dir as in
 * aieth_run_opts. */
int aieth_calib_new(aieth_calib **out, const char *board, const char *data_dir);
/* Add a description and the report.json a board made for it. Refused
 * (AIETH_EINVAL, the message names the file and field): a report from
 * another board or PL clock, without a test of the description's name, with
 * other transactions or PLIOs, or whose test or transactions did not finish
 * (hang, timeout, error, interrupted). *note (may be NULL; malloc'd or NULL)
 * says when the report was made by the emulated board itself. */
int aieth_calib_add(aieth_calib *c, const char *spec_path, const char *report_path,
		    char **note);
/* Search the parameters: at most max_runs evaluations (each runs every
 * description once); progress (may be NULL) gets one line per improvement. */
int aieth_calib_fit(aieth_calib *c, unsigned max_runs,
		    void (*progress)(void *ctx, const char *line), void *ctx);
/* Per channel cycles (board, before, after, error %), the total error and
 * the parameters that changed; malloc'd, NULL when out of memory. */
char *aieth_calib_text(const aieth_calib *c);
/* The base board file with the fitted values, written atomically (never
 * over what is not a regular file). */
int aieth_calib_write_board(const aieth_calib *c, const char *path);
void aieth_calib_free(aieth_calib *c);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_REPORT_H */
