/*
 * internal.h - helpers shared inside libaieth (not installed).
 */
#ifndef AIETH_INTERNAL_H
#define AIETH_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "aieth.h"

#if defined(__GNUC__)
#define AIETH_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define AIETH_PRINTF(f, a)
#endif

/* Record the message of a failure for aieth_error_message() on this thread
 * and return code, so callers can write `return aieth_fail(AIETH_EINVAL, ...)`. */
int aieth_fail(int code, const char *fmt, ...) AIETH_PRINTF(2, 3);
/* Prefix the current message: "<prefix>: <old message>". Returns code. */
int aieth_fail_prefix(int code, const char *fmt, ...) AIETH_PRINTF(2, 3);
/* Clear the message (called on entry of public functions that succeed). */
void aieth_error_clear(void);

/* The data directory: explicit, else $AIETH_DATA_DIR, else the built-in
 * AIETH_DATADIR. Never NULL. */
const char *aieth_data_dir(const char *explicit_dir);

/* Read a whole file into a NUL-terminated buffer *out (caller frees).
 * Returns AIETH_OK, or AIETH_EIO / AIETH_EINVAL (larger than max_bytes) /
 * AIETH_ENOMEM with the message naming path; *out is then NULL. */
int aieth_read_file(const char *path, size_t max_bytes, char **out, size_t *len_out);

/* Join dir and rel into a newly allocated path; rel absolute is returned as
 * a copy. NULL on allocation failure. */
char *aieth_path_join(const char *dir, const char *rel);
/* Directory part of path (newly allocated; "." when there is none). */
char *aieth_path_dirname(const char *path);

char *aieth_strdup(const char *s);

#endif /* AIETH_INTERNAL_H */
