/* SPDX-License-Identifier: MIT */
/*
 * cli_validate.h - run_test validate: the board health suite on the
 * command line (docs/on-board.md, "Board health: run_test validate").
 */
#ifndef AIETH_CLI_VALIDATE_H
#define AIETH_CLI_VALIDATE_H

/* argv[0] is "validate". Returns the suite's exit code (0 passed or
 * warnings, 1 a test failed, 2 usage, 4 the board unusable, 5 a hang). */
int cli_validate_main(const char *prog, int argc, char **argv);

#endif
