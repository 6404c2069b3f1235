/* SPDX-License-Identifier: MIT */
/*
 * protocol.h - the host <-> PL DMA engine protocol of AMD's precompiled XSA
 * (AMD's include/pl/test_harness.hpp; docs/protocol.md). Everything a
 * device backend sends or receives is encoded here, so the emulated board
 * consumes the exact words and memory images a real board gets.
 *
 * Kernel arguments: 0 cfg (uint64 x 8N+1), 1 perf (uint64 x 4N),
 * 2 to_aie_mem (TX image), 3 from_aie_mem (RX image).
 *
 * cfg words: [0] mode (0 FUNC, else PERF); then for TX: delay[N] (u64),
 * frames[N] (u32), reps[N] (u32), offsets[N] (u32, in 16-byte words);
 * then the same four blocks for RX. perf words: TX first[N], TX last[N],
 * RX first[N], RX last[N].
 *
 * Memory images: PERF: N x 16 x D bytes, channel c at byte c*16*D,
 * min(size, 16*D) bytes of user data. FUNC: channels packed in argument
 * order, each size bytes, offsets in 16-byte words.
 */
#ifndef PLD_PROTOCOL_H
#define PLD_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#define PLD_WORD_BYTES 16u /* one 128-bit beat / memory word */
#define PLD_MODE_FUNC 0u
#define PLD_MODE_PERF 1u

/* Per-channel fields of the cfg words. */
typedef struct {
	uint64_t delay;
	uint32_t frames; /* beats per repetition */
	uint32_t reps;
	uint32_t offset; /* in 16-byte words within the memory image */
} pld_chan_cfg;

/* A segment's data through callbacks instead of memory (streaming): read
 * fills dst with segment bytes [off, off+len); write takes received bytes.
 * Offsets are relative to the segment. Either may be NULL (zeros / drop).
 * Failures are the callbacks' own to record: the image carries on; failed
 * (may be NULL) tells a device that one did, so it can stop the
 * transaction instead of moving the rest for nothing. */
typedef struct {
	void (*read)(void *ctx, uint64_t off, void *dst, uint64_t len);
	void (*write)(void *ctx, uint64_t off, const void *src, uint64_t len);
	int (*failed)(void *ctx);
	void *ctx;
} pld_io;

/* A sparse memory image: size bytes; seg[] are disjoint ranges sorted by
 * off, each backed by memory at ptr or by callbacks at io. Bytes outside
 * every segment read as zero and writes to them are discarded. */
typedef struct {
	uint64_t off, len;
	uint8_t *ptr;
	const pld_io *io; /* when ptr is NULL: the segment streams */
} pld_seg;

/* A memory image filled and drained while the device runs (th_server's
 * streamed transactions, docs/http-api.md): before the device reads image
 * bytes below end it calls need(ctx, end), which returns once they are in;
 * after it wrote bytes [off, off+len) it calls wrote(ctx, off, len). Both
 * run on the device's thread; either may be NULL. */
typedef struct {
	void (*need)(void *ctx, uint64_t end);
	void (*wrote)(void *ctx, uint64_t off, uint64_t len);
	void *ctx;
} pld_gate;

typedef struct {
	uint64_t size;
	size_t nseg;
	pld_seg *seg;         /* owned by the image (the array, not the memory) */
	const pld_gate *gate; /* NULL: every byte is there all along */
} pld_image;

/* A transaction as it crosses a device boundary. */
typedef struct {
	uint32_t channels; /* N */
	uint32_t depth;    /* D, URAM depth in words */
	uint64_t *cfg;     /* 8N+1 words */
	uint64_t *perf;    /* 4N words, filled by the device */
	pld_image tx;      /* to_aie_mem */
	pld_image rx;      /* from_aie_mem; segments point at destinations */
} pld_txn;

/* One channel of a transaction as the host describes it. */
typedef struct {
	int dir;        /* 0 TO_AIE, 1 FROM_AIE */
	uint32_t index; /* channel index within the direction */
	uint64_t size;  /* bytes per repetition, multiple of 16 */
	uint64_t reps;
	uint64_t delay;
	uint8_t *data;    /* TX source / RX destination; may be NULL */
	const pld_io *io; /* when data is NULL: callbacks (else ignored) */
} pld_arg;

static inline size_t pld_cfg_count(uint32_t n) { return 8u * (size_t)n + 1u; }
static inline size_t pld_perf_count(uint32_t n) { return 4u * (size_t)n; }

/* cfg word encode/decode. tx[] and rx[] have n entries each. */
void aieth__pld_cfg_encode(uint32_t n, uint64_t mode, const pld_chan_cfg *tx,
			   const pld_chan_cfg *rx, uint64_t *words);
void aieth__pld_cfg_decode(uint32_t n, const uint64_t *words, uint64_t *mode, pld_chan_cfg *tx,
			   pld_chan_cfg *rx);

/* perf word encode (device side) / decode (host side). */
void aieth__pld_perf_encode(uint32_t n, const uint64_t *tx_first, const uint64_t *tx_last,
			    const uint64_t *rx_first, const uint64_t *rx_last, uint64_t *words);
void aieth__pld_perf_decode(uint32_t n, const uint64_t *words, uint64_t *tx_first,
			    uint64_t *tx_last, uint64_t *rx_first, uint64_t *rx_last);

/* Build a transaction from host arguments (already validated: distinct
 * channels, sizes multiple of 16, FUNC reps 1, frames fit in 32 bits).
 * TX segments reference the caller's data (no copy); RX segments point at
 * the destinations. Returns 0, or -1 on allocation failure / overflow with
 * a message in err. */
int aieth__pld_txn_encode(pld_txn *t, uint32_t n, uint32_t depth, uint64_t mode,
			  const pld_arg *args, size_t nargs, char *err, size_t errlen);
void aieth__pld_txn_release(pld_txn *t);

/* Image size in bytes for a mode (PERF: N*16*D; FUNC: sum of sizes). */
uint64_t aieth__pld_image_bytes(uint32_t n, uint32_t depth, uint64_t mode, const pld_arg *args,
				size_t nargs, int dir);

/* Sparse image access. read fills dst (zeros outside segments); write
 * drops bytes outside segments; ptr returns a direct pointer when
 * [off, off+len) lies in one memory segment, else NULL (never for a
 * streaming segment). Streaming segments are called with the part of
 * [off, off+len) that falls in them. */
void aieth__pld_image_read(const pld_image *img, uint64_t off, void *dst, uint64_t len);
void aieth__pld_image_write(pld_image *img, uint64_t off, const void *src, uint64_t len);
uint8_t *aieth__pld_image_ptr(const pld_image *img, uint64_t off, uint64_t len);
/* Bytes [off, off+len) were written through a pointer of aieth__pld_image_ptr:
 * tells the image's gate (aieth__pld_image_write does so itself). */
void aieth__pld_image_wrote(const pld_image *img, uint64_t off, uint64_t len);
/* 1 when a streaming segment's callbacks failed (pld_io.failed), else 0. */
int aieth__pld_image_failed(const pld_image *img);

/* PERF filler: the 128-bit XOR lane mask P(b) for URAM block b
 * (lane k = (b << k) mod 2^16, b truncated to 16 bits), little-endian. */
void aieth__pld_filler_mask(uint64_t block, uint8_t mask[16]);

#endif /* PLD_PROTOCOL_H */
