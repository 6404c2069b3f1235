/* SPDX-License-Identifier: MIT */
/*
 * xrt_proto.h - the request/response protocol between libaieth and the
 * child process that owns the XRT handles (the watchdog design of the xrt
 * backend, docs/on-board.md). Both ends are this library, but the parent
 * treats every reply as untrusted input: a child may die or be killed half
 * way, so every decoder checks every length (tests/fuzz/fuzz_xrt_proto.c).
 *
 * A frame is a 16-byte header, little-endian: u32 type, i32 code (an
 * aieth_error in replies), u64 payload length; then the payload. Bulk data
 * (TX/RX images) follows a frame as raw bytes whose length the payload
 * states. Payload fields: u32, u64, i64, and strings/blobs (u32 length +
 * bytes).
 */
#ifndef AIETH_XRT_PROTO_H
#define AIETH_XRT_PROTO_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "util/sbuf.h"

enum {
	XRTP_OPEN = 1,   /* open device, load xclbins, kernel, graphs, soft reset */
	XRTP_GRAPH_RUN,  /* u32 graph, i64 iterations */
	XRTP_GRAPH_WAIT, /* u32 graph, u32 timeout_ms */
	XRTP_GRAPH_END,  /* u32 graph */
	XRTP_RTP_UPDATE, /* u32 graph, str port, blob bytes */
	XRTP_RTP_READ,   /* u32 graph, str port, u64 size -> blob */
	XRTP_TXN,        /* txn header, cfg words; then tx bulk -> result (+ rx bulk) */
	XRTP_RESET,      /* a fresh child: reset graphs, AIE array, PL kernel */
	XRTP_CLOSE,
	XRTP_REPLY = 100
};

#define XRTP_MAX_PAYLOAD (1u << 20) /* frames; bulk data is separate */
#define XRTP_MAX_STR 4096u
#define XRTP_MAX_GRAPHS 256u
#define XRTP_MAX_CHANNELS 1024u
#define XRTP_MAX_RTP 65536u
#define XRTP_MAX_IMAGE (1ull << 40)

typedef struct {
	uint32_t type;
	int32_t code;
	uint64_t len;
} xrtp_hdr;

/* A payload is written into an sbuf (util/sbuf.h) made with the limit
 * XRTP_MAX_PAYLOAD, its integers by sb_le32 and sb_le64. */
void aieth__xrtp_put_blob(sbuf *b, const void *data, size_t len);
void aieth__xrtp_put_str(sbuf *b, const char *s); /* NULL: empty */

/* A payload being read; err is set on the first out-of-bounds read and
 * every later read returns zero/empty. */
typedef struct {
	const uint8_t *p;
	size_t len, off;
	int err;
} xrtp_rd;

uint32_t aieth__xrtp_get_u32(xrtp_rd *r);
uint64_t aieth__xrtp_get_u64(xrtp_rd *r);
/* A blob of at most max bytes: pointer into the payload (not terminated). */
const uint8_t *aieth__xrtp_get_blob(xrtp_rd *r, size_t max, size_t *len);
/* A string of at most XRTP_MAX_STR bytes without NUL, copied into dst
 * (dst_size > XRTP_MAX_STR not needed: longer than dst_size is an error). */
void aieth__xrtp_get_str(xrtp_rd *r, char *dst, size_t dst_size);

/* The OPEN (and RESET) request. */
typedef struct {
	char lib[512];
	char pl_xclbin[1024];
	char aie_xclbin[1024];
	char kernel[128];
	uint32_t device;
	uint32_t ngraphs;
	char graphs[XRTP_MAX_GRAPHS][128];
	uint8_t pl_uuid[16]; /* RESET: the PL xclbin's uuid (zero: unknown) */
} xrtp_open_req;

void aieth__xrtp_encode_open(sbuf *b, const xrtp_open_req *o);
int aieth__xrtp_decode_open(const uint8_t *p, size_t len, xrtp_open_req *o);

/* The OPEN reply payload: message, uuids, argument groups. */
typedef struct {
	char msg[1024];
	uint8_t pl_uuid[16], aie_uuid[16];
	int32_t group[4];
	uint32_t soft_reset; /* 1 done, 0 the kernel's registers are not accessible */
} xrtp_open_rep;

void aieth__xrtp_encode_open_rep(sbuf *b, const xrtp_open_rep *o);
int aieth__xrtp_decode_open_rep(const uint8_t *p, size_t len, xrtp_open_rep *o);

/* The TXN request: then tx_bytes of bulk data follow. */
typedef struct {
	uint32_t channels;   /* N */
	uint32_t timeout_ms; /* 0: no limit */
	uint64_t tx_bytes, rx_bytes;
	uint64_t cfg[8 * XRTP_MAX_CHANNELS + 1];
	uint32_t ncfg; /* 8N+1 */
} xrtp_txn_req;

void aieth__xrtp_encode_txn(sbuf *b, const xrtp_txn_req *t);
int aieth__xrtp_decode_txn(const uint8_t *p, size_t len, xrtp_txn_req *t);

/* The TXN reply: status (aieth_txn_status), run state, CTRL register, the
 * perf words; rx_bytes of bulk data follow when status is DONE. */
typedef struct {
	uint32_t status;
	uint32_t run_state; /* ert_cmd_state */
	uint32_t have_ctrl;
	uint32_t ctrl;
	char msg[512];
	uint32_t nperf; /* 4N */
	uint64_t perf[4 * XRTP_MAX_CHANNELS];
	uint64_t rx_bytes;
} xrtp_txn_rep;

void aieth__xrtp_encode_txn_rep(sbuf *b, const xrtp_txn_rep *t);
int aieth__xrtp_decode_txn_rep(const uint8_t *p, size_t len, xrtp_txn_rep *t);

/* Frame I/O. send/recv return 0, or -1 with errno (EPIPE/ECONNRESET: the
 * peer is gone; ETIMEDOUT: the deadline, a CLOCK_MONOTONIC time in ms,
 * passed; EPROTO: a malformed header). deadline_ms < 0: no deadline. While
 * waiting, side_fd (>= 0) is drained into side(ctx, bytes, n). */
typedef void (*xrtp_side_fn)(void *ctx, const char *bytes, size_t n);
typedef struct {
	int fd;
	int side_fd;
	xrtp_side_fn side;
	void *side_ctx;
	/* when set and *intr becomes non-zero, a wait fails with EINTR */
	const volatile sig_atomic_t *intr;
} xrtp_chan;

int64_t aieth__xrtp_now_ms(void);
int aieth__xrtp_send(xrtp_chan *c, uint32_t type, int32_t code, const void *payload, size_t len,
		     int64_t deadline_ms);
int aieth__xrtp_send_raw(xrtp_chan *c, const void *data, size_t len, int64_t deadline_ms);
/* Receive a frame: *payload is malloc'd (caller frees; NULL when empty). */
int aieth__xrtp_recv(xrtp_chan *c, xrtp_hdr *h, uint8_t **payload, int64_t deadline_ms);
int aieth__xrtp_recv_raw(xrtp_chan *c, void *data, size_t len, int64_t deadline_ms);

#endif
