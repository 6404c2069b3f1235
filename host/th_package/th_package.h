/* SPDX-License-Identifier: MIT */
/*
 * th_package.h - the packager behind th_package: an AIE-only XCLBIN from a
 * compiled graph and the precompiled XSA. See docs/packaging.md.
 */
#ifndef AIETH_PUBLIC_PACKAGE_H
#define AIETH_PUBLIC_PACKAGE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "aieth.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The packager's options. A versioned struct (aieth/session.h, docs/api.md):
 * initialise it with AIETH_PACKAGE_OPTS_INIT or aieth__package_opts_init
 * (timestamp, id_code and ext_id_code start at -1: from the clock and the
 * XSA). */
typedef struct {
	unsigned int version; /* AIETH_PACKAGE_OPTS_VERSION */
	/* what: the inputs */
	const aieth_board *board; /* required */
	const char *xsa;          /* the precompiled XSA (zip); required */
	const char *graph;        /* libadf.a (ar) or an aiecompiler Work/ dir */
	const char *pdi;          /* prebuilt PDI: bootgen is not run */
	const char *aie_metadata; /* aie_control_config.json to use instead of the graph's */
	/* Data directory of the board files (NULL: $AIETH_DATA_DIR, then the
	 * installed one): an XSA whose IDCODE another board file states is
	 * refused. */
	const char *data_dir;
	/* where: the output and scratch space */
	const char *output;  /* the xclbin to write (atomically) */
	const char *tmp_dir; /* NULL: $TMPDIR, then /tmp */
	/* the xclbin's header */
	const uint8_t *uuid;  /* 16 bytes, or NULL: derived from content */
	const char *vbnv;     /* NULL: from the XSA, else the board */
	int64_t timestamp;    /* seconds; < 0: time(NULL) */
	int64_t id_code;      /* device IDCODE; < 0: from the XSA's PDI */
	int64_t ext_id_code;  /* < 0: from the XSA's PDI */
	uint16_t action_mask; /* 0: AIETH_XCLBIN_AM_LOAD_AIE */
	int no_check;         /* 1: skip the PLIO check (structure is always checked) */
	/* bootgen and the PDI cache (docs/packaging.md) */
	const char *bootgen; /* NULL: "bootgen" from PATH */
	/* bootgen's time limit in seconds: 0 means AIETH_BOOTGEN_TIMEOUT_DEFAULT,
	 * < 0 no limit. A bootgen still running then is killed with its whole
	 * process group: AIETH_ETIMEOUT, result->tool_failed set. */
	double bootgen_timeout_s;
	/* With use_cache 1 a PDI bootgen built is kept under the SHA-256 of
	 * everything bootgen read, and the same inputs again skip bootgen (same
	 * output bytes). cache_dir NULL: $AIETH_CACHE_DIR, else
	 * $XDG_CACHE_HOME/aieth, else ~/.cache/aieth (created 0700);
	 * cache_max_bytes 0: AIETH_PACKAGE_CACHE_MAX_DEFAULT, least recently
	 * used entries evicted past it. */
	int use_cache;
	const char *cache_dir;
	uint64_t cache_max_bytes;
	/* hooks */
	aieth_problem_fn report;                       /* receives check problems (may be NULL) */
	void (*progress)(void *ctx, const char *step); /* may be NULL */
	void *ctx;
	/* Interruption (may be NULL): when *cancel becomes non-zero (a signal
	 * handler sets it), aieth__package kills a running bootgen, removes its
	 * scratch directory and the partial output, and returns AIETH_ESTATE
	 * with result->interrupted set, within a fraction of a second while
	 * bootgen runs, else at the next step. */
	volatile sig_atomic_t *cancel;
} aieth__package_opts;

#define AIETH_PACKAGE_OPTS_VERSION 1
#define AIETH_PACKAGE_OPTS_INIT                                                        \
	{                                                                              \
		.version = AIETH_PACKAGE_OPTS_VERSION, .timestamp = -1, .id_code = -1, \
		.ext_id_code = -1                                                      \
	}
int aieth__package_opts_init(aieth__package_opts *opts, unsigned int version);

#define AIETH_PACKAGE_CACHE_MAX_DEFAULT (1ull << 30)

/* A UUID as text, 32 hex digits with dashes anywhere (the usual
 * xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx form): AIETH_OK, or AIETH_EINVAL
 * with the message naming the text. */
int aieth_uuid_parse(const char *text, uint8_t uuid[16]);
/* The other way: 16 bytes as "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower
 * case, into out (37 bytes with the NUL). */
void aieth_uuid_format(const uint8_t uuid[16], char out[37]);

#define AIETH_BOOTGEN_TIMEOUT_DEFAULT 600.0

typedef struct {
	uint8_t uuid[16];
	char uuid_string[37];
	char vbnv[65];
	const char *vbnv_source; /* "--vbnv", "XSA xsa.json", "board file" */
	uint32_t id_code, ext_id_code;
	uint64_t size; /* bytes written */
	size_t num_graphs, num_plios, num_cdos;
	size_t problems;         /* check problems (then nothing is written) */
	int tool_failed;         /* bootgen missing or failed */
	int output_failed;       /* the output could not be written */
	double bootgen_seconds;  /* 0 with a prebuilt PDI */
	long bootgen_maxrss_kib; /* bootgen's peak memory */
	int interrupted;         /* stopped because *opts->cancel was set */
	int pdi_from_cache;      /* the PDI came from the cache (bootgen not run) */
	int pdi_cached;          /* bootgen's PDI was stored in the cache */
	double cache_seconds;    /* the cache's part: key (hashing the CDOs), entry */
	char cache_dir[1024];    /* the cache folder used ("" without the cache) */
	int cache_direct;        /* the hit came by the archive's unchanged state
				      * (direct mode): its CDOs were not even hashed */
	int cache_damaged;       /* a cache entry's bytes did not match its content
				      * hash: removed, the PDI rebuilt by bootgen */
} aieth__package_result;

/* Package an AIE-only xclbin: AIE_METADATA from the graph's
 * aie_control_config.json, a PDI built by bootgen from its CDOs (without
 * the core-enable CDO: the graph starts on graph run), header fields from
 * the XSA and the board. The result is checked (aieth_xclbin_check) before
 * it replaces `output`; nothing is left behind on failure. Returns
 * AIETH_OK; AIETH_EINVAL with result->problems > 0 when the check failed;
 * with result->tool_failed set when bootgen is missing or failed (its
 * own error text in the message), result->output_failed when the output
 * could not be written; AIETH_ETIMEOUT (tool_failed) when bootgen ran past
 * its time limit; AIETH_ESTATE (interrupted) when cancelled; other codes
 * for bad inputs. An output that is one of the inputs (the same file as
 * xsa, graph, pdi or aie_metadata, or a file inside a graph Work/
 * directory) is refused (AIETH_EINVAL) before anything is written. The
 * output is written as util/fileio.h says: a device or FIFO in place, a
 * symbolic link's target replaced, a directory refused (AIETH_EINVAL). */
int aieth__package(const aieth__package_opts *opts, aieth__package_result *result);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_PACKAGE_H */
