/* SPDX-License-Identifier: MIT */
/*
 * backends/remote/remote_design.h - the remote backend's files around a
 * session (docs/http-api.md): the design xclbin, hashed while read and
 * uploaded only when th_server lacks it (HEAD, then a streamed PUT), and
 * the session's artifacts fetched into a local folder at its end.
 */
#ifndef AIETH_BACKENDS_REMOTE_DESIGN_H
#define AIETH_BACKENDS_REMOTE_DESIGN_H

#ifdef AIETH_HAVE_CURL

#include <stdint.h>

#include <curl/curl.h>

#include "backends/backend.h"
#include "backends/remote/remote_http.h"

/* The connection the requests go over: the backend's own handle (reset
 * by every request here) and its settings. */
typedef struct {
	CURL *h;
	const char *base; /* "http://host:port", no trailing slash */
	const char *auth; /* "Authorization: Bearer ..." or "" */
	rmh_trust trust;  /* the CA bundle or the pinned key */
	rmh_xfer xfer;    /* an upload reports its progress here */
} rmd_conn;

#define RMD_ARTIFACT_MAX ((uint64_t)1 << 32) /* bytes of one file */

/* Make sure the server holds the xclbin at path: hash it, ask (HEAD), and
 * upload it (PUT, streamed from the file) only when missing. sha gets its
 * hash, *uploaded 1 when it was sent. */
int aieth__rmd_xclbin_ensure(const rmd_conn *c, const char *path, char sha[65], int *uploaded);

/* Fetch session sid's artifacts (GET .../artifacts, then each file) into
 * dir (made when missing), at most AIETH_ARTIFACTS_FILES_MAX of them
 * (backends/backend.h: as many as th_server lists); each file written
 * through the library's output rules (util/fileio.h), names that are not
 * plain base names refused.
 * max_total bounds the bytes of all files together: the list's sizes are
 * checked against it before anything is fetched, and each download against
 * what is left; a file that would pass it is not written (nothing half
 * written stays), and the error names the file and the limit.
 * done(ctx, path, bytes) is called for each file written (may be NULL). */
int aieth__rmd_artifacts_fetch(const rmd_conn *c, const char *sid, const char *dir,
			       uint64_t max_total,
			       void (*done)(void *ctx, const char *path, uint64_t bytes),
			       void *ctx);

/* Fetch one artifact of session sid, name, into dir (as one file of
 * aieth__rmd_artifacts_fetch, within max bytes) while the session may still run:
 * *found 1 when it was written (done called), 0 when the server has no
 * such file (404, not an error). */
int aieth__rmd_artifact_fetch(const rmd_conn *c, const char *sid, const char *dir, const char *name,
			      uint64_t max, int *found,
			      void (*done)(void *ctx, const char *path, uint64_t bytes), void *ctx);

#endif
#endif
