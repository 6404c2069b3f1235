/* SPDX-License-Identifier: MIT */
/*
 * http_txns.c - th_server's HTTP API: transactions (the encoded
 * transaction, its TX image streamed in, the wait, the result, the RX
 * image streamed out) and run-time parameters (docs/http-api.md).
 */
#ifdef AIETH_HAVE_MHD

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th_server/http/http_internal.h"

enum MHD_Result aieth__http_txn_create(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	static const unsigned status[] = {201, 400, 409, 413, 500};
	enum MHD_Result ret;
	srv_sess *x;
	srv_txn *t;
	srv_txn_req q;
	srv_t_result tr;
	char msg[512];
	int rc;

	if ((rc = aieth__srv_txn_req_parse(r->body, r->len, &q)))
		return aieth__http_reply_err(c, r, 400, NULL, "%s", aieth_error_message());
	if ((rc = aieth__srv_txn_check(&q))) {
		free(q.cfg);
		return aieth__http_reply_err(c, r, aieth__http_status_of(rc), NULL, "%s",
					     aieth_error_message());
	}
	if (!(x = aieth__http_active_session(c, r, s, &ret))) {
		free(q.cfg);
		return ret;
	}
	tr = aieth__srv_txn_new(s, x, &q, &t, msg, sizeof msg);
	if (tr != SRV_T_OK) {
		ret = aieth__http_reply_err(c, r, status[tr], NULL, "%s%s",
					    tr == SRV_T_GEOMETRY ? "request body: " : "", msg);
	} else if (q.stream && aieth_dev_streams(x->dev) &&
		   /* started as it is made: the device waits for its TX bytes
		    * as they come (server/srv_stream.h) */
		   ((rc = aieth__srv_stream_new(s, x, t)) ||
		    (rc = aieth__srv_txn_start(s, x, t)))) {
		ret = aieth__http_reply_err(c, r, aieth__http_status_of(rc), NULL,
					    "transaction \"%s\": %s", t->id, aieth_error_message());
		aieth__srv_txn_drop(s, x, t);
	} else {
		struct json_object *o = aieth__srv_txn_json(s, x, t);
		/* whether it streams: asked, and the device can */
		if (o)
			json_object_object_add(o, "stream",
					       json_object_new_boolean(t->stream != NULL));
		ret = aieth__http_reply_json(c, r, 201, o);
	}
	free(q.cfg);
	aieth__srv_release(s, x);
	return ret;
}

/* The head of PUT .../tx: the body goes straight into the TX image. */
enum MHD_Result aieth__http_txn_tx_head(struct MHD_Connection *c, req_ctx *r, aieth__server *s,
					unsigned long long len, int have_len)
{
	enum MHD_Result ret;
	srv_sess *x = aieth__http_active_session(c, r, s, &ret);
	srv_txn *t;
	const char *ct;
	if (!x)
		return ret;
	int busy, held, streamed;
	char why[256];
	/* one upload at a time; a streamed transaction takes its upload while
	 * it runs (held: t busy, dropped when the request completes) */
	aieth__srv_txn_upload_get(s, x, r->route.tid, &t, &busy, &held);
	streamed = t && t->stream;
	if (!t) {
		ret = aieth__http_reply_err(
			c, r, 404, NULL, "transaction \"%s\": no such transaction", r->route.tid);
	} else if (busy) {
		ret = aieth__http_reply_err(c, r, 409, NULL,
					    "transaction \"%s\": another upload of its TX "
					    "image is in progress",
					    t->id);
	} else if (!streamed && aieth__srv_txn_state_get(s, t) != ST_AWAIT_TX) {
		ret = aieth__http_reply_err(
			c, r, 409, NULL, "transaction \"%s\": its TX image is in already", t->id);
	} else if (!have_len || len != t->tx_size) {
		unsigned status = have_len && len > t->tx_size ? 413 : 400;
		ret = aieth__http_reply_err(c, r, status, NULL,
					    "transaction \"%s\": Content-Length %s%llu, the TX "
					    "image is %llu bytes",
					    t->id, have_len ? "" : "missing, ",
					    have_len ? len : 0ull, (unsigned long long)t->tx_size);
	} else if (!(ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						      MHD_HTTP_HEADER_CONTENT_TYPE)) ||
		   strcmp(ct, "application/octet-stream")) {
		ret = aieth__http_reply_err(c, r, 415, NULL,
					    "Content-Type: application/octet-stream is needed");
	} else if (streamed && aieth__srv_stream_tx_begin(t->stream, why, sizeof why)) {
		ret = aieth__http_reply_err(c, r, 409, NULL, "transaction \"%s\": %s", t->id, why);
	} else {
		aieth__srv_txn_tx_got(s, t, 0);
		r->sess = x;
		r->txn = t; /* t->busy is dropped when the request completes */
		return MHD_YES;
	}
	if (held)
		aieth__srv_txn_busy_put(s, t);
	aieth__srv_release(s, x);
	return ret;
}

/* libmicrohttpd reads a body into its own buffer and hands it here, so
 * one copy into the image is the floor: its API gives a request's socket
 * to the application only for an Upgrade (101), not for a PUT body. The
 * image is memory kept mapped (srv_image.c), so the copy costs no page
 * faults; a pwrite into a memory file would be the same copy done by the
 * kernel, plus a system call per piece. */
int aieth__http_txn_tx_data(req_ctx *r, aieth__server *s, const char *data, size_t n)
{
	srv_txn *t = r->txn;
	if (n > t->tx_size - t->tx_got)
		return -1;
	if (t->stream) {
		/* the device may be reading the image: the stream copies under
		 * its lock and wakes it */
		if (aieth__srv_stream_tx_data(t->stream, data, n))
			return -2; /* the device gave up on the upload */
		aieth__srv_txn_tx_got(s, t, t->tx_got + n);
		aieth__srv_images_count(&s->images, 0, n, n);
		return 0;
	}
	memcpy(t->txbuf + t->tx_got, data, n);
	aieth__srv_txn_tx_got(s, t, t->tx_got + n);
	aieth__srv_images_count(&s->images, 0, n, n);
	return 0;
}

enum MHD_Result aieth__http_txn_tx_done(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	srv_txn *t = r->txn;
	srv_sess *x = r->sess;
	struct json_object *o;
	int rc;
	if (t->tx_got != t->tx_size)
		return aieth__http_reply_err(
			c, r, 400, NULL, "transaction \"%s\": %llu of %llu TX bytes came", t->id,
			(unsigned long long)t->tx_got, (unsigned long long)t->tx_size);
	if (t->stream)
		aieth__srv_stream_tx_end(t->stream, 1); /* started as it was made */
	else if ((rc = aieth__srv_txn_start(s, x, t)))
		return aieth__http_reply_err(c, r, aieth__http_status_of(rc), NULL,
					     "transaction \"%s\": %s", t->id,
					     aieth_error_message());
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_string(t->id));
	json_object_object_add(
		o, "state",
		json_object_new_string(aieth__dev_txn_state[aieth__srv_txn_state_get(s, t)]));
	return aieth__http_reply_json(c, r, 202, o);
}

/* DELETE .../txns/T: a transaction not running and not streaming is freed
 * with its images. */
static enum MHD_Result txn_delete(struct MHD_Connection *c, req_ctx *r, aieth__server *s,
				  srv_sess *x)
{
	unsigned pos;
	switch (aieth__srv_txn_delete(s, x, r->route.tid, &pos)) {
	case SRV_TD_NONE:
		return aieth__http_reply_err(
			c, r, 404, NULL, "transaction \"%s\": no such transaction", r->route.tid);
	case SRV_TD_RUNNING:
		return aieth__http_reply_err(c, r, 409, NULL,
					     "transaction \"%s\" is running on the device "
					     "(place %u among the started ones): wait for it (POST "
					     ".../wait) first, or end the session",
					     r->route.tid, pos);
	case SRV_TD_BUSY:
		return aieth__http_reply_err(c, r, 409, NULL,
					     "transaction \"%s\": its TX upload, wait or RX "
					     "download is in progress",
					     r->route.tid);
	case SRV_TD_OK: break;
	}
	aieth__srv_log(s, "session %s: transaction %s deleted by its client", x->id, r->route.tid);
	return aieth__http_reply(c, r, 204, NULL, "", 0, NULL);
}

/* POST .../wait: t held until its result is written. */
static enum MHD_Result txn_wait(struct MHD_Connection *c, req_ctx *r, aieth__server *s, srv_sess *x,
				uint32_t timeout_ms)
{
	enum MHD_Result ret;
	srv_txn *t;
	char pid[16];
	int busy;
	switch (aieth__srv_txn_wait_get(s, x, r->route.tid, &t, pid, sizeof pid)) {
	case SRV_TW_NONE:
		return aieth__http_reply_err(
			c, r, 404, NULL, "transaction \"%s\": no such transaction", r->route.tid);
	case SRV_TW_AWAIT_TX:
		return aieth__http_reply_err(c, r, 409, NULL,
					     "transaction \"%s\": its TX image is not in yet",
					     r->route.tid);
	case SRV_TW_NOT_FIRST:
		return aieth__http_reply_err(c, r, 409, NULL,
					     "transaction \"%s\": %s was started before it "
					     "and finishes first",
					     r->route.tid, pid);
	case SRV_TW_OK: break;
	}
	aieth__srv_txn_wait(s, x, t, timeout_ms, &busy);
	if (busy)
		ret = aieth__http_reply_err(c, r, 409, NULL, "%s", aieth_error_message());
	else
		ret = aieth__http_reply_json(c, r, 200, aieth__srv_txn_json(s, x, t));
	aieth__srv_txn_busy_put(s, t);
	return ret;
}

enum MHD_Result aieth__http_txn(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	enum MHD_Result ret;
	srv_sess *x;
	struct json_object *o;
	uint32_t timeout_ms = 0;

	if (r->route.kind == SRV_R_TXN_WAIT &&
	    aieth__srv_wait_req_parse(r->body, r->len, &timeout_ms))
		return aieth__http_reply_err(c, r, 400, NULL, "%s", aieth_error_message());
	if (!(x = aieth__http_active_session(c, r, s, &ret)))
		return ret;
	if (r->route.kind == SRV_R_TXN && !strcmp(r->method, "DELETE"))
		ret = txn_delete(c, r, s, x);
	else if (r->route.kind != SRV_R_TXN)
		ret = txn_wait(c, r, s, x, timeout_ms);
	else if (aieth__srv_txn_status(s, x, r->route.tid, &o))
		ret = aieth__http_reply_err(
			c, r, 404, NULL, "transaction \"%s\": no such transaction", r->route.tid);
	else /* the status: no device call, cheap to poll */
		ret = aieth__http_reply_json(c, r, 200, o);
	aieth__srv_release(s, x);
	return ret;
}

/* GET .../rx: the RX image sent from where the device wrote it (or the
 * part a Range asks for), without a copy: libmicrohttpd sends a buffer
 * response straight from its memory (a 256 MiB image copied through a
 * 256 KiB callback buffer was a tenth of a remote transfer's time); with
 * TLS, GnuTLS encrypts from it. Not sendfile from a memory file
 * (memfd_create and libmicrohttpd's fd responses): on loopback here it
 * ran at 0.6 of send() from the mapping, a memory file gets no
 * transparent huge pages where shmem_enabled is "never" (4 KiB faults: 1.1 ms
 * per MiB of fresh image), and the socket keeps references to the file's
 * pages after sendfile returns, so an image reused by the next session
 * could change bytes still queued for this client (docs/server.md). The
 * session stays referenced and the transaction busy, so the image stays,
 * until the response is done. */
typedef struct {
	aieth__server *s;
	srv_sess *x;
	srv_txn *t;
	uint64_t from; /* a streamed transaction's download: where it starts */
} rx_stream;

/* A streamed transaction still running: its RX bytes go out as the device
 * makes them final, through libmicrohttpd's buffer (one copy; the download
 * overlaps the device's work, docs/http-api.md). This thread blocks here:
 * the server runs a thread per connection. */
#define RX_LIVE_BLOCK ((size_t)1 << 20)
static ssize_t rx_live_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	rx_stream *st = cls;
	uint64_t at = st->from + pos, end = aieth__srv_stream_rx_wait(st->t->stream, at);
	size_t n;
	if (!end)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	n = end - at < max ? (size_t)(end - at) : max;
	memcpy(buf, st->t->rxbuf + at, n);
	aieth__srv_images_count(&st->s->images, 1, 0, n);
	return (ssize_t)n;
}

static void rx_free(void *cls)
{
	rx_stream *st = cls;
	aieth__srv_txn_busy_put(st->s, st->t);
	aieth__srv_release(st->s, st->x);
	free(st);
}

/* A decimal of 1..19 digits at *p, advanced past it. */
static int range_num(const char **p, uint64_t *v)
{
	const char *q = *p;
	*v = 0;
	while (*q >= '0' && *q <= '9' && q - *p < 19)
		*v = *v * 10 + (uint64_t)(*q++ - '0');
	if (q == *p || (*q >= '0' && *q <= '9'))
		return -1;
	*p = q;
	return 0;
}

/* Range: bytes=A-B, bytes=A- or bytes=-N (one range) against an image of
 * size bytes: 0 with [*a, *b] inclusive, 1 when unsatisfiable or malformed
 * (why in msg). */
static int range_parse(const char *h, uint64_t size, uint64_t *a, uint64_t *b, char *msg,
		       size_t cap)
{
	const char *p = h + 6;
	uint64_t x, y;
	if (strncmp(h, "bytes=", 6)) {
		snprintf(msg, cap, "Range: %.60s: only \"bytes=\" ranges are served", h);
		return 1;
	}
	if (*p == '-') {
		p++;
		if (range_num(&p, &y) || *p || !y || !size) {
			snprintf(msg, cap,
				 "Range: %.60s: a suffix of 1.. bytes of a %llu byte image "
				 "is needed",
				 h, (unsigned long long)size);
			return 1;
		}
		*a = y >= size ? 0 : size - y;
		*b = size - 1;
		return 0;
	}
	if (range_num(&p, &x) || *p++ != '-') {
		snprintf(msg, cap, "Range: %.60s: one range A-B, A- or -N is served", h);
		return 1;
	}
	y = size ? size - 1 : 0;
	if (*p && (range_num(&p, &y) || *p)) {
		snprintf(msg, cap, "Range: %.60s: one range A-B, A- or -N is served", h);
		return 1;
	}
	if (x >= size || y < x) {
		snprintf(msg, cap, "Range: %.60s: the RX image is %llu bytes", h,
			 (unsigned long long)size);
		return 1;
	}
	*a = x;
	*b = y < size ? y : size - 1;
	return 0;
}

/* 416 with Content-Range: bytes STAR/size and the error body. */
static enum MHD_Result reply_416(struct MHD_Connection *c, req_ctx *r, uint64_t size,
				 const char *msg)
{
	struct json_object *o = json_object_new_object(), *e = json_object_new_object();
	char cr[48];
	json_object_object_add(e, "code", json_object_new_string("range_not_satisfiable"));
	json_object_object_add(e, "message", json_object_new_string(msg));
	json_object_object_add(o, "error", e);
	snprintf(cr, sizeof cr, "bytes */%llu", (unsigned long long)size);
	return aieth__http_reply_json_hdr(c, r, 416, o, MHD_HTTP_HEADER_CONTENT_RANGE, cr);
}

enum MHD_Result aieth__http_txn_rx(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	enum MHD_Result ret;
	srv_sess *x;
	srv_txn *t;
	rx_stream *st;
	struct MHD_Response *resp;
	const char *range;
	uint64_t a = 0, b = 0, size, from = 0, len;
	unsigned status = 200;
	char msg[256];
	int live, found;

	if (!(x = aieth__http_active_session(c, r, s, &ret)))
		return ret;
	/* held (busy) from here: the image stays until the response is done */
	if (!(t = aieth__srv_txn_rx_get(s, x, r->route.tid, &live, &found))) {
		ret = aieth__http_reply_err(
			c, r, found ? 409 : 404, NULL, "transaction \"%s\": %s", r->route.tid,
			found ? "not finished yet (POST .../wait)" : "no such transaction");
		aieth__srv_release(s, x);
		return ret;
	}
	size = t->rx_size;
	range = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_RANGE);
	if (range && range_parse(range, size, &a, &b, msg, sizeof msg)) {
		aieth__srv_txn_busy_put(s, t);
		aieth__srv_release(s, x);
		return reply_416(c, r, size, msg);
	}
	st = malloc(sizeof *st);
	if (!st) {
		aieth__srv_txn_busy_put(s, t);
		aieth__srv_release(s, x);
		return aieth__http_reply_err(c, r, 500, NULL, "out of memory");
	}
	st->s = s;
	st->x = x;
	st->t = t;
	len = size;
	if (range) {
		status = 206;
		from = a;
		len = b - a + 1;
	}
	st->from = from;
	/* a bounded range of a running transaction (the remote backend asks
	 * for its download in such pieces): answered once its bytes are
	 * final, then sent straight from the image as a finished one's, not
	 * copied through libmicrohttpd's buffer (the copy was 0.1 ns of CPU per
	 * byte moved, docs/server.md); this thread blocks meanwhile, as the
	 * callback below would */
	if (live && range && range[strlen(range) - 1] != '-') {
		if (!aieth__srv_stream_rx_wait(t->stream, b)) {
			rx_free(st);
			return aieth__http_reply_err(
				c, r, 409, NULL,
				"transaction \"%s\": RX bytes %llu-%llu never became "
				"final (the session ended, or the device was not run "
				"within --client-timeout)",
				r->route.tid, (unsigned long long)a, (unsigned long long)b);
		}
		live = 0;
	}
	if (live)
		resp = MHD_create_response_from_callback(len, RX_LIVE_BLOCK, rx_live_read, st,
							 rx_free);
	else
		resp = MHD_create_response_from_buffer_with_free_callback_cls(
			(size_t)len, t->rxbuf + from, rx_free, st);
	if (!resp) {
		rx_free(st);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/octet-stream");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_ACCEPT_RANGES, "bytes");
	if (range) {
		char cr[80];
		snprintf(cr, sizeof cr, "bytes %llu-%llu/%llu", (unsigned long long)a,
			 (unsigned long long)b, (unsigned long long)size);
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_RANGE, cr);
	}
	ret = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	aieth__srv_images_count(&s->images, 1, len, 0);
	r->status = status;
	r->out = len;
	r->answered = 1;
	return ret;
}

enum MHD_Result aieth__http_rtp(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	enum MHD_Result ret;
	srv_sess *x = aieth__http_active_session(c, r, s, &ret);
	const char *sz;
	unsigned long n = 0;
	uint8_t *buf = NULL;
	int rc;

	if (!x)
		return ret;
	if (!strcmp(r->method, "GET")) {
		uint32_t v;
		sz = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "size");
		if (aieth__srv_rtp_size_parse(sz, &v)) {
			ret = aieth__http_reply_err(c, r, 400, NULL,
						    "GET %s: ?size=N (1..%u bytes) is needed",
						    r->path, SRV_RTP_MAX);
			goto out;
		}
		n = v;
		buf = malloc(n);
		if (!buf) {
			ret = aieth__http_reply_err(c, r, 500, NULL, "out of memory");
			goto out;
		}
	}
	if (pthread_mutex_trylock(&x->call)) {
		ret = aieth__http_reply_err(
			c, r, 409, NULL, "session \"%s\" is busy with another device call", x->id);
		goto out;
	}
	if (buf)
		rc = aieth_graph_read_rtp(x->dev, r->route.graph, r->route.port, buf, n);
	else
		rc = aieth_graph_update_rtp(x->dev, r->route.graph, r->route.port, r->body, r->len);
	pthread_mutex_unlock(&x->call);
	if (rc)
		ret = aieth__http_reply_err(c, r, aieth__http_status_of(rc), NULL,
					    "graph \"%s\" port \"%s\": %s", r->route.graph,
					    r->route.port, aieth_error_message());
	else if (buf)
		ret = aieth__http_reply(c, r, 200, "application/octet-stream", (const char *)buf, n,
					NULL);
	else
		ret = aieth__http_reply(c, r, 204, NULL, "", 0, NULL);
out:
	free(buf);
	aieth__srv_release(s, x);
	return ret;
}

#endif /* AIETH_HAVE_MHD */
