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
 * backends ignore model and model_params (remote: th_server looks the model
 * up by name). An array element, not versioned itself: its layout belongs
 * to the version of aieth_session_opts (a new field here is a new version
 * of aieth_session_opts). */
typedef struct {
	const char *name;
	const char *model;
	const char *model_params;
} aieth_graph_spec;

/*
 * Versioned structs (docs/api.md, "Versioned structs"): every struct a
 * caller fills starts with `unsigned int version`. Initialise it with its
 * INIT macro or its init function, then set the fields you need:
 *
 *     aieth_session_opts o = AIETH_SESSION_OPTS_INIT;
 *     o.board = "vck190";
 *
 * A call refuses a version it does not know (0 included) with AIETH_EINVAL.
 * Within a version, fields are never removed or reordered; a new field
 * makes a new version, and older versions stay accepted. The INIT macros
 * use designated initializers, so that callers building with -Wextra get
 * no missing-field warning (C, or C++20).
 */

/* Each backend's own options, a versioned struct of its own that the
 * session options point at (NULL: that backend's defaults). The backend
 * checks its struct when a session opens: the selected one all of it, the
 * others what they must refuse rather than ignore. A pointer, not a member:
 * a backend's struct grows (a new version of it) without moving a field of
 * aieth_session_opts or aieth_run_opts, so their versions stay. */

/* The emulated board ("emu"). */
typedef struct {
	unsigned int version; /* AIETH_EMU_OPTS_VERSION */
	int reference;        /* 1: beat-by-beat reference mode (the
				        report's "emulator_mode"); remote refuses it */
	/* version 2: a transaction that stalls or times out writes the graph
	 * models' state (which port each waits on, docs/emulator.md) here as
	 * aie_state.json, as the xrt backend writes the AI Engine array's
	 * (made when missing; NULL: not written) */
	const char *artifacts_dir;
} aieth_emu_opts;

#define AIETH_EMU_OPTS_VERSION 2
#define AIETH_EMU_OPTS_INIT                       \
	{                                         \
		.version = AIETH_EMU_OPTS_VERSION \
	}
int aieth_emu_opts_init(aieth_emu_opts *opts, unsigned int version);
/* The graph models built into the emulated board ("loopback", "adder",
 * ...; docs/emulator.md), NULL-terminated, static storage: the names a
 * design's "model" may give besides a plugin's file. */
const char *const *aieth_emu_model_names(void);

/* A board through XRT ("xrt"). */
typedef struct {
	unsigned int version;  /* AIETH_XRT_OPTS_VERSION */
	const char *pl_xclbin; /* the PL DMA kernel's xclbin (NULL: the board
				        default, docs/on-board.md); remote refuses it */
	/* XRT's trace and status (docs/on-board.md, "--xrt-ini"): XRT reads
	 * xrt_ini in a session folder inside artifacts_dir, and the files it
	 * writes there are moved into artifacts_dir at close (the session's
	 * artifact hooks hear of each). The other backends refuse xrt_ini. */
	const char *xrt_ini;          /* an xrt.ini file (at most 1 MiB; NULL: none) */
	const char *artifacts_dir;    /* needed with xrt_ini (made when missing) */
	uint64_t artifacts_max_bytes; /* XRT's files together (0: 1 GiB); a file
				        past it is not kept, artifact_error hears why */
} aieth_xrt_opts;

#define AIETH_XRT_OPTS_VERSION 1
#define AIETH_XRT_OPTS_INIT                       \
	{                                         \
		.version = AIETH_XRT_OPTS_VERSION \
	}
int aieth_xrt_opts_init(aieth_xrt_opts *opts, unsigned int version);

/* A device behind th_server ("remote", docs/server.md). */
typedef struct {
	unsigned int version; /* AIETH_REMOTE_OPTS_VERSION */
	/* where */
	const char *server; /* base URL, "http://host:port" or https */
	const char *token;  /* bearer token (NULL: none) */
	const char *cacert; /* CA bundle for https (NULL: $AIETH_CACERT, else
			     * $CURL_CA_BUNDLE, else $SSL_CERT_FILE, else the system's) */
	/* what goes with the session and what comes back */
	const char *xrt_ini;       /* an xrt.ini file sent with the session (at
				        most 1 MiB; NULL: none). The other backends
				        refuse it: locally XRT reads xrt.ini from the
				        working folder */
	const char *artifacts_dir; /* the session's files (run_summary.json, the
				        xrt.ini, what the device run wrote) are
				        fetched here when it closes (NULL: not) */
	/* limits */
	uint32_t queue_timeout_s;     /* the longest wait in th_server's queue,
				        whatever the server says (0: 600 s) */
	uint64_t artifacts_max_bytes; /* all files fetched into artifacts_dir
				        together (0: 1 GiB); a file past it is not
				        kept, artifact_error hears why */
	/* version 2: 1 lets a streamed transaction's upload run on a thread of
	 * its own beside the wait and the download (docs/api.md, "Callbacks
	 * from two threads"): the TX channels' read callbacks are then called
	 * on that thread while the RX channels' write callbacks run on the
	 * waiting one, at the same time. 0 (default): every callback on the
	 * waiting thread. Memory channels need nothing of the caller. */
	int concurrent_io;
	/* version 3: an https server trusted by its public key instead of a CA
	 * and a host name: "sha256//" and the base64 of the SHA-256 of its
	 * certificate's SubjectPublicKeyInfo (libcurl's CURLOPT_PINNEDPUBLICKEY;
	 * `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der |
	 * openssl dgst -sha256 -binary | base64`). The handshake fails unless the
	 * server holds that key's private half; cacert is not read. NULL: a CA
	 * and the host name, as ever */
	const char *pinned_key;
} aieth_remote_opts;

#define AIETH_REMOTE_OPTS_VERSION 3
#define AIETH_REMOTE_OPTS_INIT                       \
	{                                            \
		.version = AIETH_REMOTE_OPTS_VERSION \
	}
int aieth_remote_opts_init(aieth_remote_opts *opts, unsigned int version);

typedef struct {
	unsigned int version; /* AIETH_SESSION_OPTS_VERSION */
	/* what: the board and the design */
	const char *board;    /* board name or board JSON path (required) */
	const char *data_dir; /* NULL: aieth_board_data_dir(NULL) */
	const char *xclbin;   /* design (AIE) xclbin; may be NULL on "emu" */
	const aieth_graph_spec *graphs;
	size_t num_graphs;
	const char *model_base_dir; /* the folder relative paths in the graphs'
				        model_params mean (a test description's
				        folder, as for its data files; NULL: the
				        current directory) */
	/* where: the device. backend is a name of the backend table
	 * (aieth_backend_name: "emu", "xrt", "remote"; NULL means "emu");
	 * each backend reads its own options (NULL: its defaults). They are
	 * read while aieth_session_open runs only. */
	const char *backend;
	const aieth_emu_opts *emu;
	const aieth_xrt_opts *xrt;
	const aieth_remote_opts *remote;
	/* hooks (each may be NULL) */
	/* Interrupt flag, typically set by the caller's signal handler: when
	 * *interrupt becomes non-zero, a transaction wait stops the device
	 * (emulated board: within milliseconds; board: the run is abandoned,
	 * graphs, AIE array and PL kernel reset, the watchdog child reaped;
	 * remote: also a wait in th_server's queue) and the transaction
	 * becomes AIETH_TXN_INTERRUPTED. */
	const volatile sig_atomic_t *interrupt;
	/* Progress during a transaction wait: bytes moved so far of the bytes
	 * expected, summed over the channels being simulated; called from the
	 * waiting thread now and then (emulated board). */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* While the device is queued for (remote: th_server's queue), at each
	 * poll (progress_ctx): the place in the queue, seconds waited so far. */
	void (*queued)(void *ctx, uint32_t position, uint32_t waited_s);
	/* The device's files fetched when the session closes (remote:
	 * aieth_remote_opts.artifacts_dir): each file written, its path and
	 * bytes; and why they were not all fetched. */
	void (*artifact)(void *ctx, const char *path, uint64_t bytes);
	void (*artifact_error)(void *ctx, const char *message);
	void *artifact_ctx;
} aieth_session_opts;

#define AIETH_SESSION_OPTS_VERSION 1
#define AIETH_SESSION_OPTS_INIT                       \
	{                                             \
		.version = AIETH_SESSION_OPTS_VERSION \
	}
/* *opts = AIETH_SESSION_OPTS_INIT of that version: AIETH_OK, or AIETH_EINVAL
 * for NULL or a version this library does not know. The same for every
 * aieth_*_opts_init. */
int aieth_session_opts_init(aieth_session_opts *opts, unsigned int version);

/* The backend table, in its order: the i-th backend's name ("emu", "xrt",
 * "remote") and a one-line description (for --help); NULL past the last. */
const char *aieth_backend_name(size_t i);
const char *aieth_backend_description(size_t i);
/* 1 when the backend named name (NULL: the default) drives a device on this
 * machine (th_server can serve it; plugin paths and files are local), 0 when
 * the device is behind a server, AIETH_EUNSUPPORTED for an unknown name
 * (the message lists the table). */
int aieth_backend_local(const char *name);
/* What a backend is, for the choices a caller makes by backend (the
 * words of a report, where a board's sensors are): AIETH_BACKEND_* bits. */
#define AIETH_BACKEND_LOCAL 0x1u      /* as aieth_backend_local returns 1 */
#define AIETH_BACKEND_NETWORKED 0x2u  /* behind a server (remote) */
#define AIETH_BACKEND_EMULATED 0x4u   /* the board is a model (emu) */
#define AIETH_BACKEND_HOST_SYSFS 0x8u /* the board's sensors are this machine's /sys (xrt) */
/* The bits of the backend named name (NULL: the default), LOCAL or
 * NETWORKED among them; 0 for an unknown name, with the message listing
 * the table (as aieth_backend_local's AIETH_EUNSUPPORTED). */
unsigned int aieth_backend_flags(const char *name);

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
 * backend emu"); "" for other backends or a dead handle. */
const char *aieth_session_server(const aieth_session *session);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_SESSION_H */
