/* SPDX-License-Identifier: MIT */
/*
 * pdi_format.h - the rules a Versal PDI and a binary CDO must meet before
 * XRT and the PLM load them: the check of an xclbin's PDI section and the
 * CDO header check the packager applies to its inputs (package/ reads
 * them through package/pdi.h). Not installed.
 */
#ifndef AIETH_PDI_FORMAT_H
#define AIETH_PDI_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "aieth.h"

/* The Image Header Table of a partial PDI starts after the four SMAP
 * width words (XRT aie-pdi-transform/libinclude/load_pdi.h,
 * PDI_IMAGE_HDR_TABLE_OFFSET); table, image and partition headers are
 * 128, 64 and 128 bytes (XIH_IHT_LEN, XIH_IH_LEN, XIH_PH_LEN there). */
#define AIETH_PDI_IHT_OFFSET 0x10u
#define AIETH_PDI_IHT_BYTES 128u
#define AIETH_PDI_IH_BYTES 64u
#define AIETH_PDI_PH_BYTES 128u

/* Check the 20-byte header of a binary CDO file (len >= 20 bytes read from
 * a file of file_size bytes): header length word, identification word
 * ("CDO\0" for version 2.x, "XLNX" before), version, payload length and
 * checksum. `what` names the file in the message. */
#define AIETH_CDO_HEADER_BYTES 20u
int aieth__cdo_check_header(const uint8_t *buf, size_t len, uint64_t file_size, const char *what);

/* Reads n bytes at off (off + n <= the size given to aieth__pdi_check);
 * non-zero on failure (message set). */
typedef int (*aieth_pdi_read_fn)(void *ctx, void *buf, size_t n, uint64_t off);

/* aieth__pdi_check flags. READ_MEM: read copies memory (a mapping, a
 * buffer): the command walk reads only the command words, in small reads;
 * without it each read is a system call, and the walk reads windows of
 * AIETH_IO_CHUNK bytes (util/fileio.h), about one per MiB of CDO. NO_WALK:
 * the CDO command streams are not walked (the caller walked these very
 * bytes: docs/packaging.md, "What is checked"); their headers still are. */
#define AIETH_PDI_READ_MEM 1u
#define AIETH_PDI_NO_WALK 2u

/* Check a PDI of size bytes as XRT's PDI loader and the PLM read it: the
 * Image Header Table at 0x10 (its checksum, identification string, image
 * and partition counts, the device IDCODE against the board's when board
 * is not NULL and states one), each image and partition header (inside
 * the PDI, checksum, lengths), each partition's data inside the PDI, and
 * the CDO header at the start of each unencrypted CDO partition and its
 * command stream (unless flags hold AIETH_PDI_NO_WALK). One line
 * per problem to report, each starting with `what`; returns the count. */
size_t aieth__pdi_check(aieth_pdi_read_fn read, void *rctx, uint64_t size, const char *what,
			const aieth_board *board, aieth_problem_fn report, void *ctx,
			unsigned flags);

#endif
