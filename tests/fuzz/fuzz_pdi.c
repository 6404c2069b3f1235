/* SPDX-License-Identifier: MIT */
/*
 * fuzz_pdi.c - libFuzzer target for the PDI rules of th_package check
 * (aieth__pdi_check: XRT's PDI loader and the PLM's header rules) and the
 * IDCODE scan the packager uses (aieth__pdi_idcode).
 *
 * Invariants: every problem line names the PDI; the count returned is the
 * number of lines; a PDI the check accepts holds an Image Header Table the
 * scan finds, and with VCK190's board file its IDCODE is that device's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "fuzz_check.h"
#include "th_package/pdi.h"
#include "util/error.h"
#include "xclbin/pdi_format.h"
#include "xclbin/xclbin_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static aieth_board *board;

typedef struct {
	const uint8_t *data;
	size_t size;
} mem;

static int read_mem(void *ctx, void *buf, size_t n, uint64_t off)
{
	const mem *m = ctx;
	CHECK(off <= m->size && n <= m->size - off);
	memcpy(buf, m->data + off, n);
	return 0;
}

static size_t lines;
static void line_ok(void *ctx, const char *line)
{
	(void)ctx;
	CHECK(strncmp(line, "fuzz.pdi: ", 10) == 0);
	lines++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mem m = {data, size};
	uint32_t id, ext;
	size_t n;
	int b;
	if (!board && aieth_board_load(&board, "vck190", getenv("AIETH_DATA_DIR"))) {
		fprintf(stderr, "fuzz_pdi: %s\n", aieth_error_message());
		abort();
	}
	for (b = 0; b < 2; b++) {
		lines = 0;
		/* both window policies of the command walk (memory, file) */
		n = aieth__pdi_check(read_mem, &m, size, "fuzz.pdi", b ? board : NULL, line_ok,
				     NULL, b ? 0u : AIETH_PDI_READ_MEM);
		CHECK(n == lines);
		if (n)
			continue;
		CHECK(aieth__pdi_idcode(data, size, &id, &ext) == AIETH_OK);
		if (b)
			CHECK(((aieth__le32_get(data + 0x28) ^
				aieth_board_get_info(board)->device_id_code) &
			       0x0fffffffu) == 0);
	}
	return 0;
}
