/* SPDX-License-Identifier: MIT */
/*
 * remote_design.c - the remote backend's files around a session
 * (remote_design.h): the design xclbin uploaded once (the server caches it
 * by sha256), the session's artifacts fetched at its end.
 */
#ifdef AIETH_HAVE_CURL

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "backends/remote/remote_design.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/hash.h"
#include "util/json_strict.h"
#include "util/path.h"

/* The requests' common setup, over the connection's handle. */
static struct curl_slist *setup(const rmd_conn *c, const char *url, const char *content_type,
				long timeout_s)
{
	return aieth__rmh_setup(c->h, url, c->auth, &c->trust, content_type, timeout_s, &c->xfer);
}

static int curl_error(const rmd_conn *c, const char *what, CURLcode cc)
{
	if (cc == CURLE_ABORTED_BY_CALLBACK)
		return aieth__fail(AIETH_EDEVICE, "server %s: %s: interrupted", c->base, what);
	return aieth__fail(cc == CURLE_OPERATION_TIMEDOUT ? AIETH_ETIMEOUT : AIETH_EDEVICE,
			   "server %s: %s: %s", c->base, what,
			   aieth__rmh_words(c->h, cc, c->trust.cacert));
}

static int status_error(const rmd_conn *c, const char *what, long status, const sbuf *b)
{
	char msg[600];
	aieth__rmh_reply_message(b, msg, sizeof msg);
	if (status == 401 || status == 403)
		return aieth__fail(AIETH_EDEVICE, "server %s refused the token (%ld): %s", c->base,
				   status, msg);
	return aieth__fail(status == 413 || status == 400 ? AIETH_EINVAL : AIETH_EDEVICE,
			   "server %s: %s: status %ld: %s", c->base, what, status, msg);
}

typedef struct {
	int fd;
	uint64_t off, size;
	int err;
	sbuf *reply; /* the reply to the PUT */
} file_up;

static size_t file_read(char *buf, size_t size, size_t nmemb, void *ctx)
{
	file_up *u = ctx;
	size_t n = size * nmemb;
	ssize_t got;
	if (u->off >= u->size)
		return 0;
	if ((uint64_t)n > u->size - u->off)
		n = (size_t)(u->size - u->off);
	do
		got = pread(u->fd, buf, n, (off_t)u->off);
	while (got < 0 && errno == EINTR);
	if (got <= 0) {
		/* the file shrank or cannot be read: the upload fails */
		u->err = got < 0 ? errno : EIO;
		return CURL_READFUNC_ABORT;
	}
	u->off += (uint64_t)got;
	return (size_t)got;
}

/* A PUT refused by the rate limit: the file and the reply from the start. */
static void up_restart(void *ctx)
{
	file_up *u = ctx;
	u->off = 0;
	u->err = 0;
	aieth__rmh_buf_clear(u->reply);
}

int aieth__rmd_xclbin_ensure(const rmd_conn *c, const char *path, char sha[65], int *uploaded)
{
	char url[700];
	struct curl_slist *hdrs;
	sbuf b = SB_INIT(RMH_BODY_MAX);
	file_up up;
	uint64_t size;
	long status = 0;
	CURLcode cc;
	struct stat st;
	int rc;

	*uploaded = 0;
	if ((rc = aieth__file_sha256(path, sha, &size)))
		return rc;
	snprintf(url, sizeof url, "%s/v1/xclbins/%s", c->base, sha);
	/* ask first: a design the server has is not sent again */
	hdrs = setup(c, url, NULL, RMH_CALL_S);
	curl_easy_setopt(c->h, CURLOPT_NOBODY, 1L);
	cc = aieth__rmh_perform(c->h, &c->xfer, NULL, NULL);
	curl_slist_free_all(hdrs);
	if (cc)
		return curl_error(c, "HEAD /v1/xclbins", cc);
	curl_easy_getinfo(c->h, CURLINFO_RESPONSE_CODE, &status);
	if (status == 200)
		return AIETH_OK;
	if (status != 404)
		return status_error(c, "HEAD /v1/xclbins", status, &b);

	if ((rc = aieth__open_input(path, &up.fd, &st)))
		return rc;
	up.off = 0;
	up.size = size;
	up.err = 0;
	up.reply = &b;
	hdrs = setup(c, url, "Content-Type: application/octet-stream", 0);
	curl_easy_setopt(c->h, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(c->h, CURLOPT_READFUNCTION, file_read);
	curl_easy_setopt(c->h, CURLOPT_READDATA, &up);
	curl_easy_setopt(c->h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)size);
	curl_easy_setopt(c->h, CURLOPT_WRITEFUNCTION, aieth__rmh_buf_write);
	curl_easy_setopt(c->h, CURLOPT_WRITEDATA, &b);
	cc = aieth__rmh_perform(c->h, &c->xfer, up_restart, &up);
	curl_slist_free_all(hdrs);
	close(up.fd);
	if (up.err) {
		aieth__sb_free(&b);
		return aieth__fail(AIETH_EIO, "%s: read failed during the upload (%s)", path,
				   strerror(up.err));
	}
	if (cc) {
		aieth__sb_free(&b);
		return curl_error(c, "PUT /v1/xclbins", cc);
	}
	curl_easy_getinfo(c->h, CURLINFO_RESPONSE_CODE, &status);
	if (status != 201 && status != 200) {
		rc = status_error(c, "xclbin upload", status, &b);
		aieth__sb_free(&b);
		return rc;
	}
	aieth__sb_free(&b);
	*uploaded = status == 201;
	return AIETH_OK;
}

typedef struct {
	aieth_out out;
	uint64_t got, max;
	int err, over;
} file_down;

static size_t file_write(char *data, size_t size, size_t nmemb, void *ctx)
{
	file_down *d = ctx;
	size_t n = size * nmemb;
	if ((uint64_t)n > d->max - d->got) {
		d->over = 1; /* past the bound: the transfer ends */
		return 0;
	}
	if (aieth__out_write(&d->out, data, n)) {
		d->err = 1;
		return 0;
	}
	d->got += n;
	return n;
}

/* One file; its length may differ from the list's (a file the server
 * rewrote since), within max bytes (what is left of the session's bound,
 * at most RMD_ARTIFACT_MAX); a longer one is not kept. */
static int fetch_one(const rmd_conn *c, const char *sid, const char *dir, int dfd, const char *name,
		     uint64_t max, uint64_t max_total, uint64_t *bytes, char **path_out)
{
	char url[1024], what[400];
	struct curl_slist *hdrs;
	file_down d;
	long status = 0;
	CURLcode cc;
	char *path = aieth__path_join(dir, name);
	int rc;

	*path_out = NULL;
	if (!path)
		return aieth__fail(AIETH_ENOMEM, "artifacts: out of memory");
	memset(&d, 0, sizeof d);
	d.max = max < RMD_ARTIFACT_MAX ? max : RMD_ARTIFACT_MAX;
	/* in the folder opened once, the name never followed: a link planted
	 * there is replaced, whatever file it points to stays as it was */
	if ((rc = aieth__out_openat(&d.out, dfd, name, path))) {
		free(path);
		return rc;
	}
	snprintf(url, sizeof url, "%s/v1/sessions/%s/artifacts/%s", c->base, sid, name);
	snprintf(what, sizeof what, "artifact %s", name);
	hdrs = setup(c, url, NULL, 0);
	curl_easy_setopt(c->h, CURLOPT_WRITEFUNCTION, file_write);
	curl_easy_setopt(c->h, CURLOPT_WRITEDATA, &d);
	/* an error reply is JSON, not the file: refuse it before writing */
	curl_easy_setopt(c->h, CURLOPT_FAILONERROR, 1L);
	cc = aieth__rmh_perform(c->h, &c->xfer, NULL, NULL);
	curl_slist_free_all(hdrs);
	curl_easy_getinfo(c->h, CURLINFO_RESPONSE_CODE, &status);
	if (cc || d.err || d.over) {
		aieth__out_abort(&d.out);
		if (d.err)
			rc = aieth__fail_prefix(AIETH_EIO, "%s", what);
		else if (d.over)
			rc = aieth__fail(
				AIETH_EDEVICE,
				"server %s: %s: more than %llu bytes came, "
				"past the artifacts' limit of %llu bytes in all (%llu of one "
				"file): not kept, the files after it not fetched",
				c->base, what, (unsigned long long)d.max,
				(unsigned long long)max_total,
				(unsigned long long)RMD_ARTIFACT_MAX);
		else if (status >= 400)
			rc = aieth__fail(AIETH_EDEVICE, "server %s: %s: status %ld", c->base, what,
					 status);
		else
			rc = curl_error(c, what, cc);
		free(path);
		return rc;
	}
	*bytes = d.got;
	if ((rc = aieth__out_commit(&d.out))) {
		free(path);
		return rc;
	}
	*path_out = path;
	return AIETH_OK;
}

int aieth__rmd_artifacts_fetch(const rmd_conn *c, const char *sid, const char *dir,
			       uint64_t max_total,
			       void (*done)(void *ctx, const char *path, uint64_t bytes), void *ctx)
{
	char url[700];
	struct curl_slist *hdrs;
	struct json_object *o = NULL, *a;
	sbuf b = SB_INIT(RMH_BODY_MAX);
	long status = 0;
	CURLcode cc;
	size_t i, n;
	uint64_t listed = 0, used = 0;
	int rc = AIETH_OK, dfd = -1;

	snprintf(url, sizeof url, "%s/v1/sessions/%s/artifacts", c->base, sid);
	hdrs = setup(c, url, NULL, RMH_CALL_S);
	curl_easy_setopt(c->h, CURLOPT_WRITEFUNCTION, aieth__rmh_buf_write);
	curl_easy_setopt(c->h, CURLOPT_WRITEDATA, &b);
	cc = aieth__rmh_perform(c->h, &c->xfer, aieth__rmh_buf_clear, &b);
	curl_slist_free_all(hdrs);
	if (cc) {
		aieth__sb_free(&b);
		return curl_error(c, "GET artifacts", cc);
	}
	curl_easy_getinfo(c->h, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200) {
		rc = status_error(c, "GET artifacts", status, &b);
		aieth__sb_free(&b);
		return rc;
	}
	{
		/* as strictly as a file: one object, no key twice */
		char what[800];
		snprintf(what, sizeof what, "server %s: GET artifacts", c->base);
		rc = aieth__jstrict_parse_object(what, b.p ? b.p : "", b.n, RMH_BODY_MAX, &o);
		aieth__sb_free(&b);
		if (rc)
			return aieth__fail_prefix(AIETH_EDEVICE, "protocol error");
	}
	if (!json_object_object_get_ex(o, "artifacts", &a) ||
	    !json_object_is_type(a, json_type_array)) {
		json_object_put(o);
		return aieth__fail(AIETH_EDEVICE,
				   "server %s: GET artifacts: the reply has no "
				   "\"artifacts\" list",
				   c->base);
	}
	n = json_object_array_length(a);
	if (n > AIETH_ARTIFACTS_FILES_MAX) {
		json_object_put(o);
		return aieth__fail(AIETH_EDEVICE, "server %s: %zu artifacts, the limit is %d",
				   c->base, n, AIETH_ARTIFACTS_FILES_MAX);
	}
	/* the list first: names and sizes, and the total against the bound
	 * before any file is written */
	for (i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(a, i), *v;
		const char *name = NULL;
		int64_t bytes = -1;
		if (json_object_object_get_ex(f, "name", &v) &&
		    json_object_is_type(v, json_type_string))
			name = json_object_get_string(v);
		if (json_object_object_get_ex(f, "bytes", &v) &&
		    json_object_is_type(v, json_type_int))
			bytes = json_object_get_int64(v);
		if (!name || !aieth__name_ok(name, 255)) {
			rc = aieth__fail(
				AIETH_EDEVICE,
				"server %s: artifact %zu: \"%.80s\" is not a plain "
				"file name ([A-Za-z0-9._-], not starting with '.'): refused",
				c->base, i, name ? name : "(none)");
			break;
		}
		if (bytes < 0 || (uint64_t)bytes > RMD_ARTIFACT_MAX) {
			rc = aieth__fail(AIETH_EDEVICE,
					 "server %s: artifact %s: %lld bytes, allowed "
					 "0..%llu",
					 c->base, name, (long long)bytes,
					 (unsigned long long)RMD_ARTIFACT_MAX);
			break;
		}
		listed += (uint64_t)bytes;
	}
	if (!rc && listed > max_total)
		rc = aieth__fail(AIETH_EDEVICE,
				 "server %s: the session's %zu artifacts are %llu "
				 "bytes, more than the limit of %llu bytes in all (run_test "
				 "--max-artifacts MIB): none fetched",
				 c->base, n, (unsigned long long)listed,
				 (unsigned long long)max_total);
	/* OUT/artifacts, made by the run in an output folder others may
	 * write: never reached through a link (the server chooses the names
	 * and bytes) */
	if (!rc && n)
		rc = aieth__subdir_open_path(dir, &dfd);
	for (i = 0; i < n && !rc; i++) {
		struct json_object *f = json_object_array_get_idx(a, i), *v;
		char *path = NULL;
		uint64_t got = 0;
		json_object_object_get_ex(f, "name", &v);
		if (!(rc = fetch_one(c, sid, dir, dfd, json_object_get_string(v), max_total - used,
				     max_total, &got, &path))) {
			used += got;
			if (done)
				done(ctx, path, got);
		}
		free(path);
	}
	if (dfd >= 0)
		close(dfd);
	json_object_put(o);
	return rc;
}

int aieth__rmd_artifact_fetch(const rmd_conn *c, const char *sid, const char *dir, const char *name,
			      uint64_t max, int *found,
			      void (*done)(void *ctx, const char *path, uint64_t bytes), void *ctx)
{
	char *path = NULL;
	uint64_t got = 0;
	long status = 0;
	int rc, dfd = -1;

	*found = 0;
	if ((rc = aieth__subdir_open_path(dir, &dfd)))
		return rc;
	rc = fetch_one(c, sid, dir, dfd, name, max, max, &got, &path);
	close(dfd);
	curl_easy_getinfo(c->h, CURLINFO_RESPONSE_CODE, &status);
	if (rc && status == 404) {
		aieth__error_clear();
		return AIETH_OK; /* the server made no such file: nothing to fetch */
	}
	if (!rc) {
		*found = 1;
		if (done)
			done(ctx, path, got);
	}
	free(path);
	return rc;
}

#endif /* AIETH_HAVE_CURL */
