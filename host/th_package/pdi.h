/* SPDX-License-Identifier: MIT */
/*
 * pdi.h - Versal PDI facts the packager needs (the device IDCODE in the
 * Image Header Table; the CDO file header) and building the AIE PDI with
 * bootgen. Not installed.
 */
#ifndef AIETH_PDI_H
#define AIETH_PDI_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "th_package/pdi_cache.h"
#include "xclbin/pdi_format.h"

/* Bytes read to find the IDCODE of a PDI we wrote (partial: table at 0x10). */
#define AIETH_PDI_SCAN_BYTES (64u * 1024u)
/* Bytes searched in an XSA's boot PDI (its table follows the boot loader). */
#define AIETH_PDI_SCAN_BOOT (32u << 20)

/* Find an Image Header Table in buf (4-byte aligned offsets; partial PDIs
 * have it at 0x10, boot PDIs after the boot header and loader; the table's
 * own checksum confirms it) and return its IDCODE and extended IDCODE.
 * AIETH_ENOTFOUND (no message set) when there is none. */
int aieth__pdi_idcode(const uint8_t *buf, size_t len, uint32_t *id_code, uint32_t *ext_id_code);
/* The same on the first AIETH_PDI_SCAN_BYTES of the file at path: the
 * error of opening it (message set), or AIETH_ENOTFOUND (no message) when
 * it is empty, unreadable or holds no table there. */
int aieth__pdi_file_idcode(const char *path, uint32_t *id_code, uint32_t *ext_id_code);

/* The check th_package check applies to an xclbin's PDI section
 * (aieth__pdi_check, xclbin/pdi_format.h), on the PDI file at path: one
 * line per problem to report, each starting with the path; *problems is
 * their count; flags: aieth__pdi_check's (AIETH_PDI_NO_WALK). The error
 * of opening the file (message set), else AIETH_OK. */
int aieth__pdi_file_check(const char *path, const aieth_board *board, unsigned flags,
			  aieth_problem_fn report, void *ctx, size_t *problems);

/* aieth__cdo_check_header and AIETH_CDO_HEADER_BYTES: xclbin/pdi_format.h (the
 * xclbin check applies the same rule to a PDI's CDO partitions). */

typedef struct {
	const char *bootgen;     /* program name or path; NULL: "bootgen" */
	const char *work_dir;    /* where the BIF and bootgen's log go */
	const char *const *cdos; /* CDO files, in load order */
	size_t num_cdos;
	uint32_t id_code, ext_id_code;
	const char *output;            /* the PDI to write */
	double timeout_s;              /* > 0: bootgen is killed after this long */
	volatile sig_atomic_t *cancel; /* non-zero: kill bootgen and stop */
	const char *arch;              /* bootgen -arch; NULL: "versal" */
	const aieth_pdi_cache *cache;  /* NULL: no PDI cache; else a hit skips bootgen */
	int cache_store_only;          /* with cache: no lookup, only store (a rebuild
					after a damaged entry) */
	int defer_check;               /* with cache: a hit's content hash is left to the
					caller (result cache_check, aieth__pdi_cache_take) */
} aieth_pdi_build_opts;

typedef struct {
	int tool_failed; /* bootgen missing, killed or failed */
	double seconds;
	long maxrss_kib;
	int timed_out;        /* killed at its time limit (AIETH_ETIMEOUT) */
	int interrupted;      /* killed because *cancel was set (AIETH_ESTATE) */
	int from_cache;       /* the PDI came from the cache: bootgen not run */
	int cache_stored;     /* bootgen's PDI was stored in the cache */
	double cache_seconds; /* computing the key and reading or storing the entry */
	int have_key;         /* cache_key holds the PDI's cache key */
	uint8_t cache_key[32];
	aieth_pdi_cache_check cache_check; /* defer_check: what the caller checks (and
					    releases: aieth__pdi_cache_release) */
} aieth_pdi_build_result;

/* Write a BIF with one AIE image (id 0x1c000000) holding the CDOs in order
 * as one cdo partition, run `bootgen -arch ARCH -image BIF -o OUT -w`
 * (ARCH: o->arch, else versal),
 * and check that OUT is a PDI with the given IDCODE. On failure the
 * message carries bootgen's own error lines. bootgen runs in its own
 * process group; at the time limit or on *cancel the whole group is
 * killed and reaped before this returns. With o->cache, the PDI comes
 * from the cache when it holds one for the same inputs (the same checks
 * apply), and a PDI bootgen built is stored there (a failure to store is
 * not an error: cache_stored stays 0). */
int aieth__pdi_build(const aieth_pdi_build_opts *o, aieth_pdi_build_result *r);

#endif
