/* SPDX-License-Identifier: MIT */
/*
 * http_server.c - th_server's HTTP API (docs/http-api.md) on libmicrohttpd:
 * the request cycle (head checks, tokens, bodies within their limits,
 * dispatch), the replies, one log line per request, the daemon's start and
 * stop. The handlers are in http_sessions.c and http_txns.c; the device
 * and its queue in srv_core.c.
 *
 * libmicrohttpd runs one thread per connection.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "th_server/srv_core.h"

#ifdef AIETH_HAVE_MHD

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "th_server/http/http_internal.h"
#include "th_server/srv_tls.h"
#include "util/json_strict.h"
#include "util/text.h"

/* libmicrohttpd's memory per connection: its read buffer is half of it
 * while a body arrives, so this sets the size of each read of an upload
 * (16 KiB gave 8 KiB reads: 33,000 reads and polls for a 256 MiB image;
 * 256 KiB gave 128 KiB reads, 16 system calls per MiB; 1 MiB gives reads
 * of up to 512 KiB, make bench (e), docs/server.md). --max-conn 64:
 * 128 MiB at most (the evicted ones' too), of pages only a large upload
 * touches. */
#define CONN_MEMORY ((size_t)1 << 20)
/* the request line and headers, checked here (the memory above would let
 * libmicrohttpd take far more) */
#define HEAD_MAX ((size_t)16 << 10)
/* a chunked JSON body past its limit: read and discarded up to this much
 * more so that the 413 reaches the client; beyond, the connection is cut */
#define DISCARD_MAX ((size_t)1 << 20)
#define DRAIN_S 15 /* requests running at a drain get this long to end */
/* After a drain interrupted the device: HTTP clients still holding a session
 * get this long to collect what their transactions produced (wait, result,
 * RX image, artifacts) and end the session; new work is refused (503). */
#define COLLECT_MS 5000
#define QUIET_MS 300 /* no session left: stop once requests pause this long */

static void mhd_logger(void *cls, const char *fm, va_list ap)
{
	aieth__server *s = cls;
	char msg[512];
	size_t n;
	vsnprintf(msg, sizeof msg, fm, ap);
	n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
		msg[--n] = '\0';
	if (s->log_json) {
		char q[600];
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "event", json_object_new_string("http"));
		json_object_object_add(o, "message", json_object_new_string(msg));
		snprintf(q, sizeof q, "%s",
			 json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
		aieth__srv_log(s, "%s", q);
	} else {
		aieth__srv_log(s, "http: %s", msg);
	}
}

/* ---- the request cycle ---- */

static enum MHD_Result reply_body_memory(struct MHD_Connection *c, req_ctx *r, aieth__server *s,
					 unsigned long long n);

static enum MHD_Result dispatch(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	if (r->overflow == 2)
		return reply_body_memory(c, r, s, r->want);
	if (r->overflow)
		return aieth__http_reply_err(c, r, 413, NULL,
					     "request body: more than %zu bytes, the limit",
					     r->body_max);
	switch (r->route.kind) {
	case SRV_R_XCLBIN: return aieth__http_xclbin(c, r, s);
	case SRV_R_ARTIFACTS:
	case SRV_R_ARTIFACT: return aieth__http_artifacts(c, r, s);
	case SRV_R_HEALTH: return aieth__http_health(c, r, s);
	case SRV_R_METRICS: return aieth__http_metrics(c, r, s);
	case SRV_R_SESSIONS: return aieth__http_session_create(c, r, s);
	case SRV_R_SESSION: return aieth__http_session(c, r, s);
	case SRV_R_TXNS: return aieth__http_txn_create(c, r, s);
	case SRV_R_TXN_TX: return aieth__http_txn_tx_done(c, r, s);
	case SRV_R_TXN:
	case SRV_R_TXN_WAIT: return aieth__http_txn(c, r, s);
	case SRV_R_TXN_RX: return aieth__http_txn_rx(c, r, s);
	case SRV_R_GRAPH_RTP: return aieth__http_rtp(c, r, s);
	case SRV_R_VALIDATE: return aieth__http_validate(c, r, s);
	case SRV_R_SENSORS: return aieth__http_sensors(c, r, s);
	default: return aieth__http_graph(c, r, s);
	}
}

static int method_allowed(const char *allow, const char *method)
{
	size_t n = strlen(method);
	const char *p = allow;
	while ((p = strstr(p, method))) {
		if ((p == allow || p[-1] == ' ') && (p[n] == '\0' || p[n] == ','))
			return 1;
		p += n;
	}
	return 0;
}

static void addr_text(const struct sockaddr *sa, char *dst, size_t cap)
{
	snprintf(dst, cap, "-");
	if (sa) {
		socklen_t len = sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
							  : sizeof(struct sockaddr_in);
		char host[64];
		if (!getnameinfo(sa, len, host, sizeof host, NULL, 0, NI_NUMERICHOST))
			snprintf(dst, cap, "%s", host);
	}
}

static void client_text(struct MHD_Connection *c, char *dst, size_t cap)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	addr_text(ci ? ci->client_addr : NULL, dst, cap);
}

/* ---- connections: no lock-out before authentication ---- */

/* The connection to close for a new one when the connections without a
 * token fill their part (mu held): among those (not dying), the oldest of
 * the address holding the most of them, so that a client with a
 * connection or two of its own is the last to lose one, and one address
 * cannot push out the others. NULL when every connection is authenticated. */
static http_conn *evict_victim(http_conns *t)
{
	http_conn *best = NULL;
	unsigned i, j, best_n = 0;
	for (i = 0; i < t->nslots; i++) {
		http_conn *k = &t->v[i];
		unsigned n = 0;
		if (!k->used || k->dying || k->authed)
			continue;
		for (j = 0; j < t->nslots; j++)
			n += t->v[j].used && !t->v[j].dying && !t->v[j].authed &&
			     !strcmp(t->v[j].addr, k->addr);
		if (n > best_n || (n == best_n && k->seq < best->seq)) {
			best = k;
			best_n = n;
		}
	}
	return best;
}

/* mu held: k is shut down (its own thread sees the end of its socket and
 * closes it; the fd is not closed before the slot is freed) and no longer
 * counted. */
static void conn_cut(http_conn *k)
{
	shutdown(k->fd, SHUT_RDWR);
	k->dying = 1;
	k->in_head = 0;
}

/* The accept policy (the listening thread, before the connection is
 * counted open; one accept at a time). A connection starts without a
 * token: refused when its address holds --max-conn-per-addr such
 * connections; when those without a token fill --max-conn less the
 * quarter kept for authenticated ones (or all --max-conn are open), the
 * oldest of the address holding the most is closed to make room, and the
 * new one is refused only when every connection is authenticated. */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr, socklen_t len)
{
	aieth__server *s = cls;
	http_conns *t = s->conns;
	http_conn *victim = NULL;
	char a[64], va[64] = "";
	unsigned i, live = 0, unauth = 0, mine = 0;
	int64_t sec = srv_now_ms() / 1000;
	int refuse = 0, log = 0;
	(void)len;
	addr_text(addr, a, sizeof a);
	pthread_mutex_lock(&t->mu);
	for (i = 0; i < t->nslots; i++) {
		const http_conn *k = &t->v[i];
		if (!k->used || k->dying)
			continue;
		live++;
		unauth += !k->authed;
		mine += !k->authed && !strcmp(k->addr, a);
	}
	if (mine >= s->limits.conn_per_addr) {
		refuse = 1;
	} else if (live >= s->limits.conn_max ||
		   unauth >= s->limits.conn_max - s->limits.conn_reserve) {
		victim = evict_victim(t);
		if (!victim) {
			refuse = 2;
		} else {
			snprintf(va, sizeof va, "%s", victim->addr);
			conn_cut(victim);
			t->evicted++;
			log = t->evicted_logged_s != sec;
			t->evicted_logged_s = sec;
		}
	}
	if (refuse) {
		t->refused++;
		log = t->refused_logged_s != sec;
		t->refused_logged_s = sec;
	}
	pthread_mutex_unlock(&t->mu);
	if (log && refuse == 1)
		aieth__srv_log(
			s,
			"http: client %s: connection refused: it holds %u connections without a "
			"token, the limit is --max-conn-per-addr %u",
			a, mine, s->limits.conn_per_addr);
	else if (log && refuse == 2)
		aieth__srv_log(s,
			       "http: client %s: connection refused: all %u connections are "
			       "authenticated, the limit is --max-conn %u",
			       a, live, s->limits.conn_max);
	else if (log)
		aieth__srv_log(
			s,
			"http: client %s: the oldest connection without a token of %s closed to "
			"make room (%u of %u open, %u without a token; %u are kept for "
			"token holders, --max-conn %u)",
			a, va, live, s->limits.conn_max, unauth, s->limits.conn_reserve,
			s->limits.conn_max);
	return refuse ? MHD_NO : MHD_YES;
}

/* Connection start and end (NOTIFY_CLOSED comes before libmicrohttpd
 * closes the socket: a slot's fd stays valid while the slot is used). */
static void on_connection(void *cls, struct MHD_Connection *c, void **ctx,
			  enum MHD_ConnectionNotificationCode code)
{
	aieth__server *s = cls;
	http_conns *t = s->conns;
	http_conn *k = *ctx;
	pthread_mutex_lock(&t->mu);
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *fi =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		const union MHD_ConnectionInfo *ai =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		unsigned i;
		for (i = 0; i < t->nslots && t->v[i].used; i++)
			;
		if (i < t->nslots && fi) {
			k = &t->v[i];
			memset(k, 0, sizeof *k);
			k->used = 1;
			k->in_head = 1;
			k->fd = fi->connect_fd;
			k->since_ms = srv_now_ms();
			k->seq = ++t->seq;
			addr_text(ai ? ai->client_addr : NULL, k->addr, sizeof k->addr);
			t->open++;
			*ctx = k;
		}
	} else if (k) {
		memset(k, 0, sizeof *k);
		t->open--;
		*ctx = NULL;
	}
	pthread_mutex_unlock(&t->mu);
}

static http_conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

/* The connection's head arrived (head 0), or its request ended and the
 * next head is awaited (head 1). */
static void conn_in_head(aieth__server *s, struct MHD_Connection *c, int head)
{
	http_conns *t = s->conns;
	http_conn *k = conn_of(c);
	if (!k)
		return;
	pthread_mutex_lock(&t->mu);
	if (!k->dying) {
		k->in_head = head;
		k->since_ms = srv_now_ms();
	}
	pthread_mutex_unlock(&t->mu);
}

/* A request on c carried a valid token (authed 1): the connection is a
 * token holder's from now on, never evicted and not counted in its
 * address's --max-conn-per-addr. Returns whether it is one (kept alive
 * after the reply; one without a token carries one request). */
static int conn_authed(aieth__server *s, struct MHD_Connection *c, int authed)
{
	http_conns *t = s->conns;
	http_conn *k = conn_of(c);
	int r;
	if (!k)
		return authed;
	pthread_mutex_lock(&t->mu);
	if (authed)
		k->authed = 1;
	r = k->authed;
	pthread_mutex_unlock(&t->mu);
	return r;
}

void aieth__srv_http_tick(aieth__server *s)
{
	http_conns *t = s->conns;
	int64_t now = srv_now_ms(), lim = (int64_t)s->limits.head_timeout_s * 1000;
	unsigned i;
	if (!t)
		return;
	pthread_mutex_lock(&t->mu);
	for (i = 0; i < t->nslots; i++) {
		http_conn *k = &t->v[i];
		if (!k->used || k->dying || !k->in_head || now - k->since_ms <= lim)
			continue;
		conn_cut(k);
		t->head_timeouts++;
		aieth__srv_log(
			s,
			"http: client %s: no complete request head within --head-timeout %u s: "
			"connection closed",
			k->addr, s->limits.head_timeout_s);
	}
	pthread_mutex_unlock(&t->mu);
}

/* 429 with Retry-After: the error body names the limit and whose budget
 * (an address or "token NAME") ran out. */
static enum MHD_Result reply_rate_limited(struct MHD_Connection *c, req_ctx *r, aieth__server *s,
					  const char *key)
{
	char text[512];
	struct MHD_Response *resp;
	enum MHD_Result ret;
	snprintf(text, sizeof text,
		 "{\"error\":{\"code\":\"rate_limited\",\"message\":\"client "
		 "%s: more than %u requests in one second, the limit is --rate-limit %u; retry "
		 "after 1 s\"}}",
		 key, s->limits.rate_limit, s->limits.rate_limit);
	resp = MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_COPY);
	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	if (!r->keep)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
	ret = MHD_queue_response(c, 429, resp);
	MHD_destroy_response(resp);
	r->status = 429;
	r->out = strlen(text);
	r->answered = 1;
	return ret;
}

/* MHD_KeyValueIterator: adds a header line's length ("Name: value\r\n") */
static enum MHD_Result head_bytes(void *cls, enum MHD_ValueKind kind, const char *key,
				  const char *value)
{
	size_t *n = cls;
	(void)kind;
	*n += strlen(key) + (value ? strlen(value) : 0) + 4;
	return MHD_YES;
}

/* A request body held in memory (JSON, a run-time parameter) counts
 * against --max-memory with the transaction images: n more bytes of it,
 * 0 when they fit, else -1 with nothing counted. */
static int body_reserve(aieth__server *s, req_ctx *r, uint64_t n)
{
	if (aieth__srv_stats_body_reserve(s, n))
		return -1;
	r->body_mem += n;
	return 0;
}

static void body_release(aieth__server *s, req_ctx *r)
{
	aieth__srv_stats_body_release(s, r->body_mem);
	r->body_mem = 0;
}

/* 413 for a body of n bytes that --max-memory has no room for, named in
 * the reply and the log. */
static enum MHD_Result reply_body_memory(struct MHD_Connection *c, req_ctx *r, aieth__server *s,
					 unsigned long long n)
{
	unsigned long long used = aieth__srv_stats_mem_used(s), mib = s->limits.mem_max >> 20;
	aieth__srv_log(
		s,
		"http: client %s (token %s): %s %s: a request body of %llu bytes refused: %llu "
		"bytes of the --max-memory %llu MiB are in use",
		r->client, r->who, r->method, r->path, n, used, mib);
	return aieth__http_reply_err(
		c, r, 413, NULL,
		"request body of %llu bytes: %llu of the --max-memory %llu MiB are "
		"in use (transaction images and request bodies)",
		n, used, mib);
}

/* What a drain still serves: the health check, and the requests that
 * collect a session's results or end it; nothing that starts new work. */
static int drain_collects(const req_ctx *r)
{
	switch (r->route.kind) {
	case SRV_R_HEALTH:
	case SRV_R_TXN:
	case SRV_R_TXN_WAIT:
	case SRV_R_TXN_RX:
	case SRV_R_ARTIFACTS:
	case SRV_R_ARTIFACT: return 1;
	case SRV_R_SESSION: return !strcmp(r->method, "GET") || !strcmp(r->method, "DELETE");
	default: return 0;
	}
}

/* The first call of a request: everything decided from the head. */
static enum MHD_Result on_head(struct MHD_Connection *c, req_ctx *r, aieth__server *s,
			       const char *url)
{
	size_t head = strlen(url);
	const char *allow, *auth, *cl, *ct, *te;
	unsigned long long len = 0;
	int draining;

	aieth__srv_route_parse(url, &r->route);
	snprintf(r->who, sizeof r->who, "-");
	MHD_get_connection_values(c, MHD_HEADER_KIND, head_bytes, &head);
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, head_bytes, &head);
	if (head > HEAD_MAX)
		return aieth__http_reply_err(c, r, 431, NULL,
					     "the request line and headers have about %zu "
					     "bytes, the limit is %zu",
					     head, HEAD_MAX);
	if (s->have_tokens) {
		const char *tok, *name = NULL;
		size_t tlen;
		char key[sizeof "token " + SRV_TOKEN_NAME_MAX];
		auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						   MHD_HTTP_HEADER_AUTHORIZATION);
		/* tokmu: a reload (SIGHUP) may swap the tokens; the name is
		 * copied out before they can go */
		pthread_mutex_lock(&s->tokmu);
		if (auth && !aieth__srv_bearer(auth, &tok, &tlen))
			name = aieth__srv_tokens_check(&s->tokens, tok, tlen);
		/* "token NAME" cannot be an address: the two kinds of key never meet */
		if (name) {
			snprintf(key, sizeof key, "token %s", name);
			snprintf(r->who, sizeof r->who, "%s", name);
			name = r->who;
		}
		pthread_mutex_unlock(&s->tokmu);
		/* a valid token makes the connection a token holder's, the
		 * health check's too (which needs none) */
		r->keep = conn_authed(s, c, name != NULL);
		if (aieth__srv_stats_rate(s, name ? key : r->client))
			return reply_rate_limited(c, r, s, name ? key : r->client);
		if (r->route.kind != SRV_R_HEALTH && !auth)
			return aieth__http_reply_err(c, r, 401, NULL,
						     "no token: send Authorization: Bearer "
						     "TOKEN");
		if (r->route.kind != SRV_R_HEALTH && !name)
			return aieth__http_reply_err(c, r, 401, NULL,
						     "the token is not one of this server's");
	} else {
		/* without a token file every client is trusted as a token
		 * holder is, once it asks for more than the health check */
		r->keep = conn_authed(s, c, r->route.kind != SRV_R_HEALTH);
		if (aieth__srv_stats_rate(s, r->client))
			return reply_rate_limited(c, r, s, r->client);
	}
	draining = aieth__srv_stats_request_head(s);
	if (draining && !drain_collects(r))
		return aieth__http_reply_err(c, r, 503, NULL, "the server is stopping");
	if (r->route.kind == SRV_R_NONE)
		return aieth__http_reply_err(c, r, 404, NULL,
					     "no such path: %s (the API is under /v1/, "
					     "docs/http-api.md)",
					     r->path);
	if (r->route.kind == SRV_R_NOT_IMPL)
		return aieth__http_reply_err(c, r, 501, NULL,
					     "%s is not built yet (docs/http-api.md, "
					     "\"Not yet implemented\")",
					     r->path);
	allow = aieth__srv_route_methods(r->route.kind);
	if (!method_allowed(allow, r->method))
		return aieth__http_reply_err(c, r, 405, allow, "%s %s: allowed methods are %s",
					     r->method, r->path, allow);
	cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	te = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
	if (cl) {
		const char *p = cl;
		if (!*p)
			return aieth__http_reply_err(c, r, 400, NULL, "Content-Length: empty");
		for (; *p; p++) {
			if (*p < '0' || *p > '9' || p - cl > 18)
				return aieth__http_reply_err(
					c, r, 400, NULL,
					"Content-Length: not a number of 1..19 "
					"digits");
			len = len * 10 + (unsigned long long)(*p - '0');
		}
	}
	if (r->route.kind == SRV_R_TXN_TX)
		return aieth__http_txn_tx_head(c, r, s, len, cl != NULL);
	if (r->route.kind == SRV_R_XCLBIN && !strcmp(r->method, "PUT"))
		return aieth__http_xclbin_put_head(c, r, s, len, cl != NULL);
	/* a new session may carry an xrt.ini */
	r->body_max = r->route.kind == SRV_R_SESSIONS ? SRV_SESSION_BODY_MAX : SRV_BODY_MAX;
	if (cl) {
		if (len > r->body_max)
			return aieth__http_reply_err(c, r, 413, NULL,
						     "request body: Content-Length %llu bytes, "
						     "the limit is %zu",
						     len, r->body_max);
	} else if (!te && !strcmp(r->method, "POST") && r->route.kind != SRV_R_GRAPH_END &&
		   r->route.kind != SRV_R_GRAPH_WAIT && r->route.kind != SRV_R_TXN_WAIT) {
		return aieth__http_reply_err(c, r, 411, NULL,
					     "%s %s: a body with Content-Length is needed",
					     r->method, r->path);
	}
	if (r->route.kind == SRV_R_GRAPH_RTP && !strcmp(r->method, "PUT")) {
		ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
		if (!cl)
			return aieth__http_reply_err(c, r, 411, NULL,
						     "PUT %s: a body with Content-Length is needed",
						     r->path);
		if (!len || len > SRV_RTP_MAX)
			return aieth__http_reply_err(c, r, len ? 413 : 400, NULL,
						     "run-time parameter: %llu bytes, "
						     "allowed 1..%u",
						     len, SRV_RTP_MAX);
		if (!ct || strcmp(ct, "application/octet-stream"))
			return aieth__http_reply_err(
				c, r, 415, NULL,
				"Content-Type: application/octet-stream is needed");
		r->cap = (size_t)len;
		if (body_reserve(s, r, r->cap + 1))
			return reply_body_memory(c, r, s, len);
		r->body = malloc(r->cap + 1);
		if (!r->body)
			return aieth__http_reply_err(c, r, 500, NULL,
						     "request body: out of memory");
		return MHD_YES;
	}
	if (len || te) {
		ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
		if (!ct || strncmp(ct, "application/json", 16) ||
		    (ct[16] && ct[16] != ';' && ct[16] != ' '))
			return aieth__http_reply_err(c, r, 415, NULL,
						     "Content-Type: application/json is needed");
		r->cap = len ? (size_t)len : 4096;
		if (body_reserve(s, r, r->cap + 1))
			return reply_body_memory(c, r, s, r->cap);
		r->body = malloc(r->cap + 1);
		if (!r->body)
			return aieth__http_reply_err(c, r, 500, NULL,
						     "request body: out of memory for %zu bytes",
						     r->cap);
	}
	return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload_data,
				  size_t *upload_size, void **con_cls)
{
	aieth__server *s = cls;
	req_ctx *r = *con_cls;
	(void)version;

	if (!r) {
		r = calloc(1, sizeof *r);
		if (!r)
			return MHD_NO;
		*con_cls = r;
		conn_in_head(s, c, 0);
		aieth__srv_stats_request_begin(s);
		r->t0_ms = srv_now_ms();
		clock_gettime(CLOCK_REALTIME, &r->t0);
		snprintf(r->method, sizeof r->method, "%s", method);
		aieth__quote_str(r->path, sizeof r->path, url);
		client_text(c, r->client, sizeof r->client);
		if (strlen(url) > 1024) {
			aieth__http_reply_err(c, r, 404, NULL, "path: %zu bytes, the limit is 1024",
					      strlen(url));
			return MHD_YES;
		}
		on_head(c, r, s, url);
		return MHD_YES;
	}
	if (*upload_size) {
		size_t n = *upload_size;
		r->in += n;
		*upload_size = 0;
		if (r->answered)
			return MHD_YES;
		if (r->overflow) {
			/* a chunked body past its limit is read to its end (a bounded
			 * amount more) and thrown away, so that the client gets the
			 * 413; one that goes on is cut */
			return r->in <= r->body_max + DISCARD_MAX ? MHD_YES : MHD_NO;
		}
		if (r->xup) {
			if (aieth__srv_xclbin_write(r->xup, upload_data, n)) {
				r->overflow = 1;
				return MHD_NO;
			}
			return MHD_YES;
		}
		if (r->txn) {
			int e = aieth__http_txn_tx_data(r, s, upload_data, n);
			if (e == -1)
				r->overflow = 1;
			else if (e)
				r->cut = 1;
			return e ? MHD_NO : MHD_YES;
		}
		if (n > r->cap - r->len) {
			/* chunked, or more than Content-Length said */
			size_t want = r->len + n;
			char *nb;
			if (want > r->body_max) {
				r->overflow = 1;
				return MHD_YES; /* the rest is discarded, then 413 */
			}
			if (want < r->cap * 2)
				want = r->cap * 2 < r->body_max ? r->cap * 2 : r->body_max;
			if (body_reserve(s, r, want - r->cap)) {
				r->overflow = 2; /* the rest is discarded, then 413 */
				r->want = want;
				return MHD_YES;
			}
			nb = realloc(r->body, want + 1);
			if (!nb)
				return MHD_NO;
			r->body = nb;
			r->cap = want;
		}
		memcpy(r->body + r->len, upload_data, n);
		r->len += n;
		return MHD_YES;
	}
	if (r->answered)
		return MHD_YES;
	if (r->body)
		r->body[r->len] = '\0';
	return dispatch(c, r, s);
}

/* A TX upload that ended before its last byte: what cut it, for the log
 * line (" (...)", and the status logged): the drain (503, the status of
 * the drain's refusals), or the device of a streamed transaction that gave
 * up on it (409: the session can no longer use it). The client got no
 * reply: the connection was closed. */
static void tx_cut_note(aieth__server *s, req_ctx *r, char *note, size_t cap)
{
	const srv_txn *t = r->txn;
	const char *why = t->stream ? aieth__srv_stream_failure(t->stream) : NULL;
	if (aieth__srv_stats_stopping(s)) {
		r->status = 503;
		snprintf(note, cap,
			 " (the TX upload was cut by the drain (the server is stopping: SIGTERM "
			 "or SIGINT) after %llu of %llu bytes; connection closed)",
			 (unsigned long long)t->tx_got, (unsigned long long)t->tx_size);
	} else if (r->cut) {
		r->status = 409;
		snprintf(note, cap, " (%s; connection closed)",
			 why ? why : "the device gave up waiting for the TX upload");
	}
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	aieth__server *s = cls;
	req_ctx *r = *con_cls;
	char when[32], note[400] = "";
	struct tm tm;
	double ms;
	size_t i;

	if (!r)
		return;
	*con_cls = NULL;
	conn_in_head(s, c, 1); /* kept alive: the next head has its deadline */
	if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK && r->status < 400 && !r->overflow)
		r->status = 0; /* the client went away, or the connection broke */
	if (r->overflow)
		r->status = 413;
	if (r->txn && (r->cut || (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK && !r->answered)))
		tx_cut_note(s, r, note, sizeof note);
	ms = (double)(srv_now_ms() - r->t0_ms);
	gmtime_r(&r->t0.tv_sec, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (i = 0; i < SRV_NCODES && aieth__srv_metric_codes[i] != r->status; i++)
		;
	aieth__srv_stats_request_end(s, r->in, r->out, (unsigned)i);
	if (s->log_json) {
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "time", json_object_new_string(when));
		json_object_object_add(o, "client", json_object_new_string(r->client));
		json_object_object_add(o, "token",
				       json_object_new_string(r->who[0] ? r->who : "-"));
		json_object_object_add(o, "method", json_object_new_string(r->method));
		json_object_object_add(o, "path", json_object_new_string(r->path));
		json_object_object_add(o, "status", json_object_new_int((int)r->status));
		json_object_object_add(o, "bytes_in", json_object_new_uint64(r->in));
		json_object_object_add(o, "bytes_out", json_object_new_uint64(r->out));
		json_object_object_add(o, "ms", json_object_new_double(ms));
		if (note[0])
			json_object_object_add(o, "note", json_object_new_string(note + 2));
		aieth__srv_log(s, "%s", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	} else {
		aieth__srv_log(s, "%s %s %s %s %s %u in=%llu out=%llu %.0fms%s", when, r->client,
			       r->who[0] ? r->who : "-", r->method, r->path, r->status,
			       (unsigned long long)r->in, (unsigned long long)r->out, ms,
			       note[0]          ? note
			       : r->status == 0 ? " (connection closed before the reply)"
						: "");
	}
	if (r->txn) {
		/* the TX upload is over (done, refused or broken): a streamed
		 * transaction's device stops waiting for one that broke */
		if (r->txn->stream)
			aieth__srv_stream_tx_end(r->txn->stream, 0);
		aieth__srv_txn_busy_put(s, r->txn);
	}
	if (r->sess)
		aieth__srv_release(s, r->sess);
	aieth__http_xclbin_drop(r); /* an upload that did not complete leaves nothing */
	body_release(s, r);
	free(r->body);
	free(r);
}

static void conns_free(aieth__server *s)
{
	http_conns *t = s->conns;
	if (!t)
		return;
	pthread_mutex_destroy(&t->mu);
	free(t);
	s->conns = NULL;
}

/* ---- start / stop ---- */

int aieth__srv_http_start(aieth__server *s, const aieth__server_opts *o, const void *addrp)
{
	const struct sockaddr_storage *addr = addrp;
	const union MHD_DaemonInfo *di;
	struct MHD_Daemon *d;
	unsigned flags;
	/* the options as an array: TLS ones only when serving https */
	struct MHD_OptionItem opt[14];
	size_t k = 0;
	/* room for the connections evicted but not yet ended: libmicrohttpd
	 * counts them until their threads are gone */
	unsigned nslots = 2 * s->limits.conn_max;
	http_conns *t = calloc(1, sizeof *t + nslots * sizeof t->v[0]);

	if (!t)
		return aieth__fail(AIETH_ENOMEM, "server: out of memory");
	pthread_mutex_init(&t->mu, NULL);
	t->nslots = nslots;
	s->conns = t;

	flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
		MHD_USE_ERROR_LOG;
	if (addr->ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	if (s->tls_cert)
		flags |= MHD_USE_TLS;
	opt[k++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)mhd_logger, s};
	opt[k++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, (void *)addr};
	opt[k++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, (intptr_t)nslots, NULL};
	opt[k++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT,
					   (intptr_t)s->limits.client_timeout_s, NULL};
	opt[k++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, CONN_MEMORY, NULL};
	opt[k++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)on_completed, s};
	opt[k++] =
		(struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)on_connection, s};
	if (s->tls_cert) {
		opt[k++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, s->tls_key};
		opt[k++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, s->tls_cert};
	}
	opt[k++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
	d = MHD_start_daemon(flags, 0, on_accept, s, on_request, s, MHD_OPTION_ARRAY, opt,
			     MHD_OPTION_END);
	if (!d) {
		int e = errno;
		conns_free(s);
		return aieth__fail(AIETH_EIO, "listen address %s: cannot listen (%s)", o->listen,
				   e ? strerror(e) : "libmicrohttpd refused to start");
	}
	di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	s->port = di ? di->port : 0;
	s->http = d;
	{
		/* how this server reaches itself (POST /v1/validate): its
		 * address, the loopback one when it listens on every address */
		const struct sockaddr *sa = (const void *)addr;
		char host[64] = "127.0.0.1";
		if (sa->sa_family == AF_INET6) {
			const struct sockaddr_in6 *a6 = (const void *)addr;
			if (IN6_IS_ADDR_UNSPECIFIED(&a6->sin6_addr))
				snprintf(host, sizeof host, "::1");
			else
				inet_ntop(AF_INET6, &a6->sin6_addr, host, sizeof host);
			snprintf(s->self_url, sizeof s->self_url, "%s://[%s]:%u",
				 s->tls_cert ? "https" : "http", host, (unsigned)s->port);
		} else {
			const struct sockaddr_in *a4 = (const void *)addr;
			if (a4->sin_addr.s_addr != htonl(INADDR_ANY))
				inet_ntop(AF_INET, &a4->sin_addr, host, sizeof host);
			snprintf(s->self_url, sizeof s->self_url, "%s://%s:%u",
				 s->tls_cert ? "https" : "http", host, (unsigned)s->port);
		}
	}
	if (s->tls_cert) {
		/* over TLS the suite trusts this listener by its key's pin
		 * (aieth_remote_opts.pinned_key): its certificate names the host
		 * its clients use, not this address, and no CA of ours need
		 * vouch for it */
		int rc;
		if ((rc = aieth__srv_tls_pin(s->tls_cert, strlen(s->tls_cert), s->self_pin,
					     sizeof s->self_pin))) {
			MHD_stop_daemon(d);
			s->http = NULL;
			conns_free(s);
			return rc;
		}
	}
	return AIETH_OK;
}

void aieth__srv_http_stop(aieth__server *s)
{
	int64_t t0 = srv_now_ms(), now;
	int i;
	/* requests running (a transaction wait sees the interrupt flag) get
	 * their replies out, and clients holding a session get COLLECT_MS to
	 * fetch their results and end it, before the daemon closes every
	 * connection: a transaction that ended in the drain is not lost */
	for (i = 0; s->http && i < DRAIN_S * 50; i++) {
		struct timespec ts = {0, 20 * 1000000L};
		unsigned n, open;
		int64_t last;
		aieth__srv_stats_drain(s, &n, &open, &last);
		now = srv_now_ms();
		/* the log says which end it was: operators (and tests) read why
		 * a stop took as long as it did, not a stopwatch */
		if (!n && !open && now - last >= QUIET_MS) {
			aieth__srv_log(s, "drain: no HTTP session left open");
			break;
		}
		if (!n && now - t0 >= COLLECT_MS) {
			aieth__srv_log(
				s,
				"drain: the %d s collect window is over with %u HTTP session%s open",
				COLLECT_MS / 1000, open, open == 1 ? "" : "s");
			break;
		}
		nanosleep(&ts, NULL);
	}
	if (s->http)
		MHD_stop_daemon(s->http);
	s->http = NULL;
	conns_free(s);
}

#else /* !AIETH_HAVE_MHD: built without libmicrohttpd */

int aieth__srv_http_start(aieth__server *s, const aieth__server_opts *o, const void *addr)
{
	(void)s;
	(void)o;
	(void)addr;
	return aieth__fail(AIETH_EUNSUPPORTED, "th_server: this build has no HTTP server "
					       "(libaieth was built without libmicrohttpd)");
}

void aieth__srv_http_stop(aieth__server *s) { (void)s; }

void aieth__srv_http_tick(aieth__server *s) { (void)s; }

#endif
