/* SPDX-License-Identifier: MIT */
/*
 * assets_fetch.c - th_assets fetch: an archive downloaded with libcurl, TLS
 * verification always on (a private CA by file, never "insecure"), a
 * partial download resumed with a Range request (started over when the
 * server ignores it), installed only when its sha256 passes the rule of
 * assets_verify.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef AIETH_HAVE_CURL
#include <curl/curl.h>
#endif

#include "th_assets/th_assets.h"
#include "aieth/version.h"
#include "th_assets/assets_internal.h"
#include "util/ca_bundle.h"
#include "util/error.h"
#include "util/net_words.h"
#include "util/opts.h"
#include "util/fileio.h"
#include "util/json_strict.h"
#include "util/path.h"
#include "util/text.h"

#define FT_ATTEMPTS 3

#ifdef AIETH_HAVE_CURL
typedef struct {
	int fd;
	const char *part;
	uint64_t offset;  /* bytes of the part before this attempt */
	uint64_t written; /* bytes written by this attempt */
	long range_start; /* Content-Range start of a 206, -1 when none */
	int checked;      /* the status was looked at (first body byte) */
	int resumed, restarted;
	int bad; /* a write callback failure, message set */
	CURL *c;
	const aieth__assets_fetch_opts *o;
	const char *cacert; /* the CA bundle trusted (NULL: the system's) */
} ft_xfer;

static size_t ft_header(char *b, size_t size, size_t n, void *ud)
{
	ft_xfer *x = ud;
	size_t len = size * n;
	static const char key[] = "content-range:";
	if (len > sizeof key && !strncasecmp(b, key, sizeof key - 1)) {
		const char *p = b + sizeof key - 1;
		while (p < b + len && *p == ' ')
			p++;
		if (p + 6 < b + len && !strncmp(p, "bytes ", 6))
			x->range_start = strtol(p + 6, NULL, 10);
	}
	return len;
}

/* The first body bytes tell whether the Range request was honoured. */
static int ft_check_status(ft_xfer *x)
{
	long code = 0;
	curl_easy_getinfo(x->c, CURLINFO_RESPONSE_CODE, &code);
	x->checked = 1;
	if (x->offset == 0)
		return 0;
	if (code == 206 && x->range_start == (long)x->offset) {
		x->resumed = 1;
		return 0;
	}
	if (code == 206) {
		x->bad =
			aieth__fail(AIETH_EIO, "%s: the server resumed at byte %ld, asked for %llu",
				    x->part, x->range_start, (unsigned long long)x->offset);
		return -1;
	}
	/* a 200: the whole file again, from the start */
	if (ftruncate(x->fd, 0) != 0 || lseek(x->fd, 0, SEEK_SET) != 0) {
		x->bad =
			aieth__fail(AIETH_EIO, "%s: cannot truncate: %s", x->part, strerror(errno));
		return -1;
	}
	x->offset = 0;
	x->restarted = 1;
	return 0;
}

static size_t ft_write(char *b, size_t size, size_t n, void *ud)
{
	ft_xfer *x = ud;
	size_t len = size * n, done = 0;
	if (!x->checked && ft_check_status(x))
		return 0;
	if (x->offset + x->written + len > AIETH_ASSETS_MAX_TOTAL) {
		x->bad = aieth__fail(AIETH_EINVAL,
				     "%s: larger than %llu bytes (the limit of an archive)",
				     x->part, (unsigned long long)AIETH_ASSETS_MAX_TOTAL);
		return 0;
	}
	while (done < len) {
		ssize_t w = write(x->fd, b + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			x->bad = aieth__fail(AIETH_EIO, "%s: write failed: %s", x->part,
					     strerror(errno));
			return 0;
		}
		done += (size_t)w;
	}
	x->written += len;
	return len;
}

static int ft_progress(void *ud, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
		       curl_off_t ulnow)
{
	ft_xfer *x = ud;
	(void)ultotal;
	(void)ulnow;
	if (x->o->progress && x->checked)
		x->o->progress(x->o->progress_ctx, x->offset + (uint64_t)dlnow,
			       dltotal > 0 ? x->offset + (uint64_t)dltotal : 0);
	return 0;
}

/* Transfer errors worth resuming at once: the connection was cut. */
static int ft_cut(CURLcode cc)
{
	return cc == CURLE_PARTIAL_FILE || cc == CURLE_RECV_ERROR || cc == CURLE_GOT_NOTHING ||
	       cc == CURLE_OPERATION_TIMEDOUT || cc == CURLE_SEND_ERROR;
}

static int ft_tls_error(CURLcode cc)
{
	return cc == CURLE_PEER_FAILED_VERIFICATION || cc == CURLE_SSL_CONNECT_ERROR ||
	       cc == CURLE_SSL_CACERT_BADFILE || cc == CURLE_SSL_CERTPROBLEM ||
	       cc == CURLE_SSL_ISSUER_ERROR || cc == CURLE_SSL_PINNEDPUBKEYNOTMATCH;
}

static int ft_attempt(const aieth__assets_fetch_opts *o, const char *url, ft_xfer *x, int *retry)
{
	char err[CURL_ERROR_SIZE] = "", range[32], ua[64], q[96];
	struct stat st;
	unsigned stall = o->stall_seconds ? o->stall_seconds : 60;
	CURLcode cc;
	long code = 0;
	int rc = 0;

	*retry = 0;
	if (fstat(x->fd, &st) != 0)
		return aieth__fail(AIETH_EIO, "%s: %s", x->part, strerror(errno));
	x->offset = (uint64_t)st.st_size;
	x->written = 0;
	x->checked = 0;
	x->range_start = -1;
	x->bad = 0;
	if (lseek(x->fd, 0, SEEK_END) < 0)
		return aieth__fail(AIETH_EIO, "%s: %s", x->part, strerror(errno));
	x->c = curl_easy_init();
	if (!x->c)
		return aieth__fail(AIETH_ENOMEM, "libcurl: cannot start a transfer");
	snprintf(ua, sizeof ua, "th_assets/%s", AIETH_VERSION_STRING);
	curl_easy_setopt(x->c, CURLOPT_URL, url);
	curl_easy_setopt(x->c, CURLOPT_USERAGENT, ua);
	curl_easy_setopt(x->c, CURLOPT_ERRORBUFFER, err);
	curl_easy_setopt(x->c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(x->c, CURLOPT_PROTOCOLS_STR, "http,https");
	/* a redirect never leaves TLS once it is used */
	curl_easy_setopt(x->c, CURLOPT_REDIR_PROTOCOLS_STR,
			 strncmp(url, "https:", 6) ? "http,https" : "https");
	curl_easy_setopt(x->c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(x->c, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(x->c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(x->c, CURLOPT_SSL_VERIFYHOST, 2L);
	if (x->cacert)
		curl_easy_setopt(x->c, CURLOPT_CAINFO, x->cacert);
	curl_easy_setopt(x->c, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(x->c, CURLOPT_CONNECTTIMEOUT, (long)(stall < 30 ? stall : 30));
	curl_easy_setopt(x->c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(x->c, CURLOPT_LOW_SPEED_TIME, (long)stall);
	curl_easy_setopt(x->c, CURLOPT_WRITEFUNCTION, ft_write);
	curl_easy_setopt(x->c, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(x->c, CURLOPT_HEADERFUNCTION, ft_header);
	curl_easy_setopt(x->c, CURLOPT_HEADERDATA, x);
	curl_easy_setopt(x->c, CURLOPT_XFERINFOFUNCTION, ft_progress);
	curl_easy_setopt(x->c, CURLOPT_XFERINFODATA, x);
	curl_easy_setopt(x->c, CURLOPT_NOPROGRESS, 0L);
	if (x->offset) {
		snprintf(range, sizeof range, "%llu-", (unsigned long long)x->offset);
		curl_easy_setopt(x->c, CURLOPT_RANGE, range);
	}
	cc = curl_easy_perform(x->c);
	curl_easy_getinfo(x->c, CURLINFO_RESPONSE_CODE, &code);
	aieth__quote_str(q, sizeof q, url);
	if (cc == CURLE_OK && !x->checked)
		rc = ft_check_status(x) ? x->bad : 0; /* an empty body */
	else if (x->bad)
		rc = x->bad;
	else if (cc == CURLE_HTTP_RETURNED_ERROR && code == 416 && x->offset) {
		/* the part is not a prefix the server knows: start over */
		if (ftruncate(x->fd, 0) != 0)
			rc = aieth__fail(AIETH_EIO, "%s: cannot truncate: %s", x->part,
					 strerror(errno));
		else {
			x->restarted = 1;
			*retry = 1;
			rc = aieth__fail(AIETH_EIO, "%s: HTTP 416 for a resumed download", q);
		}
	} else if (cc == CURLE_HTTP_RETURNED_ERROR)
		rc = aieth__fail(AIETH_EIO, "%s: HTTP %ld", q, code);
	else if (cc != CURLE_OK) {
		char w[600];
		net_failure f = {0};
		f.url = url;
		f.cacert = x->cacert;
		f.flag = "--cacert";
		f.detail = err;
		aieth__curl_words(w, sizeof w, x->c, cc, &f);
		if (ft_tls_error(cc))
			rc = aieth__fail(AIETH_EIO,
					 "%s: %s (certificate verification is always on)", q, w);
		else {
			*retry = ft_cut(cc) && x->written > 0;
			rc = aieth__fail(
				AIETH_EIO,
				"%s: %s (%llu bytes kept in %s for the next run to resume)", q, w,
				(unsigned long long)(x->offset + x->written), x->part);
		}
	}
	if (x->o->progress && !rc)
		x->o->progress(x->o->progress_ctx, x->offset + x->written, x->offset + x->written);
	curl_easy_cleanup(x->c);
	x->c = NULL;
	return rc;
}

static int ft_download(const aieth__assets_fetch_opts *o, const char *url, const char *part,
		       aieth__assets_result *r)
{
	ft_xfer x;
	struct stat st;
	int rc, retry = 0, i;
	memset(&x, 0, sizeof x);
	x.part = part;
	x.o = o;
	/* --cacert, else AIETH_CACERT, CURL_CA_BUNDLE, SSL_CERT_FILE */
	if ((rc = aieth__ca_bundle(o->cacert, "--cacert", url, &x.cacert)))
		return rc;
	x.fd = open(part, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (x.fd < 0)
		return aieth__fail(AIETH_EIO, "%s: cannot open: %s", part, strerror(errno));
	if (fstat(x.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(x.fd);
		return aieth__fail(AIETH_EIO, "%s: not a regular file", part);
	}
	if (flock(x.fd, LOCK_EX | LOCK_NB) != 0) {
		close(x.fd);
		return aieth__fail(AIETH_EIO, "%s: another th_assets is downloading it", part);
	}
	for (i = 0; i < FT_ATTEMPTS; i++) {
		rc = ft_attempt(o, url, &x, &retry);
		if (!rc || !retry)
			break;
	}
	r->resumed = x.resumed;
	r->restarted = x.restarted;
	if (close(x.fd) != 0 && !rc)
		rc = aieth__fail(AIETH_EIO, "%s: close failed: %s", part, strerror(errno));
	return rc;
}
#endif /* AIETH_HAVE_CURL */

/* The URL, file name and known hash of what is fetched. */
static int ft_resolve(const aieth__assets_fetch_opts *o, asx_release *rel, char *expected,
		      const char **expected_what)
{
	int rc;
	memset(rel, 0, sizeof *rel);
	*expected = 0;
	*expected_what = "";
	if (o->url) {
		if ((rc = aieth__asx_url_file_name(o->url, rel->file, sizeof rel->file)))
			return rc;
		rel->url = aieth__strdup(o->url);
		if (!rel->url)
			return aieth__fail(AIETH_ENOMEM, "out of memory");
		if (o->release)
			snprintf(rel->release, sizeof rel->release, "%s", o->release);
	} else {
		const char *name = o->release ? o->release : AIETH_ASSETS_DEFAULT_RELEASE;
		if ((rc = aieth__asx_release_check(name)) ||
		    (rc = aieth__asx_cfg_find(o->data_dir, name, NULL, rel)))
			return rc;
	}
	return aieth__asx_expected_hash(rel, o->sha256, expected, expected_what);
}

AIETH__OPTS_INIT_FN(aieth__assets_fetch_opts, AIETH_ASSETS_FETCH_OPTS_INIT,
		    AIETH_ASSETS_FETCH_OPTS_VERSION);

int aieth__assets_fetch(const aieth__assets_fetch_opts *o, aieth__assets_result *r)
{
	asx_release rel;
	char expected[65], *dl = NULL, *final = NULL, *part = NULL, *lock = NULL;
	const char *ewhat;
	struct stat st;
	int rc;
	if (!o || !r)
		return aieth__fail(AIETH_EINVAL, "aieth_assets_fetch: NULL argument");
	memset(r, 0, sizeof *r);
	aieth__error_clear();
	/* the versions of aieth__assets_fetch_opts read here (a new one: raise it) */
	if ((rc = aieth__opts_version("aieth_assets_fetch_opts", "aieth_assets_fetch_opts",
				      o->version, AIETH_ASSETS_FETCH_OPTS_VERSION)))
		return rc;
	if ((rc = ft_resolve(o, &rel, expected, &ewhat)))
		goto out;
	dl = aieth__asx_dest_path(o->dest, "downloads");
	lock = aieth__asx_dest_path(o->dest, ASX_LOCK_NAME);
	final = dl ? aieth__path_join(dl, rel.file) : NULL;
	part = final ? malloc(strlen(final) + 6) : NULL;
	if (!lock || !part) {
		rc = aieth__fail(AIETH_ENOMEM, "out of memory");
		goto out;
	}
	sprintf(part, "%s.part", final);
	snprintf(r->path, sizeof r->path, "%s", final);
	snprintf(r->lock_path, sizeof r->lock_path, "%s", lock);
	if ((rc = aieth__asx_mkdirs(dl)))
		goto out;
	if (lstat(final, &st) == 0) {
		/* already installed: checked again, never downloaded over */
		if (!S_ISREG(st.st_mode)) {
			rc = aieth__fail(AIETH_EIO, "%s: not a regular file", final);
			goto out;
		}
		if ((rc = aieth__file_sha256(final, r->sha256, &r->bytes)))
			goto out;
		rc = aieth__asx_verify_and_lock(lock, rel.file, r->sha256, expected, ewhat, rel.url,
						rel.release, 0, &r->recorded);
		if (rc)
			aieth__fail_prefix(rc, "%s (already there; remove it to download again)",
					   final);
		goto out;
	}
#ifdef AIETH_HAVE_CURL
	if ((rc = ft_download(o, rel.url, part, r)))
		goto out;
	if ((rc = aieth__file_sha256(part, r->sha256, &r->bytes)))
		goto out;
	rc = aieth__asx_verify_and_lock(lock, rel.file, r->sha256, expected, ewhat, rel.url,
					rel.release, 0, &r->recorded);
	if (rc) {
		unlink(part); /* a wrong file is never resumed nor installed */
		goto out;
	}
	if (rename(part, final) != 0)
		rc = aieth__fail(AIETH_EIO, "%s: cannot rename to %s: %s", part, final,
				 strerror(errno));
#else
	rc = aieth__fail(AIETH_EUNSUPPORTED,
			 "th_assets fetch: this build has no libcurl (use unpack --from FILE)");
#endif
out:
	aieth__asx_release_free(&rel);
	free(dl);
	free(final);
	free(part);
	free(lock);
	return rc;
}
