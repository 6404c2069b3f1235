/* SPDX-License-Identifier: MIT */
/*
 * engine_internal.h - state of the emulated board shared by the timing
 * simulation (engine_sim.c), the data path (engine_data.c) and the glue
 * (engine.c). See docs/emulator.md for the model these structures encode.
 */
#ifndef PLD_ENGINE_INTERNAL_H
#define PLD_ENGINE_INTERNAL_H

#include "pl_dma/engine.h"

/* A graph kernel. Counters persist across transactions; times are cycles
 * of the current transaction (0 = before it started). */
typedef struct {
	pld_kernel_desc d;
	uint64_t limit;            /* iterations allowed to start */
	uint64_t started;          /* iterations started */
	uint64_t w[PLD_MAX_PORTS]; /* input beats received */
	uint64_t r[PLD_MAX_PORTS]; /* output beats drained */
	/* iterations started-2, started-1: end (start + cycles; the input
	 * buffer is free and the next iteration may start) and output time
	 * (end + latency) */
	uint64_t fin[2], avail[2];
	uint64_t windone[PLD_MAX_PORTS][2];   /* input windows started, started+1 complete */
	uint64_t draindone[PLD_MAX_PORTS][2]; /* output windows started-2, started-1 drained */
	/* Data that outlives a transaction: input beats [started*b, w) and
	 * output beats [r, started*b) of each port. */
	uint8_t *in_carry[PLD_MAX_PORTS];
	uint8_t *out_carry[PLD_MAX_PORTS];
	/* per-transaction bookkeeping */
	uint64_t started0, w0[PLD_MAX_PORTS], r0[PLD_MAX_PORTS];
	int active; /* has a channel in this transaction */
	/* d.timing: cycles and latency of iterations tbase .. tbase+tn-1 */
	uint64_t *tcyc, *tlat, tbase, tn;
} pld_kern;

#define PLD_TIMING_BATCH 256 /* iterations asked of a timing hook at once */

/* A channel in the current transaction. */
typedef struct {
	uint32_t idx;
	int dir;
	uint64_t n, d, k;               /* beats expected, delay, beats moved */
	uint64_t frames, reps, offset;  /* from the cfg words */
	uint64_t first, last, progress; /* counters; progress = cycle after last beat */
	int have_first;
	int func;     /* FUNC mode: memory path, no URAM */
	pld_kern *kp; /* bound kernel, NULL if none */
	uint32_t port;
	/* FUNC memory path */
	uint64_t fetched;         /* TX: words requested from memory */
	uint64_t claimed, popped; /* RX: words claimed by / written in bursts */
	uint32_t fifo, inflight;
} pld_chan;

/* One of the kernel's two memory movers (load_memories / store_memories in
 * AMD's test_harness.hpp): a sequential loop that visits the channels
 * round-robin, moves at most one burst per visit and waits for it. */
#define PLD_RING_EMPTY UINT32_MAX /* a channel slot with no words at all */
typedef struct {
	uint32_t *ring;             /* channel slots in visiting order:
					   component index or PLD_RING_EMPTY */
	uint32_t nv, pos;           /* slots still visited; next slot */
	uint32_t idle;              /* idle visits since anything moved (<= nv) */
	uint64_t next;              /* cycle of the next visit */
	int busy;                   /* a burst is moving */
	uint32_t chan, words, done; /* the burst: channel, length, words moved */
	uint64_t start;             /* cycle of its first word */
} pld_mover;

struct pld_engine {
	pld_engine_params p;
	uint32_t ngraphs;
	size_t nk;
	pld_kern *k;
	pld_kern **tx_bind, **rx_bind; /* per channel index: kernel or NULL */
	uint32_t *tx_port, *rx_port;
	char err[256];                     /* a graph-control failure, reported by the next run */
	const volatile sig_atomic_t *intr; /* aieth__pld_engine_set_hooks */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	uint64_t shown; /* the last done given to progress in this run */
	/* the data phase: bytes of the transaction, and which of how many
	 * active kernels is being computed (aieth__pld_data_poll) */
	uint64_t data_bytes;
	size_t data_k, data_nk;
	const pld_txn *data_txn; /* whose callbacks may fail (pld_io.failed) */
};

/* A set of channels and kernels simulated together. */
typedef struct {
	pld_engine *e; /* hooks: progress shown so far */
	int func;      /* FUNC mode: memory path modelled */
	pld_chan **tx, **rx;
	size_t ntx, nrx;
	pld_kern **kern;
	size_t nkern;
	pld_mover rd, wr; /* FUNC: the reader and the writer */
	char *err;        /* a timing hook failure goes here */
	size_t errlen;
	int model_failed; /* the run's error is the model's */
} pld_comp;

/* Simulate a component from cycle 0. Returns the run status; *end is the
 * cycle after the last activity (DONE) or the cycle the run stopped. */
pld_run_status aieth__pld_sim_component(pld_comp *c, int reference, uint64_t cycle_limit,
					uint64_t *end, uint64_t *steps, uint64_t *skipped,
					char *err, size_t errlen);

/* Start (and compute) every iteration the carried data allows, as if
 * unbounded time passed; then mark every time as past. 0, or -1 with err
 * filled when the model's compute fails. */
int aieth__pld_kern_settle(pld_kern *k, char *err, size_t errlen);

/* The data phase's hook, between chunks of its work: frac (0..1) of the
 * current kernel's work done. Gives progress the transaction's bytes in
 * that share of the whole phase (never less than already shown) and
 * returns PLD_DATA_INTERRUPTED when the interrupt flag is raised, or
 * PLD_DATA_IO_FAILED when a data source or sink of the transaction failed
 * (the rest would be moved for nothing): the data phase stops. Else 0. */
int aieth__pld_data_poll(pld_engine *e, double frac);

/* Data path, after the timing of a transaction is known. Returns 0, -1
 * with err filled (model compute failure, out of memory), or what
 * aieth__pld_data_poll returned to stop it. */
#define PLD_DATA_INTERRUPTED 2
#define PLD_DATA_IO_FAILED 3
int aieth__pld_data_fast(pld_engine *e, pld_txn *t, pld_chan *tx, pld_chan *rx, int done, char *err,
			 size_t errlen);
int aieth__pld_data_reference(pld_engine *e, pld_txn *t, pld_chan *tx, pld_chan *rx, int done,
			      char *err, size_t errlen);

/* TX stream beats [g0, g0+count) of a channel as the PL kernel emits them
 * (PERF: URAM with wrap and filler; FUNC: memory words). */
void aieth__pld_tx_stream(const pld_engine *e, const pld_txn *t, const pld_chan *c, uint64_t g0,
			  uint64_t count, uint8_t *dst);

#endif
