/* SPDX-License-Identifier: MIT */
/*
 * engine.h - the emulated board: a cycle model of the PL DMA engine of AMD's
 * precompiled XSA plus models of the AIE graph kernels behind its PLIOs.
 *
 * The engine consumes an encoded transaction (pld_txn: cfg words, TX image,
 * RX image) exactly as a real board would, and produces the RX image and the
 * perf words. Its timing model is in docs/emulator.md. Two modes give the
 * same counters and data: the reference mode steps every cycle; the fast mode
 * skips idle stretches and repeats of a periodic steady state exactly, and
 * computes only the graph iterations whose outputs can be observed.
 */
#ifndef PLD_ENGINE_H
#define PLD_ENGINE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "aieth_model.h"
#include "pld/protocol.h"

#define PLD_MAX_PORTS AIETH_MODEL_MAX_PORTS
#define PLD_FOREVER UINT64_MAX

typedef struct {
	uint32_t channels;    /* N per direction */
	uint32_t depth;       /* URAM depth in words */
	uint32_t burst_words; /* FUNC memory path */
	uint32_t fifo_depth;
	uint32_t read_latency;
	uint32_t write_latency;
	uint32_t preload_latency; /* PERF: cycles per channel to start a URAM load/drain */
	uint32_t loop_overhead;   /* FUNC: cycles of one visit of a mover's loop */
	/* Cycles the hardware adds to each counter edge (trigger FIFO hand-over):
	 * TX first/last, RX first/last. Applied to channels that move data. */
	uint32_t edge_tx_first, edge_tx_last, edge_rx_first, edge_rx_last;
} pld_engine_params;

/* A graph kernel bound to channels (indices within each direction). */
typedef struct {
	uint32_t graph; /* graph id, 0-based */
	uint32_t n_in, n_out;
	uint32_t in_chan[PLD_MAX_PORTS];  /* TX channel feeding input p */
	uint32_t out_chan[PLD_MAX_PORTS]; /* RX channel draining output q */
	uint64_t in_beats[PLD_MAX_PORTS]; /* beats per iteration */
	uint64_t out_beats[PLD_MAX_PORTS];
	uint64_t cpi; /* cycles per iteration, >= 1 */
	uint64_t latency;
	aieth_model_compute_fn compute;
	void *ctx;
	/* Optional per-iteration timing (aieth_model.iteration_timing): when
	 * set, iteration i uses its own cycles and latency instead of cpi and
	 * latency; timing_period as in aieth_model.h (0 = aperiodic). The
	 * names only label messages (may be NULL). */
	int (*timing)(void *ctx, uint32_t kernel, uint64_t first, uint64_t count, uint64_t *cycles,
		      uint64_t *latency);
	void *timing_ctx;
	uint32_t timing_kernel;
	uint64_t timing_period;
	const char *model_name, *kernel_name;
} pld_kernel_desc;

/* Limit of a per-iteration cycles or latency value (aieth_model.h). */
#define PLD_MAX_TIMING 1000000000ull

typedef enum {
	PLD_RUN_DONE = 0,       /* every channel finished */
	PLD_RUN_STALLED = 1,    /* no channel can ever progress again */
	PLD_RUN_TIMEOUT = 2,    /* still progressing at the cycle limit */
	PLD_RUN_ERROR = 3,      /* malformed transaction or model failure */
	PLD_RUN_INTERRUPTED = 4 /* the interrupt flag was raised (aieth__pld_engine_set_hooks) */
} pld_run_status;

typedef struct {
	uint64_t beats_expected;
	uint64_t beats_moved;
	uint64_t first, last;   /* counter values (valid when finished) */
	uint64_t stalled_since; /* cycle after the last beat (or the start) */
	int finished;
	int connected; /* bound to a graph kernel port */
} pld_chan_progress;

typedef struct {
	pld_run_status status;
	uint64_t end_cycle;         /* streaming phase end (all channels done) */
	uint64_t preload_cycles;    /* PERF URAM load before the counters start */
	uint64_t drain_cycles;      /* PERF URAM store after the streaming phase */
	pld_chan_progress *tx, *rx; /* N entries each, allocated by the caller */
	uint64_t sim_steps;         /* cycles simulated one by one (diagnostics) */
	uint64_t sim_skipped;       /* cycles covered by exact skips */
	char msg[512];
} pld_run_result;

typedef struct pld_engine pld_engine;

/* Create an engine; kernels are copied. Returns 0, -1 with err filled. */
int aieth__pld_engine_create(pld_engine **out, const pld_engine_params *p, const pld_kernel_desc *k,
			     size_t nk, uint32_t ngraphs, char *err, size_t errlen);
void aieth__pld_engine_destroy(pld_engine *e);

/* Graph control. run adds iterations (PLD_FOREVER: unbounded); end stops
 * starting new iterations. */
void aieth__pld_engine_graph_run(pld_engine *e, uint32_t graph, uint64_t iterations);
void aieth__pld_engine_graph_end(pld_engine *e, uint32_t graph);
/* Let the kernels run to quiescence (time passes between transactions),
 * then report: iterations started by the slowest kernel of the graph, and
 * whether every kernel reached its limit. */
void aieth__pld_engine_graph_status(pld_engine *e, uint32_t graph, uint64_t *done, int *complete);

/* Hooks checked every few thousand simulated steps of a run, and between
 * chunks of its data phase (both may be NULL): when *intr is non-zero the
 * run stops with PLD_RUN_INTERRUPTED (no more data is moved, no perf words
 * stored; stopped in the data phase, r->msg says so); progress gets the
 * bytes moved and expected by the channels being simulated, then, while
 * the data is computed, the transaction's bytes in the share of that work
 * done (never less than shown before). */
void aieth__pld_engine_set_hooks(pld_engine *e, const volatile sig_atomic_t *intr,
				 void (*progress)(void *ctx, uint64_t done, uint64_t total),
				 void *ctx);

/* Run one transaction. reference: 1 = step every cycle. cycle_limit: stop
 * the streaming phase there (0 = none). r->tx/r->rx must point at N entries.
 * Returns 0 when the run produced a status (any), -1 on internal failure. */
int aieth__pld_engine_run(pld_engine *e, pld_txn *t, int reference, uint64_t cycle_limit,
			  pld_run_result *r);

/* After a stalled run or at a timeout (board cycle now): where each port
 * of each active kernel stands, the emulator's counterpart of the AI
 * Engine array's state on a board (docs/emulator.md, "When a graph
 * stalls"). */
typedef enum {
	PLD_PORT_READY,       /* has what the next iteration needs: another port holds it */
	PLD_PORT_WAIT_INPUT,  /* input: the next iteration's window is not all there */
	PLD_PORT_WAIT_OUTPUT, /* output: an iteration's output is not drained */
	PLD_PORT_WAIT_KERNEL, /* the kernel is inside an iteration that ends after now */
	PLD_PORT_DONE         /* the kernel ran the iterations it was given */
} pld_port_wait;

typedef struct {
	size_t kernel; /* index in the descriptions given to aieth__pld_engine_create */
	int out;       /* 0: an input port (TX channel), 1: an output (RX) */
	uint32_t port; /* index among the kernel's inputs or outputs */
	uint32_t chan; /* its channel index in that direction */
	pld_port_wait state;
	uint64_t started; /* iterations the kernel started */
	uint64_t limit;   /* iterations it may start (PLD_FOREVER: unbounded) */
	/* WAIT_INPUT: beats of the next iteration received; WAIT_OUTPUT:
	 * beats of the oldest undrained iteration not drained; else 0 */
	uint64_t beats;
	uint64_t beats_per_iteration;
	uint64_t busy_until; /* WAIT_KERNEL: the cycle the iteration ends */
	const char *kernel_name, *model_name;
	uint32_t graph;
} pld_port_state;

/* The ports of the active kernels into out[cap], kernels in order, each
 * kernel's inputs then outputs. Returns how many there are (may exceed
 * cap: only cap were written). */
size_t aieth__pld_engine_port_states(const pld_engine *e, uint64_t now, pld_port_state *out,
				     size_t cap);

#endif /* PLD_ENGINE_H */
