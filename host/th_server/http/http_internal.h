/* SPDX-License-Identifier: MIT */
/*
 * th_server/http/http_internal.h - th_server's HTTP API on libmicrohttpd, shared by
 * its files: the request being handled, the replies, the handlers
 * (http_server.c: the request cycle; http_sessions.c: health, metrics,
 * sessions, graphs; http_txns.c: transactions and run-time parameters).
 */
#ifndef AIETH_SERVER_HTTP_INTERNAL_H
#define AIETH_SERVER_HTTP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <json-c/json.h>
#include <microhttpd.h>

#include "th_server/srv_core.h"
#include "th_server/srv_queue.h"
#include "th_server/srv_stats.h"

extern const unsigned aieth__srv_metric_codes[SRV_NCODES];

/* The HTTP connections open (s->conns), tracked so that no client without
 * a token can lock out one with a token (docs/server.md, "Connections"):
 * how many each address holds before authentication
 * (--max-conn-per-addr), which one to evict when the unauthenticated ones
 * fill their part of --max-conn, and when each began waiting for a request
 * head (--head-timeout: from the accept or the end of the previous
 * request). libmicrohttpd's own limit is the table's size, twice --max-conn:
 * an evicted connection holds its place until its thread has ended. */
typedef struct {
	int used;
	int in_head; /* waiting for a request's head */
	int authed;  /* a request on it carried a valid token (without a token
			file: a request other than GET /v1/health) */
	int dying;   /* shut down (evicted, or past --head-timeout): its
			thread has yet to end; no longer counted */
	int fd;
	int64_t since_ms;
	uint64_t seq; /* accept order: the oldest goes first */
	char addr[64];
} http_conn;
typedef struct {
	pthread_mutex_t mu;
	unsigned nslots;
	unsigned open;
	uint64_t seq;
	uint64_t refused, evicted, head_timeouts;
	int64_t refused_logged_s, evicted_logged_s; /* one log line per second at most */
	http_conn v[];                              /* nslots */
} http_conns;

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
	int answered;      /* a response was queued */
	int keep;          /* the connection is authenticated: kept alive after
			   the reply (else "Connection: close") */
	uint64_t body_mem; /* bytes of body counted in --max-memory */
	int cut;           /* the TX upload was refused midway (-2 above) */
	srv_sess *sess;    /* referenced during a TX upload */
	srv_txn *txn;
	int overflow; /* a chunked body went past the limit (2: past
			     --max-memory, at want bytes) */
	size_t want;
	size_t body_max;  /* this route's JSON body limit */
	srv_xupload *xup; /* PUT /v1/xclbins/SHA: the upload going on */
	char *body;
	size_t len, cap;
} req_ctx;

enum MHD_Result aieth__http_reply(struct MHD_Connection *c, req_ctx *r, unsigned status,
				  const char *type, const char *body, size_t len,
				  const char *allow);
/* The same with one more header (hname: hvalue; NULL or "" value: none). */
enum MHD_Result aieth__http_reply_hdr(struct MHD_Connection *c, req_ctx *r, unsigned status,
				      const char *type, const char *body, size_t len,
				      const char *hname, const char *hvalue);
/* Takes o. */
enum MHD_Result aieth__http_reply_json_hdr(struct MHD_Connection *c, req_ctx *r, unsigned status,
					   struct json_object *o, const char *hname,
					   const char *hvalue);
/* Takes o. */
enum MHD_Result aieth__http_reply_json(struct MHD_Connection *c, req_ctx *r, unsigned status,
				       struct json_object *o);
/* {"error": {"code", "message"}} with the code named after the status. */
enum MHD_Result aieth__http_reply_err(struct MHD_Connection *c, req_ctx *r, unsigned status,
				      const char *allow, const char *fmt, ...) AIETH_PRINTF(5, 6);
/* An aieth error code as an HTTP status. */
unsigned aieth__http_status_of(int rc);

/* The reply for a session of the route that is not there (SRV_L_NONE) or
 * another token's (SRV_L_FORBIDDEN). */
enum MHD_Result aieth__http_session_missing(struct MHD_Connection *c, req_ctx *r, srv_l_result res);
/* The session of the route, checked for owner, refreshed, active and
 * referenced (aieth__srv_release after): NULL with a reply queued when it cannot
 * be used. */
srv_sess *aieth__http_active_session(struct MHD_Connection *c, req_ctx *r, aieth__server *s,
				     enum MHD_Result *ret);

enum MHD_Result aieth__http_health(struct MHD_Connection *c, req_ctx *r, aieth__server *s);
enum MHD_Result aieth__http_metrics(struct MHD_Connection *c, req_ctx *r, aieth__server *s);
enum MHD_Result aieth__http_session_create(struct MHD_Connection *c, req_ctx *r, aieth__server *s);
enum MHD_Result aieth__http_session(struct MHD_Connection *c, req_ctx *r, aieth__server *s);
enum MHD_Result aieth__http_graph(struct MHD_Connection *c, req_ctx *r, aieth__server *s);

enum MHD_Result aieth__http_txn_create(struct MHD_Connection *c, req_ctx *r, aieth__server *s);
/* The head of PUT .../tx: MHD_YES with r->sess, r->txn set when the body
 * may stream into the TX image. */
enum MHD_Result aieth__http_txn_tx_head(struct MHD_Connection *c, req_ctx *r, aieth__server *s,
					unsigned long long len, int have_len);
/* a piece of PUT .../tx's body into the TX image: -1 past its size, -2
 * when a streamed transaction's device gave up waiting for it */
int aieth__http_txn_tx_data(req_ctx *r, aieth__server *s, const char *data, size_t n);
enum MHD_Result aieth__http_txn_tx_done(struct MHD_Connection *c, req_ctx *r, aieth__server *s);
enum MHD_Result aieth__http_txn(struct MHD_Connection *c, req_ctx *r, aieth__server *s);
enum MHD_Result aieth__http_txn_rx(struct MHD_Connection *c, req_ctx *r, aieth__server *s);
enum MHD_Result aieth__http_rtp(struct MHD_Connection *c, req_ctx *r, aieth__server *s);
/* http_validate.c: POST /v1/validate, the board health suite */
enum MHD_Result aieth__http_validate(struct MHD_Connection *c, req_ctx *r, aieth__server *s);

/* http_sensors.c: GET /v1/sensors, the board's sensors (server/srv_sensors.h) */
enum MHD_Result aieth__http_sensors(struct MHD_Connection *c, req_ctx *r, aieth__server *s);

/* http_design.c: the design xclbin cache and the sessions' artifacts.
 * The head of PUT /v1/xclbins/SHA: MHD_YES with r->xup set when the body
 * may stream into the cache. */
enum MHD_Result aieth__http_xclbin_put_head(struct MHD_Connection *c, req_ctx *r, aieth__server *s,
					    unsigned long long len, int have_len);
enum MHD_Result aieth__http_xclbin(struct MHD_Connection *c, req_ctx *r, aieth__server *s);
/* A request that ends before its body did (the client went away). */
void aieth__http_xclbin_drop(req_ctx *r);
enum MHD_Result aieth__http_artifacts(struct MHD_Connection *c, req_ctx *r, aieth__server *s);

#endif
