/* SPDX-License-Identifier: MIT */
/*
 * upload_http.c - one POST of a payload with libcurl: TLS verified
 * (a private CA through the cacert option), bounded connect and total
 * times, no redirects followed (a POST must not change its target
 * silently), the path sent as written (CURLOPT_PATH_AS_IS), credentials
 * only to the request URL their --upload URL makes, the reply's body
 * dropped. The outcome decides what happens to
 * the payload: sent, spooled for a retry, or kept in failed/.
 */
#include <stdio.h>
#include <string.h>

#include "upload/upload_internal.h"
#include "util/ca_bundle.h"
#include "util/error.h"
#include "util/net_words.h"

int aieth__up_http_class(long code)
{
	if (code >= 200 && code < 300)
		return UP_SENT;
	if (code == 0 || code == 408 || code == 429 || code >= 500)
		return UP_RETRY;
	return UP_PERMANENT;
}

#ifdef AIETH_HAVE_CURL
#include <curl/curl.h>

static size_t drop(char *p, size_t size, size_t n, void *ctx)
{
	(void)p;
	(void)ctx;
	return size * n;
}

/* libcurl calls this often (at least once a second, also while connecting):
 * non-zero aborts the transfer when the run is being interrupted. */
static int abort_check(void *ctx, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	const aieth__upload_opts *o = ctx;
	(void)dt, (void)dn, (void)ut, (void)un;
	return o->cancel && *o->cancel;
}

int aieth__up_http_post(const up_entry *e, up_kind kind, const up_cred *cred,
			const aieth__upload_opts *o, long *code, char *err, size_t errn)
{
	CURL *h = curl_easy_init();
	struct curl_slist *hdrs = NULL;
	char line[UP_CRED_MAX + 300], ebuf[CURL_ERROR_SIZE];
	const char *ca;
	CURLcode cc;
	int cls;

	*code = 0;
	/* --upload-cacert, else AIETH_CACERT, CURL_CA_BUNDLE, SSL_CERT_FILE */
	if (aieth__ca_bundle(o->cacert, "--upload-cacert", e->url, &ca)) {
		curl_easy_cleanup(h);
		snprintf(err, errn, "not sent: %s", aieth_error_message());
		return UP_RETRY;
	}
	if (o->cancel && *o->cancel) {
		curl_easy_cleanup(h);
		snprintf(err, errn, "not sent: interrupted");
		return UP_RETRY;
	}
	if (!h) {
		snprintf(err, errn, "curl_easy_init failed");
		return UP_RETRY;
	}
	if (cred->type != UP_CRED_NONE) {
		/* the credentials were found by e->target: they go only to the
		 * request URL it makes (a spooled entry holds both) */
		up_target t;
		if (aieth__up_parse_url(e->target, &t) || strcmp(t.url, e->url)) {
			curl_easy_cleanup(h);
			snprintf(err, errn,
				 "not sent: the request URL is not the one %.300s makes, and "
				 "its credentials are not sent elsewhere",
				 e->target);
			return UP_PERMANENT;
		}
	}
	snprintf(line, sizeof line, "Content-Type: %s", e->ctype);
	hdrs = curl_slist_append(hdrs, line);
	hdrs = curl_slist_append(hdrs, "Expect:");
	if (cred->type == UP_CRED_TOKEN) {
		if (kind == UP_SQUAD)
			snprintf(line, sizeof line, "Auth-Token: %s", cred->value);
		else if (kind == UP_INFLUX)
			snprintf(line, sizeof line, "Authorization: Token %s", cred->value);
		else
			snprintf(line, sizeof line, "Authorization: Bearer %s", cred->value);
		hdrs = curl_slist_append(hdrs, line);
		memset(line, 0, sizeof line);
	} else if (cred->type == UP_CRED_BASIC) {
		curl_easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		curl_easy_setopt(h, CURLOPT_USERPWD, cred->value);
	}
	ebuf[0] = '\0';
	curl_easy_setopt(h, CURLOPT_URL, e->url);
	/* the path as matched, never resolved again by libcurl: a dot segment
	 * is refused already (aieth__up_parse_url), this keeps any other rewrite out */
	curl_easy_setopt(h, CURLOPT_PATH_AS_IS, 1L);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(h, CURLOPT_POST, 1L);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, e->body);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)e->len);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT,
			 (long)(o->connect_timeout_s ? o->connect_timeout_s : 10));
	curl_easy_setopt(h, CURLOPT_TIMEOUT, (long)(o->timeout_s ? o->timeout_s : 60));
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	if (ca)
		curl_easy_setopt(h, CURLOPT_CAINFO, ca);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, drop);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, ebuf);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, abort_check);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, (void *)o);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	cc = curl_easy_perform(h);
	if (cc == CURLE_OK)
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, code);
	else if (cc == CURLE_ABORTED_BY_CALLBACK)
		snprintf(err, errn, "not sent: interrupted");
	else {
		/* in words while the handle still tells what it saw */
		net_failure f = {0};
		f.url = e->url;
		f.cacert = ca;
		f.flag = "--upload-cacert";
		f.detail = ebuf;
		aieth__curl_words(err, errn, h, cc, &f);
	}
	curl_slist_free_all(hdrs);
	curl_easy_cleanup(h);
	if (cc != CURLE_OK)
		return UP_RETRY;
	cls = aieth__up_http_class(*code);
	if (cls != UP_SENT)
		snprintf(err, errn, "HTTP %ld", *code);
	return cls;
}

#else

int aieth__up_http_post(const up_entry *e, up_kind kind, const up_cred *cred,
			const aieth__upload_opts *o, long *code, char *err, size_t errn)
{
	(void)e;
	(void)kind;
	(void)cred;
	(void)o;
	*code = 0;
	snprintf(err, errn, "this build has no libcurl (the payload is spooled)");
	return UP_RETRY;
}

#endif
