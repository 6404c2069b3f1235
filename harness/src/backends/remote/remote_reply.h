/* SPDX-License-Identifier: MIT */
/*
 * backends/remote/remote_reply.h - th_server's replies checked as strictly
 * as a file (docs/http-api.md): every field the remote backend uses has the
 * documented type and range, arrays the session's channel count; a value
 * outside the documented set is a protocol error (AIETH_EDEVICE, run_test
 * exit 3), never a pass. Keys the backend does not use are ignored (a newer
 * server may add some).
 */
#ifndef AIETH_BACKENDS_REMOTE_REPLY_H
#define AIETH_BACKENDS_REMOTE_REPLY_H

#ifdef AIETH_HAVE_CURL

#include <stdint.h>

#include <json-c/json.h>

#include "backends/backend.h"

/* The reply to POST .../txns/TID/wait (base names the server in messages);
 * its "channels", "tx_bytes" and "rx_bytes" must be the wire's, as submitted.
 * When the device failed it ("failed": true), *failed is 1 and res->msg the
 * server's message; else res and the wire's perf words get the result.
 * Nothing is written into res or wire unless the whole reply is valid. */
int aieth__rmr_txn_result(const char *base, const char *tid, struct json_object *o, pld_txn *wire,
			  aieth_dev_result *res, int *failed);

/* The reply to POST .../txns (201) for wire, asked (non-zero) to stream:
 * "stream" true or false (true only when asked), "id" a transaction id
 * (1..tid_size-1 bytes of t, - and digits), "state" "running" when it
 * streams, else "awaiting_tx", "channels", "tx_bytes" and "rx_bytes" the
 * wire's, as submitted, "tx_received" 0. tid gets the id, *streamed
 * whether the server streams it; nothing is written unless the whole
 * reply is valid. */
int aieth__rmr_txn_created(const char *base, struct json_object *o, const pld_txn *wire, int asked,
			   char *tid, size_t tid_size, int *streamed);

/* A session's state reply (POST /v1/sessions, GET /v1/sessions/SID):
 * "state" one of queued, active, ended, expired; "position" 0..65535 when
 * present (required while queued); reason (may be NULL) the "reason"
 * string or "". */
int aieth__rmr_session_state(const char *base, struct json_object *o, const char **state,
			     uint32_t *position, const char **reason);

/* GET /v1/health: "server", "version" and "backend" strings of 1..40
 * printable ASCII bytes (they go into the report as they are). */
int aieth__rmr_health(const char *base, struct json_object *o);

/* GET .../graphs/NAME: "iterations_done" (0..2^63-1), "complete" (bool). */
int aieth__rmr_graph_status(const char *base, struct json_object *o, uint64_t *done, int *complete);

/* GET /v1/sensors: "available" (bool; false: the server's board is
 * emulated, no sensors: AIETH_EUNSUPPORTED), "sensors" an array of at most
 * AIETH_SENSORS_MAX objects {"name", "source" (printable ASCII, 1..127 and
 * 1..47 bytes, names unique), "kind" (temperature, voltage, power,
 * current), "unit" (the kind's: "\u00b0C", V, W, A), "value" (a finite
 * number, or null: no reading now)}, "notes" an array of at most
 * RMR_SENSOR_NOTES_MAX strings of at most RMR_SENSOR_NOTE_MAX bytes
 * without control bytes. At most cap sensors into out, their count in *n;
 * notes (notes_cap bytes, may be 0) the notes, one a line. Nothing is
 * written unless the whole reply is valid. */
#define RMR_SENSOR_NOTES_MAX 64
#define RMR_SENSOR_NOTE_MAX 300
int aieth__rmr_sensors(const char *base, struct json_object *o, aieth_sensor *out, size_t cap,
		       size_t *n, char *notes, size_t notes_cap);

/* GET .../graphs/NAME/ports: "ports" an array of at most
 * AIETH_GRAPH_PORTS_MAX objects, each "plio" 1..31 printable ASCII bytes,
 * "direction" "to_aie" or "from_aie", "kernel" 0..2^32-1 and
 * "bytes_per_iteration" 1..2^63-1. The first cap of them go into ports,
 * their count into *n; nothing is written unless the whole reply is valid. */
int aieth__rmr_graph_ports(const char *base, struct json_object *o, aieth_graph_port *ports,
			   size_t cap, size_t *n);

#endif
#endif
