/* SPDX-License-Identifier: MIT */
/*
 * fuzz_check.h - CHECK(c) for the fuzz targets: an invariant that does not
 * hold prints where and aborts, which libFuzzer reports as a crash.
 */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(c)                                                                               \
	do {                                                                                   \
		if (!(c)) {                                                                    \
			fprintf(stderr, "CHECK failed: %s (%s:%d)\n", #c, __FILE__, __LINE__); \
			abort();                                                               \
		}                                                                              \
	} while (0)

#endif
