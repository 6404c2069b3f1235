/* SPDX-License-Identifier: MIT */
/*
 * util/error.h - recording the message of a failure (not installed). The
 * public side is aieth/error.h: the codes, aieth_error_message().
 */
#ifndef AIETH_UTIL_ERROR_H
#define AIETH_UTIL_ERROR_H

#include <stdarg.h>

#include "aieth/error.h"

#if defined(__GNUC__)
#define AIETH_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define AIETH_PRINTF(f, a)
#endif

/* Record the message of a failure for aieth_error_message() on this thread
 * and return code, so callers can write `return aieth__fail(AIETH_EINVAL, ...)`. */
int aieth__fail(int code, const char *fmt, ...) AIETH_PRINTF(2, 3);
/* Prefix the current message: "<prefix>: <old message>". Returns code. */
int aieth__fail_prefix(int code, const char *fmt, ...) AIETH_PRINTF(2, 3);
/* Clear the message (called on entry of public functions that succeed). */
void aieth__error_clear(void);

#endif /* AIETH_UTIL_ERROR_H */
