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


/* Load, check and run one description; the outcome, including input and
 * device errors, becomes one test of the report. Fails only when the report
 * itself cannot be extended (out of memory). */
int aieth_report_run(aieth_report *r, const char *spec_path, const aieth_run_opts *opts);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_RUN_H */
