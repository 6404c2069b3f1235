/* SPDX-License-Identifier: MIT */
/*
 * cli_common.h - helpers shared by the command-line programs.
 */
#ifndef AIETH_CLI_COMMON_H
#define AIETH_CLI_COMMON_H

#include <getopt.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>

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

/* One command-line option of a program's table: getopt_long's view of it
 * (cli_parser_init) and its --help entry (cli_help_print) come from the
 * same row, so the two cannot drift apart. */
typedef struct {
	int id;            /* what cli_getopt returns: the program's enum, >= 0 */
	const char *name;  /* the long name without "--" */
	char letter;       /* the short option, 0 for none */
	const char *arg;   /* the argument's name in the help ("FILE"), NULL: none */
	const char *group; /* from this row on, the help's heading ("options:") */
	const char *help;  /* wrapped at 79 columns ('\n': a break of its own) */
} cli_opt;

#define CLI_OPTS_MAX 64
#define CLI_NOPTS(table) (sizeof(table) / sizeof((table)[0]))
/* cli_getopt's results besides an id and -1 (no more options): an unknown
 * option, or one without its argument (getopt_long's '?' and ':') */
#define CLI_OPT_UNKNOWN (-2)
#define CLI_OPT_NOARG (-3)

/* getopt_long's tables made from a program's option table. */
typedef struct {
	const cli_opt *opts;
	size_t n;
	struct option longopts[CLI_OPTS_MAX + 1];
	char shortopts[2 * CLI_OPTS_MAX + 3];
} cli_parser;

/* Make p's tables from opts[0..n). prefix: the start of getopt's optstring
 * ("" or ":" for CLI_OPT_NOARG instead of getopt's own message). 0, or -1
 * when the table is too big (a program's bug). */
int cli_parser_init(cli_parser *p, const cli_opt *opts, size_t n, const char *prefix);
/* getopt_long over argv with p's tables: the id of the next option (optarg
 * set as getopt_long sets it), -1 after the last, CLI_OPT_UNKNOWN or
 * CLI_OPT_NOARG. */
int cli_getopt(const cli_parser *p, int argc, char **argv);

/* Print the table's --help entries: a heading where a row names a new group
 * (after an empty line), then "  -x, --name ARG" (a long-only name indented
 * as if it had "-x, " when align_long) and its text from column col (two
 * spaces after a longer name), wrapped at 79 columns. A row without help
 * text gets help_of(its id), a text made at print time; without either
 * (help_of NULL, or its NULL) the row is not listed. */
void cli_help_print(FILE *f, const cli_opt *opts, size_t n, int col, int align_long,
		    const char *(*help_of)(int id));

#endif
