/* SPDX-License-Identifier: MIT */
/*
 * remote_http.c - what every request of the remote backend shares
 * (remote_http.h).
 */
#ifdef AIETH_HAVE_CURL

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "backends/remote/remote_http.h"
#include "backends/remote/remote_self.h"
#include "util/error.h"
#include "util/net_words.h"

int rmh_stopped(const rmh_xfer *x)
{
	return (x->interrupt && *x->interrupt) || (x->stop && atomic_load(x->stop));
}

static int xfer(void *ctx, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	const rmh_xfer *x = ctx;
	(void)dt;
	(void)dn;
	if (rmh_stopped(x))
		return 1;
	if (x->progress && ut > 0)
		x->progress(x->progress_ctx, (uint64_t)un, (uint64_t)ut);
	return 0;
}

struct curl_slist *rmh_setup(CURL *h, const char *url, const char *auth, const char *cacert,
			     const char *content_type, long timeout_s, const rmh_xfer *x)
{
	struct curl_slist *hdrs = NULL;
	char pin[RMS_PIN_MAX];
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
	if (cacert)
		curl_easy_setopt(h, CURLOPT_CAINFO, cacert);
	if (!strncmp(url, "https://", 8) && rms_self_pin(url, pin)) {
		/* th_server asking its own listener (POST /v1/validate): its
		 * certificate names the host its clients use, not the loopback
		 * address asked here, and no CA bundle of this process need
		 * vouch for it. So the chain and the name are not checked; the
		 * key is pinned instead (the SHA-256 of the very public key this
		 * process loaded, remote_self.h): the handshake fails unless the
		 * peer proves it holds that key's private half, which only this
		 * server does. That is no weaker than a CA and a name, and only
		 * this process's own listener URL gets it. */
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
		curl_easy_setopt(h, CURLOPT_PINNEDPUBLICKEY, pin);
	}
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, xfer);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, (void *)x);
	return hdrs;
}

int rmh_stall_from_env(long *stall_s)
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

const char *rmh_words(CURL *h, CURLcode cc, const char *cacert)
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

long rmh_rate_wait_s(CURL *h, int waits)
{
	long status = 0;
	curl_off_t after = -1;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	if (status != 429 || waits >= RMH_RATE_RETRIES ||
	    curl_easy_getinfo(h, CURLINFO_RETRY_AFTER, &after) != CURLE_OK || after <= 0)
		return 0;
	return after > RMH_RATE_WAIT_S ? RMH_RATE_WAIT_S : (long)after;
}

CURLcode rmh_perform(CURL *h, const rmh_xfer *x, void (*again)(void *ctx), void *ctx)
{
	int waits;
	for (waits = 0;; waits++) {
		CURLcode cc = curl_easy_perform(h);
		long after = rmh_rate_wait_s(h, waits), tenths;
		if (!after)
			return cc;
		for (tenths = 0; tenths < after * 10; tenths++) {
			struct timespec ts = {0, 100 * 1000000L};
			if (x && rmh_stopped(x))
				return cc;
			nanosleep(&ts, NULL);
		}
		if (again)
			again(ctx);
	}
}

void rmh_buf_clear(void *b) { sb_free(b); }

size_t rmh_buf_write(char *data, size_t size, size_t nmemb, void *ctx)
{
	size_t n = size * nmemb;
	return sb_put(ctx, data, n) ? 0 : n; /* 0: curl ends the transfer */
}

void rmh_reply_message(const sbuf *b, char *dst, size_t cap)
{
	struct json_object *o = b->p ? json_tokener_parse(b->p) : NULL, *e, *m;
	snprintf(dst, cap, "%s", "(no message)");
	if (o && json_object_object_get_ex(o, "error", &e) &&
	    json_object_object_get_ex(e, "message", &m))
		snprintf(dst, cap, "%s", json_object_get_string(m));
	json_object_put(o);
}

#endif /* AIETH_HAVE_CURL */
