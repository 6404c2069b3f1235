/* SPDX-License-Identifier: MIT */
/*
 * backends/backend.h - the device backend operations table. A session talks to its
 * device only through these calls, so the emulated board, a real board
 * through XRT and a remote board behind th_server are interchangeable (the
 * shape of aie-rt's XAie_BackendOps). The unit that crosses the boundary is
 * the encoded transaction (pl_dma/protocol.h).
 * One file per backend in this folder (emu.c, xrt/, remote/); backend.c lists
 * them in one table, the only place that knows their names.
 */
#ifndef AIETH_BACKENDS_BACKEND_H
#define AIETH_BACKENDS_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "aieth.h"
#include "backends/dev_result.h"
#include "pld/protocol.h"

/* One graph of the session, as the session's graph calls keep it: backends
 * read it (the names, the model, whether a bounded run is going on). */
typedef struct {
	char *name;
	char *model;
	char *params;
	char *base_dir; /* relative paths in params (NULL: the current directory) */
	int bounded;    /* a bounded run was started */
	int forever;    /* running until ended */
	int ended;
	int64_t iterations; /* of the last run */
} aieth_graph_state;

/* What a backend is opened with: the session's own fields, which outlive
 * the backend's state. Backends never see the session itself, so they
 * depend on this header only and the session (core/) on them. */
typedef struct {
	const aieth_board *board;
	const aieth_board_info *info;
	const char *xclbin;   /* design (AIE) xclbin, may be NULL */
	const char *data_dir; /* as given (NULL: default) */
	size_t ngraphs;
	const aieth_graph_state *graphs;
	/* The caller's options (aieth/session.h), a copy: the hooks are
	 * declared there once. interrupt, progress, queued (progress_ctx),
	 * artifact and artifact_error (artifact_ctx), each may be NULL, serve
	 * the session's life: a txn_wait that sees *interrupt non-zero stops
	 * the device and reports AIETH_TXN_INTERRUPTED; queued hears the place
	 * in a device queue at each poll; the artifact hooks hear of the
	 * device's files fetched at close. Every other pointer in it is the
	 * caller's, valid during check and open only (NULL afterwards; the
	 * fields above are the session's own copies). Among them each
	 * backend's options (emu, xrt, remote; NULL: none given, the backend's
	 * defaults): a backend copies what it keeps, and every backend's check
	 * sees all of them. */
	aieth_session_opts opts;
	/* written at open, what the device says it is (remote: the server;
	 * the session's buffer of server_info_size bytes) */
	char *server_info;
	size_t server_info_size;
} aieth_dev_config;

/* aieth_dev_result (one struct per channel and direction) and the names of
 * its JSON form: backends/dev_result.h. */

/* A session's artifacts: at most this many files (the server lists as
 * many, the remote backend fetches as many) and, unless the options say
 * otherwise, this many bytes in all. */
#define AIETH_ARTIFACTS_FILES_MAX 256
#define AIETH_ARTIFACTS_BYTES_DEFAULT ((uint64_t)1 << 30)

/* A backend: its name, what it is, its options' check and its operations
 * (aie-rt's XAie_BackendOps). backend.c lists them in one table. */
typedef struct {
	const char *name;
	const char *description; /* one line, for --help */
	/* AIETH_BACKEND_* (aieth/session.h), LOCAL or NETWORKED among them;
	 * NETWORKED: the device is behind a server (model names and files are
	 * the server's, th_server cannot serve it). The one place that says
	 * what a backend is: callers outside backends/ ask
	 * aieth_backend_flags, never compare names. */
	unsigned int flags;
	/* 1: the device reads a transaction's TX image and writes its RX
	 * image only while it is waited for, through pl_dma's image calls
	 * (their gates hold): th_server may stream both (server/srv_stream.h) */
	int streams;
	/* Check the options before anything opens: the backend's own struct
	 * (its version first, then its fields) when selected is 1, else only
	 * what it must refuse rather than ignore (an option only it reads,
	 * given for another backend). May be NULL: nothing to check. */
	int (*check)(const aieth_dev_config *cfg, int selected);
	/* Open the device for a session; cfg stays valid until close, but for
	 * the caller's pointers in cfg->opts other than its hooks (emu, xrt,
	 * remote...: during open only). */
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
	/* The graph's model ports (aieth_graph_ports), known before it runs;
	 * NULL: the backend does not model graphs (AIETH_EUNSUPPORTED). */
	int (*graph_ports)(void *state, uint32_t graph, aieth_graph_port *ports, size_t cap,
			   size_t *n);
	/* The board's sensors now (aieth_session_sensors: out, cap, *n and
	 * notes as it says); called from any thread while the session is
	 * open, beside the other calls. NULL: AIETH_EUNSUPPORTED. */
	int (*sensors)(void *state, aieth_sensor *out, size_t cap, size_t *n, char *notes,
		       size_t notes_cap);
} aieth_backend_ops;

extern const aieth_backend_ops aieth__backend_emu;
extern const aieth_backend_ops aieth__backend_xrt;
extern const aieth_backend_ops aieth__backend_remote;

/* The backend named name (NULL: "emu"), or NULL with AIETH_EUNSUPPORTED
 * set, naming the backends of the table. */
const aieth_backend_ops *aieth__backend_find(const char *name);

/* Every backend's check of cfg's options, the selected one's included:
 * AIETH_OK or the first refusal. */
int aieth__backend_check(const aieth_dev_config *cfg, const aieth_backend_ops *selected);

#endif
