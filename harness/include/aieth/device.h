/* SPDX-License-Identifier: MIT */
/*
 * aieth/device.h - a session's device driven with transactions already
 * encoded as the PL DMA engine of AMD's precompiled XSA takes them: the
 * cfg words and the TX and RX memory images of its kernel arguments
 * (docs/protocol.md). A program that relays other programs' transactions
 * uses it (th_server, whose clients send them encoded: docs/http-api.md,
 * AMD's protocol); a program that has channels and data uses aieth/txn.h.
 *
 * The same one-call-at-a-time guard as every call on a session holds: a
 * call while another is running on the session fails with AIETH_ESTATE.
 */
#ifndef AIETH_PUBLIC_DEVICE_H
#define AIETH_PUBLIC_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"
#include "txn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An encoded transaction on a session's device: started, waited for once,
 * then its result read; freed by aieth_dev_txn_free. The result calls and
 * free keep working after the session closed. */
typedef struct aieth_dev_txn aieth_dev_txn;

/* A streamed image's gates (docs/http-api.md, "Streamed transactions"):
 * need(ctx, end) is called before the device reads TX image bytes below
 * end and returns once they are in the image; wrote(ctx, offset, len)
 * after the device wrote RX image bytes [offset, offset+len). Both run on
 * the thread inside aieth_dev_txn_wait. */
typedef void (*aieth_dev_need_fn)(void *ctx, uint64_t end);
typedef void (*aieth_dev_wrote_fn)(void *ctx, uint64_t offset, uint64_t len);

typedef struct {
	unsigned int version; /* AIETH_DEV_TXN_OPTS_VERSION */
	/* the kernel arguments: cfg (8N+1 words for the board's N channels,
	 * copied) and depth, the URAM depth in 16-byte words (the board's) */
	const uint64_t *cfg;
	size_t cfg_words;
	uint32_t depth;
	/* the memory images, the caller's: the device reads tx and writes rx
	 * while the transaction runs (both must stay valid until its wait
	 * returned); NULL with a size of 0 for an empty image */
	const void *tx;
	uint64_t tx_size;
	void *rx;
	uint64_t rx_size;
	/* streamed (aieth_dev_streams says whether the device can): NULL
	 * when every TX byte is in before the start */
	aieth_dev_need_fn tx_need;
	aieth_dev_wrote_fn rx_wrote;
	void *gate_ctx;
} aieth_dev_txn_opts;

#define AIETH_DEV_TXN_OPTS_VERSION 1
#define AIETH_DEV_TXN_OPTS_INIT                       \
	{                                             \
		.version = AIETH_DEV_TXN_OPTS_VERSION \
	}
int aieth_dev_txn_opts_init(aieth_dev_txn_opts *opts, unsigned int version);

/* 1 when the session's device runs streamed transactions (it reads the TX
 * image and writes the RX image only while waited for, through the
 * gates), 0 when not or when session is not a live session. */
int aieth_dev_streams(const aieth_session *session);

/* Start an encoded transaction on the session's device. AIETH_EINVAL when
 * the cfg words are not 8N+1 for the board's N channels or depth is not
 * the board's; *out is set only on AIETH_OK. Transactions run in the
 * order started. */
int aieth_dev_txn_start(aieth_session *session, const aieth_dev_txn_opts *opts,
			aieth_dev_txn **out);

/* Wait for t, the oldest started transaction of its session (timeout_ms 0:
 * no limit): the RX image and the perf words get what the device wrote.
 * AIETH_OK when the device answered; aieth_dev_txn_status says how the
 * transaction ended. */
int aieth_dev_txn_wait(aieth_dev_txn *t, uint32_t timeout_ms);

/* A record of a transaction that never reached a device (a relay refused
 * it): channels N, the status and message given, every counter zero. Its
 * result calls answer as for a waited transaction. */
int aieth_dev_txn_record(uint32_t channels, aieth_txn_status status, const char *message,
			 aieth_dev_txn **out);

/* The result of a waited transaction (or a record): its status
 * (AIETH_TXN_PENDING before the wait), the device's message ("" when
 * none) and its total cycles (0 when the device cannot tell). */
aieth_txn_status aieth_dev_txn_status(const aieth_dev_txn *t);
const char *aieth_dev_txn_message(const aieth_dev_txn *t);
uint64_t aieth_dev_txn_total_cycles(const aieth_dev_txn *t);

/* The perf words the device wrote (4N: TX first[N], TX last[N], RX
 * first[N], RX last[N], docs/protocol.md), *count set to 4N; NULL for a
 * record. */
const uint64_t *aieth_dev_txn_perf(const aieth_dev_txn *t, size_t *count);

/* The result as one JSON object, the form docs/http-api.md gives a
 * transaction's result ("status", "status_name", "message",
 * "total_cycles", "have_progress", "perf" as hex words unless a record,
 * and the per-channel arrays "tx_moved_bytes" ... "rx_connected"),
 * allocated (free() it); NULL with AIETH_ENOMEM's message when out of
 * memory. */
char *aieth_dev_txn_result_json(const aieth_dev_txn *t);

/* Free t (NULL is fine). A started transaction must have been waited for,
 * or its session closed, first: the device may still use its images. */
void aieth_dev_txn_free(aieth_dev_txn *t);

#ifdef __cplusplus
}
#endif

#endif /* AIETH_PUBLIC_DEVICE_H */
