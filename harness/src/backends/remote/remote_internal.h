/* SPDX-License-Identifier: MIT */
/*
 * backends/remote/remote_internal.h - what the files of the remote backend
 * share: its state, the images as libcurl streams them (remote_image.c),
 * its requests (remote_http.c), the session (remote_session.c), the RX
 * download and the streamed wait (remote_stream.c), and the calls of its
 * ops table (remote.c). Not for other folders.
 *
 * Calls go one way, down this list: remote.c; remote_graph.c and
 * remote_txn.c; remote_session.c and remote_stream.c; remote_http.c;
 * remote_image.c.
 */
#ifndef AIETH_BACKENDS_REMOTE_INTERNAL_H
#define AIETH_BACKENDS_REMOTE_INTERNAL_H

#include "backends/backend.h"

#define BASE_MAX 512 /* rm_state.base */

/* The backend's open and close (the ops table's): without libcurl, an open
 * that says so (remote.c). */
int aieth__rm_open(const aieth_dev_config *cfg, void **state);
void aieth__rm_close(void *state);

#ifdef AIETH_HAVE_CURL

#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "backends/remote/remote_http.h"
#include "backends/remote/remote_sensors.h"
#include "util/sbuf.h"

#define CALL_S RMH_CALL_S
#define TXNS_MAX 16
#define WAIT_MAX_MS 600000u /* the server's limit on one wait */

typedef struct {
	const aieth_dev_config *cfg;  /* cfg->opts.remote: during open only */
	char *cacert, *artifacts_dir; /* aieth_remote_opts': copies (NULL: not given) */
	char *pin;                    /* aieth_remote_opts.pinned_key's copy (NULL: none) */
	rmh_trust trust;              /* cacert and pin, as every request uses them */
	uint64_t artifacts_max;       /* aieth_remote_opts.artifacts_max_bytes */
	CURL *h;
	rmh_xfer xfer;      /* the interrupt flag, the stall limit; no progress */
	int device_wait;    /* the request waits on the device: no stall limit */
	rmh_xfer xfer_wait; /* xfer as such a request uses it */
	char base[BASE_MAX];
	char auth[320];
	char sid[64];
	char tids[TXNS_MAX][24]; /* started, not yet waited for: FIFO */
	size_t nt, head;
	pld_txn *wires[TXNS_MAX];
	int streamed[TXNS_MAX]; /* the server streams it: uploaded in the wait */
	int serial;             /* AIETH_REMOTE_STREAM=0: never asks for it */
	int concurrent_io;      /* aieth_remote_opts.concurrent_io: the upload on
				   a thread of its own (aieth__rm_txn_stream) */
	/* a streamed transaction's upload and download beside the wait, on
	 * connections of their own (made at the first one) */
	CURLM *multi;
	CURL *h_up, *h_rx;
	rms_conn sens; /* GET /v1/sensors from any thread (remote_sensors.h) */
} rm_state;

/* An image as a transfer reads or writes it (remote_image.c). */
typedef struct {
	pld_image *img;
	uint64_t off;                  /* bytes passed to or from the image */
	uint8_t carry[PLD_WORD_BYTES]; /* RX: a partial word, written once whole */
	size_t ncarry;
} img_io;

/* remote_image.c */

/* CURLOPT_WRITEFUNCTION into the RX image of ctx (an img_io *): whole
 * words only, a partial one kept for the next call. */
size_t aieth__rm_img_write(char *data, size_t size, size_t nmemb, void *ctx);

/* h uploads the TX image of up (PUT). */
void aieth__rm_up_setup(CURL *h, img_io *up);

/* remote_http.c */

/* A request's common setup on the backend's handle (remote_http.h). */
struct curl_slist *aieth__rm_setup(rm_state *st, const char *url, const char *content_type,
				   long timeout_s);

/* One request. body: JSON text or NULL; up: the TX image stream or NULL.
 * *status is the HTTP status; resp (may be NULL) gets a JSON reply.
 * Returns AIETH_OK when the exchange happened (any status), else an error
 * naming the server. A request the rate limit refused is repeated after
 * the wait the server names (aieth__rmh_perform). Idempotent requests are retried
 * on connection failures. timeout_s 0: no overall limit (a transfer of any
 * size). */
int aieth__rm_req(rm_state *st, const char *method, const char *path, const char *body, img_io *up,
		  long timeout_s, long *status, sbuf *resp);

/* A request whose reply must have status want; the reply JSON parsed into
 * *out (may be NULL). Other statuses become errors with the server's
 * message: 401 and 403 are the token, 404 not found, 409 state, 504 a
 * timeout, the rest the device. */
int aieth__rm_json(rm_state *st, const char *method, const char *path, const char *body, long want,
		   long timeout_s, struct json_object **out);

/* A reply (its status and body b, freed here) to a request that wants
 * status want: see aieth__rm_json. */
int aieth__rm_reply(rm_state *st, const char *method, const char *path, long status, long want,
		    sbuf *b, struct json_object **out);

/* Whether the server ended this client's session itself (--max-session,
 * an idle limit): its reason into reason[cap]. */
int aieth__rm_session_ended(rm_state *st, char *reason, size_t cap);

/* Seconds on the monotonic clock. */
double aieth__rm_mono_s(void);

/* remote_session.c */

/* A hang's aie_state.json, fetched at once (best effort). */
void aieth__rm_fetch_aie_state(rm_state *st);

/* remote_stream.c */

/* GET path (.../rx) into the image of down, from down->off on. */
int aieth__rm_rx_download(rm_state *st, const char *path, img_io *downp);

/* The length of a streamed download's next piece: after one of prev bytes
 * (0: none yet) that took took_s, with left bytes to come. */
uint64_t aieth__rm_rx_piece_next(uint64_t prev, uint64_t left, double took_s);

/* A streamed transaction's wait: upload, wait and download at once. */
int aieth__rm_txn_stream(rm_state *st, const char *tid, pld_txn *wire, const char *body,
			 long wait_s, struct json_object **out, img_io *down, int *rx_whole,
			 char *up_err, size_t cap);

/* remote_txn.c: the ops table's transaction calls */
int aieth__rm_txn_start(void *state, pld_txn *wire);
int aieth__rm_txn_wait(void *state, pld_txn *wire, uint32_t timeout_ms, aieth_dev_result *res);

/* remote_graph.c: the ops table's graph calls */
int aieth__rm_graph_run(void *state, uint32_t graph, int64_t iterations);
int aieth__rm_graph_wait(void *state, uint32_t graph, uint32_t timeout_ms);
int aieth__rm_graph_end(void *state, uint32_t graph);
int aieth__rm_graph_status(void *state, uint32_t graph, uint64_t *done, int *complete);
int aieth__rm_graph_ports(void *state, uint32_t graph, aieth_graph_port *ports, size_t cap,
			  size_t *n);
int aieth__rm_update_rtp(void *state, uint32_t graph, const char *port, const void *data,
			 size_t size);
int aieth__rm_read_rtp(void *state, uint32_t graph, const char *port, void *data, size_t size);

#endif /* AIETH_HAVE_CURL */
#endif
