/* SPDX-License-Identifier: MIT */
/*
 * srv_stream.h - streamed transactions (docs/http-api.md,
 * "Streamed transactions"): the device runs while the TX image is still
 * being uploaded and the RX image is sent while the device still writes
 * it, so that a remote transaction costs about the longest of the three
 * (upload, device, download) rather than their sum. Only for a device that
 * reads its TX image and writes its RX image while it is waited for,
 * its image gates (aieth_dev_streams: the emulated board): a gate on each
 * image (aieth_dev_txn_opts' tx_need and rx_wrote) makes the device wait
 * for TX bytes not yet uploaded and tells which RX bytes are final.
 *
 * Every wait is bounded: the device waits for a TX byte at most the
 * server's --client-timeout while none comes, and not at all once the
 * upload broke, the session ended or the server stops; then the TX bytes
 * that never came read as zeros and the transaction fails with that
 * reason. A download waits while the device runs, and at most
 * --client-timeout while it does not.
 */
#ifndef AIETH_SERVER_SRV_STREAM_H
#define AIETH_SERVER_SRV_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "aieth.h"

struct aieth__server;
struct srv_sess;
struct srv_txn;

typedef struct srv_stream srv_stream;

/* Makes t (new, not started, images allocated) a streamed transaction of
 * x: gates on both images. AIETH_OK or AIETH_ENOMEM. */
int aieth__srv_stream_new(struct aieth__server *s, struct srv_sess *x, struct srv_txn *t);
/* The gates into the options t starts with (aieth__srv_txn_start). */
void aieth__srv_stream_gates(srv_stream *st, aieth_dev_txn_opts *o);
void aieth__srv_stream_free(srv_stream *st);

/* The upload: begins (AIETH_ESTATE with the reason when one began
 * already, or the transaction failed); n bytes at the image's end, copied
 * in (-1 when the stream is closed: the device gave up on it); ends, whole
 * or broken (a broken one is final: the device stops waiting). */
int aieth__srv_stream_tx_begin(srv_stream *st, char *msg, size_t cap);
int aieth__srv_stream_tx_data(srv_stream *st, const void *data, size_t n);
void aieth__srv_stream_tx_end(srv_stream *st, int whole);

/* The device runs this transaction now (a wait), or not any more. */
void aieth__srv_stream_device(srv_stream *st, int running);
/* The transaction finished: every RX byte is final. */
void aieth__srv_stream_finished(srv_stream *st);
/* After the device's wait returned, on its thread, before anything may
 * fetch the whole RX image: a reused image's bytes the device did not
 * write are cleared (srv_stream.c, rx_clear). */
void aieth__srv_stream_rx_settle(srv_stream *st);
/* Why the device gave up waiting for TX bytes, or NULL. */
const char *aieth__srv_stream_failure(srv_stream *st);

/* The download: waits until RX bytes past pos are final; returns the end
 * of the final bytes (> pos), or 0 when the wait ended without them (the
 * session ended, the server stops, or no device ran the transaction for
 * --client-timeout). */
uint64_t aieth__srv_stream_rx_wait(srv_stream *st, uint64_t pos);

#endif
