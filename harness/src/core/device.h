/* SPDX-License-Identifier: MIT */
/*
 * core/device.h - th_server's way to a session's device (not installed).
 * The server receives transactions already encoded (pl_dma/protocol.h:
 * the images and cfg words a client sent) and runs them here, through the
 * same one-call-at-a-time guard as the public API (core/handles.c): a call
 * while another is running on the session fails with AIETH_ESTATE, as
 * aieth_txn_submit would. Graph run, wait and end are the public
 * aieth_graph_* calls. The server never sees the session's struct or its
 * backend's operations (scripts/check-layers.py: an *_internal.h is
 * included from its own folder only).
 */
#ifndef AIETH_CORE_DEVICE_H
#define AIETH_CORE_DEVICE_H

#include <stdint.h>

#include <json-c/json.h>

#include "aieth.h"
#include "backends/dev_result.h"
#include "pl_dma/protocol.h"

/* The board the session was opened for. */
const aieth_board_info *aieth__dev_info(const aieth_session *s);

/* 1 when the session's device can run a streamed transaction: it reads
 * the TX image and writes the RX image only while waited for, through
 * the images' gates (pld_gate); else 0. */
int aieth__dev_streams(const aieth_session *s);

/* Start an encoded transaction on the session's device: the device reads
 * wire's TX image when it runs. wire stays the caller's and must stay
 * alive until its wait. */
int aieth__dev_txn_start(aieth_session *s, pld_txn *wire);

/* Wait for the oldest started transaction (wire): res (allocated for the
 * session's channels, aieth__dev_result_alloc) gets its outcome, wire its
 * RX image and perf words. AIETH_OK when the device answered (res->status
 * says how the transaction ended). */
int aieth__dev_txn_wait(aieth_session *s, pld_txn *wire, uint32_t timeout_ms,
			aieth_dev_result *res);

/* A graph's iterations done and whether its bounded run completed (what
 * aieth_graph_iterations_done gives, plus the completion). */
int aieth__dev_graph_status(aieth_session *s, const char *graph, uint64_t *done, int *complete);

/* The result of a finished transaction into o, the one JSON form of it
 * (docs/http-api.md; names from backends/dev_result.h, read back by the
 * remote backend): "failed" and "message" always; unless failed,
 * "status" (the aieth_txn_status value) and "status_name", "total_cycles",
 * "have_progress", "perf" (4N hex words; left out when perf is NULL) and
 * the per-channel arrays of N: "tx_moved_bytes", "tx_since", "tx_first",
 * "tx_last", "tx_connected" and the same for rx. failed: the device call
 * itself failed with fail_msg (res is not read). 0, or -1 when json-c ran
 * out of memory (o then holds part of it). */
int aieth__dev_result_json(struct json_object *o, const aieth_dev_result *res, const uint64_t *perf,
			   int failed, const char *fail_msg);

#endif /* AIETH_CORE_DEVICE_H */
