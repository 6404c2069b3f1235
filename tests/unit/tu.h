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
#include <string.h>

typedef struct {
	const char *name;
	void (*fn)(void);
} tu_test;

/* Path of a file in the source tree / the build tree (static buffer). */
const char *tu_src(const char *rel);
const char *tu_build(const char *rel);
/* Write text to a fresh temporary file, removed when tu_run has run the
 * suite; returns its path (static buffer per call slot, 8 slots). */
const char *tu_tmpfile(const char *text);

int tu_run(const char *suite, const tu_test *tests);

/* Files of a stand-in tree (a sysfs root): text written to root/rel, and
 * the folder root/rel made; each failure fails the test at once. */
void tu_put(const char *root, const char *rel, const char *text);
void tu_mkdir(const char *root, const char *rel);

/* The lines a callback each(ctx, line) is given (aieth__aie_state_words, ...):
 * tu_say keeps the first TU_SAID_MAX in tu_said (each cut at 512 bytes)
 * and counts every one in tu_nsaid; set tu_nsaid to 0 before a call. */
#define TU_SAID_MAX 16
extern char tu_said[TU_SAID_MAX][512];
extern int tu_nsaid;
void tu_say(void *ctx, const char *line);

/* A session on the emulated board with one graph "gr" of the given model
 * (params: JSON text or NULL); NULL (and the error printed) on failure. */
struct aieth_session *tu_session(const char *board, const char *model, const char *params,
				 int reference);

/* A versioned options struct (docs/api.md, "Versioned structs"): its INIT
 * macro and its init function give the same bytes, padding included; the
 * init function refuses NULL, version 0 and a version after the newest. */
#define TU_OPTS_INIT(type, INIT, fn, VERSION)                                                  \
	do {                                                                                   \
		type a_ = INIT, b_;                                                            \
		memset(&b_, 0xa5, sizeof b_);                                                  \
		CU_ASSERT_EQUAL(fn(&b_, VERSION), 0);                                          \
		CU_ASSERT_EQUAL(memcmp(&a_, &b_, sizeof a_), 0);                               \
		CU_ASSERT_EQUAL(b_.version, VERSION);                                          \
		CU_ASSERT_EQUAL(fn(NULL, VERSION), AIETH_EINVAL);                              \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), #fn ": NULL"));           \
		CU_ASSERT_EQUAL(fn(&b_, 0), AIETH_EINVAL);                                     \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "version 0 is unknown")); \
		CU_ASSERT_EQUAL(fn(&b_, (VERSION) + 1), AIETH_EINVAL);                         \
		CU_ASSERT_EQUAL(memcmp(&a_, &b_, sizeof a_), 0); /* left alone */              \
	} while (0)

/* The refusal of a struct's version by the call that reads it: version 0
 * and the one after the newest, each with the message naming the field
 * (where: "aieth_session_opts" or "aieth_session_opts.remote"), the value
 * and how to initialise it. call is an expression using the struct; ver
 * is its version field, restored afterwards. */
#define TU_OPTS_REFUSED(call, ver, where, INIT_NAME, NEWEST)                                   \
	do {                                                                                   \
		unsigned int keep_ = (ver);                                                    \
		char want_[160];                                                               \
		(ver) = 0;                                                                     \
		CU_ASSERT_EQUAL(call, AIETH_EINVAL);                                           \
		snprintf(want_, sizeof want_, "%s.version is 0: initialise it with %s", where, \
			 INIT_NAME);                                                           \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), want_));                  \
		(ver) = (NEWEST) + 1;                                                          \
		CU_ASSERT_EQUAL(call, AIETH_EINVAL);                                           \
		snprintf(want_, sizeof want_, "%s.version is %u: this library knows", where,   \
			 (unsigned)(NEWEST) + 1);                                              \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), want_));                  \
		(ver) = keep_;                                                                 \
	} while (0)

#define TU_MAIN(suite, ...)                                              \
	int main(void)                                                   \
	{                                                                \
		static const tu_test t_[] = {__VA_ARGS__, {NULL, NULL}}; \
		return tu_run(suite, t_);                                \
	}

#endif
