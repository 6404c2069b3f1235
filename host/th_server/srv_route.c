/* SPDX-License-Identifier: MIT */
/*
 * srv_route.c - th_server's request parsing: paths, bearer tokens, JSON
 * request bodies (docs/http-api.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <json-c/json.h>

#include "pld/protocol.h"
#include "th_server/srv_route.h"
#include "util/error.h"
#include "util/json_strict.h"
#include "util/text.h"

#define BODY "request body"

static int seg_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

/* A byte of a graph or RTP port name in a path (percent-decoded by then):
 * anything but '/' and control bytes, as names in a test description. */
static int name_char(unsigned char c) { return c >= 0x20 && c != 0x7f && c != '/'; }

/* The next path segment after *p ('/' skipped) into dst (cap bytes with
 * the NUL), its bytes as ok says; 0, or -1 when absent, empty, too long
 * or with other bytes. */
static int next_seg_of(const char **p, char *dst, size_t cap, int (*ok)(unsigned char))
{
	const char *s = *p;
	size_t n = 0;
	if (*s != '/')
		return -1;
	s++;
	while (s[n] && s[n] != '/') {
		if (!ok((unsigned char)s[n]) || n + 1 >= cap)
			return -1;
		n++;
	}
	if (!n)
		return -1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	*p = s + n;
	return 0;
}

static int next_seg(const char **p, char *dst, size_t cap)
{
	return next_seg_of(p, dst, cap, seg_char);
}

void aieth__srv_route_parse(const char *path, srv_route *r)
{
	char seg[SRV_NAME_MAX + 1];
	const char *p = path;

	memset(r, 0, sizeof *r);
	r->kind = SRV_R_NONE;
	if (!path || strncmp(p, "/v1", 3) != 0)
		return;
	p += 3;
	if (next_seg(&p, seg, sizeof seg))
		return;
	if (!strcmp(seg, "health") || !strcmp(seg, "metrics")) {
		if (!*p)
			r->kind = seg[0] == 'h' ? SRV_R_HEALTH : SRV_R_METRICS;
		return;
	}
	if (!strcmp(seg, "validate") || !strcmp(seg, "sensors")) {
		if (!*p)
			r->kind = seg[0] == 'v' ? SRV_R_VALIDATE : SRV_R_SENSORS;
		return;
	}
	if (!strcmp(seg, "xclbins")) {
		if (!next_seg(&p, seg, sizeof seg) && !*p && aieth__srv_sha256_text_ok(seg)) {
			memcpy(r->sha, seg, 65);
			r->kind = SRV_R_XCLBIN;
		}
		return;
	}
	if (strcmp(seg, "sessions"))
		return;
	if (!*p) {
		r->kind = SRV_R_SESSIONS;
		return;
	}
	if (next_seg(&p, r->sid, sizeof r->sid))
		return;
	if (!*p) {
		r->kind = SRV_R_SESSION;
		return;
	}
	if (next_seg(&p, seg, sizeof seg))
		return;
	if (!strcmp(seg, "txns")) {
		if (!*p) {
			r->kind = SRV_R_TXNS;
			return;
		}
		if (next_seg(&p, r->tid, sizeof r->tid))
			return;
		if (!*p) {
			r->kind = SRV_R_TXN;
			return;
		}
		if (next_seg(&p, seg, sizeof seg) || *p)
			return;
		if (!strcmp(seg, "tx"))
			r->kind = SRV_R_TXN_TX;
		else if (!strcmp(seg, "wait"))
			r->kind = SRV_R_TXN_WAIT;
		else if (!strcmp(seg, "rx"))
			r->kind = SRV_R_TXN_RX;
		return;
	}
	if (!strcmp(seg, "artifacts")) {
		if (!*p)
			r->kind = SRV_R_ARTIFACTS;
		else if (!next_seg(&p, r->name, sizeof r->name) && !*p)
			r->kind = SRV_R_ARTIFACT;
		return;
	}
	if (strcmp(seg, "graphs") || next_seg_of(&p, r->graph, sizeof r->graph, name_char))
		return;
	if (!*p) {
		r->kind = SRV_R_GRAPH;
		return;
	}
	if (next_seg(&p, seg, sizeof seg))
		return;
	if (!strcmp(seg, "rtp")) {
		/* the port name: graph.kernel.in[1], the graph's name in it */
		if (!next_seg_of(&p, r->port, sizeof r->port, name_char) && !*p)
			r->kind = SRV_R_GRAPH_RTP;
		return;
	}
	if (*p)
		return;
	if (!strcmp(seg, "run"))
		r->kind = SRV_R_GRAPH_RUN;
	else if (!strcmp(seg, "wait"))
		r->kind = SRV_R_GRAPH_WAIT;
	else if (!strcmp(seg, "end"))
		r->kind = SRV_R_GRAPH_END;
	else if (!strcmp(seg, "ports"))
		r->kind = SRV_R_PORTS;
}

const char *aieth__srv_route_methods(srv_route_kind k)
{
	switch (k) {
	case SRV_R_HEALTH:
	case SRV_R_METRICS:
	case SRV_R_SENSORS:
	case SRV_R_GRAPH:
	case SRV_R_PORTS:
	case SRV_R_TXN_RX:
	case SRV_R_ARTIFACTS:
	case SRV_R_ARTIFACT: return "GET";
	case SRV_R_XCLBIN: return "HEAD, PUT";
	case SRV_R_TXN_TX: return "PUT";
	case SRV_R_TXNS:
	case SRV_R_TXN_WAIT:
	case SRV_R_SESSIONS:
	case SRV_R_GRAPH_RUN:
	case SRV_R_GRAPH_WAIT:
	case SRV_R_GRAPH_END:
	case SRV_R_VALIDATE: return "POST";
	case SRV_R_SESSION:
	case SRV_R_TXN: return "GET, DELETE";
	case SRV_R_GRAPH_RTP: return "GET, PUT";
	default: return "";
	}
}

int aieth__srv_bearer(const char *value, const char **tok, size_t *len)
{
	const char *p;
	size_t n;
	if (!value || strncmp(value, "Bearer ", 7) != 0)
		return -1;
	p = value + 7;
	while (*p == ' ')
		p++;
	n = strlen(p);
	while (n && p[n - 1] == ' ')
		n--;
	if (!n)
		return -1;
	*tok = p;
	*len = n;
	return 0;
}

int aieth__srv_rtp_size_parse(const char *text, uint32_t *out)
{
	uint64_t v = 0;
	const char *p = text;
	*out = 0;
	if (!p || !*p)
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > SRV_RTP_MAX)
			return -1;
	}
	if (!v)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int aieth__srv_sha256_text_ok(const char *t)
{
	size_t i;
	for (i = 0; i < 64; i++)
		if (!((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'f')))
			return 0;
	return t[64] == '\0';
}

int aieth__srv_artifact_name_ok(const char *name)
{
	size_t i;
	for (i = 0; name[i]; i++)
		if (!seg_char((unsigned char)name[i]) || i >= 255)
			return 0;
	return i > 0 && name[0] != '.';
}

/* The body as a JSON object of at most max bytes (an empty body is
 * allow_empty ? NULL : an error). */
static int body_object_max(const char *body, size_t len, size_t max, int allow_empty,
			   struct json_object **out)
{
	int rc;
	*out = NULL;
	if (len > max)
		return aieth__fail(AIETH_EINVAL, BODY ": %zu bytes, the limit is %zu", len, max);
	if (!len) {
		if (allow_empty)
			return AIETH_OK;
		return aieth__fail(AIETH_EPARSE, BODY ": empty, a JSON object is needed");
	}
	rc = aieth__jstrict_parse(BODY, body, len, out);
	if (rc)
		return rc;
	if (!*out || !json_object_is_type(*out, json_type_object)) {
		json_object_put(*out);
		*out = NULL;
		return aieth__fail(AIETH_EPARSE, BODY ": a JSON object is needed");
	}
	return AIETH_OK;
}

static int body_object(const char *body, size_t len, int allow_empty, struct json_object **out)
{
	return body_object_max(body, len, SRV_BODY_MAX, allow_empty, out);
}

static int copy_name(char *dst, const char *path, const char *v, int allow_empty)
{
	size_t n = strlen(v), i;
	char q[80];
	if (n > SRV_NAME_MAX)
		return aieth__fail(AIETH_EINVAL, BODY " %s: %zu bytes, the limit is %d", path, n,
				   SRV_NAME_MAX);
	if (!n && !allow_empty)
		return aieth__fail(AIETH_EINVAL, BODY " %s: empty", path);
	for (i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f) {
			aieth__quote_str(q, sizeof q, v);
			return aieth__fail(AIETH_EINVAL, BODY " %s: \"%s\" has a control byte",
					   path, q);
		}
	memcpy(dst, v, n + 1);
	return AIETH_OK;
}

void aieth__srv_session_req_free(srv_session_req *r)
{
	size_t i;
	for (i = 0; i < r->ngraphs; i++) {
		free(r->graphs[i].params);
		r->graphs[i].params = NULL;
	}
	r->ngraphs = 0;
	for (i = 0; i < r->ntraces; i++) {
		free(r->traces[i].text);
		r->traces[i].text = NULL;
	}
	r->ntraces = 0;
	free(r->xrt_ini);
	r->xrt_ini = NULL;
	r->xrt_ini_len = 0;
}

static int parse_graph(struct json_object *g, size_t i, srv_session_req *out)
{
	static const char *const keys[] = {"name", "model", "params", NULL};
	char path[64];
	srv_graph_req *gr = &out->graphs[i];
	const char *name = NULL, *model = NULL, *text;
	struct json_object *params = NULL;
	size_t j;
	int rc;

	snprintf(path, sizeof path, "graphs[%zu]", i);
	if (!json_object_is_type(g, json_type_object))
		return aieth__fail(AIETH_EINVAL, BODY " %s: an object is needed", path);
	if ((rc = aieth__jstrict_keys(BODY, path, g, keys)) ||
	    (rc = aieth__jstrict_get_string(BODY, path, g, "name", 1, &name)) ||
	    (rc = aieth__jstrict_get_string(BODY, path, g, "model", 0, &model)) ||
	    (rc = aieth__jstrict_get_object(BODY, path, g, "params", 0, &params)))
		return rc;
	snprintf(path, sizeof path, "graphs[%zu].name", i);
	if ((rc = copy_name(gr->name, path, name, 0)))
		return rc;
	/* the name is a path segment of the graph's URLs (other bytes travel
	 * percent-encoded) */
	if (strchr(gr->name, '/')) {
		char q[80];
		aieth__quote_str(q, sizeof q, gr->name);
		return aieth__fail(AIETH_EINVAL,
				   BODY
				   " %s: \"%s\" has a '/', which the graph's "
				   "URLs (/v1/sessions/ID/graphs/NAME) cannot carry; rename the "
				   "graph",
				   path, q);
	}
	snprintf(path, sizeof path, "graphs[%zu].model", i);
	if (model && (rc = copy_name(gr->model, path, model, 0)))
		return rc;
	for (j = 0; j < i; j++)
		if (!strcmp(out->graphs[j].name, gr->name))
			return aieth__fail(AIETH_EINVAL,
					   BODY " graphs[%zu].name: \"%s\" is also "
						"graphs[%zu]",
					   i, gr->name, j);
	if (params) {
		size_t n;
		text = json_object_to_json_string_ext(params, JSON_C_TO_STRING_PLAIN);
		n = text ? strlen(text) : 0;
		if (!text)
			return aieth__fail(AIETH_ENOMEM, BODY " graphs[%zu].params: out of memory",
					   i);
		if (n > SRV_PARAMS_MAX)
			return aieth__fail(AIETH_EINVAL,
					   BODY " graphs[%zu].params: %zu bytes, the "
						"limit is %d",
					   i, n, SRV_PARAMS_MAX);
		gr->params = malloc(n + 1);
		if (!gr->params)
			return aieth__fail(AIETH_ENOMEM, BODY " graphs[%zu].params: out of memory",
					   i);
		memcpy(gr->params, text, n + 1);
	}
	return AIETH_OK;
}

int aieth__srv_session_req_parse(const char *body, size_t len, srv_session_req *out)
{
	static const char *const keys[] = {"board",   "graphs", "xclbin_sha256",
					   "xrt_ini", "traces", NULL};
	struct json_object *o = NULL, *graphs = NULL, *ini = NULL, *traces = NULL;
	const char *board = NULL, *sha = NULL;
	size_t i, n;
	int rc;

	memset(out, 0, sizeof *out);
	if ((rc = body_object_max(body, len, SRV_SESSION_BODY_MAX, 0, &o)))
		return rc;
	if ((rc = aieth__jstrict_keys(BODY, "", o, keys)) ||
	    (rc = aieth__jstrict_get_string(BODY, "", o, "board", 1, &board)) ||
	    (rc = aieth__jstrict_get_string(BODY, "", o, "xclbin_sha256", 0, &sha)))
		goto out;
	if ((rc = copy_name(out->board, "board", board, 0)))
		goto out;
	if (sha) {
		n = strlen(sha);
		for (i = 0; i < n; i++)
			if (!((sha[i] >= '0' && sha[i] <= '9') || (sha[i] >= 'a' && sha[i] <= 'f')))
				break;
		if (n != 64 || i != n) {
			rc = aieth__fail(AIETH_EINVAL,
					 BODY " xclbin_sha256: 64 lowercase hex digits "
					      "are needed (got %zu bytes)",
					 n);
			goto out;
		}
		memcpy(out->xclbin_sha256, sha, 65);
	}
	if (json_object_object_get_ex(o, "xrt_ini", &ini)) {
		const char *t = json_object_is_type(ini, json_type_string)
					? json_object_get_string(ini)
					: NULL;
		if (!t) {
			rc = aieth__fail(AIETH_EINVAL,
					 BODY " xrt_ini: a string is needed (the text of "
					      "an xrt.ini)");
			goto out;
		}
		n = (size_t)json_object_get_string_len(ini);
		if (n > SRV_XRT_INI_MAX) {
			rc = aieth__fail(AIETH_EINVAL, BODY " xrt_ini: %zu bytes, the limit is %u",
					 n, SRV_XRT_INI_MAX);
			goto out;
		}
		if (memchr(t, '\0', n)) {
			rc = aieth__fail(AIETH_EINVAL, BODY " xrt_ini: has a NUL byte");
			goto out;
		}
		if (n) {
			if (!(out->xrt_ini = malloc(n + 1))) {
				rc = aieth__fail(AIETH_ENOMEM, BODY " xrt_ini: out of memory");
				goto out;
			}
			memcpy(out->xrt_ini, t, n + 1);
			out->xrt_ini_len = n;
		}
	}
	if (json_object_object_get_ex(o, "traces", &traces) &&
	    (rc = aieth__srv_traces_parse(traces, out)))
		goto out;
	if (json_object_object_get_ex(o, "graphs", &graphs)) {
		if (!json_object_is_type(graphs, json_type_array)) {
			rc = aieth__fail(AIETH_EINVAL, BODY " graphs: an array is needed");
			goto out;
		}
		n = json_object_array_length(graphs);
		if (n > SRV_GRAPHS_MAX) {
			rc = aieth__fail(AIETH_EINVAL, BODY " graphs: %zu graphs, the limit is %d",
					 n, SRV_GRAPHS_MAX);
			goto out;
		}
		for (i = 0; i < n; i++) {
			out->ngraphs = i + 1;
			if ((rc = parse_graph(json_object_array_get_idx(graphs, i), i, out)))
				goto out;
		}
	}
out:
	json_object_put(o);
	return rc;
}

static int get_i64(struct json_object *o, const char *key, int required, int64_t min, int64_t max,
		   int64_t *out)
{
	struct json_object *v;
	int64_t x;
	if (!json_object_object_get_ex(o, key, &v)) {
		if (required)
			return aieth__fail(AIETH_EINVAL, BODY ": \"%s\" is missing", key);
		return AIETH_OK;
	}
	if (!json_object_is_type(v, json_type_int))
		return aieth__fail(AIETH_EINVAL, BODY " %s: an integer is needed", key);
	x = json_object_get_int64(v);
	if (x < min || x > max || (json_object_get_uint64(v) > (uint64_t)INT64_MAX && x >= 0))
		return aieth__fail(AIETH_EINVAL, BODY " %s: %s is outside %lld..%lld", key,
				   json_object_to_json_string(v), (long long)min, (long long)max);
	*out = x;
	return AIETH_OK;
}

int aieth__srv_run_req_parse(const char *body, size_t len, int64_t *iterations)
{
	static const char *const keys[] = {"iterations", NULL};
	struct json_object *o = NULL;
	int64_t it = 0;
	int rc;
	if ((rc = body_object(body, len, 0, &o)))
		return rc;
	if (!(rc = aieth__jstrict_keys(BODY, "", o, keys)) &&
	    !(rc = get_i64(o, "iterations", 1, -1, INT32_MAX, &it))) {
		if (it == 0)
			rc = aieth__fail(AIETH_EINVAL,
					 BODY " iterations: 0 (allowed: -1 for until "
					      "ended, or 1..%d)",
					 INT32_MAX);
		else
			*iterations = it;
	}
	json_object_put(o);
	return rc;
}

int aieth__srv_wait_req_parse(const char *body, size_t len, uint32_t *timeout_ms)
{
	static const char *const keys[] = {"timeout_ms", NULL};
	struct json_object *o = NULL;
	int64_t t = 0;
	int rc;
	if ((rc = body_object(body, len, 1, &o)))
		return rc;
	if (o && !(rc = aieth__jstrict_keys(BODY, "", o, keys)))
		rc = get_i64(o, "timeout_ms", 0, 0, SRV_WAIT_MS_MAX, &t);
	if (!rc)
		*timeout_ms = (uint32_t)t;
	json_object_put(o);
	return rc;
}

int aieth__srv_validate_req_parse(const char *body, size_t len, unsigned *level, unsigned *soak_s,
				  unsigned *channels)
{
	static const char *const keys[] = {"level", "soak_s", "channels", NULL};
	struct json_object *o = NULL;
	int64_t lv = 1, sk = 0, ch = 0;
	int rc;
	if ((rc = body_object(body, len, 1, &o)))
		return rc;
	if (o && !(rc = aieth__jstrict_keys(BODY, "", o, keys)) &&
	    !(rc = get_i64(o, "level", 0, 1, 3, &lv)) &&
	    !(rc = get_i64(o, "soak_s", 0, 1, SRV_VALIDATE_SOAK_MAX, &sk)))
		rc = get_i64(o, "channels", 0, 1, SRV_VALIDATE_CHANNELS_MAX, &ch);
	if (!rc) {
		*level = (unsigned)lv;
		*soak_s = (unsigned)sk;
		*channels = (unsigned)ch;
	}
	json_object_put(o);
	return rc;
}

int aieth__srv_txn_req_parse(const char *body, size_t len, srv_txn_req *out)
{
	static const char *const keys[] = {"channels", "depth",  "cfg", "tx_bytes",
					   "rx_bytes", "stream", NULL};
	struct json_object *o = NULL, *cfg = NULL, *st = NULL;
	size_t i, n, want;
	int rc;

	memset(out, 0, sizeof *out);
	if ((rc = body_object(body, len, 0, &o)))
		return rc;
	if ((rc = aieth__jstrict_keys(BODY, "", o, keys)) ||
	    (rc = aieth__jstrict_get_u32(BODY, "", o, "channels", 1, 1, SRV_CHANNELS_MAX,
					 &out->channels)) ||
	    (rc = aieth__jstrict_get_u32(BODY, "", o, "depth", 1, 1, SRV_DEPTH_MAX, &out->depth)) ||
	    (rc = aieth__jstrict_get_u64(BODY, "", o, "tx_bytes", 1, 0, SRV_IMAGE_MAX,
					 &out->tx_bytes)) ||
	    (rc = aieth__jstrict_get_u64(BODY, "", o, "rx_bytes", 1, 0, SRV_IMAGE_MAX,
					 &out->rx_bytes)))
		goto out;
	if (json_object_object_get_ex(o, "stream", &st)) {
		if (!json_object_is_type(st, json_type_boolean)) {
			rc = aieth__fail(AIETH_EINVAL, BODY " stream: true or false is needed");
			goto out;
		}
		out->stream = json_object_get_boolean(st);
	}
	if (out->tx_bytes % 16 || out->rx_bytes % 16) {
		rc = aieth__fail(AIETH_EINVAL,
				 BODY ": tx_bytes %llu and rx_bytes %llu must be "
				      "multiples of 16",
				 (unsigned long long)out->tx_bytes,
				 (unsigned long long)out->rx_bytes);
		goto out;
	}
	if (!json_object_object_get_ex(o, "cfg", &cfg) ||
	    !json_object_is_type(cfg, json_type_array)) {
		rc = aieth__fail(AIETH_EINVAL, BODY " cfg: an array of hex strings is needed");
		goto out;
	}
	n = json_object_array_length(cfg);
	want = 8u * (size_t)out->channels + 1u;
	if (n != want) {
		rc = aieth__fail(AIETH_EINVAL, BODY " cfg: %zu words, %u channels need %zu", n,
				 out->channels, want);
		goto out;
	}
	out->cfg = calloc(n, sizeof *out->cfg);
	if (!out->cfg) {
		rc = aieth__fail(AIETH_ENOMEM, BODY " cfg: out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct json_object *w = json_object_array_get_idx(cfg, i);
		const char *t =
			json_object_is_type(w, json_type_string) ? json_object_get_string(w) : NULL;
		size_t k, tl = t ? strlen(t) : 0;
		uint64_t v = 0;
		if (!t || tl < 3 || tl > 18 || t[0] != '0' || t[1] != 'x') {
			rc = aieth__fail(AIETH_EINVAL,
					 BODY " cfg[%zu]: a string \"0x\" and 1..16 hex "
					      "digits is needed",
					 i);
			goto out;
		}
		for (k = 2; k < tl; k++) {
			char ch = t[k];
			unsigned d;
			if (ch >= '0' && ch <= '9')
				d = (unsigned)(ch - '0');
			else if (ch >= 'a' && ch <= 'f')
				d = (unsigned)(ch - 'a' + 10);
			else if (ch >= 'A' && ch <= 'F')
				d = (unsigned)(ch - 'A' + 10);
			else {
				rc = aieth__fail(AIETH_EINVAL,
						 BODY " cfg[%zu]: not a hex digit at %zu", i,
						 k + 1);
				goto out;
			}
			v = v << 4 | d;
		}
		out->cfg[i] = v;
	}
out:
	if (rc) {
		free(out->cfg);
		out->cfg = NULL;
	}
	json_object_put(o);
	return rc;
}

static int check_chan(const char *dir, uint32_t c, const pld_chan_cfg *cf, int perf, uint32_t depth,
		      uint64_t image_bytes)
{
	uint64_t words = perf && cf->frames > depth ? depth : cf->frames;
	if (!words)
		return AIETH_OK;
	if ((uint64_t)cf->offset + words > image_bytes / PLD_WORD_BYTES)
		return aieth__fail(AIETH_EINVAL,
				   BODY " cfg: %s channel %u reads or writes memory words "
					"%llu..%llu, the %s image holds %llu words",
				   dir, c, (unsigned long long)cf->offset,
				   (unsigned long long)cf->offset + words - 1, dir,
				   (unsigned long long)(image_bytes / PLD_WORD_BYTES));
	return AIETH_OK;
}

int aieth__srv_txn_check(const srv_txn_req *q)
{
	pld_chan_cfg *tx, *rx;
	uint64_t mode = 0;
	uint32_t i;
	int rc = AIETH_OK;

	tx = calloc(q->channels, sizeof *tx);
	rx = calloc(q->channels, sizeof *rx);
	if (!tx || !rx) {
		free(tx);
		free(rx);
		return aieth__fail(AIETH_ENOMEM, BODY " cfg: out of memory");
	}
	aieth__pld_cfg_decode(q->channels, q->cfg, &mode, tx, rx);
	if (mode != PLD_MODE_FUNC && mode != PLD_MODE_PERF)
		rc = aieth__fail(AIETH_EINVAL, BODY " cfg: mode %llu (FUNC is %u, PERF %u)",
				 (unsigned long long)mode, PLD_MODE_FUNC, PLD_MODE_PERF);
	for (i = 0; !rc && i < q->channels; i++) {
		int perf = mode == PLD_MODE_PERF;
		if ((rc = check_chan("TX", i, &tx[i], perf, q->depth, q->tx_bytes)))
			break;
		rc = check_chan("RX", i, &rx[i], perf, q->depth, q->rx_bytes);
	}
	free(tx);
	free(rx);
	return rc;
}

int aieth__srv_listen_parse(const char *text, void *addr, size_t cap, size_t *addrlen,
			    int *loopback)
{
	char host[64], q[80];
	const char *colon, *hs, *he;
	unsigned long port = 0;
	size_t i, n;

	if (!text || !*text)
		return aieth__fail(AIETH_EINVAL, "listen address: empty (ADDR:PORT, e.g. "
						 "127.0.0.1:8443)");
	aieth__quote_str(q, sizeof q, text);
	colon = strrchr(text, ':');
	if (!colon || !colon[1])
		return aieth__fail(AIETH_EINVAL, "listen address \"%s\": no port (ADDR:PORT)", q);
	n = strlen(colon + 1);
	if (n > 5)
		return aieth__fail(AIETH_EINVAL, "listen address \"%s\": the port is not 0..65535",
				   q);
	for (i = 0; i < n; i++) {
		if (colon[1 + i] < '0' || colon[1 + i] > '9')
			return aieth__fail(AIETH_EINVAL,
					   "listen address \"%s\": the port is not a "
					   "number",
					   q);
		port = port * 10 + (unsigned long)(colon[1 + i] - '0');
	}
	if (port > 65535)
		return aieth__fail(AIETH_EINVAL, "listen address \"%s\": port %lu is above 65535",
				   q, port);
	hs = text;
	he = colon;
	if (*hs == '[') {
		if (he - hs < 2 || he[-1] != ']')
			return aieth__fail(AIETH_EINVAL,
					   "listen address \"%s\": an IPv6 address is "
					   "written [ADDR]:PORT",
					   q);
		hs++;
		he--;
	}
	if ((size_t)(he - hs) >= sizeof host || he == hs)
		return aieth__fail(AIETH_EINVAL, "listen address \"%s\": no valid address", q);
	memcpy(host, hs, (size_t)(he - hs));
	host[he - hs] = '\0';
	if (hs == text) {
		struct sockaddr_in a;
		memset(&a, 0, sizeof a);
		a.sin_family = AF_INET;
		a.sin_port = htons((uint16_t)port);
		if (inet_pton(AF_INET, host, &a.sin_addr) != 1)
			return aieth__fail(
				AIETH_EINVAL,
				"listen address \"%s\": \"%s\" is not an "
				"IPv4 address (names are not resolved; IPv6 is [ADDR]:PORT)",
				q, host);
		if (cap < sizeof a)
			return aieth__fail(AIETH_EINVAL, "listen address: buffer too small");
		*loopback = (ntohl(a.sin_addr.s_addr) >> 24) == 127;
		memcpy(addr, &a, sizeof a);
		*addrlen = sizeof a;
	} else {
		struct sockaddr_in6 a;
		memset(&a, 0, sizeof a);
		a.sin6_family = AF_INET6;
		a.sin6_port = htons((uint16_t)port);
		if (inet_pton(AF_INET6, host, &a.sin6_addr) != 1)
			return aieth__fail(AIETH_EINVAL,
					   "listen address \"%s\": \"%s\" is not an "
					   "IPv6 address",
					   q, host);
		if (cap < sizeof a)
			return aieth__fail(AIETH_EINVAL, "listen address: buffer too small");
		*loopback = IN6_IS_ADDR_LOOPBACK(&a.sin6_addr);
		memcpy(addr, &a, sizeof a);
		*addrlen = sizeof a;
	}
	return AIETH_OK;
}
