/* SPDX-License-Identifier: MIT */
/*
 * aieth/error.h - error codes and the message of the last failure.
 *
 * Every function that can fail returns AIETH_OK (0) or a negative
 * aieth_error; aieth_error_message() tells what happened on this thread.
 */
#ifndef AIETH_PUBLIC_ERROR_H
#define AIETH_PUBLIC_ERROR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	AIETH_OK = 0,
	AIETH_EINVAL = -1,      /* an argument or an input value breaks a rule */
	AIETH_ENOMEM = -2,      /* out of memory */
	AIETH_EIO = -3,         /* a file could not be read or written */
	AIETH_EPARSE = -4,      /* an input file is malformed */
	AIETH_ENOTFOUND = -5,   /* unknown board, PLIO, graph, model ... */
	AIETH_ESTATE = -6,      /* operation not valid in the current state */
	AIETH_EDEVICE = -7,     /* the device or backend failed */
	AIETH_ETIMEOUT = -8,    /* a wait expired */
	AIETH_EUNSUPPORTED = -9 /* not supported by this backend or board */
} aieth_error;

/* Message of the last failure on this thread ("" if none). Valid until the
 * next libaieth call on this thread. */
const char *aieth_error_message(void);
/* Symbolic name of an error code, e.g. "AIETH_EINVAL". */
const char *aieth_error_name(int code);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_ERROR_H */
