/* SPDX-License-Identifier: MIT */
/*
 * le.h - little-endian integers in byte arrays (not installed): the xclbin
 * format, AMD's wire protocol, the xrt backend's frames and the PL DMA
 * engine's memory images all store them so. Byte by byte, so any alignment
 * and any host byte order work; compilers turn each into one load or store.
 */
#ifndef AIETH_UTIL_LE_H
#define AIETH_UTIL_LE_H

#include <stdint.h>

static inline uint16_t aieth__le16_get(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static inline uint32_t aieth__le32_get(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t aieth__le64_get(const uint8_t *p)
{
	return (uint64_t)aieth__le32_get(p) | (uint64_t)aieth__le32_get(p + 4) << 32;
}

static inline void aieth__le16_put(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void aieth__le32_put(uint8_t *p, uint32_t v)
{
	aieth__le16_put(p, (uint16_t)v);
	aieth__le16_put(p + 2, (uint16_t)(v >> 16));
}

static inline void aieth__le64_put(uint8_t *p, uint64_t v)
{
	aieth__le32_put(p, (uint32_t)v);
	aieth__le32_put(p + 4, (uint32_t)(v >> 32));
}

/* An n-byte little-endian integer, n from 1 to 8 (data elements: 1, 2, 4 or
 * 8 bytes); a constant n unrolls. */
static inline uint64_t aieth__le_get(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	unsigned k;
	for (k = 0; k < n; k++)
		v |= (uint64_t)p[k] << (8 * k);
	return v;
}

static inline void aieth__le_put(uint8_t *p, uint64_t v, unsigned n)
{
	unsigned k;
	for (k = 0; k < n; k++)
		p[k] = (uint8_t)(v >> (8 * k));
}

#endif
