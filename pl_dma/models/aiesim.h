/* SPDX-License-Identifier: MIT */
/*
 * aiesim.h - the "aiesim" built-in model (not installed): a graph replayed
 * from aiesimulator's PLIO text files (docs/graph-models.md, "aiesim").
 *
 * Two parts, both used by the model and by the tests:
 *  - the reader of one PLIO text file ("T <time> <unit>" lines, "TLAST",
 *    comments, data lines of one element type) into bytes, time stamps and
 *    packet ends, streamed line by line with bounded memory;
 *  - the timing: simulated times converted to PL cycles and fitted to the
 *    model ABI's window timing (cycles_per_iteration, latency).
 *
 * The reader lives here rather than in harness/src/data/ (whose text
 * parser reads the same element syntax) because pl_dma/ may use util/
 * only (docs/architecture.md); a shared element-text reader in util/
 * would let both use one.
 */
#ifndef AIETH_MODELS_AIESIM_H
#define AIETH_MODELS_AIESIM_H

#include <stddef.h>
#include <stdint.h>

#include "aieth_model.h"

/* Limits of one file: its size on disk, the data bytes it may hold, the
 * length of one line and the latest time stamp (1000 s). */
#define AIESIM_MAX_FILE_BYTES (1ull << 30)
#define AIESIM_MAX_DATA_BYTES (64u * 1024u * 1024u)
#define AIESIM_MAX_LINE 65536u
#define AIESIM_MAX_TIME_PS 1000000000000000ull

typedef enum {
	AIESIM_INT8,
	AIESIM_INT16,
	AIESIM_INT32,
	AIESIM_INT64,
	AIESIM_UINT8,
	AIESIM_UINT16,
	AIESIM_UINT32,
	AIESIM_UINT64,
	AIESIM_FLOAT,
	AIESIM_DOUBLE,
	AIESIM_CINT16,
	AIESIM_CINT32,
	AIESIM_CFLOAT
} aiesim_type;

/* "int32" -> AIESIM_INT32; -1 for an unknown name. */
int aieth__aiesim_type_parse(const char *name, aiesim_type *out);

/* A time stamp: from byte offset `at` of the data on, the data was seen at
 * time_ps (the time of the last "T" line before it). */
typedef struct {
	uint64_t at;
	uint64_t time_ps;
	uint64_t line; /* line of the "T" in the file, for messages */
} aiesim_stamp;

typedef struct {
	aiesim_type type;
	uint8_t *data; /* the elements, little-endian, as the file says */
	size_t len, cap;
	aiesim_stamp *stamps; /* in file order; times non-decreasing */
	size_t nstamps, capstamps;
	uint64_t *tlast; /* byte offsets just after each packet's last element */
	size_t ntlast, captlast;
	/* parser state */
	uint64_t line;
	int pending_tlast; /* a TLAST line waits for its data line */
	uint64_t tlast_line;
} aiesim_trace;

/* Start an empty trace of element type t. */
void aieth__aiesim_trace_init(aiesim_trace *tr, aiesim_type t);
void aieth__aiesim_trace_free(aiesim_trace *tr);

/* Parse one line (without its newline; len bytes, may contain NUL, which is
 * refused) as line tr->line + 1 of file `what`. 0, or an aieth error code
 * with the message "what:line: ..." set. */
int aieth__aiesim_trace_line(aiesim_trace *tr, const char *what, const char *line, size_t len);
/* End of file: a TLAST with no data line after it is an error. */
int aieth__aiesim_trace_end(aiesim_trace *tr, const char *what);

/* A whole text in memory (the fuzz target, the tests). */
int aieth__aiesim_trace_parse(aiesim_trace *tr, const char *what, const char *text, size_t len);
/* A file: a regular file of at most AIESIM_MAX_FILE_BYTES, read in chunks. */
int aieth__aiesim_trace_read(aiesim_trace *tr, const char *path);

/* Time of the data byte at offset `at` (the stamp in force there; 0 when
 * no "T" line comes before it), and the line of that stamp (0: none). */
uint64_t aieth__aiesim_trace_time_at(const aiesim_trace *tr, uint64_t at, uint64_t *line);

/* "1234 ns", "T 1234 ns", "0.5 us" -> picoseconds. Units ps, ns, us;
 * fractions down to 1 ps; at most AIESIM_MAX_TIME_PS. 0 or -1. */
int aieth__aiesim_time_parse(const char *s, size_t len, uint64_t *ps);

/* Picoseconds of the simulation to PL cycles on the board, rounded to the
 * nearest cycle: ps * pl_hz * sim_mhz / (board_mhz * 1e12). */
uint64_t aieth__aiesim_ps_to_cycles(uint64_t ps, uint64_t pl_hz, uint32_t sim_mhz,
				    uint32_t board_mhz);

/* The window timing of the ABI fitted to block release cycles c[0..n-1]
 * (relative to the arrival of the inputs of block 0): cpi is the mean
 * spacing (rounded, at least 1; `fallback` when n == 1), latency places
 * block 0 at c[0] (cpi + latency = c[0] when c[0] >= cpi, else latency 0
 * and block 0 comes at cpi), latency at most max_latency. max_dev is the
 * largest distance in cycles between a block's c[k] and the fitted
 * cpi + latency + k * cpi, at block dev_at. */
typedef struct {
	uint64_t cpi, latency;
	uint64_t max_dev;
	size_t dev_at;
} aiesim_fit;

void aieth__aiesim_fit_blocks(const uint64_t *c, size_t n, uint64_t fallback, uint64_t max_latency,
			      aiesim_fit *out);

/* The per-window schedule of fit "exact" (docs/graph-models.md): cycles
 * of each iteration (latency 0) so that, with the inputs there and the RX
 * channels draining at one beat a cycle, window k comes out at c[k]
 * (cycles after iteration 0 starts) when it can: iteration k starts when
 * k-1 ends and output window k-2 is drained (the engine's rules), and ends
 * at max(c[k], start + 1): a window that cannot make its stamp (equal
 * stamps, windows closer than the RX drains them) comes as soon as it can
 * and later windows still aim at their own stamps, so none drifts.
 * beats[q]: window beats of output q. With `passes` 2 the trace is
 * scheduled twice, pass 2 aiming at c[k] + c[n-1] - c[0] + gap (the gap
 * after the last window: the mean spacing), so cyc[n..2n-1] are the
 * cycles of every later pass. cyc: n * passes entries. 0, or -1 when a
 * cycle count exceeds max (*bad: its iteration). */
int aieth__aiesim_exact_schedule(const uint64_t *c, size_t n, const uint64_t *beats, uint32_t nout,
				 uint64_t gap, int passes, uint64_t max, uint32_t *cyc,
				 size_t *bad);

/* The model (same contract as a plugin's aieth_model_create). */
int aieth__model_aiesim_create(const aieth_model_env *env, const char *params, aieth_model *out);

#endif
