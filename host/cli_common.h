/*
 * cli_common.h - helpers shared by the command-line programs.
 */
#ifndef AIETH_CLI_COMMON_H
#define AIETH_CLI_COMMON_H

/* The data directory (platforms/, cfg/): the option if given, else
 * $AIETH_DATA_DIR, else next to the program: <bin>/../share/aieth when
 * installed, or the source tree when run from <tree>/build/bin. NULL lets
 * the library use its built-in default. The result is a static buffer. */
const char *cli_data_dir(const char *opt);

/* Create dir (and parents) if missing and check that a file can be written
 * there. 0, or -1 with a message in err. */
int cli_ensure_dir(const char *dir, char *err, unsigned errlen);

#endif
