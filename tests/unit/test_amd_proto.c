/* SPDX-License-Identifier: MIT */
/*
 * test_amd_proto.c - the codec of AMD's client/server protocol
 * (server/amd/amd_proto.c).
 *
 * Bytes captured from AMD's unmodified clients (handshake, requests, files)
 * are written out literally here, at the offsets the captures give, so a
 * wrong field order or width in the codec cannot be repeated by the test.
 * Every stream is decoded whole, one byte at a time and in random splits,
 * and the results must be identical.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aieth/error.h"
#include "th_server/amd/amd_proto.h"
#include "tu.h"

#define ASSERT_U64(a, b) CU_ASSERT_EQUAL((uint64_t)(a), (uint64_t)(b))

static const amdp_geom VCK190 = {36, 16, 4096, 16};
static const amdp_geom VEK280 = {16, 16, 8192, 16};

/* ------------------------------------------------------------ driver */

#define MAXM 40

typedef struct {
	int nmsg;
	amdp_msg *msg[MAXM];
	int nbulk;
	uint8_t *bulk[MAXM];
	uint64_t bulk_len[MAXM];
	int bulk_kind[MAXM];
	int err;
	char errmsg[512];
	int boundary; /* at the end: no message partly read */
} trace;

static void trace_free(trace *t)
{
	for (int i = 0; i < t->nmsg; i++)
		free(t->msg[i]);
	for (int i = 0; i < t->nbulk; i++)
		free(t->bulk[i]);
	memset(t, 0, sizeof *t);
}

enum { WHOLE = 0, BYTES = 1, RANDOM = 2 };

/* Decode stream s with the given split. Server side: cont[] answers the
 * continue points in order (all 1 if NULL). Client side: expect[] is the
 * reply sequence (ended by AMDP_NONE). */
static void run(trace *t, amdp_side side, const amdp_geom *g, const uint8_t *s, size_t len,
		int split, unsigned seed, const amdp_kind *expect, const int *cont)
{
	static amdp_dec d;
	int ncont = 0, nexp = 0;
	memset(t, 0, sizeof *t);
	CU_ASSERT_EQUAL_FATAL(aieth__amdp_dec_init(&d, side, g), 0);
	if (side == AMDP_CLIENT && expect && expect[0] != AMDP_NONE)
		CU_ASSERT_EQUAL(aieth__amdp_dec_expect(&d, expect[nexp++]), 0);
	size_t pos = 0;
	while (pos < len) {
		size_t chunk = split == WHOLE ? len - pos : 1;
		if (split == RANDOM) {
			/* small pieces and large ones, in a fixed order */
			unsigned big = (unsigned)rand_r(&seed) % 2;
			chunk = 1 + (size_t)((unsigned)rand_r(&seed) % (big ? 3000u : 7u));
		}
		if (chunk > len - pos)
			chunk = len - pos;
		size_t off = 0;
		while (off < chunk) {
			size_t used = 0;
			int r = aieth__amdp_dec_feed(&d, s + pos + off, chunk - off, &used);
			CU_ASSERT(used <= chunk - off);
			off += used;
			if (r < 0) {
				t->err = r;
				snprintf(t->errmsg, sizeof t->errmsg, "%s", aieth_error_message());
				return;
			}
			if (r == AMDP_EV_BULK) {
				CU_ASSERT_FATAL(t->nbulk < MAXM);
				t->bulk_len[t->nbulk] = d.bulk_len;
				t->bulk_kind[t->nbulk] = d.bulk;
				t->bulk[t->nbulk] = malloc(d.bulk_len);
				CU_ASSERT_FATAL(t->bulk[t->nbulk] != NULL);
				aieth__amdp_dec_sink(&d, t->bulk[t->nbulk]);
				t->nbulk++;
			} else if (r == AMDP_EV_MSG) {
				CU_ASSERT_FATAL(t->nmsg < MAXM);
				t->msg[t->nmsg] = malloc(sizeof(amdp_msg));
				CU_ASSERT_FATAL(t->msg[t->nmsg] != NULL);
				memcpy(t->msg[t->nmsg], &d.msg, sizeof d.msg);
				t->nmsg++;
				if (d.msg.kind == AMDP_Q_MGR_DEVICE ||
				    d.msg.kind == AMDP_Q_RUN_BYTES)
					aieth__amdp_dec_continue(&d, cont ? cont[ncont++] : 1);
				if (side == AMDP_CLIENT && expect && expect[nexp] != AMDP_NONE)
					CU_ASSERT_EQUAL(aieth__amdp_dec_expect(&d, expect[nexp++]),
							0);
			} else {
				CU_ASSERT_EQUAL(r, AMDP_EV_MORE);
				CU_ASSERT_EQUAL(off, chunk);
				break;
			}
		}
		pos += chunk;
	}
	t->boundary = aieth__amdp_dec_at_boundary(&d);
}

/* The same stream in every split gives the same messages and payloads. */
static void run_all_splits(trace *ref, amdp_side side, const amdp_geom *g, const uint8_t *s,
			   size_t len, const amdp_kind *expect, const int *cont)
{
	run(ref, side, g, s, len, WHOLE, 0, expect, cont);
	for (int k = 0; k < 6; k++) {
		trace t;
		run(&t, side, g, s, len, k == 0 ? BYTES : RANDOM, (unsigned)k * 7919u, expect,
		    cont);
		CU_ASSERT_EQUAL(t.err, ref->err);
		CU_ASSERT_STRING_EQUAL(t.errmsg, ref->errmsg);
		CU_ASSERT_EQUAL(t.nmsg, ref->nmsg);
		CU_ASSERT_EQUAL(t.nbulk, ref->nbulk);
		CU_ASSERT_EQUAL(t.boundary, ref->boundary);
		for (int i = 0; i < t.nmsg && i < ref->nmsg; i++)
			CU_ASSERT(memcmp(t.msg[i], ref->msg[i], sizeof(amdp_msg)) == 0);
		for (int i = 0; i < t.nbulk && i < ref->nbulk; i++) {
			CU_ASSERT_EQUAL(t.bulk_len[i], ref->bulk_len[i]);
			CU_ASSERT(memcmp(t.bulk[i], ref->bulk[i], ref->bulk_len[i]) == 0);
		}
		trace_free(&t);
	}
}

/* Little helpers to write captured streams literally. */
static size_t w8(uint8_t *p, size_t at, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[at + i] = (uint8_t)(v >> (8 * i));
	return at + 8;
}

static size_t ws(uint8_t *p, size_t at, const char *s)
{
	size_t n = strlen(s);
	at = w8(p, at, n);
	memcpy(p + at, s, n);
	return at + n;
}

/* ------------------------------------------------ captured: handshake */

static const uint8_t CAP_HELLO[] = {0x01,                                        /* ack */
				    0x01, 0,    0,    0,    0,    0,    0,    0, /* 1 config file */
				    0x07, 0,    0,    0,    0,    0,    0,    0, /* name length 7 */
				    0x78, 0x72, 0x74, 0x2e, 0x69, 0x6e, 0x69,    /* "xrt.ini" */
				    0x17, 0,    0,    0,    0,    0,    0,    0, /* 23 bytes */
				    0x5b, 0x44, 0x65, 0x62, 0x75, 0x67, 0x5d, 0x0a,
				    0x78, 0x72, 0x74, 0x5f, 0x74, 0x72, 0x61, 0x63,
				    0x65, 0x3d, 0x74, 0x72, 0x75, 0x65, 0x0a};
static const char INI[] = "[Debug]\nxrt_trace=true\n";

static void test_capture_handshake(void)
{
	trace t;
	ASSERT_U64(sizeof CAP_HELLO, 0x37); /* the first request starts at 0x37 */
	run_all_splits(&t, AMDP_SERVER, &VCK190, CAP_HELLO, sizeof CAP_HELLO, NULL, NULL);
	CU_ASSERT_EQUAL(t.err, 0);
	CU_ASSERT_EQUAL_FATAL(t.nmsg, 1);
	CU_ASSERT_EQUAL(t.msg[0]->kind, AMDP_Q_HELLO);
	CU_ASSERT_EQUAL(t.msg[0]->flag, 1);
	CU_ASSERT_EQUAL(t.msg[0]->nfiles, 1);
	CU_ASSERT_STRING_EQUAL(t.msg[0]->file[0], "xrt.ini");
	ASSERT_U64(t.msg[0]->file_len[0], 23);
	CU_ASSERT_EQUAL_FATAL(t.nbulk, 1);
	CU_ASSERT_EQUAL(t.bulk_kind[0], AMDP_BULK_INI);
	CU_ASSERT(memcmp(t.bulk[0], INI, 23) == 0);
	CU_ASSERT(t.boundary);
	trace_free(&t);

	/* encoding gives the same bytes, both directions */
	sbuf b = SB_INIT(AMDP_MAX_MSG);
	const char *nm[] = {"xrt.ini"};
	const uint8_t *dt[] = {(const uint8_t *)INI};
	uint64_t ln[] = {23};
	CU_ASSERT_EQUAL(aieth__amdp_enc_hello(&b, 1, 1, nm, dt, ln), 0);
	CU_ASSERT_EQUAL_FATAL(b.n, sizeof CAP_HELLO);
	CU_ASSERT(memcmp(b.u, CAP_HELLO, b.n) == 0);
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(aieth__amdp_enc_available(&b, 1), 0);
	CU_ASSERT(b.n == 1 && b.u[0] == 0x01);
	/* no config file: count 0 */
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(aieth__amdp_enc_hello(&b, 1, 0, NULL, NULL, NULL), 0);
	CU_ASSERT_EQUAL(b.n, 9);
	run(&t, AMDP_SERVER, &VCK190, b.u, b.n, WHOLE, 0, NULL, NULL);
	CU_ASSERT(t.err == 0 && t.nmsg == 1 && t.msg[0]->nfiles == 0 && t.nbulk == 0);
	trace_free(&t);
	aieth__sb_free(&b);

	/* the client decodes H1 (and would ignore a 0) */
	static const uint8_t h1[] = {0x01};
	static const amdp_kind ex[] = {AMDP_R_AVAILABLE, AMDP_NONE};
	run(&t, AMDP_CLIENT, NULL, h1, 1, WHOLE, 0, ex, NULL);
	CU_ASSERT(t.err == 0 && t.nmsg == 1 && t.msg[0]->flag == 1);
	trace_free(&t);
}

/* --------------------------------------------- captured: the manager */

/* C>S 0x37..0xdb: test_harness_mgr (device, then steps 4-8). */
static size_t cap_mgr(uint8_t *p, size_t *split_at)
{
	static const uint8_t xcl[18] = {'x', 'c', 'l', 'b', 'i', 'n', '2', 0, 1,
					2,   3,   4,   5,   6,   7,   8,   9, 10};
	size_t at = ws(p, 0, "test_harness_mgr");
	CU_ASSERT_EQUAL(at, 0x4f - 0x37);
	at = ws(p, at, "vck190");
	CU_ASSERT_EQUAL(at, 0x5d - 0x37);
	*split_at = at;
	memset(p + at, 0, 4); /* device index 0 */
	at += 4;
	at = w8(p, at, 1);
	at = ws(p, at, "gr");
	CU_ASSERT_EQUAL(at, 0x73 - 0x37);
	at = w8(p, at, 1);
	p[at++] = 0; /* graph_started = [0] */
	CU_ASSERT_EQUAL(at, 0x7c - 0x37);
	at = w8(p, at, 1);
	at = ws(p, at, "vck190_test_harness");
	CU_ASSERT_EQUAL(at, 0x9f - 0x37);
	at = ws(p, at, "vck190_test_harness.xclbin");
	at = w8(p, at, 18);
	memcpy(p + at, xcl, 18);
	return at + 18;
}

static const uint8_t CAP_MGR_REPLY[] = {0x01, /* device ok */
					0x24, 0,    0, 0,    0x10, 0, 0, 0,
					0,    0x10, 0, 0,    0x10, 0, 0, 0,  /* N W D M */
					0,    0,    0, 0x40, 0,    0, 0, 0}; /* 1 GiB */

static void test_capture_mgr(void)
{
	uint8_t s[256];
	size_t split;
	size_t len = cap_mgr(s, &split);
	trace t;
	/* behind the captured handshake */
	uint8_t all[512];
	memcpy(all, CAP_HELLO, sizeof CAP_HELLO);
	memcpy(all + sizeof CAP_HELLO, s, len);
	run_all_splits(&t, AMDP_SERVER, &VCK190, all, sizeof CAP_HELLO + len, NULL, NULL);
	CU_ASSERT_EQUAL(t.err, 0);
	CU_ASSERT_EQUAL_FATAL(t.nmsg, 3);
	CU_ASSERT_EQUAL(t.msg[1]->kind, AMDP_Q_MGR_DEVICE);
	CU_ASSERT_STRING_EQUAL(t.msg[1]->device, "vck190");
	const amdp_msg *m = t.msg[2];
	CU_ASSERT_EQUAL(m->kind, AMDP_Q_MGR);
	CU_ASSERT_EQUAL(m->dev_index, 0);
	CU_ASSERT_EQUAL(m->ngraphs, 1);
	CU_ASSERT_STRING_EQUAL(m->graph[0], "gr");
	CU_ASSERT_EQUAL(m->started[0], 0);
	CU_ASSERT_EQUAL(m->nkernels, 1);
	CU_ASSERT_STRING_EQUAL(m->kernel[0], "vck190_test_harness");
	CU_ASSERT_STRING_EQUAL(m->file[0], "vck190_test_harness.xclbin");
	ASSERT_U64(m->file_len[0], 18);
	CU_ASSERT_EQUAL_FATAL(t.nbulk, 2);
	CU_ASSERT_EQUAL(t.bulk_kind[1], AMDP_BULK_XCLBIN);
	CU_ASSERT(memcmp(t.bulk[1], "xclbin2", 8) == 0);
	CU_ASSERT(t.boundary);
	trace_free(&t);

	/* encoding the request gives the captured bytes */
	sbuf b = SB_INIT(AMDP_MAX_MSG);
	static const uint8_t xcl[18] = {'x', 'c', 'l', 'b', 'i', 'n', '2', 0, 1,
					2,   3,   4,   5,   6,   7,   8,   9, 10};
	const char *gr[] = {"gr"}, *kn[] = {"vck190_test_harness"};
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_mgr_device(&b, "vck190"), 0);
	CU_ASSERT_EQUAL(b.n, split);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_mgr(&b, 0, 1, gr, NULL, 1, kn,
						"vck190_test_harness.xclbin", xcl, 18),
			0);
	CU_ASSERT_EQUAL_FATAL(b.n, len);
	CU_ASSERT(memcmp(b.u, s, len) == 0);

	/* the replies: S>C 0x01..0x19 */
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(aieth__amdp_enc_mgr_device_ok(&b, &VCK190), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_max_mem(&b, 1073741824ull), 0);
	CU_ASSERT_EQUAL_FATAL(b.n, sizeof CAP_MGR_REPLY);
	CU_ASSERT(memcmp(b.u, CAP_MGR_REPLY, b.n) == 0);
	aieth__sb_free(&b);

	static const amdp_kind ex[] = {AMDP_R_MGR_DEVICE, AMDP_R_MAX_MEM, AMDP_NONE};
	run_all_splits(&t, AMDP_CLIENT, NULL, CAP_MGR_REPLY, sizeof CAP_MGR_REPLY, ex, NULL);
	CU_ASSERT_EQUAL(t.err, 0);
	CU_ASSERT_EQUAL_FATAL(t.nmsg, 2);
	CU_ASSERT_EQUAL(t.msg[0]->flag, 1);
	CU_ASSERT(t.msg[0]->n == 36 && t.msg[0]->w == 16 && t.msg[0]->d == 4096 &&
		  t.msg[0]->m == 16);
	ASSERT_U64(t.msg[1]->value, 1073741824ull);
	trace_free(&t);
}

/* -------------------------------------- captured: runTestHarness FUNC */

/* C>S 0xf6..0x8a3d of the adder capture; the image's first 16 bytes are
 * captured, the rest is ours. */
static uint8_t *cap_func(size_t *len)
{
	size_t n = 0x8a3d - 0xf6;
	uint8_t *p = calloc(1, n);
	size_t base = 0xf6;
	ws(p, 0, "runTestHarness");
	w8(p, 0x10c - base, 52616);
	p[0x114 - base] = 0; /* FUNC */
	/* id 0, timeout 0 */
	w8(p, 0x11d - base, 289);
	w8(p, 0x24d - base, 1024);        /* cfg[37] */
	w8(p, 0x25d - base, 1024);        /* cfg[39] */
	w8(p, 0x36d - base, 1);           /* cfg[73] */
	w8(p, 0x36d + 16 - base, 1);      /* cfg[75] */
	w8(p, 0x49d - base, 1024);        /* cfg[111] */
	w8(p, 0x6d5 - base, 1024);        /* cfg[182] */
	w8(p, 0x125 + 218 * 8 - base, 1); /* cfg[218] */
	w8(p, 0xa2d - base, 32768);
	static const uint8_t head[16] = {0x21, 0, 0, 0, 0x1b, 0, 0, 0,
					 0x2b, 0, 0, 0, 0x24, 0, 0, 0};
	memcpy(p + 0xa35 - base, head, 16);
	for (size_t i = 16; i < 32768; i++)
		p[0xa35 - base + i] = (uint8_t)(i * 7 + 3);
	w8(p, 0x8a35 - base, 16384);
	*len = n;
	return p;
}

static void test_capture_run_func(void)
{
	size_t len;
	uint8_t *s = cap_func(&len);
	trace t;
	uint8_t *all = malloc(len + sizeof CAP_HELLO);
	memcpy(all, CAP_HELLO, sizeof CAP_HELLO);
	memcpy(all + sizeof CAP_HELLO, s, len);
	run_all_splits(&t, AMDP_SERVER, &VCK190, all, len + sizeof CAP_HELLO, NULL, NULL);
	CU_ASSERT_EQUAL(t.err, 0);
	CU_ASSERT_EQUAL_FATAL(t.nmsg, 3);
	CU_ASSERT_EQUAL(t.msg[1]->kind, AMDP_Q_RUN_BYTES);
	ASSERT_U64(t.msg[1]->txn_bytes, 52616);
	const amdp_msg *m = t.msg[2];
	CU_ASSERT_EQUAL(m->kind, AMDP_Q_RUN);
	CU_ASSERT_EQUAL(m->mode, 0);
	CU_ASSERT_EQUAL(m->id, 0);
	CU_ASSERT_EQUAL(m->timeout, 0);
	CU_ASSERT_EQUAL(m->ncfg, 289);
	ASSERT_U64(m->cfg[0], 0);
	ASSERT_U64(m->cfg[37], 1024);
	ASSERT_U64(m->cfg[39], 1024);
	ASSERT_U64(m->cfg[73], 1);
	ASSERT_U64(m->cfg[75], 1);
	ASSERT_U64(m->cfg[111], 1024);
	ASSERT_U64(m->cfg[182], 1024);
	ASSERT_U64(m->cfg[218], 1);
	ASSERT_U64(m->to_aie_len, 32768);
	ASSERT_U64(m->from_aie_len, 16384);
	CU_ASSERT_EQUAL_FATAL(t.nbulk, 2);
	CU_ASSERT_EQUAL(t.bulk_kind[1], AMDP_BULK_TO_AIE);
	CU_ASSERT(memcmp(t.bulk[1], s + 0xa35 - 0xf6, 32768) == 0);
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VCK190, m), 0);
	ASSERT_U64(aieth__amdp_txn_bytes(36, 32768, 16384), 52616);

	/* encoding: header, then the rest */
	sbuf b = SB_INIT(AMDP_MAX_MSG);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run_bytes(&b, 52616), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run(&b, 0, 0, 0, m->cfg, 289, t.bulk[1], 32768, 16384),
			0);
	CU_ASSERT_EQUAL_FATAL(b.n, len);
	CU_ASSERT(memcmp(b.u, s, len) == 0);
	/* without the image: the caller sends it between the parts */
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run(&b, 0, 0, 0, m->cfg, 289, NULL, 32768, 16384), 0);
	CU_ASSERT_EQUAL(b.n, 0xa35 - 0x114);
	CU_ASSERT(memcmp(b.u, s + 0x114 - 0xf6, b.n) == 0);
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run_tail(&b, 16384), 0);
	CU_ASSERT(b.n == 8 && memcmp(b.u, s + 0x8a35 - 0xf6, 8) == 0);
	/* accepted: S>C 0x23 */
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(aieth__amdp_enc_accepted(&b, 1), 0);
	CU_ASSERT(b.n == 1 && b.u[0] == 1);
	aieth__sb_free(&b);
	trace_free(&t);
	free(all);
	free(s);
}

/* -------------------------------------- captured: runTestHarness PERF */

static void test_capture_run_perf(void)
{
	uint64_t img = 36ull * 16 * 4096;
	ASSERT_U64(img, 2359296);
	ASSERT_U64(aieth__amdp_txn_bytes(36, img, img), 4722056);
	uint64_t cfg[289] = {0};
	cfg[0] = 1;
	cfg[1 + 36 + 0] = 1024; /* TX ch0 frames */
	cfg[1 + 36 + 2] = 1024; /* TX ch2 frames */
	cfg[1 + 72 + 0] = 1;
	cfg[1 + 72 + 2] = 1;
	cfg[111] = 8192;          /* TX ch2 at word 2*W*D/M */
	cfg[145 + 36 + 1] = 1024; /* RX ch1 */
	cfg[145 + 72 + 1] = 1;
	cfg[254] = 4096; /* RX ch1 at word W*D/M */
	uint8_t *to = calloc(1, img);
	sbuf b = SB_INIT(AMDP_MAX_MSG);
	CU_ASSERT_EQUAL(aieth__amdp_enc_hello(&b, 1, 0, NULL, NULL, NULL), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run_bytes(&b, 4722056), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run(&b, 1, 1, 0, cfg, 289, to, img, img), 0);
	/* the captured bytes after the name: 88 0d 48 00 ..., 01, 01 00 00 00 */
	static const uint8_t cap[] = {0x88, 0x0d, 0x48, 0, 0, 0, 0, 0, 0x01, 0x01, 0, 0, 0};
	CU_ASSERT(memcmp(b.u + 9 + 22, cap, sizeof cap) == 0);
	trace t;
	run(&t, AMDP_SERVER, &VCK190, b.u, b.n, RANDOM, 5, NULL, NULL);
	CU_ASSERT_EQUAL(t.err, 0);
	CU_ASSERT_EQUAL_FATAL(t.nmsg, 3);
	const amdp_msg *m = t.msg[2];
	CU_ASSERT(m->mode == 1 && m->id == 1 && m->cfg[0] == 1 && m->cfg[111] == 8192 &&
		  m->cfg[254] == 4096 && m->to_aie_len == img && m->from_aie_len == img);
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VCK190, m), 0);
	trace_free(&t);
	aieth__sb_free(&b);
	free(to);
}

/* --------------------------------------- captured: destroy and files */

static void test_capture_destroy_files(void)
{
	static const uint8_t destroy[] = {1,    0,   0,   0,   0,  0, 0, 0, 0, /* empty handshake */
					  0x07, 0,   0,   0,   0,  0, 0, 0, 'd', 'e',
					  's',  't', 'r', 'o', 'y'};
	sbuf b = SB_INIT(AMDP_MAX_MSG);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_destroy(&b), 0);
	CU_ASSERT(b.n == sizeof destroy - 9 && memcmp(b.u, destroy + 9, b.n) == 0);
	trace t;
	run(&t, AMDP_SERVER, &VCK190, destroy, sizeof destroy, BYTES, 0, NULL, NULL);
	CU_ASSERT(t.err == 0 && t.nmsg == 2 && t.msg[1]->kind == AMDP_Q_DESTROY && t.boundary);
	trace_free(&t);

	/* S>C 0x244974: 2 files, the first test_harness_session.log of 1686 bytes */
	uint8_t *log = malloc(1686);
	memset(log, 'L', 1686);
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(aieth__amdp_enc_files_count(&b, 2), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_file(&b, "test_harness_session.log", log, 1686), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_file(&b, "xrt.run_summary", (const uint8_t *)"{}", 2), 0);
	static const uint8_t cap[] = {0x02, 0, 0, 0, 0, 0, 0, 0, 0x18, 0, 0, 0, 0, 0, 0, 0};
	CU_ASSERT(memcmp(b.u, cap, sizeof cap) == 0);
	CU_ASSERT(memcmp(b.u + 16, "test_harness_session.log", 24) == 0);
	static const uint8_t len[] = {0x96, 0x06, 0, 0, 0, 0, 0, 0};
	CU_ASSERT(memcmp(b.u + 40, len, 8) == 0);
	static const amdp_kind ex[] = {AMDP_R_FILES, AMDP_NONE};
	run_all_splits(&t, AMDP_CLIENT, NULL, b.u, b.n, ex, NULL);
	CU_ASSERT_EQUAL(t.err, 0);
	CU_ASSERT_EQUAL_FATAL(t.nmsg, 1);
	CU_ASSERT_EQUAL(t.msg[0]->nfiles, 2);
	CU_ASSERT_STRING_EQUAL(t.msg[0]->file[0], "test_harness_session.log");
	CU_ASSERT_STRING_EQUAL(t.msg[0]->file[1], "xrt.run_summary");
	CU_ASSERT_EQUAL_FATAL(t.nbulk, 2);
	CU_ASSERT(t.bulk_len[0] == 1686 && memcmp(t.bulk[0], log, 1686) == 0);
	CU_ASSERT(t.bulk_len[1] == 2 && memcmp(t.bulk[1], "{}", 2) == 0);
	trace_free(&t);
	/* an empty vector: eight zero bytes */
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(aieth__amdp_enc_files_count(&b, 0), 0);
	run(&t, AMDP_CLIENT, NULL, b.u, b.n, WHOLE, 0, ex, NULL);
	CU_ASSERT(b.n == 8 && t.err == 0 && t.nmsg == 1 && t.msg[0]->nfiles == 0);
	trace_free(&t);
	aieth__sb_free(&b);
	free(log);
}

/* ----------------------------------------------- round trips: requests */

/* A whole session as a client sends it, every request kind, on VEK280. */
static size_t session_stream(sbuf *b, uint8_t **to_aie, uint64_t *to_len)
{
	const char *nm[] = {"xrt.ini"};
	const uint8_t *dt[] = {(const uint8_t *)INI};
	uint64_t ln[] = {23};
	const char *gr[] = {"gr", "mygraph_2"}, *kn[] = {"vek280_test_harness"};
	uint8_t started[2] = {0, 0};
	static const uint8_t xcl[40] = "an xclbin of forty bytes, or nearly so.";
	uint64_t cfg[129] = {0};
	uint8_t raw[AMDP_RTP_RAW];
	*to_len = 4096;
	*to_aie = malloc(*to_len);
	for (uint64_t i = 0; i < *to_len; i++)
		(*to_aie)[i] = (uint8_t)(i ^ (i >> 8));
	cfg[1 + 16] = 256; /* TX ch0 frames: 4096 bytes */
	cfg[1 + 32] = 1;
	cfg[65 + 16 + 3] = 128; /* RX ch3: 2048 bytes */
	cfg[65 + 32 + 3] = 1;
	memset(raw, 0xab, sizeof raw);
	CU_ASSERT_EQUAL(aieth__amdp_enc_hello(b, 1, 1, nm, dt, ln), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_get_timeout(b), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_mgr_device(b, "vek280"), 0);
	CU_ASSERT_EQUAL(
		aieth__amdp_enc_req_mgr(b, 3, 2, gr, started, 1, kn, "design.xclbin", xcl, 40), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run_graph(b, 1, 100), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run_bytes(b, aieth__amdp_txn_bytes(16, *to_len, 2048)),
			0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run(b, 0, 7, 0, cfg, 129, *to_aie, *to_len, 2048), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run_bytes(b, 5ull << 30), 0); /* refused below */
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_query(b, 7), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_get_timeout(b), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_set_timeout(b, 63), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_wait_th(b, 7, 2500), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_wait_graph(b, 2500), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_update_port(b, 1, "gr.in[1]", raw), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_read_port(b, 0, "gr.out", 64), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_destroy(b), 0);
	return b->n;
}

static void test_roundtrip_requests(void)
{
	sbuf b = SB_INIT(AMDP_MAX_MSG);
	uint8_t *to;
	uint64_t to_len;
	session_stream(&b, &to, &to_len);
	static const int cont[] = {1, 1, 0};
	trace t;
	run_all_splits(&t, AMDP_SERVER, &VEK280, b.u, b.n, NULL, cont);
	CU_ASSERT_EQUAL(t.err, 0);
	CU_ASSERT(t.boundary);
	static const amdp_kind kinds[] = {
		AMDP_Q_HELLO,      AMDP_Q_GET_TIMEOUT, AMDP_Q_MGR_DEVICE,  AMDP_Q_MGR,
		AMDP_Q_RUN_GRAPH,  AMDP_Q_RUN_BYTES,   AMDP_Q_RUN,         AMDP_Q_RUN_BYTES,
		AMDP_Q_QUERY,      AMDP_Q_GET_TIMEOUT, AMDP_Q_SET_TIMEOUT, AMDP_Q_WAIT_TH,
		AMDP_Q_WAIT_GRAPH, AMDP_Q_UPDATE_PORT, AMDP_Q_READ_PORT,   AMDP_Q_DESTROY};
	CU_ASSERT_EQUAL_FATAL(t.nmsg, (int)(sizeof kinds / sizeof kinds[0]));
	for (int i = 0; i < t.nmsg; i++)
		CU_ASSERT_EQUAL(t.msg[i]->kind, kinds[i]);
	amdp_msg **m = t.msg;
	CU_ASSERT_STRING_EQUAL(m[2]->device, "vek280");
	CU_ASSERT(m[3]->dev_index == 3 && m[3]->ngraphs == 2 && m[3]->nkernels == 1);
	CU_ASSERT_STRING_EQUAL(m[3]->graph[1], "mygraph_2");
	CU_ASSERT_STRING_EQUAL(m[3]->file[0], "design.xclbin");
	CU_ASSERT(m[4]->graph_index == 1 && m[4]->iterations == 100);
	CU_ASSERT(m[6]->id == 7 && m[6]->ncfg == 129 && m[6]->cfg[17] == 256 &&
		  m[6]->to_aie_len == 4096 && m[6]->from_aie_len == 2048);
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VEK280, m[6]), 0);
	ASSERT_U64(m[7]->txn_bytes, 5ull << 30);
	CU_ASSERT_EQUAL(m[8]->id, 7);
	ASSERT_U64(m[10]->value, 63);
	CU_ASSERT(m[11]->id == 7 && m[11]->timeout == 2500);
	CU_ASSERT_EQUAL(m[12]->timeout, 2500);
	CU_ASSERT(m[13]->graph_index == 1 && strcmp(m[13]->port, "gr.in[1]") == 0 &&
		  m[13]->rtp_raw[23] == 0xab);
	CU_ASSERT(m[14]->graph_index == 0 && strcmp(m[14]->port, "gr.out") == 0 &&
		  m[14]->rtp_size == 64);
	CU_ASSERT_EQUAL_FATAL(t.nbulk, 3);
	CU_ASSERT(t.bulk_kind[2] == AMDP_BULK_TO_AIE && memcmp(t.bulk[2], to, 4096) == 0);
	CU_ASSERT(memcmp(t.bulk[1], "an xclbin", 9) == 0);

	/* every cut short of the end is a truncated message, never an error */
	for (size_t cut = 1; cut < b.n; cut += 97) {
		trace c;
		run(&c, AMDP_SERVER, &VEK280, b.u, cut, WHOLE, 0, NULL, cont);
		CU_ASSERT_EQUAL(c.err, 0);
		trace_free(&c);
	}
	/* cut inside the cfg words: not at a boundary */
	trace c;
	run(&c, AMDP_SERVER, &VEK280, b.u, b.n - 200, WHOLE, 0, NULL, cont);
	CU_ASSERT(c.err == 0 && !c.boundary);
	trace_free(&c);
	trace_free(&t);
	aieth__sb_free(&b);
	free(to);
}

/* ------------------------------------------------ round trips: replies */

static void test_roundtrip_replies(void)
{
	sbuf b = SB_INIT(AMDP_MAX_MSG);
	uint8_t rx[2048];
	uint64_t perf[64];
	for (size_t i = 0; i < sizeof rx; i++)
		rx[i] = (uint8_t)(i * 13);
	for (int i = 0; i < 64; i++)
		perf[i] = 1000000ull * (uint64_t)i + 17;
	uint8_t st1[2] = {0, 1}, st0[2] = {0, 0};
	CU_ASSERT_EQUAL(aieth__amdp_enc_available(&b, 1), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_timeout(&b, 60), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_mgr_device_ok(&b, &VEK280), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_max_mem(&b, 1ull << 30), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_graphs(&b, st1, 2), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_accepted(&b, 1), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_accepted(&b, 0), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_status(&b, AMDP_ST_RUNNING), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_timeout(&b, 60), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_wait_th(&b, AMDP_ST_DONE, rx, sizeof rx, perf, 64), 0);
	/* the same in three parts around the caller's image: TIMEOUT, zeros */
	sbuf h = SB_INIT(AMDP_MAX_MSG), tl = SB_INIT(AMDP_MAX_MSG), rest = SB_INIT(AMDP_MAX_MSG);
	static const uint8_t z[32];
	CU_ASSERT_EQUAL(aieth__amdp_enc_wait_th_head(&h, AMDP_ST_TIMEOUT, 32), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_wait_th_tail(&tl, NULL, 64), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_graphs(&rest, st0, 2), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_files_count(&rest, 1), 0);
	CU_ASSERT_EQUAL(
		aieth__amdp_enc_file(&rest, "profile_summary.csv", (const uint8_t *)"a,b\n", 4), 0);
	size_t slen = b.n + h.n + 32 + tl.n + rest.n, at = 0;
	uint8_t *stream = malloc(slen);
	memcpy(stream + at, b.u, b.n), at += b.n;
	memcpy(stream + at, h.p, h.n), at += h.n;
	memcpy(stream + at, z, 32), at += 32;
	memcpy(stream + at, tl.p, tl.n), at += tl.n;
	memcpy(stream + at, rest.p, rest.n), at += rest.n;
	CU_ASSERT_EQUAL(at, slen);
	aieth__sb_free(&h);
	aieth__sb_free(&tl);
	aieth__sb_free(&rest);

	static const amdp_kind ex[] = {AMDP_R_AVAILABLE, AMDP_R_TIMEOUT, AMDP_R_MGR_DEVICE,
				       AMDP_R_MAX_MEM,   AMDP_R_GRAPHS,  AMDP_R_ACCEPTED,
				       AMDP_R_ACCEPTED,  AMDP_R_STATUS,  AMDP_R_TIMEOUT,
				       AMDP_R_WAIT_TH,   AMDP_R_WAIT_TH, AMDP_R_GRAPHS,
				       AMDP_R_FILES,     AMDP_NONE};
	trace t;
	run_all_splits(&t, AMDP_CLIENT, NULL, stream, slen, ex, NULL);
	free(stream);
	CU_ASSERT_EQUAL(t.err, 0);
	CU_ASSERT_EQUAL_FATAL(t.nmsg, 13);
	for (int i = 0; i < 13; i++)
		CU_ASSERT_EQUAL(t.msg[i]->kind, ex[i]);
	amdp_msg **m = t.msg;
	CU_ASSERT(m[0]->flag == 1 && m[1]->value == 60);
	CU_ASSERT(m[2]->n == 16 && m[2]->d == 8192);
	CU_ASSERT(m[4]->ngraphs == 2 && m[4]->started[1] == 1);
	CU_ASSERT(m[5]->flag == 1 && m[6]->flag == 0 && m[7]->status == AMDP_ST_RUNNING);
	CU_ASSERT(m[9]->status == AMDP_ST_DONE && m[9]->from_aie_len == 2048 && m[9]->nperf == 64 &&
		  m[9]->perf[63] == perf[63]);
	CU_ASSERT(m[10]->status == AMDP_ST_TIMEOUT && m[10]->from_aie_len == 32 &&
		  m[10]->perf[5] == 0);
	CU_ASSERT(m[11]->started[1] == 0);
	CU_ASSERT(m[12]->nfiles == 1 && strcmp(m[12]->file[0], "profile_summary.csv") == 0);
	CU_ASSERT_EQUAL_FATAL(t.nbulk, 3);
	CU_ASSERT(t.bulk_kind[0] == AMDP_BULK_FROM_AIE && memcmp(t.bulk[0], rx, 2048) == 0);
	CU_ASSERT(t.bulk_len[1] == 32 && memcmp(t.bulk[1], z, 32) == 0);
	CU_ASSERT(memcmp(t.bulk[2], "a,b\n", 4) == 0);
	trace_free(&t);

	/* device mismatch: the server's device name, then the session ends */
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(aieth__amdp_enc_mgr_device_bad(&b, "vek280 (busy: queue 3)"), 0);
	static const amdp_kind ex2[] = {AMDP_R_MGR_DEVICE, AMDP_NONE};
	run_all_splits(&t, AMDP_CLIENT, NULL, b.u, b.n, ex2, NULL);
	CU_ASSERT(t.err == 0 && t.nmsg == 1 && t.msg[0]->flag == 0 &&
		  strcmp(t.msg[0]->device, "vek280 (busy: queue 3)") == 0);
	trace_free(&t);
	aieth__sb_free(&b);
}

/* ------------------------------------- the zero-copy path for bulk data */

static void test_room_advance(void)
{
	sbuf b = SB_INIT(AMDP_MAX_MSG);
	static amdp_dec d;
	uint8_t img[1000], dst[1000];
	for (int i = 0; i < 1000; i++)
		img[i] = (uint8_t)(i * 3);
	uint64_t cfg[129] = {0};
	cfg[17] = 62;
	cfg[33] = 1;
	CU_ASSERT_EQUAL(aieth__amdp_enc_hello(&b, 1, 0, NULL, NULL, NULL), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run_bytes(&b, aieth__amdp_txn_bytes(16, 1000, 0)), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run(&b, 0, 1, 0, cfg, 129, NULL, 1000, 0), 0);
	CU_ASSERT_EQUAL(aieth__amdp_dec_init(&d, AMDP_SERVER, &VEK280), 0);
	size_t used, pos = 0;
	CU_ASSERT_EQUAL(aieth__amdp_dec_feed(&d, b.u, b.n, &used), AMDP_EV_MSG); /* hello */
	pos += used;
	CU_ASSERT_EQUAL(aieth__amdp_dec_feed(&d, b.u + pos, b.n - pos, &used), AMDP_EV_MSG);
	pos += used;
	CU_ASSERT_EQUAL(d.msg.kind, AMDP_Q_RUN_BYTES);
	/* bytes before continue are refused, the decoder survives */
	CU_ASSERT_EQUAL(aieth__amdp_dec_feed(&d, b.u + pos, b.n - pos, &used), AIETH_ESTATE);
	aieth__amdp_dec_continue(&d, 1);
	CU_ASSERT_EQUAL(aieth__amdp_dec_feed(&d, b.u + pos, b.n - pos, &used), AMDP_EV_BULK);
	pos += used;
	CU_ASSERT_EQUAL(pos, b.n);
	ASSERT_U64(d.bulk_len, 1000);
	uint64_t n;
	CU_ASSERT_PTR_NULL(aieth__amdp_dec_room(&d, &n)); /* no sink yet */
	aieth__amdp_dec_sink(&d, dst);
	uint8_t *room = aieth__amdp_dec_room(&d, &n);
	CU_ASSERT(room == dst && n == 1000);
	memcpy(room, img, 600); /* as recv() would */
	CU_ASSERT_EQUAL(aieth__amdp_dec_advance(&d, 600), AMDP_EV_MORE);
	room = aieth__amdp_dec_room(&d, &n);
	CU_ASSERT(room == dst + 600 && n == 400);
	CU_ASSERT_EQUAL(aieth__amdp_dec_advance(&d, 401), AIETH_ESTATE);
	memcpy(room, img + 600, 400);
	CU_ASSERT_EQUAL(aieth__amdp_dec_advance(&d, 400), AMDP_EV_MORE);
	CU_ASSERT(memcmp(dst, img, 1000) == 0);
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(aieth__amdp_enc_req_run_tail(&b, 0), 0);
	CU_ASSERT_EQUAL(aieth__amdp_dec_feed(&d, b.u, b.n, &used), AMDP_EV_MSG);
	CU_ASSERT(d.msg.kind == AMDP_Q_RUN && d.msg.to_aie_len == 1000);
	/* a discarded bulk (NULL sink) still advances the stream */
	CU_ASSERT_EQUAL(aieth__amdp_dec_init(&d, AMDP_SERVER, &VCK190), 0);
	CU_ASSERT_EQUAL(aieth__amdp_dec_feed(&d, CAP_HELLO, sizeof CAP_HELLO, &used), AMDP_EV_BULK);
	CU_ASSERT(!aieth__amdp_dec_at_boundary(&d));
	aieth__amdp_dec_sink(&d, NULL);
	CU_ASSERT_PTR_NULL(aieth__amdp_dec_room(&d, &n));
	pos = used;
	CU_ASSERT_EQUAL(aieth__amdp_dec_feed(&d, CAP_HELLO + pos, sizeof CAP_HELLO - pos, &used),
			AMDP_EV_MSG);
	CU_ASSERT(pos + used == sizeof CAP_HELLO && d.msg.nfiles == 1 &&
		  aieth__amdp_dec_at_boundary(&d));
	/* client side: a reply cut short is not at a boundary */
	CU_ASSERT_EQUAL(aieth__amdp_dec_init(&d, AMDP_CLIENT, NULL), 0);
	CU_ASSERT_EQUAL(aieth__amdp_dec_expect(&d, AMDP_R_TIMEOUT), 0);
	CU_ASSERT(aieth__amdp_dec_at_boundary(&d));
	CU_ASSERT_EQUAL(aieth__amdp_dec_feed(&d, CAP_MGR_REPLY + 17, 4, &used), AMDP_EV_MORE);
	CU_ASSERT(!aieth__amdp_dec_at_boundary(&d));
	CU_ASSERT_EQUAL(aieth__amdp_dec_feed(&d, CAP_MGR_REPLY + 21, 4, &used), AMDP_EV_MSG);
	CU_ASSERT(aieth__amdp_dec_at_boundary(&d) && d.msg.value == 1073741824ull);
	aieth__sb_free(&b);
}

/* ------------------------------------------------ limits and malformed */

/* Decode s on the server side behind an empty handshake; expect code and
 * a message containing want. */
static void expect_err(amdp_side side, const amdp_kind *ex, const uint8_t *s, size_t len,
		       const char *want)
{
	uint8_t *all = malloc(len + 9);
	size_t off = 0;
	if (side == AMDP_SERVER) {
		memset(all, 0, 9);
		all[0] = 1;
		off = 9;
	}
	memcpy(all + off, s, len);
	trace t;
	run(&t, side, &VEK280, all, len + off, BYTES, 0, ex, NULL);
	CU_ASSERT_EQUAL(t.err, AIETH_EINVAL);
	if (!strstr(t.errmsg, want))
		fprintf(stderr, "\n  wanted \"%s\" in \"%s\"\n", want, t.errmsg);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.errmsg, want));
	trace_free(&t);
	/* the same in one piece */
	run(&t, side, &VEK280, all, len + off, WHOLE, 0, ex, NULL);
	CU_ASSERT_EQUAL(t.err, AIETH_EINVAL);
	trace_free(&t);
	free(all);
}

static void test_malformed_handshake(void)
{
	uint8_t s[128];
	size_t at;
	trace t;
	/* ack 2 */
	static const uint8_t a2[] = {2, 0, 0, 0, 0, 0, 0, 0, 0};
	run(&t, AMDP_SERVER, &VEK280, a2, sizeof a2, WHOLE, 0, NULL, NULL);
	CU_ASSERT(t.err == AIETH_EINVAL && strstr(t.errmsg, "handshake ack is 2"));
	trace_free(&t);
	/* two config files */
	s[0] = 1;
	at = w8(s, 1, 2);
	run(&t, AMDP_SERVER, &VEK280, s, at, WHOLE, 0, NULL, NULL);
	CU_ASSERT(t.err == AIETH_EINVAL &&
		  strstr(t.errmsg,
			 "config file count 2 exceeds the limit 1 (AMDP_MAX_CONFIG_FILES)"));
	trace_free(&t);
	/* hostile and unexpected names, oversize content */
	static const char *bad[] = {"../xrt.ini", "/etc/xrt.ini", "..", "x\001", "other.ini", ""};
	static const char *why[] = {"not a plain base name", "not a plain base name",
				    "not a plain base name", "byte 0x01",
				    "only xrt.ini",          "is empty"};
	for (int i = 0; i < 6; i++) {
		s[0] = 1;
		at = w8(s, 1, 1);
		at = ws(s, at, bad[i]);
		run(&t, AMDP_SERVER, &VEK280, s, at, BYTES, 0, NULL, NULL);
		CU_ASSERT(t.err == AIETH_EINVAL && strstr(t.errmsg, why[i]));
		trace_free(&t);
	}
	s[0] = 1;
	at = w8(s, 1, 1);
	at = w8(s, at, 300);
	run(&t, AMDP_SERVER, &VEK280, s, at, WHOLE, 0, NULL, NULL);
	CU_ASSERT(t.err == AIETH_EINVAL &&
		  strstr(t.errmsg,
			 "config file name length 300 exceeds the limit 255 (AMDP_MAX_NAME)"));
	trace_free(&t);
	at = ws(s, 9, "xrt.ini");
	at = w8(s, at, (1u << 20) + 1);
	run(&t, AMDP_SERVER, &VEK280, s, at, WHOLE, 0, NULL, NULL);
	CU_ASSERT(t.err == AIETH_EINVAL &&
		  strstr(t.errmsg, "xrt.ini length 1048577 exceeds the limit 1048576"));
	trace_free(&t);
}

static void test_malformed_requests(void)
{
	uint8_t s[512];
	size_t at;
	/* request names */
	at = w8(s, 0, 65);
	expect_err(AMDP_SERVER, NULL, s, at,
		   "request name length 65 exceeds the limit 64 (AMDP_MAX_REQ_NAME)");
	at = w8(s, 0, (uint64_t)-5);
	expect_err(AMDP_SERVER, NULL, s, at, "request name length -5 is negative");
	at = w8(s, 0, 0);
	expect_err(AMDP_SERVER, NULL, s, at, "request name is empty");
	at = ws(s, 0, "runTestHarnes\n");
	expect_err(AMDP_SERVER, NULL, s, at, "unknown request \"runTestHarnes\\x0a\"");
	/* setTimeOut 0 */
	at = ws(s, 0, "setTimeOut");
	at = w8(s, at, 0);
	expect_err(AMDP_SERVER, NULL, s, at, "setTimeOut of 0 seconds");
	/* bytes after destroy */
	at = ws(s, 0, "destroy");
	at = ws(s, at, "getTimeOut");
	expect_err(AMDP_SERVER, NULL, s, at, "bytes after the end of the session");
	/* RTP port names */
	at = ws(s, 0, "update port");
	memset(s + at, 0, 4);
	at = w8(s, at + 4, 1000);
	expect_err(AMDP_SERVER, NULL, s, at, "port name length 1000 exceeds the limit 255");
}

/* The manager request with one field replaced. */
static size_t mgr_with(uint8_t *s, int variant)
{
	size_t at = ws(s, 0, "test_harness_mgr");
	at = ws(s, at, "vek280");
	memset(s + at, 0, 4);
	at += 4;
	if (variant == 0) {
		at = w8(s, at, 65); /* graph count */
		return at;
	}
	at = w8(s, at, 1);
	at = ws(s, at, variant == 1 ? "g\377" : "gr");
	at = w8(s, at, variant == 2 ? 2 : 1); /* started count */
	s[at++] = variant == 3 ? 2 : 0;
	at = w8(s, at, variant == 4 ? 5 : 1); /* kernel count */
	if (variant == 4)
		return at;
	at = ws(s, at, "k");
	at = ws(s, at, variant == 5 ? "../../boot/x.xclbin" : variant == 6 ? "a\\b" : "x.xclbin");
	at = w8(s, at, variant == 7 ? (1ull << 30) + 1 : 0);
	return at;
}

static void test_malformed_mgr(void)
{
	uint8_t s[512];
	static const char *why[] = {
		"graph count 65 exceeds the limit 64 (AMDP_MAX_GRAPHS)",
		"graph name \"g\\xff\" has a byte 0xff",
		"graph started count 2 differs from the graph count 1",
		"graph started flag is 2, not a bool",
		"kernel count 5 exceeds the limit 4 (AMDP_MAX_KERNELS)",
		"xclbin name \"../../boot/x.xclbin\" is not a plain base name",
		"xclbin name \"a\\\\b\" is not a plain base name",
		"xclbin length 1073741825 exceeds the limit 1073741824 (AMDP_MAX_XCLBIN_BYTES)"};
	for (int v = 0; v < 8; v++)
		expect_err(AMDP_SERVER, NULL, s, mgr_with(s, v), why[v]);
	/* a refused device ends the session: more bytes are an error */
	trace t;
	static const int no[] = {0};
	size_t at = mgr_with(s, 8);
	uint8_t all[600] = {1};
	memcpy(all + 9, s, at);
	run(&t, AMDP_SERVER, &VEK280, all, at + 9, WHOLE, 0, NULL, no);
	CU_ASSERT(t.err == AIETH_EINVAL && t.nmsg == 2 &&
		  strstr(t.errmsg, "bytes after the end of the session"));
	trace_free(&t);
	/* ... and nothing more is fine */
	run(&t, AMDP_SERVER, &VEK280, all, 9 + 8 + 16 + 8 + 6, WHOLE, 0, NULL, no);
	CU_ASSERT(t.err == 0 && t.nmsg == 2 && t.boundary);
	trace_free(&t);
}

/* runTestHarness on VEK280 (N = 16: 129 cfg words, fixed part 1544 bytes)
 * with one field replaced. */
static size_t run_with(uint8_t *s, int variant)
{
	uint64_t fixed = 8 * 129 + 8 * 64;
	size_t at = ws(s, 0, "runTestHarness");
	at = w8(s, at, variant == 0 ? fixed - 1 : fixed + 64 + 32);
	if (variant == 0)
		return at;
	s[at++] = variant == 1 ? 2 : 0; /* mode */
	memset(s + at, 0, 8);           /* id, timeout */
	at += 8;
	at = w8(s, at, variant == 2 ? 128 : 129);
	if (variant == 2)
		return at;
	memset(s + at, 0, 129 * 8);
	at += 129 * 8;
	at = w8(s, at, variant == 3 ? 97 : 64); /* to_aie */
	if (variant == 3)
		return at;
	memset(s + at, 0x5a, 64);
	at += 64;
	at = w8(s, at, variant == 4 ? 33 : 32); /* from_aie */
	return at;
}

static void test_malformed_run(void)
{
	static uint8_t s[4096];
	static const char *why[] = {
		"transaction bytes 1543 are fewer than the 1544 of the cfg and perf words",
		"transaction mode 2 is neither 0 (FUNC) nor 1 (PERF)",
		"cfg word count 128, the board's N = 16 channels needs 8N+1 = 129",
		"to_aie length 97 exceeds the 96 bytes the announced transaction bytes 1640 leave",
		"from_aie length 33: the announced transaction bytes 1640 need 32"};
	for (int v = 0; v < 5; v++)
		expect_err(AMDP_SERVER, NULL, s, run_with(s, v), why[v]);
	/* the valid one decodes */
	trace t;
	uint8_t *all = calloc(1, 4200);
	all[0] = 1;
	size_t at = run_with(s, 5);
	memcpy(all + 9, s, at);
	run(&t, AMDP_SERVER, &VEK280, all, at + 9, BYTES, 0, NULL, NULL);
	CU_ASSERT(t.err == 0 && t.nmsg == 3 && t.msg[2]->to_aie_len == 64);
	trace_free(&t);
	free(all);
}

static void test_malformed_replies(void)
{
	uint8_t s[256];
	size_t at;
	static const amdp_kind files[] = {AMDP_R_FILES, AMDP_NONE};
	static const char *bad[] = {"../../.bashrc", "/home/u/.ssh/authorized_keys", "..", "a/b",
				    "."};
	for (int i = 0; i < 5; i++) {
		at = w8(s, 0, 1);
		at = ws(s, at, bad[i]);
		at = w8(s, at, 0);
		expect_err(AMDP_CLIENT, files, s, at, "is not a plain base name");
	}
	at = w8(s, 0, 257);
	expect_err(AMDP_CLIENT, files, s, at,
		   "returned file count 257 exceeds the limit 256 (AMDP_MAX_FILES)");
	static const amdp_kind tmo[] = {AMDP_R_TIMEOUT, AMDP_NONE};
	at = w8(s, 0, 0);
	expect_err(AMDP_CLIENT, tmo, s, at, "getTimeOut answered 0 seconds");
	static const amdp_kind st[] = {AMDP_R_STATUS, AMDP_NONE};
	s[0] = 7;
	expect_err(AMDP_CLIENT, st, s, 1, "transaction status 7 out of range 0..4");
	static const amdp_kind mg[] = {AMDP_R_MGR_DEVICE, AMDP_NONE};
	static const uint8_t n0[] = {1, 0, 0, 0, 0};
	expect_err(AMDP_CLIENT, mg, n0, sizeof n0, "channel count N = 0 out of range 1..64");
	static const uint8_t w8b[] = {1, 16, 0, 0, 0, 8, 0, 0, 0};
	expect_err(AMDP_CLIENT, mg, w8b, sizeof w8b, "stream word W = 8, not 16");
	/* perf words must be exactly 4N */
	static const amdp_kind wt[] = {AMDP_R_MGR_DEVICE, AMDP_R_WAIT_TH, AMDP_NONE};
	sbuf b = SB_INIT(AMDP_MAX_MSG);
	uint64_t perf[64] = {0};
	CU_ASSERT_EQUAL(aieth__amdp_enc_mgr_device_ok(&b, &VEK280), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_wait_th(&b, AMDP_ST_DONE, NULL, 16, perf, 63), 0);
	expect_err(AMDP_CLIENT, wt, b.u, b.n, "perf word count 63, N = 16 needs 4N = 64");
	aieth__sb_reset(&b);
	CU_ASSERT_EQUAL(aieth__amdp_enc_mgr_device_ok(&b, &VEK280), 0);
	CU_ASSERT_EQUAL(aieth__amdp_enc_status(&b, 2), 0);
	b.u[b.n - 1] = 2;
	expect_err(AMDP_CLIENT, wt, b.u, b.n, "status 2 is neither 3 (TIMEOUT) nor 4 (DONE)");
	/* bytes nobody asked for */
	static const amdp_kind av[] = {AMDP_R_AVAILABLE, AMDP_NONE};
	static const uint8_t two[] = {1, 1};
	expect_err(AMDP_CLIENT, av, two, 2, "1 bytes from the server with no reply expected");
	aieth__sb_free(&b);

	/* expect before the geometry is known */
	static amdp_dec d;
	CU_ASSERT_EQUAL(aieth__amdp_dec_init(&d, AMDP_CLIENT, NULL), 0);
	CU_ASSERT_EQUAL(aieth__amdp_dec_expect(&d, AMDP_R_WAIT_TH), AIETH_ESTATE);
	CU_ASSERT_EQUAL(aieth__amdp_dec_expect(&d, AMDP_Q_RUN), AIETH_EINVAL);
	/* an error is final */
	CU_ASSERT_EQUAL(aieth__amdp_dec_expect(&d, AMDP_R_STATUS), 0);
	size_t used;
	CU_ASSERT_EQUAL(aieth__amdp_dec_feed(&d, (const uint8_t *)"\011", 1, &used), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__amdp_dec_feed(&d, (const uint8_t *)"\001", 1, &used), AIETH_ESTATE);
	CU_ASSERT(!aieth__amdp_dec_at_boundary(&d));
	/* server geometry */
	amdp_geom g = {0, 16, 4096, 16};
	CU_ASSERT_EQUAL(aieth__amdp_dec_init(&d, AMDP_SERVER, &g), AIETH_EINVAL);
	g.n = 65;
	CU_ASSERT_EQUAL(aieth__amdp_dec_init(&d, AMDP_SERVER, &g), AIETH_EINVAL);
}

static void test_encoder_refusals(void)
{
	sbuf b = SB_INIT(AMDP_MAX_MSG);
	CU_ASSERT_EQUAL(aieth__amdp_enc_timeout(&b, 0), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__amdp_enc_status(&b, 5), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__amdp_enc_wait_th_head(&b, AMDP_ST_RUNNING, 0), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__amdp_enc_file_head(&b, "../x", 1), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__amdp_enc_file(&b, "/etc/passwd", NULL, 0), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__amdp_enc_file(&b, "", NULL, 0), AIETH_EINVAL);
	char big[300];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = 0;
	CU_ASSERT_EQUAL(aieth__amdp_enc_mgr_device_bad(&b, big), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__amdp_enc_file_head(&b, big, 1), AIETH_EINVAL);
	CU_ASSERT_EQUAL(b.n, 0);
	CU_ASSERT_EQUAL(aieth__amdp_check_name("n", "xrt.run_summary", 15), 0);
	CU_ASSERT_EQUAL(aieth__amdp_check_name("n", "..a", 3), 0);
	aieth__sb_free(&b);
}

/* ------------------------------------------- the checks AMD skips (§12) */

static void test_txn_check(void)
{
	static amdp_msg m;
	memset(&m, 0, sizeof m);
	m.kind = AMDP_Q_RUN;
	m.mode = 0;
	m.ncfg = 129;
	m.to_aie_len = 4096;
	m.from_aie_len = 2048;
	m.cfg[17] = 256; /* TX ch0: 256 frames, 1 rep, offset 0 */
	m.cfg[33] = 1;
	m.cfg[65 + 16 + 3] = 128;
	m.cfg[65 + 32 + 3] = 1;
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VEK280, &m), 0);
	m.cfg[0] = 1;
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VEK280, &m), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "cfg[0] = 1 differs from the mode 0"));
	m.cfg[0] = 0;
	m.cfg[33] = 2;
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VEK280, &m), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(aieth_error_message(), "TX channel 0: 2 repetitions in FUNC"));
	m.cfg[33] = 1;
	m.cfg[49] = 1; /* TX ch0 offset 1 word: 16 bytes past the image */
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VEK280, &m), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(aieth_error_message(),
		       "TX channel 0: 4096 bytes at offset 16 leave the 4096-byte image"));
	m.cfg[49] = 0;
	m.cfg[65 + 48 + 3] = 1ull << 32;
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VEK280, &m), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(aieth_error_message(), "RX channel 3: offset 4294967296 exceeds 32 bits"));
	m.cfg[65 + 48 + 3] = 0;
	m.cfg[65 + 16 + 3] = 129;
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VEK280, &m), AIETH_EINVAL);
	m.cfg[65 + 16 + 3] = 128;
	/* PERF: images of N*W*D bytes */
	m.mode = 1;
	m.cfg[0] = 1;
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VEK280, &m), AIETH_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), "N*W*D = 2097152 needed"));
	m.to_aie_len = m.from_aie_len = 16ull * 16 * 8192;
	m.cfg[33] = 1000;      /* PERF replays */
	m.cfg[17] = 100000;    /* more frames than D: the kernel replays D words */
	m.cfg[49] = 15 * 8192; /* channel 15's slot */
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VEK280, &m), 0);
	m.cfg[49] = 15 * 8192 + 1;
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VEK280, &m), AIETH_EINVAL);
	m.ncfg = 128;
	CU_ASSERT_EQUAL(aieth__amdp_txn_check(&VEK280, &m), AIETH_EINVAL);
}

TU_MAIN("amd_proto", {"capture_handshake", test_capture_handshake},
	{"capture_mgr", test_capture_mgr}, {"capture_run_func", test_capture_run_func},
	{"capture_run_perf", test_capture_run_perf},
	{"capture_destroy_files", test_capture_destroy_files},
	{"roundtrip_requests", test_roundtrip_requests},
	{"roundtrip_replies", test_roundtrip_replies}, {"room_advance", test_room_advance},
	{"malformed_handshake", test_malformed_handshake},
	{"malformed_requests", test_malformed_requests}, {"malformed_mgr", test_malformed_mgr},
	{"malformed_run", test_malformed_run}, {"malformed_replies", test_malformed_replies},
	{"encoder_refusals", test_encoder_refusals}, {"txn_check", test_txn_check})
