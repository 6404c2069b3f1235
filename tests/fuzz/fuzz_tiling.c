/* SPDX-License-Identifier: MIT */
/*
 * fuzz_tiling.c - libFuzzer target for harness/src/tiling.c.
 *
 * The bytes build a small tiling (layout below; missing bytes read as 0),
 * sometimes with one field set to a raw 64-bit value to reach the overflow
 * checks. aieth__tiling_check must accept or reject it with a message that
 * starts with the given name. When accepted and small, gather and scatter
 * run on exactly sized heap buffers (ASan catches any access outside) and
 * are compared with a one-element-at-a-time reference:
 *  - gather equals the reference (zeros where padded);
 *  - scatter of the gathered stream onto the buffer leaves it unchanged;
 *  - scatter of a distinct stream equals the reference (last visit wins,
 *    padded positions and positions never visited untouched).
 *
 * Layout: ndims (1 + b % 4), esize (1 + b % 8), per dimension buffer
 * (1 + b % 8), tile (1 + b % 8), offset ((int8)b % 8); nloops (b % 5), per
 * loop dimension (b % (ndims + 1)), stride ((int8)b % 9), wrap (b % 5);
 * bound (b % 3 == 0: one per dimension, b % (buffer + 2)); repetition
 * (b % 3); raw (b & 1: field selector byte, 8 value bytes).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "data/data.h"
#include "fuzz_check.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
	const uint8_t *p;
	size_t n;
} reader;

static uint8_t next(reader *r)
{
	if (!r->n)
		return 0;
	r->n--;
	return *r->p++;
}

static uint64_t next64(reader *r)
{
	uint64_t v = 0;
	int k;
	for (k = 0; k < 8; k++)
		v |= (uint64_t)next(r) << (8 * k);
	return v;
}

/* Buffer index the k-th stream element maps to, or -1 when padded. */
static int64_t ref_index(const aieth_tiling *t, uint64_t k)
{
	uint64_t tile = 1, r, e, idx = 0, bstride = 1;
	int64_t p[AIETH_TILING_MAX_DIMS];
	uint32_t j, l;
	for (j = 0; j < t->ndims; j++)
		tile *= t->tiling_dimension[j];
	e = k % tile;
	r = k / tile;
	for (j = 0; j < t->ndims; j++) {
		p[j] = t->offset[j] + (int64_t)(e % t->tiling_dimension[j]);
		e /= t->tiling_dimension[j];
	}
	for (l = 0; l < t->nloops; l++) {
		const aieth_traversal *tr = &t->tile_traversal[l];
		p[tr->dimension] += (int64_t)(r % tr->wrap) * tr->stride;
		r /= tr->wrap;
	}
	for (j = 0; j < t->ndims; j++) {
		int64_t b = t->nbound ? t->boundary_dimension[j] : t->buffer_dimension[j];
		if (p[j] < 0 || p[j] >= b)
			return -1;
		idx += (uint64_t)p[j] * bstride;
		bstride *= t->buffer_dimension[j];
	}
	return (int64_t)idx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	reader rd = {data, size};
	aieth_tiling t;
	size_t esize;
	uint32_t j, l;
	uint64_t belems, selems, k;
	uint8_t *buf, *stream, *copy, *ref;
	const char *what = "fuzz.tiling";

	memset(&t, 0, sizeof t);
	t.ndims = 1 + next(&rd) % 4;
	esize = 1 + next(&rd) % 8;
	for (j = 0; j < t.ndims; j++) {
		t.buffer_dimension[j] = 1 + next(&rd) % 8;
		t.tiling_dimension[j] = 1 + next(&rd) % 8;
		t.offset[j] = (int8_t)next(&rd) % 8;
	}
	t.nloops = next(&rd) % 5;
	for (l = 0; l < t.nloops; l++) {
		t.tile_traversal[l].dimension = next(&rd) % (t.ndims + 1);
		t.tile_traversal[l].stride = (int8_t)next(&rd) % 9;
		t.tile_traversal[l].wrap = next(&rd) % 5;
	}
	if (next(&rd) % 3 == 0) {
		t.nbound = t.ndims;
		for (j = 0; j < t.ndims; j++)
			t.boundary_dimension[j] = next(&rd) % (t.buffer_dimension[j] + 2);
	}
	t.repetition = next(&rd) % 3;
	if (next(&rd) & 1) {
		uint8_t sel = next(&rd);
		uint64_t v = next64(&rd);
		unsigned i = (sel >> 3) % AIETH_TILING_MAX_DIMS;
		switch (sel % 8) {
		case 0: t.buffer_dimension[i] = (uint32_t)v; break;
		case 1: t.tiling_dimension[i] = (uint32_t)v; break;
		case 2: t.offset[i] = (int64_t)v; break;
		case 3: t.tile_traversal[i].stride = (int64_t)v; break;
		case 4: t.tile_traversal[i].wrap = (uint32_t)v; break;
		case 5: t.repetition = (uint32_t)v; break;
		case 6: t.ndims = (uint32_t)v; break;
		default: t.nloops = (uint32_t)v; break;
		}
	}

	if (aieth__tiling_check(what, &t) != AIETH_OK) {
		CHECK(strncmp(aieth_error_message(), what, strlen(what)) == 0);
		return 0;
	}
	CHECK(t.ndims >= 1 && t.ndims <= AIETH_TILING_MAX_DIMS);
	CHECK(t.nloops <= AIETH_TILING_MAX_LOOPS && t.repetition >= 1);
	belems = aieth__tiling_buffer_elems(&t);
	selems = aieth__tiling_stream_elems(&t);
	CHECK(belems >= 1 && selems >= 1);
	CHECK(belems <= ((uint64_t)1 << 48) && selems <= ((uint64_t)1 << 48));
	if (belems * esize > (1u << 20) || selems * esize > (1u << 20))
		return 0;

	buf = malloc(belems * esize);
	copy = malloc(belems * esize);
	ref = malloc(belems * esize);
	stream = malloc(selems * esize);
	CHECK(buf && copy && ref && stream);
	for (k = 0; k < belems * esize; k++)
		buf[k] = (uint8_t)(1 + k % 251);

	/* gather against the reference */
	aieth__tiling_gather(&t, esize, buf, stream);
	for (k = 0; k < selems; k++) {
		int64_t i = ref_index(&t, k);
		if (i < 0) {
			size_t b;
			for (b = 0; b < esize; b++)
				CHECK(stream[k * esize + b] == 0);
		} else {
			CHECK(memcmp(stream + k * esize, buf + (uint64_t)i * esize, esize) == 0);
		}
	}
	/* scatter of what was gathered changes nothing */
	memcpy(copy, buf, belems * esize);
	aieth__tiling_scatter(&t, esize, stream, copy);
	CHECK(memcmp(copy, buf, belems * esize) == 0);

	/* scatter of a distinct stream against the reference */
	for (k = 0; k < selems * esize; k++)
		stream[k] = (uint8_t)(k * 7 + 3);
	memset(copy, 0xa5, belems * esize);
	memset(ref, 0xa5, belems * esize);
	aieth__tiling_scatter(&t, esize, stream, copy);
	for (k = 0; k < selems; k++) {
		int64_t i = ref_index(&t, k);
		if (i >= 0)
			memcpy(ref + (uint64_t)i * esize, stream + k * esize, esize);
	}
	CHECK(memcmp(copy, ref, belems * esize) == 0);

	free(buf);
	free(copy);
	free(ref);
	free(stream);
	return 0;
}
