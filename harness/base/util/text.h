/* SPDX-License-Identifier: MIT */
/*
 * text.h - bytes shown as text (not installed): the quoting of untrusted
 * bytes for an error message, hex digits.
 */
#ifndef AIETH_UTIL_TEXT_H
#define AIETH_UTIL_TEXT_H

#include <stddef.h>

/* The most bytes of a value an error message shows. 64 shows every name the
 * library limits (PLIO, graph, port, board and file names, tokens of data
 * files, a UUID) whole or recognisably, and keeps a message that quotes two
 * values on one terminal line or two, far inside its 2048 bytes. */
#define AIETH_QUOTE_BYTES 64u
/* An output buffer of this size never cuts earlier than AIETH_QUOTE_BYTES:
 * every byte as \xNN, "..." and the NUL. */
#define AIETH_QUOTE_CAP (4u * AIETH_QUOTE_BYTES + 4u)

/* Render len bytes (NUL, newline and high bytes included) for a message,
 * to be put between double quotes: printable ASCII as is, '"' and '\' as
 * \" and \\, every other byte as \xNN (lower-case hex), as C and JSON
 * write them. The message stays one line of printable ASCII whatever the
 * bytes were, and the exact bytes can be read back from it. Input beyond AIETH_QUOTE_BYTES, or beyond what fits
 * in cap, is cut at a whole byte and marked by "..." at the end. out is
 * always terminated when cap > 0 (cap >= 4 leaves room for the marker).
 * Returns out. */
const char *aieth__quote(char *out, size_t cap, const void *bytes, size_t len);
/* The same for a C string (NULL: ""). */
const char *aieth__quote_str(char *out, size_t cap, const char *s);

/* The value of a hex digit (either case), or -1. */
int aieth__hexval(char c);

#endif
