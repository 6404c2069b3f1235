/* SPDX-License-Identifier: MIT */
/*
 * remote_session.c - the remote backend's session: opened on th_server
 * (the design and xrt.ini sent, the queue waited out), closed with its
 * artifacts fetched, and a hang's aie_state.json fetched at once.
 */
#ifdef AIETH_HAVE_CURL

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "backends/remote/remote_design.h"
#include "backends/remote/remote_internal.h"
#include "backends/remote/remote_reply.h"
#include "backends/remote/remote_traces.h"
#include "util/ca_bundle.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/path.h"

#define QUEUE_S 600                             /* default client bound on the queue wait */
#define AIE_STATE_FETCH_MAX ((uint64_t)8 << 20) /* runner/run_aie.c reads at most this */

static const char *jstr(struct json_object *o, const char *k)
{
	struct json_object *v;
	return o && json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : "";
}

/* The state's own strings and itself (its curl handles are the caller's). */
static void state_free(rm_state *st)
{
	free(st->cacert);
	free(st->pin);
	free(st->artifacts_dir);
	free(st);
}

/* The connection as remote_design.c uses it. */
static rmd_conn design_conn(rm_state *st)
{
	rmd_conn c;
	memset(&c, 0, sizeof c);
	c.h = st->h;
	c.base = st->base;
	c.auth = st->auth;
	c.trust = st->trust;
	c.xfer.interrupt = st->cfg->opts.interrupt;
	c.xfer.progress = st->cfg->opts.progress;
	c.xfer.progress_ctx = st->cfg->opts.progress_ctx;
	c.xfer.stall_s = st->xfer.stall_s;
	return c;
}

/* A hang's aie_state.json (the server's board wrote it before its reset,
 * backends/emu.c, backends/xrt/xrt_backend.c), fetched at once: run_test
 * reads it right after the wait, as a local board's (runner/run_aie.c).
 * Best effort: a failure reaches the artifact error hook, the hang stays
 * the result. */
void aieth__rm_fetch_aie_state(rm_state *st)
{
	const aieth_session_opts *o = &st->cfg->opts;
	rmd_conn c;
	int found;
	if (!st->artifacts_dir)
		return;
	c = design_conn(st);
	if (aieth__rmd_artifact_fetch(&c, st->sid, st->artifacts_dir, "aie_state.json",
				      AIE_STATE_FETCH_MAX, &found, o->artifact, o->artifact_ctx) &&
	    o->artifact_error)
		o->artifact_error(o->artifact_ctx, aieth_error_message());
}

void aieth__rm_close(void *state)
{
	rm_state *st = state;
	char path[128];
	long status;
	if (!st)
		return;
	if (st->sid[0]) {
		snprintf(path, sizeof path, "/v1/sessions/%s", st->sid);
		aieth__rm_req(st, "DELETE", path, NULL, NULL, CALL_S, &status, NULL);
		/* the session's files, final once it ended (best effort: a close
		 * cannot fail; what landed is what the artifact hook heard of) */
		if (st->artifacts_dir) {
			const aieth_session_opts *o = &st->cfg->opts;
			rmd_conn c = design_conn(st);
			uint64_t max = st->artifacts_max ? st->artifacts_max
							 : AIETH_ARTIFACTS_BYTES_DEFAULT;
			if (aieth__rmd_artifacts_fetch(&c, st->sid, st->artifacts_dir, max,
						       o->artifact, o->artifact_ctx) &&
			    o->artifact_error)
				o->artifact_error(o->artifact_ctx, aieth_error_message());
		}
	}
	aieth__rms_fini(&st->sens);
	if (st->multi)
		curl_multi_cleanup(st->multi);
	if (st->h_up)
		curl_easy_cleanup(st->h_up);
	if (st->h_rx)
		curl_easy_cleanup(st->h_rx);
	curl_easy_cleanup(st->h);
	state_free(st);
}

#define XRT_INI_MAX ((size_t)1 << 20) /* th_server's limit */

/* What goes with a new session: the design xclbin (sent only when the
 * server lacks it: xsha its sha256) and the xrt.ini text (*ini, owned). */
static int design_for_session(rm_state *st, char **ini, size_t *ini_len, char xsha[65])
{
	const aieth_dev_config *cfg = st->cfg;
	int rc, uploaded = 0;
	const char *xrt_ini = cfg->opts.remote ? cfg->opts.remote->xrt_ini : NULL;
	if (xrt_ini) {
		if ((rc = aieth__read_file(xrt_ini, XRT_INI_MAX, ini, ini_len)))
			return rc;
		if (memchr(*ini, '\0', *ini_len)) {
			free(*ini);
			*ini = NULL;
			return aieth__fail(AIETH_EINVAL,
					   "xrt.ini %s: has a NUL byte (a text file is "
					   "needed)",
					   xrt_ini);
		}
	}
	if (cfg->xclbin) {
		rmd_conn c = design_conn(st);
		if ((rc = aieth__rmd_xclbin_ensure(&c, cfg->xclbin, xsha, &uploaded))) {
			free(*ini);
			*ini = NULL;
			return rc;
		}
		(void)uploaded;
	}
	return AIETH_OK;
}

int aieth__rm_open(const aieth_dev_config *cfg, void **state)
{
	static const aieth_remote_opts none = AIETH_REMOTE_OPTS_INIT;
	const aieth_remote_opts *ro =
		cfg->opts.remote ? cfg->opts.remote : &none; /* rm_check passed */
	rm_state *st;
	struct json_object *req, *graphs, *o = NULL;
	const char *text;
	char path[128], xsha[65] = "", *ini = NULL;
	size_t ini_len = 0;
	size_t i, n;
	const char *sstate = "", *reason = "", *ca;
	uint32_t pos = 0, npos = 0, qmax;
	double t0;
	int rc;

	*state = NULL;
	/* --cacert, else AIETH_CACERT, CURL_CA_BUNDLE, SSL_CERT_FILE */
	if ((rc = aieth__ca_bundle(ro->cacert, "--cacert", ro->server, &ca)))
		return rc;
	/* rm_check passed: the URL fits base */
	n = strlen(ro->server);
	while (n && ro->server[n - 1] == '/')
		n--;
	st = calloc(1, sizeof *st);
	if (!st)
		return aieth__fail(AIETH_ENOMEM, "backend remote: out of memory");
	st->cfg = cfg;
	aieth__rms_init(&st->sens);
	st->artifacts_max = ro->artifacts_max_bytes;
	st->concurrent_io = ro->version >= 2 && ro->concurrent_io;
	st->xfer.interrupt = cfg->opts.interrupt;
	if ((ca && !(st->cacert = aieth__strdup(ca))) ||
	    (ro->version >= 3 && ro->pinned_key && !(st->pin = aieth__strdup(ro->pinned_key))) ||
	    (ro->artifacts_dir && !(st->artifacts_dir = aieth__strdup(ro->artifacts_dir)))) {
		state_free(st);
		return aieth__fail(AIETH_ENOMEM, "backend remote: out of memory");
	}
	st->trust.cacert = st->cacert;
	st->trust.pin = st->pin;
	/* AIETH_REMOTE_STREAM=0: the serial way (docs/server.md; make bench
	 * prints both) */
	{
		const char *sv = getenv("AIETH_REMOTE_STREAM");
		if (sv && *sv && strcmp(sv, "0") && strcmp(sv, "1")) {
			state_free(st);
			return aieth__fail(AIETH_EINVAL,
					   "backend remote: AIETH_REMOTE_STREAM=%.20s: 0 or 1 is "
					   "needed",
					   sv);
		}
		st->serial = sv && !strcmp(sv, "0");
	}
	if ((rc = aieth__rmh_stall_from_env(&st->xfer.stall_s))) {
		state_free(st);
		return rc;
	}
	memcpy(st->base, ro->server, n);
	st->base[n] = '\0';
	if (ro->token && *ro->token)
		snprintf(st->auth, sizeof st->auth, "Authorization: Bearer %s", ro->token);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) || !(st->h = curl_easy_init())) {
		state_free(st);
		return aieth__fail(AIETH_EDEVICE, "backend remote: libcurl could not start");
	}
	/* who serves: its name, version and device (for the report) */
	if ((rc = aieth__rm_json(st, "GET", "/v1/health", NULL, 200, CALL_S, &o)) ||
	    (rc = aieth__rmr_health(st->base, o)))
		goto fail;
	if (cfg->server_info && cfg->server_info_size)
		snprintf(cfg->server_info, cfg->server_info_size, "%s %s, backend %s",
			 jstr(o, "server"), jstr(o, "version"), jstr(o, "backend"));
	json_object_put(o);
	o = NULL;
	if ((rc = design_for_session(st, &ini, &ini_len, xsha)))
		goto fail;
	req = json_object_new_object();
	if (xsha[0])
		json_object_object_add(req, "xclbin_sha256", json_object_new_string(xsha));
	if (ini) {
		json_object_object_add(req, "xrt_ini",
				       json_object_new_string_len(ini, (int)ini_len));
		free(ini);
		ini = NULL;
	}
	graphs = json_object_new_array();
	json_object_object_add(req, "board", json_object_new_string(cfg->info->name));
	for (i = 0; i < cfg->ngraphs; i++) {
		struct json_object *g = json_object_new_object();
		json_object_object_add(g, "name", json_object_new_string(cfg->graphs[i].name));
		if (cfg->graphs[i].model)
			json_object_object_add(g, "model",
					       json_object_new_string(cfg->graphs[i].model));
		if (cfg->graphs[i].params) {
			struct json_object *p = json_tokener_parse(cfg->graphs[i].params);
			if (p)
				json_object_object_add(g, "params", p);
		}
		json_object_array_add(graphs, g);
	}
	json_object_object_add(req, "graphs", graphs);
	/* aiesim traces go with the session: the server reads no client path */
	if ((rc = aieth__rmt_traces_add(cfg, req))) {
		json_object_put(req);
		goto fail;
	}
	text = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
	rc = aieth__rm_json(st, "POST", "/v1/sessions", text, 201, CALL_S, &o);
	json_object_put(req);
	if (rc)
		goto fail;
	/* an id that does not fit is refused, never cut short to another id */
	if (strlen(jstr(o, "id")) >= sizeof st->sid ||
	    snprintf(st->sid, sizeof st->sid, "%s", jstr(o, "id")) < 1 ||
	    strspn(st->sid, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(st->sid)) {
		st->sid[0] = '\0';
		rc = aieth__fail(AIETH_EDEVICE,
				 "server %s: the session reply has no valid id (1..%zu bytes of "
				 "a-z, 0-9 and '-')",
				 st->base, sizeof st->sid - 1);
		goto fail;
	}
	if ((rc = aieth__rmr_session_state(st->base, o, &sstate, &pos, &reason)))
		goto fail;
	/* queued: poll (each poll keeps the session alive) until the device is
	 * ours; the server's --max-wait ends the wait, the client's own bound
	 * (a server that says "queued" for ever), or an interrupt */
	snprintf(path, sizeof path, "/v1/sessions/%s", st->sid);
	qmax = ro->queue_timeout_s ? ro->queue_timeout_s : QUEUE_S;
	t0 = aieth__rm_mono_s();
	while (!strcmp(sstate, "queued")) {
		struct timespec ts = {0, 250 * 1000000L};
		double waited = aieth__rm_mono_s() - t0;
		if (cfg->opts.queued)
			cfg->opts.queued(cfg->opts.progress_ctx, pos, (uint32_t)waited);
		if (cfg->opts.interrupt && *cfg->opts.interrupt) {
			rc = aieth__fail(AIETH_EDEVICE,
					 "server %s: interrupted while queued at "
					 "position %u",
					 st->base, pos);
			goto fail;
		}
		if (waited >= (double)qmax) {
			rc = aieth__fail(
				AIETH_EDEVICE,
				"server %s: still queued at position %u after "
				"%u s, the client's queue timeout (run_test --queue-timeout)",
				st->base, pos, qmax);
			goto fail;
		}
		nanosleep(&ts, NULL);
		json_object_put(o);
		if ((rc = aieth__rm_json(st, "GET", path, NULL, 200, CALL_S, &o)) ||
		    (rc = aieth__rmr_session_state(st->base, o, &sstate, &npos, &reason)))
			goto fail;
		if (!strcmp(sstate, "expired")) {
			rc = aieth__fail(AIETH_EDEVICE,
					 "server %s: queue timeout at position %u: %s", st->base,
					 pos, reason);
			goto fail;
		}
		pos = npos;
	}
	if (strcmp(sstate, "active")) {
		rc = aieth__fail(AIETH_EDEVICE, "server %s: session %s is %s: %s", st->base,
				 st->sid, sstate, reason);
		goto fail;
	}
	json_object_put(o);
	*state = st;
	return AIETH_OK;
fail:
	json_object_put(o);
	{
		/* keep the message: the close's own requests may set another */
		char msg[1024];
		snprintf(msg, sizeof msg, "%s", aieth_error_message());
		aieth__rm_close(st);
		return aieth__fail(rc, "%s", msg);
	}
}

#endif /* AIETH_HAVE_CURL */
