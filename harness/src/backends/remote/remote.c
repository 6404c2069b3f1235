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
 *
 * This file: the options' checks, the sensors and the ops table; the rest
 * in the files remote_internal.h names.
 */
#include <stddef.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/remote/remote_internal.h"
#include "util/error.h"
#include "util/opts.h"

/* An http(s) URL's authority (up to the first / ? #) holds an '@'. */
static int has_userinfo(const char *url)
{
	const char *a = strstr(url, "://");
	a = a ? a + 3 : url;
	return memchr(a, '@', strcspn(a, "/?#")) != NULL;
}

/* Version 1 ends before concurrent_io, version 2 before pinned_key: a
 * caller of an older version gets the bytes of its struct only. */
int aieth_remote_opts_init(aieth_remote_opts *opts, unsigned int version)
{
	static const aieth_remote_opts init = AIETH_REMOTE_OPTS_INIT;
	size_t size = version == 1   ? offsetof(aieth_remote_opts, concurrent_io)
		      : version == 2 ? offsetof(aieth_remote_opts, pinned_key)
				     : sizeof init;
	int rc = aieth__opts_init("aieth_remote_opts_init", opts, &init, size, version,
				  AIETH_REMOTE_OPTS_VERSION);
	if (!rc)
		opts->version = version;
	return rc;
}

/* pinned_key: "sha256//" and the 44 base64 characters of a SHA-256 (one
 * key: libcurl would take several, ';'-separated, a list this API does not
 * offer), for an https server. */
static int pin_check(const aieth_remote_opts *ro)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = ro->pinned_key, *k = p + 8;
	size_t i;
	int ok = !strncmp(p, "sha256//", 8) && strlen(k) == 44 && k[43] == '=';
	for (i = 0; ok && i < 43; i++)
		ok = strchr(b64, k[i]) != NULL; /* never the NUL: strlen is 44 */
	if (!ok)
		return aieth__fail(AIETH_EINVAL,
				   "backend remote: aieth_remote_opts.pinned_key \"%.80s\": "
				   "\"sha256//\" and the base64 of a SHA-256 (44 characters, "
				   "ending in '=') are needed",
				   p);
	if (strncmp(ro->server, "https://", 8))
		return aieth__fail(AIETH_EINVAL,
				   "backend remote: a pinned_key is given for %.80s: only an "
				   "https:// server has a key to pin",
				   ro->server);
	return AIETH_OK;
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
	if (ro->version >= 3 && ro->pinned_key && (rc = pin_check(ro)))
		return rc;
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

static int rm_sensors(void *state, aieth_sensor *out, size_t cap, size_t *n, char *notes,
		      size_t notes_cap)
{
	rm_state *st = state;
	return aieth__rms_read(&st->sens, st->base, st->auth, &st->trust, st->xfer.interrupt, out,
			       cap, n, notes, notes_cap);
}

#else /* !AIETH_HAVE_CURL: built without libcurl */

int aieth__rm_open(const aieth_dev_config *cfg, void **state)
{
	(void)cfg;
	*state = NULL;
	return aieth__fail(AIETH_EUNSUPPORTED, "backend remote: this build has no libcurl");
}

void aieth__rm_close(void *state) { (void)state; }

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
	.open = aieth__rm_open,
	.close = aieth__rm_close,
	.sensors = RM_OP(rm_sensors),
	.graph_run = RM_OP(aieth__rm_graph_run),
	.graph_wait = RM_OP(aieth__rm_graph_wait),
	.graph_end = RM_OP(aieth__rm_graph_end),
	.graph_status = RM_OP(aieth__rm_graph_status),
	.txn_start = RM_OP(aieth__rm_txn_start),
	.txn_wait = RM_OP(aieth__rm_txn_wait),
	.graph_update_rtp = RM_OP(aieth__rm_update_rtp),
	.graph_read_rtp = RM_OP(aieth__rm_read_rtp),
	.graph_ports = RM_OP(aieth__rm_graph_ports),
};
