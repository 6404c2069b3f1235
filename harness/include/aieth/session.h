/* SPDX-License-Identifier: MIT */
/*
 * aieth/session.h - a session: one device (emulated board, XRT board) and the
 * graphs of one design.
 */
#ifndef AIETH_PUBLIC_SESSION_H
#define AIETH_PUBLIC_SESSION_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aieth_session aieth_session;

/* One AIE graph of the design. On the emulated board, model names the graph
 * model: "loopback", "adder", "aiesim", or a path to a plugin shared object
 * (see aieth_model.h); model_params is a JSON object text or NULL. Other
 * backends ignore model and model_params. */
typedef struct {
	const char *name;
	const char *model;
	const char *model_params;
} aieth_graph_spec;

typedef struct {
	const char *board;           /* board name or board JSON path (required) */
	const char *data_dir;        /* NULL: aieth_board_data_dir(NULL) */
	const char *backend;         /* "emu" (NULL means "emu") or "xrt" (a board) */
	const char *xclbin;          /* design (AIE) xclbin; may be NULL on "emu" */
	const aieth_graph_spec *graphs;
	size_t num_graphs;
	int emu_reference;           /* emu: 1 = beat-by-beat reference mode */
	/* Added in 0.1 (keep new fields at the end): */
	const char *pl_xclbin;       /* xrt: the PL DMA kernel's xclbin (NULL: the
				        board default, docs/on-board.md) */
	/* Added in 0.2: */
	/* Interrupt flag (may be NULL), typically set by the caller's signal
	 * handler: when *interrupt becomes non-zero, a transaction wait stops
	 * the device (emulated board: within milliseconds; board: the run is
	 * abandoned, graphs, AIE array and PL kernel reset, the watchdog child
	 * reaped) and the transaction becomes AIETH_TXN_INTERRUPTED. */
	const volatile sig_atomic_t *interrupt;
	/* Progress during a transaction wait (may be NULL): bytes moved so far
	 * of the bytes expected, summed over the channels being simulated;
	 * called from the waiting thread now and then (emulated board). */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* Added in 0.3: backend "remote", a device behind th_server
	 * (docs/server.md). */
	const char *server;          /* base URL, "http://host:port" or https */
	const char *token;           /* bearer token (NULL: none) */
	const char *cacert;          /* CA bundle for https (NULL: the system's) */
	/* Added in 0.4, backend "remote" (sends xrt_ini; the session's files
	 * are fetched into artifacts_dir) and "xrt" (XRT reads xrt_ini in a
	 * session folder inside artifacts_dir, needed then; the files XRT
	 * writes there are moved into it at close, docs/on-board.md); "emu"
	 * refuses xrt_ini and ignores artifacts_dir: */
	const char *xrt_ini;         /* an xrt.ini file for the session (at
				        most 1 MiB; NULL: none) */
	const char *artifacts_dir;   /* the session's files (run_summary.json, the
				        xrt.ini, what the device run wrote) land
				        here when it closes (NULL: not) */
	/* Called for each file written there (may be NULL): its path, bytes. */
	void (*artifact)(void *ctx, const char *path, uint64_t bytes);
	void *artifact_ctx;
	/* Added in 0.5, emulated board: the folder relative paths in the
	 * graphs' model_params mean (a test description's folder, as for its
	 * data files; NULL: the current directory). */
	const char *model_base_dir;
	/* Added in 0.6, backend "remote" (docs/server.md): */
	uint32_t queue_timeout_s;    /* the longest wait in th_server's queue,
				        whatever the server says (0: 600 s) */
	uint64_t artifacts_max_bytes; /* all files fetched into artifacts_dir
				        together (0: 1 GiB); a file past it is
				        not kept, artifact_error hears why */
	/* While queued, at each poll (may be NULL; progress_ctx): the place
	 * in the queue and the seconds waited so far. */
	void (*queued)(void *ctx, uint32_t position, uint32_t waited_s);
	/* Why the artifacts were not all fetched (may be NULL; artifact_ctx). */
	void (*artifact_error)(void *ctx, const char *message);
} aieth_session_opts;

/* Open a session on a device. *out is owned by the caller: close with
 * aieth_session_close, which also frees every transaction still open.
 * Handles are checked (docs/api.md, "Handles and threads"): a closed
 * session gives AIETH_EINVAL, closing twice does nothing, and a call while
 * another call on the same session runs gives AIETH_ESTATE. */
int aieth_session_open(aieth_session **out, const aieth_session_opts *opts);
void aieth_session_close(aieth_session *session);
const aieth_board *aieth_session_board(const aieth_session *session);
const char *aieth_session_backend(const aieth_session *session);
/* Backend "remote": the server as it describes itself ("th_server 0.1.0,
 * backend emu"); "" for other backends or a dead handle. Added in 0.3. */
const char *aieth_session_server(const aieth_session *session);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_SESSION_H */
