/* SPDX-License-Identifier: MIT */
/*
 * calibrate_impl.h - the calibration's state, shared by calibrate.c (runs
 * and fit), calibrate_check.c (the pairs and their checks) and
 * calibrate_text.c (the table).
 */
#ifndef AIETH_SPEC_CALIBRATE_IMPL_H
#define AIETH_SPEC_CALIBRATE_IMPL_H

#include <json-c/json.h>

#include "aieth.h"
#include "runner/calibrate_internal.h"

#define CAL_NPARAM 8
#define CAL_BOARD_MAX_FILE (1u << 20) /* docs/boards.md: board files */
#define CAL_MAX_VALUES 100000         /* compared values over all pairs */

typedef struct {
	const char *obj; /* object in the board file; NULL: top level */
	const char *key;
	int64_t lo, hi; /* the board loader's bounds */
} cal_param;

extern const cal_param aieth__cal_params[CAL_NPARAM];

enum { CAL_FIRST, CAL_LAST, CAL_CYCLES, CAL_TOTAL };

/* One compared value: a channel's counter or a transaction's total. */
typedef struct {
	char *label; /* "test / txn / PLIO" */
	size_t pair, txn, chan;
	int kind;
	double board, emu, before, after;
} cal_val;

typedef struct {
	char *spec, *report;
} cal_pair;

struct aieth_calib {
	char *data_dir, *board_name, *tmpdir, *tmpboard;
	double pl_clock_MHz;
	struct json_object *base; /* the base board file's tree */
	int64_t x0[CAL_NPARAM], x[CAL_NPARAM];
	cal_pair *pairs;
	size_t npairs;
	cal_val *vals;
	size_t nvals, vcap;
	double cost_before, cost_after;
	unsigned runs, evals;
	int fitted;
	void (*progress)(void *ctx, const char *line);
	void *progress_ctx;
};

/* The base board file with the values x, written to path. */
int aieth__cal_write_board(aieth_calib *c, const int64_t *x, const char *path);
/* Run spec on the candidate board file (tmpboard); *out holds one test. */
int aieth__cal_run(aieth_calib *c, const char *spec, aieth_report **out);
/* The emulated values of pair p from its test t into vals[].emu; -1 when
 * the run did not finish (no counters). */
int aieth__cal_read_values(aieth_calib *c, size_t pair, struct json_object *t);
/* A log of AMD's printPerf lines (runner/amd_log.h) as the board test of
 * the emulated test et (calibrate_log.c): *out is a new test object with
 * et's name, status "pass" and per transaction and channel (in et's order)
 * first_cycle, last_cycle and cycles. Refused (AIETH_EINVAL, "path:line:
 * ..." naming the channel): a transaction without its printPerf block or
 * with a timeout/unfinished warning instead, a channel missing, twice or
 * not the transaction's, a foreign line inside a block, counters that do
 * not fit the channel's size_bytes x repetition, lines left over. */
struct amd_log_s;
int aieth__cal_log_test(const char *path, const struct amd_log_s *l, struct json_object *et,
			struct json_object **out);
/* |emu - board| / max(|board|, 1). */
double aieth__cal_rel_err(double emu, double board);

#endif
