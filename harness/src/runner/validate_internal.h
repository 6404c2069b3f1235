/* SPDX-License-Identifier: MIT */
/*
 * runner/validate_internal.h - what the files of run_test validate share:
 * validate.c runs the numbered tests and records them, validate_board.c
 * the level-1 checks, validate_chan.c the loopback's channel tests
 * (levels 2 and 3).
 */
#ifndef AIETH_RUNNER_VALIDATE_INTERNAL_H
#define AIETH_RUNNER_VALIDATE_INTERNAL_H

#include <json-c/json.h>

#include "aieth.h"

/* Throughput: the stated fraction of 16 B/cycle (docs/on-board.md). */
#define VD_RATE_PASS 0.95
#define VD_RATE_WARN 0.80

typedef struct {
	aieth_report *r;
	const aieth_validate_opts *o;
	aieth_board *board;
	const aieth_board_info *info;
	const char *board_name, *backend, *data_dir;
	int emu, remote;
	unsigned num, total;
	/* the running test */
	struct json_object *fig; /* its figures (validate.figures) */
	struct json_object *warnings;
	int verdict, exit_code;
	char reason[1024];
	/* state carried between tests */
	char design[4096]; /* the loopback design found ("" none) */
	char design_why[4400];
	aieth_session *s;
	char session_err[1024];
	int stop_exit;      /* a test left the board unusable: 3 or 5 */
	char stop_why[512]; /* why the rest is skipped */
	unsigned soak_s;
	/* the PERF run's channels (test 9), for the counter and rate tests */
	aieth_channel_result *perf;
	size_t nperf;
	uint64_t perf_total;
} vd_ctx;

/* The running test's outcome (validate_verdict.c); fmt says why. */
void aieth__vd_pass(vd_ctx *c);
void aieth__vd_warn(vd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void aieth__vd_fail(vd_ctx *c, int exit_code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void aieth__vd_skip(vd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* validate_board.c: level 1 */
void aieth__vd_board_files(vd_ctx *c);
void aieth__vd_clocks(vd_ctx *c);
void aieth__vd_xrt(vd_ctx *c);
void aieth__vd_pl_xclbin(vd_ctx *c);
void aieth__vd_design(vd_ctx *c);
void aieth__vd_aie_driver(vd_ctx *c);
void aieth__vd_aie_array(vd_ctx *c);
void aieth__vd_device(vd_ctx *c);

/* validate_chan.c: levels 2 and 3 */
void aieth__vd_perf(vd_ctx *c);
void aieth__vd_counters(vd_ctx *c);
void aieth__vd_rate(vd_ctx *c);
void aieth__vd_func(vd_ctx *c);
void aieth__vd_delay(vd_ctx *c);
void aieth__vd_soak(vd_ctx *c);
/* validate_lat.c */
void aieth__vd_latency(vd_ctx *c);

#endif
