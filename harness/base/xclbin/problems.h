/* SPDX-License-Identifier: MIT */
/*
 * problems.h - where the xclbin checks say what they find: each problem is
 * one line to the caller's aieth_problem_fn, counted.
 */
#ifndef AIETH_XCLBIN_PROBLEMS_H
#define AIETH_XCLBIN_PROBLEMS_H

#include <stddef.h>

#include "aieth/xclbin.h"
#include "util/error.h"

typedef struct {
	const char *what;        /* each line starts "what: " (NULL: nothing) */
	aieth_problem_fn report; /* may be NULL: counted only */
	void *ctx;
	size_t count;
} aieth_problems;

/* One problem: the line (at most 1 KiB, cut beyond) to report, count + 1. */
void aieth__problem(aieth_problems *p, const char *fmt, ...) AIETH_PRINTF(2, 3);

#endif
