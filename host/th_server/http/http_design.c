/* SPDX-License-Identifier: MIT */
/*
 * http_design.c - th_server's HTTP API for the design xclbin cache
 * (HEAD/PUT /v1/xclbins/SHA256: a client asks before sending megabytes)
 * and for a session's artifacts (GET /v1/sessions/ID/artifacts[/NAME]),
 * docs/http-api.md. The cache itself is srv_xclbin.c, the artifact folder
 * srv_artifacts.c.
 */
#ifdef AIETH_HAVE_MHD

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th_server/http/http_internal.h"
#include "util/path.h"

#define ARTIFACTS_MAX 256 /* files listed per session */

static unsigned x_status(srv_x_result x)
{
	switch (x) {
	case SRV_X_TOO_LARGE: return 413;
	case SRV_X_BAD: return 400;
	case SRV_X_NO_ROOM: return 507;
	default: return 500;
	}
}

enum MHD_Result aieth__http_xclbin_put_head(struct MHD_Connection *c, req_ctx *r, aieth__server *s,
					    unsigned long long len, int have_len)
{
	const char *ct =
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
	char msg[512];
	srv_x_result xr;
	if (!have_len)
		return aieth__http_reply_err(c, r, 411, NULL,
					     "PUT %s: the xclbin needs a Content-Length "
					     "(no chunked upload)",
					     r->path);
	if (!len)
		return aieth__http_reply_err(c, r, 400, NULL, "PUT %s: an empty body is no xclbin",
					     r->path);
	if (!ct || strcmp(ct, "application/octet-stream"))
		return aieth__http_reply_err(c, r, 415, NULL,
					     "Content-Type: application/octet-stream is needed");
	if (!(r->xup = calloc(1, sizeof *r->xup)))
		return aieth__http_reply_err(c, r, 500, NULL, "xclbin upload: out of memory");
	/* the limits come from Content-Length: nothing is read past them */
	xr = aieth__srv_xclbin_begin(s, r->route.sha, aieth__srv_xclbin_owner(s, r->who), len,
				     r->xup, msg, sizeof msg);
	if (xr) {
		free(r->xup);
		r->xup = NULL;
		return aieth__http_reply_err(c, r, x_status(xr), NULL, "%s", msg);
	}
	return MHD_YES;
}

void aieth__http_xclbin_drop(req_ctx *r)
{
	if (r->xup) {
		aieth__srv_xclbin_abort(r->xup);
		free(r->xup);
		r->xup = NULL;
	}
}

/* A file's bytes as a reply (HEAD: the length only); takes fd. */
static enum MHD_Result reply_fd(struct MHD_Connection *c, req_ctx *r, int fd, uint64_t size,
				const char *type)
{
	struct MHD_Response *resp = MHD_create_response_from_fd64(size, fd);
	enum MHD_Result ret;
	if (!resp) {
		close(fd);
		return aieth__http_reply_err(c, r, 500, NULL, "reply: out of memory");
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(c, 200, resp);
	MHD_destroy_response(resp);
	r->status = 200;
	r->out = strcmp(r->method, "HEAD") ? size : 0;
	r->answered = 1;
	return ret;
}

enum MHD_Result aieth__http_xclbin(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	char msg[600];
	if (!strcmp(r->method, "HEAD")) {
		/* another token's design is answered as a missing one */
		int fd =
			aieth__srv_xclbin_open(s, r->route.sha, aieth__srv_xclbin_owner(s, r->who));
		if (fd < 0)
			return aieth__http_reply_err(c, r, 404, NULL, "xclbin %s: not in the cache",
						     r->route.sha);
		{
			struct stat st;
			if (fstat(fd, &st)) {
				close(fd);
				return aieth__http_reply_err(c, r, 500, NULL, "xclbin %s: %s",
							     r->route.sha, strerror(errno));
			}
			return reply_fd(c, r, fd, (uint64_t)st.st_size, "application/octet-stream");
		}
	}
	/* PUT: the whole body arrived */
	{
		srv_xupload *u = r->xup;
		struct json_object *o;
		int created = 0;
		srv_x_result xr;
		uint64_t bytes;
		if (!u)
			return aieth__http_reply_err(c, r, 500, NULL,
						     "xclbin upload: no upload state");
		bytes = u->want;
		xr = aieth__srv_xclbin_commit(s, u, &created, msg, sizeof msg);
		if (u->evicted)
			aieth__srv_log(
				s,
				"xclbin cache: %u older designs evicted to make room (the limit "
				"is --xclbin-cache-mib %llu)",
				u->evicted, (unsigned long long)(s->cache.max >> 20));
		if (u->index_failed)
			aieth__srv_log(
				s, "xclbin cache: who may see %s is not kept across a restart: %s",
				r->route.sha, u->errmsg);
		free(u);
		r->xup = NULL;
		if (xr)
			return aieth__http_reply_err(c, r, x_status(xr), NULL, "%s", msg);
		aieth__srv_log(s, "xclbin %s: %s (%llu bytes)", r->route.sha,
			       created ? "stored" : "already in the cache",
			       (unsigned long long)bytes);
		o = json_object_new_object();
		json_object_object_add(o, "sha256", json_object_new_string(r->route.sha));
		json_object_object_add(o, "bytes", json_object_new_uint64(bytes));
		json_object_object_add(o, "stored", json_object_new_boolean(created));
		return aieth__http_reply_json(c, r, created ? 201 : 200, o);
	}
}

/* The folder dfd's files (dfd is taken). */
static enum MHD_Result artifact_list(struct MHD_Connection *c, req_ctx *r, int dfd)
{
	struct json_object *a = json_object_new_array(), *o;
	struct dirent *de;
	struct stat st;
	size_t n = 0;
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (dfd >= 0 && !d)
		close(dfd);
	while (d && (de = readdir(d)) && n < ARTIFACTS_MAX) {
		struct json_object *f;
		if (!aieth__srv_artifact_name_ok(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		f = json_object_new_object();
		json_object_object_add(f, "name", json_object_new_string(de->d_name));
		json_object_object_add(f, "bytes", json_object_new_uint64((uint64_t)st.st_size));
		json_object_array_add(a, f);
		n++;
	}
	if (d)
		closedir(d);
	o = json_object_new_object();
	json_object_object_add(o, "artifacts", a);
	return aieth__http_reply_json(c, r, 200, o);
}

enum MHD_Result aieth__http_artifacts(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	struct stat st;
	int dfd, fd = -1;
	/* an ended session's files are final once its device has closed; the
	 * folder is opened under the server's lock (aieth__srv_queue_artifacts) */
	srv_l_result res = aieth__srv_queue_artifacts(s, r->route.sid, r->who, &dfd);

	if (res != SRV_L_OK)
		return aieth__http_session_missing(c, r, res);
	if (r->route.kind == SRV_R_ARTIFACTS)
		return artifact_list(c, r, dfd);
	if (!aieth__srv_artifact_name_ok(r->route.name)) {
		if (dfd >= 0)
			close(dfd);
		return aieth__http_reply_err(c, r, 400, NULL,
					     "artifact \"%s\": a plain file name is "
					     "needed ([A-Za-z0-9._-], not starting with '.')",
					     r->route.name);
	}
	if (dfd >= 0) {
		fd = openat(dfd, r->route.name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		close(dfd);
	}
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return aieth__http_reply_err(c, r, 404, NULL,
					     "session \"%s\": no artifact \"%s\" (GET "
					     "/v1/sessions/%s/artifacts lists them)",
					     r->route.sid, r->route.name, r->route.sid);
	}
	return reply_fd(c, r, fd, (uint64_t)st.st_size, "application/octet-stream");
}

#endif /* AIETH_HAVE_MHD */
