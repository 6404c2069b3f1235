/* SPDX-License-Identifier: MIT */
/*
 * srv_txn.h - a transaction of th_server, from its creation to its end:
 * made under the memory budget, its TX image received, started on the
 * device, waited for (a streamed one's gates told, srv_stream.h), its
 * result read, then deleted, dropped or retired (AMD's protocol keeps a
 * record for run_summary.json). The listeners (http/, amd/) call only
 * these operations; none of them touches the server's lock.
 *
 * Locks: every operation takes srv->mu itself and returns with it
 * released, except those named _locked (for the core's own files, called
 * with mu held). A device call (start, wait) runs under the session's
 * call lock x->call, which the operations here take, and never with mu
 * held: x->call is taken before mu, never the other way round.
 */
#ifndef AIETH_SERVER_SRV_TXN_H
#define AIETH_SERVER_SRV_TXN_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "aieth.h"
#include "th_server/srv_image.h"
#include "th_server/srv_route.h"
#include "th_server/srv_stream.h"

struct aieth__server;
struct srv_sess;

/* A transaction shipped encoded (pld/protocol.h, aieth/device.h): the
 * images live here once, the device reads and writes them in place. The
 * states' names are aieth__dev_txn_state (wire/http_words.h), in this
 * order. */
typedef enum { ST_AWAIT_TX = 0, ST_STARTED, ST_FINISHED } srv_txn_state;

typedef struct srv_txn {
	char id[16];
	srv_txn_state state;
	uint32_t channels, depth; /* N, and the URAM depth in words */
	uint64_t *cfg;            /* 8N+1 words as the client sent them; NULL once
				     retired */
	uint64_t tx_size, rx_size;
	uint8_t *txbuf, *rxbuf; /* from im (srv_image.c) */
	int rx_dirty;           /* rxbuf may hold another transaction's bytes: cleared
				   before the device starts, or by its stream */
	srv_images *im;
	uint64_t tx_got;
	aieth_dev_txn *dev; /* once started (or a record: aieth__srv_txn_refused) */
	int failed;         /* the device call itself failed */
	char msg[512];
	uint64_t done, total; /* progress while it runs: bytes moved of expected */
	int busy;             /* TX uploads and RX downloads streaming now */
	srv_stream *stream;   /* a streamed transaction's gates, else NULL */
	uint32_t amd_id;      /* the id its AMD client gave it (has_amd_id) */
	int has_amd_id;
	struct srv_txn *next;
} srv_txn;

#define SRV_TXNS_MAX 16     /* transactions a session holds at once */
#define SRV_RETIRED_MAX 256 /* fetched AMD transactions listed in run_summary.json */

/* ---- its life ---- */

typedef enum {
	SRV_T_OK = 0,
	SRV_T_GEOMETRY, /* channels/depth are not the board's */
	SRV_T_TOO_MANY, /* the session holds SRV_TXNS_MAX */
	SRV_T_MEMORY,   /* past the --max-memory budget */
	SRV_T_NOMEM     /* allocation failed */
} srv_t_result;

/* A transaction of an active, referenced session from a checked request
 * (q->cfg is moved into it): images allocated under the memory budget,
 * the transaction appended with the next id. msg says why on failure. */
srv_t_result aieth__srv_txn_new(struct aieth__server *s, struct srv_sess *x, srv_txn_req *q,
				srv_txn **out, char *msg, size_t cap);
/* Whether images of bytes fit the --max-memory budget now (*used: the
 * bytes in use as seen). Nothing is reserved: aieth__srv_txn_new decides. */
int aieth__srv_txn_room(struct aieth__server *s, uint64_t bytes, uint64_t *used);
/* The id t's AMD client gave it (run_summary.json names it by that too). */
void aieth__srv_txn_set_amd_id(struct aieth__server *s, srv_txn *t, uint32_t amd_id);

/* Start t on x's device now (its TX image in, or streamed): through
 * core's guard (core/device.h), under x->call; then t is started, its
 * progress 0 of the bytes its cfg words ask for. AIETH_ESTATE while
 * another device call holds the session (x->call is not waited for). */
int aieth__srv_txn_start(struct aieth__server *s, struct srv_sess *x, srv_txn *t);
/* Wait for t, started, under x->call (not waited for: *busy set, nothing
 * done): a streamed transaction's device marked running around the wait,
 * the result in t, the counters moved, the state FINISHED unless the wait
 * itself timed out with the transaction still running (AIETH_ETIMEOUT
 * then). A transaction not started is left as it is (0). */
int aieth__srv_txn_wait(struct aieth__server *s, struct srv_sess *x, srv_txn *t,
			uint32_t timeout_ms, int *busy);
/* Start t and wait for it (timeout_ms) under x->call held throughout,
 * waiting for the lock: AMD's runner, which runs its session's
 * transactions back to back. */
int aieth__srv_txn_run(struct aieth__server *s, struct srv_sess *x, srv_txn *t,
		       uint32_t timeout_ms);

/* The TX bytes received so far (the upload's thread alone writes it; a
 * status query reads it from another thread). */
void aieth__srv_txn_tx_got(struct aieth__server *s, srv_txn *t, uint64_t v);
srv_txn_state aieth__srv_txn_state_get(struct aieth__server *s, const srv_txn *t);
/* t as JSON (aieth__srv_txn_json_locked, under mu). NULL when out of memory. */
struct json_object *aieth__srv_txn_json(struct aieth__server *s, struct srv_sess *x,
					const srv_txn *t);
/* The device's message on t's result ("" before it has one). */
const char *aieth__srv_txn_message(const srv_txn *t);

/* ---- looked up by id, for a request ---- */

/* The status of x's transaction id as JSON into *o (NULL when out of
 * memory): 0, or -1 when there is no such transaction. */
int aieth__srv_txn_status(struct aieth__server *s, struct srv_sess *x, const char *id,
			  struct json_object **o);

typedef enum {
	SRV_TD_OK = 0,  /* freed with its images */
	SRV_TD_NONE,    /* no such transaction */
	SRV_TD_RUNNING, /* started: *pos its place among the started ones */
	SRV_TD_BUSY     /* an upload, wait or download holds it */
} srv_td_result;
/* DELETE: a transaction not running and not streaming is freed with its
 * images. */
srv_td_result aieth__srv_txn_delete(struct aieth__server *s, struct srv_sess *x, const char *id,
				    unsigned *pos);

typedef enum {
	SRV_TW_OK = 0,   /* *t held (busy) for its wait and its result */
	SRV_TW_NONE,     /* no such transaction */
	SRV_TW_AWAIT_TX, /* its TX image is not in yet */
	SRV_TW_NOT_FIRST /* started after pid, which finishes first */
} srv_tw_result;
/* A transaction to wait for: held (busy) on SRV_TW_OK until
 * aieth__srv_txn_busy_put, after aieth__srv_txn_wait and its result. */
srv_tw_result aieth__srv_txn_wait_get(struct aieth__server *s, struct srv_sess *x, const char *id,
				      srv_txn **t, char *pid, size_t cap);

/* A TX upload of x's transaction id: *t found or NULL; held (busy, *held
 * set) when it awaits its TX image or streams and no other upload of a
 * transaction not streamed runs (*busy set then). */
void aieth__srv_txn_upload_get(struct aieth__server *s, struct srv_sess *x, const char *id,
			       srv_txn **t, int *busy, int *held);
/* An RX download: t held (busy) when finished, or streamed and still
 * running (*live); else NULL, *found saying whether it exists. */
srv_txn *aieth__srv_txn_rx_get(struct aieth__server *s, struct srv_sess *x, const char *id,
			       int *live, int *found);
/* Let go of a hold taken above. */
void aieth__srv_txn_busy_put(struct aieth__server *s, srv_txn *t);

/* ---- its end ---- */

/* Free a finished (or never started) transaction of x and return its
 * image bytes to the budget: AMD's protocol gives a result back once. */
void aieth__srv_txn_drop(struct aieth__server *s, struct srv_sess *x, srv_txn *t);
/* The same, but what run_summary.json shows of t (its id, state, sizes,
 * result) is kept in x->retired (the last SRV_RETIRED_MAX; older ones are
 * counted in retired_omitted): AMD's sessions list their transactions as
 * HTTP sessions do. */
void aieth__srv_txn_retire(struct aieth__server *s, struct srv_sess *x, srv_txn *t);
/* A transaction an AMD client sent that th_server's checks refused (its
 * wait answers TIMEOUT with zeros): a record in x->retired with the next
 * id, status FAILED and msg, so that run_summary.json lists it too. */
int aieth__srv_txn_refused(struct aieth__server *s, struct srv_sess *x, uint32_t amd_id,
			   uint32_t channels, uint64_t tx_bytes, uint64_t rx_bytes,
			   const char *msg);

/* ---- for the core's files (mu held) ---- */

/* Free t (its images, result, stream), wherever it was listed. */
void aieth__srv_txn_free(srv_txn *t);
/* The oldest started transaction (the next to finish), or NULL. */
srv_txn *aieth__srv_txn_running_locked(struct srv_sess *x);
/* 1-based place of t among x's started transactions (1 runs now); 0 when
 * t is not started. */
unsigned aieth__srv_txn_position_locked(struct srv_sess *x, const srv_txn *t);
/* t as JSON, the one form the HTTP API and run_summary.json give (the
 * progress hook writes t->done/total under mu): id, state, channels,
 * image sizes, TX bytes received; while running its place and progress;
 * once finished the result (aieth_dev_txn_result_json). NULL when out of
 * memory. */
struct json_object *aieth__srv_txn_json_locked(struct srv_sess *x, const srv_txn *t);

#endif
