/* SPDX-License-Identifier: MIT */
/* sbuf.c - the growing byte buffer (sbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fileio.h"
#include "util/sbuf.h"

void aieth__sb_init(sbuf *b, size_t max)
{
	memset(b, 0, sizeof *b);
	b->max = max;
}

static int failed(sbuf *b, int over)
{
	b->oom = 1;
	b->over |= over;
	return AIETH_ENOMEM;
}

int aieth__sb_put(sbuf *b, const void *s, size_t len)
{
	if (b->oom)
		return AIETH_ENOMEM;
	if (len > b->max || b->n > b->max - len)
		return failed(b, 1);
	if (b->n + len + 1 > b->cap) {
		/* doubling from 256, never past what the limit needs */
		size_t need = b->n + len + 1, nc = b->cap ? b->cap : 256;
		char *np;
		while (nc < need)
			nc = nc > SIZE_MAX / 2 ? need : nc * 2;
		if (b->max < SIZE_MAX && nc > b->max + 1)
			nc = b->max + 1 > need ? b->max + 1 : need;
		np = realloc(b->p, nc);
		if (!np)
			return failed(b, 0);
		b->p = np;
		b->cap = nc;
	}
	if (s)
		memcpy(b->p + b->n, s, len);
	else
		memset(b->p + b->n, 0, len);
	b->n += len;
	b->p[b->n] = '\0';
	return 0;
}

int aieth__sb_printf(sbuf *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n, rc;
	if (b->oom)
		return AIETH_ENOMEM;
	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return failed(b, 0);
	if ((size_t)n < sizeof tmp)
		return aieth__sb_put(b, tmp, (size_t)n);
	if ((size_t)n > b->max || b->n > b->max - (size_t)n)
		return failed(b, 1);
	char *big = malloc((size_t)n + 1);
	if (!big)
		return failed(b, 0);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	rc = aieth__sb_put(b, big, (size_t)n);
	free(big);
	return rc;
}

int aieth__sb_check(const sbuf *b, const char *what)
{
	if (!b->oom)
		return 0;
	if (b->over)
		return aieth__fail(AIETH_ENOMEM, "%s: longer than the limit of %zu bytes", what,
				   b->max);
	return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
}

void aieth__sb_reset(sbuf *b)
{
	b->n = 0;
	b->oom = b->over = 0;
	if (b->p)
		b->p[0] = '\0';
}

void aieth__sb_free(sbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
	b->oom = b->over = 0;
}

int aieth__sb_write_file(sbuf *b, const char *path)
{
	int rc = aieth__sb_check(b, path);
	if (!rc)
		rc = aieth__write_atomic(path, b->p ? b->p : "", b->n);
	aieth__sb_free(b);
	return rc;
}

char *aieth__sb_take(sbuf *b)
{
	char *p = b->p;
	if (b->oom) {
		free(p);
		p = NULL;
	}
	b->p = NULL;
	b->n = b->cap = 0;
	b->oom = b->over = 0;
	return p;
}
