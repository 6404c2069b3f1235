/* SPDX-License-Identifier: MIT */
/*
 * remote_sensors.c - GET /v1/sensors for aieth_session_sensors
 * (remote_sensors.h): its own handle under a mutex, the reply parsed as
 * strictly as every other (remote_reply.c).
 */
#ifdef AIETH_HAVE_CURL

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "backends/remote/remote_http.h"
#include "backends/remote/remote_reply.h"
#include "backends/remote/remote_sensors.h"
#include "util/error.h"
#include "util/json_strict.h"

#define PATH "/v1/sensors"

void aieth__rms_init(rms_conn *c)
{
	memset(c, 0, sizeof *c);
	pthread_mutex_init(&c->mu, NULL);
}

void aieth__rms_fini(rms_conn *c)
{
	if (c->h)
		curl_easy_cleanup(c->h);
	c->h = NULL;
	pthread_mutex_destroy(&c->mu);
}

/* The exchange on c->h (mu held): the status and the body into b. */
static int exchange(rms_conn *c, const char *base, const char *auth, const rmh_trust *trust,
		    const volatile sig_atomic_t *intr, long *status, sbuf *b)
{
	rmh_xfer x;
	char url[600];
	struct curl_slist *hdrs;
	CURLcode cc;
	memset(&x, 0, sizeof x);
	x.interrupt = intr;
	x.stall_s = RMS_CALL_S;
	if (!c->h && !(c->h = curl_easy_init()))
		return aieth__fail(AIETH_ENOMEM, "server %s: GET " PATH ": no libcurl handle",
				   base);
	snprintf(url, sizeof url, "%s" PATH, base);
	hdrs = aieth__rmh_setup(c->h, url, auth, trust, NULL, RMS_CALL_S, &x);
	curl_easy_setopt(c->h, CURLOPT_WRITEFUNCTION, aieth__rmh_buf_write);
	curl_easy_setopt(c->h, CURLOPT_WRITEDATA, b);
	/* one try: a sample the rate limit refuses (429) is a failed sample,
	 * never minutes of waits in the sampler */
	cc = curl_easy_perform(c->h);
	curl_slist_free_all(hdrs);
	if (cc != CURLE_OK)
		return aieth__fail(cc == CURLE_OPERATION_TIMEDOUT ? AIETH_ETIMEOUT : AIETH_EDEVICE,
				   "server %s: GET " PATH ": %s", base,
				   cc == CURLE_ABORTED_BY_CALLBACK
					   ? "interrupted"
					   : aieth__rmh_words(c->h, cc, trust->cacert));
	curl_easy_getinfo(c->h, CURLINFO_RESPONSE_CODE, status);
	return AIETH_OK;
}

int aieth__rms_read(rms_conn *c, const char *base, const char *auth, const rmh_trust *trust,
		    const volatile sig_atomic_t *intr, aieth_sensor *out, size_t cap, size_t *n,
		    char *notes, size_t notes_cap)
{
	sbuf b = SB_INIT(RMH_BODY_MAX);
	struct json_object *o = NULL;
	char msg[600], what[700];
	long status = 0;
	int rc;
	pthread_mutex_lock(&c->mu);
	rc = exchange(c, base, auth, trust, intr, &status, &b);
	pthread_mutex_unlock(&c->mu);
	if (rc) {
		aieth__sb_free(&b);
		return rc;
	}
	if (status != 200) {
		aieth__rmh_reply_message(&b, msg, sizeof msg);
		aieth__sb_free(&b);
		if (status == 401 || status == 403)
			return aieth__fail(AIETH_EDEVICE, "server %s refused the token (%ld): %s",
					   base, status, msg);
		return aieth__fail(
			AIETH_EDEVICE, "server %s: GET " PATH ": status %ld: %s%s", base, status,
			msg, status == 404 ? " (a th_server older than GET /v1/sensors)" : "");
	}
	snprintf(what, sizeof what, "server %s: reply to GET " PATH, base);
	if (aieth__jstrict_parse_object(what, b.p ? b.p : "", b.n, RMH_BODY_MAX, &o)) {
		aieth__sb_free(&b);
		return aieth__fail_prefix(AIETH_EDEVICE, "protocol error");
	}
	aieth__sb_free(&b);
	rc = aieth__rmr_sensors(base, o, out, cap, n, notes, notes_cap);
	json_object_put(o);
	return rc;
}

#endif /* AIETH_HAVE_CURL */
