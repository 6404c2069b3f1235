/* SPDX-License-Identifier: MIT */
/*
 * cli_common.h - helpers shared by the command-line programs.
 */
#ifndef AIETH_CLI_COMMON_H
#define AIETH_CLI_COMMON_H

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

#endif
