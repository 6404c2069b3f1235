/* SPDX-License-Identifier: MIT */
/*
 * utf8.c - UTF-8 validation and repair for the report writers: one rule for
 * report.json, junit.xml, report.html, the trace and the text tables.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"

size_t aieth__utf8_seq(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp;
	size_t n, i;
	if (!s || !s[0])
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1fu;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0fu;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07u;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) { /* a NUL is not a continuation byte: stops here */
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

int aieth__utf8_valid(const char *s)
{
	size_t n;
	if (!s)
		return 1;
	while (*s) {
		if (!(n = aieth__utf8_seq(s)))
			return 0;
		s += n;
	}
	return 1;
}

char *aieth__utf8_clean(const char *s)
{
	size_t len, n, k = 0;
	const char *p;
	char *out;
	if (!s)
		return NULL;
	len = strlen(s);
	if (len > (SIZE_MAX - 1) / 4)
		return NULL;
	out = malloc(len * 4 + 1); /* every byte at most 4 */
	if (!out)
		return NULL;
	for (p = s; *p;) {
		if ((n = aieth__utf8_seq(p))) {
			memcpy(out + k, p, n);
			k += n;
			p += n;
		} else {
			snprintf(out + k, 5, "\\x%02x", (unsigned char)*p);
			k += 4;
			p++;
		}
	}
	out[k] = '\0';
	return out;
}
