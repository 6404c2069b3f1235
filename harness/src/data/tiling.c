/* SPDX-License-Identifier: MIT */
/*
 * tiling.c - ADF-style tiling: a channel's stream gathered from (or
 * scattered to) a larger multi-dimensional buffer, with zero padding outside
 * the real data boundary. Semantics and a worked example are in
 * docs/data-formats.md ("Tiling").
 *
 * The traversal visits tiles with an odometer over the loops (loop 0
 * innermost) and, inside a tile, rows along dimension 0 with an odometer
 * over dimensions 1..n-1. The in-bounds part of each row is one memcpy; the
 * parts outside are zero-filled (gather) or skipped (scatter).
 */
#include <string.h>

#include "aieth.h"
#include "data/data.h"
#include "util/error.h"

/* Element counts (buffer, stream) are capped well below 2^64 so that byte
 * sizes (count x element size) cannot overflow either. */
#define TILING_MAX_ELEMS ((uint64_t)1 << 48)
/* Coordinates stay within +-2^62 so that no sum in the traversal overflows. */
#define TILING_MAX_COORD ((int64_t)1 << 62)

static const char *name_or(const char *what) { return what && *what ? what : "tiling"; }

int aieth__tiling_check(const char *what, const aieth_tiling *tl)
{
	uint32_t j, l, n;
	uint64_t belems = 1, telems = 1, selems;
	int64_t lo[AIETH_TILING_MAX_DIMS], hi[AIETH_TILING_MAX_DIMS];

	what = name_or(what);
	if (!tl)
		return aieth__fail(AIETH_EINVAL, "%s: no tiling parameters", what);
	n = tl->ndims;
	if (n < 1 || n > AIETH_TILING_MAX_DIMS)
		return aieth__fail(
			AIETH_EINVAL,
			"%s.buffer_dimension: %u dimensions, the allowed number is 1..%d", what, n,
			AIETH_TILING_MAX_DIMS);
	for (j = 0; j < n; j++) {
		if (tl->buffer_dimension[j] < 1)
			return aieth__fail(AIETH_EINVAL,
					   "%s.buffer_dimension[%u]: 0 elements (must be >= 1)",
					   what, j);
		if (tl->tiling_dimension[j] < 1)
			return aieth__fail(AIETH_EINVAL,
					   "%s.tiling_dimension[%u]: 0 elements (must be >= 1)",
					   what, j);
		if (__builtin_mul_overflow(belems, (uint64_t)tl->buffer_dimension[j], &belems) ||
		    belems > TILING_MAX_ELEMS)
			return aieth__fail(
				AIETH_EINVAL,
				"%s.buffer_dimension: the buffer has more than 2^48 elements "
				"(too large at dimension %u)",
				what, j);
		/* tile elements <= 2^32^8 cannot overflow before the cap */
		if (__builtin_mul_overflow(telems, (uint64_t)tl->tiling_dimension[j], &telems) ||
		    telems > TILING_MAX_ELEMS)
			return aieth__fail(
				AIETH_EINVAL,
				"%s.tiling_dimension: a tile has more than 2^48 elements", what);
	}
	if (tl->nbound != 0 && tl->nbound != n)
		return aieth__fail(
			AIETH_EINVAL,
			"%s.boundary_dimension: %u values, but the buffer has %u dimensions "
			"(give none or one per dimension)",
			what, tl->nbound, n);
	for (j = 0; j < tl->nbound; j++) {
		/* 0 is allowed: all of that dimension is padding */
		if (tl->boundary_dimension[j] > tl->buffer_dimension[j])
			return aieth__fail(
				AIETH_EINVAL,
				"%s.boundary_dimension[%u]: %u is larger than buffer_dimension[%u] "
				"= %u",
				what, j, tl->boundary_dimension[j], j, tl->buffer_dimension[j]);
	}
	if (tl->repetition < 1)
		return aieth__fail(AIETH_EINVAL, "%s.repetition: 0 (must be >= 1)", what);
	if (tl->nloops > AIETH_TILING_MAX_LOOPS)
		return aieth__fail(AIETH_EINVAL, "%s.tile_traversal: %u loops, the limit is %d",
				   what, tl->nloops, AIETH_TILING_MAX_LOOPS);

	/* coordinate range of every dimension over the whole traversal */
	for (j = 0; j < n; j++) {
		if (tl->offset[j] <= -TILING_MAX_COORD || tl->offset[j] >= TILING_MAX_COORD)
			return aieth__fail(AIETH_EINVAL, "%s.offset[%u]: %lld is outside +-2^62",
					   what, j, (long long)tl->offset[j]);
		lo[j] = tl->offset[j];
		hi[j] = tl->offset[j] + (int64_t)tl->tiling_dimension[j];
	}
	selems = telems;
	for (l = 0; l < tl->nloops; l++) {
		const aieth_traversal *tr = &tl->tile_traversal[l];
		int64_t span;
		if (tr->dimension >= n)
			return aieth__fail(
				AIETH_EINVAL,
				"%s.tile_traversal[%u].dimension: %u names no buffer dimension "
				"(the buffer has %u: 0..%u)",
				what, l, tr->dimension, n, n - 1);
		if (tr->wrap < 1)
			return aieth__fail(AIETH_EINVAL,
					   "%s.tile_traversal[%u].wrap: 0 (must be >= 1)", what, l);
		/* the odometer moves up to wrap strides before wrapping back */
		if (__builtin_mul_overflow(tr->stride, (int64_t)tr->wrap, &span) ||
		    __builtin_add_overflow(span < 0 ? lo[tr->dimension] : hi[tr->dimension], span,
					   span < 0 ? &lo[tr->dimension] : &hi[tr->dimension]) ||
		    lo[tr->dimension] <= -TILING_MAX_COORD || hi[tr->dimension] >= TILING_MAX_COORD)
			return aieth__fail(
				AIETH_EINVAL,
				"%s.tile_traversal[%u]: stride %lld x wrap %u moves dimension "
				"%u beyond +-2^62 elements",
				what, l, (long long)tr->stride, tr->wrap, tr->dimension);
		if (__builtin_mul_overflow(selems, (uint64_t)tr->wrap, &selems) ||
		    selems > TILING_MAX_ELEMS)
			return aieth__fail(
				AIETH_EINVAL,
				"%s.tile_traversal: the traversal visits more than 2^48 elements",
				what);
	}
	if (__builtin_mul_overflow(selems, (uint64_t)tl->repetition, &selems) ||
	    selems > TILING_MAX_ELEMS)
		return aieth__fail(AIETH_EINVAL,
				   "%s.repetition: %u repetitions visit more than 2^48 elements",
				   what, tl->repetition);
	return AIETH_OK;
}

uint64_t aieth__tiling_buffer_elems(const aieth_tiling *tl)
{
	uint64_t e = 1;
	uint32_t j;
	if (!tl)
		return 0;
	for (j = 0; j < tl->ndims && j < AIETH_TILING_MAX_DIMS; j++)
		e *= tl->buffer_dimension[j];
	return e;
}

/* Elements of one repetition. */
static uint64_t rep_elems(const aieth_tiling *tl)
{
	uint64_t e = 1;
	uint32_t j;
	for (j = 0; j < tl->ndims && j < AIETH_TILING_MAX_DIMS; j++)
		e *= tl->tiling_dimension[j];
	for (j = 0; j < tl->nloops && j < AIETH_TILING_MAX_LOOPS; j++)
		e *= tl->tile_traversal[j].wrap;
	return e;
}

uint64_t aieth__tiling_stream_elems(const aieth_tiling *tl)
{
	return tl ? rep_elems(tl) * tl->repetition : 0;
}

/* One repetition of the traversal. gather: stream <- buf (zeros outside the
 * boundary); else scatter: buf <- stream (outside skipped). */
static void traverse(const aieth_tiling *tl, size_t esize, uint8_t *buf, uint8_t *stream,
		     int gather)
{
	const uint32_t n = tl->ndims;
	int64_t bound[AIETH_TILING_MAX_DIMS], origin[AIETH_TILING_MAX_DIMS];
	int64_t p[AIETH_TILING_MAX_DIMS];
	uint64_t bstride[AIETH_TILING_MAX_DIMS];
	uint32_t c[AIETH_TILING_MAX_LOOPS], t[AIETH_TILING_MAX_DIMS];
	const int64_t t0 = tl->tiling_dimension[0];
	const size_t row_bytes = (size_t)t0 * esize;
	uint32_t j, l;

	for (j = 0; j < n; j++) {
		bound[j] = tl->nbound ? tl->boundary_dimension[j] : tl->buffer_dimension[j];
		bstride[j] = j ? bstride[j - 1] * tl->buffer_dimension[j - 1] : 1;
		origin[j] = tl->offset[j];
	}
	memset(c, 0, sizeof c);

	for (;;) {
		/* one tile at origin: rows along dimension 0 */
		memset(t, 0, sizeof t);
		for (;;) {
			int inside = 1;
			uint64_t base = 0;
			for (j = 1; j < n; j++) {
				p[j] = origin[j] + t[j];
				if (p[j] < 0 || p[j] >= bound[j])
					inside = 0;
				else
					base += (uint64_t)p[j] * bstride[j];
			}
			if (!inside) {
				if (gather)
					memset(stream, 0, row_bytes);
			} else {
				const int64_t x0 = origin[0];
				int64_t lo = -x0, hi = bound[0] - x0;
				if (lo < 0)
					lo = 0;
				if (lo > t0)
					lo = t0;
				if (hi > t0)
					hi = t0;
				if (hi < lo)
					hi = lo;
				if (gather) {
					memset(stream, 0, (size_t)lo * esize);
					if (hi > lo)
						memcpy(stream + (size_t)lo * esize,
						       buf + (size_t)(base + (uint64_t)(x0 + lo)) *
								       esize,
						       (size_t)(hi - lo) * esize);
					memset(stream + (size_t)hi * esize, 0,
					       (size_t)(t0 - hi) * esize);
				} else if (hi > lo) {
					memcpy(buf + (size_t)(base + (uint64_t)(x0 + lo)) * esize,
					       stream + (size_t)lo * esize,
					       (size_t)(hi - lo) * esize);
				}
			}
			stream += row_bytes;
			/* next row: odometer over dimensions 1..n-1 */
			for (j = 1; j < n; j++) {
				if (++t[j] < tl->tiling_dimension[j])
					break;
				t[j] = 0;
			}
			if (j == n)
				break;
		}
		/* next tile: odometer over the loops, loop 0 innermost */
		for (l = 0; l < tl->nloops; l++) {
			const aieth_traversal *tr = &tl->tile_traversal[l];
			origin[tr->dimension] += tr->stride;
			if (++c[l] < tr->wrap)
				break;
			origin[tr->dimension] -= tr->stride * (int64_t)tr->wrap;
			c[l] = 0;
		}
		if (l == tl->nloops)
			break;
	}
}

void aieth__tiling_gather(const aieth_tiling *tl, size_t esize, const uint8_t *buf, uint8_t *stream)
{
	size_t rep_bytes;
	uint32_t r;
	if (!tl || !esize || !buf || !stream)
		return;
	/* buf is only read when gathering */
	traverse(tl, esize, (uint8_t *)(uintptr_t)buf, stream, 1);
	rep_bytes = (size_t)rep_elems(tl) * esize;
	for (r = 1; r < tl->repetition; r++)
		memcpy(stream + (size_t)r * rep_bytes, stream, rep_bytes);
}

void aieth__tiling_scatter(const aieth_tiling *tl, size_t esize, const uint8_t *stream,
			   uint8_t *buf)
{
	size_t rep_bytes;
	if (!tl || !esize || !buf || !stream)
		return;
	/* every repetition writes the same positions: the last one wins */
	rep_bytes = (size_t)rep_elems(tl) * esize;
	traverse(tl, esize, buf,
		 (uint8_t *)(uintptr_t)stream + (size_t)(tl->repetition - 1) * rep_bytes, 0);
}
