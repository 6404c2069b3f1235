/* SPDX-License-Identifier: MIT */
/*
 * sbuf.h - the one growing byte buffer of the library (not installed): report
 * text, wire messages (AMD's protocol, the xrt backend's frames), reply
 * bodies, parsed data.
 *
 * Every buffer is bounded: its limit is given when it is made (SB_INIT(max)
 * or aieth__sb_init), as curl's dynbuf takes its "toobig" (docs/internals/DYNBUF.md
 * in curl's repository). A buffer made without a limit ({0}) takes nothing.
 * An append that would pass the limit, or that runs out of memory, fails:
 * the error is kept (oom, and over when the limit was the cause) and later
 * appends do nothing, so a writer may append many pieces and check once
 * (aieth__sb_check, aieth__sb_take, aieth__sb_write_file).
 *
 * After an append the bytes are followed by a NUL (not counted in n), so a
 * text buffer is a C string; bytes may hold NULs of their own.
 */
#ifndef AIETH_SBUF_H
#define AIETH_SBUF_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"
#include "util/le.h"

typedef struct {
	union {
		char *p;    /* the bytes as text (NULL until something was appended) */
		uint8_t *u; /* the same bytes, unsigned */
	};
	size_t n, cap;
	size_t max; /* the most bytes it may hold (0: none) */
	int oom;    /* an append failed (out of memory, or over max) */
	int over;   /* ... because it would have passed max */
} sbuf;

/* A buffer that may hold at most max bytes. */
#define SB_INIT(max_bytes)         \
	{                          \
		.max = (max_bytes) \
	}

/* Limits for the writers: a phrase or table cell built for a message or a
 * line, and a whole document built in memory before it is written (a report
 * file, an upload's payload). The library's documents grow with the number
 * of tests and channels, never with the data. */
#define SB_LINE_MAX ((size_t)64 << 10)
#define SB_DOC_MAX ((size_t)256 << 20)

void aieth__sb_init(sbuf *b, size_t max);

/* Append len bytes (s NULL: len zero bytes). 0, or AIETH_ENOMEM when this or
 * an earlier append failed (no message is recorded: see aieth__sb_check). */
int aieth__sb_put(sbuf *b, const void *s, size_t len);
int aieth__sb_printf(sbuf *b, const char *fmt, ...) AIETH_PRINTF(2, 3);

/* A byte; little-endian integers (wire formats). */
static inline int sb_u8(sbuf *b, uint8_t v) { return aieth__sb_put(b, &v, 1); }
static inline int sb_le32(sbuf *b, uint32_t v)
{
	uint8_t x[4];
	aieth__le32_put(x, v);
	return aieth__sb_put(b, x, 4);
}
static inline int sb_le64(sbuf *b, uint64_t v)
{
	uint8_t x[8];
	aieth__le64_put(x, v);
	return aieth__sb_put(b, x, 8);
}

/* 0, or the failure of an append as a message naming what the buffer holds:
 * AIETH_ENOMEM "<what>: longer than the limit of <max> bytes" or
 * "<what>: out of memory". */
int aieth__sb_check(const sbuf *b, const char *what);

/* Forget the contents and any failure, keep the memory and the limit. */
void aieth__sb_reset(sbuf *b);
/* Free the memory; the limit stays (the buffer may be used again). */
void aieth__sb_free(sbuf *b);

/* The text, for the caller to free (NULL when nothing was appended), or
 * NULL when an append failed (the buffer freed). The buffer is left empty. */
char *aieth__sb_take(sbuf *b);

/* Write the buffer to path through aieth__write_atomic (replaced only when
 * complete; a device or FIFO in place), or fail as aieth__sb_check names path when
 * an append failed; the buffer is freed either way. */
int aieth__sb_write_file(sbuf *b, const char *path);

/* a string literal, its length from sizeof */
#define sb_lit(b, s) aieth__sb_put((b), (s), sizeof(s) - 1)

#endif
