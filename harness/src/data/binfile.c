/* SPDX-License-Identifier: MIT */
/*
 * binfile.c - binary data files, read whole (writes: aieth__write_atomic,
 * util/fileio.c).
 */
#include <stdlib.h>

#include "aieth.h"
#include "data/data.h"
#include "util/error.h"
#include "util/fileio.h"

int aieth__bin_read(const char *path, size_t max_bytes, uint8_t **out, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	int rc;

	if (out)
		*out = NULL;
	if (len)
		*len = 0;
	if (!path || !out || !len)
		return aieth__fail(AIETH_EINVAL, "aieth__bin_read: NULL argument");
	rc = aieth__read_file(path, max_bytes, &buf, &n);
	if (rc != AIETH_OK)
		return rc;
	if (n == 0) {
		free(buf);
		return aieth__fail(AIETH_EINVAL, "%s: file is empty (0 bytes of data)", path);
	}
	*out = (uint8_t *)buf;
	*len = n;
	return AIETH_OK;
}
