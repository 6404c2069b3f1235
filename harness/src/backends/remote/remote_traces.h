/* SPDX-License-Identifier: MIT */
/*
 * backends/remote/remote_traces.h - what the remote backend sends for a
 * session's graphs beyond their names (docs/http-api.md): the aiesim
 * model's trace files, read here and sent with the session (th_server
 * reads no client path), and graph names escaped for the URL path.
 */
#ifndef AIETH_BACKENDS_REMOTE_TRACES_H
#define AIETH_BACKENDS_REMOTE_TRACES_H

#ifdef AIETH_HAVE_CURL

#include <stddef.h>

#include <json-c/json.h>

#include "backends/backend.h"

/* As th_server takes them (server/srv_route.h): files, bytes together. */
#define RMT_TRACES_MAX 16
#define RMT_TRACES_BYTES_MAX (4u << 20)

/* The session request req (its "graphs" array built from cfg->graphs, in
 * order): every aiesim graph's outputs[].file is read (relative to its
 * params.dir, itself relative to the graph's base folder, as the local
 * emulator reads them), added to req's "traces" under a plain name, and
 * the params rewritten to name it, without "dir". AIETH_OK, or
 * AIETH_EINVAL/EIO naming the file and the limit. */
int aieth__rmt_traces_add(const aieth_dev_config *cfg, struct json_object *req);

/* A graph name percent-encoded for one URL path segment: every byte but
 * [A-Za-z0-9_-] ("top.gr[0]" -> "top%2Egr%5B0%5D"), so '.' and ".." never
 * meet a URL's dot-segment rules. out holds RMT_SEG_MAX bytes: any name
 * th_server accepts (256 bytes) fits; a longer one is cut, which the
 * server refused at session creation already. Returns out. */
#define RMT_SEG_MAX (3 * 256 + 1)
const char *aieth__rmt_path_seg(const char *name, char out[RMT_SEG_MAX]);

#endif
#endif
