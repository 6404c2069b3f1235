/* SPDX-License-Identifier: MIT */
/* hash.c - SHA-256 (FIPS 180-4), a fast 128-bit hash, UUID text. */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/hash.h"
#include "util/le.h"
#include "util/text.h"

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
		t1 = hh + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) +
		     K[i] + w[i];
		t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void aieth__sha256_init(aieth_sha256 *s)
{
	static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(s->h, iv, sizeof iv);
	s->bytes = 0;
	s->fill = 0;
}

void aieth__sha256_update(aieth_sha256 *s, const void *data, size_t len)
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

void aieth__sha256_final(aieth_sha256 *s, uint8_t out[32])
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
/* Wide accumulation (the idea of XXH3; this design and code are ours).
 * Eight 64-bit lanes take one 64-byte stripe at a time: each 8-byte word w
 * is XORed with a key word, the 32-bit halves of that are multiplied
 * (32x32->64, one instruction per two lanes in SSE2 and NEON) and added to
 * its lane, and w itself is added to the neighbouring lane, so no input bit
 * is lost when a product happens to be zero. Stripe n of a block of
 * H128_STRIPES uses the keys from word n on, so equal stripes at different
 * places add different amounts; after each block every lane is scrambled
 * (xorshift, key, odd multiply: a bijection), so blocks do not commute and
 * sums cannot cancel across them. The tail is a zero-padded stripe; the
 * finaliser mixes the lanes with the length through two chains of a 64-bit
 * mixer. Not cryptographic: an accidental change is caught, a chosen one
 * need not be. The loops are written so gcc and clang vectorise them (the
 * Makefile gives this file -O3). */

#define H128_STRIPES 16
#define K_SCRAMBLE (H128_STRIPES + 8)
#define K_FINAL (K_SCRAMBLE + 8)

/* splitmix64 outputs from the seed "aieth-h3" (any fixed odd-looking words
 * would do; these have no structure) */
static const uint64_t hkey[K_FINAL + 8] = {
	0x035f71e954fc8ea9ull, 0x2f4cb005269ef7d5ull, 0x2ba0a1755e905f58ull, 0x6d5a7fb9b50ce4feull,
	0xae509a3af09c0c94ull, 0x637c1e66b6f10bcdull, 0xf08c346358e41e19ull, 0x416f9d0b317e2fe4ull,
	0x5b2a86d38bc40c93ull, 0xf995116f4fc6620cull, 0x172ed7bde909090aull, 0xaba1048c24ccab57ull,
	0xfdf75dbaa9bb1338ull, 0xa1fa922a0fd3d1bbull, 0x2decef9031b840ddull, 0x3033c04c1a0a1253ull,
	0x1209a2e6be8a5228ull, 0x5a455ab60af35c43ull, 0x96434b759a9d368bull, 0x7ae9752e9c26b2feull,
	0xe18020ca4b013461ull, 0x282007941687468dull, 0xee2ca691e9742eecull, 0x4f583325d43a878aull,
	0xf1d2a5f49825fd30ull, 0x64928a07539716bcull, 0x4a01e350df96a513ull, 0xdd4d666dfbac4100ull,
	0xcbb95b857f7b6e25ull, 0x3c023c1c8e6d9fc0ull, 0x266da8f74b90ce94ull, 0xd15a1b24656a77e7ull,
	0x73160f58f185df09ull, 0x01cfd9be3dce2b1full, 0xc2e318c24bf29758ull, 0x88cbf4762be825fcull,
	0x43e80b828b99e28cull, 0xd66fdfff45ca1ff3ull, 0x08159802777e98c8ull, 0x4ae722ae3aab5908ull,
};

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void h128_stripe(uint64_t *restrict acc, const uint8_t *restrict p,
			const uint64_t *restrict key)
{
	int i;
	for (i = 0; i < 8; i++) {
		uint64_t k = aieth__le64_get(p + 8 * i) ^ key[i];
		acc[i] += (uint64_t)(uint32_t)k * (uint32_t)(k >> 32) +
			  aieth__le64_get(p + 8 * (i ^ 1));
	}
}

static void h128_scramble(uint64_t *acc)
{
	int i;
	for (i = 0; i < 8; i++) {
		uint64_t a = acc[i];
		a ^= a >> 47;
		a ^= hkey[K_SCRAMBLE + i];
		acc[i] = a * 0x9e3779b1u; /* odd: a bijection */
	}
}

/* Whole blocks. gcc and clang vectorise the portable form below but not
 * its product: they do not see that both factors are 32 bits wide and
 * multiply 64 x 64 (three multiplies and shifts per lane pair where one
 * does), and they keep the lanes in memory across stripes: 3.1 GB/s on a
 * Xeon, less than `cp`'s copy, which the hash runs beside. The vector
 * forms hold the eight lanes in four registers for a whole block and
 * multiply with the one instruction (SSE2's pmuludq, NEON's umlal); they
 * compute the same function, digests pinned in tests/unit/test_hash.c. */
#if defined(__SSE2__) && !defined(AIETH_HASH_PORTABLE)
#include <emmintrin.h>
#define H128_VECTOR "SSE2"

/* acc * 0x9e3779b1 in each 64-bit lane (the scramble's odd multiply) */
static __m128i h128_mul_c(__m128i a)
{
	const __m128i c = _mm_set1_epi64x(0x9e3779b1);
	__m128i lo = _mm_mul_epu32(a, c), hi = _mm_mul_epu32(_mm_srli_epi64(a, 32), c);
	return _mm_add_epi64(lo, _mm_slli_epi64(hi, 32));
}

static void h128_blocks(uint64_t lane[8], const uint8_t *p, size_t blocks)
{
	__m128i a[4];
	int i, j;
	for (j = 0; j < 4; j++)
		a[j] = _mm_loadu_si128((const __m128i *)(lane + 2 * j));
	for (; blocks; blocks--) {
		for (i = 0; i < H128_STRIPES; i++, p += 64)
			for (j = 0; j < 4; j++) {
				__m128i w = _mm_loadu_si128((const __m128i *)(p + 16 * j));
				__m128i k = _mm_xor_si128(
					w, _mm_loadu_si128((const __m128i *)(hkey + i + 2 * j)));
				/* low half x high half of each word, and the
				 * neighbouring word (the halves swapped) */
				a[j] = _mm_add_epi64(a[j], _mm_mul_epu32(k, _mm_srli_epi64(k, 32)));
				a[j] = _mm_add_epi64(a[j],
						     _mm_shuffle_epi32(w, _MM_SHUFFLE(1, 0, 3, 2)));
			}
		for (j = 0; j < 4; j++) {
			__m128i x = _mm_xor_si128(a[j], _mm_srli_epi64(a[j], 47));
			x = _mm_xor_si128(
				x, _mm_loadu_si128((const __m128i *)(hkey + K_SCRAMBLE + 2 * j)));
			a[j] = h128_mul_c(x);
		}
	}
	for (j = 0; j < 4; j++)
		_mm_storeu_si128((__m128i *)(lane + 2 * j), a[j]);
}
#elif defined(__aarch64__) && defined(__ARM_NEON) && !defined(__ARM_BIG_ENDIAN) && \
	!defined(AIETH_HASH_PORTABLE)
/* (little-endian only: the words are loaded as bytes and read as lanes) */
#include <arm_neon.h>
#define H128_VECTOR "NEON"

static void h128_blocks(uint64_t lane[8], const uint8_t *p, size_t blocks)
{
	uint64x2_t a[4];
	const uint32x2_t c = vdup_n_u32(0x9e3779b1u);
	int i, j;
	for (j = 0; j < 4; j++)
		a[j] = vld1q_u64(lane + 2 * j);
	for (; blocks; blocks--) {
		for (i = 0; i < H128_STRIPES; i++, p += 64)
			for (j = 0; j < 4; j++) {
				uint64x2_t w = vreinterpretq_u64_u8(vld1q_u8(p + 16 * j));
				uint64x2_t k = veorq_u64(w, vld1q_u64(hkey + i + 2 * j));
				a[j] = vmlal_u32(a[j], vmovn_u64(k), vshrn_n_u64(k, 32));
				a[j] = vaddq_u64(a[j], vextq_u64(w, w, 1));
			}
		for (j = 0; j < 4; j++) {
			uint64x2_t x = veorq_u64(a[j], vshrq_n_u64(a[j], 47));
			x = veorq_u64(x, vld1q_u64(hkey + K_SCRAMBLE + 2 * j));
			a[j] = vaddq_u64(vmull_u32(vmovn_u64(x), c),
					 vshlq_n_u64(vmull_u32(vshrn_n_u64(x, 32), c), 32));
		}
	}
	for (j = 0; j < 4; j++)
		vst1q_u64(lane + 2 * j, a[j]);
}
#else
#define H128_VECTOR "portable"

/* the lanes in a local array (no aliasing with the input: what lets the
 * compilers keep them in vector registers) */
static void h128_blocks(uint64_t lane[8], const uint8_t *p, size_t blocks)
{
	uint64_t acc[8];
	int i;
	memcpy(acc, lane, sizeof acc);
	for (; blocks; blocks--) {
		for (i = 0; i < H128_STRIPES; i++, p += 64)
			h128_stripe(acc, p, hkey + i);
		h128_scramble(acc);
	}
	memcpy(lane, acc, sizeof acc);
}
#endif

/* One stripe at the state's position; a block's last stripe scrambles. */
static void h128_step(aieth_hash128 *s, const uint8_t *p)
{
	h128_stripe(s->lane, p, hkey + s->stripe);
	if (++s->stripe == H128_STRIPES) {
		h128_scramble(s->lane);
		s->stripe = 0;
	}
}

const char *aieth__hash128_form(void) { return H128_VECTOR; }

void aieth__hash128_init(aieth_hash128 *s)
{
	int i;
	for (i = 0; i < 8; i++)
		s->lane[i] = hkey[K_FINAL + i];
	s->bytes = 0;
	s->fill = 0;
	s->stripe = 0;
}

void aieth__hash128_update(aieth_hash128 *s, const void *data, size_t len)
{
	const uint8_t *p = data;
	s->bytes += len;
	if (s->fill) {
		size_t n = 64 - s->fill < len ? 64 - s->fill : len;
		memcpy(s->buf + s->fill, p, n);
		s->fill += n, p += n, len -= n;
		if (s->fill < 64)
			return;
		h128_step(s, s->buf);
		s->fill = 0;
	}
	/* up to a block boundary, then whole blocks with the key offsets fixed */
	for (; len >= 64 && s->stripe; p += 64, len -= 64)
		h128_step(s, p);
	if (len >= 64 * H128_STRIPES) {
		h128_blocks(s->lane, p, len / (64 * H128_STRIPES));
		p += len / (64 * H128_STRIPES) * (64 * H128_STRIPES);
		len %= 64 * H128_STRIPES;
	}
	for (; len >= 64; p += 64, len -= 64)
		h128_step(s, p);
	memcpy(s->buf, p, len);
	s->fill = len;
}

void aieth__hash128_final(aieth_hash128 *s, uint8_t out[16])
{
	uint64_t a, b;
	int i;
	/* the tail, zero-padded (the length below tells "a" from "a\0"), then
	 * a scramble so the last block's sums are mixed like every other */
	if (s->fill) {
		memset(s->buf + s->fill, 0, 64 - s->fill);
		h128_stripe(s->lane, s->buf, hkey + s->stripe);
	}
	h128_scramble(s->lane);
	a = mix64(s->bytes ^ hkey[K_FINAL]);
	b = mix64(s->bytes * 0x9e3779b97f4a7c15ull ^ hkey[K_FINAL + 1]);
	for (i = 0; i < 8; i++) {
		a = mix64(a ^ s->lane[i]);
		b = mix64(b + (s->lane[7 - i] ^ hkey[K_SCRAMBLE + i]));
	}
	b = mix64(b ^ a);
	for (i = 0; i < 8; i++) {
		out[i] = (uint8_t)(a >> (56 - 8 * i));
		out[8 + i] = (uint8_t)(b >> (56 - 8 * i));
	}
}

/* ---------------------------------------------------------------- UUIDs */

void aieth_uuid_format(const uint8_t u[16], char out[37])
{
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		 u[13], u[14], u[15]);
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
		hi = aieth__hexval(p[0]);
		lo = hi < 0 ? -1 : aieth__hexval(p[1]);
		if (lo < 0)
			break;
		uuid[n++] = (uint8_t)(hi << 4 | lo);
		p += 2;
	}
	if (n != 16 || *p)
		return aieth__fail(AIETH_EINVAL,
				   "UUID \"%s\": expected 32 hex digits "
				   "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)",
				   text);
	return AIETH_OK;
}

/* -------------------------------------------------------- HMAC-SHA256 */

void aieth__hmac_sha256_init(aieth_hmac_sha256 *h, const uint8_t *key, size_t key_len)
{
	uint8_t k[64], pad[64];
	size_t i;
	memset(k, 0, sizeof k);
	if (key_len > sizeof k) { /* RFC 2104: a longer key is hashed first */
		aieth_sha256 s;
		aieth__sha256_init(&s);
		aieth__sha256_update(&s, key, key_len);
		aieth__sha256_final(&s, k);
	} else if (key_len) {
		memcpy(k, key, key_len);
	}
	for (i = 0; i < sizeof pad; i++)
		pad[i] = k[i] ^ 0x36;
	aieth__sha256_init(&h->inner);
	aieth__sha256_update(&h->inner, pad, sizeof pad);
	for (i = 0; i < sizeof pad; i++)
		pad[i] = k[i] ^ 0x5c;
	aieth__sha256_init(&h->outer);
	aieth__sha256_update(&h->outer, pad, sizeof pad);
}

void aieth__hmac_sha256_update(aieth_hmac_sha256 *h, const void *data, size_t len)
{
	aieth__sha256_update(&h->inner, data, len);
}

void aieth__hmac_sha256_final(aieth_hmac_sha256 *h, uint8_t out[32])
{
	uint8_t in[32];
	aieth__sha256_final(&h->inner, in);
	aieth__sha256_update(&h->outer, in, sizeof in);
	aieth__sha256_final(&h->outer, out);
}

int aieth__bytes_equal(const void *a, const void *b, size_t n)
{
	const volatile uint8_t *x = a, *y = b;
	uint8_t d = 0;
	size_t i;
	for (i = 0; i < n; i++)
		d |= (uint8_t)(x[i] ^ y[i]);
	return d == 0;
}

void aieth__sha256_hex(const uint8_t d[32], char out[65])
{
	static const char x[] = "0123456789abcdef";
	int i;
	for (i = 0; i < 32; i++) {
		out[2 * i] = x[d[i] >> 4];
		out[2 * i + 1] = x[d[i] & 15];
	}
	out[64] = '\0';
}
