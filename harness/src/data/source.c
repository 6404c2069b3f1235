/* SPDX-License-Identifier: MIT */
/*
 * source.c - channel data read piece by piece (aieth_src, data.h), so that
 * a dataset is never held whole: files are read where asked, patterns
 * generated where asked.
 */
#include <string.h>

#include "aieth.h"
#include "data/data.h"
#include "util/error.h"
#include "util/fileio.h"

int aieth__src_read(const aieth_src *s, uint64_t off, void *buf, size_t n)
{
	if (!s || (!buf && n))
		return aieth__fail(AIETH_EINVAL, "aieth__src_read: NULL argument");
	if (off > s->len || n > s->len - off)
		return aieth__fail(AIETH_EINVAL, "data source: bytes %llu..%llu asked, it has %llu",
				   (unsigned long long)off, (unsigned long long)(off + n),
				   (unsigned long long)s->len);
	switch (s->kind) {
	case AIETH_SRC_MEM: memcpy(buf, s->mem + off, n); return AIETH_OK;
	case AIETH_SRC_FILE:
		return aieth__pread_full(s->fd, buf, n, off, s->what ? s->what : "data file");
	case AIETH_SRC_PATTERN: return aieth__pattern_fill_at(&s->pat, off, buf, n);
	default: memset(buf, 0, n); return AIETH_OK;
	}
}
