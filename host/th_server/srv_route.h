/* SPDX-License-Identifier: MIT */
/*
 * th_server/srv_route.h - th_server's request parsing, free of HTTP: the path
 * into a route, the Authorization header into a token, JSON bodies into
 * checked requests (docs/http-api.md). Every limit is checked before any
 * allocation; messages name the field, the value and the limit.
 */
#ifndef AIETH_SERVER_SRV_ROUTE_H
#define AIETH_SERVER_SRV_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#define SRV_NAME_MAX 256    /* board, graph, model names */
#define SRV_PARAMS_MAX 4096 /* a graph model's params as JSON text */
#define SRV_GRAPHS_MAX 64
#define SRV_BODY_MAX ((size_t)64 << 10)
#define SRV_ID_MAX 32
#define SRV_WAIT_MS_MAX 600000u
#define SRV_RTP_MAX 65536u
#define SRV_XRT_INI_MAX (1u << 20) /* a client's xrt.ini */
/* aiesim traces sent with a session (srv_names.c): files, bytes of all */
#define SRV_TRACES_MAX 16
#define SRV_TRACES_BYTES_MAX (4u << 20)
#define SRV_TRACE_NAME_MAX 128
/* POST /v1/sessions may carry an xrt.ini and traces: JSON strings, escaped */
#define SRV_SESSION_BODY_MAX \
	(SRV_BODY_MAX + 2 * (size_t)SRV_XRT_INI_MAX + 2 * (size_t)SRV_TRACES_BYTES_MAX)

typedef enum {
	SRV_R_NONE,       /* unknown path: 404 */
	SRV_R_HEALTH,     /* /v1/health */
	SRV_R_METRICS,    /* /v1/metrics */
	SRV_R_SESSIONS,   /* /v1/sessions */
	SRV_R_SESSION,    /* /v1/sessions/ID */
	SRV_R_GRAPH,      /* /v1/sessions/ID/graphs/NAME */
	SRV_R_GRAPH_RUN,  /* .../run */
	SRV_R_GRAPH_WAIT, /* .../wait */
	SRV_R_GRAPH_END,  /* .../end */
	SRV_R_GRAPH_RTP,  /* .../rtp/PORT: run-time parameter bytes */
	SRV_R_PORTS,      /* .../ports: the graph model's PLIO ports */
	SRV_R_TXNS,       /* /v1/sessions/ID/txns */
	SRV_R_TXN,        /* /v1/sessions/ID/txns/T: the result */
	SRV_R_TXN_TX,     /* .../tx: the TX image upload */
	SRV_R_TXN_WAIT,   /* .../wait: run to the end, the result */
	SRV_R_TXN_RX,     /* .../rx: the RX image download */
	SRV_R_XCLBIN,     /* /v1/xclbins/SHA256: HEAD, PUT (the design cache) */
	SRV_R_ARTIFACTS,  /* /v1/sessions/ID/artifacts: the list */
	SRV_R_ARTIFACT,   /* .../artifacts/NAME: one file */
	SRV_R_VALIDATE,   /* /v1/validate: the board health suite */
	SRV_R_SENSORS,    /* /v1/sensors: the board's sensors now */
	SRV_R_NOT_IMPL    /* a path of the design not built yet: 501 */
} srv_route_kind;

typedef struct {
	srv_route_kind kind;
	char sid[SRV_ID_MAX + 1];
	char graph[SRV_NAME_MAX + 1];
	char tid[SRV_ID_MAX + 1];
	char port[SRV_NAME_MAX + 1]; /* graph.kernel.in[1] */
	char sha[65];                /* SRV_R_XCLBIN: 64 lowercase hex digits */
	char name[SRV_NAME_MAX + 1]; /* SRV_R_ARTIFACT: [A-Za-z0-9._-] */
} srv_route;

/* Parse a request path (without the query, percent-decoded). Unknown paths
 * give SRV_R_NONE; a segment too long or with bytes outside [A-Za-z0-9._-]
 * also does, except graph and RTP port names, which may hold any byte but
 * '/' and control bytes (as a test description's names may: "top.gr[0]"). */
void aieth__srv_route_parse(const char *path, srv_route *r);
/* The methods allowed on a route, as an Allow header value ("GET, POST"). */
const char *aieth__srv_route_methods(srv_route_kind k);

/* The token of an "Authorization: Bearer TOKEN" value: *tok and *len point
 * into value; 0, or -1 when the value is not a bearer token. */
int aieth__srv_bearer(const char *value, const char **tok, size_t *len);

typedef struct {
	char name[SRV_NAME_MAX + 1];
	char model[SRV_NAME_MAX + 1]; /* "" = the default model */
	char *params;                 /* JSON object text or NULL (owned) */
} srv_graph_req;

/* One aiesim trace file sent with the session (srv_names.c). */
typedef struct {
	char name[SRV_TRACE_NAME_MAX + 1]; /* a plain file name (aieth__srv_file_name_ok) */
	char *text;                        /* its bytes (owned) */
	size_t len;
} srv_trace_req;

typedef struct {
	char board[SRV_NAME_MAX + 1];
	char xclbin_sha256[65]; /* "" when absent */
	char *xrt_ini;          /* the client's xrt.ini text, or NULL (owned) */
	size_t xrt_ini_len;
	size_t ngraphs;
	srv_graph_req graphs[SRV_GRAPHS_MAX];
	size_t ntraces;
	srv_trace_req traces[SRV_TRACES_MAX];
} srv_session_req;

/* POST /v1/sessions: {"board", "graphs": [{"name", "model", "params"}],
 * "xclbin_sha256", "xrt_ini", "traces": {NAME: TEXT}} (len up to
 * SRV_SESSION_BODY_MAX; xrt_ini up to SRV_XRT_INI_MAX bytes, no NUL;
 * traces as aieth__srv_traces_parse says). AIETH_OK or AIETH_EPARSE/EINVAL/ENOMEM with the message;
 * aieth__srv_session_req_free after either. */
int aieth__srv_session_req_parse(const char *body, size_t len, srv_session_req *out);
void aieth__srv_session_req_free(srv_session_req *r);

/* A sha256 as the API writes it: 64 lowercase hex digits. */
int aieth__srv_sha256_text_ok(const char *text);
/* The ?size= of an RTP read: decimal digits only, 1..SRV_RTP_MAX; 0 with
 * *out set, else -1 (NULL, empty, a sign, a space, anything else). */
int aieth__srv_rtp_size_parse(const char *text, uint32_t *out);
/* An artifact name a client may fetch: [A-Za-z0-9._-], 1..255 bytes, not
 * starting with '.' (temporary files, "." and ".."). */
int aieth__srv_artifact_name_ok(const char *name);
/* A file name a client may give (a trace, a plugin): [A-Za-z0-9._-],
 * 1..max bytes, not starting with '.', never "..": never a path. */
int aieth__srv_file_name_ok(const char *name, size_t max);
/* The "traces" object of a session request into out->traces: at most
 * SRV_TRACES_MAX names (aieth__srv_file_name_ok, SRV_TRACE_NAME_MAX) whose
 * string values (no NUL) hold SRV_TRACES_BYTES_MAX bytes together. */
struct json_object;
int aieth__srv_traces_parse(struct json_object *traces, srv_session_req *out);

/* POST .../run {"iterations": N} (-1 = forever, else 1..2^31-1); .../wait
 * {"timeout_ms": T} (0..600000). An empty body: run refuses it, wait
 * means timeout_ms 0. */
int aieth__srv_run_req_parse(const char *body, size_t len, int64_t *iterations);
int aieth__srv_wait_req_parse(const char *body, size_t len, uint32_t *timeout_ms);

/* POST /v1/validate {"level": 1..3, "soak_s": 1..600, "channels":
 * 1..4096}, each optional (level 1, soak_s and channels 0: the suite's
 * defaults); an empty body is all defaults. A request holds a connection
 * and the device for its soak: bounded. */
#define SRV_VALIDATE_SOAK_MAX 600
#define SRV_VALIDATE_CHANNELS_MAX 4096
int aieth__srv_validate_req_parse(const char *body, size_t len, unsigned *level, unsigned *soak_s,
				  unsigned *channels);

#define SRV_CHANNELS_MAX 256
#define SRV_DEPTH_MAX (1u << 20)
#define SRV_IMAGE_MAX ((uint64_t)4 << 30)

/* POST /v1/sessions/ID/txns: {"channels": N, "depth": D, "cfg": [8N+1 hex
 * strings "0x..."], "tx_bytes": B, "rx_bytes": R, "stream": S} ("stream"
 * optional, true or false: a streamed transaction, srv_stream.h, where the
 * device can). The count of cfg words
 * is checked before they are stored; cfg (8N+1 words) is the caller's to
 * free. */
typedef struct {
	uint32_t channels, depth;
	uint64_t *cfg;
	uint64_t tx_bytes, rx_bytes;
	int stream;
} srv_txn_req;
int aieth__srv_txn_req_parse(const char *body, size_t len, srv_txn_req *out);
/* The decoded cfg words against the images, before any device sees them
 * (a board's PL kernel would DMA wherever they point): the mode is FUNC or
 * PERF, and every channel's words (PERF: at most the URAM depth, replayed)
 * lie inside its image. AIETH_OK or AIETH_EINVAL naming the channel. */
int aieth__srv_txn_check(const srv_txn_req *q);

/* A listen address "ADDR:PORT": IPv4 dotted, or [IPv6]; port 0..65535.
 * Fills addr (a struct sockaddr_in or sockaddr_in6, cap bytes) and *loopback
 * (127.0.0.0/8 or ::1). AIETH_OK or AIETH_EINVAL naming the value. */
int aieth__srv_listen_parse(const char *text, void *addr, size_t cap, size_t *addrlen,
			    int *loopback);

#endif
