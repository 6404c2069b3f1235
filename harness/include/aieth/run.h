/* SPDX-License-Identifier: MIT */
/*
 * aieth/run.h - runs of test descriptions: the exit codes of the run_test
 * contract, the run options, and one description run into a report.
 */
#ifndef AIETH_PUBLIC_RUN_H
#define AIETH_PUBLIC_RUN_H

#include <signal.h>
#include <stdint.h>

#include "report.h"
#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes of a run (the run_test contract, docs/user-guide.md). */
enum {
	AIETH_EXIT_PASS = 0,
	AIETH_EXIT_FAIL = 1,    /* data mismatch, threshold missed */
	AIETH_EXIT_INPUT = 2,   /* usage or input error */
	AIETH_EXIT_INFRA = 3,   /* device, xclbin, backend error */
	AIETH_EXIT_SKIP = 4,    /* skipped / unsupported */
	AIETH_EXIT_TIMEOUT = 5, /* hang or timeout: the board may need a reset */
	AIETH_EXIT_SIGNAL = 128 /* + N: interrupted by signal N (report written) */
};

/* How descriptions run (aieth_report_run). A versioned struct (aieth/session.h,
 * docs/api.md): initialise it with AIETH_RUN_OPTS_INIT or aieth_run_opts_init. */
typedef struct {
	unsigned int version; /* AIETH_RUN_OPTS_VERSION */
	/* what: overrides of the description (NULL: keep) and where files are */
	const char *board;    /* override the description's board */
	const char *xclbin;   /* override the description's AIE xclbin */
	const char *data_dir; /* board files (NULL: aieth_board_data_dir) */
	const char *out_dir;  /* relative "save" paths resolve here (NULL: ".") */
	/* where: the device. backend overrides the description's (NULL: keep;
	 * default emu); each backend's options (NULL: its defaults) go to
	 * every session as they are (aieth_session_opts), but for xrt's
	 * pl_xclbin: NULL keeps the description's "pl_xclbin". */
	const char *backend;
	const aieth_emu_opts *emu;
	const aieth_xrt_opts *xrt;
	const aieth_remote_opts *remote;
	/* limits */
	uint32_t timeout_ms; /* overrides every transaction's timeout (0: keep) */
	int no_timeout;      /* 1: no transaction has a time limit (overrides
				       timeout_ms and the descriptions' timeout_ms) */
	/* hooks */
	/* Interrupt flag (may be NULL): when *interrupt becomes non-zero the
	 * run stops (a running transaction too, aieth_session_opts.interrupt)
	 * and the test is recorded as interrupted with exit code 128 + the
	 * flag's value, which should be the signal number (status
	 * "interrupted", docs/report-schema.md). */
	const volatile sig_atomic_t *interrupt;
	/* Called during long runs (may be NULL): phase text, done/total (the
	 * place in th_server's queue is a phase too). A remote session's files
	 * are listed in each test's report: "artifacts", "artifacts_error". */
	void (*progress)(void *ctx, const char *phase, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* version 2: checks. A design xclbin that cannot be read, or that
	 * th_package check refuses (aieth_xclbin_check without a board), is an
	 * input error of the test (exit 2) on every backend, with the problems
	 * in its message; 1 makes it a warning of the test instead and the run
	 * goes on (what version 1 did on the emulated board). */
	int xclbin_warn_only;
	/* version 3: campaigns (docs/test-spec.md, "repeat" and "sweep").
	 * repeat_runs > 0 runs each transaction repeat_warmup + repeat_runs
	 * times in one session and reports statistics of the repeat_runs
	 * measured runs (overrides the description's "repeat"; 0: keep it, or
	 * one run). sweep: num_sweep "AXIS=LIST" texts as run_test --sweep
	 * takes them, each an axis of a grid (they replace the description's
	 * "sweep"); each point of it becomes one test of the report, and
	 * report.run.sweeps records it (docs/user-guide.md, "Sweeps").
	 * sweep_stop_on_fail: 1 stops a sweep at its first point that does
	 * not pass (default: every point runs). sweep_zip: 1 pairs the sweep
	 * texts' lists (one length) instead of a grid, as --sweep-zip. */
	uint32_t repeat_runs;
	uint32_t repeat_warmup;
	const char *const *sweep;
	size_t num_sweep;
	int sweep_stop_on_fail;
	int sweep_zip;
	/* version 4: power and temperature (docs/on-board.md). Each test
	 * samples the board's sensors every sensor_period_ms (100..60000; 0:
	 * 1000) while it runs, into its report's "sensors"; no_sensors 1:
	 * none are read. */
	uint32_t sensor_period_ms;
	int no_sensors;
} aieth_run_opts;

#define AIETH_RUN_OPTS_VERSION 4
#define AIETH_RUN_OPTS_INIT                       \
	{                                         \
		.version = AIETH_RUN_OPTS_VERSION \
	}
int aieth_run_opts_init(aieth_run_opts *opts, unsigned int version);

/* Load, check and run one description; the outcome, including input and
 * device errors, becomes one test of the report. Fails only when the report
 * itself cannot be extended (out of memory), or with AIETH_EINVAL for
 * options of a version this library does not know (opts may be NULL: the
 * defaults). */
int aieth_report_run(aieth_report *r, const char *spec_path, const aieth_run_opts *opts);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_RUN_H */
