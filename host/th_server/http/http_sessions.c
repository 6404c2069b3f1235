/* SPDX-License-Identifier: MIT */
/*
 * http_sessions.c - th_server's HTTP API: health, metrics, sessions and
 * their graphs (docs/http-api.md).
 */
#ifdef AIETH_HAVE_MHD

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th_server/http/http_internal.h"
#include "th_server/srv_names.h"
#include "util/json_strict.h"
#include "util/path.h"
#include "util/sbuf.h"

enum MHD_Result aieth__http_health(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	struct json_object *o = json_object_new_object();
	srv_health h;
	aieth__srv_stats_health(s, &h);
	json_object_object_add(o, "status", json_object_new_string(h.draining ? "draining" : "ok"));
	json_object_object_add(o, "server", json_object_new_string("th_server"));
	json_object_object_add(o, "version", json_object_new_string(aieth_version()));
	json_object_object_add(o, "api", json_object_new_int(1));
	json_object_object_add(o, "backend", json_object_new_string(s->backend));
	json_object_object_add(o, "board", s->board ? json_object_new_string(s->board) : NULL);
	json_object_object_add(o, "draining", json_object_new_boolean(h.draining));
	json_object_object_add(o, "tls", json_object_new_boolean(s->tls_cert != NULL));
	if (h.validate_have) {
		/* the last POST /v1/validate: the board's health as last seen */
		struct json_object *v = json_object_new_object();
		json_object_object_add(v, "at", json_object_new_string(h.validate_at));
		json_object_object_add(v, "level", json_object_new_int((int)h.validate_level));
		json_object_object_add(v, "exit_code", json_object_new_int(h.validate_exit));
		json_object_object_add(v, "healthy", json_object_new_boolean(h.validate_exit == 0));
		json_object_object_add(v, "passed", json_object_new_int((int)h.validate_passed));
		json_object_object_add(v, "failed", json_object_new_int((int)h.validate_failed));
		json_object_object_add(v, "skipped", json_object_new_int((int)h.validate_skipped));
		json_object_object_add(v, "warnings", json_object_new_int((int)h.validate_warned));
		json_object_object_add(o, "last_validate", v);
	} else {
		json_object_object_add(o, "last_validate", NULL);
	}
	return aieth__http_reply_json(c, r, 200, o);
}

/* One metric with its HELP and TYPE lines (Prometheus text format). */
static void metric(sbuf *b, const char *name, const char *type, const char *help, uint64_t v)
{
	aieth__sb_printf(b, "# HELP %s %s\n# TYPE %s %s\n%s %llu\n", name, help, name, type, name,
			 (unsigned long long)v);
}

enum MHD_Result aieth__http_metrics(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	srv_metrics m;
	size_t i;
	enum MHD_Result ret;
	http_conns *t = s->conns;
	uint64_t conns = 0, authed = 0, refused = 0, evicted = 0, head_to = 0;

	if (t) {
		pthread_mutex_lock(&t->mu);
		conns = t->open;
		refused = t->refused;
		evicted = t->evicted;
		head_to = t->head_timeouts;
		for (i = 0; i < t->nslots; i++)
			authed += t->v[i].used && !t->v[i].dying && t->v[i].authed;
		pthread_mutex_unlock(&t->mu);
	}
	metric(&b, "aieth_http_connections", "gauge", "HTTP connections open.", conns);
	metric(&b, "aieth_http_connections_authenticated", "gauge",
	       "HTTP connections a request of which carried a valid token.", authed);
	metric(&b, "aieth_http_connections_refused_total", "counter",
	       "HTTP connections refused: their address held --max-conn-per-addr without a "
	       "token, or all --max-conn were authenticated.",
	       refused);
	metric(&b, "aieth_http_connections_evicted_total", "counter",
	       "HTTP connections without a token closed to make room for a new one "
	       "(--max-conn).",
	       evicted);
	metric(&b, "aieth_http_head_timeouts_total", "counter",
	       "HTTP connections closed: no complete request head within --head-timeout.", head_to);
	aieth__srv_stats_metrics(s, &m);
	metric(&b, "aieth_sessions_active", "gauge",
	       "Sessions holding the device, having it opened or closed (0 or 1).", m.active);
	metric(&b, "aieth_queue_length", "gauge", "Sessions waiting for the device.", m.queued);
	metric(&b, "aieth_sessions_total", "counter", "Sessions created.", m.sessions_total);
	metric(&b, "aieth_validate_total", "counter", "POST /v1/validate runs completed.",
	       m.validate_total);
	/* 0 healthy; 255 before any validate (the exit codes are 0..5, 128+N) */
	metric(&b, "aieth_validate_last_exit_code", "gauge",
	       "run_test validate's exit code of the last POST /v1/validate (255: none yet).",
	       m.validate_have ? (uint64_t)m.validate_exit : 255);
	metric(&b, "aieth_device_resets_total", "counter",
	       "Device closes (resets) between sessions.", m.resets);
	metric(&b, "aieth_device_reset_failures_total", "counter",
	       "Reset commands (--reset-cmd) that failed or timed out.", m.reset_failures);
	metric(&b, "aieth_bytes_received_total", "counter", "Request body bytes received.",
	       m.bytes_in);
	metric(&b, "aieth_bytes_sent_total", "counter", "Response body bytes sent.", m.bytes_out);
	metric(&b, "aieth_image_bytes", "gauge", "Transaction image bytes held (TX + RX).",
	       m.mem_used - m.body_used);
	metric(&b, "aieth_request_body_bytes", "gauge",
	       "HTTP request bodies held while read (JSON, run-time parameters; within "
	       "--max-memory).",
	       m.body_used);
	metric(&b, "aieth_image_kept_bytes", "gauge",
	       "Image memory kept mapped for the next transaction (released when unused for "
	       "10 s; within --max-memory).",
	       aieth__srv_images_kept(&s->images));
	{
		uint64_t mv[2], cp[2];
		aieth__srv_images_counts(&s->images, mv, cp);
		sb_lit(&b,
		       "# HELP aieth_image_moved_bytes_total Transaction image bytes moved over "
		       "HTTP: TX uploads, RX downloads.\n"
		       "# TYPE aieth_image_moved_bytes_total counter\n");
		aieth__sb_printf(&b,
				 "aieth_image_moved_bytes_total{direction=\"tx\"} %llu\n"
				 "aieth_image_moved_bytes_total{direction=\"rx\"} %llu\n",
				 (unsigned long long)mv[0], (unsigned long long)mv[1]);
		sb_lit(&b, "# HELP aieth_image_copied_bytes_total Of those, bytes copied in user "
			   "space on the way (make bench).\n"
			   "# TYPE aieth_image_copied_bytes_total counter\n");
		aieth__sb_printf(&b,
				 "aieth_image_copied_bytes_total{direction=\"tx\"} %llu\n"
				 "aieth_image_copied_bytes_total{direction=\"rx\"} %llu\n",
				 (unsigned long long)cp[0], (unsigned long long)cp[1]);
	}
	metric(&b, "aieth_xclbin_uploads_total", "counter", "Design xclbins stored in the cache.",
	       m.xclbin_uploads);
	metric(&b, "aieth_xclbin_evictions_total", "counter", "Designs evicted from the cache.",
	       m.xclbin_evictions);
	metric(&b, "aieth_xclbin_cache_bytes", "gauge", "Bytes of designs in the cache.",
	       m.cache_used);
	metric(&b, "aieth_xclbin_upload_bytes", "gauge",
	       "Bytes reserved by design uploads in progress (within --xclbin-cache-mib).",
	       m.cache_reserved);
	sb_lit(&b, "# HELP aieth_requests_total Requests answered, by status.\n"
		   "# TYPE aieth_requests_total counter\n");
	for (i = 0; i < SRV_NCODES; i++)
		if (m.requests[i])
			aieth__sb_printf(&b, "aieth_requests_total{status=\"%u\"} %llu\n",
					 aieth__srv_metric_codes[i],
					 (unsigned long long)m.requests[i]);
	if (m.requests_other)
		aieth__sb_printf(&b, "aieth_requests_total{status=\"other\"} %llu\n",
				 (unsigned long long)m.requests_other);
	sb_lit(&b, "# HELP aieth_transactions_total Transactions run to their end, by status.\n"
		   "# TYPE aieth_transactions_total counter\n");
	{
		static const char *const tn[5] = {"pending", "done", "timeout", "failed",
						  "interrupted"};
		for (i = 0; i < 5; i++)
			aieth__sb_printf(&b, "aieth_transactions_total{status=\"%s\"} %llu\n",
					 tn[i],
					 (unsigned long long)(m.txn_status[i] +
							      (i == 3 ? m.txn_failed : 0)));
	}
	if (b.oom) {
		aieth__sb_free(&b);
		return aieth__http_reply_err(c, r, 500, NULL, "metrics: out of memory");
	}
	ret = aieth__http_reply(c, r, 200, "text/plain; version=0.0.4", b.p, b.n, NULL);
	aieth__sb_free(&b);
	return ret;
}

enum MHD_Result aieth__http_session_create(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	srv_session_req req;
	srv_sess *x;
	struct json_object *o;
	char loc[64], id[SRV_ID_MAX + 1], msg[1024], *xpath;
	int rc;

	memset(&req, 0, sizeof req);
	if (aieth__srv_session_req_parse(r->body, r->len, &req)) {
		aieth__srv_session_req_free(&req);
		return aieth__http_reply_err(c, r, 400, NULL, "%s", aieth_error_message());
	}
	/* names looked up in the operator's tables, never opened as paths */
	if ((rc = aieth__srv_board_check(s, req.board, msg, sizeof msg)) == -2)
		aieth__srv_log(s, "board %s: %s", req.board, aieth_error_message());
	if (rc || aieth__srv_session_names_check(s, &req, msg, sizeof msg)) {
		aieth__srv_session_req_free(&req);
		return aieth__http_reply_err(c, r, 422, NULL, "%s", msg);
	}
	if (!(x = aieth__srv_sess_new(r->who, &req))) {
		aieth__srv_session_req_free(&req);
		return aieth__http_reply_err(c, r, 500, NULL, "session: out of memory");
	}
	x->http = 1;
	/* the design (pinned in the cache) and the xrt.ini go with the
	 * session into the queue */
	memcpy(x->xsha, x->req.xclbin_sha256, sizeof x->xsha);
	x->xrt_ini = x->req.xrt_ini;
	x->xrt_ini_len = x->req.xrt_ini_len;
	x->req.xrt_ini = NULL;
	x->req.xrt_ini_len = 0;
	switch (aieth__srv_sess_enqueue(s, x, msg, sizeof msg)) {
	case SRV_Q_DRAINING: return aieth__http_reply_err(c, r, 503, NULL, "%s", msg);
	case SRV_Q_FULL: return aieth__http_reply_err(c, r, 429, NULL, "%s", msg);
	case SRV_Q_FAILED: return aieth__http_reply_err(c, r, 422, NULL, "%s", msg);
	case SRV_Q_NO_XCLBIN: return aieth__http_reply_err(c, r, 409, NULL, "%s", msg);
	case SRV_Q_INTERNAL: return aieth__http_reply_err(c, r, 500, NULL, "%s", msg);
	case SRV_Q_OK: break;
	}
	o = aieth__srv_queue_describe(s, x, id, sizeof id, &xpath);
	if (xpath) {
		/* checked as run_test checks a design locally (lenient: on the
		 * emulated board a design that does not read is reported, not
		 * fatal; a board's backend checks it strictly when it opens) */
		aieth_xclbin *xb = NULL;
		if (aieth_xclbin_open(&xb, xpath, AIETH_XCLBIN_LENIENT) == AIETH_OK) {
			json_object_object_add(
				o, "xclbin_uuid",
				json_object_new_string(aieth_xclbin_uuid_string(xb)));
			aieth_xclbin_close(xb);
		} else {
			json_object_object_add(o, "xclbin_problem",
					       json_object_new_string(aieth_error_message()));
			aieth__srv_log(
				s, "session %s: the design xclbin does not read as an xclbin: %s",
				id, aieth_error_message());
		}
		free(xpath);
	}
	snprintf(loc, sizeof loc, "/v1/sessions/%s", id);
	return aieth__http_reply_json_hdr(c, r, 201, o, MHD_HTTP_HEADER_LOCATION, loc);
}

enum MHD_Result aieth__http_session_missing(struct MHD_Connection *c, req_ctx *r, srv_l_result res)
{
	if (res == SRV_L_FORBIDDEN)
		return aieth__http_reply_err(
			c, r, 403, NULL, "session \"%s\" belongs to another token", r->route.sid);
	return aieth__http_reply_err(c, r, 404, NULL,
				     "session \"%s\": no such session (ended "
				     "sessions are forgotten after %d more)",
				     r->route.sid, SRV_ENDED_KEEP);
}

srv_sess *aieth__http_active_session(struct MHD_Connection *c, req_ctx *r, aieth__server *s,
				     enum MHD_Result *ret)
{
	srv_sess *x;
	srv_sess_view v;
	srv_l_result res = aieth__srv_queue_active(s, r->route.sid, r->who, &x, &v);
	if (res == SRV_L_OK)
		return x;
	if (res != SRV_L_INACTIVE)
		*ret = aieth__http_session_missing(c, r, res);
	else if (v.state == SS_QUEUED)
		*ret = aieth__http_reply_err(c, r, 409, NULL,
					     "session \"%s\" is queued at position "
					     "%u and does not hold the device yet",
					     r->route.sid, v.position);
	else
		*ret = aieth__http_reply_err(c, r, 409, NULL, "session \"%s\" is %s%s%s",
					     r->route.sid, aieth__srv_state_names[v.state],
					     v.reason[0] ? ": " : "", v.reason);
	return NULL;
}

enum MHD_Result aieth__http_session(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	struct json_object *o;
	int end = !strcmp(r->method, "DELETE");
	srv_l_result res = aieth__srv_queue_session(s, r->route.sid, r->who, end, &o);
	if (res != SRV_L_OK)
		return aieth__http_session_missing(c, r, res);
	if (end)
		return aieth__http_reply(c, r, 204, NULL, "", 0, NULL);
	return aieth__http_reply_json(c, r, 200, o);
}

/* GET .../graphs/NAME/ports: the graph model's ports (aieth_graph_ports)
 * into *out, their count in *n (at most AIETH_GRAPH_PORTS_MAX: more is an
 * error, never a list cut short). */
static int graph_ports(aieth_session *dev, const char *graph, aieth_graph_port **out, size_t *n)
{
	int rc;
	*out = NULL;
	if ((rc = aieth_graph_ports(dev, graph, NULL, 0, n)))
		return rc;
	if (*n > AIETH_GRAPH_PORTS_MAX)
		return aieth__fail(AIETH_EINVAL, "its model has %zu ports, the limit is %d", *n,
				   AIETH_GRAPH_PORTS_MAX);
	if (!(*out = calloc(*n ? *n : 1, sizeof **out)))
		return aieth__fail(AIETH_ENOMEM, "out of memory");
	return aieth_graph_ports(dev, graph, *out, *n, n);
}

static struct json_object *ports_json(const aieth_graph_port *p, size_t n)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t i;
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_new_object();
		json_object_object_add(e, "plio", json_object_new_string(p[i].plio));
		json_object_object_add(e, "direction",
				       json_object_new_string(p[i].to_aie ? "to_aie" : "from_aie"));
		json_object_object_add(e, "kernel", json_object_new_uint64(p[i].kernel));
		json_object_object_add(e, "bytes_per_iteration",
				       json_object_new_uint64(p[i].bytes_per_iteration));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "ports", a);
	return o;
}

enum MHD_Result aieth__http_graph(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	aieth_graph_port *ports = NULL;
	size_t nports = 0;
	enum MHD_Result ret;
	srv_sess *x = aieth__http_active_session(c, r, s, &ret);
	int64_t iterations = 0;
	uint32_t timeout_ms = 0;
	uint64_t done = 0;
	int rc = AIETH_OK, complete = 0;

	if (!x)
		return ret;

	if (r->route.kind == SRV_R_GRAPH_RUN)
		rc = aieth__srv_run_req_parse(r->body, r->len, &iterations);
	else if (r->route.kind == SRV_R_GRAPH_WAIT)
		rc = aieth__srv_wait_req_parse(r->body, r->len, &timeout_ms);
	if (rc) {
		ret = aieth__http_reply_err(c, r, 400, NULL, "%s", aieth_error_message());
		goto release;
	}
	if (pthread_mutex_trylock(&x->call)) {
		ret = aieth__http_reply_err(c, r, 409, NULL,
					    "session \"%s\" is busy with another device call",
					    r->route.sid);
		goto release;
	}
	switch (r->route.kind) {
	case SRV_R_GRAPH_RUN: rc = aieth_graph_run(x->dev, r->route.graph, iterations); break;
	case SRV_R_GRAPH_WAIT: rc = aieth_graph_wait(x->dev, r->route.graph, timeout_ms); break;
	case SRV_R_GRAPH_END: rc = aieth_graph_end(x->dev, r->route.graph); break;
	case SRV_R_PORTS: rc = graph_ports(x->dev, r->route.graph, &ports, &nports); break;
	default:
		/* iterations and whether a bounded run completed (what the
		 * remote backend's graph_status returns) */
		rc = aieth_graph_status(x->dev, r->route.graph, &done, &complete);
		break;
	}
	pthread_mutex_unlock(&x->call);
	if (rc == AIETH_EUNSUPPORTED && r->route.kind == SRV_R_PORTS) {
		/* a board runs the graph itself: its ports are not known before
		 * the run (the client skips the rules that need them) */
		ret = aieth__http_reply_err(c, r, 501, NULL, "graph \"%s\": %s", r->route.graph,
					    aieth_error_message());
	} else if (rc) {
		ret = aieth__http_reply_err(c, r, aieth__http_status_of(rc), NULL,
					    "graph \"%s\": %s", r->route.graph,
					    aieth_error_message());
	} else if (r->route.kind == SRV_R_PORTS) {
		ret = aieth__http_reply_json(c, r, 200, ports_json(ports, nports));
	} else if (r->route.kind == SRV_R_GRAPH) {
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "iterations_done", json_object_new_uint64(done));
		json_object_object_add(o, "complete", json_object_new_boolean(complete));
		ret = aieth__http_reply_json(c, r, 200, o);
	} else {
		ret = aieth__http_reply(c, r, 204, NULL, "", 0, NULL);
	}
release:
	free(ports);
	aieth__srv_release(s, x);
	return ret;
}

#endif /* AIETH_HAVE_MHD */
