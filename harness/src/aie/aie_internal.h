/* SPDX-License-Identifier: MIT */
/*
 * aie/aie_internal.h - what the parsers of aie/ share (aie_parse.c): lines
 * of a status file, its checks and its numbers. Not for other folders.
 */
#ifndef AIETH_AIE_INTERNAL_H
#define AIETH_AIE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* The lines of a text: [p, end), line number no of the last one taken. */
typedef struct {
	const char *p, *end;
	int no;
} aie_lines;

/* The next line [*s, *s + *n) without its newline; 0 at the end. */
int aieth__aie__next_line(aie_lines *l, const char **s, size_t *n);
/* The '|'-separated items of [p, end) (the driver joins flags, events,
 * errors and channel fields with it). */
typedef struct {
	const char *p, *end;
	int trailing; /* the last item was followed by a '|' */
} aie_bars;

/* The next item [*s, *s + *n): 1; 0 when none is left; -1 when the list
 * ends with '|' (said after the item before it, so that item's own check
 * speaks first). */
int aieth__aie__next_bar(aie_bars *b, const char **s, size_t *n);
/* "line N: " (N > 0) and the message into note[cap]; returns -1. */
int aieth__aie__fail(char *note, size_t cap, int line, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
/* Only printable ASCII and newlines, at most AIE_FILE_MAX bytes (the
 * driver writes nothing else); else -1 with a note. */
int aieth__aie__clean(const char *text, size_t len, char *note, size_t cap);
/* Whether [s, s+n) starts with key; the rest in *rest, *rn. */
int aieth__aie__starts(const char *s, size_t n, const char *key, const char **rest, size_t *rn);
/* A "0x%x" or decimal number filling [s, s+n), 32 bits: 0, else -1. */
int aieth__aie__number(const char *s, size_t n, uint32_t *v);
/* A core status flag by either spelling (the driver's, or xbutil's and
 * XRT's); -1 when unknown. */
int aieth__aie__flag_bit(const char *name, size_t n);

#endif /* AIETH_AIE_INTERNAL_H */
