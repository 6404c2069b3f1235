/* SPDX-License-Identifier: MIT */
/*
 * backends/dev_result.h - what a device reports for a transaction: one
 * struct per channel and direction, allocated in one place
 * (aieth__dev_result_alloc), and the names its JSON form uses. The form is
 * written by core/ (aieth_dev_txn_result_json, core/device.c: th_server's
 * transaction result and run_summary.json) and read back by the remote
 * backend (remote/remote_reply.c); both take the names from here, so what
 * is written is what is read (docs/http-api.md).
 */
#ifndef AIETH_BACKENDS_DEV_RESULT_H
#define AIETH_BACKENDS_DEV_RESULT_H

#include <stdint.h>

#include <json-c/json.h>

#include "aieth.h"

/* One channel of one direction. */
typedef struct {
	uint64_t moved_bytes;   /* bytes moved (whole beats of PLD_WORD_BYTES) */
	uint64_t stalled_since; /* unfinished: the cycle after its last beat (or
				       the start) */
	uint64_t first_cycle, last_cycle;
	int connected; /* 0 or 1 */
} aieth_dev_chan;

/* What a device reports for a transaction, besides the RX image and perf
 * words it writes into the encoded transaction. */
typedef struct {
	aieth_txn_status status;
	char msg[512];
	uint64_t total_cycles;   /* 0 when the device cannot tell */
	int have_progress;       /* the channels' progress below is valid */
	uint32_t channels;       /* N: the length of tx and rx */
	aieth_dev_chan *tx, *rx; /* one block of 2N (aieth__dev_result_alloc) */
} aieth_dev_result;

/* Zero *r and give it N channels per direction (AIETH_ENOMEM, with a
 * message, when out of memory); free gives them back (safe when zeroed). */
int aieth__dev_result_alloc(aieth_dev_result *r, uint32_t channels);
void aieth__dev_result_free(aieth_dev_result *r);

/* The JSON keys of the per-channel arrays: aieth__dev_chan_key[dir][field]
 * with dir 0 TX, 1 RX ("tx_moved_bytes", "rx_first", ...). */
enum {
	AIETH_DEV_MOVED_BYTES,
	AIETH_DEV_STALLED_SINCE,
	AIETH_DEV_FIRST_CYCLE,
	AIETH_DEV_LAST_CYCLE,
	AIETH_DEV_CONNECTED,
	AIETH_DEV_NFIELDS
};
extern const char *const aieth__dev_chan_key[2][AIETH_DEV_NFIELDS];

/* The result into o, the one JSON form of it (docs/http-api.md, read back
 * by the remote backend): "status" (the aieth_txn_status value) and
 * "status_name", "message", "total_cycles", "have_progress", "perf" (4N
 * hex words; left out when perf is NULL) and the per-channel arrays of N:
 * "tx_moved_bytes", "tx_since", "tx_first", "tx_last", "tx_connected" and
 * the same for rx. 0, or -1 when json-c ran out of memory (o then holds
 * part of it). */
int aieth__dev_result_json(struct json_object *o, const aieth_dev_result *res,
			   const uint64_t *perf);

/* The name of a transaction status (aieth_txn_status_name's spelling:
 * "PENDING", "DONE", ...), "?" outside the enum. */
const char *aieth__dev_status_name(aieth_txn_status st);

#endif /* AIETH_BACKENDS_DEV_RESULT_H */
