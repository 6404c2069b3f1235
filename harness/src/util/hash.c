/* xclbin_hash.c - SHA-256 (FIPS 180-4), a fast 128-bit hash, UUID text. */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/hash.h"

/* ------------------------------------------------------------- SHA-256 */

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t ror32(uint32_t x, unsigned n) { return x >> n | x << (32 - n); }

static void sha_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh, t1, t2;
	int i;
	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	for (i = 0; i < 64; i++) {
		t1 = hh + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) + K[i] +
		     w[i];
		t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void aieth_sha256_init(aieth_sha256 *s)
{
	static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(s->h, iv, sizeof iv);
	s->bytes = 0;
	s->fill = 0;
}

void aieth_sha256_update(aieth_sha256 *s, const void *data, size_t len)
{
	const uint8_t *p = data;
	s->bytes += len;
	if (s->fill) {
		size_t n = 64 - s->fill < len ? 64 - s->fill : len;
		memcpy(s->buf + s->fill, p, n);
		s->fill += n, p += n, len -= n;
		if (s->fill < 64)
			return;
		sha_block(s->h, s->buf);
		s->fill = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		sha_block(s->h, p);
	memcpy(s->buf, p, len);
	s->fill = len;
}

void aieth_sha256_final(aieth_sha256 *s, uint8_t out[32])
{
	uint64_t bits = s->bytes * 8;
	int i;
	s->buf[s->fill++] = 0x80;
	if (s->fill > 56) {
		memset(s->buf + s->fill, 0, 64 - s->fill);
		sha_block(s->h, s->buf);
		s->fill = 0;
	}
	memset(s->buf + s->fill, 0, 56 - s->fill);
	for (i = 0; i < 8; i++)
		s->buf[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha_block(s->h, s->buf);
	for (i = 0; i < 32; i++)
		out[i] = (uint8_t)(s->h[i / 4] >> (24 - 8 * (i % 4)));
}

/* ------------------------------------------------- fast 128-bit hash */
/* Four independent multiply-rotate lanes over 8-byte words (so it runs at
 * memory speed), folded with a 64-bit finaliser. */

#define M1 0x9e3779b97f4a7c15ull
#define M2 0xc2b2ae3d27d4eb4full

static uint64_t rol64(uint64_t x, unsigned n) { return x << n | x >> (64 - n); }

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A little-endian 64-bit load (memcpy: one instruction, no alignment trap). */
static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static void h128_block(uint64_t lane[4], const uint8_t *p)
{
	int i;
	for (i = 0; i < 4; i++)
		lane[i] = rol64(lane[i] + rd64(p + 8 * i) * M2, 31) * M1;
}

void aieth_hash128_init(aieth_hash128 *s)
{
	s->lane[0] = M1;
	s->lane[1] = M2;
	s->lane[2] = 0x165667b19e3779f9ull;
	s->lane[3] = 0x27d4eb2f165667c5ull;
	s->bytes = 0;
	s->fill = 0;
}

void aieth_hash128_update(aieth_hash128 *s, const void *data, size_t len)
{
	const uint8_t *p = data;
	s->bytes += len;
	if (s->fill) {
		size_t n = 32 - s->fill < len ? 32 - s->fill : len;
		memcpy(s->buf + s->fill, p, n);
		s->fill += n, p += n, len -= n;
		if (s->fill < 32)
			return;
		h128_block(s->lane, s->buf);
		s->fill = 0;
	}
	for (; len >= 32; p += 32, len -= 32)
		h128_block(s->lane, p);
	memcpy(s->buf, p, len);
	s->fill = len;
}

void aieth_hash128_final(aieth_hash128 *s, uint8_t out[16])
{
	uint64_t a, b;
	int i;
	/* the tail, padded with its length so "a" and "a\0" differ */
	memset(s->buf + s->fill, 0, 32 - s->fill);
	s->buf[31] = (uint8_t)s->fill;
	h128_block(s->lane, s->buf);
	a = mix64(s->lane[0] ^ rol64(s->lane[1], 17) ^ s->bytes);
	b = mix64(s->lane[2] ^ rol64(s->lane[3], 41) ^ a);
	a = mix64(a ^ b);
	for (i = 0; i < 8; i++) {
		out[i] = (uint8_t)(a >> (56 - 8 * i));
		out[8 + i] = (uint8_t)(b >> (56 - 8 * i));
	}
}

/* ---------------------------------------------------------------- UUIDs */

void aieth_uuid_format(const uint8_t u[16], char out[37])
{
	snprintf(out, 37,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
		 u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
		 u[14], u[15]);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int aieth_uuid_parse(const char *text, uint8_t uuid[16])
{
	const char *p = text;
	int n = 0, hi, lo;
	while (*p && n < 16) {
		if (*p == '-') {
			p++;
			continue;
		}
		hi = hexval(p[0]);
		lo = hi < 0 ? -1 : hexval(p[1]);
		if (lo < 0)
			break;
		uuid[n++] = (uint8_t)(hi << 4 | lo);
		p += 2;
	}
	if (n != 16 || *p)
		return aieth_fail(AIETH_EINVAL,
				  "UUID \"%s\": expected 32 hex digits "
				  "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)",
				  text);
	return AIETH_OK;
}

void aieth_sha256_hex(const uint8_t d[32], char out[65])
{
	static const char x[] = "0123456789abcdef";
	int i;
	for (i = 0; i < 32; i++) {
		out[2 * i] = x[d[i] >> 4];
		out[2 * i + 1] = x[d[i] & 15];
	}
	out[64] = '\0';
}
