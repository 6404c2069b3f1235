/* SPDX-License-Identifier: MIT */
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
	AIETH_TXN_PENDING = 0,    /* submitted, not waited for yet */
	AIETH_TXN_DONE = 1,       /* every channel finished */
	AIETH_TXN_TIMEOUT = 2,    /* the wait expired or the board stalled */
	AIETH_TXN_FAILED = 3,     /* the device rejected or failed it */
	AIETH_TXN_INTERRUPTED = 4 /* the session's interrupt flag was raised while
				     it ran: the device was stopped (on a board:
				     graphs, AIE array and PL kernel reset) */
} aieth_txn_status;

/* Limits of a channel, checked by aieth_txn_submit (and by test descriptions
 * before anything is allocated). The PL kernel's beat and repetition
 * counters are 32-bit (numFrames, numRep); the rest keeps every cycle and
 * byte count of a transaction within 64 bits (2^60 cycles are over 100
 * years at 312.5 MHz). */
#define AIETH_MAX_CHANNEL_SIZE (16ull * 4294967295ull) /* bytes per repetition */
#define AIETH_MAX_REPETITION 4294967295ull
#define AIETH_MAX_CHANNEL_BYTES (1ull << 60) /* size x repetition */
#define AIETH_MAX_DELAY_CYCLES (1ull << 60)

/* Streamed channel data (instead of a data pointer, so that no copy of the
 * dataset is held). offset is a byte offset into the channel's data of one
 * repetition; len is a multiple of 16 and offset + len <= size.
 *
 * read (TO_AIE): fill buf with bytes [offset, offset+len). It may be asked
 * for any range, more than once (the emulated board reads what each graph
 * iteration needs; a board's device buffer is filled front to back).
 * write (FROM_AIE): bytes [offset, offset+len) arrived. Calls come in
 * increasing offset order without overlap; bytes never written were not
 * received (a pointer destination would keep what it held).
 *
 * In FUNC mode the callbacks run inside aieth_txn_wait while the data
 * moves, in chunks of at most a few MiB. In PERF mode the board holds at
 * most the URAM capacity per channel: read is called in aieth_txn_submit
 * for min(size, URAM capacity) bytes, and write in aieth_txn_wait after
 * the transaction is DONE for the bytes returned (aieth_channel_result's
 * user_bytes), and the library buffers only those bytes.
 *
 * Return 0, or nonzero to fail: the transaction then ends FAILED with a
 * message naming the channel and offset (data already moved is moot).
 * Callbacks must not call back into the library (a call on the same
 * session gives AIETH_ESTATE: docs/api.md, "Handles and threads"). */
typedef int (*aieth_data_read_fn)(void *ctx, uint64_t offset, void *buf, size_t len);
typedef int (*aieth_data_write_fn)(void *ctx, uint64_t offset, const void *buf, size_t len);

/* One channel of a transaction. data: for a TO_AIE channel the bytes to
 * send (size bytes); for a FROM_AIE channel the destination (size bytes).
 * Both must stay valid, and TX data unchanged, until the wait returned.
 * An array element, not versioned itself (neither is aieth_channel_io):
 * its layout belongs to the call that takes the array, as the layout of
 * aieth_graph_spec belongs to aieth_session_opts' version. A new field
 * here would come with a new call (or a versioned struct holding the
 * array), never by changing what aieth_txn_submit reads. */
typedef struct {
	const char *plio;    /* "PLIO_03_TO_AIE" */
	uint64_t size;       /* bytes per repetition, a multiple of 16 */
	uint64_t repetition; /* >= 1; must be 1 in FUNC mode */
	uint64_t delay;      /* cycles to wait before starting */
	void *data;          /* may be NULL: TX sends zeros, RX discards */
} aieth_channel_args;

/* Streamed data of one channel (aieth_txn_submit_io): read for a TO_AIE
 * channel, write for a FROM_AIE channel, ctx passed to it. All NULL: the
 * channel uses its data pointer. A callback needs the channel's data
 * pointer NULL and must be of the channel's direction (else AIETH_EINVAL). */
typedef struct {
	aieth_data_read_fn read;
	aieth_data_write_fn write;
	void *ctx;
} aieth_channel_io;

typedef struct aieth_txn aieth_txn;

/* Validate, encode and submit a transaction. Several may be submitted
 * before a wait; they run in submission order. *out belongs to the session
 * (freed by aieth_txn_free or aieth_session_close). */
int aieth_txn_submit(aieth_session *session, aieth_mode mode, const aieth_channel_args *args,
		     size_t num_args, aieth_txn **out);
/* The same with streamed data: io[i] (io may be NULL) gives channel i's
 * callbacks. Nothing of the dataset is held by the library in FUNC mode
 * on the emulated board; on a board the device buffer is filled from the
 * callbacks in chunks; in PERF mode at most the URAM's worth per channel. */
int aieth_txn_submit_io(aieth_session *session, aieth_mode mode, const aieth_channel_args *args,
			const aieth_channel_io *io, size_t num_args, aieth_txn **out);
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
	uint64_t bytes_expected; /* size * repetition */
	uint64_t bytes_moved;    /* bytes that crossed the PLIO */
	uint64_t user_bytes;     /* TX: user bytes sent per repetition; RX:
				        bytes returned to the caller's buffer */
	int finished;            /* all bytes moved */
	uint64_t first_cycle;    /* counter at first data (TX: after delay) */
	uint64_t last_cycle;     /* counter after the last beat */
	uint64_t cycles;         /* last - first */
	uint64_t stalled_since;  /* unfinished: cycle of the last progress */
	double mb_per_s;         /* 10^6 bytes per second at the board clock */
	double mib_per_s;        /* 2^20 bytes per second */
	double peak_mb_per_s;    /* theoretical rate of the channel */
	double utilisation_pct;  /* mb_per_s / peak_mb_per_s * 100 */
	int valid;               /* 0: filler sent (TX) or data wrapped (RX) */
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
