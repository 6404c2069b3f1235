/* SPDX-License-Identifier: MIT */
/*
 * sbuf.h - a growing string buffer for the report writers (not installed).
 * An allocation failure is remembered in oom; later appends do nothing.
 */
#ifndef AIETH_SBUF_H
#define AIETH_SBUF_H

#include <stddef.h>

#include "util/error.h"

typedef struct {
	char *p;       /* NUL-terminated once anything was appended */
	size_t n, cap;
	int oom;
} sbuf;

void sb_put(sbuf *b, const char *s, size_t len);
void sb_printf(sbuf *b, const char *fmt, ...) AIETH_PRINTF(2, 3);

/* The text, for the caller to free (NULL when nothing was appended), or
 * NULL when an append ran out of memory (the buffer freed). */
char *sb_take(sbuf *b);

/* Write the buffer to path through aieth__write_atomic (replaced only when
 * complete; a device or FIFO in place), or fail with AIETH_ENOMEM naming
 * path when an append ran out of memory; the buffer is freed either way. */
int sb_write_file(sbuf *b, const char *path);

/* a string literal, its length from sizeof */
#define sb_lit(b, s) sb_put((b), (s), sizeof(s) - 1)

#endif
