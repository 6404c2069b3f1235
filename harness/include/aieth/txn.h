/*
 * aieth/txn.h - transactions: the PL DMA engine's channels in PERF or FUNC mode,
 * and their per-channel results (cycle counters, throughput).
 */
#ifndef AIETH_PUBLIC_TXN_H
#define AIETH_PUBLIC_TXN_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { AIETH_MODE_FUNC = 0, AIETH_MODE_PERF = 1 } aieth_mode;

typedef enum {
	AIETH_TXN_PENDING = 0,   /* submitted, not waited for yet */
	AIETH_TXN_DONE = 1,      /* every channel finished */
	AIETH_TXN_TIMEOUT = 2,   /* the wait expired or the board stalled */
	AIETH_TXN_FAILED = 3,    /* the device rejected or failed it */
	AIETH_TXN_INTERRUPTED = 4 /* the session's interrupt flag was raised while
				     it ran: the device was stopped (on a board:
				     graphs, AIE array and PL kernel reset) */
} aieth_txn_status;

/* One channel of a transaction. data: for a TO_AIE channel the bytes to
 * send (size bytes); for a FROM_AIE channel the destination (size bytes).
 * Both must stay valid, and TX data unchanged, until the wait returned. */
typedef struct {
	const char *plio;        /* "PLIO_03_TO_AIE" */
	uint64_t size;           /* bytes per repetition, a multiple of 16 */
	uint64_t repetition;     /* >= 1; must be 1 in FUNC mode */
	uint64_t delay;          /* cycles to wait before starting */
	void *data;              /* may be NULL: TX sends zeros, RX discards */
} aieth_channel_args;

typedef struct aieth_txn aieth_txn;

/* Validate, encode and submit a transaction. Several may be submitted
 * before a wait; they run in submission order. *out belongs to the session
 * (freed by aieth_txn_free or aieth_session_close). */
int aieth_txn_submit(aieth_session *session, aieth_mode mode, const aieth_channel_args *args,
		     size_t num_args, aieth_txn **out);
/* Wait until this transaction (and every one submitted before it) is final.
 * timeout_ms bounds this transaction (0 = no limit); on the emulated board
 * it is compared with the board time the transaction takes. Returns AIETH_OK
 * when the transaction reached DONE or TIMEOUT (see aieth_txn_get_status),
 * an error when it FAILED. */
int aieth_txn_wait(aieth_txn *txn, uint32_t timeout_ms);
aieth_txn_status aieth_txn_get_status(const aieth_txn *txn);
const char *aieth_txn_status_name(aieth_txn_status status);
/* Why the transaction is invalid, timed out or failed; "" when valid. */
const char *aieth_txn_message(const aieth_txn *txn);
/* 1 when DONE and every channel's data is the user's data (PERF: nothing
 * beyond the URAM capacity in either direction), else 0. */
int aieth_txn_is_valid(const aieth_txn *txn);
aieth_mode aieth_txn_mode(const aieth_txn *txn);
/* Board cycles from kernel start to done: URAM preload, streaming, drain. */
uint64_t aieth_txn_total_cycles(const aieth_txn *txn);
void aieth_txn_free(aieth_txn *txn);

typedef struct {
	aieth_plio plio;
	uint64_t size, repetition, delay;
	uint64_t bytes_expected;     /* size * repetition */
	uint64_t bytes_moved;        /* bytes that crossed the PLIO */
	uint64_t user_bytes;         /* TX: user bytes sent per repetition; RX:
				        bytes returned to the caller's buffer */
	int finished;                /* all bytes moved */
	uint64_t first_cycle;        /* counter at first data (TX: after delay) */
	uint64_t last_cycle;         /* counter after the last beat */
	uint64_t cycles;             /* last - first */
	uint64_t stalled_since;      /* unfinished: cycle of the last progress */
	double mb_per_s;             /* 10^6 bytes per second at the board clock */
	double mib_per_s;            /* 2^20 bytes per second */
	double peak_mb_per_s;        /* theoretical rate of the channel */
	double utilisation_pct;      /* mb_per_s / peak_mb_per_s * 100 */
	int valid;                   /* 0: filler sent (TX) or data wrapped (RX) */
} aieth_channel_result;

size_t aieth_txn_num_channels(const aieth_txn *txn);
/* Results in argument order; AIETH_ESTATE while the transaction is pending. */
int aieth_txn_channel(const aieth_txn *txn, size_t i, aieth_channel_result *out);
int aieth_txn_channel_by_name(const aieth_txn *txn, const char *plio, aieth_channel_result *out);
/* first_cycle(to) - first_cycle(from), signed. Both channels must be part of
 * the transaction and the transaction DONE. */
int aieth_txn_delay_between(const aieth_txn *txn, const char *from_plio, const char *to_plio,
			    int64_t *cycles);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_TXN_H */
