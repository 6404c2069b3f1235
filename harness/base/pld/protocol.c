/* SPDX-License-Identifier: MIT */
/*
 * protocol.c - the host <-> PL DMA engine protocol: cfg and perf words, the
 * PERF and FUNC memory images, sparse image access and the PERF filler mask.
 * See protocol.h for the interface and docs/protocol.md for the layouts.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pld/protocol.h"

#define U32_LIMIT ((uint64_t)UINT32_MAX)

/* ------------------------------------------------------------ cfg / perf */

void aieth__pld_cfg_encode(uint32_t n, uint64_t mode, const pld_chan_cfg *tx,
			   const pld_chan_cfg *rx, uint64_t *words)
{
	const pld_chan_cfg *dirs[2];
	size_t base = 1;
	int d;

	dirs[0] = tx;
	dirs[1] = rx;
	words[0] = mode;
	for (d = 0; d < 2; d++) {
		uint64_t *delay = words + base;
		uint64_t *frames = delay + n;
		uint64_t *reps = frames + n;
		uint64_t *offset = reps + n;
		uint32_t c;
		for (c = 0; c < n; c++) {
			const pld_chan_cfg *cc = dirs[d] ? &dirs[d][c] : NULL;
			delay[c] = cc ? cc->delay : 0;
			frames[c] = cc ? cc->frames : 0;
			reps[c] = cc ? cc->reps : 0;
			offset[c] = cc ? cc->offset : 0;
		}
		base += 4u * (size_t)n;
	}
}

void aieth__pld_cfg_decode(uint32_t n, const uint64_t *words, uint64_t *mode, pld_chan_cfg *tx,
			   pld_chan_cfg *rx)
{
	pld_chan_cfg *dirs[2];
	size_t base = 1;
	int d;

	dirs[0] = tx;
	dirs[1] = rx;
	if (mode)
		*mode = words[0];
	for (d = 0; d < 2; d++) {
		const uint64_t *delay = words + base;
		const uint64_t *frames = delay + n;
		const uint64_t *reps = frames + n;
		const uint64_t *offset = reps + n;
		uint32_t c;
		base += 4u * (size_t)n;
		if (!dirs[d])
			continue;
		for (c = 0; c < n; c++) {
			/* The PL kernel reads these three as uint32: it keeps the
			 * low 32 bits of the word. */
			dirs[d][c].delay = delay[c];
			dirs[d][c].frames = (uint32_t)(frames[c] & 0xffffffffu);
			dirs[d][c].reps = (uint32_t)(reps[c] & 0xffffffffu);
			dirs[d][c].offset = (uint32_t)(offset[c] & 0xffffffffu);
		}
	}
}

void aieth__pld_perf_encode(uint32_t n, const uint64_t *tx_first, const uint64_t *tx_last,
			    const uint64_t *rx_first, const uint64_t *rx_last, uint64_t *words)
{
	const uint64_t *blocks[4];
	int b;

	blocks[0] = tx_first;
	blocks[1] = tx_last;
	blocks[2] = rx_first;
	blocks[3] = rx_last;
	for (b = 0; b < 4; b++) {
		uint64_t *dst = words + (size_t)b * n;
		if (blocks[b])
			memcpy(dst, blocks[b], (size_t)n * sizeof *dst);
		else
			memset(dst, 0, (size_t)n * sizeof *dst);
	}
}

void aieth__pld_perf_decode(uint32_t n, const uint64_t *words, uint64_t *tx_first,
			    uint64_t *tx_last, uint64_t *rx_first, uint64_t *rx_last)
{
	uint64_t *blocks[4];
	int b;

	blocks[0] = tx_first;
	blocks[1] = tx_last;
	blocks[2] = rx_first;
	blocks[3] = rx_last;
	for (b = 0; b < 4; b++)
		if (blocks[b])
			memcpy(blocks[b], words + (size_t)b * n, (size_t)n * sizeof *blocks[b]);
}

/* ------------------------------------------------------------ transaction */

static const char *dir_name(int dir) { return dir == 0 ? "TX" : "RX"; }

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* a + b, saturating at UINT64_MAX. */
static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

uint64_t aieth__pld_image_bytes(uint32_t n, uint32_t depth, uint64_t mode, const pld_arg *args,
				size_t nargs, int dir)
{
	uint64_t total = 0;
	size_t i;

	if (mode != PLD_MODE_FUNC) {
		uint64_t words = (uint64_t)n * depth;
		if (words > UINT64_MAX / PLD_WORD_BYTES)
			return UINT64_MAX;
		return words * PLD_WORD_BYTES;
	}
	for (i = 0; i < nargs; i++)
		if (args[i].dir == dir)
			total = sat_add(total, args[i].size);
	return total;
}

/* Check one argument against what the PL kernel can represent, and record
 * it in slot[] (index of the argument per direction/channel, or SIZE_MAX). */
static int check_arg(const pld_arg *a, size_t i, uint32_t n, int func, size_t *slot, char *err,
		     size_t errlen)
{
	const char *dn;
	size_t *s;

	if (a->dir != 0 && a->dir != 1)
		return fail(
			err, errlen,
			"argument %zu: direction %d is neither 0 (TX, to AIE) nor 1 (RX, from AIE)",
			i, a->dir);
	dn = dir_name(a->dir);
	if (a->index >= n)
		return fail(err, errlen,
			    "%s channel %" PRIu32 ": the board has %" PRIu32
			    " channels per direction (0 to %" PRIu32 ")",
			    dn, a->index, n, n - 1);
	s = &slot[(size_t)a->dir * n + a->index];
	if (*s != SIZE_MAX)
		return fail(err, errlen,
			    "%s channel %" PRIu32
			    " appears twice in the argument list (arguments %zu and %zu)",
			    dn, a->index, *s, i);
	*s = i;
	if (a->size % PLD_WORD_BYTES)
		return fail(err, errlen,
			    "%s channel %" PRIu32 ": size %" PRIu64
			    " bytes is not a multiple of %u bytes (one 128-bit word)",
			    dn, a->index, a->size, PLD_WORD_BYTES);
	if (a->size / PLD_WORD_BYTES > U32_LIMIT)
		return fail(err, errlen,
			    "%s channel %" PRIu32 ": size %" PRIu64 " bytes is %" PRIu64
			    " frames, the PL kernel's limit is %" PRIu64,
			    dn, a->index, a->size, a->size / PLD_WORD_BYTES, U32_LIMIT);
	if (a->reps > U32_LIMIT)
		return fail(err, errlen,
			    "%s channel %" PRIu32 ": repetition %" PRIu64
			    ", the PL kernel's limit is %" PRIu64,
			    dn, a->index, a->reps, U32_LIMIT);
	if (func && a->reps != 1)
		return fail(err, errlen,
			    "%s channel %" PRIu32 ": repetition %" PRIu64
			    " in FUNC mode, where the PL kernel ignores it; it must be 1",
			    dn, a->index, a->reps);
	return 0;
}

static void add_seg(pld_image *img, uint64_t off, uint64_t len, uint8_t *ptr, const pld_io *io)
{
	pld_seg *s;
	if ((!ptr && !io) || !len)
		return;
	s = &img->seg[img->nseg++];
	s->off = off;
	s->len = len;
	s->ptr = ptr;
	s->io = ptr ? NULL : io;
}

int aieth__pld_txn_encode(pld_txn *t, uint32_t n, uint32_t depth, uint64_t mode,
			  const pld_arg *args, size_t nargs, char *err, size_t errlen)
{
	int func = mode == PLD_MODE_FUNC;
	pld_chan_cfg *cc = NULL;  /* 2n entries: TX then RX */
	size_t *slot = NULL;      /* 2n entries: argument index per channel */
	uint64_t run[2] = {0, 0}; /* FUNC: running offset in words per direction */
	size_t cnt[2] = {0, 0};
	size_t i;
	int d;

	if (err && errlen)
		err[0] = '\0';
	if (!t)
		return fail(err, errlen, "no transaction to encode into");
	memset(t, 0, sizeof *t);
	if (n == 0)
		return fail(err, errlen, "the board has 0 channels per direction");
	if (depth == 0)
		return fail(err, errlen, "the board's URAM depth is 0 words");
	if (nargs && !args)
		return fail(err, errlen, "%zu arguments given without an argument list", nargs);
	if (!func && (uint64_t)n * depth > UINT64_MAX / PLD_WORD_BYTES)
		return fail(err, errlen,
			    "PERF image of %" PRIu32 " channels x %" PRIu32
			    " words does not fit in 64 bits",
			    n, depth);

	cc = calloc(2u * (size_t)n, sizeof *cc);
	slot = malloc(2u * (size_t)n * sizeof *slot);
	if (!cc || !slot)
		goto nomem;
	for (i = 0; i < 2u * (size_t)n; i++)
		slot[i] = SIZE_MAX;

	/* Validate every argument and fill the per-channel fields. */
	for (i = 0; i < nargs; i++) {
		const pld_arg *a = &args[i];
		pld_chan_cfg *c;
		uint64_t off, span;
		if (check_arg(a, i, n, func, slot, err, errlen))
			goto fail_out;
		/* span: words of the image the PL kernel addresses. */
		span = a->size / PLD_WORD_BYTES;
		if (func) {
			off = run[a->dir];
			run[a->dir] += span;
		} else {
			off = (uint64_t)a->index * depth;
			span = min_u64(span, depth);
		}
		if (off > U32_LIMIT) {
			fail(err, errlen,
			     "%s channel %" PRIu32 ": offset %" PRIu64
			     " words in the %s image, the PL kernel's limit is %" PRIu64,
			     dir_name(a->dir), a->index, off, func ? "FUNC" : "PERF", U32_LIMIT);
			goto fail_out;
		}
		if (span && off + span - 1 > U32_LIMIT) {
			fail(err, errlen,
			     "%s channel %" PRIu32 ": its data ends at word %" PRIu64
			     " of the %s image, the PL kernel's 32-bit word offsets reach %" PRIu64,
			     dir_name(a->dir), a->index, off + span - 1, func ? "FUNC" : "PERF",
			     U32_LIMIT);
			goto fail_out;
		}
		c = &cc[(size_t)a->dir * n + a->index];
		c->delay = a->delay;
		c->frames = (uint32_t)(a->size / PLD_WORD_BYTES);
		c->reps = (uint32_t)a->reps;
		c->offset = (uint32_t)off;
		if ((a->data || a->io) && a->size)
			cnt[a->dir]++;
	}

	t->channels = n;
	t->depth = depth;
	t->cfg = malloc(pld_cfg_count(n) * sizeof *t->cfg);
	t->perf = calloc(pld_perf_count(n), sizeof *t->perf);
	if (!t->cfg || !t->perf)
		goto nomem;
	aieth__pld_cfg_encode(n, func ? PLD_MODE_FUNC : PLD_MODE_PERF, cc, cc + n, t->cfg);

	for (d = 0; d < 2; d++) {
		pld_image *img = d == 0 ? &t->tx : &t->rx;
		img->size = aieth__pld_image_bytes(n, depth, mode, args, nargs, d);
		if (cnt[d]) {
			img->seg = calloc(cnt[d], sizeof *img->seg);
			if (!img->seg)
				goto nomem;
		}
		if (func) {
			/* Argument order is offset order. */
			for (i = 0; i < nargs; i++)
				if (args[i].dir == d)
					add_seg(img,
						(uint64_t)cc[(size_t)d * n + args[i].index].offset *
							PLD_WORD_BYTES,
						args[i].size, args[i].data, args[i].io);
		} else {
			/* Channel order is offset order. */
			uint64_t cap = (uint64_t)depth * PLD_WORD_BYTES;
			uint32_t c;
			for (c = 0; c < n; c++) {
				size_t k = slot[(size_t)d * n + c];
				if (k == SIZE_MAX)
					continue;
				add_seg(img, (uint64_t)c * cap, min_u64(args[k].size, cap),
					args[k].data, args[k].io);
			}
		}
	}
	free(cc);
	free(slot);
	return 0;

nomem:
	fail(err, errlen, "out of memory encoding a transaction of %" PRIu32 " channels", n);
fail_out:
	free(cc);
	free(slot);
	aieth__pld_txn_release(t);
	return -1;
}

void aieth__pld_txn_release(pld_txn *t)
{
	if (!t)
		return;
	free(t->cfg);
	free(t->perf);
	free(t->tx.seg);
	free(t->rx.seg);
	memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------ images */

/* Index of the last segment with off <= pos, or img->nseg when none. */
static size_t seg_find(const pld_image *img, uint64_t pos)
{
	size_t lo = 0, hi = img->nseg; /* segments [0, lo) have off <= pos */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (img->seg[mid].off <= pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : img->nseg;
}

/* First segment that can overlap [pos, ...): the one containing pos, else
 * the next one. */
static size_t seg_first(const pld_image *img, uint64_t pos)
{
	size_t k = seg_find(img, pos);
	if (k == img->nseg)
		return 0;
	if (pos - img->seg[k].off >= img->seg[k].len)
		return k + 1;
	return k;
}

void aieth__pld_image_read(const pld_image *img, uint64_t off, void *dst, uint64_t len)
{
	uint8_t *out = dst;
	uint64_t end = sat_add(off, len);
	uint64_t pos = off; /* bytes [off, pos) of dst are done */
	size_t k;

	if (!len)
		return;
	if (img->gate && img->gate->need)
		img->gate->need(img->gate->ctx, end);
	for (k = seg_first(img, off); k < img->nseg && pos < end; k++) {
		const pld_seg *s = &img->seg[k];
		uint64_t a, b;
		if (s->off >= end)
			break;
		a = s->off > pos ? s->off : pos;
		b = min_u64(sat_add(s->off, s->len), end);
		if (b <= a)
			continue;
		if (a > pos)
			memset(out + (pos - off), 0, (size_t)(a - pos));
		if (s->ptr)
			memcpy(out + (a - off), s->ptr + (a - s->off), (size_t)(b - a));
		else if (s->io && s->io->read)
			s->io->read(s->io->ctx, a - s->off, out + (a - off), b - a);
		else
			memset(out + (a - off), 0, (size_t)(b - a));
		pos = b;
	}
	if (pos < end)
		memset(out + (pos - off), 0, (size_t)(end - pos));
}

void aieth__pld_image_write(pld_image *img, uint64_t off, const void *src, uint64_t len)
{
	const uint8_t *in = src;
	uint64_t end = sat_add(off, len);
	size_t k;

	if (!len)
		return;
	for (k = seg_first(img, off); k < img->nseg; k++) {
		const pld_seg *s = &img->seg[k];
		uint64_t a, b;
		if (s->off >= end)
			break;
		a = s->off > off ? s->off : off;
		b = min_u64(sat_add(s->off, s->len), end);
		if (b > a && s->ptr)
			memcpy(s->ptr + (a - s->off), in + (a - off), (size_t)(b - a));
		else if (b > a && s->io && s->io->write)
			s->io->write(s->io->ctx, a - s->off, in + (a - off), b - a);
	}
	aieth__pld_image_wrote(img, off, len);
}

int aieth__pld_image_failed(const pld_image *img)
{
	size_t k;
	for (k = 0; k < img->nseg; k++) {
		const pld_io *io = img->seg[k].ptr ? NULL : img->seg[k].io;
		if (io && io->failed && io->failed(io->ctx))
			return 1;
	}
	return 0;
}

void aieth__pld_image_wrote(const pld_image *img, uint64_t off, uint64_t len)
{
	if (len && img->gate && img->gate->wrote)
		img->gate->wrote(img->gate->ctx, off, len);
}

uint8_t *aieth__pld_image_ptr(const pld_image *img, uint64_t off, uint64_t len)
{
	size_t k = seg_find(img, off);
	const pld_seg *s;

	if (k == img->nseg)
		return NULL;
	s = &img->seg[k];
	if (!s->ptr || off - s->off > s->len || len > s->len - (off - s->off))
		return NULL;
	if (img->gate && img->gate->need)
		img->gate->need(img->gate->ctx, off + len);
	return s->ptr + (off - s->off);
}

/* ------------------------------------------------------------ filler */

void aieth__pld_filler_mask(uint64_t block, uint8_t mask[16])
{
	uint32_t b = (uint32_t)(block & 0xffffu);
	int k;

	for (k = 0; k < 8; k++) {
		uint32_t lane = (b << k) & 0xffffu;
		mask[2 * k] = (uint8_t)(lane & 0xffu);
		mask[2 * k + 1] = (uint8_t)(lane >> 8);
	}
}
