/* SPDX-License-Identifier: MIT */
/*
 * xclbin_pdi.c - the PDI section's rules (pdi_format.h). The sources:
 * - XRT src/runtime_src/tools/xclbinutil/aie-pdi-transform/lib/load_pdi.c
 *   and libinclude/load_pdi.h: the table at 0x10, a PDI longer than
 *   0x10 + 128 bytes, the table's checksum (~ the sum of its other words);
 * - embeddedsw lib/sw_services/xilpdi/src/xilpdi.c (XilPdi_ValidateImgHdrTbl,
 *   XilPdi_ValidatePrtnHdr) and xilloader/src/xloader.c
 *   (XLoader_IdCodeCheck): 1..32 images and partitions, the header
 *   checksums, partition lengths non-zero and total >= each part, the
 *   IDCODE of the device without its revision nibble;
 * - bootgen readimage-versal.cpp (the "PPDI"/"FPDI" id string, headers
 *   read at their word offsets) and cdo-binary.c (decode_cdo_binary), and
 *   embeddedsw xilplmi/src/xplmi_cdo.c (XPlmi_CdoVerifyHeader): the CDO
 *   header.
 */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "aieth.h"
#include "util/error.h"
#include "util/fileio.h"
#include "xclbin/pdi_format.h"
#include "xclbin/problems.h"
#include "xclbin/xclbin_format.h"

#define IHT_VERSION 0x00u
#define IHT_NUM_IMAGES 0x04u
#define IHT_IMAGE_HDR 0x08u /* word offset */
#define IHT_NUM_PARTS 0x0cu
#define IHT_PART_HDR 0x10u /* word offset */
#define IHT_IDCODE 0x18u
#define IHT_ID_STRING 0x28u
#define IHT_META_KEY_SRC 0x40u /* non-zero: the headers are encrypted */
#define IHT_EXT_IDCODE 0x44u
#define PH_ENC_WORDS 0x00u
#define PH_UNENC_WORDS 0x04u
#define PH_TOTAL_WORDS 0x08u
#define PH_DATA_WORD_OFF 0x20u
#define PH_ATTR 0x24u
#define PH_ENC_STATUS 0x44u            /* non-zero: the partition is encrypted */
#define PDI_MAX_IMAGES 32u             /* XIH_MAX_IMGS (embeddedsw xilpdi.h) */
#define PDI_MAX_PARTS 32u              /* XIH_MAX_PRTNS */
#define PRTN_TYPE_CDO 2u               /* PrtnAttrb bits 26..24 (XIH_PH_ATTRB_PRTN_TYPE) */
#define IDCODE_DEVICE_MASK 0x0fffffffu /* without the revision nibble */

int aieth__cdo_check_header(const uint8_t *b, size_t len, uint64_t file_size, const char *what)
{
	uint32_t w[5], sum, ident, want_ident;
	int i;
	if (len < AIETH_CDO_HEADER_BYTES || file_size < AIETH_CDO_HEADER_BYTES)
		return aieth__fail(AIETH_EPARSE,
				   "%s: size: expected a CDO file of at least 20 bytes "
				   "(its header), found %llu",
				   what, (unsigned long long)file_size);
	for (i = 0; i < 5; i++)
		w[i] = aieth__le32_get(b + 4 * i);
	if (w[0] != 4)
		return aieth__fail(AIETH_EPARSE,
				   "%s: CDO header length word: expected 4, found %u "
				   "(not a binary CDO file?)",
				   what, (unsigned)w[0]);
	ident = w[1];
	want_ident = w[2] < 0x200 ? 0x584c4e58u : 0x004f4443u; /* "XNLX" / "CDO\0" */
	if (ident != want_ident)
		return aieth__fail(AIETH_EPARSE,
				   "%s: CDO identification word: expected 0x%08x for "
				   "version 0x%x, found 0x%08x",
				   what, (unsigned)want_ident, (unsigned)w[2], (unsigned)ident);
	if (w[2] >= 0x300)
		return aieth__fail(AIETH_EPARSE,
				   "%s: CDO version: expected below 0x300, found 0x%x", what,
				   (unsigned)w[2]);
	for (sum = 0, i = 0; i < 4; i++)
		sum += w[i];
	if (w[4] != ~sum)
		return aieth__fail(AIETH_EPARSE,
				   "%s: CDO header checksum: expected 0x%08x, found "
				   "0x%08x",
				   what, (unsigned)~sum, (unsigned)w[4]);
	if ((uint64_t)w[3] * 4 + AIETH_CDO_HEADER_BYTES > file_size)
		return aieth__fail(AIETH_EPARSE,
				   "%s: CDO length: %u words do not fit in the file "
				   "(%llu bytes)",
				   what, (unsigned)w[3], (unsigned long long)file_size);
	return AIETH_OK;
}

/* The CDO command stream (bootgen cdo-binary.c decode_v2_cmd and
 * check_cdo_commands; embeddedsw xilplmi xplmi_cdo.c XPlmi_CdoCmdExecute,
 * xplmi_cmd.c XPlmi_CmdSize, xplmi_modules.h): after the 5-word header,
 * commands up to the header's length. Each starts with a word holding the
 * payload length in bits 23..16 (255: the length is the next word), the
 * PLM module in bits 15..8 and the command in bits 7..0; 0x100 (0x1ff in
 * older PLMs) ends the stream whatever follows. XRT's own CDO parser
 * (xclbinutil aie-pdi-transform lib/cdo_cmd.c XCdo_LoadCdo) refuses a
 * command longer than what is left and a command it does not run. */
#define CDO_END_MARK 0x100u
#define CDO_END_MARK_OLD 0x1ffu
#define CDO_LONG_LEN 255u
#define CDO_GENERIC_MODULE 1u
#define CDO_GENERIC_LAST 42u /* XPLMI_LIST_MASK_POLL_CMD_ID */
#define CDO_CHUNK_WORDS 1024u
#define CDO_FIRST_WORDS 16u

/* The PLM's modules (embeddedsw xilplmi common/xplmi_modules.h: generic,
 * XilPM, SEM, XilSecure, XilPSM, loader, error manager, STL, XilNvm,
 * XilPuf, XilOcp); the PLM refuses a command of any other. */
static int plm_module(unsigned m)
{
	return m == 1 || m == 2 || m == 3 || m == 5 || m == 6 || m == 7 || m == 8 || m == 10 ||
	       m == 11 || m == 12 || m == 13;
}

/* Payload words the generic commands bootgen writes read at fixed places
 * (bootgen cdo-binary.c encode_cdo_binary; xplmi_generic.c): a shorter
 * command's fields would be the next command's words. */
static uint32_t generic_min_payload(unsigned cmd, const char **name)
{
	static const struct {
		unsigned cmd;
		uint32_t min;
		const char *name;
	} t[] = {{1, 4, "mask_poll (address, mask, value, timeout)"},
		 {2, 3, "mask_write (address, mask, value)"},
		 {3, 2, "write (address, value)"},
		 {4, 1, "delay (time)"},
		 {5, 2, "dma_write (64-bit address)"},
		 {6, 5, "mask_poll64 (64-bit address, mask, value, timeout)"},
		 {7, 4, "mask_write64 (64-bit address, mask, value)"},
		 {8, 3, "write64 (64-bit address, value)"},
		 {9, 6, "dma_xfer (source, destination, length, flags)"}};
	size_t i;
	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].cmd == cmd) {
			*name = t[i].name;
			return t[i].min;
		}
	*name = NULL;
	return 0;
}

typedef struct {
	aieth_pdi_read_fn read;
	void *rctx;
	uint64_t base; /* offset of the CDO's first word in the PDI */
	uint8_t *buf;  /* the window: raw, or AIETH_IO_CHUNK bytes on the heap */
	uint64_t cap;  /* its size in words */
	int mem;       /* reads are memory copies (AIETH_PDI_READ_MEM) */
	uint8_t raw[CDO_CHUNK_WORDS * 4];
	uint64_t first, count; /* the words held: [first, first + count) */
	uint64_t want;         /* words the next read asks for */
} cdo_words;

/* Word i of the CDO (i inside it); -1 with the message set on a read error.
 * A read of a file is a system call: one window of AIETH_IO_CHUNK bytes
 * from the first word not held, whose command headers are all parsed
 * before the next read (a payload longer than the window is skipped by
 * offset, not read): at most about one read per MiB whatever the
 * commands' sizes. A read of memory costs its bytes: it starts small and
 * doubles while the commands are dense (each read follows the last), so
 * a DMA write's megabytes are skipped, not copied. */
static int cdo_word(cdo_words *w, uint64_t i, uint64_t end, uint32_t *out)
{
	uint64_t n;
	if (i < w->first || i >= w->first + w->count) {
		if (!w->mem)
			w->want = w->cap;
		else if (w->count && i == w->first + w->count)
			w->want = w->want * 2 < w->cap ? w->want * 2 : w->cap;
		else
			w->want = CDO_FIRST_WORDS;
		n = end - i < w->want ? end - i : w->want;
		if (w->read(w->rctx, w->buf, (size_t)n * 4, w->base + i * 4))
			return -1;
		w->first = i;
		w->count = n;
	}
	*out = aieth__le32_get(w->buf + 4 * (i - w->first));
	return 0;
}

/* The walk of check_cdo_commands over the words w reads, [i, end). */
static void check_cdo_stream(aieth_problems *s, cdo_words *w, uint64_t i, uint64_t end,
			     uint32_t words, uint64_t data, const char *where)
{
	uint64_t pos;
	uint32_t hdr, len, size, min;
	unsigned module, cmd;
	const char *name;
	while (i < end) {
		pos = i;
		if (cdo_word(w, i, end, &hdr))
			goto read_error;
		if (hdr == CDO_END_MARK)
			return;
		if (hdr == CDO_END_MARK_OLD)
			return;
		len = (hdr >> 16) & 0xffu;
		size = 1;
		if (len == CDO_LONG_LEN) {
			if (i + 1 >= end) {
				aieth__problem(
					s,
					"%s: CDO command at word %llu (offset 0x%llx, header "
					"0x%08x): expected its long length in the next word, "
					"found the end of the CDO (%u command words; a length "
					"that cuts the command)",
					where, (unsigned long long)pos,
					(unsigned long long)(data + pos * 4), (unsigned)hdr,
					(unsigned)words);
				return;
			}
			if (cdo_word(w, i + 1, end, &len))
				goto read_error;
			size = 2;
		}
		module = (hdr >> 8) & 0xffu;
		cmd = hdr & 0xffu;
		if ((uint64_t)len > end - pos - size) {
			aieth__problem(
				s,
				"%s: CDO command at word %llu (offset 0x%llx, header 0x%08x, "
				"module %u command %u): payload: expected at most %llu words "
				"(what is left of the CDO's %u command words), found %u: the "
				"command runs past the CDO",
				where, (unsigned long long)pos,
				(unsigned long long)(data + pos * 4), (unsigned)hdr, module, cmd,
				(unsigned long long)(end - pos - size), (unsigned)words,
				(unsigned)len);
			return;
		}
		if (!plm_module(module)) {
			aieth__problem(
				s,
				"%s: CDO command at word %llu (offset 0x%llx, header 0x%08x): "
				"module: expected a PLM module (1 generic, 2 XilPM, 3 SEM, 5, 6, "
				"7 loader, 8 error manager, 10..13), found %u: an unknown "
				"command (not a CDO, or a damaged one)",
				where, (unsigned long long)pos,
				(unsigned long long)(data + pos * 4), (unsigned)hdr, module);
			return;
		}
		if (module == CDO_GENERIC_MODULE && cmd > CDO_GENERIC_LAST) {
			aieth__problem(
				s,
				"%s: CDO command at word %llu (offset 0x%llx, header 0x%08x): "
				"command: expected one of the PLM's generic commands 0..%u "
				"(module 1), found %u: an unknown command",
				where, (unsigned long long)pos,
				(unsigned long long)(data + pos * 4), (unsigned)hdr,
				CDO_GENERIC_LAST, cmd);
			return;
		}
		if (module == CDO_GENERIC_MODULE && len < (min = generic_min_payload(cmd, &name))) {
			aieth__problem(
				s,
				"%s: CDO command at word %llu (offset 0x%llx, header 0x%08x): "
				"payload of %s: expected at least %u words, found %u: a length "
				"that cuts the command",
				where, (unsigned long long)pos,
				(unsigned long long)(data + pos * 4), (unsigned)hdr, name,
				(unsigned)min, (unsigned)len);
			return;
		}
		i = pos + size + len;
	}
	return;
read_error:
	aieth__problem(s, "%s: CDO command words: %s", where, aieth_error_message());
}

/* Walk the commands of the CDO at data (its header checked: words words
 * of commands); the first problem, reported in where, ends the walk. */
static void check_cdo_commands(aieth_problems *s, aieth_pdi_read_fn read, void *rctx, uint64_t data,
			       uint32_t words, const char *where, unsigned flags)
{
	cdo_words w;
	uint64_t i = AIETH_CDO_HEADER_BYTES / 4, end = i + words;
	w.read = read, w.rctx = rctx, w.base = data, w.first = 0, w.count = 0;
	w.want = CDO_FIRST_WORDS;
	w.mem = !!(flags & AIETH_PDI_READ_MEM);
	w.buf = w.raw, w.cap = CDO_CHUNK_WORDS;
	/* a file's window on the heap; without one, the small reads of memory */
	if (!w.mem && !(w.buf = malloc(AIETH_IO_CHUNK)))
		w.buf = w.raw, w.mem = 1;
	else if (!w.mem)
		w.cap = AIETH_IO_CHUNK / 4;
	check_cdo_stream(s, &w, i, end, words, data, where);
	if (w.buf != w.raw)
		free(w.buf);
}

/* ~(sum of the words before the last) == the last word */
static int checksum_ok(const uint8_t *p, size_t bytes, uint32_t *want)
{
	uint32_t sum = 0;
	size_t k;
	for (k = 0; k + 4 < bytes; k += 4)
		sum += aieth__le32_get(p + k);
	*want = ~sum;
	return *want == aieth__le32_get(p + bytes - 4);
}

/* A header of n bytes at off: 0 when read; a problem when it lies outside. */
static int read_hdr(aieth_problems *s, aieth_pdi_read_fn read, void *rctx, uint64_t size,
		    uint64_t off, uint8_t *buf, size_t n, const char *name)
{
	if (off > size || n > size - off) {
		aieth__problem(
			s,
			"%s at offset 0x%llx: expected its %zu bytes inside the PDI (%llu bytes), "
			"found it cut (a truncated PDI or a damaged offset; bootgen "
			"readimage-versal.cpp reads it there)",
			name, (unsigned long long)off, n, (unsigned long long)size);
		return -1;
	}
	if (read(rctx, buf, n, off)) {
		aieth__problem(s, "%s at offset 0x%llx: %s", name, (unsigned long long)off,
			       aieth_error_message());
		return -1;
	}
	return 0;
}

static void check_partition(aieth_problems *s, aieth_pdi_read_fn read, void *rctx, uint64_t size,
			    unsigned k, uint64_t off, unsigned flags)
{
	uint8_t ph[AIETH_PDI_PH_BYTES], cdo[AIETH_CDO_HEADER_BYTES];
	char name[64], cdo_what[600];
	uint32_t want, enc, unenc, total, type;
	uint64_t data;
	snprintf(name, sizeof name, "partition header %u", k);
	if (read_hdr(s, read, rctx, size, off, ph, sizeof ph, name))
		return;
	if (!checksum_ok(ph, sizeof ph, &want)) {
		aieth__problem(
			s,
			"%s at offset 0x%llx: checksum (offset 0x%llx): expected 0x%08x, found 0x%08x "
			"(embeddedsw xilpdi.c XilPdi_ReadAndVerifyPrtnHdr)",
			name, (unsigned long long)off, (unsigned long long)(off + sizeof ph - 4),
			(unsigned)want, (unsigned)aieth__le32_get(ph + sizeof ph - 4));
		return;
	}
	enc = aieth__le32_get(ph + PH_ENC_WORDS);
	unenc = aieth__le32_get(ph + PH_UNENC_WORDS);
	total = aieth__le32_get(ph + PH_TOTAL_WORDS);
	type = (aieth__le32_get(ph + PH_ATTR) >> 24) & 7u;
	if (!enc || !unenc || !total || total < enc || total < unenc) {
		aieth__problem(
			s,
			"%s at offset 0x%llx: lengths: expected non-zero word counts with total >= "
			"encrypted and unencrypted (embeddedsw xilpdi.c XilPdi_ValidatePrtnHdr), found "
			"encrypted %u, unencrypted %u, total %u",
			name, (unsigned long long)off, (unsigned)enc, (unsigned)unenc,
			(unsigned)total);
		return;
	}
	if (!type)
		aieth__problem(
			s,
			"%s at offset 0x%llx: partition type (attributes 0x%08x): expected 1..7, "
			"found 0 (reserved; embeddedsw xilpdi.c XilPdi_ValidatePrtnHdr)",
			name, (unsigned long long)off, (unsigned)aieth__le32_get(ph + PH_ATTR));
	data = (uint64_t)aieth__le32_get(ph + PH_DATA_WORD_OFF) * 4;
	if (data > size || (uint64_t)total * 4 > size - data) {
		aieth__problem(
			s,
			"%s at offset 0x%llx: data (offset 0x%llx, %llu bytes): expected inside the "
			"PDI (%llu bytes), found it cut (a truncated PDI or a damaged length)",
			name, (unsigned long long)off, (unsigned long long)data,
			(unsigned long long)total * 4, (unsigned long long)size);
		return;
	}
	if (type != PRTN_TYPE_CDO || aieth__le32_get(ph + PH_ENC_STATUS))
		return;
	if (read_hdr(s, read, rctx, size, data, cdo, sizeof cdo, "CDO header"))
		return;
	snprintf(cdo_what, sizeof cdo_what, "%s: %s data at offset 0x%llx", s->what, name,
		 (unsigned long long)data);
	if (!aieth__cdo_check_header(cdo, sizeof cdo, (uint64_t)unenc * 4, cdo_what)) {
		if (flags & AIETH_PDI_NO_WALK)
			return;
		snprintf(cdo_what, sizeof cdo_what, "%s data at offset 0x%llx", name,
			 (unsigned long long)data);
		check_cdo_commands(s, read, rctx, data, aieth__le32_get(cdo + 12), cdo_what, flags);
	} else {
		s->count++;
		if (s->report) {
			char line[1024];
			snprintf(line, sizeof line,
				 "%s (bootgen cdo-binary.c decode_cdo_binary, "
				 "embeddedsw xplmi_cdo.c XPlmi_CdoVerifyHeader)",
				 aieth_error_message());
			s->report(s->ctx, line);
		}
	}
}

size_t aieth__pdi_check(aieth_pdi_read_fn read, void *rctx, uint64_t size, const char *what,
			const aieth_board *board, aieth_problem_fn report, void *ctx,
			unsigned flags)
{
	aieth_problems s = {what, report, ctx, 0};
	uint8_t t[AIETH_PDI_IHT_BYTES], ih[AIETH_PDI_IH_BYTES];
	const aieth_board_info *in = board ? aieth_board_get_info(board) : NULL;
	uint32_t want, nimg, nprt, id, k;
	uint64_t off;
	char name[32];

	if (size <= AIETH_PDI_IHT_OFFSET + AIETH_PDI_IHT_BYTES) {
		aieth__problem(
			&s,
			"size: expected more than %u bytes (the SMAP words and the Image Header "
			"Table; XRT load_pdi.c XPdi_Header_Validate), found %llu",
			AIETH_PDI_IHT_OFFSET + AIETH_PDI_IHT_BYTES, (unsigned long long)size);
		goto out;
	}
	if (read(rctx, t, sizeof t, AIETH_PDI_IHT_OFFSET)) {
		aieth__problem(&s, "Image Header Table: %s", aieth_error_message());
		goto out;
	}
	if (!checksum_ok(t, sizeof t, &want)) {
		aieth__problem(
			&s,
			"Image Header Table checksum (offset 0x%x): expected 0x%08x, found 0x%08x "
			"(XRT load_pdi.c XPdi_ValidateChecksum; not a PDI, or a damaged one)",
			AIETH_PDI_IHT_OFFSET + AIETH_PDI_IHT_BYTES - 4, (unsigned)want,
			(unsigned)aieth__le32_get(t + sizeof t - 4));
		goto out;
	}
	if (memcmp(t + IHT_ID_STRING, "IDPP", 4) && memcmp(t + IHT_ID_STRING, "IDPF", 4))
		aieth__problem(
			&s,
			"Image Header Table id string (offset 0x%x): expected \"PPDI\" or \"FPDI\" "
			"(bootgen readimage-versal.cpp), found 0x%08x",
			AIETH_PDI_IHT_OFFSET + IHT_ID_STRING,
			(unsigned)aieth__le32_get(t + IHT_ID_STRING));
	id = aieth__le32_get(t + IHT_IDCODE);
	if (in && in->has_device_id_code &&
	    (id & IDCODE_DEVICE_MASK) != (in->device_id_code & IDCODE_DEVICE_MASK))
		aieth__problem(
			&s,
			"Image Header Table IDCODE (offset 0x%x): expected 0x%08x (board %s; the "
			"revision nibble aside, embeddedsw xloader.c XLoader_IdCodeCheck), found 0x%08x",
			AIETH_PDI_IHT_OFFSET + IHT_IDCODE, (unsigned)in->device_id_code, in->name,
			(unsigned)id);
	nimg = aieth__le32_get(t + IHT_NUM_IMAGES);
	nprt = aieth__le32_get(t + IHT_NUM_PARTS);
	if (nimg < 1 || nimg > PDI_MAX_IMAGES || nprt < 1 || nprt > PDI_MAX_PARTS) {
		aieth__problem(
			&s,
			"Image Header Table counts (offsets 0x%x, 0x%x): expected 1..%u images and "
			"1..%u partitions (embeddedsw xilpdi.c XilPdi_ValidateImgHdrTbl), found %u and %u",
			AIETH_PDI_IHT_OFFSET + IHT_NUM_IMAGES, AIETH_PDI_IHT_OFFSET + IHT_NUM_PARTS,
			PDI_MAX_IMAGES, PDI_MAX_PARTS, (unsigned)nimg, (unsigned)nprt);
		goto out;
	}
	/* encrypted headers cannot be read without the key */
	if (aieth__le32_get(t + IHT_META_KEY_SRC))
		goto out;
	off = (uint64_t)aieth__le32_get(t + IHT_IMAGE_HDR) * 4;
	for (k = 0; k < nimg; k++, off += AIETH_PDI_IH_BYTES) {
		snprintf(name, sizeof name, "image header %u", (unsigned)k);
		if (read_hdr(&s, read, rctx, size, off, ih, sizeof ih, name))
			goto out;
		if (!checksum_ok(ih, sizeof ih, &want)) {
			aieth__problem(
				&s,
				"%s at offset 0x%llx: checksum: expected 0x%08x, found 0x%08x "
				"(embeddedsw xilpdi.c XilPdi_ReadAndVerifyImgHdr)",
				name, (unsigned long long)off, (unsigned)want,
				(unsigned)aieth__le32_get(ih + sizeof ih - 4));
			goto out;
		}
	}
	off = (uint64_t)aieth__le32_get(t + IHT_PART_HDR) * 4;
	for (k = 0; k < nprt; k++, off += AIETH_PDI_PH_BYTES)
		check_partition(&s, read, rctx, size, (unsigned)k, off, flags);
out:
	aieth__error_clear();
	return s.count;
}
