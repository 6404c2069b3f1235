/* SPDX-License-Identifier: MIT */
/*
 * data.h - channel data for test descriptions (not installed): element
 * types, aiesimulator-style text files, binary files, generated patterns,
 * golden comparison with tolerance, and ADF-style tiling (gather/scatter of a
 * channel's stream from/to a larger multi-dimensional buffer).
 *
 * All functions report failures through aieth__fail() (internal.h) with the
 * file, line, value and rule named, and return an aieth error code.
 */
#ifndef AIETH_DATA_H
#define AIETH_DATA_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------- element types */

typedef enum {
	AIETH_ELEM_INT8,
	AIETH_ELEM_INT16,
	AIETH_ELEM_INT32,
	AIETH_ELEM_INT64,
	AIETH_ELEM_UINT8,
	AIETH_ELEM_UINT16,
	AIETH_ELEM_UINT32,
	AIETH_ELEM_UINT64,
	AIETH_ELEM_FLOAT,
	AIETH_ELEM_DOUBLE,
	AIETH_ELEM_CINT16,
	AIETH_ELEM_CINT32,
	AIETH_ELEM_CFLOAT,
	AIETH_ELEM_COUNT
} aieth_elem;

/* "int8", "uint16", "float", "cint16", ... -> type. AIETH_EINVAL listing
 * the valid names when unknown. */
int aieth__elem_parse(const char *name, aieth_elem *out);
const char *aieth__elem_name(aieth_elem t);
/* Bytes per element (a complex element counts both parts: cint16 = 4). */
size_t aieth__elem_size(aieth_elem t);
/* Scalars per element: 2 for complex types, else 1. */
unsigned aieth__elem_parts(aieth_elem t);
int aieth__elem_is_float(aieth_elem t);

/* ------------------------------------------------------------- text files */

/* Parse aiesimulator-style text: whitespace-separated values (decimal, or
 * hex with 0x for integer types; floats in any strtod form), '#' starts a
 * comment to the end of the line; complex values are two numbers (real
 * then imaginary). Values are range-checked against the type (an int8 of
 * 200 is an error naming file:line:column). Lines may hold any number of
 * values: the data is the values in order, little-endian. `what` names the
 * file in messages. On success *out (malloc'd, caller frees) holds *len
 * bytes. max_bytes bounds the result (AIETH_EINVAL beyond it). */
int aieth__text_parse(const char *what, const char *text, size_t text_len, aieth_elem t,
		      size_t max_bytes, uint8_t **out, size_t *len);
int aieth__text_read(const char *path, aieth_elem t, size_t max_bytes, uint8_t **out, size_t *len);
/* The same parse of the file at path, read in chunks and written as binary
 * to out_fd (at its position) in bounded memory: *len bytes (at most
 * max_bytes). The same errors, with file:line:column, as aieth__text_read;
 * a line may be up to 64 MiB. */
int aieth__text_convert(const char *path, aieth_elem t, uint64_t max_bytes, int out_fd,
			uint64_t *len);
/* Write data as text: one 128-bit beat per line (16 / element size values,
 * the last line may be shorter when len is not a multiple of 16), integers
 * in decimal, floats with enough digits to read back exactly. The file is
 * written to a temporary name and renamed. len must be a multiple of the
 * element size. */
int aieth__text_write(const char *path, aieth_elem t, const uint8_t *data, size_t len);
/* The text aieth__text_write writes, in memory: *out (malloc'd, caller
 * frees, NUL-terminated) holds *out_len characters. */
int aieth__text_format(aieth_elem t, const uint8_t *data, size_t len, char **out, size_t *out_len);

/* Binary files: read whole (max_bytes bounds). Writes: aieth__write_atomic
 * (util/fileio.h). */
int aieth__bin_read(const char *path, size_t max_bytes, uint8_t **out, size_t *len);

/* --------------------------------------------------------------- patterns */

typedef enum { AIETH_PAT_RAMP, AIETH_PAT_CONSTANT, AIETH_PAT_RANDOM } aieth_pattern_kind;

typedef struct {
	aieth_pattern_kind kind;
	aieth_elem type;
	double start;  /* ramp: first value; constant: the value */
	double step;   /* ramp: increment per element (wraps for integers) */
	uint64_t seed; /* random: seed (same seed, same bytes, on every machine) */
} aieth_pattern;

/* Fill len bytes (a multiple of the element size) with the pattern.
 * Element i of a ramp is start + i*step converted to the type (integers
 * wrap modulo 2^bits; complex: real = imaginary = that value); random fills
 * bytes from a documented 64-bit generator (splitmix64) seeded by seed.
 * Values that do not fit the type are an error for constant. */
int aieth__pattern_fill(const aieth_pattern *p, uint8_t *dst, size_t len);
/* Bytes [off, off+len) of the same pattern (off a multiple of the element
 * size): a dataset is generated chunk by chunk, identical to one fill. */
int aieth__pattern_fill_at(const aieth_pattern *p, uint64_t off, uint8_t *dst, size_t len);

/* ------------------------------------------------------------ comparison */

typedef struct {
	uint64_t elements;     /* compared */
	uint64_t mismatches;   /* elements outside the tolerance */
	uint64_t first_offset; /* byte offset of the first mismatch */
	uint64_t first_index;  /* element index of the first mismatch */
	char first_got[64];    /* the values at the first mismatch, as text */
	char first_want[64];
	double max_abs_error; /* float types: largest |got - want| seen */
} aieth_compare_result;

/* Compare got with want element by element. Integer types compare exactly.
 * Float types (float, double, cfloat) accept |got - want| <= abs_tol +
 * rel_tol * |want| per scalar part; NaN equals NaN only when both are NaN.
 * len must be a multiple of the element size. */
void aieth__compare(const uint8_t *got, const uint8_t *want, size_t len, aieth_elem t,
		    double abs_tol, double rel_tol, aieth_compare_result *r);
/* Streamed comparison: the next len bytes, starting at byte base of the
 * data (a multiple of the element size), added to r (zero it first).
 * Chunk by chunk this gives exactly aieth__compare's result of the whole. */
void aieth__compare_more(const uint8_t *got, const uint8_t *want, size_t len, uint64_t base,
			 aieth_elem t, double abs_tol, double rel_tol, aieth_compare_result *r);

/* --------------------------------------------------------- data sources */

/* A channel's data read piece by piece: none (zeros), memory, a binary
 * file (read where asked, never held whole) or a pattern (generated where
 * asked). */
typedef enum { AIETH_SRC_ZERO, AIETH_SRC_MEM, AIETH_SRC_FILE, AIETH_SRC_PATTERN } aieth_src_kind;

typedef struct {
	aieth_src_kind kind;
	const uint8_t *mem; /* MEM */
	int fd;             /* FILE: open descriptor (the source does not own it) */
	const char *what;   /* FILE: name for messages */
	aieth_pattern pat;  /* PATTERN */
	uint64_t len;       /* bytes available */
} aieth_src;

/* Bytes [off, off+n) of the source; beyond len is AIETH_EINVAL; a short
 * file AIETH_EIO naming it. */
int aieth__src_read(const aieth_src *s, uint64_t off, void *buf, size_t n);

/* ---------------------------------------------------------------- tiling */

#define AIETH_TILING_MAX_DIMS 8
#define AIETH_TILING_MAX_LOOPS 8

typedef struct {
	uint32_t dimension; /* which buffer dimension this loop moves along */
	int64_t stride;     /* elements between consecutive steps */
	uint32_t wrap;      /* steps before this loop wraps (>= 1) */
} aieth_traversal;

/* ADF tiling_parameters (seeds/tiling_parameters.txt): a buffer of
 * buffer_dimension[0..ndims) elements (dimension 0 fastest, contiguous), a
 * tile of tiling_dimension elements placed at offset, moved by the
 * tile_traversal loops (loop 0 innermost). Each tile's elements are visited
 * in buffer order (dimension 0 fastest). boundary_dimension (nbound = 0 or
 * ndims) is the real data extent: reads outside it (or outside the buffer)
 * give zeros (padding), writes there are dropped. repetition repeats the
 * whole traversal. */
typedef struct {
	uint32_t ndims;
	uint32_t buffer_dimension[AIETH_TILING_MAX_DIMS];
	uint32_t tiling_dimension[AIETH_TILING_MAX_DIMS];
	int64_t offset[AIETH_TILING_MAX_DIMS];
	uint32_t nloops;
	aieth_traversal tile_traversal[AIETH_TILING_MAX_LOOPS];
	uint32_t nbound;
	uint32_t boundary_dimension[AIETH_TILING_MAX_DIMS];
	uint32_t repetition; /* >= 1 */
} aieth_tiling;

/* Check a tiling (dims 1..8, every dimension >= 1, loops name existing
 * dimensions, wraps >= 1, boundaries <= buffer, element counts without
 * overflow). `what` prefixes messages (e.g. "t.json: transactions[0]
 * .channels[2].tiling"). Returns AIETH_OK or AIETH_EINVAL naming the field. */
int aieth__tiling_check(const char *what, const aieth_tiling *tl);
/* Elements in the buffer, and elements the traversal visits in total. */
uint64_t aieth__tiling_buffer_elems(const aieth_tiling *tl);
uint64_t aieth__tiling_stream_elems(const aieth_tiling *tl);
/* Gather: stream[k] = buffer element the traversal visits k-th (zero when
 * padded). Scatter: the reverse (later visits overwrite earlier ones; padded
 * positions are skipped). buf holds aieth__tiling_buffer_elems elements of
 * esize bytes; stream holds aieth__tiling_stream_elems elements. */
void aieth__tiling_gather(const aieth_tiling *tl, size_t esize, const uint8_t *buf,
			  uint8_t *stream);
void aieth__tiling_scatter(const aieth_tiling *tl, size_t esize, const uint8_t *stream,
			   uint8_t *buf);

#endif /* AIETH_DATA_H */
