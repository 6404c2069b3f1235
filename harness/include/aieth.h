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
	const char *backend;         /* "emu" (NULL means "emu") or "xrt" (a board) */
	const char *xclbin;          /* design (AIE) xclbin; may be NULL on "emu" */
	const aieth_graph_spec *graphs;
	size_t num_graphs;
	int emu_reference;           /* emu: 1 = beat-by-beat reference mode */
	/* Added in 0.1 (keep new fields at the end): */
	const char *pl_xclbin;       /* xrt: the PL DMA kernel's xclbin (NULL: the
				        board default, docs/on-board.md) */
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
/* Iterations completed so far (emulated board: as of the last wait; xrt:
 * XRT cannot count them, so the bounded run's count once it completed,
 * else 0). */
int aieth_graph_iterations_done(aieth_session *session, const char *graph, uint64_t *out);
/* Run-time parameters: write `size` bytes to a graph's RTP port (its
 * hierarchical name, e.g. "gr.k.in[1]"), or read `size` bytes back. On a
 * board these are xrtGraphUpdateRTP / xrtGraphReadRTP. The emulated board
 * keeps the last bytes written per port (the graph models do not consume
 * them); reading a port never written is AIETH_ENOTFOUND there. At most
 * 65536 bytes. */
int aieth_graph_update_rtp(aieth_session *session, const char *graph, const char *port,
			   const void *data, size_t size);
int aieth_graph_read_rtp(aieth_session *session, const char *graph, const char *port,
			 void *data, size_t size);

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

/* A test description (docs/test-spec.md): board, graphs, transactions,
 * channel data, golden data, thresholds. */
typedef struct aieth_spec aieth_spec;

/* Parse and check a description file; relative input paths resolve against
 * its folder. Board-dependent checks happen when it runs. */
int aieth_spec_load(aieth_spec **out, const char *path);
/* The same from text; what names it in messages, base_dir resolves paths. */
int aieth_spec_parse(aieth_spec **out, const char *what, const char *text, size_t len,
		     const char *base_dir);
void aieth_spec_free(aieth_spec *spec);
const char *aieth_spec_name(const aieth_spec *spec);

/* Exit codes of a run (the run_test contract, docs/user-guide.md). */
enum {
	AIETH_EXIT_PASS = 0,
	AIETH_EXIT_FAIL = 1,        /* data mismatch, threshold missed */
	AIETH_EXIT_INPUT = 2,       /* usage or input error */
	AIETH_EXIT_INFRA = 3,       /* device, xclbin, backend error */
	AIETH_EXIT_SKIP = 4,        /* skipped / unsupported */
	AIETH_EXIT_TIMEOUT = 5      /* hang or timeout: the board may need a reset */
};

typedef struct {
	const char *board;          /* override the description's board (NULL: keep) */
	const char *backend;        /* override the backend (NULL: keep; default emu) */
	const char *data_dir;       /* board files (NULL: $AIETH_DATA_DIR, installed) */
	const char *out_dir;        /* relative "save" paths resolve here (NULL: ".") */
	uint32_t timeout_ms;        /* overrides every transaction's timeout (0: keep) */
	int emu_reference;          /* emulated board: beat-by-beat reference mode */
	/* Called during long runs (may be NULL): phase text, done/total. */
	void (*progress)(void *ctx, const char *phase, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* Added in 0.1 (keep new fields at the end): */
	const char *xclbin;         /* override the description's AIE xclbin (NULL: keep) */
	const char *pl_xclbin;      /* override its PL xclbin (NULL: keep / board default) */
} aieth_run_opts;

/* A report: one run of one or more descriptions (docs/report-schema.md). */
typedef struct aieth_report aieth_report;

/* tool and argv are recorded in the report (argv may be NULL). */
int aieth_report_new(aieth_report **out, const char *tool, int argc, char *const *argv);
/* Load, check and run one description; the outcome, including input and
 * device errors, becomes one test of the report. Fails only when the report
 * itself cannot be extended (out of memory). */
int aieth_report_run(aieth_report *r, const char *spec_path, const aieth_run_opts *opts);
/* Record an error that prevented a test from running at all. */
int aieth_report_add_error(aieth_report *r, const char *name, const char *phase, int code,
			   const char *message, const char *hint, int exit_code);
/* Close the run: finish time, status, exit code. */
int aieth_report_finish(aieth_report *r);
/* The run's exit code (the most severe of its tests: 5, 3, 2, 1, 4, 0). */
int aieth_report_exit_code(const aieth_report *r);
/* Writers; files are written to a temporary name and renamed. */
int aieth_report_write_json(const aieth_report *r, const char *path);
int aieth_report_write_junit(const aieth_report *r, const char *path);
/* The human summary of the last test added (tables, verdicts) or of all
 * tests (index < 0), as a malloc'd string (caller frees), or NULL. */
char *aieth_report_text(const aieth_report *r, int index);
/* Stable one-line markers for farms: RUN_TEST BEGIN/CASE/END lines. */
char *aieth_report_markers(const aieth_report *r);
size_t aieth_report_num_tests(const aieth_report *r);
void aieth_report_free(aieth_report *r);

/* ---------------------------------------------------- xclbin files */
/* (th_package: declarations follow in this section) */
/*
 * XCLBIN (axlf) files: a strict reader, AIE metadata, checks against a
 * board, and the packager behind th_package. See docs/packaging.md.
 */

/* Section kinds used by the packager (the full list: aieth_xclbin_kind_name). */
#define AIETH_XCLBIN_KIND_PDI 18u
#define AIETH_XCLBIN_KIND_AIE_METADATA 25u
#define AIETH_XCLBIN_KIND_AIE_TRACE_METADATA 35u
/* m_actionMask bits: an AIE-only xclbin has one of them. */
#define AIETH_XCLBIN_AM_LOAD_AIE 0x1u
#define AIETH_XCLBIN_AM_LOAD_PDI 0x2u

typedef struct aieth_xclbin aieth_xclbin;

/* The fixed header of an xclbin, decoded. Strings are NUL-terminated
 * copies (a field without a NUL in the file is a check problem). */
typedef struct {
	char magic[9];               /* "xclbin2" */
	int32_t signature_length;    /* -1: unsigned */
	uint64_t unique_id;
	uint64_t length;             /* m_length: must equal file_size */
	uint64_t file_size;
	uint64_t timestamp;          /* seconds since the epoch */
	uint64_t feature_rom_timestamp;
	uint8_t version_major, version_minor;
	uint16_t version_patch;
	uint16_t mode;               /* 0 FLAT ... 6 HW_EMU_PR */
	uint16_t action_mask;        /* AIETH_XCLBIN_AM_* */
	uint8_t interface_uuid[16];
	char vbnv[65];               /* platform VBNV */
	uint8_t uuid[16];            /* the xclbin UUID */
	char debug_bin[17];
	uint32_t num_sections;       /* m_numSections as stored */
} aieth_xclbin_header;

typedef struct {
	uint32_t kind;
	const char *kind_name;       /* "PDI", "AIE_METADATA", "UNKNOWN" */
	char name[17];               /* m_sectionName */
	uint64_t offset, size;
} aieth_xclbin_section;

/* aieth_xclbin_open flags */
#define AIETH_XCLBIN_LENIENT 0x1u  /* open despite check problems (info, check) */

/* Open an xclbin file: reads the header and the section table (payloads
 * are read on demand, so large files are never held in memory) and checks
 * every structural rule (docs/packaging.md, "What is checked"). Without
 * AIETH_XCLBIN_LENIENT the first problem fails the open with AIETH_EPARSE
 * and names the file, field, expected and found value. LENIENT still fails
 * when not even the header can be read. *out: close with aieth_xclbin_close. */
int aieth_xclbin_open(aieth_xclbin **out, const char *path, unsigned flags);
void aieth_xclbin_close(aieth_xclbin *x);
const char *aieth_xclbin_path(const aieth_xclbin *x);
const aieth_xclbin_header *aieth_xclbin_get_header(const aieth_xclbin *x);
/* The UUID as 36 lower-case characters with dashes. */
const char *aieth_xclbin_uuid_string(const aieth_xclbin *x);
/* Structural problems found when opening (0 for a valid file); each is one
 * line "file: what: expected X, found Y". */
size_t aieth_xclbin_num_problems(const aieth_xclbin *x);
const char *aieth_xclbin_problem(const aieth_xclbin *x, size_t i);
/* The section table in file order (the entries that lie inside the file;
 * section_read and section_dump refuse a payload outside it). */
size_t aieth_xclbin_num_sections(const aieth_xclbin *x);
int aieth_xclbin_section_at(const aieth_xclbin *x, size_t i, aieth_xclbin_section *out);
/* Index of the first section of a kind; AIETH_ENOTFOUND if none. */
int aieth_xclbin_section_find(const aieth_xclbin *x, uint32_t kind, size_t *index);
/* Read section i into a new buffer (*data, NUL-terminated; caller frees);
 * AIETH_EINVAL when it is larger than max_bytes. */
int aieth_xclbin_section_read(const aieth_xclbin *x, size_t i, size_t max_bytes, void **data,
			      size_t *len);
/* Write section i to path, streamed, atomically (temporary file + rename). */
int aieth_xclbin_section_dump(const aieth_xclbin *x, size_t i, const char *path);
/* SHA-256 of the whole file as 64 hex digits plus NUL. */
int aieth_xclbin_sha256(const aieth_xclbin *x, char hex[65]);

/* Kind number <-> xclbinutil name ("PDI", "AIE_METADATA", ...). The name of
 * an unknown kind is "UNKNOWN". aieth_xclbin_kind_parse also takes a decimal
 * number. */
const char *aieth_xclbin_kind_name(uint32_t kind);
int aieth_xclbin_kind_parse(const char *name, uint32_t *kind);
/* "FLAT", "PR", ... or "UNKNOWN". */
const char *aieth_xclbin_mode_name(uint16_t mode);

/* ---- AIE metadata (aie_control_config.json, the AIE_METADATA section) */

typedef struct aieth_aie_meta aieth_aie_meta;

typedef struct {
	uint32_t id;
	const char *name;
} aieth_aie_graph;

typedef struct {
	uint32_t id;
	const char *name;            /* graph port, e.g. "mygraph.in" */
	const char *logical_name;    /* the PLIO name, e.g. "PLIO_01_TO_AIE" */
	aieth_dir dir;               /* slaveOrMaster: 0 TO_AIE, 1 FROM_AIE */
	uint32_t shim_column;
	uint32_t stream_id;          /* shim channel */
	uint32_t width_bits;         /* "width_bits" when present, else 0 */
	int graph;                   /* graph index owning the port, or -1 */
} aieth_aie_plio;

/* Parse an aie_control_config.json text (len bytes, `what` names it in
 * messages). Integers may be JSON numbers or decimal strings (XRT reads
 * both). *out: free with aieth_aie_meta_free. */
int aieth_aie_meta_parse(aieth_aie_meta **out, const char *what, const char *text, size_t len);
/* Read and parse the AIE_METADATA section of an xclbin. */
int aieth_xclbin_aie_meta(const aieth_xclbin *x, aieth_aie_meta **out);
void aieth_aie_meta_free(aieth_aie_meta *m);
/* driver_config.hw_gen, 0 when absent. */
uint32_t aieth_aie_meta_hw_gen(const aieth_aie_meta *m);
size_t aieth_aie_meta_num_graphs(const aieth_aie_meta *m);
int aieth_aie_meta_graph(const aieth_aie_meta *m, size_t i, aieth_aie_graph *out);
size_t aieth_aie_meta_num_plios(const aieth_aie_meta *m);
int aieth_aie_meta_plio(const aieth_aie_meta *m, size_t i, aieth_aie_plio *out);

/* Receives one problem line from a check. */
typedef void (*aieth_problem_fn)(void *ctx, const char *line);

/* Check the graph's PLIOs against a board: predefined names only, within
 * the board's channels, the direction the name says, the board's stream
 * width, the shim column and channel of the board's placement (the XSA's
 * constraints), each PLIO used once, no more PLIOs than channels; and
 * driver_config.hw_gen against the board's AIE generation. Each problem is
 * passed to report (may be NULL). Returns the number of problems. */
size_t aieth_aie_meta_check(const aieth_aie_meta *m, const aieth_board *board,
			    aieth_problem_fn report, void *ctx);

/* Everything th_package check does on an open xclbin: the structural
 * problems found at open, the AIE-only rules (action mask, a PDI and an
 * AIE_METADATA section, no PARTITION_METADATA), the AIE metadata parsing
 * and, when board is not NULL, aieth_aie_meta_check. Returns the number of
 * problems (0: the file passed). */
size_t aieth_xclbin_check(const aieth_xclbin *x, const aieth_board *board,
			  aieth_problem_fn report, void *ctx);

/* ---- the packager */

typedef struct {
	const aieth_board *board;    /* required */
	const char *xsa;             /* the precompiled XSA (zip); required */
	const char *graph;           /* libadf.a (ar) or an aiecompiler Work/ dir */
	const char *output;          /* the xclbin to write (atomically) */
	const char *pdi;             /* prebuilt PDI: bootgen is not run */
	const char *aie_metadata;    /* aie_control_config.json to use instead of the graph's */
	const char *bootgen;         /* NULL: "bootgen" from PATH */
	const char *tmp_dir;         /* NULL: $TMPDIR, then /tmp */
	const uint8_t *uuid;         /* 16 bytes, or NULL: derived from content */
	const char *vbnv;            /* NULL: from the XSA, else the board */
	int64_t timestamp;           /* seconds; < 0: time(NULL) */
	int64_t id_code;             /* device IDCODE; < 0: from the XSA's PDI */
	int64_t ext_id_code;         /* < 0: from the XSA's PDI */
	uint16_t action_mask;        /* 0: AIETH_XCLBIN_AM_LOAD_AIE */
	int no_check;                /* 1: skip the PLIO check (structure is always checked) */
	aieth_problem_fn report;     /* receives check problems (may be NULL) */
	void (*progress)(void *ctx, const char *step); /* may be NULL */
	void *ctx;
} aieth_package_opts;

typedef struct {
	uint8_t uuid[16];
	char uuid_string[37];
	char vbnv[65];
	const char *vbnv_source;     /* "--vbnv", "XSA xsa.json", "board file" */
	uint32_t id_code, ext_id_code;
	uint64_t size;               /* bytes written */
	size_t num_graphs, num_plios, num_cdos;
	size_t problems;             /* check problems (then nothing is written) */
	int tool_failed;             /* bootgen missing or failed */
	int output_failed;           /* the output could not be written */
	double bootgen_seconds;      /* 0 with a prebuilt PDI */
	long bootgen_maxrss_kib;     /* bootgen's peak memory */
} aieth_package_result;

/* Package an AIE-only xclbin: AIE_METADATA from the graph's
 * aie_control_config.json, a PDI built by bootgen from its CDOs (without
 * the core-enable CDO: the graph starts on graph run), header fields from
 * the XSA and the board. The result is checked (aieth_xclbin_check) before
 * it replaces `output`; nothing is left behind on failure. Returns
 * AIETH_OK; AIETH_EINVAL with result->problems > 0 when the check failed;
 * with result->tool_failed set when bootgen is missing or failed (its
 * own error text in the message), result->output_failed when the output
 * could not be written; other codes for bad inputs. */
int aieth_package(const aieth_package_opts *opts, aieth_package_result *result);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_H */
