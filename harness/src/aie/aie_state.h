/* SPDX-License-Identifier: MIT */
/*
 * aie/aie_state.h - the AI Engine array's state when a graph hangs (not
 * installed): per tile its kind, core status flags, PC, lock values, DMA
 * channels, events and errors, parsed from the Linux AI Engine driver's
 * sysfs files (or from XRT's aie_status file)
 * (docs/on-board.md, "The AI Engine array's state"), turned into JSON for
 * report.json's aie_state and into plain words ("core (25,1) stalled on
 * lock acquire (west)"). Every parser is strict and bounded: a file that
 * is not in the driver's format gives a note naming it, never a guess.
 */
#ifndef AIETH_AIE_STATE_H
#define AIETH_AIE_STATE_H

#include <stddef.h>
#include <stdint.h>

#define AIE_MAX_TILES 512 /* the largest Versal array has 400 tiles + shims */
#define AIE_MAX_LOCKS 64  /* AIE: 16 per tile; AIE-ML mem tile: 64 */
#define AIE_MAX_CHAN 6    /* per direction (AIE-ML mem tile: 6) */
#define AIE_MAX_NOTES 16
#define AIE_NOTE_LEN 240
#define AIE_TOKEN_LEN 32
/* A status file larger than this is not the driver's (it writes at most a
 * page): it is refused as truncated. */
#define AIE_FILE_MAX 4096

typedef enum { AIE_TILE_CORE, AIE_TILE_MEM, AIE_TILE_SHIM } aie_tile_kind;

/* Core status bits, in the order of the driver's tables (AIE and AIE-ML
 * share the order; AIE's stream_stall_ss1/ms1 are bits 11 and 13). */
enum {
	AIE_CS_ENABLE,
	AIE_CS_RESET,
	AIE_CS_MEM_STALL_S,
	AIE_CS_MEM_STALL_W,
	AIE_CS_MEM_STALL_N,
	AIE_CS_MEM_STALL_E,
	AIE_CS_LOCK_STALL_S,
	AIE_CS_LOCK_STALL_W,
	AIE_CS_LOCK_STALL_N,
	AIE_CS_LOCK_STALL_E,
	AIE_CS_STREAM_STALL_SS0,
	AIE_CS_STREAM_STALL_SS1,
	AIE_CS_STREAM_STALL_MS0,
	AIE_CS_STREAM_STALL_MS1,
	AIE_CS_CASCADE_STALL_SCD,
	AIE_CS_CASCADE_STALL_MCD,
	AIE_CS_DEBUG_HALT,
	AIE_CS_ECC_ERROR_STALL,
	AIE_CS_ECC_SCRUBBING_STALL,
	AIE_CS_ERROR_HALT,
	AIE_CS_CORE_DONE,
	AIE_CS_BUS_STALL,
	AIE_CS_COUNT
};

/* The name of a core status bit as xbutil shows it ("Lock_Stall_W"). */
const char *aieth__aie_core_flag_name(unsigned bit);

/* The modules of a tile as the driver names them in its event and error
 * files: a core tile has core and memory, a shim (and, for the driver, an
 * AIE-ML memory tile) pl. */
enum { AIE_MOD_CORE, AIE_MOD_MEMORY, AIE_MOD_PL, AIE_MOD_COUNT };
#define AIE_MAX_EVENTS 128 /* the driver prints event bits 0..127 */
#define AIE_MAX_ERRORS 16

/* One error asserted in a tile: the module, the category and the error's
 * name, as indexes into the driver's tables (aie_error_names). */
typedef struct {
	uint8_t module, category;
	uint16_t name;
} aie_error;

/* The names of a module ("core"), of an error category ("bus") and of an
 * error ("axi_mm_slave_error"), as the driver writes them; "?" outside. */
const char *aieth__aie_module_name(unsigned m);
const char *aieth__aie_error_category_name(unsigned c);
const char *aieth__aie_error_name(unsigned n);
/* Look-ups by name (case-insensitive: XRT's JSON capitalises them);
 * -1 when unknown. */
int aieth__aie__error_category(const char *s, size_t n);
int aieth__aie__error_index(const char *s, size_t n);

typedef struct {
	char status[AIE_TOKEN_LEN]; /* "idle", "running", "stalled_on_..." */
	int queue_size;             /* -1: not known */
	char queue_status[AIE_TOKEN_LEN];
	int current_bd; /* -1: not known */
} aie_dma_chan;

typedef struct {
	int col, row;
	aie_tile_kind kind;
	int has_core;        /* a core file was read */
	int core_disabled;   /* "disabled" */
	int clock_gated;     /* the driver said clock_gated */
	uint32_t core_flags; /* 1u << AIE_CS_* */
	uint32_t pc, lr, sp;
	int nlocks;
	/* AIE-ML: the lock's value; AIE: 0..3 for released_for_write,
	 * acquired_for_write, released_for_read, acquired_for_read */
	int lock_is_state; /* 1: AIE state strings */
	uint8_t lock[AIE_MAX_LOCKS];
	int has_dma;
	int nmm2s, ns2mm;
	aie_dma_chan mm2s[AIE_MAX_CHAN], s2mm[AIE_MAX_CHAN];
	/* added with the event and error files and XRT's aie_status (at the
	 * end, for the merge): the events set per module (AIE_MOD_*; the
	 * driver's event numbers, ascending), and the errors asserted */
	int has_events;   /* the modules with an event line: 1 << AIE_MOD_* */
	int events_gated; /* the driver said clock_gated */
	uint8_t nevents[AIE_MOD_COUNT];
	uint8_t events[AIE_MOD_COUNT][AIE_MAX_EVENTS];
	int has_errors; /* an error file (or XRT's errors) was read */
	int nerrors, errors_dropped;
	aie_error errors[AIE_MAX_ERRORS];
} aie_tile;

/* Added for the emulated board (source "emulator", docs/emulator.md):
 * where each port of a graph model stands at a stall or a timeout. */
#define AIE_MAX_PORTS 128 /* 2 x the largest board's 36 channels, with room */

typedef enum {
	AIE_PORT_READY,       /* has what its next iteration needs */
	AIE_PORT_WAIT_INPUT,  /* "waiting for input data" */
	AIE_PORT_WAIT_OUTPUT, /* "waiting for output space" */
	AIE_PORT_WAIT_KERNEL, /* "waiting for the kernel" (inside an iteration) */
	AIE_PORT_DONE         /* "done": the iterations it was given ran */
} aie_port_state;

/* The state's words for a port ("waiting for input data"). */
const char *aieth__aie_port_state_name(aie_port_state st);

typedef struct {
	char graph[64], kernel[64], model[64];
	char plio[32];
	int port;   /* index among the kernel's inputs or outputs */
	int to_aie; /* 1: an input (its PLIO carries data to the AIE) */
	aie_port_state state;
	uint64_t bytes, expected_bytes; /* through its PLIO in this transaction */
	uint64_t iteration;             /* 1-based: the one it is inside or waits for */
	int64_t iterations;             /* given to the kernel; -1: until ended */
	/* WAIT_INPUT: bytes of the next iteration's window received;
	 * WAIT_OUTPUT: bytes of an iteration's output not drained */
	uint64_t window_bytes, bytes_per_iteration;
	uint64_t busy_until;     /* WAIT_KERNEL: the board cycle its iteration ends */
	int shim_col, shim_chan; /* the PLIO's placement; -1: not known */
} aie_port;

typedef struct {
	char source[16]; /* "sysfs", "xrt-aie-status", "emulator" */
	char graph[64];  /* the graph the hang is about ("" when unknown) */
	int ntiles;
	aie_tile tiles[AIE_MAX_TILES];
	int nnotes, notes_dropped;
	char notes[AIE_MAX_NOTES][AIE_NOTE_LEN];
	/* Added for the emulated board: its graph models' ports (none from
	 * sysfs) and the board cycle they were taken at. */
	int nports, ports_dropped;
	aie_port ports[AIE_MAX_PORTS];
	uint64_t cycle;
} aie_state;

void aieth__aie_state_init(aie_state *s, const char *source);
/* Record a note (bounded: past AIE_MAX_NOTES only counted). */
void aieth__aie_state_note(aie_state *s, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Parsers of one tile's files (text of len bytes, not NUL-terminated).
 * Each returns 0, or -1 with a note (what, the line and the rule) in
 * note[cap]; the tile keeps what was parsed before the fault. */
int aieth__aie_parse_core(const char *text, size_t len, aie_tile *t, char *note, size_t cap);
int aieth__aie_parse_lock(const char *text, size_t len, aie_tile *t, char *note, size_t cap);
int aieth__aie_parse_dma(const char *text, size_t len, aie_tile *t, char *note, size_t cap);
/* The tile's event file ("core: 1|22", "memory: ", "pl: 5") and error
 * file ("core: bus: axi_mm_slave_error|..."; empty when none), AIE and
 * AIE-ML (aie_parse_ev.c). */
int aieth__aie_parse_event(const char *text, size_t len, aie_tile *t, char *note, size_t cap);
int aieth__aie_parse_error(const char *text, size_t len, aie_tile *t, char *note, size_t cap);
/* Record one error in t (bounded: past AIE_MAX_ERRORS only counted);
 * a repeat is kept once. */
void aieth__aie__tile_add_error(aie_tile *t, int module, int category, int name);

/* Read the array below aieth__sysfs_root()/class/aie (each partition
 * "aiepart_*", each tile "<col>_<row>": core, lock, dma, event, error) within
 * deadline_ms in all; each file read bounded by what is left. What fails
 * is a note; the state holds what was read. Returns the tiles read. */
int aieth__aie_state_read_sysfs(aie_state *s, int deadline_ms);

/* aieth__aie_state_read_sysfs in a forked child that hands the state back over
 * a pipe, killed past deadline_ms (a driver read blocked on the
 * partition's mutex while XRT hangs must not hang the caller); then the
 * state holds a note saying so. Returns the tiles read. */
int aieth__aie_state_capture(aie_state *s, int deadline_ms);

/* The state's JSON written to dir/name (util/fileio.h's atomic writes,
 * the folder made when missing). AIETH_OK or the write's error. */
int aieth__aie_state_write(const aie_state *s, const char *dir, const char *name);

/* The state in words: one sentence per stuck tile or channel ("core
 * (25,1) stalled on lock acquire (west)"), then per stuck graph model
 * port ("graph gr: adder input 0 (PLIO_01_TO_AIE) waiting for input
 * data: ..."), each to each(ctx, line); returns how many. At most max
 * sentences. A port is stuck when it waits (input, output, the kernel),
 * or is done while its PLIO did not move what it expected. */
int aieth__aie_state_words(const aie_state *s, void (*each)(void *ctx, const char *line), void *ctx,
			   int max);

/* The first max sentences of aieth__aie_state_words joined by "; " into
 * out[size] (cut at size; "" when none). Returns how many. */
int aieth__aie_state_words_join(const aie_state *s, char *out, size_t size, int max);
/* Append line to the text in out[size], after "; " when not empty; a
 * line that does not fit whole becomes "; ..." (once), but the first,
 * which is cut at size. */
void aieth__aie_words_add(char *out, size_t size, const char *line);

/* Add a port to the state (bounded: past AIE_MAX_PORTS only counted);
 * NULL when it was not kept. */
aie_port *aieth__aie_state_add_port(aie_state *s);

/* Whether a tile looks stuck (a stall flag, a halt, a DMA channel
 * stalled or idle with BDs queued). */
int aieth__aie_tile_stuck(const aie_tile *t);

/* XRT's own status file (written with xrt.ini [Debug] aie_status=true:
 * aie_status_<device>_<time>.json, aie_xrt_status.c): its core, memory
 * and shim tiles added to s (whose source the caller sets). XRT numbers
 * core and memory tile rows from the first row of their kind:
 * core_row0/mem_row0 are the absolute rows those start at on this board,
 * -1 when not known (then XRT's numbers are kept, with a note). Anything
 * outside the format is a note naming the file (what) and the key, never
 * a guess. Returns the tiles added, -1 when text is not such a file. */
int aieth__aie_state_from_xrt_status(aie_state *s, const char *what, const char *text, size_t len,
				     int core_row0, int mem_row0);
/* The same from the file at path (at most AIE_XRT_STATUS_MAX bytes). */
#define AIE_XRT_STATUS_MAX (16u << 20)
int aieth__aie_state_read_xrt_status(aie_state *s, const char *path, int core_row0, int mem_row0);
/* The newest regular file aie_status_*.json in dir modified at or after
 * since (seconds since the epoch): 0 and its name in name[cap], or -1. */
int aieth__aie_xrt_status_find(const char *dir, long long since, char *name, size_t cap);

/* report.json's aie_state object (json-c, caller puts it); NULL on out of
 * memory. */
struct json_object *aieth__aie_state_json(const aie_state *s);

#endif /* AIETH_AIE_STATE_H */
