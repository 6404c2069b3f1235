/* SPDX-License-Identifier: MIT */
/*
 * fuzz_xclbin.c - libFuzzer target for the strict xclbin reader
 * (aieth__xclbin_open_mem), the whole-file check and the section reads.
 *
 * Invariants: a strict open succeeds exactly when the lenient one finds no
 * problem; every problem line names the file; a readable section lies
 * inside the data and reads back its own bytes; the check counts at least
 * the structural problems.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "fuzz_check.h"
#include "util/error.h"
#include "xclbin/xclbin_object.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static aieth_board *board;

static void no_op(void *ctx, const char *line)
{
	(void)ctx;
	CHECK(strstr(line, "fuzz.xclbin") != NULL || strstr(line, "PLIO") != NULL ||
	      strstr(line, "AIE_METADATA") != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	aieth_xclbin *x = NULL, *strict = NULL;
	aieth_aie_meta *m = NULL;
	aieth_xclbin_section s;
	size_t i, n, len;
	void *buf;
	int rc, src;

	if (!board && aieth_board_load(&board, "vck190", getenv("AIETH_DATA_DIR"))) {
		fprintf(stderr, "fuzz_xclbin: %s\n", aieth_error_message());
		abort();
	}
	rc = aieth__xclbin_open_mem(&x, "fuzz.xclbin", data, size, AIETH_XCLBIN_LENIENT);
	src = aieth__xclbin_open_mem(&strict, "fuzz.xclbin", data, size, 0);
	if (rc) {
		CHECK(rc < 0 && x == NULL && src != 0);
		CHECK(strstr(aieth_error_message(), "fuzz.xclbin") != NULL);
		return 0;
	}
	n = aieth_xclbin_num_problems(x);
	CHECK((src == 0) == (n == 0));
	for (i = 0; i < n; i++)
		CHECK(strncmp(aieth_xclbin_problem(x, i), "fuzz.xclbin: ", 13) == 0);
	CHECK(aieth_xclbin_get_header(x)->file_size == size);
	for (i = 0; i < aieth_xclbin_num_sections(x); i++) {
		CHECK(aieth_xclbin_section_at(x, i, &s) == 0);
		if (aieth_xclbin_section_read(x, i, 1u << 20, &buf, &len) == 0) {
			CHECK(s.offset <= size && len <= size - s.offset);
			CHECK(memcmp(buf, data + s.offset, len) == 0);
			free(buf);
		}
	}
	CHECK(aieth_xclbin_check(x, board, no_op, NULL) >= n);
	if (aieth_xclbin_aie_meta(x, &m) == 0)
		aieth_aie_meta_free(m);
	aieth_xclbin_close(x);
	aieth_xclbin_close(strict);
	return 0;
}
