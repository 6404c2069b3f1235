/* SPDX-License-Identifier: MIT */
/* text.c - quoting untrusted bytes for messages, hex digits (text.h). */
#include <string.h>

#include "util/text.h"

/* The length of byte c in the output. */
static size_t width(unsigned char c)
{
	if (c == '"' || c == '\\')
		return 2;
	return c >= 0x20 && c < 0x7f ? 1 : 4;
}

const char *aieth__quote(char *out, size_t cap, const void *bytes, size_t len)
{
	static const char hx[] = "0123456789abcdef";
	const unsigned char *s = bytes;
	size_t i, o = 0, n = len < AIETH_QUOTE_BYTES ? len : AIETH_QUOTE_BYTES, room, need = 0;
	if (cap == 0)
		return out;
	for (i = 0; i < n; i++)
		need += width(s[i]);
	/* all of it, or as much as leaves room for the marker */
	room = n == len && need < cap ? cap - 1 : cap >= 4 ? cap - 4 : 0;
	for (i = 0; i < n && o + width(s[i]) <= room; i++) {
		unsigned char c = s[i];
		if (width(c) == 1) {
			out[o++] = (char)c;
		} else if (width(c) == 2) {
			out[o++] = '\\';
			out[o++] = (char)c;
		} else {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hx[c >> 4];
			out[o++] = hx[c & 15];
		}
	}
	if (i < len && cap >= 4) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
	return out;
}

const char *aieth__quote_str(char *out, size_t cap, const char *s)
{
	return aieth__quote(out, cap, s ? s : "", s ? strlen(s) : 0);
}

int aieth__hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
