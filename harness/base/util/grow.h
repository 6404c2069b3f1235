/* SPDX-License-Identifier: MIT */
/*
 * util/grow.h - the growable array every list of the library is: room for
 * one more element, doubling from a first capacity up to an optional
 * limit, the multiplication checked before realloc (as libgit2's
 * git_array). One helper instead of a doubling loop in each file.
 */
#ifndef AIETH_UTIL_GROW_H
#define AIETH_UTIL_GROW_H

#include <stddef.h>

/* Room for need elements of elem bytes in the array *pp points to, of *cap
 * elements: 0 when it has it (grown to first, then doubled, but never past
 * max when max is not 0), -1 when need is over max, the size overflows or
 * realloc fails (*pp and *cap untouched: the caller's message says which
 * list). pp is the address of the array's pointer (any object type). */
int aieth__grow(void *pp, size_t *cap, size_t need, size_t elem, size_t first, size_t max);

/* aieth__grow for an array variable arr of capacity cap (lvalues), the
 * element's size taken from arr so the two cannot disagree. */
#define AIETH__GROW(arr, cap, need, first, max) \
	aieth__grow(&(arr), &(cap), (need), sizeof *(arr), (first), (max))

#endif
