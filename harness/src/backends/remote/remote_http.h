/* SPDX-License-Identifier: MIT */
/*
 * backends/remote/remote_http.h - what every request of the remote backend
 * shares (remote_http.c, remote_design.c, remote_sensors.c): the libcurl
 * handle's setup, the interrupt that aborts a transfer, a reply body read
 * into memory under a limit, and the server's error message out of that
 * body.
 */
#ifndef AIETH_BACKENDS_REMOTE_HTTP_H
#define AIETH_BACKENDS_REMOTE_HTTP_H

#ifdef AIETH_HAVE_CURL

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>

#include "util/sbuf.h"

#define RMH_CONNECT_S 10L
#define RMH_CALL_S 120L                /* a call that does not wait on the device */
#define RMH_BODY_MAX ((size_t)1 << 20) /* a reply body kept in memory (JSON) */
#define RMH_RATE_RETRIES 30            /* waits a request makes on the rate limit */
#define RMH_RATE_WAIT_S 10             /* the longest Retry-After honoured */
#define RMH_STALL_S 60L                /* default stall limit (AIETH_REMOTE_STALL_S) */
#define RMH_STALL_MAX_S 3600L

/* What a transfer watches: the interrupt flag aborts it, and so does
 * stop (a flag another thread of this client raises: a leg run on a thread
 * of its own, remote_stream.c); an upload
 * reports its progress when progress is set; a transfer during which no
 * byte moves for stall_s seconds ends (0: RMH_STALL_S; -1: no stall limit,
 * for a request the server answers only when the device is done: its
 * overall limit bounds it). */
typedef struct {
	const volatile sig_atomic_t *interrupt;                     /* NULL: none */
	const atomic_int *stop;                                     /* NULL: none */
	void (*progress)(void *ctx, uint64_t done, uint64_t total); /* NULL: none */
	void *progress_ctx;
	long stall_s;
} rmh_xfer;

/* Whether x's interrupt or stop flag is raised. */
int aieth__rmh_stopped(const rmh_xfer *x);

/* The stall limit from the environment: AIETH_REMOTE_STALL_S, seconds
 * 1..RMH_STALL_MAX_S (unset or empty: RMH_STALL_S). Another value is an
 * AIETH_EINVAL naming the variable. */
int aieth__rmh_stall_from_env(long *stall_s);

/* What an https server is trusted by: a CA bundle (cacert; NULL: the
 * system's) and its host name, or its public key alone (pin, "sha256//"
 * and base64: aieth_remote_opts.pinned_key; NULL: none). */
typedef struct {
	const char *cacert;
	const char *pin;
} rmh_trust;

/* Reset h for one request to url: auth ("Authorization: Bearer ..." or ""
 * for none), content_type (NULL: none), cacert (NULL: the system's),
 * timeout_s the overall limit (0: none), x watched during the transfer
 * (its stall limit applied; TCP keep-alive probes find a peer that
 * vanished)
 * (must outlive it). Returns the header list, already set on h: the caller
 * frees it after the transfer. */
struct curl_slist *aieth__rmh_setup(CURL *h, const char *url, const char *auth,
				    const rmh_trust *trust, const char *content_type,
				    long timeout_s, const rmh_xfer *x);

/* curl_easy_perform on h as set up; a reply the server asks to repeat
 * later (429 with Retry-After: its rate limit; a full queue sends none and
 * is final) is repeated after Retry-After seconds (at most
 * RMH_RATE_WAIT_S), RMH_RATE_RETRIES times at most, unless x's interrupt
 * is raised while waiting. The server refuses it from the request's head,
 * so nothing of the request was done. again(ctx) (may be NULL) first undoes
 * what the refused exchange wrote and read: reply buffers, upload offsets. */
CURLcode aieth__rmh_perform(CURL *h, const rmh_xfer *x, void (*again)(void *ctx), void *ctx);

/* A failed transfer on h (cc not CURLE_OK) in the user's words, with the
 * fix (util/net_words.h): the URL h asked, cacert the CA bundle it trusted
 * (NULL: the system's). In a buffer of the calling thread's, valid until
 * its next call: for the message made at once. */
const char *aieth__rmh_words(CURL *h, CURLcode cc, const char *cacert);

/* After a transfer on h: the seconds to wait before repeating it when the
 * server asked for that (as aieth__rmh_perform does; waits: how many times it
 * waited already), else 0. For transfers run side by side (curl_multi). */
long aieth__rmh_rate_wait_s(CURL *h, int waits);

/* A reply body is kept in an sbuf (util/sbuf.h) made with the limit
 * RMH_BODY_MAX (SB_INIT(RMH_BODY_MAX)): a longer one fails the transfer
 * (over is set). free(p) or aieth__sb_free after. */

/* Frees the sbuf b (an sbuf *) and leaves it empty, to be written again
 * (an aieth__rmh_perform again). */
void aieth__rmh_buf_clear(void *b);

/* CURLOPT_WRITEFUNCTION for an sbuf (the WRITEDATA). */
size_t aieth__rmh_buf_write(char *data, size_t size, size_t nmemb, void *ctx);

/* The server's {"error": {"message"}} of a reply into dst, or
 * "(no message)". */
void aieth__rmh_reply_message(const sbuf *b, char *dst, size_t cap);

#endif
#endif
