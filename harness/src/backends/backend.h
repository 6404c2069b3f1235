/* SPDX-License-Identifier: MIT */
/*
 * backends/backend.h - the device backend operations table. A session talks to its
 * device only through these calls, so the emulated board, a real board
 * through XRT and a remote board behind th_server are interchangeable (the
 * shape of aie-rt's XAie_BackendOps). The unit that crosses the boundary is
 * the encoded transaction (pl_dma/protocol.h).
 * One file per backend in this folder (emu.c, xrt/); backend.c lists them.
 */
#ifndef AIETH_BACKENDS_BACKEND_H
#define AIETH_BACKENDS_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "aieth.h"
#include "pl_dma/protocol.h"

/* One graph of the session, as the session's graph calls keep it: backends
 * read it (the names, the model, whether a bounded run is going on). */
typedef struct {
	char *name;
	char *model;
	char *params;
	char *base_dir;     /* relative paths in params (NULL: the current directory) */
	int bounded;        /* a bounded run was started */
	int forever;        /* running until ended */
	int ended;
	int64_t iterations; /* of the last run */
} aieth_graph_state;

/* What a backend is opened with: the session's own fields, which outlive
 * the backend's state. Backends never see the session itself, so they
 * depend on this header only and the session (core/) on them. */
typedef struct {
	const aieth_board *board;
	const aieth_board_info *info;
	const char *xclbin;              /* design (AIE) xclbin, may be NULL */
	const char *pl_xclbin;           /* xrt: NULL = the board default */
	const char *data_dir;            /* as given (NULL: default) */
	int emu_reference;
	size_t ngraphs;
	const aieth_graph_state *graphs;
	/* the session's interrupt flag and progress hook (may be NULL): a
	 * txn_wait that sees *interrupt non-zero stops the device and reports
	 * AIETH_TXN_INTERRUPTED */
	const volatile sig_atomic_t *interrupt;
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* remote: th_server's base URL, bearer token, CA bundle (may be NULL) */
	const char *server, *token, *cacert;
	/* remote: written at open, what the server says it is (the session's
	 * buffer of server_info_size bytes) */
	char *server_info;
	size_t server_info_size;
	/* remote and xrt: an xrt.ini for the session (remote: sent to
	 * th_server; xrt: XRT reads it, in a session folder whose files
	 * become artifacts), where its artifacts land at close and who hears
	 * of each file (all may be NULL) */
	const char *xrt_ini, *artifacts_dir;
	void (*artifact)(void *ctx, const char *path, uint64_t bytes);
	void *artifact_ctx;
	/* remote: the longest wait in th_server's queue (0: the default) and
	 * the bytes of all artifacts together (0: the default); queued (may be
	 * NULL, progress_ctx) hears the position at each poll while queued;
	 * artifact_error (may be NULL, artifact_ctx) hears why the artifacts
	 * were not all fetched */
	uint32_t queue_timeout_s;
	uint64_t artifacts_max;
	void (*queued)(void *ctx, uint32_t position, uint32_t waited_s);
	void (*artifact_error)(void *ctx, const char *message);
} aieth_dev_config;

/* A session's artifacts: at most this many files (the server lists as
 * many, the remote backend fetches as many) and, unless artifacts_max
 * says otherwise, this many bytes in all. */
#define AIETH_ARTIFACTS_FILES_MAX 256
#define AIETH_ARTIFACTS_BYTES_DEFAULT ((uint64_t)1 << 30)

/* What a device reports for a transaction, besides the RX image and perf
 * words it writes into the encoded transaction. */
typedef struct {
	aieth_txn_status status;
	char msg[512];
	uint64_t total_cycles;      /* 0 when the device cannot tell */
	int have_progress;          /* per-channel progress below is valid */
	/* bytes moved (whole beats of PLD_WORD_BYTES), first/last,
	 * stalled-since per channel: N each */
	uint64_t *tx_moved, *rx_moved, *tx_since, *rx_since;
	uint64_t *tx_first, *tx_last, *rx_first, *rx_last;
	int *tx_connected, *rx_connected;
} aieth_dev_result;

typedef struct {
	const char *name;
	/* Open the device for a session; cfg stays valid until close. */
	int (*open)(const aieth_dev_config *cfg, void **state);
	void (*close)(void *state);
	int (*graph_run)(void *state, uint32_t graph, int64_t iterations);
	/* AIETH_OK when the bounded run completed, AIETH_ETIMEOUT otherwise. */
	int (*graph_wait)(void *state, uint32_t graph, uint32_t timeout_ms);
	int (*graph_end)(void *state, uint32_t graph);
	/* Iterations done; *complete = the bounded run finished. */
	int (*graph_status)(void *state, uint32_t graph, uint64_t *done, int *complete);
	/* Start a transaction (already encoded in *wire). */
	int (*txn_start)(void *state, pld_txn *wire);
	/* Wait for the oldest started transaction; fills res and the wire's
	 * RX image and perf words. */
	int (*txn_wait)(void *state, pld_txn *wire, uint32_t timeout_ms, aieth_dev_result *res);
	/* Run-time parameters of a graph port (port: "graph.kernel.in[1]"). */
	int (*graph_update_rtp)(void *state, uint32_t graph, const char *port, const void *data,
				size_t size);
	int (*graph_read_rtp)(void *state, uint32_t graph, const char *port, void *data,
			      size_t size);
} aieth_backend_ops;

extern const aieth_backend_ops aieth__backend_emu;
extern const aieth_backend_ops aieth__backend_xrt;
extern const aieth_backend_ops aieth__backend_remote;

/* The backend named name, or NULL. */
const aieth_backend_ops *aieth__backend_find(const char *name);

#endif
