/* SPDX-License-Identifier: MIT */
/*
 * aieth/validate.h - run_test validate: a board health suite of numbered
 * tests in levels (docs/on-board.md, "Board health: run_test validate").
 */
#ifndef AIETH_PUBLIC_VALIDATE_H
#define AIETH_PUBLIC_VALIDATE_H

#include <signal.h>
#include <stdint.h>

#include "report.h"
#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Verdicts of a validate test (report.json: tests[].validate.verdict). */
typedef enum {
	AIETH_VALIDATE_PASSED = 0,
	AIETH_VALIDATE_WARNINGS = 1, /* "PASSED WITH WARNINGS" */
	AIETH_VALIDATE_FAILED = 2,
	AIETH_VALIDATE_SKIPPED = 3
} aieth_validate_verdict;

const char *aieth_validate_verdict_name(aieth_validate_verdict v);

#define AIETH_VALIDATE_MAX_SOAK_S 86400u /* a soak is at most a day */

/* A versioned struct (aieth/session.h): AIETH_VALIDATE_OPTS_INIT. */
typedef struct {
	unsigned int version; /* AIETH_VALIDATE_OPTS_VERSION */
	const char *board;    /* name or board file (NULL: "vck190") */
	const char *data_dir; /* NULL: aieth_board_data_dir(NULL) */
	const char *backend;  /* "emu" (NULL), "xrt", "remote" */
	const aieth_emu_opts *emu;
	const aieth_xrt_opts *xrt;
	const aieth_remote_opts *remote;
	unsigned int level;       /* 1..3 (0: 1) */
	const char *xclbin;       /* the loopback design (xrt; NULL: the assets
				     folder, <data dir>/assets/loopback/<board>_loopback.xclbin) */
	uint32_t soak_s;          /* level 3's FUNC soak (0: 300 s on a board, 2 s
				     on the emulated board); at most AIETH_VALIDATE_MAX_SOAK_S */
	const char *out_dir;      /* level 3 writes its calibration files under
				     out_dir/calibration (NULL: ".") */
	const char *model;        /* emulated board: the loopback's graph model
				     (NULL: "loopback"; a plugin path for tests) */
	const char *model_params; /* its params (JSON object text; NULL: none) */
	uint32_t channels;        /* test channels 1..channels of each direction
				     (0: all the board has) */
	const volatile sig_atomic_t *interrupt;
	/* Each test as it starts (verdict < 0) and ends: its number, the
	 * number of tests, its name, verdict and reason ("" when none). */
	void (*progress)(void *ctx, unsigned num, unsigned total, const char *name, int verdict,
			 const char *reason);
	void *progress_ctx;
} aieth_validate_opts;

#define AIETH_VALIDATE_OPTS_VERSION 1
#define AIETH_VALIDATE_OPTS_INIT                       \
	{                                              \
		.version = AIETH_VALIDATE_OPTS_VERSION \
	}
int aieth_validate_opts_init(aieth_validate_opts *opts, unsigned int version);

/* Run the suite up to opts->level; each test becomes a test of r named
 * "validate NN name" with a "validate" object (number, level, verdict,
 * reason, figures). Fails only for bad options (AIETH_EINVAL: the message
 * names the field) or out of memory. A board or device that cannot be
 * used is recorded as failed tests (exit code 3) and the rest SKIPPED;
 * aieth_validate_exit_code gives the suite's exit code. */
int aieth_report_validate(aieth_report *r, const aieth_validate_opts *opts);

/* The exit code of a report validate filled (after aieth_report_finish):
 * 0 passed (warnings included), 1 a test failed, 4 the board or device
 * unusable (or every test skipped), 5 a hang, 128+N interrupted. */
int aieth_validate_exit_code(const aieth_report *r);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_VALIDATE_H */
