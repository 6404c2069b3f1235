/* SPDX-License-Identifier: MIT */
/*
 * xclbin_format.h - the byte layout of an xclbin (axlf) file, as offsets,
 * so reader and writer never depend on a compiler's struct layout.
 * Facts: XRT's src/runtime_src/core/include/xclbin.h (all little-endian).
 */
#ifndef AIETH_XCLBIN_FORMAT_H
#define AIETH_XCLBIN_FORMAT_H

#include <stdint.h>
#include <string.h>

#include "util/le.h"

#define XB_MAGIC "xclbin2" /* 8 bytes with the NUL */
#define XB_PREFIX 456u     /* struct axlf without its one section header */
#define XB_SECTION_HDR 40u
#define XB_AXLF_STRUCT 496u    /* sizeof(struct axlf): zocl's bounds use it */
#define XB_MAX_SECTIONS 10000u /* XRT's limit (zocl's is 0x10000) */
#define XB_ALIGN 8u

/* absolute offsets in the prefix */
#define XB_OFF_MAGIC 0u
#define XB_OFF_SIGLEN 8u
#define XB_OFF_RESERVED 12u /* 28 bytes, 0xFF */
#define XB_OFF_KEYBLOCK 40u /* 256 bytes, 0xFF */
#define XB_OFF_UNIQUE_ID 296u
#define XB_OFF_LENGTH 304u
#define XB_OFF_TIMESTAMP 312u
#define XB_OFF_FROM_TS 320u
#define XB_OFF_VPATCH 328u
#define XB_OFF_VMAJOR 330u
#define XB_OFF_VMINOR 331u
#define XB_OFF_MODE 332u
#define XB_OFF_ACTION 334u
#define XB_OFF_IF_UUID 336u
#define XB_OFF_VBNV 352u /* 64 bytes */
#define XB_OFF_UUID 416u
#define XB_OFF_DEBUG_BIN 432u /* 16 bytes */
#define XB_OFF_NUM_SECTIONS 448u

/* offsets within a section header */
#define XB_SH_KIND 0u
#define XB_SH_NAME 4u /* 16 bytes */
#define XB_SH_OFFSET 24u
#define XB_SH_SIZE 32u

/* section kinds with a fixed binary layout (size = hdr + count * elem) */
#define XB_KIND_EMBEDDED_METADATA 2u
#define XB_KIND_MEM_TOPOLOGY 6u
#define XB_KIND_CONNECTIVITY 7u
#define XB_KIND_IP_LAYOUT 8u
#define XB_KIND_DEBUG_IP_LAYOUT 9u
#define XB_KIND_CLOCK_FREQ_TOPOLOGY 11u
#define XB_KIND_BUILD_METADATA 14u
#define XB_KIND_PARTITION_METADATA 20u
#define XB_KIND_GROUP_TOPOLOGY 26u
#define XB_KIND_GROUP_CONNECTIVITY 27u
#define XB_KIND_MAX 36u /* DTBO, the last kind XRT knows */
#define XB_MODE_MAX 6u  /* HW_EMU_PR */

/* The size of the struct a section of this kind opens with (xclbin_kinds.c),
 * *name its name in XRT's xclbin.h; 0 for kinds without one. */
unsigned aieth__xb_kind_fixed_header(uint32_t kind, const char **name);

#endif
