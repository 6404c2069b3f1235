/* SPDX-License-Identifier: MIT */
/* test_tiling.c - ADF-style tiling (data/tiling.c): hand-computed
 * gathers and scatters, padding, repetition, and the checks. */
#include <string.h>

#include "aieth.h"
#include "data/data.h"
#include "tu.h"
#include "util/error.h"

#define MSG_HAS(s)                                                           \
	do {                                                                 \
		if (!strstr(aieth_error_message(), (s)))                     \
			fprintf(stderr, "\n  message: %s\n  expected: %s\n", \
				aieth_error_message(), (s));                 \
		CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)));  \
	} while (0)

/* A 2-D tiling of an 8x8 buffer with 4x4 tiles. */
static aieth_tiling classic(void)
{
	aieth_tiling t;
	memset(&t, 0, sizeof t);
	t.ndims = 2;
	t.buffer_dimension[0] = t.buffer_dimension[1] = 8;
	t.tiling_dimension[0] = t.tiling_dimension[1] = 4;
	t.nloops = 2;
	t.tile_traversal[0] = (aieth_traversal){0, 4, 2};
	t.tile_traversal[1] = (aieth_traversal){1, 4, 2};
	t.repetition = 1;
	return t;
}

static void fill_index(uint8_t *b, size_t n, unsigned first)
{
	size_t i;
	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(first + i);
}

static void expect_bytes(const uint8_t *got, const uint8_t *want, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			fprintf(stderr, "\n  byte %zu: got %u, want %u\n", i, got[i], want[i]);
			break;
		}
	}
	CU_ASSERT_EQUAL(memcmp(got, want, n), 0);
}

static const uint8_t tile00[16] = {0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27};
static const uint8_t tile40[16] = {4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31};
static const uint8_t tile04[16] = {32, 33, 34, 35, 40, 41, 42, 43, 48, 49, 50, 51, 56, 57, 58, 59};
static const uint8_t tile44[16] = {36, 37, 38, 39, 44, 45, 46, 47, 52, 53, 54, 55, 60, 61, 62, 63};

static void test_classic_four_tiles(void)
{
	aieth_tiling t = classic();
	uint8_t buf[64], s[64], back[64];
	CU_ASSERT_EQUAL_FATAL(aieth__tiling_check("t", &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__tiling_buffer_elems(&t), 64);
	CU_ASSERT_EQUAL(aieth__tiling_stream_elems(&t), 64);
	fill_index(buf, 64, 0);
	aieth__tiling_gather(&t, 1, buf, s);
	/* tiles at x,y = (0,0) (4,0) (0,4) (4,4), each row by row */
	expect_bytes(s, tile00, 16);
	expect_bytes(s + 16, tile40, 16);
	expect_bytes(s + 32, tile04, 16);
	expect_bytes(s + 48, tile44, 16);
	/* the traversal covers the buffer exactly: scatter restores it */
	memset(back, 0xee, sizeof back);
	aieth__tiling_scatter(&t, 1, s, back);
	expect_bytes(back, buf, 64);
}

static void test_dimension_1_first(void)
{
	aieth_tiling t = classic();
	uint8_t buf[64], s[64];
	t.tile_traversal[0] = (aieth_traversal){1, 4, 2};
	t.tile_traversal[1] = (aieth_traversal){0, 4, 2};
	CU_ASSERT_EQUAL_FATAL(aieth__tiling_check("t", &t), AIETH_OK);
	fill_index(buf, 64, 0);
	aieth__tiling_gather(&t, 1, buf, s);
	/* down first: (0,0) (0,4) (4,0) (4,4) */
	expect_bytes(s, tile00, 16);
	expect_bytes(s + 16, tile04, 16);
	expect_bytes(s + 32, tile40, 16);
	expect_bytes(s + 48, tile44, 16);
}

static void test_wide_elements(void)
{
	/* the same traversal with 4-byte elements */
	aieth_tiling t = classic();
	uint32_t buf[64], s[64], back[64];
	unsigned i;
	for (i = 0; i < 64; i++)
		buf[i] = 0x01000000u * i + i;
	aieth__tiling_gather(&t, 4, (const uint8_t *)buf, (uint8_t *)s);
	for (i = 0; i < 16; i++)
		CU_ASSERT_EQUAL(s[16 + i], buf[tile40[i]]);
	memset(back, 0, sizeof back);
	aieth__tiling_scatter(&t, 4, (const uint8_t *)s, (uint8_t *)back);
	CU_ASSERT_EQUAL(memcmp(back, buf, sizeof buf), 0);
}

static void test_boundary_padding(void)
{
	aieth_tiling t = classic();
	uint8_t buf[64], s[64], back[64];
	static const uint8_t w40[16] = {4, 5, 0, 0, 12, 13, 0, 0, 20, 21, 0, 0, 28, 29, 0, 0};
	static const uint8_t w04[16] = {32, 33, 34, 35, 40, 41, 42, 43, 0, 0, 0, 0, 0, 0, 0, 0};
	static const uint8_t w44[16] = {36, 37, 0, 0, 44, 45, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	unsigned x, y;
	t.nbound = 2;
	t.boundary_dimension[0] = 6;
	t.boundary_dimension[1] = 6;
	CU_ASSERT_EQUAL_FATAL(aieth__tiling_check("t", &t), AIETH_OK);
	fill_index(buf, 64, 0);
	aieth__tiling_gather(&t, 1, buf, s);
	expect_bytes(s, tile00, 16);
	expect_bytes(s + 16, w40, 16);
	expect_bytes(s + 32, w04, 16);
	expect_bytes(s + 48, w44, 16);
	/* scatter writes the real data only: outside 6x6 stays untouched */
	memset(back, 0xee, sizeof back);
	memset(s + 16, 0x77, 48 - 16 + 16);
	fill_index(s, 16, 100);
	aieth__tiling_scatter(&t, 1, s, back);
	for (y = 0; y < 8; y++) {
		for (x = 0; x < 8; x++) {
			uint8_t v = back[y * 8 + x];
			unsigned want = x >= 6 || y >= 6 ? 0xee
					: x < 4 && y < 4 ? 100 + y * 4 + x
							 : 0x77;
			CU_ASSERT_EQUAL(v, want);
		}
	}
}

static void test_zero_boundary(void)
{
	/* boundary 0 in a dimension: everything is padding, nothing is written */
	aieth_tiling t = classic();
	uint8_t buf[64], s[64];
	unsigned i;
	t.nbound = 2;
	t.boundary_dimension[0] = 8;
	t.boundary_dimension[1] = 0;
	CU_ASSERT_EQUAL_FATAL(aieth__tiling_check("t", &t), AIETH_OK);
	fill_index(buf, 64, 1);
	memset(s, 0x55, sizeof s);
	aieth__tiling_gather(&t, 1, buf, s);
	for (i = 0; i < 64; i++)
		CU_ASSERT_EQUAL(s[i], 0);
	aieth__tiling_scatter(&t, 1, s, buf);
	for (i = 0; i < 64; i++)
		CU_ASSERT_EQUAL(buf[i], i + 1);
}

static void test_negative_offset(void)
{
	/* 4x4 buffer holding 1..16, 3x3 tiles from (-1,-1) every 2 elements: a
	 * convolution window with one element of zero padding on the top/left */
	aieth_tiling t;
	uint8_t buf[16], s[36], back[16];
	static const uint8_t want[36] = {
		0, 0, 0, 0,  1,  2,  0,  5,  6,  /* tile at (-1,-1) */
		0, 0, 0, 2,  3,  4,  6,  7,  8,  /* tile at (1,-1) */
		0, 5, 6, 0,  9,  10, 0,  13, 14, /* tile at (-1,1) */
		6, 7, 8, 10, 11, 12, 14, 15, 16  /* tile at (1,1) */
	};
	memset(&t, 0, sizeof t);
	t.ndims = 2;
	t.buffer_dimension[0] = t.buffer_dimension[1] = 4;
	t.tiling_dimension[0] = t.tiling_dimension[1] = 3;
	t.offset[0] = t.offset[1] = -1;
	t.nloops = 2;
	t.tile_traversal[0] = (aieth_traversal){0, 2, 2};
	t.tile_traversal[1] = (aieth_traversal){1, 2, 2};
	t.repetition = 1;
	CU_ASSERT_EQUAL_FATAL(aieth__tiling_check("t", &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__tiling_stream_elems(&t), 36);
	fill_index(buf, 16, 1);
	aieth__tiling_gather(&t, 1, buf, s);
	expect_bytes(s, want, 36);
	/* every element is visited at least once: scatter restores the buffer */
	memset(back, 0, sizeof back);
	aieth__tiling_scatter(&t, 1, s, back);
	expect_bytes(back, buf, 16);
}

static void test_negative_stride(void)
{
	/* 1-D: tiles of 2 from offset 6 moving back by 2, one past the start */
	aieth_tiling t;
	uint8_t buf[8], s[10];
	static const uint8_t want[10] = {7, 8, 5, 6, 3, 4, 1, 2, 0, 0};
	memset(&t, 0, sizeof t);
	t.ndims = 1;
	t.buffer_dimension[0] = 8;
	t.tiling_dimension[0] = 2;
	t.offset[0] = 6;
	t.nloops = 1;
	t.tile_traversal[0] = (aieth_traversal){0, -2, 5};
	t.repetition = 1;
	CU_ASSERT_EQUAL_FATAL(aieth__tiling_check("t", &t), AIETH_OK);
	fill_index(buf, 8, 1);
	aieth__tiling_gather(&t, 1, buf, s);
	expect_bytes(s, want, 10);
	/* a tile half outside on the right */
	t.offset[0] = 7;
	t.tile_traversal[0] = (aieth_traversal){0, 3, 1};
	aieth__tiling_gather(&t, 1, buf, s);
	CU_ASSERT(s[0] == 8 && s[1] == 0);
}

static void test_repetition(void)
{
	aieth_tiling t;
	uint8_t buf[4] = {1, 2, 3, 4}, s[8], back[4];
	static const uint8_t want[8] = {1, 2, 3, 4, 1, 2, 3, 4};
	static const uint8_t later[8] = {10, 20, 30, 40, 11, 21, 31, 41};
	memset(&t, 0, sizeof t);
	t.ndims = 1;
	t.buffer_dimension[0] = 4;
	t.tiling_dimension[0] = 2;
	t.nloops = 1;
	t.tile_traversal[0] = (aieth_traversal){0, 2, 2};
	t.repetition = 2;
	CU_ASSERT_EQUAL_FATAL(aieth__tiling_check("t", &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__tiling_stream_elems(&t), 8);
	aieth__tiling_gather(&t, 1, buf, s);
	expect_bytes(s, want, 8);
	/* the last repetition's data wins */
	aieth__tiling_scatter(&t, 1, later, back);
	CU_ASSERT(back[0] == 11 && back[1] == 21 && back[2] == 31 && back[3] == 41);
}

static void test_overlap_last_wins(void)
{
	/* overlapping tiles: each scatter visit overwrites the previous one */
	aieth_tiling t;
	uint8_t buf[4] = {1, 2, 3, 4}, s[6], back[4];
	static const uint8_t want[6] = {1, 2, 2, 3, 3, 4};
	static const uint8_t in[6] = {10, 11, 20, 21, 30, 31};
	memset(&t, 0, sizeof t);
	t.ndims = 1;
	t.buffer_dimension[0] = 4;
	t.tiling_dimension[0] = 2;
	t.nloops = 1;
	t.tile_traversal[0] = (aieth_traversal){0, 1, 3};
	t.repetition = 1;
	aieth__tiling_gather(&t, 1, buf, s);
	expect_bytes(s, want, 6);
	aieth__tiling_scatter(&t, 1, in, back);
	CU_ASSERT(back[0] == 10 && back[1] == 20 && back[2] == 30 && back[3] == 31);
}

static void test_3d(void)
{
	/* buffer 4 x 3 x 2 holding 1..24 (x fastest), tiles 2 x 2 x 2 from
	 * (1,1,0) moving along x by 2: the second tile is half outside */
	aieth_tiling t;
	uint8_t buf[24], s[16], back[24];
	static const uint8_t want[16] = {6, 7, 10, 11, 18, 19, 22, 23, /* x 1..2 */
					 8, 0, 12, 0,  20, 0,  24, 0}; /* x 3..4 */
	unsigned i;
	memset(&t, 0, sizeof t);
	t.ndims = 3;
	t.buffer_dimension[0] = 4;
	t.buffer_dimension[1] = 3;
	t.buffer_dimension[2] = 2;
	t.tiling_dimension[0] = t.tiling_dimension[1] = t.tiling_dimension[2] = 2;
	t.offset[0] = 1;
	t.offset[1] = 1;
	t.nloops = 1;
	t.tile_traversal[0] = (aieth_traversal){0, 2, 2};
	t.repetition = 1;
	CU_ASSERT_EQUAL_FATAL(aieth__tiling_check("t", &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__tiling_buffer_elems(&t), 24);
	CU_ASSERT_EQUAL(aieth__tiling_stream_elems(&t), 16);
	fill_index(buf, 24, 1);
	aieth__tiling_gather(&t, 1, buf, s);
	expect_bytes(s, want, 16);

	/* full cover in z, y, x order: tiles 2 x 3 x 1 stepping x by 2, z by 1 */
	memset(&t, 0, sizeof t);
	t.ndims = 3;
	t.buffer_dimension[0] = 4;
	t.buffer_dimension[1] = 3;
	t.buffer_dimension[2] = 2;
	t.tiling_dimension[0] = 2;
	t.tiling_dimension[1] = 3;
	t.tiling_dimension[2] = 1;
	t.nloops = 2;
	t.tile_traversal[0] = (aieth_traversal){2, 1, 2};
	t.tile_traversal[1] = (aieth_traversal){0, 2, 2};
	t.repetition = 1;
	CU_ASSERT_EQUAL_FATAL(aieth__tiling_check("t", &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__tiling_stream_elems(&t), 24);
	{
		uint8_t s2[24];
		static const uint8_t w2[24] = {1,  2,  5,  6,  9,  10, /* x 0..1, z 0 */
					       13, 14, 17, 18, 21, 22, /* x 0..1, z 1 */
					       3,  4,  7,  8,  11, 12, /* x 2..3, z 0 */
					       15, 16, 19, 20, 23, 24};
		aieth__tiling_gather(&t, 1, buf, s2);
		expect_bytes(s2, w2, 24);
		memset(back, 0, sizeof back);
		aieth__tiling_scatter(&t, 1, s2, back);
		expect_bytes(back, buf, 24);
	}
	for (i = 0; i < 24; i++)
		CU_ASSERT_EQUAL(buf[i], i + 1); /* gather does not touch the buffer */
}

static void test_no_loops(void)
{
	/* no traversal loops: one tile */
	aieth_tiling t;
	uint8_t buf[6] = {1, 2, 3, 4, 5, 6}, s[4];
	static const uint8_t want[4] = {2, 3, 5, 6};
	memset(&t, 0, sizeof t);
	t.ndims = 2;
	t.buffer_dimension[0] = 3;
	t.buffer_dimension[1] = 2;
	t.tiling_dimension[0] = 2;
	t.tiling_dimension[1] = 2;
	t.offset[0] = 1;
	t.repetition = 1;
	CU_ASSERT_EQUAL_FATAL(aieth__tiling_check("t", &t), AIETH_OK);
	CU_ASSERT_EQUAL(aieth__tiling_stream_elems(&t), 4);
	aieth__tiling_gather(&t, 1, buf, s);
	expect_bytes(s, want, 4);
}

static void check_fails(const aieth_tiling *t, const char *msg)
{
	CU_ASSERT_EQUAL(aieth__tiling_check("t.json: channels[2].tiling", t), AIETH_EINVAL);
	MSG_HAS(msg);
}

static void test_check_errors(void)
{
	aieth_tiling t = classic();
	CU_ASSERT_EQUAL(aieth__tiling_check(NULL, NULL), AIETH_EINVAL);
	t.ndims = 0;
	check_fails(&t, "t.json: channels[2].tiling.buffer_dimension: 0 dimensions, the allowed "
			"number is 1..8");
	t.ndims = 9;
	check_fails(&t, "9 dimensions");
	t = classic();
	t.buffer_dimension[1] = 0;
	check_fails(&t, "tiling.buffer_dimension[1]: 0 elements (must be >= 1)");
	t = classic();
	t.tiling_dimension[0] = 0;
	check_fails(&t, "tiling.tiling_dimension[0]: 0 elements");
	t = classic();
	t.tile_traversal[1].dimension = 2;
	check_fails(&t, "tiling.tile_traversal[1].dimension: 2 names no buffer dimension (the "
			"buffer has 2: 0..1)");
	t = classic();
	t.tile_traversal[0].wrap = 0;
	check_fails(&t, "tiling.tile_traversal[0].wrap: 0 (must be >= 1)");
	t = classic();
	t.nloops = 9;
	check_fails(&t, "tiling.tile_traversal: 9 loops, the limit is 8");
	t = classic();
	t.nbound = 1;
	t.boundary_dimension[0] = 4;
	check_fails(&t, "tiling.boundary_dimension: 1 values, but the buffer has 2 dimensions");
	t.nbound = 2;
	t.boundary_dimension[1] = 9;
	check_fails(&t, "tiling.boundary_dimension[1]: 9 is larger than buffer_dimension[1] = 8");
	t.boundary_dimension[1] = 0; /* all padding */
	CU_ASSERT_EQUAL(aieth__tiling_check("t", &t), AIETH_OK);
	t = classic();
	t.repetition = 0;
	check_fails(&t, "tiling.repetition: 0 (must be >= 1)");
	/* sizes that overflow */
	t = classic();
	t.ndims = 3;
	t.buffer_dimension[0] = t.buffer_dimension[1] = t.buffer_dimension[2] = 0xffffffffu;
	t.tiling_dimension[2] = 1;
	check_fails(&t, "tiling.buffer_dimension: the buffer has more than 2^48 elements");
	t = classic();
	t.tiling_dimension[0] = t.tiling_dimension[1] = 0x1000000u;
	t.tiling_dimension[0] = 0x1000001u;
	check_fails(&t, "tiling.tiling_dimension: a tile has more than 2^48 elements");
	t = classic();
	t.tile_traversal[0].wrap = 0xffffffffu;
	t.tile_traversal[1].wrap = 0xffffffffu;
	check_fails(&t, "tiling.tile_traversal: the traversal visits more than 2^48 elements");
	t = classic();
	t.repetition = 0xffffffffu;
	t.tile_traversal[0].wrap = 0x1000000u;
	check_fails(&t, "tiling.repetition: 4294967295 repetitions visit more than 2^48 elements");
	t = classic();
	t.tile_traversal[0].stride = INT64_MAX / 2;
	check_fails(&t, "tiling.tile_traversal[0]: stride 4611686018427387903 x wrap 2 moves "
			"dimension 0 beyond +-2^62 elements");
	t.tile_traversal[0].stride = INT64_MIN;
	check_fails(&t, "tiling.tile_traversal[0]: stride");
	t = classic();
	t.offset[1] = -((int64_t)1 << 62);
	check_fails(&t, "tiling.offset[1]: -4611686018427387904 is outside +-2^62");
}

TU_MAIN("tiling", {"classic_four_tiles", test_classic_four_tiles},
	{"dimension_1_first", test_dimension_1_first}, {"wide_elements", test_wide_elements},
	{"boundary_padding", test_boundary_padding}, {"zero_boundary", test_zero_boundary},
	{"negative_offset", test_negative_offset}, {"negative_stride", test_negative_stride},
	{"repetition", test_repetition}, {"overlap_last_wins", test_overlap_last_wins},
	{"3d", test_3d}, {"no_loops", test_no_loops}, {"check_errors", test_check_errors})
