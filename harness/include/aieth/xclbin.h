/* SPDX-License-Identifier: MIT */
/*
 * aieth/xclbin.h - XCLBIN (axlf) files: a strict reader, AIE metadata, checks
 * against a board. See docs/packaging.md.
 */
#ifndef AIETH_PUBLIC_XCLBIN_H
#define AIETH_PUBLIC_XCLBIN_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"

#ifdef __cplusplus
extern "C" {
#endif

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
	char magic[9];            /* "xclbin2" */
	int32_t signature_length; /* -1: unsigned */
	uint64_t unique_id;
	uint64_t length; /* m_length: must equal file_size */
	uint64_t file_size;
	uint64_t timestamp; /* seconds since the epoch */
	uint64_t feature_rom_timestamp;
	uint8_t version_major, version_minor;
	uint16_t version_patch;
	uint16_t mode;        /* 0 FLAT ... 6 HW_EMU_PR */
	uint16_t action_mask; /* AIETH_XCLBIN_AM_* */
	uint8_t interface_uuid[16];
	char vbnv[65];    /* platform VBNV */
	uint8_t uuid[16]; /* the xclbin UUID */
	char debug_bin[17];
	uint32_t num_sections; /* m_numSections as stored */
} aieth_xclbin_header;

typedef struct {
	uint32_t kind;
	const char *kind_name; /* "PDI", "AIE_METADATA", "UNKNOWN" */
	char name[17];         /* m_sectionName */
	uint64_t offset, size;
} aieth_xclbin_section;

/* aieth_xclbin_open flags */
#define AIETH_XCLBIN_LENIENT 0x1u /* open despite check problems (info, check) */

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
	const char *name;         /* graph port, e.g. "mygraph.in" */
	const char *logical_name; /* the PLIO name, e.g. "PLIO_01_TO_AIE" */
	aieth_dir dir;            /* slaveOrMaster: 0 TO_AIE, 1 FROM_AIE */
	uint32_t shim_column;
	uint32_t stream_id;  /* shim channel */
	uint32_t width_bits; /* "width_bits" when present, else 0 */
	int graph;           /* graph index owning the port, or -1 */
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
size_t aieth_xclbin_check(const aieth_xclbin *x, const aieth_board *board, aieth_problem_fn report,
			  void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* AIETH_PUBLIC_XCLBIN_H */
