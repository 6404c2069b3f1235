/* SPDX-License-Identifier: MIT */
/*
 * th_server.h - th_server's engine: one device served over HTTP
 * (docs/http-api.md) and AMD's protocol, standing on libaieth's public API
 * (host/th_server/, an archive only th_server and the tests link; not
 * installed). It serves and never prints: every log line goes to the
 * caller's callback. Built where libmicrohttpd is available (the native
 * and the aarch64 cross build; without it aieth__server_open fails with
 * AIETH_EUNSUPPORTED).
 */
#ifndef AIETH_TH_SERVER_H
#define AIETH_TH_SERVER_H

#include "aieth.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aieth__server aieth__server;

/* One line (no newline), from any of the server's threads, one call at a time. */
typedef void (*aieth__server_log_fn)(void *ctx, const char *line);

/* th_server's options. A versioned struct (aieth/session.h, docs/api.md):
 * initialise it with AIETH_SERVER_OPTS_INIT or aieth__server_opts_init. */
typedef struct {
	unsigned int version; /* AIETH_SERVER_OPTS_VERSION */
	/* what: the device served and what clients may name */
	const char *backend;  /* "emu" (NULL) or "xrt" */
	const char *board;    /* NULL: sessions name any board (emu); else the only one */
	const char *data_dir; /* NULL: aieth_board_data_dir(NULL) */
	const char *const *graph_models; /* "NAME=MODEL[:JSON-params]": the graph
				        model of an AMD client's graph NAME (emu);
				        other names get the default model */
	size_t num_graph_models;
	/* Folders of graph model plugins HTTP clients may name by file name
	 * ("scale_model" or "scale_model.so"; docs/server.md), at most 16;
	 * without any, clients name built-in models only: */
	const char *const *model_dirs;
	size_t num_model_dirs;
	const char *reset_cmd; /* run with /bin/sh -c after a session that
				        expired or failed, before the next one gets
				        the device (NULL: none; closing the device
				        is the reset) */
	/* where: the listeners and who may use them */
	const char *listen; /* "ADDR:PORT" (IPv4 or [IPv6]); port 0 = any free port */
	/* AMD's clients (docs/server.md, "AMD's clients"): */
	const char *amd_listen; /* "ADDR:PORT" for AMD's TCP protocol (NULL: off);
				        it has no authentication: an address that is
				        not loopback needs insecure. listen may then be
				        NULL (at least one of the two is needed) */
	const char *token_file; /* NULL: no tokens (only on loopback unless insecure) */
	int insecure;           /* allow a non-loopback address without tokens */
	const char *tls_cert;   /* PEM certificate (chain) file: serve https */
	const char *tls_key;    /* its PEM private key file (both or neither) */
	/* files */
	const char *work_dir; /* sessions' artifact folders (NULL: a private
				        folder under $TMPDIR, removed at close) */
	/* The design xclbin cache (PUT /v1/xclbins/SHA256): */
	const char *cache_dir; /* NULL: WORK_DIR/xclbins (kept when work_dir is
				        given, else removed at close) */
	/* limits: sessions and the queue */
	uint32_t idle_timeout_s;  /* 0: 60 */
	uint32_t max_queue;       /* 0: 16 */
	uint32_t max_wait_s;      /* 0: 600 */
	uint32_t max_session_s;   /* a session that held the device this long
				        while another waits is ended as expired
				        (0: 3600; AIETH_SERVER_NO_LIMIT: never) */
	uint32_t reset_timeout_s; /* the reset command is killed after this (0: 120) */
	/* limits: memory and uploads */
	uint32_t max_memory_mib;   /* transaction images held at once, all sessions
				        (0: 4096 MiB); more is refused with 413 */
	uint32_t max_xclbin_mib;   /* one upload (0: 1024 MiB); more is 413 */
	uint32_t xclbin_cache_mib; /* all cached designs (0: 2048 MiB); the least
				        recently used go first, never one in use */
	/* limits: connections */
	uint32_t rate_limit;          /* requests per second per client address
				        (0: 200); more get 429 with Retry-After */
	uint32_t max_conn;            /* HTTP connections open at once (0: 64), at
				        most 1024; a quarter of them only for
				        connections authenticated by a token (a
				        request on them carried one): when the
				        others are full, the oldest of the address
				        holding the most is closed for a new one */
	uint32_t max_conn_per_addr;   /* HTTP connections one client address may hold
				        open before authentication (0: 8); more
				        are closed at accept */
	uint32_t head_timeout_s;      /* a connection's request line and headers must
				        arrive within this, from the accept or the
				        end of its previous request (0: 10) */
	uint32_t client_timeout_s;    /* a connection idle this long (a slow client
				        that never ends its request) is closed (0: 30) */
	uint32_t amd_setup_timeout_s; /* an AMD connection's manager must be in this
				        long after its accept, whatever setTimeOut
				        says (0: 30) */
	/* hooks */
	aieth__server_log_fn log; /* may be NULL: no logging */
	void *log_ctx;
	int log_json; /* log lines as JSON objects */
} aieth__server_opts;

#define AIETH_SERVER_OPTS_VERSION 1
#define AIETH_SERVER_OPTS_INIT                       \
	{                                            \
		.version = AIETH_SERVER_OPTS_VERSION \
	}
int aieth__server_opts_init(aieth__server_opts *opts, unsigned int version);

#define AIETH_SERVER_NO_LIMIT UINT32_MAX

/* Validate the options, read the tokens, bind and start serving (own
 * threads). *out is the caller's: aieth__server_close ends it. */
int aieth__server_open(aieth__server **out, const aieth__server_opts *opts);

/* Read the token file again (th_server does on SIGHUP). The new file is
 * checked in full (as at start: mode, type, every line) before it replaces
 * the tokens, for requests that arrive afterwards; *count (may be NULL)
 * is their number. On failure the tokens in use stay and the message says
 * why; without a token file there is nothing to reload (AIETH_EINVAL). */
int aieth__server_reload_tokens(aieth__server *server, size_t *count);

/* The TCP port bound (useful with port 0); 0 without that listener. */
uint16_t aieth__server_port(const aieth__server *server);
uint16_t aieth__server_amd_port(const aieth__server *server);

/* Housekeeping, to be called about once a second: sessions idle past the
 * idle timeout or queued past the wait limit are ended (the device closed,
 * i.e. reset) and the next queued session gets the device. */
void aieth__server_tick(aieth__server *server);

/* Drain and stop: new requests get 503, requests running finish, every
 * session ends (the device is closed, i.e. reset), then all is freed. */
void aieth__server_close(aieth__server *server);

#ifdef __cplusplus
}
#endif

#endif
