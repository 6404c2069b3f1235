/* SPDX-License-Identifier: MIT */
/*
 * remote_graph.c - the remote backend's graph calls: run, wait, end,
 * status and model ports, and run-time parameters (RTP), each a request
 * to th_server.
 */
#ifdef AIETH_HAVE_CURL

#include <stdio.h>
#include <string.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "backends/remote/remote_internal.h"
#include "backends/remote/remote_reply.h"
#include "backends/remote/remote_traces.h"
#include "util/error.h"

static int graph_post(rm_state *st, uint32_t g, const char *verb, const char *body, long timeout_s)
{
	char path[1024], seg[RMT_SEG_MAX];
	snprintf(path, sizeof path, "/v1/sessions/%s/graphs/%s/%s", st->sid,
		 aieth__rmt_path_seg(st->cfg->graphs[g].name, seg), verb);
	return aieth__rm_json(st, "POST", path, body, 204, timeout_s, NULL);
}

int aieth__rm_graph_run(void *state, uint32_t graph, int64_t iterations)
{
	char body[64];
	snprintf(body, sizeof body, "{\"iterations\":%lld}", (long long)iterations);
	return graph_post(state, graph, "run", body, CALL_S);
}

int aieth__rm_graph_wait(void *state, uint32_t graph, uint32_t timeout_ms)
{
	rm_state *st = state;
	char body[64];
	int rc;
	snprintf(body, sizeof body, "{\"timeout_ms\":%u}",
		 timeout_ms > WAIT_MAX_MS ? WAIT_MAX_MS : timeout_ms);
	/* as a transaction's wait: its own timeout bounds it, no stall limit */
	st->device_wait = 1;
	rc = graph_post(state, graph, "wait", body, CALL_S + (long)(timeout_ms / 1000));
	st->device_wait = 0;
	return rc;
}

int aieth__rm_graph_end(void *state, uint32_t graph)
{
	return graph_post(state, graph, "end", NULL, CALL_S);
}

int aieth__rm_graph_status(void *state, uint32_t graph, uint64_t *done, int *complete)
{
	rm_state *st = state;
	struct json_object *o = NULL;
	char path[1024], seg[RMT_SEG_MAX];
	int rc;
	snprintf(path, sizeof path, "/v1/sessions/%s/graphs/%s", st->sid,
		 aieth__rmt_path_seg(st->cfg->graphs[graph].name, seg));
	if ((rc = aieth__rm_json(st, "GET", path, NULL, 200, CALL_S, &o)))
		return rc;
	rc = aieth__rmr_graph_status(st->base, o, done, complete);
	json_object_put(o);
	return rc;
}

/* The server's graph model ports (GET .../graphs/NAME/ports). A server
 * whose board runs the graph itself answers 501: not known before the run
 * (AIETH_EUNSUPPORTED, as the xrt backend locally). */
int aieth__rm_graph_ports(void *state, uint32_t graph, aieth_graph_port *ports, size_t cap,
			  size_t *n)
{
	rm_state *st = state;
	struct json_object *o = NULL;
	char path[1024], seg[RMT_SEG_MAX], msg[600];
	sbuf b = SB_INIT(RMH_BODY_MAX);
	long status = 0;
	int rc;
	snprintf(path, sizeof path, "/v1/sessions/%s/graphs/%s/ports", st->sid,
		 aieth__rmt_path_seg(st->cfg->graphs[graph].name, seg));
	if ((rc = aieth__rm_req(st, "GET", path, NULL, NULL, CALL_S, &status, &b))) {
		aieth__sb_free(&b);
		return rc;
	}
	if (status == 501) {
		aieth__rmh_reply_message(&b, msg, sizeof msg);
		aieth__sb_free(&b);
		return aieth__fail(AIETH_EUNSUPPORTED, "server %s: %s", st->base, msg);
	}
	if ((rc = aieth__rm_reply(st, "GET", path, status, 200, &b, &o)))
		return rc;
	rc = aieth__rmr_graph_ports(st->base, o, ports, cap, n);
	json_object_put(o);
	return rc;
}

/* RTP: the value's bytes as a raw body; the port name escaped in the path. */
static int rtp_path(rm_state *st, uint32_t graph, const char *port, char *path, size_t cap)
{
	char *esc = curl_easy_escape(st->h, port, 0), seg[RMT_SEG_MAX];
	int n;
	if (!esc)
		return aieth__fail(AIETH_ENOMEM, "backend remote: out of memory");
	n = snprintf(path, cap, "/v1/sessions/%s/graphs/%s/rtp/%s", st->sid,
		     aieth__rmt_path_seg(st->cfg->graphs[graph].name, seg), esc);
	curl_free(esc);
	if (n < 0 || (size_t)n >= cap)
		return aieth__fail(AIETH_EINVAL,
				   "backend remote: RTP port \"%.80s\": the graph and "
				   "port names make a URL path longer than %zu bytes",
				   port, cap - 1);
	return AIETH_OK;
}

int aieth__rm_update_rtp(void *state, uint32_t graph, const char *port, const void *data,
			 size_t size)
{
	rm_state *st = state;
	char path[1024], url[1600], msg[600];
	struct curl_slist *hdrs;
	sbuf b = SB_INIT(RMH_BODY_MAX);
	long status = 0;
	CURLcode cc;
	int rc;

	if ((rc = rtp_path(st, graph, port, path, sizeof path)))
		return rc;
	/* not aieth__rm_req: its bodies are JSON text (strlen), this one raw bytes */
	snprintf(url, sizeof url, "%s%s", st->base, path);
	hdrs = aieth__rm_setup(st, url, "Content-Type: application/octet-stream", CALL_S);
	curl_easy_setopt(st->h, CURLOPT_CUSTOMREQUEST, "PUT");
	curl_easy_setopt(st->h, CURLOPT_POSTFIELDS, data);
	curl_easy_setopt(st->h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)size);
	curl_easy_setopt(st->h, CURLOPT_WRITEFUNCTION, aieth__rmh_buf_write);
	curl_easy_setopt(st->h, CURLOPT_WRITEDATA, &b);
	cc = aieth__rmh_perform(st->h, &st->xfer, aieth__rmh_buf_clear, &b);
	curl_slist_free_all(hdrs);
	if (cc != CURLE_OK) {
		aieth__sb_free(&b);
		if (cc == CURLE_ABORTED_BY_CALLBACK)
			return aieth__fail(AIETH_EDEVICE, "server %s: PUT %s: interrupted",
					   st->base, path);
		return aieth__fail(AIETH_EDEVICE, "server %s: PUT %s: %s", st->base, path,
				   aieth__rmh_words(st->h, cc, st->cacert));
	}
	curl_easy_getinfo(st->h, CURLINFO_RESPONSE_CODE, &status);
	aieth__rmh_reply_message(&b, msg, sizeof msg);
	aieth__sb_free(&b);
	if (status == 204)
		return AIETH_OK;
	return aieth__fail(status == 404   ? AIETH_ENOTFOUND
			   : status == 400 ? AIETH_EINVAL
					   : AIETH_EDEVICE,
			   "server %s: %s", st->base, msg);
}

int aieth__rm_read_rtp(void *state, uint32_t graph, const char *port, void *data, size_t size)
{
	rm_state *st = state;
	char path[1100], msg[600];
	sbuf b = SB_INIT(RMH_BODY_MAX);
	long status = 0;
	int rc;

	if ((rc = rtp_path(st, graph, port, path, sizeof path - 32)))
		return rc;
	snprintf(path + strlen(path), sizeof path - strlen(path), "?size=%zu", size);
	if ((rc = aieth__rm_req(st, "GET", path, NULL, NULL, CALL_S, &status, &b))) {
		aieth__sb_free(&b);
		return rc;
	}
	if (status != 200) {
		aieth__rmh_reply_message(&b, msg, sizeof msg);
		aieth__sb_free(&b);
		return aieth__fail(status == 404   ? AIETH_ENOTFOUND
				   : status == 400 ? AIETH_EINVAL
						   : AIETH_EDEVICE,
				   "server %s: %s", st->base, msg);
	}
	if (b.n != size) {
		aieth__sb_free(&b);
		return aieth__fail(AIETH_EDEVICE,
				   "server %s: run-time parameter %s: %zu bytes came, "
				   "%zu asked",
				   st->base, port, b.n, size);
	}
	memcpy(data, b.p, size);
	aieth__sb_free(&b);
	return AIETH_OK;
}

#endif /* AIETH_HAVE_CURL */
