/* SPDX-License-Identifier: MIT */
/*
 * pattern.c - generated channel data: ramp, constant, seeded pseudo-random.
 * The definitions are in docs/data-formats.md; the random generator is
 * splitmix64 so users can regenerate the same bytes elsewhere.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "data/data.h"
#include "util/error.h"
#include "util/le.h"

/* Bytes per scalar part. */
static unsigned part_size(aieth_elem t)
{
	return (unsigned)(aieth__elem_size(t) / aieth__elem_parts(t));
}

static int is_signed_int(aieth_elem t)
{
	return t == AIETH_ELEM_INT8 || t == AIETH_ELEM_INT16 || t == AIETH_ELEM_INT32 ||
	       t == AIETH_ELEM_INT64 || t == AIETH_ELEM_CINT16 || t == AIETH_ELEM_CINT32;
}

/* One part of a float element from a double (IEEE rounding; overflow gives
 * infinity). */
static uint64_t float_bits(double d)
{
	float f;
	uint32_t u;
	if (isfinite(d) && fabs(d) >= 0x1.ffffffp+127)
		f = d > 0 ? INFINITY : -INFINITY;
	else
		f = (float)d;
	memcpy(&u, &f, 4);
	return u;
}

static uint64_t double_bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

/* An integer-valued double in [-2^63, 2^64) as its value modulo 2^64;
 * 0 when it is not one. */
static int to_u64_mod(double d, uint64_t *out)
{
	if (!isfinite(d) || d != floor(d) || d < -0x1p63 || d >= 0x1p64)
		return 0;
	if (d < 0)
		*out = (uint64_t)(int64_t)d;
	else
		*out = (uint64_t)d;
	return 1;
}

/* The shortest %g text that reads back as v, for messages. */
static const char *num(char *buf, size_t cap, double v)
{
	int prec;
	if (v == floor(v) && fabs(v) < 1e17) {
		snprintf(buf, cap, "%.0f", v);
		return buf;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, cap, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, cap, "%.17g", v);
	return buf;
}

/* Fill dst (len bytes) with copies of the esize-byte element e. */
static void replicate(uint8_t *dst, size_t len, const uint8_t *e, size_t esize)
{
	size_t done;
	if (len == 0)
		return;
	memcpy(dst, e, esize);
	done = esize;
	while (done < len) {
		size_t n = done < len - done ? done : len - done;
		memcpy(dst + done, dst, n);
		done += n;
	}
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Bytes [off, off+len) of the stream: splitmix64 is a counter, so word k
 * is generated from the state seed + k * gamma. */
static int fill_random(uint64_t seed, uint64_t off, uint8_t *dst, size_t len)
{
	uint64_t state = seed + (off / 8) * 0x9E3779B97F4A7C15ull;
	size_t i = 0, skip = (size_t)(off % 8);
	uint8_t w[8];
	if (skip && len) {
		size_t n = 8 - skip < len ? 8 - skip : len;
		aieth__le64_put(w, splitmix64(&state));
		memcpy(dst, w + skip, n);
		dst += n;
		len -= n;
	}
	for (; i + 8 <= len; i += 8)
		aieth__le64_put(dst + i, splitmix64(&state));
	if (i < len) {
		aieth__le64_put(w, splitmix64(&state));
		memcpy(dst + i, w, len - i);
	}
	return AIETH_OK;
}

static int fill_constant(const aieth_pattern *p, uint8_t *dst, size_t len)
{
	aieth_elem t = p->type;
	unsigned ps = part_size(t), parts = aieth__elem_parts(t), k;
	uint8_t e[8];
	uint64_t bits = 0;
	double v = p->start;
	char vs[40];

	if (t == AIETH_ELEM_DOUBLE) {
		bits = double_bits(v);
	} else if (aieth__elem_is_float(t)) {
		if (isfinite(v) && fabs(v) >= 0x1.ffffffp+127)
			return aieth__fail(AIETH_EINVAL,
					   "constant %s does not fit %s (finite magnitudes up to "
					   "%.9g)",
					   num(vs, sizeof vs, v), aieth__elem_name(t),
					   (double)FLT_MAX);
		bits = float_bits(v);
	} else {
		unsigned bitsz = 8 * ps;
		double lo, hi;
		char rng[96];
		if (is_signed_int(t)) {
			lo = -ldexp(1, (int)bitsz - 1);
			hi = ldexp(1, (int)bitsz - 1);
			snprintf(rng, sizeof rng, "%s%.0f..%.0f", parts == 2 ? "each part " : "",
				 lo, hi - 1);
		} else {
			lo = 0;
			hi = ldexp(1, (int)bitsz);
			snprintf(rng, sizeof rng, "%s0..%.0f", parts == 2 ? "each part " : "",
				 hi - 1);
		}
		if (bitsz == 64) /* %.0f of 2^64-1 / 2^63-1 would print the rounded double */
			snprintf(rng, sizeof rng, "%s",
				 is_signed_int(t) ? "-9223372036854775808..9223372036854775807"
						  : "0..18446744073709551615");
		if (!isfinite(v) || v != floor(v))
			return aieth__fail(AIETH_EINVAL,
					   "constant %s is not an integer (%s takes %s)",
					   num(vs, sizeof vs, v), aieth__elem_name(t), rng);
		if (v < lo || v >= hi)
			return aieth__fail(AIETH_EINVAL, "constant %s does not fit %s (%s)",
					   num(vs, sizeof vs, v), aieth__elem_name(t), rng);
		to_u64_mod(v, &bits);
	}
	for (k = 0; k < parts; k++)
		aieth__le_put(e + k * ps, bits, ps);
	replicate(dst, len, e, ps * parts);
	return AIETH_OK;
}

static int fill_ramp(const aieth_pattern *p, uint64_t i0, uint8_t *dst, size_t len)
{
	aieth_elem t = p->type;
	unsigned ps = part_size(t), parts = aieth__elem_parts(t), k;
	size_t esize = ps * parts, n = len / esize, i;

	if (!aieth__elem_is_float(t)) {
		uint64_t s, st, v;
		char vs[40];
		if (!to_u64_mod(p->start, &s))
			return aieth__fail(
				AIETH_EINVAL,
				"ramp start %s is not an integer in -2^63..2^64 (%s ramps "
				"take integer start and step)",
				num(vs, sizeof vs, p->start), aieth__elem_name(t));
		if (!to_u64_mod(p->step, &st))
			return aieth__fail(
				AIETH_EINVAL,
				"ramp step %s is not an integer in -2^63..2^64 (%s ramps "
				"take integer start and step)",
				num(vs, sizeof vs, p->step), aieth__elem_name(t));
		for (i = 0, v = s + i0 * st; i < n; i++, v += st)
			for (k = 0; k < parts; k++)
				aieth__le_put(dst + i * esize + k * ps, v, ps);
		return AIETH_OK;
	}
	for (i = 0; i < n; i++) {
		double d = p->start + (double)(i0 + i) * p->step;
		uint64_t bits = t == AIETH_ELEM_DOUBLE ? double_bits(d) : float_bits(d);
		for (k = 0; k < parts; k++)
			aieth__le_put(dst + i * esize + k * ps, bits, ps);
	}
	return AIETH_OK;
}

int aieth__pattern_fill(const aieth_pattern *p, uint8_t *dst, size_t len)
{
	return aieth__pattern_fill_at(p, 0, dst, len);
}

int aieth__pattern_fill_at(const aieth_pattern *p, uint64_t off, uint8_t *dst, size_t len)
{
	size_t esize;
	if (!p || (!dst && len))
		return aieth__fail(AIETH_EINVAL, "aieth__pattern_fill: NULL argument");
	esize = aieth__elem_size(p->type);
	if (!esize)
		return aieth__fail(AIETH_EINVAL, "pattern element type %d is not valid",
				   (int)p->type);
	if (off % esize)
		return aieth__fail(AIETH_EINVAL,
				   "pattern offset %llu bytes is not on a %s element boundary (%zu "
				   "bytes each)",
				   (unsigned long long)off, aieth__elem_name(p->type), esize);
	if (len % esize)
		return aieth__fail(
			AIETH_EINVAL,
			"pattern size %zu bytes is not a whole number of %s elements (%zu "
			"bytes each)",
			len, aieth__elem_name(p->type), esize);
	switch (p->kind) {
	case AIETH_PAT_RANDOM: return fill_random(p->seed, off, dst, len);
	case AIETH_PAT_CONSTANT: return fill_constant(p, dst, len);
	case AIETH_PAT_RAMP: return fill_ramp(p, off / esize, dst, len);
	default: break;
	}
	return aieth__fail(AIETH_EINVAL, "pattern kind %d is not valid (ramp, constant, random)",
			   (int)p->kind);
}
