/* SPDX-License-Identifier: MIT */
/*
 * cli_common.h - helpers shared by the command-line programs.
 */
#ifndef AIETH_CLI_COMMON_H
#define AIETH_CLI_COMMON_H

#include <signal.h>

/* Create dir (and parents) if missing and check that a file can be written
 * there. 0, or -1 with a message in err. */
int cli_ensure_dir(const char *dir, char *err, unsigned errlen);

/* Check, before a run, that an output file can be written: an existing
 * directory is an error; an existing file that is not a regular one (a
 * device, a FIFO) must be writable in place; otherwise its folder must exist
 * and take a new file with a byte in it (a full disk fails here). 0, or -1
 * with a message in err. */
int cli_check_output(const char *what, const char *path, char *err, unsigned errlen);

/* Lock an output folder for this process: DIR/.run_test.lock, holding the
 * PID. wait = 0: fail at once when another process holds it, naming its
 * PID; wait = 1: wait for it (a signal ends the wait: -1, errno EINTR).
 * Returns the lock's descriptor (kept open until exit), or -1 with a
 * message in err. */
int cli_lock_dir(const char *dir, int wait, char *err, unsigned errlen);

/* The two-stage stop of every program, on SIGINT, SIGTERM and (with_hup)
 * SIGHUP; cli_catch_signals installs it (no SA_RESTART: a blocking wait
 * returns EINTR). SIGPIPE is the program's own choice.
 * - The first signal sets cli_signal to its number and nothing else: the
 *   program ends its work as it should (run_test: its report written, the
 *   board reset; th_server: drains; th_package: stops bootgen, removes its
 *   scratch files).
 * - A second one ends the program at once (the default action), unless it
 *   comes within a second of the first: timeout(1) and a terminal deliver
 *   one signal twice, to the process and to its group.
 * - While cli_cancel_armed is set (run_test's uploads), a signal (the
 *   first, or the next after the first) is also, or instead of ending the
 *   program, stored in cli_cancel; one more after that ends the program. */
extern volatile sig_atomic_t cli_signal;
extern volatile sig_atomic_t cli_cancel_armed, cli_cancel;
void cli_catch_signals(int with_hup);

#endif
