/* SPDX-License-Identifier: MIT */
/*
 * xclbin_object.h - the xclbin reader's object, shared by the reader,
 * the checks and the packager (used from package/, so not *_internal.h);
 * in-memory entry points for the fuzz targets and unit tests. Not
 * installed.
 */
#ifndef AIETH_XCLBIN_OBJECT_H
#define AIETH_XCLBIN_OBJECT_H

#include <stddef.h>
#include <stdint.h>

#include "aieth.h"

/* Problems kept per file; a fuzzed table of 10000 bad sections would
 * otherwise make a 10000-line report. */
#define XB_MAX_PROBLEMS 200u
/* Largest AIE_METADATA section read into memory. */
#define XB_MAX_AIE_META (64u << 20)

typedef struct {
	aieth_xclbin_section pub;
	int readable; /* lies inside the file */
} xb_section;

/* Reads of a file of ours (aieth__xclbin_open_own) come from a mapped
 * window of XB_WINDOW_BYTES: walking a PDI's CDO command words then costs
 * page faults, neither a read per command nor a copy of every byte. */
#define XB_WINDOW_BYTES (4u << 20)
typedef struct {
	const uint8_t *map; /* NULL: none mapped */
	uint64_t base, len; /* the file's bytes [base, base + len) */
	int failed;         /* a mapping failed: read with pread */
} xb_window;

struct aieth_xclbin {
	char *path; /* file name used in messages */
	int fd;     /* -1 when reading from memory */
	const uint8_t *mem;
	uint64_t size;
	aieth_xclbin_header hdr;
	char uuid_str[37];
	xb_section *sec; /* the table entries inside the file */
	size_t nsec;
	char **problems;
	size_t nprob;
	size_t dropped; /* problems beyond XB_MAX_PROBLEMS */
	xb_window *win; /* not NULL: a file of ours, read from mappings */
};

/* Open an xclbin held in memory (len bytes, not copied: keep it alive
 * until aieth_xclbin_close). `what` names it in messages. */
int aieth__xclbin_open_mem(aieth_xclbin **out, const char *what, const void *data, size_t len,
			   unsigned flags);

/* aieth_xclbin_open on a file of ours that nothing truncates while it is
 * open (the packager's output, just written, before it is renamed): reads
 * come from mapped windows of it (xb_window). */
int aieth__xclbin_open_own(aieth_xclbin **out, const char *path, unsigned flags);

/* Read n bytes at off of the file or memory. */
int aieth__xb_read_at(const aieth_xclbin *x, void *buf, size_t n, uint64_t off);

/* One section of x as a file of its own: aieth__xb_read_section(ctx = &reader)
 * reads at base + off (the read function aieth__pdi_check takes). */
typedef struct {
	const aieth_xclbin *x;
	uint64_t base;
} xb_section_reader;
int aieth__xb_read_section(void *ctx, void *buf, size_t n, uint64_t off);

/* The nodes of AIE_METADATA that XRT's edge parser reads (aie_meta_xrt.c):
 * one problem line per missing node, value XRT cannot convert to the type
 * it reads it as, or short per-tile list, each starting with `what`;
 * returns the count. */
size_t aieth__aie_meta_xrt_check(const aieth_aie_meta *m, const char *what, aieth_problem_fn report,
				 void *ctx);

/* aieth_xclbin_check with flags for its PDI section's check
 * (aieth__pdi_check, xclbin/pdi_format.h: AIETH_PDI_NO_WALK); a file read
 * from memory or mapped windows is walked in small reads (AIETH_PDI_READ_MEM). */
size_t aieth__xclbin_check_flags(const aieth_xclbin *x, const aieth_board *board,
				 aieth_problem_fn report, void *ctx, unsigned flags);

/* The parsed JSON document of m (owned by m). */
struct json_object *aieth__aie_meta_root(const aieth_aie_meta *m);

/* "section 1 (PDI \"aie\")" for messages. */
void aieth__xb_section_label(const aieth_xclbin_section *s, size_t i, char *buf, size_t cap);

#endif
