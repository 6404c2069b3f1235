/* SPDX-License-Identifier: MIT */
/*
 * test_hash.c - hash128 (util/hash.c): pinned digests, streaming in any
 * split, and sensitivity to every bit, to the length and to the order of
 * stripes and blocks (the places its design could lose information).
 */
#include <stdint.h>
#include <string.h>

#include "tu.h"
#include "util/hash.h"

/* A block is 16 stripes of 64 bytes (hash.c H128_STRIPES). */
#define STRIPE 64
#define BLOCK (16 * STRIPE)

static void fill(uint8_t *b, size_t n, uint32_t seed)
{
	size_t i;
	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		b[i] = (uint8_t)(seed >> 16);
	}
}

static void digest(const void *p, size_t n, uint8_t out[16])
{
	aieth_hash128 h;
	aieth__hash128_init(&h);
	aieth__hash128_update(&h, p, n);
	aieth__hash128_final(&h, out);
}

static void hex(const uint8_t d[16], char out[33])
{
	static const char x[] = "0123456789abcdef";
	int i;
	for (i = 0; i < 16; i++) {
		out[2 * i] = x[d[i] >> 4];
		out[2 * i + 1] = x[d[i] & 15];
	}
	out[32] = '\0';
}

/* The digest of n bytes at p is the pinned one (told on stderr if not). */
static void check_pinned(const uint8_t *p, size_t n, size_t at, const char *want)
{
	uint8_t d[16];
	char got[33];
	digest(p, n, d);
	hex(d, got);
	if (strcmp(got, want))
		fprintf(stderr, "hash128 of %zu bytes at offset %zu: %s, pinned %s\n", n, at, got,
			want);
	CU_ASSERT_STRING_EQUAL(got, want);
}

/* Pinned digests: a change of the function changes the PDI cache entry
 * names and the derived xclbin UUIDs (docs/packaging.md), so it must be
 * deliberate. The same values on every build (gcc, clang, aarch64). */
static void test_known_answers(void)
{
	static const size_t lens[] = {0, 1, 3, 63, 64, 65, 1023, 1024, 1025, 4096 + 7, 100000};
	static const char *const want[] = {
		"ebb0df2a416181093517d2a1b2c0c49c", "39df0612e62b38ac115097304c38cfec",
		"383d136b3a1e15d46ecb4715d9d0d214", "e37c29116281845aea5d00abe9e9e4ec",
		"6daf8abeaf48dcdaf55e59fb0655b41e", "05af3dc4a677d6d1335149225a8c1e23",
		"b4f722ac7bd41bd9757ed0ed0b47312e", "0e35828f20943d71a8a7776341ec8e13",
		"bd9c4036fc4a53fe1a45eb27d07a6b5e", "4e75cab81a91d26f2ff40080de84e956",
		"a3ccc48fca0233a0fa312ffdef1db222", "60cc3fd9f4351a194afbbad1e469c123", /* "abc" */
	};
	uint8_t *b = malloc(100000);
	size_t i;
	CU_ASSERT_FATAL(b != NULL);
	fill(b, 100000, 1);
	for (i = 0; i < sizeof lens / sizeof lens[0]; i++)
		check_pinned(b, lens[i], 0, want[i]);
	check_pinned((const uint8_t *)"abc", 3, 0, want[sizeof lens / sizeof lens[0]]);
	free(b);
}

/* Many blocks, from an address that is not 8-byte aligned (the block loop
 * of hash.c has a vector form per architecture: SSE2, NEON; each must give
 * the digests of the portable form, pinned here from it). */
static void test_known_answers_long(void)
{
	static const size_t lens[] = {BLOCK * 97 + 5, (1u << 20) + 13, (3u << 20) + 700};
	static const char *const want[] = {
		"98fd36159c06100a189ef6982fa9b099",
		"8b5021dfa9a4ad2993f1f150f261eafb",
		"191d517077c551594b17fb8cf780faeb",
	};
	const size_t at = 3, size = at + (3u << 20) + 701;
	uint8_t *b = malloc(size);
	size_t i;
	CU_ASSERT_FATAL(b != NULL);
	fill(b, size, 7);
	for (i = 0; i < sizeof lens / sizeof lens[0]; i++)
		check_pinned(b + at, lens[i], at, want[i]);
	free(b);
}

/* Streamed updates in random pieces (0 bytes included) equal one call. */
static void test_random_splits(void)
{
	enum { N = 5 * BLOCK + 3 * STRIPE + 17 };
	static uint8_t b[N];
	uint8_t one[16], many[16];
	uint32_t r = 7;
	int round;
	fill(b, N, 2);
	digest(b, N, one);
	for (round = 0; round < 300; round++) {
		aieth_hash128 h;
		size_t off = 0, k;
		aieth__hash128_init(&h);
		while (off < N) {
			r = r * 1664525u + 1013904223u;
			/* small pieces, pieces around a stripe, and large ones */
			k = round % 3 == 0   ? (r >> 8) % 9
			    : round % 3 == 1 ? (r >> 8) % 130
					     : (r >> 8) % (3 * BLOCK);
			if (k > N - off)
				k = N - off;
			aieth__hash128_update(&h, b + off, k);
			off += k;
		}
		aieth__hash128_final(&h, many);
		CU_ASSERT_EQUAL(memcmp(one, many, 16), 0);
	}
}

/* Every single-bit flip of a 3-block-and-a-tail input changes the digest
 * (stripe and block boundaries, and the tail, included), and no two of
 * those digests collide with the original. */
static void test_bit_flips(void)
{
	enum { N = 3 * BLOCK + 37 };
	static uint8_t b[N];
	uint8_t base[16], d[16];
	size_t i, bad = 0;
	int bit;
	fill(b, N, 3);
	digest(b, N, base);
	for (i = 0; i < N; i++)
		for (bit = 0; bit < 8; bit++) {
			b[i] ^= (uint8_t)(1u << bit);
			digest(b, N, d);
			bad += !memcmp(d, base, 16);
			b[i] ^= (uint8_t)(1u << bit);
		}
	CU_ASSERT_EQUAL(bad, 0);
	/* all zero input too: a flipped bit where the key makes a product 0 */
	memset(b, 0, N);
	digest(b, N, base);
	for (i = 0; i < N; i += 5) {
		b[i] = 0x80;
		digest(b, N, d);
		bad += !memcmp(d, base, 16);
		b[i] = 0;
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* Lengths 0..3 blocks of zeros: all digests distinct ("a" and "a\0"). */
static void test_lengths(void)
{
	enum { MAX = 3 * BLOCK };
	static uint8_t z[MAX], d[MAX + 1][16];
	size_t i, j, same = 0;
	for (i = 0; i <= MAX; i++)
		digest(z, i, d[i]);
	for (i = 0; i <= MAX; i++)
		for (j = i + 1; j <= MAX; j++)
			same += !memcmp(d[i], d[j], 16);
	CU_ASSERT_EQUAL(same, 0);
}

/* Swapping two stripes of a block, or two blocks, changes the digest:
 * the sums are not order-blind. */
static void test_order(void)
{
	static uint8_t b[4 * BLOCK], t[BLOCK];
	uint8_t base[16], d[16];
	fill(b, sizeof b, 4);
	digest(b, sizeof b, base);
	memcpy(t, b + STRIPE, STRIPE);
	memcpy(b + STRIPE, b + 5 * STRIPE, STRIPE);
	memcpy(b + 5 * STRIPE, t, STRIPE);
	digest(b, sizeof b, d);
	CU_ASSERT_NOT_EQUAL(memcmp(d, base, 16), 0);
	fill(b, sizeof b, 4);
	memcpy(t, b, BLOCK);
	memcpy(b, b + 2 * BLOCK, BLOCK);
	memcpy(b + 2 * BLOCK, t, BLOCK);
	digest(b, sizeof b, d);
	CU_ASSERT_NOT_EQUAL(memcmp(d, base, 16), 0);
	/* two equal stripes swapped: the same bytes, the same digest */
	fill(b, sizeof b, 4);
	memcpy(b + 3 * STRIPE, b, STRIPE);
	digest(b, sizeof b, base);
	digest(b, sizeof b, d);
	CU_ASSERT_EQUAL(memcmp(d, base, 16), 0);
}

TU_MAIN("hash", {"known answers (pinned)", test_known_answers},
	{"known answers of many blocks, unaligned (pinned)", test_known_answers_long},
	{"random splits equal one call", test_random_splits},
	{"every bit flip changes the digest", test_bit_flips},
	{"every length changes the digest", test_lengths},
	{"stripe and block order matter", test_order})
