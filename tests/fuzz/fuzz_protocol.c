/* SPDX-License-Identifier: MIT */
/*
 * fuzz_protocol.c - libFuzzer target for pl_dma/protocol.c.
 *
 * The input is read as: a board (channel count N, URAM depth D), a mode, a
 * list of channel arguments (some invalid on purpose), then a sequence of
 * read / write / ptr calls on the TX and RX images, and raw cfg / perf
 * words. Checked invariants:
 *  - aieth__pld_txn_encode succeeds exactly when an independent model of the
 *    rules says it should, and fails with a message otherwise;
 *  - the cfg words decode to the expected per-channel fields, perf words
 *    are zero, image sizes and segments follow the PERF / FUNC layouts,
 *    segments are sorted, disjoint and inside the image;
 *  - reads return the backing bytes inside segments and zero elsewhere;
 *    writes change exactly the backed bytes of their range (checked
 *    against a shadow copy of every backing buffer) and read back;
 *  - ptr returns the direct pointer exactly when the range lies in one
 *    segment;
 *  - cfg decode/encode and perf encode/decode round-trip; the filler mask
 *    matches an arithmetic model.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "pld/protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 16
#define MAX_N 40
#define MAX_BACKING 8192 /* bytes of real memory per channel at most */
#define MAX_IO 700

typedef struct {
	const uint8_t *p;
	size_t n;
} reader;

static uint64_t rd(reader *r, int bytes)
{
	uint64_t v = 0;
	int i;
	for (i = 0; i < bytes; i++) {
		v |= (uint64_t)(r->n ? *r->p : 0) << (8 * i);
		if (r->n) {
			r->p++;
			r->n--;
		}
	}
	return v;
}

/* ------------------------------------------------------------ model */

/* The rules of aieth__pld_txn_encode, restated: 0 if the arguments encode, -1 if
 * not. off_words[i] gets the expected offset of argument i. */
static int model(uint32_t n, uint32_t depth, uint64_t mode, const pld_arg *a, size_t na,
		 uint64_t *off_words)
{
	int seen[2][MAX_N + 4];
	uint64_t run[2] = {0, 0};
	int func = mode == 0;
	size_t i;

	if (n == 0 || depth == 0)
		return -1;
	memset(seen, 0, sizeof seen);
	for (i = 0; i < na; i++) {
		uint64_t frames, off, span;
		if (a[i].dir != 0 && a[i].dir != 1)
			return -1;
		if (a[i].index >= n)
			return -1;
		if (seen[a[i].dir][a[i].index])
			return -1;
		seen[a[i].dir][a[i].index] = 1;
		if (a[i].size % 16 != 0)
			return -1;
		frames = a[i].size / 16;
		if (frames > 0xffffffffull || a[i].reps > 0xffffffffull)
			return -1;
		if (func && a[i].reps != 1)
			return -1;
		if (func) {
			off = run[a[i].dir];
			span = frames;
			run[a[i].dir] += frames;
		} else {
			off = (uint64_t)a[i].index * depth;
			span = frames < depth ? frames : depth;
		}
		if (off > 0xffffffffull)
			return -1;
		if (span > 0 && off + span > 0x100000000ull)
			return -1;
		off_words[i] = off;
	}
	return 0;
}

/* Reference lookup by linear scan: the segment holding image byte p. */
static const pld_seg *ref_seg(const pld_image *img, uint64_t p)
{
	size_t k;
	for (k = 0; k < img->nseg; k++)
		if (p >= img->seg[k].off && p - img->seg[k].off < img->seg[k].len)
			return &img->seg[k];
	return NULL;
}

/* ------------------------------------------------------------ buffers */

typedef struct {
	uint8_t *buf[MAX_ARGS];    /* backing memory given to the encoder */
	uint8_t *shadow[MAX_ARGS]; /* what it should hold */
	uint64_t len[MAX_ARGS];
	size_t count;
} backing;

static void backing_free(backing *b)
{
	size_t i;
	for (i = 0; i < b->count; i++) {
		free(b->buf[i]);
		free(b->shadow[i]);
	}
}

/* Index of the backing buffer that contains pointer q, or -1. */
static int backing_find(const backing *b, const uint8_t *q, uint64_t *at)
{
	size_t i;
	for (i = 0; i < b->count; i++)
		if (b->buf[i] && q >= b->buf[i] && (uint64_t)(q - b->buf[i]) < b->len[i]) {
			*at = (uint64_t)(q - b->buf[i]);
			return (int)i;
		}
	return -1;
}

static void backing_check(const backing *b)
{
	size_t i;
	for (i = 0; i < b->count; i++)
		if (b->buf[i])
			CHECK(memcmp(b->buf[i], b->shadow[i], b->len[i]) == 0);
}

/* ------------------------------------------------------------ checks */

static void check_layout(const pld_txn *t, uint32_t n, uint32_t depth, uint64_t mode,
			 const pld_arg *a, size_t na, const uint64_t *off_words)
{
	pld_chan_cfg cfg[2][MAX_N];
	uint64_t m, expect_size[2] = {0, 0};
	int used[2][MAX_N];
	size_t nseg[2] = {0, 0};
	size_t i, k;
	uint32_t c;
	int d;

	CHECK(t->channels == n && t->depth == depth);
	CHECK(t->cfg && t->perf);
	for (i = 0; i < pld_perf_count(n); i++)
		CHECK(t->perf[i] == 0);
	aieth__pld_cfg_decode(n, t->cfg, &m, cfg[0], cfg[1]);
	CHECK(m == (mode == 0 ? 0u : 1u));
	memset(used, 0, sizeof used);
	for (i = 0; i < na; i++) {
		const pld_chan_cfg *cc = &cfg[a[i].dir][a[i].index];
		used[a[i].dir][a[i].index] = 1;
		CHECK(cc->delay == a[i].delay);
		CHECK(cc->frames == a[i].size / 16);
		CHECK(cc->reps == a[i].reps);
		CHECK(cc->offset == off_words[i]);
		expect_size[a[i].dir] += a[i].size;
		if (a[i].data && a[i].size)
			nseg[a[i].dir]++;
	}
	/* raw words: unused channels all zero, u32 fields below 2^32 */
	for (d = 0; d < 2; d++)
		for (c = 0; c < n; c++) {
			size_t base = 1 + (size_t)d * 4 * n + c;
			if (!used[d][c])
				CHECK((t->cfg[base] | t->cfg[base + n] | t->cfg[base + 2 * n] |
				       t->cfg[base + 3 * n]) == 0);
			CHECK((t->cfg[base + n] >> 32) == 0);
			CHECK((t->cfg[base + 2 * n] >> 32) == 0);
			CHECK((t->cfg[base + 3 * n] >> 32) == 0);
		}

	for (d = 0; d < 2; d++) {
		const pld_image *img = d == 0 ? &t->tx : &t->rx;
		uint64_t want = mode == 0 ? expect_size[d] : (uint64_t)n * depth * 16;
		CHECK(img->size == want);
		CHECK(img->size == aieth__pld_image_bytes(n, depth, mode, a, na, d));
		CHECK(img->nseg == nseg[d]);
		for (k = 0; k < img->nseg; k++) {
			const pld_seg *s = &img->seg[k];
			CHECK(s->len > 0 && s->ptr);
			CHECK(s->off <= img->size && s->len <= img->size - s->off);
			if (k)
				CHECK(img->seg[k - 1].off + img->seg[k - 1].len <= s->off);
			/* it belongs to exactly the argument whose data it is */
			for (i = 0; i < na; i++)
				if (a[i].dir == d && a[i].data == s->ptr)
					break;
			CHECK(i < na);
			CHECK(s->off == off_words[i] * 16);
			if (mode == 0)
				CHECK(s->len == a[i].size);
			else
				CHECK(s->len ==
				      (a[i].size < 16ull * depth ? a[i].size : 16ull * depth));
		}
	}
}

static uint64_t pick_off(reader *r, const pld_image *img)
{
	uint64_t kind = rd(r, 1) % 4;
	int64_t delta = (int64_t)(rd(r, 1) % 33) - 16;
	uint64_t base;
	if (kind == 0 || img->nseg == 0) {
		uint64_t span = img->size + 64;
		return span ? rd(r, 8) % span : 0;
	}
	if (kind == 3)
		return rd(r, 8);
	{
		const pld_seg *s = &img->seg[rd(r, 1) % img->nseg];
		base = kind == 1 ? s->off : s->off + s->len;
	}
	if (delta < 0 && (uint64_t)(-delta) > base)
		return 0;
	return base + (uint64_t)delta;
}

static void do_ops(reader *r, pld_txn *t, backing *b)
{
	static uint8_t out[MAX_IO + 1], src[MAX_IO];
	int ops = (int)(rd(r, 1) % 48);

	while (ops-- > 0 && r->n) {
		uint64_t op = rd(r, 1);
		pld_image *img = (op & 8) ? &t->rx : &t->tx;
		uint64_t off = pick_off(r, img);
		uint64_t len = rd(r, 2) % (MAX_IO + 1);
		uint64_t i;

		if (off > UINT64_MAX - len)
			len = UINT64_MAX - off;
		switch (op % 3) {
		case 0: /* read */
			out[len] = 0xa7;
			aieth__pld_image_read(img, off, out, len);
			CHECK(out[len] == 0xa7);
			for (i = 0; i < len; i++) {
				const pld_seg *s = ref_seg(img, off + i);
				CHECK(out[i] == (s ? s->ptr[off + i - s->off] : 0));
			}
			break;
		case 1: /* write, then read back */
			for (i = 0; i < len; i++)
				src[i] = (uint8_t)rd(r, 1);
			for (i = 0; i < len; i++) {
				const pld_seg *s = ref_seg(img, off + i);
				uint64_t at;
				int bi;
				if (!s)
					continue;
				bi = backing_find(b, s->ptr + (off + i - s->off), &at);
				CHECK(bi >= 0);
				b->shadow[bi][at] = src[i];
			}
			aieth__pld_image_write(img, off, src, len);
			backing_check(b);
			aieth__pld_image_read(img, off, out, len);
			for (i = 0; i < len; i++)
				CHECK(out[i] == (ref_seg(img, off + i) ? src[i] : 0));
			break;
		default: { /* ptr */
			uint8_t *p = aieth__pld_image_ptr(img, off, len);
			const pld_seg *s = NULL;
			size_t k;
			if (len > 0) {
				s = ref_seg(img, off);
				if (s && len <= s->len - (off - s->off))
					CHECK(p == s->ptr + (off - s->off));
				else
					CHECK(p == NULL);
			} else if (p) {
				/* empty range: some segment with off in [s.off, s.off+len] */
				for (k = 0; k < img->nseg; k++) {
					s = &img->seg[k];
					if (off >= s->off && off - s->off <= s->len &&
					    p == s->ptr + (off - s->off))
						break;
				}
				CHECK(k < img->nseg);
			}
			break;
		}
		}
	}
}

/* ------------------------------------------------------------ words */

static void check_words(reader *r)
{
	uint64_t w[8 * 8 + 1], w2[8 * 8 + 1], p[32], p2[32];
	uint64_t a[8], b[8], c[8], d[8], mode;
	pld_chan_cfg tx[8], rx[8];
	uint32_t n = (uint32_t)(rd(r, 1) % 9);
	size_t i;
	uint8_t m[16];
	uint64_t blk;
	int k;

	for (i = 0; i < pld_cfg_count(n); i++)
		w[i] = rd(r, 8);
	aieth__pld_cfg_decode(n, w, &mode, tx, rx);
	aieth__pld_cfg_encode(n, mode, tx, rx, w2);
	for (i = 0; i < pld_cfg_count(n); i++) {
		/* delay words and mode are kept whole; the rest keep 32 bits */
		size_t f = i ? ((i - 1) / n) % 4 : 0;
		if (i == 0 || f == 0)
			CHECK(w2[i] == w[i]);
		else
			CHECK(w2[i] == (w[i] & 0xffffffffull));
	}
	for (i = 0; i < pld_perf_count(n); i++)
		p[i] = rd(r, 8);
	aieth__pld_perf_decode(n, p, a, b, c, d);
	for (i = 0; i < n; i++) {
		CHECK(a[i] == p[i] && b[i] == p[n + i]);
		CHECK(c[i] == p[2 * n + i] && d[i] == p[3 * n + i]);
	}
	aieth__pld_perf_encode(n, a, b, c, d, p2);
	CHECK(n == 0 || memcmp(p, p2, pld_perf_count(n) * sizeof *p) == 0);

	blk = rd(r, 8);
	aieth__pld_filler_mask(blk, m);
	for (k = 0; k < 8; k++) {
		uint32_t lane = (uint32_t)m[2 * k] | (uint32_t)m[2 * k + 1] << 8;
		CHECK(lane == (uint32_t)(((blk % 65536u) * (1u << k)) % 65536u));
	}
}

/* ------------------------------------------------------------ entry */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t depths[] = {1, 2, 3, 16, 64, 4096, 8192, 0x80000000u, 0xffffffffu, 0};
	reader r = {data, size};
	pld_arg args[MAX_ARGS];
	uint64_t off_words[MAX_ARGS];
	backing b;
	pld_txn t;
	char err[256];
	uint32_t n, depth;
	uint64_t mode, sel;
	size_t na, i;
	int rc, want;

	memset(&b, 0, sizeof b);
	n = (uint32_t)(rd(&r, 1) % (MAX_N + 1));
	sel = rd(&r, 1);
	depth = sel < 200 ? depths[sel % 10] : (uint32_t)rd(&r, 2);
	sel = rd(&r, 1) % 4;
	mode = sel == 0 ? 0 : sel == 1 ? 1 : sel == 2 ? rd(&r, 8) : 0;
	na = (size_t)(rd(&r, 1) % (MAX_ARGS + 1));

	for (i = 0; i < na; i++) {
		pld_arg *a = &args[i];
		uint64_t flags = rd(&r, 1);
		uint64_t kind = rd(&r, 1);
		uint64_t need;
		memset(a, 0, sizeof *a);
		a->dir = (flags & 0x80) && (flags & 0x40) ? (int)(flags % 5) - 2 : (int)(flags & 1);
		a->index = (uint32_t)(rd(&r, 1) % (n + 3));
		switch (kind % 5) {
		case 0:
		case 1: a->size = (rd(&r, 2) % 256) * 16; break;
		case 2: /* around the URAM capacity */
			a->size = (uint64_t)depth * 16 + (rd(&r, 1) % 5) * 16 - 32;
			break;
		case 3: a->size = rd(&r, 2); break;
		default: a->size = rd(&r, 8); break;
		}
		sel = rd(&r, 1);
		a->reps = sel < 160 ? 1 : sel < 240 ? sel % 8 : rd(&r, 8);
		a->delay = (flags & 2) ? rd(&r, 8) : 0;
		/* backing memory when it is small enough */
		need = mode == 0 ? a->size : (a->size < 16ull * depth ? a->size : 16ull * depth);
		if ((flags & 4) == 0 && need > 0 && need <= MAX_BACKING) {
			uint64_t j;
			b.buf[b.count] = malloc(need);
			b.shadow[b.count] = malloc(need);
			CHECK(b.buf[b.count] && b.shadow[b.count]);
			for (j = 0; j < need; j++)
				b.buf[b.count][j] = (uint8_t)(j * 13u + i * 101u + 1u);
			memcpy(b.shadow[b.count], b.buf[b.count], need);
			b.len[b.count] = need;
			a->data = b.buf[b.count++];
		}
	}

	want = model(n, depth, mode, args, na, off_words);
	memset(err, 0, sizeof err);
	rc = aieth__pld_txn_encode(&t, n, depth, mode, args, na, err, sizeof err);
	CHECK(rc == want);
	if (rc == 0) {
		CHECK(err[0] == '\0');
		check_layout(&t, n, depth, mode, args, na, off_words);
		do_ops(&r, &t, &b);
		backing_check(&b);
	} else {
		CHECK(err[0] != '\0' && memchr(err, '\0', sizeof err));
		CHECK(t.cfg == NULL && t.perf == NULL && t.tx.seg == NULL && t.rx.seg == NULL);
	}
	aieth__pld_txn_release(&t);
	check_words(&r);
	backing_free(&b);
	return 0;
}
