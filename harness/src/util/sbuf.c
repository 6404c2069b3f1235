/* SPDX-License-Identifier: MIT */
/* sbuf.c - the growing string buffer of the report writers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fileio.h"
#include "util/sbuf.h"

void sb_put(sbuf *b, const char *s, size_t len)
{
	if (b->oom)
		return;
	if (b->n + len + 1 > b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 4096;
		char *np;
		while (nc < b->n + len + 1)
			nc *= 2;
		np = realloc(b->p, nc);
		if (!np) {
			b->oom = 1;
			return;
		}
		b->p = np;
		b->cap = nc;
	}
	memcpy(b->p + b->n, s, len);
	b->n += len;
	b->p[b->n] = '\0';
}

void sb_printf(sbuf *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		sb_put(b, tmp, (size_t)n);
	} else {
		char *big = malloc((size_t)n + 1);
		if (!big) {
			b->oom = 1;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		sb_put(b, big, (size_t)n);
		free(big);
	}
}


int sb_write_file(sbuf *b, const char *path)
{
	int rc;
	if (b->oom)
		rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", path);
	else
		rc = aieth__write_atomic(path, b->p ? b->p : "", b->n);
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
	return rc;
}

char *sb_take(sbuf *b)
{
	char *p = b->p;
	if (b->oom) {
		free(p);
		p = NULL;
	}
	b->p = NULL;
	b->n = b->cap = 0;
	return p;
}
