/* SPDX-License-Identifier: MIT */
/*
 * test_protocol.c - the host <-> PL DMA protocol (pl_dma/protocol.c).
 *
 * Every expected word index, byte offset and size below was computed by
 * hand from AMD's include/pl/test_harness.hpp (cfg, perf, PERF, FUNC) and is
 * written out literally, so a wrong layout formula in the code cannot be
 * repeated by the test.
 */
#include <stdint.h>
#include <string.h>

#include "pld/protocol.h"
#include "tu.h"

#define ASSERT_U64(a, b) CU_ASSERT_EQUAL((uint64_t)(a), (uint64_t)(b))

/* Count the non-zero words of an array. */
static size_t nonzero(const uint64_t *w, size_t n)
{
	size_t i, k = 0;
	for (i = 0; i < n; i++)
		k += w[i] != 0;
	return k;
}

/* ------------------------------------------------------------ cfg words */

static void test_counts(void)
{
	ASSERT_U64(pld_cfg_count(36), 289);
	ASSERT_U64(pld_cfg_count(16), 129);
	ASSERT_U64(pld_perf_count(36), 144);
	ASSERT_U64(pld_perf_count(16), 64);
	/* bytes: 2312 / 1032 and 1152 / 512 */
	ASSERT_U64(pld_cfg_count(36) * 8, 2312);
	ASSERT_U64(pld_cfg_count(16) * 8, 1032);
	ASSERT_U64(pld_perf_count(36) * 8, 1152);
	ASSERT_U64(pld_perf_count(16) * 8, 512);
}

static void test_cfg_positions_n36(void)
{
	pld_chan_cfg tx[36], rx[36];
	uint64_t w[289];
	memset(tx, 0, sizeof tx);
	memset(rx, 0, sizeof rx);
	memset(w, 0xa5, sizeof w);
	tx[0] = (pld_chan_cfg){.delay = 11, .frames = 12, .reps = 13, .offset = 14};
	tx[35] = (pld_chan_cfg){
		.delay = 0x123456789abcdef0ull, .frames = 22, .reps = 23, .offset = 24};
	rx[5] = (pld_chan_cfg){.delay = 31, .frames = 32, .reps = 33, .offset = 34};
	rx[35] = (pld_chan_cfg){.delay = 41, .frames = 42, .reps = 43, .offset = 44};
	aieth__pld_cfg_encode(36, PLD_MODE_PERF, tx, rx, w);

	ASSERT_U64(w[0], 1);
	/* TX channel 0: delay 1, frames 37, reps 73, offset 109 */
	ASSERT_U64(w[1], 11);
	ASSERT_U64(w[37], 12);
	ASSERT_U64(w[73], 13);
	ASSERT_U64(w[109], 14);
	/* TX channel 35: delay 36, frames 72, reps 108, offset 144 */
	ASSERT_U64(w[36], 0x123456789abcdef0ull);
	ASSERT_U64(w[72], 22);
	ASSERT_U64(w[108], 23);
	ASSERT_U64(w[144], 24);
	/* RX channel 5: delay 150, frames 186, reps 222, offset 258 */
	ASSERT_U64(w[150], 31);
	ASSERT_U64(w[186], 32);
	ASSERT_U64(w[222], 33);
	ASSERT_U64(w[258], 34);
	/* RX channel 35: delay 180, frames 216, reps 252, offset 288 (last) */
	ASSERT_U64(w[180], 41);
	ASSERT_U64(w[216], 42);
	ASSERT_U64(w[252], 43);
	ASSERT_U64(w[288], 44);
	/* nothing else: mode + 16 fields */
	ASSERT_U64(nonzero(w, 289), 17);
}

static void test_cfg_positions_n16(void)
{
	pld_chan_cfg tx[16], rx[16];
	uint64_t w[129];
	memset(tx, 0, sizeof tx);
	memset(rx, 0, sizeof rx);
	memset(w, 0xa5, sizeof w);
	tx[0] = (pld_chan_cfg){.delay = 11, .frames = 12, .reps = 13, .offset = 14};
	tx[15] = (pld_chan_cfg){.delay = 21, .frames = 22, .reps = 23, .offset = 24};
	rx[5] = (pld_chan_cfg){.delay = 31, .frames = 32, .reps = 33, .offset = 34};
	rx[15] = (pld_chan_cfg){.delay = 41, .frames = 42, .reps = 43, .offset = 0xffffffffu};
	aieth__pld_cfg_encode(16, PLD_MODE_FUNC, tx, rx, w);

	ASSERT_U64(w[0], 0);
	/* TX channel 0: 1, 17, 33, 49 */
	ASSERT_U64(w[1], 11);
	ASSERT_U64(w[17], 12);
	ASSERT_U64(w[33], 13);
	ASSERT_U64(w[49], 14);
	/* TX channel 15: 16, 32, 48, 64 */
	ASSERT_U64(w[16], 21);
	ASSERT_U64(w[32], 22);
	ASSERT_U64(w[48], 23);
	ASSERT_U64(w[64], 24);
	/* RX channel 5: 70, 86, 102, 118 */
	ASSERT_U64(w[70], 31);
	ASSERT_U64(w[86], 32);
	ASSERT_U64(w[102], 33);
	ASSERT_U64(w[118], 34);
	/* RX channel 15: 80, 96, 112, 128 */
	ASSERT_U64(w[80], 41);
	ASSERT_U64(w[96], 42);
	ASSERT_U64(w[112], 43);
	ASSERT_U64(w[128], 0xffffffffu);
	ASSERT_U64(nonzero(w, 129), 16);
}

static void test_cfg_null_dirs_zero(void)
{
	uint64_t w[129];
	memset(w, 0xff, sizeof w);
	aieth__pld_cfg_encode(16, 7, NULL, NULL, w);
	ASSERT_U64(w[0], 7);
	ASSERT_U64(nonzero(w + 1, 128), 0);
}

static void test_cfg_decode(void)
{
	uint64_t w[129];
	pld_chan_cfg tx[16], rx[16];
	uint64_t mode = 99;
	memset(w, 0, sizeof w);
	w[0] = 1;
	w[3] = 0xfedcba9876543210ull;  /* TX channel 2 delay: full 64 bits */
	w[19] = 0x0000000500000007ull; /* TX channel 2 frames: low 32 bits */
	w[35] = 0xffffffff00000003ull; /* TX channel 2 reps */
	w[51] = 0x1000000000000020ull; /* TX channel 2 offset */
	w[74] = 77;                    /* RX channel 9 delay */
	w[90] = 0x100000000ull;        /* RX channel 9 frames -> 0 */
	w[106] = 1;                    /* RX channel 9 reps */
	w[122] = 0xffffffffull;        /* RX channel 9 offset */
	aieth__pld_cfg_decode(16, w, &mode, tx, rx);
	ASSERT_U64(mode, 1);
	ASSERT_U64(tx[2].delay, 0xfedcba9876543210ull);
	ASSERT_U64(tx[2].frames, 7);
	ASSERT_U64(tx[2].reps, 3);
	ASSERT_U64(tx[2].offset, 0x20);
	ASSERT_U64(rx[9].delay, 77);
	ASSERT_U64(rx[9].frames, 0);
	ASSERT_U64(rx[9].reps, 1);
	ASSERT_U64(rx[9].offset, 0xffffffffu);
	ASSERT_U64(tx[0].delay + tx[0].frames + tx[0].reps + tx[0].offset, 0);
	ASSERT_U64(rx[2].delay + rx[2].frames + rx[2].reps + rx[2].offset, 0);
	/* NULL outputs are skipped */
	aieth__pld_cfg_decode(16, w, NULL, NULL, rx);
	ASSERT_U64(rx[9].delay, 77);
}

static int same_chan(const pld_chan_cfg *a, const pld_chan_cfg *b)
{
	return a->delay == b->delay && a->frames == b->frames && a->reps == b->reps &&
	       a->offset == b->offset;
}

static void test_cfg_roundtrip(void)
{
	pld_chan_cfg tx[36], rx[36], tx2[36], rx2[36];
	uint64_t w[289], mode;
	uint32_t c;
	for (c = 0; c < 36; c++) {
		tx[c] = (pld_chan_cfg){.delay = (uint64_t)c << 40 | c,
				       .frames = c * 3u,
				       .reps = c + 1,
				       .offset = c * 4096u};
		rx[c] = (pld_chan_cfg){
			.delay = c * 7u, .frames = 0xffffffffu - c, .reps = c, .offset = c};
	}
	aieth__pld_cfg_encode(36, 1, tx, rx, w);
	aieth__pld_cfg_decode(36, w, &mode, tx2, rx2);
	ASSERT_U64(mode, 1);
	/* field by field: the struct has padding */
	for (c = 0; c < 36; c++) {
		CU_ASSERT(same_chan(&tx[c], &tx2[c]));
		CU_ASSERT(same_chan(&rx[c], &rx2[c]));
	}
}

/* ------------------------------------------------------------ perf words */

static void test_perf_positions(void)
{
	uint64_t txf[36] = {0}, txl[36] = {0}, rxf[36] = {0}, rxl[36] = {0};
	uint64_t w[144], a[36], b[36], c[36], d[36];
	txf[0] = 100;
	txl[0] = 200;
	txf[35] = 135;
	rxf[5] = 305;
	rxl[5] = 405;
	rxl[35] = 435;
	memset(w, 0xee, sizeof w);
	aieth__pld_perf_encode(36, txf, txl, rxf, rxl, w);
	ASSERT_U64(w[0], 100);   /* TX first 0 */
	ASSERT_U64(w[35], 135);  /* TX first 35 */
	ASSERT_U64(w[36], 200);  /* TX last 0 */
	ASSERT_U64(w[77], 305);  /* RX first 5 */
	ASSERT_U64(w[113], 405); /* RX last 5 */
	ASSERT_U64(w[143], 435); /* RX last 35 */
	ASSERT_U64(nonzero(w, 144), 6);
	aieth__pld_perf_decode(36, w, a, b, c, d);
	CU_ASSERT(memcmp(a, txf, sizeof a) == 0);
	CU_ASSERT(memcmp(b, txl, sizeof b) == 0);
	CU_ASSERT(memcmp(c, rxf, sizeof c) == 0);
	CU_ASSERT(memcmp(d, rxl, sizeof d) == 0);
}

static void test_perf_positions_n16(void)
{
	uint64_t w[64], a[16], d[16];
	uint64_t txf[16] = {0}, rxl[16] = {0};
	memset(w, 0, sizeof w);
	w[3] = 1003;  /* TX first 3 */
	w[16] = 2000; /* TX last 0 */
	w[37] = 3005; /* RX first 5 */
	w[63] = 4015; /* RX last 15 */
	aieth__pld_perf_decode(16, w, a, NULL, NULL, d);
	ASSERT_U64(a[3], 1003);
	ASSERT_U64(d[15], 4015);
	ASSERT_U64(a[0] + d[0], 0);
	txf[3] = 1003;
	rxl[15] = 4015;
	memset(w, 0x11, sizeof w);
	aieth__pld_perf_encode(16, txf, NULL, NULL, rxl, w);
	ASSERT_U64(w[3], 1003);
	ASSERT_U64(w[63], 4015);
	ASSERT_U64(nonzero(w, 64), 2);
}

/* ------------------------------------------------------------ transactions */

static uint8_t buf_a[4096], buf_b[4096], buf_c[4096], buf_d[4096];

static void fill(uint8_t *b, size_t n, uint8_t seed)
{
	size_t i;
	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(seed + i * 7u);
}

static void test_txn_perf_n36(void)
{
	pld_txn t;
	char err[256];
	pld_arg args[3] = {
		{.dir = 0, .index = 35, .size = 256, .reps = 10, .delay = 5, .data = buf_a},
		{.dir = 1,
		 .index = 5,
		 .size = 64,
		 .reps = 3,
		 .delay = 0x100000000ull,
		 .data = buf_b},
		{.dir = 0, .index = 0, .size = 32, .reps = 1, .delay = 0, .data = buf_c},
	};
	CU_ASSERT_EQUAL_FATAL(
		aieth__pld_txn_encode(&t, 36, 4096, PLD_MODE_PERF, args, 3, err, sizeof err), 0);
	ASSERT_U64(t.channels, 36);
	ASSERT_U64(t.depth, 4096);
	ASSERT_U64(t.cfg[0], 1);
	/* TX channel 35: delay 36, frames 72, reps 108, offset 144 */
	ASSERT_U64(t.cfg[36], 5);
	ASSERT_U64(t.cfg[72], 16);
	ASSERT_U64(t.cfg[108], 10);
	ASSERT_U64(t.cfg[144], 143360); /* 35 * 4096 */
	/* TX channel 0: frames 37, reps 73, offset 109 = 0 */
	ASSERT_U64(t.cfg[37], 2);
	ASSERT_U64(t.cfg[73], 1);
	ASSERT_U64(t.cfg[109], 0);
	/* RX channel 5: delay 150, frames 186, reps 222, offset 258 */
	ASSERT_U64(t.cfg[150], 0x100000000ull);
	ASSERT_U64(t.cfg[186], 4);
	ASSERT_U64(t.cfg[222], 3);
	ASSERT_U64(t.cfg[258], 20480); /* 5 * 4096 */
	ASSERT_U64(nonzero(t.cfg, 289), 11);
	ASSERT_U64(nonzero(t.perf, 144), 0);

	ASSERT_U64(t.tx.size, 2359296);
	ASSERT_U64(t.rx.size, 2359296);
	/* TX segments sorted by channel, not by argument order */
	CU_ASSERT_EQUAL_FATAL(t.tx.nseg, 2);
	ASSERT_U64(t.tx.seg[0].off, 0);
	ASSERT_U64(t.tx.seg[0].len, 32);
	CU_ASSERT_PTR_EQUAL(t.tx.seg[0].ptr, buf_c);
	ASSERT_U64(t.tx.seg[1].off, 2293760); /* 35 * 65536 */
	ASSERT_U64(t.tx.seg[1].len, 256);
	CU_ASSERT_PTR_EQUAL(t.tx.seg[1].ptr, buf_a);
	CU_ASSERT_EQUAL_FATAL(t.rx.nseg, 1);
	ASSERT_U64(t.rx.seg[0].off, 327680); /* 5 * 65536 */
	ASSERT_U64(t.rx.seg[0].len, 64);
	CU_ASSERT_PTR_EQUAL(t.rx.seg[0].ptr, buf_b);
	aieth__pld_txn_release(&t);
	CU_ASSERT_PTR_NULL(t.cfg);
	CU_ASSERT_PTR_NULL(t.tx.seg);
	aieth__pld_txn_release(&t); /* twice is harmless */
}

static void test_txn_perf_n16(void)
{
	pld_txn t;
	char err[256];
	pld_arg args[2] = {
		{.dir = 1, .index = 15, .size = 1024, .reps = 2, .data = buf_a},
		{.dir = 0, .index = 1, .size = 4096, .reps = 7, .data = buf_b},
	};
	CU_ASSERT_EQUAL_FATAL(aieth__pld_txn_encode(&t, 16, 8192, 5, args, 2, err, sizeof err), 0);
	ASSERT_U64(t.cfg[0], 1); /* any PERF mode is written as 1 */
	/* TX channel 1: frames 18, reps 34, offset 50 */
	ASSERT_U64(t.cfg[18], 256);
	ASSERT_U64(t.cfg[34], 7);
	ASSERT_U64(t.cfg[50], 8192);
	/* RX channel 15: frames 96, reps 112, offset 128 */
	ASSERT_U64(t.cfg[96], 64);
	ASSERT_U64(t.cfg[112], 2);
	ASSERT_U64(t.cfg[128], 122880); /* 15 * 8192 */
	ASSERT_U64(nonzero(t.cfg, 129), 7);
	ASSERT_U64(t.tx.size, 2097152);
	ASSERT_U64(t.rx.size, 2097152);
	CU_ASSERT_EQUAL_FATAL(t.tx.nseg, 1);
	ASSERT_U64(t.tx.seg[0].off, 131072);
	CU_ASSERT_EQUAL_FATAL(t.rx.nseg, 1);
	ASSERT_U64(t.rx.seg[0].off, 1966080);
	ASSERT_U64(t.rx.seg[0].len, 1024);
	aieth__pld_txn_release(&t);
}

static void test_txn_perf_no_channels(void)
{
	pld_txn t;
	char err[64];
	CU_ASSERT_EQUAL_FATAL(
		aieth__pld_txn_encode(&t, 16, 8192, PLD_MODE_PERF, NULL, 0, err, sizeof err), 0);
	/* AMD's host allocates the full PERF images even when unused */
	ASSERT_U64(t.tx.size, 2097152);
	ASSERT_U64(t.rx.size, 2097152);
	ASSERT_U64(t.tx.nseg + t.rx.nseg, 0);
	ASSERT_U64(t.cfg[0], 1);
	ASSERT_U64(nonzero(t.cfg, 129), 1);
	aieth__pld_txn_release(&t);
}

static void test_txn_perf_clip(void)
{
	pld_txn t;
	char err[256];
	static uint8_t big[3 * 16 * 64];
	/* D = 64 words (1024 bytes); sizes of 3 URAMs are clipped to one */
	pld_arg args[2] = {
		{.dir = 0, .index = 2, .size = 3 * 1024, .reps = 1, .data = big},
		{.dir = 1, .index = 0, .size = 3 * 1024 + 16, .reps = 1, .data = buf_a},
	};
	CU_ASSERT_EQUAL_FATAL(
		aieth__pld_txn_encode(&t, 4, 64, PLD_MODE_PERF, args, 2, err, sizeof err), 0);
	ASSERT_U64(t.tx.size, 4096);
	/* frames keep the full size: 192 and 193 */
	ASSERT_U64(t.cfg[7], 192);  /* N=4: TX frames 5..8 */
	ASSERT_U64(t.cfg[21], 193); /* RX frames 21..24 */
	ASSERT_U64(t.cfg[15], 128); /* TX offsets 13..16: 2 * 64 */
	CU_ASSERT_EQUAL_FATAL(t.tx.nseg, 1);
	ASSERT_U64(t.tx.seg[0].off, 2048);
	ASSERT_U64(t.tx.seg[0].len, 1024);
	CU_ASSERT_EQUAL_FATAL(t.rx.nseg, 1);
	ASSERT_U64(t.rx.seg[0].off, 0);
	ASSERT_U64(t.rx.seg[0].len, 1024);
	aieth__pld_txn_release(&t);
}

static void test_txn_func_packing(void)
{
	pld_txn t;
	char err[256];
	/* argument order is not channel order, directions interleaved */
	pld_arg args[5] = {
		{.dir = 0, .index = 7, .size = 64, .reps = 1, .delay = 9, .data = buf_a},
		{.dir = 0, .index = 2, .size = 32, .reps = 1, .data = buf_b},
		{.dir = 1, .index = 3, .size = 48, .reps = 1, .data = buf_c},
		{.dir = 0, .index = 0, .size = 16, .reps = 1, .data = buf_d},
		{.dir = 1, .index = 1, .size = 160, .reps = 1, .delay = 4, .data = buf_a + 1024},
	};
	CU_ASSERT_EQUAL_FATAL(
		aieth__pld_txn_encode(&t, 36, 4096, PLD_MODE_FUNC, args, 5, err, sizeof err), 0);
	ASSERT_U64(t.cfg[0], 0);
	/* TX 7: delay 8, frames 44, reps 80, offset 116 = 0 */
	ASSERT_U64(t.cfg[8], 9);
	ASSERT_U64(t.cfg[44], 4);
	ASSERT_U64(t.cfg[80], 1);
	ASSERT_U64(t.cfg[116], 0);
	/* TX 2: frames 39, reps 75, offset 111 = 4 */
	ASSERT_U64(t.cfg[39], 2);
	ASSERT_U64(t.cfg[75], 1);
	ASSERT_U64(t.cfg[111], 4);
	/* TX 0: frames 37, reps 73, offset 109 = 6 */
	ASSERT_U64(t.cfg[37], 1);
	ASSERT_U64(t.cfg[73], 1);
	ASSERT_U64(t.cfg[109], 6);
	/* RX 3: frames 184, reps 220, offset 256 = 0 */
	ASSERT_U64(t.cfg[184], 3);
	ASSERT_U64(t.cfg[220], 1);
	ASSERT_U64(t.cfg[256], 0);
	/* RX 1: delay 146, frames 182, reps 218, offset 254 = 3 */
	ASSERT_U64(t.cfg[146], 4);
	ASSERT_U64(t.cfg[182], 10);
	ASSERT_U64(t.cfg[218], 1);
	ASSERT_U64(t.cfg[254], 3);
	ASSERT_U64(nonzero(t.cfg, 289), 15); /* mode is 0 */

	ASSERT_U64(t.tx.size, 112);
	ASSERT_U64(t.rx.size, 208);
	CU_ASSERT_EQUAL_FATAL(t.tx.nseg, 3);
	ASSERT_U64(t.tx.seg[0].off, 0);
	ASSERT_U64(t.tx.seg[0].len, 64);
	CU_ASSERT_PTR_EQUAL(t.tx.seg[0].ptr, buf_a);
	ASSERT_U64(t.tx.seg[1].off, 64);
	ASSERT_U64(t.tx.seg[1].len, 32);
	CU_ASSERT_PTR_EQUAL(t.tx.seg[1].ptr, buf_b);
	ASSERT_U64(t.tx.seg[2].off, 96);
	ASSERT_U64(t.tx.seg[2].len, 16);
	CU_ASSERT_PTR_EQUAL(t.tx.seg[2].ptr, buf_d);
	CU_ASSERT_EQUAL_FATAL(t.rx.nseg, 2);
	ASSERT_U64(t.rx.seg[0].off, 0);
	ASSERT_U64(t.rx.seg[0].len, 48);
	ASSERT_U64(t.rx.seg[1].off, 48);
	ASSERT_U64(t.rx.seg[1].len, 160);
	CU_ASSERT_PTR_EQUAL(t.rx.seg[1].ptr, buf_a + 1024);
	aieth__pld_txn_release(&t);
}

static void test_txn_null_data(void)
{
	pld_txn t;
	char err[256];
	uint8_t out[64];
	size_t i;
	pld_arg args[3] = {
		{.dir = 0, .index = 1, .size = 32, .reps = 1, .data = NULL},
		{.dir = 0, .index = 0, .size = 16, .reps = 1, .data = buf_a},
		{.dir = 1, .index = 0, .size = 0, .reps = 1, .data = buf_b},
	};
	fill(buf_a, 16, 1);
	CU_ASSERT_EQUAL_FATAL(
		aieth__pld_txn_encode(&t, 16, 8192, PLD_MODE_FUNC, args, 3, err, sizeof err), 0);
	ASSERT_U64(t.tx.size, 48);
	ASSERT_U64(t.rx.size, 0);
	/* TX channel 1 keeps its place (offset 0), with no backing */
	ASSERT_U64(t.cfg[50], 0); /* TX offsets 49..64 */
	ASSERT_U64(t.cfg[49], 2);
	CU_ASSERT_EQUAL_FATAL(t.tx.nseg, 1);
	ASSERT_U64(t.tx.seg[0].off, 32);
	ASSERT_U64(t.rx.nseg, 0);
	memset(out, 0xcc, sizeof out);
	aieth__pld_image_read(&t.tx, 0, out, 48);
	for (i = 0; i < 32; i++)
		CU_ASSERT_EQUAL(out[i], 0);
	CU_ASSERT(memcmp(out + 32, buf_a, 16) == 0);
	CU_ASSERT_EQUAL(out[48], 0xcc);
	aieth__pld_txn_release(&t);
}

static void test_image_bytes(void)
{
	pld_arg args[4] = {
		{.dir = 0, .index = 0, .size = 64, .reps = 1},
		{.dir = 1, .index = 0, .size = 32, .reps = 1},
		{.dir = 0, .index = 1, .size = 4096, .reps = 1},
		{.dir = 1, .index = 3, .size = 16, .reps = 1},
	};
	ASSERT_U64(aieth__pld_image_bytes(36, 4096, PLD_MODE_PERF, args, 4, 0), 2359296);
	ASSERT_U64(aieth__pld_image_bytes(36, 4096, PLD_MODE_PERF, args, 4, 1), 2359296);
	ASSERT_U64(aieth__pld_image_bytes(16, 8192, PLD_MODE_PERF, NULL, 0, 0), 2097152);
	ASSERT_U64(aieth__pld_image_bytes(16, 8192, PLD_MODE_FUNC, args, 4, 0), 4160);
	ASSERT_U64(aieth__pld_image_bytes(16, 8192, PLD_MODE_FUNC, args, 4, 1), 48);
	ASSERT_U64(aieth__pld_image_bytes(16, 8192, PLD_MODE_FUNC, NULL, 0, 1), 0);
}

/* ------------------------------------------------------------ sparse images */

/* Image of 100 bytes: [10,20) -> a, [20,30) -> b (adjacent), [50,60) -> c. */
static void make_image(pld_image *img, pld_seg seg[3])
{
	fill(buf_a, 10, 0x10);
	fill(buf_b, 10, 0x40);
	fill(buf_c, 10, 0x80);
	seg[0] = (pld_seg){.off = 10, .len = 10, .ptr = buf_a};
	seg[1] = (pld_seg){.off = 20, .len = 10, .ptr = buf_b};
	seg[2] = (pld_seg){.off = 50, .len = 10, .ptr = buf_c};
	img->size = 100;
	img->nseg = 3;
	img->seg = seg;
	img->gate = NULL;
}

static uint8_t expect_byte(uint64_t p)
{
	if (p >= 10 && p < 20)
		return (uint8_t)(0x10 + (p - 10) * 7u);
	if (p >= 20 && p < 30)
		return (uint8_t)(0x40 + (p - 20) * 7u);
	if (p >= 50 && p < 60)
		return (uint8_t)(0x80 + (p - 50) * 7u);
	return 0;
}

static void test_image_read(void)
{
	pld_image img;
	pld_seg seg[3];
	uint8_t out[128];
	uint64_t off, len, i;
	make_image(&img, seg);
	/* every (off, len) with off+len <= 110, including past the end */
	for (off = 0; off < 110; off++)
		for (len = 0; off + len <= 110; len++) {
			memset(out, 0xcc, sizeof out);
			aieth__pld_image_read(&img, off, out, len);
			for (i = 0; i < len; i++)
				if (out[i] != expect_byte(off + i)) {
					CU_FAIL("read byte differs");
					return;
				}
			if (out[len] != 0xcc) {
				CU_FAIL("read past len");
				return;
			}
		}
	/* spot checks: across the adjacent boundary and into the gap */
	aieth__pld_image_read(&img, 18, out, 4);
	CU_ASSERT_EQUAL(out[0], buf_a[8]);
	CU_ASSERT_EQUAL(out[1], buf_a[9]);
	CU_ASSERT_EQUAL(out[2], buf_b[0]);
	CU_ASSERT_EQUAL(out[3], buf_b[1]);
	aieth__pld_image_read(&img, 28, out, 24);
	CU_ASSERT_EQUAL(out[0], buf_b[8]);
	CU_ASSERT_EQUAL(out[2], 0);
	CU_ASSERT_EQUAL(out[21], 0);
	CU_ASSERT_EQUAL(out[22], buf_c[0]);
	/* no segments at all */
	img.nseg = 0;
	memset(out, 0xcc, sizeof out);
	aieth__pld_image_read(&img, 0, out, 100);
	CU_ASSERT_EQUAL(out[0], 0);
	CU_ASSERT_EQUAL(out[99], 0);
	CU_ASSERT_EQUAL(out[100], 0xcc);
}

static void test_image_write(void)
{
	pld_image img;
	pld_seg seg[3];
	uint8_t src[100], out[100];
	size_t i;
	make_image(&img, seg);
	memset(buf_a + 10, 0xdd, 10); /* guard bytes after each segment */
	memset(buf_b + 10, 0xdd, 10);
	memset(buf_c + 10, 0xdd, 10);
	for (i = 0; i < sizeof src; i++)
		src[i] = (uint8_t)(200 + i);
	/* bytes 5..54: covers gap, a, b, gap, part of c */
	aieth__pld_image_write(&img, 5, src, 50);
	CU_ASSERT_EQUAL(buf_a[0], src[5]); /* image byte 10 */
	CU_ASSERT_EQUAL(buf_a[9], src[14]);
	CU_ASSERT_EQUAL(buf_b[0], src[15]); /* image byte 20 */
	CU_ASSERT_EQUAL(buf_b[9], src[24]);
	CU_ASSERT_EQUAL(buf_c[0], src[45]);                 /* image byte 50 */
	CU_ASSERT_EQUAL(buf_c[4], src[49]);                 /* image byte 54 */
	CU_ASSERT_EQUAL(buf_c[5], (uint8_t)(0x80 + 5 * 7)); /* untouched */
	CU_ASSERT_EQUAL(buf_a[10], 0xdd);
	CU_ASSERT_EQUAL(buf_b[10], 0xdd);
	CU_ASSERT_EQUAL(buf_c[10], 0xdd);
	/* gaps still read as zero: the written bytes there were dropped */
	aieth__pld_image_read(&img, 0, out, 100);
	for (i = 0; i < 10; i++)
		CU_ASSERT_EQUAL(out[i], 0);
	for (i = 30; i < 50; i++)
		CU_ASSERT_EQUAL(out[i], 0);
	CU_ASSERT_EQUAL(out[12], src[7]);
	/* a write entirely in a gap or past the end changes nothing */
	aieth__pld_image_write(&img, 35, src, 10);
	aieth__pld_image_write(&img, 60, src, 40);
	aieth__pld_image_write(&img, 1000, src, 100);
	aieth__pld_image_read(&img, 0, src, 100);
	CU_ASSERT(memcmp(src, out, 100) == 0);
}

static void test_image_ptr(void)
{
	pld_image img;
	pld_seg seg[3];
	make_image(&img, seg);
	CU_ASSERT_PTR_EQUAL(aieth__pld_image_ptr(&img, 10, 10), buf_a);
	CU_ASSERT_PTR_EQUAL(aieth__pld_image_ptr(&img, 12, 3), buf_a + 2);
	CU_ASSERT_PTR_EQUAL(aieth__pld_image_ptr(&img, 20, 10), buf_b);
	CU_ASSERT_PTR_EQUAL(aieth__pld_image_ptr(&img, 59, 1), buf_c + 9);
	/* across the adjacent boundary a|b: two segments */
	CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&img, 19, 2));
	CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&img, 10, 11));
	/* past the end of a segment, in gaps, before the first, after the last */
	CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&img, 55, 6));
	CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&img, 30, 1));
	CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&img, 0, 1));
	CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&img, 9, 2));
	CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&img, 60, 1));
	CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&img, 99, 1));
	CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&img, 12, UINT64_MAX));
	CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&img, UINT64_MAX, 1));
	img.nseg = 0;
	CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&img, 10, 1));
}

/* Whole-image write and read of a PERF image: D = 64 words, RX channels 0
 * (1024 bytes, clipped from 2048) and 2 (512 bytes) out of 4. */
static void test_image_write_whole(void)
{
	static uint8_t dst0[1024], dst2[512], src[4096], out[4096];
	pld_arg args[2] = {
		{.dir = 1, .index = 2, .size = 512, .reps = 1, .data = dst2},
		{.dir = 1, .index = 0, .size = 2048, .reps = 1, .data = dst0},
	};
	pld_txn t;
	char err[256];
	size_t i;
	CU_ASSERT_EQUAL_FATAL(
		aieth__pld_txn_encode(&t, 4, 64, PLD_MODE_PERF, args, 2, err, sizeof err), 0);
	ASSERT_U64(t.rx.size, 4096);
	for (i = 0; i < sizeof src; i++)
		src[i] = (uint8_t)(i * 31u + 5u);
	aieth__pld_image_write(&t.rx, 0, src, 4096);
	CU_ASSERT(memcmp(dst0, src, 1024) == 0);       /* bytes 0..1023 */
	CU_ASSERT(memcmp(dst2, src + 2048, 512) == 0); /* bytes 2048..2559 */
	aieth__pld_image_read(&t.rx, 0, out, 4096);
	CU_ASSERT(memcmp(out, src, 1024) == 0);
	for (i = 1024; i < 2048; i++)
		CU_ASSERT_EQUAL(out[i], 0);
	CU_ASSERT(memcmp(out + 2048, src + 2048, 512) == 0);
	for (i = 2560; i < 4096; i++)
		CU_ASSERT_EQUAL(out[i], 0);
	CU_ASSERT_PTR_EQUAL(aieth__pld_image_ptr(&t.rx, 2048, 512), dst2);
	CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&t.rx, 2048, 513));
	aieth__pld_txn_release(&t);
}

/* PERF image with all 36 TX channels present, D = 16 words: 36 segments of
 * 64 bytes at 256-byte strides; exercises the binary search. */
static void test_image_many_segments(void)
{
	static uint8_t data[36][64];
	pld_arg args[36];
	pld_txn t;
	char err[256];
	uint8_t out[300];
	uint32_t c;
	for (c = 0; c < 36; c++) {
		/* given in reverse channel order */
		uint32_t ch = 35 - c;
		memset(data[ch], (int)(ch + 1), 64);
		args[c] = (pld_arg){.dir = 0, .index = ch, .size = 64, .reps = 1, .data = data[ch]};
	}
	CU_ASSERT_EQUAL_FATAL(
		aieth__pld_txn_encode(&t, 36, 16, PLD_MODE_PERF, args, 36, err, sizeof err), 0);
	ASSERT_U64(t.tx.size, 9216);
	CU_ASSERT_EQUAL_FATAL(t.tx.nseg, 36);
	for (c = 0; c < 36; c++) {
		ASSERT_U64(t.tx.seg[c].off, c * 256u);
		CU_ASSERT_PTR_EQUAL(aieth__pld_image_ptr(&t.tx, c * 256u + 8, 56), data[c] + 8);
		CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&t.tx, c * 256u + 8, 57));
		CU_ASSERT_PTR_NULL(aieth__pld_image_ptr(&t.tx, c * 256u + 64, 1));
	}
	/* channel 20 region plus the start of 21 */
	aieth__pld_image_read(&t.tx, 20 * 256 + 60, out, 200);
	CU_ASSERT_EQUAL(out[0], 21);
	CU_ASSERT_EQUAL(out[3], 21);
	CU_ASSERT_EQUAL(out[4], 0);
	CU_ASSERT_EQUAL(out[195], 0);
	CU_ASSERT_EQUAL(out[196], 22);
	CU_ASSERT_EQUAL(out[199], 22);
	aieth__pld_txn_release(&t);
}

/* ------------------------------------------------------------ errors */

static void expect_fail(uint32_t n, uint32_t depth, uint64_t mode, const pld_arg *args,
			size_t nargs, const char *msg)
{
	pld_txn t;
	char err[256];
	memset(&t, 0x5a, sizeof t);
	CU_ASSERT_EQUAL(aieth__pld_txn_encode(&t, n, depth, mode, args, nargs, err, sizeof err),
			-1);
	CU_ASSERT_STRING_EQUAL(err, msg);
	if (strcmp(err, msg) != 0)
		fprintf(stderr, "\n  got:  %s\n  want: %s\n", err, msg);
	/* a failed encode leaves nothing to release */
	CU_ASSERT_PTR_NULL(t.cfg);
	CU_ASSERT_PTR_NULL(t.perf);
	CU_ASSERT_PTR_NULL(t.tx.seg);
	CU_ASSERT_PTR_NULL(t.rx.seg);
	aieth__pld_txn_release(&t);
}

static void test_errors(void)
{
	pld_arg a[3];
	pld_txn t;
	char err[256];

	memset(a, 0, sizeof a);
	a[0] = (pld_arg){.dir = 0, .index = 1, .size = 16, .reps = 1};
	a[1] = (pld_arg){.dir = 0, .index = 3, .size = 137438953472ull, .reps = 1};
	expect_fail(36, 4096, PLD_MODE_PERF, a, 2,
		    "TX channel 3: size 137438953472 bytes is 8589934592 frames, "
		    "the PL kernel's limit is 4294967295");
	a[1] = (pld_arg){.dir = 1, .index = 0, .size = 16, .reps = 4294967296ull};
	expect_fail(36, 4096, PLD_MODE_PERF, a, 2,
		    "RX channel 0: repetition 4294967296, the PL kernel's limit is 4294967295");
	a[1] = (pld_arg){.dir = 1, .index = 16, .size = 16, .reps = 1};
	expect_fail(16, 8192, PLD_MODE_PERF, a, 2,
		    "RX channel 16: the board has 16 channels per direction (0 to 15)");
	a[1] = (pld_arg){.dir = 0, .index = 1, .size = 32, .reps = 1};
	expect_fail(16, 8192, PLD_MODE_PERF, a, 2,
		    "TX channel 1 appears twice in the argument list (arguments 0 and 1)");
	a[1] = (pld_arg){.dir = 1, .index = 1, .size = 40, .reps = 1};
	expect_fail(16, 8192, PLD_MODE_PERF, a, 2,
		    "RX channel 1: size 40 bytes is not a multiple of 16 bytes (one 128-bit word)");
	a[1] = (pld_arg){.dir = 1, .index = 1, .size = 32, .reps = 2};
	expect_fail(16, 8192, PLD_MODE_FUNC, a, 2,
		    "RX channel 1: repetition 2 in FUNC mode, where the PL kernel ignores it; "
		    "it must be 1");
	a[1] = (pld_arg){.dir = 2, .index = 1, .size = 32, .reps = 1};
	expect_fail(16, 8192, PLD_MODE_FUNC, a, 2,
		    "argument 1: direction 2 is neither 0 (TX, to AIE) nor 1 (RX, from AIE)");
	expect_fail(0, 8192, PLD_MODE_FUNC, NULL, 0, "the board has 0 channels per direction");
	expect_fail(16, 0, PLD_MODE_FUNC, NULL, 0, "the board's URAM depth is 0 words");

	/* FUNC offsets: 4294967295 + 1 words end at word 4294967295, fine;
	 * the next channel would start at word 4294967296 */
	a[0] = (pld_arg){.dir = 0, .index = 0, .size = 68719476720ull, .reps = 1};
	a[1] = (pld_arg){.dir = 0, .index = 1, .size = 16, .reps = 1};
	a[2] = (pld_arg){.dir = 0, .index = 2, .size = 0, .reps = 1};
	CU_ASSERT_EQUAL(aieth__pld_txn_encode(&t, 16, 8192, PLD_MODE_FUNC, a, 2, err, sizeof err),
			0);
	ASSERT_U64(t.cfg[50], 4294967295ull);
	ASSERT_U64(t.tx.size, 68719476736ull);
	aieth__pld_txn_release(&t);
	expect_fail(16, 8192, PLD_MODE_FUNC, a, 3,
		    "TX channel 2: offset 4294967296 words in the FUNC image, "
		    "the PL kernel's limit is 4294967295");
	a[1] = (pld_arg){.dir = 0, .index = 1, .size = 32, .reps = 1};
	expect_fail(16, 8192, PLD_MODE_FUNC, a, 2,
		    "TX channel 1: its data ends at word 4294967296 of the FUNC image, "
		    "the PL kernel's 32-bit word offsets reach 4294967295");
	/* RX packing is independent of TX: the same RX channel fits */
	a[1] = (pld_arg){.dir = 1, .index = 1, .size = 32, .reps = 1};
	CU_ASSERT_EQUAL(aieth__pld_txn_encode(&t, 16, 8192, PLD_MODE_FUNC, a, 2, err, sizeof err),
			0);
	aieth__pld_txn_release(&t);

	/* PERF offsets: channel 2 of D = 2^31 words starts at word 2^32 */
	a[0] = (pld_arg){.dir = 1, .index = 1, .size = 16, .reps = 1};
	a[1] = (pld_arg){.dir = 1, .index = 2, .size = 16, .reps = 1};
	expect_fail(4, 0x80000000u, PLD_MODE_PERF, a, 2,
		    "RX channel 2: offset 4294967296 words in the PERF image, "
		    "the PL kernel's limit is 4294967295");

	/* a NULL or zero-length err buffer is allowed */
	CU_ASSERT_EQUAL(aieth__pld_txn_encode(&t, 0, 1, PLD_MODE_PERF, NULL, 0, NULL, 0), -1);
	CU_ASSERT_EQUAL(aieth__pld_txn_encode(&t, 0, 1, PLD_MODE_PERF, NULL, 0, err, 0), -1);
	/* a long message is cut to the buffer */
	a[0] = (pld_arg){.dir = 0, .index = 99, .size = 16, .reps = 1};
	CU_ASSERT_EQUAL(aieth__pld_txn_encode(&t, 16, 8192, PLD_MODE_PERF, a, 1, err, 8), -1);
	CU_ASSERT_STRING_EQUAL(err, "TX chan");
}

/* ------------------------------------------------------------ filler */

/* Parse a P(b) as docs/protocol.md section 6 prints it: 128-bit hex, lane 7
 * first, '_' between lanes; returns its little-endian bytes. */
static void parse_mask(const char *s, uint8_t out[16])
{
	char hex[33];
	size_t k = 0, i;
	for (; *s && k < 32; s++)
		if (*s != '_')
			hex[k++] = *s;
	hex[k] = '\0';
	CU_ASSERT_EQUAL_FATAL(k, 32);
	for (i = 0; i < 16; i++) {
		char byte[3] = {hex[30 - 2 * i], hex[31 - 2 * i], '\0'};
		out[i] = (uint8_t)strtoul(byte, NULL, 16);
	}
}

static void test_filler_table(void)
{
	static const struct {
		uint64_t b;
		const char *p;
	} table[] = {
		/* docs/protocol.md section 6, verbatim */
		{1, "0080_0040_0020_0010_0008_0004_0002_0001"},
		{2, "0100_0080_0040_0020_0010_0008_0004_0002"},
		{3, "0180_00c0_0060_0030_0018_000c_0006_0003"},
		/* 0x8000: only lane 0 = 0x8000 */
		{0x8000, "0000_0000_0000_0000_0000_0000_0000_8000"},
		/* by hand from lane k = (b << k) mod 2^16 */
		{0, "0000_0000_0000_0000_0000_0000_0000_0000"},
		{0x4000, "0000_0000_0000_0000_0000_0000_8000_4000"},
		{0xffff, "ff80_ffc0_ffe0_fff0_fff8_fffc_fffe_ffff"},
		{0x1234, "1a00_8d00_4680_2340_91a0_48d0_2468_1234"},
		/* b is truncated to 16 bits first */
		{0x10001, "0080_0040_0020_0010_0008_0004_0002_0001"},
		{0xffffffff00008000ull, "0000_0000_0000_0000_0000_0000_0000_8000"},
	};
	/* the first row byte by byte: lane 0 = bytes 0..1, little-endian */
	static const uint8_t b1[16] = {0x01, 0x00, 0x02, 0x00, 0x04, 0x00, 0x08, 0x00,
				       0x10, 0x00, 0x20, 0x00, 0x40, 0x00, 0x80, 0x00};
	uint8_t m[16], want[16];
	size_t i;

	aieth__pld_filler_mask(1, m);
	CU_ASSERT(memcmp(m, b1, 16) == 0);
	for (i = 0; i < sizeof table / sizeof table[0]; i++) {
		parse_mask(table[i].p, want);
		memset(m, 0xcc, sizeof m);
		aieth__pld_filler_mask(table[i].b, m);
		CU_ASSERT(memcmp(m, want, 16) == 0);
		if (memcmp(m, want, 16) != 0)
			fprintf(stderr, "\n  P(0x%llx) differs\n", (unsigned long long)table[i].b);
	}
}

TU_MAIN("protocol", {"counts", test_counts}, {"cfg_positions_n36", test_cfg_positions_n36},
	{"cfg_positions_n16", test_cfg_positions_n16},
	{"cfg_null_dirs_zero", test_cfg_null_dirs_zero}, {"cfg_decode", test_cfg_decode},
	{"cfg_roundtrip", test_cfg_roundtrip}, {"perf_positions", test_perf_positions},
	{"perf_positions_n16", test_perf_positions_n16}, {"txn_perf_n36", test_txn_perf_n36},
	{"txn_perf_n16", test_txn_perf_n16}, {"txn_perf_no_channels", test_txn_perf_no_channels},
	{"txn_perf_clip", test_txn_perf_clip}, {"txn_func_packing", test_txn_func_packing},
	{"txn_null_data", test_txn_null_data}, {"image_bytes", test_image_bytes},
	{"image_read", test_image_read}, {"image_write", test_image_write},
	{"image_ptr", test_image_ptr}, {"image_write_whole", test_image_write_whole},
	{"image_many_segments", test_image_many_segments}, {"errors", test_errors},
	{"filler_table", test_filler_table})
