/* SPDX-License-Identifier: MIT */
/*
 * xclbin_write.h - the xclbin writer: header, section table, payloads on
 * 8-byte boundaries with zero padding, m_length = file size (the layout
 * xclbinutil writes, XRT's XclBinClass.cxx, without the mirror blob).
 * File payloads are streamed, never loaded whole. Not installed.
 */
#ifndef AIETH_XCLBIN_WRITE_H
#define AIETH_XCLBIN_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "util/copy.h"

typedef struct {
	uint32_t kind;
	const char *name; /* m_sectionName, cut to 15 characters */
	const void *data; /* payload in memory (size bytes) ... */
	size_t size;
	const char *path;  /* ... or, when data is NULL, this file */
	int stable;        /* path is never cut short or rewritten while it is
					read (an immutable cache entry): mapped, one copy
					less (util/copy.c AIETH_COPY_STABLE); others are read */
	uint8_t *hash_out; /* NULL, or 16 bytes: the payload's hash128, the
					bytes as written (a cache entry's check) */
	/* NULL, or 16 bytes: the payload's hash128, already known (a PDI cache
	 * entry its stamp vouches for): taken for the UUID, the bytes not
	 * hashed */
	const uint8_t *hash_in;
	/* NULL, or a gate (util/copy.h) the copy of path posts to: another
	 * thread reads the payload as it is written */
	aieth_copy_gate *gate;
} xb_wsection;

typedef struct {
	const xb_wsection *sections;
	size_t num_sections; /* 1..10000 */
	uint16_t mode;
	uint16_t action_mask;
	uint8_t version_major, version_minor;
	uint16_t version_patch;
	uint64_t timestamp;            /* also m_uniqueId, as xclbinutil does */
	const char *vbnv;              /* at most 63 characters */
	const uint8_t *uuid;           /* 16 bytes, or NULL: derived from the content (the
					header's fields and each payload's hash128) */
	const uint8_t *interface_uuid; /* NULL: zero (flat embedded platforms) */
} xb_wopts;

/* Write the whole file to fd (from its current position, assumed 0) named
 * `what` in messages. uuid_out (may be NULL) receives the UUID written,
 * size_out the file size. */
int aieth__xb_write_fd(int fd, const char *what, const xb_wopts *o, uint8_t uuid_out[16],
		       uint64_t *size_out);
/* Same, to path, atomically. */
int aieth__xb_write_file(const char *path, const xb_wopts *o, uint8_t uuid_out[16],
			 uint64_t *size_out);

#endif
