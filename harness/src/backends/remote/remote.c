/* SPDX-License-Identifier: MIT */
/*
 * remote.c - the remote backend: a device behind th_server, over its HTTP
 * API (docs/http-api.md) with libcurl. The encoded transaction crosses the
 * network as it is: cfg words as JSON, the TX image streamed up from the
 * transaction's own segments (files, patterns: never a second full copy),
 * the RX image streamed down into its destinations, perf words and the
 * per-channel progress as JSON.
 *
 * Errors: an unreachable server, a refused token or a session that expired
 * in the queue are AIETH_EDEVICE (run_test exit 3, the queue position in
 * the message); a transaction that times out on the server is a
 * AIETH_TXN_TIMEOUT result (exit 5), as locally.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "util/ca_bundle.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/path.h"

/* An http(s) URL's authority (up to the first / ? #) holds an '@'. */
static int has_userinfo(const char *url)
{
	const char *a = strstr(url, "://");
	a = a ? a + 3 : url;
	return memchr(a, '@', strcspn(a, "/?#")) != NULL;
}

#define BASE_MAX 512 /* rm_state.base */

/* Version 1 ends before concurrent_io: a caller of version 1 gets the
 * bytes of its struct only. */
int aieth_remote_opts_init(aieth_remote_opts *opts, unsigned int version)
{
	static const aieth_remote_opts init = AIETH_REMOTE_OPTS_INIT;
	size_t size = version == 1 ? offsetof(aieth_remote_opts, concurrent_io) : sizeof init;
	int rc = aieth__opts_init("aieth_remote_opts_init", opts, &init, size, version,
				  AIETH_REMOTE_OPTS_VERSION);
	if (!rc)
		opts->version = version;
	return rc;
}

/* The remote backend's options (aieth_remote_opts), checked before the
 * session opens; not selected, it refuses what only it would read. */
static int rm_check(const aieth_dev_config *cfg, int selected)
{
	static const aieth_remote_opts none = AIETH_REMOTE_OPTS_INIT;
	const aieth_remote_opts *ro = cfg->opts.remote ? cfg->opts.remote : &none;
	size_t n;
	int rc;
	if ((rc = aieth__opts_version("aieth_session_opts.remote", "aieth_remote_opts", ro->version,
				      AIETH_REMOTE_OPTS_VERSION)))
		return rc;
	/* an xrt.ini given for another backend: the xrt backend reads its own
	 * (aieth_xrt_opts), the emulated board refuses both (emu.c) */
	if (!selected)
		return AIETH_OK;
	if (cfg->opts.xrt && cfg->opts.xrt->xrt_ini && !ro->xrt_ini)
		return aieth__fail(
			AIETH_EINVAL,
			"backend remote: xrt_ini %s is given for the xrt "
			"backend (aieth_xrt_opts): give it as aieth_remote_opts.xrt_ini to "
			"send it to th_server",
			cfg->opts.xrt->xrt_ini);
	/* refused, not ignored: the report would claim a mode nobody ran */
	if (cfg->opts.emu && cfg->opts.emu->reference)
		return aieth__fail(AIETH_EINVAL,
				   "backend remote: --reference is the emulated "
				   "board's beat-by-beat mode, a local emulator mode; the server "
				   "runs its device its own way (run without --reference, or "
				   "locally with --backend emu)");
	if (!ro->server || !*ro->server)
		return aieth__fail(AIETH_EINVAL,
				   "backend remote: no server given (run_test --server "
				   "URL, or AIETH_SERVER)");
	if (has_userinfo(ro->server))
		return aieth__fail(
			AIETH_EINVAL,
			"backend remote: the server URL has a user name or "
			"password (user:password@, not repeated here): refused, it would "
			"land in reports and logs; th_server takes a bearer token "
			"(run_test --token-file FILE, or AIETH_TOKEN)");
	n = strlen(ro->server);
	while (n && ro->server[n - 1] == '/')
		n--;
	if (n >= BASE_MAX ||
	    (strncmp(ro->server, "http://", 7) && strncmp(ro->server, "https://", 8)))
		return aieth__fail(AIETH_EINVAL,
				   "backend remote: server \"%.80s\": an http:// or "
				   "https:// URL of at most %d bytes is needed",
				   ro->server, BASE_MAX - 1);
	if (ro->token && (strlen(ro->token) > 256 || strpbrk(ro->token, "\r\n")))
		return aieth__fail(AIETH_EINVAL,
				   "backend remote: the token is longer than 256 bytes "
				   "or has a line break");
	if (ro->version >= 2 && ro->concurrent_io != 0 && ro->concurrent_io != 1)
		return aieth__fail(
			AIETH_EINVAL,
			"backend remote: aieth_remote_opts.concurrent_io is %d: 0 or 1 is "
			"needed",
			ro->concurrent_io);
	if (cfg->opts.xrt && cfg->opts.xrt->pl_xclbin)
		return aieth__fail(AIETH_EINVAL,
				   "backend remote: pl_xclbin %s: the PL DMA kernel is "
				   "the server's setting (th_server's board); leave pl_xclbin out",
				   cfg->opts.xrt->pl_xclbin);
	return AIETH_OK;
}

#ifdef AIETH_HAVE_CURL

#include <curl/curl.h>
#include <json-c/json.h>
#include <pthread.h>

#include "backends/remote/remote_design.h"
#include "backends/remote/remote_http.h"
#include "backends/remote/remote_reply.h"
#include "backends/remote/remote_sensors.h"
#include "backends/remote/remote_traces.h"
#include "util/fileio.h"
#include "util/json_strict.h"

#define CALL_S RMH_CALL_S
#define TXNS_MAX 16
#define RETRIES 3
#define RX_RESUMES 5                            /* a broken RX download resumed with Range */
#define QUEUE_S 600                             /* default client bound on the queue wait */
#define WAIT_MAX_MS 600000u                     /* the server's limit on one wait */
#define AIE_STATE_FETCH_MAX ((uint64_t)8 << 20) /* runner/run_aie.c reads at most this */

typedef struct {
	const aieth_dev_config *cfg;  /* cfg->opts.remote: during open only */
	char *cacert, *artifacts_dir; /* aieth_remote_opts': copies (NULL: not given) */
	uint64_t artifacts_max;       /* aieth_remote_opts.artifacts_max_bytes */
	CURL *h;
	rmh_xfer xfer;      /* the interrupt flag, the stall limit; no progress */
	int device_wait;    /* the request waits on the device: no stall limit */
	rmh_xfer xfer_wait; /* xfer as such a request uses it */
	char base[BASE_MAX];
	char auth[320];
	char sid[64];
	char tids[TXNS_MAX][24]; /* started, not yet waited for: FIFO */
	size_t nt, head;
	pld_txn *wires[TXNS_MAX];
	int streamed[TXNS_MAX]; /* the server streams it: uploaded in the wait */
	int serial;             /* AIETH_REMOTE_STREAM=0: never asks for it */
	int concurrent_io;      /* aieth_remote_opts.concurrent_io: the upload on
				   a thread of its own (rm_txn_stream) */
	/* a streamed transaction's upload and download beside the wait, on
	 * connections of their own (made at the first one) */
	CURLM *multi;
	CURL *h_up, *h_rx;
	rms_conn sens; /* GET /v1/sensors from any thread (remote_sensors.h) */
} rm_state;

/* A request's common setup on the backend's handle (remote_http.h). */
static struct curl_slist *rm_setup(rm_state *st, const char *url, const char *content_type,
				   long timeout_s)
{
	rmh_xfer *x = &st->xfer;
	if (st->device_wait) {
		/* silent until the device is done: timeout_s bounds it (the
		 * transfer keeps the pointer: the state's copy) */
		st->xfer_wait = st->xfer;
		st->xfer_wait.stall_s = -1;
		x = &st->xfer_wait;
	}
	return rmh_setup(st->h, url, st->auth, st->cacert, content_type, timeout_s, x);
}

typedef struct {
	pld_image *img;
	uint64_t off;                  /* bytes passed to or from the image */
	uint8_t carry[PLD_WORD_BYTES]; /* RX: a partial word, written once whole */
	size_t ncarry;
} img_io;

static size_t img_read(char *buf, size_t size, size_t nmemb, void *ctx)
{
	img_io *io = ctx;
	size_t n = size * nmemb;
	if (io->off >= io->img->size)
		return 0;
	if ((uint64_t)n > io->img->size - io->off)
		n = (size_t)(io->img->size - io->off);
	pld_image_read(io->img, io->off, buf, n);
	io->off += n;
	return n;
}

/* RX: the image takes whole 16-byte words (as the device writes them, so
 * the sinks behind it see whole elements); a partial word waits in carry. */
static size_t img_write(char *data, size_t size, size_t nmemb, void *ctx)
{
	img_io *io = ctx;
	size_t n = size * nmemb, left = n, whole;
	if ((uint64_t)n > io->img->size - io->off - io->ncarry)
		return 0; /* more than the image: the transfer fails */
	if (io->ncarry) {
		size_t k = PLD_WORD_BYTES - io->ncarry;
		if (k > left)
			k = left;
		memcpy(io->carry + io->ncarry, data, k);
		io->ncarry += k;
		data += k;
		left -= k;
		if (io->ncarry < PLD_WORD_BYTES)
			return n;
		pld_image_write(io->img, io->off, io->carry, PLD_WORD_BYTES);
		io->off += PLD_WORD_BYTES;
		io->ncarry = 0;
	}
	whole = left - left % PLD_WORD_BYTES;
	if (whole) {
		pld_image_write(io->img, io->off, data, whole);
		io->off += whole;
	}
	memcpy(io->carry, data + whole, left - whole);
	io->ncarry = left - whole;
	return n;
}

/* The RX download's body: into the image when the status is the one
 * expected, else (an error reply) into a small buffer. */
typedef struct {
	CURL *h;
	img_io *io;
	sbuf *err;
	long want;
} rx_sink;

static size_t rx_write(char *data, size_t size, size_t nmemb, void *ctx)
{
	rx_sink *k = ctx;
	long status = 0;
	curl_easy_getinfo(k->h, CURLINFO_RESPONSE_CODE, &status);
	if (status == k->want)
		return img_write(data, size, nmemb, k->io);
	return rmh_buf_write(data, size, nmemb, k->err);
}

/* h uploads the TX image of up (PUT): read from its segments, 1 MiB reads
 * and sends, not libcurl's 64 KiB. */
static void up_setup(CURL *h, img_io *up)
{
	curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(h, CURLOPT_READFUNCTION, img_read);
	curl_easy_setopt(h, CURLOPT_READDATA, up);
	curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)up->img->size);
	curl_easy_setopt(h, CURLOPT_UPLOAD_BUFFERSIZE, 1L << 20);
}

/* h downloads the RX image into down through k: the body goes to the
 * image only with the status want (libcurl knows the status before the
 * first write), an error reply (JSON) to err. Reads of up to 2 MiB, not
 * libcurl's 16 KiB: run_test makes 4.5 system calls per MiB moved, 6.4
 * with 512 KiB (make bench (e), docs/server.md). */
#define RX_READ (2L << 20)
static void rx_setup(CURL *h, rx_sink *k, img_io *down, sbuf *err, long want)
{
	k->h = h;
	k->io = down;
	k->err = err;
	k->want = want;
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, rx_write);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, k);
	curl_easy_setopt(h, CURLOPT_BUFFERSIZE, RX_READ);
}

/* One request. body: JSON text or NULL; up: the TX image stream or NULL.
 * *status is the HTTP status; resp (may be NULL) gets a JSON reply.
 * Returns AIETH_OK when the exchange happened (any status), else an error
 * naming the server. A request the rate limit refused is repeated after
 * the wait the server names (rmh_perform). Idempotent requests are retried
 * on connection
 * failures. timeout_s 0: no overall limit (a transfer of any size). */
/* What a request repeated after the rate limit starts from again: empty
 * reply buffers, the upload from its start. */
typedef struct {
	sbuf *sink, *resp;
	img_io *up;
} req_again;

static void req_restart(void *ctx)
{
	req_again *a = ctx;
	rmh_buf_clear(a->sink);
	if (a->resp)
		rmh_buf_clear(a->resp);
	if (a->up)
		a->up->off = 0;
}

static int rm_req(rm_state *st, const char *method, const char *path, const char *body, img_io *up,
		  long timeout_s, long *status, sbuf *resp)
{
	req_again again;
	char url[768];
	struct curl_slist *hdrs = NULL;
	sbuf sink = SB_INIT(RMH_BODY_MAX);
	CURLcode cc = CURLE_OK;
	int idem = !strcmp(method, "GET") || !strcmp(method, "DELETE") || !strcmp(method, "PUT");
	int attempt;

	snprintf(url, sizeof url, "%s%s", st->base, path);
	for (attempt = 0; attempt < (idem ? RETRIES : 1); attempt++) {
		CURL *h = st->h;
		hdrs = rm_setup(st, url,
				up     ? "Content-Type: application/octet-stream"
				: body ? "Content-Type: application/json"
				       : NULL,
				timeout_s);
		if (up) {
			up->off = 0;
			up_setup(h, up);
		} else if (body) {
			curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
			curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
		}
		if (strcmp(method, "GET") && !(up && !strcmp(method, "PUT")))
			curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
		if (!body && !strcmp(method, "POST")) {
			curl_easy_setopt(h, CURLOPT_POSTFIELDS, "");
			curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, 0L);
		}
		again.sink = &sink;
		again.resp = resp;
		again.up = up;
		req_restart(&again);
		curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, rmh_buf_write);
		curl_easy_setopt(h, CURLOPT_WRITEDATA, resp ? resp : &sink);
		cc = rmh_perform(h, &st->xfer, req_restart, &again);
		curl_slist_free_all(hdrs);
		if (cc == CURLE_OK) {
			curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
			sb_free(&sink);
			return AIETH_OK;
		}
		if (cc != CURLE_COULDNT_CONNECT && cc != CURLE_SEND_ERROR &&
		    cc != CURLE_RECV_ERROR && cc != CURLE_GOT_NOTHING)
			break;
		if (attempt + 1 < (idem ? RETRIES : 1)) {
			struct timespec ts = {0, 200 * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
	sb_free(&sink);
	if (cc == CURLE_ABORTED_BY_CALLBACK)
		return aieth__fail(AIETH_EDEVICE, "server %s: %s %s: interrupted", st->base, method,
				   path);
	if (cc == CURLE_OPERATION_TIMEDOUT) {
		/* which limit ended it: the request's own, or nothing moved */
		char limits[160];
		if (st->device_wait)
			snprintf(limits, sizeof limits, "the wait's limit: %ld s", timeout_s);
		else if (timeout_s)
			snprintf(limits, sizeof limits,
				 "limits: %ld s in all, %ld s without a byte "
				 "(AIETH_REMOTE_STALL_S)",
				 timeout_s, st->xfer.stall_s);
		else
			snprintf(limits, sizeof limits,
				 "limit: %ld s without a byte "
				 "(AIETH_REMOTE_STALL_S)",
				 st->xfer.stall_s);
		return aieth__fail(AIETH_ETIMEOUT, "server %s: %s %s: no answer in time (%s; %s)",
				   st->base, method, path, curl_easy_strerror(cc), limits);
	}
	return aieth__fail(AIETH_EDEVICE, "server %s: %s %s: %s", st->base, method, path,
			   rmh_words(st->h, cc, st->cacert));
}

/* A request whose reply must have status want; the reply JSON parsed into
 * *out (may be NULL). Other statuses become errors with the server's
 * message: 401 and 403 are the token, 404 not found, 409 state, 504 a
 * timeout, the rest the device. */
static int rm_reply(rm_state *st, const char *method, const char *path, long status, long want,
		    sbuf *b, struct json_object **out);

static int rm_json(rm_state *st, const char *method, const char *path, const char *body, long want,
		   long timeout_s, struct json_object **out)
{
	sbuf b = SB_INIT(RMH_BODY_MAX);
	long status = 0;
	int rc = rm_req(st, method, path, body, NULL, timeout_s, &status, &b);
	if (out)
		*out = NULL;
	if (rc) {
		sb_free(&b);
		return rc;
	}
	return rm_reply(st, method, path, status, want, &b, out);
}

/* Whether the server ended this client's session itself (--max-session,
 * an idle limit): its reason into reason[cap]. A 409 or an interrupted
 * transaction is then the server's doing, not the caller's: an
 * infrastructure error (exit 3), never an input one. */
static int rm_session_ended(rm_state *st, char *reason, size_t cap)
{
	struct json_object *o = NULL;
	const char *sstate = "", *why = "";
	char path[256];
	uint32_t pos = 0;
	int ended = 0;
	if (!st->sid[0])
		return 0;
	snprintf(path, sizeof path, "/v1/sessions/%s", st->sid);
	if (!rm_json(st, "GET", path, NULL, 200, CALL_S, &o) &&
	    !rmr_session_state(st->base, o, &sstate, &pos, &why) &&
	    (!strcmp(sstate, "expired") || !strcmp(sstate, "ended")) && why[0]) {
		snprintf(reason, cap, "%s", why);
		ended = 1;
	}
	json_object_put(o);
	aieth__error_clear();
	return ended;
}

/* A reply (its status and body b, freed here) to a request that wants
 * status want: see rm_json. */
static int rm_reply(rm_state *st, const char *method, const char *path, long status, long want,
		    sbuf *b_, struct json_object **out)
{
	sbuf b = *b_;
	char msg[600];
	if (out)
		*out = NULL;
	if (status != want) {
		rmh_reply_message(&b, msg, sizeof msg);
		sb_free(&b);
		switch (status) {
		case 401:
		case 403:
			return aieth__fail(AIETH_EDEVICE, "server %s refused the token (%ld): %s",
					   st->base, status, msg);
		case 404: return aieth__fail(AIETH_ENOTFOUND, "server %s: %s", st->base, msg);
		case 409: {
			char why[300];
			/* between transactions: the server ended the session */
			if (strcmp(method, "GET") && rm_session_ended(st, why, sizeof why))
				return aieth__fail(AIETH_EDEVICE,
						   "server %s ended session %s: %s (%s %s: %s)",
						   st->base, st->sid, why, method, path, msg);
			return aieth__fail(AIETH_ESTATE, "server %s: %s", st->base, msg);
		}
		case 504: return aieth__fail(AIETH_ETIMEOUT, "server %s: %s", st->base, msg);
		case 400: return aieth__fail(AIETH_EINVAL, "server %s: %s", st->base, msg);
		default:
			return aieth__fail(AIETH_EDEVICE, "server %s: %s %s: status %ld: %s",
					   st->base, method, path, status, msg);
		}
	}
	if (out) {
		/* a reply is parsed as strictly as a file: one object, no
		 * duplicate keys, nothing after it */
		char what[1400];
		snprintf(what, sizeof what, "server %s: reply to %s %s", st->base, method, path);
		if (jstrict_parse_object(what, b.p ? b.p : "", b.n, RMH_BODY_MAX, out)) {
			sb_free(&b);
			*out = NULL;
			return aieth__fail_prefix(AIETH_EDEVICE, "protocol error");
		}
	}
	sb_free(&b);
	return AIETH_OK;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *jstr(struct json_object *o, const char *k)
{
	struct json_object *v;
	return o && json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : "";
}

/* The connection as remote_design.c uses it. */
static rmd_conn design_conn(rm_state *st)
{
	rmd_conn c;
	memset(&c, 0, sizeof c);
	c.h = st->h;
	c.base = st->base;
	c.auth = st->auth;
	c.cacert = st->cacert;
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
static void rm_fetch_aie_state(rm_state *st)
{
	const aieth_session_opts *o = &st->cfg->opts;
	rmd_conn c;
	int found;
	if (!st->artifacts_dir)
		return;
	c = design_conn(st);
	if (rmd_artifact_fetch(&c, st->sid, st->artifacts_dir, "aie_state.json",
			       AIE_STATE_FETCH_MAX, &found, o->artifact, o->artifact_ctx) &&
	    o->artifact_error)
		o->artifact_error(o->artifact_ctx, aieth_error_message());
}

static void rm_close(void *state)
{
	rm_state *st = state;
	char path[128];
	long status;
	if (!st)
		return;
	if (st->sid[0]) {
		snprintf(path, sizeof path, "/v1/sessions/%s", st->sid);
		rm_req(st, "DELETE", path, NULL, NULL, CALL_S, &status, NULL);
		/* the session's files, final once it ended (best effort: a close
		 * cannot fail; what landed is what the artifact hook heard of) */
		if (st->artifacts_dir) {
			const aieth_session_opts *o = &st->cfg->opts;
			rmd_conn c = design_conn(st);
			uint64_t max = st->artifacts_max ? st->artifacts_max
							 : AIETH_ARTIFACTS_BYTES_DEFAULT;
			if (rmd_artifacts_fetch(&c, st->sid, st->artifacts_dir, max, o->artifact,
						o->artifact_ctx) &&
			    o->artifact_error)
				o->artifact_error(o->artifact_ctx, aieth_error_message());
		}
	}
	rms_fini(&st->sens);
	if (st->multi)
		curl_multi_cleanup(st->multi);
	if (st->h_up)
		curl_easy_cleanup(st->h_up);
	if (st->h_rx)
		curl_easy_cleanup(st->h_rx);
	curl_easy_cleanup(st->h);
	free(st->cacert);
	free(st->artifacts_dir);
	free(st);
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
		if ((rc = rmd_xclbin_ensure(&c, cfg->xclbin, xsha, &uploaded))) {
			free(*ini);
			*ini = NULL;
			return rc;
		}
		(void)uploaded;
	}
	return AIETH_OK;
}

static int rm_open(const aieth_dev_config *cfg, void **state)
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
	rms_init(&st->sens);
	st->artifacts_max = ro->artifacts_max_bytes;
	st->concurrent_io = ro->version >= 2 && ro->concurrent_io;
	st->xfer.interrupt = cfg->opts.interrupt;
	if ((ca && !(st->cacert = aieth__strdup(ca))) ||
	    (ro->artifacts_dir && !(st->artifacts_dir = aieth__strdup(ro->artifacts_dir)))) {
		free(st->cacert);
		free(st);
		return aieth__fail(AIETH_ENOMEM, "backend remote: out of memory");
	}
	/* AIETH_REMOTE_STREAM=0: the serial way (docs/server.md; make bench
	 * prints both) */
	{
		const char *sv = getenv("AIETH_REMOTE_STREAM");
		if (sv && *sv && strcmp(sv, "0") && strcmp(sv, "1")) {
			free(st->cacert);
			free(st->artifacts_dir);
			free(st);
			return aieth__fail(AIETH_EINVAL,
					   "backend remote: AIETH_REMOTE_STREAM=%.20s: 0 or 1 is "
					   "needed",
					   sv);
		}
		st->serial = sv && !strcmp(sv, "0");
	}
	if ((rc = rmh_stall_from_env(&st->xfer.stall_s))) {
		free(st->cacert);
		free(st->artifacts_dir);
		free(st);
		return rc;
	}
	memcpy(st->base, ro->server, n);
	st->base[n] = '\0';
	if (ro->token && *ro->token)
		snprintf(st->auth, sizeof st->auth, "Authorization: Bearer %s", ro->token);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) || !(st->h = curl_easy_init())) {
		free(st->cacert);
		free(st->artifacts_dir);
		free(st);
		return aieth__fail(AIETH_EDEVICE, "backend remote: libcurl could not start");
	}
	/* who serves: its name, version and device (for the report) */
	if ((rc = rm_json(st, "GET", "/v1/health", NULL, 200, CALL_S, &o)) ||
	    (rc = rmr_health(st->base, o)))
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
	if ((rc = rmt_traces_add(cfg, req))) {
		json_object_put(req);
		goto fail;
	}
	text = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
	rc = rm_json(st, "POST", "/v1/sessions", text, 201, CALL_S, &o);
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
	if ((rc = rmr_session_state(st->base, o, &sstate, &pos, &reason)))
		goto fail;
	/* queued: poll (each poll keeps the session alive) until the device is
	 * ours; the server's --max-wait ends the wait, the client's own bound
	 * (a server that says "queued" for ever), or an interrupt */
	snprintf(path, sizeof path, "/v1/sessions/%s", st->sid);
	qmax = ro->queue_timeout_s ? ro->queue_timeout_s : QUEUE_S;
	t0 = mono_s();
	while (!strcmp(sstate, "queued")) {
		struct timespec ts = {0, 250 * 1000000L};
		double waited = mono_s() - t0;
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
		if ((rc = rm_json(st, "GET", path, NULL, 200, CALL_S, &o)) ||
		    (rc = rmr_session_state(st->base, o, &sstate, &npos, &reason)))
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
		rm_close(st);
		return aieth__fail(rc, "%s", msg);
	}
}

static int graph_post(rm_state *st, uint32_t g, const char *verb, const char *body, long timeout_s)
{
	char path[1024], seg[RMT_SEG_MAX];
	snprintf(path, sizeof path, "/v1/sessions/%s/graphs/%s/%s", st->sid,
		 rmt_path_seg(st->cfg->graphs[g].name, seg), verb);
	return rm_json(st, "POST", path, body, 204, timeout_s, NULL);
}

static int rm_graph_run(void *state, uint32_t graph, int64_t iterations)
{
	char body[64];
	snprintf(body, sizeof body, "{\"iterations\":%lld}", (long long)iterations);
	return graph_post(state, graph, "run", body, CALL_S);
}

static int rm_graph_wait(void *state, uint32_t graph, uint32_t timeout_ms)
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

static int rm_graph_end(void *state, uint32_t graph)
{
	return graph_post(state, graph, "end", NULL, CALL_S);
}

static int rm_graph_status(void *state, uint32_t graph, uint64_t *done, int *complete)
{
	rm_state *st = state;
	struct json_object *o = NULL;
	char path[1024], seg[RMT_SEG_MAX];
	int rc;
	snprintf(path, sizeof path, "/v1/sessions/%s/graphs/%s", st->sid,
		 rmt_path_seg(st->cfg->graphs[graph].name, seg));
	if ((rc = rm_json(st, "GET", path, NULL, 200, CALL_S, &o)))
		return rc;
	rc = rmr_graph_status(st->base, o, done, complete);
	json_object_put(o);
	return rc;
}

/* The server's graph model ports (GET .../graphs/NAME/ports). A server
 * whose board runs the graph itself answers 501: not known before the run
 * (AIETH_EUNSUPPORTED, as the xrt backend locally). */
static int rm_graph_ports(void *state, uint32_t graph, aieth_graph_port *ports, size_t cap,
			  size_t *n)
{
	rm_state *st = state;
	struct json_object *o = NULL;
	char path[1024], seg[RMT_SEG_MAX], msg[600];
	sbuf b = SB_INIT(RMH_BODY_MAX);
	long status = 0;
	int rc;
	snprintf(path, sizeof path, "/v1/sessions/%s/graphs/%s/ports", st->sid,
		 rmt_path_seg(st->cfg->graphs[graph].name, seg));
	if ((rc = rm_req(st, "GET", path, NULL, NULL, CALL_S, &status, &b))) {
		sb_free(&b);
		return rc;
	}
	if (status == 501) {
		rmh_reply_message(&b, msg, sizeof msg);
		sb_free(&b);
		return aieth__fail(AIETH_EUNSUPPORTED, "server %s: %s", st->base, msg);
	}
	if ((rc = rm_reply(st, "GET", path, status, 200, &b, &o)))
		return rc;
	rc = rmr_graph_ports(st->base, o, ports, cap, n);
	json_object_put(o);
	return rc;
}

static int rm_txn_start(void *state, pld_txn *wire)
{
	rm_state *st = state;
	struct json_object *req, *cfg, *o = NULL;
	char path[256], w[24];
	img_io up;
	long status = 0;
	sbuf b = SB_INIT(RMH_BODY_MAX);
	size_t i, slot;
	int rc;

	if (st->nt == TXNS_MAX)
		return aieth__fail(AIETH_ESTATE,
				   "backend remote: %d transactions are started and not "
				   "waited for, the limit",
				   TXNS_MAX);
	req = json_object_new_object();
	cfg = json_object_new_array();
	json_object_object_add(req, "channels", json_object_new_int64(wire->channels));
	json_object_object_add(req, "depth", json_object_new_int64(wire->depth));
	for (i = 0; i < pld_cfg_count(wire->channels); i++) {
		snprintf(w, sizeof w, "0x%llx", (unsigned long long)wire->cfg[i]);
		json_object_array_add(cfg, json_object_new_string(w));
	}
	json_object_object_add(req, "cfg", cfg);
	json_object_object_add(req, "tx_bytes", json_object_new_uint64(wire->tx.size));
	json_object_object_add(req, "rx_bytes", json_object_new_uint64(wire->rx.size));
	/* streamed where the server's device can: the upload, the device and
	 * the download overlap (rm_txn_stream) */
	json_object_object_add(req, "stream", json_object_new_boolean(!st->serial));
	snprintf(path, sizeof path, "/v1/sessions/%s/txns", st->sid);
	rc = rm_json(st, "POST", path, json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN),
		     201, CALL_S, &o);
	json_object_put(req);
	if (rc)
		return rc;
	slot = (st->head + st->nt) % TXNS_MAX;
	/* every field as documented: the transaction as submitted */
	rc = rmr_txn_created(st->base, o, wire, !st->serial, st->tids[slot], sizeof st->tids[slot],
			     &st->streamed[slot]);
	json_object_put(o);
	if (rc)
		return rc;
	if (st->streamed[slot]) {
		/* uploaded during the wait, beside the device's work */
		st->wires[slot] = wire;
		st->nt++;
		return AIETH_OK;
	}
	/* the TX image, streamed from the transaction's segments */
	up.img = &wire->tx;
	up.off = 0;
	snprintf(path, sizeof path, "/v1/sessions/%s/txns/%s/tx", st->sid, st->tids[slot]);
	rc = rm_req(st, "PUT", path, NULL, &up, 0, &status, &b);
	if (!rc && status != 202) {
		char msg[600];
		rmh_reply_message(&b, msg, sizeof msg);
		rc = aieth__fail(AIETH_EDEVICE, "server %s: TX image upload: status %ld: %s",
				 st->base, status, msg);
	}
	sb_free(&b);
	if (rc)
		return rc;
	st->wires[slot] = wire;
	st->nt++;
	return AIETH_OK;
}

/* GET .../rx into img; a download that breaks (the connection drops)
 * resumes with Range from the last whole word written, RX_RESUMES times at
 * most: the download is idempotent, the image positional. */
static int rm_rx_download(rm_state *st, const char *path, img_io *downp)
{
	char url[768], range[64], msg[600];
	img_io down = *downp; /* from where a streamed download stopped, or 0 */
	pld_image *img = down.img;
	rx_sink sink;
	int attempt;
	CURLcode cc = CURLE_OK;
	long status = 0;

	snprintf(url, sizeof url, "%s%s", st->base, path);
	for (attempt = 0; attempt <= RX_RESUMES; attempt++) {
		struct curl_slist *hdrs;
		sbuf err = SB_INIT(RMH_BODY_MAX);
		uint64_t from = down.off;
		CURL *h = st->h;
		down.ncarry = 0; /* a partial word is fetched again */
		/* no overall limit: an image of any size (the stall limit holds) */
		hdrs = rm_setup(st, url, NULL, 0);
		if (from) {
			snprintf(range, sizeof range, "%llu-", (unsigned long long)from);
			curl_easy_setopt(h, CURLOPT_RANGE, range);
		}
		rx_setup(h, &sink, &down, &err, from ? 206 : 200);
		/* a refused request wrote its JSON to err only */
		cc = rmh_perform(h, &st->xfer, rmh_buf_clear, &err);
		curl_slist_free_all(hdrs);
		status = 0;
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
		if (cc == CURLE_OK && status == (from ? 206 : 200)) {
			sb_free(&err);
			if (down.off + down.ncarry != img->size)
				return aieth__fail(AIETH_EDEVICE,
						   "server %s: RX image download: %llu of "
						   "%llu bytes",
						   st->base,
						   (unsigned long long)(down.off + down.ncarry),
						   (unsigned long long)img->size);
			return AIETH_OK;
		}
		if (cc == CURLE_OK || status >= 300) {
			rmh_reply_message(&err, msg, sizeof msg);
			sb_free(&err);
			return aieth__fail(AIETH_EDEVICE,
					   "server %s: RX image download%s: status %ld: %s",
					   st->base, from ? " (resumed)" : "", status, msg);
		}
		sb_free(&err);
		if (cc != CURLE_PARTIAL_FILE && cc != CURLE_RECV_ERROR && cc != CURLE_GOT_NOTHING &&
		    cc != CURLE_COULDNT_CONNECT && cc != CURLE_SEND_ERROR)
			break;
		if (attempt < RX_RESUMES) {
			struct timespec ts = {0, 200 * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
	if (cc == CURLE_ABORTED_BY_CALLBACK)
		return aieth__fail(AIETH_EDEVICE, "server %s: RX image download: interrupted",
				   st->base);
	return aieth__fail(cc == CURLE_OPERATION_TIMEDOUT ? AIETH_ETIMEOUT : AIETH_EDEVICE,
			   "server %s: RX image download: %s after %llu of %llu bytes (%d resumes "
			   "at most)",
			   st->base, rmh_words(st->h, cc, st->cacert), (unsigned long long)down.off,
			   (unsigned long long)img->size, RX_RESUMES);
}

/* A streamed transaction's wait (docs/http-api.md, "Streamed
 * transactions"): the TX upload (PUT), the wait (POST, body) and the RX
 * download (GET, into down) run at once on three connections, so that the
 * server's device works while the bytes cross: the time is about the
 * longest of the three, not their sum. *out gets the wait's result;
 * *rx_whole tells whether the download got every byte (else the caller
 * resumes it from down). An upload that failed leaves its reason in
 * up_err (the server then fails the transaction). The upload has no
 * overall limit (an image of any size) but the stall limit; the download
 * none but the wait's: the server sends RX bytes as the device makes
 * them, and ends the download when the session or the device stops. */
enum { LEG_UP, LEG_WAIT, LEG_RX, LEGS };

/* One leg of a streamed transaction: its handle and headers, and what
 * the multi loop learns of it (curl's code, the HTTP status, whether it
 * ended, was added, how often it was retried and when it last started). */
typedef struct {
	char url[768];
	struct curl_slist *hdrs;
	CURL *h;
	CURLcode cc;
	long status;
	int done, added, tries;
	double retry_at; /* > 0: (re)started at that time */
} rm_leg;

/* The upload leg on a thread of its own (aieth_remote_opts.concurrent_io):
 * the TX sources are read there while the RX sinks take the download on
 * the waiting thread, so on two cores neither waits for the other. The
 * thread touches only its handle, up, reply and its own fields; the
 * waiting thread reads them after the join. */
typedef struct {
	CURL *h;
	const rmh_xfer *x; /* its stop flag: raised when the wait ended early */
	img_io *up;
	sbuf *reply;
	CURLcode cc;
	long status;
} up_thread;

static void up_again(void *ctx)
{
	up_thread *u = ctx;
	u->up->off = 0;
	rmh_buf_clear(u->reply);
}

static void *up_run(void *arg)
{
	up_thread *u = arg;
	u->cc = rmh_perform(u->h, u->x, up_again, u);
	curl_easy_getinfo(u->h, CURLINFO_RESPONSE_CODE, &u->status);
	return NULL;
}

/* A streamed download comes in pieces of RX_PIECE bytes (GET with Range
 * A-B, one after the other on one connection): th_server answers each once
 * its bytes are final and sends it straight from the image, where one
 * open-ended download would be copied through libmicrohttpd's buffer as it
 * grows. The server makes RX bytes final 8 MiB at a time. */
#define RX_PIECE ((uint64_t)8 << 20)

/* h set up for down's next piece, [down->off, *end), through k; its
 * header list returned (the caller frees it after the transfer). */
static struct curl_slist *rx_piece(rm_state *st, CURL *h, const char *url, rx_sink *k, img_io *down,
				   sbuf *err, uint64_t *end)
{
	char range[64];
	uint64_t size = down->img->size;
	struct curl_slist *hdrs = rmh_setup(h, url, st->auth, st->cacert, NULL, 0, &st->xfer_wait);
	*end = size - down->off > RX_PIECE ? down->off + RX_PIECE : size;
	snprintf(range, sizeof range, "%llu-%llu", (unsigned long long)down->off,
		 (unsigned long long)(*end - 1));
	curl_easy_setopt(h, CURLOPT_RANGE, range); /* (libcurl keeps a copy) */
	rx_setup(h, k, down, err, 206);
	return hdrs;
}

static int rm_txn_stream(rm_state *st, const char *tid, pld_txn *wire, const char *body,
			 long wait_s, struct json_object **out, img_io *down, int *rx_whole,
			 char *up_err, size_t cap)
{
	static const char *const leg_path[LEGS] = {"tx", "wait", "rx"};
	char path[256];
	rm_leg L[LEGS];
	int running = 0, i, rc;
	double rx_t = 0, wait_t = 0;     /* the download's last byte; the wait's end */
	uint64_t rx_off = 0, rx_end = 0; /* rx_end: the end of the piece asked for */
	CURLMcode mc = CURLM_OK;
	sbuf up_reply = SB_INIT(RMH_BODY_MAX), wait_reply = SB_INIT(RMH_BODY_MAX);
	sbuf rx_err = SB_INIT(RMH_BODY_MAX);
	img_io up;
	rx_sink sink;
	rmh_xfer up_x = st->xfer; /* the upload's: st->xfer's and a stop flag */
	atomic_int up_stop;
	up_thread ut;
	pthread_t up_th;
	int threaded = 0, early = 1; /* early: the loop ended before the legs */

	memset(L, 0, sizeof L); /* cc CURLE_OK (0), nothing added or done */
	*out = NULL;
	*rx_whole = 0;
	atomic_init(&up_stop, 0);
	up_x.stop = &up_stop;
	if (!st->multi)
		st->multi = curl_multi_init();
	if (wire->tx.size && !st->h_up)
		st->h_up = curl_easy_init();
	if (wire->rx.size && !st->h_rx)
		st->h_rx = curl_easy_init();
	if (!st->multi || (wire->tx.size && !st->h_up) || (wire->rx.size && !st->h_rx))
		return aieth__fail(AIETH_ENOMEM, "backend remote: out of memory");
	L[LEG_UP].h = wire->tx.size ? st->h_up : NULL;
	L[LEG_WAIT].h = st->h;
	L[LEG_RX].h = wire->rx.size ? st->h_rx : NULL;
	for (i = 0; i < LEGS; i++)
		snprintf(L[i].url, sizeof L[i].url, "%s/v1/sessions/%s/txns/%s/%s", st->base,
			 st->sid, tid, leg_path[i]);
	st->xfer_wait = st->xfer;
	st->xfer_wait.stall_s = -1;
	if (L[LEG_UP].h) {
		memset(&up, 0, sizeof up);
		up.img = &wire->tx;
		L[LEG_UP].hdrs = rmh_setup(L[LEG_UP].h, L[LEG_UP].url, st->auth, st->cacert,
					   "Content-Type: application/octet-stream", 0, &up_x);
		up_setup(L[LEG_UP].h, &up);
		curl_easy_setopt(L[LEG_UP].h, CURLOPT_WRITEFUNCTION, rmh_buf_write);
		curl_easy_setopt(L[LEG_UP].h, CURLOPT_WRITEDATA, &up_reply);
	}
	L[LEG_WAIT].hdrs = rmh_setup(L[LEG_WAIT].h, L[LEG_WAIT].url, st->auth, st->cacert,
				     "Content-Type: application/json", wait_s, &st->xfer_wait);
	curl_easy_setopt(L[LEG_WAIT].h, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(L[LEG_WAIT].h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	curl_easy_setopt(L[LEG_WAIT].h, CURLOPT_WRITEFUNCTION, rmh_buf_write);
	curl_easy_setopt(L[LEG_WAIT].h, CURLOPT_WRITEDATA, &wait_reply);
	if (L[LEG_RX].h)
		L[LEG_RX].hdrs =
			rx_piece(st, L[LEG_RX].h, L[LEG_RX].url, &sink, down, &rx_err, &rx_end);
	for (i = 0; i < LEGS; i++)
		if (L[i].h)
			L[i].retry_at = 1e-9; /* due now */
	if (st->concurrent_io && L[LEG_UP].h) {
		memset(&ut, 0, sizeof ut);
		ut.h = L[LEG_UP].h;
		ut.x = &up_x;
		ut.up = &up;
		ut.reply = &up_reply;
		/* no thread to be had: the upload joins the others below */
		if (!pthread_create(&up_th, NULL, up_run, &ut)) {
			threaded = 1;
			L[LEG_UP].retry_at = 0;
		}
	}
	for (;;) {
		CURLMsg *m;
		int left, pending = 0, due = 0;
		double now = mono_s();
		for (i = 0; i < LEGS; i++)
			if (L[i].retry_at > 0 && now >= L[i].retry_at) {
				L[i].retry_at = 0;
				if (curl_multi_add_handle(st->multi, L[i].h) == CURLM_OK) {
					L[i].added = 1;
				} else {
					L[i].done = 1;
					L[i].cc = CURLE_FAILED_INIT;
				}
			}
		mc = curl_multi_perform(st->multi, &running);
		if (mc != CURLM_OK)
			break;
		while ((m = curl_multi_info_read(st->multi, &left)))
			for (i = 0; i < LEGS; i++) {
				long wait;
				if (m->msg != CURLMSG_DONE || m->easy_handle != L[i].h)
					continue;
				L[i].cc = m->data.result;
				curl_easy_getinfo(L[i].h, CURLINFO_RESPONSE_CODE, &L[i].status);
				if (L[i].cc == CURLE_OK &&
				    (wait = rmh_rate_wait_s(L[i].h, L[i].tries))) {
					/* the rate limit refused it from its head: nothing
					 * of it was done; again after the wait it names */
					curl_multi_remove_handle(st->multi, L[i].h);
					L[i].added = 0;
					L[i].tries++;
					L[i].retry_at = mono_s() + (double)wait;
					if (i == LEG_UP) {
						up.off = 0;
						rmh_buf_clear(&up_reply);
					}
					rmh_buf_clear(i == LEG_WAIT ? &wait_reply : &rx_err);
					break;
				}
				if (i == LEG_RX && L[i].cc == CURLE_OK && L[i].status == 206 &&
				    !down->ncarry && down->off == rx_end &&
				    rx_end < wire->rx.size) {
					/* a piece whole: the next one, at once */
					curl_multi_remove_handle(st->multi, L[i].h);
					L[i].added = 0;
					curl_slist_free_all(L[i].hdrs);
					L[i].hdrs = rx_piece(st, L[i].h, L[i].url, &sink, down,
							     &rx_err, &rx_end);
					L[i].retry_at = 1e-9;
					break;
				}
				L[i].done = 1;
			}
		/* a wait without a result: the rest would only wait on it */
		if (L[LEG_WAIT].done && (L[LEG_WAIT].cc != CURLE_OK || L[LEG_WAIT].status != 200))
			break;
		/* once the device is done every RX byte is final: the download
		 * has the stall limit again (the rest resumes, rm_rx_download) */
		if (down->off != rx_off) {
			rx_off = down->off;
			rx_t = now;
		}
		if (L[LEG_WAIT].done && !wait_t)
			wait_t = now;
		if (wait_t && L[LEG_RX].h && !L[LEG_RX].done &&
		    now - (rx_t > wait_t ? rx_t : wait_t) > (double)st->xfer.stall_s)
			break;
		for (i = 0; i < LEGS; i++) {
			pending |= L[i].retry_at > 0;
			due |= L[i].retry_at > 0 && L[i].retry_at <= now;
		}
		if (!running && !pending) {
			early = 0;
			break;
		}
		if (st->xfer.interrupt && *st->xfer.interrupt)
			break;
		if (due) /* (a leg to start again now: no wait for a socket) */
			continue;
		mc = curl_multi_poll(st->multi, NULL, 0, pending ? 100 : 1000, NULL);
		if (mc != CURLM_OK)
			break;
	}
	if (threaded) {
		/* the wait ended: an upload still running has no use (its
		 * transfer sees the flag within a second: its progress calls);
		 * else it ends as it would in the loop */
		if (early)
			atomic_store(&up_stop, 1);
		pthread_join(up_th, NULL);
		L[LEG_UP].cc = ut.cc;
		L[LEG_UP].status = ut.status;
		L[LEG_UP].done = !(atomic_load(&up_stop) && ut.cc == CURLE_ABORTED_BY_CALLBACK);
	}
	for (i = 0; i < LEGS; i++) {
		if (L[i].added)
			curl_multi_remove_handle(st->multi, L[i].h);
		curl_slist_free_all(L[i].hdrs);
	}
	if (L[LEG_UP].h &&
	    !(L[LEG_UP].done && L[LEG_UP].cc == CURLE_OK && L[LEG_UP].status == 202)) {
		char msg[600] = "";
		if (L[LEG_UP].done && L[LEG_UP].cc == CURLE_OK)
			rmh_reply_message(&up_reply, msg, sizeof msg);
		snprintf(up_err, cap, "server %s: TX image upload: %s%s%s", st->base,
			 !L[LEG_UP].done ? "did not end"
			 : L[LEG_UP].cc != CURLE_OK
				 ? rmh_words(L[LEG_UP].h, L[LEG_UP].cc, st->cacert)
				 : "refused",
			 msg[0] ? ": " : "", msg);
	}
	*rx_whole = L[LEG_RX].h && L[LEG_RX].done && L[LEG_RX].cc == CURLE_OK &&
		    L[LEG_RX].status == 206 && down->off + down->ncarry == wire->rx.size;
	/* what did not come (an error reply writes nothing to down) is fetched
	 * by the caller from down->off on */
	sb_free(&up_reply);
	sb_free(&rx_err);
	snprintf(path, sizeof path, "/v1/sessions/%s/txns/%s/wait", st->sid, tid);
	if (mc != CURLM_OK) {
		sb_free(&wait_reply);
		return aieth__fail(AIETH_EDEVICE, "server %s: POST %s: %s", st->base, path,
				   curl_multi_strerror(mc));
	}
	if (!L[LEG_WAIT].done || L[LEG_WAIT].cc != CURLE_OK) {
		sb_free(&wait_reply);
		if (!L[LEG_WAIT].done || L[LEG_WAIT].cc == CURLE_ABORTED_BY_CALLBACK)
			return aieth__fail(AIETH_EDEVICE, "server %s: POST %s: interrupted",
					   st->base, path);
		return aieth__fail(
			L[LEG_WAIT].cc == CURLE_OPERATION_TIMEDOUT ? AIETH_ETIMEOUT : AIETH_EDEVICE,
			"server %s: POST %s: %s%s", st->base, path,
			rmh_words(L[LEG_WAIT].h, L[LEG_WAIT].cc, st->cacert),
			L[LEG_WAIT].cc == CURLE_OPERATION_TIMEDOUT ? " (the wait's limit)" : "");
	}
	rc = rm_reply(st, "POST", path, L[LEG_WAIT].status, 200, &wait_reply, out);
	return rc;
}

/* A transaction the server interrupted, not this client: the session's
 * own reason when the server ended it (--max-session, an idle limit),
 * else the server was stopped (drained) during the run. */
static int rm_interrupted_by_server(rm_state *st, const char *tid, const char *why)
{
	char reason[300];
	if (rm_session_ended(st, reason, sizeof reason))
		return aieth__fail(AIETH_EDEVICE,
				   "server %s ended session %s while it ran "
				   "transaction %s: %s (the transaction was interrupted: %s)",
				   st->base, st->sid, tid, reason, why);
	return aieth__fail(AIETH_EDEVICE,
			   "server %s stopped while it ran transaction %s: "
			   "the transaction was interrupted and the device reset (%s); run "
			   "again when the server is back",
			   st->base, tid, why);
}

static int rm_txn_wait(void *state, pld_txn *wire, uint32_t timeout_ms, aieth_dev_result *res)
{
	rm_state *st = state;
	struct json_object *o = NULL;
	char path[256], body[64], up_err[700] = "";
	const char *tid;
	int rc, failed = 0, streamed, rx_whole = 0;
	img_io down;

	if (!st->nt || st->wires[st->head] != wire)
		return aieth__fail(AIETH_ESTATE,
				   "backend remote: wait for a transaction that is not "
				   "the oldest started one");
	tid = st->tids[st->head];
	streamed = st->streamed[st->head];
	st->head = (st->head + 1) % TXNS_MAX;
	st->nt--;
	memset(&down, 0, sizeof down);
	down.img = &wire->rx;
	snprintf(path, sizeof path, "/v1/sessions/%s/txns/%s/wait", st->sid, tid);
	snprintf(body, sizeof body, "{\"timeout_ms\":%u}",
		 timeout_ms > WAIT_MAX_MS ? WAIT_MAX_MS : timeout_ms);
	/* bounded by the transaction's own timeout and a margin, never by the
	 * stall limit: the server answers when the device is done (0: no
	 * limit asked, none here either; TCP keep-alive finds a lost host) */
	st->device_wait = 1;
	if (streamed)
		rc = rm_txn_stream(st, tid, wire, body,
				   timeout_ms ? CALL_S + (long)(timeout_ms / 1000) : 0, &o, &down,
				   &rx_whole, up_err, sizeof up_err);
	else
		rc = rm_json(st, "POST", path, body, 200,
			     timeout_ms ? CALL_S + (long)(timeout_ms / 1000) : 0, &o);
	st->device_wait = 0;
	if (rc) {
		if (st->cfg->opts.interrupt && *st->cfg->opts.interrupt) {
			res->status = AIETH_TXN_INTERRUPTED;
			snprintf(res->msg, sizeof res->msg,
				 "interrupted while the server ran the "
				 "transaction; the session ends and the server resets the device");
			return AIETH_OK;
		}
		if (rc == AIETH_ETIMEOUT) {
			/* the server hangs: as a device that hangs (exit 5) */
			res->status = AIETH_TXN_TIMEOUT;
			snprintf(res->msg, sizeof res->msg, "%s", aieth_error_message());
			return AIETH_OK;
		}
		return rc;
	}
	rc = rmr_txn_result(st->base, tid, o, wire, res, &failed);
	json_object_put(o);
	if (rc)
		return rc;
	if (res->status == AIETH_TXN_TIMEOUT)
		rm_fetch_aie_state(st);
	if (failed && up_err[0]) /* why the server's device ran on zeros */
		return aieth__fail(AIETH_EDEVICE, "%s", up_err);
	if (failed)
		return aieth__fail(AIETH_EDEVICE, "server %s: %s", st->base, res->msg);
	if (res->status == AIETH_TXN_INTERRUPTED &&
	    !(st->cfg->opts.interrupt && *st->cfg->opts.interrupt))
		return rm_interrupted_by_server(st, tid, res->msg);
	if (!wire->rx.size || rx_whole)
		return AIETH_OK;
	/* the RX image, streamed into its destinations (after a streamed
	 * download that broke: from where it broke) */
	snprintf(path, sizeof path, "/v1/sessions/%s/txns/%s/rx", st->sid, tid);
	return rm_rx_download(st, path, &down);
}

/* RTP: the value's bytes as a raw body; the port name escaped in the path. */
static int rtp_path(rm_state *st, uint32_t graph, const char *port, char *path, size_t cap)
{
	char *esc = curl_easy_escape(st->h, port, 0), seg[RMT_SEG_MAX];
	int n;
	if (!esc)
		return aieth__fail(AIETH_ENOMEM, "backend remote: out of memory");
	n = snprintf(path, cap, "/v1/sessions/%s/graphs/%s/rtp/%s", st->sid,
		     rmt_path_seg(st->cfg->graphs[graph].name, seg), esc);
	curl_free(esc);
	if (n < 0 || (size_t)n >= cap)
		return aieth__fail(AIETH_EINVAL,
				   "backend remote: RTP port \"%.80s\": the graph and "
				   "port names make a URL path longer than %zu bytes",
				   port, cap - 1);
	return AIETH_OK;
}

static int rm_update_rtp(void *state, uint32_t graph, const char *port, const void *data,
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
	/* not rm_req: its bodies are JSON text (strlen), this one raw bytes */
	snprintf(url, sizeof url, "%s%s", st->base, path);
	hdrs = rm_setup(st, url, "Content-Type: application/octet-stream", CALL_S);
	curl_easy_setopt(st->h, CURLOPT_CUSTOMREQUEST, "PUT");
	curl_easy_setopt(st->h, CURLOPT_POSTFIELDS, data);
	curl_easy_setopt(st->h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)size);
	curl_easy_setopt(st->h, CURLOPT_WRITEFUNCTION, rmh_buf_write);
	curl_easy_setopt(st->h, CURLOPT_WRITEDATA, &b);
	cc = rmh_perform(st->h, &st->xfer, rmh_buf_clear, &b);
	curl_slist_free_all(hdrs);
	if (cc != CURLE_OK) {
		sb_free(&b);
		if (cc == CURLE_ABORTED_BY_CALLBACK)
			return aieth__fail(AIETH_EDEVICE, "server %s: PUT %s: interrupted",
					   st->base, path);
		return aieth__fail(AIETH_EDEVICE, "server %s: PUT %s: %s", st->base, path,
				   rmh_words(st->h, cc, st->cacert));
	}
	curl_easy_getinfo(st->h, CURLINFO_RESPONSE_CODE, &status);
	rmh_reply_message(&b, msg, sizeof msg);
	sb_free(&b);
	if (status == 204)
		return AIETH_OK;
	return aieth__fail(status == 404   ? AIETH_ENOTFOUND
			   : status == 400 ? AIETH_EINVAL
					   : AIETH_EDEVICE,
			   "server %s: %s", st->base, msg);
}

static int rm_read_rtp(void *state, uint32_t graph, const char *port, void *data, size_t size)
{
	rm_state *st = state;
	char path[1100], msg[600];
	sbuf b = SB_INIT(RMH_BODY_MAX);
	long status = 0;
	int rc;

	if ((rc = rtp_path(st, graph, port, path, sizeof path - 32)))
		return rc;
	snprintf(path + strlen(path), sizeof path - strlen(path), "?size=%zu", size);
	if ((rc = rm_req(st, "GET", path, NULL, NULL, CALL_S, &status, &b))) {
		sb_free(&b);
		return rc;
	}
	if (status != 200) {
		rmh_reply_message(&b, msg, sizeof msg);
		sb_free(&b);
		return aieth__fail(status == 404   ? AIETH_ENOTFOUND
				   : status == 400 ? AIETH_EINVAL
						   : AIETH_EDEVICE,
				   "server %s: %s", st->base, msg);
	}
	if (b.n != size) {
		sb_free(&b);
		return aieth__fail(AIETH_EDEVICE,
				   "server %s: run-time parameter %s: %zu bytes came, "
				   "%zu asked",
				   st->base, port, b.n, size);
	}
	memcpy(data, b.p, size);
	sb_free(&b);
	return AIETH_OK;
}

static int rm_sensors(void *state, aieth_sensor *out, size_t cap, size_t *n, char *notes,
		      size_t notes_cap)
{
	rm_state *st = state;
	return rms_read(&st->sens, st->base, st->auth, st->cacert, st->xfer.interrupt, out, cap, n,
			notes, notes_cap);
}

#else /* !AIETH_HAVE_CURL: built without libcurl */

static int rm_open(const aieth_dev_config *cfg, void **state)
{
	(void)cfg;
	*state = NULL;
	return aieth__fail(AIETH_EUNSUPPORTED, "backend remote: this build has no libcurl");
}

static void rm_close(void *state) { (void)state; }

#endif

/* One table for both builds: without libcurl the device calls are absent
 * (open says why, so none of them is ever reached). */
#ifdef AIETH_HAVE_CURL
#define RM_OP(f) f
#else
#define RM_OP(f) NULL
#endif

const aieth_backend_ops aieth__backend_remote = {
	.name = "remote",
	.description = "a device behind th_server, docs/server.md",
	.flags = AIETH_BACKEND_NETWORKED,
	.check = rm_check,
	.open = rm_open,
	.close = rm_close,
	.sensors = RM_OP(rm_sensors),
	.graph_run = RM_OP(rm_graph_run),
	.graph_wait = RM_OP(rm_graph_wait),
	.graph_end = RM_OP(rm_graph_end),
	.graph_status = RM_OP(rm_graph_status),
	.txn_start = RM_OP(rm_txn_start),
	.txn_wait = RM_OP(rm_txn_wait),
	.graph_update_rtp = RM_OP(rm_update_rtp),
	.graph_read_rtp = RM_OP(rm_read_rtp),
	.graph_ports = RM_OP(rm_graph_ports),
};
