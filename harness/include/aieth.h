/*
 * aieth.h - the public API of libaieth, the open AI Engine test harness.
 *
 * Conventions (see docs/api.md):
 *  - Handles are opaque. Names are aieth_<noun>_<verb>.
 *  - Functions that can fail return an int: AIETH_OK (0) or a negative
 *    aieth_error code. The message of the last failure on the calling thread
 *    is returned by aieth_error_message(); it names the file, field, value
 *    and limit where one applies.
 *  - The library never prints and never exits.
 *  - Ownership is stated at each function. Strings returned as const char *
 *    belong to the object they came from and live as long as it does.
 */
#ifndef AIETH_H
#define AIETH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AIETH_VERSION_MAJOR 0
#define AIETH_VERSION_MINOR 1
#define AIETH_VERSION_PATCH 0
#define AIETH_VERSION_STRING "0.1.0"

/* ------------------------------------------------------------------ errors */

typedef enum {
	AIETH_OK = 0,
	AIETH_EINVAL = -1,       /* an argument or an input value breaks a rule */
	AIETH_ENOMEM = -2,       /* out of memory */
	AIETH_EIO = -3,          /* a file could not be read or written */
	AIETH_EPARSE = -4,       /* an input file is malformed */
	AIETH_ENOTFOUND = -5,    /* unknown board, PLIO, graph, model ... */
	AIETH_ESTATE = -6,       /* operation not valid in the current state */
	AIETH_EDEVICE = -7,      /* the device or backend failed */
	AIETH_ETIMEOUT = -8,     /* a wait expired */
	AIETH_EUNSUPPORTED = -9  /* not supported by this backend or board */
} aieth_error;

/* Message of the last failure on this thread ("" if none). Valid until the
 * next libaieth call on this thread. */
const char *aieth_error_message(void);
/* Symbolic name of an error code, e.g. "AIETH_EINVAL". */
const char *aieth_error_name(int code);
/* The library version string, e.g. "0.1.0". */
const char *aieth_version(void);

/* ------------------------------------------------------------------ boards */

typedef enum { AIETH_DIR_TO_AIE = 0, AIETH_DIR_FROM_AIE = 1 } aieth_dir;

/* One PLIO of a board: its name, direction, channel index (0-based, per
 * direction) and the AIE shim tile column/channel it is placed on. */
typedef struct {
	char name[32];           /* "PLIO_01_TO_AIE" */
	aieth_dir dir;
	uint32_t index;          /* channel index within its direction */
	uint32_t shim_column;
	uint32_t shim_channel;
} aieth_plio;

/* Parameters of the FUNC-mode memory path model (emulated board). */
typedef struct {
	uint32_t burst_words;        /* words per burst (16) */
	uint32_t fifo_depth_words;   /* per-channel FIFO depth (32) */
	uint32_t read_latency_cycles;   /* from burst request to first word */
	uint32_t write_latency_cycles;  /* from last word to write response */
	uint32_t max_outstanding;    /* bursts in flight per direction */
} aieth_func_memory;

/* Facts of a board, loaded from platforms/<name>.json. */
typedef struct {
	const char *name;            /* "vck190" */
	const char *description;
	const char *aie_generation;  /* "AIE", "AIE-ML", ... */
	const char *base_platform;   /* e.g. "xilinx_vck190_base_202610_1" */
	const char *pl_kernel;       /* "vck190_test_harness" */
	const char *constraints_path;/* absolute or data-dir relative path used */
	const char *system_cfg_path;
	uint32_t channels;           /* channels per direction (36, 16) */
	uint32_t uram_depth_words;   /* URAM depth in stream words (4096, 8192) */
	uint32_t stream_width_bits;  /* 128 */
	uint32_t memory_width_bits;  /* 128 */
	uint64_t pl_clock_hz;        /* 312500000 */
	uint32_t aie_columns;        /* 0 when the board file does not state it */
	uint32_t preload_latency_cycles; /* per channel, to start a URAM load */
	aieth_func_memory func_memory;
} aieth_board_info;

typedef struct aieth_board aieth_board;

/* Load a board by name ("vck190": data_dir/platforms/vck190.json) or by a
 * path to a board JSON file (contains a '/' or ends in ".json"). data_dir may
 * be NULL: then $AIETH_DATA_DIR, then the installed data directory. The
 * board's PLIO constraints file is loaded and validated too.
 * On success *out is owned by the caller: free with aieth_board_free. */
int aieth_board_load(aieth_board **out, const char *name_or_path, const char *data_dir);
void aieth_board_free(aieth_board *board);
/* Board facts; the pointers inside belong to the board. */
const aieth_board_info *aieth_board_get_info(const aieth_board *board);
/* PLIO by name, by (direction, index), or by shim placement. */
int aieth_board_plio_find(const aieth_board *board, const char *name, aieth_plio *out);
int aieth_board_plio_at(const aieth_board *board, aieth_dir dir, uint32_t index, aieth_plio *out);
int aieth_board_plio_at_shim(const aieth_board *board, aieth_dir dir, uint32_t column,
			     uint32_t channel, aieth_plio *out);
/* Theoretical rate of one channel in bytes per second (width x clock). */
double aieth_board_channel_peak_bps(const aieth_board *board);

/* Validate a PLIO constraints file (NodeConstraints schema) against a
 * board: every PLIO of the board exactly once per direction, names well
 * formed and within the board, no two PLIOs of one direction on the same
 * shim column+channel. */
int aieth_constraints_check_file(const aieth_board *board, const char *path);

/* ---------------------------------------------------------------- sessions */

typedef struct aieth_session aieth_session;

/* One AIE graph of the design. On the emulated board, model names the graph
 * model: "loopback", "adder", or a path to a plugin shared object (see
 * aieth_model.h); model_params is a JSON object text or NULL. Other backends
 * ignore model and model_params. */
typedef struct {
	const char *name;
	const char *model;
	const char *model_params;
} aieth_graph_spec;

typedef struct {
	const char *board;           /* board name or board JSON path (required) */
	const char *data_dir;        /* NULL: $AIETH_DATA_DIR or installed data */
	const char *backend;         /* "emu" (NULL means "emu") */
	const char *xclbin;          /* design xclbin; may be NULL on "emu" */
	const aieth_graph_spec *graphs;
	size_t num_graphs;
	int emu_reference;           /* emu: 1 = beat-by-beat reference mode */
} aieth_session_opts;

/* Open a session on a device. *out is owned by the caller: close with
 * aieth_session_close, which also frees every transaction still open. */
int aieth_session_open(aieth_session **out, const aieth_session_opts *opts);
void aieth_session_close(aieth_session *session);
const aieth_board *aieth_session_board(const aieth_session *session);
const char *aieth_session_backend(const aieth_session *session);

/* ------------------------------------------------------------------ graphs */

#define AIETH_ITERATIONS_FOREVER (-1)

/* Run a graph for `iterations` iterations (AIETH_ITERATIONS_FOREVER: until
 * ended). Fails with AIETH_ESTATE if the graph is still running a bounded
 * run or has been ended. */
int aieth_graph_run(aieth_session *session, const char *graph, int64_t iterations);
/* Wait until the graph finished its bounded run; AIETH_ETIMEOUT if it does
 * not within timeout_ms (0 = no limit; on the emulated board a graph that
 * cannot progress any more is reported at once). */
int aieth_graph_wait(aieth_session *session, const char *graph, uint32_t timeout_ms);
/* End the graph; it cannot be run again in this session. */
int aieth_graph_end(aieth_session *session, const char *graph);
/* Iterations completed so far (emulated board: as of the last wait). */
int aieth_graph_iterations_done(aieth_session *session, const char *graph, uint64_t *out);

/* ------------------------------------------------------------ transactions */

typedef enum { AIETH_MODE_FUNC = 0, AIETH_MODE_PERF = 1 } aieth_mode;

typedef enum {
	AIETH_TXN_PENDING = 0,   /* submitted, not waited for yet */
	AIETH_TXN_DONE = 1,      /* every channel finished */
	AIETH_TXN_TIMEOUT = 2,   /* the wait expired or the board stalled */
	AIETH_TXN_FAILED = 3     /* the device rejected or failed it */
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

/* ------------------------------------------- test descriptions and runs */
/* (run_test: declarations follow in this section) */

/* ---------------------------------------------------- xclbin files */
/* (th_package: declarations follow in this section) */

#ifdef __cplusplus
}
#endif
#endif /* AIETH_H */
