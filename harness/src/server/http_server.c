/*
 * http_server.c - th_server's HTTP API (docs/http-api.md) on libmicrohttpd:
 * one device, sessions that hold it exclusively, a first-come first-served
 * queue with visible positions, idle and wait limits, bearer tokens, one
 * log line per request through the caller's callback, Prometheus metrics.
 *
 * Threads: libmicrohttpd runs one thread per connection. srv->mu guards the
 * sessions, the queue and the counters; a device call runs outside it,
 * under its session's call lock, with the session referenced so that an
 * end (DELETE, expiry, drain) closes the device only after the call.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aieth.h"
#include "util/error.h"

#ifdef AIETH_HAVE_MHD

#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/socket.h>

#include <json-c/json.h>
#include <microhttpd.h>

#include "core/session_internal.h"
#include "server/srv_route.h"
#include "server/srv_tokens.h"
#include "util/fileio.h"
#include "util/json_strict.h"
#include "util/path.h"
#include "util/sbuf.h"

#define CONN_LIMIT 64
#define CONN_TIMEOUT_S 30
#define CONN_MEMORY (16u << 10)
#define ENDED_KEEP 64

#define TXNS_MAX 16             /* transactions a session holds at once */

/* A transaction shipped encoded (pl_dma/protocol.h): the images live here
 * once, the device reads and writes them in place. */
typedef struct srv_txn {
	char id[16];
	int state;                    /* 0 awaiting TX, 1 started, 2 finished */
	pld_txn wire;
	uint8_t *txbuf, *rxbuf;
	uint64_t tx_got;
	aieth_dev_result res;
	uint64_t *arr;                /* backing of res's 8 arrays of N */
	int *conn;                    /* backing of res's 2 arrays of N */
	int failed;                   /* the device call itself failed */
	char msg[512];
	struct srv_txn *next;
} srv_txn;

typedef enum { SS_QUEUED, SS_ACTIVE, SS_ENDED, SS_EXPIRED, SS_FAILED } ss_state;

static const char *const state_names[] = {"queued", "active", "ended", "expired", "failed"};

typedef struct srv_sess {
	char id[SRV_ID_MAX + 1];
	char owner[SRV_TOKEN_NAME_MAX + 1];
	ss_state state;
	char reason[512];
	int64_t created_ms, last_ms;
	uint64_t seq;
	srv_session_req req;
	aieth_session *dev;
	int refs;                     /* device calls running */
	pthread_mutex_t call;
	srv_txn *txns;                /* in submission order */
	uint32_t next_tid;
	uint64_t mem;                 /* image bytes its transactions hold */
	struct srv_sess *next;
} srv_sess;

/* status classes counted for the metrics */
static const unsigned metric_codes[] = {200, 201, 202, 204, 400, 401, 403, 404, 405, 409, 411,
					413, 415, 422, 429, 500, 501, 503, 504};
#define NCODES (sizeof metric_codes / sizeof metric_codes[0])

struct aieth_server {
	struct MHD_Daemon *d;
	pthread_mutex_t mu, logmu;
	srv_tokens tokens;
	int have_tokens;
	char *backend, *board, *data_dir;
	aieth_server_log_fn log;
	void *log_ctx;
	int log_json;
	int64_t idle_ms, max_wait_ms;
	uint32_t idle_s, max_wait_s, max_queue;
	uint16_t port;
	volatile sig_atomic_t stop;   /* the sessions' interrupt flag: set on drain */
	int draining;
	srv_sess *sessions;           /* in arrival order */
	uint64_t next_seq, id_key;
	/* metrics */
	uint64_t sessions_total, resets, bytes_in, bytes_out, requests_other;
	uint64_t requests[NCODES];
	uint64_t txn_status[5], txn_failed;   /* by aieth_txn_status; device call failed */
	char *tls_cert, *tls_key;     /* PEM text, alive while the daemon runs */
	uint64_t mem_used, mem_max;   /* image bytes held by all transactions */
};

/* One request as it is handled. */
typedef struct {
	int64_t t0_ms;
	struct timespec t0;
	char method[16];
	char path[256];
	char client[64];
	char who[SRV_TOKEN_NAME_MAX + 1];
	srv_route route;
	unsigned status;
	uint64_t in, out;
	int answered;                 /* a response was queued */
	srv_sess *sess;               /* referenced during a TX upload */
	srv_txn *txn;
	int overflow;                 /* a chunked body went past the limit */
	char *body;
	size_t len, cap;
} req_ctx;

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void logf_line(aieth_server *s, const char *fmt, ...) AIETH_PRINTF(2, 3);
static void logf_line(aieth_server *s, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	if (!s->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&s->logmu);
	s->log(s->log_ctx, line);
	pthread_mutex_unlock(&s->logmu);
}

static void mhd_logger(void *cls, const char *fm, va_list ap)
{
	aieth_server *s = cls;
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
		snprintf(q, sizeof q, "%s", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
		logf_line(s, "%s", q);
	} else {
		logf_line(s, "http: %s", msg);
	}
}

/* ---- replies ---- */

static enum MHD_Result reply(struct MHD_Connection *c, req_ctx *r, unsigned status,
			     const char *type, const char *body, size_t len, const char *allow)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;
	resp = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	if (!resp)
		return MHD_NO;
	if (type)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (allow && *allow)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
	if (status == 401)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
	ret = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	r->status = status;
	r->out = len;
	r->answered = 1;
	return ret;
}

static enum MHD_Result reply_json(struct MHD_Connection *c, req_ctx *r, unsigned status,
				  struct json_object *o)
{
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	enum MHD_Result ret;
	if (!text) {
		json_object_put(o);
		return reply(c, r, 500, "application/json",
			     "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}", 56,
			     NULL);
	}
	ret = reply(c, r, status, "application/json", text, strlen(text), NULL);
	json_object_put(o);
	return ret;
}

static const char *code_name(unsigned status)
{
	switch (status) {
	case 400: return "bad_request";
	case 401: return "unauthorized";
	case 403: return "forbidden";
	case 404: return "not_found";
	case 405: return "method_not_allowed";
	case 409: return "conflict";
	case 411: return "length_required";
	case 413: return "too_large";
	case 415: return "unsupported_media_type";
	case 422: return "device_error";
	case 429: return "queue_full";
	case 501: return "not_implemented";
	case 503: return "draining";
	case 504: return "timeout";
	default: return "internal";
	}
}

static enum MHD_Result reply_err(struct MHD_Connection *c, req_ctx *r, unsigned status,
				 const char *allow, const char *fmt, ...) AIETH_PRINTF(5, 6);
static enum MHD_Result reply_err(struct MHD_Connection *c, req_ctx *r, unsigned status,
				 const char *allow, const char *fmt, ...)
{
	char msg[1024];
	struct json_object *o, *e;
	const char *text;
	enum MHD_Result ret;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	o = json_object_new_object();
	e = json_object_new_object();
	json_object_object_add(e, "code", json_object_new_string(code_name(status)));
	json_object_object_add(e, "message", json_object_new_string(msg));
	json_object_object_add(o, "error", e);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	if (!text)
		text = "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}";
	ret = reply(c, r, status, "application/json", text, strlen(text), allow);
	json_object_put(o);
	return ret;
}

/* An aieth error code as an HTTP status. */
static unsigned status_of(int rc)
{
	switch (rc) {
	case AIETH_EINVAL:
	case AIETH_EPARSE:
		return 400;
	case AIETH_ENOTFOUND:
		return 404;
	case AIETH_ESTATE:
		return 409;
	case AIETH_ETIMEOUT:
		return 504;
	case AIETH_ENOMEM:
		return 500;
	default:
		return 422;
	}
}

/* ---- sessions (srv->mu held) ---- */

static srv_sess *find_locked(aieth_server *s, const char *id)
{
	srv_sess *p;
	for (p = s->sessions; p; p = p->next)
		if (!strcmp(p->id, id))
			return p;
	return NULL;
}

static unsigned position_locked(aieth_server *s, const srv_sess *x)
{
	const srv_sess *p;
	unsigned n = 1;
	if (x->state != SS_QUEUED)
		return 0;
	for (p = s->sessions; p && p != x; p = p->next)
		if (p->state == SS_QUEUED)
			n++;
	return n;
}

static void free_txns(srv_sess *x)
{
	srv_txn *t, *n;
	for (t = x->txns; t; t = n) {
		n = t->next;
		pld_txn_release(&t->wire);
		free(t->txbuf);
		free(t->rxbuf);
		free(t->arr);
		free(t->conn);
		free(t);
	}
	x->txns = NULL;
}

static void close_dev_locked(aieth_server *s, srv_sess *x)
{
	if (x->dev && x->refs == 0) {
		free_txns(x);
		s->mem_used -= x->mem;
		x->mem = 0;
		/* closing the device is its reset: graphs ended, buffers freed; the
		 * next session opens it afresh */
		aieth_session_close(x->dev);
		x->dev = NULL;
		s->resets++;
	}
}

/* A device still open by a session that ended during a call blocks the
 * next session until that call returns. */
static int device_busy_locked(aieth_server *s)
{
	srv_sess *p;
	for (p = s->sessions; p; p = p->next)
		if (p->state == SS_ACTIVE || p->dev)
			return 1;
	return 0;
}

static int open_dev(aieth_server *s, srv_sess *x)
{
	aieth_graph_spec g[SRV_GRAPHS_MAX];
	aieth_session_opts o;
	size_t i;
	memset(&o, 0, sizeof o);
	for (i = 0; i < x->req.ngraphs; i++) {
		g[i].name = x->req.graphs[i].name;
		g[i].model = x->req.graphs[i].model[0] ? x->req.graphs[i].model : NULL;
		g[i].model_params = x->req.graphs[i].params;
	}
	o.board = x->req.board;
	o.data_dir = s->data_dir;
	o.backend = s->backend;
	o.graphs = g;
	o.num_graphs = x->req.ngraphs;
	o.interrupt = &s->stop;
	return aieth_session_open(&x->dev, &o);
}

/* Give the device to the first queued session when it is free. */
static void promote_locked(aieth_server *s)
{
	srv_sess *p;
	if (s->draining)
		return;
	while (!device_busy_locked(s)) {
		for (p = s->sessions; p && p->state != SS_QUEUED; p = p->next)
			;
		if (!p)
			return;
		if (open_dev(s, p)) {
			p->state = SS_FAILED;
			snprintf(p->reason, sizeof p->reason, "the device could not be opened: %s",
				 aieth_error_message());
			logf_line(s, "session %s: %s", p->id, p->reason);
			continue;
		}
		/* the idle clock keeps running from the client's last request: a
		 * client that left while queued does not hold the device longer */
		p->state = SS_ACTIVE;
	}
}

static void end_locked(aieth_server *s, srv_sess *x, ss_state st, const char *reason)
{
	if (x->state != SS_QUEUED && x->state != SS_ACTIVE)
		return;
	x->state = st;
	if (reason)
		snprintf(x->reason, sizeof x->reason, "%s", reason);
	close_dev_locked(s, x);
	promote_locked(s);
}

static void free_sess(srv_sess *x)
{
	free_txns(x);
	srv_session_req_free(&x->req);
	pthread_mutex_destroy(&x->call);
	free(x);
}

/* Forget the oldest finished sessions beyond ENDED_KEEP. */
static void prune_locked(aieth_server *s)
{
	srv_sess **pp;
	size_t n = 0;
	for (pp = &s->sessions; *pp; pp = &(*pp)->next)
		if ((*pp)->state >= SS_ENDED && !(*pp)->dev && !(*pp)->refs)
			n++;
	for (pp = &s->sessions; *pp && n > ENDED_KEEP;) {
		srv_sess *x = *pp;
		if (x->state >= SS_ENDED && !x->dev && !x->refs) {
			*pp = x->next;
			free_sess(x);
			n--;
		} else {
			pp = &x->next;
		}
	}
}

void aieth_server_tick(aieth_server *s)
{
	srv_sess *p;
	int64_t t = now_ms();
	char why[256];
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	for (p = s->sessions; p; p = p->next) {
		if (p->state == SS_QUEUED && t - p->created_ms > s->max_wait_ms) {
			snprintf(why, sizeof why, "waited %lld s in the queue, the limit is "
				 "--max-wait %u s", (long long)((t - p->created_ms) / 1000),
				 s->max_wait_s);
			logf_line(s, "session %s (%s): expired: %s", p->id, p->owner, why);
			end_locked(s, p, SS_EXPIRED, why);
		} else if ((p->state == SS_QUEUED || p->state == SS_ACTIVE) && !p->refs &&
			   t - p->last_ms > s->idle_ms) {
			snprintf(why, sizeof why, "no request for %lld s, the limit is "
				 "--idle-timeout %u s", (long long)((t - p->last_ms) / 1000),
				 s->idle_s);
			logf_line(s, "session %s (%s): expired: %s", p->id, p->owner, why);
			end_locked(s, p, SS_EXPIRED, why);
		}
	}
	prune_locked(s);
	promote_locked(s);
	pthread_mutex_unlock(&s->mu);
}

/* ---- handlers ---- */

static struct json_object *session_json_locked(aieth_server *s, srv_sess *x)
{
	struct json_object *o = json_object_new_object(), *g = json_object_new_array();
	size_t i;
	json_object_object_add(o, "id", json_object_new_string(x->id));
	json_object_object_add(o, "state", json_object_new_string(state_names[x->state]));
	json_object_object_add(o, "position", json_object_new_int64(position_locked(s, x)));
	json_object_object_add(o, "board", json_object_new_string(x->req.board));
	json_object_object_add(o, "backend", json_object_new_string(s->backend));
	for (i = 0; i < x->req.ngraphs; i++)
		json_object_array_add(g, json_object_new_string(x->req.graphs[i].name));
	json_object_object_add(o, "graphs", g);
	json_object_object_add(o, "idle_timeout_s", json_object_new_int64(s->idle_s));
	json_object_object_add(o, "max_wait_s", json_object_new_int64(s->max_wait_s));
	if (x->reason[0])
		json_object_object_add(o, "reason", json_object_new_string(x->reason));
	return o;
}

static enum MHD_Result h_health(struct MHD_Connection *c, req_ctx *r, aieth_server *s)
{
	struct json_object *o = json_object_new_object();
	int draining;
	pthread_mutex_lock(&s->mu);
	draining = s->draining;
	pthread_mutex_unlock(&s->mu);
	json_object_object_add(o, "status", json_object_new_string(draining ? "draining" : "ok"));
	json_object_object_add(o, "server", json_object_new_string("th_server"));
	json_object_object_add(o, "version", json_object_new_string(aieth_version()));
	json_object_object_add(o, "api", json_object_new_int(1));
	json_object_object_add(o, "backend", json_object_new_string(s->backend));
	json_object_object_add(o, "board", s->board ? json_object_new_string(s->board) : NULL);
	json_object_object_add(o, "draining", json_object_new_boolean(draining));
	json_object_object_add(o, "tls", json_object_new_boolean(s->tls_cert != NULL));
	return reply_json(c, r, 200, o);
}

static enum MHD_Result h_metrics(struct MHD_Connection *c, req_ctx *r, aieth_server *s)
{
	sbuf b = {0};
	srv_sess *p;
	unsigned active = 0, queued = 0;
	size_t i;
	enum MHD_Result ret;

	pthread_mutex_lock(&s->mu);
	for (p = s->sessions; p; p = p->next) {
		active += p->state == SS_ACTIVE;
		queued += p->state == SS_QUEUED;
	}
	sb_lit(&b, "# HELP aieth_sessions_active Sessions holding the device (0 or 1).\n"
		   "# TYPE aieth_sessions_active gauge\n");
	sb_printf(&b, "aieth_sessions_active %u\n", active);
	sb_lit(&b, "# HELP aieth_queue_length Sessions waiting for the device.\n"
		   "# TYPE aieth_queue_length gauge\n");
	sb_printf(&b, "aieth_queue_length %u\n", queued);
	sb_lit(&b, "# HELP aieth_sessions_total Sessions created.\n"
		   "# TYPE aieth_sessions_total counter\n");
	sb_printf(&b, "aieth_sessions_total %llu\n", (unsigned long long)s->sessions_total);
	sb_lit(&b, "# HELP aieth_device_resets_total Device closes (resets) between sessions.\n"
		   "# TYPE aieth_device_resets_total counter\n");
	sb_printf(&b, "aieth_device_resets_total %llu\n", (unsigned long long)s->resets);
	sb_lit(&b, "# HELP aieth_bytes_received_total Request body bytes received.\n"
		   "# TYPE aieth_bytes_received_total counter\n");
	sb_printf(&b, "aieth_bytes_received_total %llu\n", (unsigned long long)s->bytes_in);
	sb_lit(&b, "# HELP aieth_bytes_sent_total Response body bytes sent.\n"
		   "# TYPE aieth_bytes_sent_total counter\n");
	sb_printf(&b, "aieth_bytes_sent_total %llu\n", (unsigned long long)s->bytes_out);
	sb_lit(&b, "# HELP aieth_image_bytes Transaction image bytes held (TX + RX).\n"
		   "# TYPE aieth_image_bytes gauge\n");
	sb_printf(&b, "aieth_image_bytes %llu\n", (unsigned long long)s->mem_used);
	sb_lit(&b, "# HELP aieth_requests_total Requests answered, by status.\n"
		   "# TYPE aieth_requests_total counter\n");
	for (i = 0; i < NCODES; i++)
		if (s->requests[i])
			sb_printf(&b, "aieth_requests_total{status=\"%u\"} %llu\n", metric_codes[i],
				  (unsigned long long)s->requests[i]);
	if (s->requests_other)
		sb_printf(&b, "aieth_requests_total{status=\"other\"} %llu\n",
			  (unsigned long long)s->requests_other);
	sb_lit(&b, "# HELP aieth_transactions_total Transactions run to their end, by status.\n"
		   "# TYPE aieth_transactions_total counter\n");
	{
		static const char *const tn[5] = {"pending", "done", "timeout", "failed",
						  "interrupted"};
		for (i = 0; i < 5; i++)
			sb_printf(&b, "aieth_transactions_total{status=\"%s\"} %llu\n", tn[i],
				  (unsigned long long)(s->txn_status[i] + (i == 3 ? s->txn_failed : 0)));
	}
	pthread_mutex_unlock(&s->mu);
	if (b.oom) {
		free(b.p);
		return reply_err(c, r, 500, NULL, "metrics: out of memory");
	}
	ret = reply(c, r, 200, "text/plain; version=0.0.4", b.p, b.n, NULL);
	free(b.p);
	return ret;
}

static void new_id(aieth_server *s, char *id, size_t cap)
{
	uint64_t v = ++s->next_seq;
	/* unguessable enough to not collide with an older server's ids in a
	 * client's retries; ownership is checked by token anyway */
	snprintf(id, cap, "s-%llu-%08llx", (unsigned long long)v,
		 (unsigned long long)((s->id_key ^ (v * 0x9e3779b97f4a7c15ull)) & 0xffffffffull));
}

static enum MHD_Result h_session_create(struct MHD_Connection *c, req_ctx *r, aieth_server *s)
{
	srv_sess *x, **pp;
	aieth_board *b = NULL;
	unsigned queued = 0;
	struct json_object *o;
	char loc[64];
	struct MHD_Response *resp;
	const char *text;
	enum MHD_Result ret;
	int rc;

	x = calloc(1, sizeof *x);
	if (!x)
		return reply_err(c, r, 500, NULL, "session: out of memory");
	rc = srv_session_req_parse(r->body, r->len, &x->req);
	if (rc) {
		srv_session_req_free(&x->req);
		free(x);
		return reply_err(c, r, 400, NULL, "%s", aieth_error_message());
	}
	if (s->board && strcmp(s->board, x->req.board)) {
		char q[80];
		jstrict_quote(q, sizeof q, x->req.board);
		srv_session_req_free(&x->req);
		free(x);
		return reply_err(c, r, 422, NULL, "board \"%s\" requested, this server's board is %s",
				 q, s->board);
	}
	if (x->req.xclbin_sha256[0]) {
		srv_session_req_free(&x->req);
		free(x);
		return reply_err(c, r, 501, NULL, "xclbin_sha256: the design upload is not built "
				 "yet (docs/http-api.md); leave it out on the emulated board");
	}
	if (aieth_board_load(&b, x->req.board, s->data_dir)) {
		srv_session_req_free(&x->req);
		free(x);
		return reply_err(c, r, 422, NULL, "%s", aieth_error_message());
	}
	aieth_board_free(b);
	pthread_mutex_init(&x->call, NULL);
	snprintf(x->owner, sizeof x->owner, "%s", r->who);

	pthread_mutex_lock(&s->mu);
	if (s->draining) {
		pthread_mutex_unlock(&s->mu);
		free_sess(x);
		return reply_err(c, r, 503, NULL, "the server is stopping");
	}
	for (pp = &s->sessions; *pp; pp = &(*pp)->next)
		queued += (*pp)->state == SS_QUEUED;
	if (device_busy_locked(s) && queued >= s->max_queue) {
		pthread_mutex_unlock(&s->mu);
		free_sess(x);
		return reply_err(c, r, 429, NULL, "the queue holds %u sessions, the limit is "
				 "--max-queue %u", queued, s->max_queue);
	}
	new_id(s, x->id, sizeof x->id);
	x->seq = s->next_seq;
	x->created_ms = x->last_ms = now_ms();
	x->state = SS_QUEUED;
	*pp = x;
	s->sessions_total++;
	promote_locked(s);
	if (x->state == SS_FAILED) {
		char msg[sizeof x->reason];
		snprintf(msg, sizeof msg, "%s", x->reason);
		pthread_mutex_unlock(&s->mu);
		return reply_err(c, r, 422, NULL, "%s", msg);
	}
	o = session_json_locked(s, x);
	pthread_mutex_unlock(&s->mu);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	resp = text ? MHD_create_response_from_buffer(strlen(text), (void *)text,
						      MHD_RESPMEM_MUST_COPY) : NULL;
	if (!resp) {
		json_object_put(o);
		return MHD_NO;
	}
	snprintf(loc, sizeof loc, "/v1/sessions/%s", x->id);
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_LOCATION, loc);
	ret = MHD_queue_response(c, 201, resp);
	MHD_destroy_response(resp);
	r->status = 201;
	r->out = strlen(text);
	r->answered = 1;
	json_object_put(o);
	return ret;
}

/* The session of the route, checked for owner; refreshed. NULL with a reply
 * queued when it cannot be used. mu held on success. */
static srv_sess *session_of(struct MHD_Connection *c, req_ctx *r, aieth_server *s,
			    enum MHD_Result *ret)
{
	srv_sess *x;
	pthread_mutex_lock(&s->mu);
	x = find_locked(s, r->route.sid);
	if (!x) {
		pthread_mutex_unlock(&s->mu);
		*ret = reply_err(c, r, 404, NULL, "session \"%s\": no such session (ended "
				 "sessions are forgotten after %d more)", r->route.sid, ENDED_KEEP);
		return NULL;
	}
	if (s->have_tokens && strcmp(x->owner, r->who)) {
		pthread_mutex_unlock(&s->mu);
		*ret = reply_err(c, r, 403, NULL, "session \"%s\" belongs to another token",
				 r->route.sid);
		return NULL;
	}
	x->last_ms = now_ms();
	return x;
}

static enum MHD_Result h_session(struct MHD_Connection *c, req_ctx *r, aieth_server *s)
{
	enum MHD_Result ret;
	srv_sess *x = session_of(c, r, s, &ret);
	struct json_object *o;
	if (!x)
		return ret;
	if (!strcmp(r->method, "DELETE")) {
		if (x->state == SS_QUEUED || x->state == SS_ACTIVE)
			logf_line(s, "session %s (%s): ended by its client", x->id, x->owner);
		end_locked(s, x, SS_ENDED, NULL);
		pthread_mutex_unlock(&s->mu);
		return reply(c, r, 204, NULL, "", 0, NULL);
	}
	o = session_json_locked(s, x);
	pthread_mutex_unlock(&s->mu);
	return reply_json(c, r, 200, o);
}

static enum MHD_Result h_graph(struct MHD_Connection *c, req_ctx *r, aieth_server *s)
{
	enum MHD_Result ret;
	srv_sess *x = session_of(c, r, s, &ret);
	int64_t iterations = 0;
	uint32_t timeout_ms = 0;
	uint64_t done = 0;
	int rc = AIETH_OK, complete = 0;

	if (!x)
		return ret;
	if (x->state != SS_ACTIVE) {
		unsigned pos = position_locked(s, x);
		ss_state st = x->state;
		pthread_mutex_unlock(&s->mu);
		if (st == SS_QUEUED)
			return reply_err(c, r, 409, NULL, "session \"%s\" is queued at position %u "
					 "and does not hold the device yet", r->route.sid, pos);
		return reply_err(c, r, 409, NULL, "session \"%s\" is %s", r->route.sid,
				 state_names[st]);
	}
	x->refs++;
	pthread_mutex_unlock(&s->mu);

	if (r->route.kind == SRV_R_GRAPH_RUN)
		rc = srv_run_req_parse(r->body, r->len, &iterations);
	else if (r->route.kind == SRV_R_GRAPH_WAIT)
		rc = srv_wait_req_parse(r->body, r->len, &timeout_ms);
	if (rc) {
		ret = reply_err(c, r, 400, NULL, "%s", aieth_error_message());
		goto release;
	}
	if (pthread_mutex_trylock(&x->call)) {
		ret = reply_err(c, r, 409, NULL, "session \"%s\" is busy with another device call",
				r->route.sid);
		goto release;
	}
	switch (r->route.kind) {
	case SRV_R_GRAPH_RUN:
		rc = aieth_graph_run(x->dev, r->route.graph, iterations);
		break;
	case SRV_R_GRAPH_WAIT:
		rc = aieth_graph_wait(x->dev, r->route.graph, timeout_ms);
		break;
	case SRV_R_GRAPH_END:
		rc = aieth_graph_end(x->dev, r->route.graph);
		break;
	default: {
		/* the backend's own status: iterations and whether a bounded run
		 * completed (what the remote backend's graph_status returns) */
		size_t g;
		for (g = 0; g < x->dev->ngraphs && strcmp(x->dev->graphs[g].name, r->route.graph);
		     g++)
			;
		if (g == x->dev->ngraphs)
			rc = aieth_graph_iterations_done(x->dev, r->route.graph, &done);
		else
			rc = x->dev->ops->graph_status(x->dev->bstate, (uint32_t)g, &done, &complete);
		break;
	}
	}
	pthread_mutex_unlock(&x->call);
	if (rc) {
		ret = reply_err(c, r, status_of(rc), NULL, "graph \"%s\": %s", r->route.graph,
				aieth_error_message());
	} else if (r->route.kind == SRV_R_GRAPH) {
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "iterations_done", json_object_new_uint64(done));
		json_object_object_add(o, "complete", json_object_new_boolean(complete));
		ret = reply_json(c, r, 200, o);
	} else {
		ret = reply(c, r, 204, NULL, "", 0, NULL);
	}
release:
	pthread_mutex_lock(&s->mu);
	x->refs--;
	x->last_ms = now_ms();
	if (x->state != SS_ACTIVE) {
		close_dev_locked(s, x);
		promote_locked(s);
	}
	pthread_mutex_unlock(&s->mu);
	return ret;
}

/* ---- transactions ---- */

static srv_txn *find_txn(srv_sess *x, const char *id)
{
	srv_txn *t;
	for (t = x->txns; t; t = t->next)
		if (!strcmp(t->id, id))
			return t;
	return NULL;
}

/* Drop a reference to a session taken for a device call or a transfer;
 * the device closes when the session ended meanwhile. */
static void release_sess(aieth_server *s, srv_sess *x)
{
	pthread_mutex_lock(&s->mu);
	x->refs--;
	x->last_ms = now_ms();
	if (x->state != SS_ACTIVE) {
		close_dev_locked(s, x);
		promote_locked(s);
	}
	pthread_mutex_unlock(&s->mu);
}

/* The session of the route, active, referenced (mu released); NULL with a
 * reply queued otherwise. */
static srv_sess *active_session(struct MHD_Connection *c, req_ctx *r, aieth_server *s,
				enum MHD_Result *ret)
{
	srv_sess *x = session_of(c, r, s, ret);
	if (!x)
		return NULL;
	if (x->state != SS_ACTIVE) {
		unsigned pos = position_locked(s, x);
		ss_state st = x->state;
		pthread_mutex_unlock(&s->mu);
		if (st == SS_QUEUED)
			*ret = reply_err(c, r, 409, NULL, "session \"%s\" is queued at position %u "
					 "and does not hold the device yet", r->route.sid, pos);
		else
			*ret = reply_err(c, r, 409, NULL, "session \"%s\" is %s%s%s", r->route.sid,
					 state_names[st], x->reason[0] ? ": " : "", x->reason);
		return NULL;
	}
	x->refs++;
	pthread_mutex_unlock(&s->mu);
	return x;
}

static struct json_object *hex_array(const uint64_t *w, size_t n)
{
	struct json_object *a = json_object_new_array();
	char b[24];
	size_t i;
	for (i = 0; i < n; i++) {
		snprintf(b, sizeof b, "0x%llx", (unsigned long long)w[i]);
		json_object_array_add(a, json_object_new_string(b));
	}
	return a;
}

static struct json_object *u64_array(const uint64_t *w, size_t n)
{
	struct json_object *a = json_object_new_array();
	size_t i;
	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_uint64(w[i]));
	return a;
}

static struct json_object *txn_json(const srv_txn *t)
{
	static const char *const st[] = {"awaiting_tx", "started", "finished"};
	struct json_object *o = json_object_new_object();
	uint32_t N = t->wire.channels, i;
	json_object_object_add(o, "id", json_object_new_string(t->id));
	json_object_object_add(o, "state", json_object_new_string(st[t->state]));
	json_object_object_add(o, "tx_bytes", json_object_new_uint64(t->wire.tx.size));
	json_object_object_add(o, "rx_bytes", json_object_new_uint64(t->wire.rx.size));
	if (t->state == 2) {
		struct json_object *tc = json_object_new_array(), *rc = json_object_new_array();
		json_object_object_add(o, "failed", json_object_new_boolean(t->failed));
		json_object_object_add(o, "status", json_object_new_int((int)t->res.status));
		json_object_object_add(o, "message", json_object_new_string(t->failed ? t->msg
											: t->res.msg));
		json_object_object_add(o, "total_cycles", json_object_new_uint64(t->res.total_cycles));
		json_object_object_add(o, "have_progress", json_object_new_boolean(t->res.have_progress));
		json_object_object_add(o, "perf", hex_array(t->wire.perf, pld_perf_count(N)));
		json_object_object_add(o, "tx_moved", u64_array(t->res.tx_moved, N));
		json_object_object_add(o, "rx_moved", u64_array(t->res.rx_moved, N));
		json_object_object_add(o, "tx_since", u64_array(t->res.tx_since, N));
		json_object_object_add(o, "rx_since", u64_array(t->res.rx_since, N));
		json_object_object_add(o, "tx_first", u64_array(t->res.tx_first, N));
		json_object_object_add(o, "tx_last", u64_array(t->res.tx_last, N));
		json_object_object_add(o, "rx_first", u64_array(t->res.rx_first, N));
		json_object_object_add(o, "rx_last", u64_array(t->res.rx_last, N));
		for (i = 0; i < N; i++) {
			json_object_array_add(tc, json_object_new_int(t->res.tx_connected[i]));
			json_object_array_add(rc, json_object_new_int(t->res.rx_connected[i]));
		}
		json_object_object_add(o, "tx_connected", tc);
		json_object_object_add(o, "rx_connected", rc);
	}
	return o;
}

static enum MHD_Result h_txn_create(struct MHD_Connection *c, req_ctx *r, aieth_server *s)
{
	enum MHD_Result ret;
	srv_sess *x;
	srv_txn *t = NULL, **pp;
	srv_txn_req q;
	const aieth_board_info *info;
	unsigned n = 0;
	uint32_t N;
	int rc;

	if ((rc = srv_txn_req_parse(r->body, r->len, &q)))
		return reply_err(c, r, 400, NULL, "%s", aieth_error_message());
	if ((rc = srv_txn_check(&q))) {
		free(q.cfg);
		return reply_err(c, r, status_of(rc), NULL, "%s", aieth_error_message());
	}
	if (!(x = active_session(c, r, s, &ret))) {
		free(q.cfg);
		return ret;
	}
	info = x->dev->info;
	N = q.channels;
	if (N != info->channels || q.depth != info->uram_depth_words) {
		ret = reply_err(c, r, 400, NULL, "request body: channels %u and depth %u, the board "
				"%s has %u channels and a depth of %u words", N, q.depth, info->name,
				info->channels, info->uram_depth_words);
		goto out;
	}
	pthread_mutex_lock(&s->mu);
	for (pp = &x->txns; *pp; pp = &(*pp)->next)
		n++;
	pthread_mutex_unlock(&s->mu);
	if (n >= TXNS_MAX) {
		ret = reply_err(c, r, 409, NULL, "session \"%s\" holds %u transactions, the limit is "
				"%d: fetch their results first", x->id, n, TXNS_MAX);
		goto out;
	}
	/* the memory budget: images are held until the session ends */
	pthread_mutex_lock(&s->mu);
	if (q.tx_bytes + q.rx_bytes > s->mem_max - s->mem_used) {
		unsigned long long used = s->mem_used;
		pthread_mutex_unlock(&s->mu);
		ret = reply_err(c, r, 413, NULL, "transaction images of %llu bytes: %llu of the "
				"--max-memory %llu MiB are in use", (unsigned long long)(q.tx_bytes +
											 q.rx_bytes),
				used, (unsigned long long)(s->mem_max >> 20));
		goto out;
	}
	s->mem_used += q.tx_bytes + q.rx_bytes;
	x->mem += q.tx_bytes + q.rx_bytes;
	pthread_mutex_unlock(&s->mu);
	t = calloc(1, sizeof *t);
	if (!t)
		goto oom;
	t->wire.channels = N;
	t->wire.depth = q.depth;
	t->wire.cfg = q.cfg;
	q.cfg = NULL;
	t->wire.perf = calloc(pld_perf_count(N), sizeof(uint64_t));
	t->arr = calloc(8u * (size_t)N, sizeof(uint64_t));
	t->conn = calloc(2u * (size_t)N, sizeof(int));
	t->wire.tx.seg = calloc(1, sizeof(pld_seg));
	t->wire.rx.seg = calloc(1, sizeof(pld_seg));
	t->txbuf = malloc(q.tx_bytes ? (size_t)q.tx_bytes : 1);
	t->rxbuf = calloc(1, q.rx_bytes ? (size_t)q.rx_bytes : 1);
	if (!t->wire.perf || !t->arr || !t->conn || !t->wire.tx.seg || !t->wire.rx.seg ||
	    !t->txbuf || !t->rxbuf)
		goto oom;
	t->wire.tx.size = q.tx_bytes;
	t->wire.tx.nseg = q.tx_bytes ? 1 : 0;
	t->wire.tx.seg[0].len = q.tx_bytes;
	t->wire.tx.seg[0].ptr = t->txbuf;
	t->wire.rx.size = q.rx_bytes;
	t->wire.rx.nseg = q.rx_bytes ? 1 : 0;
	t->wire.rx.seg[0].len = q.rx_bytes;
	t->wire.rx.seg[0].ptr = t->rxbuf;
	t->res.tx_moved = t->arr;
	t->res.rx_moved = t->arr + N;
	t->res.tx_since = t->arr + 2 * N;
	t->res.rx_since = t->arr + 3 * N;
	t->res.tx_first = t->arr + 4 * N;
	t->res.tx_last = t->arr + 5 * N;
	t->res.rx_first = t->arr + 6 * N;
	t->res.rx_last = t->arr + 7 * N;
	t->res.tx_connected = t->conn;
	t->res.rx_connected = t->conn + N;
	pthread_mutex_lock(&s->mu);
	snprintf(t->id, sizeof t->id, "t-%u", ++x->next_tid);
	for (pp = &x->txns; *pp; pp = &(*pp)->next)
		;
	*pp = t;
	{
		struct json_object *o = txn_json(t);
		pthread_mutex_unlock(&s->mu);
		ret = reply_json(c, r, 201, o);
	}
	t = NULL;
	goto out;
oom:
	pthread_mutex_lock(&s->mu);
	s->mem_used -= q.tx_bytes + q.rx_bytes;
	x->mem -= q.tx_bytes + q.rx_bytes;
	pthread_mutex_unlock(&s->mu);
	ret = reply_err(c, r, 500, NULL, "transaction: out of memory for images of %llu and "
			"%llu bytes", (unsigned long long)q.tx_bytes, (unsigned long long)q.rx_bytes);
out:
	if (t) {
		pld_txn_release(&t->wire);
		free(t->txbuf);
		free(t->rxbuf);
		free(t->arr);
		free(t->conn);
		free(t);
	}
	free(q.cfg);
	release_sess(s, x);
	return ret;
}

/* The head of PUT .../tx: the body goes straight into the TX image. */
static enum MHD_Result txn_tx_head(struct MHD_Connection *c, req_ctx *r, aieth_server *s,
				   unsigned long long len, int have_len)
{
	enum MHD_Result ret;
	srv_sess *x = active_session(c, r, s, &ret);
	srv_txn *t;
	const char *ct;
	if (!x)
		return ret;
	pthread_mutex_lock(&s->mu);
	t = find_txn(x, r->route.tid);
	pthread_mutex_unlock(&s->mu);
	if (!t) {
		ret = reply_err(c, r, 404, NULL, "transaction \"%s\": no such transaction",
				r->route.tid);
	} else if (t->state != 0) {
		ret = reply_err(c, r, 409, NULL, "transaction \"%s\": its TX image is in already",
				t->id);
	} else if (!have_len || len != t->wire.tx.size) {
		unsigned status = have_len && len > t->wire.tx.size ? 413 : 400;
		ret = reply_err(c, r, status, NULL, "transaction \"%s\": Content-Length %s%llu, the TX "
				"image is %llu bytes", t->id, have_len ? "" : "missing, ",
				have_len ? len : 0ull, (unsigned long long)t->wire.tx.size);
	} else if (!(ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						      MHD_HTTP_HEADER_CONTENT_TYPE)) ||
		   strcmp(ct, "application/octet-stream")) {
		ret = reply_err(c, r, 415, NULL, "Content-Type: application/octet-stream is needed");
	} else {
		t->tx_got = 0;
		r->sess = x;
		r->txn = t;
		return MHD_YES;
	}
	release_sess(s, x);
	return ret;
}

static enum MHD_Result txn_tx_done(struct MHD_Connection *c, req_ctx *r, aieth_server *s)
{
	srv_txn *t = r->txn;
	srv_sess *x = r->sess;
	enum MHD_Result ret;
	int rc;
	if (t->tx_got != t->wire.tx.size)
		return reply_err(c, r, 400, NULL, "transaction \"%s\": %llu of %llu TX bytes came",
				 t->id, (unsigned long long)t->tx_got,
				 (unsigned long long)t->wire.tx.size);
	if (pthread_mutex_trylock(&x->call))
		return reply_err(c, r, 409, NULL, "session \"%s\" is busy with another device call",
				 x->id);
	rc = x->dev->ops->txn_start(x->dev->bstate, &t->wire);
	pthread_mutex_unlock(&x->call);
	if (rc)
		return reply_err(c, r, status_of(rc), NULL, "transaction \"%s\": %s", t->id,
				 aieth_error_message());
	pthread_mutex_lock(&s->mu);
	t->state = 1;
	pthread_mutex_unlock(&s->mu);
	{
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "id", json_object_new_string(t->id));
		json_object_object_add(o, "state", json_object_new_string("started"));
		ret = reply_json(c, r, 202, o);
	}
	return ret;
}

static enum MHD_Result h_txn(struct MHD_Connection *c, req_ctx *r, aieth_server *s)
{
	enum MHD_Result ret;
	srv_sess *x;
	srv_txn *t, *p;
	uint32_t timeout_ms = 0;
	int rc;

	if (r->route.kind == SRV_R_TXN_WAIT &&
	    srv_wait_req_parse(r->body, r->len, &timeout_ms))
		return reply_err(c, r, 400, NULL, "%s", aieth_error_message());
	if (!(x = active_session(c, r, s, &ret)))
		return ret;
	pthread_mutex_lock(&s->mu);
	t = find_txn(x, r->route.tid);
	for (p = x->txns; p && p->state != 1; p = p->next)
		;
	pthread_mutex_unlock(&s->mu);
	if (!t) {
		ret = reply_err(c, r, 404, NULL, "transaction \"%s\": no such transaction",
				r->route.tid);
	} else if (r->route.kind == SRV_R_TXN) {
		ret = reply_json(c, r, 200, txn_json(t));
	} else if (r->route.kind == SRV_R_TXN_WAIT && t->state == 0) {
		ret = reply_err(c, r, 409, NULL, "transaction \"%s\": its TX image is not in yet",
				t->id);
	} else if (r->route.kind == SRV_R_TXN_WAIT && t->state == 1 && p != t) {
		ret = reply_err(c, r, 409, NULL, "transaction \"%s\": %s was started before it and "
				"finishes first", t->id, p ? p->id : "?");
	} else if (r->route.kind == SRV_R_TXN_WAIT) {
		if (t->state == 1) {
			if (pthread_mutex_trylock(&x->call)) {
				ret = reply_err(c, r, 409, NULL, "session \"%s\" is busy with another "
						"device call", x->id);
				goto out;
			}
			rc = x->dev->ops->txn_wait(x->dev->bstate, &t->wire, timeout_ms, &t->res);
			pthread_mutex_unlock(&x->call);
			pthread_mutex_lock(&s->mu);
			if (rc) {
				t->failed = 1;
				snprintf(t->msg, sizeof t->msg, "%s", aieth_error_message());
				s->txn_failed++;
			} else if ((unsigned)t->res.status < 5) {
				s->txn_status[t->res.status]++;
			}
			t->state = 2;
			pthread_mutex_unlock(&s->mu);
		}
		ret = reply_json(c, r, 200, txn_json(t));
	} else {
		ret = MHD_NO; /* SRV_R_TXN_RX: below */
	}
out:
	release_sess(s, x);
	return ret;
}

/* GET .../rx: the RX image streamed from where the device wrote it; the
 * session stays referenced until the response is done. */
typedef struct {
	aieth_server *s;
	srv_sess *x;
	const uint8_t *p;
	uint64_t size;
} rx_stream;

static ssize_t rx_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	rx_stream *st = cls;
	size_t n;
	if (pos >= st->size)
		return MHD_CONTENT_READER_END_OF_STREAM;
	n = st->size - pos < max ? (size_t)(st->size - pos) : max;
	memcpy(buf, st->p + pos, n);
	return (ssize_t)n;
}

static void rx_free(void *cls)
{
	rx_stream *st = cls;
	release_sess(st->s, st->x);
	free(st);
}

static enum MHD_Result h_txn_rx(struct MHD_Connection *c, req_ctx *r, aieth_server *s)
{
	enum MHD_Result ret;
	srv_sess *x;
	srv_txn *t;
	rx_stream *st;
	struct MHD_Response *resp;

	if (!(x = active_session(c, r, s, &ret)))
		return ret;
	pthread_mutex_lock(&s->mu);
	t = find_txn(x, r->route.tid);
	pthread_mutex_unlock(&s->mu);
	if (!t || t->state != 2) {
		ret = reply_err(c, r, t ? 409 : 404, NULL, "transaction \"%s\": %s", r->route.tid,
				t ? "not finished yet (POST .../wait)" : "no such transaction");
		release_sess(s, x);
		return ret;
	}
	st = malloc(sizeof *st);
	if (!st) {
		release_sess(s, x);
		return reply_err(c, r, 500, NULL, "out of memory");
	}
	st->s = s;
	st->x = x;
	st->p = t->rxbuf;
	st->size = t->wire.rx.size;
	resp = MHD_create_response_from_callback(st->size, 256u << 10, rx_read, st, rx_free);
	if (!resp) {
		rx_free(st);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/octet-stream");
	ret = MHD_queue_response(c, 200, resp);
	MHD_destroy_response(resp);
	r->status = 200;
	r->out = st->size;
	r->answered = 1;
	return ret;
}

static enum MHD_Result h_rtp(struct MHD_Connection *c, req_ctx *r, aieth_server *s)
{
	enum MHD_Result ret;
	srv_sess *x = active_session(c, r, s, &ret);
	const char *sz;
	unsigned long n = 0;
	uint8_t *buf = NULL;
	int rc;

	if (!x)
		return ret;
	if (!strcmp(r->method, "GET")) {
		char *end;
		sz = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "size");
		if (sz && *sz >= '0' && *sz <= '9')
			n = strtoul(sz, &end, 10);
		if (!sz || *end || n < 1 || n > SRV_RTP_MAX) {
			ret = reply_err(c, r, 400, NULL, "GET %s: ?size=N (1..%u bytes) is needed",
					r->path, SRV_RTP_MAX);
			goto out;
		}
		buf = malloc(n);
		if (!buf) {
			ret = reply_err(c, r, 500, NULL, "out of memory");
			goto out;
		}
	}
	if (pthread_mutex_trylock(&x->call)) {
		ret = reply_err(c, r, 409, NULL, "session \"%s\" is busy with another device call",
				x->id);
		goto out;
	}
	if (buf)
		rc = aieth_graph_read_rtp(x->dev, r->route.graph, r->route.port, buf, n);
	else
		rc = aieth_graph_update_rtp(x->dev, r->route.graph, r->route.port, r->body, r->len);
	pthread_mutex_unlock(&x->call);
	if (rc)
		ret = reply_err(c, r, status_of(rc), NULL, "graph \"%s\" port \"%s\": %s",
				r->route.graph, r->route.port, aieth_error_message());
	else if (buf)
		ret = reply(c, r, 200, "application/octet-stream", (const char *)buf, n, NULL);
	else
		ret = reply(c, r, 204, NULL, "", 0, NULL);
out:
	free(buf);
	release_sess(s, x);
	return ret;
}

static enum MHD_Result dispatch(struct MHD_Connection *c, req_ctx *r, aieth_server *s)
{
	if (r->overflow)
		return reply_err(c, r, 413, NULL, "request body: more than %zu bytes, the limit",
				 SRV_BODY_MAX);
	switch (r->route.kind) {
	case SRV_R_HEALTH:
		return h_health(c, r, s);
	case SRV_R_METRICS:
		return h_metrics(c, r, s);
	case SRV_R_SESSIONS:
		return h_session_create(c, r, s);
	case SRV_R_SESSION:
		return h_session(c, r, s);
	case SRV_R_TXNS:
		return h_txn_create(c, r, s);
	case SRV_R_TXN_TX:
		return txn_tx_done(c, r, s);
	case SRV_R_TXN:
	case SRV_R_TXN_WAIT:
		return h_txn(c, r, s);
	case SRV_R_TXN_RX:
		return h_txn_rx(c, r, s);
	case SRV_R_GRAPH_RTP:
		return h_rtp(c, r, s);
	default:
		return h_graph(c, r, s);
	}
}

/* ---- the request cycle ---- */

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

static void client_text(struct MHD_Connection *c, char *dst, size_t cap)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	snprintf(dst, cap, "-");
	if (ci && ci->client_addr) {
		socklen_t len = ci->client_addr->sa_family == AF_INET6
					? sizeof(struct sockaddr_in6)
					: sizeof(struct sockaddr_in);
		char host[64];
		if (!getnameinfo(ci->client_addr, len, host, sizeof host, NULL, 0, NI_NUMERICHOST))
			snprintf(dst, cap, "%s", host);
	}
}

/* The first call of a request: everything decided from the head. */
static enum MHD_Result on_head(struct MHD_Connection *c, req_ctx *r, aieth_server *s,
			       const char *url)
{
	const char *allow, *auth, *cl, *ct, *te;
	unsigned long long len = 0;
	int draining;

	srv_route_parse(url, &r->route);
	snprintf(r->who, sizeof r->who, "-");
	if (r->route.kind != SRV_R_HEALTH && s->have_tokens) {
		const char *tok, *name = NULL;
		size_t tlen;
		auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
		if (!auth)
			return reply_err(c, r, 401, NULL, "no token: send Authorization: Bearer "
					 "TOKEN");
		if (srv_bearer(auth, &tok, &tlen) || !(name = srv_tokens_check(&s->tokens, tok, tlen)))
			return reply_err(c, r, 401, NULL, "the token is not one of this server's");
		snprintf(r->who, sizeof r->who, "%s", name);
	}
	pthread_mutex_lock(&s->mu);
	draining = s->draining;
	pthread_mutex_unlock(&s->mu);
	if (draining && r->route.kind != SRV_R_HEALTH)
		return reply_err(c, r, 503, NULL, "the server is stopping");
	if (r->route.kind == SRV_R_NONE)
		return reply_err(c, r, 404, NULL, "no such path: %s (the API is under /v1/, "
				 "docs/http-api.md)", r->path);
	if (r->route.kind == SRV_R_NOT_IMPL)
		return reply_err(c, r, 501, NULL, "%s is not built yet (docs/http-api.md, "
				 "\"Not yet implemented\")", r->path);
	allow = srv_route_methods(r->route.kind);
	if (!method_allowed(allow, r->method))
		return reply_err(c, r, 405, allow, "%s %s: allowed methods are %s", r->method,
				 r->path, allow);
	cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	te = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
	if (cl) {
		const char *p = cl;
		if (!*p)
			return reply_err(c, r, 400, NULL, "Content-Length: empty");
		for (; *p; p++) {
			if (*p < '0' || *p > '9' || p - cl > 18)
				return reply_err(c, r, 400, NULL, "Content-Length: not a number of 1..19 "
						 "digits");
			len = len * 10 + (unsigned long long)(*p - '0');
		}
	}
	if (r->route.kind == SRV_R_TXN_TX)
		return txn_tx_head(c, r, s, len, cl != NULL);
	if (cl) {
		if (len > SRV_BODY_MAX)
			return reply_err(c, r, 413, NULL, "request body: Content-Length %llu bytes, "
					 "the limit is %zu", len, SRV_BODY_MAX);
	} else if (!te && !strcmp(r->method, "POST") && r->route.kind != SRV_R_GRAPH_END &&
		   r->route.kind != SRV_R_GRAPH_WAIT && r->route.kind != SRV_R_TXN_WAIT) {
		return reply_err(c, r, 411, NULL, "%s %s: a body with Content-Length is needed",
				 r->method, r->path);
	}
	if (r->route.kind == SRV_R_GRAPH_RTP && !strcmp(r->method, "PUT")) {
		ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
		if (!cl)
			return reply_err(c, r, 411, NULL, "PUT %s: a body with Content-Length is needed",
					 r->path);
		if (!len || len > SRV_RTP_MAX)
			return reply_err(c, r, len ? 413 : 400, NULL, "run-time parameter: %llu bytes, "
					 "allowed 1..%u", len, SRV_RTP_MAX);
		if (!ct || strcmp(ct, "application/octet-stream"))
			return reply_err(c, r, 415, NULL,
					 "Content-Type: application/octet-stream is needed");
		r->cap = (size_t)len;
		r->body = malloc(r->cap + 1);
		if (!r->body)
			return reply_err(c, r, 500, NULL, "request body: out of memory");
		return MHD_YES;
	}
	if (len || te) {
		ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
		if (!ct || strncmp(ct, "application/json", 16) ||
		    (ct[16] && ct[16] != ';' && ct[16] != ' '))
			return reply_err(c, r, 415, NULL, "Content-Type: application/json is needed");
		r->cap = len ? (size_t)len : 4096;
		r->body = malloc(r->cap + 1);
		if (!r->body)
			return reply_err(c, r, 500, NULL, "request body: out of memory for %zu bytes",
					 r->cap);
	}
	return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_size, void **con_cls)
{
	aieth_server *s = cls;
	req_ctx *r = *con_cls;
	(void)version;

	if (!r) {
		r = calloc(1, sizeof *r);
		if (!r)
			return MHD_NO;
		*con_cls = r;
		r->t0_ms = now_ms();
		clock_gettime(CLOCK_REALTIME, &r->t0);
		snprintf(r->method, sizeof r->method, "%s", method);
		jstrict_quote(r->path, sizeof r->path, url);
		client_text(c, r->client, sizeof r->client);
		if (strlen(url) > 1024) {
			reply_err(c, r, 404, NULL, "path: %zu bytes, the limit is 1024", strlen(url));
			return MHD_YES;
		}
		on_head(c, r, s, url);
		return MHD_YES;
	}
	if (*upload_size) {
		size_t n = *upload_size;
		r->in += n;
		*upload_size = 0;
		if (r->answered || r->overflow)
			return MHD_YES;
		if (r->txn) {
			srv_txn *t = r->txn;
			if (n > t->wire.tx.size - t->tx_got) {
				r->overflow = 1;
				return MHD_NO;
			}
			memcpy(t->txbuf + t->tx_got, upload_data, n);
			t->tx_got += n;
			return MHD_YES;
		}
		if (n > r->cap - r->len) {
			/* chunked, or more than Content-Length said */
			size_t want = r->len + n;
			char *nb;
			if (want > SRV_BODY_MAX) {
				r->overflow = 1;
				return MHD_NO;   /* stop reading a body past the limit */
			}
			if (want < r->cap * 2)
				want = r->cap * 2 < SRV_BODY_MAX ? r->cap * 2 : SRV_BODY_MAX;
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

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	aieth_server *s = cls;
	req_ctx *r = *con_cls;
	char when[32];
	struct tm tm;
	double ms;
	size_t i;
	(void)c;

	if (!r)
		return;
	*con_cls = NULL;
	if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK && r->status < 400 && !r->overflow)
		r->status = 0;    /* the client went away, or the connection broke */
	if (r->overflow)
		r->status = 413;
	ms = (double)(now_ms() - r->t0_ms);
	gmtime_r(&r->t0.tv_sec, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	pthread_mutex_lock(&s->mu);
	s->bytes_in += r->in;
	s->bytes_out += r->out;
	for (i = 0; i < NCODES && metric_codes[i] != r->status; i++)
		;
	if (i < NCODES)
		s->requests[i]++;
	else
		s->requests_other++;
	pthread_mutex_unlock(&s->mu);
	if (s->log_json) {
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "time", json_object_new_string(when));
		json_object_object_add(o, "client", json_object_new_string(r->client));
		json_object_object_add(o, "token", json_object_new_string(r->who[0] ? r->who : "-"));
		json_object_object_add(o, "method", json_object_new_string(r->method));
		json_object_object_add(o, "path", json_object_new_string(r->path));
		json_object_object_add(o, "status", json_object_new_int((int)r->status));
		json_object_object_add(o, "bytes_in", json_object_new_uint64(r->in));
		json_object_object_add(o, "bytes_out", json_object_new_uint64(r->out));
		json_object_object_add(o, "ms", json_object_new_double(ms));
		logf_line(s, "%s", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	} else {
		logf_line(s, "%s %s %s %s %s %u in=%llu out=%llu %.0fms%s", when, r->client,
			  r->who[0] ? r->who : "-", r->method, r->path, r->status,
			  (unsigned long long)r->in, (unsigned long long)r->out, ms,
			  r->status == 0 ? " (connection closed before the reply)" : "");
	}
	if (r->sess)
		release_sess(s, r->sess);
	free(r->body);
	free(r);
}

/* ---- open / close ---- */

static void free_server(aieth_server *s)
{
	srv_sess *p, *n;
	for (p = s->sessions; p; p = n) {
		n = p->next;
		if (p->dev)
			aieth_session_close(p->dev);
		free_sess(p);
	}
	srv_tokens_free(&s->tokens);
	free(s->tls_cert);
	if (s->tls_key) {
		volatile char *k = s->tls_key;
		while (*k)
			*k++ = 0;
		free(s->tls_key);
	}
	free(s->backend);
	free(s->board);
	free(s->data_dir);
	pthread_mutex_destroy(&s->mu);
	pthread_mutex_destroy(&s->logmu);
	free(s);
}

int aieth_server_open(aieth_server **out, const aieth_server_opts *o)
{
	aieth_server *s;
	struct sockaddr_storage addr;
	size_t alen = 0;
	int loopback = 0, rc;
	const union MHD_DaemonInfo *di;
	unsigned flags;

	aieth_error_clear();
	if (!out || !o)
		return aieth_fail(AIETH_EINVAL, "aieth_server_open: NULL argument");
	*out = NULL;
	rc = srv_listen_parse(o->listen, &addr, sizeof addr, &alen, &loopback);
	if (rc)
		return rc;
	if (o->backend && strcmp(o->backend, "emu") && strcmp(o->backend, "xrt"))
		return aieth_fail(AIETH_EINVAL, "backend \"%s\": th_server serves emu or xrt",
				  o->backend);
	if (!o->tls_cert != !o->tls_key)
		return aieth_fail(AIETH_EINVAL, "TLS: a certificate and its key are needed together "
				  "(got only the %s)", o->tls_cert ? "certificate" : "key");
	if (!o->token_file && !loopback && !o->insecure)
		return aieth_fail(AIETH_EINVAL, "listen address %s is not a loopback address and no "
				  "token file is given: anyone who reaches it could use the board "
				  "(give --token-file, or --insecure to allow it)", o->listen);
	s = calloc(1, sizeof *s);
	if (!s)
		return aieth_fail(AIETH_ENOMEM, "server: out of memory");
	pthread_mutex_init(&s->mu, NULL);
	pthread_mutex_init(&s->logmu, NULL);
	s->log = o->log;
	s->log_ctx = o->log_ctx;
	s->log_json = o->log_json;
	s->idle_s = o->idle_timeout_s ? o->idle_timeout_s : 60;
	s->max_queue = o->max_queue ? o->max_queue : 16;
	s->max_wait_s = o->max_wait_s ? o->max_wait_s : 600;
	s->idle_ms = (int64_t)s->idle_s * 1000;
	s->mem_max = (uint64_t)(o->max_memory_mib ? o->max_memory_mib : 4096) << 20;
	s->max_wait_ms = (int64_t)s->max_wait_s * 1000;
	s->backend = aieth_strdup(o->backend ? o->backend : "emu");
	s->board = o->board ? aieth_strdup(o->board) : NULL;
	s->data_dir = o->data_dir ? aieth_strdup(o->data_dir) : NULL;
	if (!s->backend || (o->board && !s->board) || (o->data_dir && !s->data_dir)) {
		free_server(s);
		return aieth_fail(AIETH_ENOMEM, "server: out of memory");
	}
	if (getrandom(&s->id_key, sizeof s->id_key, GRND_NONBLOCK) != (ssize_t)sizeof s->id_key)
		s->id_key = (uint64_t)time(NULL) * 0x2545f4914f6cdd1dull;
	if (o->token_file) {
		rc = srv_tokens_load(&s->tokens, o->token_file);
		if (rc) {
			free_server(s);
			return rc;
		}
		s->have_tokens = 1;
	}
	if (s->board) {
		aieth_board *b = NULL;
		rc = aieth_board_load(&b, s->board, s->data_dir);
		aieth_board_free(b);
		if (rc) {
			free_server(s);
			return rc;
		}
	}
	if (o->tls_cert) {
		size_t n;
		if ((rc = aieth_read_file(o->tls_cert, (size_t)1 << 20, &s->tls_cert, &n)) ||
		    (rc = aieth_read_file(o->tls_key, (size_t)1 << 20, &s->tls_key, &n))) {
			free_server(s);
			return rc;
		}
	}
	flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
		MHD_USE_ERROR_LOG;
	if (addr.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	if (s->tls_cert)
		flags |= MHD_USE_TLS;
	{
		/* the options as an array: TLS ones only when serving https */
		struct MHD_OptionItem opt[12];
		size_t k = 0;
		opt[k++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)mhd_logger, s};
		opt[k++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, &addr};
		opt[k++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, CONN_LIMIT, NULL};
		opt[k++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, CONN_TIMEOUT_S, NULL};
		opt[k++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, CONN_MEMORY,
						   NULL};
		opt[k++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED,
						   (intptr_t)on_completed, s};
		if (s->tls_cert) {
			opt[k++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, s->tls_key};
			opt[k++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, s->tls_cert};
		}
		opt[k++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
		s->d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, s, MHD_OPTION_ARRAY, opt,
					MHD_OPTION_END);
	}
	if (!s->d) {
		int e = errno;
		free_server(s);
		return aieth_fail(AIETH_EIO, "listen address %s: cannot listen (%s)", o->listen,
				  e ? strerror(e) : "libmicrohttpd refused to start");
	}
	di = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
	s->port = di ? di->port : 0;
	*out = s;
	return AIETH_OK;
}

uint16_t aieth_server_port(const aieth_server *s)
{
	return s ? s->port : 0;
}

void aieth_server_close(aieth_server *s)
{
	srv_sess *p;
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	s->draining = 1;
	s->stop = 1;
	pthread_mutex_unlock(&s->mu);
	/* running requests finish (a device wait sees the interrupt flag);
	 * the connection threads are joined */
	MHD_stop_daemon(s->d);
	pthread_mutex_lock(&s->mu);
	for (p = s->sessions; p; p = p->next)
		end_locked(s, p, SS_ENDED, "the server stopped");
	pthread_mutex_unlock(&s->mu);
	free_server(s);
}

#else /* !AIETH_HAVE_MHD: built without libmicrohttpd (the aarch64 cross build) */

int aieth_server_open(aieth_server **out, const aieth_server_opts *opts)
{
	(void)opts;
	if (out)
		*out = NULL;
	return aieth_fail(AIETH_EUNSUPPORTED, "th_server: this build has no HTTP server "
			  "(libaieth was built without libmicrohttpd)");
}

uint16_t aieth_server_port(const aieth_server *server)
{
	(void)server;
	return 0;
}

void aieth_server_tick(aieth_server *server)
{
	(void)server;
}

void aieth_server_close(aieth_server *server)
{
	(void)server;
}

#endif
