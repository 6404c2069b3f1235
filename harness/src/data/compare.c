/* SPDX-License-Identifier: MIT */
/*
 * compare.c - received data against golden data, element by element:
 * integers exactly, floating-point types within abs_tol + rel_tol * |want|
 * per scalar part (docs/data-formats.md, "Comparison"); max_abs_error is
 * the largest |got - want| of a scalar part, of integers too.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aieth.h"
#include "data/data.h"
#include "util/error.h"
#include "util/le.h"

static int is_signed_int(aieth_elem t)
{
	return t == AIETH_ELEM_INT8 || t == AIETH_ELEM_INT16 || t == AIETH_ELEM_INT32 ||
	       t == AIETH_ELEM_INT64 || t == AIETH_ELEM_CINT16 || t == AIETH_ELEM_CINT32;
}

static double part_value(aieth_elem t, const uint8_t *s)
{
	if (t == AIETH_ELEM_DOUBLE) {
		uint64_t u = aieth__le64_get(s);
		double d;
		memcpy(&d, &u, 8);
		return d;
	} else {
		uint32_t u = aieth__le32_get(s);
		float f;
		memcpy(&f, &u, 4);
		return f;
	}
}

/* One scalar part as text, the way text files write it. */
static int format_part(aieth_elem t, unsigned ps, const uint8_t *s, char *d, size_t cap)
{
	uint64_t v = aieth__le_get(s, ps);
	if (aieth__elem_is_float(t))
		return snprintf(d, cap, t == AIETH_ELEM_DOUBLE ? "%.17g" : "%.9g",
				part_value(t, s));
	if (is_signed_int(t)) {
		unsigned bits = 8 * ps;
		if (bits < 64 && (v >> (bits - 1)) & 1)
			v |= ~(uint64_t)0 << bits;
		return snprintf(d, cap, "%" PRId64, (int64_t)v);
	}
	return snprintf(d, cap, "%" PRIu64, v);
}

static void format_elem(aieth_elem t, const uint8_t *s, size_t n, char *d, size_t cap)
{
	size_t esize = aieth__elem_size(t);
	unsigned parts = aieth__elem_parts(t);
	if (n < esize) { /* a partial element at the end: its bytes */
		size_t o = (size_t)snprintf(d, cap, "bytes");
		size_t i;
		for (i = 0; i < n && o + 4 < cap; i++)
			o += (size_t)snprintf(d + o, cap - o, " %02x", s[i]);
		return;
	}
	if (parts == 2) {
		unsigned ps = (unsigned)(esize / 2);
		char re[28], im[28];
		format_part(t, ps, s, re, sizeof re);
		format_part(t, ps, s + ps, im, sizeof im);
		snprintf(d, cap, "(%s, %s)", re, im);
		return;
	}
	format_part(t, (unsigned)esize, s, d, cap);
}

/* One integer part's value (ps bytes, sign-extended for the signed
 * types), as a double: a mismatch's size for max_abs_error. */
static double int_part_value(aieth_elem t, unsigned ps, const uint8_t *s)
{
	uint64_t v = aieth__le_get(s, ps);
	if (is_signed_int(t)) {
		unsigned bits = 8 * ps;
		if (bits < 64 && (v >> (bits - 1)) & 1)
			v |= ~(uint64_t)0 << bits;
		return (double)(int64_t)v;
	}
	return (double)v;
}

/* One float part within tolerance? Updates the largest error seen. */
static int part_ok(double g, double w, double abs_tol, double rel_tol, double *max_err)
{
	double e;
	if (isnan(g) || isnan(w))
		return isnan(g) && isnan(w);
	if (g == w)
		return 1;
	e = fabs(g - w);
	if (e > *max_err)
		*max_err = e;
	if (isinf(g) || isinf(w))
		return 0;
	return e <= abs_tol + rel_tol * fabs(w);
}

void aieth__compare(const uint8_t *got, const uint8_t *want, size_t len, aieth_elem t,
		    double abs_tol, double rel_tol, aieth_compare_result *r)
{
	if (!r)
		return;
	memset(r, 0, sizeof *r);
	aieth__compare_more(got, want, len, 0, t, abs_tol, rel_tol, r);
}

void aieth__compare_more(const uint8_t *got, const uint8_t *want, size_t len, uint64_t base,
			 aieth_elem t, double abs_tol, double rel_tol, aieth_compare_result *r)
{
	size_t esize, n, tail, i;
	uint64_t e0;
	int fl;

	if (!r || !got || !want || len == 0)
		return;
	if (!aieth__elem_size(t))
		t = AIETH_ELEM_UINT8;
	esize = aieth__elem_size(t);
	n = len / esize;
	tail = len % esize;
	e0 = base / esize;
	r->elements += n + (tail != 0);
	if (!(abs_tol >= 0)) /* negative or NaN */
		abs_tol = 0;
	if (!(rel_tol >= 0))
		rel_tol = 0;
	fl = aieth__elem_is_float(t);

	if (!fl && memcmp(got, want, len) == 0)
		return;
	for (i = 0; i < n; i++) {
		const uint8_t *g = got + i * esize, *w = want + i * esize;
		int bad;
		if (!fl) {
			bad = memcmp(g, w, esize) != 0;
			if (bad) { /* integers match exactly; the error says by how much not */
				unsigned ps = (unsigned)(esize / aieth__elem_parts(t)), k;
				for (k = 0; k < esize / ps; k++) {
					double e = fabs(int_part_value(t, ps, g + k * ps) -
							int_part_value(t, ps, w + k * ps));
					if (e > r->max_abs_error)
						r->max_abs_error = e;
				}
			}
		} else {
			unsigned ps = t == AIETH_ELEM_DOUBLE ? 8 : 4, k;
			bad = 0;
			for (k = 0; k < esize / ps; k++)
				if (!part_ok(part_value(t, g + k * ps), part_value(t, w + k * ps),
					     abs_tol, rel_tol, &r->max_abs_error))
					bad = 1;
		}
		if (bad && r->mismatches++ == 0) {
			r->first_index = e0 + i;
			r->first_offset = base + (uint64_t)i * esize;
			format_elem(t, g, esize, r->first_got, sizeof r->first_got);
			format_elem(t, w, esize, r->first_want, sizeof r->first_want);
		}
	}
	if (tail && memcmp(got + n * esize, want + n * esize, tail) != 0 && r->mismatches++ == 0) {
		r->first_index = e0 + n;
		r->first_offset = base + (uint64_t)n * esize;
		format_elem(t, got + n * esize, tail, r->first_got, sizeof r->first_got);
		format_elem(t, want + n * esize, tail, r->first_want, sizeof r->first_want);
	}
}
