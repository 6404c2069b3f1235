/* SPDX-License-Identifier: MIT */
/*
 * util/hash.h - hashes (used with xclbin files): SHA-256 (reported file
 * identity) and a fast 128-bit content hash (the derived xclbin UUID, which
 * must cost little next to copying the payload; it is not cryptographic).
 */
#ifndef AIETH_UTIL_HASH_H
#define AIETH_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint32_t h[8];
	uint64_t bytes;
	uint8_t buf[64];
	size_t fill;
} aieth_sha256;

void aieth__sha256_init(aieth_sha256 *s);
void aieth__sha256_update(aieth_sha256 *s, const void *data, size_t len);
void aieth__sha256_final(aieth_sha256 *s, uint8_t out[32]);
/* A digest as 64 lowercase hex digits and a NUL. */
void aieth__sha256_hex(const uint8_t d[32], char out[65]);

/* HMAC-SHA256 (RFC 2104): a check only the holder of key can make. */
typedef struct {
	aieth_sha256 inner, outer;
} aieth_hmac_sha256;

void aieth__hmac_sha256_init(aieth_hmac_sha256 *h, const uint8_t *key, size_t key_len);
void aieth__hmac_sha256_update(aieth_hmac_sha256 *h, const void *data, size_t len);
void aieth__hmac_sha256_final(aieth_hmac_sha256 *h, uint8_t out[32]);
/* 1 when the n bytes of a and b are equal; the time does not depend on
 * where they differ (a check compared so leaks nothing of the right one). */
int aieth__bytes_equal(const void *a, const void *b, size_t n);

/* hash128 (hash.c): 8 lanes over 64-byte stripes; streamed updates in any
 * split give the digest of the whole. */
typedef struct {
	uint64_t lane[8];
	uint64_t bytes;
	uint8_t buf[64];
	size_t fill;
	unsigned stripe; /* the next stripe's place in its block */
} aieth_hash128;

void aieth__hash128_init(aieth_hash128 *s);
void aieth__hash128_update(aieth_hash128 *s, const void *data, size_t len);
void aieth__hash128_final(aieth_hash128 *s, uint8_t out[16]);
/* The form of the block loop this build runs: "SSE2", "NEON", "portable"
 * (the same digests; make bench prints it beside the speed). */
const char *aieth__hash128_form(void);

/* 16 bytes -> "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (37 bytes with NUL).
 * Public too (aieth/package.h): th_package prints UUIDs with it. */
void aieth_uuid_format(const uint8_t uuid[16], char out[37]);
/* Parse that form (dashes optional, either case); AIETH_EINVAL otherwise.
 * Public too (aieth/package.h): th_package parses --uuid with it. */
int aieth_uuid_parse(const char *text, uint8_t uuid[16]);

#endif
