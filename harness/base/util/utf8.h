/* SPDX-License-Identifier: MIT */
/*
 * util/utf8.h - UTF-8 checks for everything a report writes (not
 * installed): names, paths and messages may hold any bytes (a file that is
 * not an xclbin, a Latin-1 path), the reports must stay valid UTF-8.
 */
#ifndef AIETH_UTIL_UTF8_H
#define AIETH_UTIL_UTF8_H

#include <stddef.h>

/* Length of the valid character at s: 1 for an ASCII byte other than NUL,
 * 2-4 for a valid multi-byte sequence, 0 for NUL or an invalid sequence
 * (a stray continuation byte, an overlong form, a surrogate, a code point
 * past U+10FFFF, U+FFFE and U+FFFF, which XML does not allow). Never reads
 * past a NUL. */
size_t aieth__utf8_seq(const char *s);

/* 1 when s (NUL-terminated) is valid UTF-8 in the sense above. */
int aieth__utf8_valid(const char *s);

/* A malloc'd copy of s where every byte that does not start a valid
 * character is written as the four characters \xNN (so the text says what
 * the byte was); NULL on allocation failure or for NULL. */
char *aieth__utf8_clean(const char *s);

#endif /* AIETH_UTIL_UTF8_H */
