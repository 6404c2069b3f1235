/* SPDX-License-Identifier: MIT */
/*
 * remote_http.c - what every request of the remote backend shares
 * (remote_http.h), and the backend's own requests on its state
 * (remote_internal.h): one request, its reply checked, the session's end
 * told from it.
 */
#ifdef AIETH_HAVE_CURL

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "backends/remote/remote_http.h"
#include "backends/remote/remote_internal.h"
#include "backends/remote/remote_reply.h"
#include "util/error.h"
#include "util/json_strict.h"
#include "util/net_words.h"

int aieth__rmh_stopped(const rmh_xfer *x)
{
	return (x->interrupt && *x->interrupt) || (x->stop && atomic_load(x->stop));
}

static int xfer(void *ctx, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	const rmh_xfer *x = ctx;
	(void)dt;
	(void)dn;
	if (aieth__rmh_stopped(x))
		return 1;
	if (x->progress && ut > 0)
		x->progress(x->progress_ctx, (uint64_t)un, (uint64_t)ut);
	return 0;
}

struct curl_slist *aieth__rmh_setup(CURL *h, const char *url, const char *auth,
				    const rmh_trust *trust, const char *content_type,
				    long timeout_s, const rmh_xfer *x)
{
	struct curl_slist *hdrs = NULL;
	curl_easy_reset(h);
	if (auth && auth[0])
		hdrs = curl_slist_append(hdrs, auth);
	/* a body goes at once, without waiting for a 100 Continue */
	hdrs = curl_slist_append(hdrs, "Expect:");
	if (content_type)
		hdrs = curl_slist_append(hdrs, content_type);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, RMH_CONNECT_S);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, timeout_s);
	/* a transfer without an overall limit still ends when nothing moves
	 * for the stall limit (a server that hangs); a device wait has none:
	 * its overall limit is the transaction's own timeout */
	if (!x || x->stall_s >= 0) {
		curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
		curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME,
				 x && x->stall_s ? x->stall_s : RMH_STALL_S);
	}
	/* a silent wait on a host that vanished still ends */
	curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(h, CURLOPT_TCP_KEEPIDLE, 30L);
	curl_easy_setopt(h, CURLOPT_TCP_KEEPINTVL, 10L);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	if (trust && trust->pin && !strncmp(url, "https://", 8)) {
		/* trusted by its key (aieth_remote_opts.pinned_key: th_server
		 * asking its own listener, whose certificate names the host its
		 * clients use, or a lab's self-made certificate): the chain and
		 * the name are not checked, the handshake fails unless the peer
		 * proves it holds the pinned key's private half. As ssh trusts a
		 * known host's key: no weaker than a CA and a name. */
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
		curl_easy_setopt(h, CURLOPT_PINNEDPUBLICKEY, trust->pin);
	} else if (trust && trust->cacert) {
		curl_easy_setopt(h, CURLOPT_CAINFO, trust->cacert);
	}
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, xfer);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, (void *)x);
	return hdrs;
}

int aieth__rmh_stall_from_env(long *stall_s)
{
	const char *v = getenv("AIETH_REMOTE_STALL_S");
	char *end;
	long n;
	*stall_s = RMH_STALL_S;
	if (!v || !*v)
		return AIETH_OK;
	errno = 0;
	n = strtol(v, &end, 10);
	if (*end || errno || n < 1 || n > RMH_STALL_MAX_S || v[0] == '+' || v[0] == ' ')
		return aieth__fail(AIETH_EINVAL,
				   "AIETH_REMOTE_STALL_S=\"%.40s\": seconds 1..%ld "
				   "are needed (the longest a transfer may move nothing)",
				   v, RMH_STALL_MAX_S);
	*stall_s = n;
	return AIETH_OK;
}

const char *aieth__rmh_words(CURL *h, CURLcode cc, const char *cacert)
{
	static _Thread_local char w[640];
	char *url = NULL;
	net_failure f = {0};
	curl_easy_getinfo(h, CURLINFO_EFFECTIVE_URL, &url);
	f.url = url;
	f.cacert = cacert;
	f.flag = "--cacert";
	return aieth__curl_words(w, sizeof w, h, cc, &f);
}

long aieth__rmh_rate_wait_s(CURL *h, int waits)
{
	long status = 0;
	curl_off_t after = -1;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	if (status != 429 || waits >= RMH_RATE_RETRIES ||
	    curl_easy_getinfo(h, CURLINFO_RETRY_AFTER, &after) != CURLE_OK || after <= 0)
		return 0;
	return after > RMH_RATE_WAIT_S ? RMH_RATE_WAIT_S : (long)after;
}

CURLcode aieth__rmh_perform(CURL *h, const rmh_xfer *x, void (*again)(void *ctx), void *ctx)
{
	int waits;
	for (waits = 0;; waits++) {
		CURLcode cc = curl_easy_perform(h);
		long after = aieth__rmh_rate_wait_s(h, waits), tenths;
		if (!after)
			return cc;
		for (tenths = 0; tenths < after * 10; tenths++) {
			struct timespec ts = {0, 100 * 1000000L};
			if (x && aieth__rmh_stopped(x))
				return cc;
			nanosleep(&ts, NULL);
		}
		if (again)
			again(ctx);
	}
}

void aieth__rmh_buf_clear(void *b) { aieth__sb_free(b); }

size_t aieth__rmh_buf_write(char *data, size_t size, size_t nmemb, void *ctx)
{
	size_t n = size * nmemb;
	return aieth__sb_put(ctx, data, n) ? 0 : n; /* 0: curl ends the transfer */
}

void aieth__rmh_reply_message(const sbuf *b, char *dst, size_t cap)
{
	struct json_object *o = b->p ? json_tokener_parse(b->p) : NULL, *e, *m;
	snprintf(dst, cap, "%s", "(no message)");
	if (o && json_object_object_get_ex(o, "error", &e) &&
	    json_object_object_get_ex(e, "message", &m))
		snprintf(dst, cap, "%s", json_object_get_string(m));
	json_object_put(o);
}

/* A request's common setup on the backend's handle (remote_http.h). */
struct curl_slist *aieth__rm_setup(rm_state *st, const char *url, const char *content_type,
				   long timeout_s)
{
	rmh_xfer *x = &st->xfer;
	if (st->device_wait) {
		/* silent until the device is done: timeout_s bounds it (the
		 * transfer keeps the pointer: the state's copy) */
		st->xfer_wait = st->xfer;
		st->xfer_wait.stall_s = -1;
		x = &st->xfer_wait;
	}
	return aieth__rmh_setup(st->h, url, st->auth, &st->trust, content_type, timeout_s, x);
}

#define RETRIES 3 /* an idempotent request repeated on a connection failure */

/* What a request repeated after the rate limit starts from again: empty
 * reply buffers, the upload from its start. */
typedef struct {
	sbuf *sink, *resp;
	img_io *up;
} req_again;

static void req_restart(void *ctx)
{
	req_again *a = ctx;
	aieth__rmh_buf_clear(a->sink);
	if (a->resp)
		aieth__rmh_buf_clear(a->resp);
	if (a->up)
		a->up->off = 0;
}

int aieth__rm_req(rm_state *st, const char *method, const char *path, const char *body, img_io *up,
		  long timeout_s, long *status, sbuf *resp)
{
	req_again again;
	char url[768];
	struct curl_slist *hdrs = NULL;
	sbuf sink = SB_INIT(RMH_BODY_MAX);
	CURLcode cc = CURLE_OK;
	int idem = !strcmp(method, "GET") || !strcmp(method, "DELETE") || !strcmp(method, "PUT");
	int attempt;

	snprintf(url, sizeof url, "%s%s", st->base, path);
	for (attempt = 0; attempt < (idem ? RETRIES : 1); attempt++) {
		CURL *h = st->h;
		hdrs = aieth__rm_setup(st, url,
				       up     ? "Content-Type: application/octet-stream"
				       : body ? "Content-Type: application/json"
					      : NULL,
				       timeout_s);
		if (up) {
			up->off = 0;
			aieth__rm_up_setup(h, up);
		} else if (body) {
			curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
			curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
		}
		if (strcmp(method, "GET") && !(up && !strcmp(method, "PUT")))
			curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
		if (!body && !strcmp(method, "POST")) {
			curl_easy_setopt(h, CURLOPT_POSTFIELDS, "");
			curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, 0L);
		}
		again.sink = &sink;
		again.resp = resp;
		again.up = up;
		req_restart(&again);
		curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, aieth__rmh_buf_write);
		curl_easy_setopt(h, CURLOPT_WRITEDATA, resp ? resp : &sink);
		cc = aieth__rmh_perform(h, &st->xfer, req_restart, &again);
		curl_slist_free_all(hdrs);
		if (cc == CURLE_OK) {
			curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
			aieth__sb_free(&sink);
			return AIETH_OK;
		}
		if (cc != CURLE_COULDNT_CONNECT && cc != CURLE_SEND_ERROR &&
		    cc != CURLE_RECV_ERROR && cc != CURLE_GOT_NOTHING)
			break;
		if (attempt + 1 < (idem ? RETRIES : 1)) {
			struct timespec ts = {0, 200 * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
	aieth__sb_free(&sink);
	if (cc == CURLE_ABORTED_BY_CALLBACK)
		return aieth__fail(AIETH_EDEVICE, "server %s: %s %s: interrupted", st->base, method,
				   path);
	if (cc == CURLE_OPERATION_TIMEDOUT) {
		/* which limit ended it: the request's own, or nothing moved */
		char limits[160];
		if (st->device_wait)
			snprintf(limits, sizeof limits, "the wait's limit: %ld s", timeout_s);
		else if (timeout_s)
			snprintf(limits, sizeof limits,
				 "limits: %ld s in all, %ld s without a byte "
				 "(AIETH_REMOTE_STALL_S)",
				 timeout_s, st->xfer.stall_s);
		else
			snprintf(limits, sizeof limits,
				 "limit: %ld s without a byte "
				 "(AIETH_REMOTE_STALL_S)",
				 st->xfer.stall_s);
		return aieth__fail(AIETH_ETIMEOUT, "server %s: %s %s: no answer in time (%s; %s)",
				   st->base, method, path, curl_easy_strerror(cc), limits);
	}
	return aieth__fail(AIETH_EDEVICE, "server %s: %s %s: %s", st->base, method, path,
			   aieth__rmh_words(st->h, cc, st->cacert));
}

int aieth__rm_json(rm_state *st, const char *method, const char *path, const char *body, long want,
		   long timeout_s, struct json_object **out)
{
	sbuf b = SB_INIT(RMH_BODY_MAX);
	long status = 0;
	int rc = aieth__rm_req(st, method, path, body, NULL, timeout_s, &status, &b);
	if (out)
		*out = NULL;
	if (rc) {
		aieth__sb_free(&b);
		return rc;
	}
	return aieth__rm_reply(st, method, path, status, want, &b, out);
}

/* Whether the server ended this client's session itself (--max-session,
 * an idle limit): its reason into reason[cap]. A 409 or an interrupted
 * transaction is then the server's doing, not the caller's: an
 * infrastructure error (exit 3), never an input one. */
int aieth__rm_session_ended(rm_state *st, char *reason, size_t cap)
{
	struct json_object *o = NULL;
	const char *sstate = "", *why = "";
	char path[256];
	uint32_t pos = 0;
	int ended = 0;
	if (!st->sid[0])
		return 0;
	snprintf(path, sizeof path, "/v1/sessions/%s", st->sid);
	if (!aieth__rm_json(st, "GET", path, NULL, 200, CALL_S, &o) &&
	    !aieth__rmr_session_state(st->base, o, &sstate, &pos, &why) &&
	    (!strcmp(sstate, "expired") || !strcmp(sstate, "ended")) && why[0]) {
		snprintf(reason, cap, "%s", why);
		ended = 1;
	}
	json_object_put(o);
	aieth__error_clear();
	return ended;
}

/* A reply (its status and body b, freed here) to a request that wants
 * status want: see aieth__rm_json. */
int aieth__rm_reply(rm_state *st, const char *method, const char *path, long status, long want,
		    sbuf *b_, struct json_object **out)
{
	sbuf b = *b_;
	char msg[600];
	if (out)
		*out = NULL;
	if (status != want) {
		aieth__rmh_reply_message(&b, msg, sizeof msg);
		aieth__sb_free(&b);
		switch (status) {
		case 401:
		case 403:
			return aieth__fail(AIETH_EDEVICE, "server %s refused the token (%ld): %s",
					   st->base, status, msg);
		case 404: return aieth__fail(AIETH_ENOTFOUND, "server %s: %s", st->base, msg);
		case 409: {
			char why[300];
			/* between transactions: the server ended the session */
			if (strcmp(method, "GET") && aieth__rm_session_ended(st, why, sizeof why))
				return aieth__fail(AIETH_EDEVICE,
						   "server %s ended session %s: %s (%s %s: %s)",
						   st->base, st->sid, why, method, path, msg);
			return aieth__fail(AIETH_ESTATE, "server %s: %s", st->base, msg);
		}
		case 504: return aieth__fail(AIETH_ETIMEOUT, "server %s: %s", st->base, msg);
		case 400: return aieth__fail(AIETH_EINVAL, "server %s: %s", st->base, msg);
		default:
			return aieth__fail(AIETH_EDEVICE, "server %s: %s %s: status %ld: %s",
					   st->base, method, path, status, msg);
		}
	}
	if (out) {
		/* a reply is parsed as strictly as a file: one object, no
		 * duplicate keys, nothing after it */
		char what[1400];
		snprintf(what, sizeof what, "server %s: reply to %s %s", st->base, method, path);
		if (aieth__jstrict_parse_object(what, b.p ? b.p : "", b.n, RMH_BODY_MAX, out)) {
			aieth__sb_free(&b);
			*out = NULL;
			return aieth__fail_prefix(AIETH_EDEVICE, "protocol error");
		}
	}
	aieth__sb_free(&b);
	return AIETH_OK;
}

double aieth__rm_mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif /* AIETH_HAVE_CURL */
