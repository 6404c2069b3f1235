/* SPDX-License-Identifier: MIT */
/*
 * th_assets.h - AMD's precompiled test harness assets (the XSAs and SD
 * card images of a release): verified download, safe unpacking, listing.
 * th_assets is the program over it (docs/assets.md).
 *
 * Layout under the assets directory DEST (default: the data directory):
 *   DEST/downloads/<file>            downloaded archives (<file>.part while
 *                                    a download is incomplete)
 *   DEST/assets.lock.json            sha256 of every archive seen (recorded
 *                                    on first use when nothing else knows it,
 *                                    enforced from then on)
 *   DEST/assets/<release>/           an unpacked archive, with its manifest
 *                                    .aieth-manifest.json
 */
#ifndef AIETH_PUBLIC_ASSETS_H
#define AIETH_PUBLIC_ASSETS_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* The release fetched/unpacked when none is named. */
#define AIETH_ASSETS_DEFAULT_RELEASE "2026.1"

/* Called while a download runs: bytes so far (of the whole file, a resumed
 * part included) and the total (0 when the server does not say). */
typedef void (*aieth__assets_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* A download's options. A versioned struct (aieth/session.h, docs/api.md):
 * initialise it with AIETH_ASSETS_FETCH_OPTS_INIT or aieth__assets_fetch_opts_init. */
typedef struct {
	unsigned int version; /* AIETH_ASSETS_FETCH_OPTS_VERSION */
	/* what */
	const char *release; /* a release of cfg/assets.json; NULL: url, else the default */
	const char *url;     /* http(s) URL instead of a release (NULL: none) */
	const char *sha256;  /* expected hash, 64 hex digits (NULL: none) */
	/* where */
	const char *dest;     /* assets directory (NULL: the data directory) */
	const char *data_dir; /* where cfg/assets.json is (NULL: the data directory) */
	const char *cacert;   /* CA bundle for TLS (NULL: $AIETH_CACERT, else
			     * $CURL_CA_BUNDLE, else $SSL_CERT_FILE, else the system's) */
	/* limits */
	unsigned stall_seconds; /* give up when no byte came for this long (0: 60) */
	/* hooks */
	aieth__assets_progress_fn progress;
	void *progress_ctx;
} aieth__assets_fetch_opts;

#define AIETH_ASSETS_FETCH_OPTS_VERSION 1
#define AIETH_ASSETS_FETCH_OPTS_INIT                       \
	{                                                  \
		.version = AIETH_ASSETS_FETCH_OPTS_VERSION \
	}
int aieth__assets_fetch_opts_init(aieth__assets_fetch_opts *opts, unsigned int version);

typedef struct {
	char path[4096];      /* the installed archive */
	char sha256[65];      /* its hash (hex) */
	char lock_path[4096]; /* the lock file */
	int recorded;         /* 1: no hash was known; this one is now in the lock file */
	int resumed;          /* 1: a partial download was continued (Range request) */
	int restarted;        /* 1: the server ignored the Range request; started over */
	uint64_t bytes;       /* size of the archive */
} aieth__assets_result;

/* Download (or verify a file already there) and install it as
 * DEST/downloads/<file>. The file must match every hash known for it
 * (opts->sha256, cfg/assets.json, the lock file); when none is known its
 * hash is recorded in the lock file (result->recorded). A mismatch installs
 * nothing (AIETH_EINVAL naming both hashes). Network and TLS failures:
 * AIETH_EIO (a partial download is kept for the next run to resume);
 * a build without libcurl: AIETH_EUNSUPPORTED. */
int aieth__assets_fetch(const aieth__assets_fetch_opts *opts, aieth__assets_result *result);

/* An unpacking's options. A versioned struct (aieth/session.h, docs/api.md):
 * initialise it with AIETH_ASSETS_UNPACK_OPTS_INIT or aieth__assets_unpack_opts_init. */
typedef struct {
	unsigned int version; /* AIETH_ASSETS_UNPACK_OPTS_VERSION */
	/* what */
	const char *release; /* NULL: from --from's name in cfg/lock, else the default */
	const char *from;    /* archive on disk (NULL: DEST/downloads/<release's file>) */
	const char *sha256;  /* expected hash (NULL: none) */
	/* where */
	const char *dest;
	const char *data_dir;
	/* limits */
	uint64_t max_entry_bytes; /* 0: AIETH_ASSETS_MAX_ENTRY */
	uint64_t max_total_bytes; /* 0: AIETH_ASSETS_MAX_TOTAL */
} aieth__assets_unpack_opts;

#define AIETH_ASSETS_UNPACK_OPTS_VERSION 1
#define AIETH_ASSETS_UNPACK_OPTS_INIT                       \
	{                                                   \
		.version = AIETH_ASSETS_UNPACK_OPTS_VERSION \
	}
int aieth__assets_unpack_opts_init(aieth__assets_unpack_opts *opts, unsigned int version);

#define AIETH_ASSETS_MAX_ENTRY (16ull << 30)
#define AIETH_ASSETS_MAX_TOTAL (64ull << 30)
#define AIETH_ASSETS_MAX_ENTRIES 100000u

/* Verify the archive's hash like fetch, then extract it into a temporary
 * folder and rename it to DEST/assets/<release> (an older one is replaced
 * only when the new one is complete). Refused (AIETH_EINVAL, nothing
 * installed): absolute names, ".." components, hard links, symbolic links
 * that are absolute or contain "..", devices, FIFOs, sockets, an entry or a
 * total beyond the limits. result->path: the installed folder. */
int aieth__assets_unpack(const aieth__assets_unpack_opts *opts, aieth__assets_result *result);

/* What is installed: one call of fn per unpacked release (sorted), with the
 * release, the archive's name and sha256, the number of files and bytes. */
typedef void (*aieth__assets_list_fn)(void *ctx, const char *release, const char *archive,
				      const char *sha256, uint64_t files, uint64_t bytes);
int aieth__assets_list(const char *dest, aieth__assets_list_fn fn, void *ctx);

/* The lock file's entries: file name, sha256, url ("" when unknown). */
typedef void (*aieth__assets_lock_fn)(void *ctx, const char *file, const char *sha256,
				      const char *url);
int aieth__assets_lock_list(const char *dest, aieth__assets_lock_fn fn, void *ctx);

/* The test harness XSA of board ("vck190": <board>_test_harness.xsa) in an
 * unpacked release: DEST/assets/<release>/. release NULL: the default
 * release when it has the file, else the newest release that has it
 * (releases compare as dot-separated numbers). Only releases th_assets
 * unpacked (with a manifest) count. Writes the path and the release used;
 * AIETH_ENOTFOUND (saying how to get it) when there is none. th_package's
 * default for --xsa. */
int aieth__assets_find_xsa(const char *dest, const char *board, const char *release, char *path,
			   size_t path_size, char *release_out, size_t release_size);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_ASSETS_H */
