/* SPDX-License-Identifier: MIT */
/*
 * http_validate.c - POST /v1/validate: run_test validate's board health
 * suite on this server's board (docs/http-api.md). The suite is a client
 * of this server (backend remote at self_url, with the caller's token), so
 * it waits in the queue and holds the device exactly as a session does,
 * and the device code stays the sessions' own. Over TLS it trusts its own
 * listener by the pin of the key this server loaded (aieth_remote_opts.
 * pinned_key). The
 * last result goes to GET /v1/health and the metrics.
 */
#ifdef AIETH_HAVE_MHD

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <microhttpd.h>

#include "th_server/http/http_internal.h"
#include "th_server/srv_core.h"
#include "util/fileio.h"
#include "util/path.h"

/* The caller's own token (NUL-terminated copy), or "" without one. */
static void caller_token(struct MHD_Connection *c, char *dst, size_t cap)
{
	const char *auth =
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	const char *tok;
	size_t n;
	dst[0] = '\0';
	if (auth && !aieth__srv_bearer(auth, &tok, &n) && n < cap) {
		memcpy(dst, tok, n);
		dst[n] = '\0';
	}
}

static unsigned sum_of(struct json_object *j, const char *key)
{
	struct json_object *sm, *v;
	if (!json_object_object_get_ex(j, "summary", &sm) ||
	    !json_object_object_get_ex(sm, key, &v))
		return 0;
	return (unsigned)json_object_get_int(v);
}

/* The last result, for GET /v1/health and the metrics. */
static void record(aieth__server *s, struct json_object *j, const aieth_report *rep, unsigned level,
		   int code)
{
	aieth__srv_stats_validate(s, code, level, sum_of(j, "passed"),
				  sum_of(j, "failed") + sum_of(j, "errors") + sum_of(j, "timeouts"),
				  sum_of(j, "skipped"), (unsigned)aieth_report_num_warnings(rep));
}

enum MHD_Result aieth__http_validate(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	aieth_validate_opts o = AIETH_VALIDATE_OPTS_INIT;
	aieth_remote_opts ro = AIETH_REMOTE_OPTS_INIT;
	aieth_report *rep = NULL;
	unsigned level, soak, channels;
	char token[300], dir[] = "/tmp/th_validate.XXXXXX", path[64];
	char *text = NULL;
	size_t len = 0;
	struct json_object *j, *out;
	enum MHD_Result ret;
	int code;

	if (aieth__srv_validate_req_parse(r->body, r->len, &level, &soak, &channels))
		return aieth__http_reply_err(c, r, 400, NULL, "POST /v1/validate: %s",
					     aieth_error_message());
	if (!mkdtemp(dir))
		return aieth__http_reply_err(c, r, 500, NULL,
					     "POST /v1/validate: no scratch folder");
	caller_token(c, token, sizeof token);
	ro.server = s->self_url;
	if (s->self_pin[0])
		ro.pinned_key = s->self_pin;
	ro.token = token[0] ? token : NULL;
	o.board = s->board;
	o.data_dir = s->data_dir;
	o.backend = "remote";
	o.remote = &ro;
	o.level = level;
	o.soak_s = soak ? soak : 60;
	o.channels = channels;
	o.out_dir = dir;
	o.interrupt = &s->stop;
	aieth__srv_log(s, "validate: level %u for %s", level, r->who[0] ? r->who : r->client);
	if (aieth_report_new(&rep, "th_server validate", 0, NULL) != AIETH_OK ||
	    aieth_report_validate(rep, &o) != AIETH_OK || aieth_report_finish(rep) != AIETH_OK) {
		ret = aieth__http_reply_err(c, r, 500, NULL, "POST /v1/validate: %s",
					    aieth_error_message());
		aieth_report_free(rep);
		aieth__remove_tree(dir);
		return ret;
	}
	code = aieth_validate_exit_code(rep);
	snprintf(path, sizeof path, "%s/report.json", dir);
	if (aieth_report_write_json(rep, path) != AIETH_OK ||
	    aieth__read_file(path, (size_t)64 << 20, &text, &len) != AIETH_OK ||
	    !(j = json_tokener_parse(text))) {
		ret = aieth__http_reply_err(c, r, 500, NULL, "POST /v1/validate: the report: %s",
					    aieth_error_message());
	} else {
		record(s, j, rep, level, code);
		out = json_object_new_object();
		json_object_object_add(out, "exit_code", json_object_new_int(code));
		json_object_object_add(out, "level", json_object_new_int((int)level));
		json_object_object_add(out, "report", j);
		ret = aieth__http_reply_json(c, r, 200, out);
	}
	aieth__srv_log(s, "validate: level %u: exit %d", level, code);
	free(text);
	aieth_report_free(rep);
	aieth__remove_tree(dir);
	return ret;
}

#endif /* AIETH_HAVE_MHD */
