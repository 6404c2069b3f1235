/* SPDX-License-Identifier: MIT */
/*
 * th_server/amd/amd_conn_internal.h - the state of one connection of AMD's
 * protocol, shared by its five files: amd_conn.c (requests, the manager,
 * graphs, the file return) calls amd_txn.c (transactions and their runner
 * thread), amd_xclbin.c (the manager's xclbin) and amd_io.c (socket reads
 * and writes); amd_txn.c and amd_xclbin.c's bytes go through amd_io.c;
 * amd_conn.c and amd_txn.c write the session log through amd_sesslog.c.
 */
#ifndef AIETH_SERVER_AMD_CONN_INTERNAL_H
#define AIETH_SERVER_AMD_CONN_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "th_server/amd/amd_conn.h"
#include "th_server/amd/amd_proto.h"
#include "util/text.h"

#define AMD_FETCHED_MAX 4096     /* fetched ids remembered (queries answer DONE) */
#define AMD_SEND_TIMEOUT_S 30    /* a client that stops reading a reply */
#define AMD_TIMEOUT_MAX_S 86400u /* setTimeOut is clamped to this */
/* the session log (amd_sesslog.c) */
#define AMD_LOG_NAME "test_harness_session.log"
#define AMD_LOG_LINES_MAX 10000u /* lines kept; later ones are counted */
#define AMD_LOG_BYTES_MAX (1u << 20)
#define AMD_LOG_LINE_MAX 1024           /* one line, cut with "..." */
#define AMD_LOG_Q (AIETH_QUOTE_CAP + 2) /* a quoted client string (aieth__amd_log_q) */

typedef struct amd_txn {
	uint32_t id;
	uint8_t st;    /* AMDP_ST_READY, RUNNING, TIMEOUT, DONE */
	int bad;       /* refused by the checks or the budget: zeros */
	int abandoned; /* fetched while running: dropped when done */
	uint8_t mode;  /* 0 FUNC, 1 PERF */
	uint64_t tx_len, rx_len;
	char why[512]; /* bad: what the checks said (the session log) */
	srv_txn *t;    /* NULL when bad */
	struct amd_txn *next;
} amd_txn;

/* The session log's lines, kept until written (amd_sesslog.c). */
typedef struct {
	char *p;
	size_t len, cap;
	unsigned lines;
	int full; /* the cap was reached: later lines counted */
	uint64_t dropped;
} amd_slog;

typedef struct {
	amd_shared *sh;
	aieth__server *s;
	int fd;
	const char *peer;
	amdp_dec dec;
	sbuf out;
	uint8_t in[65536];
	size_t in_len, in_pos;
	int64_t last_ms;    /* the last request (or the end of a wait) */
	uint64_t timeout_s; /* the idle watchdog (getTimeOut/setTimeOut) */
	/* the handshake's xrt.ini */
	uint8_t *ini;
	uint64_t ini_len;
	int ini_sent;
	/* the manager */
	int have_mgr;
	srv_sess *x; /* referenced (refs) while the connection lives */
	uint8_t started[AMDP_MAX_GRAPHS];
	/* the manager's xclbin (amd_xclbin.c) */
	char *xpath;          /* its scratch file, or NULL */
	int xfd;              /* open while bytes are due, else -1 */
	uint64_t xlen, xoff;  /* announced (reserved in the cache); received */
	int xerr;             /* a write failed: errno (the file is gone) */
	int64_t setup_end_ms; /* the manager must be in by then */
	/* transactions: mu guards the list and the states */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	amd_txn *txns;
	amd_txn *cur; /* the one being uploaded */
	pthread_t runner;
	int runner_on, runner_stop;
	uint32_t *fetched;
	size_t nfetched;
	char why[700]; /* why the connection ends (log) */
	amd_slog log;  /* test_harness_session.log */
} amd_conn;

/* ---- amd_io.c ---- */

/* The listener or the server is stopping. */
int aieth__amd_io_dying(amd_conn *c);
/* Send a, then img, then t (each may be empty), with one sendmsg per try
 * (MSG_NOSIGNAL). 0, or -1 with c->why. */
int aieth__amd_io_send(amd_conn *c, const uint8_t *a, size_t an, const uint8_t *img, size_t imgn,
		       const uint8_t *t, size_t tn);
/* Send c->out and empty it. */
int aieth__amd_io_flush(amd_conn *c);
/* The next decoder event (AMDP_EV_BULK or AMDP_EV_MSG), reading as needed
 * (bulk straight into its sink) under the watchdog; -1 at the end (c->why). */
int aieth__amd_io_next_event(amd_conn *c);

/* ---- amd_xclbin.c ---- */

/* The manager's xclbin of len bytes is announced: checked against
 * --max-xclbin and reserved in the design cache before its scratch file is
 * made. 0, or -1 (c->why): the connection ends. */
int aieth__amd_xclbin_begin(amd_conn *c, uint64_t len);
/* The xclbin bytes still due (amd_io.c passes them to aieth__amd_xclbin_take
 * before the decoder sees them). */
uint64_t aieth__amd_xclbin_due(const amd_conn *c);
/* n received bytes of it, written at their place; after a failed write
 * they are dropped (aieth__amd_xclbin_check reports it). */
void aieth__amd_xclbin_take(amd_conn *c, const uint8_t *p, size_t n);
/* The manager request is in: 0 when the xclbin was written whole, else -1
 * (c->why): the connection ends without a reply. */
int aieth__amd_xclbin_check(amd_conn *c);
/* The connection ends: the file removed, the reservation given back. */
void aieth__amd_xclbin_end(amd_conn *c);

/* ---- amd_sesslog.c ---- */

/* One line of the session log at level ("INFO", "WARNING", "ERROR", as
 * AMD's logger spells them); bytes outside printable ASCII escaped. */
void aieth__amd_log(amd_conn *c, const char *level, const char *fmt, ...) AIETH_PRINTF(3, 4);
/* A client's string for a log line: quoted, escaped, cut; returns out. */
const char *aieth__amd_log_q(const char *s, char out[AMD_LOG_Q]);
/* Write the log (and its "... N more lines not kept" line) as
 * test_harness_session.log into the session's artifact folder, replacing
 * what was written before; nothing without a session. 0 or -1 (logged on
 * the server). */
int aieth__amd_log_write(amd_conn *c);
void aieth__amd_sesslog_free(amd_conn *c);

/* ---- amd_txn.c ---- */

/* Start the runner thread (once the session holds the device). */
int aieth__amd_txn_start(amd_conn *c);
/* End the runner after the transaction it runs; drop every transaction. */
void aieth__amd_txn_stop(amd_conn *c);
/* A device call's bound: the watchdog, in ms. */
uint32_t aieth__amd_txn_limit_ms(amd_conn *c);
/* runTestHarness step 1 (accepted), the TX image's sink, the end;
 * queryTransactionStatus; waitForTestHarness. 0, or -1: the connection
 * ends (c->why). */
int aieth__amd_txn_run_bytes(amd_conn *c);
int aieth__amd_txn_begin(amd_conn *c, uint8_t **sink);
int aieth__amd_txn_run(amd_conn *c);
int aieth__amd_txn_query(amd_conn *c, uint32_t id);
int aieth__amd_txn_wait(amd_conn *c, uint32_t id, uint32_t tmo);

#endif
