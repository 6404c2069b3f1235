/* SPDX-License-Identifier: MIT */
/*
 * aieth/calibrate.h - calibration of the emulated board from a board's reports
 * (run_test calibrate; docs/emulator.md, "How close to a board").
 */
#ifndef AIETH_PUBLIC_CALIBRATE_H
#define AIETH_PUBLIC_CALIBRATE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Calibration of the emulated board from a board's reports
 * (run_test calibrate; docs/emulator.md, "How close to a board"). Fits the
 * board file's timing parameters (func_memory read/write latency and loop
 * overhead, the four counter_edges, preload_latency_cycles) so that the
 * emulated counters of the given descriptions match the reports'. */
typedef struct aieth_calib aieth_calib;
/* board: the base board, a name or a board file; data_dir as in
 * aieth_run_opts. */
int aieth_calib_new(aieth_calib **out, const char *board, const char *data_dir);
/* Add a description and the report.json a board made for it, or the log of
 * AMD's test harness for it (its printPerf lines; told apart by content: a
 * file whose first character is '{' is a report; docs/user-guide.md). Refused
 * (AIETH_EINVAL, the message names the file and field): a report from
 * another board or PL clock, without a test of the description's name, with
 * other transactions or PLIOs, or whose test or transactions did not finish
 * (hang, timeout, error, interrupted); a log without a channel of a
 * transaction, with one twice, with cycles that do not fit the sizes (the
 * message names file:line and channel). *note (may be NULL; malloc'd or NULL)
 * says when the report was made by the emulated board itself. */
int aieth_calib_add(aieth_calib *c, const char *spec_path, const char *report_path, char **note);
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
#endif /* AIETH_PUBLIC_CALIBRATE_H */
