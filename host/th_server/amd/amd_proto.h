/* SPDX-License-Identifier: MIT */
/*
 * amd_proto.h - the codec of AMD's AI-Engine-Test-Harness client/server
 * wire protocol (AMD's include/ps/test_harness_sockets.hpp;
 * docs/amd-protocol.md says what it accepts). Internal to the library, not installed.
 *
 * Both directions, both sides:
 * - an incremental decoder (amdp_dec) fed bytes in pieces of any size (one
 *   byte at a time works). A server-side decoder yields the client's
 *   requests; a client-side decoder yields the server's replies. Bulk
 *   payloads (xclbin, xrt.ini, TX/RX images, returned files) are announced
 *   first (AMDP_EV_BULK) and the caller says where their bytes go, so they
 *   are never copied twice. Every length and count is checked against a
 *   limit before anything is allocated or stored; the decoder itself never
 *   allocates.
 * - encoders of every server reply and every client request, each built
 *   into one buffer (sbuf, util/sbuf.h). A reply with a large image is built in a
 *   head and a tail around the caller's image (writev).
 *
 * Wire encoding: little-endian u32/u64, bool as one byte 0/1, string as an
 * i64 length and the bytes, vectors as a u64 count and the elements, file
 * as a string (base name) and a vec<u8>. No framing beyond that: replies
 * pair with requests by order.
 */
#ifndef AIETH_SERVER_AMD_PROTO_H
#define AIETH_SERVER_AMD_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "util/sbuf.h"

/* ------------------------------------------------------------- limits */

#define AMDP_MAX_REQ_NAME 64u              /* a request name ("queryTransactionStatus" is 22) */
#define AMDP_MAX_NAME 255u                 /* device, graph, kernel, port and file names */
#define AMDP_MAX_GRAPHS 64u                /* graph names per manager */
#define AMDP_MAX_KERNELS 4u                /* kernel names per manager (AMD's clients send 1) */
#define AMDP_MAX_CONFIG_FILES 1u           /* H3: AMD's clients send 0 or 1 (xrt.ini) */
#define AMDP_MAX_INI_BYTES (1u << 20)      /* the uploaded xrt.ini */
#define AMDP_MAX_XCLBIN_BYTES (1ull << 30) /* the user's xclbin */
#define AMDP_MAX_CHANNELS 64u              /* N per direction (VCK190 36, VEK280 16) */
#define AMDP_MAX_DEPTH 65536u              /* D, URAM depth in stream words */
#define AMDP_MAX_CFG (8u * AMDP_MAX_CHANNELS + 1u)
#define AMDP_MAX_PERF (4u * AMDP_MAX_CHANNELS)
#define AMDP_MAX_TXN_BYTES (1ull << 32)  /* a from_aie image in a reply (client side) */
#define AMDP_MAX_FILES 256u              /* files returned at the end of a session */
#define AMDP_MAX_FILE_BYTES (1ull << 30) /* one returned file */
#define AMDP_RTP_RAW 24u                 /* update port: the client's vector object */

#define AMDP_WORD_BYTES 16u /* W and M: AMD's stream and memory words */

/* Transaction statuses (research §5). */
enum { AMDP_ST_CREATED = 0, AMDP_ST_READY, AMDP_ST_RUNNING, AMDP_ST_TIMEOUT, AMDP_ST_DONE };

/* ------------------------------------------------------------ buffers */

/* The limit of a message's buffer (util/sbuf.h): the largest message, a
 * transaction's image with its fields (the other messages are far smaller;
 * a reply with an image is built around it, never copied in). */
#define AMDP_MAX_MSG ((size_t)AMDP_MAX_TXN_BYTES + 65536u)
/* The limit of a server's reply buffer: the largest reply built in it is a
 * list of graphs or the perf words; an image is sent beside it (writev). */
#define AMDP_MAX_REPLY ((size_t)65536u)

/* --------------------------------------------------------- messages */

/* What a decoder yields. Server side: the client's requests (AMDP_Q_*);
 * client side: the server's replies (AMDP_R_*). */
typedef enum {
	AMDP_NONE = 0,
	/* client -> server */
	AMDP_Q_HELLO, /* H2 ack and H3 config files (their contents came as bulk) */
	AMDP_Q_MGR_DEVICE, /* test_harness_mgr step 1: device; caller replies, then aieth__amdp_dec_continue */
	AMDP_Q_MGR, /* test_harness_mgr steps 4-8 (xclbin contents came as bulk) */
	AMDP_Q_RUN_BYTES, /* runTestHarness step 1; caller replies accepted, then aieth__amdp_dec_continue */
	AMDP_Q_RUN,         /* runTestHarness steps 3-8 (to_aie came as bulk) */
	AMDP_Q_QUERY,       /* queryTransactionStatus */
	AMDP_Q_WAIT_TH,     /* waitForTestHarness */
	AMDP_Q_RUN_GRAPH,   /* runAIEGraph */
	AMDP_Q_WAIT_GRAPH,  /* waitForGraph */
	AMDP_Q_SET_TIMEOUT, /* setTimeOut */
	AMDP_Q_GET_TIMEOUT, /* getTimeOut */
	AMDP_Q_DESTROY,     /* destroy */
	AMDP_Q_UPDATE_PORT, /* update port: consumed; its 24 bytes are the client's pointers */
	AMDP_Q_READ_PORT,   /* read port: consumed; no reply can help the client */
	/* server -> client */
	AMDP_R_AVAILABLE,  /* H1 */
	AMDP_R_MGR_DEVICE, /* device ok and N, W, D, M; or the server's device */
	AMDP_R_MAX_MEM,    /* test_harness_mgr step 9 */
	AMDP_R_ACCEPTED,   /* runTestHarness step 2 */
	AMDP_R_STATUS,     /* queryTransactionStatus */
	AMDP_R_WAIT_TH,    /* waitForTestHarness (from_aie came as bulk) */
	AMDP_R_GRAPHS,     /* runAIEGraph and waitForGraph: graph started flags */
	AMDP_R_TIMEOUT,    /* getTimeOut */
	AMDP_R_FILES       /* the file return after destroy (contents came as bulk) */
} amdp_kind;

/* Which bulk payload an AMDP_EV_BULK announces. */
typedef enum {
	AMDP_BULK_INI = 1,  /* an H3 config file (name in msg.file[msg.nfiles]) */
	AMDP_BULK_XCLBIN,   /* the manager's xclbin (name in msg.file[0]) */
	AMDP_BULK_TO_AIE,   /* runTestHarness's to_aie image */
	AMDP_BULK_FROM_AIE, /* waitForTestHarness's from_aie image */
	AMDP_BULK_FILE      /* a returned file (name in msg.file[msg.nfiles]) */
} amdp_bulk;

/* A decoded message: the fields its kind uses, the others zero. */
typedef struct {
	amdp_kind kind;
	/* Q_HELLO: ack; R_AVAILABLE, R_ACCEPTED, R_MGR_DEVICE: flag */
	int flag;
	/* Q_MGR_DEVICE / R_MGR_DEVICE (mismatch): the device name */
	char device[AMDP_MAX_NAME + 1];
	/* R_MGR_DEVICE (ok): the board's geometry */
	uint32_t n, w, d, m;
	/* Q_MGR */
	uint32_t dev_index;
	uint32_t ngraphs, nkernels;
	char graph[AMDP_MAX_GRAPHS][AMDP_MAX_NAME + 1];
	uint8_t started[AMDP_MAX_GRAPHS]; /* Q_MGR, R_GRAPHS */
	char kernel[AMDP_MAX_KERNELS][AMDP_MAX_NAME + 1];
	/* Q_HELLO (config files), Q_MGR (file[0]: xclbin), R_FILES */
	uint32_t nfiles;
	char file[AMDP_MAX_FILES][AMDP_MAX_NAME + 1];
	uint64_t file_len[AMDP_MAX_FILES];
	/* Q_RUN_BYTES: announced; Q_RUN: the same, checked */
	uint64_t txn_bytes;
	/* Q_RUN */
	uint8_t mode;
	uint32_t id;      /* also Q_QUERY, Q_WAIT_TH */
	uint32_t timeout; /* ms: Q_RUN (ignored by AMD), Q_WAIT_TH, Q_WAIT_GRAPH */
	uint32_t ncfg;
	uint64_t cfg[AMDP_MAX_CFG];
	uint64_t to_aie_len, from_aie_len; /* Q_RUN; R_WAIT_TH: from_aie_len */
	/* Q_RUN_GRAPH, Q_UPDATE_PORT, Q_READ_PORT */
	uint32_t graph_index, iterations;
	char port[AMDP_MAX_NAME + 1];
	uint8_t rtp_raw[AMDP_RTP_RAW]; /* Q_UPDATE_PORT */
	uint32_t rtp_size;             /* Q_READ_PORT */
	/* Q_SET_TIMEOUT, R_TIMEOUT (seconds), R_MAX_MEM (bytes) */
	uint64_t value;
	/* R_STATUS, R_WAIT_TH */
	uint8_t status;
	uint32_t nperf;
	uint64_t perf[AMDP_MAX_PERF];
} amdp_msg;

/* ---------------------------------------------------------- decoder */

typedef enum { AMDP_SERVER = 0, AMDP_CLIENT = 1 } amdp_side;

/* The board as the protocol describes it (test_harness_mgr step 3). */
typedef struct {
	uint32_t n;       /* channels per direction */
	uint32_t w, d, m; /* stream word bytes, URAM depth, memory word bytes */
} amdp_geom;

typedef struct {
	amdp_side side;
	amdp_geom geom; /* server: given; client: learnt from R_MGR_DEVICE */
	int state;      /* internal */
	int dead;       /* after an error or a session end: every feed fails */
	/* the primitive being read */
	int prim;
	uint8_t scratch[8];
	uint8_t *dst; /* P_BYTES: where the bytes go (NULL: discarded) */
	uint64_t want, got;
	uint64_t count, idx; /* the vector being read */
	amdp_kind expect;    /* client side: the reply awaited */
	int pending_event;
	int partial; /* bytes of the current message were taken */
	/* AMDP_EV_BULK */
	amdp_bulk bulk;
	uint64_t bulk_len;
	char reqname[AMDP_MAX_REQ_NAME + 1];
	amdp_msg msg;
} amdp_dec;

/* What aieth__amdp_dec_feed stopped on. Errors are negative aieth codes. */
enum {
	AMDP_EV_MORE = 0, /* every byte given was consumed; feed more */
	AMDP_EV_BULK = 1, /* bulk payload announced: call aieth__amdp_dec_sink() */
	AMDP_EV_MSG = 2   /* a complete message in dec->msg */
};

/* Server side: geom is the board's (n <= AMDP_MAX_CHANNELS, w = m = 16);
 * the decoder starts at the handshake (H2). Client side: geom may be zero;
 * the decoder expects H1. Returns 0 or AIETH_EINVAL. */
int aieth__amdp_dec_init(amdp_dec *d, amdp_side side, const amdp_geom *geom);

/* Consume bytes [p, p+len): sets *used to the bytes taken and returns an
 * AMDP_EV_* or a negative code (the message names the field, the value and
 * the limit; the decoder is dead afterwards). Feed the rest after an
 * event. */
int aieth__amdp_dec_feed(amdp_dec *d, const uint8_t *p, size_t len, size_t *used);

/* After AMDP_EV_BULK: dec->bulk_len bytes follow and go to dst (at least
 * bulk_len bytes; NULL discards them). Call before the next feed. */
void aieth__amdp_dec_sink(amdp_dec *d, uint8_t *dst);

/* During a bulk payload with a sink: where the next bytes should go and
 * how many are still due (0 when no bulk is under way), so a caller may
 * recv() straight into place and then report the count with
 * aieth__amdp_dec_advance(). */
uint8_t *aieth__amdp_dec_room(amdp_dec *d, uint64_t *n);
/* n bytes were written at aieth__amdp_dec_room(); returns an AMDP_EV_* as feed. */
int aieth__amdp_dec_advance(amdp_dec *d, uint64_t n);

/* 1 when no message is partly read (the peer may close here), else 0:
 * end of input elsewhere is a truncated message. */
int aieth__amdp_dec_at_boundary(const amdp_dec *d);

/* Server side, after AMDP_Q_MGR_DEVICE or AMDP_Q_RUN_BYTES: whether the
 * reply let the client go on (device ok, accepted). After a refused
 * device the session is over: further bytes are an error. */
void aieth__amdp_dec_continue(amdp_dec *d, int go_on);

/* Client side: the reply the next bytes hold (an AMDP_R_* kind; for
 * AMDP_R_MAX_MEM after R_MGR_DEVICE, AMDP_R_GRAPHS for both graph
 * requests). Returns 0, or AIETH_ESTATE while a reply is still partly
 * read or the kind needs the board geometry that is not known yet. */
int aieth__amdp_dec_expect(amdp_dec *d, amdp_kind reply);

/* ------------------------------------------------- transaction facts */

/* The byte count runTestHarness announces: 8(8N+1) + 8*4N + to_aie + from_aie. */
uint64_t aieth__amdp_txn_bytes(uint32_t n, uint64_t to_aie_len, uint64_t from_aie_len);

/* The checks AMD's server skips (research §12), for a decoded AMDP_Q_RUN:
 * cfg[0] is the mode; PERF images are N*W*D bytes; every used channel's
 * frames and offset lie inside its image; FUNC repetitions are 1. Returns 0
 * or AIETH_EINVAL with the channel and field named. A compatible server
 * answers such a transaction with TIMEOUT and zeros, not an error. */
int aieth__amdp_txn_check(const amdp_geom *g, const amdp_msg *run);

/* A plain base name: 1..AMDP_MAX_NAME bytes, printable ASCII, no '/', '\\',
 * not "." or "..". Returns 0 or AIETH_EINVAL naming what (e.g. "xclbin
 * name"). */
int aieth__amdp_check_name(const char *what, const char *s, size_t len);

/* ------------------------------------------- encoders: server replies */

/* Each appends one reply to b and returns 0, AIETH_EINVAL (an argument
 * breaks a rule of the protocol) or AIETH_ENOMEM. */
int aieth__amdp_enc_available(sbuf *b, int available);
int aieth__amdp_enc_mgr_device_ok(sbuf *b, const amdp_geom *g);
int aieth__amdp_enc_mgr_device_bad(sbuf *b, const char *server_device);
int aieth__amdp_enc_max_mem(sbuf *b, uint64_t bytes);
int aieth__amdp_enc_accepted(sbuf *b, int accepted);
int aieth__amdp_enc_status(sbuf *b, uint8_t status);
/* waitForTestHarness: status, from_aie, perf (4N words). rx may be NULL
 * for zeros. Or in three parts: head, the caller's image, tail. */
int aieth__amdp_enc_wait_th(sbuf *b, uint8_t status, const uint8_t *rx, uint64_t rx_len,
			    const uint64_t *perf, uint32_t nperf);
int aieth__amdp_enc_wait_th_head(sbuf *b, uint8_t status, uint64_t rx_len);
int aieth__amdp_enc_wait_th_tail(sbuf *b, const uint64_t *perf, uint32_t nperf);
int aieth__amdp_enc_graphs(sbuf *b, const uint8_t *started, uint32_t n);
int aieth__amdp_enc_timeout(sbuf *b, uint64_t seconds); /* never 0 */
/* The file return: a count, then per file a head (name, length) and the
 * contents; names must be plain base names. */
int aieth__amdp_enc_files_count(sbuf *b, uint64_t nfiles);
int aieth__amdp_enc_file_head(sbuf *b, const char *name, uint64_t len);
int aieth__amdp_enc_file(sbuf *b, const char *name, const uint8_t *data, uint64_t len);

/* ------------------------------------------ encoders: client requests */

/* H2 ack and H3: nfiles config files (name[i], data[i], len[i]). */
int aieth__amdp_enc_hello(sbuf *b, int ack, uint32_t nfiles, const char *const *name,
			  const uint8_t *const *data, const uint64_t *len);
int aieth__amdp_enc_req_mgr_device(sbuf *b, const char *device);
int aieth__amdp_enc_req_mgr(sbuf *b, uint32_t dev_index, uint32_t ngraphs,
			    const char *const *graphs, const uint8_t *started, uint32_t nkernels,
			    const char *const *kernels, const char *xclbin_name,
			    const uint8_t *xclbin, uint64_t xclbin_len);
int aieth__amdp_enc_req_run_bytes(sbuf *b, uint64_t txn_bytes);
/* Steps 3-8; to_aie may be NULL (then only the length goes in, and the
 * caller sends the image and then aieth__amdp_enc_req_run_tail). */
int aieth__amdp_enc_req_run(sbuf *b, uint8_t mode, uint32_t id, uint32_t timeout,
			    const uint64_t *cfg, uint32_t ncfg, const uint8_t *to_aie,
			    uint64_t to_aie_len, uint64_t from_aie_len);
int aieth__amdp_enc_req_run_tail(sbuf *b, uint64_t from_aie_len);
int aieth__amdp_enc_req_query(sbuf *b, uint32_t id);
int aieth__amdp_enc_req_wait_th(sbuf *b, uint32_t id, uint32_t timeout_ms);
int aieth__amdp_enc_req_run_graph(sbuf *b, uint32_t graph, uint32_t iterations);
int aieth__amdp_enc_req_wait_graph(sbuf *b, uint32_t timeout_ms);
int aieth__amdp_enc_req_set_timeout(sbuf *b, uint64_t seconds);
int aieth__amdp_enc_req_get_timeout(sbuf *b);
int aieth__amdp_enc_req_destroy(sbuf *b);
int aieth__amdp_enc_req_update_port(sbuf *b, uint32_t graph, const char *port,
				    const uint8_t raw[AMDP_RTP_RAW]);
int aieth__amdp_enc_req_read_port(sbuf *b, uint32_t graph, const char *port, uint32_t size);

#endif /* AIETH_SERVER_AMD_PROTO_H */
