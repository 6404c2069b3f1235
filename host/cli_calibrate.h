/* SPDX-License-Identifier: MIT */
/*
 * cli_calibrate.h - run_test calibrate: fit the emulated board's timing
 * parameters to a board's reports (docs/emulator.md, "How close to a
 * board").
 */
#ifndef AIETH_CLI_CALIBRATE_H
#define AIETH_CLI_CALIBRATE_H

/* argv[0] is "calibrate". The table on stdout, progress on stderr; returns
 * the exit code: 0 fitted and written, 2 bad input or a refused report, 3
 * the emulated runs or the write failed. */
int cli_calibrate_main(const char *prog, int argc, char **argv);

#endif
