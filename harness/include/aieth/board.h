/* SPDX-License-Identifier: MIT */
/*
 * aieth/board.h - board facts (platforms/<board>.json) and PLIO placement.
 */
#ifndef AIETH_PUBLIC_BOARD_H
#define AIETH_PUBLIC_BOARD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { AIETH_DIR_TO_AIE = 0, AIETH_DIR_FROM_AIE = 1 } aieth_dir;

/* One PLIO of a board: its name, direction, channel index (0-based, per
 * direction) and the AIE shim tile column/channel it is placed on. */
typedef struct {
	char name[32]; /* "PLIO_01_TO_AIE" */
	aieth_dir dir;
	uint32_t index; /* channel index within its direction */
	uint32_t shim_column;
	uint32_t shim_channel;
} aieth_plio;

/* Parameters of the FUNC-mode memory path model (emulated board). */
typedef struct {
	uint32_t burst_words;          /* words per burst (16) */
	uint32_t fifo_depth_words;     /* per-channel FIFO depth (32) */
	uint32_t read_latency_cycles;  /* from burst request to first word */
	uint32_t write_latency_cycles; /* from last word to write response */
	uint32_t max_outstanding;      /* the m_axi adapter's limit (16); not a model
					parameter: the kernel's loops keep one burst in flight */
	uint32_t loop_overhead_cycles; /* one visit of the reader's/writer's loop */
} aieth_func_memory;

/* Cycles the hardware adds at each counter edge (trigger FIFO hand-over). */
typedef struct {
	uint32_t tx_first_cycles, tx_last_cycles;
	uint32_t rx_first_cycles, rx_last_cycles;
} aieth_counter_edges;

/* Facts of a board, loaded from platforms/<name>.json. */
typedef struct {
	const char *name; /* "vck190" */
	const char *description;
	const char *aie_generation;   /* "AIE", "AIE-ML", ... */
	const char *base_platform;    /* e.g. "xilinx_vck190_base_202610_1" */
	const char *pl_kernel;        /* "vck190_test_harness" */
	const char *constraints_path; /* absolute or data-dir relative path used */
	const char *system_cfg_path;
	uint32_t channels;               /* channels per direction (36, 16) */
	uint32_t uram_depth_words;       /* URAM depth in stream words (4096, 8192) */
	uint32_t stream_width_bits;      /* 128 */
	uint32_t memory_width_bits;      /* 128 */
	uint64_t pl_clock_hz;            /* 312500000 */
	uint32_t aie_columns;            /* 0 when the board file does not state it */
	uint32_t preload_latency_cycles; /* per channel, to start a URAM load */
	aieth_func_memory func_memory;
	/* Device facts for packaging (optional in the board file). */
	uint32_t aie_hw_gen;     /* driver_config.hw_gen of the graph; 0: unknown */
	const char *device_part; /* part name prefix, "xcvc1902"; "" unknown */
	int has_device_id_code;
	uint32_t device_id_code;           /* JTAG IDCODE of the device (revision bits included) */
	const char *bootgen_arch;          /* bootgen -arch for its PDIs; "": "versal" */
	aieth_counter_edges counter_edges; /* emulated counters (docs/emulator.md) */
} aieth_board_info;

typedef struct aieth_board aieth_board;

/* Load a board by name ("vck190": data_dir/platforms/vck190.json) or by a
 * path to a board JSON file (contains a '/' or ends in ".json"). data_dir may
 * be NULL: then aieth_board_data_dir(NULL). The board's PLIO constraints
 * file is loaded and validated too.
 * On success *out is owned by the caller: free with aieth_board_free. */
int aieth_board_load(aieth_board **out, const char *name_or_path, const char *data_dir);
/* The data directory (platforms/, cfg/) every call taking a data_dir uses:
 * data_dir itself when given, else $AIETH_DATA_DIR, else next to the
 * running program, else next to the shared library (DIR/../share/aieth when
 * installed, the source tree for a program in build/bin: the first holding
 * a platforms/ folder), else the installed PREFIX/share/aieth. Never NULL;
 * the string lives as long as data_dir, the environment or the process. */
const char *aieth_board_data_dir(const char *data_dir);
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

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_BOARD_H */
