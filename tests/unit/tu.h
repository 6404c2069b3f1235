/* SPDX-License-Identifier: MIT */
/*
 * tu.h - tiny helpers for the CUnit unit tests: each tests/unit/test_*.c is
 * its own program; TU_MAIN registers its tests and runs them.
 */
#ifndef TU_H
#define TU_H

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	const char *name;
	void (*fn)(void);
} tu_test;

/* Path of a file in the source tree / the build tree (static buffer). */
const char *tu_src(const char *rel);
const char *tu_build(const char *rel);
/* Write text to a fresh temporary file; returns its path (static buffer
 * per call slot, 8 slots). */
const char *tu_tmpfile(const char *text);

int tu_run(const char *suite, const tu_test *tests);

/* A session on the emulated board with one graph "gr" of the given model
 * (params: JSON text or NULL); NULL (and the error printed) on failure. */
struct aieth_session *tu_session(const char *board, const char *model, const char *params,
				 int reference);

#define TU_MAIN(suite, ...)                                             \
	int main(void)                                                  \
	{                                                               \
		static const tu_test t_[] = {__VA_ARGS__, {NULL, NULL}}; \
		return tu_run(suite, t_);                               \
	}

#endif
