/* SPDX-License-Identifier: MIT */
/*
 * pkg_pdi.h - a small partial PDI as Debian's bootgen 2022.2 lays one out
 * for `bootgen -arch versal` with one CDO image (SMAP width words, the
 * Image Header Table at 0x10, one image header at 0x90, one partition
 * header at 0xd0, the CDO at 0x150), and the complete
 * aie_control_config.json the xclbin tests use; header-only, so the
 * xclbin unit tests need no other fixture code. Offsets: XRT
 * aie-pdi-transform/libinclude/load_pdi.h (XilPdi_ImgHdrTbl, XilPdi_ImgHdr,
 * XilPdi_PrtnHdr).
 */
#ifndef PKG_PDI_H
#define PKG_PDI_H

#include <stdint.h>
#include <string.h>

#define PF_PDI_IHT 0x10u
#define PF_PDI_IH 0x90u
#define PF_PDI_PH 0xd0u
#define PF_PDI_CDO 0x150u
#define PF_PDI_CDO_WORDS 8u /* 5 header words + 3 of commands */
#define PF_PDI_BYTES (PF_PDI_CDO + 4u * PF_PDI_CDO_WORDS)

static inline void pf_pdi_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16),
	p[3] = (uint8_t)(v >> 24);
}

static inline uint32_t pf_pdi_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Store ~(sum of the words before it) in the last word of n bytes at p. */
static inline void pf_pdi_sum(uint8_t *p, size_t n)
{
	uint32_t s = 0;
	size_t k;
	for (k = 0; k + 4 < n; k += 4)
		s += pf_pdi_get32(p + k);
	pf_pdi_put32(p + n - 4, ~s);
}

/* Re-seal every header checksum after a field was changed on purpose. */
static inline void pf_pdi_reseal(uint8_t *b)
{
	pf_pdi_sum(b + PF_PDI_IHT, 128);
	pf_pdi_sum(b + PF_PDI_IH, 64);
	pf_pdi_sum(b + PF_PDI_PH, 128);
	pf_pdi_sum(b + PF_PDI_CDO, 20);
}

/* Write the PDI (PF_PDI_BYTES) with this IDCODE into b. */
static inline void pf_pdi_build(uint8_t b[PF_PDI_BYTES], uint32_t id_code)
{
	uint8_t *t = b + PF_PDI_IHT, *ih = b + PF_PDI_IH, *ph = b + PF_PDI_PH, *c = b + PF_PDI_CDO;
	memset(b, 0, PF_PDI_BYTES);
	pf_pdi_put32(b, 0xdd), pf_pdi_put32(b + 4, 0x11223344); /* SMAP width words */
	pf_pdi_put32(b + 8, 0x55667788), pf_pdi_put32(b + 12, 0x99aabbcc);
	pf_pdi_put32(t + 0x00, 0x00040000);    /* version */
	pf_pdi_put32(t + 0x04, 1);             /* images */
	pf_pdi_put32(t + 0x08, PF_PDI_IH / 4); /* first image header (words) */
	pf_pdi_put32(t + 0x0c, 1);             /* partitions */
	pf_pdi_put32(t + 0x10, PF_PDI_PH / 4); /* first partition header (words) */
	pf_pdi_put32(t + 0x18, id_code);
	memcpy(t + 0x28, "IDPP", 4);  /* "PPDI" as a word */
	pf_pdi_put32(t + 0x44, 0x01); /* extended IDCODE */
	pf_pdi_put32(ih + 0x00, PF_PDI_PH / 4);
	pf_pdi_put32(ih + 0x04, 1);
	memcpy(ih + 0x10, "aie_image", 9);
	pf_pdi_put32(ih + 0x20, 0x1c000000);       /* image id */
	pf_pdi_put32(ph + 0x00, PF_PDI_CDO_WORDS); /* encrypted, unencrypted, total words */
	pf_pdi_put32(ph + 0x04, PF_PDI_CDO_WORDS);
	pf_pdi_put32(ph + 0x08, PF_PDI_CDO_WORDS);
	pf_pdi_put32(ph + 0x18, 0xffffffff), pf_pdi_put32(ph + 0x1c, 0xffffffff);
	pf_pdi_put32(ph + 0x20, PF_PDI_CDO / 4); /* data word offset */
	pf_pdi_put32(ph + 0x24, 0x02000006);     /* attributes: a CDO partition */
	pf_pdi_put32(ph + 0x28, 1);              /* section count */
	pf_pdi_put32(c + 0x00, 4);               /* CDO header: length word, "CDO\0", */
	memcpy(c + 0x04, "CDO", 4);              /* version 2.0, command words */
	pf_pdi_put32(c + 0x08, 0x200);
	pf_pdi_put32(c + 0x0c, PF_PDI_CDO_WORDS - 5);
	pf_pdi_put32(c + 0x14, 0x00020103); /* a write: module 1, command 3, */
	pf_pdi_put32(c + 0x18, 0xf1230000); /* 2 words (address, value) */
	pf_pdi_put32(c + 0x1c, 0);
	pf_pdi_reseal(b);
}

/* An aie_control_config.json with every node XRT's edge parser reads
 * (XRT src/runtime_src/core/edge/common/aie_parser.cpp). */
#define PF_META_FULL                                                                              \
	"{\"aie_metadata\": {\"driver_config\": {\"hw_gen\": 1, \"base_address\": "               \
	"2199023255552, \"column_shift\": 23, \"row_shift\": 18, \"num_columns\": 50, "           \
	"\"num_rows\": 9, \"shim_row\": 0, \"reserved_row_start\": 0, \"reserved_num_rows\": 0, " \
	"\"aie_tile_row_start\": 1, \"aie_tile_num_rows\": 8}, \"aiecompiler_options\": "         \
	"{\"broadcast_enable_core\": true}, \"graphs\": {\"graph0\": {\"id\": 0, \"name\": "      \
	"\"g\", \"core_columns\": [10], \"core_rows\": [1], \"iteration_memory_columns\": [10], " \
	"\"iteration_memory_rows\": [1], \"iteration_memory_addresses\": [6132], "                \
	"\"multirate_triggers\": [false]}}, \"RTPs\": {}, \"GMIOs\": {}, \"PLIOs\": {}}}"

#endif
